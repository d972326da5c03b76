"""Exact odds of New York Kings' dice contests, by enumeration and backward induction.

Nothing here samples: every probability is a ratio of exact counts of dice sequences
(`Fraction` where the count is small, floats from exact integer counts otherwise).

- Recruitment (NYK-A6): one die per $1,000 offered against the henchman's value.
- Interrogation (NYK-P4) and resisting it (NYK-P5): 3 dice + the crew against 3 dice + a J per car.
- Provocation (NYK-A4): intimidation (3 dice), artillery (4th), fusillade (5th), with the
  subgame-perfect fold policy of both sides computed by backward induction over the dice states.

Money constants come in from the ruleset (`Stakes.from_ruleset`, `RecruitTerms.from_ruleset`).
"""

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement
from math import factorial

import numpy as np
from numba import njit

from sim.nyk import hands

FACES = hands.N_RANKS
INTIMIDATION_DICE, ARTILLERY_DICE, FUSILLADE_DICE = 3, 4, 5
INTERROGATION_DICE = 3


# --- dice multisets ---------------------------------------------------------------------------

@dataclass(frozen=True)
class DiceSpace:
    """All multisets of k dice: packed counts, number of orderings, and the step adding one die."""

    k: int
    packed: np.ndarray  # int64[n]: per-rank counts, 4 bits a rank (see sim.nyk.hands)
    orderings: np.ndarray  # int64[n]: how many of the 6**k ordered rolls give this multiset
    add_die: np.ndarray  # int64[n, 6]: index in the (k+1)-space after one more die of each face
    index_of_key: np.ndarray  # int64[6**6]: hands.table_key(packed) -> index (or -1)


@cache
def dice_space(k: int) -> DiceSpace:
    rolls = list(combinations_with_replacement(range(FACES), k))
    packed = np.array([_pack(r) for r in rolls], dtype=np.int64)
    orderings = np.array([_orderings(r) for r in rolls], dtype=np.int64)
    index_of_key = np.full(hands.N_KEYS, -1, dtype=np.int64)
    for i, p in enumerate(packed):
        index_of_key[hands.table_key(p)] = i
    add_die = np.zeros((len(rolls), FACES), dtype=np.int64)
    if k < FUSILLADE_DICE:
        following = dice_space(k + 1).index_of_key
        for i, p in enumerate(packed):
            for f in range(FACES):
                add_die[i, f] = following[hands.table_key(hands.add_value(p, f))]
    return DiceSpace(k, packed, orderings, add_die, index_of_key)


def _pack(ranks) -> int:
    return int(sum(1 << (4 * r) for r in ranks))


def _orderings(roll) -> int:
    counts = np.bincount(roll, minlength=FACES) if roll else np.zeros(FACES, dtype=int)
    out = factorial(len(roll))
    for c in counts:
        out //= factorial(int(c))
    return out


def side_strengths(crew_ranks, k: int, table: np.ndarray) -> np.ndarray:
    """Strength of a side holding `crew_ranks` after each multiset of k dice (NYK-H1: best five)."""
    crew = _pack(crew_ranks)
    space = dice_space(k)
    return np.array([table[hands.table_key(crew + p)] for p in space.packed], dtype=np.int64)


# --- recruitment (NYK-A6) ---------------------------------------------------------------------

@dataclass(frozen=True)
class RecruitTerms:
    min_offer: int
    max_offer: int
    step: int
    hesitation_extra: int

    @classmethod
    def from_ruleset(cls, rs) -> "RecruitTerms":
        return cls(rs.money("recruit.min_offer"), rs.money("recruit.max_offer"),
                   rs.money("recruit.offer_step"), rs.money("recruit.hesitation_extra"))

    def offers(self) -> list[int]:
        return list(range(self.min_offer, self.max_offer + 1, self.step))

    def dice_for(self, offer: int) -> int:
        if offer not in self.offers():
            raise ValueError(f"offer {offer} is not one of ${self.min_offer:,}..${self.max_offer:,} "
                             f"in steps of ${self.step:,}")
        return offer // self.step


def recruit_odds(value: int, offer: int, terms: RecruitTerms, pay_hesitation: bool = True) -> dict:
    """Outcome probabilities of one recruitment attempt (NYK-A6), exactly.

    Among n dice: any die above the value recruits; else any die equal hesitates; else refusal.
    """
    n = terms.dice_for(offer)
    at_most = Fraction(value + 1, FACES) ** n
    below = Fraction(value, FACES) ** n
    accept, hesitate, refuse = 1 - at_most, at_most - below, below
    success = accept + hesitate if pay_hesitation else accept
    cost = offer * accept + ((offer + terms.hesitation_extra) * hesitate if pay_hesitation else 0)
    return {"accept": accept, "hesitate": hesitate, "refuse": refuse, "success": success,
            "expected_cost": cost, "dice": n}


def cheapest_offer(value: int, target: float, terms: RecruitTerms, pay_hesitation: bool = True):
    """The smallest offer whose success probability reaches `target`, or None if none does."""
    for offer in terms.offers():
        if recruit_odds(value, offer, terms, pay_hesitation)["success"] >= target:
            return offer
    return None


# --- interrogation (NYK-P4) and resisting (NYK-P5) --------------------------------------------

def interrogation_odds(crew_ranks, police_cars: int, car_rank: int, table: np.ndarray,
                       resist: bool = False, dice: int = INTERROGATION_DICE) -> dict:
    """Exact outcome of an interrogation: the crew escapes only if strictly stronger (NYK-P4).

    `dice`: each side's dice (`interrogation.dice`). With `resist`, an arrested crew always
    resists: both sides roll a 4th and a 5th die; the crew wins only if strictly stronger, a tie
    goes to the police (NYK-P5); the resisting odds hold for the book's 3 dice only.
    """
    if resist and dice != INTERROGATION_DICE:
        raise ValueError(f"dice = {dice}: the resisting odds are worked out for {INTERROGATION_DICE} dice")
    police = [car_rank] * police_cars
    three = dice_space(dice)
    crew3 = side_strengths(crew_ranks, dice, table)
    police3 = side_strengths(police, dice, table)
    weight3 = three.orderings
    escape = crew3[:, None] > police3[None, :]
    pair_weight = weight3[:, None] * weight3[None, :]
    total3 = int(pair_weight.sum())
    escaped = int(pair_weight[escape].sum())
    if not resist:
        return {"escape": Fraction(escaped, total3), "arrest": Fraction(total3 - escaped, total3)}
    # Two more dice each, from the same first three: enumerate (3 dice, 2 dice) for both sides.
    crew5, crew_w = _extended_strengths(crew_ranks, table)
    police5, police_w = _extended_strengths(police, table)
    won = crew5[:, None, :, None] > police5[None, :, None, :]  # [crew3, police3, crew2, police2]
    w = crew_w[:, None, :, None] * police_w[None, :, None, :]
    arrested = ~escape[:, :, None, None]
    total = int(w.sum())
    resist_won = int((w * (won & arrested)).sum())
    resist_lost = int((w * (~won & arrested)).sum())
    escaped_all = total - resist_won - resist_lost
    return {"escape": Fraction(escaped_all, total), "resist_won": Fraction(resist_won, total),
            "resist_lost": Fraction(resist_lost, total)}


def _extended_strengths(ranks, table):
    """Strengths after 3 dice then 2 more, indexed [3-dice multiset, 2-dice multiset], and weights."""
    three, two = dice_space(3), dice_space(2)
    crew = _pack(ranks)
    strengths = np.array([[table[hands.table_key(crew + a + b)] for b in two.packed]
                          for a in three.packed], dtype=np.int64)
    weights = three.orderings[:, None] * two.orderings[None, :]
    return strengths, weights


# --- provocation (NYK-A4) ---------------------------------------------------------------------

@dataclass(frozen=True)
class Stakes:
    """Money of a provocation: stake each, raise each for artillery and fusillade, fold penalty."""

    stake: int
    raise_: int
    fold_penalty: int
    tie_pot_returned: bool  # ruling NYK-A4: a tied pot goes to the bank, or back to each side

    @classmethod
    def from_ruleset(cls, rs) -> "Stakes":
        return cls(rs.money("provocation.stake"), rs.money("provocation.raise"),
                   rs.money("provocation.fold_penalty"), rs["provocation.tie_pot"] == "return")


NO_FOLD, PROVOKER_FOLDS, PROVOKED_FOLDS = 0, 1, 2
# Outcome counters of the forward pass, in dice sequences out of 6**10.
(O_PROVOKER_WINS, O_TIE, O_PROVOKED_WINS, O_PROVOKER_FOLDS_1, O_PROVOKED_FOLDS_1,
 O_PROVOKER_FOLDS_2, O_PROVOKED_FOLDS_2) = range(7)
ALL_SEQUENCES = FACES ** (2 * FUSILLADE_DICE)


def fight_odds(provoker_ranks, provoked_ranks, table) -> dict:
    """Fusillade outcome with no folds: both sides roll five dice (NYK-A4)."""
    five = dice_space(FUSILLADE_DICE)
    a = side_strengths(provoker_ranks, 5, table)
    b = side_strengths(provoked_ranks, 5, table)
    w = five.orderings[:, None] * five.orderings[None, :]
    total = int(w.sum())
    wins = int(w[a[:, None] > b[None, :]].sum())
    ties = int(w[a[:, None] == b[None, :]].sum())
    return {"provoker_wins": Fraction(wins, total), "tie": Fraction(ties, total),
            "provoked_wins": Fraction(total - wins - ties, total)}


@dataclass(frozen=True)
class ProvocationSolution:
    """The subgame-perfect play of one provocation and its exact consequences.

    `fold_intimidation[i, j]` and `fold_artillery[i, j]` say who folds (NO_FOLD, PROVOKER_FOLDS,
    PROVOKED_FOLDS) when the provoker's dice are multiset i and the provoked's are multiset j of
    `dice_space(3)` and `dice_space(4)`: the array strategies read in play.
    """

    fold_intimidation: np.ndarray
    fold_artillery: np.ndarray
    counts: np.ndarray  # outcome counters (O_*) over all 6**10 dice sequences
    money: np.ndarray  # total net money of provoker and provoked over all sequences
    losses: np.ndarray  # total characters lost by provoker and provoked over all sequences
    value: np.ndarray  # expected payoff (money minus character value) of each side

    def summary(self) -> dict:
        c = self.counts
        p = {name: float(Fraction(int(c[i]), ALL_SEQUENCES)) for name, i in (
            ("fusillade_provoker_wins", O_PROVOKER_WINS), ("tie", O_TIE),
            ("fusillade_provoked_wins", O_PROVOKED_WINS))}
        provoker_folds = int(c[O_PROVOKER_FOLDS_1] + c[O_PROVOKER_FOLDS_2])
        provoked_folds = int(c[O_PROVOKED_FOLDS_1] + c[O_PROVOKED_FOLDS_2])
        return {
            "provoker_wins": (int(c[O_PROVOKER_WINS]) + provoked_folds) / ALL_SEQUENCES,
            "tie": p["tie"],
            "provoked_wins": (int(c[O_PROVOKED_WINS]) + provoker_folds) / ALL_SEQUENCES,
            "provoker_folds": provoker_folds / ALL_SEQUENCES,
            "provoked_folds": provoked_folds / ALL_SEQUENCES,
            "folds_at_intimidation": int(c[O_PROVOKER_FOLDS_1] + c[O_PROVOKED_FOLDS_1]) / ALL_SEQUENCES,
            "folds_at_artillery": int(c[O_PROVOKER_FOLDS_2] + c[O_PROVOKED_FOLDS_2]) / ALL_SEQUENCES,
            "fusillade": int(c[O_PROVOKER_WINS] + c[O_TIE] + c[O_PROVOKED_WINS]) / ALL_SEQUENCES,
            "provoker_money": int(self.money[0]) / ALL_SEQUENCES,
            "provoked_money": int(self.money[1]) / ALL_SEQUENCES,
            "provoker_characters_lost": int(self.losses[0]) / ALL_SEQUENCES,
            "provoked_characters_lost": int(self.losses[1]) / ALL_SEQUENCES,
            "provoker_value": float(self.value[0]),
            "provoked_value": float(self.value[1]),
        }


def solve_provocation(provoker_ranks, provoked_ranks, stakes: Stakes, table: np.ndarray,
                      character_value: int, folds: bool = True) -> ProvocationSolution:
    """Backward induction over intimidation, artillery and fusillade (NYK-A4).

    Each side maximises its expected money minus `character_value` per character lost; the weaker
    hand decides first (the provoked on equal strength), then the other; folding costs the fold
    penalty on top of what is already in the pot. With `folds=False` nobody ever folds.
    """
    s3, s4 = dice_space(3), dice_space(4)
    strengths = [side_strengths(r, k, table) for k in (3, 4, 5) for r in (provoker_ranks, provoked_ranks)]
    fold3 = np.zeros((len(s3.packed), len(s3.packed)), dtype=np.int8)
    fold4 = np.zeros((len(s4.packed), len(s4.packed)), dtype=np.int8)
    counts = np.zeros(7, dtype=np.int64)
    money = np.zeros(2, dtype=np.int64)
    losses = np.zeros(2, dtype=np.int64)
    value = np.zeros(2, dtype=np.float64)
    terms = np.array([stakes.stake, stakes.raise_, stakes.fold_penalty, int(stakes.tie_pot_returned),
                      character_value, int(folds)], dtype=np.int64)
    _solve(*strengths, s3.add_die, s4.add_die, s3.orderings, terms, fold3, fold4, counts, money,
           losses, value)
    return ProvocationSolution(fold3, fold4, counts, money, losses, value)


@njit(cache=True)
def _fusillade(a, b, pot_each, tie_returned):
    """(money provoker, money provoked, lost provoker, lost provoked) of the fifth die."""
    if a > b:
        return pot_each, -pot_each, 0, 1
    if a < b:
        return -pot_each, pot_each, 1, 0
    kept = 0 if tie_returned else -pot_each
    return kept, kept, 1, 1


@njit(cache=True)
def _decide(a, b, cont_p, cont_d, fold_cost, may_fold):
    """Who folds at a stage, given both strengths and each side's value of going on.

    The weaker hand declares first, the provoked on equal strength (NYK-A4); the first to
    declare anticipates the other's answer. Folding pays `fold_cost` to the opponent.
    """
    if not may_fold:
        return NO_FOLD
    if b <= a:  # provoked first
        provoker_would_fold = -fold_cost > cont_p
        provoked_goes_on = fold_cost if provoker_would_fold else cont_d
        if -fold_cost > provoked_goes_on:
            return PROVOKED_FOLDS
        return PROVOKER_FOLDS if provoker_would_fold else NO_FOLD
    provoked_would_fold = -fold_cost > cont_d
    provoker_goes_on = fold_cost if provoked_would_fold else cont_p
    if -fold_cost > provoker_goes_on:
        return PROVOKER_FOLDS
    return PROVOKED_FOLDS if provoked_would_fold else NO_FOLD


@njit(cache=True)
def _solve(p3, d3, p4, d4, p5, d5, add3, add4, orderings3, terms, fold3, fold4, counts, money,
           losses, value):
    stake, raise_, penalty, tie_returned, char_value, may_fold = (
        terms[0], terms[1], terms[2], terms[3] == 1, terms[4], terms[5] == 1)
    in1, in2, in3 = stake, stake + raise_, stake + 2 * raise_  # each side's share of the pot
    n3, n4 = add3.shape[0], add4.shape[0]
    # Backward: value of each artillery state to each side, then of each intimidation state.
    v4p = np.zeros((n4, n4))
    v4d = np.zeros((n4, n4))
    for i in range(n4):
        for j in range(n4):
            cp, cd = 0.0, 0.0
            for f in range(6):
                for g in range(6):
                    mp, md, lp, ld = _fusillade(p5[add4[i, f]], d5[add4[j, g]], in3, tie_returned)
                    cp += mp - lp * char_value
                    cd += md - ld * char_value
            cp /= 36.0
            cd /= 36.0
            who = _decide(p4[i], d4[j], cp, cd, in2 + penalty, may_fold)
            fold4[i, j] = who
            v4p[i, j], v4d[i, j] = _stage_value(who, cp, cd, in2 + penalty)
    v3p = np.zeros((n3, n3))
    v3d = np.zeros((n3, n3))
    for i in range(n3):
        for j in range(n3):
            cp, cd = 0.0, 0.0
            for f in range(6):
                for g in range(6):
                    cp += v4p[add3[i, f], add3[j, g]]
                    cd += v4d[add3[i, f], add3[j, g]]
            cp /= 36.0
            cd /= 36.0
            who = _decide(p3[i], d3[j], cp, cd, in1 + penalty, may_fold)
            fold3[i, j] = who
            v3p[i, j], v3d[i, j] = _stage_value(who, cp, cd, in1 + penalty)
    # Forward: count the dice sequences (out of 6**10) reaching each outcome under that policy.
    for i in range(n3):
        for j in range(n3):
            reach = orderings3[i] * orderings3[j] * 1296  # the 4 dice still to roll
            value[0] += v3p[i, j] * orderings3[i] * orderings3[j] / 46656.0
            value[1] += v3d[i, j] * orderings3[i] * orderings3[j] / 46656.0
            who = fold3[i, j]
            if who != 0:
                _count_fold(who, 3, reach, in1 + penalty, counts, money)
                continue
            for f in range(6):
                for g in range(6):
                    a, b = add3[i, f], add3[j, g]
                    reach2 = reach // 36
                    who2 = fold4[a, b]
                    if who2 != 0:
                        _count_fold(who2, 5, reach2, in2 + penalty, counts, money)
                        continue
                    for h in range(6):
                        for k in range(6):
                            mp, md, lp, ld = _fusillade(p5[add4[a, h]], d5[add4[b, k]], in3,
                                                        tie_returned)
                            reach3 = reach2 // 36
                            counts[0 if lp < ld else (2 if lp > ld else 1)] += reach3
                            money[0] += mp * reach3
                            money[1] += md * reach3
                            losses[0] += lp * reach3
                            losses[1] += ld * reach3


@njit(cache=True)
def _stage_value(who, cont_p, cont_d, fold_cost):
    if who == 1:
        return -float(fold_cost), float(fold_cost)
    if who == 2:
        return float(fold_cost), -float(fold_cost)
    return cont_p, cont_d


@njit(cache=True)
def _count_fold(who, first_counter, reach, fold_cost, counts, money):
    # counters: provoker folds at first_counter, provoked at first_counter + 1
    if who == 1:
        counts[first_counter] += reach
        money[0] -= fold_cost * reach
        money[1] += fold_cost * reach
    else:
        counts[first_counter + 1] += reach
        money[0] += fold_cost * reach
        money[1] -= fold_cost * reach
