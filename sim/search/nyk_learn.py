"""The search labels the learned player's own states (New York Kings), with every option's features.

`label` plays games of the apprentice (the learned family, its weights in env.learned) against
itself; at every decision of one seat a game with more than one option, the expert (Sequential
Halving with the apprentice as rollout, sim.search.nyk.halving_counts) decides, and the game goes
on with the apprentice's own option, so the states labelled are the ones the apprentice reaches
(DAgger, Ross, Gordon & Bagnell 2011; expert iteration, Anthony, Tian & Barber 2017). A label is
the decision (its game, kind, options, the heuristic's pick, the expert's pick, where its option
rows start), and one row per option: its features (strategies.nyk.learned) and the playouts the
halving gave it (its visit count).
"""

from numba import njit

from sim.nyk.chapters.base import choose_late as policy_choice
from sim.nyk.decisions import CTX_DECISION
from sim.nyk.forward import HALTED, OVER, apply_choice
from sim.nyk.state import DECISIONS as G_DECISIONS, FW_NOPTS, FW_POLICY, FW_SEAT
from sim.search.halving import confirm_key, confirmed, decision_key
from sim.search.nyk import default_option, halving_counts_late as halving_counts
from sim.search.nyk_distill import halt_seat
from strategies.nyk.learned import features
from strategies.nyk.policy import PARAM

# a decision row: game (index into the ids), kind, options, the heuristic's pick, the expert's
# pick, the first of its option rows
(R_GAME, R_KIND, R_OPTIONS, R_BASE, R_EXPERT, R_FIRST) = range(6)
N_R = 6


@njit(cache=True)
def heuristic_pick(work, env, seat):
    """The heuristic's option at the halted decision (its policy coins left as they were): the
    seat's policy asked by symbol as its base heuristic (the `param` family with the seat's knobs,
    no restriction: the pick the learned family weighs), so this loop links no policy."""
    saved = work.rng.copy()
    kind, restrict = env.kinds[seat], env.restrict[seat]
    env.kinds[seat], env.restrict[seat] = PARAM, 0
    k = policy_choice(work, env, seat, work.fw_opts, work.fw[FW_NOPTS], work.fw_ctx)
    env.kinds[seat], env.restrict[seat] = kind, restrict
    work.rng[:] = saved
    return k


@njit(cache=True)
def label(snap, work, env, senv, base, it_snap, it_work, n_players, key, game_ids, seats, kinds, budget, guard,
          horizon, leaf, confirm, actual, decisions, x, visits):
    """Play each game of `game_ids` (the seats as env holds them: the apprentice in every one, or
    in seats[i] against the opponents seated); at each decision of seats[i] of the kinds in mask
    `kinds`, write a decision row, its options' features (x) and visit counts (visits), and take
    the apprentice's option. `actual`: the search's playouts model every seat as env seats it
    (else the apprentice in every seat). With `confirm`, a departure from the
    apprentice's option is the label only if a second search on other worlds repeats it
    (sim.search.halving.confirmed). Returns (decision rows, option rows),
    (-1, 0) if the engine failed, (-2, 0) if the buffers are full."""
    row, orow = 0, 0
    for i in range(game_ids.shape[0]):
        seat = seats[i]
        r = halt_seat(snap, work, env, n_players, key, game_ids[i], seat, kinds)
        while r == HALTED:
            n = work.fw[FW_NOPTS]
            if work.fw[FW_SEAT] != seat:
                return -1, 0
            if row >= decisions.shape[0] or orow + n > x.shape[0]:
                return -2, 0
            dkey = decision_key(key, game_ids[i], work.g[G_DECISIONS], seat)
            own = heuristic_pick(work, env, seat)
            expert, _, counts = halving_counts(snap, work, env, senv, base, it_snap, it_work, seat, budget, kinds,
                                               actual, False, dkey, guard, horizon, leaf, 0)
            d = default_option(work, env, seat) if confirm else expert   # the rollout's option, asked only to confirm
            if expert != d:
                again, _, counts2 = halving_counts(snap, work, env, senv, base, it_snap, it_work, seat, budget, kinds,
                                                   actual, False, confirm_key(dkey), guard, horizon, leaf, 0)
                expert = confirmed(expert, again, d, counts, counts2)
            decisions[row, R_GAME] = i
            decisions[row, R_KIND] = work.fw_ctx[CTX_DECISION]
            decisions[row, R_OPTIONS] = n
            decisions[row, R_BASE] = own
            decisions[row, R_EXPERT] = expert
            decisions[row, R_FIRST] = orow
            for j in range(n):
                features(work, env, seat, work.fw_opts, n, own, j, x[orow + j])
                visits[orow + j] = counts[j]
            orow += n
            row += 1
            r = apply_choice(snap, work, env, FW_POLICY)
        if r != OVER:
            return -1, 0
    return row, orow
