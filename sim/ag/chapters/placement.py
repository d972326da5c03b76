"""Location cards and placement (rules: the turn, AG-T2 and AG-T3): the cards of the turn, and
the players' pieces placed on them.

Rule ids: AG-K3, AG-T2, AG-T3.

Placement is simultaneous at the table ("le parrain retourne le sablier, tous les joueurs posent
leurs personnages", AG-T3). The engine asks the families one after the other in turn order from
the godfather; under placement.order = "simultaneous" the pieces the earlier families placed this
turn are out of the board (`game.hidden`) while a family places, so each decides on what it knew
before this turn's placement (the default); "sequential" lets each see the earlier placements.
"""

import numpy as np
from numba import njit

from sim.ag.chapters.base import add_renown, ask, log, put, shuffle
from sim.ag.chapters.titles import drugs_baron, prostitution_baron
from sim.ag.decisions import CTX_DECISION, CTX_PIECE, CTX_REST_H, CTX_REST_K, CTX_REST_O, D_PLACE, OP_SLOT
from sim.ag.env import P_LOC_EXTRA, P_PLACEMENT, P_POWERS, P_UNPLACED_BOSS, PLACE_SIMULTANEOUS
from sim.ag.events import EV_PLACE, EV_RESHUFFLE, EV_REVEAL, EV_UNPLACED
from sim.ag.state import (
    BOSS, C_DICE_PLACED, C_UNPLACED, HENCH, HENCHMEN, KILLER, KILLERS, LC_STATE, LS_DECK, LS_SHOWN, L_DECK0,
    L_DECK_N, L_DISC0, L_DISC_N, NO, N_PLAYERS, OCC, OCC_READY, ORDER0, SHOW0, SHOW_N, S_LOCATIONS, forget_worths,
)


# a piece may stay home or not: np.bool_, typed boolean, not a literal (`place_piece` compiles once)
HOME_ALLOWED, HOME_BARRED = np.bool_(True), np.bool_(False)

@njit(cache=True)
def reveal_locations(game, env):
    """AG-T2: as many location cards as players (plus locations.extra); the past discards are
    reshuffled into a new pile when it runs out."""
    g = game.g
    want = g[N_PLAYERS] + env.rp[P_LOC_EXTRA]
    g[SHOW_N] = 0
    forget_worths(g)   # the policies' worths of the cards (strategies.ag.policy) are for other cards now
    for s in range(1, want + 1):
        if g[L_DECK_N] == 0 and g[L_DISC_N] > 0:
            for i in range(g[L_DISC_N]):
                c = g[L_DISC0 + i]
                g[L_DECK0 + i] = c
                game.lc[c, LC_STATE] = LS_DECK
            g[L_DECK_N], g[L_DISC_N] = g[L_DISC_N], 0
            shuffle(game, L_DECK0, g[L_DECK_N], S_LOCATIONS)
            log(g, game.events, EV_RESHUFFLE, g[L_DECK_N])
        if g[L_DECK_N] == 0:
            break
        g[L_DECK_N] -= 1
        c = g[L_DECK0 + g[L_DECK_N]]
        game.lc[c, LC_STATE] = LS_SHOWN
        g[SHOW0 + s] = c
        g[SHOW_N] = s
        log(g, game.events, EV_REVEAL, s, c)


@njit(cache=True)
def place_piece(game, env, p, piece, home_allowed, opts, ctx):
    """One piece of family p goes to the hospital, a revealed card, or (if allowed) stays home."""
    n = 0
    for s in range(game.g[SHOW_N] + 1):
        n = put(opts, n, OP_SLOT, s)
    if home_allowed:
        n = put(opts, n, OP_SLOT, NO)
    ctx[CTX_DECISION] = D_PLACE
    ctx[CTX_PIECE] = piece
    slot = opts[ask(game, env, p, opts, n, ctx), 1]
    if slot >= 0:
        game.at[slot, p, piece] += 1
        log(game.g, game.events, EV_PLACE, p, slot, piece)
    return slot


@njit(cache=True)
def out_of_sight(game, q):
    """AG-T3 simultaneous: family q's pieces of this turn leave the board for the while."""
    game.hidden[:, q, :] = game.at[:, q, :]
    game.at[:, q, :] = 0


@njit(cache=True)
def back_in_sight(game, n_players):
    """AG-T3 simultaneous: every family's hidden pieces come back once all have placed."""
    for q in range(n_players):
        game.at[:, q, :] += game.hidden[:, q, :]
        game.hidden[:, q, :] = 0


@njit(cache=True)
def placement(game, env, opts, ctx):
    """AG-T3: the families in turn order from the godfather, each deciding on what it knew
    before this turn's placement (placement.order simultaneous, the module doc) or seeing the
    earlier placements (sequential): the killer and henchmen may stay home; occasional henchmen
    must be placed (AG-K3); then the boss, whose family loses renown if it stays home."""
    rp = env.rp
    simultaneous = rp[P_PLACEMENT] == PLACE_SIMULTANEOUS
    for i in range(game.g[N_PLAYERS]):
        p = game.g[ORDER0 + i]
        if simultaneous and i > 0:
            out_of_sight(game, game.g[ORDER0 + i - 1])
        ctx[CTX_REST_K], ctx[CTX_REST_H] = game.pl[p, KILLERS], game.pl[p, HENCHMEN]
        ctx[CTX_REST_O] = game.pl[p, OCC_READY]
        for _ in range(game.pl[p, KILLERS]):
            ctx[CTX_REST_K] -= 1
            if place_piece(game, env, p, KILLER, HOME_ALLOWED, opts, ctx) >= 0:
                game.pl[p, C_DICE_PLACED] += 1
        for _ in range(game.pl[p, HENCHMEN]):
            ctx[CTX_REST_H] -= 1
            if place_piece(game, env, p, HENCH, HOME_ALLOWED, opts, ctx) >= 0:
                game.pl[p, C_DICE_PLACED] += 1
        for _ in range(game.pl[p, OCC_READY]):
            ctx[CTX_REST_O] -= 1
            place_piece(game, env, p, OCC, HOME_BARRED, opts, ctx)
            game.pl[p, C_DICE_PLACED] += 1
        game.pl[p, OCC_READY] = 0
        if place_piece(game, env, p, BOSS, HOME_ALLOWED, opts, ctx) < 0:
            add_renown(game, p, -rp[P_UNPLACED_BOSS])
            game.pl[p, C_UNPLACED] += 1
            log(game.g, game.events, EV_UNPLACED, p)
    if simultaneous:
        back_in_sight(game, game.g[N_PLAYERS])
    if rp[P_POWERS]:
        drugs_baron(game, env, opts, ctx)
        prostitution_baron(game, env, opts, ctx)
