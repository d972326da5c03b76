"""Player strategies of every game: policy families, their named presets, and restricted play.

This module is the one loader of both games' strategies. Each game's folder has the same shape:
`strategies/<game>/params.py` names the policy families (FAMILIES), bounds and documents every
knob (PARAMS) and names the restrictions; `strategies/<game>/policy.py` is the jitted policy its
engine runs; `strategies/<game>/presets/<name>.toml` are the presets. A strategy is a point of a
game's policy space, written as data: a preset file names the family and sets some of the
family's knobs (the others keep their defaults):

    doc = "what it plays like"
    family = "param"              # optional: the game's DEFAULT_FAMILY
    [params]
    provoke_edge = 0.1            # a knob of the game's params.py, inside its range
    [provenance]                  # optional: how the preset was made
    [table]                       # optional: a policy table or weights file the family reads
    file = "optimal.npz"          #   beside the preset (relative to its folder), or absolute
    sha256 = "..."                #   its checksum: a file that differs is refused

A family that plays from a file (a game's `TABLE_FAMILIES` in params.py: a policy table, a
learned player's weights) needs a `[table]`; `table_file(strategy)` gives the checked path, and
the game's driver reads it (sim.pig.game). The file's own provenance (how it was made, from
which rules) goes in the preset's `[provenance]`.

Adding a preset is adding a file. Anywhere a strategy is asked for (CLI, `sim.run`), a spec is

    name                    a preset:            "runner"
    path/to/file.toml       a preset file:       "my/aggressive.toml"
    base+restriction+...    restricted play:     "enforcer+no-provoke", "runner+min-bid+no-recruit"

A restriction takes one mechanic away (the restricted player against the same strategy
unrestricted measures what the mechanic is worth). Both games get the same one-line errors
(StrategyError) for an unknown preset, an unknown knob or key, and a value out of range.
"""

import difflib
import hashlib
import importlib
import tomllib
from dataclasses import dataclass, field
from functools import cache
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
    search: dict = field(default_factory=dict)  # family `search`: its knobs (SEARCH_KNOBS)
    game: str = "nyk"
    # what the style is, as claims tests/test_presets.py measures: {"most": counters, "least": ...}
    persona: dict = field(default_factory=dict)
    table: dict = field(default_factory=dict)   # [table]: {"file": absolute path, "sha256": hex}

    def kind(self, game: str | None = None) -> int:
        """The policy family the engine runs for this seat (a search player's: its rollout's)."""
        family = self.search["rollout_family"] if self.family == SEARCH else self.family
        return space(game or self.game).FAMILIES.index(family)

    def restrict_bits(self, game: str | None = None) -> int:
        bits = space(game or self.game).RESTRICTIONS
        return sum(bits[r] for r in self.restrictions)

    def knobs(self, game: str | None = None) -> dict[str, float]:
        return dict(zip(space(game or self.game).NAMES, self.params, strict=True))


KEYS = ("doc", "family", "params", "persona", "provenance", "search", "table")   # what a preset file may hold
PERSONA_KEYS = ("most", "least")  # [persona]: the seat counters this style has most (least) of its game's styles


def games() -> list[str]:
    """The games with strategies: the folders of strategies/ holding a params.py."""
    return sorted(p.parent.name for p in HERE.glob("*/params.py"))


def space(game: str = "nyk"):
    """The module naming a game's knobs (PARAMS, NAMES, DEFAULTS, RESTRICTIONS, FAMILIES,
    DEFAULT_FAMILY)."""
    if game not in games():
        raise StrategyError(f"no strategies for game {game!r}: choose among {', '.join(games())}")
    return importlib.import_module(f"strategies.{game}.params")


def preset_dir(game: str = "nyk") -> Path:
    return HERE / game / "presets"


def available(game: str = "nyk", searchers: bool = False) -> list[str]:
    """Names of the presets shipped for a game, sorted; the `search` family's (sim.search: they
    play through the forward model, far slower than a batch) only with `searchers`."""
    paths = sorted(preset_dir(game).glob("*.toml"))
    return [p.stem for p in paths if searchers or _read(p).get("family") != SEARCH]


def load(spec: str, game: str = "nyk") -> Strategy:
    """The strategy a spec names (see the module docstring); StrategyError if it cannot."""
    spec = str(spec).strip()
    base, *restrictions = spec.split("+")
    knobs = space(game)
    for r in restrictions:
        if r not in knobs.RESTRICTIONS:
            choices = ", ".join(knobs.RESTRICTIONS) or "none (this game has no restrictions)"
            raise StrategyError(f"unknown restriction {r!r} in {spec!r}: choose among "
                                f"{choices}{_did_you_mean(r, knobs.RESTRICTIONS)}")
    path = _preset_path(base, game)
    data = _read(path)
    for key in data:
        if key not in KEYS:
            raise StrategyError(f"{path}: unknown key {key!r}: a preset holds {', '.join(KEYS)}"
                                f"{_did_you_mean(key, KEYS)}")
    family = data.get("family", knobs.DEFAULT_FAMILY)
    if family == SEARCH and _searchable(game):
        return _search_strategy(spec, data, path, restrictions, game)
    if family not in knobs.FAMILIES:
        raise StrategyError(f"{path}: family {family!r} is not one of {', '.join(knobs.FAMILIES)}"
                            f"{_did_you_mean(str(family), knobs.FAMILIES)}")
    params = _params(data.get("params", {}), knobs, path)
    return Strategy(spec, family, params, tuple(dict.fromkeys(restrictions)), data.get("doc", ""),
                    str(path), dict(data.get("provenance", {})), game=game, persona=_persona(data, path),
                    table=_table(data, family, knobs, path))


def _preset_path(base: str, game: str) -> Path:
    if base.endswith(".toml") or "/" in base:
        path = Path(base)
        if not path.is_file():
            raise StrategyError(f"strategy file {base} not found")
        return path
    space(game)
    path = preset_dir(game) / f"{base}.toml"
    if not path.is_file():
        names = available(game, searchers=True)
        raise StrategyError(f"unknown strategy {base!r}: choose among {', '.join(names)} "
                            f"or give a .toml file{_did_you_mean(base, names)}")
    return path


def _read(path: Path) -> dict:
    from strategies.mixture import small_text

    try:
        return tomllib.loads(small_text(path))
    except (OSError, ValueError) as err:
        raise StrategyError(f"{path}: not a readable TOML preset ({' '.join(str(err).split())})") from None


def _params(given: dict, knobs, path: Path) -> tuple[float, ...]:
    values = list(knobs.DEFAULTS)
    if not isinstance(given, dict):
        raise StrategyError(f"{path}: params = {given!r} is not a table: write the knobs under [params]")
    for name, value in given.items():
        if name not in knobs.INDEX:
            hint = _did_you_mean(name, knobs.NAMES) or f" (the knobs: {', '.join(knobs.NAMES)})"
            raise StrategyError(f"{path}: unknown parameter {name!r}{hint}")
        p = knobs.PARAMS[knobs.INDEX[name]]
        if isinstance(value, bool) or not isinstance(value, int | float) or not p.lo <= value <= p.hi:
            raise StrategyError(f"{path}: {name} = {value!r} is outside [{p.lo:g}, {p.hi:g}]: "
                                f"give a number in that range")
        values[knobs.INDEX[name]] = float(value)
    return tuple(values)


def _table(data: dict, family: str, knobs, path: Path) -> dict:
    """[table] file = ..., sha256 = ...: the file checked against its checksum; required by the
    game's TABLE_FAMILIES, refused by the others."""
    needs = family in getattr(knobs, "TABLE_FAMILIES", ())
    given = data.get("table")
    if given is None:
        if needs:
            raise StrategyError(f"{path}: family {family!r} plays from a file: give [table] file = ..., sha256 = ...")
        return {}
    if not needs:
        raise StrategyError(f"{path}: family {family!r} reads no table: remove [table]")
    if not isinstance(given, dict) or set(given) != {"file", "sha256"}:
        raise StrategyError(f"{path}: [table] holds exactly file = \"...\" and sha256 = \"...\"")
    file = (path.parent / str(given["file"])).resolve()
    if not file.is_file():
        raise StrategyError(f"{path}: table file {given['file']} not found")
    if file_sha256(file) != given["sha256"]:
        raise StrategyError(f"{path}: table file {given['file']} does not match its sha256: the file changed "
                            f"since the preset was written (regenerate both together)")
    return {"file": str(file), "sha256": str(given["sha256"])}


@cache
def _sha256_of(path: str, size: int, mtime: float) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def file_sha256(path) -> str:
    """The sha256 of a file (read once while it is unchanged)."""
    stat = Path(path).stat()
    return _sha256_of(str(path), stat.st_size, stat.st_mtime)


def table_file(strategy: Strategy) -> Path:
    """The checked file of a table-holding strategy (StrategyError when it has none)."""
    if not strategy.table:
        raise StrategyError(f"strategy {strategy.name!r} holds no table")
    return Path(strategy.table["file"])


def _persona(data: dict, path: Path) -> dict:
    """[persona] most = [...], least = [...]: lists of the game's seat counter names."""
    persona = data.get("persona", {})
    if not isinstance(persona, dict):
        raise StrategyError(f"{path}: persona = {persona!r} is not a table: write most = [...] under [persona]")
    for key, names in persona.items():
        if key not in PERSONA_KEYS:
            raise StrategyError(f"{path}: unknown persona key {key!r}: choose among {', '.join(PERSONA_KEYS)}"
                                f"{_did_you_mean(key, PERSONA_KEYS)}")
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise StrategyError(f"{path}: persona.{key} = {names!r} is not a list of counter names")
    return {key: tuple(names) for key, names in persona.items()}


def _did_you_mean(word: str, choices) -> str:
    close = difflib.get_close_matches(word, list(choices), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


# --- the search family (sim.search): information-set MCTS over the seat's own decisions ----------

SEARCH = "search"


def _searchable(game: str) -> bool:
    """Whether the search player plays `game` (its declared capability, sim.shared.game)."""
    from sim.shared import game as games   # here: the jitted players import this package

    return games.find(game).has(games.SEARCH)

SEARCH_KNOBS = {  # name: (default, low, high, what it is)
    "iterations": (200, 1, 100_000, "MCTS iterations per searched decision"),
    "exploration": (0.7, 0.0, 10.0, "UCB exploration constant c"),
    "guard": (2.0, 0.0, 10.0, "root = halving: the z an option's paired advantage over the rollout's needs"),
    "horizon": (-1, -1, 64, "root = halving: turns a playout plays after the decision's own before the game's "
                "leaf model values the board (-1: to the end of the game)"),
    "verify": (0, 0, 100_000, "horizon >= 0: worlds played to the end in which an option chosen on the leaf "
               "model must beat the rollout's again (0: no check)"),
}
SEARCH_ROOTS = ("uct", "halving")  # the IS-MCTS tree, or Sequential Halving over the root's options
SEARCH_OPPONENTS = ("rollout", "actual")
SEARCH_REWARDS = ("win", "rank")  # what a playout is worth: a win (shared: split), or the rank


def _search_strategy(spec: str, data: dict, path: Path, restrictions, game: str) -> Strategy:
    """A `search` preset: `[search]` sets iterations, exploration, `rollout` (the preset that
    plays the seat's unsearched decisions and every playout), `kinds` (decision kinds searched,
    or "all"), `opponents` (whether playouts seat the rollout preset everywhere, "rollout", or
    the game's actual strategies, "actual"), `reward` ("win" or "rank"), `root` ("uct": the
    IS-MCTS tree; "halving": Sequential Halving over the root's options on common worlds, with
    `guard`, the z-score another option's paired advantage needs to replace the rollout's,
    `horizon`, the turns after which a playout is valued by the game's leaf model, and `verify`,
    the worlds played out in which a change the leaf model found must hold again)."""
    decisions = importlib.import_module(f"sim.{game}.decisions").DECISIONS  # the game's decision kinds

    given = dict(data.get("search", {}))
    knobs = {}
    for name, (default, lo, hi, _) in SEARCH_KNOBS.items():
        value = given.pop(name, default)
        if isinstance(value, bool) or not isinstance(value, int | float) or not lo <= value <= hi:
            raise StrategyError(f"{path}: search.{name} = {value!r} is outside [{lo:g}, {hi:g}]")
        knobs[name] = int(value) if name in ("iterations", "horizon", "verify") else float(value)
    rollout = given.pop("rollout", "balanced")
    inner = load(rollout, game)
    if inner.family == SEARCH:
        raise StrategyError(f"{path}: search.rollout = {rollout!r} is itself a search player: "
                            f"name a preset of another family")
    kinds = given.pop("kinds", "all")
    names = list(decisions) if kinds == "all" else kinds
    if not isinstance(names, list) or any(k not in decisions for k in names):
        raise StrategyError(f"{path}: search.kinds = {kinds!r}: give \"all\" or a list of "
                            f"{', '.join(decisions)}")
    reward = given.pop("reward", "win")
    if reward not in SEARCH_REWARDS:
        raise StrategyError(f"{path}: search.reward = {reward!r}: choose {' or '.join(SEARCH_REWARDS)}")
    opponents = given.pop("opponents", "rollout")
    if opponents not in SEARCH_OPPONENTS:
        raise StrategyError(f"{path}: search.opponents = {opponents!r}: choose "
                            f"{' or '.join(SEARCH_OPPONENTS)}")
    root = given.pop("root", "uct")
    if root not in SEARCH_ROOTS:
        raise StrategyError(f"{path}: search.root = {root!r}: choose {' or '.join(SEARCH_ROOTS)}")
    if knobs["horizon"] >= 0 and (root != "halving" or reward != "win"):
        raise StrategyError(f"{path}: search.horizon = {knobs['horizon']} values leaves by a win chance: "
                            f"it needs root = \"halving\" and reward = \"win\" (or horizon = -1)")
    if knobs["verify"] > 0 and knobs["horizon"] < 0:
        raise StrategyError(f"{path}: search.verify = {knobs['verify']} checks what the leaf model chose: set "
                            f"search.horizon >= 0 too, or verify = 0")
    if given:
        raise StrategyError(f"{path}: unknown search knob {next(iter(given))!r}: choose among "
                            f"{', '.join([*SEARCH_KNOBS, 'rollout', 'kinds', 'opponents', 'reward', 'root'])}")
    knobs.update(rollout=rollout, rollout_family=inner.family, kinds=tuple(names), opponents=opponents,
                 reward=reward, root=root)
    return Strategy(spec, SEARCH, inner.params, tuple(dict.fromkeys(restrictions + list(inner.restrictions))),
                    data.get("doc", ""), str(path), dict(data.get("provenance", {})), knobs, game,
                    table=inner.table)   # a learned rollout's weights
