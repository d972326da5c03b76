"""mobsim: Monte Carlo balance simulator for mafia board games.

The package is laid out as rooms with one-way imports:
    sim.rng, sim.nyk.hands, sim.nyk.dice, sim.nyk.odds   (kernel: dice, hands, contests, exact odds)
    sim.rules                                (validated rulesets: data files + overrides)
    sim.nyk                                  (the New York Kings engine: state, rules, decisions)
    sim.runner                               (reproducible, resumable runs of many games)
    sim.analysis                             (tables, figures and reports from runs)
    sim.cli                                  (command line; imports everything, imported by nothing)
"""

import os
from pathlib import Path

from sim._cache import refresh_rooms as _refresh_cache
from sim.rooms import game_names as _game_names

__version__ = "0.1.0"

# One BLAS thread a process: mobsim's parallelism is its worker processes, one per core, and
# OpenBLAS's own threads, started at numpy's import (nothing above loads numpy), spin on the
# cores those processes need (some 0.5 CPU s of a 2,000-game `mobsim run`'s 2 s, measured).
# Not OMP_NUM_THREADS: pyarrow sizes its pool by it, and Parquet reads use both cores.
for _blas in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_blas, "1")

# Compiled kernels are cached next to the project so a fresh clone compiles once (cache=True),
# and a room of the cache is emptied when the sources its jitted code imports change (sim/_cache.py).
os.environ.setdefault("NUMBA_CACHE_DIR", str(Path(__file__).resolve().parent.parent / ".numba_cache"))
_HERE = Path(__file__).resolve().parent
_CACHE_ROOMS = {  # name -> (folders, folders without their subfolders) holding the room's jitted modules
    "kernel": ([], [_HERE]),  # and any jitted module no game holds
    # the search imports the players' plumbing (sim.nyk.game, strategies.lineup) that the engine
    # does not: its own room, so an edit there recompiles the search, not the engine
    "search": ([_HERE / "search"], []),
}
for _game in _game_names():  # every game: its engine, its rules' content and its players
    _CACHE_ROOMS.setdefault(_game, ([_HERE / _game, _HERE / "rules" / _game, _HERE.parent / "strategies" / _game], []))
_refresh_cache(os.environ["NUMBA_CACHE_DIR"], _CACHE_ROOMS, kernel="kernel", root=_HERE.parent)


def __getattr__(name):
    """`sim.run`, `sim.load` (the batch runner) and `sim.sweep`, imported on first use."""
    if name in ("run", "load"):
        from sim import runner

        return getattr(runner, name)
    if name == "sweep":  # parameter sweeps (sim.tuning)
        from sim.tuning.sweeps import sweep

        return sweep
    raise AttributeError(f"module 'sim' has no attribute {name!r}")
