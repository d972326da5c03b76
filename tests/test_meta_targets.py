"""Meta-game targets for `mobsim tune` (sim/tuning/meta_targets.py)."""

import math

import numpy as np

from sim.meta.solvers import SUPPORT_WEIGHT
from sim.tuning import meta_targets
from sim.tuning.study import Study
from sim.tuning.targets import parse_target


def test_meta_targets_parse_with_their_bounds():
    t = parse_target("meta_support>=3")
    assert (t.metric, t.lo, t.hi) == ("meta_support", 3, math.inf)
    assert parse_target("meta_max_share<=50%").hi == 0.5
    assert meta_targets.wanted([t]) and not meta_targets.wanted([parse_target("turns=9:12")])


def test_a_point_measures_the_meta_game_and_the_seat_gap_at_equilibrium():
    study = Study(players=4, strategies=("runner", "tuned", "runner", "tuned"), workers=1, meta=True)
    ev = study.evaluate({}, games=40, seed=2)
    support, lo, hi = ev.metric("meta_support")
    share = ev.metric("meta_max_share")[0]
    assert support in (1.0, 2.0) and lo <= support <= hi
    assert 0.5 <= share <= 1.0
    # the entropy of a mixture of two styles: 0 for a pure one, at most log 2
    assert 0.0 <= ev.metric("meta_entropy")[0] <= math.log(2) + 1e-12
    if support == 1.0:  # one style above the support's weight: the rest weigh less than it together
        assert 1.0 - share < SUPPORT_WEIGHT
    gap, gap_lo, gap_hi = ev.metric("meta_seat_gap")
    assert -1.0 <= gap <= 1.0 and gap_lo <= gap <= gap_hi  # bias-corrected: may dip below 0 near a tie
    assert np.isfinite(ev.standard_error("meta_seat_gap"))
    assert ev.metric("turns")[0] > 0  # the point's own headline metrics are still there
