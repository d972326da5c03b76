"""What stays fixed during an American Gangsters game, in the compact form the jitted engine reads.

`compile_ruleset(rs)` turns a ruleset into one int64 vector
`rp`: every option at its P_* index (floats in thousandths, choices as the index of the choice,
booleans 0/1), then the content at the RP_* offsets (location cards, cost tracks, event cards).
`make_env` bundles it with the exact success table of location rolls (sim.ag.odds) and each
seat's policy into one numpy record (`ENV_DTYPE`), passed to jitted code as a plain pointer.
"""

from functools import cache

import numpy as np
from numba import njit

from sim.shared.codes import codes

from sim.ag.odds import DiceFaces, success_table
from sim.ag.state import MAX_SEATS, MAX_SLOTS
from sim.rules.ag.content import EFFECTS, MAX_CARDS, MAX_EVENT_CARDS, MAX_TARGET, MAX_TRACK, TRAFFICS

# --- every option of sim/rules/ag/rules.toml, at its P_* index ---------------------------------------
KEYS = (
    "players.min", "players.max", "bags.ones", "bags.threes", "bags.start", "traffic.tokens",
    "profiles.cards", "profiles.informer", "fbi.start", "fbi.max", "renown.start", "renown.parrain",
    "renown.informer", "fbi.informer", "end.informer_as_parrain", "end.turn_cap", "renown.buy_bags",
    "renown.sell_bags", "renown.unplaced_boss", "titles.baron_points", "titles.caid_points",
    "titles.powers", "titles.power_price", "crew.henchmen", "crew.killers", "dice.henchman_clics",
    "dice.killer_clics", "dice.occasional_clics", "dice.occasional_fbi", "occasional.dice",
    "boss.reroll", "boss.wounds_to_die", "locations.extra", "negotiation.share",
    "negotiation.second_round", "negotiation.value_renown", "negotiation.value_bag",
    "negotiation.value_token", "negotiation.value_card", "negotiation.value_occasional",
    "boss_death.bags_rounding", "boss_death.to", "boss_death.renown", "events.optional",
    "roulette.stake", "roulette.first_fold_renown", "roulette.win_renown", "bullets.clics",
    "bullets.bangs", "negotiation.model", "negotiation.rounds", "negotiation.patience",
    "negotiation.value_wound", "boss_death.quartier", "boss_death.successor", "fbi.track",
    "roulette.pistol", "auction.zero_wins", "hospital.min_bosses", "tracks.cursor", "powers.move_to",
    "negotiation.threat", "negotiation.side_payments", "placement.order", "seats.first_godfather",
)
LIST_KEYS = ("seats.bags",)   # per-seat lists, at their RP_* offsets
(P_PLAYERS_MIN, P_PLAYERS_MAX, P_BAGS_ONES, P_BAGS_THREES, P_BAGS_START, P_TOKENS, P_PROFILE_CARDS,
 P_INFORMER_MODE, P_FBI_START, P_FBI_MAX, P_RENOWN_START, P_PARRAIN, P_INFORMER_RENOWN,
 P_INFORMER_FBI, P_INFORMER_AS_PARRAIN, P_TURN_CAP, P_BUY_BAGS, P_SELL_BAGS, P_UNPLACED_BOSS,
 P_BARON_POINTS, P_CAID_POINTS, P_POWERS, P_POWER_PRICE, P_HENCHMEN, P_KILLERS, P_H_CLICS,
 P_K_CLICS, P_O_CLICS, P_O_FBI, P_OCC_DICE, P_REROLL, P_WOUNDS_TO_DIE, P_LOC_EXTRA, P_SHARE,
 P_SECOND_ROUND, P_VAL_RENOWN, P_VAL_BAG, P_VAL_TOKEN, P_VAL_CARD, P_VAL_OCC, P_DEATH_ROUNDING,
 P_DEATH_TO, P_DEATH_RENOWN, P_EVENTS_OPTIONAL, P_ROULETTE_STAKE, P_ROULETTE_FOLD, P_ROULETTE_WIN,
 P_BULLET_CLICS, P_BULLET_BANGS, P_MODEL, P_ROUNDS, P_PATIENCE, P_VAL_WOUND, P_DEATH_QUARTIER,
 P_SUCCESSOR, P_FBI_TRACK, P_PISTOL, P_ZERO_WINS, P_HOSPITAL_BOSSES, P_CURSOR,
 P_MOVE_TO, P_THREAT, P_SIDE_PAYMENTS, P_PLACEMENT, P_FIRST_GODFATHER) = codes(len(KEYS))
N_PARAMS = len(KEYS)

# encoded rulings (index of the choice in rules.toml)
INFORMER_DRAW, INFORMER_ALWAYS, INFORMER_NEVER = 0, 1, 2   # AG-C6
SHARE_THREAT, SHARE_EQUAL = 0, 1                          # AG-N1
ROUND_DOWN, ROUND_UP = 0, 1                               # AG-K4
DEATH_TO_KILLER, DEATH_TO_BANK = 0, 1                     # AG-K4
MODEL_NASH, MODEL_ALTERNATING, MODEL_OFFER = 0, 1, 2       # AG-N1
QUARTIER_CARD, QUARTIER_CAID = 0, 1                       # AG-K4
SUCCESSOR_HENCHMAN, SUCCESSOR_FREE = 0, 1                 # AG-K4
FBI_LADDER, FBI_SEPARATE = 0, 1                           # AG-G2
PISTOL_RENOWN, PISTOL_EXTRA = 0, 1                        # AG-V2
CURSOR_RING, CURSOR_STOP = 0, 1                           # AG-K2
MOVE_ANY, MOVE_CARDS = 0, 1                               # AG-B4
THREAT_FIXED_AIM, THREAT_SHOOTOUT = 0, 1                  # AG-N2
SIDE_CARD_GAINS, SIDE_OWN_BAGS = 0, 1                     # AG-N1
PLACE_SIMULTANEOUS, PLACE_SEQUENTIAL = 0, 1               # AG-T3
FIRST_SEAT_1, FIRST_LAST_SEAT, FIRST_RANDOM = 0, 1, 2     # seats.first_godfather (designer's knob, AG-C5)

# event effects (index in sim.rules.ag.content.EFFECTS)
(E_AUCTION, E_ROULETTE, E_DUELS, E_FBI, E_BANK_PAYS, E_TAX, E_HEAL, E_PRESS, E_OCCASIONAL,
 E_CALM) = range(len(EFFECTS))
assert tuple(EFFECTS)[E_PRESS] == "press" and tuple(EFFECTS)[E_CALM] == "calm"

# --- content offsets in rp ----------------------------------------------------------------------------
(RP_N_CARDS, RP_N_DISTRICTS, RP_N_EVENT_CARDS, RP_H_LEN, RP_K_LEN) = range(N_PARAMS, N_PARAMS + 5)
RP_C_TARGET = N_PARAMS + 8
RP_C_RENOWN = RP_C_TARGET + MAX_CARDS
RP_C_BAGS = RP_C_RENOWN + MAX_CARDS
RP_C_TRAFFIC = RP_C_BAGS + MAX_CARDS      # traffic index, or -1
RP_C_OCC = RP_C_TRAFFIC + MAX_CARDS
RP_C_FBI = RP_C_OCC + MAX_CARDS
RP_C_DISTRICT = RP_C_FBI + MAX_CARDS
RP_C_KIND = RP_C_DISTRICT + MAX_CARDS
RP_H_PRICE = RP_C_KIND + MAX_CARDS        # henchman cost track: price of each step
RP_H_FBI = RP_H_PRICE + MAX_TRACK         # 1 on the steps showing the FBI symbol
RP_K_PRICE = RP_H_FBI + MAX_TRACK
RP_K_FBI = RP_K_PRICE + MAX_TRACK
RP_E_EFFECT = RP_K_FBI + MAX_TRACK        # effect of each event card of the deck (E_*)
RP_E_PARAM = RP_E_EFFECT + MAX_EVENT_CARDS
RP_SEAT_BAGS = RP_E_PARAM + MAX_EVENT_CARDS  # seats.bags, seat by seat (0 beyond the list)
N_RP = RP_SEAT_BAGS + MAX_SEATS

# --- the success table of location rolls (policies read it, AG-T4) -------------------------------------
T_H, T_K, T_O, T_R = 12, 6, 5, 5   # most henchmen, killers, occasional dice and re-rolls tabled

N_POLICY_PARAMS = 21     # the knobs (strategies.ag.params), then LEARNED_SLOT
LEARNED_SLOT = 20        # params[p, LEARNED_SLOT]: which of env.learned's weight sets the seat reads
N_LEARNED_SLOTS = 8      # learned players' weights files a lineup holds (strategies.learned_weights)
N_DECISION_KINDS = 20     # sim.ag.decisions.DECISIONS
N_LEARNED_FEATURES = 45   # option features of the learned player (strategies.ag.learned)
# --- the table of shoot-out values (sim.ag.shots): each contest's values, worked out once ------------
MEMO_SLOTS = 8192                  # contests remembered (a power of two: a key's hash picks the slot)
MEMO_W = 3 + 2 * MAX_SEATS         # integer words of a contest's key (sim.ag.shots.walk_key; game.walk_key)
MEMO_F = 1 + MAX_SEATS             # its float words: the card's worth, each family's aggression (game.walk_fkey)
# --- the last placement game solved (strategies.ag.belief): what it reads, and the strategies found ---
# (families, cards; each card shown; each family's crew, FBI step and goods of each card)
BELIEF_W = 2 + MAX_SLOTS + MAX_SEATS * (5 + MAX_SLOTS)

ENV_DTYPE = np.dtype([
    ("rp", np.int64, N_RP),
    ("success", np.float64, (T_H + 1, T_K + 1, T_O + 1, T_R + 1, MAX_TARGET + 1)),
    ("kinds", np.int64, MAX_SEATS),                       # each seat's policy family
    ("params", np.float64, (MAX_SEATS, N_POLICY_PARAMS)),  # each seat's policy parameters
    # shoot-out values already walked under these rules (rp never changes in an env's life): a
    # contest's key in full, so a value read back is the very value the walk would give
    ("memo_key", np.int64, (MEMO_SLOTS, MEMO_W)),
    ("memo_fkey", np.float64, (MEMO_SLOTS, MEMO_F)),
    ("memo_val", np.float64, (MEMO_SLOTS, MAX_SEATS)),
    ("memo_n", np.int64, 2),                              # contests looked up, found
    # the turn's placement game last solved under these rules (strategies.ag.belief): everything it
    # reads but the rules, and the strategies it gave (the next family placing often sees the same)
    ("belief_key", np.float64, BELIEF_W),
    ("belief_val", np.float64, (MAX_SEATS, MAX_SLOTS)),
    ("belief_n", np.int64, 2),                            # placement games looked up, found
    ("belief_u", np.float64, (MAX_SEATS, MAX_SLOTS, 1 << MAX_SEATS)),   # its payoffs (belief.payoff_table)
    # a search's playouts (sim.search.ag): with `swap` set, every seat plays by these policies
    # from the determinization on (sim.ag.script), the part of the turn before it as it was
    ("swap", np.int64),
    ("swap_kinds", np.int64, MAX_SEATS),
    ("swap_params", np.float64, (MAX_SEATS, N_POLICY_PARAMS)),
    # the learned players' weights, a set per weights file of the lineup, one row per decision kind
    # (strategies.ag.learned): a learned seat reads the set its params[p, LEARNED_SLOT] names
    ("learned", np.float64, (N_LEARNED_SLOTS, N_DECISION_KINDS, N_LEARNED_FEATURES)),
])


def encode(rs, key: str) -> int:
    option = rs.option(key)
    value = rs[key]
    if option.type == "float":
        return int(round(value * 1000))
    if option.type == "choice":
        return option.choices.index(value)
    return int(value)


def compile_ruleset(rs) -> np.ndarray:
    """The rules vector `rp` of an American Gangsters ruleset."""
    missing = set(rs.values) - set(KEYS) - set(LIST_KEYS)
    if missing:
        raise ValueError(f"options not compiled for the engine: {sorted(missing)}")
    rp = np.zeros(N_RP, dtype=np.int64)
    for index, key in enumerate(KEYS):
        rp[index] = encode(rs, key)
    cards = rs.content["locations"]
    rp[RP_N_CARDS], rp[RP_N_DISTRICTS] = len(cards), len(cards.districts)
    for i, c in enumerate(cards):
        rp[RP_C_TARGET + i], rp[RP_C_RENOWN + i], rp[RP_C_BAGS + i] = c.target, c.renown, c.bags
        rp[RP_C_TRAFFIC + i] = TRAFFICS.index(c.traffic) if c.traffic else -1
        rp[RP_C_OCC + i], rp[RP_C_FBI + i] = c.occasional, c.fbi
        rp[RP_C_DISTRICT + i] = cards.districts.index(c.district)
        rp[RP_C_KIND + i] = cards.kinds.index(c.kind)
    tracks = rs.content["tracks"]
    for length, price, fbi, track in ((RP_H_LEN, RP_H_PRICE, RP_H_FBI, tracks.henchman),
                                      (RP_K_LEN, RP_K_PRICE, RP_K_FBI, tracks.killer)):
        rp[length] = len(track.prices)
        rp[price:price + len(track.prices)] = track.prices
        for step in track.fbi_steps:
            rp[fbi + step] = 1
    deck = rs.content["events"].deck(rs["events.optional"])
    rp[RP_N_EVENT_CARDS] = len(deck)
    for i, card in enumerate(deck):
        rp[RP_E_EFFECT + i] = tuple(EFFECTS).index(card.effect)
        rp[RP_E_PARAM + i] = card.params[0][1] if card.params else 0
    extra = rs["seats.bags"][:MAX_SEATS]
    rp[RP_SEAT_BAGS:RP_SEAT_BAGS + len(extra)] = extra
    return rp


@cache
def _table(faces: DiceFaces) -> np.ndarray:
    return success_table(faces, T_H, T_K, T_O, T_R, MAX_TARGET)


def make_env(ruleset, kinds, params):
    """The engine's view of a ruleset (a numpy record), with each seat's policy."""
    env = np.zeros(1, ENV_DTYPE).view(np.recarray)[0]
    env.rp[:] = compile_ruleset(ruleset)
    env.success[:] = _table(DiceFaces.from_ruleset(ruleset))
    kinds, params = np.asarray(kinds, dtype=np.int64), np.asarray(params, dtype=np.float64)
    env.kinds[: len(kinds)] = kinds
    env.params[: params.shape[0], : params.shape[1]] = params
    return env


@njit(cache=True)
def seat_lineup(env, lineup, kinds, params, n_players):
    """Seat p plays strategy `lineup[p]` of a study: its policy family and knobs."""
    for p in range(n_players):
        env.kinds[p] = kinds[lineup[p]]
        env.params[p, :] = params[lineup[p]]
