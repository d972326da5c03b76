"""`mobsim odds ...`: JSON equals sim.nyk.odds, text is a table, bad arguments exit 2 with one line."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from sim.nyk import hands, odds
from sim.cli import main
from sim.rules import Ruleset

RS = Ruleset.load()
TABLE = hands.table(RS["hands.five_of_a_kind"])
TERMS = odds.RecruitTerms.from_ruleset(RS)
STAKES = odds.Stakes.from_ruleset(RS)
NINE, TEN, J, Q, K, A = range(6)
MOBSIM = Path(sys.executable).with_name("mobsim")


def run(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def run_json(*args) -> dict:
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


# --- recruit ------------------------------------------------------------------------------------

def test_recruit_json_equals_exact_odds():
    got = run_json("odds", "recruit", "--value", "Q", "--offer", "3000")
    exact = odds.recruit_odds(Q, 3000, TERMS)
    for key in ("accept", "hesitate", "refuse", "success", "expected_cost"):
        assert got[key] == pytest.approx(float(exact[key]), rel=1e-15)
        assert got["exact"][key] == f"{exact[key].numerator}/{exact[key].denominator}"
    assert got["dice"] == 3 and got["value"] == "Q" and got["offer"] == 3000
    # NYK-A6 by hand: 3 dice against Q: accept iff some die is K or A.
    assert got["accept"] == pytest.approx(1 - (4 / 6) ** 3)
    assert got["refuse"] == pytest.approx((3 / 6) ** 3)


def test_recruit_walk_away_on_hesitation():
    got = run_json("odds", "recruit", "--value", "K", "--offer", "2000", "--on-hesitation", "walk")
    exact = odds.recruit_odds(K, 2000, TERMS, pay_hesitation=False)
    assert got["success"] == pytest.approx(float(exact["accept"]))
    assert got["expected_cost"] == pytest.approx(float(exact["expected_cost"]))


def test_recruit_table_covers_every_value_and_offer():
    got = run_json("odds", "recruit")
    assert got["values"] == ["9", "10", "J", "Q", "K"]
    assert got["offers"] == list(range(1000, 10001, 1000))
    for i, value in enumerate(range(5)):
        for j, offer in enumerate(got["offers"]):
            exact = odds.recruit_odds(value, offer, TERMS)
            assert got["success"][i][j] == pytest.approx(float(exact["success"]))
            assert got["expected_cost"][i][j] == pytest.approx(float(exact["expected_cost"]))


def test_recruit_table_text_is_a_table():
    result = run("odds", "recruit")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    header = next(line for line in lines if line.startswith("value"))
    assert "$1,000" in header and "$10,000" in header
    rows = [line.split() for line in lines if line.split() and line.split()[0] in ("9", "K")]
    assert all(len(row) == 11 for row in rows)


def test_recruit_target_gives_the_cheapest_offer():
    got = run_json("odds", "recruit", "--value", "K", "--target", "0.9")
    assert got["offer"] == odds.cheapest_offer(K, 0.9, TERMS) == 6000
    assert got["success"] >= 0.9
    assert odds.recruit_odds(K, 5000, TERMS)["success"] < 0.9
    none = run_json("odds", "recruit", "--value", "K", "--target", "1", "--on-hesitation", "walk")
    assert none["offer"] is None


def test_recruit_follows_the_ruleset():
    got = run_json("odds", "recruit", "--value", "J", "--offer", "4000",
                   "--set", "recruit.hesitation_extra=3000")
    terms = odds.RecruitTerms(1000, 10000, 1000, 3000)
    assert got["expected_cost"] == pytest.approx(float(odds.recruit_odds(J, 4000, terms)
                                                       ["expected_cost"]))


# --- interrogation ------------------------------------------------------------------------------

@pytest.mark.parametrize("crew, police", [("A,Q", 2), ("A", 1), ("K,K", 3), ("A,K,K", 4)])
def test_interrogation_json_equals_exact_odds(crew, police):
    got = run_json("odds", "interrogation", "--crew", crew, "--police", str(police))
    exact = odds.interrogation_odds(hands.parse_values(crew), police, J, TABLE)
    assert set(got) == {"escape", "arrest", "exact"}
    assert got["escape"] == pytest.approx(float(exact["escape"]), rel=1e-15)
    assert got["arrest"] == pytest.approx(float(exact["arrest"]), rel=1e-15)
    assert got["escape"] + got["arrest"] == pytest.approx(1)


def test_interrogation_resisting_json_equals_exact_odds():
    got = run_json("odds", "interrogation", "--crew", "A,Q", "--police", "2", "--resist")
    exact = odds.interrogation_odds([A, Q], 2, J, TABLE, resist=True)
    assert set(got) == {"escape", "resist_won", "resist_lost", "exact"}
    for key in ("escape", "resist_won", "resist_lost"):
        assert got[key] == pytest.approx(float(exact[key]), rel=1e-15)
    plain = odds.interrogation_odds([A, Q], 2, J, TABLE)
    assert got["escape"] == pytest.approx(float(plain["escape"]))
    assert got["resist_won"] + got["resist_lost"] == pytest.approx(float(plain["arrest"]))


def test_interrogation_text():
    result = run("odds", "interrogation", "--crew", "A,Q", "--police", "2", "--resist")
    assert result.exit_code == 0
    assert "A,Q" in result.output and "resist_won" in result.output and "%" in result.output


# --- provocation ---------------------------------------------------------------------------------

def test_provocation_no_fold_equals_fight_odds():
    got = run_json("odds", "provocation", "--provoker", "A,K", "--provoked", "A", "--no-fold")
    exact = odds.fight_odds([A, K], [A], TABLE)
    assert set(got) == {"provoker_wins", "tie", "provoked_wins", "exact"}
    for key in ("provoker_wins", "tie", "provoked_wins"):
        assert got[key] == pytest.approx(float(exact[key]), rel=1e-15)


def test_provocation_with_folds_equals_the_solved_game(tmp_path):
    path = tmp_path / "folds.npz"
    got = run_json("odds", "provocation", "--provoker", "A,K", "--provoked", "A",
                   "--save-table", str(path))
    solution = odds.solve_provocation([A, K], [A], STAKES, TABLE, 6000)
    for key, value in solution.summary().items():
        assert got[key] == pytest.approx(value, rel=1e-12, abs=1e-12), key
    assert got["provoker_wins"] + got["tie"] + got["provoked_wins"] == pytest.approx(1)
    assert got["stakes"] == {"stake": 2000, "raise": 1000, "fold_penalty": 2000, "tie_pot": "bank",
                             "character_value": 6000}
    with np.load(path) as saved:
        assert np.array_equal(saved["fold_intimidation"], solution.fold_intimidation)
        assert np.array_equal(saved["fold_artillery"], solution.fold_artillery)


def test_provocation_text_lists_outcomes_and_money():
    result = run("odds", "provocation", "--provoker", "A,K", "--provoked", "A")
    assert result.exit_code == 0
    for word in ("provoker_wins", "provoked_folds", "provoker_money"):
        assert word in result.output


# --- bad arguments: exit status 2 and one line on stderr ---------------------------------------

BAD = [
    ("value not among 9..A", ["recruit", "--value", "X", "--offer", "3000"]),
    ("an affranchi is not recruited", ["recruit", "--value", "A", "--offer", "3000"]),
    ("offer above the range", ["recruit", "--value", "Q", "--offer", "11000"]),
    ("offer below the range", ["recruit", "--value", "Q", "--offer", "0"]),
    ("offer between steps", ["recruit", "--value", "Q", "--offer", "3500"]),
    ("offer not a number", ["recruit", "--value", "Q", "--offer", "abc"]),
    ("value without offer", ["recruit", "--value", "Q"]),
    ("target without value", ["recruit", "--target", "0.5"]),
    ("target out of range", ["recruit", "--value", "Q", "--target", "2"]),
    ("crew of 0", ["interrogation", "--crew", "", "--police", "2"]),
    ("crew of commas", ["interrogation", "--crew", ",", "--police", "2"]),
    ("crew value bad", ["interrogation", "--crew", "A,1", "--police", "2"]),
    ("crew too large", ["interrogation", "--crew", "A,K,K,Q,Q,J"]),
    ("police 0", ["interrogation", "--crew", "A", "--police", "0"]),
    ("police 5", ["interrogation", "--crew", "A", "--police", "5"]),
    ("police not a number", ["interrogation", "--crew", "A", "--police", "two"]),
    ("resisting without the affranchi", ["interrogation", "--crew", "K,Q", "--resist"]),
    ("missing required crew", ["interrogation", "--police", "2"]),
    ("missing required provoked", ["provocation", "--provoker", "A"]),
    ("provoked crew of 0", ["provocation", "--provoker", "A", "--provoked", ""]),
    ("unknown option", ["recruit", "--bogus"]),
    ("option without its argument", ["recruit", "--value"]),
    ("unknown rule key", ["recruit", "--set", "no.such=1"]),
]


@pytest.mark.parametrize("args", [args for _, args in BAD], ids=[name for name, _ in BAD])
def test_bad_arguments_exit_2_with_one_line(args, capfd):
    with pytest.raises(SystemExit) as done:
        main.main(["odds", *args], prog_name="mobsim")
    assert done.value.code == 2
    out, err = capfd.readouterr()
    assert out == ""
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert err.startswith("mobsim: error: ")


@pytest.mark.parametrize("args", [
    ["recruit", "--value", "X", "--offer", "3000"],
    ["recruit", "--value", "Q", "--offer", "abc"],
    ["interrogation", "--crew", "", "--police", "2"],
    ["interrogation", "--crew", "A", "--police", "5"],
    ["provocation", "--provoker", "A"],
])
def test_installed_command_exits_2_with_one_line(args):
    assert MOBSIM.exists(), f"{MOBSIM} is not installed (make install)"
    env = {**os.environ, "MPLBACKEND": "Agg"}
    done = subprocess.run([str(MOBSIM), "odds", *args], capture_output=True, text=True, env=env,
                          timeout=120)
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.splitlines()) == 1 and done.stderr.startswith("mobsim: error: ")


def test_installed_command_prints_json():
    env = {**os.environ, "MPLBACKEND": "Agg"}
    done = subprocess.run([str(MOBSIM), "odds", "recruit", "--value", "Q", "--offer", "3000",
                           "--json"], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    assert got["accept"] == pytest.approx(float(odds.recruit_odds(Q, 3000, TERMS)["accept"]))
