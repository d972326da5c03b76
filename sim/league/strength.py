"""Strength per CPU second: one seat of a strategy against `players - 1` seats of a reference
(by default the game's own, sim.shared.game.Game.reference: New York Kings' meta-game mixture
`meta:equilibrium`, American Gangsters' strongest preset `warlord`), seats rotated, on fixed game ids.

The win share carries a Wilson interval against the fair share 1/players; the cost is the
process CPU time of the games (every worker's, the engine's threads included), divided by the
games. Each worker plays one game of each kind of lineup unmeasured first, so loading the
compiled engine from its cache is not counted as play.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from sim.analysis.stats import mean_interval, wilson
from sim.league.games import knobs
from sim.league.match import Pool, match_tasks, resolve, ruleset_key
from sim.runner.executor import uses_scheduler
from strategies import SEARCH

_warmed: set = set()  # lineup kinds (searching or not) this process has already played once


@dataclass(frozen=True)
class Strength:
    """Wins of the one seat of `name` against `players - 1` seats of `against`, and the CPU."""

    name: str
    against: str
    players: int
    games: int
    wins: int            # a shared win counts as a win, as in every match
    cpu_seconds: float   # process CPU time of the measured games, every worker summed
    per_game: tuple = ()  # the seat's wins game by game (game ids in order), for paired comparisons

    @property
    def share(self) -> float:
        return self.wins / self.games

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    @property
    def fair(self) -> float:
        return 1 / self.players

    @property
    def cpu_per_game(self) -> float:
        return self.cpu_seconds / self.games

    def row(self) -> dict:
        lo, hi = self.interval
        return {"strategy": self.name, "against": self.against, "players": self.players,
                "games": self.games, "wins": self.wins, "win_share": self.share, "low": lo, "high": hi,
                "fair": self.fair, "above_fair": lo > self.fair, "below_fair": hi < self.fair,
                "cpu_s_per_game": self.cpu_per_game}


def _timed_block(task) -> tuple[np.ndarray, float]:
    """Wins per lineup slot of each game of a block, and the process CPU seconds they took."""
    chosen, players, rules, seed, first_id, n = task
    adapter = knobs(rules[2])
    kind = (rules[2], any(getattr(s, "family", None) == SEARCH for s in chosen))
    if kind not in _warmed:  # load the compiled engine outside the measurement
        adapter.play_block(chosen, players, rules, seed, first_id, 1)
        _warmed.add(kind)
    start = time.process_time()
    wins = adapter.game_wins(chosen, players, rules, seed, first_id, n)
    return wins, time.process_time() - start


@uses_scheduler
def strength(name, games: int = 100, seed: int = 0, players: int = 4, against=None,
             ruleset=None, overrides=None, workers: int | None = None, first_id: int = 0,
             game: str = "nyk", scheduler: str | None = None) -> Strength:
    """One seat of `name` against `players - 1` seats of `against` (default: the game's reference)
    on game ids first_id .. first_id + games - 1 (seats rotated): its wins and the CPU seconds."""
    from sim.shared.game import find

    if players < 2:
        raise ValueError(f"players = {players}: a strength needs at least 2 seats")
    rules = ruleset_key(ruleset, overrides, game)
    against = find(game).reference if against is None else against
    lineup = [resolve(name, game)] + [resolve(against, game)] * (players - 1)
    tasks, _ = match_tasks([lineup], games, seed, rules, first_id)
    per_game, cpu = [], 0.0
    with Pool(workers) as pool:
        for w, seconds in pool.map(tasks, _timed_block):
            per_game += [int(v) for v in w[:, 0]]
            cpu += seconds
    return Strength(lineup[0].name, lineup[1].name, players, games, sum(per_game), cpu, tuple(per_game))


@dataclass(frozen=True)
class PairedStrength:
    """Two strategies' strengths on the same games (the same ids, seed and opponents): the
    difference of their win shares with a paired 95% interval (game by game, one minus other)."""

    one: Strength
    other: Strength

    def row(self) -> dict:
        d = np.array(self.one.per_game, dtype=float) - np.array(self.other.per_game, dtype=float)
        mean, lo, hi, n = mean_interval(d)
        return {"strategy": self.one.name, "versus": self.other.name, "games": n, "difference": mean,
                "low": lo, "high": hi, "cpu_ratio": self.one.cpu_per_game / self.other.cpu_per_game,
                "one": self.one.row(), "other": self.other.row()}


@uses_scheduler
def paired_strength(name, versus, **kwargs) -> PairedStrength:
    """`strength` of `name` and of `versus` on the same games (keyword arguments: `strength`'s)."""
    return PairedStrength(strength(name, **kwargs), strength(versus, **kwargs))


# --- exploitability: the game's exploiter in one seat against the rung in every other ----------

EXPLOIT_GAMES = 480       # a fixed plan of games, the same on every machine (not a wall budget)
EQUILIBRIUM_BAND = 0.02   # a rung is called an equilibrium only when the exploiter's gain is within this


def exploit_label(gap: float, lo: float, hi: float, searcher: str) -> str:
    """The rung's label from the exploiter's gain over fair (share minus 1/players) and its 95%
    interval: "equilibrium" only when the gain is within EQUILIBRIUM_BAND of fair; a gain above
    the band is "exploitable by X points [lo, hi]"; below it the exploiter found nothing."""
    span = f"{100 * gap:+.1f} points [{100 * lo:+.1f}, {100 * hi:+.1f}]"
    if abs(gap) <= EQUILIBRIUM_BAND:
        return f"equilibrium (gap {span} to {searcher})"
    if gap > 0:
        return f"exploitable by {100 * gap:.1f} points [{100 * lo:+.1f}, {100 * hi:+.1f}] ({searcher})"
    return f"not exploited by {searcher} (gap {span})"


@dataclass(frozen=True)
class Exploitability:
    """An approximate best response's reading of a rung (Timbers et al. 2022): the exploiter's
    one seat against `players - 1` seats of the rung. A lower bound: a stronger exploiter may
    find more."""

    rung: str
    seat: Strength   # the exploiter's strength against the rung

    @property
    def gap(self) -> float:
        return self.seat.share - self.seat.fair

    def row(self) -> dict:
        lo, hi = (v - self.seat.fair for v in self.seat.interval)
        return {"rung": self.rung, "searcher": self.seat.name, "players": self.seat.players,
                "games": self.seat.games, "wins": self.seat.wins, "win_share": self.seat.share,
                "fair": self.seat.fair, "exploitability": self.gap, "exploit_low": lo, "exploit_high": hi,
                "equilibrium": abs(self.gap) <= EQUILIBRIUM_BAND,
                "label": exploit_label(self.gap, lo, hi, self.seat.name),
                "cpu_s_per_game": self.seat.cpu_per_game}


def exploitability(rung, games: int = EXPLOIT_GAMES, searcher=None, game: str = "nyk", **kwargs) -> Exploitability:
    """The exploiter (default: the game's, sim.shared.game.Game.exploiter) in one seat against
    every other seat of `rung` on game ids 0 .. games - 1 (keyword arguments: `strength`'s)."""
    from sim.shared.game import find

    searcher = searcher or find(game).exploiter
    if not searcher:
        raise ValueError(f"game {game!r} names no exploiter: give one (a search preset) to read exploitability")
    seat = strength(searcher, games=games, against=rung, game=game, **kwargs)
    return Exploitability(seat.against, seat)
