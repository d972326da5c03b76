"""Headline metrics of a run: one row per metric with its 95% interval, and their comparison
between two runs (paired game by game when both runs played the same games).

    from sim.analysis.headline import headline, game_values, paired_difference, compare
    headline(run.games, run.seats)            # index: metric; columns: value, lo, hi, n
    compare(run_a, run_b)                      # a, b, diff = b - a, and its interval

Definitions (docs/reports.md has them all):
    balance              1 - seat_gap
    seat_gap             largest minus smallest win rate among seats (rates over all games),
                         corrected for the upward bias noise gives a largest gap
    seat0_advantage      seat 0's win rate minus the average seat's
    turns, lead_changes, margin, mean_fortune, affranchi_deaths     means over games
    lead_changes_per_turn  lead changes / (turns - 1), mean over games (Ludii's lead change)
    cap_rate, comeback_rate, tiebreak_rate                          shares of games
    completion           1 - cap_rate
    winrate:<strategy>   wins / seats of that strategy (a shared win counts for every sharer)
    winrate_max, strategy_gap   the best strategy's win rate, best minus worst (bias-corrected)

Intervals: Wilson for shares, normal for means; a strategy's win rate and the seat advantage
with standard errors clustered by game (a game's seats are not independent); gaps and maxima
by `sim.analysis.extremes` on a seeded bootstrap over games (n is the games, or the seats for a
strategy's win rate).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable

import numpy as np
import pandas as pd

from sim.analysis.extremes import extreme
from sim.shared.game import every
from sim.analysis.stats import (BOOT_REPS, BOOT_SEED, MAX_UNITS, Z95, mean_interval, percentile_interval,
                                resampled_sums, wilson)

COLUMNS = ["value", "lo", "hi", "n"]
# the endings no tie-break decided, as each game declares them (NYK-E1: fortune, last standing;
# Pig: the goal, the score at the cap); every other `decided_by` label needed one
DECIDED_PLAINLY = tuple(dict.fromkeys(label for game in every() for label in game.plain_decisions))
# metrics that are a mean over games (game_values has one column each); the rest are bootstrapped
MEAN_METRICS = ("turns", "cap_rate", "lead_changes", "lead_changes_per_turn", "comeback_rate", "margin",
                "tiebreak_rate", "mean_fortune", "affranchi_deaths")
SHARE_METRICS = ("cap_rate", "comeback_rate", "tiebreak_rate")  # Wilson intervals
ORDER = ("balance", "seat_gap", "seat0_advantage", "turns", "cap_rate", "completion",
         "lead_changes", "lead_changes_per_turn", "comeback_rate", "margin", "tiebreak_rate", "mean_fortune")
TAIL = ("winrate_max", "strategy_gap", "affranchi_deaths")

DEFINITIONS = {
    "balance": "1 - seat_gap: 1 when every seat wins equally often.",
    "seat_gap": "Largest minus smallest win rate among the seats (seat 1 plays first in turn 1's bidding "
                "order), over all games, minus the part noise alone adds (bias-corrected: slightly "
                "negative when the seats differ less than noise).",
    "seat0_advantage": "Seat 1's win rate minus the average seat's (positive: the first seat wins more; the "
                       "id keeps the stored 0-based index).",
    "turns": "Mean turns per game.",
    "cap_rate": "Share of games stopped by the engine's turn cap instead of ending by the rules.",
    "completion": "1 - cap_rate: share of games that ended by the rules.",
    "lead_changes": "Mean times per game the leader (largest fortune after a turn; a tie keeps the "
                    "previous leader) changed.",
    "lead_changes_per_turn": "Mean over games of lead changes / (turns - 1): the share of consecutive "
                             "turns whose leader differs (Ludii's lead change).",
    "comeback_rate": "Share of games whose winner was behind at mid-game (after turn turns // 2: the "
                     "best other fortune exceeded the winner's).",
    "margin": "Mean winner's money minus the best other player's at the end, in dollars.",
    "tiebreak_rate": "Share of games whose first place was not settled by fortune or by being the last "
                     "player standing (a tie-break by henchmen, their values, a draw, or a shared win).",
    "mean_fortune": "Mean final fortune of all seats, in dollars.",
    "winrate:<strategy>": "Wins over seats of that strategy (a shared win counts for every sharer).",
    "winrate_max": "The best strategy's win rate, minus the part noise alone adds (bias-corrected).",
    "strategy_gap": "Best minus worst strategy win rate, minus the part noise alone adds (bias-corrected).",
    "affranchi_deaths": "Mean per game of seats whose affranchi died (alive is False at the end).",
}


def definition(metric: str) -> str:
    """The definition of a headline metric (`winrate:<s>` shares one)."""
    key = "winrate:<strategy>" if metric.startswith("winrate:") and metric not in DEFINITIONS else metric
    return DEFINITIONS.get(key, "")


# --- one value per game ---------------------------------------------------------------------------

def game_values(games: pd.DataFrame, seats: pd.DataFrame) -> pd.DataFrame:
    """Per game (index game_id), every headline metric that is a mean over games, and
    `winrate:<s>`: the share of strategy s's seats in that game that won (NaN if s did not play).
    Two runs of the same seed and game ids can then be compared game by game."""
    games = _sorted_games(games)
    out = pd.DataFrame(index=pd.Index(games["game_id"].to_numpy(), name="game_id"))
    if "turns" in games:
        out["turns"] = games["turns"].to_numpy(float)
    if "cap_hit" in games:
        out["cap_rate"] = games["cap_hit"].to_numpy(float)
    if "lead_changes" in games:
        out["lead_changes"] = games["lead_changes"].to_numpy(float)
        possible = np.maximum(games["turns"].to_numpy(float) - 1, 1)
        out["lead_changes_per_turn"] = out["lead_changes"].to_numpy() / possible
    if "winner_deficit_mid" in games:
        out["comeback_rate"] = (games["winner_deficit_mid"].to_numpy() > 0).astype(float)
    if "margin" in games:
        out["margin"] = games["margin"].to_numpy(float)
    if "decided_by" in games:
        out["tiebreak_rate"] = (~games["decided_by"].astype(str).isin(DECIDED_PLAINLY)).to_numpy(float)
    # per-game sums by position (bincount), not a groupby over every seat: a few arrays of the
    # seat table's length, where a (game, strategy) groupby holds many
    pos = out.index.get_indexer(seats["game_id"])
    keep = pos >= 0
    everyone = np.ones(len(seats), dtype=bool)
    out["mean_fortune"] = _per_game_mean(pos, keep, everyone, seats["fortune"].to_numpy(float), len(out))
    if "alive" in seats:
        dead = (~seats["alive"].astype(bool)).to_numpy(float)
        out["affranchi_deaths"] = np.where(_per_game_count(pos, keep, len(out)) > 0,
                                           np.bincount(pos[keep], dead[keep], minlength=len(out)), np.nan)
    won = seats["won"].to_numpy(float)
    for name, mask in strategy_masks(seats):
        out[f"winrate:{name}"] = _per_game_mean(pos, keep, mask, won, len(out))
    return out


def _per_game_count(pos, keep, n: int) -> np.ndarray:
    return np.bincount(pos[keep], minlength=n)


def _per_game_mean(pos, keep, mask, values, n: int) -> np.ndarray:
    """Mean of `values` over each game's rows in `mask` (NaN for a game with none)."""
    rows = keep & mask
    count = np.bincount(pos[rows], minlength=n)
    total = np.bincount(pos[rows], values[rows], minlength=n)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(count > 0, total / np.maximum(count, 1), np.nan)


def strategy_masks(seats: pd.DataFrame):
    """(name, rows of that strategy) for each strategy in the run's order, by category codes
    (no string per seat)."""
    column = seats["strategy"]
    if isinstance(column.dtype, pd.CategoricalDtype):
        codes = column.cat.codes.to_numpy()
        at = {str(c): i for i, c in enumerate(column.cat.categories)}
        return [(name, codes == at[name]) for name in strategy_names(seats)]
    text = column.astype(str).to_numpy()
    return [(name, text == name) for name in strategy_names(seats)]


def strategy_names(seats: pd.DataFrame) -> list[str]:
    """Strategy names in the run's order (categories: order of first appearance)."""
    column = seats["strategy"]
    if isinstance(column.dtype, pd.CategoricalDtype):
        present = set(column.unique())
        return [str(c) for c in column.cat.categories if c in present]
    return [str(c) for c in pd.unique(column)]


# --- bootstrapped metrics: statistics of per-game sums ----------------------------------------------

class _Sums:
    """Column sums of a resample (rows: resamples), read by column name."""

    def __init__(self, columns, sums: np.ndarray):
        self._at = {c: i for i, c in enumerate(columns)}
        self._sums = np.atleast_2d(sums)

    def __getitem__(self, name) -> np.ndarray:
        return self._sums[:, self._at[name]]

    def has(self, name) -> bool:
        return name in self._at


def _per_game_sums(games: pd.DataFrame, seats: pd.DataFrame) -> pd.DataFrame:
    """What the seat and strategy metrics are built from, one row per game: wins and seats of
    each seat number and strategy."""
    games = _sorted_games(games)
    index = pd.Index(games["game_id"].to_numpy(), name="game_id")
    pos = index.get_indexer(seats["game_id"])
    keep = pos >= 0
    strategies = strategy_masks(seats[["strategy"]][keep])
    pos = pos[keep]
    n = len(index)
    won = seats["won"].to_numpy(float)[keep]
    cols = {}
    seat_no = seats["seat"].to_numpy()[keep]
    for j in np.unique(seat_no):
        mask = seat_no == j
        cols[f"seat_won:{j}"] = np.bincount(pos[mask], won[mask], minlength=n)
        cols[f"seat_n:{j}"] = np.bincount(pos[mask], minlength=n).astype(float)
    for name, mask in strategies:
        cols[f"strategy_won:{name}"] = np.bincount(pos[mask], won[mask], minlength=n)
        cols[f"strategy_n:{name}"] = np.bincount(pos[mask], minlength=n).astype(float)
    return pd.DataFrame(cols, index=index)


def _rates(s: _Sums, kind: str, keys) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.stack([s[f"{kind}_won:{k}"] / s[f"{kind}_n:{k}"] for k in keys], axis=1)


def _spread(rates: np.ndarray) -> np.ndarray:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # a resample may lose a whole group
        return np.nanmax(rates, axis=1) - np.nanmin(rates, axis=1)


def _nanmax(rates: np.ndarray) -> np.ndarray:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return np.nanmax(rates, axis=1)


def _statistics(columns) -> dict[str, Callable[[_Sums], np.ndarray]]:
    """The plug-in seat and strategy metrics this run supports, as functions of column sums (a
    paired comparison bootstraps their differences)."""
    seat_keys = [c.split(":", 1)[1] for c in columns if c.startswith("seat_n:")]
    names = [c.split(":", 1)[1] for c in columns if c.startswith("strategy_n:")]
    stats = {}
    if seat_keys:
        stats["seat_gap"] = lambda s: _spread(_rates(s, "seat", seat_keys))
        stats["balance"] = lambda s: 1 - _spread(_rates(s, "seat", seat_keys))
    if "0" in seat_keys:
        stats["seat0_advantage"] = lambda s: _advantage(_rates(s, "seat", seat_keys), seat_keys.index("0"))
    if names:
        stats["winrate_max"] = lambda s: _nanmax(_rates(s, "strategy", names))
        stats["strategy_gap"] = lambda s: _spread(_rates(s, "strategy", names))
        for name in names:
            stats[f"winrate:{name}"] = lambda s, k=name: _rates(s, "strategy", [k])[:, 0]
    return stats


def _advantage(rates: np.ndarray, seat: int) -> np.ndarray:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return rates[:, seat] - np.nanmean(rates, axis=1)


def _keys(columns, kind: str) -> list[str]:
    return [c.split(":", 1)[1] for c in columns if c.startswith(f"{kind}_n:")]


def sum_metrics(parts: pd.DataFrame, reps: int = BOOT_REPS, seed: int = BOOT_SEED) -> dict[str, tuple]:
    """(value, lo, hi, n, se) of every metric built from the per-game wins and seats of each seat
    number and strategy (`parts`: one row per game, columns `seat_won:<j>`, `seat_n:<j>`,
    `strategy_won:<s>`, `strategy_n:<s>`): gaps and maxima bias-corrected with intervals from
    `sim.analysis.extremes`, seat 0's advantage and each strategy's win rate with standard errors
    clustered by game."""
    sums = GameSums(len(parts))
    sums.add(parts)
    return sums.metrics(list(parts.columns), reps, seed)


class GameSums:
    """What the seat and strategy metrics need of the per-game sums (`_per_game_sums` rows), added
    part by part in game order: each column's total, its sums over the bootstrap's units (the games
    themselves, or `stats.MAX_UNITS` blocks of consecutive games in a larger run: `stats.blocks`),
    the sums of products of every two columns over games (the clustered standard errors) and the
    games where each column is not 0. Its memory does not grow with the games."""

    def __init__(self, n_games: int):
        self.n_games = n_games
        self.units = min(n_games, MAX_UNITS)
        self.seen = 0
        self.unit_sums: dict[str, np.ndarray] = {}
        self.total: dict[str, float] = {}
        self.cross: dict[tuple[str, str], float] = {}
        self.nonzero: dict[str, int] = {}

    def add(self, frame: pd.DataFrame) -> None:
        """The next games' rows (in game order, after those added before)."""
        position = self.seen + np.arange(len(frame))
        self.seen += len(frame)
        if self.seen > self.n_games:
            raise ValueError(f"more games added ({self.seen}) than announced ({self.n_games})")
        unit = position if self.n_games <= MAX_UNITS else position * MAX_UNITS // self.n_games
        names = list(frame.columns)
        matrix = frame.to_numpy(float)
        for i, name in enumerate(names):
            x = matrix[:, i]
            if name not in self.unit_sums:
                self.unit_sums[name] = np.zeros(self.units)
                self.total[name], self.nonzero[name] = 0.0, 0
            self.unit_sums[name] += np.bincount(unit, x, minlength=self.units)
            self.total[name] += float(x.sum())
            self.nonzero[name] += int(np.count_nonzero(x))
        gram = matrix.T @ matrix
        for i, a in enumerate(names):
            for j, b in enumerate(names):
                self.cross[(a, b)] = self.cross.get((a, b), 0.0) + float(gram[i, j])

    def _cross(self, a: str, b: str) -> float:
        return self.cross.get((a, b), 0.0)

    def metrics(self, columns: list[str], reps: int = BOOT_REPS, seed: int = BOOT_SEED) -> dict[str, tuple]:
        """`sum_metrics` of the games added, its columns in the order `columns`."""
        units = np.column_stack([self.unit_sums[c] for c in columns]) if columns else np.zeros((self.units, 0))
        full = _Sums(columns, np.array([self.total[c] for c in columns]))
        boot = _Sums(columns, resampled_sums(units, reps, seed))
        rows = {}
        seat_keys, names = _keys(columns, "seat"), _keys(columns, "strategy")
        if seat_keys:
            gap = extreme(_rates(full, "seat", seat_keys)[0], _rates(boot, "seat", seat_keys), "range")
            rows["seat_gap"] = (gap[0], gap[1], gap[2], self.n_games, gap[3])
            rows["balance"] = (1 - gap[0], 1 - gap[2], 1 - gap[1], self.n_games, gap[3])
        if "0" in seat_keys:
            rows["seat0_advantage"] = self._clustered_advantage(seat_keys, "0")
        for name in names:
            won, n = f"strategy_won:{name}", f"strategy_n:{name}"
            rows[f"winrate:{name}"] = clustered_rate_of_sums(
                self.total[won], self.total[n], self._cross(won, won), self._cross(won, n), self._cross(n, n),
                self.nonzero[n])
        if names:
            rates, boot_rates = _rates(full, "strategy", names)[0], _rates(boot, "strategy", names)
            top = extreme(rates, boot_rates, "max")
            rows["winrate_max"] = (top[0], top[1], top[2], self.n_games, top[3])
            gap = extreme(rates, boot_rates, "range")
            rows["strategy_gap"] = (gap[0], gap[1], gap[2], self.n_games, gap[3])
        return rows

    def _clustered_advantage(self, seat_keys: list[str], seat: str) -> tuple:
        """Seat `seat`'s win rate minus the mean of the seats' rates, with a normal interval on the
        standard error clustered by game (delta method on the ratios): each game's contribution is
        linear in its wins and seats, so its sum of squares comes from the sums of products."""
        won = [f"seat_won:{k}" for k in seat_keys]
        n = [f"seat_n:{k}" for k in seat_keys]
        totals = np.array([self.total[c] for c in n])
        rates = np.array([self.total[c] for c in won]) / totals
        j = seat_keys.index(seat)
        weight = (np.arange(len(seat_keys)) == j) - 1 / len(seat_keys)
        # a game's contrast: sum over seats k of weight_k (won_k - rate_k n_k) / total_k
        coef = dict(zip(won + n, np.concatenate([weight / totals, -weight * rates / totals]), strict=True))
        square = sum(coef[a] * coef[b] * self._cross(a, b) for a in coef for b in coef)
        g = self.n_games
        se = math.sqrt(max(square, 0.0) * g / max(g - 1, 1))
        value = float(rates[j] - rates.mean())
        return value, value - Z95 * se, value + Z95 * se, g, se


def clustered_rate(won: np.ndarray, seats: np.ndarray) -> tuple:
    """A win rate over seats (sum won / sum seats over games) with its standard error clustered by
    game (the seats of one strategy in one game are not independent) and a Wilson interval on the
    effective number of seats p(1 - p) / se^2 (the seats themselves when the rate is 0 or 1).
    Returns (rate, lo, hi, seats, se)."""
    won, seats = np.asarray(won, dtype=float), np.asarray(seats, dtype=float)
    return clustered_rate_of_sums(float(won.sum()), float(seats.sum()), float(won @ won), float(won @ seats),
                                  float(seats @ seats), int((seats > 0).sum()))


def clustered_rate_of_sums(won: float, seats: float, won_sq: float, won_seats: float, seats_sq: float,
                           games: int) -> tuple:
    """`clustered_rate` from sums over games: of the wins, the seats, their squares and products,
    and the games the group played. The sum of squared influences (won - p seats) / total expands
    into these sums."""
    if seats == 0:
        return math.nan, math.nan, math.nan, 0, math.nan
    p = won / seats
    square = max(won_sq - 2 * p * won_seats + p * p * seats_sq, 0.0) / seats ** 2
    se = math.sqrt(square * games / max(games - 1, 1))
    effective = p * (1 - p) / se ** 2 if se > 0 else seats
    lo, hi = wilson(p * effective, effective)
    return p, float(lo), float(hi), int(seats), se


# --- the headline table -----------------------------------------------------------------------------

def estimates(games: pd.DataFrame, seats: pd.DataFrame, reps: int = BOOT_REPS,
              seed: int = BOOT_SEED) -> pd.DataFrame:
    """`headline` with one more column, `se` (the standard error behind each interval)."""
    return estimates_of_parts(len(games), [(games, seats)], reps, seed)


# the columns the headline metrics read (those a run has)
GAME_COLUMNS = ("game_id", "turns", "cap_hit", "lead_changes", "winner_deficit_mid", "margin", "decided_by")
SEAT_COLUMNS = ("game_id", "seat", "strategy", "fortune", "alive", "won")


def run_estimates(run, reps: int = BOOT_REPS, seed: int = BOOT_SEED) -> pd.DataFrame:
    """`estimates` of a run, read part by part when it is on disk (the memory does not grow
    with the games: `sim.analysis.tables.run_parts`)."""
    from sim.analysis.tables import run_parts

    n_games, parts = run_parts(run, GAME_COLUMNS, SEAT_COLUMNS)
    return estimates_of_parts(n_games, parts, reps, seed)


def estimates_of_parts(n_games: int, parts, reps: int = BOOT_REPS, seed: int = BOOT_SEED) -> pd.DataFrame:
    """`estimates` of a run given as (games, seats) parts whose games follow each other in game id
    order (n_games in all): each part is reduced to sums (`GameSums`, `_Moments`) and dropped."""
    moments, sums, names = _Moments(), GameSums(n_games), _StrategyOrder()
    last_id = None
    for games, seats in parts:
        games = _sorted_games(games)
        ids = games["game_id"].to_numpy()
        if len(ids) and last_id is not None and ids[0] <= last_id:
            raise ValueError("the parts of a run must follow each other in game id order")
        last_id = ids[-1] if len(ids) else last_id
        moments.add(game_values(games, seats))
        sums.add(_per_game_sums(games, seats))
        names.add(seats)
    rows = {}
    for name in MEAN_METRICS:
        if name not in moments.count:
            continue
        if name in SHARE_METRICS:
            k = moments.nansum[name]
            p = k / n_games if n_games else math.nan
            lo, hi = wilson(k, n_games)
            rows[name] = (p, float(lo), float(hi), n_games, math.sqrt(p * (1 - p) / n_games))
        else:
            mean, lo, hi, n = moments.interval(name)
            rows[name] = (mean, lo, hi, n, (hi - mean) / Z95 if n > 1 else math.nan)
    if "cap_rate" in rows:
        p, lo, hi, n, se = rows["cap_rate"]
        rows["completion"] = (1 - p, 1 - hi, 1 - lo, n, se)
    strategies = names.names()
    seat_keys = sorted(_keys(sums.total, "seat"), key=int)
    columns = [f"seat_{kind}:{j}" for j in seat_keys for kind in ("won", "n")]
    columns += [f"strategy_{kind}:{s}" for s in strategies for kind in ("won", "n")]
    rows.update(sums.metrics(columns, reps, seed))
    order = [m for m in ORDER if m in rows]
    order += [f"winrate:{s}" for s in strategies]
    order += [m for m in TAIL if m in rows]
    table = pd.DataFrame([rows[m] for m in order], index=pd.Index(order, name="metric"),
                         columns=COLUMNS + ["se"])
    table["n"] = table["n"].astype(int)
    return table


class _Moments:
    """Per column of per-game values, merged part by part: the values that are not NaN, their mean
    and sum of squared deviations (Chan et al.'s pairwise update), and their sum."""

    def __init__(self):
        self.count: dict[str, int] = {}
        self.mean: dict[str, float] = {}
        self.square: dict[str, float] = {}
        self.nansum: dict[str, float] = {}

    def add(self, values: pd.DataFrame) -> None:
        for name in values.columns:
            x = values[name].to_numpy(float)
            x = x[~np.isnan(x)]
            n, mean = len(x), float(x.mean()) if len(x) else 0.0
            square = float(np.sum((x - mean) ** 2))
            before = self.count.get(name, 0)
            total = before + n
            if before == 0:
                self.mean[name], self.square[name] = mean, square
            elif n:
                delta = mean - self.mean[name]
                self.mean[name] += delta * n / total
                self.square[name] += square + delta * delta * before * n / total
            self.count[name] = total
            self.nansum[name] = self.nansum.get(name, 0.0) + float(x.sum())

    def interval(self, name: str) -> tuple[float, float, float, int]:
        """`stats.mean_interval` of the column's values."""
        n = self.count[name]
        if n == 0:
            return math.nan, math.nan, math.nan, 0
        mean = self.mean[name]
        if n == 1:
            return mean, math.nan, math.nan, 1
        half = Z95 * math.sqrt(self.square[name] / (n - 1)) / math.sqrt(n)
        return mean, mean - half, mean + half, n


class _StrategyOrder:
    """The strategies of a run's parts in the run's order (`strategy_names` of the whole table)."""

    def __init__(self):
        self.seen: list[str] = []
        self.categories: list[str] = []

    def add(self, seats: pd.DataFrame) -> None:
        column = seats["strategy"]
        if isinstance(column.dtype, pd.CategoricalDtype):
            self.categories += [str(c) for c in column.cat.categories if str(c) not in self.categories]
        self.seen += [n for n in strategy_names(seats) if n not in self.seen]

    def names(self) -> list[str]:
        if self.categories and all(n in self.categories for n in self.seen):
            return sorted(self.seen, key=self.categories.index)
        return list(self.seen)


def headline(games: pd.DataFrame, seats: pd.DataFrame, reps: int = BOOT_REPS,
             seed: int = BOOT_SEED) -> pd.DataFrame:
    """Every headline metric of a run's tables: index metric, columns value, lo, hi, n (95%).
    Deterministic: the bootstrap is seeded."""
    return estimates(games, seats, reps, seed)[COLUMNS]


# --- comparing two runs -------------------------------------------------------------------------------

def paired_difference(a_values: pd.DataFrame, b_values: pd.DataFrame) -> pd.DataFrame:
    """Per metric (columns both tables share), the mean over common games of b - a with its 95%
    normal interval, paired by game_id (n: games where both values exist)."""
    common = a_values.index.intersection(b_values.index)
    rows = {}
    for name in [c for c in a_values.columns if c in b_values.columns]:
        d = (b_values.loc[common, name] - a_values.loc[common, name]).to_numpy(float)
        rows[name] = mean_interval(d)
    table = pd.DataFrame.from_dict(rows, orient="index", columns=["diff", "lo", "hi", "n"])
    table.index.name = "metric"
    return table


def compare(a, b, reps: int = BOOT_REPS, seed: int = BOOT_SEED) -> pd.DataFrame:
    """Every headline metric of runs a and b side by side, with diff = b - a and its 95% interval.

    Paired (game by game, common random numbers) when both runs hold the same game ids and
    seed; otherwise independent (standard errors added in quadrature). Runs on disk are read
    part by part (`sim.analysis.tables.run_parts`)."""
    ea, eb = run_estimates(a, reps, seed), run_estimates(b, reps, seed)
    paired = is_paired(a, b)
    if paired:
        diffs = _paired_diffs(a, b, reps, seed)
    else:
        diffs = _independent_diffs(ea, eb)
    metrics = list(ea.index) + [m for m in eb.index if m not in ea.index]
    table = pd.DataFrame(index=pd.Index(metrics, name="metric"))
    for side, est in (("a", ea), ("b", eb)):
        table[side] = est["value"].reindex(metrics)
        table[f"{side}_lo"] = est["lo"].reindex(metrics)
        table[f"{side}_hi"] = est["hi"].reindex(metrics)
    table["diff"] = table["b"] - table["a"]
    table["lo"] = diffs["lo"].reindex(metrics)
    table["hi"] = diffs["hi"].reindex(metrics)
    table["n_a"] = ea["n"].reindex(metrics).astype("Int64")
    table["n_b"] = eb["n"].reindex(metrics).astype("Int64")
    table["paired"] = paired
    return table


def is_paired(a, b) -> bool:
    """Both runs played the same game ids from the same seed (so game i saw the same dice draws)."""
    from sim.analysis.tables import game_ids

    if a.manifest.get("seed") != b.manifest.get("seed"):
        return False
    ids_a, ids_b = game_ids(a), game_ids(b)
    return len(ids_a) == len(ids_b) and bool(np.array_equal(np.sort(ids_a), np.sort(ids_b)))


def _independent_diffs(ea: pd.DataFrame, eb: pd.DataFrame) -> pd.DataFrame:
    diff = eb["value"] - ea["value"]
    se = np.sqrt(ea["se"] ** 2 + eb["se"] ** 2)
    return pd.DataFrame({"lo": diff - Z95 * se, "hi": diff + Z95 * se}).dropna(how="all")


def _paired_diffs(a, b, reps: int, seed: int) -> pd.DataFrame:
    """Means: per-game differences; gaps, maxima, slopes and win rates: a paired bootstrap (the
    same resampled games for both runs). The runs are read side by side, part by part, and reduced
    to sums: the per-game differences' moments and each run's `GameSums`."""
    n_games, pairs = _paired_parts(a, b)
    moments, sums_a, sums_b = _Moments(), GameSums(n_games), GameSums(n_games)
    columns_a, columns_b = _ColumnOrder(), _ColumnOrder()
    for (games_a, seats_a), (games_b, seats_b) in pairs:
        values_a, values_b = game_values(games_a, seats_a), game_values(games_b, seats_b)
        if not values_a.index.equals(values_b.index):
            raise ValueError("paired runs must hold the same game ids part by part")
        shared = [c for c in values_a.columns if c in values_b.columns and c in MEAN_METRICS]
        moments.add(values_b[shared] - values_a[shared])
        for sums, order, games, seats in ((sums_a, columns_a, games_a, seats_a), (sums_b, columns_b, games_b, seats_b)):
            per_game = _per_game_sums(games, seats)
            sums.add(per_game)
            order.add(per_game.columns, seats)
    rows = {}
    for m in MEAN_METRICS:
        if m in moments.count:
            _, lo, hi, _ = moments.interval(m)
            rows[m] = (lo, hi)
    if "cap_rate" in rows:
        lo, hi = rows["cap_rate"]
        rows["completion"] = (0.0 - hi, 0.0 - lo)
    ca, cb = columns_a.columns(), columns_b.columns()
    stats_a, stats_b = _statistics(ca), _statistics(cb)
    units = np.hstack([np.column_stack([s.unit_sums[c] for c in cols]) for s, cols in ((sums_a, ca), (sums_b, cb))])
    boot = resampled_sums(units, reps, seed)
    sa, sb = _Sums(ca, boot[:, :len(ca)]), _Sums(cb, boot[:, len(ca):])
    full_a = _Sums(ca, np.array([sums_a.total[c] for c in ca]))
    full_b = _Sums(cb, np.array([sums_b.total[c] for c in cb]))
    for name in stats_a.keys() & stats_b.keys():
        samples = stats_b[name](sb) - stats_a[name](sa)
        if np.allclose(samples, samples[0], equal_nan=True):
            point = float(stats_b[name](full_b)[0] - stats_a[name](full_a)[0])
            rows[name] = (point, point)  # no spread: the runs agree game by game
        else:
            rows[name] = percentile_interval(samples)
    return pd.DataFrame.from_dict(rows, orient="index", columns=["lo", "hi"])


class _ColumnOrder:
    """The `_per_game_sums` columns of a run given part by part, in the order of its whole table:
    seat numbers ascending, then strategies in the run's order."""

    def __init__(self):
        self.seat_keys: set[str] = set()
        self.strategies = _StrategyOrder()

    def add(self, columns, seats: pd.DataFrame) -> None:
        self.seat_keys |= set(_keys(columns, "seat"))
        self.strategies.add(seats)

    def columns(self) -> list[str]:
        out = [f"seat_{kind}:{j}" for j in sorted(self.seat_keys, key=int) for kind in ("won", "n")]
        return out + [f"strategy_{kind}:{s}" for s in self.strategies.names() for kind in ("won", "n")]


def _paired_parts(a, b):
    """(games, pairs of parts): the two runs' (games, seats) parts side by side, each pair holding
    the same games; part by part when both runs are on disk with the same batches, else whole."""
    from sim.analysis.tables import run_parts, same_batches

    games = GAME_COLUMNS + ("n_players",)
    if same_batches(a, b):
        (n, parts_a), (_, parts_b) = (run_parts(r, games, SEAT_COLUMNS) for r in (a, b))
        return n, zip(parts_a, parts_b, strict=True)
    return len(a.games), iter([((a.games, a.seats), (b.games, b.seats))])


def _sorted_games(games: pd.DataFrame) -> pd.DataFrame:
    ids = games["game_id"].to_numpy()
    if len(ids) > 1 and not np.all(ids[1:] > ids[:-1]):
        return games.sort_values("game_id", kind="stable")
    return games
