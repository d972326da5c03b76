"""Police and custody (rulebook: the police): police cars arriving, interrogations, arrests,
characters eliminated or sent to custody, moving and returning cars, the custody track.

Rule ids: NYK-A2, NYK-A4, NYK-A5, NYK-M8, NYK-P4, NYK-P5, NYK-P6.
"""

import numpy as np
from numba import njit

from sim.nyk.hands import add_value, table_key
from sim.nyk.chapters.base import ONE, OPTS2_CTX2, OPTS_CTX, ask, die, log, put
from sim.nyk.chapters.cards import discard_card, pay_with_card, react, use_credit
from sim.nyk.chapters.missions import leave_mission, mission_out
from sim.nyk.chapters.recruitment import discard_henchman_card
from sim.nyk.decisions import (
    CTX_CREW, CTX_DECISION, CTX_DISTRICT, CTX_MINE, CTX_OTHER_CREW, CTX_STAGE, CTX_THEIRS, D_CUSTODY, D_LOSE, D_RESIST,
    D_WHOM, OP_CHAR, OP_END, OP_NO, OP_PLAYER, OP_YES, WIN_INTERROGATED,
)
from sim.nyk.env import RP_STATION
from sim.nyk.events import (
    EV_AFFRANCHI_DIES, EV_ARREST, EV_CUSTODY_CARD, EV_CUSTODY_STEP, EV_ESCAPE, EV_INTERROGATION, EV_LOSE,
    EV_POLICE_MOVE, EV_RELEASED, EV_RESIST,
)
from sim.nyk.state import (
    ALIVE, BANK, CELL, CR_BLOCK, C_AFFRANCHI_LOST, C_ARRESTS, C_CARDS_AS_MOVES, C_CHARS_LOST, C_CUSTODY_TURNS,
    C_INTERROGATIONS, C_MISSIONS_LOST, C_POLICE_MOVES, C_RESISTS, C_RESISTS_WON, FIRST, HAND0, HAND_N,
    HENCHMEN_MASK, MISSION, MONEY, MOVED, M_RISK, NO, N_AFFRANCHI, N_CHARS, N_PLAYERS, N_POLICE, OWNER,
    PC_RETURNING, POLICE0, POLICE_CHECK, POLICE_STEPS0, QUESTIONED, ROSTER, START, STEPS, STOPPED, S_DICE0,
    S_POLICE, TURN, VALUE, WHERE, W_CONTROLLED, W_CUSTODY, W_DEAD, carries_risk, group_at, in_mask, lowest_bit,
    place, police_at, set_owner,
)
from sim.nyk.compiled import (
    CUSTODY_CARD_ALL, CUSTODY_CARD_ONE, FIRST_STEP_OWN_TURN, P_CUSTODY_CARD_STEPS, P_CUSTODY_FIRST_STEP,
    P_CUSTODY_CELLS, P_CUSTODY_STEPS, P_INTERROGATION_DICE, P_POLICE_CAR_VALUE, P_POLICE_QUESTIONED,
    P_POLICE_REQUESTION, P_RELEASE_FROZEN, P_RESIST_DICE, QUESTIONED_ONE, REQUESTION_EACH_ARRIVAL,
)


@njit(cache=True)
def police_check(game, env, mover):
    """A car added at BROADWAY interrogates there like any arriving car (NYK-P4); `mover`, who
    brought it (the first player for a reshuffle's car, a Payoff's player for its car), chooses
    whom it questions."""
    if game.g[POLICE_CHECK]:
        game.g[POLICE_CHECK] = 0
        police_arrived(game, env, env.rp[RP_STATION], mover)


@njit(cache=True)
def eliminate(game, env, c):
    """A character dies. An affranchi's death puts its player out at once (NYK-A5)."""
    p = game.ch[c, OWNER]
    leave_mission(game, c)
    game.pl[p, C_CHARS_LOST] += 1
    log(game, EV_LOSE, p, c)
    place(game, c, W_DEAD, NO)
    if c < N_AFFRANCHI:
        game.pl[p, C_AFFRANCHI_LOST] += 1
        player_out(game, env, p)
    else:
        set_owner(game, c, NO)


@njit(cache=True)
def player_out(game, env, p):
    """NYK-A5: bills, resources and henchmen of a dead affranchi's player are discarded."""
    game.pl[p, ALIVE] = 0
    game.g[BANK] += game.pl[p, MONEY]
    game.pl[p, MONEY] = 0
    while game.pl[p, HAND_N] > 0:
        discard_card(game, env, p, game.pl[p, HAND0 + 0])
    todo = game.pl[p, ROSTER] & HENCHMEN_MASK
    while todo:
        c = lowest_bit(todo)
        todo &= todo - 1
        if (game.ch[c, WHERE] == W_CONTROLLED
                                       or game.ch[c, WHERE] == W_CUSTODY):
            leave_mission(game, c)
            discard_henchman_card(game, c)
    log(game, EV_AFFRANCHI_DIES, p)


@njit(cache=True)
def to_custody(game, env, c):
    """NYK-P4: into the last custody cell; a lone holder's mission ends (NYK-A2)."""
    leave_mission(game, c)
    place(game, c, W_CUSTODY, NO)
    game.ch[c, CELL] = env.rp[P_CUSTODY_CELLS]
    game.ch[c, MOVED] = 1


@njit(cache=True)
def choose_loss(game, env, p, group):
    """The victim chooses which of its characters in `group` is lost (NYK-A4, P5)."""
    opts = game.opts
    ctx = game.ctx
    n = 0
    rest = group
    while rest:
        c = lowest_bit(rest)
        rest &= rest - 1
        n = put(opts, n, OP_CHAR, c)
    if n == 0:
        return NO
    ctx[CTX_DECISION] = D_LOSE
    return opts[ask(game, env, p, n, OPTS_CTX), 1]


@njit(cache=True)
def crew_packed(game, group):
    packed = np.int64(0)
    rest = group
    while rest:
        c = lowest_bit(rest)
        rest &= rest - 1
        packed = add_value(packed, game.ch[c, VALUE])
    return packed


@njit(cache=True)
def roll_n(game, src, packed, n):
    for _ in range(n):
        packed = add_value(packed, die(game, src))
    return packed


@njit(cache=True)
def police_arrived(game, env, d, mover):
    """NYK-P4: police on a district with at-risk carriers interrogate one player there, chosen
    by the police mover when several could be."""
    opts, ctx = game.opts2, game.ctx2  # own scratch: called in the middle of moves
    done = 0  # players questioned at this arrival (police.questioned = all)
    while police_at(game, d) > 0:
        n = 0
        for p in range(game.g[N_PLAYERS]):
            if not (done >> p) & 1 and game.pl[p, ALIVE] and questionable(game, env, p, d):
                n = put(opts, n, OP_PLAYER, p)
        if n == 0:
            return
        ctx[CTX_DISTRICT] = d
        ctx[CTX_DECISION] = D_WHOM
        victim = opts[ask(game, env, mover, n, OPTS2_CTX2), 1]
        interrogate(game, env, victim, d)
        if env.rp[P_POLICE_QUESTIONED] == QUESTIONED_ONE:
            return
        done |= 1 << victim


@njit(cache=True)
def questionable(game, env, p, d):
    """NYK-P4: p has an at-risk crew on d that the police may question now (`police.requestion`:
    with `once`, not a crew whose at-risk carriers were all questioned this turn already)."""
    group = group_at(game, p, d)
    if not carries_risk(game, group):
        return False
    if env.rp[P_POLICE_REQUESTION] == REQUESTION_EACH_ARRIVAL:
        return True
    rest = group
    while rest:
        c = lowest_bit(rest)
        rest &= rest - 1
        m = game.ch[c, MISSION]
        if m != NO and game.ms[m, M_RISK] and game.ch[c, QUESTIONED] != game.g[TURN] + 1:
            return True
    return False


@njit(cache=True)
def interrogate(game, env, p, d):
    """NYK-P4: 3 dice + the crew against 3 dice + a J per car; the crew must be strictly stronger.
    NYK-P5: with its affranchi present the crew may resist with a 4th and 5th die each."""
    opts, ctx = game.opts2, game.ctx2  # own scratch: called in the middle of moves
    group = group_at(game, p, d)
    cars = police_at(game, d)
    game.pl[p, C_INTERROGATIONS] += 1
    mark_questioned(game, group)
    if use_credit(game, p, CR_BLOCK) or react(game, env, p, WIN_INTERROGATED, d) > 0:  # e.g. Alibi
        log(game, EV_INTERROGATION, p, d, cars, -1, -1)
        return
    police = np.int64(0)
    for _ in range(cars):
        police = add_value(police, env.rp[P_POLICE_CAR_VALUE])
    n_dice = env.rp[P_INTERROGATION_DICE]
    crew = roll_n(game, S_DICE0 + p, crew_packed(game, group), n_dice)
    police = roll_n(game, S_POLICE, police, n_dice)
    mine, theirs = env.table[table_key(crew)], env.table[table_key(police)]
    log(game, EV_INTERROGATION, p, d, cars, mine, theirs)
    if mine > theirs:
        log(game, EV_ESCAPE, p, d)
        return
    lost = NO
    if in_mask(group, p):
        ctx[CTX_MINE], ctx[CTX_THEIRS], ctx[CTX_DISTRICT] = mine, theirs, d
        ctx[CTX_CREW] = crew
        ctx[CTX_OTHER_CREW] = police
        ctx[CTX_STAGE] = cars
        n = put(opts, 0, OP_NO)
        n = put(opts, n, OP_YES)
        ctx[CTX_DECISION] = D_RESIST
        if ask(game, env, p, n, OPTS2_CTX2) == 1:
            game.pl[p, C_RESISTS] += 1
            extra = env.rp[P_RESIST_DICE]
            crew = roll_n(game, S_DICE0 + p, crew, extra)
            police = roll_n(game, S_POLICE, police, extra)
            mine, theirs = env.table[table_key(crew)], env.table[table_key(police)]
            log(game, EV_RESIST, p, d, mine, theirs)
            if mine > theirs:
                game.pl[p, C_RESISTS_WON] += 1
                for k in range(N_POLICE):
                    if game.g[POLICE0 + k] == d:
                        game.g[POLICE0 + k] = PC_RETURNING
                return
            lost = choose_loss(game, env, p, group)
    arrest(game, env, p, group, lost)


@njit(cache=True)
def mark_questioned(game, group):
    rest = group
    while rest:
        c = lowest_bit(rest)
        rest &= rest - 1
        game.ch[c, QUESTIONED] = game.g[TURN] + 1


@njit(cache=True)
def arrest(game, env, p, group, lost):
    """The at-risk mission is discarded; `lost` (if any) dies, the others go to the last cell."""
    game.pl[p, C_ARRESTS] += 1
    rest = group
    while rest:
        c = lowest_bit(rest)
        rest &= rest - 1
        m = game.ch[c, MISSION]
        if m != NO and game.ms[m, M_RISK]:
            for h in range(N_CHARS):
                if game.ch[h, MISSION] == m:
                    game.ch[h, MISSION] = NO
            mission_out(game, m)
            game.pl[p, C_MISSIONS_LOST] += 1
    rest = group
    while rest:
        c = lowest_bit(rest)
        rest &= rest - 1
        if c != lost:
            to_custody(game, env, c)
    log(game, EV_ARREST, p, group, lost)  # logged once the crew is in custody
    if lost != NO:
        eliminate(game, env, lost)


@njit(cache=True)
def return_police(game, env):
    """NYK-P5: cars removed by a resisting crew come back at BROADWAY at the start of the next
    turn, put there by its first player (ruling `police.return_at`: after the bid, or before)."""
    for k in range(N_POLICE):
        if game.g[POLICE0 + k] == PC_RETURNING:
            game.g[POLICE0 + k] = env.rp[RP_STATION]
            police_arrived(game, env, env.rp[RP_STATION], game.g[FIRST])


@njit(cache=True)
def move_police(game, env, k, dest, mover):
    game.g[POLICE0 + k] = dest
    game.g[POLICE_STEPS0 + k] += 1
    game.pl[mover, C_POLICE_MOVES] += 1
    log(game, EV_POLICE_MOVE, mover, k, dest)
    police_arrived(game, env, dest, mover)


@njit(cache=True)
def custody_phase(game, env, p):
    """NYK-P6: p's characters in custody move one cell toward the exit; each discarded card buys
    one more cell, by ruling `custody.card_steps` for the characters of one cell (moving
    together, as a bonus move does, NYK-M8), for every character in custody, or for one.
    Ruling `custody.first_step`: those arrested earlier this turn move too, or wait a turn."""
    opts = game.opts
    ctx = game.ctx
    steps = env.rp[P_CUSTODY_STEPS]
    todo = game.pl[p, ROSTER]
    while todo:
        c = lowest_bit(todo)
        todo &= todo - 1
        if steps_out(game, env, c):
            game.pl[p, C_CUSTODY_TURNS] += 1
            for _ in range(steps):
                custody_step(game, env, c)
    mode = env.rp[P_CUSTODY_CARD_STEPS]
    while game.pl[p, HAND_N] > 0:
        n = put(opts, 0, OP_END)
        cells = 0  # the cells already listed (bit per cell)
        todo = game.pl[p, ROSTER]
        while todo:
            c = lowest_bit(todo)
            todo &= todo - 1
            if not steps_out(game, env, c):
                continue
            if mode == CUSTODY_CARD_ALL:
                n = put(opts, n, OP_CHAR, NO)
                break
            if mode == CUSTODY_CARD_ONE or not in_mask(cells, game.ch[c, CELL]):
                n = put(opts, n, OP_CHAR, c)
                cells |= ONE << game.ch[c, CELL]
        if n == 1:
            return
        ctx[CTX_DECISION] = D_CUSTODY
        k = ask(game, env, p, n, OPTS_CTX)
        if k == 0:
            return
        target = opts[k, 1]
        card = pay_with_card(game, env, p)
        discard_card(game, env, p, card)
        game.pl[p, C_CARDS_AS_MOVES] += 1
        log(game, EV_CUSTODY_CARD, p, card, target)
        cell = game.ch[target, CELL] if target != NO else 0
        todo = game.pl[p, ROSTER]
        while todo:
            c = lowest_bit(todo)
            todo &= todo - 1
            if steps_out(game, env, c) and (
                    mode == CUSTODY_CARD_ALL or c == target
                    or (mode != CUSTODY_CARD_ONE and game.ch[c, CELL] == cell)):
                custody_step(game, env, c)


@njit(cache=True)
def steps_out(game, env, c):
    """Whether c is in custody and moves toward the exit in this custody phase (NYK-P6). An arrest
    always follows an interrogation of the same turn, so c questioned this turn was arrested in
    it; by ruling `custody.first_step = next_turn` it waits for the next turn."""
    if game.ch[c, WHERE] != W_CUSTODY:
        return False
    return (env.rp[P_CUSTODY_FIRST_STEP] == FIRST_STEP_OWN_TURN
            or game.ch[c, QUESTIONED] != game.g[TURN] + 1)


@njit(cache=True)
def custody_step(game, env, c):
    if game.ch[c, WHERE] != W_CUSTODY:
        return
    if game.ch[c, CELL] > 1:
        game.ch[c, CELL] -= 1
        log(game, EV_CUSTODY_STEP, game.ch[c, OWNER], c, game.ch[c, CELL])
        return
    release(game, env, c)


@njit(cache=True)
def release(game, env, c):
    """Leaving cell 1, a character is back at BROADWAY. Ruling `custody.release_frozen`: that is
    its movement this turn, or it moves on from BROADWAY like a character that started there."""
    place(game, c, W_CONTROLLED, env.rp[RP_STATION])
    game.ch[c, CELL] = 0
    frozen = env.rp[P_RELEASE_FROZEN] == 1
    game.ch[c, MOVED] = 1 if frozen else 0
    game.ch[c, STOPPED] = 1 if frozen else 0
    game.ch[c, STEPS] = 0
    game.ch[c, START] = env.rp[RP_STATION]
    log(game, EV_RELEASED, game.ch[c, OWNER], c)
