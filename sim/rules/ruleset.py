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
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

import numpy as np

from sim.rules.content import (
    ENGINE_MAX_BILLS,
    Board,
    Characters,
    EndCard,
    MissionDeck,
    ResourceDeck,
    parse_board,
    parse_characters,
    parse_missions,
    parse_resources,
)
from sim.rules.errors import RulesetError, unknown
from sim.rules.spec import RANDOM, Option, flatten, load_spec, read_toml

GAMES_DIR = Path(__file__).resolve().parent
CONTENT_KINDS = ("board", "characters", "missions", "resources")
_PARSERS = {"board": parse_board, "characters": parse_characters,
            "missions": parse_missions, "resources": parse_resources}


@dataclass(frozen=True)
class ContentHook:
    """How a game other than New York Kings loads its content: `HOOK` in `sim/rules/<game>/`.

    `parsers[kind](table, where)` parses `<kind>.toml`; `cross_check(values, origin, content)`
    raises RulesetError; `assumed(rs)` and `doc_lines(rs)` serve the Ruleset method and the
    generated docs page (the game's engine compiles its own content: `sim.<game>.env`);
    `doc_example` is a designer file's example."""

    kinds: tuple[str, ...]
    parsers: dict
    cross_check: Callable
    assumed: Callable
    doc_lines: Callable
    doc_example: tuple[str, ...]


def content_hook(game: str) -> ContentHook | None:
    """The game's content hook, or None for New York Kings (its content is loaded here)."""
    if game == "nyk":
        return None
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


def _round_thousands(amount: float) -> int:
    """Round half up to a whole $1,000 (bills are thousands)."""
    return int(math.floor(amount / 1000 + 0.5 + 1e-9)) * 1000


@dataclass(frozen=True, eq=False)
class Ruleset:
    game: str
    values: MappingProxyType          # dotted key -> effective value
    board: Board
    characters: Characters
    missions: MissionDeck
    resources: ResourceDeck
    sources: MappingProxyType         # "values" / content kind -> where it came from
    # another game's content by kind (its ContentHook); empty for New York Kings
    content: MappingProxyType = field(default_factory=lambda: MappingProxyType({}))

    # --- construction -----------------------------------------------------------------------

    @classmethod
    def load(cls, path=None, overrides=None, game: str = "nyk", *,
             overrides_origin: str = "overrides") -> "Ruleset":
        folder = game_dir(game)
        spec = options(game)
        hook = content_hook(game)
        kinds = hook.kinds if hook else CONTENT_KINDS
        parsers = hook.parsers if hook else _PARSERS
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
        (hook.cross_check if hook else _cross_check)(values, origin, content)
        sources = MappingProxyType({kind: str(content_raw[kind][0]) for kind in kinds})
        if hook:
            return cls(game=game, values=MappingProxyType(values), board=None, characters=None,
                       missions=None, resources=None, sources=sources,
                       content=MappingProxyType(content))
        return cls(
            game=game, values=MappingProxyType(values), board=content["board"],
            characters=content["characters"], missions=content["missions"],
            resources=content["resources"],
            sources=sources,
        )

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
        return _round_thousands(amount * self.values[option.knob])

    def mission_rewards(self) -> np.ndarray:
        """Rewards of the mission deck (in deck file order) after missions.reward_scale."""
        scale = self.values["missions.reward_scale"]
        return np.array([_round_thousands(m.reward * scale) for m in self.missions], dtype=np.int64)

    @property
    def end_card(self) -> EndCard:
        return self.missions.end_card

    @property
    def start_district(self) -> int:
        """Index of the start district, or -1 for a random district each game."""
        name = self.values["start.district"]
        return -1 if name == RANDOM else self.board.index(name)

    @property
    def assumed(self) -> MappingProxyType:
        """What is an assumption rather than printed rules: option keys and content names."""
        spec = options(self.game)
        if self.content:
            return MappingProxyType({"values": tuple(k for k in self.values if spec[k].assumed),
                                     **content_hook(self.game).assumed(self)})
        return MappingProxyType({
            "values": tuple(k for k in self.values if spec[k].assumed),
            "board": self.board.assumed,
            "henchmen": tuple(h.name for h in self.characters.henchmen if h.assumed),
            "missions": tuple(m.name for m in self.missions if m.assumed),
            "resources": tuple(c.name for c in self.resources if c.assumed),
        })

    def to_dict(self) -> dict:
        """The effective content, JSON-able (tuples as lists)."""
        values = {k: list(v) if isinstance(v, tuple) else v for k, v in self.values.items()}
        if self.content:
            return {"game": self.game, "values": values,
                    **{kind: part.to_dict() for kind, part in self.content.items()}}
        return {
            "game": self.game,
            "values": values,
            "board": self.board.to_dict(),
            "characters": self.characters.to_dict(),
            "missions": self.missions.to_dict(),
            "resources": self.resources.to_dict(),
        }

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

    def compile(self):
        if self.content:  # the rules room sits below the engines: the game compiles its own content
            raise RulesetError(f"a {self.game} ruleset is compiled by its engine: "
                               f"sim.{self.game}.env.compile_ruleset(rs)")
        from sim.rules.compiled import compile_ruleset

        return compile_ruleset(self)


def _cross_check(values: dict, origin: dict, content: dict):
    """Checks between values and content; the message names where the later value came from."""

    def fail(key: str, problem: str, allowed: str):
        where = origin.get(key, "rules.toml")
        raise RulesetError(f"{where}: {key} = {values[key]!r} {problem} (allowed: {allowed})")

    board, characters = content["board"], content["characters"]
    n_affranchi = len(characters.affranchi)
    if values["players.max"] > n_affranchi:
        fail("players.max", "is more than the affranchi", f"at most {n_affranchi}")
    if values["players.min"] > values["players.max"]:
        fail("players.min", "is more than players.max", f"at most {values['players.max']}")
    if len(values["start.bills"]) > ENGINE_MAX_BILLS:
        fail("start.bills", f"holds {len(values['start.bills'])} bills",
             f"at most {ENGINE_MAX_BILLS} bills, what the engine holds")
    district = values["start.district"]
    if district != RANDOM and district not in board.names:
        from sim.rules.errors import did_you_mean

        fail("start.district", f"is not a district{did_you_mean(district, board.names)}",
             '"random" or a district name')
    if values["police.start_cars"] > values["police.max_cars"]:
        fail("police.start_cars", "is more than police.max_cars",
             f"at most {values['police.max_cars']}")
    if values["recruit.min_offer"] > values["recruit.max_offer"]:
        fail("recruit.min_offer", "is more than recruit.max_offer",
             f"at most {values['recruit.max_offer']}")
    step = values["recruit.offer_step"]
    for key in ("recruit.min_offer", "recruit.max_offer"):
        if values[key] % step:
            fail(key, "is not a multiple of recruit.offer_step", f"multiples of {step}")
    if values["missions.end_card_among_last"] > len(content["missions"]) + 1:
        fail("missions.end_card_among_last", "is more than the mission deck and end card",
             f"at most {len(content['missions']) + 1}")
    if values["missions.row"] > len(content["missions"]):
        fail("missions.row", "is more than the mission deck", f"at most {len(content['missions'])}")
