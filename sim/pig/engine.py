"""The Pig engine: the rules (sim/rules/pig/rules.md) as jitted steps on a game record.

The game is a small state machine, so the batch and the forward model share one loop: `run`
plays from wherever the record stands (a turn's first roll is forced, PIG-3) until the game ends
or a seat of the `stop` mask must choose. A batch game stops for nobody (`play`); the forward
model (sim.pig.forward) stops for the seats deciding from outside and resumes with `take`.
Every die comes from the mover's own stream (S_DICE0 + seat), every random choice from the
seat's policy stream, so a choice taken otherwise shifts no other seat's dice.
"""

import numpy as np
from numba import njit

from sim import rng
from sim.pig.decisions import HOLD, ROLL
from sim.pig.env import P_FACES, P_GOAL, P_TURN_CAP
from sim.pig.events import EV_BUST, EV_CAP, EV_HOLD, EV_RANK, EV_ROLL, EV_SETUP, EV_TURN, EV_WIN
from sim.pig.state import (
    BROKEN, BY_GOAL, BY_SCORE, BY_SHARED, C_BANKED, C_BEST, C_BUSTS, C_HOLDS, C_LOST, C_ROLLS,
    C_TURNS, CAP_HIT, CHECK, DECIDED_BY, DECISIONS, END_CAP, END_GOAL, ENDED_BY, FW_STOP, GAME_OVER,
    ILLEGAL, MAX_LOG, N_EVENTS, N_PLAYERS, NO, RANK, RECORD, ROLLS, S_DICE0, SCORE, TO_MOVE, TURN,
    TURN_TOTAL, TURNS_PLAYED, WINNER,
)
from strategies.pig.policy import decide

OVER, HALTED = 0, 1


@njit(cache=True)
def log(game, code, a, b, c):
    """Append an event row when the game is recorded (the replay recorder wraps this function)."""
    g = game.g
    if g[RECORD] == 0 or g[N_EVENTS] >= MAX_LOG:
        return
    row = game.events[g[N_EVENTS]]
    row[0], row[1], row[2], row[3], row[4] = g[TURN], code, a, b, c
    row[5], row[6], row[7] = 0, 0, 0
    g[N_EVENTS] += 1


@njit(cache=True)
def roll_face(game, env, p):
    """PIG-2: one roll of seat p's die, a face 1 .. faces (the replay recorder wraps this too)."""
    return 1 + rng.below_of(game.rng, S_DICE0 + p, env.rp[P_FACES])


@njit(cache=True)
def start(game, env, n_players, key, game_id, record, check):
    """The game before its first roll (PIG-1): streams seeded, seat 0 to move in round 1."""
    g = game.g
    g[N_PLAYERS], g[RECORD], g[CHECK] = n_players, record, check
    rng.seed_streams(key, game_id, game.rng)
    g[TURN], g[TO_MOVE], g[TURN_TOTAL] = 1, 0, 0
    log(game, EV_SETUP, n_players, env.rp[P_GOAL], 0)
    log(game, EV_TURN, 1, 0, 0)


@njit(cache=True)
def record_scores(game, turn):
    for p in range(game.g[N_PLAYERS]):
        game.fortune[turn, p] = game.pl[p, SCORE]


@njit(cache=True)
def rank_seats(game, winner):
    """PIG-5: the winner first, every other seat by score (equal scores share a rank)."""
    n = game.g[N_PLAYERS]
    for p in range(n):
        above = 0
        for q in range(n):
            if q != p and (q == winner or game.pl[q, SCORE] > game.pl[p, SCORE]):
                above += 1
        game.pl[p, RANK] = 1 if p == winner else above + 1
        log(game, EV_RANK, p, game.pl[p, RANK], game.pl[p, SCORE])


@njit(cache=True)
def finish(game, winner, ended_by, decided_by):
    g = game.g
    g[WINNER], g[ENDED_BY], g[DECIDED_BY] = winner, ended_by, decided_by
    g[TURNS_PLAYED] = g[TURN]
    g[GAME_OVER] = 1
    g[TURN_TOTAL] = 0
    record_scores(game, g[TURN])
    rank_seats(game, winner)


@njit(cache=True)
def stop_at_cap(game):
    """PIG-6: the highest score wins; equal highest scores share the game (no winner alone)."""
    g = game.g
    g[CAP_HIT] = 1
    log(game, EV_CAP, g[TURN], 0, 0)
    best, leader, tied = -1, NO, False
    for p in range(g[N_PLAYERS]):
        if game.pl[p, SCORE] > best:
            best, leader, tied = game.pl[p, SCORE], p, False
        elif game.pl[p, SCORE] == best:
            tied = True
    if tied:
        finish(game, NO, END_CAP, BY_SHARED)
    else:
        finish(game, leader, END_CAP, BY_SCORE)


@njit(cache=True)
def end_turn(game, env):
    """The turn passes to the next seat; a round ends after the last seat's turn."""
    g = game.g
    p = g[TO_MOVE]
    game.pl[p, C_TURNS] += 1
    g[TURN_TOTAL] = 0
    g[TO_MOVE] = (p + 1) % g[N_PLAYERS]
    if g[TO_MOVE] == 0:
        record_scores(game, g[TURN])
        if g[TURN] >= min(env.rp[P_TURN_CAP], game.fortune.shape[0] - 1):
            stop_at_cap(game)
            return
        g[TURN] += 1
    log(game, EV_TURN, g[TURN], g[TO_MOVE], 0)


@njit(cache=True)
def roll(game, env):
    """PIG-3: the mover rolls; a 1 loses the turn total and ends the turn, any other face adds."""
    g = game.g
    p = g[TO_MOVE]
    face = roll_face(game, env, p)
    g[ROLLS] += 1
    game.pl[p, C_ROLLS] += 1
    if face == 1:
        game.pl[p, C_BUSTS] += 1
        game.pl[p, C_LOST] += g[TURN_TOTAL]
        log(game, EV_BUST, p, g[TURN_TOTAL], 0)
        end_turn(game, env)
        return
    g[TURN_TOTAL] += face
    log(game, EV_ROLL, p, face, g[TURN_TOTAL])


@njit(cache=True)
def hold(game, env):
    """PIG-4, PIG-5: the turn total is banked; reaching the goal wins at once."""
    g = game.g
    p = g[TO_MOVE]
    banked = g[TURN_TOTAL]
    game.pl[p, SCORE] += banked
    game.pl[p, C_HOLDS] += 1
    game.pl[p, C_BANKED] += banked
    game.pl[p, C_BEST] = max(game.pl[p, C_BEST], banked)
    log(game, EV_HOLD, p, banked, game.pl[p, SCORE])
    if game.pl[p, SCORE] >= env.rp[P_GOAL]:
        game.pl[p, C_TURNS] += 1
        log(game, EV_WIN, p, game.pl[p, SCORE], 0)
        finish(game, p, END_GOAL, BY_GOAL)
        return
    end_turn(game, env)


@njit(cache=True)
def take(game, env, choice):
    """The mover's choice at a decision: HOLD or ROLL; anything else is illegal, counted, and rolls."""
    game.g[DECISIONS] += 1
    if choice == HOLD:
        hold(game, env)
        return
    if choice != ROLL:
        game.g[ILLEGAL] += 1
    roll(game, env)


@njit(cache=True)
def at_decision(game):
    """A seat must choose: the game goes on and its turn total is not 0 (the first roll is forced)."""
    return game.g[GAME_OVER] == 0 and game.g[TURN_TOTAL] > 0


@njit(cache=True)
def run(game, env, tables):
    """Play on until the game ends (OVER) or a seat of g[FW_STOP] must choose (HALTED)."""
    g = game.g
    while g[GAME_OVER] == 0:
        if not at_decision(game):
            roll(game, env)
        elif (g[FW_STOP] >> g[TO_MOVE]) & 1:
            return HALTED
        else:
            take(game, env, decide(game, env, tables, g[TO_MOVE]))
        if g[CHECK] and g[BROKEN] == 0:
            g[BROKEN] = invariants(game, env)
    return OVER


@njit(cache=True)
def invariants(game, env):
    """What every legal state keeps (check mode): 0, or the number of the first broken one."""
    g = game.g
    n = g[N_PLAYERS]
    if g[TURN_TOTAL] < 0 or not 0 <= g[TO_MOVE] < n:
        return 1
    for p in range(n):
        if game.pl[p, SCORE] != game.pl[p, C_BANKED] or game.pl[p, SCORE] < 0:
            return 2
        if g[GAME_OVER] == 0 and game.pl[p, SCORE] >= env.rp[P_GOAL]:
            return 3
    if g[GAME_OVER] and g[ENDED_BY] == END_GOAL and game.pl[g[WINNER], SCORE] < env.rp[P_GOAL]:
        return 4
    return 0


@njit(cache=True)
def play(game, env, tables, n_players, key, game_id, record, check):
    """Play one whole game (PIG-1..6). Returns 0, or an invariant's number in check mode."""
    start(game, env, n_players, key, game_id, record, check)
    game.g[FW_STOP] = 0
    run(game, env, tables)
    return game.g[BROKEN]


def no_tables():
    """The tables argument of a lineup that holds none (a fixed type: one compiled engine)."""
    return np.zeros((1, 1, 1, 1), dtype=np.uint8)
