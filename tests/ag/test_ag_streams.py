"""Common random numbers in the American Gangsters engine: every source of luck draws from its
own stream (sim.rng, keyed by run seed, game id and source), so one family rolling more dice
leaves the other families' dice as they were."""

import numpy as np
from ag_scenario import Table

from sim import rng
from sim.ag.chapters import base
from sim.ag.chapters import dice
from sim.ag import state as S

SEED, GAME = 1, 0  # Table's defaults


def test_setup_seeds_every_source_apart():
    t = Table()
    for source in [S.S_BARREL] + [S.S_DICE0 + p for p in range(S.MAX_SEATS)] + \
            [S.S_POLICY0 + p for p in range(S.MAX_SEATS)] + [S.S_SHARE]:  # setup draws none of these
        assert np.array_equal(t.game.rng[source], rng.source_stream(SEED, GAME, source))
    assert len({tuple(r) for r in t.game.rng.tolist()}) == S.N_STREAMS


def rolled(extra_draws_family_0):
    """Families 0 and 1 roll their henchmen on slot 1, family 0 having rolled more before."""
    t = Table()
    for _ in range(extra_draws_family_0):
        rng.next_u64_of(t.game.rng, S.S_DICE0 + 0)
    t.put(1, 0, hench=2)
    t.put(1, 1, hench=3, killer=1)
    dice.roll_slot(t.game, t.env, 1, 0b11, -1)
    return t


def test_one_family_rolling_more_leaves_the_others_dice_unchanged():
    plain, busy = rolled(0), rolled(5)
    assert np.array_equal(plain.game.dice[1], busy.game.dice[1])
    assert np.array_equal(plain.game.rng[S.S_DICE0 + 1], busy.game.rng[S.S_DICE0 + 1])
    assert not np.array_equal(plain.game.rng[S.S_DICE0 + 0], busy.game.rng[S.S_DICE0 + 0])
    # family 1's faces are its own stream's: 3 henchman dice, then 1 killer die
    own = rng.source_stream(SEED, GAME, S.S_DICE0 + 1)
    faces = [int(rng.below(own, 6)) for _ in range(4)]
    counts = np.zeros((3, 3), dtype=np.int64)
    for die, f in zip([S.HENCH - 1] * 3 + [S.KILLER - 1], faces, strict=True):
        counts[die, base.result_of(plain.env, die, f)] += 1
    assert np.array_equal(plain.game.dice[1], counts)
