"""The games the runner can play: a registry of adapters (the protocol: sim.shared.adapter).

A game is a package `sim/<name>/` whose `adapter.py` holds `ADAPTER`; the registry finds the
games by looking, so a new game plugs in by adding its package and touches nothing here. The
runner knows a game only through its adapter: it moves plans and tables between processes and
disk and never reads a game's rules.
"""

from __future__ import annotations

from functools import cache

from sim.shared import game as games
from sim.shared.adapter import GameAdapter


@cache
def adapter(name: str) -> GameAdapter:
    """The game's adapter, from its description (sim.shared.game); ValueError naming the games."""
    return games.find(name).adapter
