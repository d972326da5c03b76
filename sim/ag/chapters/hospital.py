"""The hospital (rules: hospital): wounded members healed, and recruitment.

Rule ids: AG-H1, AG-K1, AG-K2.
"""

from numba import njit

from sim.ag.chapters.base import ask, log, move_bags, move_fbi, put
from sim.ag.decisions import CTX_DECISION, D_HOSPITAL, OP_HEAL, OP_PASS, OP_RECRUIT
from sim.ag.env import (
    CURSOR_RING, P_CURSOR, P_HENCHMEN, P_HOSPITAL_BOSSES, P_KILLERS, RP_H_FBI, RP_H_LEN, RP_K_FBI, RP_K_LEN,
)
from sim.ag.events import EV_HOSPITAL
from sim.ag.readers import recruit_price
from sim.ag.state import (
    BANK_ROW, BOSS, C_HEALS, C_RECRUITS, C_RECRUIT_SPENT, HENCH, HENCHMEN, HOSPITAL, H_COST_POS, KILLER, KILLERS,
    K_COST_POS, N_PLAYERS, ORDER0, WOUNDS, bag_count,
)


@njit(cache=True)
def hospital(game, env, opts, ctx):
    """AG-H1: each family whose boss is at the hospital heals one wound free, or recruits a henchman
    or a killer it has lost (AG-K1) at its cost track's price (AG-K2)."""
    rp = env.rp
    bosses = 0
    for p in range(game.g[N_PLAYERS]):
        bosses += game.at[HOSPITAL, p, BOSS]
    if bosses < rp[P_HOSPITAL_BOSSES]:   # AG-H1: the card's minimum number of bosses
        return
    for i in range(game.g[N_PLAYERS]):
        p = game.g[ORDER0 + i]
        if game.at[HOSPITAL, p, BOSS] == 0:
            continue
        n = put(opts, 0, OP_PASS)
        if game.pl[p, WOUNDS] > 0:
            n = put(opts, n, OP_HEAL)
        if game.pl[p, HENCHMEN] < rp[P_HENCHMEN] and bag_count(game, p) >= recruit_price(game, env, HENCH):
            n = put(opts, n, OP_RECRUIT, HENCH)
        if game.pl[p, KILLERS] < rp[P_KILLERS] and bag_count(game, p) >= recruit_price(game, env, KILLER):
            n = put(opts, n, OP_RECRUIT, KILLER)
        ctx[CTX_DECISION] = D_HOSPITAL
        k = ask(game, env, p, opts, n, ctx)
        op, piece = opts[k, 0], opts[k, 1]
        if op == OP_HEAL:
            game.pl[p, WOUNDS] -= 1
            game.pl[p, C_HEALS] += 1
        elif op == OP_RECRUIT:
            recruit(game, env, p, piece)
        if op != OP_PASS:
            log(game.g, game.events, EV_HOSPITAL, p, op, piece)


@njit(cache=True)
def recruit(game, env, p, piece):
    """AG-K2: pay the price of the cost pawn's step; the pawn moves one step on, and a step showing
    the FBI symbol moves the FBI pawn up 1."""
    rp = env.rp
    price = recruit_price(game, env, piece)
    move_bags(game, p, BANK_ROW, price)
    game.pl[p, C_RECRUIT_SPENT] += price
    game.pl[p, C_RECRUITS] += 1
    pos, length, fbi = (K_COST_POS, RP_K_LEN, RP_K_FBI) if piece == KILLER else (H_COST_POS, RP_H_LEN, RP_H_FBI)
    moved = True
    if game.g[pos] < rp[length] - 1:
        game.g[pos] += 1
    elif rp[P_CURSOR] == CURSOR_RING and rp[length] > 1:   # "dans le sens horaire": round the ring
        game.g[pos] = 0
    else:
        moved = False
    if moved and rp[fbi + game.g[pos]]:
        move_fbi(game, env, 1, p)
    if piece == KILLER:
        game.pl[p, KILLERS] += 1
    else:
        game.pl[p, HENCHMEN] += 1
