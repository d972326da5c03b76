"""Rule options: the schema of `rules.toml` and the checking of one value against its option.

An option is a table of `rules.toml` holding a `default`; its dotted path is its key
(`[provocation.stake]` is the key "provocation.stake"). A value is checked against the option's
type and returned normalized (lists become tuples, ranks upper-case labels, floats floats).
"""

import copy
import os
import stat
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from sim.rules.errors import RulesetError, unknown

TYPES = ("int", "money", "float", "bool", "choice", "rank", "district", "money_list", "int_list")
# ruling: a reading where the book is silent or ambiguous; designer: a knob for a designer (seat
# compensation), not a rule of the book, whose default changes no game
SOURCES = ("rulebook", "ruling", "assumed", "designer")
RANK_LABELS = ("9", "10", "J", "Q", "K", "A")
RANDOM = "random"
_FIELDS = {"default", "type", "rule", "source", "doc", "min", "max", "choices", "knob"}


@dataclass(frozen=True)
class Option:
    key: str
    default: object
    type: str
    rule: str
    source: str
    doc: str
    min: float | None = None
    max: float | None = None
    choices: tuple = ()
    knob: str | None = None

    @property
    def assumed(self) -> bool:
        """Not printed in the rules: an invented value or a ruling (every listing of assumptions shows both)."""
        return self.source in ("ruling", "assumed")

    @property
    def designer(self) -> bool:
        """A designer's knob (seat compensation): no rule of the book, its default changes no game."""
        return self.source == "designer"

    @property
    def ruling(self) -> bool:
        return self.source == "ruling"

    def allowed(self) -> str:
        """What this option accepts, in words (used in error messages and the docs)."""
        if self.type == "int":
            return f"an integer from {self.min} to {self.max}"
        if self.type == "money":
            return f"whole thousands of dollars from {self.min:,} to {self.max:,}"
        if self.type == "money_list":
            return (f"a list of amounts in whole thousands of dollars "
                    f"from {self.min:,} to {self.max:,}")
        if self.type == "int_list":
            return f"a list of integers from {self.min} to {self.max}"
        if self.type == "float":
            return f"a number from {self.min} to {self.max}"
        if self.type == "bool":
            return "true or false"
        if self.type == "choice":
            return "one of " + ", ".join(f'"{c}"' for c in self.choices)
        if self.type == "rank":
            return "one of 9, 10, J, Q, K, A"
        return '"random" or a district name'

    def check(self, value, where: str):
        """The normalized value, or a RulesetError naming where, key, value and what is allowed."""

        def bad(problem: str = "is not allowed"):
            shown = _show(value)
            return RulesetError(f"{where}: {self.key} = {shown} {problem} "
                                f"(allowed: {self.allowed()})")

        kind = self.type
        if kind in ("int", "money"):
            number = _integer(value)
            if number is None:
                raise bad("is not an integer" if kind == "int" else "is not a whole amount")
            if kind == "money" and number % 1000:
                raise bad("is not a whole number of thousands")
            if not self.min <= number <= self.max:
                raise bad("is out of range")
            return number
        if kind == "float":
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise bad("is not a number")
            if not self.min <= value <= self.max:
                raise bad("is out of range")
            return float(value)
        if kind == "bool":
            if not isinstance(value, bool):
                raise bad("is not true or false")
            return value
        if kind == "choice":
            if value not in self.choices:
                raise bad()
            return value
        if kind == "rank":
            label = str(value).strip().upper() if not isinstance(value, bool) else ""
            if label not in RANK_LABELS:
                raise bad("is not a value")
            return label
        if kind == "district":
            if not isinstance(value, str) or not value.strip():
                raise bad("is not a district name")
            value = value.strip()
            return RANDOM if value.lower() == RANDOM else value.upper()
        # money_list, int_list
        if not isinstance(value, list | tuple) or not value:
            raise bad("is not a non-empty list")
        amounts = []
        step = 1000 if kind == "money_list" else 1
        for item in value:
            number = _integer(item)
            if number is None or number % step or not self.min <= number <= self.max:
                raise bad(f"has a bad amount {_show(item)}")
            amounts.append(number)
        return tuple(amounts)


def _integer(value) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


def _show(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, tuple):
        value = list(value)
    return repr(value)


def parse_value(text: str):
    """A value as typed on a command line: a TOML scalar (int, float, bool, quoted string, list),
    or the bare text as a string (`--set start.district=SOHO`)."""
    try:
        return tomllib.loads(f"value = {text.strip()}")["value"]
    except tomllib.TOMLDecodeError:
        return text.strip()


MAX_TOML_BYTES = 1 << 20   # the largest shipped content file is about 20 kB
_PARSED: dict = {}         # (path, inode, mtime, size) -> the file's parsed TOML (copied out)


def read_toml(path: Path, what: str = "file") -> dict:
    """Parse a TOML file; a missing, malformed, huge or special file (/dev/zero, a pipe) is a
    RulesetError naming the file, refused by its size or kind before a byte is read."""
    try:
        info = os.stat(path)  # before opening: opening a pipe would wait for a writer
        if stat.S_ISDIR(info.st_mode):
            raise IsADirectoryError(path)
        if not stat.S_ISREG(info.st_mode):
            raise RulesetError(f"{path}: not a regular file (a device, pipe or socket), so not "
                               f"a {what}")
        if info.st_size > MAX_TOML_BYTES:
            raise RulesetError(f"{path}: {info.st_size:,} bytes, more than a {what} holds (at "
                               f"most {MAX_TOML_BYTES:,})")
        stamp = (os.path.realpath(path), info.st_ino, info.st_mtime_ns, info.st_size)
        if stamp in _PARSED:   # a study loads the same rules for each of its hundreds of cells
            return copy.deepcopy(_PARSED[stamp])
        with open(path, "rb") as handle:
            data = handle.read(MAX_TOML_BYTES + 1)
        if len(data) > MAX_TOML_BYTES:  # it grew since
            raise RulesetError(f"{path}: more than {MAX_TOML_BYTES:,} bytes, more than a {what} "
                               f"holds")
        parsed = tomllib.loads(data.decode("utf-8"))
        if len(_PARSED) >= 64:
            _PARSED.clear()
        _PARSED[stamp] = parsed
        return copy.deepcopy(parsed)
    except FileNotFoundError:
        raise RulesetError(f"{path}: no such {what}") from None
    except IsADirectoryError:
        raise RulesetError(f"{path}: is a directory, not a {what}") from None
    except tomllib.TOMLDecodeError as err:
        raise RulesetError(f"{path}: malformed TOML: {err}") from None
    except UnicodeDecodeError as err:
        raise RulesetError(f"{path}: not UTF-8 text: {err.reason}") from None
    except OSError as err:
        raise RulesetError(f"{path}: cannot read the {what}: {err.strerror or err}") from None


def flatten(table: dict, prefix: str = "") -> dict:
    """{"provocation": {"stake": 3000}} -> {"provocation.stake": 3000} (lists are values)."""
    flat = {}
    for name, value in table.items():
        key = f"{prefix}{name}"
        if isinstance(value, dict):
            flat.update(flatten(value, key + "."))
        else:
            flat[key] = value
    return flat


@cache
def load_spec(path: Path) -> dict[str, Option]:
    """Every option of a rules file, in file order, each default checked against its own option."""
    raw = read_toml(path, "rules file")
    options: dict[str, Option] = {}

    def walk(table: dict, prefix: str):
        for name, value in table.items():
            key = f"{prefix}{name}"
            if not isinstance(value, dict):
                raise RulesetError(f"{path}: {key}: an option must be a table with a default")
            if "default" in value:
                options[key] = _option(path, key, value)
            else:
                walk(value, key + ".")

    walk(raw, "")
    for option in options.values():
        if option.knob is not None and (option.knob not in options
                                        or options[option.knob].type != "float"):
            raise RulesetError(f"{path}: {option.key}: knob {option.knob!r} is not a float option")
    return options


def _option(path: Path, key: str, table: dict) -> Option:
    extra = set(table) - _FIELDS
    if extra:
        raise unknown(f"{path}: {key}", "field", sorted(extra)[0], _FIELDS)
    kind = table.get("type")
    if kind not in TYPES:
        raise RulesetError(f"{path}: {key}: type {kind!r} is not one of {', '.join(TYPES)}")
    if table.get("source") not in SOURCES:
        raise RulesetError(f"{path}: {key}: source must be one of {', '.join(SOURCES)}")
    for field in ("rule", "doc"):
        if not isinstance(table.get(field), str) or not table[field]:
            raise RulesetError(f"{path}: {key}: missing {field}")
    ranged = kind in ("int", "money", "float", "money_list", "int_list")
    if ranged and ("min" not in table or "max" not in table):
        raise RulesetError(f"{path}: {key}: a {kind} option needs min and max")
    if kind == "choice" and not table.get("choices"):
        raise RulesetError(f"{path}: {key}: a choice option needs choices")
    option = Option(
        key=key, default=None, type=kind, rule=table["rule"], source=table["source"],
        doc=table["doc"], min=table.get("min"), max=table.get("max"),
        choices=tuple(table.get("choices", ())), knob=table.get("knob"),
    )
    default = option.check(table["default"], str(path))
    return Option(**{**option.__dict__, "default": default})
