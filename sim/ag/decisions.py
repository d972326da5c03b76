"""The one decision interface of the American Gangsters engine.

At every choice the rules give a family, the engine lists the legal options as rows of `opts`
(`[op, a, b, c, d]`), sets the decision kind in `ctx[CTX_DECISION]`, calls the seat's policy and
gets back the index of one row. The engine built the rows, so whatever a policy answers is legal;
an index out of range is counted as an illegal decision and replaced by option 0.
"""

from sim.shared.codes import codes  # np.int64 codes: a callee compiles once, not per constant

# --- decisions -------------------------------------------------------------------------------------
(D_TRADE, D_STEAL, D_BID, D_ROULETTE, D_DUEL, D_PLACE, D_DRUGS, D_MOVE, D_BUY, D_HOSPITAL,
 D_REROLL, D_OFFER, D_ACCEPT, D_SHOOT, D_HIT, D_ARMS, D_GIVE_CARD, D_GIVE_TOKEN, D_CLAIM,
 D_GIVE_CAID) = codes(20)
DECISIONS = ("trade", "steal", "bid", "roulette", "duel", "place", "drugs", "move", "buy", "hospital",
             "reroll", "offer", "accept", "shoot", "hit", "arms", "give_card", "give_token", "claim",
             "give_caid")

# --- option rows: op code, then up to four arguments ---------------------------------------------
(OP_PASS, OP_BUY_RENOWN, OP_SELL_BAGS, OP_SELL_HENCH, OP_SEAT, OP_BID, OP_PULL, OP_FOLD, OP_SLOT,
 OP_MOVE, OP_YES, OP_NO, OP_HEAL, OP_RECRUIT, OP_LEVEL, OP_PIECE, OP_DISTRICT, OP_TRAFFIC) = codes(18)
# OP_SLOT a: a slot (0 hospital, 1.. cards) or NO (stay home). OP_MOVE a: from slot, b: seat,
# c: piece kind, d: to slot. OP_RECRUIT a: piece kind. OP_LEVEL a: greed level of an offer.
OPT_W = 5
MAX_OPTS = 256

# AG-N: the proposer chooses among offers at these greed levels (share of the others' fair shares
# it keeps for itself: 0, a quarter, ..., everything)
N_LEVELS = 5
# AG-N, Nash model: the claim levels a family may state, as fractions of the card's worth it adds
# to its true shoot-out value (a bluff: claims that leave no surplus end in a shoot-out)
BLUFF_LEVELS = (0.0, 0.05, 0.1, 0.2, 0.4)

# --- context slots ----------------------------------------------------------------------------------
(CTX_DECISION, CTX_SLOT, CTX_PIECE, CTX_OFFER, CTX_FAIR, CTX_PROPOSER, CTX_ROUND, CTX_SHORT,
 CTX_SHOOTER, CTX_POWER, CTX_REST_H, CTX_REST_K, CTX_REST_O, CTX_THREAT, CTX_TOTAL, CTX_NEXT, CTX_MASK) = range(17)
N_CTX = 17
# CTX_MASK: the families in the shoot-out the Arms power is offered in (AG-B3), a bit per seat
# CTX_THREAT: the family's shoot-out value (its disagreement point), CTX_TOTAL: the card's gains,
# CTX_NEXT: what the next offer would give it in the alternating model; thousandths of a bag
# CTX_REST_*: the family's pieces still to place after this one (the boss is always placed last)
# CTX_OFFER / CTX_FAIR: the offered value and the fair share, in thousandths of a bag (AG-N1)
POWER_ARMS, POWER_PROSTITUTION = codes(2)
