"""The American Gangsters search player (sim.search.ag): its preset, reproducible legal games through
the same tables as the batch, and worlds that hide what a family cannot see (AG-T3, AG-V1)."""

import numpy as np
import pytest

import strategies
from sim.ag.batch import SEAT_COLUMNS
from sim.ag.decisions import CTX_DECISION, D_PLACE
from sim.ag.forward import Forward
from sim.ag.game import Lineup, load_default
from sim.search import ag as search
from sim.shared.search import SK_ON


def quick_preset(tmp_path, root="halving"):
    path = tmp_path / "quick.toml"
    path.write_text('family = "search"\n[search]\niterations = 4\nrollout = "warlord"\n'
                    f'kinds = ["place", "shoot"]\nroot = "{root}"\n')
    return str(path)


def test_the_search_preset_loads_for_american_gangsters():
    s = strategies.load("search-200", "ag")
    assert s.family == strategies.SEARCH and s.search["rollout"] == "warlord"
    assert "search-200" in strategies.available("ag", searchers=True)
    assert "search-200" not in strategies.available("ag")
    assert Lineup.of(["search-200", "warlord"], 2).search[0, SK_ON] == 1


def test_a_search_game_is_legal_and_reproducible(tmp_path):
    lineup = Lineup.of([quick_preset(tmp_path), "warlord", "warlord"], 3)
    first = search.play_many(4, 1, 3, lineup, load_default())
    again = search.play_many(4, 1, 3, lineup, load_default())
    assert np.array_equal(first[1], again[1]) and np.array_equal(first[0], again[0])
    assert first[1].shape == (1, 3, len(SEAT_COLUMNS))


def test_a_root_this_game_lacks_is_a_one_line_error(tmp_path):
    lineup = Lineup.of([quick_preset(tmp_path, "uct"), "warlord"], 2)
    with pytest.raises(ValueError, match="Sequential Halving only"):
        search.play_many(0, 1, 2, lineup, load_default())


def test_worlds_deal_again_where_the_earlier_families_placed():
    """AG-T3 simultaneous: at a family's placement, the pieces placed before it this turn are out
    of its sight; a determinized world keeps how many each family placed, not where."""
    fw = Forward.new(None, ["warlord"] * 4, seed=3, stop=[0, 1, 2, 3])
    while not (fw.game.ctx[CTX_DECISION] == D_PLACE and fw.game.hidden.sum() > 0):
        fw.apply_policy()
    seat = fw.decision().seat
    others = [q for q in range(4) if q != seat]
    truth = fw.game.hidden[:, others, :].copy()
    seen = set()
    for key in range(12):
        world = fw.determinize(seat, key).game.hidden[:, others, :]
        assert np.array_equal(world.sum(axis=0), truth.sum(axis=0))
        seen.add(world.tobytes())
    assert len(seen) > 1
    assert np.array_equal(fw.game.hidden[:, others, :], truth)   # the game itself is untouched
