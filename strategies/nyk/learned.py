"""The learned New York Kings player (family `learned`): a conditional logit over option features.

At a decision of kind d the seat scores every option j by w[d] . x_j and takes the best (ties
go to the heuristic's own pick), x_j the option's features below: a linear softmax policy over
hand-made (state, move) features, as Ludii's feature-based policies are (Soemers et al. 2019),
trained by cross-entropy to the search's choices (sim.league.learn). Its first feature is
whether the heuristic (`param` family, the preset's knobs) would take the option, so zero
weights play exactly the heuristic and training learns where the search departs from it.

The weights are a set of the env (`env.learned[k]`, decision kinds x N_LEARNED_FEATURES), read
from the preset's `[table]` file (`weights_of`); the seat reads the set its knobs' LEARNED_SLOT
names (a lineup holds up to N_LEARNED_SLOTS learned players' files). Every feature reads the public
board (districts, police, the option rows), so the player needs no view of hidden cards beyond the
heuristic's own.

Features of option j (docs/learned.md gives the same list):
  F_BASE       1 if the heuristic takes j
  F_FIRST      1 if j is the first option (often "do nothing" / "end")
  F_LAST       1 if j is the last option
  F_POSITION   j / (n - 1): where j sits in the engine's listing
  F_OP0 + op   the option's op code, one-hot (sim.nyk.decisions OP_*)
  F_POLICE     a police car stands on the option's district (a step, a journey, a car's destination)
  F_FROM_BASE  districts from the option's district to the heuristic pick's, / 4
  F_SAME_OP    j is not the heuristic's pick but has its op code
  F_SAME_ARG   j is not the heuristic's pick but has its first argument
  F_SUBWAY     a journey by subway (NYK-M6);  F_HELI: by helicopter (NYK-M7)
  F_CARD       a step paid with a resource card (NYK-M8)
  F_RIVALS     rivals' characters on the option's district, / 2
  F_OWN        the seat's own characters on the option's district, / 2
"""

import numpy as np
from numba import njit

from sim.nyk.decisions import DECISIONS, OP_JOURNEY, OP_POLICE, OP_STEP, MODE_HELI, MODE_SUBWAY
from sim.nyk.env import LEARNED_SLOT, N_LEARNED_FEATURES, N_LEARNED_SLOTS
from sim.nyk.state import NO, N_PLAYERS, count_bits, group_at, police_at
from strategies.learned_weights import WeightsFile
from strategies.option_features import F_BASE, F_FIRST, F_LAST, F_OP0, F_POSITION, common_features  # noqa: F401

N_OPS = 19
(F_POLICE, F_FROM_BASE, F_SAME_OP, F_SAME_ARG, F_SUBWAY, F_HELI, F_CARD, F_RIVALS, F_OWN) = range(
    F_OP0 + N_OPS, F_OP0 + N_OPS + 9)
N_FEATURES = F_OWN + 1
assert N_FEATURES == N_LEARNED_FEATURES
FEATURES = ("base", "first", "last", "position", *(f"op{k}" for k in range(N_OPS)), "police", "from_base",
            "same_op", "same_arg", "subway", "heli", "card", "rivals", "own")


@njit(cache=True)
def option_district(opts, j):
    """The district an option leads to (a step's, a journey's, a police car's), or NO."""
    op = opts[j, 0]
    if op == OP_STEP or op == OP_JOURNEY:
        return opts[j, 1]
    if op == OP_POLICE:
        return opts[j, 2]
    return NO


@njit(cache=True)
def features(game, env, p, opts, n, base, j, x):
    """Write option j's features into x (module doc); `base` is the heuristic's pick."""
    common_features(opts, n, base, j, x, N_OPS, F_SAME_OP, F_SAME_ARG)
    op = opts[j, 0]
    if op == OP_JOURNEY:
        x[F_SUBWAY] = 1.0 if opts[j, 3] == MODE_SUBWAY else 0.0
        x[F_HELI] = 1.0 if opts[j, 3] == MODE_HELI else 0.0
    if op == OP_STEP and opts[j, 2] != NO:
        x[F_CARD] = 1.0
    d = option_district(opts, j)
    if d >= 0:
        x[F_POLICE] = 1.0 if police_at(game, d) > 0 else 0.0
        b = option_district(opts, base)
        if b >= 0:
            x[F_FROM_BASE] = env.dist[d, b] / 4.0
        rivals = 0
        for q in range(game.g[N_PLAYERS]):
            if q != p:
                rivals += count_bits(group_at(game, q, d))
        x[F_RIVALS] = rivals / 2.0
        x[F_OWN] = count_bits(group_at(game, p, d)) / 2.0


@njit(cache=True)
def learned_pick(game, env, p, decision, opts, n, base):
    """The option with the best score under the decision kind's weights of the seat's own set
    (ties: the heuristic's)."""
    if n <= 1:
        return 0
    w = env.learned[int(env.params[p, LEARNED_SLOT]), decision]
    x = np.empty(N_FEATURES)
    features(game, env, p, opts, n, base, base, x)
    best, pick = np.dot(w, x), base
    for j in range(n):
        if j != base:
            features(game, env, p, opts, n, base, j, x)
            s = np.dot(w, x)
            if s > best:
                best, pick = s, j
    return pick


# --- the Python face -------------------------------------------------------------------------------

WEIGHTS = WeightsFile(len(DECISIONS), FEATURES, "nyk", "New York Kings", N_LEARNED_SLOTS)
read_weights, write_weights, weights_of = WEIGHTS.read, WEIGHTS.write, WEIGHTS.of
