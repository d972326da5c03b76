"""The pairing gain of a comparison: how many times fewer games a paired comparison needs.

Two runs on one seed play the same game ids with the same random numbers (common random numbers,
one stream per source of luck: `sim.rng`), so a metric's difference can be measured game by game.
The pairing gain of a metric is

    gain = Var(unpaired difference) / Var(paired difference)

the factor by which pairing divides the variance of the difference B - A: an unpaired comparison
would need `gain` times as many games for an interval as narrow. 1 means pairing bought nothing;
below 1 (rare) it cost. Each metric is linearised into per-game influence values z (the metric
is, to first order, the mean of z over games), so that for the n games both runs played

    gain = (var(z_a) + var(z_b)) / var(z_b - z_a)

Influence values: a mean over games is the game's own value; a win rate over seats is
(wins - rate * seats) / mean seats per game; a spread of win rates (seat_gap, balance,
strategy_gap) is the difference of the influence values of the highest and lowest group of that
run, a maximum (winrate_max) those of the highest; seat 0's advantage is seat 0's influence
values minus the mean of the seats'. The 95% interval is a seeded bootstrap over games of the ratio.

    from sim.analysis.pairing import pairing_gain
    pairing_gain(run_a, run_b)     # index metric; gain, lo, hi, n
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from sim.analysis.headline import (GAME_COLUMNS, SEAT_COLUMNS, GameSums, _Moments, _per_game_sums, _StrategyOrder,
                                   game_values, strategy_masks)
from sim.analysis.stats import BOOT_SEED, percentile_interval, resampled_sums

GAIN_REPS = 400  # bootstrap resamples of the gain's interval (a ratio of variances: few suffice)
COLUMNS = ["gain", "lo", "hi", "n"]
SEAT_PREFIX = "seat_winrate:"  # one row per seat number: its win rate (not a headline metric)


def influence_values(games: pd.DataFrame, seats: pd.DataFrame, centres: Centres | None = None) -> pd.DataFrame:
    """Per game (index game_id), the influence value of every metric the pairing gain covers.
    `centres`: the run's means and win rates when these tables are one part of it (default: theirs)."""
    values = game_values(games, seats)
    if centres is None:
        centres = Centres()
        centres.add(games, seats, values)
    means = centres.means()
    out = {name: values[name] - means[name] for name in values.columns if not name.startswith("winrate:")}
    if "cap_rate" in out:
        out["completion"] = -out["cap_rate"]
    index = values.index
    seat_z = _rate_influences(seats, "seat", index, centres)
    for j, z in seat_z.items():
        out[f"{SEAT_PREFIX}{j}"] = z["z"]
    if seat_z:
        out["seat_gap"] = _spread(seat_z)
        out["balance"] = -out["seat_gap"]
        if 0 in seat_z:
            out["seat0_advantage"] = seat_z[0]["z"] - sum(z["z"] for z in seat_z.values()) / len(seat_z)
    strategy_z = _rate_influences(seats, "strategy", index, centres)
    for name, z in strategy_z.items():
        out[f"winrate:{name}"] = z["z"]
    if strategy_z:
        out["strategy_gap"] = _spread(strategy_z)
        out["winrate_max"] = strategy_z[max(strategy_z, key=lambda k: strategy_z[k]["rate"])]["z"]
    return pd.DataFrame(out, index=index)


class Centres:
    """What a run's influence values are centred on, summed part by part: each per-game metric's
    mean over games, and each seat number's and strategy's wins and seats, over the games."""

    def __init__(self):
        self.moments = _Moments()
        self.games = 0
        self.totals: dict[str, float] = {}
        self.seat_keys: set[int] = set()
        self.strategies = _StrategyOrder()

    def add(self, games: pd.DataFrame, seats: pd.DataFrame, values: pd.DataFrame | None = None) -> None:
        values = game_values(games, seats) if values is None else values
        self.moments.add(values[[c for c in values.columns if not c.startswith("winrate:")]])
        self.games += len(values)
        for name, column in _per_game_sums(games, seats).items():
            self.totals[name] = self.totals.get(name, 0.0) + float(column.sum())
        self.seat_keys |= set(seats["seat"].unique().tolist())
        self.strategies.add(seats)

    def means(self) -> dict[str, float]:
        return dict(self.moments.mean)

    def keys(self, column: str) -> list:
        return sorted(self.seat_keys) if column == "seat" else self.strategies.names()

    def group(self, column: str, key) -> tuple[float, float]:
        """(wins, seats) of a seat number or strategy over the run's games."""
        return self.totals.get(f"{column}_won:{key}", 0.0), self.totals.get(f"{column}_n:{key}", 0.0)


def _rate_influences(seats: pd.DataFrame, column: str, index: pd.Index, centres: Centres) -> dict:
    """{group: {"rate", "z"}} for each seat number or strategy: the win rate over its seats and
    the per-game influence values (wins - rate * seats) / mean seats per game (both over the run)."""
    pos = index.get_indexer(seats["game_id"])
    keep = pos >= 0
    if column == "strategy":
        masks = dict(strategy_masks(seats[["strategy"]][keep]))
    else:
        group = seats[column].to_numpy()[keep]
    won, pos = seats["won"].to_numpy(float)[keep], pos[keep]
    out = {}
    for key in centres.keys(column):
        total_won, total_n = centres.group(column, key)
        if total_n == 0:
            continue
        mask = masks.get(key, np.zeros(len(pos), dtype=bool)) if column == "strategy" else group == key
        w = np.bincount(pos[mask], won[mask], minlength=len(index))
        n = np.bincount(pos[mask], minlength=len(index)).astype(float)
        rate = total_won / total_n
        out[key] = {"rate": rate, "z": pd.Series((w - rate * n) / (total_n / centres.games), index=index)}
    return out


def _spread(groups: dict) -> pd.Series:
    """Influence of the highest rate minus the lowest (the groups of this run)."""
    high = max(groups, key=lambda k: groups[k]["rate"])
    low = min(groups, key=lambda k: groups[k]["rate"])
    return groups[high]["z"] - groups[low]["z"]


def gain_table(za: pd.DataFrame, zb: pd.DataFrame, reps: int = GAIN_REPS,
               seed: int = BOOT_SEED) -> pd.DataFrame:
    """The pairing gain of each metric (columns both tables share) over their common games."""
    common = za.index.intersection(zb.index)
    metrics = [m for m in za.columns if m in zb.columns]
    rows = {}
    for m in metrics:
        a, b = za.loc[common, m].to_numpy(float), zb.loc[common, m].to_numpy(float)
        both = ~(np.isnan(a) | np.isnan(b))
        rows[m] = _gain_with_interval(a[both], b[both], reps, seed)
    table = pd.DataFrame.from_dict(rows, orient="index", columns=COLUMNS)
    table.index.name = "metric"
    table["n"] = table["n"].astype(int)
    return table


def _gain_with_interval(a: np.ndarray, b: np.ndarray, reps: int, seed: int) -> tuple:
    n = len(a)
    if n < 3:
        return math.nan, math.nan, math.nan, n
    d = b - a
    moments = np.column_stack([a, a * a, b, b * b, d, d * d])
    point = _ratio(moments.sum(axis=0)[None, :], n)[0]
    if not np.isfinite(point):
        return point, math.nan, math.nan, n
    lo, hi = percentile_interval(_ratio(resampled_sums(moments, reps, seed), n))
    return float(point), float(lo), float(hi), n


def _ratio(sums: np.ndarray, n: int) -> np.ndarray:
    """(var a + var b) / var(b - a) from rows of sums (a, a², b, b², d, d²) over n games."""
    def var(s1, s2):
        return (s2 - s1 * s1 / n) / (n - 1)

    unpaired = var(sums[:, 0], sums[:, 1]) + var(sums[:, 2], sums[:, 3])
    paired = var(sums[:, 4], sums[:, 5])
    with np.errstate(divide="ignore", invalid="ignore"):
        # both runs identical game by game: the paired difference has no variance at all
        return np.where(paired > 1e-12 * np.maximum(unpaired, 1e-300), unpaired / paired,
                        np.where(unpaired > 0, np.inf, np.nan))


def pairing_gain(a, b, reps: int = GAIN_REPS, seed: int = BOOT_SEED) -> pd.DataFrame:
    """The pairing gain of every metric between runs a and b (each with `.games`, `.seats`):
    index metric; gain, its 95% interval lo, hi, and n (games both runs played). Two runs on disk
    with the same batches are read side by side part by part (`_gain_by_parts`)."""
    from sim.analysis.tables import same_batches

    if same_batches(a, b):
        return _gain_by_parts(a, b, reps, seed)
    return gain_table(*(influence_values(*_read(run)) for run in (a, b)), reps, seed)


def _gain_by_parts(a, b, reps: int, seed: int) -> pd.DataFrame:
    """`gain_table` of the two runs' influence values in three passes over their parts, each part
    reduced to sums: the runs' centres; the games where both runs have each metric; the moments
    (a, a², b, b², d, d²) of those games (`GameSums`: totals and the bootstrap's units)."""
    from sim.analysis.tables import run_parts

    def pairs():
        (_, parts_a), (_, parts_b) = (run_parts(r, GAME_COLUMNS, SEAT_COLUMNS) for r in (a, b))
        return zip(parts_a, parts_b, strict=True)

    centres = (Centres(), Centres())
    for part_a, part_b in pairs():
        for c, (games, seats) in zip(centres, (part_a, part_b), strict=True):
            c.add(games, seats)

    def influences():
        for (ga, sa), (gb, sb) in pairs():
            za, zb = influence_values(ga, sa, centres[0]), influence_values(gb, sb, centres[1])
            if not za.index.equals(zb.index):
                raise ValueError("paired runs must hold the same game ids part by part")
            metrics = [m for m in za.columns if m in zb.columns]
            yield metrics, za, zb

    both: dict[str, int] = {}
    order: list[str] = []
    for metrics, za, zb in influences():
        order += [m for m in metrics if m not in order]
        for m in metrics:
            both[m] = both.get(m, 0) + int((za[m].notna() & zb[m].notna()).sum())
    sums = {m: GameSums(both[m]) for m in order}
    for metrics, za, zb in influences():
        for m in metrics:
            x, y = za[m].to_numpy(float), zb[m].to_numpy(float)
            keep = ~(np.isnan(x) | np.isnan(y))
            x, y = x[keep], y[keep]
            d = y - x
            sums[m].add(pd.DataFrame(np.column_stack([x, x * x, y, y * y, d, d * d])))
    rows = {m: _gain_of_sums(sums[m], reps, seed) for m in order}
    table = pd.DataFrame.from_dict(rows, orient="index", columns=COLUMNS)
    table.index.name = "metric"
    table["n"] = table["n"].astype(int)
    return table


def _gain_of_sums(sums: GameSums, reps: int, seed: int) -> tuple:
    """`_gain_with_interval` from the moments' sums over the games."""
    n = sums.n_games
    if n < 3:
        return math.nan, math.nan, math.nan, n
    columns = list(range(6))
    point = _ratio(np.array([[sums.total[c] for c in columns]]), n)[0]
    if not np.isfinite(point):
        return point, math.nan, math.nan, n
    units = np.column_stack([sums.unit_sums[c] for c in columns])
    lo, hi = percentile_interval(_ratio(resampled_sums(units, reps, seed), n))
    return float(point), float(lo), float(hi), n


def _read(run) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The run's games and the seat columns the influence values read (not every counter)."""
    from sim.analysis.tables import seat_columns

    return run.games, seat_columns(run, SEAT_COLUMNS)


def gain_text(gain: float, lo: float, hi: float) -> str:
    """A gain as printed: `x2.41 [2.30, 2.53]`, or `-` when not measured."""
    if gain is None or not np.isfinite(gain):
        return "inf" if gain == math.inf else "-"
    if not (np.isfinite(lo) and np.isfinite(hi)):
        return f"x{gain:.2f}"
    return f"x{gain:.2f} [{lo:.2f}, {hi:.2f}]"


def with_gain(table: pd.DataFrame, gains: pd.DataFrame) -> pd.DataFrame:
    """A comparison table (index metric) with the columns pairing_gain, pairing_lo, pairing_hi."""
    part = gains.reindex(table.index)
    return table.assign(pairing_gain=part["gain"], pairing_lo=part["lo"], pairing_hi=part["hi"])
