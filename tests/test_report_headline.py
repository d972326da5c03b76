"""Headline metrics against the same numbers computed another way (groupby, least squares)."""

import numpy as np
import pandas as pd
import pytest

from sim.analysis import headline as H


def synthetic_run(n_games=600, players=4, seed=3, strategies=("a", "b", "a", "c")):
    """Tables shaped like a run's: one winner per game (seat 0 favoured), rotated strategies."""
    rng = np.random.default_rng(seed)
    games, seats = [], []
    for g in range(n_games):
        first = rng.multinomial(15, [1 / players] * players)
        weights = np.array([1.4] + [1.0] * (players - 1)) * (1 + 0.05 * first)
        winner = rng.choice(players, p=weights / weights.sum())
        fortunes = rng.integers(0, 30, players) * 1000
        fortunes[winner] = fortunes.max() + 1000 * rng.integers(0, 5)
        turns = int(rng.integers(8, 20))
        decided = rng.choice(["fortune", "random", "last_standing", "henchmen"], p=[.85, .05, .05, .05])
        games.append({"game_id": g, "n_players": players, "turns": turns, "winner_seat": winner,
                      "decided_by": decided, "cap_hit": bool(rng.random() < 0.1),
                      "lead_changes": int(rng.integers(0, 5)),
                      "winner_deficit_mid": int(rng.integers(-10, 6)) * 1000,
                      "margin": int(rng.integers(0, 20)) * 1000})
        for seat in range(players):
            seats.append({"game_id": g, "seat": seat, "strategy": strategies[(seat + g) % players],
                          "fortune": int(fortunes[seat]), "rank": 1 if seat == winner else 2,
                          "won": seat == winner, "alive": bool(rng.random() < 0.9),
                          "times_first": int(first[seat])})
    games = pd.DataFrame(games)
    games["decided_by"] = games["decided_by"].astype("category")
    seats = pd.DataFrame(seats)
    seats["strategy"] = pd.Categorical(seats["strategy"], categories=list(dict.fromkeys(strategies)))
    return games, seats


@pytest.fixture(scope="module")
def tables():
    return synthetic_run()


def test_headline_values_equal_direct_counts(tables):
    games, seats = tables
    h = H.headline(games, seats)
    assert list(h.columns) == ["value", "lo", "hi", "n"]
    by_seat = seats.groupby("seat")["won"].mean()
    # gaps and maxima are the plug-in minus a positive bias correction (sim.analysis.extremes)
    raw_gap = by_seat.max() - by_seat.min()
    assert 0 < raw_gap - h.loc["seat_gap", "value"] < 0.05
    assert h.loc["balance", "value"] == pytest.approx(1 - h.loc["seat_gap", "value"])
    assert h.loc["seat0_advantage", "value"] == pytest.approx(by_seat[0] - by_seat.mean())
    assert h.loc["turns", "value"] == pytest.approx(games["turns"].mean())
    assert h.loc["cap_rate", "value"] == pytest.approx(games["cap_hit"].mean())
    assert h.loc["completion", "value"] == pytest.approx(1 - games["cap_hit"].mean())
    assert h.loc["comeback_rate", "value"] == pytest.approx((games["winner_deficit_mid"] > 0).mean())
    plain = games["decided_by"].isin(["fortune", "last_standing"])
    assert h.loc["tiebreak_rate", "value"] == pytest.approx(1 - plain.mean())
    assert h.loc["mean_fortune", "value"] == pytest.approx(seats["fortune"].mean())
    assert h.loc["affranchi_deaths", "value"] == pytest.approx((~seats["alive"]).sum() / len(games))
    by_strategy = seats.groupby("strategy", observed=True)["won"].mean()
    for name, rate in by_strategy.items():
        assert h.loc[f"winrate:{name}", "value"] == pytest.approx(rate)
    assert 0 < by_strategy.max() - h.loc["winrate_max", "value"] < 0.05
    assert 0 < by_strategy.max() - by_strategy.min() - h.loc["strategy_gap", "value"] < 0.05
    assert h.loc["winrate:a", "n"] == 2 * len(games) and h.loc["turns", "n"] == len(games)
    assert ((h["lo"] <= h["value"] + 1e-12) & (h["value"] <= h["hi"] + 1e-12)).all()


def test_seat0_advantage_has_a_standard_error_clustered_by_game(tables):
    games, seats = tables
    h = H.estimates(games, seats)
    assert h.loc["seat0_advantage", "lo"] > 0  # the synthetic games favour seat 0
    # brute force: the per-game contribution of seat 0's win minus the table's mean win
    per_game = seats.pivot(index="game_id", columns="seat", values="won").astype(float)
    d = per_game[0] - per_game.mean(axis=1)
    assert h.loc["seat0_advantage", "value"] == pytest.approx(d.mean())
    assert h.loc["seat0_advantage", "se"] == pytest.approx(d.std(ddof=1) / np.sqrt(len(d)), rel=1e-9)


def test_a_strategy_with_two_seats_per_game_gets_a_clustered_standard_error(tables):
    games, seats = tables
    h = H.estimates(games, seats)
    mine = seats[seats["strategy"] == "a"]
    per_game = mine.groupby("game_id")["won"].agg(["sum", "size"])
    p = per_game["sum"].sum() / per_game["size"].sum()
    resid = (per_game["sum"] - p * per_game["size"]) / per_game["size"].sum()
    g = len(per_game)
    assert h.loc["winrate:a", "se"] == pytest.approx(np.sqrt((resid ** 2).sum() * g / (g - 1)))
    # one winner per game: a's two seats never both win, so the clustered error is below the
    # independent-seats one
    assert h.loc["winrate:a", "se"] < np.sqrt(p * (1 - p) / len(mine))


def test_intervals_are_wilson_and_normal(tables):
    games, seats = tables
    h = H.headline(games, seats)
    n = len(games)
    k = int(games["cap_hit"].sum())
    p = k / n
    z = 1.959963984540054
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    assert (h.loc["cap_rate", "lo"], h.loc["cap_rate", "hi"]) == pytest.approx((centre - half, centre + half))
    se = games["margin"].std(ddof=1) / np.sqrt(n)
    assert h.loc["margin", "hi"] - h.loc["margin", "value"] == pytest.approx(z * se)


def test_bootstrap_is_deterministic_and_sized_like_the_standard_error(tables):
    games, seats = tables
    first, again = H.headline(games, seats), H.headline(games, seats)
    pd.testing.assert_frame_equal(first, again)
    # for a smooth statistic (one strategy's win rate as a ratio) the bootstrap interval is
    # close to the normal one
    est = H.estimates(games, seats)
    rate = seats[seats["strategy"] == "c"]["won"].to_numpy(float)
    assert est.loc["winrate:c", "se"] == pytest.approx(rate.std() / np.sqrt(len(rate)), rel=0.1)


def test_game_values_are_per_game_rows(tables):
    games, seats = tables
    values = H.game_values(games, seats)
    assert values.index.name == "game_id" and len(values) == len(games)
    g = 17
    mine = seats[seats["game_id"] == g]
    assert values.loc[g, "mean_fortune"] == pytest.approx(mine["fortune"].mean())
    assert values.loc[g, "winrate:a"] == pytest.approx(mine[mine["strategy"] == "a"]["won"].mean())
    assert values["turns"].mean() == pytest.approx(H.headline(games, seats).loc["turns", "value"])


def test_paired_difference_against_direct_differences(tables):
    games, seats = tables
    a = H.game_values(games, seats)
    b = a.copy()
    b["margin"] = b["margin"] + np.arange(len(b)) % 3 * 1000.0  # 0, 1000, 2000, ...
    b = b.drop(index=b.index[:10])  # only common games are paired
    diff = H.paired_difference(a, b)
    d = (b["margin"] - a.loc[b.index, "margin"]).to_numpy()
    assert diff.loc["margin", "diff"] == pytest.approx(d.mean())
    assert diff.loc["margin", "n"] == len(b)
    half = 1.959963984540054 * d.std(ddof=1) / np.sqrt(len(d))
    assert diff.loc["margin", "hi"] - diff.loc["margin", "diff"] == pytest.approx(half)
    assert diff.loc["turns", "diff"] == 0 and diff.loc["turns", "lo"] == diff.loc["turns", "hi"] == 0


class _Run:
    def __init__(self, games, seats, seed=1):
        self.games, self.seats, self.manifest = games, seats, {"seed": seed, "game": "nyk"}


def test_compare_paired_and_independent(tables):
    games, seats = tables
    same = H.compare(_Run(games, seats), _Run(games, seats))
    assert same["paired"].all()
    assert (same["diff"].abs().max(), same["lo"].abs().max(), same["hi"].abs().max()) == (0, 0, 0)
    richer = seats.assign(fortune=seats["fortune"] + 500)
    other = H.compare(_Run(games, seats), _Run(games, richer, seed=2))
    assert not other["paired"].any()
    row = other.loc["mean_fortune"]
    assert row["diff"] == pytest.approx(500) and row["lo"] < 500 < row["hi"]
    se = np.hypot(*(H.estimates(games, s).loc["mean_fortune", "se"] for s in (seats, richer)))
    assert row["hi"] - row["diff"] == pytest.approx(1.959963984540054 * se)
