"""Every room's command runs on every game found, once each at a small size and at the game's own
usual table (sim.shared.game: `Game.players`): run, report, play, luck, strength and the ladder.
The costlier rooms have their own tests over every game (verdict: tests/test_verdict.py; replay
pages: tests/test_replay.py; the meta-game of Pig: tests/pig/)."""

import json

import pytest
from click.testing import CliRunner

from sim.cli import main
from sim.shared.game import find, names


def cli(*args):
    result = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(params=names())
def game(request):
    return find(request.param)


def test_run_and_report_at_the_usual_table(game, tmp_path):
    out = tmp_path / "run"
    cli("run", "--game", game.name, "--strategies", "simple", "--games", 40, "--workers", 1, "--out", out)
    assert json.loads((out / "manifest.json").read_text())["players"] == game.players
    cli("report", out, "--out", tmp_path / "report", "--no-replays")
    text = (tmp_path / "report" / "index.md").read_text()
    assert f"seat 1 ({game.first_seat})" in text and (game.score_unit == "$") == ("$" in text)


def test_play_tells_a_game(game):
    out = json.loads(cli("play", "--game", game.name, "--seed", 1, "--json"))
    assert out["players"] == game.players and out["events"]


def test_luck_strength_and_ladder(game):
    assert "all luck (baseline)" in cli("luck", "--game", game.name, "--players", game.players, "--strategies",
                                        "simple", "--games", 3)
    assert "wins" in cli("strategies", "strength", "simple", "--against", "random", "--game", game.name,
                         "--games", 20, "--workers", 1)
    table = [json.loads(line) for line in cli("strategies", "ladder", "--game", game.name, "--rungs", "random,simple",
                                              "--games", 20, "--workers", 1, "--json").splitlines()]
    assert len(table) == 1
