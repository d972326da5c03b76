"""The turn's own steps (rules: the turn): the renown trade at its start and the clean-up at
its end.

Rule ids: AG-K2, AG-K3, AG-T1, AG-T6.
"""

from numba import njit

from sim.ag.chapters.base import add_renown, ask, log, move_bags, put
from sim.ag.decisions import CTX_DECISION, D_TRADE, OP_BUY_RENOWN, OP_PASS, OP_SELL_BAGS, OP_SELL_HENCH
from sim.ag.env import P_BUY_BAGS, P_HENCHMEN, P_SELL_BAGS
from sim.ag.events import EV_TRADE
from sim.ag.state import (
    ARMS_USED, BANK_ROW, C_TRADES_DOWN_BAGS, C_TRADES_DOWN_HENCH, C_TRADES_UP, GODFATHER, HENCHMEN, LC_STATE,
    LS_DISCARD, LS_SHOWN, L_DISC0, L_DISC_N, MAX_SLOTS, NO, N_PLAYERS, OCC, OCC_NEW, OCC_READY, OCC_SUPPLY, ORDER0,
    RENOWN, REROLLED, SHOW0, SHOW_N, TRADED, bag_count,
)


@njit(cache=True)
def renown_trades(game, env, opts, ctx):
    """AG-T1: once a turn each, +1 renown for 3 bags to the bank, or -1 renown for 2 bags from the
    bank or one henchman back from the reserve (AG-K2)."""
    rp = env.rp
    for i in range(game.g[N_PLAYERS]):
        p = game.g[ORDER0 + i]
        n = put(opts, 0, OP_PASS)
        if bag_count(game, p) >= rp[P_BUY_BAGS]:
            n = put(opts, n, OP_BUY_RENOWN)
        if game.pl[p, RENOWN] >= 1:
            n = put(opts, n, OP_SELL_BAGS)
            if game.pl[p, HENCHMEN] < rp[P_HENCHMEN]:
                n = put(opts, n, OP_SELL_HENCH)
        ctx[CTX_DECISION] = D_TRADE
        op = opts[ask(game, env, p, opts, n, ctx), 0]
        if op == OP_PASS:
            continue
        game.pl[p, TRADED] = 1
        if op == OP_BUY_RENOWN:
            move_bags(game, p, BANK_ROW, rp[P_BUY_BAGS])
            add_renown(game, p, 1)
            game.pl[p, C_TRADES_UP] += 1
        elif op == OP_SELL_BAGS:
            add_renown(game, p, -1)
            move_bags(game, BANK_ROW, p, rp[P_SELL_BAGS])
            game.pl[p, C_TRADES_DOWN_BAGS] += 1
        else:
            add_renown(game, p, -1)
            game.pl[p, HENCHMEN] += 1
            game.pl[p, C_TRADES_DOWN_HENCH] += 1
        log(game.g, game.events, EV_TRADE, p, op)


@njit(cache=True)
def end_of_turn(game):
    """AG-T6: the locations nobody won are discarded; occasional henchmen used this turn go back to
    the supply and those gained become ready (AG-K3); the godfather card passes left."""
    g = game.g
    for s in range(1, g[SHOW_N] + 1):
        c = g[SHOW0 + s]
        if game.lc[c, LC_STATE] == LS_SHOWN:
            game.lc[c, LC_STATE] = LS_DISCARD
            g[L_DISC0 + g[L_DISC_N]] = c
            g[L_DISC_N] += 1
        g[SHOW0 + s] = NO
    g[SHOW_N] = 0
    for s in range(MAX_SLOTS):
        for p in range(g[N_PLAYERS]):
            g[OCC_SUPPLY] += game.at[s, p, OCC]
            for piece in range(4):
                game.at[s, p, piece] = 0
    for p in range(g[N_PLAYERS]):
        game.pl[p, OCC_READY] += game.pl[p, OCC_NEW]
        game.pl[p, OCC_NEW] = 0
        game.pl[p, TRADED] = 0
        game.pl[p, REROLLED] = 0
    g[ARMS_USED] = 0
    g[GODFATHER] = (g[GODFATHER] + 1) % g[N_PLAYERS]
