"""`mobsim compare` and `headline.compare`: a run against itself, two rulesets on one seed (paired),
two seeds (independent), the written report, and refusals."""

import json
import shutil

import pytest
from click.testing import CliRunner

import sim
from sim.analysis.headline import compare, game_values, paired_difference
from sim.cli import main
from sim.runner import store

GAMES = 600
LINEUP = "simple,random,simple,random"


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("compare")

    def play(name, seed, scale):
        return sim.run(players=4, strategies=LINEUP, games=GAMES, seed=seed, workers=1, out=root / name,
                       overrides={"missions.reward_scale": scale})

    return {"low": play("low", 5, 0.5), "high": play("high", 5, 2.0), "other_seed": play("seed6", 6, 0.5)}


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_a_run_against_itself_differs_by_nothing(runs):
    table = compare(runs["low"], runs["low"])
    assert table["paired"].all()
    assert (table["diff"] == 0).all() and (table["lo"] == 0).all() and (table["hi"] == 0).all()
    result = invoke("compare", runs["low"].path, runs["low"].path)
    assert result.exit_code == 0, result.output
    assert "paired game by game" in result.stdout
    assert not any(line.rstrip().endswith("*") for line in result.stdout.splitlines())  # no interval excludes 0


def test_richer_missions_raise_fortunes_paired(runs):
    """NYK-C4: missions.reward_scale 2.0 against 0.5 on the same seed: the paired interval of the
    mean fortune lies above 0 (every game played with the same dice)."""
    table = compare(runs["low"], runs["high"])
    assert table["paired"].all()
    fortune = table.loc["mean_fortune"]
    assert fortune["diff"] > 0 and fortune["lo"] > 0
    assert fortune["a"] == pytest.approx(runs["low"].seats["fortune"].mean())
    direct = paired_difference(game_values(runs["low"].games, runs["low"].seats),
                               game_values(runs["high"].games, runs["high"].seats))
    assert (fortune["lo"], fortune["hi"]) == pytest.approx((direct.loc["mean_fortune", "lo"],
                                                           direct.loc["mean_fortune", "hi"]))
    # pairing: narrower than treating the same two runs as independent samples
    unpaired = compare(runs["other_seed"], runs["high"]).loc["mean_fortune"]
    assert not compare(runs["other_seed"], runs["high"])["paired"].any()
    assert fortune["hi"] - fortune["lo"] < unpaired["hi"] - unpaired["lo"]


def test_compare_command_prints_and_writes(runs, tmp_path):
    out = tmp_path / "cmp"
    result = invoke("compare", runs["low"].path, runs["high"].path, "--out", out)
    assert result.exit_code == 0, result.output
    line = next(row for row in result.stdout.splitlines() if row.startswith("mean_fortune"))
    assert line.rstrip().endswith("*")  # the interval excludes 0
    assert "missions.reward_scale=2.0" in result.stdout
    assert (out / "index.html").exists() and (out / "tables" / "compare.csv").exists()
    assert (out / "figures" / "differences.png").stat().st_size > 5000
    parsed = json.loads(invoke("compare", runs["low"].path, runs["high"].path, "--json").stdout)
    assert parsed["paired"] is True
    row = next(m for m in parsed["metrics"] if m["metric"] == "mean_fortune")
    assert row["lo"] > 0


def test_compare_refuses_bad_runs(runs, tmp_path):
    result = invoke("compare", runs["low"].path, tmp_path / "nothing")
    assert result.exit_code == 2 and result.stderr.startswith("mobsim: error:") and "RUN_B" in result.stderr
    assert result.stderr.count("\n") == 1
    other = tmp_path / "other-game"
    shutil.copytree(runs["low"].path, other)
    manifest = json.loads((other / "manifest.json").read_text())
    manifest["game"] = "ag"
    store.write_manifest(other, manifest)  # sealed again, as a run of another game
    result = invoke("compare", runs["low"].path, other)
    assert result.exit_code == 2 and "different games" in result.stderr


def test_compare_with_luck_measures_each_run_and_a_run_against_itself_changes_nothing(runs):
    """#35 in `mobsim compare`: each source's winner-change share in both runs and B - A; a run
    against itself redraws the same luck on the same games, so every difference is exactly 0, and
    two rulesets on one seed are paired game by game."""
    same = invoke("compare", runs["low"].path, runs["low"].path, "--luck", 12, "--json")
    assert same.exit_code == 0, same.output
    rows = json.loads(same.stdout)["luck"]
    assert "all luck (baseline)" in {r["source"] for r in rows} and len(rows) >= 5
    assert all(r["diff"] == 0 and r["games"] == 12 and r["p_change_a"] == r["p_change_b"] for r in rows)
    changed = invoke("compare", runs["low"].path, runs["high"].path, "--luck", 12)
    assert changed.exit_code == 0, changed.output
    assert "luck: the share of games whose winner changes" in changed.stdout and "paired game by game" in changed.stdout
    bad = invoke("compare", runs["low"].path, runs["high"].path, "--luck", -1)
    assert bad.exit_code != 0 and "--luck" in bad.output
