"""Matches: one lineup of strategies played for many games with seats rotated, wins per slot."""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np

from sim.analysis.stats import wilson
from sim.league.games import knobs
from strategies import SEARCH

BLOCK = 2000  # games per task: large enough to pay for the hand-over, small enough to share out
SEARCH_BLOCK = 8  # a lineup with a search player: seconds a game, so small tasks keep workers busy


@dataclass(frozen=True)
class Match:
    """The outcome of a lineup: games played and wins of each lineup slot (shared wins count)."""

    names: tuple[str, ...]
    games: int
    wins: tuple[int, ...]

    def rate(self, slot: int) -> float:
        return self.wins[slot] / self.games

    def interval(self, slot: int) -> tuple[float, float]:
        lo, hi = wilson(self.wins[slot], self.games)
        return float(lo), float(hi)


def _play_block(task) -> np.ndarray:
    """Wins per lineup slot over games first_id .. first_id + n - 1 (runs in a worker)."""
    chosen, players, rules, seed, first_id, n = task
    return knobs(rules[2]).play_block(chosen, players, rules, seed, first_id, n)


class Pool:
    """The workers shared by many matches: local processes (spawned once: numba state is not
    fork-safe), or a Dask cluster's (`scheduler`; inside a study on a scheduler, the study's).
    A thin holder of one sim.runner.executor.Executor."""

    def __init__(self, workers: int | None = None, scheduler: str | None = None):
        self.workers = max(1, workers or os.cpu_count() or 1)
        self.scheduler = scheduler
        self._executor = None

    def map(self, tasks, play=_play_block):
        """`play` (a module-level function, for the workers) over the tasks, in order."""
        if self._executor is None:
            from sim.runner.executor import executor_for

            self._executor = executor_for(self.scheduler, self.workers)
        return self._executor.map(play, tasks)

    def close(self):
        if self._executor is not None:
            self._executor.close()
            self._executor = None

    def __enter__(self):
        return self

    def __exit__(self, exc_type, *exc):
        if exc_type is not None and self._executor is not None:  # Ctrl-C, an error: stop at once
            self._executor.kill()
            self._executor = None
        self.close()


def resolve(spec, game: str = "nyk"):
    """A loaded strategy (or mixture, strategies.mixture) of `game` from a spec; loaded ones pass through."""
    return knobs(game).resolve(spec)


def ruleset_key(ruleset=None, overrides=None, game: str = "nyk") -> tuple:
    """A picklable, hashable description of the rules (file path, overrides and game)."""
    if ruleset is not None and not isinstance(ruleset, str | os.PathLike):
        raise TypeError("matches take the ruleset as a file path (and overrides)")
    return (None if ruleset is None else str(ruleset), tuple(sorted((overrides or {}).items())), game)


def match_tasks(lineups, games: int, seed: int, rules: tuple, first_id: int = 0):
    """Tasks playing each lineup on the same game ids (common random numbers across lineups)."""
    tasks, owners = [], []
    for k, lineup in enumerate(lineups):
        block = SEARCH_BLOCK if any(getattr(s, "family", None) == SEARCH for s in lineup) else BLOCK
        for start in range(0, games, block):
            n = min(block, games - start)
            tasks.append((tuple(lineup), len(lineup), rules, seed, first_id + start, n))
            owners.append(k)
    return tasks, owners


def play_lineups(pool: Pool, lineups, games: int, seed: int, rules: tuple, first_id: int = 0) -> list[Match]:
    lineups = [[resolve(s, rules[2]) for s in lineup] for lineup in lineups]
    tasks, owners = match_tasks(lineups, games, seed, rules, first_id)
    wins = [np.zeros(len(lineup), dtype=np.int64) for lineup in lineups]
    for k, w in zip(owners, pool.map(tasks), strict=True):
        wins[k] += w
    return [Match(tuple(s.name for s in lineup), games, tuple(int(x) for x in w))
            for lineup, w in zip(lineups, wins, strict=True)]


def match(lineup, games: int = 4000, seed: int = 0, ruleset=None, overrides=None,
          workers: int | None = None, first_id: int = 0, game: str = "nyk") -> Match:
    """Play one lineup (a strategy per seat) for `games` games with seats rotated."""
    with Pool(workers) as pool:
        return play_lineups(pool, [lineup], games, seed, ruleset_key(ruleset, overrides, game), first_id)[0]


def head_to_head(a, b, players: int = 4, games: int = 4000, seed: int = 0, ruleset=None,
                 overrides=None, workers: int | None = None, game: str = "nyk") -> dict:
    """`a` in one seat against `players - 1` copies of `b`, seats rotated: a's win rate against its
    fair share 1/players, with a 95% interval."""
    m = match([a] + [b] * (players - 1), games, seed, ruleset, overrides, workers, game=game)
    lo, hi = m.interval(0)
    return {"a": m.names[0], "b": m.names[1], "games": games, "win_rate": m.rate(0), "low": lo,
            "high": hi, "fair": 1 / players, "beats": lo > 1 / players}
