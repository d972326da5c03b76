"""The meta-game solvers on games whose answers are known (sim.meta.solvers)."""

import itertools
import math

import numpy as np
import pytest

from sim.meta.solvers import (
    PayoffTable,
    alpharank,
    cycles,
    expected_payoffs,
    fixation,
    nash,
    profiles,
    regret,
)


def table_from(players, names, payoff):
    """A heuristic payoff table from payoff(counts, k) for every profile."""
    counts = profiles(len(names), players)
    pay = np.full(counts.shape, np.nan)
    for p, c in enumerate(counts):
        for k in range(len(names)):
            if c[k]:
                pay[p, k] = payoff(c, k)
    return PayoffTable(tuple(names), counts, pay)


def rps():
    """Two-player rock-paper-scissors as win shares: a win 1, a loss 0, a draw 1/2 each."""
    def payoff(c, k):
        if c[k] == 2:
            return 0.5
        other = int(np.nonzero(c * (np.arange(3) != k))[0][0])
        return 1.0 if (k - other) % 3 == 1 else 0.0   # paper (1) beats rock (0), ...
    return table_from(2, ("rock", "paper", "scissors"), payoff)


def test_profile_count_is_the_multiset_count():
    assert len(profiles(7, 4)) == math.comb(10, 4) == 210
    assert (profiles(7, 4).sum(axis=1) == 4).all()


def test_expected_payoff_matches_brute_force_over_ordered_opponents():
    rng = np.random.default_rng(3)
    names = ("a", "b", "c")
    values = {}

    def payoff(c, k):
        return values.setdefault((tuple(c), k), float(rng.random()))

    t = table_from(4, names, payoff)
    x = np.array([0.2, 0.5, 0.3])
    brute = np.zeros(3)
    for k in range(3):
        for others in itertools.product(range(3), repeat=3):
            c = np.bincount(list(others) + [k], minlength=3)
            brute[k] += np.prod(x[list(others)]) * t.payoff(c, k)
    assert np.allclose(expected_payoffs(t, x), brute)


def test_rock_paper_scissors_equilibrium_is_uniform():
    eq = nash(rps())[0]
    assert np.allclose(eq.mixture, 1 / 3, atol=0.01)
    assert eq.regret < 1e-3


def test_a_dominated_strategy_gets_no_weight():
    # b beats a at every table; c is a copy of a
    def payoff(c, k):
        return {0: 0.2, 1: 0.6, 2: 0.2}[k] + 0.01 * c[1]
    t = table_from(3, ("a", "b", "c"), payoff)
    eq = nash(t)[0]
    assert eq.mixture[1] > 0.999
    assert eq.regret < 1e-6
    assert alpharank(t, alpha=20).pi[1] > 0.99


def test_three_player_game_solved_by_hand():
    # A earns 1 only when both others play B; B earns 4 only when both others play A.
    # Against a population playing A with probability x: f_A = (1-x)^2, f_B = 4x^2,
    # equal at x = 1/3, where both earn 4/9.
    def payoff(c, k):
        if k == 0:
            return 1.0 if c[0] == 1 else 0.0
        return 4.0 if c[0] == 2 else 0.0
    t = table_from(3, ("A", "B"), payoff)
    assert np.allclose(expected_payoffs(t, [1 / 3, 2 / 3]), [4 / 9, 4 / 9])
    eq = nash(t)[0]
    assert eq.mixture[0] == pytest.approx(1 / 3, abs=1e-3)
    assert eq.payoff == pytest.approx(4 / 9, abs=1e-3)
    assert regret(t, [0.5, 0.5]) > 0.1  # a mixture off the equilibrium has a regret


def test_alpharank_of_rock_paper_scissors_is_uniform_with_one_cycle():
    ar = alpharank(rps(), alpha=10, m=20)
    assert np.allclose(ar.pi, 1 / 3, atol=1e-9)
    assert cycles(ar.beats()) == [[0, 1, 2]]   # rock, beaten by paper, beaten by scissors, beaten by rock


def test_fixation_probability_closed_forms():
    # neutral drift: 1/m; a constant fitness gap u: (1 - e^-u) / (1 - e^-mu) (Fermi process)
    assert fixation(np.zeros(9), 5.0) == pytest.approx(1 / 10)
    u, m = 0.3, 10
    assert fixation(np.full(m - 1, u), 1.0) == pytest.approx((1 - math.exp(-u)) / (1 - math.exp(-m * u)))
    assert fixation(np.full(49, -1.0), 500.0) == pytest.approx(0.0, abs=1e-300)  # large alpha: no overflow


def test_alpharank_fixation_in_a_game_with_a_constant_gap():
    # strategy 1 always scores 1 more than strategy 0, whoever else sits at the table
    t = table_from(4, ("low", "high"), lambda c, k: float(k))
    ar = alpharank(t, alpha=0.5, m=12)
    assert ar.rho[0, 1] == pytest.approx((1 - math.exp(-0.5)) / (1 - math.exp(-6.0)))
    assert ar.pi[1] > ar.pi[0]
    assert cycles(ar.beats()) == []


def test_a_transitive_game_has_no_cycle():
    t = table_from(2, ("a", "b", "c"), lambda c, k: k - 0.1 * c @ np.arange(3))
    assert cycles(alpharank(t).beats()) == []
    assert alpharank(t).ranking(t.strategies)[0] == "c"


def test_a_table_with_a_missing_payoff_is_refused():
    counts = profiles(2, 2)
    with pytest.raises(ValueError, match="no payoff"):
        PayoffTable(("a", "b"), counts, np.full(counts.shape, np.nan))


def transitive(n: int, gap: float = 0.3):
    """A strictly ordered n-strategy 2-player game listed weakest-last: strategy i beats j > i."""
    def payoff(c, k):
        if c[k] == 2:
            return 0.5
        other = int(np.nonzero(c * (np.arange(n) != k))[0][0])
        return 0.5 + gap * np.sign(other - k)
    return table_from(2, tuple(f"s{i}" for i in range(n)), payoff)


def test_alpharank_log_pi_matches_the_linear_solve_where_that_is_exact():
    from sim.meta.solvers import _stationary

    ar = alpharank(rps(), alpha=2.0, m=10)
    t = transitive(4, 0.1)
    ar2 = alpharank(t, alpha=1.0, m=10)
    for a in (ar, ar2):
        eta = 1 / (len(a.pi) - 1)
        C = eta * a.rho
        C[np.diag_indices(len(C))] = 1 - C.sum(axis=1)
        assert np.allclose(a.pi, _stationary(C), rtol=1e-10, atol=1e-14)


def test_alpharank_ranks_masses_far_below_rounding_by_log_pi():
    # reversed strength order: strategy i beats j > i, so the best is s0 and the ranking must be
    # s0, s1, ..., whatever the masses (the linear solve clips everything below ~1e-16 to noise)
    names = [f"s{i}" for i in range(5)]
    t = transitive(5, 0.45)
    ar = alpharank(t, alpha=100.0, m=30)
    assert ar.log_pi[-1] < np.log(1e-28)             # masses far below double rounding ...
    assert ar.ranking(names) == names                # ... still ordered
    assert ar.unranked(names) == []
    # stationarity holds in log space: log sum_i pi_i C_ij = log pi_j, to relative 1e-9
    n = len(names)
    log_c = np.log(1 / (n - 1)) + ar.log_rho
    log_c[np.diag_indices(n)] = -np.inf
    with np.errstate(divide="ignore"):   # a state left for sure stays with probability 0
        log_c[np.diag_indices(n)] = np.log1p(-np.exp(log_c).sum(axis=1))
    inflow = np.logaddexp.reduce(ar.log_pi[:, None] + log_c, axis=0)
    assert np.allclose(inflow, ar.log_pi, rtol=1e-9)


def test_alpharank_two_strategies_ratio_is_the_closed_form():
    from sim.meta.solvers import invasion_fitness, log_fixation

    t = transitive(2, 0.4)
    ar = alpharank(t, alpha=500.0, m=20)
    f_r, f_s = invasion_fitness(t, 0, 1, 20)
    g_r, g_s = invasion_fitness(t, 1, 0, 20)
    closed = log_fixation(f_r - f_s, 500.0) - log_fixation(g_r - g_s, 500.0)   # log pi1 - log pi0
    assert ar.log_pi[1] - ar.log_pi[0] == pytest.approx(closed, rel=1e-12)
    assert ar.unranked(t.strategies) == []


def test_alpharank_marks_ties_as_unranked():
    ar = alpharank(rps(), alpha=10, m=20)
    assert sorted(ar.unranked(("rock", "paper", "scissors"))) == ["paper", "rock", "scissors"]


def _replicator_by_numpy(table, starts, steps):
    """The replicator's steps written with expected_payoffs (the reference of the jitted steps)."""
    spread = np.nanmax(table.payoffs) - np.nanmin(table.payoffs)
    eta = 1.0 / max(spread, 1e-12)
    X, half = np.array(starts, dtype=np.float64), steps // 2
    avg = np.zeros_like(X)
    for t in range(steps):
        f = expected_payoffs(table, X)
        X = X * np.exp(np.clip(eta * (f - np.sum(X * f, axis=1, keepdims=True)), -50, 50))
        X = np.maximum(X / X.sum(axis=1, keepdims=True), 1e-300)
        if t >= half:
            avg += X
    return X, avg / (steps - half)


@pytest.mark.parametrize("n, players", [(3, 2), (4, 3), (5, 4), (6, 5)])
def test_the_jitted_replicator_is_the_dynamics_written_with_expected_payoffs(n, players):
    from sim.meta.solvers import replicator, starting_points

    rng = np.random.default_rng(n * 10 + players)
    counts = profiles(n, players)
    table = PayoffTable(tuple(f"s{k}" for k in range(n)), counts,
                        np.where(counts > 0, rng.random(counts.shape), np.nan))
    starts = starting_points(n, 4, seed=1)
    starts[0, 0] = 0.0   # a start without a strategy: weighed as 1e-300, as expected_payoffs does
    starts[0] /= starts[0].sum()
    ends, avgs = replicator(table, starts, 400)
    want_ends, want_avgs = _replicator_by_numpy(table, starts, 400)
    np.testing.assert_allclose(ends, want_ends, rtol=1e-9, atol=1e-15)
    np.testing.assert_allclose(avgs, want_avgs, rtol=1e-9, atol=1e-15)
