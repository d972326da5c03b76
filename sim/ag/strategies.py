"""American Gangsters strategies: the presets of strategies/ag/*.toml, `simple`, or a TOML file.

A preset names a policy family (`random` or `parametric`, strategies.ag.policy) and, for `parametric`,
the parameters it changes from the defaults (`strategies.ag.policy.DEFAULTS`, named by PARAM_NAMES).
A strategy given as a path ending in `.toml` is read the same way.
"""

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from strategies.ag.policy import DEFAULTS, PARAM_NAMES, PARAMETRIC, RANDOM

PRESETS_DIR = Path(__file__).resolve().parents[2] / "strategies" / "ag"
_KINDS = {"random": RANDOM, "parametric": PARAMETRIC}


@dataclass(frozen=True)
class Strategy:
    name: str
    kind: int
    params: tuple[float, ...]
    doc: str


def _parse(raw: dict, where: str) -> Strategy:
    allowed = {"name", "policy", "doc", "params"}
    extra = set(raw) - allowed
    if extra:
        raise ValueError(f"{where}: unknown key {sorted(extra)[0]!r} (allowed: {', '.join(sorted(allowed))})")
    policy = raw.get("policy", "parametric")
    if policy not in _KINDS:
        raise ValueError(f"{where}: policy = {policy!r} is not allowed (allowed: {', '.join(_KINDS)})")
    params = DEFAULTS.copy()
    for key, value in raw.get("params", {}).items():
        if key not in PARAM_NAMES:
            raise ValueError(f"{where}: unknown parameter {key!r} (allowed: {', '.join(PARAM_NAMES)})")
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValueError(f"{where}: {key} = {value!r} is not a number")
        params[PARAM_NAMES.index(key)] = float(value)
    name = raw.get("name")
    if not isinstance(name, str) or not name:
        raise ValueError(f"{where}: missing name")
    return Strategy(name, _KINDS[policy], tuple(params), str(raw.get("doc", "")))


@cache
def presets() -> dict[str, Strategy]:
    """Every preset by name: `simple` (the parametric defaults) and strategies/ag/*.toml."""
    found = {"simple": Strategy("simple", PARAMETRIC, tuple(DEFAULTS),
                                "The parametric policy with its default parameters.")}
    for path in sorted(PRESETS_DIR.glob("*.toml")):
        with open(path, "rb") as handle:
            strategy = _parse(tomllib.load(handle), str(path))
        if strategy.name != path.stem:
            raise ValueError(f"{path}: name = {strategy.name!r} differs from the file name")
        found[strategy.name] = strategy
    return found


def strategy(name: str) -> Strategy:
    """A preset by name, or a strategy file (a path ending in .toml); ValueError names the choices."""
    if name.endswith(".toml"):
        path = Path(name)
        try:
            with open(path, "rb") as handle:
                raw = tomllib.load(handle)
        except (OSError, tomllib.TOMLDecodeError) as err:
            raise ValueError(f"strategy file {path}: {err}") from None
        return _parse(raw, str(path))
    known = presets()
    if name not in known:
        raise ValueError(f"unknown strategy {name!r}: choose among {', '.join(known)} or a .toml file")
    return known[name]


def parameter_matrix(names) -> tuple[np.ndarray, np.ndarray]:
    """(kinds, params) of the named strategies, one row each."""
    chosen = [strategy(n) for n in names]
    kinds = np.array([s.kind for s in chosen], dtype=np.int64)
    params = np.array([s.params for s in chosen], dtype=np.float64).reshape(len(chosen), len(PARAM_NAMES))
    return kinds, params
