"""Targets on headline metrics, and how far a measured value is from meeting them.

    parse_target("seat_gap<=0.02")     seat_gap at most 0.02
    parse_target("turns=9:12")         turns between 9 and 12
    parse_target("winrate_max<=40%")   no strategy wins more than 40% of its seats
    parse_target("mean_fortune>=20000"), parse_target("balance=0.5")  (an exact value)

A target names any headline metric (`sim.analysis.headline`), including `winrate:<strategy>`.
`<` and `>` mean the same as `<=` and `>=`: a measured value is never exactly on a bound.
"""

import math
import re
from dataclasses import dataclass

from sim.analysis.headline import ORDER, TAIL
from sim.rules.errors import did_you_mean
from sim.shared.game import every, find
from sim.tuning.errors import TuningError
from sim.tuning.meta_targets import METRICS as META_METRICS

# The metric names of sim.analysis.headline.headline (its index), "winrate:<strategy>" aside.
METRICS = ORDER + TAIL + META_METRICS   # meta-game metrics: sim/tuning/meta_targets.py
PER_STRATEGY = "winrate:"
_FORM = re.compile(r"^\s*([A-Za-z_][\w:.\-]*)\s*(<=|>=|==|<|>|=)\s*(.+?)\s*$")
_EXAMPLES = '"seat_gap<=0.02", "turns=9:12", "winrate_max<=0.4"'


@dataclass(frozen=True)
class Target:
    """A metric and the closed interval [lo, hi] it should fall in (an open end is infinite)."""

    metric: str
    lo: float
    hi: float
    text: str

    def excess(self, value: float) -> float:
        """How far `value` lies outside [lo, hi] (0 inside; infinite when it was not measured)."""
        if value is None or math.isnan(value):
            return math.inf
        return max(self.lo - value, value - self.hi, 0.0)

    def slack(self, value: float) -> float:
        """How far `value` lies inside [lo, hi] from the nearer bound (negative outside)."""
        if value is None or math.isnan(value):
            return -math.inf
        return min(value - self.lo, self.hi - value)

    def status(self, value: float, lo: float, hi: float) -> str:
        """"met" (the whole 95% interval inside), "missed" (the whole interval outside), else
        undecided: "likely" (the value inside) or "unlikely" (the value outside, its interval
        reaching in: 9.998 turns [9.9, 10.1] against turns>=10 is not a miss)."""
        if self.excess(value) == math.inf:
            return "missed"
        if self.lo <= lo and hi <= self.hi:
            return "met"
        if hi < self.lo or lo > self.hi:
            return "missed"
        return "likely" if self.excess(value) == 0 else "unlikely"

    def tolerance(self) -> float:
        """The size of the target a comparison must resolve: half its width when it has two ends,
        else the size of its one bound (seat_gap<=0.03: 0.03)."""
        if math.isfinite(self.lo) and math.isfinite(self.hi) and self.hi > self.lo:
            return (self.hi - self.lo) / 2
        bound = self.hi if math.isfinite(self.hi) else self.lo
        return abs(bound) if math.isfinite(bound) and bound != 0 else math.inf

    def scale_hint(self) -> float:
        """A size of the target itself, used when a metric's standard error is zero."""
        finite = [abs(b) for b in (self.lo, self.hi) if math.isfinite(b)]
        width = self.hi - self.lo if math.isfinite(self.hi - self.lo) else 0.0
        return max([width, *finite, 1e-9])


def _game_only() -> set[str]:
    """The metrics some game has and others do not (each game's `metrics`)."""
    return {m for g in every() for m in g.metrics}


def known_metrics(strategies=(), game: str = "nyk") -> tuple[str, ...]:
    """The metric names a target may use with these strategies."""
    names = [m for m in METRICS if m not in _game_only() or m in find(game).metrics]
    names += [f"{PER_STRATEGY}{s}" for s in dict.fromkeys(strategies)]
    return tuple(names)


def _number(text: str, target: str) -> float:
    text = text.strip()
    scale = 1.0
    if text.endswith("%"):
        text, scale = text[:-1], 0.01
    try:
        value = float(text.replace("_", "")) * scale
    except ValueError:
        raise TuningError(f"target {target!r}: {text!r} is not a number (e.g. {_EXAMPLES})") from None
    if math.isnan(value):
        raise TuningError(f"target {target!r}: the bound is not a number")
    return value


def parse_target(text: str, strategies=(), game: str = "nyk") -> Target:
    """A target from `metric<=x`, `metric>=x`, `metric=a:b` or `metric=x`, its metric checked."""
    match = _FORM.match(text or "")
    if not match:
        raise TuningError(f"target {text!r} is not METRIC<=X, METRIC>=X or METRIC=A:B "
                          f"(e.g. {_EXAMPLES})")
    metric, op, rest = match.groups()
    check_metric(metric, strategies, game, f"target {text!r}")
    if op in ("<=", "<"):
        lo, hi = -math.inf, _number(rest, text)
    elif op in (">=", ">"):
        lo, hi = _number(rest, text), math.inf
    elif ":" in rest:
        parts = rest.split(":")
        if len(parts) != 2:
            raise TuningError(f"target {text!r}: a range is A:B (e.g. turns=9:12)")
        lo, hi = _number(parts[0], text), _number(parts[1], text)
        if lo > hi:
            raise TuningError(f"target {text!r}: the range's low end is above its high end")
    else:
        lo = hi = _number(rest, text)
    return Target(metric, lo, hi, text.strip())


def check_metric(metric: str, strategies=(), game: str = "nyk", where: str = "target") -> str:
    """`metric` if it is a headline metric of a study with these strategies, else a one-line error."""
    if metric.startswith(PER_STRATEGY) and not strategies:
        return metric  # checked against the study's strategies when it has them
    known = known_metrics(strategies, game)
    if metric not in known:
        hint = did_you_mean(metric, known) or f" (known: {', '.join(known)})"
        raise TuningError(f"{where}: unknown metric {metric!r}{hint}")
    return metric


def parse_targets(texts, strategies=(), game: str = "nyk") -> list[Target]:
    """Every target; at least one, and no metric named twice."""
    targets = [parse_target(t, strategies, game) for t in texts or ()]
    if not targets:
        raise TuningError(f"give at least one target, e.g. --target {_EXAMPLES.split(', ')[0]}")
    seen = set()
    for t in targets:
        if t.metric in seen:
            raise TuningError(f"target {t.text!r}: {t.metric} has two targets; give one range "
                              f"instead (e.g. {t.metric}=A:B)")
        seen.add(t.metric)
    return targets
