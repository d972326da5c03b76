"""Game-specific report sections: `sim.analysis.games.<game>.add_sections(report, run)`, picked by
the run's `manifest["game"]`. A game without a module gets the generic sections only."""

from __future__ import annotations

import importlib


def section_module(game: str):
    """The module of a game's own sections, or None."""
    if not game or not str(game).isidentifier():
        return None
    try:
        return importlib.import_module(f"{__name__}.{game}")
    except ModuleNotFoundError as err:
        if err.name == f"{__name__}.{game}":
            return None
        raise


def add_game_sections(report, run) -> bool:
    """Add the run's game-specific sections; False when its game has none."""
    module = section_module(run.manifest.get("game"))
    if module is None:
        return False
    module.add_sections(report, run)
    return True
