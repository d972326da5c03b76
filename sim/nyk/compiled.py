"""A ruleset compiled to plain numpy arrays and ints for the jitted engine.

`compile_ruleset(rs)` returns a `Compiled` NamedTuple:

    n_districts            int      districts on the board (24 for NYK: 20 Manhattan + 4 around)
    adjacency              int8     [n, n]  1 where two districts are connected (symmetric)
    neighbours             int32    [n, max_degree]  neighbour indices, ascending, padded with -1
    degree                 int32    [n]  number of neighbours
    distance               int32    [n, n]  shortest path length in connections
    tile                   int8     [n]  1 for a district with an ADDRESS tile (NYK-C1)
    peripheral             int8     [n]  1 for BROOKLYN, UNION CITY, BRONX, QUEENS
    band                   int8     [n]  BAND_WHITE / BAND_GREY / BAND_BLACK, BAND_NONE (-1)
    tile_districts         int32    [n_tiles]  the districts of the tiles in the bag (NYK-S6)
    police_station         int      BROADWAY (NYK-S9, P1, P6 exit)
    subway                 int      GRAND CENTRAL (NYK-M6)
    heliport               int      FINANCIAL (NYK-M7)
    peripheral_districts   int32    [4]  in NYK-S3 order: BROOKLYN, UNION CITY, BRONX, QUEENS
    n_affranchi            int      5; every affranchi has value AFFRANCHI_RANK (A) in every suit
    henchman_suit          int8     [20]  SUIT_HEARTS / SUIT_DIAMONDS / SUIT_CLUBS / SUIT_SPADES
    henchman_value         int8     [20]  rank 0..4 (9..K), in characters.toml order
    mission_crew           int8     [24]  1 or 2
    mission_at_risk        int8     [24]  0/1
    mission_secret         int8     [24]  0/1 ("?" destination)
    mission_reward         int64    [24]  dollars after missions.reward_scale (whole thousands)
    resource_kind          int8     [32]  one entry per physical card: E_* effect kind
    resource_timing        int8     [32]  T_OWN / T_OPPONENT / T_OTHER
    resource_window        int8     [32]  the card's window: its index in content.WINDOWS (NYK-C5)
    resource_params        int64    [32, MAX_PARAMS]  effect parameters in the order of
                                          content.EFFECTS[kind], zero padded
    start_bills            int64    [8]  bills dealt to each player (NYK-S2)
    params                 int64    [N_PARAMS]  every scalar option, indexed by the P_* constants

Encoding of `params`: integers and money as is (money after its scale knob, see
`Ruleset.money`), booleans 0/1, the scale knobs in thousandths (1.0 -> 1000), values (rank
options) as ranks 0..5, choices as the index of the choice (named constants below), and
P_START_DISTRICT as a district index or START_RANDOM (-1).
"""

from typing import NamedTuple

import numpy as np

from sim.rules.nyk.content import BANDS, EFFECTS, MAX_PARAMS, SUITS, TIMINGS, WINDOWS, mission_rewards
from sim.rules.spec import RANDOM, RANK_LABELS

# --- params indices (one per scalar option of rules.toml) -------------------------------------
P_PLAYERS_MIN = 0
P_PLAYERS_MAX = 1
P_START_DISTRICT = 2
P_BANK_FINITE = 3
P_BANK_BUNDLES_0 = 4
P_BANK_BUNDLES_1000 = 5
P_BANK_BUNDLES_2000 = 6
P_BANK_BUNDLES_5000 = 7
P_BANK_DROP_UNUSED_ZERO = 8
P_CORRUPTION_BILLS = 9
P_HAND_LIMIT = 10
P_POLICE_CARS_PER_RESHUFFLE = 11
P_LAST_TURNS = 12
P_MOVE_STEPS = 13
P_POLICE_MOVE_STEPS = 14
P_SUBWAY_STEPS = 15
P_SUBWAY_IGNORES_POLICE = 16
P_SUBWAY_AT_RISK_ALLOWED = 17
P_HELIPORT_COST = 18
P_HELIPORT_AT_RISK_ALLOWED = 19
P_BONUS_STEPS_PER_CARD = 20
P_CREW_ACTIONS = 21
P_STAKE = 22
P_FOLD_PENALTY = 23
P_RAISE = 24
P_FUSILLADE_RAISE = 25
P_INTIMIDATION_DICE = 26
P_TIE_POT = 27
P_PROVOCATION_ACTION = 28
P_STAKE_SCALE_MILLI = 29
P_RECRUIT_MIN_OFFER = 30
P_RECRUIT_MAX_OFFER = 31
P_RECRUIT_OFFER_STEP = 32
P_RECRUIT_HESITATION_EXTRA = 33
P_RECRUIT_PER_TURN = 34
P_RECRUIT_COST_SCALE_MILLI = 35
P_HENCHMEN_MAX = 36
P_POLICE_START_CARS = 37
P_POLICE_MAX_CARS = 38
P_POLICE_CAR_VALUE = 39
P_INTERROGATION_DICE = 40
P_RESIST_DICE = 41
P_CUSTODY_CELLS = 42
P_CUSTODY_STEPS = 43
P_MISSION_ROW = 44
P_END_CARD_AMONG_LAST = 45
P_REWARD_SCALE_MILLI = 46
P_HAND_MAX_VALUES = 47
P_FIVE_OF_A_KIND = 48
P_TIEBREAK_LAST = 49
P_DEALS_ENABLED = 50
P_DEALS_POLICE_MOVE_PRICE = 51
P_RESHUFFLE = 52
P_RECRUIT_FROM_CUSTODY = 53
P_ACT_ON_JOINING = 54
P_CUSTODY_CARD_STEPS = 55
P_RELEASE_FROZEN = 56
P_POLICE_RETURN_AT = 57
P_EMPTY_BAG = 58
P_LAST_STANDING = 59
P_VIEW_FORTUNES = 60
P_POLICE_QUESTIONED = 61
P_POLICE_REQUESTION = 62
P_SUBWAY_CARD_STEPS = 63
P_TWO_PAIRS = 64
P_CUSTODY_FIRST_STEP = 65
P_SEATS_TURN1_TIES = 66
N_PARAMS = 67

PARAM_KEYS = {
    P_PLAYERS_MIN: "players.min",
    P_PLAYERS_MAX: "players.max",
    P_START_DISTRICT: "start.district",
    P_BANK_FINITE: "bank.finite",
    P_BANK_BUNDLES_0: "bank.bundles_0",
    P_BANK_BUNDLES_1000: "bank.bundles_1000",
    P_BANK_BUNDLES_2000: "bank.bundles_2000",
    P_BANK_BUNDLES_5000: "bank.bundles_5000",
    P_BANK_DROP_UNUSED_ZERO: "bank.drop_unused_zero",
    P_CORRUPTION_BILLS: "corruption.bills",
    P_HAND_LIMIT: "hand.limit",
    P_POLICE_CARS_PER_RESHUFFLE: "police.cars_per_reshuffle",
    P_LAST_TURNS: "missions.last_turns",
    P_MOVE_STEPS: "move.steps",
    P_POLICE_MOVE_STEPS: "police.move_steps",
    P_SUBWAY_STEPS: "subway.steps",
    P_SUBWAY_IGNORES_POLICE: "subway.ignores_police",
    P_SUBWAY_AT_RISK_ALLOWED: "subway.at_risk_allowed",
    P_HELIPORT_COST: "heliport.cost",
    P_HELIPORT_AT_RISK_ALLOWED: "heliport.at_risk_allowed",
    P_BONUS_STEPS_PER_CARD: "move.bonus_steps_per_card",
    P_CREW_ACTIONS: "missions.crew_actions",
    P_STAKE: "provocation.stake",
    P_FOLD_PENALTY: "provocation.fold_penalty",
    P_RAISE: "provocation.raise",
    P_FUSILLADE_RAISE: "provocation.fusillade_raise",
    P_INTIMIDATION_DICE: "provocation.intimidation_dice",
    P_TIE_POT: "provocation.tie_pot",
    P_PROVOCATION_ACTION: "provocation.action",
    P_STAKE_SCALE_MILLI: "provocation.stake_scale",
    P_RECRUIT_MIN_OFFER: "recruit.min_offer",
    P_RECRUIT_MAX_OFFER: "recruit.max_offer",
    P_RECRUIT_OFFER_STEP: "recruit.offer_step",
    P_RECRUIT_HESITATION_EXTRA: "recruit.hesitation_extra",
    P_RECRUIT_PER_TURN: "recruit.per_turn",
    P_RECRUIT_COST_SCALE_MILLI: "recruit.cost_scale",
    P_HENCHMEN_MAX: "henchmen.max",
    P_POLICE_START_CARS: "police.start_cars",
    P_POLICE_MAX_CARS: "police.max_cars",
    P_POLICE_CAR_VALUE: "police.car_value",
    P_INTERROGATION_DICE: "interrogation.dice",
    P_RESIST_DICE: "interrogation.resist_dice",
    P_CUSTODY_CELLS: "custody.cells",
    P_CUSTODY_STEPS: "custody.steps_per_turn",
    P_MISSION_ROW: "missions.row",
    P_END_CARD_AMONG_LAST: "missions.end_card_among_last",
    P_REWARD_SCALE_MILLI: "missions.reward_scale",
    P_HAND_MAX_VALUES: "hands.max_values",
    P_FIVE_OF_A_KIND: "hands.five_of_a_kind",
    P_TIEBREAK_LAST: "tiebreak.last",
    P_DEALS_ENABLED: "deals.enabled",
    P_DEALS_POLICE_MOVE_PRICE: "deals.police_move_price",
    P_RESHUFFLE: "resources.reshuffle",
    P_RECRUIT_FROM_CUSTODY: "recruit.from_custody",
    P_ACT_ON_JOINING: "henchmen.act_on_joining",
    P_CUSTODY_CARD_STEPS: "custody.card_steps",
    P_RELEASE_FROZEN: "custody.release_frozen",
    P_POLICE_RETURN_AT: "police.return_at",
    P_EMPTY_BAG: "missions.empty_bag",
    P_LAST_STANDING: "end.last_standing",
    P_VIEW_FORTUNES: "view.fortunes",
    P_POLICE_QUESTIONED: "police.questioned",
    P_POLICE_REQUESTION: "police.requestion",
    P_SUBWAY_CARD_STEPS: "subway.card_steps",
    P_TWO_PAIRS: "hands.two_pairs",
    P_CUSTODY_FIRST_STEP: "custody.first_step",
    P_SEATS_TURN1_TIES: "seats.turn1_ties",
}

# --- encoded rulings (index of the choice in rules.toml) ----------------------------------------
CREW_ACTIONS_EACH, CREW_ACTIONS_ONE = 0, 1        # NYK-A1
TIE_POT_BANK, TIE_POT_RETURN = 0, 1               # NYK-A4
PROVOKE_ACTION_ONE, PROVOKE_ACTION_ALL = 0, 1     # NYK-A4
FIVE_AS_FOUR, FIVE_TOP = 0, 1                     # NYK-H4, same order as sim.nyk.hands.RULINGS
TWO_PAIRS_LOWER, TWO_PAIRS_KICKER = 0, 1          # NYK-H3, same order as sim.nyk.hands.TWO_PAIRS_RULINGS
TIEBREAK_RANDOM, TIEBREAK_SHARED = 0, 1           # NYK-E1
START_RANDOM = -1                                 # start.district = "random"
RESHUFFLE_EMPTY, RESHUFFLE_NEXT_DRAW = 0, 1       # NYK-T2
CUSTODY_CARD_CELL, CUSTODY_CARD_ALL, CUSTODY_CARD_ONE = 0, 1, 2  # NYK-P6
RETURN_FIRST_PLAYER, RETURN_BEFORE_BID = 0, 1     # NYK-P5
EMPTY_BAG_DISCARD, EMPTY_BAG_HOLD = 0, 1          # NYK-T4
FORTUNES_HIDDEN, FORTUNES_TRACKED = 0, 1          # NYK-S2
QUESTIONED_ONE, QUESTIONED_ALL = 0, 1             # NYK-P4: several at-risk crews where a car arrives
REQUESTION_EACH_ARRIVAL, REQUESTION_ONCE = 0, 1   # NYK-P4: a crew questioned again by a later car
SUBWAY_CARD_STEPS_UNCHECKED, SUBWAY_CARD_STEPS_CHECKED = 0, 1  # NYK-M6/M8: card steps beyond a ride
FIRST_STEP_OWN_TURN, FIRST_STEP_NEXT_TURN = 0, 1  # NYK-P6: custody steps in the turn of the arrest or not
TIES_LOTS, TIES_FIRST_SEAT, TIES_LAST_SEAT = 0, 1, 2  # seats.turn1_ties (a designer's knob on NYK-T1)

# --- content codes -----------------------------------------------------------------------------
BAND_NONE, BAND_WHITE, BAND_GREY, BAND_BLACK = -1, 0, 1, 2
SUIT_HEARTS, SUIT_DIAMONDS, SUIT_CLUBS, SUIT_SPADES = 0, 1, 2, 3
T_OWN, T_OPPONENT, T_OTHER = 0, 1, 2
AFFRANCHI_RANK = 5
(E_MISSION_BONUS, E_STEAL_MONEY, E_BANK_INCOME, E_EXTRA_MOVE, E_POLICE_MOVE, E_POLICE_PLACE,
 E_POLICE_REMOVE, E_BLOCK_INTERROGATION, E_RELEASE_CUSTODY, E_RECRUIT, E_POACH_HENCHMAN,
 E_DISCARD_HENCHMAN, E_FIGHT_BONUS_DIE, E_FIGHT_REROLL, E_CANCEL_ELIMINATION,
 E_EXTRA_ELIMINATION, E_CANCEL_CARD, E_DRAW_CARDS) = range(18)
EFFECT_KINDS = tuple(EFFECTS)     # E_* is the index of the kind in this tuple

assert len(EFFECT_KINDS) == 18 and BANDS[BAND_GREY] == "grey" and SUITS[SUIT_SPADES] == "spades"
assert TIMINGS[T_OTHER] == "other" and len(PARAM_KEYS) == N_PARAMS


class Compiled(NamedTuple):
    n_districts: int
    adjacency: np.ndarray
    neighbours: np.ndarray
    degree: np.ndarray
    distance: np.ndarray
    tile: np.ndarray
    peripheral: np.ndarray
    band: np.ndarray
    tile_districts: np.ndarray
    police_station: int
    subway: int
    heliport: int
    peripheral_districts: np.ndarray
    n_affranchi: int
    henchman_suit: np.ndarray
    henchman_value: np.ndarray
    mission_crew: np.ndarray
    mission_at_risk: np.ndarray
    mission_secret: np.ndarray
    mission_reward: np.ndarray
    resource_kind: np.ndarray
    resource_timing: np.ndarray
    resource_window: np.ndarray
    resource_params: np.ndarray
    start_bills: np.ndarray
    seat_money: np.ndarray           # seats.money: the bank's extra dollars to each seat at setup
    params: np.ndarray


def encode(rs, key: str) -> int:
    """The int64 encoding of one scalar option (see the module docstring)."""
    option = rs.option(key)
    value = rs[key]
    if option.type == "money":
        return rs.money(key)
    if option.type == "float":
        return int(round(value * 1000))
    if option.type == "choice":
        return option.choices.index(value)
    if option.type == "rank":
        return RANK_LABELS.index(value)
    if option.type == "district":
        return START_RANDOM if value == RANDOM else rs.board.index(value)
    return int(value)


def compile_ruleset(rs) -> Compiled:
    board = rs.board
    n = len(board)
    adjacency = np.zeros((n, n), dtype=np.int8)
    for a, b in board.edges:
        adjacency[a, b] = adjacency[b, a] = 1
    lists = [board.neighbours(i) for i in range(n)]
    width = max(len(nb) for nb in lists)
    neighbours = np.full((n, width), -1, dtype=np.int32)
    for i, nb in enumerate(lists):
        neighbours[i, :len(nb)] = nb
    band_code = {None: BAND_NONE, **{name: i for i, name in enumerate(BANDS)}}

    henchmen = rs.characters.henchmen
    missions = list(rs.missions)
    cards = rs.resources.expanded()
    resource_params = np.zeros((len(cards), MAX_PARAMS), dtype=np.int64)
    for i, card in enumerate(cards):
        for j, (_, value) in enumerate(card.params):
            resource_params[i, j] = value

    params = np.zeros(N_PARAMS, dtype=np.int64)
    for index, key in PARAM_KEYS.items():
        params[index] = encode(rs, key)

    return Compiled(
        n_districts=n,
        adjacency=adjacency,
        neighbours=neighbours,
        degree=np.array([len(nb) for nb in lists], dtype=np.int32),
        distance=np.array(board.distances(), dtype=np.int32),
        tile=np.array([d.has_tile for d in board.districts], dtype=np.int8),
        peripheral=np.array([d.peripheral for d in board.districts], dtype=np.int8),
        band=np.array([band_code[d.band] for d in board.districts], dtype=np.int8),
        tile_districts=np.array(board.tile_indices, dtype=np.int32),
        police_station=board.special("police"),
        subway=board.special("subway"),
        heliport=board.special("heliport"),
        peripheral_districts=np.array(board.peripheral_indices, dtype=np.int32),
        n_affranchi=len(rs.characters.affranchi),
        henchman_suit=np.array([SUITS.index(h.suit) for h in henchmen], dtype=np.int8),
        henchman_value=np.array([h.value for h in henchmen], dtype=np.int8),
        mission_crew=np.array([m.crew for m in missions], dtype=np.int8),
        mission_at_risk=np.array([m.at_risk for m in missions], dtype=np.int8),
        mission_secret=np.array([m.secret for m in missions], dtype=np.int8),
        mission_reward=mission_rewards(rs),
        resource_kind=np.array([EFFECT_KINDS.index(c.effect) for c in cards], dtype=np.int8),
        resource_timing=np.array([TIMINGS.index(c.timing) for c in cards], dtype=np.int8),
        resource_window=np.array([WINDOWS.index(c.window) for c in cards], dtype=np.int8),
        resource_params=resource_params,
        start_bills=np.array(rs["start.bills"], dtype=np.int64),
        seat_money=np.array(rs["seats.money"], dtype=np.int64),
        params=params,
    )
