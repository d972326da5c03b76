"""Game-level measures of one cell of the skill axis (a rung's mirror at one player count), from a
run's tables: one row per game (`per_game`), then each measure with its 95% interval
(`cell_measures`). Shares carry Wilson intervals, means normal intervals, the seat gap a seeded
bootstrap over games (sim.analysis.stats)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from sim.analysis import quality
from sim.analysis.stats import mean_interval, percentile_interval, resampled_sums, wilson

SHARES = {  # per-game flag -> measure
    "runaway": "runaway leader (mid-game leader wins)",
    "comeback": "comeback (winner behind at mid-game)",
    "player_out": "a player out",
    "kingmaking": "kingmaking exposure",
    "luck_changed": "luck: winner changes with all luck redrawn",
}
MEANS = {  # per-game value -> measure
    "turns": "game length (turns)",
    "margin": "margin of victory",
    "lead_changes": "lead changes",
    "first_out": "turn of the first player out",
}
SEAT_GAP = "max seat gap"


ORDER = ("game length (turns)", "margin of victory", "lead changes", "runaway leader (mid-game leader wins)",
         "comeback (winner behind at mid-game)", "a player out", "turn of the first player out",
         "kingmaking exposure", "luck: winner changes with all luck redrawn")


def order_key(measure: str) -> tuple:
    """Seat advantages by seat, the seat gap, then the game's measures in `ORDER`."""
    if measure.startswith("seat ") and measure.endswith(" advantage"):
        return (0, int(measure.split()[1]))
    if measure == SEAT_GAP:
        return (1, 0)
    return (2, ORDER.index(measure) if measure in ORDER else len(ORDER))


def seat_measure(seat: int) -> str:
    """The name of a seat's advantage (seats counted from 1, seat 1 first in turn 1's order)."""
    return f"seat {seat} advantage"


def per_game(games: pd.DataFrame, seats: pd.DataFrame, turns: pd.DataFrame | None = None) -> pd.DataFrame:
    """One row per game (game id order): the per-game values every measure averages, and
    `won_<s>` (seat s, from 1, ranked first; a shared win counts for each sharer)."""
    g = games.sort_values("game_id").reset_index(drop=True)
    out = pd.DataFrame({"game_id": g["game_id"].to_numpy(np.int64),
                        "players": g["n_players"].to_numpy(np.int64) if "n_players" in g else
                        int(seats["seat"].max()) + 1,
                        "turns": g["turns"].to_numpy(float)})
    for col in ("margin", "lead_changes"):
        if col in g:
            out[col] = g[col].to_numpy(float)
    if "winner_deficit_mid" in g:
        deficit = g["winner_deficit_mid"].to_numpy(float)
        out["runaway"] = deficit < 0   # the winner alone ahead after the middle turn
        out["comeback"] = deficit > 0
    won = seats.pivot_table(index="game_id", columns="seat", values="won", aggfunc="max")
    won = won.reindex(out["game_id"]).fillna(False).astype(bool)
    for s in won.columns:
        out[f"won_{int(s) + 1}"] = won[s].to_numpy()
    if "alive" in seats:
        dead = (~seats["alive"].astype(bool)).groupby(seats["game_id"]).any()
        out["player_out"] = dead.reindex(out["game_id"]).fillna(False).to_numpy(bool)
    if turns is not None and len(turns):
        first = quality.first_out(turns, g, seats)
        out["first_out"] = np.where(np.isfinite(first), first, np.nan)
        exposed, _ = quality.kingmaking_flags(turns, g)
        out["kingmaking"] = exposed
    return out


def seat_columns(frame: pd.DataFrame) -> list[str]:
    return sorted((c for c in frame.columns if c.startswith("won_")), key=lambda c: int(c[4:]))


def cell_measures(frame: pd.DataFrame) -> list[dict]:
    """Each measure of one cell's per-game table with its estimate and 95% interval."""
    n = len(frame)
    rows = []
    cols = seat_columns(frame)
    fair = 1 / len(cols)
    for c in cols:
        k = int(frame[c].sum())
        lo, hi = wilson(k, n)
        rows.append(_row(seat_measure(int(c[4:])), k / n - fair, lo - fair, hi - fair, n))
    rows.append(_row(SEAT_GAP, *seat_gap(frame[cols].to_numpy(float)), n))
    for col, name in MEANS.items():
        if col in frame:
            mean, lo, hi, m = mean_interval(frame[col])
            if m:
                rows.append(_row(name, mean, lo, hi, m))
    for col, name in SHARES.items():
        if col in frame:
            x = frame[col].dropna().astype(bool)   # a flag measured on some games only (luck)
            if len(x):
                k, m = int(x.sum()), len(x)
                lo, hi = wilson(k, m)
                rows.append(_row(name, k / m, lo, hi, m))
    return rows


def seat_gap(won: np.ndarray) -> tuple[float, float, float]:
    """The largest seat's win share minus the smallest's, with a seeded bootstrap interval over
    games (biased upward by noise at small counts: the interval shows how much)."""
    n = len(won)
    rates = won.sum(axis=0) / n
    sums = resampled_sums(won)
    boot = (sums.max(axis=1) - sums.min(axis=1)) / n
    lo, hi = percentile_interval(boot)
    return float(rates.max() - rates.min()), float(lo), float(hi)


def _row(measure: str, estimate: float, lo: float, hi: float, n: int) -> dict:
    return {"measure": measure, "estimate": float(estimate), "lo": float(lo) if not math.isnan(lo) else lo,
            "hi": float(hi), "games": int(n)}


def paired_change(a: pd.DataFrame, b: pd.DataFrame) -> list[dict]:
    """Per measure, B minus A on the games both played (same game ids: common random numbers),
    with a 95% interval of the mean per-game difference; the seat gap by a paired bootstrap."""
    both = a.merge(b, on="game_id", suffixes=("_a", "_b"))
    n = len(both)
    rows = []
    if n == 0:
        return rows
    cols = [c for c in seat_columns(a) if c in b]
    for c in cols:
        d = both[f"{c}_b"].astype(float) - both[f"{c}_a"].astype(float)
        mean, lo, hi, m = mean_interval(d)
        rows.append(_row(seat_measure(int(c[4:])), mean, lo, hi, m))
    wa = both[[f"{c}_a" for c in cols]].to_numpy(float)
    wb = both[[f"{c}_b" for c in cols]].to_numpy(float)
    sums = resampled_sums(np.hstack([wa, wb]))
    k = len(cols)
    boot = (np.ptp(sums[:, k:], axis=1) - np.ptp(sums[:, :k], axis=1)) / n
    lo, hi = percentile_interval(boot)
    gap = (np.ptp(wb.sum(axis=0)) - np.ptp(wa.sum(axis=0))) / n
    rows.append(_row(SEAT_GAP, gap, float(lo), float(hi), n))
    for col, name in {**MEANS, **SHARES}.items():
        if f"{col}_a" in both and f"{col}_b" in both:
            d = both[f"{col}_b"].astype(float) - both[f"{col}_a"].astype(float)
            mean, lo, hi, m = mean_interval(d)
            if m:
                rows.append(_row(name, mean, lo, hi, m))
    return rows
