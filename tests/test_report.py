"""A run's balance report (`report_run`, `mobsim report`): its tables against numbers computed
directly from the run's tables, its figures, its metadata, and refusals of bad input."""

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

import sim
from sim import __version__
from sim.analysis import headline, report_run
from sim.cli import main

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
GAMES = 1200


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("runs") / "study"
    return sim.run(players=4, strategies="simple,random,simple,random", games=GAMES, seed=11, workers=1,
                   record_turns=True, out=out)


@pytest.fixture(scope="module")
def report(run, tmp_path_factory):
    """The report as `mobsim report` writes it (report_run behind the command)."""
    out = tmp_path_factory.mktemp("reports") / "study"
    result = CliRunner().invoke(main, ["report", str(run.path), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert f"report written: {out / 'index.html'}" in result.stdout
    return out


def table(report_dir: Path, name: str, **kwargs) -> pd.DataFrame:
    return pd.read_csv(report_dir / "tables" / f"{name}.csv", **kwargs)


def test_headline_table_is_the_headline_of_the_run(run, report):
    written = table(report, "headline", index_col="metric")
    expected = headline.headline(run.games, run.seats)
    assert list(written.index) == list(expected.index)
    pd.testing.assert_frame_equal(written[["value", "lo", "hi"]], expected[["value", "lo", "hi"]], rtol=1e-12)
    assert written.loc["turns", "value"] == pytest.approx(run.games["turns"].mean())
    seat_rates = run.seats.groupby("seat")["won"].mean()
    assert 0 < seat_rates.max() - seat_rates.min() - written.loc["seat_gap", "value"] < 0.05  # bias-corrected
    assert written.loc["seat0_advantage", "value"] == pytest.approx(seat_rates[0] - seat_rates.mean())


def test_per_turn_tables_and_seat_advantage_are_written(run, report):
    for name in ("seat-advantage", "runaway-leader", "winner-mid-game-place", "first-elimination", "kingmaking",
                 "head-to-head"):
        assert (report / "tables" / f"{name}.csv").is_file(), name
    for name in ("seat-advantage", "runaway-leader"):
        assert (report / "figures" / f"{name}.png").read_bytes()[:8] == PNG_MAGIC
    runaway = table(report, "runaway-leader")
    assert (runaway["games"] >= 30).all()
    assert ((runaway["lo"] <= runaway["share"]) & (runaway["share"] <= runaway["hi"])).all()
    place = table(report, "winner-mid-game-place").set_index("place")
    assert place.loc[["1", "2", "3", "4"], "count"].sum() == GAMES


def test_win_rate_tables_count_the_seats(run, report):
    by_strategy = table(report, "win-rate-by-strategy").set_index("strategy")
    direct = run.seats.groupby("strategy", observed=True)["won"].agg(["size", "sum"])
    for name, row in direct.iterrows():
        assert by_strategy.loc[name, "seats"] == row["size"] and by_strategy.loc[name, "wins"] == row["sum"]
    by_seat = table(report, "win-rate-by-seat")
    assert by_seat["seats"].tolist() == [GAMES] * 4
    assert by_seat["wins"].sum() == run.seats["won"].sum()
    cross = table(report, "win-rate-by-strategy-and-seat")
    assert cross["wins"].sum() == run.seats["won"].sum() and (cross["lo"] <= cross["win_rate"]).all()


def test_pairwise_strategies_are_per_game_differences(run, report):
    pairs = table(report, "pairwise-strategies")
    assert len(pairs) == 1
    shares = run.seats.groupby(["game_id", "strategy"], observed=True)["won"].mean().unstack()
    d = shares[pairs.loc[0, "a"]] - shares[pairs.loc[0, "b"]]
    assert pairs.loc[0, "diff"] == pytest.approx(d.mean())
    assert pairs.loc[0, "hi"] - pairs.loc[0, "diff"] == pytest.approx(1.959963984540054 * d.std() / np.sqrt(len(d)))
    seats = table(report, "pairwise-seats")
    assert len(seats) == 6 and (seats["p_holm"] >= seats["p_value"] - 1e-15).all()


def test_ratings_solve_the_bradley_terry_equations(report):
    wins = table(report, "pairwise-wins", index_col="ahead")
    ratings = table(report, "ratings").set_index("strategy")
    names = list(wins.index)
    w = wins.loc[names, names].to_numpy(float) + 0.5 * (1 - np.eye(len(names)))  # the half-win prior
    p = 10 ** (ratings.loc[names, "rating"].to_numpy() / 400)
    for i in range(len(names)):
        expected = sum((w[i, j] + w[j, i]) * p[i] / (p[i] + p[j]) for j in range(len(names)) if j != i)
        assert w[i].sum() == pytest.approx(expected, rel=1e-6)
    assert (ratings["lo"] <= ratings["rating"]).all() and (ratings["rating"] <= ratings["hi"]).all()


def test_quality_tables_add_up(run, report):
    games = run.games
    durations = table(report, "durations").set_index("turns")["games"]
    assert durations.to_dict() == games["turns"].value_counts().to_dict()
    endings = table(report, "endings")
    assert endings["games"].sum() == GAMES
    plain = endings[~endings["tie_break"]]["games"].sum()
    head = table(report, "headline", index_col="metric")
    assert 1 - plain / GAMES == pytest.approx(head.loc["tiebreak_rate", "value"])
    closeness = table(report, "closeness").set_index("measure")
    assert closeness.loc["comeback (winner behind at mid-game)", "count"] == (games["winner_deficit_mid"] > 0).sum()
    curve = table(report, "leader-curve")
    assert list(curve["progress"]) == pytest.approx([0.1 * k for k in range(1, 11)])
    assert curve["winner_leads"].iloc[-1] >= 0.99  # at the end the winner (almost always) has the most
    first = table(report, "first-player", dtype={"times_first": str})
    assert first["seats"].sum() == len(run.seats) and first["wins"].sum() == run.seats["won"].sum()


def test_fortune_tables_match_the_run(run, report):
    final = table(report, "final-fortunes").set_index("strategy")
    for name, group in run.seats.groupby("strategy", observed=True):
        assert final.loc[name, "median"] == group["fortune"].median()
        per_game = group.groupby("game_id")["fortune"].mean()
        assert final.loc[name, "mean"] == pytest.approx(per_game.mean())
    bands = table(report, "fortune-bands")
    start = bands[bands["turn"] == 0]
    assert (start[["q10", "q50", "q90"]] == 16_000).all().all()  # NYK-S: $16,000 each at the start
    assert start["seats"].sum() == len(run.seats)


def test_money_flows_balance_to_the_final_fortune(run, report):
    flows = table(report, "money-flows")
    mean = flows[flows["strategy"] == "all"].set_index("column")["mean"]
    income = mean["mission_income"] + mean["card_income"]
    spending = mean["bids_paid"] + mean["recruit_spent"] + mean["heli_spent"]
    assert 16_000 + income - spending + mean["other_net"] == pytest.approx(run.seats["fortune"].mean())
    simple = flows[(flows["strategy"] == "simple") & (flows["column"] == "mission_income")].iloc[0]
    mine = run.seats[run.seats["strategy"] == "simple"]
    assert simple["mean"] == pytest.approx(mine.groupby("game_id")["mission_income"].mean().mean())


def test_mechanics_tables_count_the_counters(run, report):
    seats = run.seats
    missions = table(report, "missions").set_index("kind")
    assert missions.loc["crew of 1", "accepted"] == seats["missions_accepted_1"].sum()
    assert missions.loc["at risk (either crew)", "done"] == seats["missions_done_risky"].sum()
    assert missions.loc["crew of 1", "deck_cards"] + missions.loc["crew of 2", "deck_cards"] == 24
    stages = table(report, "provocation-stages").set_index("measure")
    assert stages["count"].sum() == seats["provocations_made"].sum()  # each ends by a fold or a fight
    police = table(report, "police")
    arrests = police[(police["group"] == "all") & (police["measure"] == "arrests / interrogations")].iloc[0]
    assert arrests["count"] == seats["arrests"].sum() and arrests["out_of"] == seats["interrogations"].sum()
    deaths = table(report, "deaths").set_index("group")
    assert deaths.loc["all", "count"] == (~seats["alive"]).sum()
    recruits = table(report, "recruits").set_index("group")
    assert recruits.loc["all", "rate"] == pytest.approx(seats["recruits_done"].sum() / seats["recruits_tried"].sum())


def test_figures_are_non_empty_pngs_in_both_pages(report):
    figures = sorted((report / "figures").glob("*.png"))
    names = {f.stem for f in figures}
    assert {"win-rates", "strategy-by-seat", "ratings", "durations", "first-player", "lead", "fortunes",
            "money-flows", "missions", "provocations"} <= names
    md = (report / "index.md").read_text(encoding="utf-8")
    html = (report / "index.html").read_text(encoding="utf-8")
    for figure in figures:
        data = figure.read_bytes()
        assert data.startswith(PNG_MAGIC) and len(data) > 5000
        assert f"figures/{figure.name}" in md
    assert html.count("data:image/png;base64,") == len(figures)
    assert "<script" not in html and "http://" not in html and "https://" not in html


def test_report_records_the_manifest(run, report):
    md = (report / "index.md").read_text(encoding="utf-8")
    html = (report / "index.html").read_text(encoding="utf-8")
    m = run.manifest
    for text in (md, html):
        assert m["ruleset"]["fingerprint"] in text and __version__ in text
        assert "--seed 11" in text and "--games 1200" in text and "--record-turns" in text
    assert "Definitions and methods" in md and "Holm" in md


def test_definitions_cover_every_metric_and_docs_name_every_table(run, report):
    docs = (Path(__file__).resolve().parent.parent / "docs" / "reports.md").read_text(encoding="utf-8")
    for metric in headline.headline(run.games, run.seats).index:
        assert headline.definition(metric), metric
        assert f"`{metric.split(':')[0]}" in docs, metric
    for csv in (report / "tables").glob("*.csv"):
        if csv.stem != "definitions":
            assert f"{csv.stem}.csv" in docs, csv.stem


# --- the command ------------------------------------------------------------------------------------

def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_mobsim_report_names_its_command_and_report_run_its_index(run, report, tmp_path):
    md = (report / "index.md").read_text(encoding="utf-8")
    assert f"mobsim report {run.path} --out {report}" in md
    assert report_run(run, tmp_path / "again") == tmp_path / "again" / "index.html"
    same = (tmp_path / "again" / "tables" / "headline.csv").read_text()
    assert same == (report / "tables" / "headline.csv").read_text()  # seeded: the same run, the same report


def one_line_error(result) -> str:
    assert result.exit_code == 2, result.output
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("mobsim: error:"), result.stderr
    return result.stderr


def test_bad_run_directories_give_one_line(run, tmp_path):
    assert "no such run directory" in one_line_error(invoke("report", tmp_path / "missing", "--out", tmp_path / "r"))
    (tmp_path / "plain").mkdir()
    (tmp_path / "plain" / "notes.txt").write_text("hello")
    assert "not a mobsim run directory" in one_line_error(invoke("report", tmp_path / "plain"))
    (tmp_path / "file").write_text("x")
    assert "is a file" in one_line_error(invoke("report", tmp_path / "file"))
    corrupt = tmp_path / "corrupt"
    corrupt.mkdir()
    (corrupt / "manifest.json").write_text("{not json")
    assert "corrupt" in one_line_error(invoke("report", corrupt, "--out", tmp_path / "r"))
    (tmp_path / "fields").mkdir()
    (tmp_path / "fields" / "manifest.json").write_text(json.dumps({"batches_done": [0]}))
    assert "corrupt" in one_line_error(invoke("report", tmp_path / "fields", "--out", tmp_path / "r"))
    assert "run directory" in one_line_error(invoke("report", run.path, "--out", run.path))


def test_a_damaged_part_gives_one_line(run, tmp_path):
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(run.path, copy)
    part = sorted((copy / "seats.parquet").glob("part-*.parquet"))[0]
    part.write_bytes(b"garbage")
    message = one_line_error(invoke("report", copy, "--out", tmp_path / "r"))
    assert re.search(r"damaged or missing .*--resume", message)


def test_a_game_without_its_own_sections_gets_the_generic_report(tmp_path):
    """Only the columns every game has: no turns recorded, no NYK counters, an unknown game."""
    from test_report_headline import synthetic_run

    from sim.analysis.run_report import build_report

    games, seats = synthetic_run(200)

    class Minimal:
        path, turns = None, None
        manifest = {"game": "zz", "seed": 1, "games": 200, "players": 4, "status": "complete",
                    "strategies": {"names": ["a", "b", "a", "c"]}, "ruleset": {"fingerprint": "f" * 64}}

    run = Minimal()
    run.games = games[["game_id", "n_players", "turns", "winner_seat"]]
    run.seats = seats[["game_id", "seat", "strategy", "won", "rank", "fortune"]]
    index = build_report(run).write(tmp_path)
    md = (tmp_path / "index.md").read_text(encoding="utf-8")
    assert index.exists() and "## Who wins" in md and "## Mechanics" not in md
    assert "need a run recorded with --record-turns" in md
    head = table(tmp_path, "headline", index_col="metric")
    assert "cap_rate" not in head.index and head.loc["winrate:c", "value"] == pytest.approx(
        seats[seats["strategy"] == "c"]["won"].mean())


def test_pages_count_seats_from_1_and_the_stored_tables_keep_the_index(report):
    assert sorted(table(report, "win-rate-by-seat")["seat"]) == [0, 1, 2, 3]    # stored: the engine's index
    page = (report / "index.md").read_text()
    assert "; seat 1 (first in turn 1's bidding) wins" in page and "; seat 0 (" not in page
    assert "seat 1 advantage (seat0_advantage)" in page and "Seat 1's win rate" in page
    shown = page.split("Win rate by seat (seat 1:")[1].split("\n\n")[1]
    assert re.search(r"^\|\s*1\s*\|", shown, re.M) and not re.search(r"^\|\s*0\s*\|", shown, re.M)
