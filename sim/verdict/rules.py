"""The verdict rules: one measure read along the skill axis (rungs weakest first) at one player
count, with intervals, into one of the classes below. docs/reports.md states the same rules and
the published method each step follows.

Each rung r gives an estimate e_r, a 95% interval [lo_r, hi_r] and se_r = (hi_r - lo_r) / 3.92.
A measure has a tolerance band half-width `tol` (`TOLERANCE`, settable by `bands`): absolute, or
a share of the strong rungs' centre (the precision-weighted mean of the upper half of the
ladder, so that a weak rung's precise small value does not set the band of a count).

- A rung is *judged* when its interval is no wider than the band (hi_r - lo_r <= 2 tol); an
  unjudged rung (a costly rung at a small count) is named beside every reading and left out.
- *Equivalence* of a set of judged rungs (TOST, Schuirmann 1987, as an intersection-union test):
  for every rung the 90% interval of e_r - c (c their precision-weighted mean) lies in [-tol, tol].
- *Heterogeneity*: Cochran's Q = sum w_r (e_r - c)^2 on k - 1 degrees of freedom (w = 1/se^2).
- *Trend*: the weighted least-squares slope of e_r on the rungs' positions (`positions`: the
  ladder's order, or a measured strength when given), its interval scaled by the misfit
  sqrt(Q_res / (k - 2)) when Q_res exceeds its degrees of freedom (the multiplicative
  meta-regression of Thompson & Sharp 1999, t quantile on k - 2 df); the pattern must be
  monotone: the isotonic (pool-adjacent-violators) fit in the slope's direction leaves no misfit
  (its residual Q below the chi-square 95% point on k - blocks df).

A set of rungs *holds* when no monotone trend beyond noise changes it by more than tol, and the
rungs either do not differ beyond noise (Q) or are equivalent (TOST). The plateau R*: the weakest
judged rung when all judged rungs hold together, else the lowest R* such that every suffix of
judged rungs from R* up holds.

Classes, in the order they are tried:
- WEAK, "only at weak play": a plateau from R* above the weakest judged rung, at a measure's fair
  value (within tol), some rung below it wholly outside the fair band.
- CHANGES, "changes with skill": the rungs differ (Q), the trend is beyond noise and monotone,
  and its change is not shown negligible (its 90% interval not inside [-tol, tol]): "rising" or
  "falling"; a plateau at the top is said beside it.
- HOLDS, "holds": every judged rung holds; "at every skill" only when every rung of the ladder
  is judged, else "over" the rungs read; "holds from R* up" when only a plateau holds.
- DIFFER, "rungs differ": Q beyond noise, no monotone trend; the neighbouring steps that differ
  are named (Holm over the reading's steps).
- UNDETERMINED: none of these (too few judged rungs, or intervals too wide for equivalence).

The p-values of the claims of a difference (Q and the trend) come back in the row, so that a page
of readings can control its family-wise error (sim.verdict.study.verdict_table: Holm).
"""

from __future__ import annotations

import math

import numpy as np
from scipy.optimize import isotonic_regression
from scipy.special import chdtrc, ndtr, ndtri, stdtr, stdtrit

from sim.analysis.stats import Z95, holm
from sim.verdict.units import band, show, with_unit

HOLDS = "holds"
CHANGES = "changes with skill"
WEAK = "only at weak play"
DIFFER = "rungs differ"
UNDETERMINED = "undetermined"
CLASSES = (HOLDS, CHANGES, WEAK, DIFFER, UNDETERMINED)
ALPHA = 0.05

# band half-widths: (value, relative?); a relative one is that share of the strong rungs' centre
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


def parse_band(text: str) -> tuple[str, tuple[float, bool]]:
    """"game length (turns)=0.5" (absolute) or "margin of victory=10%" (of the strong rungs'
    centre) -> (family, (value, relative))."""
    name, sep, value = text.rpartition("=")
    name, value = name.strip(), value.strip()
    if not sep or family(name) not in TOLERANCE:
        raise ValueError(f"band {text!r}: write MEASURE=VALUE or MEASURE=P%, MEASURE one of "
                         f"{', '.join(TOLERANCE)}")
    relative = value.endswith("%")
    number = float(value.rstrip("%")) / (100 if relative else 1)
    if not number > 0:
        raise ValueError(f"band {text!r}: give a half-width above 0")
    return family(name), (number, relative)


def tolerance(measure: str, centre: float, floor: float = 0.0, bands=None) -> float:
    """The band half-width of a measure around `centre` (never below `floor`)."""
    value, relative = {**TOLERANCE, **(bands or {})}.get(family(measure), (0.05, True))
    tol = value * abs(centre) if relative else value
    return max(tol, floor)


def _se(lo, hi) -> np.ndarray:
    return (np.asarray(hi, float) - np.asarray(lo, float)) / (2 * Z95)


def _weights(se) -> np.ndarray:
    return 1.0 / np.maximum(np.asarray(se, float), 1e-12) ** 2


def _centre(y, se) -> float:
    w = _weights(se)
    return float((w * np.asarray(y, float)).sum() / w.sum())


def strong_centre(y, se) -> float:
    """The precision-weighted mean of the upper half of the rungs given (weakest first)."""
    half = len(y) // 2
    return _centre(y[half:], se[half:])


def cochran_q(y, se) -> tuple[float, int, float]:
    """Cochran's Q of the estimates about their weighted mean, its df and p-value."""
    y, w = np.asarray(y, float), _weights(se)
    q = float((w * (y - _centre(y, se)) ** 2).sum())
    df = len(y) - 1
    return q, df, float(chdtrc(df, q)) if df > 0 else math.nan


def weighted_slope(x, y, se) -> tuple[float, float, float]:
    """Weighted least-squares slope of y on x (weights 1 / se^2), its standard error scaled for
    misfit (by Q_res / (k - 2) when above 1) and the t degrees of freedom of that estimated scale
    (0: not scaled, normal quantiles)."""
    x, y, w = np.asarray(x, float), np.asarray(y, float), _weights(se)
    if len(x) < 2 or np.ptp(x) == 0:
        return math.nan, math.nan, 0
    xm = (w * x).sum() / w.sum()
    sxx = (w * (x - xm) ** 2).sum()
    slope = float((w * (x - xm) * y).sum() / sxx)
    df = len(x) - 2
    resid = y - (w * y).sum() / w.sum() - slope * (x - xm)
    scale = float((w * resid**2).sum() / df) if df > 0 else 0.0
    return slope, math.sqrt(max(scale, 1.0) / sxx), df if scale > 1.0 else 0


def _quantile(q: float, df: int) -> float:
    return float(stdtrit(df, q)) if df else float(ndtri(q))


def _two_sided(z: float, df: int) -> float:
    return float(2 * (stdtr(df, -abs(z)) if df else ndtr(-abs(z))))


def monotone_fit(y, se, increasing: bool) -> tuple[np.ndarray, float]:
    """The weighted isotonic fit (scipy's pool-adjacent-violators) and the p-value of its misfit
    (residual Q on k - blocks df; 1 when the fit passes through every estimate)."""
    y, w = np.asarray(y, float), _weights(se)
    fit = isotonic_regression(y, weights=w, increasing=increasing)
    q = float((w * (y - fit.x) ** 2).sum())
    df = len(y) - (len(fit.blocks) - 1)
    return fit.x, float(chdtrc(df, q)) if df > 0 else 1.0


def equivalence_p(y, se, tol: float) -> float:
    """The intersection-union p-value that every estimate lies within tol of the set's weighted
    mean c: the largest of the rungs' TOST p-values on e_r - c (var se_r^2 - 1 / sum w)."""
    y, se, w = np.asarray(y, float), np.asarray(se, float), _weights(se)
    d = y - _centre(y, se)
    sd = np.sqrt(np.maximum(se**2 - 1.0 / w.sum(), 1e-24))
    p = np.maximum(ndtr(-(d + tol) / sd), ndtr((d - tol) / sd))
    return float(p.max())


def steps_that_differ(names, y, se, alpha: float = ALPHA) -> list[tuple[str, str, float]]:
    """Neighbouring judged rungs whose difference is beyond noise (Holm over the steps)."""
    y, se = np.asarray(y, float), np.asarray(se, float)
    step = np.diff(y)
    p = 2 * ndtr(-np.abs(step) / np.sqrt(se[1:] ** 2 + se[:-1] ** 2))
    keep = holm(p) <= alpha
    return [(names[i], names[i + 1], float(step[i])) for i in np.flatnonzero(keep)]


def trend_evidence(x, y, se) -> dict:
    """The slope (its interval and p-value scaled for misfit), the monotone fit's misfit p-value,
    the change the slope implies across the rungs and its 90% interval."""
    x, y, se = (np.asarray(v, float) for v in (x, y, se))
    slope, se_b, df = weighted_slope(x, y, se)
    if math.isnan(slope):
        return {"slope": slope, "slope_lo": math.nan, "slope_hi": math.nan, "p_trend": math.nan,
                "p_monotone": math.nan, "change": 0.0, "change_lo": math.nan, "change_hi": math.nan}
    half, span = _quantile(0.975, df) * se_b, float(np.ptp(x))
    order = np.argsort(x, kind="stable")
    _, p_mono = monotone_fit(y[order], se[order], slope > 0)
    half90 = _quantile(0.95, df) * se_b * span
    return {"slope": slope, "slope_lo": slope - half, "slope_hi": slope + half,
            "p_trend": _two_sided(slope / se_b, df), "p_monotone": p_mono, "change": slope * span,
            "change_lo": slope * span - half90, "change_hi": slope * span + half90}


def is_trend(ev: dict, tol: float, alpha: float = ALPHA, p_trend: float | None = None) -> bool:
    """A monotone trend beyond noise and not negligible: the slope's interval excludes 0, the
    isotonic fit leaves no misfit, and the change's 90% interval is not inside [-tol, tol] (an
    equivalence test of the change, as for the rungs)."""
    p = ev["p_trend"] if p_trend is None else p_trend
    negligible = -tol <= ev["change_lo"] and ev["change_hi"] <= tol
    return bool(p <= alpha and ev["p_monotone"] > alpha and not negligible)


def _holds(x, y, se, tol, alpha) -> bool:
    """A set of rungs holds: no monotone trend beyond noise whose change exceeds the band, and either the rungs do not
    differ beyond noise (Cochran's Q) or every rung is equivalent to their centre (TOST)."""
    if len(y) < 2:
        return False
    ev = trend_evidence(x, y, se)
    if ev["p_trend"] <= alpha and ev["p_monotone"] > alpha and abs(ev["change"]) > tol:
        return False
    return cochran_q(y, se)[2] > alpha or equivalence_p(y, se, tol) <= alpha


def plateau(x, y, se, tol, alpha: float = ALPHA) -> int | None:
    """Index (into the judged rungs) of the lowest R* from which the rungs hold: 0 when they all
    hold together, else the lowest R* such that every suffix from R* up holds (scanning down)."""
    if _holds(x, y, se, tol, alpha):
        return 0
    start = None
    for r in range(len(y) - 2, -1, -1):
        if not _holds(x[r:], y[r:], se[r:], tol, alpha):
            break
        start = r
    return start


def _names(names) -> str:
    return ", ".join(names)


def classify(measure: str, rungs, estimate, lo, hi, tol_floor: float = 0.0, positions=None,
             alpha: float = ALPHA, bands=None, adjusted: dict | None = None) -> dict:
    """The reading of one measure at one player count: rungs weakest first, their estimates and
    95% intervals, their places on the axis (`positions`: ladder index or measured strength;
    default 0, 1, ...). `adjusted` {"p_differ", "p_trend"}: the page's multiplicity-adjusted
    p-values of this reading's claims of a difference (default: its own, unadjusted)."""
    rungs = list(rungs)
    e, lo, hi = (np.asarray(v, float) for v in (estimate, lo, hi))
    x = np.arange(len(rungs), dtype=float) if positions is None else np.asarray(positions, dtype=float)
    se = _se(lo, hi)
    finite = np.isfinite(e) & np.isfinite(lo) & np.isfinite(hi)
    centre = strong_centre(e[finite], se[finite]) if finite.any() else math.nan
    tol = tolerance(measure, centre, tol_floor, bands)
    judged = finite & (hi - lo <= 2 * tol)
    names = [r for r, j in zip(rungs, judged, strict=True) if j]
    unjudged = [r for r, j in zip(rungs, judged, strict=True) if not j]
    xj, ej, sj = x[judged], e[judged], se[judged]
    row = {"measure": measure, "rungs": ",".join(rungs), "read_over": ",".join(names),
           "not_judged": ",".join(unjudged), "tolerance": tol, "from_rung": None, "centre": math.nan,
           "direction": None, "steps": "", "q": math.nan, "q_df": 0, "p_differ": math.nan,
           "slope": math.nan, "slope_lo": math.nan, "slope_hi": math.nan, "p_trend": math.nan,
           "p_monotone": math.nan, "change": math.nan, "change_lo": math.nan, "change_hi": math.nan}
    beside = f" ({_names(unjudged)} not judged)" if unjudged else ""
    if len(names) < 2:
        return row | {"verdict": UNDETERMINED, "text": f"undetermined: too few rungs judged{beside}"}
    q, q_df, p_q = cochran_q(ej, sj)
    ev = trend_evidence(xj, ej, sj)
    row |= {"q": q, "q_df": q_df, "p_differ": p_q} | ev
    p_differ = (adjusted or {}).get("p_differ", p_q)
    p_trend = (adjusted or {}).get("p_trend", ev["p_trend"])
    start = plateau(xj, ej, sj, tol, alpha)
    if start is not None:
        row |= {"from_rung": names[start], "centre": _centre(ej[start:], sj[start:])}
    weak = _weak(measure, names, ej, sj, lo[judged], hi[judged], start, tol, row["centre"])
    if weak:
        return row | {"verdict": WEAK, "text": f"only at weak play ({_names(weak)}); from {names[start]} up "
                                               f"within the fair {band(measure, tol)}{beside}"}
    if p_differ <= alpha and is_trend(ev, tol, alpha, p_trend):
        direction = "rising" if ev["slope"] > 0 else "falling"
        plateau_note = f"; from {names[start]} up holds at {_value(measure, row['centre'])}" if start else ""
        return row | {"verdict": CHANGES, "direction": direction,
                      "text": f"changes with skill over {_names(names)}: {direction}, "
                              f"{_value(measure, ev['change'], True)} in all, {_value(measure, ev['slope'], True)} "
                              f"per rung [{show(measure, ev['slope_lo'], True)}, {show(measure, ev['slope_hi'], True)}]"
                              f"{plateau_note}{beside}"}
    if start == 0:
        every = "at every skill" if not unjudged else f"over {_names(names)}"
        return row | {"verdict": HOLDS, "text": f"holds {every} at {_value(measure, row['centre'])} "
                                                f"({band(measure, tol)}){beside}"}
    steps = steps_that_differ(names, ej, sj, alpha) if p_differ <= alpha else []
    row["steps"] = "; ".join(f"{a}->{b} {show(measure, d, True)}" for a, b, d in steps)
    if start is not None:
        below = f"; below, the rungs differ ({row['steps']})" if steps else ""
        text = (f"holds from {names[start]} up (over {_names(names[start:])}): "
                f"{_value(measure, row['centre'])} ({band(measure, tol)}){below}{beside}")
        return row | {"verdict": HOLDS, "text": text}
    if p_differ <= alpha:
        return row | {"verdict": DIFFER, "text": f"rungs differ without a monotone trend: "
                                                 f"{row['steps'] or 'no single step beyond noise'}{beside}"}
    return row | {"verdict": UNDETERMINED, "text": f"undetermined: the rungs do not differ beyond noise, "
                                                   f"but their intervals are too wide to say they hold{beside}"}


def _value(measure: str, value: float, signed: bool = False) -> str:
    return with_unit(measure, show(measure, value, signed))


def _weak(measure, names, e, se, lo, hi, start, tol, centre) -> list[str]:
    """The rungs below a plateau at the fair value whose interval lies wholly outside its band."""
    neutral = NEUTRAL.get(family(measure))
    if neutral is None or not start or abs(centre - neutral) > tol:
        return []
    outside = (lo[:start] > neutral + tol) | (hi[:start] < neutral - tol)
    return [n for n, o in zip(names[:start], outside, strict=True) if o]
