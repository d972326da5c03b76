"""Scenario helpers for the New York Kings engine tests: a position, one step, an outcome.

`Table` wraps a `Game` after `engine.setup` with the mission row emptied, so a test puts on the
board exactly what the rule needs (characters, missions, police cars, cards, money) and then calls
the engine's own step functions. Dice are forced through `g[FORCED0 + i]`; decisions are steered:
with the `random` policy every decision with n > 1 options draws `below(n)` from the seat's policy
stream, so `steer` finds a generator state whose next draws pick the wanted option rows.

Only a handful of engine functions are called from Python (each compiles its own entry point the
first time); the wrappers below all reuse the argument types of the engine's internal calls.
"""

import random
from functools import cache

import numpy as np

from sim.nyk.hands import parse_value
from sim.nyk import engine as E
from sim.nyk.chapters import actions as actions_rules
from sim.nyk.chapters import cards as cards_rules
from sim.nyk.chapters import end
from sim.nyk.chapters import fights
from sim.nyk.chapters import invariants
from sim.nyk.chapters import missions
from sim.nyk.chapters import movement as movement_rules
from sim.nyk.chapters import police as police_rules
from sim.nyk.chapters import recruitment
from sim.nyk.chapters import setup
from sim.nyk.chapters import turn
from sim.nyk.compiled import MAX_PARAMS, P_MISSION_ROW
from sim.nyk import state as S
from sim.nyk.env import RP_R_PARAMS, make_env
from sim.rng import run_key
from sim.rules import Ruleset
from sim.nyk.compiled import compile_ruleset
from strategies.nyk.params import DEFAULTS

RANDOM, SIMPLE, PARAM = 0, 1, 2  # policy families (strategies.nyk.params.FAMILIES)
RULES = Ruleset.load()
BOARD = RULES.board.names
DISTRICT = {name: i for i, name in enumerate(BOARD)}
FINANCIAL, TRIBECA, SOHO, GREENWICH, CHELSEA = (DISTRICT[n] for n in (
    "FINANCIAL", "TRIBECA", "SOHO", "GREENWICH VILLAGE", "CHELSEA"))
GARMENT, HELLS_KITCHEN, BROADWAY, GRAND_CENTRAL = (DISTRICT[n] for n in (
    "GARMENT DISTRICT", "HELL'S KITCHEN", "BROADWAY", "GRAND CENTRAL"))
LITTLE_ITALY, CHINATOWN, GRAMERCY, HARLEM, WASHINGTON_HEIGHTS = (DISTRICT[n] for n in (
    "LITTLE ITALY", "CHINATOWN", "GRAMERCY", "HARLEM", "WASHINGTON HEIGHTS"))
BROOKLYN, UNION_CITY, BRONX, QUEENS = (DISTRICT[n] for n in (
    "BROOKLYN", "UNION CITY", "BRONX", "QUEENS"))
PERIPHERAL = (BROOKLYN, UNION_CITY, BRONX, QUEENS)
HENCH = {h.name: S.N_AFFRANCHI + i for i, h in enumerate(RULES.characters.henchmen)}
NINE, TEN, J, Q, K, A = range(6)


@cache
def env_for(kind=RANDOM, overrides=()):
    ruleset = Ruleset.load(overrides=dict(overrides)) if overrides else RULES
    knobs = np.tile(DEFAULTS, (S.MAX_SEATS, 1))  # PARAM seats play the balanced preset
    return make_env(ruleset, [kind] * S.MAX_SEATS, knobs)


def compiled(overrides=()):
    return compile_ruleset(Ruleset.load(overrides=dict(overrides)) if overrides else RULES)


def mission_ids(crew=None, risk=None, secret=None):
    """Mission card ids with the wanted printed properties (assumed deck, missions.toml)."""
    R = compiled()
    return [m for m in range(S.N_MISSIONS)
            if (crew is None or R.mission_crew[m] == crew)
            and (risk is None or R.mission_at_risk[m] == risk)
            and (secret is None or R.mission_secret[m] == secret)]


def card_ids(kind):
    """Resource card ids of one effect kind (E_*)."""
    return [c for c, k in enumerate(compiled().resource_kind) if k == kind]


def with_param(t, card, index, value):
    """The table's rules with one parameter of one card changed (a private copy of the env)."""
    env = t.env.copy()
    env["rp"][RP_R_PARAMS + MAX_PARAMS * card + index] = value
    t.env = env
    return t


# --- steering the random policy (pure-Python xoshiro256**, the same as sim.rng) ----------------
_M64 = (1 << 64) - 1


def _rotl(x, k):
    return ((x << k) | (x >> (64 - k))) & _M64


def _next(s):
    result = (_rotl((s[1] * 5) & _M64, 7) * 9) & _M64
    t = (s[1] << 17) & _M64
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = _rotl(s[3], 45)
    return result


def below(s, n):
    return ((_next(s) >> 11) * n) >> 53


def steering_state(picks, seed=0):
    """A generator state whose next draws `below(n_i)` give k_i for each (n_i, k_i) in `picks`."""
    rnd = random.Random(seed)
    for _ in range(1_000_000):
        state = [rnd.getrandbits(64) | 1 for _ in range(4)]
        s = list(state)
        if all(below(s, n) == k for n, k in picks):
            return np.array(state, dtype=np.uint64)
    raise AssertionError(f"no generator state found for {picks}")


# --- a position ---------------------------------------------------------------------------------

class Table:
    """One game after setup, with the mission row emptied (its tiles back in the bag)."""

    def __init__(self, n_players=2, kind=RANDOM, overrides=None, seed=1, game_id=0, clear=True):
        self.overrides = tuple(sorted((overrides or {}).items()))
        self.env = env_for(kind, self.overrides)
        self.game = S.new_game()
        self.g, self.pl, self.ch, self.ms = self.game.g, self.game.pl, self.game.ch, self.game.ms
        setup.setup(self.game, self.env, n_players, run_key(seed), game_id)
        self.opts, self.ctx = self.game.opts, self.game.ctx  # the rules list and ask in the game's own
        if clear:
            for s in range(self.env.rp[P_MISSION_ROW]):
                m = self.g[S.ROW0 + s]
                if m != S.NO:
                    self.g[S.ROW0 + s] = S.NO
                    self.ms[m, S.M_SLOT] = S.NO
                    missions.mission_out(self.game, m)
            for p in range(n_players):  # affranchi wait off the police station
                S.place(self.game, p, S.W_CONTROLLED, WASHINGTON_HEIGHTS)
            self.g[S.FIRST] = S.NO  # nobody moves the police unless a test says so (NYK-M5)

    # --- dice and decisions -------------------------------------------------------------------
    def force(self, *dice):
        """The next dice rolled, as ranks or labels ("9", "10", "J", "Q", "K", "A")."""
        values = [parse_value(d) for d in dice]
        assert len(values) <= S.N_FORCED
        self.g[S.FORCED0:S.FORCED0 + len(values)] = values
        self.g[S.FORCED_N] = len(values)
        self.g[S.FORCED_POS] = 0

    def dice_left(self):
        return int(self.g[S.FORCED_N] - self.g[S.FORCED_POS])

    def steer(self, *picks, seat=None, seed=0):
        """The random policy's next decisions: (number of options, index picked) pairs, drawn from
        seat `seat`'s policy stream (sim.rng: one per seat), or from every seat's when None."""
        state = steering_state(picks, seed)
        for p in range(S.MAX_SEATS) if seat is None else [seat]:
            self.game.rng[S.S_POLICY0 + p] = state

    # --- characters ---------------------------------------------------------------------------
    def _take_card(self, c):
        """Take henchman c out of the deck, the discard pile or its peripheral district."""
        g = self.g
        where = self.ch[c, S.WHERE]
        if where == S.W_DECK:
            block, count = S.H_DECK0, S.H_DECK_N
        elif where == S.W_DISCARD:
            block, count = S.H_DISC0, S.H_DISC_N
        else:
            block = None
        if block is not None:
            n = g[count]
            ids = list(g[block:block + n])
            ids.remove(c)
            g[block:block + n - 1] = ids
            g[count] = n - 1
        elif where == S.W_PERIPHERAL:
            for slot in range(4):
                if g[S.PERIPH0 + slot] == c:
                    g[S.PERIPH0 + slot] = S.NO

    def hench(self, c, p, d):
        """Henchman c (id or name) controlled by seat p on district d."""
        c = HENCH.get(c, c)
        if self.ch[c, S.WHERE] != S.W_CONTROLLED:
            self._take_card(c)
        S.set_owner(self.game, c, p)
        S.place(self.game, c, S.W_CONTROLLED, d)
        self.ch[c, S.CELL] = 0
        self.ch[c, S.START] = d
        return c

    def at(self, c, d):
        S.place(self.game, c, self.ch[c, S.WHERE], d)
        self.ch[c, S.START] = d
        return c

    def peripheral(self, slot, c):
        """Put henchman c (id or name) on peripheral slot (0 BROOKLYN .. 3 QUEENS)."""
        c = HENCH.get(c, c)
        old = self.g[S.PERIPH0 + slot]
        if old != S.NO:  # the old one goes back on top of the deck
            S.place(self.game, old, S.W_DECK, S.NO)
            self.g[S.H_DECK0 + self.g[S.H_DECK_N]] = old
            self.g[S.H_DECK_N] += 1
            self.g[S.PERIPH0 + slot] = S.NO
        self._take_card(c)
        self.g[S.PERIPH0 + slot] = c
        S.place(self.game, c, S.W_PERIPHERAL, PERIPHERAL[slot])
        return c

    def custody(self, c, cell):
        S.place(self.game, c, S.W_CUSTODY, S.NO)
        self.ch[c, S.CELL] = cell

    def group(self, *chars):
        mask = 0
        for c in chars:
            mask |= 1 << HENCH.get(c, c)
        return mask

    def begin(self, p):
        """Seat p's turn starts (the engine's start_player_turn, without the opponents' cards)."""
        self.g[S.ACTIVE] = p
        self.pl[p, S.RECRUITED] = 0
        for c in range(S.N_CHARS):
            if self.ch[c, S.OWNER] == p:
                self.ch[c, [S.STEPS, S.STOPPED, S.MOVED, S.ACTED]] = 0
                self.ch[c, S.START] = self.ch[c, S.LOC]

    # --- missions and tiles -------------------------------------------------------------------
    def bag(self):
        return list(self.g[S.BAG0:S.BAG0 + self.g[S.BAG_N]])

    def take_tile(self, d):
        tiles = self.bag()
        assert d in tiles, f"tile {BOARD[d]} is not in the bag"
        tiles.remove(d)
        self.g[S.BAG0:S.BAG0 + len(tiles)] = tiles
        self.g[S.BAG_N] = len(tiles)
        return d

    def _from_deck(self, m):
        """Draw mission m now: swap it to the top of the deck and step past it."""
        g = self.g
        pos = g[S.M_DECK_POS]
        deck = g[S.M_DECK0:S.M_DECK0 + S.N_MISSIONS + 1]
        i = int(np.flatnonzero(deck == m)[0])
        assert i >= pos, "mission already drawn"
        deck[i], deck[pos] = deck[pos], deck[i]
        if deck[i] == S.END_CARD:
            g[S.END_CARD_POS] = i
        g[S.M_DECK_POS] = pos + 1

    def row(self, slot, m, accept, dest=None):
        """Mission m on row space `slot` (0 = space 1) with its tiles."""
        self._from_deck(m)
        self.g[S.ROW0 + slot] = m
        self.ms[m, S.M_STATE] = S.MS_ROW
        self.ms[m, S.M_SLOT] = slot
        self.ms[m, S.M_ACCEPT] = self.take_tile(accept)
        self.ms[m, S.M_DEST] = S.NO if dest is None else self.take_tile(dest)
        return m

    def hold(self, m, crew, dest, accept=None):
        """Mission m accepted by the characters in `crew`, heading for `dest`."""
        self._from_deck(m)
        p = self.ch[crew[0], S.OWNER]
        if accept is None:
            accept = next(d for d in self.bag() if d != dest)
        self.ms[m, S.M_STATE] = S.MS_HELD
        self.ms[m, S.M_HOLDER] = p
        self.ms[m, S.M_ACCEPT] = self.take_tile(accept)
        self.ms[m, S.M_DEST] = self.take_tile(dest)
        for c in crew:
            self.ch[c, S.MISSION] = m
        return m

    # --- police, money, cards -----------------------------------------------------------------
    def police(self, *districts):
        """The police cars in play, on these districts (the others not in play)."""
        self.g[S.POLICE0:S.POLICE0 + S.N_POLICE] = S.PC_OFF
        for k, d in enumerate(districts):
            self.g[S.POLICE0 + k] = d
        self.g[S.POLICE_STEPS0:S.POLICE_STEPS0 + S.N_POLICE] = 0

    def cars(self):
        return [int(x) for x in self.g[S.POLICE0:S.POLICE0 + S.N_POLICE]]

    def money(self, p, amount=None):
        """Read, or set while conserving the money total (the bank pays the difference)."""
        if amount is not None:
            self.g[S.BANK] -= amount - self.pl[p, S.MONEY]
            self.pl[p, S.MONEY] = amount
        return int(self.pl[p, S.MONEY])

    def deck(self):
        return list(self.g[S.R_DECK0:S.R_DECK0 + self.g[S.R_DECK_N]])

    def hand(self, p):
        return list(self.pl[p, S.HAND0:S.HAND0 + self.pl[p, S.HAND_N]])

    def give(self, p, *cards):
        """Resource cards from the draw pile into p's hand."""
        deck = self.deck()
        for card in cards:
            deck.remove(card)
            self.pl[p, S.HAND0 + self.pl[p, S.HAND_N]] = card
            self.pl[p, S.HAND_N] += 1
        self.pl[p, S.HAND_KINDS] = cards_rules.kinds_in_hand(self.game, self.env, p)
        self.g[S.R_DECK0:S.R_DECK0 + len(deck)] = deck
        self.g[S.R_DECK_N] = len(deck)

    def stack(self, *cards):
        """Put these cards on top of the draw pile, the first drawn first."""
        deck = [c for c in self.deck() if c not in cards]
        deck += list(reversed(cards))
        self.g[S.R_DECK0:S.R_DECK0 + len(deck)] = deck

    def told(self):
        """The game's recorded events told in words (sim.nyk.narrate), seats named "seat p"."""
        from sim.nyk.narrate import Names, narrate
        from sim.shared.narrate import recorded

        names = Names(RULES, [f"seat {p}" for p in range(S.MAX_SEATS)])
        return narrate(recorded(self.game, S.N_EVENTS), names)

    def check(self):
        broken = invariants.invariants(self.game, self.env)
        assert broken == 0, invariants.INVARIANTS[broken]

    def options(self, p, listing="actions"):
        """The legal option rows the engine lists for p."""
        if listing == "actions":
            n = actions_rules.list_actions(self.game, self.env, p)
        else:
            n = movement_rules.list_journeys(self.game, self.env, p, 0, listing == "police")
        return [tuple(int(x) for x in row) for row in self.opts[:n]]

    # --- engine steps -------------------------------------------------------------------------
    def journey(self, p, d, group, mode=0):
        movement_rules.journey(self.game, self.env, p, d, group, mode)

    def interrogate(self, p, d):
        police_rules.interrogate(self.game, self.env, p, d)

    def provoke(self, p, d, q, spender):
        fights.provoke(self.game, self.env, p, d, q, spender)

    def recruit(self, p, h, offer, card=S.NO):
        recruitment.recruit(self.game, self.env, p, HENCH.get(h, h), offer, card)

    def accept(self, p, slot, crew):
        missions.accept(self.game, self.env, p, slot, crew)

    def accomplish(self, p, m, crew):
        missions.accomplish(self.game, self.env, p, m, crew)

    def deals(self, first):
        movement_rules.police_deals(self.game, self.env, first)

    def movement(self, p):
        movement_rules.movement_phase(self.game, self.env, p)

    def actions(self, p):
        actions_rules.actions_phase(self.game, self.env, p)

    def resources(self, order):
        order = np.asarray(order, dtype=np.int64)
        turn.resources_phase(self.game, self.env, order, len(order))

    def corruption(self):
        turn.corruption(self.game, self.env)

    def move_police(self, k, d, mover):
        police_rules.move_police(self.game, self.env, k, d, mover)

    def custody_phase(self, p):
        police_rules.custody_phase(self.game, self.env, p)

    def end_of_turn(self):
        missions.end_of_turn_missions(self.game, self.env)

    def ranking(self):
        end.final_ranking(self.game, self.env)


def play(n_players, kind=RANDOM, overrides=None, seed=7, game_id=0, record=0, check=1):
    """One whole game in check mode; returns (game, invariant code)."""
    env = env_for(kind, tuple(sorted((overrides or {}).items())))
    game = S.new_game()
    code = E.play(game, env, n_players, run_key(seed), game_id, record, check)
    return game, code
