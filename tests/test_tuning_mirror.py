"""Studies of paired changes on a mirror (one strategy at every seat, the natural "good players"
study): the strategy gap is no metric of the rules there, so no option may rank on it (the
numeric sensitivity, the rulings, the assumed values: tables, rankings and printouts), and
`sensitivity --assumed --out DIR` writes its tables, charts and page."""

from types import SimpleNamespace

import math
import re

import numpy as np
import pandas as pd
from click.testing import CliRunner

from sim.cli import main
from sim.tuning import assumed, sensitivity as sens
from sim.tuning.rulings import rulings_lines
from sim.tuning.study import Evaluation, Study, unpaired_difference

METRICS = ["seat_gap", "strategy_gap", "winrate_max", "turns"]


def headline(shift: float) -> pd.DataFrame:
    """A point's metrics: the mirror's bias-corrected strategy gap moves with nothing, at se 0
    (every resample holds one strategy), the others move a little with a real standard error."""
    value = np.array([0.05 + shift, 0.01 + 3 * shift, 0.25, 12.0 + shift])
    se = np.array([0.01, 0.0, 0.0, 0.1])
    return pd.DataFrame({"value": value, "lo": value - 2 * se, "hi": value + 2 * se, "n": 100, "se": se},
                        index=pd.Index(METRICS, name="metric"))


class FakeStudy(Study):
    def evaluate(self, point, games, seed, out=None, force=False, keep_tables=True):
        shift = 0.001 * sum(float(v) for v in point.values())
        return Evaluation(point, "f" * 16, seed, games, headline(shift),
                          SimpleNamespace(games=pd.DataFrame({"game_id": range(games)})))

    def check(self):
        pass


def mirror_table(strategies="tuned"):
    study = FakeStudy(players=4, strategies=strategies, game="nyk")
    plan = [("a.b", "down", 1), ("a.b", "up", 3), ("c.d", "up", 2)]
    original = sens.difference
    sens.difference = lambda a, b: unpaired_difference(a, b).assign(paired=True)
    try:
        return sens.play_plan(study, plan, [], {"a.b": 2, "c.d": 1}, 100, 0)[0]
    finally:
        sens.difference = original


def test_a_mirror_ranks_no_option_on_the_undefined_strategy_gap():
    table = mirror_table()
    assert not table["metric"].isin(["strategy_gap", "winrate_max"]).any()
    ranked = sens.ranking(table)
    assert np.isfinite(ranked["max_abs_z"]).all() and set(ranked["metric"]) <= {"seat_gap", "turns"}
    assert table.attrs["undefined"] == ["strategy_gap", "winrate_max"]
    # two strategies: the gap is a metric again
    assert "strategy_gap" in set(mirror_table("tuned,simple")["metric"])


def test_the_printed_rankings_of_a_mirror_say_why_and_show_no_infinite_change(monkeypatch):
    monkeypatch.setattr(sens, "sensitivity", lambda **kw: mirror_table())
    result = CliRunner().invoke(main, ["sensitivity", "--strategies", "tuned", "--games", "10"])
    out = result.output
    assert result.exit_code == 0, out
    assert not re.search(r"\binf\b", out) and "strategy_gap" in out and "a mirror" in out
    lines = "\n".join(rulings_lines(mirror_table(), 100, 0))
    assert not re.search(r"\binf\b", lines) and "a mirror" in lines


def assumed_study(monkeypatch, tmp_path, strategies):
    monkeypatch.setattr(Study, "evaluate", FakeStudy.evaluate)
    monkeypatch.setattr(Study, "check", FakeStudy.check)
    monkeypatch.setattr(assumed, "difference", unpaired_difference)
    return assumed.assumed_lines(game="ag", players=4, strategies=strategies, games=100, work=tmp_path)


def test_assumed_values_on_a_mirror_rank_on_what_is_defined_and_write_their_files(monkeypatch, tmp_path):
    lines = assumed_study(monkeypatch, tmp_path, "simple")
    table = pd.read_parquet(tmp_path / "assumed.parquet")
    assert len(table) and "strategy_gap" not in set(table["metric"])
    assert all(math.isfinite(z) for z in table["z"])
    assert not re.search(r"\binf\b", "\n".join(lines))
    for name in ("index.html", "index.md", "ranking.csv"):
        assert (tmp_path / name).is_file(), name
    assert list((tmp_path / "figures").glob("*.png"))
