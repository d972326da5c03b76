"""The American Gangsters engine: the turn and the game, built from the rules' chapters.

The rules themselves are jitted step functions on a game record in `sim.ag.chapters`, one module
per chapter of sim/rules/ag (each module's docstring lists its rule ids):

    base         the decision interface `ask`, event log, dice faces, bags, renown, the FBI track
    setup        setting up (AG-C)
    wounds       a boss wounded, a boss's death (AG-N2, AG-K4)
    titles       majorities and the titles' powers (AG-B, AG-T5)
    turn         the renown trade at the start of a turn, the clean-up at its end (AG-T1, AG-T6)
    events       the event card and its effects (AG-V)
    placement    location cards and the pieces placed on them (AG-T2, AG-T3)
    hospital     the hospital and recruitment (AG-H)
    dice         a location's roll, re-rolls, FBI jokers (AG-T4)
    shootout     the shoot-out (AG-N)
    negotiation  the bargaining over a location's gains (AG-N)
    resolution   each location settled (AG-T4)
    end          who has won, the final ranking (AG-G, AG-E)
    invariants   what every legal state keeps (check mode)

This module keeps the turn loop: one turn (AG-T1..T6) and a whole game. Every choice goes through
`ask` with the legal options listed by the engine, so a policy can never make an illegal move.
"""

from numba import njit, types

from sim.ag.chapters.base import fill_order, log
from sim.ag.chapters.end import all_won, final_ranking, informer_reveals, winners_now
from sim.ag.chapters.events import event_phase
from sim.ag.chapters.hospital import hospital
from sim.ag.chapters.invariants import invariants
from sim.ag.chapters.placement import placement, reveal_locations
from sim.ag.chapters.resolution import resolve_location
from sim.ag.chapters.setup import setup
from sim.ag.chapters.titles import gambling_baron, majorities
from sim.ag.chapters.turn import end_of_turn, renown_trades
from sim.ag.env import ENV_DTYPE, P_TURN_CAP
from sim.ag.events import EV_TURN
from sim.ag.readers import score
from sim.shared.late import late, record
from sim.ag.state import (
    BROKEN, CAP_HIT, CHECK, END_ALL_WON, END_CAP, END_INFORMER, GAME_DTYPE, GAME_OVER, GODFATHER, INFORMER, NO,
    N_PLAYERS, RECORD, SHOW_N, TURN, TURNS_PLAYED,
)

# --- the turn and the game (AG-T, G, E) --------------------------------------------------------------------


@njit(cache=True)
def record_scores(game, env, turn):
    for p in range(game.g[N_PLAYERS]):
        game.fortune[turn, p] = score(game, env, p)


@njit(cache=True)
def checkpoint(game, env):
    """Check mode: the invariants after every phase; the first broken one is kept."""
    if game.g[CHECK] and game.g[BROKEN] == 0:
        game.g[BROKEN] = invariants(game, env)


@njit(cache=True)
def resolve_locations(game, env, opts, ctx):
    """AG-T4: every shown card in order; stops, True, as soon as the informer reveals itself
    (AG-G2: the cards after it are not played)."""
    for s in range(1, game.g[SHOW_N] + 1):
        resolve_location(game, env, s, opts, ctx)
        checkpoint(game, env)
        if informer_reveals(game, env):
            return True
    return False


@njit(cache=True)
def play_turn(game, env, opts, ctx):
    """One turn (AG-T1..T6); returns (ended_by, mask of possible winners) or (NO, 0). The
    informer's two conditions are checked after every step (AG-G2): met, it reveals itself and
    the turn stops there; the mafia families' Parrain is checked at the end of the turn (AG-G1)."""
    g = game.g
    informer = END_INFORMER, 1 << max(g[INFORMER], 0)
    fill_order(game)
    log(g, game.events, EV_TURN, g[TURN], g[GODFATHER])
    gambling_baron(game, env, opts, ctx)
    renown_trades(game, env, opts, ctx)
    checkpoint(game, env)
    if informer_reveals(game, env):
        return informer
    event_phase(game, env, opts, ctx)
    checkpoint(game, env)
    if informer_reveals(game, env):
        return informer
    reveal_locations(game, env)
    placement(game, env, opts, ctx)
    checkpoint(game, env)
    hospital(game, env, opts, ctx)
    if informer_reveals(game, env) or resolve_locations(game, env, opts, ctx):
        return informer
    majorities(game, env)
    ended_by, mask = winners_now(game, env)
    end_of_turn(game)
    checkpoint(game, env)
    return ended_by, mask


@njit(cache=True)
def start(game, env, n_players, key, game_id, record, check):
    """The game before its first turn (AG-C): the batch and the forward model both begin here."""
    game.g[RECORD] = record
    game.g[CHECK] = check
    setup(game, env, n_players, key, game_id)
    record_scores(game, env, 0)


@njit(cache=True)
def next_turn(game, env):
    """The next turn, played whole: (ended_by, mask of possible winners) or (NO, 0)."""
    game.g[TURN] += 1
    # plain C arrays (`[:]`): the rules compiled for the types a test's call from Python passes
    # (tests/ag/ag_scenario.py), so stepping one rule loads it from the cache, as the policy is
    return play_turn(game, env, game.opts[:], game.ctx[:])


@njit(cache=True)
def after_turn(game, env, ended_by, mask):
    """Between turns: the scores, the check, the end tests (AG-G, E1, the turn cap). Returns
    (invariant code or 0, ended_by, mask): ended_by NO while the game goes on."""
    n_players = game.g[N_PLAYERS]
    record_scores(game, env, game.g[TURN])
    if game.g[CHECK]:
        broken = game.g[BROKEN] if game.g[BROKEN] else invariants(game, env)
        if broken:
            return broken, ended_by, mask
    if ended_by >= 0:
        return 0, ended_by, mask
    if all_won(game):
        return 0, END_ALL_WON, (1 << n_players) - 1
    if game.g[TURN] >= min(env.rp[P_TURN_CAP], game.fortune.shape[0] - 1):
        game.g[CAP_HIT] = 1
        return 0, END_CAP, (1 << n_players) - 1
    return 0, NO, 0


@njit(cache=True)
def finish(game, env, ended_by, mask):
    """The end: the final ranking (AG-E1)."""
    game.g[TURNS_PLAYED] = game.g[TURN]
    final_ranking(game, env, ended_by, mask)
    game.g[GAME_OVER] = 1


@njit(cache=True)
def play(game, env, n_players, key, game_id, record, check):
    """Play one whole game (AG-C, T, G, E). Returns 0, or an invariant code in check mode."""
    start_late(game, env, n_players, key, game_id, record, check)
    while True:
        ended_by, mask = next_turn_late(game, env)
        broken, ended_by, mask = after_turn_late(game, env, ended_by, mask)
        if broken:
            return broken
        if ended_by >= 0:
            break
    finish_late(game, env, ended_by, mask)
    return 0


# The pieces above, compiled once when the engine is imported and called by symbol
# (sim.shared.late) from every driver of a game: `play`, the forward model, and through it the
# searches and their labelling loops, which would each compile the whole rulebook again.
_GAME, _ENV, _INT, _KEY = record(GAME_DTYPE), record(ENV_DTYPE), types.int64, types.uint64[::1]
start_late = late(start, (_GAME, _ENV, _INT, _KEY, _INT, _INT, _INT))
next_turn_late = late(next_turn, (_GAME, _ENV))
after_turn_late = late(after_turn, (_GAME, _ENV, _INT, _INT))
finish_late = late(finish, (_GAME, _ENV, _INT, _INT))
