"""The shoot-out (rules: negotiation and shoot-out): the arms power, the shots and their hits.

Rule ids: AG-K4, AG-N2.
"""

from numba import njit

from sim.ag.chapters.base import ask, log, put
from sim.ag.chapters.dice import fbi_jokers, roll_slot
from sim.ag.chapters.titles import arms_power
from sim.ag.chapters.wounds import wound_boss
from sim.ag.decisions import CTX_DECISION, CTX_SHOOTER, CTX_SLOT, D_HIT, D_SHOOT, OP_PIECE, OP_SEAT
from sim.ag.events import EV_SHOOTOUT, EV_SHOT
from sim.ag.state import (
    BOSS, C_BANGS, C_HENCH_LOST, C_KILLERS_LOST, C_OCC_LOST, C_SHOOTOUTS, HENCH, HENCHMEN, KILLER, KILLERS, N_PLAYERS,
    OCC, OCC_SUPPLY, ORDER0, R_BANG, R_FBI, SHOOTOUTS, pieces_at,
)


@njit(cache=True)
def lowest(mask):
    p = 0
    while not (mask >> p) & 1:
        p += 1
    return p


@njit(cache=True)
def shootout(game, env, slot, mask, opts, ctx):
    """AG-N2: everyone involved rolls; then in turn order from the godfather each family assigns
    its BANGs (FBI jokers count, and move the FBI pawn) to families still on the card; the victim
    chooses which of its members is hit: a henchman or killer dies (to the reserve), an occasional
    die is discarded, a boss takes a wound and dies at the last one."""
    g = game.g
    g[SHOOTOUTS] += 1
    log(g, game.events, EV_SHOOTOUT, slot)
    converted = arms_power(game, env, slot, mask, opts, ctx)
    roll_slot(game, env, slot, mask, converted)
    fbi_jokers(game, env, mask)
    for p in range(g[N_PLAYERS]):
        if (mask >> p) & 1:
            game.pl[p, C_SHOOTOUTS] += 1
    for i in range(g[N_PLAYERS]):
        p = g[ORDER0 + i]
        if not (mask >> p) & 1:
            continue
        bangs = 0
        for die in range(3):
            bangs += game.dice[p, die, R_BANG] + game.dice[p, die, R_FBI]
        for _ in range(bangs):
            n = 0
            for q in range(g[N_PLAYERS]):
                if q != p and pieces_at(game, slot, q) > 0:
                    n = put(opts, n, OP_SEAT, q)
            if n == 0:
                break
            ctx[CTX_DECISION] = D_SHOOT
            ctx[CTX_SLOT] = slot
            q = opts[ask(game, env, p, opts, n, ctx), 1]
            game.pl[p, C_BANGS] += 1
            hit(game, env, slot, q, p, opts, ctx)


@njit(cache=True)
def hit(game, env, slot, q, shooter, opts, ctx):
    """AG-N2: the victim q chooses which of its members on the slot takes the BANG."""
    n = 0
    for piece in (OCC, HENCH, KILLER, BOSS):
        if game.at[slot, q, piece] > 0:
            n = put(opts, n, OP_PIECE, piece)
    ctx[CTX_DECISION] = D_HIT
    ctx[CTX_SLOT] = slot
    ctx[CTX_SHOOTER] = shooter
    piece = opts[ask(game, env, q, opts, n, ctx), 1]
    log(game.g, game.events, EV_SHOT, shooter, q, piece)
    if piece == BOSS:
        if wound_boss(game, env, q, shooter, opts, ctx):
            game.at[slot, q, BOSS] = 0   # the boss pawn goes back to its family (AG-K4)
        return
    game.at[slot, q, piece] -= 1
    if piece == OCC:
        game.g[OCC_SUPPLY] += 1
        game.pl[q, C_OCC_LOST] += 1
    elif piece == HENCH:
        game.pl[q, HENCHMEN] -= 1
        game.pl[q, C_HENCH_LOST] += 1
    else:
        game.pl[q, KILLERS] -= 1
        game.pl[q, C_KILLERS_LOST] += 1
