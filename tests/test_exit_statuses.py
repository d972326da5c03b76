"""The exit-status table of docs/cli.md, held by every command: a destination that cannot be
written and a bad ruleset are bad input (2) from each, in one line, before any game and with nothing
written anywhere else; a folder holding another study is refused. (A killed worker, 1 from every
command, is driven in tests/test_faults.py; a corrupt manifest in tests/test_manifest_seal.py;
output that cannot be written in tests/test_low_inputs.py.)"""

import os

import pytest
from click.testing import CliRunner

import sim
from sim.cli import main
from sim.runner import RunError


@pytest.fixture(scope="module")
def a_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("statuses") / "run"
    sim.run(players=2, strategies="random", games=4, seed=1, out=out, workers=1, progress=False)
    return out


def commands(run, dest):
    """Every command that writes, with its destination `dest` (a folder, or a file inside it)."""
    return {
        "run": ["run", "--games", "4", "--workers", "1", "--out", dest],
        "sweep": ["sweep", "--games", "10", "--set", "missions.reward_scale=0.5,1", "--out", dest],
        "sensitivity": ["sensitivity", "--param", "provocation.stake", "--out", dest],
        "tune": ["tune", "--param", "missions.reward_scale=0.5:2", "--target", "turns=9:12", "--out", dest],
        "meta": ["meta", "--strategies", "random,simple", "--players", "2", "--games-per-profile", "2",
                 "--out", dest],
        "psro": ["strategies", "psro", "--players", "2", "--population", "random,simple", "--out", dest],
        "verdict": ["verdict", "--players", "2", "--out", dest],
        "luck": ["luck", "--games", "2", "--out", dest],
        "demo": ["demo", "--games", "8", "--out", dest],
        "report": ["report", run, "--out", dest],
        "compare": ["compare", run, run, "--out", dest],
        "board": ["board", "--out", f"{dest}/b.png"],
        "odds": ["odds", "provocation", "--provoker", "A", "--provoked", "A", "--save-table", f"{dest}/t.npz"],
        "replay": ["replay", run, "0", "--html", f"{dest}/r.html"],
        "docs": ["docs", "cli", "--out", f"{dest}/cli.md"],
        "leaf": ["strategies", "leaf", "--out", f"{dest}/leaf.toml"],
        "strategies tune": ["strategies", "tune", "--out", f"{dest}/t.toml"],
        "strategies refit": ["strategies", "refit", "--game", "pig", "--budget", "0", "--out", dest],
    }


def one_line_status(args) -> tuple[int, str]:
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit), \
        (args, result.exception)
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("mobsim: error:"), (args, result.stderr)
    return result.exit_code, result.stderr


NAMES = list(commands("run", "dest"))


@pytest.fixture(scope="module")
def read_only(tmp_path_factory):
    """A read-only tmpfs (chmod does not stop root)."""
    from tests.test_runner import tmpfs

    with tmpfs(tmp_path_factory.mktemp("ro"), "size=64k,ro") as mount:
        yield mount


@pytest.mark.parametrize("name", NAMES)
def test_a_destination_that_cannot_be_written_is_2_from_every_command(name, a_run, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder\n")
    dest = blocker / "out"     # under a regular file: cannot be made
    before = sorted(os.listdir(tmp_path))
    code, err = one_line_status(commands(a_run, dest)[name])
    assert code == 2, err
    assert sorted(os.listdir(tmp_path)) == before and blocker.read_text() == "not a folder\n"


@pytest.mark.parametrize("name", NAMES)
def test_a_read_only_destination_is_2_from_every_command(name, a_run, read_only):
    code, err = one_line_status(commands(a_run, read_only)[name])   # an empty folder, or a file in it
    assert code == 2 and "Read-only file system" in err, err


@pytest.mark.parametrize("name", ["run", "sweep", "sensitivity", "tune", "meta", "verdict", "board", "odds"])
def test_a_bad_ruleset_is_2_from_every_command(name, a_run, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[move]\nsteps = 99\n")
    args = [*commands(a_run, tmp_path / "out")[name], "--ruleset", bad]
    code, err = one_line_status(args)
    assert code == 2 and "steps" in err, err
    code, err = one_line_status(["rules", "check", bad])
    assert code == 2, err


@pytest.mark.parametrize("name", ["sweep", "sensitivity", "meta", "verdict", "luck", "demo", "report"])
def test_a_study_is_never_written_into_another_studys_folder(name, a_run, tmp_path):
    import shutil

    run = tmp_path / "run"
    shutil.copytree(a_run, run)
    before = sorted(os.listdir(run))
    code, err = one_line_status(commands(a_run, run)[name])
    assert code == 2 and "run" in err, err
    assert sorted(os.listdir(run)) == before
    meta = tmp_path / "meta"
    meta.mkdir()
    (meta / ".mobsim-study").write_text("meta\n")
    if name not in ("meta",):
        code, err = one_line_status(commands(a_run, meta)[name])
        assert code == 2 and "holds a meta study" in err, err


def test_run_force_clears_what_it_wrote_and_nothing_else(tmp_path):
    out = tmp_path / "run"
    sim.run(players=2, strategies="random", games=4, out=out, workers=1, progress=False)
    sim.run(players=2, strategies="random", games=4, out=out, workers=1, progress=False, force=True)
    (out / "notes.txt").write_text("mine\n")
    with pytest.raises(RunError, match="notes.txt"):
        sim.run(players=2, strategies="random", games=4, out=out, workers=1, progress=False, force=True)


def test_verdict_compare_of_two_folders_refuses_the_options_it_would_ignore(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    for extra in (["--rungs", "nosuch"], ["--ruleset", tmp_path / "bad.toml"], ["--players", "9"],
                  ["--budget", "60"]):
        code, err = one_line_status(["verdict", "--compare", a, b, *extra])
        assert code == 2 and ("leave out" in err or "--players" in err), err
    for budget in ("inf", "nan", "0"):
        code, err = one_line_status(["verdict", "--budget", budget, "--out", tmp_path / "v"])
        assert code == 2 and "--budget" in err, err
