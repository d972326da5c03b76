"""Strength per CPU second (sim.league.strength, `mobsim strategies strength`): the win share and
its interval, the CPU accounting, the command line."""

import json
import math

import numpy as np
import pytest
from click.testing import CliRunner

from sim.cli import main
from sim.league import match
from sim.league import strength as strength_mod
from sim.league.strength import Strength, strength


def test_the_interval_is_the_wilson_score_interval_in_closed_form():
    s = Strength("a", "b", 4, 200, 70, 12.0)
    z, n, p = 1.959963984540054, 200, 70 / 200
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    assert s.interval == pytest.approx((centre - half, centre + half))
    row = s.row()
    assert row["win_share"] == 0.35 and row["fair"] == 0.25 and row["cpu_s_per_game"] == 0.06
    assert row["above_fair"] and not row["below_fair"]
    assert Strength("a", "b", 4, 200, 0, 1.0).interval == (0.0, pytest.approx(0.0188, abs=1e-4))


def test_a_preset_against_itself_wins_its_fair_share_and_the_wins_are_the_matchs():
    games = 1200
    s = strength("balanced", games=games, seed=3, against="balanced", workers=1)
    # fair by symmetry: the 95% interval would miss it on 1 seed in 20 (each change of the games
    # draws anew), so the test reads 3.29 standard errors (1 in 1,000)
    assert abs(s.share - 0.25) <= 3.29 * (0.25 * 0.75 / games) ** 0.5
    m = match(["balanced"] * 4, games=games, seed=3, workers=1)
    assert s.wins == m.wins[0] and s.games == games and s.cpu_seconds > 0


def test_the_cpu_is_the_sum_over_blocks_without_the_warm_up(monkeypatch):
    """A fake engine whose every game costs one CPU second on a fake clock: the measured CPU is
    exactly one second a game, the unmeasured warm-up game left out, whatever the blocks."""
    clock = [0.0]
    played = []

    class Fake:
        def play_block(self, chosen, players, rules, seed, first_id, n):
            return self.game_wins(chosen, players, rules, seed, first_id, n).sum(axis=0)

        def game_wins(self, chosen, players, rules, seed, first_id, n):
            clock[0] += n
            played.append(n)
            wins = np.zeros((n, len(chosen)), dtype=np.int64)
            wins[0, 0] = first_id % 2
            return wins

    monkeypatch.setattr(strength_mod, "knobs", lambda game: Fake())
    monkeypatch.setattr(strength_mod.time, "process_time", lambda: clock[0])
    monkeypatch.setattr(strength_mod, "_warmed", set())
    monkeypatch.setattr(strength_mod, "match_tasks", lambda lineups, games, seed, rules, first_id: (
        [(tuple(lineups[0]), 4, rules, seed, start, min(3, games - start)) for start in range(0, games, 3)], []))
    s = strength("tuned", games=10, seed=0, workers=1)
    assert s.cpu_seconds == 10 and s.cpu_per_game == 1.0
    assert played == [1, 3, 3, 3, 1]  # one warm-up game, then the blocks
    assert s.wins == 2  # blocks starting at ids 3 and 9


def test_cli_strength_json_and_errors():
    runner = CliRunner()
    result = runner.invoke(main, ["strategies", "strength", "balanced", "--against", "random", "--games", "200",
                                  "--seed", "1", "--workers", "1", "--json"])
    assert result.exit_code == 0, result.output
    row = json.loads(result.output)
    assert row["strategy"] == "balanced" and row["against"] == "random" and row["games"] == 200
    assert row["above_fair"] and row["low"] <= row["win_share"] <= row["high"] and row["cpu_s_per_game"] > 0
    text = runner.invoke(main, ["strategies", "strength", "balanced", "--against", "random", "--games", "50",
                                "--players", "3", "--workers", "1"])
    assert text.exit_code == 0 and "against 2 x random" in text.output and "fair 33.3%" in text.output
    bad = runner.invoke(main, ["strategies", "strength", "nobody", "--games", "10"])
    assert bad.exit_code == 2 and "nobody" in bad.output


def test_the_paired_difference_is_the_mean_of_game_by_game_differences():
    from sim.league.strength import PairedStrength

    one = Strength("a", "r", 4, 6, 3, 6.0, (1, 1, 0, 1, 0, 0))
    other = Strength("b", "r", 4, 6, 2, 60.0, (1, 0, 0, 0, 1, 0))
    row = PairedStrength(one, other).row()
    d = np.array([0, 1, 0, 1, -1, 0])
    half = 1.959963984540054 * d.std(ddof=1) / math.sqrt(6)
    assert row["difference"] == pytest.approx(d.mean()) and row["games"] == 6
    assert (row["low"], row["high"]) == pytest.approx((d.mean() - half, d.mean() + half))
    assert row["cpu_ratio"] == pytest.approx(0.1)


def test_cli_versus_plays_both_on_the_same_games_and_ag_measures_against_its_strongest():
    runner = CliRunner()
    result = runner.invoke(main, ["strategies", "strength", "balanced", "--versus", "simple", "--against", "random",
                                  "--games", "60", "--seed", "2", "--workers", "1", "--json"])
    assert result.exit_code == 0, result.output
    row = json.loads(result.output)
    one, other = strength("balanced", games=60, seed=2, against="random", workers=1), \
        strength("simple", games=60, seed=2, against="random", workers=1)
    assert row["one"]["wins"] == one.wins and row["other"]["wins"] == other.wins
    assert row["difference"] == pytest.approx((one.wins - other.wins) / 60)
    ag = runner.invoke(main, ["strategies", "strength", "balanced", "--game", "ag", "--games", "8", "--workers", "1"])
    assert ag.exit_code == 0, ag.output
    assert "against 3 x warlord" in ag.output


# --- exploitability (`strategies strength --exploit`) ---------------------------------------------

def test_the_rung_is_called_an_equilibrium_only_within_two_points_of_fair():
    from sim.league.strength import exploit_label

    assert exploit_label(0.019, -0.02, 0.06, "s").startswith("equilibrium")
    assert exploit_label(-0.02, -0.06, 0.02, "s").startswith("equilibrium")
    assert exploit_label(0.021, -0.01, 0.05, "s") == "exploitable by 2.1 points [-1.0, +5.0] (s)"
    assert exploit_label(-0.05, -0.09, -0.01, "s").startswith("not exploited by s")


def test_pig_exploitability_matches_the_exact_shares_of_the_known_answer():
    """Pig's known answer (Neller & Presser): `optimal` is the two-player equilibrium, so the
    exploiter (`optimal` itself) gains exactly nothing against it, and gains against `hold10`
    exactly what the exact chain computes; the measured gaps' intervals hold both."""
    import strategies
    from sim.league.strength import exploitability
    from sim.pig import exact, tables

    optimal = tables.read(strategies.table_file(strategies.load("optimal", "pig")), {"goal": 100, "die.faces": 6})
    against_hold10 = exact.share(optimal, exact.hold_at(10, 100)) - 0.5
    for rung, truth in (("optimal", 0.0), ("hold10", against_hold10)):
        row = exploitability(rung, games=480, seed=1, players=2, workers=1, game="pig").row()
        assert row["searcher"] == "optimal" and row["games"] == 480 and row["fair"] == 0.5
        assert row["exploit_low"] <= truth <= row["exploit_high"], (rung, truth, row)
    assert against_hold10 > 0.1 and row["label"].startswith("exploitable by")


def test_cli_exploit_reads_each_rung_in_json_and_refuses_a_bad_exploiter():
    runner = CliRunner()
    result = runner.invoke(main, ["strategies", "strength", "hold20,random", "--exploit", "--exploit-games", "60",
                                  "--game", "pig", "--seed", "2", "--workers", "1", "--json"])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.output.splitlines()]
    assert [r["rung"] for r in rows] == ["hold20", "random"] and all(r["games"] == 60 for r in rows)
    assert rows[1]["exploitability"] == pytest.approx(rows[1]["win_share"] - 0.5) and rows[1]["equilibrium"] is False
    bad = runner.invoke(main, ["strategies", "strength", "hold20", "--exploit", "--exploiter", "nobody",
                               "--game", "pig"])
    assert bad.exit_code == 2 and "--exploiter" in bad.output
