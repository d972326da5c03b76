"""The verdict's rules judged by their own Monte Carlo (sim.verdict.selfcheck): the four cases of
docs/reports.md, cells drawn binomially at an earlier verdict's counts (docs/findings.md: 7,203 games a heuristic rung,
165 for the search mirror) with Wilson intervals, 1,000 readings a case."""

import pytest

from sim.verdict.selfcheck import reading_rates

REPS = 1000


@pytest.fixture(scope="module")
def rates():
    return {case: reading_rates(case, REPS, seed=0) for case in
            ("unjudged top", "constant", "monotone trend", "style scatter")}


def test_an_unjudged_top_rung_is_never_read_under_every_skill(rates):
    got = rates["unjudged top"]
    assert got["at every skill"] == 0.0          # the +8-point gap at the top is never hidden
    assert got["holds from the weakest judged rung"] >= 0.95


def test_a_constant_measure_holds_from_the_weakest_judged_rung(rates):
    assert rates["constant"]["holds from the weakest judged rung"] >= 0.95
    assert rates["constant"]["changes with skill"] <= 0.05


def test_a_monotone_trend_of_3_6_points_reads_as_a_change(rates):
    assert rates["monotone trend"]["changes with skill"] >= 0.80


def test_style_scatter_without_trend_is_rarely_a_change_with_skill(rates):
    assert rates["style scatter"]["changes with skill"] <= 0.05
