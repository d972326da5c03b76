"""The search for a strong player: the cross-entropy method over a game's knobs (New York Kings'
`param` family, American Gangsters' `parametric` policy: sim.league.games), with common random
numbers, against the preset population.

Each generation samples candidates around the current mean (knobs scaled to [0, 1]), plays every
candidate on the same game ids against each opponent preset (one candidate seat, the other seats
that preset, seats rotated), and refits the sampling distribution to the elite. Sharing game ids
within a generation makes the comparison between candidates paired, so far fewer games separate
them; a new block of ids each generation keeps the search from fitting one set of dice. The final
mean is then measured on fresh game ids against every opponent, with 95% intervals.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime

import numpy as np

from sim.rooms import DEFAULT_GAME
from sim.league.games import knobs as game_knobs
from sim.league.match import Pool, play_lineups, ruleset_key
from sim.provenance import engine_commit
from sim.runner.executor import uses_scheduler

OPPONENTS = game_knobs(DEFAULT_GAME).opponents
FINAL_IDS = 1 << 30  # the final measurement's game ids: never used by the search


@dataclass
class TuneResult:
    params: dict[str, float]
    score: float
    history: list[dict]
    final: list[dict]
    provenance: dict = field(default_factory=dict)
    game: str = "nyk"

    def beats_every_opponent(self) -> bool:
        return all(row["low"] > row["fair"] for row in self.final)

    def toml(self, doc: str = "", name: str = "tuned") -> str:
        """The preset file of the tuned player (in its game's preset format), with its provenance."""
        return game_knobs(self.game).preset_toml(name, self.params, doc, self.provenance)


def cem_sample(mean: np.ndarray, sd: np.ndarray, population: int, rng) -> list[np.ndarray]:
    """A generation of the cross-entropy method in the unit box: the current mean, then draws around it."""
    return [mean] + [np.clip(mean + sd * rng.standard_normal(len(mean)), 0, 1) for _ in range(population - 1)]


def cem_refit(chosen: np.ndarray, mean: np.ndarray, sd: np.ndarray, floor: float) -> tuple[np.ndarray, np.ndarray]:
    """The sampling distribution refitted to the elite `chosen`, smoothed toward the last one; the
    spread kept above `floor` so the search never stops exploring."""
    return 0.7 * chosen.mean(axis=0) + 0.3 * mean, np.maximum(0.7 * chosen.std(axis=0) + 0.3 * sd, floor)


def candidate(unit: np.ndarray, name: str = "candidate", game: str = "nyk"):
    box = game_knobs(game)
    return box.strategy(name, box.to_knobs(np.clip(unit, 0.0, 1.0)))


def _score(matches_by_opponent) -> float:
    """Mean win rate over the opponents, with the worst counted twice: a strong player must beat
    every style, not just the weak ones."""
    rates = [m.rate(0) for m in matches_by_opponent]
    return (sum(rates) + min(rates)) / (len(rates) + 1)


@uses_scheduler
def tune(seed: int = 0, generations: int = 8, population: int = 12, elite: int = 3,
         games: int = 800, final_games: int = 4000, players: int = 4, opponents=None,
         start: str = "balanced", ruleset=None, overrides=None, workers: int | None = None,
         log=None, game: str = "nyk", scheduler: str | None = None, spread: float = 0.25) -> TuneResult:
    """Search `game`'s knobs for a player beating the `opponents` (default: the game's presets);
    `games` per candidate and opponent; `spread`, the first generation's standard deviation in
    the unit box (a warm start near a good player searches closer: sim.league.refit)."""
    box = game_knobs(game)
    rng = np.random.default_rng(seed)
    rules = ruleset_key(ruleset, overrides, game)
    opponents = [box.resolve(o) for o in (box.opponents if opponents is None else opponents)]
    mean = box.to_unit(box.params_of(start))
    sd = np.full(len(mean), spread)
    history = []
    with Pool(workers) as pool:
        for gen in range(generations):
            units = cem_sample(mean, sd, population, rng)
            first_id = gen * games
            lineups = [[candidate(u, game=game)] + [o] * (players - 1) for u in units for o in opponents]
            matches = play_lineups(pool, lineups, games, seed, rules, first_id)
            scores = [_score(matches[i * len(opponents):(i + 1) * len(opponents)]) for i in range(len(units))]
            order = np.argsort(scores)[::-1][:elite]
            mean, sd = cem_refit(np.array([units[i] for i in order]), mean, sd, floor=0.03)
            history.append({"generation": gen, "best": float(scores[order[0]]),
                            "mean_candidate": float(scores[0]), "games": games * len(lineups)})
            if log:
                log(f"generation {gen + 1}/{generations}: best score {scores[order[0]]:.3f}, "
                    f"current mean {scores[0]:.3f}")
        best = candidate(mean, "tuned", game)
        final = measure(pool, best, opponents, final_games, seed, rules, players)
    spent = sum(h["games"] for h in history) + final_games * len(opponents)
    provenance = {
        "method": "cross-entropy, common random numbers", "seed": seed, "generations": generations,
        "population": population, "elite": elite, "spread": spread, "games_per_candidate_and_opponent": games,
        "final_games_per_opponent": final_games, "games_spent": spent, "players": players,
        "opponents": [o.name for o in opponents], "ruleset": str(ruleset) if ruleset else "default",
        "overrides": {k: v for k, v in rules[1]},
        "ruleset_fingerprint": _fingerprint(ruleset, overrides, game),
        "date": datetime.now(UTC).strftime("%Y-%m-%d"), "engine_commit": engine_commit(),
    }
    params = dict(zip(box.names, best.params, strict=True))
    return TuneResult(params, _score_rows(final), history, final, provenance, game)


def measure(pool, player, opponents, games, seed, rules, players=4) -> list[dict]:
    """`player` in one seat against each opponent in the others, on fresh game ids."""
    lineups = [[player] + [o] * (players - 1) for o in opponents]
    rows = []
    for o, m in zip(opponents, play_lineups(pool, lineups, games, seed, rules, FINAL_IDS), strict=True):
        lo, hi = m.interval(0)
        rows.append({"opponent": o.name, "games": games, "win_rate": m.rate(0), "low": lo, "high": hi,
                     "fair": 1 / players})
    return rows


def _score_rows(rows) -> float:
    rates = [r["win_rate"] for r in rows]
    return (sum(rates) + min(rates)) / (len(rates) + 1)


def _fingerprint(ruleset, overrides, game: str = "nyk") -> str:
    from sim.rules import Ruleset

    return Ruleset.load(ruleset, overrides or None, game=game).fingerprint
