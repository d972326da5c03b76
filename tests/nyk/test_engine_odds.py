"""The engine's own dice against the exact odds (sim.nyk.odds): recruitment (NYK-A6) rolled by the
engine's `recruit` through the scenario harness with free dice (no forced rolls), thousands of
times, under the default ruleset and under changed dice counts (`recruit.offer_step`: dice per
offer; `interrogation.dice`); interrogation (NYK-P4) and resisting it (NYK-P5) likewise, by the
engine's `interrogate`.
Frequencies must lie within 4 standard errors of the exact probabilities (a false alarm
about once in 16,000 comparisons)."""

import numpy as np
import pytest
from scenario import BROOKLYN, Table

from sim.nyk import hands, odds
from sim.nyk.hands import parse_value
from sim.nyk import state as S
from sim.rules import Ruleset

FURYO = 7  # J of spades
N = 20_000
SE = 4


def within(count, n, p):
    p = float(p)
    se = max(np.sqrt(p * (1 - p) / n), 1 / n)
    return abs(count / n - p) <= SE * se


def recruit_outcomes(overrides, offer, n=N):
    """Recruitment attempts of the engine's `recruit` from one position, the dice free: counts
    of (recruited at once, hesitated, refused)."""
    t = Table(overrides=overrides)
    t.peripheral(0, FURYO)
    t.at(0, BROOKLYN)
    t.begin(0)
    t.g[S.FORCED_N] = 0
    saved = (t.g.copy(), t.pl.copy(), t.ch.copy(), t.ms.copy())
    counts = np.zeros(3, np.int64)
    for _ in range(n):
        t.g[:], t.pl[:], t.ch[:], t.ms[:] = saved  # the position again; the dice stream runs on
        t.recruit(0, FURYO, offer)
        hesitated = t.pl[0, S.C_RECRUITS_HESITATED]
        done = t.pl[0, S.C_RECRUITS_DONE]
        counts[0 if done and not hesitated else 1 if hesitated else 2] += 1
    return counts, t


TWO_THOUSAND_A_DIE = {"recruit.offer_step": 2000, "recruit.min_offer": 2000}


@pytest.mark.parametrize("overrides, offer", [({}, 2000), ({}, 1000), (TWO_THOUSAND_A_DIE, 4000)])
def test_nyk_a6_the_engines_recruitment_rolls_the_exact_odds(overrides, offer):
    rs = Ruleset.load(overrides=overrides)
    counts, t = recruit_outcomes(overrides, offer)
    value = int(t.ch[FURYO, S.VALUE])
    exact = odds.recruit_odds(value, offer, odds.RecruitTerms.from_ruleset(rs))
    for k, name in enumerate(("accept", "hesitate", "refuse")):
        assert within(counts[k], N, exact[name]), (name, counts[k] / N, float(exact[name]), exact["dice"])


def interrogation_outcomes(overrides, n=N):
    """Interrogations by the engine's `interrogate` of a lone Q (Looxy) on a mission at risk
    under one car, the dice free, no affranchi there to resist: the number of arrests."""
    from scenario import HARLEM, SOHO, mission_ids

    t = Table(overrides=overrides)
    t.hench(LOOXY, 1, SOHO)
    t.hold(mission_ids(crew=1, risk=1)[LOOXY % 3], [LOOXY], HARLEM)
    t.police(SOHO)
    t.g[S.FORCED_N] = 0
    saved = (t.g.copy(), t.pl.copy(), t.ch.copy(), t.ms.copy())
    arrests = 0
    for _ in range(n):
        t.g[:], t.pl[:], t.ch[:], t.ms[:] = saved
        t.interrogate(1, SOHO)
        assert t.pl[1, S.C_INTERROGATIONS] == 1
        arrests += t.ch[LOOXY, S.WHERE] == S.W_CUSTODY
    return arrests, t


LOOXY = 8  # Q of spades


@pytest.mark.parametrize("dice", [None, 2, 4])
def test_nyk_p4_the_engines_interrogation_rolls_the_exact_odds(dice):
    overrides = {} if dice is None else {"interrogation.dice": dice}
    rs = Ruleset.load(overrides=overrides)
    arrests, t = interrogation_outcomes(overrides)
    exact = odds.interrogation_odds([int(t.ch[LOOXY, S.VALUE])], 1, parse_value(rs["police.car_value"]),
                                    hands.table(rs["hands.five_of_a_kind"]), dice=rs["interrogation.dice"])
    assert within(arrests, N, exact["arrest"]), (arrests / N, float(exact["arrest"]), rs["interrogation.dice"])


# --- provocation (NYK-A4): the engine's `provoke`, dice free, against exact enumeration -----------

def provocation_outcomes(kind, crews, n=N, overrides=None, params=None):
    """Provocations by seat 0 of seat 1 on SOHO from one position: counts of (provoker wins,
    tie, provoked wins), a fold counted as the other side's win."""
    from scenario import SOHO

    t = Table(kind=kind, overrides=overrides)
    if params is not None:
        t.env = t.env.copy()
        for column, value in params.items():
            t.env["params"][:, column] = value
    for p, crew in enumerate(crews):
        for c in crew:
            t.hench(c, p, SOHO)
    t.begin(0)
    t.g[S.FORCED_N] = 0
    saved = (t.g.copy(), t.pl.copy(), t.ch.copy(), t.ms.copy())
    counts = np.zeros(3, np.int64)
    for _ in range(n):
        t.g[:], t.pl[:], t.ch[:], t.ms[:] = saved
        t.provoke(0, SOHO, 1, crews[0][0])
        if t.pl[1, S.C_FOLDS] or t.pl[0, S.C_FIGHTS_WON]:
            counts[0] += 1
        elif t.pl[0, S.C_FIGHTS_TIED]:
            counts[1] += 1
        else:
            counts[2] += 1
    return counts, t


def folding_odds(ranks_p, ranks_q, table, category):
    """Exact (provoker wins, tie) when each side folds as `simple` does: the weaker hand folds
    when its category (strength // category) is lower, at intimidation and at artillery."""
    three = odds.dice_space(3)
    w = three.orderings / 6.0 ** 3
    masses, wins, prev = np.outer(w, w), 0.0, three
    for k in (3, 4, 5):
        space = odds.dice_space(k)
        if k > 3:  # one more die each: the previous stage's mass spread over the six faces
            step = np.zeros((len(prev.packed), len(space.packed)))
            np.add.at(step, (np.repeat(np.arange(len(prev.packed)), 6), prev.add_die.ravel()), 1 / 6)
            masses = step.T @ masses @ step
        sp = odds.side_strengths(ranks_p, k, table)[:, None]
        sq = odds.side_strengths(ranks_q, k, table)[None, :]
        if k == 5:
            return wins + masses[sp > sq].sum(), masses[sp == sq].sum()
        q_folds, p_folds = sp // category > sq // category, sq // category > sp // category
        wins += masses[q_folds].sum()
        masses = np.where(q_folds | p_folds, 0.0, masses)
        prev = space


CREWS = ((7, 10), (8,))  # J of spades and 9 of hearts against Q of spades


def test_nyk_a4_the_engines_provocation_without_folds_rolls_the_exact_odds():
    from scenario import PARAM
    from strategies.nyk.params import K_FOLD_BELOW

    counts, t = provocation_outcomes(PARAM, CREWS, params={K_FOLD_BELOW: 0.0})  # never folds
    ranks = [[int(t.ch[c, S.VALUE]) for c in crew] for crew in CREWS]
    exact = odds.fight_odds(*ranks, hands.table("four"))
    for k, name in enumerate(("provoker_wins", "tie", "provoked_wins")):
        assert within(counts[k], N, exact[name]), (name, counts[k] / N, float(exact[name]))


@pytest.mark.parametrize("overrides", [{}, {"hands.five_of_a_kind": "top"}])
def test_nyk_a4_the_engines_folding_provocation_rolls_the_exact_odds(overrides):
    from scenario import SIMPLE
    from strategies.nyk.policy import HAND_SCALE

    counts, t = provocation_outcomes(SIMPLE, CREWS, overrides=overrides)
    ranks = [[int(t.ch[c, S.VALUE]) for c in crew] for crew in CREWS]
    rs = Ruleset.load(overrides=overrides)
    win, tie = folding_odds(*ranks, hands.table(rs["hands.five_of_a_kind"]), HAND_SCALE)
    assert within(counts[0], N, win), (counts[0] / N, win)
    assert within(counts[1], N, tie), (counts[1] / N, tie)
    assert within(counts[2], N, 1 - win - tie)


# --- resisting (NYK-P5): the engine's `interrogate` with an affranchi that always resists -----------

CREW = (0, 5)  # seat 0's affranchi and a henchman: the affranchi alone resists only at even odds (NYK-A5)


def resisting_outcomes(cars, n=N):
    """Interrogations of seat 0's affranchi and henchman, carrying an at-risk mission under `cars`
    cars, by a heuristic seat whose resisting threshold is 0 (it resists every arrest): counts of
    (escaped, resisted and won, resisted and lost)."""
    from scenario import HARLEM, PARAM, SOHO, mission_ids
    from strategies.nyk.params import K_RESIST_MIN

    t = Table(kind=PARAM)
    t.env = t.env.copy()
    t.env["params"][:, K_RESIST_MIN] = 0.0
    t.at(CREW[0], SOHO)
    t.hench(CREW[1], 0, SOHO)
    t.hold(mission_ids(crew=2, risk=1)[0], list(CREW), HARLEM)
    t.police(*[SOHO] * cars)
    t.g[S.FORCED_N] = 0
    saved = (t.g.copy(), t.pl.copy(), t.ch.copy(), t.ms.copy())
    counts = np.zeros(3, np.int64)
    for _ in range(n):
        t.g[:], t.pl[:], t.ch[:], t.ms[:] = saved
        t.interrogate(0, SOHO)
        resisted, won = t.pl[0, S.C_RESISTS], t.pl[0, S.C_RESISTS_WON]
        counts[0 if not resisted else 1 if won else 2] += 1
    return counts, t


def z_score(count, n, p):
    p = float(p)
    return (count - n * p) / np.sqrt(n * p * (1 - p))


def test_nyk_p5_the_engines_resisting_rolls_the_exact_odds():
    """Two cars make most interrogations an arrest, so most of the 20,000 end in a resist: each
    outcome, and the resist won among the resists, within 4 standard errors of the exact odds."""
    rs = Ruleset.load()
    counts, t = resisting_outcomes(cars=2)
    exact = odds.interrogation_odds([int(t.ch[c, S.VALUE]) for c in CREW], 2, parse_value(rs["police.car_value"]),
                                    hands.table(rs["hands.five_of_a_kind"]), resist=True)
    for k, name in enumerate(("escape", "resist_won", "resist_lost")):
        assert abs(z_score(counts[k], N, exact[name])) < SE, (name, counts[k] / N, float(exact[name]))
    resists = counts[1] + counts[2]
    won_given_resist = exact["resist_won"] / (exact["resist_won"] + exact["resist_lost"])
    assert resists > N // 2
    assert abs(z_score(counts[1], resists, won_given_resist)) < SE, (counts[1] / resists, float(won_given_resist))
