"""AG-T4 location odds: exact fractions checked against a brute-force enumeration of the literal
procedure (roll, then re-roll the failed dice only while short, once per boss) and against
Monte Carlo; AG-C10 and AG-C11 die faces; the `mobsim odds location` command."""

import itertools
import json
from fractions import Fraction

import numpy as np
import pytest
from click.testing import CliRunner

from sim.ag.odds import Crew, DiceFaces, location_odds, parse_crew, success_odds, success_table
from sim.cli import main
from sim.rules import Ruleset

FACES = DiceFaces()


def die_faces(kind, faces=FACES):
    """The six faces of one die as 'C' (CLIC), 'B' (BANG), 'F' (FBI joker)."""
    clics = {"H": faces.henchman_clics, "K": faces.killer_clics, "O": faces.occasional_clics}[kind]
    fbi = faces.occasional_fbi if kind == "O" else 0
    return "C" * clics + "F" * fbi + "B" * (6 - clics - fbi)


def brute_force(crew: Crew, target: int, bosses: int, faces=FACES) -> Fraction:
    """Every sequence of faces, rolled as the rules say: a boss re-rolls only when short."""
    kinds = [k for k, n in crew.counts().items() for _ in range(n)]

    def reach(rolled, rerolls_left):
        clics = sum(f in "CF" for f in rolled)
        if clics >= target:
            return Fraction(1)
        if rerolls_left == 0:
            return Fraction(0)
        failed = [i for i, f in enumerate(rolled) if f == "B"]
        total = Fraction(0)
        for again in itertools.product(*(die_faces(kinds[i], faces) for i in failed)):
            new = list(rolled)
            for i, f in zip(failed, again, strict=True):
                new[i] = f
            total += reach(new, rerolls_left - 1)
        return total / 6 ** len(failed)

    first = itertools.product(*(die_faces(k, faces) for k in kinds))
    return sum((reach(list(r), bosses) for r in first), Fraction(0)) / 6 ** len(kinds)


@pytest.mark.parametrize("crew,target,bosses", [
    (Crew(2, 1, 0), 3, 1), (Crew(2, 1, 0), 2, 0), (Crew(1, 1, 1), 2, 1), (Crew(0, 2, 1), 3, 2),
    (Crew(2, 0, 1), 3, 1), (Crew(1, 0, 0), 1, 2), (Crew(2, 1, 1), 4, 1),
])
def test_ag_t4_exact_odds_equal_brute_force_enumeration(crew, target, bosses):
    assert success_odds(crew, target, FACES, bosses) == brute_force(crew, target, bosses)


def test_ag_t4_odds_follow_other_die_faces_from_the_ruleset():
    rs = Ruleset.load(game="ag", overrides={"dice.henchman_clics": 3, "dice.killer_clics": 1,
                                            "dice.occasional_clics": 1, "dice.occasional_fbi": 3})
    faces = DiceFaces.from_ruleset(rs)
    for crew, target in ((Crew(2, 1, 1), 3), (Crew(1, 1, 1), 2)):
        assert success_odds(crew, target, faces, 1) == brute_force(crew, target, 1, faces)


def test_ag_c10_c11_die_faces_closed_forms():
    assert FACES.clic("H") == Fraction(2, 3) and FACES.bang("H") == Fraction(1, 3)   # 4 CLIC, 2 BANG
    assert FACES.clic("K") == Fraction(1, 3) and FACES.bang("K") == Fraction(2, 3)   # 2 CLIC, 4 BANG
    # occasional: 2 CLIC, 2 BANG, 2 FBI jokers (a CLIC at a location, a BANG in a shoot-out)
    assert FACES.clic("O") == Fraction(2, 3) and FACES.bang("O") == Fraction(2, 3)
    # two henchmen and a killer: (2/3)^2 (1/3) for 3 CLICs; a re-roll: (8/9)^2 (5/9)
    assert success_odds(Crew(2, 1, 0), 3, FACES, 0) == Fraction(4, 27)
    assert success_odds(Crew(2, 1, 0), 3, FACES, 1) == Fraction(320, 729)
    assert success_odds(Crew(2, 1, 0), 4, FACES, 3) == 0


def test_ag_t4_odds_agree_with_monte_carlo():
    """The literal procedure sampled 200,000 times lands within 4 standard errors."""
    gen = np.random.default_rng(5)
    crew, target, bosses, n = Crew(3, 2, 1), 5, 2, 200_000
    kinds = np.array([0] * 3 + [1] * 2 + [2])
    clic_faces = np.array([FACES.henchman_clics, FACES.killer_clics,
                           FACES.occasional_clics + FACES.occasional_fbi])[kinds]
    ok = gen.integers(0, 6, size=(n, len(kinds))) < clic_faces
    for _ in range(bosses):
        short = ok.sum(axis=1) < target
        again = gen.integers(0, 6, size=ok.shape) < clic_faces
        ok = ok | (short[:, None] & again)
    p = float(success_odds(crew, target, FACES, bosses))
    assert abs((ok.sum(axis=1) >= target).mean() - p) < 4 * np.sqrt(p * (1 - p) / n)


def test_success_table_matches_exact_odds():
    table = success_table(FACES, 3, 2, 2, 2, 8)
    for h, k, o, r, t in ((2, 1, 0, 1, 3), (3, 2, 2, 2, 6), (0, 0, 1, 0, 1), (1, 0, 0, 0, 2)):
        assert table[h, k, o, r, t] == pytest.approx(float(success_odds(Crew(h, k, o), t, FACES, r)),
                                                      abs=1e-12)
    assert (table[..., 0] == 1).all()


def test_parse_crew_forms_and_errors():
    assert parse_crew("2H,K,O") == Crew(2, 1, 1) == parse_crew("hhko") == parse_crew("H H K O")
    for bad, words in (("2X", "not a crew part"), ("", "at least one die"), ("21H", "at most 20"),
                       ("2HK", "not a crew part")):
        with pytest.raises(ValueError, match=words):
            parse_crew(bad)


def test_location_odds_fields():
    out = location_odds(Crew(2, 1, 0), 2, FACES, bosses=1)
    assert out["success_no_reroll"] < out["success_with_reroll"]
    assert out["expected_clics"] == Fraction(2, 3) * 2 + Fraction(1, 3)


def run_cli(*args):
    return CliRunner().invoke(main, ["odds", "location", *args])


def test_cli_odds_location_json_is_exact():
    got = run_cli("--crew", "2H,K", "--target", "3", "--json")
    assert got.exit_code == 0, got.output
    row = json.loads(got.output)["rows"][0]
    assert row["exact"]["success_no_reroll"] == "4/27"
    assert row["exact"]["success_with_reroll"] == "320/729"


def test_cli_odds_location_by_kind_and_table():
    got = run_cli("--crew", "2H,K,O", "--location", "bank", "--json")
    rows = json.loads(got.output)["rows"]
    assert [r["target"] for r in rows] == [6]
    table = run_cli("--crew", "2H,K")
    assert table.exit_code == 0 and "with re-roll" in table.output
    assert [line.split()[0] for line in table.output.splitlines()[2:-1]] == ["1", "2", "3", "4", "6", "8"]


@pytest.mark.parametrize("args,words", [
    (("--crew", "2Z"), "not a crew part"),
    (("--crew", "H", "--location", "bnk"), 'did you mean "bank"'),
    (("--crew", "H", "--target", "2", "--location", "bank"), "not both"),
    (("--crew", "H", "--set", "dice.occasional_fbi=9"), "dice.occasional_fbi"),
])
def test_cli_odds_location_refuses_bad_input_in_one_line(args, words):
    got = run_cli(*args)
    assert got.exit_code != 0 and words in (got.output + str(got.exception))
