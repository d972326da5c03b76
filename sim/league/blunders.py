"""The blunder audit across strategies: how often each one makes the mistakes of sim.nyk.audit
(New York Kings), sim.ag.audit (American Gangsters) or any game's `sim.<game>.audit`.

Game i seats the strategies taken in turn around the list from position i (as sim.nyk.checkrun
does), so every strategy sits at every seat and meets every other; each game is the batch game
of (seed, game id), played through the forward model, so the table depends on the seed alone,
whatever the number of workers. Rates carry 95% Wilson intervals.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from sim.analysis.stats import wilson
from sim.runner.executor import executor_for, uses_scheduler
from sim.rules import Ruleset

CHUNK = 10  # games a task: a forward-model game costs tens of milliseconds


def audit_of(game: str):
    """(checks, audit_game) of a game's audit (`sim.<game>.audit`, sim.shared.audit)."""
    audit = audit_module(game)
    return audit.CHECKS, audit.audit_game


def audit_module(game: str):
    """The game's audit module; a ValueError names the games that have one."""
    from sim.shared.game import every

    found = {g.name: g for g in every() if _has_audit(g)}
    if game not in found:
        raise ValueError(f"{game} has no blunder audit: give --game {' or '.join(sorted(found))}")
    return found[game].part("audit")


def _has_audit(game) -> bool:
    from importlib.util import find_spec

    return find_spec(f"sim.{game.name}.audit") is not None


def table_of(strategies, players: int, game_id: int) -> list[str]:
    return [strategies[(game_id + i) % len(strategies)] for i in range(players)]


def _audit_chunk(task):
    game, strategies, players, ruleset, overrides, seed, first_id, n = task
    checks, audit_game = audit_of(game)
    rs = Ruleset.load(ruleset, overrides=dict(overrides), game=game)
    counts = {}
    for game_id in range(first_id, first_id + n):
        names, tally, _ = audit_game(rs, table_of(strategies, players, game_id), seed, game_id, players)
        for seat, name in enumerate(names):
            row = counts.setdefault(name, np.zeros((3, len(checks)), np.int64))
            row[0] += tally.opportunities[seat]
            row[1] += tally.blunders[seat]
            row[2] += 1  # games: the same for every check
    return counts


@uses_scheduler
def blunder_table(strategies, players: int = 4, games: int = 200, seed: int = 0, ruleset=None,
                  overrides=None, workers: int = 1, game: str = "nyk", scheduler: str | None = None) -> pd.DataFrame:
    """One row per strategy and check: games, opportunities, blunders, the rate per opportunity
    (with its interval) and per game."""
    checks, _ = audit_of(game)
    tasks = [(game, tuple(strategies), players, ruleset, tuple(sorted((overrides or {}).items())), seed, first,
              min(CHUNK, games - first)) for first in range(0, games, CHUNK)]
    with executor_for(scheduler, workers) as executor:
        parts = executor.map(_audit_chunk, tasks)
    total = {}
    for part in parts:
        for name, row in part.items():
            total[name] = total.get(name, 0) + row
    rows = []
    for name in dict.fromkeys(strategies):
        opp, bad, seats = total.get(name, np.zeros((3, len(checks)), np.int64))
        lo, hi = wilson(bad, opp)
        for i, check in enumerate(checks):
            rows.append({"strategy": name, "check": check.name, "rule": check.rule, "seat_games": int(seats[i]),
                         "opportunities": int(opp[i]), "blunders": int(bad[i]),
                         "rate": bad[i] / opp[i] if opp[i] else float("nan"), "low": float(lo[i]),
                         "high": float(hi[i]), "per_game": bad[i] / seats[i] if seats[i] else float("nan")})
    return pd.DataFrame(rows)
