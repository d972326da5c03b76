"""The American Gangsters sections of a run's report (sim.analysis.games.ag): the tables agree with
the run's tables counted another way, and the report of an AG run holds them."""

import numpy as np
import pytest

from sim.analysis.games import ag
from sim.analysis.run_report import build_report
from sim.runner import run


@pytest.fixture(scope="module")
def study():
    return run(game="ag", players=4, strategies=("racketeer", "warlord", "politician", "informer-aware"),
               games=400, seed=5, workers=1, progress=False)


def test_endings_count_every_game_once(study):
    table = ag.endings(study.games)
    for what in ("ended_by", "decided_by"):
        part = table[table.what == what]
        assert part["count"].sum() == len(study.games) and part.rate.sum() == pytest.approx(1.0)
        assert (part.lo <= part.rate).all() and (part.rate <= part.hi).all()
    informer_ends = int(table[(table.what == "ended_by") & (table.group == "informer")]["count"].sum())
    assert informer_ends == int(study.games.informer_won.sum())


def test_informer_table_matches_the_seats(study):
    games, seats = study.games, study.seats
    table = ag.informer(games, seats).set_index("group")
    assert table.loc["dealt (games with an informer)", "count"] == (games.informer_seat >= 0).sum()
    dealt = seats[seats.informer]
    assert table.loc["informer wins (all strategies)", "count"] == dealt.won.sum()
    assert table.filter(like=" as informer", axis=0)["out_of"].sum() == len(dealt)
    assert table.filter(like=" as mafia", axis=0)["out_of"].sum() == len(seats) - len(dealt)


def test_fbi_and_titles_tables(study):
    games, seats = study.games, study.seats
    fbi = ag.fbi_track(games, 6).set_index("measure")
    assert fbi.loc["fbi (mean)", "value"] == pytest.approx(games.fbi.mean())
    assert fbi.loc["games where the pawn reached 6 (share)", "value"] == pytest.approx((games.fbi_peak >= 6).mean())
    titles = ag.titles(seats).set_index("strategy")
    assert titles.loc["all", "titles"] == pytest.approx((seats.barons + seats.caids).mean())
    for name, g in seats.groupby("strategy", observed=True):
        assert titles.loc[name, "caids"] == pytest.approx(g.caids.mean())
    play = ag.play(seats).set_index("strategy")
    assert play.loc["all", "success_rate"] == pytest.approx(seats.locations_succeeded.sum()
                                                            / seats.locations_tried.sum())


def test_the_report_of_an_ag_run_has_the_ag_sections(study):
    report = build_report(study)
    headings = [b[2] for b in report.blocks if b[0] == "heading"]
    for title in ("How games end (AG-G1, G2, E1)", "The informer (AG-C6, G2)", "The FBI track",
                  "Titles held (AG-C4, T5)"):
        assert title in headings
    assert np.isfinite(ag.fbi_by_strategy(study.seats)[["fbi_raised", "fbi_lowered"]].to_numpy()).all()
