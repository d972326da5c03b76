"""`mobsim rules show|check`, `mobsim board`, and the shared --ruleset/--set options."""

import json
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from sim.cli import main
from sim.cli.common import parse_sets, parse_value, ruleset_from_options
from sim.rules import Ruleset
from sim.shared.game import names


def run(*args):
    return CliRunner().invoke(main, list(args))


def one_error_line(result) -> str:
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("mobsim: error: ")
    return lines[0]


def test_parse_values_as_toml_scalars():
    assert parse_value("3000") == 3000 and parse_value("1.2") == 1.2
    assert parse_value("true") is True and parse_value('"bank"') == "bank"
    assert parse_value("bank") == "bank" and parse_value("UNION CITY") == "UNION CITY"
    assert parse_value("[1000, 0]") == [1000, 0]
    assert parse_sets(["a.b=1", "a.b=2", "c = x"]) == {"a.b": 2, "c": "x"}
    with pytest.raises(click.BadParameter):
        parse_sets(["novalue"])


def test_ruleset_from_options(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text("[provocation]\nstake = 3000\n")
    rs = ruleset_from_options(path, ["missions.reward_scale=1.2"])
    assert rs["provocation.stake"] == 3000 and rs["missions.reward_scale"] == 1.2
    assert ruleset_from_options() == Ruleset.load()
    with pytest.raises(click.UsageError, match="--set: provocation.stake = 2500"):
        ruleset_from_options(None, ["provocation.stake=2500"])


def test_show_text():
    result = run("rules", "show", "--set", "provocation.stake=3000")
    assert result.exit_code == 0, result.output
    assert f"fingerprint {Ruleset.load(overrides={'provocation.stake': 3000}).fingerprint}" \
        in result.stdout
    line = next(x for x in result.stdout.splitlines() if x.startswith("provocation.stake "))
    assert "3000" in line and "NYK-A4" in line and "changed" in line
    tie = next(x for x in result.stdout.splitlines() if x.startswith("provocation.tie_pot"))
    assert "ruling" in tie  # a ruling, listed with the assumptions
    assert "24 districts, 19 tiles" in result.stdout


def test_show_json(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text("[missions]\nreward_scale = 1.5\n")
    result = run("rules", "show", "--ruleset", str(path), "--set", "start.district=random",
                 "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    rs = Ruleset.load(path, {"start.district": "random"})
    assert data["fingerprint"] == rs.fingerprint
    assert data["values"]["missions.reward_scale"] == 1.5
    assert data["values"]["start.district"] == "random"
    assert set(data["changed"]) == {"missions.reward_scale", "start.district"}
    assert "provocation.tie_pot" in data["assumed"]["values"]
    assert data["money"]["provocation.stake"] == 2000
    assert len(data["content"]["missions"]["missions"]) == 24


def test_show_unknown_key_is_one_line_exit_2():
    result = run("rules", "show", "--set", "provocaton.stake=3000")
    assert result.exit_code == 2
    assert 'did you mean "provocation.stake"' in one_error_line(result)


def test_show_bad_value_and_bad_file(tmp_path):
    result = run("rules", "show", "--set", "provocation.stake=2500")
    assert result.exit_code == 2 and "whole number of thousands" in one_error_line(result)
    path = tmp_path / "bad.toml"
    path.write_text("[move\nsteps = 3\n")
    result = run("rules", "show", "--ruleset", str(path))
    assert result.exit_code == 2
    message = one_error_line(result)
    assert str(path) in message and "malformed TOML" in message
    result = run("rules", "show", "--set", "novalue")
    assert result.exit_code == 2 and "KEY=VALUE" in one_error_line(result)


def test_check(tmp_path):
    good = tmp_path / "good.toml"
    good.write_text("[provocation]\ntie_pot = \"return\"\n")
    result = run("rules", "check", str(good))
    assert result.exit_code == 0, result.output
    assert "ok" in result.stdout and "provocation.tie_pot" in result.stdout
    bad = tmp_path / "bad.toml"
    bad.write_text("[move]\nsteps = 99\n")
    result = run("rules", "check", str(bad))
    assert result.exit_code == 2   # as from run: a bad ruleset is bad input
    message = one_error_line(result)
    assert str(bad) in message and "move.steps = 99 is out of range" in message


def test_board_command(tmp_path):
    out = tmp_path / "pics" / "board.png"
    result = run("board", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_installed_entry_point_reports_one_line():
    mobsim = Path(sys.executable).parent / "mobsim"
    if not mobsim.exists():
        pytest.skip("mobsim entry point not installed")
    done = subprocess.run([str(mobsim), "rules", "show", "--set", "police.car_value=Z"],
                          capture_output=True, text=True)
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "police.car_value" in lines[0] and "9, 10, J, Q, K, A" in lines[0]


def test_rules_show_takes_the_game():
    """`rules show --game ag` shows American Gangsters' options (AG-C1 players), with its overrides."""
    result = run("rules", "show", "--game", "ag", "--json", "--set", "players.max=4")
    assert result.exit_code == 0, result.output
    shown = json.loads(result.output)
    assert shown["game"] == "ag" and shown["values"]["players.max"] == 4
    assert shown["changed"] == ["players.max"]
    assert shown["fingerprint"] == Ruleset.load(overrides={"players.max": 4}, game="ag").fingerprint
    bad = run("rules", "show", "--game", "ag", "--set", "provocation.stake=3000")
    assert bad.exit_code == 2 and "provocation.stake" in one_error_line(bad)


def test_rules_show_text_summarises_the_game_content():
    """The plain text of `rules show --game ag` ends with AG's content files and what they assume."""
    result = run("rules", "show", "--game", "ag")
    assert result.exit_code == 0, result.output
    tail = result.output.strip().splitlines()[-4:]
    assert [line.split()[0] for line in tail] == ["locations", "tracks", "events", "assumed"]
    assert tail[0].startswith("locations   40 cards, 10 assumed: grocery")


def test_board_takes_the_game(tmp_path):
    """`board --game ag` draws American Gangsters' districts, cards and tracks (AG-C1, AG-C7, AG-K2);
    a bad --game is one line naming the choices."""
    out = tmp_path / "ag.png"
    result = run("board", "--game", "ag", "--out", str(out), "--set", "fbi.track=\"separate\"")
    assert result.exit_code == 0, result.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and out.stat().st_size > 20_000
    bad = run("board", "--game", "chess")
    choices = ", ".join(f"'{name}'" for name in names())
    assert bad.exit_code == 2 and f"'chess' is not one of {choices}" in one_error_line(bad)
