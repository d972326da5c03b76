"""Side payments by turn position (AG-N1, sim.analysis.games.ag_positions): the event count agrees
with the seats' own counters, and the chi-square against a hand-worked value."""

import pytest

from sim.ag import state as S
from sim.ag.game import play_one
from sim.analysis.games.ag_positions import chi_square, side_payments_by_position
from sim.rules import Ruleset

OWN = {"negotiation.side_payments": "own_bags"}


def test_chi_square_by_hand():
    assert chi_square([10, 20, 30, 40]) == pytest.approx((225 + 25 + 25 + 225) / 25)
    assert chi_square([5, 5, 5]) == 0.0


def test_ag_n1_payments_by_position_add_up_to_the_seats_counters():
    names = ["balanced"] * 4
    paid, received = side_payments_by_position(1, 12, 4, names, OWN)
    rs = Ruleset.load(game="ag", overrides=OWN)
    counted = sum(int(play_one(1, 4, names, rs, g).game.pl[:4, S.C_SIDE_PAID].sum()) for g in range(12))
    assert paid.sum() == received.sum() == counted > 0
