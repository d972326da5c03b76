"""Hostile command lines end in one line (`mobsim: error: ...`, exit 2), never a traceback."""

import subprocess
import sys
from pathlib import Path

import pytest


MOBSIM = Path(sys.executable).with_name("mobsim")


def one_line(*args, code=2) -> str:
    proc = subprocess.run([str(MOBSIM), *map(str, args)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == code, (args, proc.stdout, proc.stderr)
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("mobsim: error:"), proc.stderr
    return proc.stderr


@pytest.fixture(scope="module")
def a_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("fuzz") / "run"
    subprocess.run([str(MOBSIM), "run", "--games", "20", "--workers", "1", "--out", str(out)], check=True,
                   capture_output=True)
    return out


def test_play_game_id_beyond_the_runner_is_refused():
    assert "--game-id" in one_line("play", "--game-id", 10**30)
    assert "0<=x<=2147483647" in one_line("play", "--game-id", 2**31)


def test_odds_target_nan_and_save_table_into_a_missing_directory(tmp_path):
    assert "nan is not a probability" in one_line("odds", "recruit", "--value", "K", "--target", "nan")
    message = one_line("odds", "provocation", "--provoker", "A", "--provoked", "A",
                       "--save-table", tmp_path / "missing" / "t.npz")
    assert "cannot write" in message and "missing/t.npz: No such file or directory" in message


def test_a_sweep_grid_too_large_is_refused_before_it_is_made(tmp_path):
    message = one_line("sweep", "--games", 10, "--set", "missions.reward_scale=0.5:5:100",
                       "--set", "provocation.stake=0:50000:51", "--set", "provocation.raise=0:50000:51")
    assert "260,100 points" in message and "--max-points" in message
    message = one_line("sweep", "--games", 10, "--set", "missions.reward_scale=0.5:5:1000000000")
    assert "1,000,000,000 points" in message
    assert "3 points" in one_line("sweep", "--games", 10, "--max-points", 2,
                                  "--set", "missions.reward_scale=0.5,1,1.5")


def test_study_and_report_outputs_are_never_a_run_or_empty(a_run, tmp_path):
    for command in (["sweep", "--games", 10, "--set", "missions.reward_scale=0.5,1"],
                    ["tune", "--param", "missions.reward_scale=0.5:2", "--target", "turns=9:12"],
                    ["sensitivity", "--param", "provocation.stake"]):
        assert "holds a run" in one_line(*command, "--out", a_run)
        assert "empty" in one_line(*command, "--out", "")
    assert "is the run directory" in one_line("report", a_run, "--out", a_run)
    assert "path is empty" in one_line("report", a_run, "--out", "")
    assert "path is empty" in one_line("compare", a_run, a_run, "--out", "")
    assert "path is empty" in one_line("run", "--games", 3, "--out", "")
    assert not (Path.cwd() / "manifest.json").exists()


def test_strategies_empty_or_of_5000_characters(tmp_path):
    long = "x" * 5000
    for command in (["run", "--games", 3, "--out", tmp_path / "r"], ["play"]):
        message = one_line(*command, "--strategies", long)
        assert "5,000 characters" in message and len(message) < 400
        assert "empty" in one_line(*command, "--strategies", " , ")


def test_a_run_error_no_command_caught_is_still_one_line(capsys):
    # e.g. a meta-game profile run refused inside a worker and re-raised in the parent
    from sim.cli import OneLineErrors
    from sim.runner.store import RunError

    group = OneLineErrors()

    @group.command()
    def broken():
        raise RunError("runs/x/meta/profiles/a-b is not empty: add --resume to finish the run in it,\n"
                       "or --force to replace it")

    @group.command()
    def wrong():
        raise RunError("bad request", usage=True)

    for name, code in (("broken", 1), ("wrong", 2)):
        with pytest.raises(SystemExit) as done:
            group.main([name], prog_name="mobsim")
        assert done.value.code == code
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("mobsim: error: "), err
