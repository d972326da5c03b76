"""Movement and journeys (rulebook: moving characters): journeys on foot, by subway and by
helicopter, police stops on the way, moving police cars and the deals to move them, and the
movement phase with its cards.

Rule ids: NYK-C5, NYK-E2, NYK-M1, NYK-M2, NYK-M5, NYK-M7, NYK-M8, NYK-P2, NYK-P4.
"""

import numpy as np
from numba import njit

from sim.nyk.chapters.base import ONE, OPTS2_CTX, OPTS_CTX, ask, log, pay_into, player_pays_player, put
from sim.nyk.chapters.cards import card_param, discard_card, holds_kind_for, pay_with_card, playable, spend_event
from sim.nyk.chapters.police import (
    custody_phase, custody_step, interrogate, move_police, police_arrived, questionable,
)
from sim.nyk.chapters.recruitment import list_partings, part_with
from sim.nyk.ways import all_started_at, may_ride_subway, passes_police
from sim.nyk.decisions import (
    ANY_CARD, CTX_DECISION, CTX_DISTRICT, CTX_GROUP, CTX_MINE, CTX_MODE, CTX_OPPONENT, CTX_POT, CTX_STEPS, D_DEAL,
    D_DEAL_ACCEPT, D_HELI, D_MOVE, D_PLACE, D_POLICE, D_STEP, MODE_HELI, MODE_NORMAL, MODE_SUBWAY, OP_DROP, OP_END,
    OP_JOURNEY, OP_NO, OP_PART, OP_PICKUP, OP_PLAY, OP_POLICE, OP_STEP, OP_STOP, OP_YES, WIN_MOVEMENT,
)
from sim.nyk.env import RP_HELIPORT, RP_N_DISTRICTS, RP_R_KIND, RP_STATION
from sim.nyk.events import EV_CARD_MOVE, EV_CHECK, EV_DEAL, EV_HELI, EV_JOURNEY, EV_POLICE_MOVE, EV_STEP
from sim.nyk.state import (
    ALIVE, BANK, C_CARDS_AS_MOVES, C_DEALS, C_HELI, C_HELI_SPENT, C_POLICE_MOVES, C_SUBWAY, EXTRA_STEPS, FIRST, HAND0,
    HAND_N, LOC, MONEY, MOVED, NO, N_PLAYERS, N_POLICE, POLICE0, POLICE_STEPS0, ROSTER, START,
    STEPS, STOPPED, WHERE, W_CONTROLLED, W_CUSTODY, carries_risk, count_bits, group_at, in_mask, lowest_bit, place,
    police_at,
)
from sim.nyk.compiled import (
    E_EXTRA_MOVE, E_POLICE_MOVE, E_POLICE_PLACE, E_RELEASE_CUSTODY, P_BONUS_STEPS_PER_CARD,
    P_DEALS_ENABLED, P_DEALS_POLICE_MOVE_PRICE, P_HELIPORT_AT_RISK_ALLOWED, P_HELIPORT_COST, P_MOVE_STEPS,
    P_POLICE_MOVE_STEPS, P_SUBWAY_IGNORES_POLICE, P_SUBWAY_STEPS,
)


@njit(cache=True)
def unmoved_at(game, p, d):
    """p's characters on d whose movement of the turn is still to come."""
    mask = group_at(game, p, d)
    todo = mask
    while todo:
        c = lowest_bit(todo)
        todo &= todo - 1
        if game.ch[c, MOVED]:
            mask &= ~(ONE << c)
    return mask


@njit(cache=True)
def list_journeys(game, env, p, n, police_steps_left):
    """NYK-M1/M4/M6/M7: any group of p's unmoved characters on one district may set out, on
    foot, by subway from GRAND CENTRAL, or by helicopter from FINANCIAL."""
    opts = game.opts
    done = np.int64(0)
    todo = game.pl[p, ROSTER]
    while todo:
        c = lowest_bit(todo)
        todo &= todo - 1
        if in_mask(done, c) or game.ch[c, WHERE] != W_CONTROLLED:
            continue
        if game.ch[c, MOVED]:
            continue
        d = game.ch[c, LOC]
        here = unmoved_at(game, p, d)
        done |= here
        # every non-empty subset of the characters here, as one travelling group
        sub = here
        while sub:
            n = put(opts, n, OP_JOURNEY, d, sub, MODE_NORMAL)
            if may_ride_subway(game, env, sub, d):
                n = put(opts, n, OP_JOURNEY, d, sub, MODE_SUBWAY)
            if d == env.rp[RP_HELIPORT] and all_started_at(game, sub, d) and (
                    env.rp[P_HELIPORT_AT_RISK_ALLOWED] or not carries_risk(game, sub)) and (
                    game.pl[p, MONEY] >= env.rp[P_HELIPORT_COST] * count_bits(sub)):
                n = put(opts, n, OP_JOURNEY, d, sub, MODE_HELI)
            sub = (sub - 1) & here
    if police_steps_left:
        n = list_police_cars(game, env, n)
    return n


@njit(cache=True)
def may_move_car(game, env, k):
    """NYK-M5: each car up to `police.move_steps` connected districts this turn."""
    d = game.g[POLICE0 + k]
    return d >= 0 and game.g[POLICE_STEPS0 + k] < env.rp[P_POLICE_MOVE_STEPS]


@njit(cache=True)
def list_police_moves(game, env, n):
    """Every single step of a car that may still move, as (car, destination) options."""
    opts = game.opts
    for k in range(N_POLICE):
        if may_move_car(game, env, k):
            n = list_car_steps(env, k, game.g[POLICE0 + k], opts, n)
    return n


@njit(cache=True, inline="always")  # its table is the game's option table or the nested one (`drive`)
def list_car_steps(env, k, d, opts, n):
    for j in range(env.nbr[d, 0]):
        n = put(opts, n, OP_POLICE, k, env.nbr[d, 1 + j])
    return n


@njit(cache=True)
def list_police_cars(game, env, n):
    """The cars the first player may move now, one option each (the destination comes next,
    see `drive`: listing every step of every car at every move would dwarf the other options)."""
    opts = game.opts
    for k in range(N_POLICE):
        if may_move_car(game, env, k):
            n = put(opts, n, OP_POLICE, k, NO)
    return n


@njit(cache=True)
def drive(game, env, p, k):
    """NYK-M5: p moves car k one step, to the neighbour it picks."""
    ctx = game.ctx
    opts = game.opts2
    n = list_car_steps(env, k, game.g[POLICE0 + k], opts, 0)
    ctx[CTX_DECISION] = D_POLICE
    move_police(game, env, k, opts[ask(game, env, p, n, OPTS2_CTX), 2], p)


@njit(cache=True)
def movement_phase(game, env, p):
    opts = game.opts
    ctx = game.ctx
    custody_phase(game, env, p)
    mover = p == game.g[FIRST]
    if mover and env.rp[P_DEALS_ENABLED]:
        police_deals(game, env, p)
    while True:
        n = put(opts, 0, OP_END)
        n = list_journeys(game, env, p, n, mover)
        n = list_movement_cards(game, env, p, n)
        n = list_partings(game, p, n)
        ctx[CTX_DECISION] = D_MOVE
        k = ask(game, env, p, n, OPTS_CTX)
        op = opts[k, 0]
        if op == OP_END:
            break
        if op == OP_POLICE:
            drive(game, env, p, opts[k, 1])
        elif op == OP_JOURNEY:
            journey(game, env, p, opts[k, 1], opts[k, 2], opts[k, 3])
        elif op == OP_PLAY:
            movement_card(game, env, p, opts[k, 1], opts[k, 2], opts[k, 3])
        elif op == OP_PART:
            part_with(game, p, opts[k, 1])
    # a character that did not set out has still had its movement; unused extra steps lapse
    game.pl[p, EXTRA_STEPS] = 0
    todo = game.pl[p, ROSTER]
    while todo:
        c = lowest_bit(todo)
        todo &= todo - 1
        game.ch[c, MOVED] = 1


@njit(cache=True)
def police_deals(game, env, first):
    """NYK-E2 (optional deal model): before the first player moves, each other player in turn may
    offer to buy one police step at the set price; the first player takes the money and makes the
    move, or refuses. A bought step counts against the car's steps this turn (NYK-M5)."""
    opts = game.opts
    ctx = game.ctx
    price = env.rp[P_DEALS_POLICE_MOVE_PRICE]
    n_players = game.g[N_PLAYERS]
    for i in range(1, n_players):
        q = (first + i) % n_players
        if not game.pl[q, ALIVE] or game.pl[q, MONEY] < price:
            continue
        n = list_police_moves(game, env, put(opts, 0, OP_NO))
        if n == 1:
            return
        ctx[CTX_OPPONENT], ctx[CTX_POT] = first, price
        ctx[CTX_DECISION] = D_DEAL
        k = ask(game, env, q, n, OPTS_CTX)
        if k == 0:
            continue
        car, dest = opts[k, 1], opts[k, 2]
        ctx[CTX_OPPONENT], ctx[CTX_MINE], ctx[CTX_DISTRICT] = q, car, dest
        n = put(opts, put(opts, 0, OP_NO), OP_YES)
        ctx[CTX_DECISION] = D_DEAL_ACCEPT
        if ask(game, env, first, n, OPTS_CTX) == 1:
            player_pays_player(game, q, first, price)
            game.pl[q, C_DEALS] += 1
            game.pl[first, C_DEALS] += 1
            log(game, EV_DEAL, q, first, price, car, dest)
            move_police(game, env, car, dest, first)


@njit(cache=True, inline="always")
def list_movement_cards(game, env, p, n):
    """Cards of the movement window (NYK-C5): police moves and placements, extra moves, custody.
    A hand with none of the window's kinds lists none: tested where it is asked, with no call."""
    if not holds_kind_for(game, env, p, WIN_MOVEMENT):
        return n
    return list_movement_cards_held(game, env, p, n)


@njit(cache=True)
def list_movement_cards_held(game, env, p, n):
    opts = game.opts
    for i in range(game.pl[p, HAND_N]):
        card = game.pl[p, HAND0 + i]
        if not playable(game, env, p, card, WIN_MOVEMENT):
            continue
        kind = env.rp[RP_R_KIND + card]
        if kind == E_POLICE_MOVE:
            for k in range(N_POLICE):
                if game.g[POLICE0 + k] >= 0:
                    n = put(opts, n, OP_PLAY, card, kind, k)
        elif kind == E_POLICE_PLACE and police_at(game, env.rp[RP_STATION]) > 0:
            n = put(opts, n, OP_PLAY, card, kind, NO)  # where: asked once played (`place_car`)
        elif kind == E_EXTRA_MOVE:
            n = put(opts, n, OP_PLAY, card, kind, NO)
        elif kind == E_RELEASE_CUSTODY:
            todo = game.pl[p, ROSTER]
            while todo:
                c = lowest_bit(todo)
                todo &= todo - 1
                if game.ch[c, WHERE] == W_CUSTODY:
                    n = put(opts, n, OP_PLAY, card, kind)
                    break
    return n


@njit(cache=True)
def movement_card(game, env, p, card, kind, target):
    if not spend_event(game, env, p, card):
        return
    if kind == E_POLICE_MOVE:
        police_move_card(game, env, p, target, card_param(env, card, 0), card_param(env, card, 1))
    elif kind == E_EXTRA_MOVE:  # e.g. Fast Car: the next journey goes `steps` districts further
        game.pl[p, EXTRA_STEPS] += card_param(env, card, 0)
    elif kind == E_POLICE_PLACE:  # e.g. Anonymous Call: `cars` cars, while BROADWAY has one
        for _ in range(card_param(env, card, 0)):
            if police_at(game, env.rp[RP_STATION]) == 0:
                break
            place_car(game, env, p)
    elif kind == E_RELEASE_CUSTODY:
        todo = game.pl[p, ROSTER]
        while todo:
            c = lowest_bit(todo)
            todo &= todo - 1
            if game.ch[c, WHERE] == W_CUSTODY:
                for _ in range(card_param(env, card, 0)):
                    custody_step(game, env, c)


@njit(cache=True)
def police_move_card(game, env, p, first, cars, steps):
    """NYK-C5 police_move (e.g. Bent Cop): up to `cars` different cars, each up to `steps`
    districts; the first is the car the card was played for, each next one the player picks
    by its first step (or stops)."""
    if steps == 0:
        return
    moved = np.int64(0)
    k = first
    for i in range(cars):
        taken = 0
        if i > 0:
            k = next_card_car(game, env, p, moved)
            if k == NO:
                return
            taken = 1
        moved |= ONE << k
        for _ in range(steps - taken):
            if not card_car_step(game, env, p, k):
                break


@njit(cache=True)
def next_card_car(game, env, p, moved):
    """The first step of another car on the board not moved by this card yet, or NO to stop."""
    opts = game.opts
    ctx = game.ctx
    n = put(opts, 0, OP_STOP)
    for k in range(N_POLICE):
        if not in_mask(moved, k) and game.g[POLICE0 + k] >= 0:
            n = list_car_steps(env, k, game.g[POLICE0 + k], opts, n)
    ctx[CTX_DECISION] = D_STEP
    pick = ask(game, env, p, n, OPTS_CTX)
    if pick == 0:
        return NO
    k = opts[pick, 1]
    car_to(game, env, p, k, opts[pick, 2])
    return k


@njit(cache=True)
def card_car_step(game, env, p, k):
    """One more step of car k, or False when it stops (or left the board)."""
    opts = game.opts
    ctx = game.ctx
    d = game.g[POLICE0 + k]
    if d < 0:
        return False
    n = list_car_steps(env, k, d, opts, put(opts, 0, OP_STOP))
    ctx[CTX_DECISION] = D_STEP
    pick = ask(game, env, p, n, OPTS_CTX)
    if pick == 0:
        return False
    car_to(game, env, p, k, opts[pick, 2])
    return True


@njit(cache=True)
def car_to(game, env, p, k, dest):
    game.g[POLICE0 + k] = dest
    game.pl[p, C_POLICE_MOVES] += 1
    log(game, EV_POLICE_MOVE, p, k, dest)
    police_arrived(game, env, dest, p)


@njit(cache=True)
def place_car(game, env, p):
    """A police_place card (NYK-C5): a car waiting at the station goes to any other district."""
    opts = game.opts
    ctx = game.ctx
    station = env.rp[RP_STATION]
    n = 0
    for d in range(env.rp[RP_N_DISTRICTS]):
        if d != station:
            n = put(opts, n, OP_STEP, d, NO)
    ctx[CTX_DECISION] = D_PLACE
    target = opts[ask(game, env, p, n, OPTS_CTX), 1]
    for k in range(N_POLICE):
        if game.g[POLICE0 + k] == station:
            game.g[POLICE0 + k] = target
            log(game, EV_POLICE_MOVE, p, k, target)
            police_arrived(game, env, target, p)
            break


@njit(cache=True)
def journey(game, env, p, d, group, mode):
    """One group's movement, step by step, picking up and dropping characters on the way.

    A normal step is allowed while every member has moved fewer than `move.steps` districts and
    none met a police check (NYK-M1, M2); otherwise only a discarded card moves it on (M8, P2).
    """
    opts = game.opts
    ctx = game.ctx
    limit = env.rp[P_MOVE_STEPS]
    ignore_police = False
    start, set_out = d, False  # logged with the first step: a journey of no step tells nothing
    if mode == MODE_SUBWAY:
        limit = env.rp[P_SUBWAY_STEPS]
        ignore_police = env.rp[P_SUBWAY_IGNORES_POLICE] == 1
        game.pl[p, C_SUBWAY] += 1
    elif mode == MODE_HELI:
        log(game, EV_JOURNEY, p, d, group, mode)
        set_out = True
        d = helicopter(game, env, p, group)
        limit = 0
    steps = 0  # steps of this ride (the special moves count their own)
    bonus = env.rp[P_BONUS_STEPS_PER_CARD]  # NYK-M8: districts one discarded card buys
    credit = 0  # districts still paid for by the last card
    extra = game.pl[p, EXTRA_STEPS]  # an extra_move card played for this journey (NYK-C5)
    game.pl[p, EXTRA_STEPS] = 0
    while group:
        group &= group_at(game, p, d)  # NYK-P4: an arrest (on landing, a step, a police move) takes members off
        if not group:
            break
        ctx[CTX_DISTRICT], ctx[CTX_GROUP], ctx[CTX_STEPS], ctx[CTX_MODE] = d, group, steps, mode
        stopped = any_stopped(game, group)
        normal = steps < limit and not stopped
        if mode == MODE_NORMAL:
            normal = normal and max_steps(game, group) < limit
        free = extra > 0 and not stopped  # like a normal step, it does not pass a check (NYK-P2)
        n = put(opts, 0, OP_STOP)
        paid = bonus > 0 and game.pl[p, HAND_N] > 0
        for j in range(env.nbr[d, 0]):
            nb = env.nbr[d, 1 + j]
            if normal or credit > 0 or free:
                n = put(opts, n, OP_STEP, nb, NO)
            if paid:  # which card pays is asked once the step is chosen (`pay_with_card`)
                n = put(opts, n, OP_STEP, nb, ANY_CARD)
        if count_bits(group) > 1:
            n = put_each(game, n, OP_DROP, group)
        if mode == MODE_NORMAL:
            n = put_each(game, n, OP_PICKUP, unmoved_at(game, p, d) & ~group)
        if p == game.g[FIRST]:  # NYK-M5: the first player moves the police at any time of its moves
            n = list_police_cars(game, env, n)
        ctx[CTX_DECISION] = D_STEP
        k = ask(game, env, p, n, OPTS_CTX)
        op = opts[k, 0]
        if op == OP_STOP:
            break
        if op == OP_DROP:
            game.ch[opts[k, 1], MOVED] = 1
            group &= ~(ONE << opts[k, 1])
            continue
        if op == OP_PICKUP:
            group |= ONE << opts[k, 1]
            continue
        if op == OP_POLICE:
            drive(game, env, p, opts[k, 1])
            if police_at(game, d) > 0 and not ignore_police:
                stop_where_a_car_came(game, group, d)
            continue
        to, card = opts[k, 1], opts[k, 2]
        if card != NO:  # NYK-M8: one discarded card moves the whole group `bonus` districts more
            card = pay_with_card(game, env, p)
            discard_card(game, env, p, card)
            game.pl[p, C_CARDS_AS_MOVES] += 1
            log(game, EV_CARD_MOVE, p, card)
            credit = bonus - 1
        elif not normal and credit > 0:
            credit -= 1
        elif not normal:
            extra -= 1
        if not set_out:
            log(game, EV_JOURNEY, p, start, group, mode)
            set_out = True
        d = to
        steps += 1
        rest = group
        while rest:
            c = lowest_bit(rest)
            rest &= rest - 1
            place(game, c, W_CONTROLLED, d)
            game.ch[c, STEPS] += 1
        log(game, EV_STEP, p, d, group)
        # NYK-M6/M8 (`subway.card_steps`): a district bought beyond the ride may be checked
        checked = not passes_police(env, mode, normal)
        if checked and police_at(game, d) > 0:
            credit = 0  # NYK-P2: only a new card goes on past this check
            arrive_at_police(game, env, p, d, group)
    rest = group
    while rest:
        c = lowest_bit(rest)
        rest &= rest - 1
        game.ch[c, MOVED] = 1


@njit(cache=True)
def put_each(game, n, op, group):
    """One option (op, c) per character c of `group`, in the order of their ids."""
    opts = game.opts
    rest = group
    while rest:
        c = lowest_bit(rest)
        rest &= rest - 1
        n = put(opts, n, op, c)
    return n


@njit(cache=True)
def stop_where_a_car_came(game, group, d):
    """A car driven onto the travelling group stops the members that came to d this turn (a check,
    NYK-M2); those still where their turn started leave freely, whichever way the car came (NYK-M3),
    as they would from the movement menu."""
    rest = group
    while rest:
        c = lowest_bit(rest)
        rest &= rest - 1
        if game.ch[c, STEPS] > 0 or game.ch[c, START] != d:
            game.ch[c, STOPPED] = 1


@njit(cache=True)
def arrive_at_police(game, env, p, d, group):
    """NYK-M2: entering a police district stops the group (a check); an at-risk mission there
    means an interrogation, the first player rolling for the police (NYK-P4)."""
    rest = group
    while rest:
        c = lowest_bit(rest)
        rest &= rest - 1
        game.ch[c, STOPPED] = 1
    log(game, EV_CHECK, p, d)
    if questionable(game, env, p, d):
        interrogate(game, env, p, d)


@njit(cache=True)
def any_stopped(game, group):
    rest = group
    while rest:
        c = lowest_bit(rest)
        rest &= rest - 1
        if game.ch[c, STOPPED]:
            return True
    return False


@njit(cache=True)
def max_steps(game, group):
    m = 0
    rest = group
    while rest:
        c = lowest_bit(rest)
        rest &= rest - 1
        m = max(m, game.ch[c, STEPS])
    return m


@njit(cache=True)
def helicopter(game, env, p, group):
    """NYK-M7: $1,000 a character, then anywhere on the board."""
    opts = game.opts
    ctx = game.ctx
    cost = env.rp[P_HELIPORT_COST] * count_bits(group)
    pay_into(game, p, cost, BANK)
    game.pl[p, C_HELI] += 1
    game.pl[p, C_HELI_SPENT] += cost
    n = 0
    for d in range(env.rp[RP_N_DISTRICTS]):
        n = put(opts, n, OP_STEP, d, NO)
    ctx[CTX_DECISION] = D_HELI
    d = opts[ask(game, env, p, n, OPTS_CTX), 1]
    rest = group
    while rest:
        c = lowest_bit(rest)
        rest &= rest - 1
        place(game, c, W_CONTROLLED, d)
    log(game, EV_HELI, p, d, group, cost)
    if police_at(game, d) > 0:
        arrive_at_police(game, env, p, d, group)
    return d
