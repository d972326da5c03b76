"""Statistics shared by the reports: intervals, a seeded bootstrap over games, multiple
comparisons, power, and Bradley-Terry ratings. The library's statistic where a library holds it
(Wilson from statsmodels, normal tails and quantiles from scipy); hand-written only where no
library has the statistic or its call does not fit, each with the reason.

Conventions: every interval is a two-sided 95% interval; a bootstrap is seeded (the same run
gives the same report), resamples games (the independent unit of a run) and takes percentiles.
"""

from __future__ import annotations

import functools
import math

import numpy as np

Z95 = 1.959963984540054   # scipy.stats.norm.ppf(0.975), kept as a constant: many callers, no import
BOOT_REPS = 1000
BOOT_SEED = 20_240_607
MAX_UNITS = 20_000   # larger runs are resampled in this many blocks of consecutive games
ELO = 400 / math.log(10)  # Elo points per unit of log-strength


def wilson(successes, trials, z: float = Z95):
    """Wilson score interval of a binomial proportion (arrays welcome; statsmodels'
    proportion_confint). No trials: the whole [0, 1]."""
    from scipy.stats import norm
    from statsmodels.stats.proportion import proportion_confint

    k = np.asarray(successes, dtype=float)
    n = np.asarray(trials, dtype=float)
    safe = np.where(n > 0, n, 1.0)
    lo, hi = proportion_confint(np.where(n > 0, k, 0.0), safe, alpha=2 * norm.sf(z), method="wilson")
    lo = np.where((k <= 0) | (n <= 0), 0.0, lo)   # exact ends: rounding leaves ~1e-19 there
    hi = np.where((k >= n) | (n <= 0), 1.0, hi)
    return (lo, hi) if lo.ndim else (float(lo), float(hi))


def mean_interval(values) -> tuple[float, float, float, int]:
    """Mean, its 95% normal interval (t-free: runs have thousands of games) and the count."""
    x = np.asarray(values, dtype=float)
    x = x[~np.isnan(x)]
    n = len(x)
    if n == 0:
        return math.nan, math.nan, math.nan, 0
    mean = float(x.mean())
    if n == 1:
        return mean, math.nan, math.nan, 1
    half = Z95 * float(x.std(ddof=1)) / math.sqrt(n)
    return mean, mean - half, mean + half, n


def two_sided_p(z) -> np.ndarray:
    """P(|Z| >= |z|) for a standard normal Z: 0 for an infinite z (a difference with no spread at
    all, e.g. a strategy that won every game), NaN only for a z that is not a number."""
    from scipy.stats import norm

    return 2 * norm.sf(np.abs(np.atleast_1d(np.asarray(z, dtype=float))))


def holm(pvalues) -> np.ndarray:
    """Holm's step-down adjusted p-values (controls the family-wise error rate). A NaN p-value
    (nothing tested) stays NaN and does not count among the hypotheses.

    Hand-written although statsmodels' multipletests(method="holm") gives the same numbers
    (tests/test_stats_libraries.py): that call runs a full garbage collection every time
    (statsmodels 0.15), some 20 ms, and the verdict's readings call Holm per measure."""
    p = np.asarray(pvalues, dtype=float)
    adjusted = np.full(len(p), math.nan)
    tested = np.flatnonzero(~np.isnan(p))
    order = tested[np.argsort(p[tested], kind="stable")]
    scaled = np.minimum(1.0, (len(tested) - np.arange(len(order))) * p[order])
    adjusted[order] = np.maximum.accumulate(scaled)
    return adjusted


def games_needed(sd: float, delta: float, alpha: float = 0.05, power: float = 0.8) -> float:
    """Sample size for a two-sided z-test of a mean difference `delta` when one unit's
    difference has standard deviation `sd`: ((z_{1-alpha/2} + z_power) * sd / delta)^2."""
    if not (sd > 0 and delta > 0):
        return math.nan
    from scipy.stats import norm

    z = norm.ppf(1 - alpha / 2) + norm.ppf(power)
    return math.ceil((z * sd / delta) ** 2)


# --- bootstrap over games ---------------------------------------------------------------------

def blocks(matrix: np.ndarray, max_units: int = MAX_UNITS) -> np.ndarray:
    """Rows summed into at most `max_units` blocks of consecutive rows. Games are independent,
    so blocks of games are too, and a statistic of column sums bootstraps the same way."""
    n = len(matrix)
    if n <= max_units:
        return matrix
    block = np.arange(n) * max_units // n
    out = np.zeros((max_units, matrix.shape[1]))
    np.add.at(out, block, matrix)
    return out


def resampled_sums(matrix, reps: int = BOOT_REPS, seed: int = BOOT_SEED) -> np.ndarray:
    """Column sums of `reps` bootstrap resamples of the rows (games): shape (reps, columns).

    Hand-written: scipy.stats.bootstrap returns an interval of one statistic; the reports need the
    resampled column sums themselves, drawn identically for every table of the same shape (paired
    comparisons and several statistics share one set of resamples).

    Row i of every resample is drawn with the same seeded generator, so two calls with the same
    matrix shape give the same resamples (paired comparisons stack both runs' columns)."""
    units = blocks(np.asarray(matrix, dtype=float))
    n = len(units)
    chunk = max(1, min(reps, CHUNK_DRAWS // max(n, 1)))
    if chunk == reps:   # one draw of every resample: the same counts for every table of n rows
        return _resample_counts(n, reps, seed) @ units
    rng = np.random.default_rng(seed)
    out = np.empty((reps, units.shape[1]))
    for start in range(0, reps, chunk):
        r = min(chunk, reps - start)
        out[start:start + r] = _counts(rng.integers(0, n, size=(r, n)), n) @ units
    return out


CHUNK_DRAWS = 2_000_000   # draws at a time (16 MB of counts)


@functools.lru_cache(maxsize=4)
def _resample_counts(n: int, reps: int, seed: int) -> np.ndarray:
    """How often each of n rows is drawn in each of `reps` resamples, when one draw holds them
    all: a study reads many tables of the same length (every cell, every measure), and drawing
    the resamples was most of a small table's bootstrap. Read-only: shared by the calls."""
    counts = _counts(np.random.default_rng(seed).integers(0, n, size=(reps, n)), n)
    counts.flags.writeable = False
    return counts


def _counts(draws: np.ndarray, n: int) -> np.ndarray:
    """counts[r, i]: how often row i is among draws[r], as floats."""
    return np.stack([np.bincount(row, minlength=n) for row in draws]).astype(float)


def percentile_interval(samples, axis: int = 0):
    """The 2.5% and 97.5% percentiles, ignoring NaN (a resample that lost a group)."""
    s = np.asarray(samples, dtype=float)
    with np.errstate(all="ignore"):
        if np.all(np.isnan(s)):
            return math.nan, math.nan
        lo, hi = np.nanpercentile(s, [2.5, 97.5], axis=axis)
    return lo, hi


# --- Bradley-Terry ------------------------------------------------------------------------------

def bradley_terry(wins, prior: float = 0.5, tol: float = 1e-12, max_iter: int = 20_000) -> np.ndarray:
    """Log-strengths (mean 0 over the players that met someone) of a Bradley-Terry model,
    P(i beats j) = p_i / (p_i + p_j), fitted by maximum likelihood with the MM algorithm
    (Hunter 2004). `wins[..., i, j]` counts i beating j; leading axes are fitted independently
    (one fit per bootstrap resample). Hand-written: neither scipy nor statsmodels fits a
    Bradley-Terry model, and the MM iteration fits a thousand resampled tables at once. `prior`
    adds that many wins each way to every pair that met, which keeps a player that never lost (or
    never won) finite."""
    w = np.asarray(wins, dtype=float)
    k = w.shape[-1]
    off = ~np.eye(k, dtype=bool)
    met = (w + np.swapaxes(w, -1, -2) > 0) & off
    w = np.where(met, w + prior, 0.0)
    games = w + np.swapaxes(w, -1, -2)
    won = w.sum(axis=-1)
    active = games.sum(axis=-1) > 0
    p = np.where(active, 1.0, np.nan)
    for _ in range(max_iter):
        safe = np.where(active, p, 1.0)
        pair = safe[..., :, None] + safe[..., None, :]
        denom = (games / pair).sum(axis=-1)
        new = np.where(active, won / np.where(denom > 0, denom, 1.0), np.nan)
        new = _centre(new)
        if np.nanmax(np.abs(np.log(new) - np.log(p)), initial=0.0) < tol:
            p = new
            break
        p = new
    return np.log(p)


def _centre(p: np.ndarray) -> np.ndarray:
    """Scale strengths so their log-mean is 0 (the model only fixes their ratios)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        logp = np.log(p)
        return np.exp(logp - np.nanmean(logp, axis=-1, keepdims=True))
