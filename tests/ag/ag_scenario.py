"""Scenario helpers for the American Gangsters engine tests: a position, one step, an outcome.

`Table` wraps a game after `engine.setup` (turn order from the godfather filled in), so a test
puts on the table exactly what a rule needs (cards revealed, pieces placed, bags, titles) and
calls the engine's own step functions. Dice faces and bullets are forced through g[FORCED0 + i]
(faces 0..5: with the default dice, 0 is a CLIC on every die, 5 a BANG on every die, 2 a CLIC on
a henchman, a BANG on a killer and the FBI joker on an occasional die). Decisions are scripted:
seats play the `script` policy, which answers the queued option indices (then option 0).

Only a few engine functions are called from Python; each reuses the argument types of the
engine's internal calls, so they compile nothing new.
"""

from functools import cache

import numpy as np

from sim.ag import engine as E
from sim.ag.chapters import base
from sim.ag.chapters import events
from sim.ag.chapters import hospital as hospital_rules
from sim.ag.chapters import invariants
from sim.ag.chapters import placement as placement_rules
from sim.ag.chapters import resolution
from sim.ag.chapters import setup
from sim.ag.chapters import titles
from sim.ag.chapters import turn as turn_rules
from sim.ag import readers
from sim.ag.env import RP_C_DISTRICT
from sim.ag import state as S
from sim.ag.env import make_env
from sim.ag.game import Lineup, play_many
from strategies.ag.policy import DEFAULTS, PARAMETRIC, RANDOM, SCRIPT
from sim.rng import run_key
from sim.rules import Ruleset

RULES = Ruleset.load(game="ag")
CARDS = RULES.content["locations"]
CLIC, BANG, H_CLIC_K_BANG = 0, 5, 2   # forced faces (see the module docstring)
FBI_FACE = 2                          # an occasional die's FBI joker
BRONX, BROOKLYN, QUEENS, MANHATTAN = (CARDS.districts.index(d) for d in ("Bronx", "Brooklyn", "Queens",
                                                                        "Manhattan"))
DRUGS, ARMS, GAMBLING, PROSTITUTION = S.DRUGS, S.ARMS, S.GAMBLING, S.PROSTITUTION


def card_id(kind, district="Brooklyn"):
    for i, c in enumerate(CARDS):
        if c.kind == kind and c.district == district:
            return i
    raise KeyError((kind, district))


@cache
def env_for(kind=SCRIPT, overrides=()):
    ruleset = Ruleset.load(game="ag", overrides=dict(overrides)) if overrides else RULES
    return make_env(ruleset, [kind] * S.MAX_SEATS, np.tile(DEFAULTS, (S.MAX_SEATS, 1)))


class Table:
    """One game after setup, nothing revealed, turn order filled in from the godfather (seat 0)."""

    def __init__(self, n_players=4, kind=SCRIPT, overrides=None, seed=1, game_id=0):
        self.overrides = tuple(sorted((overrides or {}).items()))
        self.env = env_for(kind, self.overrides)
        self.game = S.new_game()
        self.g, self.pl, self.at, self.bags = self.game.g, self.game.pl, self.game.at, self.game.bags
        setup.setup(self.game, self.env, n_players, run_key(seed), game_id)
        base.fill_order(self.game)
        self.opts, self.ctx = self.game.opts, self.game.ctx

    # --- dice, bullets and decisions ---------------------------------------------------------------
    def force(self, *faces):
        """The next die faces (0..5) or bullets (nonzero: BANG), in the order they are used."""
        assert len(faces) <= S.N_FORCED
        self.g[S.FORCED0:S.FORCED0 + len(faces)] = faces
        self.g[S.FORCED_N] = len(faces)
        self.g[S.FORCED_POS] = 0

    def forced_left(self):
        return int(self.g[S.FORCED_N] - self.g[S.FORCED_POS])

    def script(self, *indices):
        """The next option indices the seats answer (decisions with one option are not asked)."""
        self.g[S.SCRIPT0:S.SCRIPT0 + len(indices)] = indices
        self.g[S.SCRIPT_N] = len(indices)
        self.g[S.SCRIPT_POS] = 0

    def script_left(self):
        return int(self.g[S.SCRIPT_N] - self.g[S.SCRIPT_POS])

    # --- the table --------------------------------------------------------------------------------
    def show(self, *cards):
        """Reveal these cards (ids) on slots 1, 2, ... as this turn's locations."""
        g = self.g
        deck = [int(c) for c in g[S.L_DECK0:S.L_DECK0 + g[S.L_DECK_N]] if c not in cards]
        g[S.L_DECK0:S.L_DECK0 + len(deck)] = deck
        g[S.L_DECK_N] = len(deck)
        for s, c in enumerate(cards, 1):
            g[S.SHOW0 + s] = c
            self.game.lc[c, S.LC_STATE] = S.LS_SHOWN
        g[S.SHOW_N] = len(cards)

    def put(self, slot, p, boss=0, hench=0, killer=0, occ=0):
        """Pieces of family p on a slot (its occasional dice come from the supply)."""
        self.at[slot, p, S.BOSS] += boss
        self.at[slot, p, S.HENCH] += hench
        self.at[slot, p, S.KILLER] += killer
        self.at[slot, p, S.OCC] += occ
        self.g[S.OCC_SUPPLY] -= occ

    def set_bags(self, p, ones, threes=0):
        """Family p holds exactly these bags (the bank makes up the difference)."""
        for col, want in ((0, ones), (1, threes)):
            self.bags[S.BANK_ROW, col] += self.bags[p, col] - want
            self.bags[p, col] = want

    def win_card(self, c, p):
        """Card c (id) won by family p: it counts toward the district's Caid."""
        g = self.g
        deck = [int(x) for x in g[S.L_DECK0:S.L_DECK0 + g[S.L_DECK_N]] if x != c]
        g[S.L_DECK0:S.L_DECK0 + len(deck)] = deck
        g[S.L_DECK_N] = len(deck)
        self.game.lc[c, S.LC_STATE] = S.LS_WON
        self.game.lc[c, S.LC_OWNER] = p
        self.pl[p, S.WON0 + self.env.rp[RP_C_DISTRICT + c]] += 1

    def token(self, p, traffic, n=1):
        self.g[S.SUPPLY0 + traffic] -= n
        self.pl[p, S.TOK0 + traffic] += n

    def score(self, p):
        return int(readers.score(self.game, self.env, p))

    def check(self):
        code = invariants.invariants(self.game, self.env)
        assert code == 0, invariants.INVARIANTS[code]

    def options(self, n):
        """The first n option rows the last decision listed."""
        return [tuple(int(x) for x in row) for row in self.opts[:n]]

    # --- steps of the engine --------------------------------------------------------------------------
    def trades(self):
        turn_rules.renown_trades(self.game, self.env, self.opts, self.ctx)

    def placement(self):
        placement_rules.placement(self.game, self.env, self.opts, self.ctx)

    def hospital(self):
        hospital_rules.hospital(self.game, self.env, self.opts, self.ctx)

    def resolve(self, slot):
        resolution.resolve_location(self.game, self.env, slot, self.opts, self.ctx)

    def event(self, effect, param=0):
        events.resolve_event(self.game, self.env, effect, param, self.opts, self.ctx)

    def majorities(self):
        titles.majorities(self.game, self.env)

    def end_of_turn(self):
        turn_rules.end_of_turn(self.game)

    def locations(self):
        """Every shown card resolved in order; True when the informer revealed itself (AG-G2)."""
        return E.resolve_locations(self.game, self.env, self.opts, self.ctx)

    def turn(self):
        return E.play_turn(self.game, self.env, self.opts, self.ctx)


def play(n_players, kind=PARAMETRIC, overrides=None, seed=7, game_id=0, record=0, check=1):
    """One whole game: (game, invariant code)."""
    env = env_for(kind, tuple(sorted((overrides or {}).items())))
    game = S.new_game()
    code = E.play(game, env, n_players, run_key(seed), game_id, record, check)
    return game, code


def many(names, n, seed=5, overrides=None, check=True):
    """n games of a lineup through the batch kernel: (games, seats) integer arrays."""
    rs = Ruleset.load(game="ag", overrides=overrides) if overrides else RULES
    games, seats, _ = play_many(seed, n, len(names), Lineup.of(names, len(names)), rs, check=check)
    return games, seats


__all__ = ["RANDOM", "PARAMETRIC", "SCRIPT", "Table", "play", "many", "card_id"]
