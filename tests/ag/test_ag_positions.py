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


def test_ag_e1_seat_wins_split_a_shared_victory_and_add_up_to_the_games():
    import numpy as np

    from sim.ag.batch import G_DECIDED_BY, G_WINNER
    from sim.ag.game import Lineup, load_default, play_many
    from sim.ag.state import BY_SHARED
    from sim.analysis.games.ag_seat_rates import seat_wins

    games, _, _ = play_many(1, 300, 3, Lineup.of(["warlord"] * 3, 3), load_default())
    shared = games[:, G_DECIDED_BY] == BY_SHARED
    assert shared.any()   # this seed has shared victories: each is split, not given to the lower seat
    wins = seat_wins("warlord", 3, 300, 1)
    alone = np.bincount(games[~shared, G_WINNER], minlength=3)
    assert wins.sum() == pytest.approx(300)
    assert np.all(wins >= alone) and (wins - alone).sum() == pytest.approx(shared.sum())
    assert np.all(wins - alone < shared.sum())   # no seat takes every shared win


def test_ag_n2_trace_by_position_adds_up_to_the_seats_counters():
    from sim.analysis.games.ag_seat_trace import trace

    table = trace("warlord", 3, 6, 1)
    rs = Ruleset.load(game="ag")
    fired = sum(int(play_one(1, 3, ["warlord"] * 3, rs, g).game.pl[:3, S.C_BANGS].sum()) for g in range(6))
    assert table["hits taken"].sum() == fired > 0   # every BANG fired hits someone (AG-N2)
