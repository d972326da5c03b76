"""Exact fight odds for strategies (sim.nyk.fights) against the kernel's exact enumeration."""

import itertools

import numpy as np
import pytest

from sim.nyk import fights, hands, odds


@pytest.mark.parametrize("mine, theirs", [([5], [3]), ([5, 4], [5]), ([5, 0, 0], [4, 4, 1]), ([2], [2]),
                                          ([0], [5, 4, 3]), ([4, 4], [4, 4])])
def test_fight_table_matches_the_kernels_exact_fusillade_odds(mine, theirs):
    exact = odds.fight_odds(mine, theirs, hands.table())
    row = fights.fight_table()[fights.crew_code(mine), fights.crew_code(theirs)]
    assert row[fights.WIN] == pytest.approx(float(exact["provoker_wins"]), abs=1e-6)
    assert row[fights.LOSE] == pytest.approx(float(exact["provoked_wins"]), abs=1e-6)


def test_fight_table_is_antisymmetric_and_a_probability():
    table = fights.fight_table()
    codes = [fights.crew_code(v) for k in range(1, 4)
             for v in itertools.combinations_with_replacement(range(6), k)]
    sub = table[np.ix_(codes, codes)]
    assert np.allclose(sub[..., fights.WIN], sub[..., fights.LOSE].T, atol=1e-6)
    assert (sub.sum(axis=-1) <= 1 + 1e-6).all() and (sub >= 0).all()


def test_a_crew_code_keeps_the_three_highest_values():
    assert fights.crew_code([0, 5, 2, 4]) == fights.crew_code([5, 4, 2])
    assert fights.crew_code([]) == fights.EMPTY_CODE


def test_fewer_dice_is_a_different_fight():
    three = fights.fight_table("four", 3)[fights.crew_code([5]), fights.crew_code([0])]
    five = fights.fight_table("four", 5)[fights.crew_code([5]), fights.crew_code([0])]
    assert three[fights.WIN] != pytest.approx(five[fights.WIN])
