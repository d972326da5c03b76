"""Designer tuning: parameter sweeps, sensitivity of every knob, and a search that meets targets.

    sim.tuning.grid         parse `key=a:b:n` ranges and `key=v1,v2` lists, checked against the rules
    sim.tuning.targets      parse targets ("seat_gap<=0.02", "turns=9:12") and score violations
    sim.tuning.study        one point of a study: a run with a ruleset change, its headline metrics
    sim.tuning.sweeps       `sweep`: every point of a grid on the same games (common random numbers)
    sim.tuning.sensitivity  a step down and up of each numeric option around the current rules
    sim.tuning.search       `tune`: successive halving with common random numbers inside a box

Every run of a study uses the same seed and game ids, so two points differ only by their rules
and their differences are paired game by game (far less noisy than two independent samples).
"""

from sim.tuning.errors import TuningError

__all__ = ["TuningError", "sweep", "sensitivity", "tune"]


def __getattr__(name):
    """The study functions, imported on first use (they pull in pandas and the runner)."""
    if name == "sweep":
        from sim.tuning.sweeps import sweep

        return sweep
    if name == "sensitivity":
        from sim.tuning.sensitivity import sensitivity

        return sensitivity
    if name == "tune":
        from sim.tuning.search import tune

        return tune
    raise AttributeError(f"module 'sim.tuning' has no attribute {name!r}")
