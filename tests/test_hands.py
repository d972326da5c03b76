"""Hands (NYK-H1..H5): tables against a brute-force reference, classical poker-dice counts."""

from collections import Counter
from itertools import combinations_with_replacement, product

import numpy as np
import pytest

from sim.nyk import hands

ALL_MULTISETS = [m for n in range(1, 11) for m in combinations_with_replacement(range(6), n)]


def test_shipped_tables_equal_rebuilt_tables():
    assert np.array_equal(hands.tables(), hands.build_tables())


@pytest.mark.parametrize("two_pairs", hands.TWO_PAIRS_RULINGS)
@pytest.mark.parametrize("ruling", hands.RULINGS)
def test_table_matches_brute_force_on_every_multiset_of_1_to_10_values(ruling, two_pairs):
    # NYK-H1: best five of up to ten values; NYK-H4 and NYK-H3 under both rulings each.
    table = hands.table(ruling, two_pairs)
    for values in ALL_MULTISETS:
        counts = np.bincount(values, minlength=6)
        assert table[hands._key_of_counts(counts)] == hands.reference_strength(values, ruling, two_pairs), values


@pytest.mark.parametrize("two_pairs, winner", [("lower_pair", "A,A,J,J,Q"), ("kicker", "A,A,10,10,K")])
def test_nyk_h3_two_pairs_under_the_same_higher_pair(two_pairs, winner):
    # NYK-H3 ruling: lower pair before kicker (as in poker), or the unused value first (the book's
    # "highest unused value" once the stronger pairs are equal)
    a, b = hands.strength("A,A,J,J,Q", two_pairs=two_pairs), hands.strength("A,A,10,10,K", two_pairs=two_pairs)
    assert (a > b) == (winner == "A,A,J,J,Q")
    assert hands.describe("A,A,10,10,K") == "two pairs, aces and tens"
    assert hands.describe_strength(b) == "two pairs, aces and tens"


def test_nyk_h3_kicker_ruling_changes_only_two_pair_comparisons():
    base, kicker = hands.table(), hands.table("four", "kicker")
    two = base // hands.CATEGORY_SCALE == hands.TWO_PAIRS
    assert np.array_equal(base[~two], kicker[~two])
    assert np.array_equal(kicker[two] // hands.CATEGORY_SCALE, base[two] // hands.CATEGORY_SCALE)
    assert (base[two] != kicker[two]).any()
    with pytest.raises(ValueError, match="two_pairs must be one of"):
        hands.table("four", "middle")


@pytest.mark.parametrize("ruling", hands.RULINGS)
def test_jitted_packed_path_matches_python_api(ruling):
    table = hands.table(ruling)
    for values in ALL_MULTISETS[::7]:
        packed = hands.pack(np.array(values, dtype=np.int64))
        assert hands.packed_strength(packed, table) == hands.strength(values, ruling)


def test_five_dice_category_counts_are_the_classical_poker_dice_table():
    # NYK-H2 with NYK-H4 "top": the classical table out of 7,776 rolls.
    counts = Counter(hands.category_of(hands.strength(roll, "top")) for roll in product(range(6), repeat=5))
    assert counts == {
        hands.HIGH_CARD: 480, hands.PAIR: 3600, hands.TWO_PAIRS: 1800, hands.THREE: 1200,
        hands.STRAIGHT: 240, hands.FULL_HOUSE: 300, hands.FOUR: 150, hands.FIVE: 6,
    }


def test_five_of_a_kind_is_four_with_same_rank_kicker_by_default():
    # NYK-H4 default ruling.
    five_kings = hands.strength("K,K,K,K,K")
    assert hands.category_of(five_kings) == hands.FOUR
    assert hands.strength("K,K,K,K,Q") < five_kings < hands.strength("A,A,A,A,9")
    # option: its own category above four of a kind
    assert hands.strength("K,K,K,K,K", "top") > hands.strength("A,A,A,A,K", "top")


@pytest.mark.parametrize("weaker, stronger", [
    ("A,K,Q,J,9", "9,9,10,J,Q"),        # NYK-H2 pair beats high card
    ("A,A,K,Q,J", "9,9,10,10,J"),       # two pairs beat a pair
    ("A,A,K,K,Q", "9,9,9,10,J"),        # three of a kind beats two pairs
    ("A,A,A,K,Q", "9,10,J,Q,K"),        # straight beats three of a kind
    ("9,10,J,Q,K", "10,J,Q,K,A"),       # straights by their top
    ("10,J,Q,K,A", "9,9,9,10,10"),      # full house beats straight
    ("A,A,A,K,K", "9,9,9,9,10"),        # four beats full house
    ("K,K,Q,Q,A", "K,K,A,A,9"),         # NYK-H3 two pairs: higher pair first
    ("K,K,Q,Q,9", "K,K,Q,Q,10"),        # then the kicker
    ("Q,Q,Q,A,A", "K,K,K,9,9"),         # full house by its triple
    ("K,K,K,9,9", "K,K,K,10,10"),       # then its pair
    ("A,K,Q,J,9", "A,K,Q,J,10,9") ,     # best five of six: the straight
    ("K,Q", "K,Q,9"),                   # NYK-H5: an extra kicker counts
    ("A,A", "9,9,9"),                   # a triple from three dice
])
def test_hand_order(weaker, stronger):
    assert hands.strength(weaker) < hands.strength(stronger)


def test_equal_hands_are_equal_and_no_straight_below_five_values():
    assert hands.strength("K,Q,J,10,9") == hands.strength([4, 3, 2, 1, 0])
    assert hands.category_of(hands.strength("K,Q,J,10")) == hands.HIGH_CARD
    assert hands.strength("A,A,K,K,Q,Q,J") == hands.strength("A,A,K,K,Q")  # NYK-H1: five count


def test_describe_names_hands():
    assert hands.describe("K,K,K,J,J") == "full house, kings over jacks"
    assert hands.describe("Q,Q,9") == "pair of queens"
    assert hands.describe("A,10,A,10,9") == "two pairs, aces and tens"
    assert hands.describe("10,J,Q,K,A") == "straight, ace high"
    assert hands.describe("9,10,J") == "high card, jack"


@pytest.mark.parametrize("bad", [["B"], [6], [-1], ["1"], [True]])
def test_bad_values_are_refused_with_a_clear_message(bad):
    with pytest.raises(ValueError, match="bad hand value"):
        hands.strength(bad)


def test_batch_rows_padded_with_empty_match_python_api():
    gen = np.random.default_rng(3)
    rows = gen.integers(0, 6, size=(500, 7)).astype(np.int8)
    lengths = gen.integers(0, 8, size=500)
    rows[np.arange(7)[None, :] >= lengths[:, None]] = hands.EMPTY
    out = np.empty(500, dtype=np.int32)
    hands.strengths_of_rows(rows, hands.table("top"), out)
    expected = [hands.strength([v for v in row if v != hands.EMPTY], "top") for row in rows.tolist()]
    assert out.tolist() == expected
