"""How many games each cell of the skill axis gets. Counts come from a plan: `--games N` for
every heuristic cell, or a written plan.csv replayed (`read_plan`); a time budget only proposes
one (enough for the wanted precision on the seat advantage, within the budget, measured on a
pilot), which the study writes out as plan.csv so that another machine replays the same games.

A seat's advantage is its win share minus 1/n; its interval half-width after N games is about
Z95 sqrt(p (1 - p) / N), p the seat's win share, so N = Z95^2 p (1 - p) / h^2 for half-width h.
The pilot gives each cell's cost per game (a search rung's is some thousand times a heuristic
one's). When the cells' wanted games cost more than the budget, the budget is shared out by
water-filling: the cheapest wanted cells are served in full, the rest share what is left equally
in time, so a costly rung gets what the budget allows and its wider interval is shown as such.
"""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd

from sim.analysis.stats import Z95


def read_plan(path) -> dict:
    """A written plan.csv as {(rung, players): games} (a ValueError names what is missing)."""
    return plan_counts(pd.read_csv(Path(path)), path)


def plan_counts(table: pd.DataFrame, path) -> dict:
    """A plan table as {(rung, players): games} (a ValueError names what is missing)."""
    missing = {"rung", "players", "games"} - set(table.columns)
    if missing:
        raise ValueError(f"{path}: not a verdict plan (no {', '.join(sorted(missing))} column): give the "
                         f"plan.csv a verdict wrote")
    return {(str(r.rung), int(r.players)): int(r.games) for r in table.itertuples()}


def games_for_precision(p: float, half_width: float, minimum: int = 1, maximum: int = 10**7) -> int:
    """Games for a binomial share near p to have a 95% interval of about +- half_width."""
    if not half_width > 0:
        raise ValueError(f"precision {half_width!r}: give a half-width above 0, e.g. 0.02")
    p = min(max(p, 1e-3), 1 - 1e-3)
    return int(min(max(math.ceil(Z95**2 * p * (1 - p) / half_width**2), minimum), maximum))


def allot(wanted, seconds_per_game, budget: float, minimum: int = 2) -> list[int]:
    """Games per cell: each cell's wanted count, cut by water-filling so the total time (games x
    seconds per game) stays within `budget`; every cell keeps at least `minimum` games."""
    wanted = [int(w) for w in wanted]
    cost = [max(float(c), 1e-9) for c in seconds_per_game]
    games = [0] * len(wanted)
    left = max(float(budget), 0.0)
    order = sorted(range(len(wanted)), key=lambda i: wanted[i] * cost[i])
    for pos, i in enumerate(order):
        share = left / (len(order) - pos)
        n = min(wanted[i], int(share // cost[i]))
        games[i] = max(n, min(minimum, wanted[i]))
        left -= games[i] * cost[i]
    return games
