"""A second, stand-alone implementation of the dice contests, rolled through sim.rng.

The engine never calls these functions: it rolls its contests in its own chapters
(sim/nyk/chapters/recruitment.py, police.py, fights.py), with the ruleset's dice counts. This
copy serves the benchmark of raw contest speed (sim.bench), notebook 03's Monte Carlo beside the
exact odds, and tests/test_odds.py. Its `interrogation` rolls fixed dice counts and ignores the
ruleset's: it is no evidence about the engine's odds. Hands are packed per-rank counts (see
`sim.nyk.hands`); `table` is a strength table of `sim.nyk.hands`.
"""

import numpy as np
from numba import njit

from sim.nyk.hands import add_value, table_key
from sim.rng import roll_die

RECRUITED, HESITATES, REFUSED = 0, 1, 2


@njit(cache=True)
def roll_into(state, packed, n_dice):
    """`packed` with `n_dice` more dice rolled into it."""
    for _ in range(n_dice):
        packed = add_value(packed, roll_die(state))
    return packed


@njit(cache=True)
def recruit_roll(state, value, n_dice):
    """NYK-A6: any die above the value recruits; else any die equal hesitates; else refusal."""
    best = -1
    for _ in range(n_dice):
        d = roll_die(state)
        if d > best:
            best = d
    if best > value:
        return RECRUITED
    if best == value:
        return HESITATES
    return REFUSED


@njit(cache=True)
def contest(state, side_a, side_b, n_dice, table):
    """Both sides roll `n_dice` into their hands: +1 if a is stronger, -1 if b, 0 on a tie."""
    a = table[table_key(roll_into(state, side_a, n_dice))]
    b = table[table_key(roll_into(state, side_b, n_dice))]
    return (a > b) - (a < b)


@njit(cache=True)
def count_contests(state, side_a, side_b, n_dice, table, n):
    """Counts of (a wins, tie, b wins) over n contests: the fight kernel of the benchmark."""
    out = np.zeros(3, dtype=np.int64)
    for _ in range(n):
        out[1 - contest(state, side_a, side_b, n_dice, table)] += 1
    return out


INTERROGATION_ESCAPE, RESIST_WON, ARRESTED = 0, 1, 2


@njit(cache=True)
def interrogation(state, crew, police, resist, table):
    """NYK-P4: 3 dice each, the crew escapes only if strictly stronger; NYK-P5: resisting adds a
    4th and a 5th die to both hands, the crew must again be strictly stronger."""
    crew = roll_into(state, crew, 3)
    police = roll_into(state, police, 3)
    if table[table_key(crew)] > table[table_key(police)]:
        return INTERROGATION_ESCAPE
    if not resist:
        return ARRESTED
    crew = roll_into(state, crew, 2)
    police = roll_into(state, police, 2)
    if table[table_key(crew)] > table[table_key(police)]:
        return RESIST_WON
    return ARRESTED


PROVOKER_WINS, TIE, PROVOKED_WINS, PROVOKER_FOLDED, PROVOKED_FOLDED = 0, 1, 2, 3, 4


@njit(cache=True)
def provocation(state, provoker, provoked, table, fold3, fold4, index3, index4):
    """NYK-A4 played with fold tables (see `sim.nyk.odds.ProvocationSolution`).

    Returns (outcome, stage) where stage 1 is intimidation, 2 artillery, 3 fusillade.
    `index3`/`index4` map a dice multiset's table key to its row in the fold tables.
    """
    dice_p = roll_into(state, np.int64(0), 3)
    dice_d = roll_into(state, np.int64(0), 3)
    who = fold3[index3[table_key(dice_p)], index3[table_key(dice_d)]]
    if who != 0:
        return (PROVOKER_FOLDED if who == 1 else PROVOKED_FOLDED), 1
    dice_p = roll_into(state, dice_p, 1)
    dice_d = roll_into(state, dice_d, 1)
    who = fold4[index4[table_key(dice_p)], index4[table_key(dice_d)]]
    if who != 0:
        return (PROVOKER_FOLDED if who == 1 else PROVOKED_FOLDED), 2
    a = table[table_key(roll_into(state, provoker + dice_p, 1))]
    b = table[table_key(roll_into(state, provoked + dice_d, 1))]
    if a > b:
        return PROVOKER_WINS, 3
    return (TIE if a == b else PROVOKED_WINS), 3
