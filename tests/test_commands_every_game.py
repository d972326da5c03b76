"""Every room's command runs on every game found, once each at a small size and at the game's own
usual table (sim.shared.game: `Game.players`): run, report, verify, compare, replay, play, luck,
strength, the ladder, sweep, verdict, the meta-game and the board. The costlier rooms have their
own tests over every game besides (verdict: tests/test_verdict.py; replay pages:
tests/test_replay.py); sensitivity and advise, which step every rule option, are driven on one
game each (tests/test_tuning_mirror.py, tests/test_advise.py)."""

import json
import re

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


def test_a_batch_of_no_games_is_the_tables_empty(game):
    """A run warms its engine with a batch of no games (LineupAdapter.warm): the jitted entry is
    typed and loaded as by any batch, and the tables come back with their columns and no rows."""
    from sim.runner import games as adapters

    adapter = adapters.adapter(game.name)
    ruleset = adapter.load_ruleset(None, None)
    plan = adapter.plan(ruleset, game.players, list(game.ladder[:1]) * game.players, True)
    empty = adapter.play_columns(plan, 0, 0, 0, False)
    some = adapter.play_columns(plan, 0, 0, 2, False)
    assert set(empty) == set(some)
    for name, columns in empty.items():
        assert list(columns) == list(some[name]) and all(len(v) == 0 for v in columns.values())


def test_play_tells_a_game(game):
    out = json.loads(cli("play", "--game", game.name, "--seed", 1, "--json"))
    assert out["players"] == game.players and out["events"]
    told = cli("play", "--game", game.name, "--seed", 1)
    named = {int(n) for n in re.findall(r"\bseat (\d+) \(", told)}   # "seat 1 (simple)": sim.shared.seats.seat_label
    assert named == set(range(1, game.players + 1)), named              # counted from 1, as pages count them


def test_luck_strength_and_ladder(game):
    assert "all luck (baseline)" in cli("luck", "--game", game.name, "--players", game.players, "--strategies",
                                        "simple", "--games", 3)
    assert "wins" in cli("strategies", "strength", "simple", "--against", "random", "--game", game.name,
                         "--games", 20, "--workers", 1)
    table = [json.loads(line) for line in cli("strategies", "ladder", "--game", game.name, "--rungs", "random,simple",
                                              "--games", 20, "--workers", 1, "--json").splitlines()]
    assert len(table) == 1


def a_numeric_option(game):
    """A rule option of the game with a numeric range, and a second value inside it."""
    from sim.rules.ruleset import options

    for option in options(game.name).values():
        if option.key.startswith("players."):   # the table's size: another study's question
            continue
        if option.type == "int" and option.min is not None and option.max is not None and option.min < option.max:
            other = option.default + 1 if option.default < option.max else option.default - 1
            return option.key, option.default, other
    pytest.skip(f"{game.name} has no ranged integer option")


def test_the_studies_and_tools_run_on_every_game(game, tmp_path):
    """sweep, compare, verify, replay, verdict, meta and board, once each at a tiny size."""
    n = game.players
    lineup = ",".join((["random", "simple"] * n)[:n])
    runs = [tmp_path / f"run{seed}" for seed in (0, 1)]
    for seed, out in enumerate(runs):
        cli("run", "--game", game.name, "--strategies", lineup, "--games", 2 * n, "--seed", seed,
            "--workers", 1, "--out", out)
    assert "ok" in cli("verify", runs[0]).lower()
    cli("compare", runs[0], runs[1])
    cli("replay", runs[0], 1, "--html", tmp_path / "game.html")
    key, a, b = a_numeric_option(game)
    cli("sweep", "--game", game.name, "--players", n, "--strategies", lineup, "--games", 2 * n,
        "--workers", 1, "--set", f"{key}={a},{b}", "--out", tmp_path / "sweep")
    cli("verdict", "--game", game.name, "--players", n, "--rungs", "random,simple", "--games", 2 * n,
        "--workers", 1, "--meta-games", 0, "--no-exploit", "--out", tmp_path / "verdict")
    cli("meta", "--game", game.name, "--players", n, "--strategies", "random,simple", "--games-per-profile", n,
        "--workers", 1, "--out", tmp_path / "meta")
    cli("board", "--game", game.name, "--out", tmp_path / "board.png")
    assert (tmp_path / "game.html").stat().st_size and (tmp_path / "board.png").stat().st_size
