"""The designer's first question, apart from the second (sim.verdict.fairness): a measure at the
good rungs against its target, in points (or turns) with its 95% interval, on synthetic cells."""

import pytest

from sim.verdict import fairness
from sim.verdict.study import measure_table, verdict_table
from tests.test_verdict import RUNGS, synthetic

SEAT = "seat 1 advantage"


def reading(cells, measure=SEAT, **kw):
    return fairness.reading(measure, cells, **kw)


def test_a_seat_inside_the_tolerance_is_fair_and_one_wholly_outside_is_unfair_in_points():
    fair = reading([("tuned", 0.004, -0.006, 0.014, 8000)])
    assert fair["target"] == fairness.WITHIN and fair["target_text"].startswith("fair at tuned")
    unfair = reading([("tuned", -0.041, -0.053, -0.029, 5000), ("meta", -0.03, -0.045, -0.021, 3000)])
    assert unfair["target"] == fairness.OUTSIDE
    assert unfair["target_text"] == "unfair by -4.1 points [-5.3, -2.9] at tuned; also outside at meta"


def test_an_interval_across_the_tolerance_cannot_tell_and_says_how_many_games_would():
    # -3.0 [-4.8, -1.0] at 2,000 games: half-width 1.9 points, 1.0 point from the edge of +-2
    got = reading([("tuned", -0.030, -0.048, -0.010, 2000)])
    assert got["target"] == fairness.UNSURE and "cannot tell yet at tuned" in got["target_text"]
    assert got["target_games"] == pytest.approx(2000 * (0.019 / 0.010) ** 2, rel=0.01)
    # one rung outside is enough for "unfair", whatever the others say
    assert reading([("a", 0.0, -0.03, 0.03, 100), ("b", 0.05, 0.03, 0.07, 9000)])["target"] == fairness.OUTSIDE


def test_an_estimate_on_the_edge_is_never_promised_a_decision():
    got = fairness.read(0.02, 0.0, 0.04, 1000, fairness.band_of(SEAT, 0.02))
    assert got["need_at_least"] and got["need_games"] > 1000


def test_the_tolerance_is_the_designers_and_the_biased_seat_gap_is_not_read():
    cell = [("tuned", 0.03, 0.025, 0.035, 20000)]
    assert reading(cell)["target"] == fairness.OUTSIDE
    assert reading(cell, tolerance=0.04)["target"] == fairness.WITHIN
    assert reading([("tuned", 0.12, 0.05, 0.2, 400)], measure="max seat gap")["target"] == ""


def test_game_length_is_read_against_the_target_turns_in_turns():
    targets = {fairness.TURNS: fairness.parse_target_turns("10-12")}
    long = reading([("tuned", 13.2, 13.0, 13.4, 4000)], measure=fairness.TURNS, targets=targets)
    assert long["target_text"] == "too long by 1.2 turns [1, 1.4] at tuned"
    short = reading([("tuned", 9.0, 8.8, 9.3, 4000)], measure=fairness.TURNS, targets=targets)
    assert short["target_text"] == "too short by 1 turns [0.7, 1.2] at tuned"
    assert reading([("tuned", 9.0, 8.8, 9.3, 4000)], measure=fairness.TURNS)["target"] == ""   # no target given
    assert fairness.parse_target_turns("11") == (10.5, 11.5)
    with pytest.raises(ValueError, match="LOW-HIGH"):
        fairness.parse_target_turns("12-10")


def test_other_measures_take_targets_in_their_own_unit():
    assert fairness.parse_target("a player out=0-10") == ("a player out", (0.0, 0.1))
    assert fairness.parse_target("lead changes=2-5") == ("lead changes", (2.0, 5.0))
    targets = dict([fairness.parse_target("a player out=0-10")])
    got = reading([("tuned", 0.25, 0.22, 0.28, 900)], measure="a player out", targets=targets)
    assert got["target_text"] == "above by 15.0 points [12.0, 18.0] at tuned"
    for bad in ("seat 1 advantage=0-2", "nosuch=1-2", "a player out=10-0"):
        with pytest.raises(ValueError):
            fairness.parse_target(bad)


def test_the_verdict_table_reads_both_questions_apart_at_the_good_rungs():
    # seat 1 +6 points at every rung: stable across skill, and unfair; length 11 turns: on target
    table = synthetic(advantage=[0.06] * 5, turns_mean=[11] * 5, games=6000)
    v = verdict_table(measure_table(table, RUNGS), RUNGS, precision=0.02,
                      targets={fairness.TURNS: (10, 12)}).set_index("measure")
    seat = v.loc[SEAT]
    assert seat["verdict"] == "holds" and seat["target"] == fairness.OUTSIDE
    assert seat["target_text"].startswith("unfair by +6") and "at r" in seat["target_text"]
    assert "r0" not in seat["target_detail"] and "r2" in seat["target_detail"]   # good rungs: r2, r3, r4
    assert "+- " not in seat["text"] and "band ±" in seat["text"] and "points" in seat["text"]
    assert v.loc[fairness.TURNS, "target"] == fairness.WITHIN
    edge = v.loc["seat 2 advantage"]            # -2 points: on the edge of the band, never decided
    assert edge["target"] == fairness.UNSURE and "need at least" in edge["target_text"]
