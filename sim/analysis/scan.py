"""What the report's sections need of a run, reduced part by part: each Parquet part (one batch
of games, with its seats and turns) is read, reduced to sums, counts of values and moments, and
dropped, so a report's memory does not grow with the games (docs/reports.md, "Memory: large
runs"). Games never span parts, so every per-game quantity is computed inside its part.

    scan = GenericScan(run_parts ...)        # the generic sections' sums, one pass
    ValueCounts().add(values).quantile(0.5)  # a quantile of whole numbers from their counts

What is kept: win and seat counts by group with the sums of products a clustered standard error
needs, the moments of per-game differences and means (Chan's update, `headline._Moments`), the
counts of each value of whole-number columns (exact quantiles, medians, minima and maxima), the
bootstrap's units (`headline.GameSums`) and, for the seat permutation test, the count of games
of each seating and outcome (plus the games' own order while a run is small enough to permute).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from sim.analysis.counts import ValueCounts
from sim.analysis.headline import GameSums, _Moments, _StrategyOrder, clustered_rate_of_sums
from sim.analysis.stats import mean_interval, wilson

class FirstSeen:
    """Labels in the order they first appear, part after part (a `groupby(sort=False)` order)."""

    def __init__(self):
        self.order: list = []
        self._seen: set = set()

    def add(self, labels) -> None:
        for label in labels:
            if label not in self._seen:
                self._seen.add(label)
                self.order.append(label)


class Counter:
    """Counts by label in first-seen order (`value_counts` of a column read part by part)."""

    def __init__(self):
        self.counts: dict = {}

    def add(self, values) -> None:
        keys, counts = np.unique(np.asarray(values), return_counts=True)
        first = pd.unique(np.asarray(values))
        at = dict(zip(keys.tolist(), counts.tolist(), strict=True))
        for key in first.tolist():
            self.counts[key] = self.counts.get(key, 0) + at[key]

    def value_counts(self) -> pd.Series:
        """As `Series.value_counts()`: by count, largest first (ties in first-seen order)."""
        series = pd.Series(self.counts, dtype="int64")
        return series.sort_values(ascending=False, kind="stable")


# --- win rates by group, clustered by game ------------------------------------------------------------

class WinTally:
    """`fairness.win_rates(seats, keys)` part by part: per group the seats, the wins and the sums
    over games of wins², wins x seats and seats² (the clustered interval)."""

    def __init__(self, keys):
        self.keys = [keys] if isinstance(keys, str) else list(keys)
        self.parts: list[pd.DataFrame] = []

    def add(self, frame: pd.DataFrame) -> None:
        per_game = frame.groupby(self.keys + ["game_id"], observed=True)["won"].agg(["sum", "size"])
        w, n = per_game["sum"].astype(float), per_game["size"].astype(float)
        sums = pd.DataFrame({"wins": w, "seats": n, "ww": w * w, "wn": w * n, "nn": n * n,
                             "games": (n > 0).astype(float)})
        self.parts.append(sums.groupby(level=self.keys, observed=True).sum().reset_index())
        if len(self.parts) > 64:
            self.parts = [self._merged(sort=False)]

    def _merged(self, sort: bool = True) -> pd.DataFrame:
        frame = _concat_keys(self.parts, self.keys)
        return frame.groupby(self.keys, observed=True, sort=sort).sum().reset_index()

    def table(self) -> pd.DataFrame:
        sums = self._merged()
        grouped = sums[self.keys].copy()
        grouped["seats"] = sums["seats"].astype(np.int64)
        grouped["wins"] = sums["wins"].astype(int)
        grouped["win_rate"] = grouped["wins"] / grouped["seats"]
        rates = [clustered_rate_of_sums(r.wins, r.seats, r.ww, r.wn, r.nn, int(r.games)) for r in sums.itertuples()]
        grouped["lo"] = [r[1] for r in rates]
        grouped["hi"] = [r[2] for r in rates]
        return grouped

    def overall(self, key: str) -> pd.Series:
        sums = self._merged().groupby(key, observed=True)[["wins", "seats"]].sum()
        return sums["wins"] / sums["seats"]


def _concat_keys(parts: list[pd.DataFrame], keys) -> pd.DataFrame:
    """Concatenated small frames whose categorical keys keep one set of categories (parts may
    differ in which categories they saw)."""
    frame = pd.concat(parts, ignore_index=True)
    for key in keys:
        dtypes = [p[key].dtype for p in parts if key in p]
        cats = [d for d in dtypes if isinstance(d, pd.CategoricalDtype)]
        if cats and not isinstance(frame[key].dtype, pd.CategoricalDtype):
            categories = list(dict.fromkeys(c for d in cats for c in d.categories))
            frame[key] = pd.Categorical(frame[key], categories=categories)
    return frame


# --- per-game means by group -------------------------------------------------------------------------

class GroupedMoments:
    """Per key and column, the count, mean and sum of squared deviations of the values that are not
    NaN, merged part by part (Chan's update, as `headline._Moments`, for many keys at once)."""

    def __init__(self):
        self.count: pd.DataFrame | None = None
        self.mean: pd.DataFrame | None = None
        self.square: pd.DataFrame | None = None
        self.total: pd.DataFrame | None = None

    def add(self, keys, values: pd.DataFrame) -> None:
        grouped = values.groupby(np.asarray(keys), sort=False)
        total = grouped.sum()
        self.total = total if self.total is None else self.total.add(total, fill_value=0.0)
        count = grouped.count().astype(float)
        mean = grouped.mean().fillna(0.0)
        square = (grouped.var(ddof=0) * count).fillna(0.0)
        if self.count is None:
            self.count, self.mean, self.square = count, mean, square
            return
        index = self.count.index.append(count.index.difference(self.count.index))
        a_n, b_n = self.count.reindex(index, fill_value=0.0), count.reindex(index, fill_value=0.0)
        a_m, b_m = self.mean.reindex(index, fill_value=0.0), mean.reindex(index, fill_value=0.0)
        a_s, b_s = self.square.reindex(index, fill_value=0.0), square.reindex(index, fill_value=0.0)
        total = a_n + b_n
        safe = total.where(total > 0, 1.0)
        delta = b_m - a_m
        self.mean = a_m + delta * b_n / safe
        self.square = a_s + b_s + delta * delta * a_n * b_n / safe
        self.count = total

    def interval(self, key, column: str) -> tuple[float, float, float, int]:
        """`stats.mean_interval` of the values of one key and column."""
        n = int(self.count.loc[key, column]) if self.count is not None and key in self.count.index else 0
        if n == 0:
            return math.nan, math.nan, math.nan, 0
        mean = _mean(float(self.total.loc[key, column]), n)
        if n == 1:
            return mean, math.nan, math.nan, 1
        half = 1.959963984540054 * math.sqrt(float(self.square.loc[key, column]) / (n - 1)) / math.sqrt(n)
        return mean, mean - half, mean + half, n


class GameMeans:
    """`economy.by_game_mean(seats, column, by)` for several columns part by part: each game's
    mean of its seats in the group, then those means' moments over games (first-seen group order)."""

    def __init__(self, columns, by: str = "strategy"):
        self.columns, self.by = list(columns), by
        self.moments = GroupedMoments()
        self.order = FirstSeen()

    def add(self, frame: pd.DataFrame) -> None:
        per_game = frame.groupby(["game_id", self.by], observed=True)[self.columns].mean().reset_index()
        keys = per_game[self.by].to_numpy()
        self.order.add(pd.unique(keys))
        self.moments.add(keys, per_game[self.columns])

    def table(self, column: str) -> pd.DataFrame:
        rows = []
        for key in self.order.order:
            mean, lo, hi, n = self.moments.interval(key, column)
            rows.append({self.by: key, "mean": mean, "lo": lo, "hi": hi, "games": n})
        return pd.DataFrame(rows, columns=[self.by, "mean", "lo", "hi", "games"])


# --- sums by strategy ---------------------------------------------------------------------------------

class Totals:
    """Column sums and seat counts by strategy, merged part by part: what per-seat means, rates
    of sums and shares of seats need. Strategies come in first-seen order (a `groupby(sort=False)`)
    or sorted as a `groupby` sorts them (the categories' order)."""

    def __init__(self, columns):
        self.columns = list(columns)
        self.sums: pd.DataFrame | None = None
        self.order = FirstSeen()
        self.categories: list | None = None

    def add(self, seats: pd.DataFrame, extra: dict | None = None) -> Totals:
        frame = seats[[c for c in self.columns if c in seats]].astype(float)
        if extra:   # one concat, not a column at a time: a wide frame of many blocks warns and slows
            frame = pd.concat([frame, pd.DataFrame(extra, index=frame.index)], axis=1)
        strategy = seats["strategy"]
        if isinstance(strategy.dtype, pd.CategoricalDtype):
            seen = [str(c) for c in strategy.cat.categories]
            self.categories = list(dict.fromkeys((self.categories or []) + seen))
        key = strategy.astype(str).to_numpy()
        self.order.add(pd.unique(key))
        sums = frame.groupby(key, sort=False).sum()
        seats_of = pd.Series(key).value_counts().reindex(sums.index).to_numpy(float)
        sums = pd.concat([sums, pd.Series(seats_of, index=sums.index, name="_seats")], axis=1)
        self.sums = sums if self.sums is None else self.sums.add(sums, fill_value=0)
        return self

    def has(self, column: str) -> bool:
        return self.sums is not None and column in self.sums

    def names(self, sort: bool = False) -> list[str]:
        if not sort:
            return list(self.order.order)
        if self.categories is not None:
            return [c for c in self.categories if c in self.order.order]
        return sorted(self.order.order)

    def by_strategy(self, sort: bool = False):
        return [(name, Group(self.sums.loc[name])) for name in self.names(sort)]

    def groups(self, sort: bool = False):
        """(name, Group) per strategy, then ("all", every seat)."""
        return self.by_strategy(sort) + [("all", self.all())]

    def all(self) -> Group:
        return Group(self.sums.sum(axis=0))


class Group:
    """One group's column sums and seats: `sum(c)`, `mean(c)` (per seat), `seats`."""

    def __init__(self, sums: pd.Series):
        self._sums = sums
        self.seats = float(sums["_seats"])

    def __contains__(self, column) -> bool:
        return column in self._sums.index

    def sum(self, column: str) -> float:
        return float(self._sums[column])

    def mean(self, column: str) -> float:
        return self.sum(column) / self.seats if self.seats else math.nan


def _mean(total: float, n: int) -> float:
    """A mean as the whole column's: its sum over n. Sums of whole numbers and of multiples of a
    power of two (the shares of 1, 2, 4 or 8 seats) are exact in any order, so the mean is then
    the very number numpy's mean of the whole column gives."""
    return total / n


# --- helpers for parts ---------------------------------------------------------------------------------

def share_row(k: int, n: int, **keys) -> dict:
    """`quality._share_row` from a count and a total."""
    lo, hi = wilson(k, n)
    return keys | {"games": n, "count": k, "share": k / n if n else np.nan, "lo": lo, "hi": hi}


def mean_of_counts(values: ValueCounts) -> tuple[float, float, float, int]:
    return values.interval() if values.n else mean_interval([])


# --- the seat permutation test ------------------------------------------------------------------------

EXACT_PERMUTATION_GAMES = 200_000  # up to this many games of one table size, the games' seatings are
# permuted one by one (as always); above, the same null distribution is drawn from the counts of
# games of each seating and outcome (multivariate hypergeometric draws), in time independent of the games


class SeatTest:
    """`fairness.seat_permutation_test` part by part: wins and seats by seat number, which slots
    sat where, and per table size the count of games of each (seating, outcome) and of each number
    of winners, with the games' own seatings and outcomes in order while there are few enough to
    permute."""

    def __init__(self, exact_games: int = EXACT_PERMUTATION_GAMES):
        self.exact_games = exact_games
        self.seat_n = np.zeros(0)
        self.seat_won = np.zeros(0)
        self.slot_seat: set = set()
        self.has_slot = True
        self.names = _StrategyOrder()
        self.sizes: dict[int, dict] = {}

    def add(self, seats: pd.DataFrame) -> SeatTest:
        seat, won = seats["seat"].to_numpy().astype(np.int64), seats["won"].to_numpy(float)
        n = max(len(self.seat_n), int(seat.max()) + 1 if len(seat) else 0)
        self.seat_n = _grown(self.seat_n, n) + np.bincount(seat, minlength=n)
        self.seat_won = _grown(self.seat_won, n) + np.bincount(seat, won, minlength=n)
        self.names.add(seats)
        self.has_slot &= "slot" in seats
        if not len(seats):
            return self
        game = seats["game_id"].to_numpy()
        slot = seats["slot"].to_numpy().astype(np.int64) if "slot" in seats else np.zeros(len(seats), np.int64)
        if "slot" in seats:
            pairs = np.unique(slot * 4096 + seat)  # which slots sat in which seats
            self.slot_seat |= {(int(p) // 4096, int(p) % 4096) for p in pairs}
        order = np.lexsort((slot, game))  # each game's seats by slot, games in id order
        game, seat, won = game[order], seat[order], won[order]
        _, start, size = np.unique(game, return_index=True, return_counts=True)
        first = np.argsort(start, kind="stable")
        start, size = start[first], size[first]
        for k in np.unique(size):
            self._add_size(int(k), start[size == k], seat, won)
        return self

    def _add_size(self, size: int, starts, seat, won) -> None:
        rows = starts[:, None] + np.arange(size)[None, :]
        digits = size ** np.arange(size - 1, -1, -1, dtype=np.int64)
        seating = seat[rows] @ digits  # lexicographic order of the seat tuples
        wins = won[rows]
        pattern = (wins > 0).astype(np.int64) @ (2 ** np.arange(size, dtype=np.int64))
        state = self.sizes.setdefault(size, {"games": 0, "codes": [], "patterns": [], "pairs": Counter(),
                                            "winners": Counter()})
        state["games"] += len(rows)
        state["pairs"].add(seating * (2 ** size) + pattern)
        state["winners"].add(wins.sum(axis=1).astype(np.int64))
        if state["codes"] is not None and state["games"] <= self.exact_games:
            state["codes"].append(seating)
            state["patterns"].append(pattern)
        else:
            state["codes"] = state["patterns"] = None  # too many to permute: counts only

    def result(self, reps: int, seed: int) -> dict | None:
        from sim.analysis.fairness import _gap, _shuffled_wins

        rng = np.random.default_rng(seed)
        observed = _gap(self.seat_won / self.seat_n)
        null_wins = np.zeros((reps, len(self.seat_n)))
        rotated = self.has_slot and _varies(self.slot_seat)
        if not rotated and len(self.names.names()) > 1:
            return None
        for size in sorted(self.sizes):
            state = self.sizes[size]
            if rotated:
                null_wins[:, :size] += self._reseated(rng, size, state, reps)
            else:
                for w, count in state["winners"].value_counts().items():
                    null_wins[:, :size] += _shuffled_wins(rng, size, int(w), int(count), reps)
        null = np.array([_gap(w / self.seat_n) for w in null_wins])
        return {"gap": observed, "null_median": float(np.median(null)),
                "null_95": float(np.quantile(null, 0.95)),
                "p_value": (1 + int((null >= observed - 1e-12).sum())) / (1 + reps), "reps": reps,
                "method": "seatings shuffled among games" if rotated else "wins shuffled among seats"}

    def _reseated(self, rng, size: int, state: dict, reps: int) -> np.ndarray:
        """Wins per seat when the games' seatings are dealt out again at random: the games
        themselves permuted (a small run, as before), or the table of games per (outcome,
        seating) drawn with the same distribution (one multivariate hypergeometric draw per
        outcome, from the seatings not dealt yet)."""
        out = np.zeros((reps, size))
        if state["codes"] is not None:
            codes, patterns = np.concatenate(state["codes"]), np.concatenate(state["patterns"])
            seatings, label = np.unique(codes, return_inverse=True)
            kinds, kind = np.unique(patterns, return_inverse=True)
            label, kind = label.ravel(), kind.ravel()
        else:
            pairs = pd.Series(state["pairs"].counts)
            codes, patterns = pairs.index.to_numpy() // (2 ** size), pairs.index.to_numpy() % (2 ** size)
            seatings, label = np.unique(codes, return_inverse=True)
            kinds, kind = np.unique(patterns, return_inverse=True)
            observed = np.zeros((len(kinds), len(seatings)), dtype=np.int64)
            np.add.at(observed, (kind.ravel(), label.ravel()), pairs.to_numpy())
        n_seatings, n_kinds = len(seatings), len(kinds)
        outcome = ((kinds[:, None] >> np.arange(size)[None, :]) & 1).astype(float)  # kinds x slots
        seat_of = (seatings[:, None] // size ** np.arange(size - 1, -1, -1)[None, :]) % size
        flat_seats = seat_of.ravel()
        for r in range(reps):
            if state["codes"] is not None:
                dealt = rng.permutation(label)
                table = np.bincount(dealt * n_kinds + kind, minlength=n_seatings * n_kinds).reshape(
                    n_seatings, n_kinds)
            else:
                table = _dealt_table(rng, observed).T
            per_seating = table.astype(float) @ outcome  # seatings x slots
            out[r] = np.bincount(flat_seats, per_seating.ravel(), minlength=size)
        return out


def _dealt_table(rng, observed: np.ndarray) -> np.ndarray:
    """Games per (outcome, seating) when the seatings are dealt to the games at random: each
    outcome's games draw their seatings, without replacement, from those not dealt yet."""
    left = observed.sum(axis=0)
    table = np.zeros_like(observed)
    for k, games in enumerate(observed.sum(axis=1)):
        draw = left if k == len(observed) - 1 else rng.multivariate_hypergeometric(left, int(games))
        table[k] = draw
        left = left - draw
    return table


def _varies(slot_seat: set) -> bool:
    """Some slot sat in more than one seat (`fairness._seatings_vary`)."""
    seen: dict = {}
    for slot, seat in slot_seat:
        seen.setdefault(slot, set()).add(seat)
    return any(len(s) > 1 for s in seen.values())


def _grown(values: np.ndarray, n: int) -> np.ndarray:
    return values if len(values) >= n else np.concatenate([values, np.zeros(n - len(values))])


# --- pairwise differences of shares of seats won --------------------------------------------------------

class PairTally:
    """`fairness.pairwise(seats, key)` part by part: per pair of groups, the moments of the per-game
    differences of their shares of seats won; per group, those of its share (`fairness.power`)."""

    def __init__(self, key: str = "strategy"):
        self.key = key
        self.diffs, self.shares = _Moments(), _Moments()
        self.names = _StrategyOrder()
        self.groups: set = set()

    def add(self, seats: pd.DataFrame) -> None:
        from sim.analysis.fairness import shares

        table = shares(seats, self.key)
        if self.key == "strategy":
            self.names.add(seats)
        self.groups |= set(table.columns)
        self.shares.add(table)
        columns = list(table.columns)
        diffs = {}
        for i, a in enumerate(columns):
            for b in columns[i + 1:]:
                first, second = sorted((a, b), key=str)
                diffs[(first, second)] = table[first] - table[second]
        if diffs:
            self.diffs.add(pd.DataFrame(diffs, index=table.index))

    def order(self) -> list:
        if self.key == "strategy":
            return self.names.names()
        from sim.analysis.fairness import _natural

        return sorted(self.groups, key=_natural)

    def table(self) -> pd.DataFrame:
        from sim.analysis.fairness import pair_row, pairwise_of

        rows = []
        names = self.order()
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                key = tuple(sorted((a, b), key=str))
                sign = 1.0 if key == (a, b) else -1.0
                n = self.diffs.count.get(key, 0)
                mean = sign * _mean(self.diffs.nansum[key], n) if n else math.nan
                sd = math.sqrt(self.diffs.square[key] / (n - 1)) if n > 1 else math.nan
                rows.append(pair_row(a, b, n, mean + 0.0, sd))
        return pairwise_of(rows)

    def share_sd(self) -> dict:
        """Each group's game-to-game sd of its share of seats won, in the groups' order."""
        out = {}
        for name in self.order():
            n = self.shares.count.get(name, 0)
            out[name] = math.sqrt(self.shares.square[name] / (n - 1)) if n > 1 else math.nan
        return out


# --- the seat advantage -----------------------------------------------------------------------------------

class SeatAdvantage:
    """`fairness.seat_advantage` part by part: per table size, the seats' wins and the moments of
    each seat's per-game difference from the game's mean win."""

    def __init__(self):
        self.sizes: dict = {}

    def add(self, games: pd.DataFrame, seats: pd.DataFrame) -> None:
        sizes = games.set_index("game_id")["n_players"]
        tagged = seats[["game_id", "seat", "won"]].assign(n_players=sizes.reindex(seats["game_id"]).to_numpy())
        for size, part in tagged.groupby("n_players", observed=True):
            won = part.pivot_table(index="game_id", columns="seat", values="won", aggfunc="first").astype(float)
            diff = won.sub(won.mean(axis=1), axis=0)
            state = self.sizes.setdefault(int(size), {"diff": _Moments(), "wins": {}, "games": 0, "cells": 0,
                                                      "total": 0.0})
            state["diff"].add(diff)
            for seat in won.columns:
                state["wins"][int(seat)] = state["wins"].get(int(seat), 0.0) + float(won[seat].sum())
            state["games"] += len(won)
            values = won.to_numpy()
            state["cells"] += values.size
            state["total"] += float(values.sum())  # NaN (a seat missing) stays NaN, as the mean did

    def table(self) -> pd.DataFrame:
        rows = []
        for size in sorted(self.sizes):
            state = self.sizes[size]
            g, moments = state["games"], state["diff"]
            for seat in sorted(state["wins"]):
                k = int(state["wins"][seat])
                lo, hi = wilson(k, g)
                n = moments.count.get(seat, 0)
                adv = _mean(moments.nansum[seat], n) if n else math.nan
                sd = math.sqrt(moments.square[seat] / (n - 1)) if n > 1 else math.nan
                half = 1.959963984540054 * sd / math.sqrt(g) if g > 1 else math.nan
                rows.append({"n_players": size, "seat": seat, "games": g, "wins": k, "win_rate": k / g,
                             "lo": lo, "hi": hi, "average": state["total"] / state["cells"], "advantage": adv,
                             "adv_lo": adv - half, "adv_hi": adv + half})
        return pd.DataFrame(rows, columns=["n_players", "seat", "games", "wins", "win_rate", "lo", "hi", "average",
                                           "advantage", "adv_lo", "adv_hi"])


# --- strategies finishing ahead of each other (ratings, head to head) -------------------------------------

class AheadCounts:
    """Per game, how often strategy i finished ahead of j (`fairness.pairwise_wins`), summed over
    the bootstrap's units (`headline.GameSums`: the games, or blocks of games in a large run)."""

    def __init__(self, n_games: int):
        self.sums = GameSums(n_games)
        self.names = _StrategyOrder()

    def add(self, seats: pd.DataFrame) -> None:
        from sim.analysis.fairness import pairwise_wins

        names, per_game = pairwise_wins(seats)
        self.names.add(seats)
        k = len(names)
        columns = [(a, b) for a in names for b in names]
        self.sums.add(pd.DataFrame(per_game.reshape(len(per_game), k * k), columns=columns))

    def units(self) -> tuple[list[str], np.ndarray]:
        """The strategies and the flattened counts per unit (columns i * k + j)."""
        names = self.names.names()
        zero = np.zeros(self.sums.units)
        units = [self.sums.unit_sums.get((a, b), zero) for a in names for b in names]
        return names, np.column_stack(units) if units else np.zeros((self.sums.units, 0))


# --- the per-turn table --------------------------------------------------------------------------------

class TurnTally:
    """The sections read from the per-turn fortunes (`mobsim run --record-turns`), part by part:
    the counts behind `quality.leader_curve`, `runaway_leader`, `mid_game_rank`,
    `first_elimination` and `kingmaking`, and the counts of each fortune by strategy and turn
    (`economy.fortune_bands`)."""

    def __init__(self):
        from sim.analysis.quality import PROGRESS

        self.leader = np.zeros((len(PROGRESS), 2), dtype=np.int64)
        self.runaway = np.zeros((0, 3), dtype=np.int64)
        self.places: pd.Series | None = None
        self.games = 0
        self.first = ValueCounts()
        self.exposed = self.flipped = 0
        self.bands: pd.Series | None = None

    def add(self, turns: pd.DataFrame, games: pd.DataFrame, seats: pd.DataFrame) -> None:
        from sim.analysis import quality

        if "winner_seat" not in games or not len(games):
            return
        self.leader += quality.leader_counts(turns, games)
        counts = quality.runaway_counts(turns, games)
        n = max(len(counts), len(self.runaway))
        self.runaway = _padded(self.runaway, n) + _padded(counts, n)
        places = quality.mid_game_places(turns, games)
        self.places = places if self.places is None else self.places.add(places, fill_value=0)
        self.games += len(games)
        if "alive" in seats:
            first = quality.first_out(turns, games, seats)
            self.first.add(first[np.isfinite(first)])
        exposed, flipped = quality.kingmaking_flags(turns, games)
        self.exposed += int(exposed.sum())
        self.flipped += int(flipped.sum())
        strategy = seats.set_index(["game_id", "seat"])["strategy"]
        key = pd.MultiIndex.from_arrays([turns["game_id"], turns["seat"]])
        tagged = turns.assign(strategy=strategy.reindex(key).to_numpy())
        bands = tagged.groupby(["strategy", "turn", "fortune"], observed=True).size()
        self.bands = bands if self.bands is None else self.bands.add(bands, fill_value=0)

    def first_elimination(self) -> pd.DataFrame:
        from sim.analysis.quality import first_elimination_of

        return first_elimination_of(self.games, self.first.n, self.first.median(), mean_of_counts(self.first))

    def fortune_bands(self, band) -> pd.DataFrame:
        """`economy.fortune_bands` from the counts of each fortune by strategy and turn."""
        rows = []
        for (strategy, turn), counts in self.bands.groupby(level=[0, 1], sort=True):
            values = ValueCounts.of(counts.droplevel([0, 1]))
            rows.append({"strategy": strategy, "turn": turn}
                        | {f"q{round(100 * q):02d}": values.quantile(q) for q in band}
                        | {"seats": values.n})
        return pd.DataFrame(rows)


def _padded(counts: np.ndarray, n: int) -> np.ndarray:
    return counts if len(counts) >= n else np.vstack([counts, np.zeros((n - len(counts), counts.shape[1]),
                                                                       dtype=counts.dtype)])


# --- the generic sections in one pass ----------------------------------------------------------------------

GAME_MEASURES = ("turns", "lead_changes", "lead_changes_per_turn", "winner_led_from", "decided_share", "margin",
                 "winner_deficit_mid")
WATCH_COLUMNS = ("game_id", "turns", "winner_seat", "margin", "winner_deficit_mid", "lead_changes")


class GenericScan:
    """Everything the report's generic sections (who wins, quality, fortunes, the opening) need
    of a run, from one pass over its parts."""

    def __init__(self, n_games: int, choices=()):
        self.n_games = n_games
        self.choices = list(choices)
        self.games_seen = 0
        self.game_columns: set = set()
        self.seat_columns: set = set()
        self.by_strategy, self.by_seat = WinTally("strategy"), WinTally("seat")
        self.by_players, self.by_strategy_seat = WinTally(["n_players", "strategy"]), WinTally(["strategy", "seat"])
        self.by_neighbour = WinTally(["strategy", "next_strategy"])
        self.advantage = SeatAdvantage()
        self.seat_test = SeatTest()
        self.strategy_pairs, self.seat_pairs = PairTally("strategy"), PairTally("seat")
        self.ahead = AheadCounts(n_games)
        self.measures = {name: ValueCounts() for name in GAME_MEASURES}
        self.close = {}
        self.endings = Counter()
        self.times_first = np.zeros((0, 2))
        self.fortune_means = GameMeans(["fortune"])
        self.fortunes: dict = {}
        self.broke: dict = {}
        self.usage = Totals([f"used:{c}" for c in self.choices])
        self.players = FirstSeen()
        self.picks: list[pd.DataFrame] = []
        self.early = self.deficits = 0
        self.turns: TurnTally | None = None

    def add(self, games: pd.DataFrame, seats: pd.DataFrame, turns: pd.DataFrame | None = None) -> None:
        from sim.analysis.headline import _sorted_games

        games = _sorted_games(games)
        self.games_seen += len(games)
        self.game_columns |= set(games.columns)
        self.seat_columns |= set(seats.columns)
        self._add_who_wins(games, seats)
        self._add_quality(games, seats)
        self._add_fortunes(seats)
        if turns is not None:
            self.turns = self.turns or TurnTally()
            self.turns.add(turns, games, seats)

    def _add_who_wins(self, games, seats) -> None:
        self.by_strategy.add(seats[["strategy", "game_id", "won"]])
        self.by_seat.add(seats[["seat", "game_id", "won"]])
        sizes = games.set_index("game_id")["n_players"]
        self.players.add(pd.unique(games["n_players"]))
        tagged = seats[["game_id", "strategy", "won"]].assign(n_players=sizes.reindex(seats["game_id"]).to_numpy())
        self.by_players.add(tagged)
        self.by_strategy_seat.add(seats[["strategy", "seat", "game_id", "won"]])
        self.by_neighbour.add(_neighbours(seats))
        self.advantage.add(games, seats)
        self.seat_test.add(seats[[c for c in ("game_id", "seat", "slot", "won", "strategy") if c in seats]])
        self.strategy_pairs.add(seats)
        self.seat_pairs.add(seats)
        self.ahead.add(seats)
        used = {f"used:{c}": (seats[c] > 0).to_numpy(float) for c in self.choices if c in seats}
        self.usage.add(seats[["strategy"]], used)

    def _add_quality(self, games, seats) -> None:
        from sim.analysis.quality import decided_share, lead_changes_per_turn

        values = {"turns": games["turns"]}
        if "lead_changes" in games:
            values["lead_changes"] = games["lead_changes"]
            values["lead_changes_per_turn"] = lead_changes_per_turn(games)
        if "winner_led_from" in games:
            values["winner_led_from"] = games["winner_led_from"]
            values["decided_share"] = decided_share(games)
            early = games["winner_led_from"] <= np.maximum(1, games["turns"] // 3)
            self.early += int(early.sum())
        for column in ("margin", "winner_deficit_mid"):
            if column in games:
                values[column] = games[column]
        for name, series in values.items():
            self.measures[name].add(series.to_numpy(float) if name in ("lead_changes_per_turn", "decided_share")
                                    else series.to_numpy())
        close = {}
        if "winner_deficit_mid" in games:
            close["comeback"] = games["winner_deficit_mid"] > 0
        if "winner_led_from" in games:
            close["led_first"] = games["winner_led_from"] <= 1
            close["led_last"] = games["winner_led_from"] >= games["turns"]
        if "lead_changes" in games:
            close["no_change"] = games["lead_changes"] == 0
        if "cap_hit" in games:
            close["cap"] = games["cap_hit"].astype(bool)
        for name, mask in close.items():
            self.close[name] = self.close.get(name, 0) + int(np.asarray(mask, dtype=bool).sum())
        if "decided_by" in games:
            self.endings.add(games["decided_by"].astype(str).to_numpy())
        if "times_first" in seats:
            x = seats["times_first"].to_numpy().astype(np.int64)
            n = max(len(self.times_first), int(x.max()) + 1 if len(x) else 0)
            counts = np.column_stack([np.bincount(x, minlength=n), np.bincount(x, seats["won"].to_numpy(float),
                                                                               minlength=n)])
            self.times_first = _padded(self.times_first, n) + counts
        self.picks.append(_candidates(games))
        if len(self.picks) > 64:  # keep the candidates of the candidates: a few rows, whatever the parts
            self.picks = [_candidates(pd.concat(self.picks, ignore_index=True))]

    def _add_fortunes(self, seats) -> None:
        self.fortune_means.add(seats[["game_id", "strategy", "fortune"]])
        for name, group in seats[["strategy", "fortune"]].groupby("strategy", observed=True):
            self.fortunes.setdefault(name, ValueCounts()).add(group["fortune"].to_numpy())
            self.broke[name] = self.broke.get(name, 0) + int((group["fortune"] <= 0).sum())

    # --- the tables -----------------------------------------------------------------------------------

    def names(self) -> list[str]:
        return self.strategy_pairs.names.names()

    def win_rates(self, by: str) -> pd.DataFrame:
        return {"strategy": self.by_strategy, "seat": self.by_seat}[by].table()

    def by_player_count(self) -> pd.DataFrame:
        table = self.by_players.table()
        table.insert(2, "even_share", 1 / table["n_players"])
        return table

    def neighbours(self) -> pd.DataFrame:
        table = self.by_neighbour.table()
        overall = self.by_neighbour.overall("strategy")
        table["vs_overall"] = table["win_rate"] - overall.reindex(table["strategy"]).to_numpy()
        return table

    def closeness(self) -> pd.DataFrame:
        labels = (("comeback", "comeback (winner behind at mid-game)"), ("led_first", "winner led from the first turn"),
                  ("led_last", "lead taken for good in the last turn"), ("no_change", "no lead change"),
                  ("cap", "turn cap reached"))
        rows = []
        for key, label in labels:
            if key in self.close:
                k, n = self.close[key], self.games_seen
                lo, hi = wilson(k, n)
                rows.append({"measure": label, "games": n, "count": k, "share": k / n if n else np.nan,
                             "lo": lo, "hi": hi})
        return pd.DataFrame(rows, columns=["measure", "games", "count", "share", "lo", "hi"])

    def quality_measures(self, unit: str = "$") -> pd.DataFrame:
        """The per-game measures; margins in the game's score unit."""
        from sim.analysis.quality import QUANTILES

        labels = (("turns", "turns"), ("lead_changes", "lead changes"),
                  ("lead_changes_per_turn", "lead changes per turn (Ludii)"),
                  ("winner_led_from", "turn the winner took the lead for good"),
                  ("decided_share", "share of the game led for good by the winner"),
                  ("margin", f"margin of victory ({unit})"),
                  ("winner_deficit_mid", f"winner's deficit at mid-game ({unit})"))
        return pd.DataFrame([self.measures[key].summary(label, QUANTILES) for key, label in labels
                             if self.measures[key].n or key == "turns"])

    def endings_table(self) -> pd.DataFrame:
        from sim.analysis.headline import DECIDED_PLAINLY

        counts = self.endings.value_counts()
        table = counts.rename_axis("decided_by").reset_index(name="games")
        table["tie_break"] = ~table["decided_by"].isin(DECIDED_PLAINLY)
        table["share"] = table["games"] / self.games_seen
        table["lo"], table["hi"] = wilson(table["games"], self.games_seen)
        return table

    def first_player(self, min_seats: int = 30) -> pd.DataFrame:
        counts = self.times_first[:, 0]
        big = np.nonzero(counts >= min_seats)[0]
        present = np.nonzero(counts)[0]
        top = int(big.max()) if len(big) else int(present.max())
        seats = np.append(counts[:top], counts[top:].sum()).astype(np.int64)
        wins = np.append(self.times_first[:top, 1], self.times_first[top:, 1].sum())
        keep = seats > 0
        table = pd.DataFrame({"times_first": np.arange(top + 1)[keep], "seats": seats[keep],
                              "wins": wins[keep].astype(int)})
        table["win_rate"] = table["wins"] / table["seats"]
        table["lo"], table["hi"] = wilson(table["wins"], table["seats"])
        if present.max() > top:
            table["times_first"] = table["times_first"].astype(str)
            table.loc[table.index[-1], "times_first"] = f"{top}+"
        return table

    def final_fortunes(self) -> pd.DataFrame:
        means = self.fortune_means.table("fortune")
        extra = pd.DataFrame({name: {"q10": v.quantile(0.1), "median": v.quantile(0.5), "q90": v.quantile(0.9),
                                     "broke": self.broke[name] / v.n} for name, v in self.fortunes.items()}).T
        extra = extra[["q10", "median", "q90", "broke"]].astype(float)
        return means.merge(extra, left_on="strategy", right_index=True, how="left")

    def usage_table(self) -> pd.DataFrame:
        """`findings.usage`: share of each strategy's seats that used each mechanic."""
        columns = [c for c in self.choices if f"used:{c}" in self.usage.sums] if self.usage.sums is not None else []
        if not columns:
            return pd.DataFrame()
        used = pd.DataFrame({name: {c: g.mean(f"used:{c}") for c in columns} for name, g in self.usage.by_strategy()})
        table = used[sorted(used.columns)]
        table.index.name = "mechanic"
        table.columns.name = None
        return table

    def seat_counts(self) -> pd.Series:
        """Seats per strategy (`seats["strategy"].value_counts()`)."""
        return pd.Series({name: int(g.seats) for name, g in self.usage.by_strategy()}).sort_values(ascending=False)

    def worth_watching(self) -> pd.DataFrame:
        from sim.analysis.watch import worth_watching

        return worth_watching(pd.concat(self.picks, ignore_index=True) if self.picks else pd.DataFrame())


def _neighbours(seats: pd.DataFrame) -> pd.DataFrame:
    """Each seat with the strategy of the next seat in the turn order (`fairness.neighbours`)."""
    frame = seats[["game_id", "seat", "strategy", "won"]].copy()
    frame["strategy"] = frame["strategy"].astype(str)
    size = frame.groupby("game_id")["seat"].transform("size")
    nxt = frame[["game_id", "seat", "strategy"]].rename(columns={"strategy": "next_strategy"})
    frame["next_seat"] = (frame["seat"] + 1) % size
    joined = frame.merge(nxt, left_on=["game_id", "next_seat"], right_on=["game_id", "seat"], suffixes=("", "_n"))
    return joined[["strategy", "next_strategy", "game_id", "won"]]


def _candidates(games: pd.DataFrame) -> pd.DataFrame:
    """The games of a part that could be worth watching: the part's own picks (the run's are among
    them: `watch.worth_watching` on them gives the same games)."""
    from sim.analysis.watch import worth_watching

    keep = [c for c in WATCH_COLUMNS if c in games]
    picks = worth_watching(games)
    if picks.empty:
        return games[keep].iloc[:0]
    return games[games["game_id"].isin(picks["game_id"])][keep]
