"""Resolution of the locations (rules: the turn, AG-T4): roll, re-roll, and settle each card's
gains by negotiation or shoot-out.

Rule ids: AG-C7, AG-G2, AG-N, AG-T4.
"""

from numba import njit

from sim.ag.chapters.base import ask, log, move_fbi, put
from sim.ag.chapters.dice import fbi_jokers, reroll_failed, roll_slot
from sim.ag.chapters.end import informer_reveals
from sim.ag.chapters.negotiation import settle
from sim.ag.decisions import CTX_DECISION, CTX_SHORT, CTX_SLOT, D_REROLL, OP_NO, OP_YES
from sim.ag.env import P_REROLL, RP_C_FBI, RP_C_TARGET
from sim.ag.events import EV_FAIL, EV_REROLL, EV_ROLL, EV_SUCCESS
from sim.ag.readers import count_bits, present_mask
from sim.ag.state import (
    BOSS, C_FAILED, C_REROLLS, C_REROLLS_DECLINED, C_SUCCEEDED, C_TRIED, NO, N_PLAYERS, ORDER0, REROLLED, SHOW0,
)


@njit(cache=True)
def resolve_location(game, env, slot, opts, ctx):
    """AG-T4: the families present roll all their dice toward the card's CLIC target; each boss
    present may once a turn have every failed die re-rolled; a success is shared by negotiation
    (AG-N), a miss discards the card."""
    g = game.g
    card = g[SHOW0 + slot]
    mask = present_mask(game, slot)
    if mask == 0:
        return
    target = env.rp[RP_C_TARGET + card]
    clics = roll_slot(game, env, slot, mask, NO)
    log(g, game.events, EV_ROLL, slot, clics, target)
    if env.rp[P_REROLL]:
        for i in range(g[N_PLAYERS]):
            if clics >= target:
                break
            p = g[ORDER0 + i]
            if game.at[slot, p, BOSS] == 0 or game.pl[p, REROLLED]:
                continue
            n = put(opts, 0, OP_YES)
            n = put(opts, n, OP_NO)
            ctx[CTX_DECISION] = D_REROLL
            ctx[CTX_SLOT] = slot
            ctx[CTX_SHORT] = target - clics
            if opts[ask(game, env, p, opts, n, ctx), 0] == OP_YES:
                game.pl[p, REROLLED] = 1
                game.pl[p, C_REROLLS] += 1
                clics = reroll_failed(game, env, mask)
                log(g, game.events, EV_REROLL, p, slot, clics)
            else:
                game.pl[p, C_REROLLS_DECLINED] += 1
    fbi_jokers(game, env, mask)
    if informer_reveals(game, env):   # AG-G2 "dès qu'il remplit": before a police station's FBI -1
        return
    for p in range(g[N_PLAYERS]):
        if (mask >> p) & 1:
            game.pl[p, C_TRIED] += 1
            game.pl[p, C_SUCCEEDED if clics >= target else C_FAILED] += 1
    if clics < target:
        log(g, game.events, EV_FAIL, slot)
        return
    log(g, game.events, EV_SUCCESS, slot, count_bits(mask))
    fbi = env.rp[RP_C_FBI + card]
    if fbi != 0:   # AG-C7: the FBI symbol (or the police station) acts on success
        for i in range(g[N_PLAYERS]):
            p = g[ORDER0 + i]
            if (mask >> p) & 1:
                move_fbi(game, env, fbi, p)
                break
    if informer_reveals(game, env):   # AG-G2: the game ends here, before the gains are shared
        return
    settle(game, env, slot, card, mask, opts, ctx)
