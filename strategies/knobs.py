"""A knob of a policy family: its name, the range a preset may set it in, its default and what it does.

Each game's `strategies/<game>/params.py` lists its knobs as `Param`s; the loader (`strategies.load`)
checks every preset against them and the knob search (`sim.league`) searches inside the ranges.
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Param:
    name: str
    lo: float
    hi: float
    default: float
    doc: str
    searched: bool = True   # False: a study knob the knob search holds at its default
