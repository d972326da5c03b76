"""Values to try for rule options: ranges `a:b:n`, lists `v1,v2`, boxes `lo:hi` and natural steps.

Every value is checked against the option's declaration in the game's `rules.toml` (type, min,
max), so a sweep or a search refuses a bad key or value before it plays a single game:

    parse_values("missions.reward_scale", "0.6:1.4:5")   -> (0.6, 0.8, 1.0, 1.2, 1.4)
    parse_values("recruit.min_offer", "1000,2000")        -> (1000, 2000)
    parse_box("provocation.stake=1000:5000")              -> ("provocation.stake", 1000, 5000)
    grid_points({"a": (1, 2), "b": (3, 4)})               -> [{"a": 1, "b": 3}, {"a": 1, "b": 4}, ...]
"""

import itertools
import math
import re

import numpy as np

from sim.rules.errors import RulesetError, unknown
from sim.rules.ruleset import options
from sim.rules.spec import Option
from sim.tuning.errors import TuningError

NUMERIC = ("int", "money", "float")
FLOAT_STEP = 0.1          # scale knobs (x1.0) step by a tenth
MONEY_STEP = 1000         # bills are thousands
_RANGE = re.compile(r"^\s*([^:]+):([^:]+):([^:]+)\s*$")


def option_for(key: str, game: str = "nyk", where: str = "--set") -> Option:
    """The declared option of `key`, or a one-line error with the closest known key."""
    spec = options(game)
    if key not in spec:
        raise TuningError(str(unknown(where, "key", key, spec)))
    return spec[key]


def numeric_option(key: str, game: str = "nyk", where: str = "--param") -> Option:
    """The option of `key`, which must be a number (int, money or float) to be ranged or stepped."""
    option = option_for(key, game, where)
    if option.type not in NUMERIC:
        raise TuningError(f"{where}: {key} is a {option.type} option, not a number: only int, money "
                          f"and float options can be stepped or searched (allowed: {option.allowed()})")
    return option


def checked(option: Option, value, where: str = "--set"):
    """`value` normalized by the option (range, type, whole thousands), or a one-line error."""
    try:
        return option.check(value, where)
    except RulesetError as err:
        raise TuningError(str(err)) from None


def snap(option: Option, x: float):
    """The nearest value of the option's kind: whole numbers for int, $1,000 for money."""
    if option.type == "int":
        return int(math.floor(x + 0.5))
    if option.type == "money":
        return int(math.floor(x / MONEY_STEP + 0.5)) * MONEY_STEP
    return round(float(x), 10)


def natural_step(option: Option) -> float:
    """One step of a numeric option: 1 for counts, $1,000 for money, a tenth for scale knobs."""
    return {"int": 1, "money": MONEY_STEP, "float": FLOAT_STEP}[option.type]


def is_sweep_text(text: str) -> bool:
    """Whether a `--set` value asks for several values: `a:b:n` or a comma list (not a [list])."""
    text = text.strip()
    if text.startswith("["):
        return False
    return bool(_RANGE.match(text)) or "," in text


def parse_values(key: str, text: str, game: str = "nyk", where: str = "--set") -> tuple:
    """The values `text` names for `key`: a range `a:b:n` (n >= 2, evenly spaced) or a list."""
    option = option_for(key, game, where)
    match = _RANGE.match(text)
    if match:
        return _range_values(option, *match.groups(), where)
    from sim.rules.spec import parse_value

    items = [item for item in text.split(",")]
    if any(not item.strip() for item in items):
        raise TuningError(f"{where}: {key}={text} has an empty item (write a list as v1,v2,v3)")
    values = tuple(checked(option, parse_value(item), where) for item in items)
    _refuse_repeats(key, values, where)
    return values


def _number(text: str, key: str, part: str, where: str, form: str = "a:b:n") -> float:
    try:
        return float(text)
    except ValueError:
        raise TuningError(f"{where}: {key}: the {part} {text.strip()!r} of {form} is not a "
                          f"number") from None


def _range_values(option: Option, a: str, b: str, n: str, where: str) -> tuple:
    key = option.key
    if option.type not in NUMERIC:
        raise TuningError(f"{where}: {key} is a {option.type} option: a range a:b:n needs a number; "
                          f"list the values instead (allowed: {option.allowed()})")
    lo, hi = _number(a, key, "start", where), _number(b, key, "end", where)
    count = _number(n, key, "count", where)
    if not count.is_integer() or count < 2:
        raise TuningError(f"{where}: {key}={a}:{b}:{n}: the count n must be a whole number of at "
                          f"least 2 (e.g. {key}={a}:{b}:5)")
    if not lo < hi:
        raise TuningError(f"{where}: {key}={a}:{b}:{n}: the start must be below the end")
    values = tuple(checked(option, snap(option, x), where) for x in np.linspace(lo, hi, int(count)))
    if len(set(values)) < len(values):
        step = natural_step(option)
        most = int((snap(option, hi) - snap(option, lo)) // step) + 1
        raise TuningError(f"{where}: {key}={a}:{b}:{n} repeats values once rounded to the option's "
                          f"step of {step:g}: use at most {most} points")
    return values


def _refuse_repeats(key: str, values: tuple, where: str):
    if len(set(values)) < len(values):
        raise TuningError(f"{where}: {key} lists a value twice: {', '.join(map(str, values))}")


def split_sets(items, game: str = "nyk") -> tuple[dict, dict]:
    """`--set` items split into swept options {key: values} and fixed overrides {key: value}."""
    from sim.rules.spec import parse_value

    swept, fixed = {}, {}
    for item in items or ():
        key, sep, text = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise TuningError(f"--set: {item!r} is not KEY=VALUE (e.g. missions.reward_scale=0.6:1.4:9)")
        if is_sweep_text(text):
            swept[key] = parse_values(key, text, game)
            fixed.pop(key, None)
        else:
            fixed[key] = checked(option_for(key, game), parse_value(text))
            swept.pop(key, None)
    return swept, fixed


def checked_params(params: dict, game: str = "nyk", where: str = "params") -> dict:
    """{key: values} from Python callers, each value checked; a single value becomes a 1-tuple."""
    if not isinstance(params, dict) or not params:
        raise TuningError(f"{where}: give at least one option to sweep, e.g. "
                          "{\"missions.reward_scale\": [0.6, 1.0, 1.4]}")
    out = {}
    for key, values in params.items():
        option = option_for(key, game, where)
        if isinstance(values, str):
            out[key] = parse_values(key, values, game, where)
            continue
        if not isinstance(values, list | tuple | range | np.ndarray):
            values = [values]
        got = tuple(checked(option, v.item() if isinstance(v, np.generic) else v, where)
                    for v in values)
        if not got:
            raise TuningError(f"{where}: {key} has no values")
        _refuse_repeats(key, got, where)
        out[key] = got
    return out


MAX_POINTS = 1000  # points of a sweep grid, unless the caller allows more


def value_count(values) -> int:
    """How many values `values` names, read from a text's form alone (a range a:b:n is never
    made here: a:b:1000000000 would fill the memory); what is malformed counts 1, and
    parse_values names the fault."""
    if isinstance(values, str):
        parts = values.split(":")
        try:
            n = float(parts[2]) if len(parts) == 3 else len(values.split(","))
        except ValueError:
            return 1
        return int(min(n, 1e18)) if n == n and n >= 1 else 1
    if isinstance(values, list | tuple | range | np.ndarray):
        return len(values)
    return 1


def check_grid_size(params: dict, max_points: int = MAX_POINTS, hint: str = "max_points") -> None:
    """Refuse a grid of more than `max_points` points before any of its values is made."""
    counts = [(key, value_count(values)) for key, values in params.items()]
    points = math.prod(n for _, n in counts)
    if points > max_points:
        shape = " x ".join(f"{n:,} ({key})" for key, n in counts)
        raise TuningError(f"the grid has {points:,} points ({shape}), more than {hint} {max_points:,}: "
                          f"use fewer values, or raise {hint}")


def grid_points(params: dict) -> list[dict]:
    """Every combination of the values, the first option varying slowest (like batch_run)."""
    keys = list(params)
    return [dict(zip(keys, combo, strict=True)) for combo in itertools.product(*params.values())]


def parse_box(item: str, game: str = "nyk", where: str = "--param") -> tuple[str, float, float]:
    """`key=lo:hi` -> (key, lo, hi) for a numeric option, both ends within its declared range."""
    key, sep, text = item.partition("=")
    key = key.strip()
    parts = text.split(":")
    if not sep or not key or len(parts) != 2:
        raise TuningError(f"{where}: {item!r} is not KEY=LO:HI (e.g. missions.reward_scale=0.5:2)")
    option = numeric_option(key, game, where)
    lo = checked(option, _box_end(option, parts[0], key, where), where)
    hi = checked(option, _box_end(option, parts[1], key, where), where)
    if not lo < hi:
        raise TuningError(f"{where}: {key}={text}: the low end must be below the high end")
    return key, lo, hi


def _box_end(option: Option, text: str, key: str, where: str):
    value = _number(text, key, "end", where, "LO:HI")
    return int(value) if option.type != "float" and value.is_integer() else value
