"""The pairing gain (sim.analysis.pairing) against closed forms on synthetic paired runs."""

from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from sim.analysis.pairing import gain_text, influence_values, pairing_gain, with_gain

STRATEGIES = ["a", "b", "c", "d"]


def near(row, truth):
    """The gain within 4 of its standard errors (from its 95% interval) of the truth: several
    metrics are checked per test, so a plain 95% interval would miss one of them too often."""
    se = (row["hi"] - row["lo"]) / 3.92
    return abs(row["gain"] - truth) <= 4 * se


def run_of(turns, winner_seat):
    """A synthetic 4-player run: games with their length, one strategy per seat (rotated), and
    the seat that won each game."""
    n = len(turns)
    ids = np.arange(n)
    games = pd.DataFrame({"game_id": ids, "turns": turns})
    seat = np.tile(np.arange(4), n)
    gid = np.repeat(ids, 4)
    strategy = np.array(STRATEGIES)[(seat + gid) % 4]
    won = seat == np.repeat(winner_seat, 4)
    seats = pd.DataFrame({"game_id": gid, "seat": seat, "strategy": strategy, "won": won,
                          "fortune": 1000.0 * won})
    return SimpleNamespace(games=games, seats=seats, manifest={"seed": 1})


def correlated_runs(rho, n=20_000, seed=3):
    gen = np.random.default_rng(seed)
    common = gen.standard_normal(n)
    own_a, own_b = gen.standard_normal(n), gen.standard_normal(n)
    turns_a = 20 + np.sqrt(rho) * common + np.sqrt(1 - rho) * own_a
    turns_b = 20 + np.sqrt(rho) * common + np.sqrt(1 - rho) * own_b
    # the winner is the same seat with probability `rho`, else drawn afresh
    win_a = gen.integers(0, 4, n)
    win_b = np.where(gen.random(n) < rho, win_a, gen.integers(0, 4, n))
    return run_of(turns_a, win_a), run_of(turns_b, win_b)


@pytest.mark.parametrize("rho", [0.0, 0.5, 0.75])
def test_gain_of_a_mean_is_one_over_one_minus_the_correlation(rho):
    # var(a) = var(b) = 1 and corr(a, b) = rho: var(b - a) = 2 (1 - rho), the gain 1 / (1 - rho)
    gains = pairing_gain(*correlated_runs(rho))
    row = gains.loc["turns"]
    assert near(row, 1 / (1 - rho))
    assert row["hi"] - row["lo"] < 0.15 / (1 - rho)
    assert row["n"] == 20_000


@pytest.mark.parametrize("rho", [0.0, 0.6])
def test_gain_of_a_win_rate_matches_its_closed_form(rho):
    # a seat's win indicator w (p = 1/4) is kept with probability rho, else redrawn: the same
    # winner keeps w, so cov(w_a, w_b) = rho var(w) and the gain is again 1 / (1 - rho)
    gains = pairing_gain(*correlated_runs(rho, seed=5))
    for metric in ["winrate:a", "winrate:d", "seat_winrate:0", "seat_winrate:3"]:
        assert near(gains.loc[metric], 1 / (1 - rho)), metric


def test_gain_by_brute_force_over_the_games():
    # the gain is the unpaired over the paired variance of the per-game difference
    a, b = correlated_runs(0.4, n=4000, seed=9)
    wa = a.seats[a.seats["strategy"] == "b"].set_index("game_id")["won"].astype(float)
    wb = b.seats[b.seats["strategy"] == "b"].set_index("game_id")["won"].astype(float)
    brute = (wa.var() + wb.var()) / (wb - wa).var()
    assert pairing_gain(a, b).loc["winrate:b", "gain"] == pytest.approx(brute, rel=1e-9)


def test_identical_runs_pair_perfectly_and_independent_runs_not_at_all():
    a, b = correlated_runs(0.5, n=5000, seed=11)
    same = pairing_gain(a, a)
    assert np.isinf(same.loc["turns", "gain"]) and np.isinf(same.loc["winrate:a", "gain"])
    shifted = SimpleNamespace(games=b.games.assign(game_id=(b.games["game_id"] + 1) % 5000),
                              seats=b.seats.assign(game_id=(b.seats["game_id"] + 1) % 5000),
                              manifest=b.manifest)
    apart = pairing_gain(a, shifted)  # game i against game i - 1: nothing in common
    for metric in ["turns", "winrate:a", "seat_gap", "strategy_gap"]:
        assert near(apart.loc[metric], 1.0), metric
    assert np.isnan(apart.loc["mean_fortune", "gain"])  # the same in every game: nothing to pair


def test_spreads_use_the_extreme_groups_of_each_run():
    a, _ = correlated_runs(0.5, n=2000, seed=2)
    z = influence_values(a.games, a.seats)
    rates = a.seats.groupby("seat")["won"].mean()
    high, low = rates.idxmax(), rates.idxmin()
    assert np.allclose(z["seat_gap"], z[f"seat_winrate:{high}"] - z[f"seat_winrate:{low}"])
    assert np.allclose(z["balance"], -z["seat_gap"])
    # influence values average to 0 and a win rate's are (won - rate) per game here
    assert abs(z["winrate:a"].mean()) < 1e-12
    won_a = a.seats[a.seats["strategy"] == "a"].set_index("game_id")["won"].astype(float)
    assert np.allclose(z["winrate:a"], won_a - won_a.mean())


def test_with_gain_and_text():
    a, b = correlated_runs(0.75, n=3000, seed=4)
    gains = pairing_gain(a, b)
    table = pd.DataFrame({"diff": [0.1, 0.2]}, index=pd.Index(["turns", "not_measured"], name="metric"))
    out = with_gain(table, gains)
    assert out.loc["turns", "pairing_gain"] == gains.loc["turns", "gain"]
    assert np.isnan(out.loc["not_measured", "pairing_gain"])
    assert gain_text(2.414, 2.3, 2.53) == "x2.41 [2.30, 2.53]"
    assert gain_text(float("nan"), 1, 2) == "-" and gain_text(float("inf"), 1, 2) == "inf"
