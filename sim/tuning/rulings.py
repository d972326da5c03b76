"""Which findings rest on a reading: every ruling of a game tried at each of its other values.

A ruling is an option of `rules.toml` with `source = "ruling"`: a reading the engine takes where
the book is silent or ambiguous (docs/ruleset.md argues each default). The study plays the current
rules and then each ruling at every value it may take other than the current one (a bool's other
value, each other choice), every point on the same games (common random numbers), and ranks the
rulings by the largest paired change they cause in a headline metric, in standard errors, with
Holm's adjustment over every change of the study, as `sim.tuning.sensitivity` does for numbers.

    changes = rulings_study(players=4, strategies="runner,enforcer,networker,tuned", games=2000)
    ranking(changes)
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pandas as pd

from sim.rules.ruleset import options
from sim.runner.executor import uses_scheduler
from sim.tuning.errors import TuningError
from sim.tuning.sensitivity import DEFAULT_GAMES, PageWords, mirror_note, play_plan, ranking, write_study
from sim.tuning.study import Study, check_games


def ruling_keys(game: str = "nyk") -> list[str]:
    """The rulings that can take another value (choices and bools), in rules.toml order."""
    return [k for k, o in options(game).items() if o.ruling and o.type in ("choice", "bool")]


def other_values(option, current) -> list:
    """Every value of a ruling but the current one."""
    values = [False, True] if option.type == "bool" else list(option.choices)
    return [v for v in values if v != current]


def _plan(study: Study, keys: list[str]):
    current = study.base_values(keys)
    plan, skipped = [], []
    for key in keys:
        for value in other_values(options(study.game)[key], current[key]):
            label = f"={value}"
            try:
                study.ruleset_for({key: value})
            except TuningError as err:
                skipped.append((key, label, value, str(err)))
                continue
            plan.append((key, label, value))
    return plan, skipped, current


@uses_scheduler
def rulings_study(players: int = 4, strategies="simple", games: int = DEFAULT_GAMES, seed: int = 0,
                  ruleset=None, overrides: dict | None = None, workers: int | None = None, out=None,
                  game: str = "nyk", force: bool = False, on_point: Callable | None = None,
                  scheduler: str | None = None) -> pd.DataFrame:
    """The change in every headline metric for each other value of each ruling (long table: param,
    direction ("=value"), current, value, metric, diff, lo, hi, paired, z, p_value, p_holm)."""
    games, seed = check_games(games, seed)
    study = Study(players=players, strategies=strategies, ruleset=ruleset, overrides=overrides or {},
                  game=game, workers=workers)
    study.check()
    keys = [k for k in ruling_keys(game) if k not in study.overrides]
    if not keys:
        raise TuningError(f"{game} has no ruling left to vary (every one is fixed by --set)")
    plan, skipped, current = _plan(study, keys)
    table, base = play_plan(study, plan, skipped, current, games, seed, out, force, on_point)
    for column in ("current", "value"):  # a bool beside choices: one type for the Parquet column
        table[column] = table[column].map(_text) if len(table) else table[column]
    if out is not None:
        write_rulings(out, table, study, games, seed, base)
    return table


def _text(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


RULINGS_WORDS = PageWords(
    title="Which findings rest on a ruling",
    intro="Each ruling (a reading where the book is silent, docs/ruleset.md) is played at each of its "
          "other values; every run plays the same {games:,} games (seed {seed}), so each change is paired "
          "game by game. Bars: change; whiskers: 95% interval; |z|: the change in standard errors; p_holm: "
          "adjusted by Holm's method over every change of the study.",
    top="Which rulings matter most", ranked="Rulings by their largest change, in standard errors (|z|)",
    figure="Rulings and {metric}", every="Change in each metric for each other value (paired 95% intervals)",
    left_out="Values left out", refused="Values the rules refuse")


def write_rulings(out, table: pd.DataFrame, study: Study, games: int, seed: int, base) -> Path:
    """rulings.parquet, a chart per metric that a ruling moved, the ranking and the index pages."""
    from sim.tuning.figures import rulings_figure

    return write_study(out, "rulings", table, study, games, seed, base, RULINGS_WORDS, rulings_figure, "rulings")


def rulings_lines(table: pd.DataFrame, games: int, seed: int, out=None, top: int = 30,
                  as_json: bool = False) -> list[str]:
    """`mobsim sensitivity --rulings`: the study as printed lines (or one JSON line)."""
    ranked = ranking(table)
    if as_json:
        return [json.dumps({"out": None if out is None else str(out),
                            "ranking": json.loads(ranked.to_json(orient="records")),
                            "changes": json.loads(table.to_json(orient="records")),
                            "skipped": table.attrs["skipped"]})]
    lines = [f"{len(set(table['param'])) if len(table) else 0} rulings at each of their other values, "
             f"{games:,} games per point (seed {seed}, the same games at every point); the largest "
             "change of each, in standard errors", mirror_note(table),
             f"{'ruling':<28}{'value':<16}{'max |z|':>8}  {'metric moved most':<22}{'change':>9}  interval"]
    for row in ranked.head(top).itertuples():
        best = table[(table.param == row.param) & (table.metric == row.metric)]
        best = best.loc[best["z"].abs().fillna(0.0).idxmax()]
        lines.append(f"{row.param:<28}{str(best['value'])[:15]:<16}{row.max_abs_z:>8.1f}  {row.metric:<22}"
                     f"{best['diff']:>+9.3f}  [{best['lo']:+.3f}, {best['hi']:+.3f}]")
    for s in table.attrs["skipped"]:
        lines.append(f"not played: {s['param']} {s['direction']}: {s['reason']}")
    if out is not None:
        lines += ["", f"files: {Path(out) / 'rulings.parquet'}, {Path(out) / 'index.html'}"]
    return lines
