"""Seating modes (sim.seating) and `mobsim run --seating`: every order, random orders, the rotation."""

import math

import numpy as np
import pytest

from sim import seating


def test_rotate_fixed_all_and_random_tables():
    assert seating.table(4, "rotate").tolist() == [[0, 1, 2, 3], [1, 2, 3, 0], [2, 3, 0, 1], [3, 0, 1, 2]]
    assert seating.table(4, False).tolist() == [[0, 1, 2, 3]] and seating.table(3, True).shape == (3, 3)
    every = seating.table(4, "all")
    assert len(every) == math.factorial(4) == len({tuple(r) for r in every})
    rows = seating.table(4, "random")
    assert np.array_equal(rows, seating.table(4, "random"))  # the same game id, the same seating
    assert (np.sort(rows, axis=1) == np.arange(4)).all()
    # each slot sits in each seat about a quarter of the time
    share = np.array([[(rows[:, s] == k).mean() for k in range(4)] for s in range(4)])
    assert np.abs(share - 0.25).max() < 0.03
    # with every order, each slot has each other slot as its next neighbour equally often
    nxt = np.array([[((every == a) & (np.roll(every, -1, axis=1) == b)).sum() for b in range(4)] for a in range(4)])
    assert set(nxt[~np.eye(4, dtype=bool)].tolist()) == {8}  # 24 orders x 4 neighbours / 12 pairs


def test_a_bad_mode_is_a_clear_error():
    with pytest.raises(ValueError, match="not one of rotate, fixed, all, random"):
        seating.table(4, "circle")


def test_a_run_with_every_order_records_it(tmp_path):
    import sim

    result = sim.run(players=4, strategies="simple,random,random,random", games=48, seed=3, workers=1,
                     rotate="all", out=tmp_path / "run")
    assert result.manifest["seating"] == "all" and len(result.manifest["strategies"]["seatings"]) == 24
    simple_seat = result.seats[result.seats["strategy"] == "simple"].groupby("seat").size()
    assert simple_seat.to_dict() == {0: 12, 1: 12, 2: 12, 3: 12}
