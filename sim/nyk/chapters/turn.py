"""The turn (rulebook: the course of a turn): the corruption bid for the first player, the
resources phase, and the start of each player's turn.

Rule ids: NYK-M3, NYK-T1.
"""

from numba import njit

from sim.nyk.chapters.base import OPTS_CTX, ask, log, pay_into, put
from sim.nyk.chapters.cards import draw_card, draw_count, enforce_hand_limit, has_card_for, react
from sim.nyk.chapters.police import police_check
from sim.nyk.decisions import CTX_DECISION, D_BID, OP_BID, WIN_RESOURCES, WIN_TURN_START
from sim.nyk.env import RP_STATION
from sim.nyk.events import EV_BID, EV_DRAW, EV_FIRST
from sim.nyk.state import (
    ACTED, ACTIVE, ALIVE, BANK, C_BIDS_PAID, C_TIMES_FIRST, FIRST, LOC, MONEY, MOVED, NO, N_PLAYERS, RECRUITED, ROSTER,
    START, STEPS, STOPPED, S_FIRST, TURN, WHERE, W_CONTROLLED, ZEROS, lowest_bit, police_at,
)
from sim.nyk.compiled import P_SEATS_TURN1_TIES, TIES_FIRST_SEAT, TIES_LOTS
from sim.rng import below_of


@njit(cache=True)
def resources_phase(game, env, order, n_order):
    for i in range(n_order):
        p = order[i]
        drawn = 0
        for _ in range(draw_count(game, p)):
            if draw_card(game, env, p):
                drawn += 1
        log(game, EV_DRAW, p, drawn)
        enforce_hand_limit(game, env, p)
        police_check(game, env, game.g[FIRST])
    for i in range(n_order):
        react(game, env, order[i], WIN_RESOURCES, NO)
        police_check(game, env, game.g[FIRST])


@njit(cache=True)
def corruption(game, env):
    """NYK-T1: two bills face down, revealed together; the largest sum takes the first player
    card (ties at random); valued bills go to the bank, $0 bills are kept."""
    opts = game.opts
    ctx = game.ctx
    n_players = game.g[N_PLAYERS]
    bids = game.bids[:n_players]  # in the record: see GAME_DTYPE
    bids[:] = -1
    for p in range(n_players):
        if not game.pl[p, ALIVE]:
            continue
        n = list_bids(game, env, p)
        ctx[CTX_DECISION] = D_BID
        k = ask(game, env, p, n, OPTS_CTX)
        bids[p] = opts[k, 1]
        log(game, EV_BID, p, opts[k, 1], opts[k, 2])
    best = bids.max()
    n_best = 0
    for p in range(n_players):
        if bids[p] == best:
            n_best += 1
    pick = below_of(game.rng, S_FIRST, n_best)   # drawn whatever the knob: the streams stay aligned
    ties = env.rp[P_SEATS_TURN1_TIES]
    if game.g[TURN] == 1 and ties != TIES_LOTS:   # seats.turn1_ties, a designer's knob on turn 1's lots
        pick = 0 if ties == TIES_FIRST_SEAT else n_best - 1
    for p in range(n_players):
        if bids[p] == best:
            if pick == 0:
                game.g[FIRST] = p
            pick -= 1
    for p in range(n_players):
        if bids[p] > 0:
            pay_into(game, p, bids[p], BANK)
            game.pl[p, C_BIDS_PAID] += bids[p]
    game.pl[game.g[FIRST], C_TIMES_FIRST] += 1
    log(game, EV_FIRST, game.g[FIRST], best, n_best)


@njit(cache=True)
def list_bids(game, env, p):
    """Every multiset of `corruption.bills` bills among $0/$1,000/$2,000/$5,000 that p can put
    down: no more $0 bills than it holds, valued bills up to its money (the bank gives change)."""
    opts = game.opts
    n = 0
    for i in range(env.n_bids):
        amount, zeros = env.bids[i, 0], env.bids[i, 1]
        if zeros <= game.pl[p, ZEROS] and amount <= game.pl[p, MONEY]:
            n = put(opts, n, OP_BID, amount, zeros)
    return n


@njit(cache=True)
def start_player_turn(game, env, p):
    game.g[ACTIVE] = p
    game.pl[p, RECRUITED] = 0
    todo = game.pl[p, ROSTER]
    while todo:
        c = lowest_bit(todo)
        todo &= todo - 1
        game.ch[c, STEPS] = 0
        game.ch[c, STOPPED] = 0
        game.ch[c, MOVED] = 0
        game.ch[c, ACTED] = 0
        game.ch[c, START] = game.ch[c, LOC]  # NYK-M3, M6, M7: where the turn started
    # the opponents' cards of the turn_start window (e.g. Payoff, a car off their districts)
    n_players = game.g[N_PLAYERS]
    for i in range(1, n_players):
        q = (p + i) % n_players
        if game.pl[q, ALIVE] and has_card_for(game, env, q, WIN_TURN_START):
            todo = game.pl[q, ROSTER]
            while todo:
                c = lowest_bit(todo)
                todo &= todo - 1
                if game.ch[c, WHERE] == W_CONTROLLED:
                    d = game.ch[c, LOC]
                    if police_at(game, d) and d != env.rp[RP_STATION]:
                        react(game, env, q, WIN_TURN_START, d)
                        police_check(game, env, q)  # NYK-P4: a Payoff car arrives at BROADWAY, its player's
