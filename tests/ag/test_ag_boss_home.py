"""AG-T3, a boss kept home, in play: the `boss_home` study knob (strategies/ag/policy.py) keeps a
family's boss home, which the presets never do (home never beats the hospital)."""

import numpy as np

from sim.ag import state
from sim.ag.game import mechanics_seen, play_one


def test_ag_t3_a_homebody_keeps_its_boss_home_every_turn_and_pays_a_renown_level_each_time():
    played = play_one(4, 4, ["homebody", "balanced", "balanced", "balanced"], game_id=2)
    seat = int(np.flatnonzero(played.seating == 0)[0])
    pl, turns = played.game.pl, int(played.game.g[state.TURNS_PLAYED])
    assert turns > 2
    assert pl[seat, state.C_UNPLACED] == turns
    others = [q for q in range(4) if q != seat]
    assert pl[others, state.C_UNPLACED].sum() == 0


def test_ag_t3_bosses_kept_home_are_counted_in_the_mechanics_study():
    seen = mechanics_seen(1, 20, 4, ["homebody", "balanced", "balanced", "balanced"])
    assert seen["bosses_kept_home"] >= 20 * 3
    assert mechanics_seen(1, 20, 4, ["balanced"] * 4)["bosses_kept_home"] == 0
