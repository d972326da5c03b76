"""Pig's population as a meta-game and its goal as a tuned rule: the exact two-player meta-game of
hold10, hold20, hold25 and optimal (sim.pig.exact) has `optimal` as its one equilibrium, and
`mobsim meta` finds it from games; `mobsim tune` on the goal finds a goal whose exact expected
length lies in the target."""

import json

import numpy as np
import pytest
from click.testing import CliRunner

from sim.cli import main
from sim.meta.solvers import PayoffTable, nash, profiles
from sim.pig import exact
from sim.shared.game import find

POPULATION = find("pig").population


@pytest.fixture(scope="module")
def policies():
    made = {name: exact.hold_at(int(name[4:]), 100) for name in POPULATION if name.startswith("hold")}
    return made | {"optimal": exact.optimal(100, 6)[1]}


def test_the_exact_meta_game_has_optimal_as_its_equilibrium(policies):
    names = list(POPULATION)
    counts = profiles(len(names), 2)
    payoffs = np.full(counts.shape, np.nan)
    for row, profile in enumerate(counts):
        seated = [k for k in range(len(names)) for _ in range(profile[k])]
        a, b = seated
        payoffs[row, a] = exact.share(policies[names[a]], policies[names[b]]) if a != b else 0.5
        payoffs[row, b] = 1 - payoffs[row, a] if a != b else 0.5
    best = nash(PayoffTable(tuple(names), counts, payoffs))[0]
    assert best.regret < 1e-6 and best.mixture[names.index("optimal")] > 0.999
    for other in names:                                  # it beats each style head to head
        if other != "optimal":
            assert exact.share(policies["optimal"], policies[other]) > 0.52


def test_the_meta_command_finds_optimal_from_games(tmp_path):
    out = tmp_path / "meta"
    result = CliRunner().invoke(main, ["meta", "--game", "pig", "--players", "2", "--strategies", ",".join(POPULATION),
                                       "--games-per-profile", "3000", "--bootstrap", "0", "--out", str(out)])
    assert result.exit_code == 0, result.output
    equilibrium = json.loads((out / "meta.json").read_text())["equilibrium"]
    assert equilibrium["support"] == ["optimal"]


def test_tune_finds_a_goal_for_a_target_length():
    """Target 6 to 7 rounds of hold-at-20 mirrors: the goal found has an exact mean length there
    (with a tolerance for the search's own noise)."""
    result = CliRunner().invoke(main, ["tune", "--game", "pig", "--players", "2", "--strategies", "hold20",
                                       "--param", "goal=40:150", "--target", "turns=6:7", "--budget", "12000",
                                       "--workers", "1", "--json"])
    assert result.exit_code == 0, result.output
    goal = int(json.loads(result.output)["best"]["params"]["goal"])
    h = exact.hold_at(20, goal)
    assert 5.8 <= exact.forward(h, h, goal).rounds <= 7.2
