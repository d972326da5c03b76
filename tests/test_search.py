"""The search player (sim.search.nyk): its presets, legal and reproducible games through the runner,
and the option it picks where brute force knows the best one."""

import numpy as np
import pytest

import strategies
from sim.nyk.batch import GAME_COLUMNS, SEAT_COLUMNS
from sim.nyk.game import SK_ITERATIONS, SK_KINDS, SK_ON, Lineup
from sim.rules import Ruleset
from sim.runner import run
from sim.search import nyk as search

COL = {name: i for i, name in enumerate(SEAT_COLUMNS)}


def preset(tmp_path, name="quick", **knobs):
    lines = ['doc = "a small search"', 'family = "search"', "[search]"]
    lines += [f"{k} = {v!r}".replace("'", '"') for k, v in knobs.items()]
    path = tmp_path / f"{name}.toml"
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def test_the_search_preset_loads_with_its_knobs():
    s = strategies.load("search-200")
    assert s.family == "search" and s.search["iterations"] == 200 and s.search["rollout"] == "balanced"
    assert s.params == strategies.load("balanced").params  # unsearched decisions: the rollout's
    assert "search-200" in strategies.available(searchers=True)
    assert "search-200" not in strategies.available()  # batch-only listings keep their speed
    row = Lineup.of(["search-200", "tuned", "tuned", "tuned"], 4).search[0]
    assert row[SK_ON] == 1 and row[SK_ITERATIONS] == 200 and row[SK_KINDS] == (1 << 18) - 1


@pytest.mark.parametrize("text, words", [
    ("iterations = 0", r"search.iterations = 0 is outside \[1, 100000\]"),
    ('rollout = "search-200"', "is itself a search player"),
    ('rollout = "balance"', "did you mean 'balanced'"),
    ('kinds = ["move", "fly"]', "search.kinds"),
    ('opponents = "all"', "choose rollout or actual"),
    ("depth = 3", "unknown search knob 'depth'"),
])
def test_bad_search_knobs_are_one_line_errors(tmp_path, text, words):
    path = tmp_path / "bad.toml"
    path.write_text(f'doc = "x"\nfamily = "search"\n[search]\n{text}\n')
    with pytest.raises(strategies.StrategyError, match=words) as err:
        strategies.load(str(path))
    assert "\n" not in str(err.value)


def test_search_games_are_legal_and_reproducible(tmp_path):
    quick = preset(tmp_path, iterations=6, kinds=["action", "move", "bid"])
    lineup = Lineup.of([quick, "balanced", "tuned", "random"], 4)
    rs = Ruleset.load()
    first = search.play_many(3, 4, 4, lineup, rs)
    again = search.play_many(3, 4, 4, lineup, rs)
    other = search.play_many(4, 4, 4, lineup, rs)
    np.testing.assert_array_equal(first[1], again[1])
    assert not np.array_equal(first[1], other[1])
    games, seats = first[0], first[1]
    assert (games[:, GAME_COLUMNS.index("illegal_decisions")] == 0).all()
    assert (games[:, GAME_COLUMNS.index("turns")] > 5).all()
    assert (seats[:, :, COL["won"]].sum(axis=1) >= 1).all()
    # the search seat rotates round the table with the lineup, as in any batch
    assert sorted(seats[:, :, COL["strategy"]].argmin(axis=1).tolist()) == [0, 1, 2, 3]


def test_a_lineup_with_a_search_seat_plays_through_the_runner(tmp_path):
    quick = preset(tmp_path, iterations=4, kinds=["action"])
    result = run(players=4, strategies=(quick, "tuned", "tuned", "tuned"), games=4, seed=2, workers=1,
                 progress=False, record_turns=True)
    seats = result.seats
    assert len(result.games) == 4 and (result.games.illegal_decisions == 0).all()
    assert set(seats.strategy.astype(str)) == {quick, "tuned"}
    assert len(result.turns) > 4 * 4 * 5
