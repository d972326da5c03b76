"""Which conclusions rest on assumed content: every value marked `assumed` in a game's data files,
varied over the plausible range stated beside it, on common random numbers.

The ranges live in `sim/rules/<game>/assumed.toml`, one `[[value]]` each: either a rule option
(`option = "negotiation.value_renown"`, `low`, `high`) or a field of a content file
(`content = "locations"`, `list = "kind"`, `field = "fbi"`, optional `where = "positive"` or
`"negative"` to touch only entries with such a value, `"after_first"` to keep a list's first
number; `match = { name = "auction" }` to pick entries; a dotted field such as `params.renown`;
`mode = "set" | "add" | "scale"`, `low`, `high`), with `why` (where the range comes from).
`[skip]` names the assumed options left out and why (a ruling's choice, a safety net, an
option another option switches off). Every point plays the same games as the current rules,
so each change is paired game by game; the values are ranked by the largest change they cause,
in standard errors, over the headline metrics: win-rate spread (`strategy_gap`), `seat_gap`,
the informer's win rate (American Gangsters) and game length (`turns`).

    table = assumed_study(game="ag", games=2000)
    ranking(table)
"""

from __future__ import annotations

import json
import math
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from sim.rules.ruleset import options
from sim.runner.executor import uses_scheduler
from sim.tuning.errors import TuningError
from sim.tuning.study import Z95, Study, check_games, difference

METRICS = ("strategy_gap", "seat_gap", "informer_winrate", "turns")
DEFAULT_GAMES = 2000
_BARE = re.compile(r"^[A-Za-z0-9_-]+$")


@dataclass(frozen=True)
class Variation:
    """One assumed value and its plausible range."""

    name: str
    low: object
    high: object
    why: str
    option: str | None = None
    content: str | None = None
    list: str | None = None
    field: str | None = None
    where: str | None = None
    mode: str = "set"
    match: dict = None

    def __post_init__(self):
        object.__setattr__(self, "match", dict(self.match or {}))


def ranges_file(game: str) -> Path:
    from sim.rules.ruleset import game_dir

    return game_dir(game) / "assumed.toml"


def load_ranges(game: str = "ag") -> tuple[list[Variation], dict[str, str]]:
    """The assumed values of a game with their ranges, and the assumed options left out (why)."""
    path = ranges_file(game)
    if not path.is_file():
        raise TuningError(f"no plausible ranges for game {game!r}: {path} is missing")
    with open(path, "rb") as handle:
        raw = tomllib.load(handle)
    spec = options(game)
    out = []
    for n, entry in enumerate(raw.get("value", []), 1):
        where = f"{path}: value {n}"
        if "option" in entry:
            key = entry["option"]
            if key not in spec:
                raise TuningError(f"{where}: unknown option {key!r}")
            out.append(Variation(key, entry["low"], entry["high"], entry.get("why", ""), option=key))
        else:
            for need in ("content", "list", "field", "low", "high"):
                if need not in entry:
                    raise TuningError(f"{where}: missing {need!r} (a content value needs content, list, "
                                      f"field, low, high)")
            mode = entry.get("mode", "set")
            if mode not in ("set", "add", "scale"):
                raise TuningError(f"{where}: mode = {mode!r} is not allowed (allowed: set, add, scale)")
            name = entry.get("name") or f"{entry['content']}.{entry['field']}"
            out.append(Variation(name, entry["low"], entry["high"], entry.get("why", ""),
                                 content=entry["content"], list=entry["list"], field=entry["field"],
                                 where=entry.get("where"), mode=mode, match=entry.get("match", {})))
    return out, dict(raw.get("skip", {}))


def assumed_options(game: str) -> list[str]:
    """The options of rules.toml marked `source = "assumed"`."""
    return [k for k, o in options(game).items() if getattr(o, "source", "") == "assumed"]


# --- content files changed -----------------------------------------------------------------------

def varied_content(game: str, v: Variation, value, ruleset=None) -> dict:
    """The content file's table (the one `ruleset` gives, else the game's) with the variation
    applied at `value`; a TuningError when it changes nothing (the range's end is the current value)."""
    table = _content_table(game, v.content, ruleset)
    entries = table.get(v.list)
    entries = [entries] if isinstance(entries, dict) else entries
    if not isinstance(entries, list):
        raise TuningError(f"{v.name}: {v.content}.toml has no list or table {v.list!r}")
    changed = 0
    for entry in entries:
        if entry.get("assumed") is False or any(entry.get(k) != x for k, x in v.match.items()):
            continue
        holder, name = entry, v.field
        while "." in name:
            head, name = name.split(".", 1)
            holder = holder.get(head, {})
        if name not in holder:
            continue
        new = _varied(holder[name], value, v)
        changed += new != holder[name]
        holder[name] = new
    if changed == 0:
        raise TuningError(f"{v.name} = {value}: the current value (nothing to vary)")
    return table


def _content_table(game: str, kind: str, ruleset=None) -> dict:
    """The `kind` content table in force: the ruleset file's replacement of it, else the game's file."""
    from sim.rules.ruleset import game_dir

    replaced = _ruleset_table(ruleset).get("content", {}).get(kind) if ruleset is not None else None
    if isinstance(replaced, dict):
        return replaced
    path = Path(ruleset).parent / replaced if isinstance(replaced, str) else game_dir(game) / f"{kind}.toml"
    with open(path, "rb") as handle:
        return tomllib.load(handle)


def _ruleset_table(ruleset) -> dict:
    """A ruleset file's TOML (it was validated by the study's check before any point)."""
    with open(ruleset, "rb") as handle:
        return tomllib.load(handle)


def _varied(current, value, v: Variation):
    """One field at the variation's setting: a number, or each number of a list (the first kept
    with where = "after_first"); `set` with a list value replaces a list."""
    if isinstance(current, list):
        if v.mode == "set" and isinstance(value, list):
            return list(value)
        start = 1 if v.where == "after_first" else 0
        return current[:start] + [_varied(x, value, v) for x in current[start:]]
    if not isinstance(current, int | float) or isinstance(current, bool):
        return current
    if (v.where == "positive" and current <= 0) or (v.where == "negative" and current >= 0):
        return current
    new = value if v.mode == "set" else current + value if v.mode == "add" else current * value
    if isinstance(current, int):
        new = int(round(new / 1000.0) * 1000) if abs(current) >= 1000 else int(round(new))
        new = max(new, 0) if current >= 0 else new
    return new


def _toml(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_toml(x) for x in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_toml(x)}" for k, x in value.items()) + " }"
    raise TuningError(f"cannot write {value!r} to a TOML file")


def _key(key: str) -> str:
    return key if _BARE.match(key) else json.dumps(key)


def ruleset_with_content(folder: Path, kind: str, table: dict, base=None) -> Path:
    """A ruleset file replacing one content file by `table` (written beside it), on top of the
    ruleset file `base` (its values and its other content replacements kept)."""
    folder.mkdir(parents=True, exist_ok=True)
    data = folder / f"{kind}.toml"
    data.write_text("".join(f"{_key(k)} = {_toml(v)}\n" for k, v in table.items()), encoding="utf-8")
    values, content = _base_parts(base)
    content[kind] = f"{kind}.toml"
    lines = [f"{'.'.join(_key(part) for part in k.split('.'))} = {_toml(v)}\n" for k, v in values.items()]
    lines += ["[content]\n"] + [f"{_key(k)} = {_toml(v)}\n" for k, v in content.items()]
    rules = folder / "ruleset.toml"
    rules.write_text("".join(lines), encoding="utf-8")
    return rules


def _base_parts(base) -> tuple[dict, dict]:
    """A ruleset file's values (flat dotted keys) and content replacements (files made absolute)."""
    from sim.rules.spec import flatten

    if base is None:
        return {}, {}
    raw = _ruleset_table(base)
    content = {k: str((Path(base).parent / v).resolve()) if isinstance(v, str) else v
               for k, v in raw.pop("content", {}).items()}
    return flatten(raw), content


# --- the study ------------------------------------------------------------------------------------

def informer_change(base, other) -> tuple[float, float, float]:
    """Change in the informer's win rate over the games where it was dealt, paired by game."""
    a = base.run.games.set_index("game_id")
    b = other.run.games.set_index("game_id")
    if "informer_won" not in a or "informer_seat" not in a:
        return math.nan, math.nan, math.nan
    dealt = a.index[a.informer_seat.astype(int) >= 0]
    d = b.informer_won.loc[dealt].astype(float).to_numpy() - a.informer_won.loc[dealt].astype(float).to_numpy()
    if len(d) < 2:
        return math.nan, math.nan, math.nan
    mean, se = d.mean(), d.std(ddof=1) / math.sqrt(len(d))
    return float(mean), float(mean - Z95 * se), float(mean + Z95 * se)


def informer_rate(ev) -> float:
    games = ev.run.games
    if "informer_seat" not in games:
        return math.nan
    dealt = games[games.informer_seat.astype(int) >= 0]
    return float(dealt.informer_won.astype(float).mean()) if len(dealt) else math.nan


@uses_scheduler
def assumed_study(game: str = "ag", players: int = 4, strategies="simple", games: int = DEFAULT_GAMES,
                  seed: int = 0, workers: int | None = None, work=None, on_point=None,
                  ruleset=None, overrides=None, scheduler: str | None = None) -> pd.DataFrame:
    """Every assumed value at the low and high ends of its range, against the current rules (the
    game's, or the ruleset file `ruleset` with `overrides` on top: each point varies one assumed
    value around them) (long table: value, side, setting, metric, base, diff, lo, hi, z); attrs:
    skipped, informer_base."""
    games, seed = check_games(games, seed)
    variations, skip = load_ranges(game)
    missing = [k for k in assumed_options(game) if k not in skip
               and k not in {v.option for v in variations}]
    if missing:
        raise TuningError(f"{ranges_file(game)}: assumed options without a range or a [skip] reason: "
                          f"{', '.join(missing)}")
    base_study = Study(players=players, strategies=strategies, game=game, workers=workers,
                       ruleset=ruleset, overrides=overrides or {})
    base_study.check()
    root = Path(work) if work is not None else None
    base = base_study.evaluate({}, games, seed)
    rows, skipped = [], []
    points = [(v, side) for v in variations for side in ("low", "high")]
    for i, (v, side) in enumerate(points, start=1):
        value = getattr(v, side)
        if on_point is not None:
            on_point(i, len(points) + 1, {v.name: value})
        try:
            ev = _evaluate(base_study, v, value, game, games, seed, root, i)
        except TuningError as err:
            skipped.append({"value": v.name, "side": side, "reason": str(err)})
            continue
        change = difference(base, ev)
        for metric in (m for m in METRICS if m not in base_study.undefined_metrics()):
            if metric == "informer_winrate":
                diff, lo, hi = informer_change(base, ev)
                now = informer_rate(base)
            elif metric in change.index:
                diff, lo, hi = (float(change.loc[metric, c]) for c in ("diff", "lo", "hi"))
                now = base.metric(metric)[0]
            else:
                continue
            lo, hi = centred(diff, lo, hi)
            rows.append({"value": v.name, "side": side, "setting": str(value), "metric": metric,
                         "base": now, "diff": diff, "lo": lo, "hi": hi, "z": _z(diff, lo, hi),
                         "why": v.why})
        ev.run = None
    if on_point is not None:
        on_point(len(points) + 1, len(points) + 1, {})   # done
    table = pd.DataFrame(rows)
    table.attrs["skipped"] = skipped
    table.attrs["skip"] = skip
    return table


def _evaluate(base_study: Study, v: Variation, value, game, games, seed, root, i):
    if v.option is not None:
        if base_study.base_values([v.option])[v.option] == value:
            raise TuningError(f"{v.option} = {value}: the current value (nothing to vary)")
        return base_study.evaluate({v.option: value}, games, seed)
    if root is None:
        import tempfile

        with tempfile.TemporaryDirectory() as tmp:
            return _content_point(base_study, v, value, game, games, seed, Path(tmp))
    return _content_point(base_study, v, value, game, games, seed, root / f"point-{i}")


def _content_point(base_study, v, value, game, games, seed, folder):
    table = varied_content(game, v, value, base_study.ruleset)
    path = ruleset_with_content(folder, v.content, table, base_study.ruleset)
    study = Study(players=base_study.players, strategies=base_study.strategies, ruleset=path,
                  overrides=base_study.overrides, game=game, workers=base_study.workers)
    study.check()
    return study.evaluate({}, games, seed)


def centred(diff, lo, hi) -> tuple[float, float]:
    """The interval made symmetric about the change, with the half-width of its side farther
    from it. A bootstrap interval of a biased statistic (the seat gap: a maximum minus a minimum)
    is off-centre and can even miss the change it measures; a z read from its width alone then
    overstates the change. Widened so, the interval holds the change, and |z| > 1.96 exactly
    when it leaves out zero."""
    if not (math.isfinite(diff) and math.isfinite(lo) and math.isfinite(hi)):
        return lo, hi
    half = max(hi - diff, diff - lo, 0.0)
    return diff - half, diff + half


def _z(diff, lo, hi) -> float:
    se = (hi - lo) / (2 * Z95)
    if not se > 0 or not math.isfinite(se):
        return 0.0 if diff == 0 or not math.isfinite(diff) else float(np.copysign(np.inf, diff))
    return float(diff / se)


def _around(ruleset, overrides) -> str:
    """Which rules the values are varied around, when not the game's own."""
    given = ([str(ruleset)] if ruleset is not None else []) + [f"{k}={v}" for k, v in (overrides or {}).items()]
    return f" (around {', '.join(given)})" if given else ""


def ranking(table: pd.DataFrame) -> pd.DataFrame:
    """The assumed values by influence: the largest |z| over both ends and every metric, the
    metric it moved most, and that change with its 95% interval."""
    if table.empty:
        return pd.DataFrame(columns=["value", "max_abs_z", "metric", "side", "diff", "lo", "hi"])
    # ties (every change 0) go to a metric with a defined change, in the table's order: four
    # copies of one strategy have no strategy gap to change (NaN)
    work = table.assign(abs_z=table["z"].abs().fillna(0.0), defined=np.isfinite(table["diff"].astype(float)),
                        order=-np.arange(len(table)))
    top = work.sort_values(["abs_z", "defined", "order"], ascending=False).groupby("value", sort=False).head(1)
    out = top[["value", "abs_z", "metric", "side", "setting", "diff", "lo", "hi"]]
    return out.rename(columns={"abs_z": "max_abs_z"}).sort_values("max_abs_z", ascending=False) \
        .reset_index(drop=True)


def assumed_lines(game="ag", players=4, strategies="simple", games=DEFAULT_GAMES, seed=0, workers=None,
                  work=None, as_json=False, top=30, on_point=None, ruleset=None, overrides=None,
                  scheduler=None) -> list[str]:
    """`mobsim sensitivity --assumed`: the study, as printed lines (or one JSON line)."""
    table = assumed_study(game=game, players=players, strategies=strategies, games=games, seed=seed,
                          workers=workers, work=work, on_point=on_point, ruleset=ruleset,
                          overrides=overrides, scheduler=scheduler)
    ranked = ranking(table)
    if work is not None:
        write_assumed(work, table, game, players, strategies, games, seed, ruleset, overrides)
    if as_json:
        return [json.dumps({"out": None if work is None else str(work),
                            "ranking": json.loads(ranked.to_json(orient="records")),
                            "changes": json.loads(table.to_json(orient="records")),
                            "skipped": table.attrs["skipped"], "skip": table.attrs["skip"]})]
    lines = [f"{len(set(table['value'])) if len(table) else 0} assumed values of {game} at both ends of "
             f"their ranges, {games:,} games per point (seed {seed}, the same games at every point); "
             "the largest change of each in standard errors, with its paired 95% interval"
             + _around(ruleset, overrides), "",
             f"{'assumed value':<44}{'max |z|':>8}  {'metric':<17}{'end':<5}{'change':>9}  interval"]
    for row in ranked.head(top).itertuples():
        lines.append(f"{row.value[:43]:<44}{row.max_abs_z:>8.1f}  {row.metric:<17}{row.side:<5}"
                     f"{row.diff:>+9.3f}  [{row.lo:+.3f}, {row.hi:+.3f}]")
    if len(table):  # a game whose content has FBI symbols: the informer's rate as they change
        fbi = table[(table.value == "locations: FBI symbols (+1)") & (table.metric == "informer_winrate")]
        for row in fbi.itertuples():
            lines.append(f"\ninformer win rate {row.base:.3f}; FBI symbols at {row.setting}: change "
                         f"{row.diff:+.3f} [{row.lo:+.3f}, {row.hi:+.3f}]")
    for s in table.attrs["skipped"]:
        lines.append(f"not played: {s['value']} ({s['side']}): {s['reason']}")
    if work is not None:
        lines += ["", f"files: {Path(work) / 'assumed.parquet'}, {Path(work) / 'index.html'}"]
    return lines


def write_assumed(out, table: pd.DataFrame, game, players, strategies, games, seed, ruleset=None,
                  overrides=None) -> Path:
    """assumed.parquet, ranking.csv, a chart per metric an end moved, and the index pages."""
    from sim import __version__
    from sim.analysis.report import Report
    from sim.tuning.figures import assumed_figure, png

    root = Path(out)
    root.mkdir(parents=True, exist_ok=True)
    table.to_parquet(root / "assumed.parquet", index=False)
    ranked = ranking(table)
    ranked.to_csv(root / "ranking.csv", index=False)
    report = Report(f"Assumed values of {game}: which matter", {
        "mobsim version": __version__, "game": game, "players": str(players),
        "strategies": strategies if isinstance(strategies, str) else ",".join(strategies),
        "games per point": f"{games:,}", "seed": str(seed)})
    report.text(f"Every value marked assumed in the data files at the low and high ends of its range"
                f"{_around(ruleset, overrides)}; every point plays the same {games:,} games (seed {seed}), "
                f"so each change is paired game by game, with its 95% interval; |z|: the change in "
                f"standard errors.")
    report.table(ranked, "Assumed values by their largest change, in standard errors (|z|)", name="ranking")
    moved = set(table.loc[(table["lo"] != 0) | (table["hi"] != 0), "metric"]) if len(table) else set()
    for metric in (m for m in METRICS if m in moved):
        report.figure(png(assumed_figure(table, metric)), f"assumed-{metric}", f"Assumed values and {metric}")
    report.table(table, "Change in each metric at each end (paired 95% intervals)", name="changes")
    if table.attrs["skipped"]:
        report.table(pd.DataFrame(table.attrs["skipped"]), "Ends left out", name="skipped")
    report.write(root)
    return root / "assumed.parquet"
