"""`mobsim advise` (sim.verdict.advise): problems read at the good rungs, candidates screened and
tuned, the nearest verified on the same games as today's rules, the three best proposed with their
side effects; synthetic cells for the logic, a tiny Pig study for the command, and a New York Kings
study whose answer is known (seat 1 made poorer than the others: the compensation must pay it)."""

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from sim.cli import main
from sim.verdict import advise as A
from sim.verdict import fairness


def frame(p_first, turns, players=3, games=6000, seed=1):
    rng = np.random.default_rng(seed)
    probs = [p_first] + [(1 - p_first) / (players - 1)] * (players - 1)
    winner = rng.choice(players, size=games, p=probs)
    out = pd.DataFrame({"game_id": np.arange(games), "players": players,
                        "turns": turns + rng.normal(0, 2, games)})
    for s in range(players):
        out[f"won_{s + 1}"] = winner == s
    return out


def study(candidates):
    """Today's rules: seat 1 wins 40% at 3 players (fair 33.3%); each candidate its own share."""
    frames = {("", rung, 3): frame(0.40, 11, seed=i).assign(rung=rung) for i, rung in enumerate(("a", "b"))}
    for name, share in candidates.items():
        for i, rung in enumerate(("a", "b")):
            frames[(name, rung, 3)] = frame(share, 11, seed=i).assign(rung=rung)
    return A.measure_cells(frames)


def test_a_problem_gets_the_candidates_nearest_fair_first_with_their_paired_effect():
    cells, changes = study({"x=1": 0.36, "x=2": 0.335, "x=3": 0.45, "x=4": 0.38})
    problems = A.problems_of(cells, 0.02, {})
    seat1 = next(p for p in problems if p["measure"] == "seat 1 advantage")
    assert seat1["reading"].startswith("unfair by +6.")
    got = A.proposals(cells, changes, seat1, 0.02, {})
    assert [p["change"] for p in got] == ["x=2", "x=1", "x=4"]            # three, nearest fair first
    assert got[0]["fixes"] and got[0]["reading"].startswith("fair at")
    effect = {e["rung"]: e for e in got[0]["effect"]}
    assert effect["a"]["hi"] < 0                                             # paired: seat 1 loses share
    assert "game length" not in got[0]["side_effects"]                       # the same turns: no move


def test_candidates_the_screen_puts_inside_the_band_are_verified_nearest_fair_first():
    # a seat 3 points behind: three changes land inside +-2 points, one at the edge, one at fair
    screened = pd.DataFrame({"candidate": ["a.edge", "b.none", "c.fair", "d.near"], "measure": "seat 1 advantage",
                             "players": 4, "base": -0.03, "change": [0.012, 0.0, 0.031, 0.02], "point": range(4)})
    screened = screened.assign(lo=screened["change"] - 0.01, hi=screened["change"] + 0.01)
    problem = {"measure": "seat 1 advantage", "players": 4}
    order = list(A.screened_rank(screened, problem, 0.02, {}).index)
    assert order == ["c.fair", "d.near", "a.edge", "b.none"]   # not the first by name among those inside
    assert A.pick_for_verification(screened, [problem], 2, 0.02, {}) == [2, 3]
    # the change that puts seat 1 at fair by pushing seat 2 out of the band is no fix: it goes last
    seat2 = screened.assign(measure="seat 2 advantage", base=0.01, change=[0.0, 0.0, 0.025, 0.0])
    order = list(A.screened_rank(pd.concat([screened, seat2]), problem, 0.02, {}).index)
    assert order == ["d.near", "a.edge", "b.none", "c.fair"]
    # a seat already out of the band today that a change leaves as it is does not count against it
    seat3 = screened.assign(measure="seat 3 advantage", base=0.03, change=[0.0, 0.0, 0.0, 0.0])
    order = list(A.screened_rank(pd.concat([screened, seat3]), problem, 0.02, {}).index)
    assert order == ["c.fair", "d.near", "a.edge", "b.none"]


def test_the_screen_prefers_a_precise_change_inside_the_band_to_a_noisy_one_at_its_centre():
    # the winner's curse: a change that moves nothing, screened on few games, may land at fair by
    # chance (+3 points, interval +-2.8); a precise change (+2 points, +-1) lands at -1: likelier inside
    screened = pd.DataFrame({"candidate": ["noisy", "precise"], "measure": "seat 1 advantage", "players": 4,
                             "base": -0.03, "change": [0.03, 0.02], "lo": [0.002, 0.01], "hi": [0.058, 0.03],
                             "point": range(2)})
    problem = {"measure": "seat 1 advantage", "players": 4}
    ranked = A.screened_rank(screened, problem, 0.02, {})
    assert list(ranked.index) == ["precise", "noisy"]
    assert ranked.loc["precise", "p_inside"] == pytest.approx(0.975, abs=1e-3)   # level -1 point, -2 at 1.96 se
    assert ranked.loc["noisy", "p_inside"] == pytest.approx(math.erf(2 / 1.4286 / 2 ** 0.5), abs=1e-3)   # +-2 at 1.4 se
    assert A.chance_inside(np.array([0.0, 0.05, np.nan]), np.array([0.0, 0.0, 0.01]), (-0.02, 0.02, "")).tolist() \
        == [1.0, 0.0, 0.0]                                                  # exact levels, an undefined one


def test_default_candidates_are_the_designer_knobs():
    got = A.default_candidates("nyk")
    assert {"seats.turn1_ties": "first_seat"} in got and {"seats.money": [0, 2000, 0, 0, 0]} in got
    assert A.default_candidates("pig") == []


def test_the_command_writes_its_files_and_answers_first(tmp_path):
    out = tmp_path / "adv"
    r = CliRunner().invoke(main, ["advise", "--game", "pig", "--players", "2", "--rungs", "simple,optimal",
                                  "--try", "goal=150", "--try", "goal=50", "--games", "300",
                                  "--target-turns", "12-14", "--out", str(out)])
    assert r.exit_code == 0, r.output
    doc = json.loads((out / "advice.json").read_text())
    length = next(p for p in doc["problems"] if p["measure"] == fairness.TURNS)
    assert length["reading"].startswith("too short")
    best = length["proposals"][0]["change"]
    assert best.startswith("goal=") and int(best[5:]) > 100                 # a longer race: tried or tuned
    assert {"goal=150", "goal=50"} <= {s["change"] for s in length["screened"]}
    for proposal in length["proposals"]:
        assert proposal["sentence"].startswith(proposal["change"])
        assert all(e["lo"] <= e["change"] <= e["hi"] for e in proposal["effect"])    # paired, with intervals
        assert {"seat 1 advantage", "max seat gap"} <= {s["measure"] for s in proposal["side"]}
        assert all(s["lo"] <= s["change"] <= s["hi"] for s in proposal["side"])
    assert length["screened"] and doc["meta"]["verified"]
    assert "not re-fitted" in (out / "index.md").read_text()
    assert r.stdout.startswith("game length (turns) at 2 players: too short")


def test_max_today_bounds_the_games_that_decide_today_s_rules(tmp_path):
    """A length measure outside its band but undecided on 60 games: today's rules are played again
    on more games to decide it, at most --max-today a cell."""
    out = tmp_path / "adv"
    r = CliRunner().invoke(main, ["advise", "--game", "pig", "--players", "2", "--rungs", "simple,optimal",
                                  "--try", "goal=150", "--games", "60", "--target-turns", "12-14",
                                  "--tolerance", "3", "--max-today", "150", "--out", str(out)])
    assert r.exit_code == 0, r.output
    meta = json.loads((out / "advice.json").read_text())["meta"]
    assert meta["games"] == {"2": 60} and meta["today_games"] == {"2": 150}
    assert "not yet decided; 150 games a cell" in r.output
    reference = (Path(__file__).resolve().parent.parent / "docs" / "cli.md").read_text()
    assert f"decide a suspected problem (default: {A.MAX_TODAY:,};" in reference   # the help names the constant


def test_bad_input_is_one_line(tmp_path):
    for args in (["--rungs", "nosuch"], ["--try", "nosuch=1"], ["--target-turns", "9-x"]):
        r = CliRunner().invoke(main, ["advise", "--game", "pig", "--players", "2", "--games", "10",
                                      "--out", str(tmp_path / "x"), *args])
        lines = [line for line in r.output.splitlines() if line.strip()]
        assert r.exit_code == 2 and len(lines) == 1 and lines[0].startswith("mobsim: error:"), r.output


def test_counts_come_from_the_tolerance():
    assert A.verify_games(0.02, 4) == 3602             # 1.96^2 x 2 x 0.25 x 0.75 / 0.02^2, rounded up
    assert A.screen_games(3602) == 901
    assert A.verify_games(0.04, 4) < A.verify_games(0.02, 4) < A.verify_games(0.02, 3)


def test_the_secant_step_interpolates_between_the_bracketing_values():
    assert A.secant([(0, 0), (3, 0.03), (14, 0.25)], 0.15) == pytest.approx(3 + 0.12 * 11 / 0.22)
    assert A.secant([(0, 0), (3, 0.03)], 0.09) == pytest.approx(9)     # none brackets: the line through 0
    assert A.secant([(-1, 0.0), (0, 0), (1, 0.0)], 0.05) is None         # nothing moved


def test_a_seat_made_poorer_is_paid_back_by_the_compensation_knob():
    # today's rules: every seat but seat 1 paid $9,000 at setup; one candidate pays seat 1 $3,000,
    # which the screen finds too little: the tuning must find the amount that restores seat 1
    poorer = [0, 9000, 9000, 9000, 0]
    advice = A.advise("nyk", [4], rungs=["simple"], tolerance=0.03, games=2000, screen=600, seed=0,
                      candidates=[{"seats.money": [3000, 9000, 9000, 9000, 0]}],
                      overrides={"seats.money": poorer})
    seat1 = next(p for p in advice.problems if p["measure"] == "seat 1 advantage")
    assert seat1["reading"].startswith("unfair by -")
    best = seat1["proposals"][0]
    assert best["change"].startswith("seats.money=[") and best["within_band"], best["sentence"]
    paid = int(best["change"].split("[")[1].split(",")[0])
    assert 6000 <= paid <= 12000                                           # tuned, not the $3,000 tried
    assert all(e["lo"] > 0 for e in best["effect"])                        # paired: seat 1 gains share
    assert best["sentence"].startswith(best["change"]) and "seat 2 advantage" in best["sentence"]


class ShareOfSeatOne:
    """A player whose cells are synthetic games: seat 1's share by change, the first games of every
    count the same (common random numbers, as the runner's game ids give)."""

    def __init__(self, shares):
        self.shares, self.plays = shares, []

    def play(self, point, rung, n, count, spec=None):
        self.plays.append((A.label(point), rung, count))
        share = self.shares[A.label(point)]
        return frame(share, 11, players=n, games=count, seed=("a", "b").index(rung)).assign(rung=rung)


def test_a_candidate_inside_the_band_but_undecided_is_confirmed_on_the_games_it_needs():
    # today's seat 1 wins 40% at 3 players (fair 33.3%); x=1 puts it at 34.5%, inside +-2 points,
    # which 500 paired games cannot tell from the band's edge; x=9 lands outside: never replayed
    player = ShareOfSeatOne({"": 0.40, "x=1": 0.345, "x=9": 0.37})
    frames = {("", r, 3): player.play({}, r, 3, 6000) for r in ("a", "b")}
    points = {"x=1": {"x": 1}, "x=9": {"x": 9}}
    frames |= {(c, r, 3): player.play(points[c], r, 3, 500) for c in points for r in ("a", "b")}
    cells, changes = A.measure_cells(frames)
    found = A.problems_of(cells, 0.02, {})
    seat1 = next(p for p in found if p["measure"] == "seat 1 advantage")
    best = A.proposals(cells, changes, seat1, 0.02, {})[0]
    assert best["change"] == "x=1" and best["within_band"] and not best["fixes"] and best["need_games"] > 500
    wanted = A.to_confirm(cells, changes, [seat1], 0.02, {})
    assert list(wanted) == [("x=1", 3)] and wanted[("x=1", 3)] >= 1000       # the hopeful one, at least doubled
    player.plays.clear()
    rounds, _, _ = A.confirm(player, frames, [seat1], points, ["a", "b"], 0.02, {},
                             A.MAX_TODAY, lambda _m: None)
    assert rounds and {r["change"] for r in rounds} == {"x=1"}
    assert all(change != "x=9" for change, _, _ in player.plays)
    cells, changes = A.measure_cells(frames)
    best = A.proposals(cells, changes, seat1, 0.02, {})[0]
    assert best["change"] == "x=1" and best["fixes"], best["reading"]       # decided: fair at every rung
    assert A.to_confirm(cells, changes, [seat1], 0.02, {}) == {}             # nothing left to confirm


def test_a_change_that_fixes_one_seat_by_making_another_unfair_is_no_fix():
    # today seat 1 wins 40% at 3 players; "push" brings it to fair by handing seat 2 its edge
    def shares(probs, seed):
        rng = np.random.default_rng(seed)
        winner = rng.choice(3, size=6000, p=probs)
        out = pd.DataFrame({"game_id": np.arange(6000), "players": 3, "turns": 11 + rng.normal(0, 2, 6000)})
        return out.assign(**{f"won_{s + 1}": winner == s for s in range(3)})

    lineups = {"": [0.40, 0.30, 0.30], "push": [0.335, 0.43, 0.235], "fair": [0.34, 0.33, 0.33]}
    frames = {(name, rung, 3): shares(probs, i).assign(rung=rung)
              for name, probs in lineups.items() for i, rung in enumerate(("a", "b"))}
    cells, changes = A.measure_cells(frames)
    seat1 = next(p for p in A.problems_of(cells, 0.02, {}) if p["measure"] == "seat 1 advantage")
    got = {p["change"]: p for p in A.proposals(cells, changes, seat1, 0.02, {})}
    assert list(got) == ["fair", "push"]
    assert got["fair"]["fixes"] and not got["fair"]["pushes_out"]
    push = got["push"]
    assert push["reading"].startswith("fair at") and not push["fixes"]   # seat 1 itself is fair ...
    assert {p["measure"] for p in push["pushes_out"]} >= {"seat 2 advantage"}   # ... at seat 2's cost
    assert "pushes another seat out of the band (seat 2 advantage unfair by +" in push["sentence"]


def test_a_candidate_played_again_but_not_proposed_is_named_with_its_rank_and_why():
    cells, changes = study({"x=1": 0.36, "x=2": 0.335, "x=3": 0.45, "x=4": 0.38})
    seat1 = next(p for p in A.problems_of(cells, 0.02, {}) if p["measure"] == "seat 1 advantage")
    confirmed = [{"change": "x=1", "players": 3, "games": 12000, "round": 1},
                 {"change": "x=3", "players": 3, "games": 12000, "round": 1},
                 {"change": "x=3", "players": 4, "games": 12000, "round": 2}]   # another count: not this problem's
    dropped = A.confirmed_not_proposed(cells, changes, seat1, 0.02, {}, confirmed)
    assert [(d["change"], d["rank"], d["of"]) for d in dropped] == [("x=3", 4, 4)]   # x=1 is proposed
    assert dropped[0]["why"] in ("it pushes another seat out of the band",
                                 "a level left the band on the games played again")
    said = A.dropped_sentence({"confirmed_not_proposed": dropped})
    assert said.startswith("x=3, played again to confirm it, is not among the proposals: it ranks 4 of 4")
    assert A.dropped_sentence(seat1) == ""
