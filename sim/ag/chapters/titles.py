"""Titles (rules: majorities and titles' powers): the majorities that give the titles at the end
of a turn, and the barons' powers (gambling, drugs, prostitution, arms) with their sale.

Rule ids: AG-B1, AG-B2, AG-B3, AG-B4, AG-T5.
"""

from numba import njit

from sim.ag.chapters.base import ask, gain_occasional, log, move_bags, put
from sim.ag.decisions import (
    CTX_DECISION, CTX_MASK, CTX_POWER, CTX_SLOT, D_ARMS, D_BUY, D_DRUGS, D_MOVE, D_STEAL, OP_MOVE, OP_NO, OP_PASS,
    OP_SEAT, OP_YES, POWER_ARMS, POWER_PROSTITUTION,
)
from sim.ag.env import MOVE_CARDS, P_MOVE_TO, P_POWERS, P_POWER_PRICE, RP_N_DISTRICTS
from sim.ag.events import EV_ARMS, EV_DRUGS, EV_MOVE, EV_POWER_SOLD, EV_STEAL, EV_TITLE
from sim.ag.state import (
    ARMS, ARMS_USED, BARON0, BOSS, CAID0, C_BAGS_STOLEN, C_BARON_TURNS, C_CAID_TURNS, C_POWERS_SOLD, C_POWER_USES,
    DRUGS, GAMBLING, HENCH, HOSPITAL, KILLER, NO, N_DISTRICTS, N_PLAYERS, N_TRAFFICS, OCC, OCC_SUPPLY, ORDER0,
    PROSTITUTION, SHOW_N, TOK0, WON0, bag_count,
)


@njit(cache=True)
def gambling_baron(game, env, opts, ctx):
    """AG-B2: at the start of each turn the Gambling Baron may take a bag from a family."""
    h = game.g[BARON0 + GAMBLING]
    if h == NO or env.rp[P_POWERS] == 0:
        return
    n = put(opts, 0, OP_PASS)
    for q in range(game.g[N_PLAYERS]):
        if q != h and bag_count(game, q) > 0:
            n = put(opts, n, OP_SEAT, q)
    ctx[CTX_DECISION] = D_STEAL
    k = ask(game, env, h, opts, n, ctx)
    if opts[k, 0] == OP_SEAT:
        q = opts[k, 1]
        move_bags(game, q, h, 1)
        game.pl[h, C_BAGS_STOLEN] += 1
        game.pl[h, C_POWER_USES] += 1
        log(game.g, game.events, EV_STEAL, h, q)


@njit(cache=True)
def drugs_baron(game, env, opts, ctx):
    """AG-B1: at placement, the Drugs Baron's boss alone at the hospital (no henchman or killer of
    its family there) may take an occasional henchman free."""
    h = game.g[BARON0 + DRUGS]
    if h == NO or game.at[HOSPITAL, h, BOSS] == 0 or game.g[OCC_SUPPLY] == 0:
        return
    if game.at[HOSPITAL, h, HENCH] + game.at[HOSPITAL, h, KILLER] + game.at[HOSPITAL, h, OCC] > 0:
        return
    n = put(opts, 0, OP_YES)
    n = put(opts, n, OP_NO)
    ctx[CTX_DECISION] = D_DRUGS
    if opts[ask(game, env, h, opts, n, ctx), 0] == OP_YES:
        gain_occasional(game, h, 1)
        game.pl[h, C_POWER_USES] += 1
        log(game.g, game.events, EV_DRUGS, h)


@njit(cache=True)
def list_moves(game, env, opts):
    """Every henchman (not a killer: henchman and occasional dice) of any family to another slot;
    the hospital is a "lieu" too unless powers.move_to says cards only (AG-B4)."""
    n = put(opts, 0, OP_PASS)
    last = game.g[SHOW_N]
    first = 1 if env.rp[P_MOVE_TO] == MOVE_CARDS else 0
    for s in range(last + 1):
        for q in range(game.g[N_PLAYERS]):
            for piece in (HENCH, OCC):
                if game.at[s, q, piece] > 0:
                    for t in range(first, last + 1):
                        if t != s:
                            n = put(opts, n, OP_MOVE, s, q, piece, t)
    return n


@njit(cache=True)
def apply_move(game, mover, row):
    s, q, piece, t = row[1], row[2], row[3], row[4]
    game.at[s, q, piece] -= 1
    game.at[t, q, piece] += 1
    log(game.g, game.events, EV_MOVE, mover, s, q, piece, t)


@njit(cache=True)
def prostitution_baron(game, env, opts, ctx):
    """AG-B4: after placement the Prostitution Baron may move one henchman (not a killer) of any
    family to another location; a Baron who does not use it may sell the move (titles.power_price
    bags) to the first family, in turn order, that buys it."""
    h = game.g[BARON0 + PROSTITUTION]
    if h == NO:
        return
    n = list_moves(game, env, opts)
    if n <= 1:
        return
    ctx[CTX_DECISION] = D_MOVE
    ctx[CTX_POWER] = POWER_PROSTITUTION
    k = ask(game, env, h, opts, n, ctx)
    if opts[k, 0] == OP_MOVE:
        apply_move(game, h, opts[k])
        game.pl[h, C_POWER_USES] += 1
        return
    buyer = sell_power(game, env, h, POWER_PROSTITUTION, NO, opts, ctx)
    if buyer >= 0:
        n = list_moves(game, env, opts)
        ctx[CTX_DECISION] = D_MOVE
        ctx[CTX_POWER] = POWER_PROSTITUTION
        k = ask(game, env, buyer, opts, n, ctx)
        if opts[k, 0] == OP_MOVE:
            apply_move(game, buyer, opts[k])


@njit(cache=True)
def sell_power(game, env, h, power, mask, opts, ctx):
    """AG-B3, B4: the Baron's power offered in turn order (to the families in `mask`, or all when
    NO) for titles.power_price bags; returns the buyer or NO."""
    price = env.rp[P_POWER_PRICE]
    for i in range(game.g[N_PLAYERS]):
        q = game.g[ORDER0 + i]
        if q == h or bag_count(game, q) < price or (mask != NO and not (mask >> q) & 1):
            continue
        n = put(opts, 0, OP_NO)
        n = put(opts, n, OP_YES)
        ctx[CTX_DECISION] = D_BUY
        ctx[CTX_POWER] = power
        if opts[ask(game, env, q, opts, n, ctx), 0] == OP_YES:
            move_bags(game, q, h, price)
            game.pl[h, C_POWERS_SOLD] += 1
            game.pl[q, C_POWER_USES] += 1
            log(game.g, game.events, EV_POWER_SOLD, h, q, power)
            return q
    return NO


@njit(cache=True)
def arms_power(game, env, slot, mask, opts, ctx):
    """AG-B3: once a turn in a shoot-out the Arms Baron may roll one of its henchmen as a killer;
    when the Baron is not in the shoot-out it may sell the power to a family that is. Returns the
    family whose henchman is converted, or NO."""
    h = game.g[BARON0 + ARMS]
    if h == NO or env.rp[P_POWERS] == 0 or game.g[ARMS_USED]:
        return NO
    if (mask >> h) & 1:
        if game.at[slot, h, HENCH] == 0:
            return NO
        n = put(opts, 0, OP_YES)
        n = put(opts, n, OP_NO)
        ctx[CTX_DECISION] = D_ARMS
        ctx[CTX_SLOT] = slot
        if opts[ask(game, env, h, opts, n, ctx), 0] != OP_YES:
            return NO
        user = h
        game.pl[h, C_POWER_USES] += 1
    else:
        eligible = 0
        for q in range(game.g[N_PLAYERS]):
            if (mask >> q) & 1 and game.at[slot, q, HENCH] > 0:
                eligible |= 1 << q
        if eligible == 0:
            return NO
        ctx[CTX_SLOT] = slot
        ctx[CTX_MASK] = mask
        user = sell_power(game, env, h, POWER_ARMS, eligible, opts, ctx)
        if user < 0:
            return NO
    game.g[ARMS_USED] = 1
    log(game.g, game.events, EV_ARMS, user)
    return user


@njit(cache=True)
def majority_holder(game, base, index, holder):
    """AG-T5: the family with strictly more than every other takes the title; on a tie the holder
    keeps it."""
    n_players = game.g[N_PLAYERS]
    best, best_n, tied = NO, -1, False
    for p in range(n_players):
        v = game.pl[p, base + index]
        if v > best_n:
            best, best_n, tied = p, v, False
        elif v == best_n:
            tied = True
    if tied or best_n <= 0:
        return holder
    return best


@njit(cache=True)
def majorities(game, env):
    """AG-T5: Caids of the districts (won locations) and Barons of the traffics (tokens)."""
    g = game.g
    for d in range(env.rp[RP_N_DISTRICTS]):
        new = majority_holder(game, WON0, d, g[CAID0 + d])
        if new != g[CAID0 + d]:
            g[CAID0 + d] = new
            log(g, game.events, EV_TITLE, 1, d, new)
    for t in range(N_TRAFFICS):
        new = majority_holder(game, TOK0, t, g[BARON0 + t])
        if new != g[BARON0 + t]:
            g[BARON0 + t] = new
            log(g, game.events, EV_TITLE, 0, t, new)
    for t in range(N_TRAFFICS):
        if g[BARON0 + t] >= 0:
            game.pl[g[BARON0 + t], C_BARON_TURNS] += 1
    for d in range(N_DISTRICTS):
        if g[CAID0 + d] >= 0:
            game.pl[g[CAID0 + d], C_CAID_TURNS] += 1
