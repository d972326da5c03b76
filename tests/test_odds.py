"""Exact odds (sim.nyk.odds) against brute force, closed forms, and Monte Carlo with the jitted dice."""

from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement, product
from math import sqrt

import numpy as np
import pytest

from sim import rng
from sim.nyk import dice, hands, odds

TABLE = hands.table("four")
TERMS = odds.RecruitTerms(min_offer=1000, max_offer=10000, step=1000, hesitation_extra=1000)
STAKES = odds.Stakes(stake=2000, raise_=1000, fold_penalty=2000, tie_pot_returned=False)
NINE, J, Q, K, A = 0, 2, 3, 4, 5


@cache
def ref(values):
    return hands.reference_strength(values)


def within_4_se(count, n, p):
    se = sqrt(max(p * (1 - p), 1e-12) / n)
    return abs(count / n - p) <= 4 * se + 1e-12


# --- recruitment (NYK-A6) -----------------------------------------------------------------------

@pytest.mark.parametrize("value", range(6))
@pytest.mark.parametrize("n_dice", [1, 2, 3, 4])
def test_recruit_odds_equal_enumeration_of_every_roll(value, n_dice):
    rolls = list(product(range(6), repeat=n_dice))
    accept = sum(max(r) > value for r in rolls)
    hesitate = sum(max(r) == value for r in rolls)
    got = odds.recruit_odds(value, 1000 * n_dice, TERMS)
    assert got["accept"] == Fraction(accept, len(rolls))
    assert got["hesitate"] == Fraction(hesitate, len(rolls))
    assert got["accept"] + got["hesitate"] + got["refuse"] == 1


def test_recruit_expected_cost_counts_the_hesitation_extra():
    # Rulebook example: Fat Max (K) for $3,000 hesitates on 9, J, K and costs $4,000 if engaged.
    got = odds.recruit_odds(K, 3000, TERMS)
    assert got["expected_cost"] == 3000 * got["accept"] + 4000 * got["hesitate"]
    walk = odds.recruit_odds(K, 3000, TERMS, pay_hesitation=False)
    assert walk["expected_cost"] == 3000 * walk["accept"] and walk["success"] == walk["accept"]


def test_recruit_monte_carlo_agrees_with_exact_odds():
    state = rng.game_stream(11, 0)
    n = 100_000
    outcomes = np.bincount([dice.recruit_roll(state, Q, 3) for _ in range(n)], minlength=3)
    exact = odds.recruit_odds(Q, 3000, TERMS)
    assert within_4_se(outcomes[dice.RECRUITED], n, float(exact["accept"]))
    assert within_4_se(outcomes[dice.HESITATES], n, float(exact["hesitate"]))


def test_cheapest_offer_is_the_first_offer_reaching_the_target():
    offer = odds.cheapest_offer(Q, 0.9, TERMS)
    assert odds.recruit_odds(Q, offer, TERMS)["success"] >= 0.9
    assert odds.recruit_odds(Q, offer - 1000, TERMS)["success"] < 0.9
    assert odds.cheapest_offer(A, 0.5, TERMS, pay_hesitation=False) is None  # no die beats an ace


def test_offer_out_of_range_is_refused():
    with pytest.raises(ValueError, match="offer"):
        odds.recruit_odds(Q, 11000, TERMS)


# --- interrogation (NYK-P4, NYK-P5) -------------------------------------------------------------

def test_interrogation_equals_enumeration_of_every_roll():
    crew, police = (A, Q), (J, J)
    escape = sum(ref(tuple(sorted(crew + a))) > ref(tuple(sorted(police + b)))
                 for a in product(range(6), repeat=3) for b in product(range(6), repeat=3))
    got = odds.interrogation_odds(list(crew), 2, J, TABLE)
    assert got["escape"] == Fraction(escape, 6**6)  # a tie goes to the police
    assert got["arrest"] == 1 - got["escape"]


def test_resisting_monte_carlo_agrees_with_exact_odds():
    exact = odds.interrogation_odds([A, Q], 2, J, TABLE, resist=True)
    assert exact["escape"] == odds.interrogation_odds([A, Q], 2, J, TABLE)["escape"]
    state = rng.game_stream(12, 0)
    n = 200_000
    crew, police = hands.pack(np.array([A, Q])), hands.pack(np.array([J, J]))
    got = np.bincount([dice.interrogation(state, crew, police, True, TABLE) for _ in range(n)],
                      minlength=3)
    assert within_4_se(got[dice.INTERROGATION_ESCAPE], n, float(exact["escape"]))
    assert within_4_se(got[dice.RESIST_WON], n, float(exact["resist_won"]))


# --- provocation (NYK-A4) -----------------------------------------------------------------------

def test_fight_without_folds_equals_enumeration_of_each_sides_rolls():
    def distribution(crew):
        return [ref(tuple(sorted(crew + r))) for r in product(range(6), repeat=5)]
    mine, theirs = np.array(distribution((A, K))), np.sort(distribution((A,)))
    wins = int(np.searchsorted(theirs, mine, side="left").sum())
    ties = int((np.searchsorted(theirs, mine, side="right") - np.searchsorted(theirs, mine)).sum())
    got = odds.fight_odds([A, K], [A], TABLE)
    assert got["provoker_wins"] == Fraction(wins, 6**10)
    assert got["tie"] == Fraction(ties, 6**10)


def test_no_fold_solution_matches_fight_odds():
    solution = odds.solve_provocation([A, K], [A], STAKES, TABLE, character_value=5000, folds=False)
    fight = odds.fight_odds([A, K], [A], TABLE)
    summary = solution.summary()
    assert summary["fusillade"] == 1.0
    assert summary["provoker_wins"] == pytest.approx(float(fight["provoker_wins"]), abs=1e-15)
    assert summary["tie"] == pytest.approx(float(fight["tie"]), abs=1e-15)


def _reference_fold_solution(crew_p, crew_d, stakes, char_value):
    """Plain-Python backward induction over sorted dice tuples (independent of the jitted one)."""
    in1, in2, in3 = stakes.stake, stakes.stake + stakes.raise_, stakes.stake + 2 * stakes.raise_

    def s(crew, dice_):
        return ref(tuple(sorted(crew + dice_)))

    def decide(a, b, cp, cd, cost):
        first_is_provoked = b <= a
        if first_is_provoked:
            p_folds = -cost > cp
            return 2 if -cost > (cost if p_folds else cd) else (1 if p_folds else 0)
        d_folds = -cost > cd
        return 1 if -cost > (cost if d_folds else cp) else (2 if d_folds else 0)

    def value(who, cp, cd, cost):
        return {0: (cp, cd), 1: (-cost, cost), 2: (cost, -cost)}[who]

    fus = {}
    for dp in combinations_with_replacement(range(6), 5):
        for dd in combinations_with_replacement(range(6), 5):
            a, b = s(crew_p, dp), s(crew_d, dd)
            if a > b:
                fus[dp, dd] = (in3, -in3 - char_value)
            elif a < b:
                fus[dp, dd] = (-in3 - char_value, in3)
            else:
                fus[dp, dd] = (-in3 - char_value, -in3 - char_value)
    v4, fold4 = {}, {}
    for dp in combinations_with_replacement(range(6), 4):
        for dd in combinations_with_replacement(range(6), 4):
            outs = [fus[tuple(sorted(dp + (f,))), tuple(sorted(dd + (g,)))]
                    for f in range(6) for g in range(6)]
            cp, cd = sum(o[0] for o in outs) / 36, sum(o[1] for o in outs) / 36
            who = decide(s(crew_p, dp), s(crew_d, dd), cp, cd, in2 + stakes.fold_penalty)
            fold4[dp, dd] = who
            v4[dp, dd] = value(who, cp, cd, in2 + stakes.fold_penalty)
    fold3 = {}
    for dp in combinations_with_replacement(range(6), 3):
        for dd in combinations_with_replacement(range(6), 3):
            outs = [v4[tuple(sorted(dp + (f,))), tuple(sorted(dd + (g,)))]
                    for f in range(6) for g in range(6)]
            cp, cd = sum(o[0] for o in outs) / 36, sum(o[1] for o in outs) / 36
            fold3[dp, dd] = decide(s(crew_p, dp), s(crew_d, dd), cp, cd, in1 + stakes.fold_penalty)
    return fold3, fold4


def test_fold_tables_equal_a_plain_python_backward_induction():
    crew_p, crew_d = (A, J), (A,)
    fold3, fold4 = _reference_fold_solution(crew_p, crew_d, STAKES, 6000)
    solution = odds.solve_provocation(list(crew_p), list(crew_d), STAKES, TABLE, character_value=6000)
    for k, table, reference in ((3, solution.fold_intimidation, fold3),
                                (4, solution.fold_artillery, fold4)):
        rolls = list(combinations_with_replacement(range(6), k))
        for i, dp in enumerate(rolls):
            for j, dd in enumerate(rolls):
                assert table[i, j] == reference[dp, dd], (k, dp, dd)


def test_fold_policy_monte_carlo_agrees_with_exact_outcomes():
    solution = odds.solve_provocation([A, K], [A, NINE], STAKES, TABLE, character_value=6000)
    exact = solution.counts / odds.ALL_SEQUENCES
    state = rng.game_stream(13, 0)
    s3, s4 = odds.dice_space(3), odds.dice_space(4)
    provoker, provoked = hands.pack(np.array([A, K])), hands.pack(np.array([A, NINE]))
    n = 200_000
    seen = np.zeros(5, dtype=np.int64)
    for _ in range(n):
        outcome, _stage = dice.provocation(state, provoker, provoked, TABLE,
                                           solution.fold_intimidation, solution.fold_artillery,
                                           s3.index_of_key, s4.index_of_key)
        seen[outcome] += 1
    assert within_4_se(seen[dice.PROVOKER_WINS], n, exact[odds.O_PROVOKER_WINS])
    assert within_4_se(seen[dice.TIE], n, exact[odds.O_TIE])
    assert within_4_se(seen[dice.PROVOKER_FOLDED], n,
                       exact[odds.O_PROVOKER_FOLDS_1] + exact[odds.O_PROVOKER_FOLDS_2])
    assert within_4_se(seen[dice.PROVOKED_FOLDED], n,
                       exact[odds.O_PROVOKED_FOLDS_1] + exact[odds.O_PROVOKED_FOLDS_2])


def test_money_is_zero_sum_apart_from_the_tied_pot():
    solution = odds.solve_provocation([A, NINE], [A], STAKES, TABLE, character_value=6000)
    in3 = STAKES.stake + 2 * STAKES.raise_
    tied = int(solution.counts[odds.O_TIE])
    assert int(solution.money.sum()) == -2 * in3 * tied  # NYK-A4 ruling: a tied pot goes to the bank
    returned = odds.Stakes(2000, 1000, 2000, tie_pot_returned=True)
    assert int(odds.solve_provocation([A, NINE], [A], returned, TABLE, 6000).money.sum()) == 0


def test_a_hopeless_side_folds_at_once():
    # A lone 9 against an affranchi with four kings: the provoked folds at intimidation nearly always.
    summary = odds.solve_provocation([A, K, K, K, K], [NINE], STAKES, TABLE, 6000).summary()
    assert summary["provoked_folds"] > 0.95
    assert summary["folds_at_intimidation"] > 0.95
