"""An American Gangsters player that searches: Sequential Halving at its decisions over
determinized playouts of the forward model (sim.ag.forward), jitted end to end.

At each decision of a searched kind with more than one option (sim.search.halving holds the
method and its anchors):

- every world re-deals what the seat cannot see from its view (sim.ag.redeal: the worth of every
  bag, the other families' profiles, the piles' order, bids not yet revealed, every future roll
  and the other families' coins), keyed by the world's number, so every option is played in the
  same worlds (common random numbers: the comparison is paired);
- from the re-deal on, every seat plays by the seat's rollout preset (`opponents = "rollout"`:
  the searching family does not know its rivals' strategies) or by the game's actual strategies
  (`"actual"`); the part of the turn before the decision replays as it was (env.swap, applied by
  sim.ag.script at the determinization);
- the playout's value is the seat's result: 1 for a win, 1/k for a win shared by k, else 0 (or,
  with `reward = "rank"`, (n - rank) / (n - 1)).

The rollout preset's own option is taken through its policy (FW_POLICY), so a search that never
finds a better option plays the very game the batch plays. Only the halving root exists here;
a preset with `root = "uct"` is refused with a one-line error.
"""

import numpy as np
from numba import njit, types

from sim.ag.batch import summarise_game, summarise_seats
from sim.ag.decisions import CTX_DECISION
from sim.ag.forward import OUTGROWN, OVER, advance, determinize_state, new_state, push
from sim.ag.script import HALTED
from sim.ag.env import ENV_DTYPE, N_POLICY_PARAMS, make_env, seat_lineup
from sim.ag.state import (
    DECISIONS as G_DECISIONS, FW_OPTS_N, FW_POLICY, FW_SEAT, FW_STOP, GAME_DTYPE, MAX_SEATS, N_PLAYERS, RANK,
    TURNS_PLAYED,
)
from sim.search.halving import (
    N_ST, ST_COUNT, decision_key, halving_choice, halving_rounds, keep_better_half, option_hash, tally_world, world_key,
    worlds_this_round,
)
from sim.shared.search import (
    ROOT_HALVING, SK_ACTUAL, SK_GUARD, SK_HORIZON, SK_ITERATIONS, SK_KINDS, SK_ON, SK_RANK, SK_ROOT,
)
from sim.ag.chapters.base import choose_late as policy_choice
from sim.shared.late import late, record


@njit(cache=True)
def seat_value(game, seat, by_rank):
    """The seat's result: 1 for a win, 1/k for a win shared by k, else 0; or, `by_rank`,
    (n - rank) / (n - 1): 1 first, 0 last."""
    n = game.g[N_PLAYERS]
    if by_rank:
        return (n - game.pl[seat, RANK]) / max(n - 1, 1)
    if game.pl[seat, RANK] != 1:
        return 0.0
    k = 0
    for q in range(n):
        k += game.pl[q, RANK] == 1
    return 1.0 / k


@njit(cache=True)
def real_policies(senv, env):
    """The playouts' env back to the game's own policies (a playout's re-deal swapped them)."""
    senv.kinds[:] = env.kinds
    senv.params[:, :] = env.params


@njit(cache=True)
def prepare_root(snap_arr, base_arr, env, senv, seat, actual):
    """`base`: the root (the game halted at seat's decision) set to halt there again only;
    `senv`: the playouts' env, swapping every seat to the seat's rollout preset unless `actual`."""
    base_arr[0] = snap_arr[0]
    base_arr[0].g[FW_STOP] = np.int64(1) << np.int64(seat)
    senv.swap = 0 if actual else 1
    for q in range(MAX_SEATS):
        senv.swap_kinds[q] = env.kinds[seat]
        senv.swap_params[q, :] = env.params[seat]


@njit(cache=True)
def default_option(work, env, seat):
    """The option the seat's rollout preset takes at the pending decision (its coins left as
    they were: the real decision is taken afterwards)."""
    saved = work.rng.copy()
    k = policy_choice(work, env, seat, work.opts, work.g[FW_OPTS_N], work.ctx)
    work.rng[:] = saved
    return k


@njit(cache=True)
def playout_value(base_arr, it_snap, it_work, senv_arr, env, seat, w_key, h, by_rank):
    """The seat's result in world `w_key` when it takes the root option named `h` and every
    later decision is the playout policies'; NaN if that world does not offer the option."""
    senv = senv_arr[0]
    it_snap[0] = base_arr[0]
    real_policies(senv, env)
    if determinize_state(it_snap, it_work, senv_arr, seat, w_key) != HALTED or it_work[0].g[FW_SEAT] != seat:
        return np.nan
    work = it_work[0]
    for j in range(work.g[FW_OPTS_N]):
        if option_hash(work.opts, j) == h:
            push(it_snap, j)
            it_snap[0].g[FW_STOP] = 0
            real_policies(senv, env)
            if advance(it_snap, it_work, senv_arr) != OVER:
                return np.nan
            return seat_value(it_work[0], seat, by_rank)
    return np.nan


@njit(cache=True)
def halving(snap_arr, work_arr, env_arr, senv_arr, base_arr, it_snap, it_work, seat, budget, actual, by_rank,
            key, guard):
    """Sequential Halving over the pending decision's options (sim.search.halving). Returns (the
    option chosen, the rollout preset's own option, playouts played)."""
    best, d, spent, _ = halving_counts_late(snap_arr, work_arr, env_arr, senv_arr, base_arr, it_snap, it_work, seat,
                                            budget, actual, by_rank, key, guard)
    return best, d, spent


@njit(cache=True)
def halving_counts(snap_arr, work_arr, env_arr, senv_arr, base_arr, it_snap, it_work, seat, budget, actual,
                   by_rank, key, guard):
    """`halving`, and the playouts each option got (the halving's visit counts: the learned
    player's labels, sim.search.ag_learn)."""
    work, env = work_arr[0], env_arr[0]
    n = work.g[FW_OPTS_N]
    prepare_root(snap_arr, base_arr, env, senv_arr[0], seat, actual)
    d = default_option(work, env, seat)
    h = np.empty(n, dtype=np.int64)
    for j in range(n):
        h[j] = option_hash(work.opts, j)
    alive = np.ones(n, dtype=np.bool_)
    stats = np.zeros((N_ST, n))
    value = np.empty(n)
    rounds = halving_rounds(n)
    w, spent, left = 0, 0, budget
    for r in range(rounds):
        for _ in range(worlds_this_round(alive, rounds, r, left)):
            w_key = world_key(key, w)
            w += 1
            for j in range(n):
                value[j] = (playout_value(base_arr, it_snap, it_work, senv_arr, env, seat, w_key, h[j], by_rank)
                            if alive[j] else np.nan)
            spent += tally_world(stats, value, alive, d)
        left = max(budget - spent, 0)
        keep_better_half(alive, stats, d)
    return halving_choice(alive, stats, d, guard), d, spent, stats[ST_COUNT].copy()


@njit(cache=True)
def play_searched(recs, env_arr, senv_arr, n_players, key, game_id, knobs, max_searched=1 << 62):
    """One game in which the seats with knobs[p, SK_ON] search their decisions of the kinds in
    knobs[p, SK_KINDS], the others play their policies. `recs`: five scratch game records (the
    game's snap and work, the root and a playout's snap and work). Returns (decisions searched,
    playouts), or (-1, 0) if a turn outgrew the forward script; stops after `max_searched`."""
    snap, work, base, it_snap, it_work = recs[0:1], recs[1:2], recs[2:3], recs[3:4], recs[4:5]
    halt = 0
    for p in range(n_players):
        if knobs[p, SK_ON] != 0:
            halt |= 1 << p
    status = new_state(snap, work, env_arr, n_players, key, game_id, 0, halt)
    searched, spent = 0, 0
    while status == HALTED:
        p = work[0].g[FW_SEAT]
        k = FW_POLICY
        if (np.int64(knobs[p, SK_KINDS]) >> work[0].ctx[CTX_DECISION]) & 1:
            dkey = decision_key(key, game_id, work[0].g[G_DECISIONS], p)
            best, d, done = halving(snap, work, env_arr, senv_arr, base, it_snap, it_work, p,
                                    np.int64(knobs[p, SK_ITERATIONS]), knobs[p, SK_ACTUAL] != 0,
                                    knobs[p, SK_RANK] != 0, dkey, knobs[p, SK_GUARD])
            if best != d:  # the rollout's own option goes through its policy: the batch's very game
                k = best
            searched += 1
            spent += done
        if not push(snap, k):
            return -1, 0
        status = advance(snap, work, env_arr)
        if searched >= max_searched:  # the bench: a fixed number of searched decisions
            return searched, spent
    if status == OUTGROWN:
        return -1, 0
    return searched, spent


@njit(cache=True)
def search_games(recs, env_arr, senv_arr, kinds, lineups, params, knobs, n_players, key, first_id, n,
                 games, seats, turns, record_turns):
    """`sim.ag.batch.play_games` for lineups with search players: the same games and seat rows
    (`knobs`: sim.shared.search rows of the strategies). Returns the playouts, or -1 if a turn
    outgrew the forward script."""
    env = env_arr[0]
    n_lineups = lineups.shape[0]
    seat_knobs = np.zeros((MAX_SEATS, knobs.shape[1]))
    spent = 0
    for i in range(n):
        game_id = first_id + i
        lineup = lineups[game_id % n_lineups]
        seat_lineup(env, lineup, kinds, params, n_players)
        for p in range(n_players):
            seat_knobs[p, :] = knobs[lineup[p]]
        searched, done = play_searched(recs, env_arr, senv_arr, n_players, key, game_id, seat_knobs)
        if searched < 0:
            return -1
        spent += done
        game = recs[1]
        summarise_game(game, env, games[i])
        summarise_seats(game, env, lineup, seats[i])
        if record_turns:
            for t in range(turns.shape[1]):
                for p in range(n_players):
                    turns[i, t, p] = game.fortune[t, p] if t <= game.g[TURNS_PLAYED] else -1
    return spent


# --- the Python face ------------------------------------------------------------------------------

def check_roots(knobs) -> None:
    """ValueError (one line) for a searching seat asking for a root this game does not have."""
    if ((knobs[:, SK_ON] != 0) & (knobs[:, SK_ROOT] != ROOT_HALVING)).any():
        raise ValueError('American Gangsters searches by Sequential Halving only: set root = "halving" '
                         'in the preset\'s [search] table')
    if ((knobs[:, SK_ON] != 0) & (knobs[:, SK_HORIZON] >= 0)).any():
        raise ValueError("American Gangsters has no leaf model: its playouts run to the end; set "
                         "horizon = -1 in the preset's [search] table")


def play_many(seed: int, n_games: int, players: int, lineup, ruleset, first_id: int = 0,
              check: bool = False, record_turns: bool = False):
    """`sim.ag.game.play_many` for a lineup with search players."""
    from sim import rng
    from sim.ag import batch, state
    from sim.ag.game import check_players, with_tables
    from sim.shared.play import empty_tables, label_slots

    if check:
        raise ValueError("games with a search player are played without check mode")
    check_players(ruleset, players)
    check_roots(lineup.search)
    env = with_tables(make_env(ruleset, np.zeros(MAX_SEATS, np.int64), np.zeros((MAX_SEATS, N_POLICY_PARAMS))),
                      lineup)   # a learned seat's (or rollout's) weights
    env_arr = np.array([env]).view(np.recarray)
    senv_arr = env_arr.copy()
    games, seats, turns = empty_tables(batch, state, n_games, players, record_turns)
    recs = np.zeros(5, state.GAME_DTYPE).view(np.recarray)
    spent = search_games(recs, env_arr, senv_arr, lineup.kinds, lineup.seatings_for(seed, first_id, n_games),
                         lineup.params, lineup.search, players, rng.run_key(seed), first_id, n_games,
                         games, seats, turns, record_turns)
    if spent < 0:
        raise RuntimeError(f"a turn needed more than {state.N_FW_SCRIPT} decisions or {state.N_FW_DET} "
                           "determinizations: raise N_FW_SCRIPT / N_FW_DET in sim/ag/state.py")
    label_slots(batch, lineup, seats)
    return games, seats, turns


def choose(fw, seat: int, iterations: int = 200, key: int = 0, actual: bool = False, by_rank: bool = False,
           guard: float = 2.0) -> int:
    """The option Sequential Halving (`iterations` playouts in all) picks for `seat` at the
    pending decision of a forward state (sim.ag.forward.Forward): playouts by the seat's own
    policy in every seat (by each seat's own with `actual`)."""
    from sim.ag import state

    d = fw.decision()
    if d is None or d.seat != seat:
        raise ValueError(f"seat {seat} is not at a decision here: search where fw.decision().seat == {seat}")
    if iterations < 1:
        raise ValueError(f"iterations = {iterations}: give at least 1")
    recs = np.zeros(3, state.GAME_DTYPE).view(np.recarray)
    senv = fw.env.copy()
    k, _, _ = halving(fw.snap, fw.work, fw.env, senv, recs[0:1], recs[1:2], recs[2:3], seat, iterations,
                      bool(actual), bool(by_rank), int(key) & (2**62 - 1), float(guard))
    return int(k)


# Sequential Halving, compiled once and called by symbol (sim.shared.late) from the search's game
# loop and from the learned player's labelling loop, which would each compile it again.
_GAMES, _ENVS, _I = types.Array(record(GAME_DTYPE), 1, "C"), types.Array(record(ENV_DTYPE), 1, "C"), types.int64
halving_counts_late = late(halving_counts, (_GAMES, _GAMES, _ENVS, _ENVS, _GAMES, _GAMES, _GAMES, _I, _I, types.boolean,
                                            types.boolean, _I, types.float64))
