"""`mobsim compare` and `mobsim sweep` show the pairing gain of every metric (sim.analysis.pairing):
two rule values on one seed pair, two seeds do not."""

import json

import pytest
from click.testing import CliRunner

import sim
from sim.analysis.pairing import pairing_gain
from sim.cli import main

GAMES = 400
LINEUP = "simple,random,simple,random"


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("pairing")

    def play(name, seed, stake):
        return sim.run(players=4, strategies=LINEUP, games=GAMES, seed=seed, workers=1, out=root / name,
                       overrides={"provocation.stake": stake})

    return {"base": play("base", 3, 2000), "stake": play("stake", 3, 3000), "seed4": play("seed4", 4, 3000)}


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_compare_prints_and_writes_the_pairing_gain(runs, tmp_path):
    result = invoke("compare", runs["base"].path, runs["stake"].path, "--out", tmp_path / "cmp")
    assert result.exit_code == 0, result.output
    assert "pairing gain" in result.stdout and "pairing gain of each seat's win rate: seat 1 x" in result.stdout
    gains = pairing_gain(runs["base"], runs["stake"])
    line = next(row for row in result.stdout.splitlines() if row.startswith("turns"))
    g = gains.loc["turns"]
    assert f"x{g['gain']:.2f} [{g['lo']:.2f}, {g['hi']:.2f}]" in line
    assert g["lo"] > 1  # the same games under a stake change: pairing pays
    written = (tmp_path / "cmp" / "tables" / "compare.csv").read_text()
    assert "pairing_gain" in written.splitlines()[0]
    parsed = json.loads(invoke("compare", runs["base"].path, runs["stake"].path, "--json").stdout)
    rows = {r["metric"]: r for r in parsed["metrics"]}
    assert rows["turns"]["pairing_gain"] == pytest.approx(g["gain"])
    assert {r["metric"] for r in parsed["seat_pairing_gain"]} == {f"seat_winrate:{s}" for s in range(4)}


def test_independent_runs_show_no_pairing_gain(runs):
    result = invoke("compare", runs["base"].path, runs["seed4"].path, "--json")
    parsed = json.loads(result.stdout)
    assert parsed["paired"] is False and parsed["seat_pairing_gain"] is None
    assert all("pairing_gain" not in r for r in parsed["metrics"])


def test_sweep_table_carries_the_gain_of_each_change(tmp_path):
    table = sim.sweep(players=4, strategies=LINEUP, games=GAMES, seed=3, workers=1,
                      params={"provocation.stake": [2000, 3000]})
    base, other = table[table["baseline"]].iloc[0], table[~table["baseline"]].iloc[0]
    assert "turns.gain" not in base or base["turns.gain"] != base["turns.gain"]  # none for itself
    assert other["turns.gain_lo"] <= other["turns.gain"] <= other["turns.gain_hi"]
    assert other["turns.gain"] > 1
