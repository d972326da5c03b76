"""One point of a tuning study: the study's rules with a few options changed, played and measured.

Every point of a study is played with the same seed and game ids, so the games of two points
differ only by their rules (common random numbers): the change in a metric between two points is
measured game by game (`paired`), with an interval far narrower than two independent samples give.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from sim.tuning.errors import TuningError

Z95 = 1.959963984540054


def strategy_names(strategies) -> tuple[str, ...]:
    """"a,b" or ("a", "b") -> ("a", "b")."""
    if isinstance(strategies, str):
        strategies = strategies.split(",")
    return tuple(s.strip() for s in strategies or () if s.strip())


def show_point(point: dict) -> str:
    """{"a.b": 1, "c": 2.0} -> "a.b=1, c=2.0"; the empty change reads as the current rules."""
    return ", ".join(f"{k}={v}" for k, v in point.items()) or "the current rules"


def check_games(games, seed) -> tuple[int, int]:
    """Games per run and the seed as whole numbers (at least 1 and 0), or a one-line error."""
    from sim.runner.core import whole_number
    from sim.runner.store import RunError

    try:
        return whole_number(games, "games", 1), whole_number(seed, "seed", 0)   # numpy's as plain ints
    except RunError as err:
        raise TuningError(str(err)) from None


def point_dir(out, study: Study, point: dict) -> Path | None:
    """Runs live under out/points/<fingerprint>: a point played before is found again by its rules."""
    if out is None:
        return None
    return Path(out) / "points" / study.ruleset_for(point).fingerprint[:16]


@dataclass(frozen=True)
class Study:
    """What every point of a study shares: the table, the strategies, the base rules, the workers."""

    players: int = 4
    strategies: tuple = ("simple", "random")
    ruleset: str | Path | None = None        # a designer's ruleset file, or None for the defaults
    overrides: dict = field(default_factory=dict)   # fixed changes on top of the file
    game: str = "nyk"
    workers: int | None = None
    meta: bool = False          # also measure the meta-game metrics (sim/tuning/meta_targets.py)

    def __post_init__(self):
        from sim.rules import Ruleset

        if isinstance(self.ruleset, Ruleset):
            raise TuningError("give the study's ruleset as a file path (or None), not a loaded "
                              "Ruleset: its points change options on top of that file")
        object.__setattr__(self, "strategies", strategy_names(self.strategies))
        object.__setattr__(self, "overrides", dict(self.overrides or {}))

    def ruleset_for(self, point: dict):
        """The validated ruleset of a point (cross-checks included), or a one-line error."""
        from sim.rules import Ruleset, RulesetError

        try:
            return Ruleset.load(self.ruleset, {**self.overrides, **point}, game=self.game)
        except RulesetError as err:
            raise TuningError(f"{show_point(point)}: {err}") from None

    def check(self) -> None:
        """The table and strategies fit the base rules (one-line error otherwise), before any play."""
        from sim.runner.games import adapter

        try:
            adapter(self.game).plan(self.ruleset_for({}), self.players, self.strategies, True)
        except ValueError as err:
            raise TuningError(" ".join(str(err).split())) from None

    def undefined_metrics(self) -> set[str]:
        """Headline metrics this lineup cannot measure: with one strategy at every seat (a mirror,
        the natural "good players" study) no strategy is better than another, so the strategy
        gap (and the best strategy's win rate) is no metric of the rules: its bias correction
        moves with nothing and a paired change in it reads as infinitely significant."""
        return {"strategy_gap", "winrate_max"} if len(set(self.strategies)) < 2 else set()

    def base_values(self, keys) -> dict:
        """The current value of each option (the base ruleset and fixed overrides)."""
        rules = self.ruleset_for({})
        return {key: rules[key] for key in keys}

    def play(self, point: dict, games: int, seed: int, out=None, force: bool = False):
        """The games 0..games-1 of run `seed` under the point's rules (resumed when `out` holds
        them already: a finished point is read back, not played again)."""
        from sim.runner import RunError, run

        resume = out is not None and not force and Path(out).is_dir() and any(Path(out).iterdir())
        try:
            return run(game=self.game, players=self.players, strategies=self.strategies,
                       games=games, seed=seed, out=out, ruleset=self.ruleset,
                       overrides={**self.overrides, **point}, workers=self.workers,
                       resume=resume, force=force and out is not None, progress=False)
        except RunError as err:
            if not err.usage:   # a killed worker, a full disk: the study stops, nothing is filed as refused
                raise
            raise TuningError(f"{show_point(point)}: {err}") from None

    def evaluate(self, point: dict, games: int, seed: int, out=None, force: bool = False,
                 keep_tables: bool = True) -> Evaluation:
        """Play the point and measure its headline metrics; `keep_tables` keeps the run's tables
        for paired comparisons (`difference`)."""
        result = self.play(point, games, seed, out, force)
        evaluation = measure(point, result, seed, keep_tables)
        if self.meta:
            from sim.tuning import meta_targets

            evaluation.headline = pd.concat([evaluation.headline,
                                             meta_targets.measure(self, point, games, seed)])
        return evaluation


@dataclass
class Evaluation:
    """A played point: its rules, games, headline metrics (with standard errors) and its run."""

    point: dict
    fingerprint: str
    seed: int
    games: int
    headline: pd.DataFrame            # index metric; value, lo, hi, n, se
    run: object = None                # the RunResult, while paired comparisons need its tables

    def metric(self, name: str) -> tuple[float, float, float]:
        """(value, lo, hi) of one metric; NaNs when the point did not measure it."""
        if name not in self.headline.index:
            return math.nan, math.nan, math.nan
        row = self.headline.loc[name]
        return float(row["value"]), float(row["lo"]), float(row["hi"])

    def standard_error(self, name: str) -> float:
        """The standard error behind the metric's 95% interval (NaN when not measured)."""
        if name not in self.headline.index:
            return math.nan
        return float(self.headline.loc[name, "se"])


def measure(point: dict, result, seed: int, keep_tables: bool = True) -> Evaluation:
    """The headline metrics of a finished run (sim.analysis.headline)."""
    from sim.analysis.headline import estimates

    table = estimates(result.games, result.seats)
    return Evaluation(point=dict(point), fingerprint=result.manifest["ruleset"]["fingerprint"],
                      seed=seed, games=len(result.games), headline=table,
                      run=result if keep_tables else None)


def difference(base: Evaluation, other: Evaluation) -> pd.DataFrame:
    """Each metric's change from `base` to `other` (other - base) with its 95% interval: paired
    game by game when both played the same games (means: per-game differences; gaps, maxima and
    win rates: a bootstrap resampling the same games for both), else as independent samples."""
    from sim.analysis.headline import compare

    if base.run is None or other.run is None:
        return unpaired_difference(base, other).assign(paired=False)
    table = compare(base.run, other.run)
    return table[["diff", "lo", "hi", "paired"]]


def unpaired_difference(base: Evaluation, other: Evaluation) -> pd.DataFrame:
    """Each metric's change with the standard errors added in quadrature, as if the two points had
    played independent games: what the comparison would show without common random numbers."""
    common = [m for m in base.headline.index if m in other.headline.index]
    a, b = base.headline.loc[common], other.headline.loc[common]
    diff = b["value"] - a["value"]
    half = Z95 * np.sqrt(a["se"] ** 2 + b["se"] ** 2)
    out = pd.DataFrame({"diff": diff, "lo": diff - half, "hi": diff + half})
    out.index.name = "metric"
    return out


def derived_seed(seed: int, *path: int) -> int:
    """A run seed drawn from (seed, path...): distinct, reproducible seeds for the rounds of a search."""
    state = np.random.SeedSequence([int(seed), *map(int, path)]).generate_state(1, dtype=np.uint32)
    return int(state[0] & 0x7FFFFFFF)
