"""The verdict rules: one measure read along the skill axis (rungs weakest first) at one player
count, with intervals, into one of the classes below. docs/reports.md states the same rules.

Each rung r gives an estimate e_r, a 95% interval [lo_r, hi_r] and se_r = (hi_r - lo_r) / 3.92.
A measure has a tolerance band half-width `tol` (`TOLERANCE`: absolute, or relative to the
band's centre for counts such as turns) and, for a measure with a fair value (a seat's advantage,
the seat gap: 0), a `neutral` value.

- A rung is *judged* when its interval is no wider than the band (hi_r - lo_r <= 2 tol); wider
  intervals (a costly rung at a small game count) are named and left out of the tests.
- A *trend beyond noise* over a set of judged rungs: the weighted least-squares slope of e_r on
  the rung index (weights 1 / se_r^2) has a 95% interval excluding 0, and the change it implies
  across those rungs, |slope| x (last index - first index), exceeds tol.
- The suffix from rung R *holds* when at least two of its rungs are judged, every judged rung's
  interval lies inside [c - tol, c + tol] around c, their precision-weighted mean, and they show
  no trend beyond noise. R* is the lowest R such that every suffix from R up to the second
  strongest rung holds (scanning down from the top, stopping at the first that fails; a suffix
  with fewer than two judged rungs neither holds nor fails), moved up to its weakest judged rung.

Classes:
- HOLDS, "holds at every skill from R* up": R* exists (R* = the weakest rung: at every rung).
- WEAK, "only at weak play": R* exists above the weakest rung, the measure has a neutral value,
  the band's centre is within tol of it, and some rung below R* has its interval wholly outside
  [neutral - tol, neutral + tol]: what weak players show vanishes once they are good.
- CHANGES, "changes with skill": no R* (even the strongest two judged rungs disagree or trend),
  and the judged rungs show a trend beyond noise; its direction is "rising" or "falling" (the
  slope's sign) when every step between neighbouring judged rungs that is beyond noise (its
  95% interval excludes 0) goes that way, else "not monotone".
- UNDETERMINED: none of these (too few judged rungs, or disagreement without a trend).
"""

from __future__ import annotations

import math

import numpy as np

from sim.analysis.stats import Z95

HOLDS = "holds at every skill from a rung up"
CHANGES = "changes with skill"
WEAK = "only at weak play"
UNDETERMINED = "undetermined"
CLASSES = (HOLDS, CHANGES, WEAK, UNDETERMINED)

# band half-widths: (value, relative?); a relative one is that share of |centre|
TOLERANCE = {
    "seat advantage": (0.02, False),
    "max seat gap": (0.03, False),
    "game length (turns)": (0.05, True),
    "margin of victory": (0.10, True),
    "lead changes": (0.10, True),
    "runaway leader (mid-game leader wins)": (0.03, False),
    "comeback (winner behind at mid-game)": (0.03, False),
    "a player out": (0.03, False),
    "turn of the first player out": (0.10, True),
    "kingmaking exposure": (0.03, False),
    "luck: winner changes with all luck redrawn": (0.05, False),
    "exploitability of meta:equilibrium": (0.02, False),
}
NEUTRAL = {"seat advantage": 0.0, "max seat gap": 0.0}


def family(measure: str) -> str:
    """The tolerance family of a measure name ("seat 2 advantage" -> "seat advantage")."""
    if measure.startswith("seat ") and measure.endswith(" advantage"):
        return "seat advantage"
    return measure


def tolerance(measure: str, centre: float, floor: float = 0.0) -> float:
    """The band half-width of a measure around `centre` (never below `floor`)."""
    value, relative = TOLERANCE.get(family(measure), (0.05, True))
    tol = value * abs(centre) if relative else value
    return max(tol, floor)


def _se(lo, hi) -> np.ndarray:
    return (np.asarray(hi, float) - np.asarray(lo, float)) / (2 * Z95)


def weighted_slope(x, y, se) -> tuple[float, float, float]:
    """Weighted least-squares slope of y on x (weights 1 / se^2) and its 95% interval."""
    x, y, se = (np.asarray(v, float) for v in (x, y, se))
    w = 1.0 / np.maximum(se, 1e-12) ** 2
    if len(x) < 2 or np.ptp(x) == 0:
        return math.nan, math.nan, math.nan
    xm = (w * x).sum() / w.sum()
    sxx = (w * (x - xm) ** 2).sum()
    slope = float((w * (x - xm) * y).sum() / sxx)
    half = Z95 * math.sqrt(1.0 / sxx)
    return slope, slope - half, slope + half


def trend(x, y, se, tol: float) -> bool:
    """A trend beyond noise: the slope's interval excludes 0 and it moves y by more than tol."""
    slope, lo, hi = weighted_slope(x, y, se)
    if math.isnan(slope):
        return False
    return (lo > 0 or hi < 0) and abs(slope) * (np.max(x) - np.min(x)) > tol


FEW = object()   # a suffix with fewer than two judged rungs


def _direction(y, se, slope: float) -> str:
    """rising or falling when every step between neighbouring judged rungs that is beyond noise
    (its 95% interval excludes 0) goes the slope's way; else "not monotone"."""
    step = np.diff(y)
    half = Z95 * np.sqrt(se[1:] ** 2 + se[:-1] ** 2)
    clear = np.sign(step[np.abs(step) > half])
    if (clear == np.sign(slope)).all():
        return "rising" if slope > 0 else "falling"
    return "not monotone"


def _centre(y, se) -> float:
    w = 1.0 / np.maximum(np.asarray(se, float), 1e-12) ** 2
    return float((w * np.asarray(y, float)).sum() / w.sum())


def classify(measure: str, rungs, estimate, lo, hi, tol_floor: float = 0.0, positions=None) -> dict:
    """The verdict of one measure at one player count: rungs weakest first, their estimates and
    95% intervals, and their places on the ladder (`positions`, default 0, 1, ...: a rung not
    played leaves a gap). Returns the class, the rung it holds from, the band, the slope and a
    sentence."""
    rungs = list(rungs)
    e, lo, hi = (np.asarray(v, float) for v in (estimate, lo, hi))
    k = len(rungs)
    idx = np.arange(k, dtype=float) if positions is None else np.asarray(positions, dtype=float)
    se = _se(lo, hi)
    finite = np.isfinite(e) & np.isfinite(lo) & np.isfinite(hi)
    overall = _centre(e[finite], se[finite]) if finite.any() else math.nan
    tol = tolerance(measure, overall, tol_floor)
    judged = finite & (hi - lo <= 2 * tol)

    def holds(start: int):
        d = judged & (np.arange(k) >= start)
        if d.sum() < 2:
            return FEW
        c = _centre(e[d], se[d])
        band = tolerance(measure, c, tol_floor)
        inside = (lo[d] >= c - band) & (hi[d] <= c + band)
        if not inside.all() or trend(idx[d], e[d], se[d], band):
            return None
        return c, band

    start, band = None, None
    for r in range(k - 2, -1, -1):   # a suffix with fewer than two judged rungs neither holds nor fails
        got = holds(r)
        if got is None:
            break
        if got is not FEW:
            start, band = r, got
    if start is not None:
        start = int(np.flatnonzero(judged & (np.arange(k) >= start))[0])  # its weakest judged rung
    slope, s_lo, s_hi = weighted_slope(idx[judged], e[judged], se[judged])
    row = {"measure": measure, "rungs": ",".join(rungs), "tolerance": tol, "slope": slope,
           "slope_lo": s_lo, "slope_hi": s_hi, "from_rung": None, "centre": math.nan,
           "direction": None,
           "not_judged": ",".join(r for r, j in zip(rungs, judged, strict=True) if not j)}
    if start is not None:
        c, b = band
        row |= {"from_rung": rungs[start], "centre": c, "tolerance": b}
        neutral = NEUTRAL.get(family(measure))
        below = np.arange(k) < start
        outside = finite & below & ((lo > (neutral or 0) + b) | (hi < (neutral or 0) - b))
        if neutral is not None and abs(c - neutral) <= b and outside.any():
            weak = [r for r, o in zip(rungs, outside, strict=True) if o]
            return row | {"verdict": WEAK,
                          "text": f"only at weak play ({', '.join(weak)}); from {rungs[start]} up "
                                  f"within {b:.3g} of {neutral:g}"}
        where = "at every skill" if start == 0 else f"at every skill from {rungs[start]} up"
        return row | {"verdict": HOLDS, "text": f"holds {where}: {c:.3g} +- {b:.3g}"}
    if judged.sum() >= 2 and trend(idx[judged], e[judged], se[judged], tol):
        direction = _direction(e[judged], se[judged], slope)
        return row | {"verdict": CHANGES, "direction": direction,
                      "text": f"changes with skill: {direction}, {slope:+.3g} per rung "
                              f"[{s_lo:+.3g}, {s_hi:+.3g}]"}
    why = "too few rungs judged" if judged.sum() < 2 else "rungs disagree without a trend"
    return row | {"verdict": UNDETERMINED, "text": f"undetermined: {why}"}
