"""Expert iteration for New York Kings: the search labels decisions, a fast player learns them.

The apprentice is the heuristic player (`param` family, strategies.nyk.policy); the expert is
the Sequential Halving search with the apprentice as its rollout and the leaf model at its
leaves (sim.search.nyk). `label` plays games of the apprentice against itself; at every
decision of one seat a game (more than one option, any kind) the expert decides what it would
take, and the game goes on with the apprentice's own option, so the labelled states are the
ones the apprentice meets (as in DAgger, Ross et al. 2011, and expert iteration, Anthony,
Tian & Barber 2017). `agreement` replays the same games and asks each candidate knob vector
what it would take at every labelled decision: a candidate agreeing with the expert more often
is a better imitation, and the cross-entropy method over the knobs (sim.league.distill) keeps
the best. Nothing is stored but the labels: the games are replayed from their seed.
"""

import numpy as np
from numba import njit

from sim.nyk.forward import HALTED, OVER, apply_choice, start
from sim.nyk.state import DECISIONS as G_DECISIONS, FW_KIND, FW_NOPTS, FW_POLICY, FW_SEAT, MAX_SEATS
from sim.search.halving import decision_key
from sim.search.nyk import default_option, halving
from sim.nyk.chapters.base import choose_late as policy_choice

# a label row: game (index into the ids), the decision's kind, its options, the apprentice's
# option, the expert's option
(L_GAME, L_KIND, L_OPTIONS, L_OWN, L_EXPERT) = range(5)
N_L = 5


@njit(cache=True)
def halt_seat(snap, work, env, n_players, key, game_id, seat, kinds):
    """Start game `game_id` with only `seat` halting, at the decision kinds `kinds` (a mask)."""
    masks = np.zeros(MAX_SEATS, dtype=np.int64)
    masks[seat] = kinds
    return start(snap, work, env, n_players, key, game_id, 0, np.int64(1) << np.int64(seat), masks)


@njit(cache=True)
def label(snap, work, env, senv, base, it_snap, it_work, n_players, key, game_ids, seats, kinds, budget, guard,
          horizon, leaf, labels):
    """Play each game of `game_ids` (the apprentice, env, in every seat); at each decision of
    seats[i] of the kinds in mask `kinds`, write a label row (the expert: `halving` with
    `budget` playouts, `guard`, `horizon`, `leaf`) and take the apprentice's option. Returns the
    rows written, or -1 if the engine failed or `labels` is full."""
    row = 0
    for i in range(game_ids.shape[0]):
        seat = seats[i]
        r = halt_seat(snap, work, env, n_players, key, game_ids[i], seat, kinds)
        while r == HALTED:
            if row >= labels.shape[0] or work.fw[FW_SEAT] != seat:
                return -1
            dkey = decision_key(key, game_ids[i], work.g[G_DECISIONS], seat)
            labels[row, L_GAME] = i
            labels[row, L_KIND] = work.fw[FW_KIND]
            labels[row, L_OPTIONS] = work.fw[FW_NOPTS]
            labels[row, L_OWN] = default_option(work, env, seat)
            labels[row, L_EXPERT], _ = halving(snap, work, env, senv, base, it_snap, it_work, seat, budget, kinds,
                                               False, False, dkey, guard, horizon, leaf, 0)
            row += 1
            r = apply_choice(snap, work, env, FW_POLICY)
        if r != OVER:
            return -1
    return row


@njit(cache=True)
def agreement(snap, work, env, n_players, key, game_ids, seats, kinds, labels, candidates, picks):
    """Replay the labelled games; at label row j each candidate knob row c of `candidates` picks
    an option for the seat (its policy coins left as they were): picks[c, j]. The apprentice
    (env) plays every decision. Returns the rows replayed, or -1 if the replay does not meet the
    labelled decisions (other games, rules or apprentice than `label` played)."""
    own = np.empty(env.params.shape[1])  # the apprentice's knobs of the labelled seat, put back after each ask
    row = 0
    for i in range(game_ids.shape[0]):
        seat = seats[i]
        own[:] = env.params[seat]
        r = halt_seat(snap, work, env, n_players, key, game_ids[i], seat, kinds)
        while r == HALTED:
            if row >= labels.shape[0] or labels[row, L_GAME] != i or labels[row, L_OPTIONS] != work.fw[FW_NOPTS]:
                return -1
            saved = work.rng.copy()
            for c in range(candidates.shape[0]):
                env.params[seat, :candidates.shape[1]] = candidates[c]   # the knobs (the weights' slot stays)
                picks[c, row] = policy_choice(work, env, seat, work.fw_opts, work.fw[FW_NOPTS], work.fw_ctx)
                work.rng[:] = saved
            env.params[seat, :] = own
            row += 1
            r = apply_choice(snap, work, env, FW_POLICY)
        if r != OVER:
            return -1
    return row
