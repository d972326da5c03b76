"""The designer's first question about a measure, kept apart from the second (sim.verdict.rules:
is it stable across skill?): *is it where it should be?* Read at the good rungs (the upper half
of the ladder, the players a design is for), each rung's 95% interval against a target band:

- a seat's advantage against fair +- the tolerance (`--tolerance`, default 2 points of win
  share); not the seat gap: its plug-in estimate (the largest share minus the smallest) is
  biased upward at small counts and would read "unfair" where every seat reads "cannot tell";
- game length against `--target-turns` (a range "10-12", or "11" for 11 +- 0.5 turns);
- any other measure against a target the designer gives (`targets`).

A rung reads "within" when its interval lies inside the band, "outside" when it lies wholly
outside it, else "cannot tell yet", with the games that would decide: an interval's half-width
shrinks as 1/sqrt(games), so about n (h / d)^2 games bring a half-width h below the distance d
from the estimate to the band's nearest edge (d floored at a quarter of the band's half-width:
an estimate on the edge is never decided, and the count says "at least")."""

from __future__ import annotations

import math

from sim.verdict.rules import TOLERANCE, family
from sim.verdict.units import show, with_unit

DEFAULT_TOLERANCE = 0.02     # 2 points of win share
TURNS = "game length (turns)"
SEAT = "seat advantage"
WITHIN, OUTSIDE, UNSURE = "within", "outside", "cannot tell yet"
def parse_target_turns(text: str | None) -> tuple[float, float] | None:
    """"10-12" -> (10, 12); "11" -> (10.5, 11.5); None -> None."""
    if text is None or not str(text).strip():
        return None
    low, sep, high = str(text).strip().partition("-")
    try:
        a, b = (float(low), float(high)) if sep else (float(low) - 0.5, float(low) + 0.5)
    except ValueError:
        raise ValueError(f"target turns {text!r}: give a range LOW-HIGH (10-12) or one number (11)") from None
    if not 0 < a <= b:
        raise ValueError(f"target turns {text!r}: give a range LOW-HIGH with 0 < LOW <= HIGH")
    return a, b


def parse_target(text: str) -> tuple[str, tuple[float, float]]:
    """"a player out=0-10" (points for a share, else the measure's unit) -> (measure, (0, 0.1))."""
    from sim.verdict.units import in_points

    name, sep, value = str(text).rpartition("=")
    name = name.strip()
    if not sep or family(name) not in TOLERANCE or family(name) == SEAT:
        raise ValueError(f"target {text!r}: write MEASURE=LOW-HIGH, MEASURE one of "
                         f"{', '.join(m for m in TOLERANCE if m != SEAT)}")
    low, dash, high = value.strip().partition("-")
    try:
        a, b = float(low), float(high if dash else low)
    except ValueError:
        raise ValueError(f"target {text!r}: give LOW-HIGH as numbers (a share in points: 0-10)") from None
    if a > b:
        raise ValueError(f"target {text!r}: LOW is above HIGH")
    scale = 100 if in_points(name) else 1
    return family(name), (a / scale, b / scale)


def band_of(measure: str, tolerance: float = DEFAULT_TOLERANCE, targets: dict | None = None):
    """(low, high, reference) of the measure's target band, or None when it has none. The
    reference is what "off by" counts from: fair for a seat, the band's nearest edge otherwise."""
    fam = family(measure)
    if fam == SEAT:
        return -tolerance, tolerance, 0.0
    target = (targets or {}).get(fam)
    return None if target is None else (float(target[0]), float(target[1]), None)


def read(estimate: float, lo: float, hi: float, games: int, band) -> dict:
    """One rung's interval against a band (module docstring): state, how far off (estimate and
    interval, from the band's reference) and the games that would decide."""
    low, high, ref = band
    row = {"state": UNSURE, "off": math.nan, "off_lo": math.nan, "off_hi": math.nan, "need_games": 0,
           "need_at_least": False}
    if not all(math.isfinite(v) for v in (estimate, lo, hi)):
        return row
    if low <= lo and hi <= high:
        return row | {"state": WITHIN}
    if lo > high or hi < low:
        edge = ref if ref is not None else (high if lo > high else low)
        return row | {"state": OUTSIDE, "off": estimate - edge, "off_lo": lo - edge, "off_hi": hi - edge}
    half = (hi - lo) / 2
    distance = min(abs(estimate - low), abs(estimate - high))
    floor = (high - low) / 8
    need = math.ceil(max(games, 1) * (half / max(distance, floor)) ** 2)
    return row | {"need_games": max(need, games + 1), "need_at_least": distance < floor}


def words(measure: str, r: dict, band) -> str:
    """A rung's reading in words: "fair", "unfair by -4.1 points [-5.3, -2.9]", "too long by
    1.2 turns [0.8, 1.6]", "cannot tell yet (need about 3,200 games)"."""
    if r["state"] == UNSURE:
        return f"cannot tell yet (need {'at least' if r['need_at_least'] else 'about'} {r['need_games']:,} games)"
    seats = family(measure) == SEAT
    if r["state"] == WITHIN:
        return "fair" if seats else "on target"
    if seats:   # signed: a seat ahead of fair or behind it
        return (f"unfair by {with_unit(measure, show(measure, r['off'], signed=True))} "
                f"[{show(measure, r['off_lo'], signed=True)}, {show(measure, r['off_hi'], signed=True)}]")
    above = r["off"] > 0
    size, a, b = (r["off"], r["off_lo"], r["off_hi"]) if above else (-r["off"], -r["off_hi"], -r["off_lo"])
    side = ("too long" if above else "too short") if family(measure) == TURNS else ("above" if above else "below")
    return f"{side} by {with_unit(measure, show(measure, size))} [{show(measure, a)}, {show(measure, b)}]"


def band_words(measure: str, band) -> str:
    low, high, ref = band
    if ref is not None and family(measure) == SEAT:
        return f"fair ±{with_unit(measure, show(measure, high))}"
    return f"target {show(measure, low)} to {with_unit(measure, show(measure, high))}"


def reading(measure: str, cells, tolerance: float = DEFAULT_TOLERANCE, targets: dict | None = None) -> dict:
    """The measure's answer at the good rungs. `cells`: [(rung, estimate, lo, hi, games)], the
    good rungs that were played. "unfair"/off target when any rung lies outside the band (the
    farthest named), within when every rung is, else "cannot tell yet" with the most games any
    undecided rung needs; each rung's own reading in `target_detail`."""
    band = band_of(measure, tolerance, targets)
    empty = {"target": "", "target_text": "", "target_band": "", "target_detail": "", "target_games": 0}
    if band is None or not cells:
        return empty
    per = [(rung, read(e, lo, hi, int(n), band)) for rung, e, lo, hi, n in cells]
    detail = "; ".join(f"{rung}: {words(measure, r, band)}" for rung, r in per)
    out = {"target_band": band_words(measure, band), "target_detail": detail}
    outside = [(rung, r) for rung, r in per if r["state"] == OUTSIDE]
    unsure = [(rung, r) for rung, r in per if r["state"] == UNSURE]
    if outside:
        rung, worst = max(outside, key=lambda p: abs(p[1]["off"]))
        others = [x for x, _ in outside if x != rung]
        also = f"; also outside at {', '.join(others)}" if others else ""
        return out | {"target": OUTSIDE, "target_text": f"{words(measure, worst, band)} at {rung}{also}",
                      "target_games": 0}
    within = ", ".join(rung for rung, r in per if r["state"] == WITHIN)
    if not unsure:
        return out | {"target": WITHIN, "target_text": f"{words(measure, per[0][1], band)} at {within} "
                                                      f"({out['target_band']})", "target_games": 0}
    need = max(r["need_games"] for _, r in unsure)
    about = "at least" if any(r["need_at_least"] for _, r in unsure) else "about"
    ok = f"; {words(measure, {'state': WITHIN}, band)} at {within}" if within else ""
    return out | {"target": UNSURE, "target_games": need,
                  "target_text": f"cannot tell yet at {', '.join(r for r, _ in unsure)} (need {about} {need:,} "
                                 f"games a cell){ok}"}


def good_rungs(rungs) -> list[str]:
    """The upper half of the ladder (the rungs sim.verdict.rules.strong_centre weighs)."""
    rungs = list(rungs)
    return rungs[len(rungs) // 2:]
