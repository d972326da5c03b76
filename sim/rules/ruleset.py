"""The validated, immutable ruleset: rule values + board + cards, loaded from data files.

`Ruleset.load()` reads the game's data files under `sim/rules/<game>/`, then a designer's file
(only what it changes), then overrides (dotted keys), and checks everything. A designer file uses
the same dotted keys as `rules.toml` and may replace whole content files under `[content]`:

    [provocation]
    stake = 3000

    [content]
    missions = "my_missions.toml"      # a path, relative to this file, or an inline table
"""

import hashlib
import importlib
import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from sim.rules.errors import RulesetError, unknown
from sim.rules.spec import Option, flatten, load_spec, read_toml

GAMES_DIR = Path(__file__).resolve().parent


@dataclass(frozen=True)
class ContentHook:
    """How a game loads its content: `HOOK` in `sim/rules/<game>/__init__.py`.

    `parsers[kind](table, where)` parses `<kind>.toml` (read back as `rs.<kind>`);
    `cross_check(values, origin, content)` raises RulesetError; `assumed(rs)` and `doc_lines(rs)`
    serve the Ruleset property and the generated docs page; `summary(rs)` the lines of
    `mobsim rules show` (None: a line per kind); `doc_example` is a designer file's example. The
    game's engine compiles its own content (`sim.<game>.env`): the rules room sits below it."""

    kinds: tuple[str, ...]
    parsers: dict
    cross_check: Callable
    assumed: Callable
    doc_lines: Callable
    doc_example: tuple[str, ...]
    summary: Callable | None = None


def content_hook(game: str) -> ContentHook:
    """The game's content hook (`sim.rules.<game>.HOOK`)."""
    game_dir(game)
    return importlib.import_module(f"sim.rules.{game}").HOOK


def game_dir(game: str) -> Path:
    path = GAMES_DIR / game
    if not game or not (path / "rules.toml").is_file():
        known = sorted(p.name for p in GAMES_DIR.iterdir() if (p / "rules.toml").is_file())
        raise unknown("ruleset", "game", game, known)
    return path


def options(game: str = "nyk") -> dict[str, Option]:
    """Every option of a game, by dotted key, in the order of its rules.toml."""
    return load_spec(game_dir(game) / "rules.toml")


def round_thousands(amount: float) -> int:
    """Round half up to a whole $1,000 (bills are thousands)."""
    return int(math.floor(amount / 1000 + 0.5 + 1e-9)) * 1000


@dataclass(frozen=True, eq=False)
class Ruleset:
    game: str
    values: MappingProxyType          # dotted key -> effective value
    sources: MappingProxyType         # content kind -> where it came from
    content: MappingProxyType         # content kind -> its parsed data (the game's ContentHook)

    # --- construction -----------------------------------------------------------------------

    @classmethod
    def load(cls, path=None, overrides=None, game: str = "nyk", *,
             overrides_origin: str = "overrides") -> "Ruleset":
        folder = game_dir(game)
        spec = options(game)
        hook = content_hook(game)
        kinds, parsers = hook.kinds, hook.parsers
        content_raw = {kind: (folder / f"{kind}.toml", None) for kind in kinds}
        changes: list[tuple[str, str, object]] = []   # (where, key, value), later wins

        if path is not None:
            path = Path(path)
            raw = read_toml(path, "ruleset file")
            replacements = raw.pop("content", {})
            if not isinstance(replacements, dict):
                raise RulesetError(f"{path}: content must be a table of kind = file or table")
            for kind, value in replacements.items():
                if kind not in kinds:
                    raise unknown(f"{path}: content", "content kind", kind, kinds)
                if isinstance(value, str):
                    content_raw[kind] = ((path.parent / value), None)
                elif isinstance(value, dict):
                    content_raw[kind] = (path, value)
                else:
                    raise RulesetError(f"{path}: content.{kind} = {value!r} is not allowed "
                                       f"(allowed: a file name or a table)")
            changes += [(str(path), key, value) for key, value in flatten(raw).items()]
        for key, value in flatten(dict(overrides or {})).items():
            changes.append((overrides_origin, key, value))

        content = {}
        for kind, (source, table) in content_raw.items():
            where = str(source) if table is None else f"{source}: content.{kind}"
            if table is None:
                table = read_toml(source, f"{kind} file")
            content[kind] = parsers[kind](table, where)

        values = {key: option.default for key, option in spec.items()}
        origin = {}
        for where, key, value in changes:
            if key not in spec:
                raise unknown(where, "key", key, spec)
            values[key] = spec[key].check(value, where)
            origin[key] = where
        hook.cross_check(values, origin, content)
        sources = MappingProxyType({kind: str(content_raw[kind][0]) for kind in kinds})
        return cls(game=game, values=MappingProxyType(values), sources=sources,
                   content=MappingProxyType(content))

    @classmethod
    def check_file(cls, path, game: str = "nyk") -> "Ruleset":
        """Load a designer file (raises RulesetError when it is not valid)."""
        return cls.load(path, game=game)

    # --- reading ----------------------------------------------------------------------------

    def __getitem__(self, key: str):
        try:
            return self.values[key]
        except KeyError:
            raise unknown("ruleset", "key", key, self.values) from None

    def option(self, key: str) -> Option:
        return options(self.game)[key]

    def defaults_changed(self) -> tuple[str, ...]:
        spec = options(self.game)
        return tuple(k for k, v in self.values.items() if v != spec[k].default)

    def money(self, key: str) -> int:
        """Effective integer dollars of a money constant after its scale knob, whole $1,000."""
        option = self.option(key) if key in self.values else None
        if option is None or option.type != "money":
            raise unknown("ruleset", "money key", key,
                          [k for k, o in options(self.game).items() if o.type == "money"])
        amount = self.values[key]
        if option.knob is None:
            return amount
        return round_thousands(amount * self.values[option.knob])

    def __getattr__(self, name: str):
        """A content kind by its name (`rs.board`, `rs.locations`): the game's hook names them."""
        content = self.__dict__.get("content")
        if content is not None and name in content:
            return content[name]
        raise AttributeError(f"a {self.__dict__.get('game', '?')} ruleset has no {name!r}")

    @property
    def assumed(self) -> MappingProxyType:
        """What is an assumption rather than printed rules: option keys and content names."""
        spec = options(self.game)
        return MappingProxyType({"values": tuple(k for k in self.values if spec[k].assumed),
                                 **content_hook(self.game).assumed(self)})

    def to_dict(self) -> dict:
        """The effective content, JSON-able (tuples as lists)."""
        values = {k: list(v) if isinstance(v, tuple) else v for k, v in self.values.items()}
        return {"game": self.game, "values": values,
                **{kind: part.to_dict() for kind, part in self.content.items()}}

    @property
    def fingerprint(self) -> str:
        """sha256 of the canonical JSON of the effective content: same rules, same fingerprint."""
        text = json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"), ensure_ascii=True)
        return hashlib.sha256(text.encode()).hexdigest()

    def __eq__(self, other):
        return isinstance(other, Ruleset) and self.fingerprint == other.fingerprint

    def __hash__(self):
        return hash(self.fingerprint)

    def __repr__(self):
        changed = ", ".join(f"{k}={self.values[k]!r}" for k in self.defaults_changed())
        return f"Ruleset({self.game}, {self.fingerprint[:12]}{', ' + changed if changed else ''})"
