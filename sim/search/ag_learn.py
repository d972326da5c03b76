"""The search labels the learned player's own states (American Gangsters), with every option's features.

`label` plays games of the apprentice (the learned family, its weights in env.learned) against
itself; at every decision of one seat a game with more than one option, the expert (Sequential
Halving with the apprentice as its rollout, sim.search.ag.halving_counts) decides, and the game
goes on with the apprentice's own option, so the states labelled are the ones the apprentice
reaches (DAgger, Ross, Gordon & Bagnell 2011; expert iteration, Anthony, Tian & Barber 2017). A
label is the decision (its game, kind, options, the heuristic's pick, the expert's pick, where its
option rows start: the R_* columns sim.league.learn reads), and one row per option: its features
(strategies.ag.learned) and the playouts the halving gave it (its visit count).
"""

import numpy as np
from numba import njit

from sim.ag.chapters.base import choose_late as policy_choice
from sim.ag.decisions import CTX_DECISION
from sim.ag.forward import OVER, advance, new_state, push
from sim.ag.script import HALTED
from sim.ag.state import DECISIONS as G_DECISIONS, FW_OPTS_N, FW_POLICY, FW_SEAT
from sim.search.ag import halving_counts_late as halving_counts
from sim.search.halving import confirm_key, confirmed, decision_key
from strategies.ag.learned import N_VALUES, features
from strategies.ag.policy import PARAMETRIC, option_values

# a decision row: game (index into the ids), kind, options, the heuristic's pick, the expert's
# pick, the first of its option rows (the same columns as sim.search.nyk_learn)
(R_GAME, R_KIND, R_OPTIONS, R_BASE, R_EXPERT, R_FIRST) = range(6)
N_R = 6


@njit(cache=True)
def heuristic_pick(work, env, seat):
    """The heuristic's (`parametric`, the preset's knobs) option at the halted decision (its
    policy coins left as they were)."""
    saved = work.rng.copy()
    kind = env.kinds[seat]
    env.kinds[seat] = PARAMETRIC   # the seat's policy asked by symbol as its heuristic: no policy linked here
    k = policy_choice(work, env, seat, work.opts, work.g[FW_OPTS_N], work.ctx)
    env.kinds[seat] = kind
    work.rng[:] = saved
    return k


@njit(cache=True)
def label(recs, env_arr, senv_arr, n_players, key, game_ids, seats, budget, guard, confirm, actual, decisions, x,
          visits):
    """Play each game of `game_ids` (the seats as env_arr[0] holds them: the apprentice in every
    one, or in seats[i] against the opponents seated); at each decision of seats[i] write a
    decision row, its options' features (x) and visit counts (visits), and take the apprentice's
    option. `actual`: the search's playouts model every seat as env seats it (else the apprentice
    in every seat). With `confirm`, a departure from the apprentice's option is the
    label only if a second search on other worlds repeats it (sim.search.halving.confirmed).
    `recs`: five scratch game records (sim.search.ag.play_searched).
    Returns (decision rows, option rows), (-1, 0) if the engine failed, (-2, 0) if the buffers
    are full."""
    snap, work, base, it_snap, it_work = recs[0:1], recs[1:2], recs[2:3], recs[3:4], recs[4:5]
    env = env_arr[0]
    row, orow = 0, 0
    for i in range(game_ids.shape[0]):
        seat = seats[i]
        status = new_state(snap, work, env_arr, n_players, key, game_ids[i], 0, 1 << seat)
        while status == HALTED:
            w = work[0]
            n = w.g[FW_OPTS_N]
            if w.g[FW_SEAT] != seat:
                return -1, 0
            if row >= decisions.shape[0] or orow + n > x.shape[0]:
                return -2, 0
            own = heuristic_pick(w, env, seat)
            kind = w.ctx[CTX_DECISION]
            vals = np.empty((n, N_VALUES))
            option_values(w, env, seat, kind, w.opts, n, w.ctx, vals)
            for j in range(n):
                features(w, env, seat, kind, w.opts, n, w.ctx, own, j, vals, x[orow + j])
            dkey = decision_key(key, game_ids[i], w.g[G_DECISIONS], seat)
            expert, d, _, counts = halving_counts(snap, work, env_arr, senv_arr, base, it_snap, it_work, seat,
                                                  budget, actual, False, dkey, guard)
            if confirm and expert != d:
                again, _, _, counts2 = halving_counts(snap, work, env_arr, senv_arr, base, it_snap, it_work, seat,
                                                      budget, actual, False, confirm_key(dkey), guard)
                expert = confirmed(expert, again, d, counts, counts2)
            decisions[row, R_GAME] = i
            decisions[row, R_KIND] = kind
            decisions[row, R_OPTIONS] = n
            decisions[row, R_BASE] = own
            decisions[row, R_EXPERT] = expert
            decisions[row, R_FIRST] = orow
            for j in range(n):
                visits[orow + j] = counts[j]
            orow += n
            row += 1
            if not push(snap, FW_POLICY):
                return -1, 0
            status = advance(snap, work, env_arr)
        if status != OVER:
            return -1, 0
    return row, orow
