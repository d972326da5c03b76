"""Player strategies: parametric policy families and their named presets.

The engine's own policies (`random`, uniform over the legal options, and `simple`, a plain
mission runner) live with the engine in `sim/nyk/policy.py`, behind the one decision interface
of `sim/nyk/decisions.py`. This package is where the tuned families and their preset parameter
files (runner, enforcer, networker, ...) belong, as data beside the code that reads them.
"""
