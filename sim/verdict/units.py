"""Every number a person reads in its own unit: a share (a seat's advantage, the seat gap, the
share of games with a runaway leader...) in points of win share (x 100), game length in turns,
the game's own measures (margin, lead changes) as counted."""

from __future__ import annotations

import math

SHARE_MEASURES = {"max seat gap", "runaway leader (mid-game leader wins)", "comeback (winner behind at mid-game)",
                  "a player out", "kingmaking exposure", "luck: winner changes with all luck redrawn",
                  "exploitability of meta:equilibrium"}


def in_points(measure: str) -> bool:
    return (measure.startswith("seat ") and measure.endswith(" advantage")) or measure in SHARE_MEASURES


def show(measure: str, value, signed: bool = False) -> str:
    """A value in the measure's unit, without the unit's name (points for shares)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    if in_points(measure):
        return f"{100 * value:+.1f}" if signed else f"{100 * value:.1f}"
    return f"{value:+.3g}" if signed else f"{value:.3g}"


def unit(measure: str) -> str:
    if in_points(measure):
        return "points"
    return "turns" if measure in ("game length (turns)", "turn of the first player out") else ""


def with_unit(measure: str, text: str) -> str:
    u = unit(measure)
    return f"{text} {u}" if u else text


def band(measure: str, half_width: float) -> str:
    """A tolerance band, never shaped like an interval: "band ±2.0 points"."""
    return f"band ±{with_unit(measure, show(measure, half_width))}"
