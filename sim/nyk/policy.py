"""The engine's own policies behind the decision interface: `random` and `simple`.

`random` picks uniformly among the legal options; `simple` is a plain, legal, mission-minded
player that makes the engine testable on its own. The parametric strategy families plug in
here by their kind number. A policy sees the game as a player at the table would: its own
hidden destinations, never another player's.
"""

from numba import njit

from sim.nyk.decisions import (
    CTX_DECISION, CTX_GROUP, CTX_MINE, CTX_THEIRS, CTX_WINDOW, D_ACTION, D_BID, D_FOLD, D_HELI, D_HESITATE,
    D_LOSE, D_MOVE, D_REACT, D_RESIST, D_STEP, MODE_NORMAL, OP_ACCEPT, OP_ACCOMPLISH, OP_BID,
    OP_CHAR, OP_JOURNEY, OP_PLAY, OP_POLICE, OP_PROVOKE, OP_RECRUIT, OP_STEP, WIN_CARD_PLAYED,
)
from sim.nyk.state import (
    LOC, M_ACCEPT, M_CREW, M_DEST, M_REWARD, M_RISK, MISSION, MONEY, N_CHARS, NO, ROW0, VALUE,
    count_bits, in_mask, police_at,
)
from sim.rng import below
from sim.rules.compiled import E_BANK_INCOME, E_DRAW_CARDS, E_STEAL_MONEY, P_MISSION_ROW

RANDOM, SIMPLE = 0, 1
POLICY_NAMES = ("random", "simple")
HAND_SCALE = 7**5  # strengths of one category span this many (sim.hands)


@njit(cache=True)
def choose(game, env, p, opts, n, ctx):
    """Seat p's policy picks one of the n options; the decision kind is ctx[CTX_DECISION]."""
    kind = env.kinds[p]
    if kind == SIMPLE:
        return simple(game, env, p, ctx[CTX_DECISION], opts, n, ctx)
    return below(game.rng, n)


@njit(cache=True)
def target_of(game, env, c):
    """Where a character is heading: its mission's destination, else the nearest accept address
    of a mission on the row."""
    dist = env.dist
    m = game.ch[c, MISSION]
    here = game.ch[c, LOC]
    if m != NO:
        return game.ms[m, M_DEST]
    best, best_d = here, 1 << 20
    for s in range(env.rp[P_MISSION_ROW]):
        r = game.g[ROW0 + s]
        if r == NO:
            continue
        d = game.ms[r, M_ACCEPT]
        if dist[here, d] < best_d:
            best, best_d = d, dist[here, d]
    return best


@njit(cache=True)
def first_in(mask):
    for c in range(N_CHARS):
        if in_mask(mask, c):
            return c
    return NO


@njit(cache=True)
def simple(game, env, p, decision, opts, n, ctx):
    dist = env.dist
    if decision == D_BID:
        # bid the least, now and then a little more to take the police
        if below(game.rng, 4) == 0:
            return below(game.rng, n)
        best, k = 1 << 40, 0
        for i in range(n):
            if opts[i, 0] == OP_BID and opts[i, 1] < best:
                best, k = opts[i, 1], i
        return k
    if decision == D_MOVE:
        for i in range(n):
            if opts[i, 0] == OP_JOURNEY and opts[i, 3] == MODE_NORMAL and count_bits(opts[i, 2]) == 1:
                c = first_in(opts[i, 2])
                if target_of(game, env, c) != game.ch[c, LOC]:
                    return i
        for i in range(n):
            if opts[i, 0] == OP_POLICE and below(game.rng, 8) == 0:
                return i
        return 0
    if decision == D_STEP:
        c = first_in(ctx[CTX_GROUP])
        if c == NO:
            return 0
        goal = target_of(game, env, c)
        here = game.ch[c, LOC]
        best, k = dist[here, goal], 0
        risky = game.ch[c, MISSION] != NO and game.ms[game.ch[c, MISSION], M_RISK]
        for i in range(n):
            if opts[i, 0] == OP_STEP and opts[i, 2] == NO:
                d = opts[i, 1]
                if risky and police_at(game, d) > 0:
                    continue
                if dist[d, goal] < best:
                    best, k = dist[d, goal], i
        return k
    if decision == D_HELI:
        goal = target_of(game, env, first_in(ctx[CTX_GROUP]))
        for i in range(n):
            if opts[i, 1] == goal:
                return i
        return 0
    if decision == D_ACTION:
        return simple_action(game, env, p, opts, n)
    if decision == D_FOLD:
        return 1 if ctx[CTX_THEIRS] // HAND_SCALE > ctx[CTX_MINE] // HAND_SCALE else 0
    if decision == D_RESIST:
        return 1 if below(game.rng, 2) == 0 else 0
    if decision == D_LOSE:
        best, k = 99, 0
        for i in range(n):
            if opts[i, 0] == OP_CHAR and game.ch[opts[i, 1], VALUE] < best:
                best, k = game.ch[opts[i, 1], VALUE], i
        return k
    if decision == D_HESITATE:
        return n - 1 if game.pl[p, MONEY] >= ctx[CTX_THEIRS] + 4000 else 0
    if decision == D_REACT:
        if ctx[CTX_WINDOW] == WIN_CARD_PLAYED:
            return below(game.rng, n)
        return n - 1
    return below(game.rng, n)


@njit(cache=True)
def simple_action(game, env, p, opts, n):
    best, k = 0, 0
    for i in range(n):
        op = opts[i, 0]
        score = 0
        if op == OP_ACCOMPLISH:
            score = 100000 + game.ms[opts[i, 1], M_REWARD]
        elif op == OP_ACCEPT:
            m = game.g[ROW0 + opts[i, 1]]
            score = 50000 + game.ms[m, M_REWARD] - 1000 * game.ms[m, M_CREW]
            if game.ms[m, M_RISK] and game.ms[m, M_DEST] != NO and police_at(game, game.ms[m, M_DEST]):
                score -= 5000
        elif op == OP_RECRUIT:
            h = opts[i, 1]
            wanted = 1000 * (game.ch[h, VALUE] + 2)
            if opts[i, 2] == wanted and opts[i, 3] == NO and game.pl[p, MONEY] >= wanted + 6000:
                score = 20000
        elif op == OP_PLAY and (opts[i, 2] == E_STEAL_MONEY or opts[i, 2] == E_BANK_INCOME
                                or opts[i, 2] == E_DRAW_CARDS):
            score = 10000  # money and cards: always worth playing
        elif op == OP_PROVOKE:
            if below(game.rng, 10) == 0 and game.pl[p, MONEY] >= 6000:
                score = 5000
        if score > best:
            best, k = score, i
    return k
