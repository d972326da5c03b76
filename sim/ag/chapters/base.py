"""The little tools every chapter uses: the decision interface `ask`, the event log, dice faces
and shuffles, option lists, the order of play, bags of money, renown, the FBI track and
occasional henchmen.

Rule ids: AG-C2, AG-C6, AG-C10, AG-K3, AG-T.
"""

import numpy as np
from numba import njit
from numba.extending import register_jitable

from sim.ag.decisions import MAX_OPTS
from sim.ag.env import ENV_DTYPE, P_H_CLICS, P_K_CLICS, P_O_CLICS, P_O_FBI
from sim.ag.events import EV_FBI, EV_OCC_GAIN
from strategies.ag.policy import choose
from sim.ag.readers import fbi_top
from sim.ag.state import (
    C_FBI_LOWERED, C_FBI_RAISED, C_OCC_GAINED, DECISIONS, DIE_H, DIE_K, FBI, FBI_PEAK, FORCED0, FORCED_N, FORCED_POS,
    GODFATHER, ILLEGAL, MAX_LOG, N_EVENTS, N_PLAYERS, OCC_NEW, OCC_SUPPLY, ORDER0, RECORD, RENOWN, R_BANG, R_CLIC,
    R_FBI, S_BAGS, TURN, GAME_DTYPE, bag_count,
)
from sim.ag.script import forward_choice
from sim.ag.state import FW_MODE, FW_POLICY  # the forward model's hook in `ask`
from sim.shared.late import decision_signature, late
from sim.rng import below_of


@register_jitable
def log(g, events, code, a=0, b=0, c=0, d=0, e=0, f=0):
    """Append an event row when the game is recorded (`mobsim play --game ag`). Typed as an overload, so its
    callers' constant codes and arguments arrive as int64 and the row writer compiles once (as a
    jitted function it compiled once per combination of constants, some fifty times)."""
    log_row(g, events, np.int64(code), np.int64(a), np.int64(b), np.int64(c), np.int64(d), np.int64(e),
            np.int64(f))


@njit(cache=True)
def log_row(g, events, code, a, b, c, d, e, f):
    if g[RECORD] == 0:
        return
    n = g[N_EVENTS]
    if n >= MAX_LOG:
        return
    row = events[n]
    row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7] = g[TURN], code, a, b, c, d, e, f
    g[N_EVENTS] = n + 1


@njit(cache=True)
def face(game, src):
    """One die face 0..5: a forced value first (scenario tests), else the stream of source src
    (the rolling family's S_DICE0 + p)."""
    if game.g[FORCED_POS] < game.g[FORCED_N]:
        v = game.g[FORCED0 + game.g[FORCED_POS]]
        game.g[FORCED_POS] += 1
        return v
    return below_of(game.rng, src, 6)


@njit(cache=True)
def result_of(env, die, f):
    """What face f of a die kind shows (AG-C10, C11): faces below the CLIC count are CLICs, then
    an occasional die's FBI jokers, the rest BANGs."""
    if die == DIE_H:
        return R_CLIC if f < env.rp[P_H_CLICS] else R_BANG
    if die == DIE_K:
        return R_CLIC if f < env.rp[P_K_CLICS] else R_BANG
    if f < env.rp[P_O_CLICS]:
        return R_CLIC
    return R_FBI if f < env.rp[P_O_CLICS] + env.rp[P_O_FBI] else R_BANG


@njit(cache=True)
def shuffle(game, start, n, src):
    """Fisher-Yates on the block game.g[start : start + n], drawing from source src."""
    g = game.g
    for i in range(n - 1, 0, -1):
        j = below_of(game.rng, src, i + 1)
        g[start + i], g[start + j] = g[start + j], g[start + i]


@njit(cache=True)
def decide(game, env, p, opts, n, ctx):
    """The decision interface, called as `ask` (below): seat p picks one of the n legal options,
    for the decision kind in ctx[CTX_DECISION] (kept out of the arguments so that it compiles once)."""
    if n <= 1:
        return 0
    game.g[DECISIONS] += 1
    if game.g[FW_MODE] != 0:   # a forward replay (sim.ag.forward): the script's choice, if any
        k = forward_choice(game, env, p, n)
        if k != FW_POLICY:
            return k if 0 <= k < n else 0
    k = choose(game, env, p, opts, n, ctx)
    if k < 0 or k >= n:
        game.g[ILLEGAL] += 1
        return 0
    return k


@njit(cache=True, inline="always")
def put(opts, n, op, a=0, b=0, c=0, d=0):
    if n < MAX_OPTS:
        opts[n, 0], opts[n, 1], opts[n, 2], opts[n, 3], opts[n, 4] = op, a, b, c, d
        return n + 1
    return n


@njit(cache=True)
def fill_order(game):
    """g[ORDER0 ..]: the seats in turn order from the godfather (AG-T)."""
    n = game.g[N_PLAYERS]
    for i in range(n):
        game.g[ORDER0 + i] = (game.g[GODFATHER] + i) % n


@njit(cache=True)
def move_bags(game, src, dst, n):
    """Move up to n bags, each drawn at random from the holder (values are hidden, AG-C2)."""
    moved = 0
    for _ in range(n):
        have = bag_count(game, src)
        if have == 0:
            break
        col = 1 if below_of(game.rng, S_BAGS, have) < game.bags[src, 1] else 0
        game.bags[src, col] -= 1
        game.bags[dst, col] += 1
        moved += 1
    return moved


@njit(cache=True)
def add_renown(game, p, delta):
    """Move a family's renown pawn; the ladder starts at 0."""
    game.pl[p, RENOWN] = max(0, game.pl[p, RENOWN] + delta)


@njit(cache=True)
def move_fbi(game, env, delta, cause):
    """The FBI pawn moves, within its track (AG-C6, G2); counted for the family that moved it."""
    before = game.g[FBI]
    game.g[FBI] = min(max(before + delta, 0), fbi_top(env))
    moved = game.g[FBI] - before
    if cause >= 0:
        if moved > 0:
            game.pl[cause, C_FBI_RAISED] += moved
        elif moved < 0:
            game.pl[cause, C_FBI_LOWERED] -= moved
    game.g[FBI_PEAK] = max(game.g[FBI_PEAK], game.g[FBI])
    if moved != 0:
        log(game.g, game.events, EV_FBI, game.g[FBI], moved, cause)


@njit(cache=True)
def gain_occasional(game, p, n):
    """AG-K3: occasional henchmen from the supply, ready from the next turn."""
    got = min(n, game.g[OCC_SUPPLY])
    game.g[OCC_SUPPLY] -= got
    game.pl[p, OCC_NEW] += got
    game.pl[p, C_OCC_GAINED] += got
    if got > 0:
        log(game.g, game.events, EV_OCC_GAIN, p, got)
    return got


# compiled once, when the engine is imported, and called from every rule that asks without
# being linked into each (sim.shared.late); the policy beneath it too, for the search, which
# calls it directly (`decide` links its own copy: a call by symbol per decision cost 10% of a
# game of cheap players)
choose_late = late(choose, decision_signature(GAME_DTYPE, ENV_DTYPE))
ask = late(decide, decision_signature(GAME_DTYPE, ENV_DTYPE))
