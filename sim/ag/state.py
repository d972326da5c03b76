"""American Gangsters game state: one numpy record (`GAME_DTYPE`) changed in place by the engine.

Every row and column has a named constant here, so jitted code reads `game.pl[p, RENOWN]` rather
than a magic number. Location slots: slot 0 is the hospital (AG-C8), slots 1..g[SHOW_N] the
location cards revealed this turn (card id at g[SHOW0 + slot]). Bags (AG-C2) are counted by value
per holder: rows 0..4 the seats, BANK_ROW the bank, POT_ROW the roulette pot.
"""

import numpy as np

from sim.shared.codes import codes
from numba import njit

from sim.ag.decisions import MAX_OPTS, N_CTX, OPT_W
from sim.rules.ag.content import MAX_CARDS, MAX_EVENT_CARDS

MAX_SEATS = 5
N_DISTRICTS = 4
N_TRAFFICS = 4
DRUGS, ARMS, GAMBLING, PROSTITUTION = range(4)     # traffic order of sim.rules.ag.content.TRAFFICS
HOSPITAL = 0
MAX_SLOTS = 1 + MAX_SEATS + 5                       # the hospital and up to players + 5 cards
MAX_TURNS = 150                                     # end.turn_cap is at most this
MAX_LOG = 4096
MAX_BULLETS = 32
N_FORCED = 64
N_SCRIPT = 256
NO = np.int64(-1)  # int64 in jitted callers, not a literal type (sim.shared.codes)

# pieces a family places (AG-T3) and the dice kinds they roll
BOSS, HENCH, KILLER, OCC = codes(4)
N_PIECES = 4
DIE_H, DIE_K, DIE_O = 0, 1, 2      # the die kinds are the piece kinds minus one
R_CLIC, R_BANG, R_FBI = range(3)   # what a rolled die shows

# --- g: game scalars, then fixed blocks ------------------------------------------------------------
(TURN, N_PLAYERS, GODFATHER, GAME_OVER, CAP_HIT, FBI, INFORMER, N_EVENTS, RECORD, CHECK, BROKEN,
 DECISIONS, ILLEGAL, WINNER, DECIDED_BY, ENDED_BY, TURNS_PLAYED, FORCED_N, FORCED_POS, SCRIPT_N,
 SCRIPT_POS, OCC_SUPPLY, H_COST_POS, K_COST_POS, L_DECK_N, L_DISC_N, SHOW_N, E_DECK_N, E_DISC_N,
 BARREL_N, BARREL_POS, ARMS_USED, FBI_PEAK, SHOOTOUTS, BOSS_DEATHS, N_CARDS, N_EVENT_CARDS,
 EVENTS_PLAYED, GOODS_KEY) = range(39)
# GOODS_KEY: whose placement the policy scratch `goods` was worked out for (strategies.ag.policy)
PLAN_GOODS_KEY = 39   # the turn (+ 1) whose placement the policy scratch `plan_goods` was worked out for
SUPPLY0 = 40                     # traffic tokens left in the supply, one per traffic
BARON0 = SUPPLY0 + N_TRAFFICS    # holder of each Baron title (AG-C4), or NO
CAID0 = BARON0 + N_TRAFFICS      # holder of each Caid title, or NO
L_DECK0 = CAID0 + N_DISTRICTS    # location draw pile, top at L_DECK0 + g[L_DECK_N] - 1
L_DISC0 = L_DECK0 + MAX_CARDS    # location discard pile
SHOW0 = L_DISC0 + MAX_CARDS      # card id on each slot (slot 0, the hospital, holds NO)
E_DECK0 = SHOW0 + MAX_SLOTS      # event draw pile
E_DISC0 = E_DECK0 + MAX_EVENT_CARDS
BARREL0 = E_DISC0 + MAX_EVENT_CARDS  # bullet cards (1 = BANG), drawn from BARREL_POS
ORDER0 = BARREL0 + MAX_BULLETS   # seats in turn order from the godfather
IN0 = ORDER0 + MAX_SEATS         # scratch flags per seat (roulette players, ...)
FORCED0 = IN0 + MAX_SEATS        # forced die faces / bullets (scenario tests)
SCRIPT0 = FORCED0 + N_FORCED     # scripted option indices (the `script` policy of tests)
# --- the forward model (sim.ag.forward): a game replayed from its turn snapshot with the choices
# made since (the forward script), halting at the first decision of a stopped seat past its end
FW0 = SCRIPT0 + N_SCRIPT
(FW_MODE, FW_POS, FW_N, FW_STOP, FW_SEAT, FW_OPTS_N, FW_HALTED, FW_DET_N, FW_DET_DONE,
 FW_MAX_N) = range(FW0, FW0 + 10)
# FW_MODE: 1 while the forward driver replays (0 in batches: `ask` skips the forward branch);
# FW_POS / FW_N: next script entry / entries; FW_STOP: bitmask of the seats that choose from
# outside; FW_SEAT / FW_OPTS_N: the pending decision (its rows and ctx are game.opts, game.ctx);
# FW_DET_N: determinizations made this turn (at, seat, key), FW_DET_DONE: how many this replay
# applied; FW_MAX_N: the most script entries a turn has needed so far (sizing, docs)
FW_POLICY = -1                   # script entry: the seat's own policy decides here
N_FW_SCRIPT = 1024               # the most decisions (n > 1) one turn may hold
N_FW_DET = 16                    # the most determinizations within one turn
FW_SCRIPT0 = FW0 + 10
FW_DET0 = FW_SCRIPT0 + N_FW_SCRIPT   # (script position, seat, key) per determinization
N_G = FW_DET0 + 3 * N_FW_DET

# --- pl: families -----------------------------------------------------------------------------------
(RENOWN, HENCHMEN, KILLERS, WOUNDS, OCC_READY, OCC_NEW, IS_INFORMER, TRADED, REROLLED, RANK,
 BID, PLAN) = range(12)
# PLAN: turn * MAX_SLOTS + the card slot the family's crew goes to (strategies.ag.belief)
# OCC_READY: occasional dice to place this turn; OCC_NEW: gained this turn, ready next (AG-K3)
WON0 = 12                        # location cards won, per district
TOK0 = WON0 + N_DISTRICTS        # traffic tokens held, per traffic
CTR0 = TOK0 + N_TRAFFICS

# --- per-seat counters (summed over the game; every mechanic has its own) ---------------------------
COUNTERS = (
    "trades_up", "trades_down_bags", "trades_down_henchman", "bosses_unplaced", "dice_placed",
    "locations_tried", "locations_succeeded", "locations_failed", "cards_won", "renown_from_locations",
    "bags_from_locations", "tokens_won", "occasional_gained", "offers_made", "offers_refused",
    "agreements", "shootouts", "bangs_fired", "henchmen_lost", "killers_lost", "occasional_lost",
    "wounds", "boss_deaths", "bosses_killed", "hospital_recruits", "heals", "recruit_spent", "rerolls",
    "fbi_raised", "fbi_lowered", "baron_turns", "caid_turns", "bags_stolen", "power_uses",
    "powers_sold", "auction_spent", "auctions_won", "roulette_pulls", "roulette_wins", "duel_shots",
    "contested", "bargain_threat", "bargain_got", "bargain_total", "side_bags_paid", "side_bags_received",
    "rerolls_declined",
)
# contested: successes shared with other families (AG-N); bargain_threat, bargain_got, bargain_total:
# over them, the family's shoot-out value (its disagreement point), the worth it got from the card
# (side payments included) and the card's worth, in tenths of a bag at the negotiation.value_* worths
N_COUNTERS = len(COUNTERS)
N_PL = CTR0 + N_COUNTERS
(C_TRADES_UP, C_TRADES_DOWN_BAGS, C_TRADES_DOWN_HENCH, C_UNPLACED, C_DICE_PLACED, C_TRIED,
 C_SUCCEEDED, C_FAILED, C_CARDS_WON, C_RENOWN_LOC, C_BAGS_LOC, C_TOKENS_WON, C_OCC_GAINED,
 C_OFFERS_MADE, C_OFFERS_REFUSED, C_AGREEMENTS, C_SHOOTOUTS, C_BANGS, C_HENCH_LOST, C_KILLERS_LOST,
 C_OCC_LOST, C_WOUNDS, C_BOSS_DEATHS, C_BOSSES_KILLED, C_RECRUITS, C_HEALS, C_RECRUIT_SPENT,
 C_REROLLS, C_FBI_RAISED, C_FBI_LOWERED, C_BARON_TURNS, C_CAID_TURNS, C_BAGS_STOLEN, C_POWER_USES,
 C_POWERS_SOLD, C_AUCTION_SPENT, C_AUCTIONS_WON, C_ROULETTE_PULLS, C_ROULETTE_WINS,
 C_DUEL_SHOTS, C_CONTESTED, C_BARGAIN_THREAT, C_BARGAIN_GOT, C_BARGAIN_TOTAL, C_SIDE_PAID,
 C_SIDE_RECEIVED, C_REROLLS_DECLINED) = range(CTR0, N_PL)

# --- location cards ---------------------------------------------------------------------------------
LC_STATE, LC_OWNER = 0, 1
LS_DECK, LS_DISCARD, LS_SHOWN, LS_WON = range(4)

# --- bags: rows of `bags` (columns: worth 1, worth 3) -------------------------------------------------
BANK_ROW = MAX_SEATS
POT_ROW = MAX_SEATS + 1

# --- negotiation scratch: the items of a card's gains (AG-N1) -----------------------------------------
IT_RENOWN, IT_BAGS, IT_TOKEN, IT_CARD, IT_OCC = range(5)
N_ITEMS = 5

# --- the end (AG-G1, G2, E1) ------------------------------------------------------------------------
ENDED = ("parrain", "informer", "all_won", "cap")
END_PARRAIN, END_INFORMER, END_ALL_WON, END_CAP = range(4)
DECIDED = ("informer", "parrain", "renown", "money", "shared")
BY_INFORMER, BY_PARRAIN, BY_RENOWN, BY_MONEY, BY_SHARED = range(5)

EVENT_WIDTH = 8
# --- bargaining scratch (sim.ag.bargain): the shoot-out values are worked out many times a placement
MAX_HITS = 128      # BANGs that can land on one family (every other family's dice)
MAX_COSTS = 32      # members one family can lose on a card
BANG_ROWS = MAX_SEATS + 2        # rows of `bang`: each family's BANG distribution, then HITS_ROW, STEP_ROW
HITS_ROW, STEP_ROW = MAX_SEATS, MAX_SEATS + 1
SV_ALIVE, SV_LOSS, SV_BANGS, SV_THREAT, SV_CLAIM, SV_TARGET = range(6)
N_SV = 6                         # rows of `sv`: per-seat figures of one valuation
SI_AIM, SI_TOPS, SI_OTHERS = range(3)   # rows of `si`: whom each family shoots at, its dice, the others
# rows of `settle_f` (sim.ag.chapters.negotiation, sim.ag.shots.arms_gain): a contest's per-seat figures
SF_THREATS, SF_CLAIMS, SF_TARGETS, SF_NET, SF_WITH, SF_WITHOUT = range(6)
N_SF = 6

# --- random-number streams (sim.rng): one per source of luck, each keyed by (run seed, game id,
# source), so that a decision taken otherwise shifts only its own source's later draws and two
# rule variants on one seed meet the same dice, decks and draws (common random numbers)
(S_DEAL,       # the profile cards: who is the informer (AG-C6)
 S_BAGS,       # bags drawn at random from a holder (AG-C2)
 S_LOCATIONS,  # the location deck and its reshuffles (AG-C7)
 S_EVENTS,     # the event deck and its reshuffles (AG-C9)
 S_BARREL,     # the roulette's barrel of bullet cards (AG-C11)
 ) = range(5)
S_DICE0 = 5                           # seat p's dice: S_DICE0 + p
S_POLICY0 = S_DICE0 + MAX_SEATS       # seat p's policy randomness: S_POLICY0 + p
S_SHARE = S_POLICY0 + MAX_SEATS       # ties of a sharing out between equal families (AG-N1)
N_STREAMS = S_SHARE + 1

WALK_CAP, WALK_BUFFERS = 1024, 2   # a shoot-out walk's most distinct states after a shooter; its buffers (the
# states after the last shooter, after this one)
# a shooter's chain of BANGs in the walk: states it holds at once (each aim tie adds the tied targets
# less one), and the walk's terms kept of each family for the whole shoot-out (sim.ag.shots X_*)
CHAIN_DEPTH, WALK_TERMS = 64, 9
WALK_BANGS = 4 * 4 + 3   # most BANGs of a family's dice on a card in the walk (its BANG law's last index)
GAME_DTYPE = np.dtype([
    ("g", np.int64, N_G),
    ("pl", np.int64, (MAX_SEATS, N_PL)),
    ("bags", np.int64, (MAX_SEATS + 2, 2)),             # bags by value: seats, bank, pot
    ("lc", np.int64, (MAX_CARDS, 2)),                    # each location card's state and owner
    ("at", np.int64, (MAX_SLOTS, MAX_SEATS, N_PIECES)),  # pieces placed on each slot (AG-T3)
    ("hidden", np.int64, (MAX_SLOTS, MAX_SEATS, N_PIECES)),  # ... this turn's, out of sight (AG-T3)
    ("dice", np.int64, (MAX_SEATS, 3, 3)),               # rolled dice: family, die kind, result
    ("alloc", np.int64, (MAX_SEATS, N_ITEMS)),           # a split of a card's gains (AG-N1)
    ("share", np.float64, MAX_SEATS),                    # each family's fair share of a bargain
    ("want", np.float64, MAX_SEATS),                     # ... and what it still lacks of it
    ("units", np.int64, N_ITEMS),                        # the units of gains still to split
    ("goods", np.float64, MAX_SLOTS),                    # policy scratch: each card's worth to a family
    ("plan_goods", np.float64, (MAX_SEATS, MAX_SLOTS)),  # ... to every family, for the placement game
    ("moved", np.float64, (2, MAX_SLOTS, MAX_SEATS, 2)),   # policy scratch: worth changes of a move
    ("belief", np.float64, (MAX_SEATS, MAX_SLOTS)),      # policy scratch: the turn's placement strategies
    # ... the placement game's scratch (strategies.ag.belief), in the record, not allocated at each
    # solve: the crews, threats, card targets and FBI steps its payoffs read; fictitious play's
    # replies, first replies and unsure families' bits, the families sure and unsure on each card,
    # the sets of unsure others and their chances, and the unsure families' factors
    ("pt_crews", np.int64, (MAX_SEATS, 4)),
    ("pt_threat", np.float64, MAX_SEATS),
    ("pt_targets", np.int64, MAX_SLOTS),
    ("pt_fbi", np.float64, (MAX_SEATS, MAX_SLOTS)),
    ("fp_seats", np.int64, (3, MAX_SEATS)),
    ("fp_slots", np.int64, (2, MAX_SLOTS)),
    ("fp_sets", np.int64, 1 << MAX_SEATS),
    ("fp_chances", np.float64, 1 << MAX_SEATS),
    ("fp_factors", np.float64, (2, MAX_SEATS)),
    ("bang", np.float64, (BANG_ROWS, MAX_HITS)),         # bargaining scratch: BANG and hit distributions
    ("costs", np.float64, MAX_COSTS),                    # ... what each hit costs a family
    ("sv", np.float64, (N_SV, MAX_SEATS)),               # ... per-seat figures (SV_*)
    ("si", np.int64, (3, MAX_SEATS)),                    # ... per-seat seats (SI_*)
    # a card's settlement (SF_*): the shoot-out values, claims, Nash targets, side payments' net, the
    # Arms power's gain, each family's purse and the items' worths: in the record, not allocated
    # at each card (each entry read is written first, as a fresh array's zeros were)
    ("settle_f", np.float64, (N_SF, MAX_SEATS)),
    ("settle_purse", np.int64, MAX_SEATS),
    ("settle_worths", np.float64, N_ITEMS),
    ("walk", np.int64, (WALK_BUFFERS, WALK_CAP, MAX_SEATS)),   # shoot-out walk (sim.ag.shots): states, a word a family
    ("walk_slot", np.int64, (WALK_BUFFERS, 2 * WALK_CAP)),         # ... its hash table: stamp * 2^16 + 1 + index
    ("walk_stamp", np.int64, WALK_BUFFERS),                         # ... each buffer's stamp: older cells are empty
    ("walk_w", np.float64, (WALK_BUFFERS, WALK_CAP)),               # ... probabilities
    ("walk_acc", np.float64, (WALK_BUFFERS, WALK_CAP, MAX_SEATS)),  # ... probability-weighted worths won and lost
    # ... a shooter's chain (sim.ag.shots.fire_chain): states, BANGs fired, chance, worths; the tied
    # targets of a BANG; the terms kept of each family. In the record, not allocated: the chain passes
    # them to its steps BANG by BANG, and an allocated array's views count references at each pass
    ("chain", np.int64, (CHAIN_DEPTH, MAX_SEATS)),
    ("chain_f", np.int64, CHAIN_DEPTH),
    ("chain_m", np.float64, CHAIN_DEPTH),
    ("chain_d", np.float64, (CHAIN_DEPTH, MAX_SEATS)),
    ("chain_tied", np.int64, MAX_SEATS),
    ("walk_fixed", np.int64, (MAX_SEATS, WALK_TERMS)),
    # ... each family's BANG law and a shooter's tail of it, each family's part of the card by who
    # survives, a leaf's worths, the values summed: passed at every leaf and chain, as the chain's
    ("walk_laws", np.float64, (MAX_SEATS, WALK_BANGS + 1)),
    ("walk_tail", np.float64, WALK_BANGS + 2),
    ("walk_sequel", np.float64, (1 << MAX_SEATS, MAX_SEATS)),
    ("walk_ended", np.float64, MAX_SEATS),
    ("walk_out", np.float64, MAX_SEATS),
    # ... a contest's start (a word a family), its key in the table of contests (sim.ag.env.MEMO_W,
    # MEMO_F words), each family's most BANGs, the worths paid before the rolls and a row of zeros:
    # in the record, not allocated at each contest
    ("walk_start", np.int64, MAX_SEATS),
    ("walk_key", np.int64, 3 + 2 * MAX_SEATS),
    ("walk_fkey", np.float64, 1 + MAX_SEATS),
    ("walk_tops", np.int64, MAX_SEATS),
    ("walk_paid", np.float64, (2, MAX_SEATS)),
    # ... what each family's score adds to the shooter's aim worth (sim.ag.shots.targets_of) and
    # the renown it was worked out for: it changes only when the family's boss dies
    ("walk_aim_w", np.int64, MAX_SEATS),
    ("walk_aim_v", np.float64, MAX_SEATS),
    ("fortune", np.int64, (MAX_TURNS + 1, MAX_SEATS)),   # scores at the end of each turn
    ("rng", np.uint64, (N_STREAMS, 4)),                  # one stream per source of luck (S_*)
    ("opts", np.int64, (MAX_OPTS, OPT_W)),               # the decision at hand: legal options
    ("ctx", np.int64, N_CTX),                            # ... and what it is about
    ("events", np.int64, (MAX_LOG, EVENT_WIDTH)),        # the game told event by event (optional)
])
Game = np.record


def new_game() -> Game:
    game = np.zeros(1, GAME_DTYPE).view(np.recarray)[0]
    clear_game(game)
    return game


@njit(cache=True)
def forget_worths(g):
    """The policies' cached worths of the cards (`goods`, `plan_goods`, strategies.ag.policy) are
    stale: other cards are out, or the profiles they read were re-dealt."""
    g[GOODS_KEY] = 0
    g[PLAN_GOODS_KEY] = 0


@njit(cache=True)
def clear_game(game):
    """Empty every field a game reads (the event log is only read up to g[N_EVENTS])."""
    game.g[:] = 0
    game.pl[:, :] = 0
    game.bags[:, :] = 0
    game.lc[:, :] = 0
    game.at[:, :, :] = 0
    game.fortune[:, :] = 0
    game.rng[:, :] = 0
    for i in range(N_TRAFFICS):
        game.g[BARON0 + i] = NO
    for i in range(N_DISTRICTS):
        game.g[CAID0 + i] = NO
    for s in range(MAX_SLOTS):
        game.g[SHOW0 + s] = NO
    game.g[INFORMER] = NO
    game.g[WINNER] = NO


@njit(cache=True)
def bag_count(game, row):
    return game.bags[row, 0] + game.bags[row, 1]


@njit(cache=True)
def bag_value(game, row):
    """The hidden worth of a holder's bags (AG-C2): only the final tie-break reads it."""
    return game.bags[row, 0] + 3 * game.bags[row, 1]


@njit(cache=True)
def pieces_at(game, slot, p):
    return game.at[slot, p, BOSS] + game.at[slot, p, HENCH] + game.at[slot, p, KILLER] + game.at[slot, p, OCC]
