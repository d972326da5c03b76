"""Every room's command on Pig at a small size: play (story, JSON, replay page), run and its
report in Pig's terms, replay, luck, the verdict at every table Pig allows, the ladder at its
usual table, and the policy table made again."""

import json

import pandas as pd
import pytest
from click.testing import CliRunner

from sim.cli import main


def cli(*args):
    result = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("pig") / "run"
    cli("run", "--game", "pig", "--strategies", "hold20,optimal", "--games", 400, "--workers", 1,
        "--record-turns", "--out", out)
    return out


def test_play_tells_a_two_player_game_by_default(tmp_path):
    told = cli("play", "--game", "pig", "--strategies", "hold20,optimal", "--seed", 2,
               "--html", tmp_path / "game.html")
    assert "2 players race to 100 points" in told and "wins (PIG-5)" in told and "Replay:" in told
    out = json.loads(cli("play", "--game", "pig", "--strategies", "optimal", "--json"))
    assert out["players"] == 2 and out["ended_by"] == "goal" and out["events"][0]["event"] == "setup"


def test_run_and_report_speak_pigs_terms(run_dir, tmp_path):
    manifest = json.loads((run_dir / "manifest.json").read_text())
    assert manifest["players"] == 2 and manifest["game"] == "pig"
    cli("report", run_dir, "--out", tmp_path / "report", "--no-replays")
    text = (tmp_path / "report" / "index.md").read_text()
    assert "$" not in text and "seat 1 (rolls first)" in text
    assert "0.0% of games needed a tie-break" in text and "pts" in text
    endings = pd.read_csv(tmp_path / "report" / "tables" / "endings.csv")
    assert set(endings.iloc[:, 0].astype(str)) <= {"goal", "score", "shared"}


def test_replay_writes_the_run_s_game(run_dir, tmp_path):
    told = cli("replay", run_dir, 3, "--html", tmp_path / "g3.html")
    assert "g3.html" in told and (tmp_path / "g3.html").stat().st_size > 10_000


def test_luck_measures_the_dice():
    told = cli("luck", "--game", "pig", "--players", 2, "--strategies", "hold20", "--games", 20)
    assert "players' dice" in told and "policy coins" in told


def test_verdict_studies_every_table_pig_allows(tmp_path):
    out = tmp_path / "verdict"
    cli("verdict", "--game", "pig", "--rungs", "random,simple", "--precision", 0.3, "--budget", 2,
        "--workers", 1, "--meta-games", 0, "--out", out)
    assert set(pd.read_csv(out / "measures.csv")["players"]) == {2, 3, 4}


def test_the_ladder_seats_pig_s_usual_table_and_is_ordered():
    rows = [json.loads(line) for line in cli("strategies", "ladder", "--game", "pig", "--rungs",
                                             "random,hold20", "--games", 400, "--workers", 1, "--json").splitlines()]
    assert rows and all(r["ordered"] for r in rows)


def test_the_table_command_makes_the_shipped_table_again(tmp_path):
    import strategies

    told = cli("strategies", "table", "--game", "pig", "--out", tmp_path)
    assert "optimal.npz" in told
    made = strategies.load(str(tmp_path / "optimal.toml"), "pig")
    assert made.table["sha256"] == strategies.load("optimal", "pig").table["sha256"]
