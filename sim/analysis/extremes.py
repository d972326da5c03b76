"""Maxima and gaps of noisy rates (the best strategy's win rate, the largest gap between seats):
an estimator corrected for the upward bias that noise gives a maximum, and a 95% interval that
covers the true value whether the rates are equal or far apart. numpy only.

    value, lo, hi, se = extreme(rates, boot_rates, "range")   # or "max"

`rates` are the groups' rates (k,), `boot_rates` the same rates in bootstrap resamples of the
games (reps, k): the resamples give the noise of the rates with every dependence between groups
of one game (one winner per game, two seats of one strategy) kept. docs/reports.md explains the
method and its measured coverage and bias.

Estimate: the plug-in statistic corrected twice for its bias. Once: minus the bias of the
plug-in, evaluated by the same resamples around the noise-corrected rates (the rates shrunk
towards their mean until their squared spread is the observed spread minus SHRINK times the
spread noise alone adds: a positive-part James-Stein step). Twice: minus the bias that this
once-corrected estimate still has, measured by applying it to every resample around the shrunk
rates (an iterated bootstrap; the inner level reuses the resamples). The first correction alone
leaves +0.28 standard deviations at a fair game and -0.28 at a 2-point gap; both together stay
within 0.21 in every case of tests/test_coverage.py. When the groups differ by less than noise
the estimate can be negative (a gap) or below the common rate (a maximum): that is what makes
it nearly unbiased at a fair game.

Interval: the lower end is a one-sided simultaneous bound over every pair (gap) or group
(maximum), `max (d_ij - c se_ij)` with `c` the 95% quantile of the largest standardised
resampled deviation, so it is above 0 exactly when the max-t test of equal rates rejects at 5%.
The upper end is the smaller of two 97.5% bounds: the largest of the pairs' (groups') own upper
bounds (the true gap is one pair's difference, so it lies below whatever the rates; conservative
when several pairs are close to the largest), and the basic bootstrap bound, twice the plug-in
minus the 97.5% quantile of the resampled statistic (accurate when one pair is ahead, tighter in
a near tie). Measured coverage on synthetic runs: 93.7-96.3% (tests/test_coverage.py).
"""

from __future__ import annotations

import math
import warnings

import numpy as np

Z975 = 1.959963984540054
SIMULTANEOUS = 0.95
UPPER = 0.975
# the share of the noise's spread the shrinkage removes: 1 is the positive-part James-Stein step;
# 0.85 keeps the bias within 0.21 standard deviations in every case of tests/test_coverage.py
# (1.0: 0.25, 0.7: 0.24; docs/reports.md)
SHRINK = 0.85
INNER = 250


def statistic(kind: str, rates: np.ndarray) -> np.ndarray:
    """The largest rate ("max") or largest minus smallest ("range") along the last axis."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # a resample may lose a whole group
        top = np.nanmax(rates, axis=-1)
        return top if kind == "max" else top - np.nanmin(rates, axis=-1)


def shrunk_rates(rates: np.ndarray, noise: float) -> np.ndarray:
    """Each row of rates (..., k) pulled towards its mean so that its squared spread is the
    observed one minus SHRINK times the spread the resampled noise adds (0 when noise explains
    all of it)."""
    centre = rates.mean(axis=-1, keepdims=True)
    spread = np.sum((rates - centre) ** 2, axis=-1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        factor = np.sqrt(np.clip(1.0 - SHRINK * noise / spread, 0.0, None))
    return centre + np.where(spread > 0, factor, 0.0) * (rates - centre)


def noise_spread(deviations: np.ndarray) -> float:
    """The squared spread around their mean that noise alone adds to the rates: the mean over
    resamples of the centred deviations' sum of squares."""
    centred = deviations - deviations.mean(axis=1, keepdims=True)
    return float(np.mean(np.sum(centred ** 2, axis=1)))


def corrected(kind: str, points: np.ndarray, deviations: np.ndarray, noise: float) -> np.ndarray:
    """The once-corrected estimate at each row of points (..., k): the statistic minus its bias
    under the resampled deviations around the row's shrunk rates."""
    base = shrunk_rates(points, noise)
    resampled = _around(kind, base, deviations)
    return _complete(kind, points) - (resampled.mean(axis=-1) - _complete(kind, base))


def _complete(kind: str, rates: np.ndarray) -> np.ndarray:
    """`statistic` of rates without a missing group (the resamples that lost one are dropped
    before), several times faster than its NaN-aware form."""
    top = rates.max(axis=-1)
    return top if kind == "max" else top - rates.min(axis=-1)


def _around(kind: str, points: np.ndarray, deviations: np.ndarray) -> np.ndarray:
    """`_complete` of every row of points plus every deviation, shape (..., resamples): a loop
    over the few groups, much faster than reducing a short last axis."""
    top = points[..., None, 0] + deviations[:, 0]
    low = top.copy()
    for i in range(1, points.shape[-1]):
        moved = points[..., None, i] + deviations[:, i]
        np.maximum(top, moved, out=top)
        np.minimum(low, moved, out=low)
    return top if kind == "max" else top - low


def contrasts(kind: str, k: int) -> np.ndarray:
    """Rows that map rates to what the statistic is the largest of: every ordered pair's
    difference (a range) or every rate itself (a maximum)."""
    if kind == "max":
        return np.eye(k)
    rows = []
    for i in range(k):
        for j in range(k):
            if i != j:
                row = np.zeros(k)
                row[i], row[j] = 1.0, -1.0
                rows.append(row)
    return np.array(rows)


def extreme(rates, boot_rates, kind: str = "range") -> tuple[float, float, float, float]:
    """(bias-corrected estimate, lo, hi, standard error) of the largest rate or the largest gap;
    see the module doc. NaN when fewer than two groups (a range) or no group (a maximum) played."""
    rates = np.asarray(rates, dtype=float)
    boot = np.asarray(boot_rates, dtype=float)
    if len(rates) < (2 if kind == "range" else 1) or np.isnan(rates).any():
        return math.nan, math.nan, math.nan, math.nan
    boot = boot[~np.isnan(boot).any(axis=1)]
    if len(boot) < 2:
        value = float(statistic(kind, rates))
        return value, value, value, math.nan
    deviations = boot - rates
    plug_in = float(statistic(kind, rates))
    value, se = _twice_corrected(kind, rates, deviations)
    lo, hi = _bounds(kind, rates, deviations)
    # in a near tie of several pairs the pairs' bound is conservative: the basic bootstrap bound
    # (the plug-in minus the 2.5% quantile of the resampled statistic's deviation) is tighter there
    basic = 2 * plug_in - float(np.quantile(statistic(kind, boot), 1 - UPPER))
    hi = min(hi, max(basic, 0.0) if kind == "range" else basic)
    return value, float(min(lo, value)), float(max(hi, value)), se


def _twice_corrected(kind: str, rates: np.ndarray, deviations: np.ndarray) -> tuple[float, float]:
    """The once-corrected estimate minus its own bias, measured by applying it to the resamples
    around the shrunk rates (an iterated bootstrap that reuses the one set of resamples), and the
    standard error: the spread of the once-corrected estimate over those resamples (the plug-in's
    spread understates a corrected estimate's by a third near a tie)."""
    noise = noise_spread(deviations)
    once = float(corrected(kind, rates, deviations, noise))
    base = shrunk_rates(rates, noise)
    # every resample is a world around the shrunk rates; each world's own bias is measured with
    # the first INNER resamples (memory: resamples x INNER x groups)
    again = corrected(kind, base + deviations, deviations[:INNER], noise)
    return once - float(np.mean(again) - _complete(kind, base)), float(np.std(again, ddof=1))


def _bounds(kind: str, rates: np.ndarray, deviations: np.ndarray) -> tuple[float, float]:
    """Simultaneous one-sided lower bound and the largest pointwise 97.5% upper bound."""
    c = contrasts(kind, len(rates))
    point = c @ rates
    noise = deviations @ c.T
    se = noise.std(axis=0, ddof=1)
    if not (se > 0).any():
        top = float(point.max())
        return top, top
    safe = np.where(se > 0, se, np.inf)
    critical = float(np.quantile(np.max(noise / safe, axis=1), SIMULTANEOUS))
    lo = float(np.max(point - critical * se))
    hi = float(np.max(point + Z975 * se))
    if kind == "range":
        lo = max(lo, 0.0)
    return lo, hi
