"""American Gangsters on the runner: the same tables whatever the workers and batches, compact
dtypes, the AG columns, rotated seats, refusals; `mobsim run --game ag` and `mobsim play --game ag`."""

import json

import pandas as pd
import pytest
from click.testing import CliRunner

from sim.ag import batch as B
from sim.ag import state as S
from sim.cli import main
from sim.rules import Ruleset
from sim.runner import RunError, load, run
from sim.shared.seats import seat_label

LINEUP = ("balanced", "random", "warlord", "informer-aware")


def play(**kw):
    args = dict(game="ag", players=4, strategies=LINEUP, games=160, seed=11, workers=1, progress=False)
    args.update(kw)
    return run(**args)


@pytest.fixture(scope="module")
def reference():
    return play(batch_size=160)


def same(a, b):
    for name in ("games", "seats"):
        x = getattr(a, name).sort_values(["game_id"] + (["seat"] if name == "seats" else []))
        y = getattr(b, name).sort_values(["game_id"] + (["seat"] if name == "seats" else []))
        pd.testing.assert_frame_equal(x.reset_index(drop=True), y.reset_index(drop=True))


def test_tables_are_the_same_whatever_the_batches_and_workers(reference, tmp_path):
    same(reference, play(batch_size=50))
    same(reference, play(batch_size=40, workers=2, out=tmp_path / "two"))
    same(reference, load(tmp_path / "two"))


def test_tables_have_the_shared_columns_the_ag_columns_and_compact_dtypes(reference):
    games, seats = reference.games, reference.seats
    for col in ("game_id", "n_players", "turns", "winner_seat", "decided_by", "cap_hit", "lead_changes",
                "winner_led_from", "winner_deficit_mid", "margin", "ended_by", "informer_seat", "fbi"):
        assert col in games.columns, col
    for col in ("game_id", "seat", "strategy", "slot", "fortune", "rank", "won", "informer", "caids",
                *S.COUNTERS):
        assert col in seats.columns, col
    assert list(games.columns[1:]) == list(B.GAME_COLUMNS)
    assert games.decided_by.dtype == "category" and games.ended_by.dtype == "category"
    assert set(games.ended_by.cat.categories) == set(S.ENDED)
    for df in (games, seats):
        for col, dtype in df.dtypes.items():
            assert dtype != "int64" and dtype != "float64", col
    # the winner holds rank 1; the informer's seat is flagged; fortune is the score ranked by
    winners = seats[seats.won].groupby("game_id").seat.min()
    assert (games.set_index("game_id").winner_seat.loc[winners.index] == winners).all()
    flagged = seats[seats.informer].set_index("game_id").seat
    assert (games.set_index("game_id").informer_seat.loc[flagged.index] == flagged).all()
    assert ((games.informer_seat >= 0) == games.game_id.isin(flagged.index)).all()
    assert (seats.fortune == seats.renown + seats.barons + 2 * seats.caids).all()
    assert (games.ended_by == "informer").sum() == games.informer_won.sum()


def test_seats_rotate_so_each_strategy_sits_in_each_seat_equally_often(reference):
    per_slot = reference.seats.groupby(["slot", "seat"]).size()
    assert len(per_slot) == 16 and per_slot.nunique() == 1


def test_manifest_describes_the_ag_study(reference):
    m = reference.manifest
    assert m["game"] == "ag" and m["strategies"]["policies"] == ["parametric", "random", "parametric",
                                                                  "parametric"]
    assert m["ruleset"]["content"]["game"] == "ag" and "locations" in m["ruleset"]["content"]


def test_record_turns_gives_each_seat_score_after_each_turn():
    r = play(games=8, record_turns=True)
    turns, games = r.turns, r.games
    assert len(turns) == int(((games.turns + 1) * 4).sum())
    last = turns.sort_values("turn").groupby(["game_id", "seat"]).fortune.last()
    seats = r.seats.set_index(["game_id", "seat"]).fortune
    assert (last.loc[seats.index] == seats).all()


@pytest.mark.parametrize("kw,words", [
    (dict(players=6), "American Gangsters is for 2 to 5"),
    (dict(strategies=("racketeer", "gangster", "random", "simple")), "unknown strategy 'gangster'"),
    (dict(overrides={"negotiation.share": "fair"}), "negotiation.share"),
    (dict(ruleset=Ruleset.load()), "not American Gangsters"),
])
def test_bad_studies_are_refused_in_one_line(kw, words):
    args = dict(strategies=("racketeer",) * 4) | kw
    with pytest.raises(RunError, match=words) as err:
        play(**args)
    assert "\n" not in str(err.value)


def test_cli_run_game_ag(tmp_path):
    out = tmp_path / "study"
    got = CliRunner().invoke(main, ["run", "--game", "ag", "--strategies", "politician,racketeer",
                                    "--players", "2", "--games", "60", "--seed", "2", "--out", str(out),
                                    "--workers", "1", "--json"])
    assert got.exit_code == 0, got.output
    summary = json.loads(got.output)
    assert summary["game"] == "ag" and summary["games_played"] == 60
    assert {r["strategy"] for r in summary["win_rates"]} == {"politician", "racketeer"}


def test_cli_play_game_ag_tells_the_game_and_its_json_agrees():
    text = CliRunner().invoke(main, ["play", "--game", "ag", "--seed", "3"])
    assert text.exit_code == 0, text.output
    lines = text.output.splitlines()
    assert lines[1].startswith("Turn 1") and "Game over" in text.output
    assert lines[-1].startswith(("The informer was", "No family held"))
    got = CliRunner().invoke(main, ["play", "--game", "ag", "--seed", "3", "--json"])
    out = json.loads(got.output)
    assert out["game"] == "ag" and out["turns"] == sum(line.startswith("Turn ") for line in lines)
    winner = out["seats"][out["winner"]]
    assert winner["rank"] == 1 and f"{seat_label(out['winner'], winner['strategy'])} wins" in text.output
    assert len(out["events"]) > 20


def test_cli_play_game_ag_refuses_bad_input_in_one_line():
    got = CliRunner().invoke(main, ["play", "--game", "ag", "--strategies", "nobody"])
    assert got.exit_code != 0 and "unknown strategy 'nobody'" in (got.output + str(got.exception))
    got = CliRunner().invoke(main, ["play", "--game", "ag", "--set", "renown.parrain=0"])
    assert got.exit_code != 0 and "renown.parrain" in (got.output + str(got.exception))
