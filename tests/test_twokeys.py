"""sim.analysis.twokeys: a measure by two keys (win share by seat and game length), each cell with
its interval, on a table whose answer is known; and its figure."""

import numpy as np
import pandas as pd
import pytest

from sim.analysis.twokeys import by_two_keys, draw_by_two_keys


def seats_and_games(games=4000, seed=0):
    """Seat 0 wins short games (under 10 turns) 60% of the time, every seat a quarter of the long ones."""
    rng = np.random.default_rng(seed)
    turns = rng.integers(6, 14, games)
    short = turns < 10
    p_short, p_long = [0.6, 0.4 / 3, 0.4 / 3, 0.4 / 3], [0.25] * 4
    winner = np.where(short, rng.choice(4, games, p=p_short), rng.choice(4, games, p=p_long))
    seats = pd.DataFrame({"game_id": np.repeat(np.arange(games), 4), "seat": np.tile(np.arange(4), games)})
    seats["won"] = seats["seat"].to_numpy() == np.repeat(winner, 4)
    seats["fortune"] = seats["seat"] * 1000.0
    return seats, pd.DataFrame({"game_id": np.arange(games), "turns": turns})


def test_win_share_by_seat_and_length_finds_the_short_game_edge():
    seats, games = seats_and_games()
    table = by_two_keys(seats, "won", "seat", "turns", games=games, bins=[6, 9.5, 13])
    assert list(table.columns) == ["first", "second", "n", "value", "lo", "hi"]
    assert len(table) == 8 and table["n"].sum() == len(seats)
    cell = table.set_index(["first", "second"])
    assert cell.loc[(0, "6-9.5"), "lo"] > 0.55 and cell.loc[(0, "9.5-13"), "hi"] > 0.25 > cell.loc[(0, "9.5-13"), "lo"]
    assert (table["lo"] <= table["value"]).all() and (table["value"] <= table["hi"]).all()


def test_a_number_is_a_mean_and_a_key_can_be_kept_as_it_is():
    seats, games = seats_and_games(800)
    table = by_two_keys(seats, "fortune", "seat", "turns", games=games)
    assert table["second"].nunique() == 8                     # every length kept
    assert np.allclose(table["value"], table["first"] * 1000.0)
    assert table.attrs == {"measure": "fortune", "first": "seat", "second": "turns"}


def test_a_missing_column_is_named():
    seats, _ = seats_and_games(10)
    with pytest.raises(ValueError, match="no column turns"):
        by_two_keys(seats, "won", "seat", "turns")


def test_the_figure_has_a_line_per_first_key():
    seats, games = seats_and_games(800)
    fig = draw_by_two_keys(by_two_keys(seats, "won", "seat", "turns", games=games, bins=3), reference=0.25)
    assert len(fig.axes[0].get_legend().get_texts()) == 4
