"""Counts of each value, merged part by part: the exact quantiles, median, extremes, mean and
spread of whole-number columns without holding the column (sim.analysis.scan reads runs with it;
sim.analysis.findings judges game lengths from it)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd


class ValueCounts:
    """How many times each value occurred (NaN left out), merged part by part: the values' exact
    quantiles (numpy's linear method, as pandas uses), median, extremes, mean and spread."""

    def __init__(self):
        self.counts: pd.Series | None = None

    @classmethod
    def of(cls, counts: pd.Series) -> ValueCounts:
        """From counts already made (index: the values)."""
        made = cls()
        made.counts = counts
        return made

    def add(self, values) -> ValueCounts:
        counts = pd.Series(np.asarray(values)).value_counts(dropna=True)
        self.counts = counts if self.counts is None else self.counts.add(counts, fill_value=0)
        return self

    def binned(self, step: int) -> ValueCounts:
        """The values rounded down to multiples of `step` (`(x // step) * step`), counted."""
        values, counts = self.sorted()
        return ValueCounts.of(pd.Series(counts, index=(values // step) * step).groupby(level=0).sum())

    def sorted(self) -> tuple[np.ndarray, np.ndarray]:
        if self.counts is None or self.counts.empty:
            return np.array([], dtype=float), np.array([], dtype=np.int64)
        counts = self.counts.sort_index()
        return counts.index.to_numpy(), counts.to_numpy().astype(np.int64)

    @property
    def n(self) -> int:
        return 0 if self.counts is None else int(self.counts.sum())

    def quantile(self, q: float) -> float:
        """`pd.Series.quantile(q)` of the values: numpy's linear interpolation between the two
        order statistics around (n - 1) q, computed as numpy computes it."""
        values, counts = self.sorted()
        n = int(counts.sum())
        if n == 0:
            return math.nan
        q = np.true_divide(np.asarray(q * 100.0), 100)  # pandas asks numpy for percentiles
        virtual = (n - 1) * q
        prev = int(np.floor(virtual))
        nxt = min(prev + 1, n - 1)
        prev = min(max(prev, 0), n - 1)
        ends = np.cumsum(counts)
        a = np.asarray(values[np.searchsorted(ends, prev, side="right")], dtype=float)
        b = np.asarray(values[np.searchsorted(ends, nxt, side="right")], dtype=float)
        gamma = np.asarray(virtual - np.floor(virtual), dtype=float)
        diff = b - a
        out = np.add(a, diff * gamma)
        if gamma >= 0.5:
            out = np.subtract(b, diff * (1 - gamma))
        return float(out)

    def median(self) -> float:
        """`np.median` of the values (the mean of the two middle ones for an even count)."""
        values, counts = self.sorted()
        n = int(counts.sum())
        if n == 0:
            return math.nan
        ends = np.cumsum(counts)
        lo = values[np.searchsorted(ends, (n - 1) // 2, side="right")]
        hi = values[np.searchsorted(ends, n // 2, side="right")]
        return float(np.mean([float(lo), float(hi)]))

    def interval(self) -> tuple[float, float, float, int]:
        """`stats.mean_interval` of the values."""
        values, counts = self.sorted()
        n = int(counts.sum())
        if n == 0:
            return math.nan, math.nan, math.nan, 0
        v = values.astype(float)
        mean = float(np.dot(v, counts) / n)
        if n == 1:
            return mean, math.nan, math.nan, 1
        sd = math.sqrt(float(np.dot((v - mean) ** 2, counts)) / (n - 1))
        half = 1.959963984540054 * sd / math.sqrt(n)
        return mean, mean - half, mean + half, n

    def summary(self, name: str, quantiles) -> dict:
        """`quality.summary` of the values."""
        mean, lo, hi, n = self.interval()
        values, _ = self.sorted()
        row = {"measure": name, "n": n, "mean": mean, "lo": lo, "hi": hi}
        row |= {f"q{round(100 * q):02d}": self.quantile(q) for q in quantiles}
        return row | {"min": float(values.min()) if len(values) else math.nan,
                      "max": float(values.max()) if len(values) else math.nan}

    def distribution(self, name: str) -> pd.DataFrame:
        """`quality.distribution` of the values: games per value, with shares."""
        values, counts = self.sorted()
        table = pd.DataFrame({name: values, "games": counts})
        table["share"] = table["games"] / table["games"].sum()
        return table
