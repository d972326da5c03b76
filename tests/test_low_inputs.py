"""Small hostile inputs: a ship name ending in a newline, endless seconds, a sweep grid too large
for memory, counts given as numpy integers or as True, a closed or full stdout, non-ASCII digits
at the human prompt, a ladder whose games cannot rotate the seats."""

import subprocess

import numpy as np
import pytest

import sim
from sim.meta.psro import check_ship_name
from sim.meta.table import MetaError
from sim.runner import RunError
from sim.shared.forward import read_choice
from sim.tuning import TuningError
from tests.test_cli_fuzz import MOBSIM, one_line


def test_a_ship_name_with_a_trailing_newline_is_not_plain():
    with pytest.raises(MetaError, match="not a plain name"):
        check_ship_name("evil\n")


def test_bench_seconds_must_be_finite():
    for seconds in ("inf", "nan", "-1", "1e9"):
        assert "--seconds" in one_line("bench", "--seconds", seconds)


def test_the_sweep_api_refuses_a_grid_too_large_before_making_it():
    with pytest.raises(TuningError, match="1,000,000,000 points"):
        sim.sweep(games=10, params={"missions.reward_scale": "0.5:5:1000000000"})
    with pytest.raises(TuningError, match="3 points.*max_points 2"):
        sim.sweep(games=10, params={"missions.reward_scale": [0.5, 1, 1.5]}, max_points=2)


def test_the_api_takes_numpy_counts_and_refuses_booleans():
    played = sim.run(players=np.int64(2), strategies="random", games=np.int32(4), seed=np.uint8(3), workers=1,
                     progress=False)
    assert len(played.games) == 4 and played.manifest["seed"] == 3
    for name in ("games", "players", "seed", "workers", "batch_size"):
        with pytest.raises(RunError, match=f"{name} must be a whole number"):
            sim.run(strategies="random", **{"players": 2, "games": 4, "workers": 1, name: True})


def test_output_that_cannot_be_written_exits_1():
    closed = subprocess.run(f"{MOBSIM} rules show >&-", shell=True, capture_output=True, text=True)
    assert closed.returncode == 1 and "standard output is closed" in closed.stderr
    full = subprocess.run(f"{MOBSIM} rules show --json > /dev/full", shell=True, capture_output=True, text=True)
    assert full.returncode == 1 and full.stderr.count("\n") == 1 and "cannot write the output" in full.stderr


def test_the_human_prompt_takes_ascii_digits_only():
    from sim.shared.forward import Decision

    answers, said = iter(["\u0663", "\u00b2", "2"]), []   # an Arabic-Indic 3, a superscript 2
    decision = Decision(0, "trade", np.zeros((3, 5), np.int64), ("a", "b", "c"), np.zeros(16, np.int64))
    assert read_choice(decision, ask=lambda _: next(answers), say=said.append) == 2
    assert len(said) == 2 and all("not a number" in s for s in said)


def test_ladder_games_must_rotate_the_four_seats():
    assert "multiple of 4" in one_line("strategies", "ladder", "--games", 11)
