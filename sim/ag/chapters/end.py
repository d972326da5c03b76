"""The end (rules: goal and end): who has won now, the final ranking and its tie-breaks.

Rule ids: AG-E1, AG-G1, AG-G2.
"""

from numba import njit

from sim.ag.chapters.base import log
from sim.ag.env import P_INFORMER_AS_PARRAIN, P_INFORMER_FBI, P_INFORMER_RENOWN, P_PARRAIN
from sim.ag.events import EV_RANK, EV_WIN
from sim.ag.readers import count_bits, score
from sim.ag.state import (
    BY_INFORMER, BY_MONEY, BY_PARRAIN, BY_RENOWN, BY_SHARED, DECIDED_BY, ENDED_BY, END_INFORMER, END_PARRAIN, FBI,
    INFORMER, L_DECK_N, L_DISC_N, NO, N_PLAYERS, ORDER0, RANK, SHOW_N, WINNER, bag_value,
)


@njit(cache=True)
def informer_reveals(game, env):
    """AG-G2: the informer's renown (with provisional points) and the FBI pawn both at or past
    their marks; it reveals itself "dès qu'il remplit ces deux conditions", so the engine asks
    after every step of the turn, not only at its end (sim.ag.engine.play_turn)."""
    inf = game.g[INFORMER]
    return (inf >= 0 and score(game, env, inf) >= env.rp[P_INFORMER_RENOWN]
            and game.g[FBI] >= env.rp[P_INFORMER_FBI])


@njit(cache=True)
def winners_now(game, env):
    """AG-G1, G2 at the end of a turn: (ended_by, bitmask of the families that may win first place)
    or (NO, 0). The informer wins ties within the turn."""
    rp = env.rp
    inf = game.g[INFORMER]
    if informer_reveals(game, env):
        return END_INFORMER, 1 << inf
    mask = 0
    for p in range(game.g[N_PLAYERS]):
        if p == inf and not rp[P_INFORMER_AS_PARRAIN]:
            continue
        if score(game, env, p) >= rp[P_PARRAIN]:
            mask |= 1 << p
    if mask:
        return END_PARRAIN, mask
    return NO, 0


@njit(cache=True)
def beats(game, env, p, q):
    """Ranking key: renown with provisional points, then the hidden value of the bags (AG-E1).
    +2 / +1 when p is ahead by renown / money, -2 / -1 when behind, 0 when tied."""
    a, b = score(game, env, p), score(game, env, q)
    if a != b:
        return 2 if a > b else -2
    a, b = bag_value(game, p), bag_value(game, q)
    if a != b:
        return 1 if a > b else -1
    return 0


@njit(cache=True)
def final_ranking(game, env, ended_by, mask):
    """Rank the families: those in `mask` (who may win) first, each group by renown then money;
    tied families share a rank (AG-E1: shared victory)."""
    g = game.g
    n = g[N_PLAYERS]
    order = g[ORDER0:ORDER0 + n]   # reused: the ranking replaces the turn order at the end
    for p in range(n):
        order[p] = p
    for i in range(1, n):
        j = i
        while j > 0 and ranks_before(game, env, order[j], order[j - 1], mask):
            order[j], order[j - 1] = order[j - 1], order[j]
            j -= 1
    rank = 1
    for i in range(n):
        p = order[i]
        if i > 0:
            prev = order[i - 1]
            same_group = ((mask >> p) & 1) == ((mask >> prev) & 1)
            if not (same_group and beats(game, env, prev, p) == 0):
                rank = i + 1
        game.pl[p, RANK] = rank
        log(g, game.events, EV_RANK, p, rank, score(game, env, p), bag_value(game, p))
    winner = order[0]
    g[WINNER] = winner
    g[ENDED_BY] = ended_by
    group = count_bits(mask)
    if ended_by == END_INFORMER:
        g[DECIDED_BY] = BY_INFORMER
    elif ended_by == END_PARRAIN and group == 1:
        g[DECIDED_BY] = BY_PARRAIN
    else:
        level = abs(beats(game, env, winner, order[1])) if n > 1 else 2
        g[DECIDED_BY] = BY_RENOWN if level == 2 else (BY_MONEY if level == 1 else BY_SHARED)
    log(g, game.events, EV_WIN, winner, ended_by, g[DECIDED_BY])


@njit(cache=True)
def ranks_before(game, env, p, q, mask):
    in_p, in_q = (mask >> p) & 1, (mask >> q) & 1
    if in_p != in_q:
        return in_p > in_q
    return beats(game, env, p, q) > 0


@njit(cache=True)
def all_won(game):
    """AG-E1: every location card has been won."""
    return game.g[L_DECK_N] + game.g[L_DISC_N] == 0 and game.g[SHOW_N] == 0
