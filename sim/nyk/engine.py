"""The New York Kings engine: the turn and the game, built from the rulebook's chapters.

The rules themselves are jitted step functions on a `Game` in `sim.nyk.chapters`, one module per
chapter of the rulebook, so the reader of a rule id knows where to look (each module's docstring
lists its ids):

    base         the decision interface `ask`, event log, dice, option lists, money (NYK-S2, C3)
    cards        resource cards: drawing, hand limit, reshuffle, windows, reactions (NYK-C, T2)
    recruitment  henchmen recruited, joining, parted with (NYK-A6..A8)
    missions     the mission row, accepting and accomplishing missions (NYK-A1, A2)
    setup        preparing the game (NYK-S)
    police       police cars, interrogations, arrests, custody, a death (NYK-P, A5)
    movement     journeys on foot, by subway and helicopter, police cars moved (NYK-M)
    fights       provocation, the pot and the fusillade (NYK-A4)
    actions      the actions phase and the action cards (NYK-A0..A3, A8)
    turn         the corruption bid, the resources phase, a player's turn start (NYK-T)
    end          the final ranking (NYK-E)
    invariants   what every legal state keeps (check mode)

This module keeps the turn structure: a turn (NYK-T1..T5) and a whole game (NYK-S, T, E). Every
choice goes through `ask` with the legal options listed by the engine, so a strategy can never make
an illegal move.

`env` (sim.nyk.env.Env) bundles what does not change during a game: the rules vector `rp`, the
board, the hand strength table of the NYK-H4 ruling, and each seat's policy.
"""

from numba import njit, types

from sim.nyk.chapters.actions import actions_phase
from sim.nyk.chapters.base import alive_players, log, seat_order
from sim.nyk.chapters.end import final_ranking
from sim.nyk.chapters.invariants import invariants
from sim.nyk.chapters.missions import end_of_turn_missions
from sim.nyk.chapters.movement import movement_phase
from sim.nyk.chapters.police import return_police
from sim.nyk.chapters.setup import setup
from sim.nyk.chapters.turn import corruption, resources_phase, start_player_turn
from sim.nyk.events import EV_TURN
from sim.nyk.state import (
    ACTIVE, ALIVE, BROKEN, CAP_HIT, CHECK, END_REVEALED, FIRST, GAME_DTYPE, GAME_OVER, LAST_TURN, MAX_TURNS, MONEY, NO,
    N_PLAYERS, N_POLICE, POLICE_STEPS0, RECORD, TURN, TURNS_PLAYED,
)
from sim.nyk.compiled import P_LAST_STANDING, P_POLICE_RETURN_AT, RETURN_BEFORE_BID
from sim.nyk.env import ENV_DTYPE
from sim.shared.late import late, record


# --- the turn (NYK-T1..T5) ---------------------------------------------------------------------


@njit(cache=True)
def checkpoint(game, env):
    """Check mode: the invariants after every phase; the first broken one is kept."""
    if game.g[CHECK] and game.g[BROKEN] == 0:
        game.g[BROKEN] = invariants(game, env)


@njit(cache=True)
def open_turn(game, env):
    """The start of a turn: the corruption bid (NYK-T1), and the cars a resisting crew removed
    back at BROADWAY (NYK-P5), by ruling after the bid, put there by the new first player (who
    then chooses whom they question), or before it."""
    game.g[ACTIVE] = NO
    for k in range(N_POLICE):
        game.g[POLICE_STEPS0 + k] = 0
    before_bid = env.rp[P_POLICE_RETURN_AT] == RETURN_BEFORE_BID
    if before_bid:
        return_police(game, env)
    corruption(game, env)
    if not before_bid:
        return_police(game, env)


@njit(cache=True)
def play_turn(game, env):
    order = game.order
    open_turn(game, env)
    checkpoint(game, env)
    n_order = seat_order(game, game.g[FIRST], order)
    resources_phase(game, env, order, n_order)
    checkpoint(game, env)
    for i in range(n_order):
        p = order[i]
        if not game.pl[p, ALIVE]:
            continue
        start_player_turn(game, env, p)
        movement_phase(game, env, p)
        checkpoint(game, env)
        if game.pl[p, ALIVE]:
            actions_phase(game, env, p)
            checkpoint(game, env)
        if game_decided(game, env):
            break
    game.g[ACTIVE] = NO
    end_of_turn_missions(game, env)
    checkpoint(game, env)


@njit(cache=True)
def play(game, env, n_players, key, game_id, record, check):
    """Play one whole game (NYK-S, T, E). Returns 0, or an invariant code in check mode. The
    forward model (sim.nyk.forward) plays with the very same pieces, a turn at a time."""
    begin_game_late(game, env, n_players, key, game_id, record, check)
    while True:
        begin_turn(game)
        play_turn_late(game, env)
        code = end_turn_late(game, env)
        if code > 0:
            return code
        if code == 0:
            break
    end_game_late(game, env)
    return 0


@njit(cache=True)
def begin_game(game, env, n_players, key, game_id, record, check):
    game.g[RECORD] = record
    game.g[CHECK] = check
    setup(game, env, n_players, key, game_id)
    record_fortunes(game, 0)


@njit(cache=True)
def begin_turn(game):
    game.g[TURN] += 1
    log(game, EV_TURN, game.g[TURN])


@njit(cache=True)
def end_turn(game, env):
    """After a turn: -1 to play another, 0 when the game ends, an invariant code in check mode."""
    record_fortunes(game, game.g[TURN])
    if game.g[CHECK]:
        broken = game.g[BROKEN] if game.g[BROKEN] else invariants(game, env)
        if broken:
            return broken
    if game_decided(game, env):
        return 0
    if game.g[END_REVEALED] and game.g[TURN] >= game.g[LAST_TURN]:
        return 0
    if game.g[TURN] >= MAX_TURNS:
        game.g[CAP_HIT] = 1
        return 0
    return -1


@njit(cache=True)
def end_game(game, env):
    game.g[TURNS_PLAYED] = game.g[TURN]
    final_ranking(game, env)
    game.g[GAME_OVER] = 1


@njit(cache=True)
def game_decided(game, env):
    """Ruling `end.last_standing` (NYK-A5): the game ends at once when one player is left (or
    the survivor plays on to the end card); with nobody left it ends anyway."""
    alive = alive_players(game)
    return alive == 0 or (alive == 1 and env.rp[P_LAST_STANDING] == 1)


@njit(cache=True)
def record_fortunes(game, turn):
    for p in range(game.g[N_PLAYERS]):
        game.fortune[turn, p] = game.pl[p, MONEY]


# The pieces above, compiled once when the engine is imported and called by symbol
# (sim.shared.late) from every driver of a game: `play`, the forward model, and through it the
# searches and their labelling loops, which would each compile the whole rulebook again.
_GAME, _ENV, _INT, _KEY = record(GAME_DTYPE), record(ENV_DTYPE), types.int64, types.uint64[::1]
begin_game_late = late(begin_game, (_GAME, _ENV, _INT, _KEY, _INT, _INT, _INT))
play_turn_late = late(play_turn, (_GAME, _ENV))
end_turn_late = late(end_turn, (_GAME, _ENV))
end_game_late = late(end_game, (_GAME, _ENV))
