"""NYK-H1..H5: the engine's fights and interrogations rank hands by the poker-dice rules."""

import pytest
from scenario import CHELSEA, SOHO, Table, mission_ids

from sim.nyk import state as S

LITTLE_SAL, LOOXY, THE_LORD, CHARLIE, LUCKY_ROSE, BIG_PAULIE = 5, 8, 9, 10, 13, 14
NO_FOLD = (2, 0)


def fusillade(mine, theirs, dice, overrides=None):
    """Henchman `mine` (seat 0) provokes henchman `theirs` (seat 1) on SOHO; nobody folds.
    `dice`: seat 0's three, seat 1's three, then the 4th and the 5th die of each in turn."""
    t = Table(overrides=overrides)
    t.hench(mine, 0, SOHO)
    t.hench(theirs, 1, SOHO)
    t.begin(0)
    t.force(*dice)
    t.steer(NO_FOLD, NO_FOLD, NO_FOLD, NO_FOLD)
    t.provoke(0, SOHO, 1, mine)
    assert t.dice_left() == 0
    return t


def winner(t):
    if t.pl[0, S.C_FIGHTS_WON]:
        return 0
    if t.pl[1, S.C_FIGHTS_WON]:
        return 1
    assert t.pl[0, S.C_FIGHTS_TIED] == 1
    return None


def test_nyk_h1_only_the_best_five_values_count():
    # seat 0: Q + A,K,J,9,9; seat 1: Q + A,K,10,9,9: both pair of nines, A K Q; the sixth
    # value (J against 10) does not count: a tie, each side loses its henchman.
    t = fusillade(LOOXY, LUCKY_ROSE, ["A", "K", "J", "A", "K", "10", "9", "9", "9", "9"])
    assert winner(t) is None
    assert t.ch[LOOXY, S.WHERE] == S.W_DEAD and t.ch[LUCKY_ROSE, S.WHERE] == S.W_DEAD


def test_nyk_h2_straight_beats_three_of_a_kind():
    # seat 0: 9 + 10,J,Q,K,10: straight to the king; seat 1: K + K,K,Q,10,9: three kings
    t = fusillade(LITTLE_SAL, BIG_PAULIE, ["10", "J", "Q", "K", "K", "Q", "K", "10", "10", "9"])
    assert winner(t) == 0 and t.ch[BIG_PAULIE, S.WHERE] == S.W_DEAD


def test_nyk_h2_ace_high_only_no_wrapping_straight():
    # seat 0: Q + A,9,10,J,9: a pair of nines (A,9,10,J,Q is no straight); seat 1: 9 + 10,10,K,K,J
    t = fusillade(LOOXY, CHARLIE, ["A", "9", "10", "10", "10", "K", "J", "K", "9", "J"])
    assert winner(t) == 1 and t.ch[LOOXY, S.WHERE] == S.W_DEAD


def test_nyk_h3_full_house_by_its_triple_then_kickers():
    # kings over jacks beats queens over aces
    t = fusillade(THE_LORD, LUCKY_ROSE, ["K", "K", "J", "Q", "Q", "A", "J", "A", "9", "9"])
    assert winner(t) == 0
    # pair of queens: A, K, 10 beats A, J, 10
    t = fusillade(LOOXY, LUCKY_ROSE, ["Q", "K", "10", "Q", "A", "J", "9", "10", "A", "9"])
    assert winner(t) == 0


@pytest.mark.parametrize("ruling, expected", [("lower_pair", 0), ("kicker", 1)])
def test_nyk_h3_ruling_two_pairs(ruling, expected):
    # seat 0: Q + A,A,J,J,9 (aces and jacks, queen); seat 1: Q + A,A,10,10,K (aces and tens, king)
    t = fusillade(LOOXY, LUCKY_ROSE, ["A", "A", "J", "A", "A", "10", "J", "10", "9", "K"],
                  {"hands.two_pairs": ruling})
    assert winner(t) == expected


@pytest.mark.parametrize("ruling, expected", [("four", 1), ("top", 0)])
def test_nyk_h4_ruling_five_of_a_kind(ruling, expected):
    # seat 0: Q + Q,Q,Q,Q,9 (five queens); seat 1: K + K,K,K,A,9 (four kings, ace)
    t = fusillade(LOOXY, THE_LORD, ["Q", "Q", "Q", "K", "K", "K", "Q", "A", "9", "9"],
                  {"hands.five_of_a_kind": ruling})
    assert winner(t) == expected


@pytest.mark.parametrize("dice, arrested", [
    (["10", "J", "Q", "9", "9", "10"], True),    # 9,10,J,Q: four in a row is no straight
    (["10", "10", "10", "Q", "Q", "K"], False),  # three tens from three dice beat a pair
])
def test_nyk_h5_fewer_than_five_values(dice, arrested):
    t = Table()
    t.hench(LITTLE_SAL, 0, SOHO)
    t.hold(mission_ids(crew=1, risk=1)[0], [LITTLE_SAL], CHELSEA)
    t.police(SOHO)
    t.force(*dice)
    t.interrogate(0, SOHO)
    assert (t.ch[LITTLE_SAL, S.WHERE] == S.W_CUSTODY) == arrested
