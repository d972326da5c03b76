"""Parameter sweeps: grid parsing, the paired design (common random numbers), files, CLI."""

import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

import sim
from sim.cli import main
from sim.runner import load
from sim.tuning import TuningError
from sim.tuning.grid import grid_points, is_sweep_text, parse_box, parse_values, split_sets
from sim.tuning.sweeps import sweep

MIXED = "simple,random,simple,random"
SCALES = [0.8, 1.0, 1.25]   # missions.reward_scale (NYK-C4); 1.0 is the current rules
GAMES = 300


# --- grid ---------------------------------------------------------------------------------------

def test_ranges_are_evenly_spaced_and_rounded_to_the_option_step():
    assert parse_values("missions.reward_scale", "0.6:1.4:5") == (0.6, 0.8, 1.0, 1.2, 1.4)
    assert parse_values("provocation.stake", "1000:5000:3") == (1000, 3000, 5000)   # NYK-A4, money
    assert parse_values("move.steps", "0:6:4") == (0, 2, 4, 6)                       # NYK-M1, int
    # money rounds to whole thousands: 1000, 2333.3, 3666.7, 5000 -> 1000, 2000, 4000, 5000
    assert parse_values("provocation.stake", "1000:5000:4") == (1000, 2000, 4000, 5000)


def test_lists_take_any_type_of_option():
    assert parse_values("recruit.min_offer", "1000,2000") == (1000, 2000)            # NYK-A6
    assert parse_values("provocation.tie_pot", "bank,return") == ("bank", "return")  # NYK-A4
    assert parse_values("subway.ignores_police", "true,false") == (True, False)      # NYK-M6


def test_sweep_text_tells_ranges_and_lists_from_single_values():
    assert is_sweep_text("0.6:1.4:9") and is_sweep_text("1000,2000")
    assert not is_sweep_text("3000") and not is_sweep_text("[1000, 0]") and not is_sweep_text("bank")
    swept, fixed = split_sets(["missions.reward_scale=0.6:1.4:3", "provocation.stake=3000",
                               "recruit.min_offer=1000,2000"])
    assert swept == {"missions.reward_scale": (0.6, 1.0, 1.4), "recruit.min_offer": (1000, 2000)}
    assert fixed == {"provocation.stake": 3000}


def test_grid_is_every_combination_the_first_option_slowest():
    points = grid_points({"a": (1, 2), "b": (3, 4, 5)})
    assert len(points) == 6
    assert points[0] == {"a": 1, "b": 3} and points[1] == {"a": 1, "b": 4} and points[-1] == {"a": 2, "b": 5}


@pytest.mark.parametrize("key, text, message", [
    ("missions.reward_scal", "1:2:3", 'did you mean "missions.reward_scale"'),
    ("missions.reward_scale", "0:2:3", "out of range"),
    ("missions.reward_scale", "1:2:1", "at least 2"),
    ("missions.reward_scale", "1:2:2.5", "at least 2"),
    ("missions.reward_scale", "2:1:3", "start must be below the end"),
    ("missions.reward_scale", "a:2:3", "is not a number"),
    ("move.steps", "1:2:5", "use at most 2 points"),
    ("provocation.tie_pot", "0:1:3", "list the values instead"),
    ("provocation.stake", "1500,2000", "whole number of thousands"),
    ("move.steps", "1,1", "lists a value twice"),
    ("move.steps", "1,,2", "empty item"),
])
def test_bad_values_are_one_line_errors(key, text, message):
    with pytest.raises(TuningError, match=message) as err:
        parse_values(key, text)
    assert "\n" not in str(err.value)


def test_boxes_are_checked():
    assert parse_box("provocation.stake=1000:5000") == ("provocation.stake", 1000, 5000)
    for item, message in [("provocation.stake=5000:1000", "below the high end"),
                          ("provocation.stake=1000", "KEY=LO:HI"),
                          ("provocation.tie_pot=0:1", "not a number"),
                          ("missions.reward_scale=0.1:2", "out of range")]:
        with pytest.raises(TuningError, match=message):
            parse_box(item)


# --- a small sweep --------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def swept(tmp_path_factory):
    out = tmp_path_factory.mktemp("sweep")
    table = sweep(players=4, strategies=MIXED, games=GAMES, seed=5,
                  params={"missions.reward_scale": SCALES}, workers=1, out=out)
    return out, table


def _point_runs(out):
    runs = {}
    for manifest in sorted(out.glob("points/*/manifest.json")):
        run = load(manifest.parent)
        runs[run.manifest["ruleset"]["content"]["values"]["missions.reward_scale"]] = run
    return runs


def test_sim_sweep_is_the_sweep():
    assert sim.sweep is sweep


def test_one_row_per_point_with_every_metric_and_its_change(swept):
    _, table = swept
    assert list(table["missions.reward_scale"]) == SCALES
    assert table["grid"].all() and table["baseline"].tolist() == [False, True, False]
    for metric in ("balance", "seat_gap", "turns", "mean_fortune", "winrate:simple", "strategy_gap"):
        for suffix in ("", ".lo", ".hi", ".diff", ".diff_lo", ".diff_hi"):
            assert metric + suffix in table
    base = table[table["baseline"]].iloc[0]
    assert base["mean_fortune.diff"] == 0 and base["mean_fortune.diff_lo"] == 0


def test_raising_mission_rewards_raises_mean_fortune(swept):
    _, table = swept
    fortune = table.set_index("missions.reward_scale")
    assert fortune.loc[0.8, "mean_fortune"] < fortune.loc[1.0, "mean_fortune"] < fortune.loc[1.25, "mean_fortune"]
    assert fortune.loc[0.8, "mean_fortune.diff_hi"] < 0 < fortune.loc[1.25, "mean_fortune.diff_lo"]


def test_every_point_plays_the_same_games_and_the_change_is_paired_by_game(swept):
    out, table = swept
    runs = _point_runs(out)
    assert sorted(runs) == SCALES
    for run in runs.values():
        assert run.manifest["seed"] == 5 and run.manifest["games"] == GAMES
        assert list(run.games["game_id"]) == list(range(GAMES))
    # the change, recomputed by hand from the tables: the mean of per-game differences
    per_game = {s: r.seats.groupby("game_id")["fortune"].mean() for s, r in runs.items()}
    for scale in (0.8, 1.25):
        d = (per_game[scale] - per_game[1.0]).to_numpy(float)
        half = 1.959963984540054 * d.std(ddof=1) / math.sqrt(len(d))
        row = table[table["missions.reward_scale"] == scale].iloc[0]
        assert row["mean_fortune.diff"] == pytest.approx(d.mean())
        assert row["mean_fortune.diff_lo"] == pytest.approx(d.mean() - half)
        assert row["mean_fortune.diff_hi"] == pytest.approx(d.mean() + half)


def test_the_paired_interval_is_narrower_than_the_unpaired_one(swept):
    _, table = swept
    base = table[table["baseline"]].iloc[0]
    for _, row in table[~table["baseline"]].iterrows():
        paired = row["mean_fortune.diff_hi"] - row["mean_fortune.diff_lo"]
        unpaired = 2 * math.hypot((row["mean_fortune.hi"] - row["mean_fortune.lo"]) / 2,
                                  (base["mean_fortune.hi"] - base["mean_fortune.lo"]) / 2)
        assert paired < unpaired / 2


def test_files_table_figures_and_index(swept):
    out, table = swept
    saved = pd.read_parquet(out / "sweep.parquet")
    pd.testing.assert_frame_equal(saved, table, check_like=False)
    assert (out / "figures" / "sweep-missions-reward-scale.png").stat().st_size > 1000
    assert (out / "figures" / "sweep-missions-reward-scale-change.png").is_file()
    index = (out / "index.md").read_text()
    assert "Parameter sweep" in index and "missions.reward_scale=1.25" in index
    assert (out / "index.html").is_file() and (out / "tables" / "changes.csv").is_file()


def test_a_finished_point_is_read_back_not_played_again(swept):
    out, table = swept
    before = {p: p.stat().st_mtime_ns for p in out.glob("points/*/games.parquet/*.parquet")}
    again = sweep(players=4, strategies=MIXED, games=GAMES, seed=5,
                  params={"missions.reward_scale": SCALES}, workers=1, out=out)
    after = {p: p.stat().st_mtime_ns for p in out.glob("points/*/games.parquet/*.parquet")}
    assert before == after
    pd.testing.assert_frame_equal(again, table)


def test_a_baseline_outside_the_grid_gets_its_own_row():
    table = sweep(players=4, strategies=MIXED, games=120, seed=2, workers=1,
                  params={"missions.reward_scale": [0.8, 1.2], "recruit.min_offer": [2000]})
    assert len(table) == 3
    base = table.iloc[0]
    assert not base["grid"] and base["baseline"]
    assert base["missions.reward_scale"] == 1.0 and base["recruit.min_offer"] == 1000
    first = sweep(players=4, strategies=MIXED, games=120, seed=2, workers=1, baseline="first",
                  params={"missions.reward_scale": [0.8, 1.2], "recruit.min_offer": [2000]})
    assert first["baseline"].tolist() == [True, False] and first["grid"].all()
    assert np.isclose(first.loc[1, "mean_fortune.diff"], table.loc[2, "mean_fortune"] - table.loc[1, "mean_fortune"])


def test_sweep_refuses_bad_input_before_playing():
    with pytest.raises(TuningError, match="recruit.min_offer = 20000 is more than recruit.max_offer"):
        sweep(games=10, params={"recruit.min_offer": [1000, 20000]})
    with pytest.raises(TuningError, match="baseline"):
        sweep(games=10, params={"move.steps": [1, 2]}, baseline="middle")
    with pytest.raises(TuningError, match="at least one option"):
        sweep(games=10, params={})
    with pytest.raises(TuningError, match="strategies for 4 players"):
        sweep(games=10, strategies="simple,random", params={"move.steps": [1, 2]})


# --- CLI ------------------------------------------------------------------------------------------

def invoke(*args):
    return CliRunner().invoke(main, list(args))


def test_cli_sweep_end_to_end(tmp_path):
    out = tmp_path / "sw"
    result = invoke("sweep", "--strategies", MIXED, "--games", "100", "--workers", "1", "--seed", "3",
                    "--set", "missions.reward_scale=0.8,1.2", "--set", "provocation.stake=3000",
                    "--out", str(out), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert [row["missions.reward_scale"] for row in data["rows"]] == [1.0, 0.8, 1.2]
    assert data["rows"][0]["baseline"] and (out / "sweep.parquet").is_file()
    text = invoke("sweep", "--strategies", MIXED, "--games", "100", "--workers", "1", "--seed", "3",
                  "--set", "missions.reward_scale=0.8,1.2", "--set", "provocation.stake=3000",
                  "--metric", "turns")
    assert text.exit_code == 0, text.output
    assert "missions.reward_scale=0.8" in text.output and "turns" in text.output
    assert "mean_fortune" not in text.output


@pytest.mark.parametrize("args, message", [
    (["--set", "missions.reward_scal=1:2:3"], 'did you mean "missions.reward_scale"'),
    (["--set", "missions.reward_scale=1:2:1"], "at least 2"),
    (["--set", "provocation.stake=3000"], "nothing to sweep"),
    (["--set", "novalue"], "KEY=VALUE"),
    (["--set", "move.steps=1,2", "--metric", "turn"], 'did you mean "turns"'),
])
def test_cli_sweep_errors_are_one_line(args, message):
    result = invoke("sweep", "--games", "10", *args)
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("mobsim: error: ") and message in lines[0]


# --- a study given again repairs its runs, as `run --resume` does -------------------------------

MOBSIM = Path(sys.executable).with_name("mobsim")


def mobsim(*args) -> subprocess.CompletedProcess:
    return subprocess.run([str(MOBSIM), *map(str, args)], capture_output=True, text=True, timeout=900)


def damage_two_runs(out: Path) -> list[Path]:
    """One point's games part with a byte flipped, another's seats part cut to half its length:
    the two run directories damaged."""
    runs = sorted(p.parent for p in out.glob("points/*/manifest.json"))
    assert len(runs) >= 2, runs
    flipped = runs[0] / "games.parquet" / "part-000000.parquet"
    data = bytearray(flipped.read_bytes())
    data[len(data) // 2] ^= 0x01
    flipped.write_bytes(bytes(data))
    cut = runs[1] / "seats.parquet" / "part-000001.parquet"
    cut.write_bytes(cut.read_bytes()[: cut.stat().st_size // 2])
    return runs[:2]


def assert_repaired(runs: list[Path], stderr: str) -> None:
    """Every damaged run verifies again, the output only warns of the batches played again and never
    advises --resume, the command just given."""
    for run in runs:
        verify = mobsim("verify", run)
        assert verify.returncode == 0, verify.stdout
    lines = stderr.strip().splitlines()
    assert len(lines) == 2 and all(line.startswith("mobsim: warning: batch ") for line in lines), stderr
    assert all("played again" in line for line in lines) and "--resume" not in stderr, stderr


def test_sweep_resume_plays_the_batches_of_a_damaged_or_truncated_part_again(tmp_path):
    out = tmp_path / "sw"
    command = ["sweep", "--strategies", MIXED, "--games", 200, "--workers", 1, "--seed", 3, "--baseline", "first",
               "--set", "missions.reward_scale=0.8,1.2", "--out", out, "--json"]
    first = mobsim(*command)
    assert first.returncode == 0, first.stderr
    runs = damage_two_runs(out)
    again = mobsim(*command, "--resume")
    assert again.returncode == 0, again.stderr
    assert_repaired(runs, again.stderr)
    # the batches played again are the same games: the study's numbers do not move
    assert json.loads(again.stdout)["rows"] == json.loads(first.stdout)["rows"]


def test_sweep_resume_needs_the_study_and_excludes_force(tmp_path):
    base = ["sweep", "--games", 10, "--set", "missions.reward_scale=0.8,1.2"]
    for extra, message in ((["--resume"], "--resume needs --out"),
                           (["--resume", "--force", "--out", tmp_path / "s"], "exclude each other")):
        proc = mobsim(*base, *extra)
        assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and message in proc.stderr, proc.stderr


def test_sensitivity_resume_plays_the_batches_of_a_damaged_or_truncated_part_again(tmp_path):
    # players.max (NYK-S1) steps only down from its maximum: the current rules and one step, two runs
    out = tmp_path / "sens"
    command = ["sensitivity", "--strategies", MIXED, "--games", 200, "--workers", 1, "--seed", 4,
               "--param", "players.max", "--out", out, "--json"]
    first = mobsim(*command)
    assert first.returncode == 0, first.stderr
    runs = damage_two_runs(out)
    again = mobsim(*command, "--resume")
    assert again.returncode == 0, again.stderr
    assert_repaired(runs, again.stderr)
    assert json.loads(again.stdout)["changes"] == json.loads(first.stdout)["changes"]
    assert "does not apply with --assumed" in mobsim("sensitivity", "--assumed", "--resume", "--out", out).stderr
