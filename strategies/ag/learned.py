"""The learned American Gangsters player (family `learned`): a conditional logit over option features.

At a decision of kind d the seat scores every option j by w[d] . x_j and takes the best (ties
go to the heuristic's own pick), x_j the option's features below: a linear softmax policy over
hand-made (state, move) features (Soemers et al. 2019), trained by cross-entropy to the search's
choices (sim.league.learn, sim.search.ag_learn). Its first feature is whether the heuristic
(`parametric` family, the preset's knobs) would take the option, so zero weights but that one
play exactly the heuristic and training learns where the search departs from it.

The weights are a set of the env (`env.learned[k]`, decision kinds x N_LEARNED_FEATURES), read
from the preset's `[table]` file (`weights_of`); the seat reads the set its knobs' LEARNED_SLOT
names (a lineup holds up to N_LEARNED_SLOTS learned players' files). Every feature reads what the
heuristic reads too (the cards shown, the pieces on them, the families' scores, the seat's own
bags, the option rows): no other family's profile.

Features of option j (docs/learned.md gives the same list):
  F_BASE       1 if the heuristic takes j
  F_FIRST      1 if j is the first option (often "pass" / "yes" / the hospital)
  F_LAST       1 if j is the last option
  F_POSITION   j / (n - 1): where j sits in the engine's listing
  F_OP0 + op   the option's op code, one-hot (sim.ag.decisions OP_*)
  F_SAME_OP    j is not the heuristic's pick but has its op code
  F_SAME_ARG   j is not the heuristic's pick but has its first argument
  F_HOSPITAL   a piece placed at the hospital (slot 0, AG-K2)
  F_HOME       a piece kept home (AG-T3)
  F_TARGET     a piece placed on a card: the card's target / MAX_TARGET (AG-T4: the roll it needs)
  F_RENOWN     ... the card's renown / 4 (AG-C7)
  F_FBI        ... the card shows the FBI symbol (AG-G2: the FBI pawn steps up on its success)
  F_RIVALS     ... rivals' pieces already on the card / 4 (AG-N: the more, the likelier a bargain or shoot-out)
  F_OWN        ... the seat's own pieces already on it / 4
  F_BOSS       the boss at risk: the boss placed on a card (AG-T3), or the boss taking a BANG (AG-N2)
  F_LEAD       a family named (shoot at, steal from, duel; OP_SEAT): its score less the seat's, / 5 (AG-G1)
  F_LEADER     ... it has the best score of the other families
  F_LEVEL      a level (OP_LEVEL: an offer's greed, a claim's bluff; AG-N1): its index / (N_LEVELS - 1)
  F_BID        a bid (OP_BID, AG-V1): bags bid / the seat's bags
The heuristic's own values (strategies.ag.policy.option_values; kinds it weighs option by option):
  F_VALUED     1 if the heuristic values the options of this kind
  F_GAP        the option's value less the best option's, / GAP, floored at -1
  F_RANK       its rank by value (0 the best) / (n - 1)
  F_CHANCE     a placement on a card: the card's chance of success with the crew there (AG-T4)
  F_SHARE      ... the family's bargained share of the card then (AG-N, the heuristic's forecast)
  F_PLAN       ... the card the crew's strategy drew this turn (AG-T3 simultaneous)
  F_MIX        ... that strategy's probability of the card (the turn's placement game)
  F_STAKE      a claim (AG-N1): its bluff share / the largest, times the family's shoot-out value / the card's
  F_CROWD      ... times the other families on the card / 3
"""

import numpy as np
from numba import njit

from sim.ag.decisions import (
    BLUFF_LEVELS, CTX_PIECE, CTX_SLOT, CTX_THREAT, CTX_TOTAL, D_CLAIM, D_PLACE, DECISIONS, N_LEVELS, OP_BID,
    OP_LEVEL, OP_PIECE, OP_SEAT, OP_SLOT,
)
from sim.ag.env import (LEARNED_SLOT, N_DECISION_KINDS, N_LEARNED_FEATURES, N_LEARNED_SLOTS, RP_C_FBI, RP_C_RENOWN,
                        RP_C_TARGET)
from sim.ag.readers import score
from sim.ag.state import BOSS, HOSPITAL, N_PLAYERS, NO, SHOW0, bag_count, pieces_at
from strategies.ag.belief import planned
from sim.rules.ag.content import MAX_TARGET
from strategies.learned_weights import WeightsFile
from strategies.option_features import F_BASE, F_FIRST, F_LAST, F_OP0, F_POSITION, common_features  # noqa: F401

N_OPS = 18
(F_SAME_OP, F_SAME_ARG, F_HOSPITAL, F_HOME, F_TARGET, F_RENOWN, F_FBI, F_RIVALS, F_OWN, F_BOSS, F_LEAD, F_LEADER,
 F_LEVEL, F_BID, F_VALUED, F_GAP, F_RANK, F_CHANCE, F_SHARE, F_PLAN, F_MIX, F_STAKE,
 F_CROWD) = range(F_OP0 + N_OPS, F_OP0 + N_OPS + 23)
N_FEATURES = F_CROWD + 1
# the heuristic's values of the options (strategies.ag.policy.option_values writes them): its worth,
# a card's chance and the family's bargained share, 1 if valued
(V_WORTH, V_CHANCE, V_SHARE, V_HAS) = range(4)
N_VALUES = 4
GAP = 4.0   # a value gap this large (about a renown level to warlord's knobs) counts as the most
assert N_FEATURES == N_LEARNED_FEATURES and len(DECISIONS) == N_DECISION_KINDS
FEATURES = ("base", "first", "last", "position", *(f"op{k}" for k in range(N_OPS)), "same_op", "same_arg",
            "hospital", "home", "target", "renown", "fbi", "rivals", "own", "boss", "lead", "leader", "level",
            "bid", "valued", "gap", "rank", "chance", "share", "plan", "mix", "stake", "crowd")


@njit(cache=True)
def slot_features(game, env, p, decision, slot, ctx, x):
    """A piece placed on `slot` (D_PLACE): the hospital, home, or a card and what is on it."""
    if slot == NO:
        x[F_HOME] = 1.0
        return
    if slot == HOSPITAL:
        x[F_HOSPITAL] = 1.0
        return
    card = game.g[SHOW0 + slot]
    if card < 0:
        return
    x[F_TARGET] = env.rp[RP_C_TARGET + card] / MAX_TARGET
    x[F_RENOWN] = env.rp[RP_C_RENOWN + card] / 4.0
    x[F_FBI] = 1.0 if env.rp[RP_C_FBI + card] > 0 else 0.0
    rivals = 0
    for q in range(game.g[N_PLAYERS]):
        if q != p:
            rivals += pieces_at(game, slot, q)
    x[F_RIVALS] = rivals / 4.0
    x[F_OWN] = pieces_at(game, slot, p) / 4.0
    if decision == D_PLACE and ctx[CTX_PIECE] == BOSS:
        x[F_BOSS] = 1.0


@njit(cache=True)
def seat_features(game, env, p, q, x):
    """A family named (OP_SEAT): how far its score is above the seat's, and whether it leads the others."""
    mine, theirs = score(game, env, p), score(game, env, q)
    x[F_LEAD] = (theirs - mine) / 5.0
    best = True
    for r in range(game.g[N_PLAYERS]):
        if r != p and r != q and score(game, env, r) > theirs:
            best = False
    x[F_LEADER] = 1.0 if best else 0.0


@njit(cache=True)
def value_features(game, p, decision, opts, n, ctx, j, vals, x):
    """The heuristic's own value of option j against the others' (vals: policy.option_values)."""
    if vals[j, V_HAS] == 0.0:
        return
    x[F_VALUED] = 1.0
    best, above = -1e300, 0
    for i in range(n):
        best = max(best, vals[i, V_WORTH])
        if vals[i, V_WORTH] > vals[j, V_WORTH] + 1e-12:
            above += 1
    x[F_GAP] = max(vals[j, V_WORTH] - best, -GAP) / GAP
    x[F_RANK] = above / (n - 1) if n > 1 else 0.0
    slot = opts[j, 1]
    if decision == D_PLACE and opts[j, 0] == OP_SLOT and slot != NO and slot != HOSPITAL:
        x[F_CHANCE], x[F_SHARE] = vals[j, V_CHANCE], vals[j, V_SHARE]
        plan = planned(game, p)
        x[F_PLAN] = 1.0 if plan == slot else 0.0
        x[F_MIX] = game.belief[p, slot] if plan else 0.0
    elif decision == D_CLAIM and opts[j, 0] == OP_LEVEL:
        bluff = BLUFF_LEVELS[min(opts[j, 1], len(BLUFF_LEVELS) - 1)] / BLUFF_LEVELS[len(BLUFF_LEVELS) - 1]
        x[F_STAKE] = bluff * ctx[CTX_THREAT] / max(ctx[CTX_TOTAL], 1)
        others = 0
        for q in range(game.g[N_PLAYERS]):
            if q != p and pieces_at(game, ctx[CTX_SLOT], q) > 0:
                others += 1
        x[F_CROWD] = bluff * others / 3.0


@njit(cache=True)
def features(game, env, p, decision, opts, n, ctx, base, j, vals, x):
    """Write option j's features into x (module doc); `base` is the heuristic's pick, `vals` its
    values of the options (strategies.ag.policy.option_values)."""
    common_features(opts, n, base, j, x, N_OPS, F_SAME_OP, F_SAME_ARG)
    value_features(game, p, decision, opts, n, ctx, j, vals, x)
    op = opts[j, 0]
    if op == OP_SLOT:
        slot_features(game, env, p, decision, opts[j, 1], ctx, x)
    elif op == OP_SEAT and 0 <= opts[j, 1] < game.g[N_PLAYERS]:
        seat_features(game, env, p, opts[j, 1], x)
    elif op == OP_PIECE:
        x[F_BOSS] = 1.0 if opts[j, 1] == BOSS else 0.0
    elif op == OP_LEVEL:
        x[F_LEVEL] = opts[j, 1] / (N_LEVELS - 1)
    elif op == OP_BID:
        x[F_BID] = opts[j, 1] / max(bag_count(game, p), 1)


@njit(cache=True)
def learned_pick(game, env, p, decision, opts, n, ctx, base, vals):
    """The option with the best score under the decision kind's weights of the seat's own set
    (ties: the heuristic's)."""
    if n <= 1:
        return base
    w = env.learned[int(env.params[p, LEARNED_SLOT]), decision]
    x = np.empty(N_FEATURES)
    features(game, env, p, decision, opts, n, ctx, base, base, vals, x)
    best, pick = np.dot(w, x), base
    for j in range(n):
        if j != base:
            features(game, env, p, decision, opts, n, ctx, base, j, vals, x)
            s = np.dot(w, x)
            if s > best:
                best, pick = s, j
    return pick


# --- the Python face -------------------------------------------------------------------------------

WEIGHTS = WeightsFile(len(DECISIONS), FEATURES, "ag", "American Gangsters", N_LEARNED_SLOTS)
read_weights, write_weights, weights_of = WEIGHTS.read, WEIGHTS.write, WEIGHTS.of
