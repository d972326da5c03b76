"""How the strategies of a study sit at the table, game by game: a table of seatings, row r the
lineup slot in each seat of the games with `game_id % len(table) == r`.

    rotate   the lineup turned by one seat per game (n seatings: every slot in every seat equally)
    fixed    the lineup as given, every game
    all      every order of the lineup (n! seatings: every slot next to every other, both sides)
    random   4,096 orders drawn uniformly once (a fixed seed), so each game's seating is random
             yet a game id always gets the same one

`all` and `random` let a report measure neighbour effects (who sits next to whom), which the
rotation cannot: with it a strategy always has the same neighbours.
"""

from __future__ import annotations

import itertools

import numpy as np

MODES = ("rotate", "fixed", "all", "random")
RANDOM_ROWS = 4096
RANDOM_SEED = 20_260_116
MAX_ALL = 8  # 8! = 40,320 seatings


def mode(seating) -> str:
    """A seating mode from a name, or from the older `rotate` flag (True: rotate, False: fixed)."""
    if seating is True or seating is None:
        return "rotate"
    if seating is False:
        return "fixed"
    if seating not in MODES:
        raise ValueError(f"seating {seating!r} is not one of {', '.join(MODES)}")
    return seating


def table(players: int, seating="rotate") -> np.ndarray:
    """The seatings (rows) of `players` lineup slots under a seating mode."""
    chosen = mode(seating)
    base = np.arange(players)
    if chosen == "fixed":
        return base[None, :].astype(np.int64)
    if chosen == "rotate":
        return np.array([np.roll(base, -r) for r in range(players)], dtype=np.int64)
    if chosen == "all":
        if players > MAX_ALL:
            raise ValueError(f"seating all: {players} players have too many orders; use random")
        return np.array(list(itertools.permutations(range(players))), dtype=np.int64)
    rng = np.random.default_rng(RANDOM_SEED)
    return np.array([rng.permutation(players) for _ in range(RANDOM_ROWS)], dtype=np.int64)
