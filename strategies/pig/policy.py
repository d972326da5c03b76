"""The jitted Pig players: what the seat to move chooses after a roll that is not a 1 (PIG-3).

`decide(game, env, tables, p)` returns ROLL or HOLD (sim.pig.decisions). `tables[s]` is the
lineup's policy table s: `table[own score, best other score, turn total]` is 1 where the policy
holds (shape goal x goal x goal; at more than two seats the best other score stands for the
opponent of the two-player table).
"""

from numba import njit

from sim import rng
from sim.pig.decisions import HOLD, ROLL
from sim.pig.env import P_GOAL
from sim.pig.state import N_PLAYERS, S_POLICY0, SCORE, TURN_TOTAL
from strategies.pig.params import HOLD_AT, K_HOLD, K_RANDOM, TABLE_SLOT


@njit(cache=True)
def best_other(game, p):
    best = 0
    for q in range(game.g[N_PLAYERS]):
        if q != p and game.pl[q, SCORE] > best:
            best = game.pl[q, SCORE]
    return best


@njit(cache=True)
def decide(game, env, tables, p):
    kind = env.kinds[p]
    if kind == K_RANDOM:
        return rng.below_of(game.rng, S_POLICY0 + p, 2)
    score, total, goal = game.pl[p, SCORE], game.g[TURN_TOTAL], env.rp[P_GOAL]
    if score + total >= goal:
        return HOLD          # holding wins (PIG-5)
    if kind == K_HOLD:
        return HOLD if total >= env.params[p, HOLD_AT] else ROLL
    table = tables[int(env.params[p, TABLE_SLOT])]
    return HOLD if table[score, min(best_other(game, p), goal - 1), total] else ROLL
