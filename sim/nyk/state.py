"""New York Kings game state as plain arrays (one `Game` NamedTuple of numpy arrays).

Every row and column has a named constant here, so jitted code reads `g.ch[c, LOC]` rather than a
magic number. A game is one numpy record (`GAME_DTYPE`) created by `new_game` and changed in
place by the engine's step functions.

Characters: ids 0..4 are the affranchi (seat p plays affranchi p), ids 5..24 the henchmen in
`characters.toml` order. Missions: ids 0..23 are the cards, END_CARD (24) the end card.
"""

import numpy as np
from numba import njit

from sim.nyk.fights import code_add
from sim.shared.bits import count_bits, lowest_bit  # noqa: F401  (the engine's names for them)
from sim.nyk.compiled import EFFECT_KINDS
from sim.nyk.decisions import MAX_OPTS, N_CTX, OPT_W

MAX_SEATS = 5
N_DISTRICTS_MAX = 32  # districts the engine holds (sim.rules.nyk.content.ENGINE_MAX_DISTRICTS)
N_AFFRANCHI = 5
N_HENCHMEN = 20
N_CHARS = N_AFFRANCHI + N_HENCHMEN
N_MISSIONS = 24
END_CARD = N_MISSIONS
N_CARDS = 32
N_TILES = 19
N_POLICE = 4
MAX_ROW = 6  # mission spaces (3 in the rulebook, NYK-S7; missions.row up to 6)
MAX_TURNS = 64  # a cap normal play never reaches: the mission deck ends the game by turn ~25
MAX_EVENTS = 4096
NO = np.int64(-1)  # int64 in jitted callers, not a literal type (sim.shared.codes)

# --- g: game scalars, then fixed blocks (each block's first index is its *0 constant) ----------------
(TURN, N_PLAYERS, FIRST, ACTIVE, END_REVEALED, LAST_TURN, GAME_OVER, CAP_HIT, BANK, POT,
 BANK_FAILURES, M_DECK_POS, R_DECK_N, R_DISC_N, H_DECK_N, H_DISC_N, BAG_N, N_EVENTS, RECORD,
 FORCED_N, FORCED_POS, WINNER, DECIDED_BY, END_CARD_POS, ILLEGAL, CHECK, MONEY_TOTAL, TURNS_PLAYED,
 POLICE_CHECK, BROKEN, DECISIONS, VIEW_MISMATCH) = range(32)  # BROKEN: first invariant broken
# (check mode); VIEW_MISMATCH: decisions a re-deal of hidden facts changed (sim.nyk.view)
N_FORCED = 64
ROW0 = 32                                   # mission on space 1, 2, 3, ... (NO when empty)
M_DECK0 = ROW0 + 6                          # mission draw order, next at g[M_DECK_POS]
R_DECK0 = M_DECK0 + 25                      # resource draw pile, top at R_DECK0 + g[R_DECK_N] - 1
R_DISC0 = R_DECK0 + 32                      # resource discard pile
H_DECK0 = R_DISC0 + 32                      # henchman draw pile (character ids)
H_DISC0 = H_DECK0 + 20                      # henchman discard pile
PERIPH0 = H_DISC0 + 20                      # henchman waiting at each peripheral district, or NO
BAG0 = PERIPH0 + 4                          # address tiles in the bag (districts), first g[BAG_N]
POLICE0 = BAG0 + 19                         # district of each police car, or PC_OFF / PC_RETURNING
POLICE_STEPS0 = POLICE0 + 4                 # steps each car moved this turn
FORCED0 = POLICE_STEPS0 + 4                 # dice to roll before the generator's (scenario tests)
N_G = FORCED0 + N_FORCED

# --- pl: players: scalars, the hand of resource cards, then the counters ------------------------
(MONEY, ZEROS, ALIVE, HAND_N, RECRUITED, EXTRA_STEPS, RANK, ROSTER, HAND_KINDS) = range(9)
# HAND_KINDS: bitmask of the effect kinds in the hand, kept by `draw_card` and `discard_card`, so
# that the many "may p play a card here?" questions are one test when the answer is no
# EXTRA_STEPS: districts an extra_move card (e.g. Fast Car) adds to the player's next journey
# ROSTER: bitmask of the characters the player owns (any place), kept by `set_owner`
HAND0 = 9  # pl[p, HAND0 + i] for i < pl[p, HAND_N]
CTR0 = HAND0 + 32

# --- ch: characters ------------------------------------------------------------------------------
# OWNER: seat or NO. LOC: district, or NO (in a deck, in custody, dead). CELL: custody cell 1..3 or 0.
# WHERE: the card's place (W_*). STEPS: districts moved this turn. STOPPED: met a police check.
# MOVED: its movement is over for the turn. ACTED: its action is spent. START: district at turn start.
# QUESTIONED: 1 + the turn it was last interrogated (0: never), for `police.requestion = once`.
(OWNER, LOC, CELL, WHERE, VALUE, SUIT, MISSION, STEPS, STOPPED, MOVED, ACTED, START, QUESTIONED) = range(13)
N_CH = 13
W_DECK, W_DISCARD, W_PERIPHERAL, W_CONTROLLED, W_CUSTODY, W_DEAD, W_OUT = range(7)
ALL_SUITS = -1  # an affranchi counts in every suit (NYK-T2)
HENCHMEN_MASK = ((1 << N_CHARS) - 1) & ~((1 << N_AFFRANCHI) - 1)

# --- ms: missions --------------------------------------------------------------------------------
# STATE: M_* below. ACCEPT/DEST: districts of the address tiles (DEST NO while a "?" is undrawn).
(M_STATE, M_SLOT, M_ACCEPT, M_DEST, M_HOLDER, M_CREW, M_RISK, M_SECRET, M_REWARD) = range(9)
N_MS = 9
MS_DECK, MS_ROW, MS_HELD, MS_DONE, MS_OUT = range(5)

# --- police cars ---------------------------------------------------------------------------------
PC_OFF, PC_RETURNING = -1, -2  # not in play yet; removed by a resisting crew until next turn

# --- per-seat counters (the game's results; every mechanic has its own) -------------------------
COUNTERS = (
    "bids_paid", "times_first", "cards_drawn", "cards_discarded_limit", "cards_as_moves",
    "cards_played", "missions_accepted_1", "missions_accepted_2", "missions_accepted_risky",
    "missions_done_1", "missions_done_2", "missions_done_risky", "missions_lost", "mission_income",
    "provocations_made", "provocations_received", "folds", "fights_won", "fights_lost",
    "fights_tied", "pots_won", "pots_lost", "characters_lost", "interrogations", "arrests",
    "resists", "resists_won", "custody_turns", "recruits_tried", "recruits_done",
    "recruits_hesitated", "recruit_spent", "subway_rides", "heli_rides", "heli_spent",
    "police_moves", "henchmen_parted", "card_income", "deals",
    "affranchi_lost", "provocations_raised", "fusillades", "fights_as_favourite",
    "fights_won_as_favourite",
) + tuple(f"recruits_{what}_{v}" for what in ("tried", "done") for v in ("9", "10", "J", "Q", "K")) + tuple(
    f"recruit_offered_{v}" for v in ("9", "10", "J", "Q", "K")) + tuple(
    f"cards_{what}_{effect}" for what in ("drawn", "played") for effect in EFFECT_KINDS)
N_COUNTERS = len(COUNTERS)
C = {name: CTR0 + i for i, name in enumerate(COUNTERS)}
# OCC0: the occupancy, pl[p, OCC0 + d] = bitmask of p's characters standing on district d
# (W_CONTROLLED), kept by `set_owner` and `place`: "whose crew stands here" is asked at most
# decisions (fights, police, journeys, the players' judgement), and one read answers it
OCC0 = CTR0 + N_COUNTERS
# CREDIT0: what a card with a count (NYK-C5: Alibi, Bullet Proof, Informer at count N) still does
# this turn after its first use, pl[p, CREDIT0 + CR_*] = 8 * (turn + 1) + uses left (`grant_uses`)
CR_BLOCK, CR_SAVE, CR_CANCEL = range(3)  # interrogations blocked, eliminations cancelled, cards cancelled
CREDIT0 = OCC0 + N_DISTRICTS_MAX
N_PL = CREDIT0 + 3
(C_BIDS_PAID, C_TIMES_FIRST, C_CARDS_DRAWN, C_CARDS_DISCARDED, C_CARDS_AS_MOVES, C_CARDS_PLAYED,
 C_ACCEPTED_1, C_ACCEPTED_2, C_ACCEPTED_RISKY, C_DONE_1, C_DONE_2, C_DONE_RISKY, C_MISSIONS_LOST,
 C_MISSION_INCOME, C_PROVOKED, C_PROVOKED_BY, C_FOLDS, C_FIGHTS_WON, C_FIGHTS_LOST, C_FIGHTS_TIED,
 C_POTS_WON, C_POTS_LOST, C_CHARS_LOST, C_INTERROGATIONS, C_ARRESTS, C_RESISTS, C_RESISTS_WON,
 C_CUSTODY_TURNS, C_RECRUITS_TRIED, C_RECRUITS_DONE, C_RECRUITS_HESITATED, C_RECRUIT_SPENT,
 C_SUBWAY, C_HELI, C_HELI_SPENT, C_POLICE_MOVES, C_PARTED, C_CARD_INCOME, C_DEALS, C_AFFRANCHI_LOST,
 C_RAISED, C_FUSILLADES, C_FAVOURITE, C_FAVOURITE_WON) = range(CTR0, CTR0 + 44)
C_TRIED_BY_VALUE = C["recruits_tried_9"]      # + henchman value (9 = 0 .. K = 4)
C_DONE_BY_VALUE = C["recruits_done_9"]
C_OFFERED_BY_VALUE = C["recruit_offered_9"]
C_DRAWN_BY_KIND = CTR0 + COUNTERS.index(f"cards_drawn_{EFFECT_KINDS[0]}")  # + effect kind (E_*)
C_PLAYED_BY_KIND = CTR0 + COUNTERS.index(f"cards_played_{EFFECT_KINDS[0]}")

# --- how the winner was decided (NYK-E1) ------------------------------------------------------------
DECIDED = ("fortune", "henchmen", "henchman_values", "random", "shared", "last_standing")
BY_FORTUNE, BY_HENCHMEN, BY_VALUES, BY_RANDOM, BY_SHARED, BY_LAST_STANDING = range(6)

EVENT_WIDTH = 8

# --- random-number streams (sim.rng): one per source of luck, each keyed by (run seed, game id,
# source), so that a decision taken otherwise shifts only its own source's later draws and two
# rule variants on one seed meet the same dice, decks and draws (common random numbers)
(S_SETUP,      # start districts (start_district = random)
 S_HENCHMEN,   # the henchman deck and its reshuffles
 S_MISSIONS,   # the mission deck and the end card's place
 S_BAG,        # address tiles drawn from the bag
 S_RESOURCES,  # the resource deck and its reshuffles
 S_POLICE,     # the police's interrogation dice
 S_FIRST,      # lots among the highest bids for the first player card (NYK-T1)
 S_FINAL,      # the final ranking's last tie-break (NYK-E1)
 ) = range(8)
S_DICE0 = 8                           # seat p's dice: S_DICE0 + p
S_POLICY0 = S_DICE0 + MAX_SEATS       # seat p's policy randomness: S_POLICY0 + p
N_STREAMS = S_POLICY0 + MAX_SEATS


# --- fw: the forward model's state (sim.nyk.forward): scalars, then the script -------------------
# A forward state is the record at the start of its turn (the snapshot) plus the script: one entry
# per decision of more than one option since then, the option taken (FW_POLICY: the seat's own
# policy). Replaying the turn with the script reaches the current decision (docs/architecture.md).
(FW_MODE,      # 1: `ask` reads the script (sim.nyk.script); 0: the batch, nothing read
 FW_POS,       # replay: decisions of the turn met so far (the script's read position)
 FW_N,         # entries in the script
 FW_HALT,      # seats (bits) whose decision halts the replay once the script is read
 FW_HALTED,    # the replay stopped at a decision (the pending decision below)
 FW_SEAT,      # pending decision: its seat, number of options, kind (D_*)
 FW_NOPTS,
 FW_KIND,
 FW_DET_AT,    # a determinization made mid-turn: at which decision of the turn (-1: none) ...
 FW_DET_SEAT,  # ... from which seat's view ...
 FW_DET_KEY,   # ... with which key; and whether this replay applied it already
 FW_DET_DONE,
 FW_SWAP,      # 1: at the determinization the seats' policies become fw_kinds[1]...; 2: they did
 ) = range(13)
FW_KINDS0 = 13                     # seat p halts only at decision kinds in the mask FW_KINDS0 + p
FW_SCRIPT0 = FW_KINDS0 + MAX_SEATS
N_FW_SCALARS = FW_SCRIPT0
MAX_SCRIPT = 2048                  # decisions in one turn (the most measured is far below)
FW_POLICY = -1                     # script entry: the seat's own policy decides
ALL_KINDS = (1 << 62) - 1
FW_POLICY_PARAMS = 25              # sim.nyk.env.N_POLICY_PARAMS (env reads this module)

# A game is one numpy record: numba passes a record as a plain pointer, with no reference
# counting, where a tuple of arrays costs two atomic operations per array on every call.
GAME_DTYPE = np.dtype([
    ("g", np.int64, N_G),                             # scalars and the decks, row, bag, police
    ("pl", np.int64, (MAX_SEATS, N_PL)),              # money, hand, counters
    ("ch", np.int64, (N_CHARS, N_CH)),
    ("ms", np.int64, (N_MISSIONS + 1, N_MS)),
    ("fortune", np.int64, (MAX_TURNS + 1, MAX_SEATS)),  # fortunes at the end of each turn
    ("rng", np.uint64, (N_STREAMS, 4)),               # one stream per source of luck (S_*)
    # scratch: the legal options and context of the decision at hand, and a second pair for
    # the interrogations that break into a movement (numba passes these views for free, where
    # an array allocated apart costs atomic reference counting on every call)
    ("opts", np.int64, (MAX_OPTS, OPT_W)),
    ("ctx", np.int64, N_CTX),
    ("opts2", np.int64, (MAX_OPTS, OPT_W)),
    ("ctx2", np.int64, N_CTX),
    ("events", np.int64, (MAX_EVENTS, EVENT_WIDTH)),  # the game told event by event (optional)
    # the forward model (sim.nyk.forward): its scalars and script, and the pending decision's
    # options and context (copied there at a halt, whichever scratch pair the engine used)
    ("fw", np.int64, N_FW_SCALARS + MAX_SCRIPT),
    ("fw_opts", np.int64, (MAX_OPTS, OPT_W)),
    ("fw_ctx", np.int64, N_CTX),
    # per-seat scratch of a turn (the turn order, the bids): in the record, not allocated, since an
    # array alive in a frame the forward model's Halt unwinds is never freed (numba)
    ("order", np.int64, MAX_SEATS),
    ("bids", np.int64, MAX_SEATS),
    # the seats' policies before [0] and after [1] a determinization that switches them (FW_SWAP)
    ("fw_kinds", np.int64, (2, MAX_SEATS)),
    ("fw_params", np.float64, (2, MAX_SEATS, FW_POLICY_PARAMS)),
    ("fw_restrict", np.int64, (2, MAX_SEATS)),
])
Game = np.record  # what `new_game` returns: fields read as attributes, in Python and in numba


def new_game() -> Game:
    game = np.zeros(1, GAME_DTYPE).view(np.recarray)[0]
    clear_game(game)
    return game


@njit(cache=True)
def clear_game(game):
    """Empty every field a game reads (the event log is only read up to g[N_EVENTS])."""
    game.g[:] = 0
    game.pl[:, :] = 0
    game.ch[:, :] = 0
    game.ms[:, :] = 0
    game.fortune[:, :] = 0
    game.rng[:, :] = 0
    game.fw[:N_FW_SCALARS] = 0
    for i in range(MAX_ROW):
        game.g[ROW0 + i] = NO
    for i in range(4):
        game.g[PERIPH0 + i] = NO
    for k in range(N_POLICE):
        game.g[POLICE0 + k] = PC_OFF


# --- small readers shared by the engine and the strategies ----------------------------------------

@njit(cache=True)
def set_owner(game, c, p):
    """Give character c to seat p (NO: to nobody), keeping both players' rosters and, if c
    stands on the board, their occupancy."""
    old = game.ch[c, OWNER]
    bit = np.int64(1) << np.int64(c)
    leave_district(game, c)
    if old >= 0:
        game.pl[old, ROSTER] &= ~bit
    if p >= 0:
        game.pl[p, ROSTER] |= bit
    game.ch[c, OWNER] = p
    enter_district(game, c)


@njit(cache=True)
def place(game, c, where, d):
    """Put character c at place `where` (W_*) on district d (NO: off the board), keeping its
    owner's occupancy: every change of a character's place goes through here or `set_owner`,
    but for cards that stay off the board (a pile's bookkeeping, the setup's blank slate)."""
    leave_district(game, c)
    game.ch[c, WHERE] = where
    game.ch[c, LOC] = d
    enter_district(game, c)


@njit(cache=True)
def leave_district(game, c):
    """Take c out of its owner's occupancy, if it stands on a district."""
    p, d = game.ch[c, OWNER], game.ch[c, LOC]
    if p >= 0 and d >= 0 and game.ch[c, WHERE] == W_CONTROLLED:
        game.pl[p, OCC0 + d] &= ~(np.int64(1) << np.int64(c))


@njit(cache=True)
def enter_district(game, c):
    """Add c to its owner's occupancy, if it stands on a district."""
    p, d = game.ch[c, OWNER], game.ch[c, LOC]
    if p >= 0 and d >= 0 and game.ch[c, WHERE] == W_CONTROLLED:
        game.pl[p, OCC0 + d] |= np.int64(1) << np.int64(c)


@njit(cache=True)
def police_at(game, d):
    """Number of police cars on district d."""
    n = 0
    for k in range(N_POLICE):
        if game.g[POLICE0 + k] == d:
            n += 1
    return n


@njit(cache=True)
def group_at(game, p, d):
    """p's characters standing on district d (bitmask; none on NO), from the occupancy."""
    return game.pl[p, OCC0 + d] if d >= 0 else np.int64(0)


@njit(cache=True)
def scanned_group_at(game, p, d):
    """group_at found by scanning p's roster: what the occupancy must equal (check mode)."""
    mask = np.int64(0)
    todo = game.pl[p, ROSTER]
    while todo:
        c = lowest_bit(todo)
        todo &= todo - 1
        if game.ch[c, WHERE] == W_CONTROLLED and game.ch[c, LOC] == d:
            mask |= np.int64(1) << np.int64(c)
    return mask


@njit(cache=True)
def carries_risk(game, group):
    """Whether a member of `group` holds an at-risk mission."""
    rest = group
    while rest:
        c = lowest_bit(rest)
        rest &= rest - 1
        if game.ch[c, MISSION] != NO and game.ms[game.ch[c, MISSION], M_RISK]:
            return True
    return False


@njit(cache=True)
def count_henchmen(game, p):
    """p's henchmen, controlled or in custody (the NYK-A7 limit and the second tie-break)."""
    n = 0
    todo = game.pl[p, ROSTER] & HENCHMEN_MASK
    while todo:
        c = lowest_bit(todo)
        todo &= todo - 1
        n += game.ch[c, WHERE] == W_CONTROLLED or game.ch[c, WHERE] == W_CUSTODY
    return n


@njit(cache=True)
def crew_code_of(game, group):
    """The crew's index in the exact fight table (sim.nyk.fights: its three highest values)."""
    code = 0
    rest = group
    while rest:
        c = lowest_bit(rest)
        rest &= rest - 1
        code = code_add(code, game.ch[c, VALUE])
    return code


@njit(cache=True)
def in_mask(mask, c):
    return (mask >> np.int64(c)) & np.int64(1) == 1


