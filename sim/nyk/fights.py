"""Exact fight odds for strategies: who wins a provocation's fusillade, crew against crew.

A provocation (NYK-A4) ends, if nobody folds, with each side's crew values plus its dice
(intimidation dice, then one more at each of the two later stages) ranked as one hand. Strategies
deciding whether to provoke read the exact probabilities from `fight_table`, computed once per
hand ruling and dice count by enumerating every multiset of dice with its number of orderings.

Crews are indexed by their three highest values (`crew_code`): a crew of four or more is read as
its best three, an approximation that only ever concerns rare, lopsided fights.
"""

from functools import cache

import numpy as np
from numba import njit

from sim.nyk import hands
from sim.nyk.odds import dice_space

CREW_MAX = 3
N_CODES = (hands.N_RANKS + 1) ** CREW_MAX  # 343: three digits 0..6, 0 = no character
WIN, LOSE = 0, 1


@njit(cache=True)
def code_of_values(v1, v2, v3):
    """Code of a crew from its three highest values (descending, -1 for none)."""
    return (v1 + 1) * 49 + (v2 + 1) * 7 + (v3 + 1)


@njit(cache=True)
def code_add(top, value):
    """Insert `value` into the descending top-3 held as a code; returns the new code."""
    v1, v2, v3 = top // 49 - 1, (top // 7) % 7 - 1, top % 7 - 1
    if value > v1:
        v1, v2, v3 = value, v1, v2
    elif value > v2:
        v2, v3 = value, v2
    elif value > v3:
        v3 = value
    return code_of_values(v1, v2, v3)


EMPTY_CODE = 0


def crew_code(values) -> int:
    code = EMPTY_CODE
    for v in values:
        code = code_add(code, int(v))
    return code


def _crews():
    """Every valid code with its packed values (descending triples, absent at the end)."""
    codes, packed = [], []
    for v1 in range(-1, hands.N_RANKS):
        for v2 in range(-1, v1 + 1):
            for v3 in range(-1, v2 + 1):
                if (v1 < 0 and v2 >= 0) or (v2 < 0 and v3 >= 0):
                    continue
                values = [v for v in (v1, v2, v3) if v >= 0]
                codes.append(crew_code(values))
                packed.append(hands.pack(np.array(values, dtype=np.int64)) if values else 0)
    return np.array(codes, dtype=np.int64), np.array(packed, dtype=np.int64)


@njit(cache=True)
def _weights_by_level(packed, dice, weights, table):
    """at[a, l]: the weight of crew a's outcomes whose strength has level l (its rank among all
    the strengths any crew reaches)."""
    n, m = len(packed), len(dice)
    strengths = np.empty((n, m), dtype=np.int64)
    for a in range(n):
        for i in range(m):
            strengths[a, i] = table[hands.table_key(packed[a] + dice[i])]
    levels = np.unique(strengths)
    at = np.zeros((n, len(levels)))
    for a in range(n):
        level = np.searchsorted(levels, strengths[a])
        for i in range(m):
            at[a, level[i]] += weights[i]
    return at


def _fill(codes, packed, dice, weights, table, out):
    """Every crew against every crew by levels: a beats b with the weight of a's outcomes at each
    level times b's under it, two matrix products over the levels, no search. The weights are
    whole numbers and every sum stays below 2**53 (7 dice at most: 6**14), so every sum is exact."""
    at = _weights_by_level(packed, dice, weights, table)
    total = weights.sum()
    below = np.zeros((at.shape[1] + 1, at.shape[0]))   # below[l, b]: b's weight under level l
    np.cumsum(at.T, axis=0, out=below[1:])
    square = total * total
    out[np.ix_(codes, codes, [WIN])] = (at @ below[:-1] / square)[:, :, None]
    out[np.ix_(codes, codes, [LOSE])] = (at @ (total - below[1:]) / square)[:, :, None]


@cache
def fight_table(five_of_a_kind: str = "four", dice: int = 5, two_pairs: str = "lower_pair") -> np.ndarray:
    """`[a, b, WIN|LOSE]`: probability that crew code a beats (loses to) crew code b when each
    rolls `dice` dice (ties: the rest). Read-only; cached per ruling and dice count."""
    codes, packed = _crews()
    space = dice_space(dice)
    out = np.zeros((N_CODES, N_CODES, 2), dtype=np.float32)
    _fill(codes, packed, space.packed, space.orderings.astype(np.float64),
          hands.table(five_of_a_kind, two_pairs), out)
    out.flags.writeable = False
    return out
