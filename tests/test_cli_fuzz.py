"""Hostile command lines end in one line (`mobsim: error: ...`, exit 2), never a traceback."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from sim.runner import store


MOBSIM = Path(sys.executable).with_name("mobsim")


def one_line(*args, code=2) -> str:
    """The command's one-line error, run in this process: the errors are made by `mobsim`'s own
    group (`sim.cli.OneLineErrors`), the same in a process of its own (tests below start one where
    the process matters: closed streams, signals, the installed script) without its second of
    start-up."""
    from click.testing import CliRunner

    from sim.cli import main

    result = CliRunner().invoke(main, list(map(str, args)), prog_name="mobsim")
    assert result.exit_code == code, (args, result.stdout, result.stderr, result.exception)
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("mobsim: error:"), result.stderr
    return result.stderr


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


# --- the newer commands held to the same standard (names, options, tracebacks, exit statuses) ---

def test_ship_names_are_plain_and_never_replace_a_shipped_file(tmp_path):
    for name in ("../../evil name", "a/b", "", ".hidden", "x" * 65):
        assert "not a plain name" in one_line("strategies", "psro", "--out", tmp_path / "p", "--ship", name)
    assert "already shipped" in one_line("strategies", "psro", "--out", tmp_path / "p", "--ship", "equilibrium")
    assert not (tmp_path / "p").exists() and not (Path.cwd().parent / "evil name.toml").exists()


def test_tune_refuses_to_replace_the_shipped_tuned_preset_without_force(tmp_path):
    assert "shipped preset" in one_line("strategies", "tune", "--games", 10, "--final-games", 10)
    assert "not a .toml file" in one_line("strategies", "tune", "--out", tmp_path / "x.txt")
    assert "not a directory" in one_line("strategies", "tune", "--out", tmp_path / "no" / "t.toml")


def test_ladder_needs_two_different_rungs():
    for rungs in ("random", ",", "random,random"):
        assert "at least two different" in one_line("strategies", "ladder", "--rungs", rungs, "--games", 10)


def test_sensitivity_assumed_refuses_what_it_would_ignore():
    assert "unknown key 'nosuch.key'" in one_line("sensitivity", "--assumed", "--set", "nosuch.key=1",
                                                  "--games", 10)
    assert "unk.toml" in one_line("sensitivity", "--assumed", "--ruleset", "unk.toml", "--games", 10)
    # a New York Kings key under --game ag
    assert "unknown key 'provocation.stake'" in one_line("sensitivity", "--assumed", "--game", "ag",
                                                         "--set", "provocation.stake=3000", "--games", 10)
    for option in (["--param", "provocation.stake"], ["--force"]):
        assert "does not apply with --assumed" in one_line("sensitivity", "--assumed", *option, "--games", 10)


def test_an_assumed_change_lies_inside_its_own_interval():
    from sim.tuning.assumed import Z95, _z, centred

    # a bootstrap interval of a biased gap, off-centre and missing the change it measures
    diff, lo, hi = 0.010, 0.012, 0.020
    lo, hi = centred(diff, lo, hi)
    assert lo <= diff <= hi and hi - diff == diff - lo
    z = _z(diff, lo, hi)
    assert (abs(z) > Z95) == (lo > 0 or hi < 0) and abs(z) < 2   # 0.010 / (0.010 / 1.96)
    assert centred(0.0, -0.01, 0.01) == (-0.01, 0.01)   # a symmetric interval is kept


def test_play_human_with_standard_input_closed():
    proc = subprocess.run(["sh", "-c", f'exec "{MOBSIM}" play --human 1 <&-'], capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.count("\n") == 1 and "standard input, which is closed" in proc.stderr


def test_a_plan_too_large_to_list_is_refused_before_the_run_is_made(tmp_path):
    message = one_line("run", "--games", 2147483647, "--batch-size", 1, "--out", tmp_path / "big")
    assert "more than a run can list" in message and "--batch-size at least 2,148" in message
    assert not (tmp_path / "big").exists()


@pytest.fixture(scope="module")
def a_three_player_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("fuzz3") / "run"
    subprocess.run([str(MOBSIM), "run", "--games", "12", "--players", "3", "--workers", "1", "--out", str(out)],
                   check=True, capture_output=True)
    return out


def test_compare_refuses_runs_of_other_players_or_seating(a_run, a_three_player_run, tmp_path):
    assert "different numbers of players" in one_line("compare", a_run, a_three_player_run)
    fixed = tmp_path / "fixed"
    subprocess.run([str(MOBSIM), "run", "--games", "20", "--workers", "1", "--seating", "fixed",
                    "--out", str(fixed)], check=True, capture_output=True)
    assert "different seatings" in one_line("compare", a_run, fixed)


def test_report_of_an_interrupted_run_says_so_and_how_to_resume(a_three_player_run, tmp_path):
    import json
    import shutil

    run = tmp_path / "run"
    shutil.copytree(a_three_player_run, run)
    manifest = json.loads((run / "manifest.json").read_text())
    manifest["status"] = "running"
    store.write_manifest(run, manifest)
    proc = subprocess.run([str(MOBSIM), "report", str(run), "--out", str(tmp_path / "rep"), "--no-replays"],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "interrupted" in proc.stderr and "--resume" in proc.stderr
    page = (tmp_path / "rep" / "index.md").read_text()
    assert "interrupted" in page and "--resume" in page and "(running)" not in page


FUZZ = [
    ["meta", "--strategies", "nosuch,random"], ["meta", "--players", 9], ["meta", "--games-per-profile", 0],
    ["meta", "--resume", "--force", "--out", "x"], ["strategies", "psro", "--population", "nosuch"],
    ["strategies", "psro", "--players", 1, "--out", "x"], ["strategies", "psro", "--games", 0, "--out", "x"],
    ["strategies", "ladder", "--games", 5], ["strategies", "ladder", "--rungs", "nosuch,random"],
    ["strategies", "ladder", "--pairs", "odd"], ["strategies", "mechanics", "--base", "nosuch"],
    ["strategies", "mechanics", "--games", "x"], ["strategies", "mechanics", "--set", "nosuch=1"],
    ["strategies", "tune", "--elite", 9, "--population", 2], ["strategies", "tune", "--opponents", "nosuch"],
    ["strategies", "tune", "--start", "nosuch"], ["strategies", "tune", "--game", "chess"],
    ["play", "--human", 9], ["play", "--human", 4, "--players", 3], ["play", "--human", 0],
    ["play", "--human", 1, "--json"],
    ["play", "--human", "x"], ["replay", "/nonexistent/run", 0], ["replay", "/nonexistent/run", -1],
    ["verify", "/nonexistent/run"], ["sensitivity", "--assumed", "--games", 0],
    ["sensitivity", "--assumed", "--game", "chess"], ["sensitivity", "--assumed", "--players", 1],
    ["sensitivity", "--assumed", "--strategies", "nosuch"], ["compare", "/nonexistent/a", "/nonexistent/b"],
]


@pytest.mark.parametrize("args", FUZZ, ids=lambda a: " ".join(map(str, a)))
def test_fuzz_of_the_newer_commands_is_one_line(args):
    one_line(*args)


def test_damaged_runs_and_study_folders_exit_2_from_every_reader(a_run, tmp_path):
    import shutil

    run = tmp_path / "run"
    shutil.copytree(a_run, run)
    (run / "games.parquet" / "part-000000.parquet").write_bytes(b"PAR1 damaged")
    for args in (["report", run, "--out", tmp_path / "rep"], ["compare", run, a_run],
                 ["replay", run, 0, "--html", tmp_path / "r.html"]):
        assert "damaged" in one_line(*args)
    proc = subprocess.run([str(MOBSIM), "verify", str(run)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2 and "damaged" in proc.stdout
    study = tmp_path / "study"
    study.mkdir()
    (study / "plan.json").write_text("{}")
    assert one_line("verify", study) and one_line("report", study, "--out", tmp_path / "rep2")


def _sleep(seconds):
    import time

    time.sleep(seconds)


def test_a_killed_pool_leaves_no_manager_thread_to_race_the_exit():
    # after Ctrl-C the pool's manager thread, left running, wrote to its closed wake-up pipe
    # at the interpreter's exit: "OSError: Bad file descriptor" after the "interrupted" line
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from sim.runner.pool import kill_pool as _kill_pool

    pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork"))
    pool.submit(_sleep, 30)
    manager = pool._executor_manager_thread
    _kill_pool(pool)
    assert manager is not None and not manager.is_alive()


def test_meta_resume_plays_a_damaged_profile_again(tmp_path):
    out = tmp_path / "meta"
    command = [str(MOBSIM), "meta", "--strategies", "random,simple", "--players", 2, "--games-per-profile", 2,
               "--bootstrap", 0, "--workers", 1, "--out", out]
    subprocess.run([*map(str, command)], check=True, capture_output=True, timeout=300)
    part = next((out / "profiles").glob("*/games.parquet/part-000000.parquet"))
    part.write_bytes(b"PAR1 damaged")
    proc = subprocess.run([*map(str, command), "--resume"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    verify = subprocess.run([str(MOBSIM), "verify", str(part.parent.parent)], capture_output=True, text=True)
    assert verify.returncode == 0, verify.stdout


def test_an_assumed_content_point_keeps_the_given_ruleset(tmp_path):
    # sensitivity --assumed --ruleset FILE: each content point varies one file around FILE's rules
    from sim.rules import Ruleset
    from sim.tuning.assumed import load_ranges, ruleset_with_content, varied_content

    base = tmp_path / "mine.toml"
    base.write_text("[provocation]\nstake = 3000\n")
    v = next(v for v in load_ranges("nyk")[0] if v.content == "missions")
    path = ruleset_with_content(tmp_path / "point", v.content, varied_content("nyk", v, v.high, base), base)
    rs = Ruleset.load(path, game="nyk")
    assert rs.values["provocation.stake"] == 3000
    assert rs.sources["missions"] == str(tmp_path / "point" / "missions.toml")


# --- every command, every path and number option, hostile values --------------------------------

def _leaf_commands():
    import click

    from sim.cli import main
    from sim.cli.docs import walk

    ctx = click.Context(main, info_name="mobsim")
    for command, sub in list(walk(main, ctx))[1:]:
        if not isinstance(command, click.Group):
            yield sub.command_path.split()[1:], command


def _hostile(option, places) -> list[str]:
    import click

    kind = option.type
    if isinstance(kind, click.Path):
        return ["", "..", str(places["device"]), str(places["unwritable"]), str(places["huge"])]
    if option.name in ("strategies", "population", "rungs", "opponents", "start", "base"):
        return [str(places["huge"]), f"meta:{places['huge']}"]
    if isinstance(kind, click.types.FloatParamType):
        return ["inf", "nan", "-inf"]
    if isinstance(kind, click.types.IntParamType):
        return ["inf", "1e400", str(2**70)]
    return []


class TookLong(KeyboardInterrupt):
    """Stops a command that accepted a value and went to work (as Ctrl-C would)."""


def _stopped_by_alarm(exc) -> bool:
    """Whether an exception comes from the alarm's interrupt: a library's C code (pandas' CSV
    parser reading a statistics table at import) may wrap it in an error of its own."""
    while exc is not None:
        if isinstance(exc, TookLong):
            return True
        exc = exc.__cause__ or exc.__context__
    return False


def test_every_command_refuses_hostile_values_in_one_line_and_writes_nowhere_else(tmp_path, monkeypatch):
    import signal

    from click.testing import CliRunner

    import scipy.stats  # noqa: F401  (imported before the alarms: their import reads tables)
    import statsmodels.stats.proportion  # noqa: F401

    from sim.cli import main

    root = Path(__file__).resolve().parents[1]
    shipped = {p: p.stat().st_mtime_ns for p in [*(root / "strategies").rglob("*.toml"), root / "docs" / "cli.md"]}
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    (tmp_path / "blocker").write_text("a file\n")
    places = {"device": tmp_path / "fifo.png", "unwritable": tmp_path / "blocker" / "out",
              "huge": tmp_path / "huge.toml"}
    os.mkfifo(places["device"])
    with open(places["huge"], "wb") as huge:   # 3 GB that take no disk (sparse): never to be read whole
        huge.truncate(3 << 30)
    monkeypatch.chdir(cwd)

    def stop(signum, frame):
        raise TookLong

    previous = signal.signal(signal.SIGALRM, stop)
    tracebacks, accepted = [], []   # accepted: went to work, stopped by the alarm as by Ctrl-C
    try:
        for path, command in _leaf_commands():
            for option in command.params:
                if not option.opts[0].startswith("--"):
                    continue
                for value in _hostile(option, places):
                    signal.alarm(2)
                    try:
                        result = CliRunner().invoke(main, [*path, option.opts[0], value])
                    finally:
                        signal.alarm(0)
                    args = " ".join([*path, option.opts[0], repr(value)])
                    if _stopped_by_alarm(result.exception):
                        accepted.append(args)
                    elif result.exception is not None and not isinstance(result.exception, SystemExit):
                        tracebacks.append(f"{args}: {result.exception!r}")
                    elif result.exit_code not in (0, 1, 2, 130):
                        tracebacks.append(f"{args}: exit {result.exit_code}")
                    elif result.exit_code == 130:
                        accepted.append(args)
    finally:
        signal.signal(signal.SIGALRM, previous)
    assert not tracebacks, tracebacks
    assert sorted(os.listdir(cwd)) == [] or all(not Path(cwd, n).name.startswith(".") for n in os.listdir(cwd)), \
        os.listdir(cwd)
    assert sorted(os.listdir(tmp_path)) == ["blocker", "cwd", "fifo.png", "huge.toml"], os.listdir(tmp_path)
    assert (tmp_path / "blocker").read_text() == "a file\n"
    assert {p: p.stat().st_mtime_ns for p in shipped} == shipped
