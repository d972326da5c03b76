"""The README's commands run as written, each shrunk to a few games (the options below replace or
add counts; nothing else changes): a renamed option, a removed preset or a changed default breaks
this test before it breaks a reader. Commands run in order in one folder, so `verdict --compare`
and `compare` read what the earlier commands wrote."""

import re
import shlex
from pathlib import Path

from click.testing import CliRunner

from sim.cli import main

README = Path(__file__).resolve().parent.parent / "README.md"

SHRINK = {   # per command: options set to a small count (added when the command does not give them)
    "verdict": {"--games": "40", "--search-games": "0", "--meta-games": "0"},
    "run": {"--games": "120"},
    "sweep": {"--games": "40"},
    "advise": {"--games": "40", "--screen-games": "20", "--max-today": "80",
               "--try": "seats.money=[2000, 0, 0, 0, 0]"},
    "tune": {"--budget": "20000", "--candidates": "2"},   # enough for its seat-gap target to tell two apart
}
ONE_PROCESS = ("verdict", "run", "sweep", "advise", "tune")   # --workers 1: no worker processes to start
FLAGS = {"verdict": ["--no-exploit"]}


def readme_commands() -> list[list[str]]:
    """Every `mobsim ...` line of the README's sh blocks, as arguments (line continuations joined,
    comments dropped)."""
    found = []
    for block in re.findall(r"```sh\n(.*?)```", README.read_text(), re.S):
        for line in block.replace("\\\n", " ").splitlines():
            words = shlex.split(line, comments=True)
            if words[:1] == ["mobsim"]:
                found.append(words[1:])
    return found


def shrunk(args: list[str]) -> list[str]:
    """The command with SHRINK's counts in place of its own (verdict --compare reads, plays nothing)."""
    name = args[0]
    if "--compare" in args:
        return args
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
            continue
        if a in SHRINK.get(name, {}):
            skip = True     # its value follows
            continue
        out.append(a)
    for option, value in SHRINK.get(name, {}).items():
        out += [option, value]
    one = ["--workers", "1"] if name in ONE_PROCESS and "--workers" not in out else []
    return out + one + [f for f in FLAGS.get(name, []) if f not in out]


def test_the_readme_has_its_study_commands():
    names = {args[0] for args in readme_commands()}
    assert {"verdict", "run", "compare", "sweep", "advise", "tune"} <= names


def test_every_readme_command_runs_shrunk(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for args in readme_commands():
        result = CliRunner().invoke(main, shrunk(args))
        assert result.exit_code == 0, f"mobsim {shlex.join(args)}:\n{result.output}"
