"""Balance tables: Wilson intervals against their closed form, win rates against direct counts."""

import math

import numpy as np
import pandas as pd
import pytest

from sim.analysis import balance


def test_wilson_interval_matches_the_closed_form():
    k, n, z = 37, 120, balance.Z95
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    low, high = balance.wilson(k, n)
    assert low == pytest.approx(centre - half) and high == pytest.approx(centre + half)
    assert balance.wilson(0, 10)[0] == pytest.approx(0.0, abs=1e-12)  # never below zero


def test_win_rates_count_wins_per_group():
    seats = pd.DataFrame({"strategy": ["a", "b", "a", "b", "a", "b"], "seat": [0, 1, 1, 0, 0, 1],
                          "won": [True, False, False, True, True, False]})
    table = balance.win_rates(seats, "strategy").set_index("strategy")
    assert table.loc["a", "games"] == 3 and table.loc["a", "wins"] == 2
    assert table.loc["b", "win_rate"] == pytest.approx(1 / 3)
    assert (table["low"] <= table["win_rate"]).all() and (table["win_rate"] <= table["high"]).all()


def test_endings_shares_add_up():
    games = pd.DataFrame({"decided_by": ["fortune"] * 8 + ["random"] * 2})
    table = balance.endings(games).set_index("decided_by")
    assert table.loc["fortune", "share"] == pytest.approx(0.8)
    assert np.isclose(table["share"].sum(), 1.0)


def test_demo_report_opens_with_the_simulated_games(tmp_path):
    from click.testing import CliRunner

    from sim.cli import main

    result = CliRunner().invoke(main, ["demo", "--out", str(tmp_path / "r"), "--games", "40"])
    assert result.exit_code == 0, result.output
    text = (tmp_path / "r" / "index.md").read_text()
    assert text.index("Balance study: who wins") < text.index("Exact odds of the dice contests")
    wins = pd.read_csv(tmp_path / "r" / "tables" / "win-rate-by-seat.csv")
    assert wins["games"].sum() == 160 and wins["wins"].sum() >= 40  # 40 games x 4 seats
    assert (tmp_path / "r" / "figures" / "win-rates.png").stat().st_size > 1000
