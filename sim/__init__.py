"""mobsim: Monte Carlo balance simulator for mafia board games.

The package is laid out as rooms with one-way imports:
    sim.rng, sim.hands, sim.odds   (kernel: dice, hands, exact odds)
    sim.rules                      (validated rulesets: data files + overrides)
    sim.cli                        (command line; imports everything, imported by nothing)
"""

import os
from pathlib import Path

__version__ = "0.1.0"

# Compiled kernels are cached next to the project so a fresh clone compiles once (cache=True).
os.environ.setdefault("NUMBA_CACHE_DIR", str(Path(__file__).resolve().parent.parent / ".numba_cache"))


def __getattr__(name):
    """`sim.run` and `sim.load` (the batch runner), imported on first use."""
    if name in ("run", "load"):
        from sim import runner

        return getattr(runner, name)
    raise AttributeError(f"module 'sim' has no attribute {name!r}")
