"""The verdict across skill (sim.verdict): the rules on synthetic results whose truth is known,
the game counts against their closed form, and `mobsim verdict` on tiny studies of both games."""

import json

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from sim.cli import main
from sim.shared.game import names
from sim.verdict import CHANGES, DIFFER, HOLDS, UNDETERMINED, WEAK, classify
from sim.verdict.plan import allot, games_for_precision
from sim.verdict.study import measure_table, verdict_table

RUNGS = ["r0", "r1", "r2", "r3", "r4"]


def synthetic(advantage, turns_mean, players=4, games=20_000, seed=1) -> pd.DataFrame:
    """Per-game tables of a made-up game: at rung i seat 1 wins 1/n + advantage[i] (the others
    share the rest equally) and games last turns_mean[i] turns on average (sd 3)."""
    rng = np.random.default_rng(seed)
    frames = []
    for i, rung in enumerate(RUNGS):
        p1 = 1 / players + advantage[i]
        probs = [p1] + [(1 - p1) / (players - 1)] * (players - 1)
        winner = rng.choice(players, size=games, p=probs)
        frame = pd.DataFrame({"game_id": np.arange(games), "players": players, "rung": rung,
                              "turns": rng.normal(turns_mean[i], 3.0, games),
                              "comeback": rng.random(games) < 0.3})
        for s in range(players):
            frame[f"won_{s + 1}"] = winner == s
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)


def verdicts(table) -> pd.DataFrame:
    return verdict_table(measure_table(table, RUNGS), RUNGS, precision=0.02).set_index("measure")


def test_a_constant_seat_advantage_holds_and_a_trend_in_length_changes_with_skill():
    table = synthetic(advantage=[0.06] * 5, turns_mean=[14, 12.5, 11, 9.5, 8])
    v = verdicts(table)
    seat = v.loc["seat 1 advantage"]
    assert seat["verdict"] == HOLDS and seat["from_rung"] == "r0"
    assert abs(seat["centre"] - 0.06) < 0.01               # the advantage it holds at, within noise
    length = v.loc["game length (turns)"]
    assert length["verdict"] == CHANGES and length["direction"] == "falling"
    assert length["slope_lo"] < -1.5 < length["slope_hi"]  # the true slope inside its interval
    assert v.loc["comeback (winner behind at mid-game)", "verdict"] == HOLDS


def test_an_advantage_of_weak_play_only_and_a_plateau_from_a_rung_up():
    table = synthetic(advantage=[0.10, 0.08, 0.0, 0.0, 0.0], turns_mean=[14, 12, 10, 10, 10])
    v = verdicts(table)
    seat = v.loc["seat 1 advantage"]
    assert seat["verdict"] == WEAK and seat["from_rung"] == "r2"
    length = v.loc["game length (turns)"]   # a fall, then a plateau: the plateau and the steps below it
    assert length["verdict"] == HOLDS and length["from_rung"] == "r2" and abs(length["centre"] - 10) < 0.1
    assert length["steps"] == "r0->r1 -1.99; r1->r2 -2.01" and "below, the rungs differ" in length["text"]
    # alone (no page to share the multiplicity with), the fall itself is a change with skill
    alone = classify("game length (turns)", RUNGS, [14, 12, 10, 10, 10], [13.9, 11.9, 9.9, 9.9, 9.9],
                     [14.1, 12.1, 10.1, 10.1, 10.1])
    assert alone["verdict"] == CHANGES and alone["direction"] == "falling" and "from r2 up holds at 10" in alone["text"]


def test_noise_wider_than_the_band_is_undetermined_not_a_verdict():
    got = classify("seat 1 advantage", RUNGS, [0.0, 0.05, -0.05, 0.02, 0.0],
                   [-0.2] * 5, [0.2] * 5)
    assert got["verdict"] == UNDETERMINED and got["not_judged"] == ",".join(RUNGS)


def test_games_for_precision_is_the_binomial_closed_form():
    n = games_for_precision(0.25, 0.01)
    half = 1.959963984540054 * np.sqrt(0.25 * 0.75 / n)
    assert half <= 0.01 < 1.959963984540054 * np.sqrt(0.25 * 0.75 / (n - 1))
    with pytest.raises(ValueError):
        games_for_precision(0.25, 0.0)


def test_allot_serves_cheap_cells_in_full_and_shares_the_rest_of_the_budget():
    # two cheap cells (1 ms a game) want 1000 games each; a costly one (1 s) wants 1000
    games = allot([1000, 1000, 1000], [0.001, 0.001, 1.0], budget=12.0, minimum=2)
    assert games[:2] == [1000, 1000] and games[2] == 10      # 12 s - 2 s left for the costly cell
    assert sum(g * c for g, c in zip(games, [0.001, 0.001, 1.0], strict=True)) <= 12.0 + 1e-9
    assert allot([5], [10.0], budget=1.0, minimum=2) == [2]  # never below the minimum


def _cli(args):
    return CliRunner().invoke(main, ["verdict", *args], catch_exceptions=False)


@pytest.mark.parametrize("game", names())
def test_verdict_command_on_a_tiny_study_writes_its_files(tmp_path, game):
    out = tmp_path / game
    luck = ["--luck", "10"] if game == "ag" else []   # the counterfactual replays, on 10 games
    r = _cli(["--game", game, "--players", "3", "--rungs", "random,simple", "--precision", "0.2",
              "--budget", "5", "--seed", "3", "--workers", "1", "--meta-games", "4", "--out", str(out), *luck])
    assert r.exit_code == 0, r.output
    for name in ("verdict.csv", "verdict.json", "measures.csv", "verdict.png", "per_game.parquet", "metagame.csv"):
        assert (out / name).is_file()
    _check_metagame(out, game, players=3, games=6)   # 4 asked: rounded up to a multiple of the 3 seats
    measures = pd.read_csv(out / "measures.csv")
    assert set(measures["rung"]) == {"random", "simple"}
    assert (measures["lo"] <= measures["estimate"] + 1e-12).all()
    luck_rows = measures[measures["measure"].str.startswith("luck")]
    assert (luck_rows["games"] == 10).all() and len(luck_rows) == (2 if luck else 0)
    doc = json.loads((out / "verdict.json").read_text())
    assert {v["verdict"] for v in doc["verdicts"]} <= {HOLDS, CHANGES, WEAK, UNDETERMINED}
    # the same study compared with itself: no measure moves, every change exactly 0
    r = _cli(["--compare", str(out), str(out), "--out", str(tmp_path / "cmp")])
    assert r.exit_code == 0, r.output
    changes = pd.read_csv(tmp_path / "cmp" / "compare.csv")
    assert not changes["moves"].any() and (changes["change"].abs() < 1e-12).all()


def _check_metagame(out, game, players, games):
    """The verdict's meta-game: every style of the shipped population once, an equilibrium mixture,
    survivors by their weight, the profiles played as the plan says, the sentence on the page."""
    from sim.shared.game import find
    from sim.verdict.metagame import SURVIVES, profile_count

    rows = pd.read_csv(out / "metagame.csv")
    population = find(game).population
    assert rows["strategy"].tolist() == list(population) and (rows["players"] == players).all()
    assert rows["weight"].sum() == pytest.approx(1.0, abs=1e-4) and (rows["weight"] >= 0).all()
    assert (rows["survives"] == (rows["weight"] >= SURVIVES)).all() and rows["survives"].any()
    assert (rows["regret_lo"] <= rows["regret_hi"]).all()
    plan = pd.read_csv(out / "plan.csv").set_index("rung")
    assert plan.loc["meta-game (population)", "games"] == profile_count(len(population), players) * games
    text = json.loads((out / "verdict.json").read_text())["meta"]["metagame"][str(players)]
    assert all(s in text for s in rows.loc[rows["survives"], "strategy"])
    assert "the meta-game of the shipped population" in (out / "index.md").read_text()


def test_profile_count_is_the_multiset_count():
    from itertools import combinations_with_replacement

    from sim.verdict.metagame import profile_count

    for styles, players in [(7, 4), (5, 3), (1, 5), (3, 2)]:
        assert profile_count(styles, players) == len(list(combinations_with_replacement(range(styles), players)))


def test_games_per_profile_round_up_to_whole_rotations():
    from sim.verdict.metagame import games_per_profile

    assert [games_per_profile(g, 3) for g in (1, 3, 4, 6, 100)] == [3, 3, 6, 6, 102]
    assert games_per_profile(100, 4) == 100 and games_per_profile(50, 5) == 50


@pytest.mark.parametrize("args, words", [
    (["--players", "1,4"], "from 2 to 5"),
    (["--rungs", "random"], "at least two different"),
    (["--rungs", "random,nosuch"], "nosuch"),
    (["--precision", "0"], "precision"),
    (["--budget", "-1"], "budget"),
    (["--meta-games", "-1"], "--meta-games"),
])
def test_bad_input_is_one_line(tmp_path, args, words):
    r = CliRunner().invoke(main, ["verdict", *args, "--out", str(tmp_path / "v")])
    assert r.exit_code == 2
    lines = [line for line in r.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("mobsim: error:") and words in lines[0]


def test_compare_refuses_what_is_not_a_verdict(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    r = CliRunner().invoke(main, ["verdict", "--compare", str(tmp_path / "a"), str(tmp_path / "b")])
    assert r.exit_code == 2 and "not a verdict directory" in r.output


def _verdict_of(table, seed=0):
    from sim.verdict import Verdict

    table = table.assign(search_seat=0)
    m = measure_table(table, RUNGS)
    return Verdict(m, verdict_table(m, RUNGS), table, pd.DataFrame(), pd.DataFrame(),
                   {"game": "nyk", "seed": seed, "rungs": RUNGS})


def test_compare_pairs_games_and_finds_a_known_shift_only_where_it_is():
    from sim.verdict import compare, summary

    a = synthetic(advantage=[0.0] * 5, turns_mean=[10] * 5, games=4000)
    b = a.copy()
    strong = b["rung"].isin(["r3", "r4"])
    b.loc[strong, "turns"] += 2.0          # the change moves the strong rungs' games only
    changes = compare(_verdict_of(a), _verdict_of(b)).set_index(["measure", "rung"])
    turns = changes.xs("game length (turns)")
    assert turns.loc["r4", "change"] == pytest.approx(2.0) and turns.loc["r4", "hi"] - turns.loc["r4", "lo"] < 1e-9
    assert (turns.loc[["r0", "r1", "r2"], "change"].abs() < 1e-12).all()
    read = summary(compare(_verdict_of(a), _verdict_of(b))).set_index("measure")
    assert read.loc["game length (turns)", "reading"] == "moves at the strongest rung too"
    assert read.loc["seat 1 advantage", "reading"] == "no change beyond noise"
    with pytest.raises(ValueError, match="seed"):
        compare(_verdict_of(a), _verdict_of(b, seed=1))


def test_exploitability_is_the_search_seats_wins_against_fair():
    from sim.verdict.study import EQUILIBRIUM, exploitability

    n, games = 4, 120
    label = f"search-800 vs {EQUILIBRIUM}"
    seat = np.arange(games) % n + 1                      # rotated: the search seat moves each game
    wins = np.arange(games) % 5 < 2                      # it wins 2 games in 5 (40%)
    frame = pd.DataFrame({"game_id": np.arange(games), "players": n, "rung": label, "search_seat": seat})
    for s in range(1, n + 1):
        frame[f"won_{s}"] = (seat == s) & wins
    mirror = frame.assign(rung=EQUILIBRIUM)
    for s in range(1, n + 1):
        mirror[f"won_{s}"] = (np.arange(games) % n + 1) == s   # each seat wins 1 game in 4
    row = exploitability(pd.concat([frame, mirror]), [EQUILIBRIUM, "search-800"], "search-800").iloc[0]
    assert row["wins"] == 48 and row["win_share"] == pytest.approx(0.4)
    assert row["lo"] > 0.25 and row["understates"]
    assert row["paired_gain"] == pytest.approx(0.4 - 1.0)   # the mirror's seat won every one of them
    assert row["exploitability"] == pytest.approx(0.15) and row["exploit_low"] == pytest.approx(row["lo"] - 0.25)
    assert row["label"].startswith("exploitable by 15.0 points [") and row["label"] in row["text"]


def test_a_costly_top_rung_too_noisy_to_judge_does_not_hide_the_plateau_below_it():
    e = np.array([0.10, 0.05, -0.03, -0.03, 0.2])
    lo, hi = e - 0.008, e + 0.008
    lo[-1], hi[-1] = -0.4, 0.6                       # the search rung: a handful of games
    got = classify("seat 4 advantage", RUNGS, e, lo, hi, tol_floor=0.02)
    assert got["verdict"] == HOLDS and got["from_rung"] == "r2" and got["not_judged"] == "r4"
    assert got["centre"] == pytest.approx(-0.03)


def test_a_trend_with_a_clear_step_against_it_is_not_a_change_with_skill_but_rungs_that_differ():
    e = np.array([10.0, 14.0, 11.0, 15.0, 18.0])
    got = classify("game length (turns)", RUNGS, e, e - 0.1, e + 0.1)
    assert got["verdict"] == DIFFER and got["p_monotone"] < 0.05
    assert got["steps"].split("; ") == ["r0->r1 +4", "r1->r2 -3", "r2->r3 +4", "r3->r4 +3"]
    rising = classify("game length (turns)", RUNGS, e[[0, 2, 1, 3, 4]], e[[0, 2, 1, 3, 4]] - 0.1,
                      e[[0, 2, 1, 3, 4]] + 0.1)
    assert rising["verdict"] == CHANGES and rising["direction"] == "rising"
    assert "over r0, r1, r2, r3, r4" in rising["text"]


def test_a_loaded_ruleset_reaches_the_metagame_as_its_changed_values():
    """`mobsim demo` hands the verdict a loaded Ruleset; the meta-game's workers take a file and
    overrides: the same rules (fingerprint), or a one-line refusal."""
    from sim.rules import Ruleset
    from sim.verdict.metagame import MetagameError, as_file_and_overrides

    rs = Ruleset.load(overrides={"provocation.stake": 3000, "start.bills": [5000, 5000, 2000, 2000, 1000, 1000, 0, 0]})
    path, overrides = as_file_and_overrides("nyk", rs, None)
    assert path is None and overrides == {"provocation.stake": 3000}
    assert Ruleset.load(path, overrides).fingerprint == rs.fingerprint
    assert as_file_and_overrides("nyk", "rules.toml", {"a.b": 1}) == ("rules.toml", {"a.b": 1})
    with pytest.raises(MetagameError, match="--ruleset FILE"):
        as_file_and_overrides("nyk", rs, {"hand.limit": 6})


def test_a_metagame_directory_holding_something_else_is_refused_in_one_line(tmp_path):
    keep = tmp_path / "v" / "metagame" / "3p" / "notes.txt"
    keep.parent.mkdir(parents=True)
    keep.write_text("mine")
    (tmp_path / "v" / ".mobsim-study").write_text("verdict\n")   # the verdict's own folder, as resumed
    r = CliRunner().invoke(main, ["verdict", "--game", "ag", "--players", "3", "--rungs", "random,simple",
                                  "--precision", "0.2", "--budget", "5", "--workers", "1", "--meta-games", "3",
                                  "--out", str(tmp_path / "v")])
    lines = [line for line in r.output.splitlines() if line.strip() and line.startswith("mobsim:")]
    assert r.exit_code == 2 and len(lines) == 1 and "not a meta-game study" in lines[0]
    assert keep.read_text() == "mine"   # nothing already written is lost


def test_the_search_cells_cost_is_timed_on_one_game_before_the_budget_is_shared(tmp_path):
    """A search rung's cost comes from one timed game of the cheapest search cell (the exploit
    cell: one searching seat), then the cells played: every search cell gets games in a budget
    the old fixed prior (55 s a seat) would have spent on none."""
    from sim.verdict.study import study
    from tests.test_search import preset

    import sim

    quick = preset(tmp_path, iterations=4, rollout="tuned", kinds=["action"], root="halving")
    # the search's compiled code loaded (or compiled, on an empty cache) before the budget starts
    sim.run(players=2, strategies=f"{quick},tuned", games=1, seed=1, workers=1, progress=False)
    lines = []
    v = study("nyk", players=(2,), rungs=["tuned", "meta:equilibrium", quick], precision=0.2, budget=20, seed=1,
              workers=1, pilot=20, log=lines.append)
    pilots = [line for line in lines if line.startswith("pilot") and "1 game" in line]
    assert len(pilots) == 1 and "vs meta:equilibrium x2" in pilots[0]
    plan = v.plan.set_index("rung")
    assert (plan.loc[[quick, f"{quick} vs meta:equilibrium"], "games"] > 0).all()
    assert (plan.loc[[quick, f"{quick} vs meta:equilibrium"], "seconds_per_game"] < 55).all()


def test_a_rung_without_games_is_named_and_never_read_under_every_skill():
    table = synthetic(advantage=[0.03] * 5, turns_mean=[10] * 5, games=8000)
    m = measure_table(table[table["rung"] != "r4"], RUNGS)   # the top rung not played
    v = verdict_table(m, RUNGS, precision=0.01).set_index(["measure", "players"])
    seat = v.loc[("seat 1 advantage", 4)]
    assert seat["verdict"] == HOLDS and seat["not_judged"] == "r4" and seat["read_over"] == "r0,r1,r2,r3"
    assert "at every skill" not in seat["text"] and "r4 not judged" in seat["text"]
    full = verdict_table(measure_table(table, RUNGS), RUNGS, precision=0.01).set_index(["measure", "players"])
    assert "holds at every skill" in full.loc[("seat 1 advantage", 4), "text"]


def test_the_pages_claims_of_a_difference_are_adjusted_together_by_holm():
    from sim.analysis.stats import holm

    v = verdicts(synthetic(advantage=[0.06] * 5, turns_mean=[14, 12.5, 11, 9.5, 8]))
    raw = np.r_[v["p_differ"].fillna(np.nan).to_numpy(float), v["p_trend"].to_numpy(float)]
    assert (v["claims_on_page"] == 2 * len(v)).all()
    expected = holm(raw)
    assert np.allclose(np.nan_to_num(v["p_differ_page"].to_numpy(float), nan=1.0),
                       np.nan_to_num(expected[:len(v)], nan=1.0))
    assert (v["p_trend_page"] >= v["p_trend"].fillna(0) - 1e-15).all()


def test_exploitability_is_not_read_on_fewer_than_100_games():
    from sim.verdict.study import EQUILIBRIUM, exploitability

    n, games = 4, 60
    label = f"search-800 vs {EQUILIBRIUM}"
    seat = np.arange(games) % n + 1
    frame = pd.DataFrame({"game_id": np.arange(games), "players": n, "rung": label, "search_seat": seat})
    for s in range(1, n + 1):
        frame[f"won_{s}"] = seat == s                      # the search seat wins every game
    row = exploitability(frame, [EQUILIBRIUM, "search-800"], "search-800").iloc[0]
    assert row["lo"] > 0.25 and not row["read"] and not row["understates"]
    assert "not read (at least 100 games needed)" in row["text"]


def test_a_written_plan_reads_back_as_its_counts(tmp_path):
    from sim.verdict.plan import read_plan

    path = tmp_path / "plan.csv"
    pd.DataFrame({"rung": ["random", "search-leaf-all"], "players": [4, 4], "wanted": [7203, 7203],
                  "games": [7203, 165], "seconds_per_game": [0.001, 60.0], "note": ["", ""]}).to_csv(path, index=False)
    assert read_plan(path) == {("random", 4): 7203, ("search-leaf-all", 4): 165}
    (tmp_path / "bad.csv").write_text("a,b\n1,2\n")
    with pytest.raises(ValueError, match="not a verdict plan"):
        read_plan(tmp_path / "bad.csv")


def test_bands_are_settable_absolute_or_relative_to_the_strong_rungs():
    from sim.verdict.rules import parse_band, tolerance

    assert parse_band("game length (turns)=0.5") == ("game length (turns)", (0.5, False))
    assert parse_band("margin of victory=10%") == ("margin of victory", (0.1, True))
    assert parse_band("seat 3 advantage=0.01") == ("seat advantage", (0.01, False))
    with pytest.raises(ValueError):
        parse_band("nosuch=1")
    bands = dict([parse_band("game length (turns)=0.5")])
    assert tolerance("game length (turns)", 8.0, bands=bands) == 0.5
    # the default relative band follows the strong rungs, not a weak rung's precise small value
    e = np.array([1.0, 10.0, 10.2, 10.1, 10.0])
    got = classify("margin of victory", RUNGS, e, e - [0.01, 0.3, 0.3, 0.3, 0.3], e + [0.01, 0.3, 0.3, 0.3, 0.3])
    assert got["tolerance"] == pytest.approx(0.1 * 10.07, abs=0.02)
    assert got["verdict"] == CHANGES and got["direction"] == "rising" and got["from_rung"] == "r1"


def test_fixed_counts_replay_exactly_from_the_written_plan_with_a_style_variant(tmp_path):
    """--games N plays every heuristic cell N games (the style variant's mirror and its seat among
    the rung's too); --plan replays the written plan.csv: the same measures, the same readings."""
    common = ["--game", "nyk", "--players", "3", "--rungs", "simple,tuned", "--seed", "5", "--workers", "1",
              "--meta-games", "0", "--style", "tuned:provoke_edge=0.9"]
    r = _cli([*common, "--games", "60", "--out", str(tmp_path / "a")])
    assert r.exit_code == 0, r.output
    plan = pd.read_csv(tmp_path / "a" / "plan.csv").set_index("rung")
    assert set(plan.index) == {"simple", "tuned", "tuned:provoke_edge=0.9", "tuned:provoke_edge=0.9 vs tuned"}
    assert (plan["games"] == 60).all()
    styles = pd.read_csv(tmp_path / "a" / "styles.csv")
    assert styles.loc[0, "label"] == "tuned:provoke_edge=0.9" and styles.loc[0, "games"] == 60
    verdict = pd.read_csv(tmp_path / "a" / "verdict.csv")
    assert set(verdict["style"].astype(object).fillna("")) <= {"depends on style", "same across styles",
                                                                "style not settled", ""}
    r = _cli([*common, "--plan", str(tmp_path / "a" / "plan.csv"), "--out", str(tmp_path / "b")])
    assert r.exit_code == 0, r.output
    for name in ("measures.csv", "verdict.csv", "style_measures.csv"):
        pd.testing.assert_frame_equal(pd.read_csv(tmp_path / "a" / name), pd.read_csv(tmp_path / "b" / name))
    r = _cli([*common, "--games", "60", "--budget", "10", "--out", str(tmp_path / "c")])
    assert r.exit_code == 2 and "one way to count the games" in r.output


def test_a_style_reading_marks_a_measure_a_variant_of_similar_strength_moves():
    from sim.verdict.styles import DEPENDS, SAME, UNSETTLED, reading, sentence

    measures = pd.DataFrame([
        {"rung": "tuned", "players": 4, "measure": "a player out", "estimate": 0.30, "lo": 0.29, "hi": 0.31},
        {"rung": "tuned:x=1", "players": 4, "measure": "a player out", "estimate": 0.10, "lo": 0.09, "hi": 0.11},
        {"rung": "tuned:y=1", "players": 4, "measure": "a player out", "estimate": 0.60, "lo": 0.59, "hi": 0.61},
        {"rung": "tuned", "players": 4, "measure": "game length (turns)", "estimate": 8.0, "lo": 7.9, "hi": 8.1},
        {"rung": "tuned:x=1", "players": 4, "measure": "game length (turns)", "estimate": 8.1, "lo": 8.0, "hi": 8.2},
        {"rung": "tuned:y=1", "players": 4, "measure": "game length (turns)", "estimate": 12.0, "lo": 11.9,
         "hi": 12.1},
        {"rung": "tuned", "players": 4, "measure": "lead changes", "estimate": 2.0, "lo": 1.8, "hi": 2.2},
        {"rung": "tuned:x=1", "players": 4, "measure": "lead changes", "estimate": 2.3, "lo": 2.1, "hi": 2.5}])
    variants = pd.DataFrame([{"label": "tuned:x=1", "rung": "tuned", "players": 4, "similar": True},
                             {"label": "tuned:y=1", "rung": "tuned", "players": 4, "similar": False}])
    verdicts = pd.DataFrame([{"measure": "a player out", "players": 4, "tolerance": 0.03},
                             {"measure": "game length (turns)", "players": 4, "tolerance": 0.4},
                             {"measure": "lead changes", "players": 4, "tolerance": 0.2}])
    got = reading(measures, variants, verdicts).set_index("measure")
    assert got.loc["a player out", "style"] == DEPENDS and got.loc["a player out", "style_moved_by"] == "tuned:x=1"
    assert got.loc["game length (turns)", "style"] == SAME   # the stronger-or-weaker variant y does not count
    assert got.loc["lead changes", "style"] == UNSETTLED      # 0.3 +- 0.28: neither beyond nor within 0.2
    text = sentence(verdicts.merge(got.reset_index(), on=["measure", "players"]))
    assert "of the players" in text and "a player out" in text and "of the game" in text
    assert "not settled: lead changes" in text


def test_a_trend_is_read_against_measured_strength_when_given():
    """Rungs whose ladder order is not their strength: against the ladder the pattern is not
    monotone (rungs differ), against measured strength it rises."""
    e = np.array([10.0, 14.0, 12.0, 16.0, 18.0])
    m = pd.DataFrame({"rung": RUNGS, "players": 4, "measure": "game length (turns)", "estimate": e,
                      "lo": e - 0.1, "hi": e + 0.1, "games": 5000})
    by_ladder = verdict_table(m, RUNGS).iloc[0]
    assert by_ladder["verdict"] == DIFFER
    by_strength = verdict_table(m, RUNGS, strength={"r0": 0, "r1": 200, "r2": 100, "r3": 300, "r4": 400}).iloc[0]
    assert by_strength["verdict"] == CHANGES and by_strength["direction"] == "rising"


def test_a_strength_file_must_rate_every_rung(tmp_path):
    ratings = tmp_path / "ratings.csv"
    pd.DataFrame({"rung": ["random"], "elo": [-500.0]}).to_csv(ratings, index=False)
    r = CliRunner().invoke(main, ["verdict", "--rungs", "random,simple", "--games", "10", "--strength", str(ratings),
                                  "--out", str(tmp_path / "v")])
    assert r.exit_code == 2 and "no measured strength for simple" in r.output
    (tmp_path / "bad.csv").write_text("a,b\n1,2\n")
    r = CliRunner().invoke(main, ["verdict", "--rungs", "random,simple", "--strength", str(tmp_path / "bad.csv"),
                                  "--out", str(tmp_path / "v")])
    assert r.exit_code == 2 and "not a ratings.csv" in r.output


def test_compare_across_player_counts_reads_each_count_on_its_own_seats():
    from sim.verdict import compare, summary

    # one per-game table over 3 and 4 players, as a study of --players 3,4 writes it: won_4 is empty at 3
    a = pd.concat([synthetic(advantage=[0.0] * 5, turns_mean=[10] * 5, players=n, games=2000, seed=n)
                   for n in (3, 4)], ignore_index=True)
    b = a.copy()
    changes = compare(_verdict_of(a), _verdict_of(b))
    at3 = changes[changes["players"] == 3]
    assert "seat 4 advantage" not in set(at3["measure"])
    assert changes["change"].notna().all() and changes["lo"].notna().all()
    gap = summary(changes).set_index(["measure", "players"]).loc[("max seat gap", 3)]
    assert gap["top_change"] == 0.0 and gap["reading"] == "no change beyond noise"


def test_verdict_help_names_each_games_own_ladder():
    from sim.verdict import rungs_of

    text = " ".join(CliRunner().invoke(main, ["verdict", "--help"], terminal_width=1000).output.split())
    for game in names():
        assert f"{game} {','.join(rungs_of(game))}" in text
    assert "search-800" not in text
