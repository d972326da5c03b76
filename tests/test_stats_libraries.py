"""The shared statistics moved onto scipy and statsmodels give the numbers the hand-written
formulas gave (kept here as the reference), and the hand-written Bradley-Terry fit solves the
likelihood scipy's optimiser maximises."""

import math
from statistics import NormalDist

import numpy as np
import pytest

from sim.analysis.stats import Z95, bradley_terry, games_needed, holm, two_sided_p, wilson


def wilson_by_hand(k, n, z=Z95):
    k, n = np.asarray(k, float), np.asarray(n, float)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.divide(k, n, out=np.zeros_like(k), where=n > 0)
        denom = 1 + z**2 / n
        centre = (p + z**2 / (2 * n)) / denom
        half = z * np.sqrt(p * (1 - p) / n + z**2 / (4 * n**2)) / denom
    return np.where(k <= 0, 0.0, centre - half), np.where(k >= n, 1.0, centre + half)


def holm_by_hand(p):
    p = np.asarray(p, float)
    out = np.full(len(p), math.nan)
    tested = np.flatnonzero(~np.isnan(p))
    running = 0.0
    for rank, i in enumerate(tested[np.argsort(p[tested], kind="stable")]):
        running = max(running, min(1.0, (len(tested) - rank) * p[i]))
        out[i] = running
    return out


def test_wilson_is_the_hand_formula_including_the_ends_and_no_trials():
    k = np.array([0, 1, 17, 250, 999, 1000, 0])
    n = np.array([1000, 1000, 1000, 1000, 1000, 1000, 0])
    lo, hi = wilson(k, n)
    ref_lo, ref_hi = wilson_by_hand(k, n)
    assert np.allclose(lo[:-1], ref_lo[:-1], atol=1e-12) and np.allclose(hi[:-1], ref_hi[:-1], atol=1e-12)
    assert (lo[-1], hi[-1]) == (0.0, 1.0) and lo[0] == 0.0 and hi[5] == 1.0
    assert wilson(30, 100) == pytest.approx(tuple(float(v) for v in wilson_by_hand(30, 100)), abs=1e-12)
    lo99, hi99 = wilson(30, 100, z=2.5758293035489)
    assert (lo99, hi99) == pytest.approx(tuple(float(v) for v in wilson_by_hand(30, 100, 2.5758293035489)), abs=1e-9)


def test_holm_is_statsmodels_and_the_step_down_by_hand_and_skips_nan():
    from statsmodels.stats.multitest import multipletests

    rng = np.random.default_rng(4)
    for _ in range(20):
        p = rng.random(7) ** 3
        p[rng.random(7) < 0.2] = math.nan
        assert np.allclose(holm(p), holm_by_hand(p), equal_nan=True, atol=1e-15)
        tested = ~np.isnan(p)
        assert np.allclose(holm(p)[tested], multipletests(p[tested], method="holm")[1], atol=1e-15)
    assert np.isnan(holm([math.nan])).all()


def test_normal_tails_and_power_are_the_standard_librarys():
    z = np.array([0.0, 1.0, 1.96, 5.0, math.inf, math.nan])
    ref = [2 * NormalDist().cdf(-abs(v)) if math.isfinite(v) else (0.0 if math.isinf(v) else math.nan) for v in z]
    assert np.allclose(two_sided_p(z), ref, equal_nan=True, atol=1e-15)
    zz = NormalDist().inv_cdf(0.975) + NormalDist().inv_cdf(0.8)
    assert games_needed(0.5, 0.02) == math.ceil((zz * 0.5 / 0.02) ** 2)


def test_bradley_terry_mm_is_the_maximum_scipy_finds():
    from scipy.optimize import minimize

    wins = np.array([[0, 30, 12], [20, 0, 25], [8, 15, 0]], float)
    fitted = bradley_terry(wins, prior=0.0)

    def nll(free):
        r = np.concatenate([[0.0], free])
        diff = r[:, None] - r[None, :]
        return -(wins * (diff - np.logaddexp(0, diff))).sum()

    best = minimize(nll, np.zeros(2), method="BFGS", options={"gtol": 1e-10}).x
    best = np.concatenate([[0.0], best])
    assert np.allclose(fitted, best - best.mean(), atol=1e-6)
