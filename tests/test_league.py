"""Tournaments: matches reproducible for any number of workers, the ladder, the tuning loop."""

import json

import pytest
from click.testing import CliRunner

import strategies
from sim.cli import main
from sim.league import head_to_head, ladder, match, tune
from strategies.nyk import params as knobs


def test_a_match_is_the_same_for_any_number_of_workers():
    lineup = ["balanced", "random", "runner", "random"]
    one = match(lineup, games=2400, seed=3, workers=1)
    two = match(lineup, games=2400, seed=3, workers=2)
    assert one == two and sum(one.wins) >= one.games


def test_the_heuristic_player_beats_random_players():
    row = head_to_head("balanced", "random", games=300, seed=1, workers=1)
    assert row["beats"] and row["win_rate"] > 0.5


def test_the_ladder_orders_random_below_balanced():
    table = ladder(["random", "balanced"], games=300, seed=2, workers=1)
    (row,) = table.to_dict("records")
    assert row["lower"] == "random" and row["higher"] == "balanced"
    assert row["ordered"] and row["low"] > 0
    assert 2 * (row["higher_win_rate"] + row["lower_win_rate"]) >= 1  # every game has a winner


def test_the_ladder_by_steps_plays_only_neighbouring_rungs():
    steps = ladder(["random", "simple", "balanced"], games=100, seed=2, workers=1, pairs="steps")
    assert [(r["lower"], r["higher"]) for r in steps.to_dict("records")] == [("random", "simple"),
                                                                             ("simple", "balanced")]
    every = ladder(["random", "simple", "balanced"], games=100, seed=2, workers=1)
    assert len(every) == 3
    with pytest.raises(ValueError, match="pairs = 'some'"):
        ladder(["random", "simple"], games=100, pairs="some")


def test_taking_a_mechanic_away_is_priced_against_the_fair_share():
    from sim.league import mechanic_values

    table = mechanic_values("balanced", ["no-provoke", "min-bid"], games=200, seed=3, workers=1)
    assert list(table.columns[:3]) == ["restriction", "base", "games"]
    for row in table.to_dict("records"):
        assert row["worth"] == pytest.approx(0.25 - row["win_rate"])
        assert row["worth_low"] <= row["worth"] <= row["worth_high"]


def test_a_small_tuning_run_writes_a_loadable_preset_with_provenance(tmp_path):
    result = tune(seed=4, generations=2, population=3, elite=1, games=30, final_games=60,
                  opponents=("random", "simple"), workers=1)
    assert set(result.params) == set(knobs.NAMES)
    for p in knobs.PARAMS:
        assert p.lo <= result.params[p.name] <= p.hi
    assert [row["opponent"] for row in result.final] == ["random", "simple"]
    assert result.provenance["games_spent"] == 2 * 3 * 2 * 30 + 2 * 60
    path = tmp_path / "t.toml"
    path.write_text(result.toml())
    loaded = strategies.load(str(path))
    assert loaded.family == "param" and loaded.provenance["seed"] == 4
    assert loaded.params == tuple(result.params.values())  # saved exactly as measured
    again = tune(seed=4, generations=2, population=3, elite=1, games=30, final_games=60,
                 opponents=("random", "simple"), workers=1)
    assert again.params == result.params  # one seed, one result


def test_the_shipped_tuned_preset_records_how_it_was_made():
    tuned = strategies.load("tuned")
    for key in ("seed", "games_spent", "ruleset_fingerprint", "opponents"):
        assert key in tuned.provenance


def test_cli_lists_presets_and_rejects_bad_arguments():
    runner = CliRunner()
    out = runner.invoke(main, ["strategies", "list"])
    assert out.exit_code == 0 and "enforcer" in out.output and "no-provoke" in out.output
    bad = runner.invoke(main, ["strategies", "ladder", "--rungs", "random,genius"])
    assert bad.exit_code == 2 and "unknown strategy 'genius'" in bad.output
    bad = runner.invoke(main, ["strategies", "tune", "--population", "2", "--elite", "3"])
    assert bad.exit_code == 2 and "elite" in bad.output


def test_cli_ladder_json(tmp_path):
    out = CliRunner().invoke(main, ["strategies", "ladder", "--rungs", "random,simple", "--games", "40",
                                    "--workers", "1", "--json"])
    assert out.exit_code == 0, out.output
    row = json.loads(out.output.splitlines()[0])
    assert row["lower"] == "random" and row["games"] == 40


def test_cli_ladder_takes_a_mixture_rung_as_the_verdict_does():
    out = CliRunner().invoke(main, ["strategies", "ladder", "--rungs", "simple,meta:equilibrium", "--games", "40",
                                    "--workers", "1", "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.output.splitlines()[0])["higher"] == "meta:equilibrium"
    bad = CliRunner().invoke(main, ["strategies", "ladder", "--rungs", "simple,meta:nosuch", "--games", "40"])
    assert bad.exit_code == 2 and "--rungs" in bad.output and "nosuch" in bad.output


def test_the_ladder_of_american_gangsters_is_its_own_and_ordered_at_the_bottom():
    """--game ag: the game's ladder by default (its description), AG's presets, simple above random."""
    out = CliRunner().invoke(main, ["strategies", "ladder", "--game", "ag", "--games", "300", "--pairs", "steps",
                                    "--workers", "1", "--json"])
    assert out.exit_code == 0, out.output
    rows = [json.loads(line) for line in out.output.splitlines()]
    assert [(r["lower"], r["higher"]) for r in rows] == [("random", "simple"), ("simple", "balanced"),
                                                         ("balanced", "warlord")]
    assert rows[0]["ordered"]
    bad = CliRunner().invoke(main, ["strategies", "ladder", "--game", "ag", "--rungs", "random,runner"])
    assert bad.exit_code == 2 and "unknown strategy 'runner'" in bad.output


def test_the_ladder_floor_stays_under_the_ceiling_and_tracks_the_share():
    from sim.league.ladder import head_to_head_share

    share, lo, hi = head_to_head_share(3960, 40, 4000)  # a 99% head-to-head share
    assert share == pytest.approx(0.99) and lo < 0.99 < hi <= 1.0
    # mapped onto the per-seat difference of a two-against-two game: inside +-50 points
    scale = 4000 / (4000 * 2)
    assert -0.5 <= scale * (2 * lo - 1) < scale * (2 * hi - 1) <= 0.5
    # the Wilson interval of 99% in 4,000 games is about 0.6 points wide on the share
    assert hi - lo == pytest.approx(0.0063, abs=0.001)
