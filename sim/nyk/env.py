"""What stays fixed during a game, in the compact form the jitted engine reads.

A compiled ruleset (`sim.nyk.compiled.Compiled`) has many arrays; the engine gets them as one
numpy record (`ENV_DTYPE`, passed to jitted code as a plain pointer): every scalar and content
number in the int64 vector `rp` (offsets RP_* below, the ruleset's `params` first so the P_*
indices hold), the neighbour lists, the distance matrix, the hand table, and each seat's policy.
"""

from itertools import combinations_with_replacement

import numpy as np
from numba import njit

from sim.nyk import fights, hands
from sim.nyk.state import MAX_SEATS, N_DISTRICTS_MAX
from sim.nyk.odds import dice_space
from sim.nyk.decisions import DECISIONS, N_WINDOWS, WIN_ACTIONS
from sim.nyk.compiled import MAX_PARAMS, N_PARAMS, compile_ruleset
from sim.nyk.compiled import WINDOWS  # the stamped room (sim/__init__.py), as content names them

N_BILLS_MAX = 16
(RP_STATION, RP_SUBWAY, RP_HELIPORT, RP_N_DISTRICTS, RP_N_TILES, RP_N_CARDS, RP_N_BILLS) = range(
    N_PARAMS, N_PARAMS + 7)
RP_PERIPH = N_PARAMS + 8
RP_TILES = RP_PERIPH + 4
RP_H_VALUE = RP_TILES + N_DISTRICTS_MAX
RP_H_SUIT = RP_H_VALUE + 20
RP_M_CREW = RP_H_SUIT + 20
RP_M_RISK = RP_M_CREW + 24
RP_M_SECRET = RP_M_RISK + 24
RP_M_REWARD = RP_M_SECRET + 24
RP_R_KIND = RP_M_REWARD + 24
RP_R_TIMING = RP_R_KIND + 32
RP_R_PARAMS = RP_R_TIMING + 32
RP_BILLS = RP_R_PARAMS + 32 * MAX_PARAMS
RP_R_WINDOW = RP_BILLS + N_BILLS_MAX    # each card's window (NYK-C5, WIN_*)
RP_WIN_KINDS = RP_R_WINDOW + 32         # per window: bitmask of the effect kinds played in it
RP_SEAT_MONEY = RP_WIN_KINDS + N_WINDOWS  # seats.money, seat by seat (0 beyond the list)
N_RP = RP_SEAT_MONEY + MAX_SEATS
assert len(WINDOWS) == N_WINDOWS and WINDOWS[WIN_ACTIONS] == "actions"
assert len(DECISIONS) == 18


MAX_DEGREE = 12
N_POLICY_PARAMS = 25     # the knobs (strategies.nyk.params), then LEARNED_SLOT
LEARNED_SLOT = 24        # params[p, LEARNED_SLOT]: which of env.learned's weight sets the seat reads
MAX_MSET_DICE = 4  # dice multisets kept for strategies' exact mid-fight odds (sizes 0..4)
N_MSETS = 126      # multisets of 4 dice
BILL_VALUES = (0, 1000, 2000, 5000)  # NYK-T1: the bills a bid is made of
MAX_BIDS = 165     # multisets of up to 8 bills, the most `corruption.bills` allows
N_LEARNED_FEATURES = 32  # option features of the learned player (strategies.nyk.learned)
N_DECISION_KINDS = 18    # sim.nyk.decisions.DECISIONS: one weight row per kind
N_LEARNED_SLOTS = 8      # learned players' weights files a lineup holds (strategies.learned_weights)
N_SCRATCH = 64     # the policy's scratch (a decision's memo: a goal per character and two masks)
ENV_DTYPE = np.dtype([
    ("rp", np.int64, N_RP),                              # every rule constant and content number
    ("nbr", np.int64, (N_DISTRICTS_MAX, 1 + MAX_DEGREE)),  # degree, then each district's neighbours
    ("dist", np.int64, (N_DISTRICTS_MAX, N_DISTRICTS_MAX)),  # shortest path lengths
    ("table", np.int32, hands.N_KEYS),                   # hand strengths, the NYK-H4 ruling's
    ("kinds", np.int64, MAX_SEATS),                      # each seat's policy family
    ("params", np.float64, (MAX_SEATS, N_POLICY_PARAMS)),  # each seat's policy parameters
    ("restrict", np.int64, MAX_SEATS),                   # each seat's restrictions (bits)
    # what strategies read to judge fights: exact fusillade odds crew against crew (sim.nyk.fights),
    # and every multiset of k dice with its number of orderings, for odds from the dice on the table
    ("fight", np.float32, (fights.N_CODES, fights.N_CODES, 2)),
    ("msets", np.int64, (MAX_MSET_DICE + 1, N_MSETS)),
    ("mweights", np.float64, (MAX_MSET_DICE + 1, N_MSETS)),
    ("mcount", np.int64, MAX_MSET_DICE + 1),
    ("bids", np.int64, (MAX_BIDS, 2)),                   # NYK-T1: every bid, (amount, $0 bills)
    ("n_bids", np.int64),
    # the policy's working memory for one decision (what it finds once and its options share):
    # a field of the record, so a decision allocates nothing and passes no counted reference
    ("scratch", np.int64, N_SCRATCH),
    # the learned players' weights, a set per weights file of the lineup, one row per decision kind
    # (strategies.nyk.learned): a learned seat reads the set its params[p, LEARNED_SLOT] names
    ("learned", np.float64, (N_LEARNED_SLOTS, N_DECISION_KINDS, N_LEARNED_FEATURES)),
])


def bid_sets(n_bills: int) -> list[tuple[int, int]]:
    """Every multiset of `n_bills` bills as (amount, number of $0 bills), in a fixed order."""
    sets = sorted(combinations_with_replacement(range(len(BILL_VALUES)), n_bills),
                  key=lambda bills: sum(b * 4**i for i, b in enumerate(bills)))
    return [(sum(BILL_VALUES[b] for b in bills), bills.count(0)) for bills in sets]


def rules_vector(R) -> np.ndarray:
    rp = np.zeros(N_RP, dtype=np.int64)
    rp[:N_PARAMS] = R.params
    rp[RP_STATION], rp[RP_SUBWAY], rp[RP_HELIPORT] = R.police_station, R.subway, R.heliport
    rp[RP_N_DISTRICTS], rp[RP_N_TILES] = R.n_districts, len(R.tile_districts)
    rp[RP_N_CARDS], rp[RP_N_BILLS] = len(R.resource_kind), len(R.start_bills)
    rp[RP_PERIPH:RP_PERIPH + 4] = R.peripheral_districts
    rp[RP_TILES:RP_TILES + len(R.tile_districts)] = R.tile_districts
    rp[RP_H_VALUE:RP_H_VALUE + 20] = R.henchman_value
    rp[RP_H_SUIT:RP_H_SUIT + 20] = R.henchman_suit
    for offset, values in ((RP_M_CREW, R.mission_crew), (RP_M_RISK, R.mission_at_risk),
                           (RP_M_SECRET, R.mission_secret), (RP_M_REWARD, R.mission_reward)):
        rp[offset:offset + 24] = values
    rp[RP_R_KIND:RP_R_KIND + 32] = R.resource_kind
    rp[RP_R_TIMING:RP_R_TIMING + 32] = R.resource_timing
    rp[RP_R_PARAMS:RP_R_PARAMS + 32 * MAX_PARAMS] = R.resource_params.reshape(-1)
    rp[RP_BILLS:RP_BILLS + len(R.start_bills)] = R.start_bills
    rp[RP_R_WINDOW:RP_R_WINDOW + 32] = R.resource_window
    seat_money = R.seat_money[:MAX_SEATS]
    rp[RP_SEAT_MONEY:RP_SEAT_MONEY + len(seat_money)] = seat_money
    for kind, window in zip(R.resource_kind, R.resource_window, strict=True):
        rp[RP_WIN_KINDS + int(window)] |= 1 << int(kind)
    return rp


def make_env(ruleset, kinds, params, restrict=None):
    """The engine's view of a ruleset (a numpy record), with each seat's policy."""
    R = compile_ruleset(ruleset)
    n = R.n_districts
    if n > N_DISTRICTS_MAX or R.neighbours.shape[1] > MAX_DEGREE or len(R.start_bills) > N_BILLS_MAX:
        raise ValueError(f"the engine holds at most {N_DISTRICTS_MAX} districts of at most "
                         f"{MAX_DEGREE} neighbours and {N_BILLS_MAX} starting bills")
    env = np.zeros(1, ENV_DTYPE).view(np.recarray)[0]
    env.rp[:] = rules_vector(R)
    env.nbr[:] = -1
    env.nbr[:n, 0] = R.degree
    env.nbr[:n, 1:1 + R.neighbours.shape[1]] = R.neighbours
    env.dist[:n, :n] = R.distance
    env.table[:] = hands.table(ruleset["hands.five_of_a_kind"], ruleset["hands.two_pairs"])
    kinds, params = np.asarray(kinds, dtype=np.int64), np.asarray(params, dtype=np.float64)
    env.kinds[: len(kinds)] = kinds
    env.params[: params.shape[0], : params.shape[1]] = params
    if restrict is not None:
        restrict = np.asarray(restrict, dtype=np.int64)
        env.restrict[: len(restrict)] = restrict
    fusillade_dice = ruleset["provocation.intimidation_dice"] + 2  # NYK-A4: one more at each later stage
    bids = bid_sets(ruleset["corruption.bills"])
    if len(bids) > MAX_BIDS:
        raise ValueError(f"corruption.bills = {ruleset['corruption.bills']}: the engine holds bids "
                         f"of at most 8 bills")
    env.bids[: len(bids)] = bids
    env.n_bids = len(bids)
    env.fight[:] = fights.fight_table(ruleset["hands.five_of_a_kind"], fusillade_dice, ruleset["hands.two_pairs"])
    for k in range(MAX_MSET_DICE + 1):
        space = dice_space(k)
        env.mcount[k] = len(space.packed)
        env.msets[k, : len(space.packed)] = space.packed
        env.mweights[k, : len(space.packed)] = space.orderings
    return env


@njit(cache=True)
def seat_lineup(env, lineup, kinds, params, restrict, n_players):
    """Seat p plays strategy `lineup[p]` of a study: its policy family, knobs and restrictions."""
    for p in range(n_players):
        env.kinds[p] = kinds[lineup[p]]
        env.params[p, :] = params[lineup[p]]
        env.restrict[p] = restrict[lineup[p]]
