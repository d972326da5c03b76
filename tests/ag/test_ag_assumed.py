"""`mobsim sensitivity --assumed`: every assumed value of every game has a plausible range (or a
stated reason to be left out), and a variation changes exactly the values it names."""

import pytest

from sim.rules import Ruleset
from sim.shared.game import names
from sim.tuning.assumed import (
    assumed_options, load_ranges, ruleset_with_content, varied_content,
)
from sim.tuning.errors import TuningError


@pytest.mark.parametrize("game", names())
def test_every_assumed_option_has_a_range_or_a_reason(game):
    variations, skip = load_ranges(game)
    covered = {v.option for v in variations} | set(skip)
    assert set(assumed_options(game)) <= covered
    for v in variations:
        assert v.why and v.low != v.high


def test_fbi_symbols_low_end_removes_every_plus_one_and_keeps_the_police_station(tmp_path):
    variations, _ = load_ranges("ag")
    fbi = next(v for v in variations if v.name == "locations: FBI symbols (+1)")
    path = ruleset_with_content(tmp_path, "locations", varied_content("ag", fbi, fbi.low))
    cards = Ruleset.load(path, game="ag").content["locations"]
    before = Ruleset.load(game="ag").content["locations"]
    assert [c.fbi for c in cards] == [min(c.fbi, 0) for c in before]
    assert any(c.fbi == -1 for c in cards) and any(c.fbi == 1 for c in before)
    assert [c.renown for c in cards] == [c.renown for c in before]


def test_track_prices_keep_the_stated_first_price(tmp_path):
    variations, _ = load_ranges("ag")
    prices = next(v for v in variations if v.name == "tracks: henchman prices")
    path = ruleset_with_content(tmp_path, "tracks", varied_content("ag", prices, prices.high))
    track = Ruleset.load(path, game="ag").content["tracks"].henchman
    base = Ruleset.load(game="ag").content["tracks"].henchman
    assert track.prices[0] == base.prices[0] == 1
    assert list(track.prices[1:]) == [p + 1 for p in base.prices[1:]]


def test_nyk_mission_rewards_scale_in_thousands(tmp_path):
    variations, _ = load_ranges("nyk")
    rewards = next(v for v in variations if v.name == "missions: rewards")
    table = varied_content("nyk", rewards, rewards.high)
    assert all(m["reward"] % 1000 == 0 for m in table["mission"])
    assert table["mission"][0]["reward"] == 5000   # 4,000 x 1.25 rounded to the thousand


def test_a_range_end_equal_to_the_current_value_is_refused_in_one_line():
    variations, _ = load_ranges("ag")
    police = next(v for v in variations if v.name == "locations: police station (FBI -1)")
    with pytest.raises(TuningError, match="current value"):
        varied_content("ag", police, -1)


def test_the_ranking_shows_a_defined_change_when_nothing_moves():
    import numpy as np
    import pandas as pd

    from sim.tuning.assumed import ranking

    nan = float("nan")
    rows = [("price", "strategy_gap", nan, 0.0), ("price", "winrate_spread", 0.0, 0.0),
            ("price", "turns", 0.0, 0.0), ("scale", "turns", -0.02, -1.7), ("scale", "strategy_gap", nan, 0.0)]
    table = pd.DataFrame([{"value": v, "side": "low", "setting": "x", "metric": m, "diff": d,
                           "lo": d - 0.01 if np.isfinite(d) else nan, "hi": d + 0.01 if np.isfinite(d) else nan,
                           "z": z} for v, m, d, z in rows])
    ranked = ranking(table).set_index("value")
    assert ranked.loc["price", "metric"] == "winrate_spread" and ranked.loc["price", "diff"] == 0.0
    assert ranked.loc["scale", "metric"] == "turns" and ranked.loc["scale", "max_abs_z"] == 1.7
    assert list(ranked.index) == ["scale", "price"]
