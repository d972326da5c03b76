"""The games the runner can play: a registry of adapters (the protocol: sim.shared.adapter).

A game is a package `sim/<name>/` whose `adapter.py` holds `ADAPTER`; the registry finds the
games by looking, so a new game plugs in by adding its package and touches nothing here. The
runner knows a game only through its adapter: it moves plans and tables between processes and
disk and never reads a game's rules.
"""

from __future__ import annotations

from functools import cache

from sim.rooms import DEFAULT_GAME
from sim.shared import game as games
from sim.shared.adapter import GameAdapter

DEFAULT = DEFAULT_GAME  # the game of a command given no --game


@cache
def names() -> tuple[str, ...]:
    """Every game's name, the default first (sim.rooms.game_names)."""
    return games.names()


@cache
def adapter(name: str) -> GameAdapter:
    return games.find(name).adapter


def titles() -> dict[str, str]:
    """name -> the game's title ("nyk" -> "New York Kings")."""
    return games.titles()
