"""Sweeps on the American Gangsters ruleset (sim.tuning, game="ag"): every point plays the same
games, options are checked against sim/rules/ag/rules.toml before a game is played."""

import pytest

from sim.tuning import TuningError, sweep


def test_a_sweep_of_the_split_rule_plays_each_point_on_the_same_games():
    table = sweep(players=4, strategies="racketeer,warlord,politician,balanced", games=200, seed=1,
                  params={"negotiation.share": ("threat", "equal")}, game="ag", workers=1)
    assert list(table["negotiation.share"]) == ["threat", "equal"]
    assert len(table) == 2 and table.filter(like=".diff").notna().all(axis=None)


def test_a_sweep_refuses_an_option_of_the_other_game():
    with pytest.raises(TuningError, match="provocation.stake"):
        sweep(players=4, games=10, params={"provocation.stake": (1000, 2000)}, game="ag", workers=1)
