"""The one decision interface of the New York Kings engine.

At every choice the rulebook gives a player, the engine lists the legal options as rows of the
game's option table `opts` (`[op, a, b, c, d]`), calls `ask(game, env, seat, n, OPTS_CTX)` (the
record's tables it wrote, sim.nyk.chapters.base) with the kind of decision in `ctx[CTX_DECISION]`,
and gets back the index of one row. The engine
built the rows, so whatever a strategy answers is legal; an index out of range is counted as an
illegal decision and replaced by option 0.

`ctx` carries what the decision is about (a fight's strengths, an interrogation's police, ...),
in the slots named CTX_* below.
"""

from sim.shared.codes import codes  # np.int64 codes: a callee compiles once, not per constant


# --- decisions -------------------------------------------------------------------------------------
(D_BID, D_DISCARD, D_MOVE, D_STEP, D_HELI, D_CUSTODY, D_WHOM, D_RESIST, D_FOLD, D_LOSE, D_ACTION,
 D_HESITATE, D_REACT, D_DEAL, D_DEAL_ACCEPT, D_POLICE, D_PLACE, D_OFFER) = codes(18)
DECISIONS = ("bid", "discard", "move", "step", "heli", "custody", "whom", "resist", "fold", "lose",
             "action", "hesitate", "react", "deal", "deal_accept", "police", "place", "offer")

# --- option rows: op code, then up to four arguments ---------------------------------------------
(OP_END, OP_BID, OP_CARD, OP_POLICE, OP_JOURNEY, OP_STEP, OP_DROP, OP_PICKUP, OP_PLAYER, OP_YES,
 OP_NO, OP_CHAR, OP_ACCEPT, OP_ACCOMPLISH, OP_PROVOKE, OP_RECRUIT, OP_PLAY, OP_PART, OP_STOP) = range(19)
OPT_W = 5
MAX_OPTS = 512

# An argument left to a second decision once its option is chosen, so that the first list stays
# short: which card pays a journey step (NYK-M8, D_DISCARD), how much a recruit offers (NYK-A6, D_OFFER)
ANY_CARD = -2
ANY_OFFER = -2

# journey modes (NYK-M1, M6, M7)
MODE_NORMAL, MODE_SUBWAY, MODE_HELI = 0, 1, 2

# --- context slots ----------------------------------------------------------------------------------
(CTX_STAGE, CTX_MINE, CTX_THEIRS, CTX_OPPONENT, CTX_POT, CTX_DISTRICT, CTX_GROUP, CTX_STEPS,
 CTX_MODE, CTX_WINDOW, CTX_CREW, CTX_OTHER_CREW, CTX_DECISION) = range(13)
N_CTX = 16

# the windows in which resource cards are played (NYK-C5), in the order of
# sim.rules.nyk.content.WINDOWS (a card's `window` in the content file)
(WIN_INTERROGATED, WIN_INTIMIDATION, WIN_FUSILLADE, WIN_LOSING, WIN_WON_FIGHT, WIN_CARD_PLAYED,
 WIN_TURN_START, WIN_RESOURCES, WIN_ACCOMPLISHED, WIN_MOVEMENT, WIN_ACTIONS) = codes(11)
N_WINDOWS = 11

