"""Player strategies: policy families, their named presets, and restricted play.

A strategy is a point of a game's policy space, written as data: `strategies/<game>/presets/
<name>.toml` names the family (`random`, `simple`, `param`) and sets some of the family's knobs
(`strategies/<game>/params.py` names and bounds every knob; the others keep their defaults).
Adding a preset is adding a file. Anywhere a strategy is asked for (CLI, `sim.run`), a spec is

    name                    a preset:            "runner"
    path/to/file.toml       a preset file:       "my/aggressive.toml"
    base+restriction+...    restricted play:     "enforcer+no-provoke", "runner+min-bid+no-recruit"

A restriction takes one mechanic away (the restricted player against the same strategy
unrestricted measures what the mechanic is worth). The policies themselves are jitted code beside
the knobs (`strategies/<game>/policy.py`), read by that game's engine.
"""

import difflib
import importlib
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent


class StrategyError(ValueError):
    """A strategy spec or preset file that cannot be used (the message is one line)."""


@dataclass(frozen=True)
class Strategy:
    name: str                      # the spec as given ("enforcer+no-provoke")
    family: str                    # policy family: random, simple, param
    params: tuple[float, ...]      # every knob of the game's family, defaults filled in
    restrictions: tuple[str, ...] = ()
    doc: str = ""
    source: str = ""               # the preset file
    provenance: dict = field(default_factory=dict)

    def kind(self, game: str = "nyk") -> int:
        return space(game).FAMILIES.index(self.family)

    def restrict_bits(self, game: str = "nyk") -> int:
        bits = space(game).RESTRICTIONS
        return sum(bits[r] for r in self.restrictions)

    def knobs(self, game: str = "nyk") -> dict[str, float]:
        return dict(zip(space(game).NAMES, self.params, strict=True))


def space(game: str = "nyk"):
    """The module naming a game's knobs (PARAMS, NAMES, DEFAULTS, RESTRICTIONS, FAMILIES)."""
    try:
        return importlib.import_module(f"strategies.{game}.params")
    except ModuleNotFoundError:
        raise StrategyError(f"no strategies for game {game!r}") from None


def preset_dir(game: str = "nyk") -> Path:
    return HERE / game / "presets"


def available(game: str = "nyk") -> list[str]:
    """Names of the presets shipped for a game, sorted."""
    return sorted(p.stem for p in preset_dir(game).glob("*.toml"))


def load(spec: str, game: str = "nyk") -> Strategy:
    """The strategy a spec names (see the module docstring); StrategyError if it cannot."""
    spec = str(spec).strip()
    base, *restrictions = spec.split("+")
    knobs = space(game)
    for r in restrictions:
        if r not in knobs.RESTRICTIONS:
            raise StrategyError(f"unknown restriction {r!r} in {spec!r}: choose among "
                                f"{', '.join(knobs.RESTRICTIONS)}{_did_you_mean(r, knobs.RESTRICTIONS)}")
    path = _preset_path(base, game)
    data = _read(path)
    family = data.get("family", "param")
    if family not in knobs.FAMILIES:
        raise StrategyError(f"{path}: family {family!r} is not one of {', '.join(knobs.FAMILIES)}")
    params = _params(data.get("params", {}), knobs, path)
    return Strategy(spec, family, params, tuple(dict.fromkeys(restrictions)), data.get("doc", ""),
                    str(path), dict(data.get("provenance", {})))


def _preset_path(base: str, game: str) -> Path:
    if base.endswith(".toml") or "/" in base:
        path = Path(base)
        if not path.is_file():
            raise StrategyError(f"strategy file {base} not found")
        return path
    path = preset_dir(game) / f"{base}.toml"
    if not path.is_file():
        names = available(game)
        raise StrategyError(f"unknown strategy {base!r}: choose among {', '.join(names)} "
                            f"or give a .toml file{_did_you_mean(base, names)}")
    return path


def _read(path: Path) -> dict:
    try:
        return tomllib.loads(path.read_text())
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as err:
        raise StrategyError(f"{path}: not a readable TOML preset ({' '.join(str(err).split())})") from None


def _params(given: dict, knobs, path: Path) -> tuple[float, ...]:
    values = list(knobs.DEFAULTS)
    for name, value in given.items():
        if name not in knobs.INDEX:
            raise StrategyError(f"{path}: unknown parameter {name!r}{_did_you_mean(name, knobs.NAMES)}")
        p = knobs.PARAMS[knobs.INDEX[name]]
        if isinstance(value, bool) or not isinstance(value, int | float) or not p.lo <= value <= p.hi:
            raise StrategyError(f"{path}: {name} = {value!r} is outside [{p.lo:g}, {p.hi:g}]")
        values[knobs.INDEX[name]] = float(value)
    return tuple(values)


def _did_you_mean(word: str, choices) -> str:
    close = difflib.get_close_matches(word, list(choices), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""
