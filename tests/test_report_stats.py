"""Statistics behind the reports, each against a closed form or a brute-force computation."""

import itertools
import math

import numpy as np
import pytest

from sim.analysis import stats


def test_holm_matches_its_definition():
    p = np.array([0.01, 0.04, 0.03, 0.005, 0.5])
    adjusted = stats.holm(p)
    # brute force: sorted p_(i) times (m - i), made monotone, capped at 1
    order = np.argsort(p)
    expected = np.maximum.accumulate([min(1, (len(p) - i) * p[j]) for i, j in enumerate(order)])
    assert adjusted[order] == pytest.approx(expected)
    assert adjusted[3] == pytest.approx(0.025) and adjusted[4] == 0.5  # last: times 1


def test_games_needed_closed_form():
    # 1.96 + 0.8416 = 2.8016; (2.8016 * 0.5 / 0.01)^2 = 19,622.4
    assert stats.games_needed(0.5, 0.01) == 19_623
    assert math.isnan(stats.games_needed(0.0, 0.01))


def test_two_sided_p():
    assert stats.two_sided_p(1.959963984540054)[0] == pytest.approx(0.05)
    assert stats.two_sided_p(0.0)[0] == pytest.approx(1.0)
    # a difference with no spread at all (a strategy that won every game) is certain, not NaN
    assert stats.two_sided_p([math.inf, -math.inf]).tolist() == [0.0, 0.0]
    assert math.isnan(stats.two_sided_p(math.nan)[0])


def test_holm_keeps_an_infinite_z_significant_and_skips_untested_pairs():
    p = stats.two_sided_p([math.inf, 1.0, math.nan])
    adjusted = stats.holm(p)
    assert adjusted[0] == 0.0 and math.isnan(adjusted[2])
    assert adjusted[1] == pytest.approx(p[1])  # second of two tested (times 1), not of three (times 2)


def test_pairwise_of_a_strategy_that_wins_every_game_is_significant():
    import pandas as pd

    from sim.analysis import fairness

    rows = [{"game_id": g, "seat": s, "strategy": "ab"[s % 2], "won": s % 2 == 0, "rank": 1 + s % 2}
            for g in range(50) for s in range(2)]
    table = fairness.pairwise(pd.DataFrame(rows))
    assert table.loc[0, "p_value"] == 0.0 and bool(table.loc[0, "significant"])


def test_resampled_sums_have_the_bootstrap_mean_and_spread():
    rng = np.random.default_rng(0)
    x = rng.normal(3, 2, size=(500, 1))
    sums = stats.resampled_sums(x, reps=2000, seed=5)
    means = sums[:, 0] / len(x)
    assert means.mean() == pytest.approx(x.mean(), abs=0.02)
    assert means.std() == pytest.approx(x.std() / math.sqrt(len(x)), rel=0.08)
    assert np.array_equal(sums, stats.resampled_sums(x, reps=2000, seed=5))  # seeded


def test_blocks_keep_the_column_sums():
    x = np.arange(30.0).reshape(15, 2)
    b = stats.blocks(x, max_units=4)
    assert b.shape == (4, 2) and b.sum(axis=0) == pytest.approx(x.sum(axis=0))
    assert stats.blocks(x, max_units=100) is x


def test_bradley_terry_solves_the_likelihood_equations():
    wins = np.array([[0, 30, 45], [20, 0, 28], [10, 14, 0]], dtype=float)
    logp = stats.bradley_terry(wins, prior=0.0)
    p = np.exp(logp)
    games = wins + wins.T
    for i in range(3):  # score equation: observed wins = expected wins
        expected = sum(games[i, j] * p[i] / (p[i] + p[j]) for j in range(3) if j != i)
        assert wins[i].sum() == pytest.approx(expected, rel=1e-8)
    assert logp.mean() == pytest.approx(0.0, abs=1e-12)


def test_bradley_terry_recovers_known_strengths():
    strengths = np.array([2.0, 1.0, 0.5])
    rng = np.random.default_rng(1)
    wins = np.zeros((3, 3))
    for i, j in itertools.permutations(range(3), 2):
        wins[i, j] = rng.binomial(20_000, strengths[i] / (strengths[i] + strengths[j]))
    logp = stats.bradley_terry(wins / 2)  # each ordered pair counted twice above
    truth = np.log(strengths) - np.log(strengths).mean()
    assert logp == pytest.approx(truth, abs=0.03)


def test_bradley_terry_fits_many_tables_at_once():
    wins = np.array([[[0, 5], [3, 0]], [[0, 2], [6, 0]]], dtype=float)
    together = stats.bradley_terry(wins)
    for k in range(2):
        assert together[k] == pytest.approx(stats.bradley_terry(wins[k]))
    # two players: p0 / p1 = (w01 + prior) / (w10 + prior)
    assert together[0, 0] - together[0, 1] == pytest.approx(math.log(5.5 / 3.5))


@pytest.mark.parametrize("rows", [1, 7, 2000, 2001, 4500])
def test_resampled_sums_are_the_counts_of_each_resample_drawn_row_by_row(rows):
    """Counts drawn once for a table of this length (cached) or a chunk at a time are the same
    resamples as each resample's draws counted row by row: the same sums, bit for bit."""
    x = np.random.default_rng(rows).random((rows, 3))
    reps = 1000
    chunk = max(1, min(reps, stats.CHUNK_DRAWS // rows))
    rng, want = np.random.default_rng(11), []
    for start in range(0, reps, chunk):
        draws = rng.integers(0, rows, size=(min(chunk, reps - start), rows))
        counts = np.array([np.bincount(draw, minlength=rows) for draw in draws], dtype=float)
        want.append(counts @ x)
    assert np.array_equal(stats.resampled_sums(x, reps, seed=11), np.vstack(want))
    assert np.array_equal(stats.resampled_sums(x, reps, seed=11), np.vstack(want))   # read again
