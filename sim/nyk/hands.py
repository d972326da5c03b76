"""Poker-dice hands of New York Kings (NYK-H1..H5).

Values are ranks 0..5 for 9, 10, J, Q, K, A (dice faces; henchmen 9..K, affranchi A, police cars J).
A hand's strength is one integer, larger is stronger, equal is equal:

    strength = category * 7**5 + sum(digit_i * 7**(4 - i))

where the digits are the best five values ordered by (multiplicity, rank) descending, each written
rank + 1, and 0 for a missing value (a hand of fewer than 5 values, NYK-H5). This order is exactly
NYK-H3: defining values of the category first, then the kickers from the highest down.

The jitted path keeps a hand as packed per-rank counts (4 bits a rank, so adding a value is adding
`1 << 4 * rank`) and reads the strength from a table indexed by the counts clipped at 5, which is
all that matters for the best five (NYK-H1). The tables ship in `sim/nyk/data/hand_tables.npy`;
`build_tables()` recomputes them and a test checks the shipped copy against a brute-force reference.
"""

from collections import Counter
from functools import cache
from itertools import combinations
from pathlib import Path

import numpy as np
from numba import njit

RANK_LABELS = ("9", "10", "J", "Q", "K", "A")
RANK_WORDS = ("nine", "ten", "jack", "queen", "king", "ace")
RANK_PLURALS = ("nines", "tens", "jacks", "queens", "kings", "aces")
N_RANKS = 6
EMPTY = 6  # a padding rank: its count lands in a nibble the table key ignores
HAND_SIZE = 5  # NYK-H1: at most five values count

HIGH_CARD, PAIR, TWO_PAIRS, THREE, STRAIGHT, FULL_HOUSE, FOUR, FIVE = range(8)
CATEGORY_NAMES = ("high card", "pair", "two pairs", "three of a kind", "straight",
                  "full house", "four of a kind", "five of a kind")
CATEGORY_SCALE = 7**5

RULINGS = ("four", "top")  # NYK-H4: five equal values as four of a kind + kicker, or a top category
# NYK-H3 ruling: two pairs under the same higher pair compare the lower pair, then the kicker (the
# checklist, as in poker), or the kicker first (the book: "the highest unused value" after the stronger pair)
TWO_PAIRS_RULINGS = ("lower_pair", "kicker")
N_KEYS = 6**N_RANKS
_TABLE_PATH = Path(__file__).parent / "data" / "hand_tables.npy"


def ruling_index(five_of_a_kind: str) -> int:
    if five_of_a_kind not in RULINGS:
        raise ValueError(f"five_of_a_kind must be one of {RULINGS}, got {five_of_a_kind!r}")
    return RULINGS.index(five_of_a_kind)


def two_pairs_index(two_pairs: str) -> int:
    if two_pairs not in TWO_PAIRS_RULINGS:
        raise ValueError(f"two_pairs must be one of {TWO_PAIRS_RULINGS}, got {two_pairs!r}")
    return TWO_PAIRS_RULINGS.index(two_pairs)


def parse_value(value) -> int:
    """A rank 0..5 from an int or a label "9", "10", "J", "Q", "K", "A"."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        if 0 <= value < N_RANKS:
            return int(value)
    elif isinstance(value, str) and value.strip().upper() in RANK_LABELS:
        return RANK_LABELS.index(value.strip().upper())
    raise ValueError(f"bad hand value {value!r}: use 9, 10, J, Q, K, A or ranks 0..5")


def parse_values(values) -> list[int]:
    if isinstance(values, str):
        values = [v for v in values.replace(" ", ",").split(",") if v]
    return [parse_value(v) for v in values]


# --- plain-Python reference (brute force, the definition the tables are tested against) ----------

def reference_five(values, five_of_a_kind: str = "four", two_pairs: str = "lower_pair") -> int:
    """Strength of at most five values, straight from NYK-H2/H3/H4/H5."""
    assert len(values) <= HAND_SIZE
    counts = Counter(values)
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    shape = [c for _, c in groups]
    is_straight = len(values) == 5 and len(counts) == 5 and max(values) - min(values) == 4
    if shape and shape[0] == 5:
        category = FIVE if five_of_a_kind == "top" else FOUR
    elif shape and shape[0] == 4:
        category = FOUR
    elif shape[:2] == [3, 2]:
        category = FULL_HOUSE
    elif is_straight:
        category = STRAIGHT
    elif shape and shape[0] == 3:
        category = THREE
    elif shape[:2] == [2, 2]:
        category = TWO_PAIRS
    elif shape and shape[0] == 2:
        category = PAIR
    else:
        category = HIGH_CARD
    ordered = [rank for rank, count in groups for _ in range(count)]
    digits = [rank + 1 for rank in ordered] + [0] * (HAND_SIZE - len(ordered))
    if category == TWO_PAIRS and two_pairs == "kicker":  # higher pair, the unused value (0: none), lower pair
        digits = digits[:2] + digits[4:] + digits[2:4]
    return category * CATEGORY_SCALE + sum(d * 7 ** (4 - i) for i, d in enumerate(digits))


def reference_strength(values, five_of_a_kind: str = "four", two_pairs: str = "lower_pair") -> int:
    """Best hand of at most five among any number of values, by trying every choice (NYK-H1)."""
    values = sorted(values)
    if len(values) <= HAND_SIZE:
        return reference_five(tuple(values), five_of_a_kind, two_pairs)
    return max(reference_five(c, five_of_a_kind, two_pairs) for c in set(combinations(values, HAND_SIZE)))


# --- lookup tables ----------------------------------------------------------------------------

def _key_of_counts(counts) -> int:
    return int(sum(min(int(c), 5) * 6**r for r, c in enumerate(counts)))


def _all_count_vectors(limit: int) -> np.ndarray:
    """Every vector of 6 per-rank counts in 0..limit, row i having key i when limit == 5."""
    grids = np.indices((limit + 1,) * N_RANKS).reshape(N_RANKS, -1).T
    return grids[:, ::-1]  # column r is the digit of 6**r


def build_tables() -> np.ndarray:
    """Strength tables, shape (2, 6**6), one row per NYK-H4 ruling (NYK-H3: lower pair first),
    indexed by clipped counts: the shipped file."""
    return np.stack([build_table(ruling) for ruling in RULINGS])


def build_table(five_of_a_kind: str = "four", two_pairs: str = "lower_pair") -> np.ndarray:
    """One strength table, built another way than the reference: a hand's strength is the
    maximum over every sub-multiset of exactly five values it contains (or the hand itself when
    it has fewer). The ruling decides which five count (NYK-H1): 9 9 10 10 J J keeps J J 10 10 9
    with the lower pair first, J J 9 9 10 with the kicker first."""
    vectors = _all_count_vectors(5)
    totals = vectors.sum(axis=1)
    fives = np.array([v for v in vectors if v.sum() == HAND_SIZE])
    five_strength = np.array([_strength_of_counts(v, five_of_a_kind, two_pairs) for v in fives])
    contains = (fives[None, :, :] <= vectors[:, None, :]).all(axis=2)
    best = np.where(contains, five_strength[None, :], -1).max(axis=1).astype(np.int32)
    small = totals < HAND_SIZE
    best[small] = [_strength_of_counts(v, five_of_a_kind, two_pairs) for v in vectors[small]]
    return best


def _strength_of_counts(counts, ruling, two_pairs: str = "lower_pair") -> int:
    return reference_five(tuple(r for r, c in enumerate(counts) for _ in range(c)), ruling, two_pairs)


@cache
def tables() -> np.ndarray:
    return np.load(_TABLE_PATH)


@cache
def table(five_of_a_kind: str = "four", two_pairs: str = "lower_pair") -> np.ndarray:
    """The strength table of one NYK-H4 and one NYK-H3 ruling, for the jitted functions below
    (read-only, cached). The shipped file holds the lower-pair-first tables; the kicker-first
    ones are built on first use (about a second)."""
    row = ruling_index(five_of_a_kind)
    if two_pairs_index(two_pairs) == 0:
        out = tables()[row].copy()
    else:
        out = build_table(five_of_a_kind, two_pairs)
    out.flags.writeable = False
    return out


# --- jitted path ------------------------------------------------------------------------------

@njit(cache=True, inline="always")
def add_value(packed, rank):
    """Packed per-rank counts with one more value of `rank`."""
    return packed + (np.int64(1) << np.int64(4 * rank))


def _half_keys() -> np.ndarray:
    """Three packed nibbles (12 bits) -> their counts clipped at 5, in base 6."""
    out = np.zeros(1 << 12, dtype=np.int64)
    for bits in range(1 << 12):
        out[bits] = sum(min((bits >> (4 * r)) & 15, 5) * 6**r for r in range(3))
    return out


_HALF_KEYS = _half_keys()


@njit(cache=True, inline="always")
def table_key(packed):
    """Index into a strength table: the packed counts, each clipped at 5, in base 6.

    Two lookups of three ranks each keep this branch-free (a hand evaluates in a few ns).
    """
    return _HALF_KEYS[packed & 0xFFF] + 216 * _HALF_KEYS[(packed >> 12) & 0xFFF]


@njit(cache=True)
def packed_strength(packed, table):
    return table[table_key(packed)]


@njit(cache=True)
def pack(ranks):
    packed = np.int64(0)
    for r in ranks:
        packed = add_value(packed, r)
    return packed


@njit(cache=True)
def strengths_of_rows(rows, table, out):
    """Strength of each row of ranks; `EMPTY` pads rows of fewer values (batch evaluation)."""
    for i in range(rows.shape[0]):
        packed = np.int64(0)
        for j in range(rows.shape[1]):
            packed = add_value(packed, rows[i, j])
        out[i] = table[table_key(packed)]


# --- public Python API ------------------------------------------------------------------------

def strength(values, five_of_a_kind: str = "four", two_pairs: str = "lower_pair") -> int:
    """Strength of the best hand among `values` (labels or ranks), larger is stronger."""
    ranks = parse_values(values)
    counts = np.bincount(np.asarray(ranks, dtype=np.int64), minlength=N_RANKS)
    return int(table(five_of_a_kind, two_pairs)[_key_of_counts(counts)])


def category_of(strength_value: int) -> int:
    return int(strength_value) // CATEGORY_SCALE


def best_five(strength_value: int) -> list[int]:
    """The counted values of a hand, ordered as compared (defining values, then kickers)."""
    rest = int(strength_value) % CATEGORY_SCALE
    digits = [(rest // 7 ** (4 - i)) % 7 for i in range(HAND_SIZE)]
    return [d - 1 for d in digits if d]


def describe(values, five_of_a_kind: str = "four") -> str:
    """Name a hand: "full house, kings over jacks", "pair of queens", "straight, ace high"."""
    return describe_strength(strength(values, five_of_a_kind))


def describe_strength(s: int) -> str:
    """Name the hand a strength stands for (its category and defining values)."""
    cat, five = category_of(s), best_five(s)
    if not five:
        return "no values"
    top, plural = RANK_WORDS, RANK_PLURALS
    if cat == HIGH_CARD:
        return f"high card, {top[five[0]]}"
    if cat == PAIR:
        return f"pair of {plural[five[0]]}"
    if cat == TWO_PAIRS:  # the lower pair: the other value found twice (either NYK-H3 order)
        low = next(v for v in five[2:] if five.count(v) == 2)
        return f"two pairs, {plural[five[0]]} and {plural[low]}"
    if cat == THREE:
        return f"three of a kind, {plural[five[0]]}"
    if cat == STRAIGHT:
        return f"straight, {top[five[0]]} high"
    if cat == FULL_HOUSE:
        return f"full house, {plural[five[0]]} over {plural[five[3]]}"
    if cat == FOUR and len(five) == 5 and five[4] == five[0]:
        return f"four of a kind, {plural[five[0]]} (five of a kind)"
    if cat == FOUR:
        return f"four of a kind, {plural[five[0]]}"
    return f"five of a kind, {plural[five[0]]}"


def show_strength(s: int) -> str:
    """The counted values and the hand's name: "K K J J 9 (two pairs, kings and jacks)"."""
    return " ".join(RANK_LABELS[v] for v in best_five(s)) + f" ({describe_strength(s)})"
