"""A mixture of strategies used as one strategy: `meta:PATH` or `meta:NAME`.

A mixture file (TOML) names its game, a weight per component strategy (any spec the game
accepts: a preset, a preset file, with restrictions) and its provenance:

    doc = "The equilibrium of the meta-game grown by PSRO"
    game = "nyk"
    [weights]
    tuned = 0.6
    "psro-1" = 0.4
    [provenance]
    command = "mobsim strategies psro ..."

`meta:PATH` reads PATH (a .toml file, or a directory holding `mixture.toml`, such as a PSRO
study); `meta:NAME` reads a shipped mixture, `strategies/<game>/mixtures/NAME.toml`. A component
given as a relative path is read relative to the mixture file.

In play, each seat holding a mixture draws its style from the weights every game, from the run
seed, the game id and the seat alone (`draw`): the same game of the same run always seats the
same styles, whatever the batches or workers.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

PREFIX = "meta:"
FILE = "mixture.toml"
HERE = Path(__file__).resolve().parent


class MixtureError(ValueError):
    """A mixture spec or file that cannot be used (the message is one line)."""


@dataclass(frozen=True)
class Mixture:
    name: str                        # the spec as given ("meta:runs/psro1")
    components: tuple[str, ...]      # component specs, resolved (paths made absolute)
    weights: tuple[float, ...]       # summing to 1
    game: str = "nyk"
    doc: str = ""
    source: str = ""
    provenance: dict = field(default_factory=dict)


def is_mixture(spec) -> bool:
    return isinstance(spec, str) and spec.strip().startswith(PREFIX)


def mixture_dir(game: str = "nyk") -> Path:
    return HERE / game / "mixtures"


def available(game: str = "nyk") -> list[str]:
    return sorted(p.stem for p in mixture_dir(game).glob("*.toml"))


MAX_FILE_BYTES = 1 << 20   # a preset or mixture is a few hundred bytes: a larger file is not one


def small_text(path: Path) -> str:
    """The text of a preset or mixture file; ValueError past MAX_FILE_BYTES before it is read (a
    2 GB file would fill the memory)."""
    size = path.stat().st_size
    if size > MAX_FILE_BYTES:
        raise ValueError(f"{size:,} bytes, more than a preset or mixture file holds ({MAX_FILE_BYTES:,})")
    with open(path, encoding="utf-8") as handle:
        return handle.read(MAX_FILE_BYTES + 1)


def load(spec: str, game: str = "nyk") -> Mixture:
    """The mixture a `meta:` spec names; MixtureError if it cannot be used."""
    spec = spec.strip()
    target = spec[len(PREFIX):].strip()
    if not target:
        raise MixtureError(f"{spec!r}: give a mixture after meta: (a file, a PSRO study directory "
                           f"or one of: {', '.join(available(game)) or 'none shipped'})")
    path = _path(target, game)
    try:
        data = tomllib.loads(small_text(path))
    except (OSError, ValueError) as err:
        raise MixtureError(f"{path}: not a readable mixture file ({' '.join(str(err).split())})") from None
    if data.get("game", game) != game:
        raise MixtureError(f"{path}: a mixture of {data.get('game')} strategies, not of {game}'s")
    weights = data.get("weights")
    if not isinstance(weights, dict) or not weights:
        raise MixtureError(f"{path}: no [weights] table (one weight per component strategy)")
    names, values = [], []
    for name, w in weights.items():
        if isinstance(w, bool) or not isinstance(w, int | float) or w < 0:
            raise MixtureError(f"{path}: weight of {name!r} is {w!r}, not a number >= 0")
        if w > 0:
            names.append(_component(name, path.parent))
            values.append(float(w))
    total = sum(values)
    if total <= 0:
        raise MixtureError(f"{path}: every weight is 0")
    if any(is_mixture(n) for n in names):
        raise MixtureError(f"{path}: a component is itself a mixture (meta:): give plain strategies")
    return Mixture(spec, tuple(names), tuple(v / total for v in values), game,
                   str(data.get("doc", "")), str(path), dict(data.get("provenance", {})))


def _path(target: str, game: str) -> Path:
    path = Path(target)
    if path.is_dir():
        path = path / FILE
    elif not path.suffix and "/" not in target:
        path = mixture_dir(game) / f"{target}.toml"
    if not path.is_file():
        raise MixtureError(f"mixture {target!r} not found: give a mixture .toml file, a directory "
                           f"holding {FILE}, or one of: {', '.join(available(game)) or 'none shipped'}")
    return path


def _component(name: str, base: Path) -> str:
    head, *restrictions = name.split("+")
    if head.endswith(".toml") and not Path(head).is_absolute():
        head = str((base / head).resolve())
    return "+".join([head, *restrictions])


# --- the draw ---------------------------------------------------------------------------------------

_MASK = np.uint64(0xFFFFFFFFFFFFFFFF)


def _mix64(z: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser: a bijection of 64-bit words that scatters every input bit."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def uniforms(seed: int, game_ids, seat: int) -> np.ndarray:
    """A uniform in [0, 1) for each game id, from (seed, game id, seat) alone."""
    ids = np.asarray(game_ids, dtype=np.uint64)
    with np.errstate(over="ignore"):
        key = _mix64(np.array([seed], dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
                     + np.uint64(0x6D6574612D6D6978))   # "meta-mix"
        z = _mix64(key + ids * np.uint64(0xD1B54A32D192ED03) + np.uint64(seat + 1) * np.uint64(0x8CB92BA72F3D8DD7))
    return (z >> np.uint64(11)).astype(np.float64) * (1.0 / (1 << 53))


def draw(weights, seed: int, game_ids, seat: int) -> np.ndarray:
    """The component each game's seat plays: index into `weights`, by inverse CDF."""
    cdf = np.cumsum(np.asarray(weights, dtype=np.float64))
    cdf[-1] = 1.0
    return np.searchsorted(cdf, uniforms(seed, game_ids, seat), side="right")


def seatings_for(base: np.ndarray, pools: dict, seed: int, first_id: int, n: int) -> np.ndarray:
    """Per-game seatings for games first_id .. first_id + n - 1 as the engines index them (row
    (first_id + i) % n is game i's). `base[r, seat]` is the lineup slot of each seat under
    rotation r (game id % rows); `pools[slot]` = (pool index of each component, weights) for
    the slots holding a mixture: their seats get the drawn component's pool index."""
    ids = np.arange(first_id, first_id + n, dtype=np.int64)
    slots = base[ids % len(base)]
    out = slots.copy()
    for seat in range(base.shape[1]):
        for slot, (pool_index, weights) in pools.items():
            rows = slots[:, seat] == slot
            if rows.any():
                picked = draw(weights, seed, ids[rows], seat)
                out[rows, seat] = np.asarray(pool_index, dtype=np.int64)[picked]
    arranged = np.empty_like(out)
    arranged[ids % n] = out
    return arranged


def expand(chosen, load) -> tuple[list, dict, np.ndarray | None]:
    """The strategies an engine indexes for a lineup in which some slots hold mixtures: the
    slots first (a mixture slot keeps its first component as a placeholder never seated), then
    every mixture's components; `pools` for `seatings_for`; `owner[i]`, the lineup slot of pool
    entry i (None without mixtures)."""
    pool = [load(c.components[0]) if isinstance(c, Mixture) else c for c in chosen]
    pools = {}
    owner = list(range(len(chosen)))
    for slot, c in enumerate(chosen):
        if isinstance(c, Mixture):
            start = len(pool)
            pool += [load(spec) for spec in c.components]
            owner += [slot] * len(c.components)
            pools[slot] = (tuple(range(start, len(pool))), c.weights)
    return pool, pools, (np.array(owner, dtype=np.int64) if pools else None)
