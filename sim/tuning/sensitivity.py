"""Sensitivity of the headline metrics to every numeric rule option: which knobs matter most.

Each option is stepped once down and once up around the current rules (1 for counts, $1,000 for
money, a tenth for the scale knobs, clipped to the option's declared range) and played on the
same games as the current rules, so each change is measured game by game. A step the rules
refuse (a cross-check, say recruit.min_offer above recruit.max_offer) or that cannot seat the
study's players is left out and listed with its reason.

    changes = sensitivity(players=4, strategies="simple,random", games=2000,
                          params=["missions.reward_scale", "provocation.stake"])
    changes.attrs["skipped"], ranking(changes)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from sim.analysis.stats import holm, two_sided_p
from sim.rules.ruleset import options
from sim.runner.executor import uses_scheduler
from sim.shared.seats import shown_metric
from sim.tuning.errors import TuningError
from sim.tuning.grid import NUMERIC, checked, natural_step, numeric_option, snap
from sim.tuning.study import Z95, Study, check_games, difference, point_dir, show_point

DEFAULT_GAMES = 2000
ALPHA = 0.05


def numeric_keys(game: str = "nyk") -> list[str]:
    """Every option that is a number and may take more than one value, in rules.toml order."""
    return [k for k, o in options(game).items() if o.type in NUMERIC and o.min < o.max]


def steps_for(params, game: str = "nyk") -> dict[str, float]:
    """{key: step} for the options asked for (a list of keys, or {key: step}); all by default."""
    if params is None or (isinstance(params, list | tuple | dict) and not params):
        return {key: natural_step(options(game)[key]) for key in numeric_keys(game)}
    if isinstance(params, str):
        params = [params]
    asked = params.items() if isinstance(params, dict) else ((k, None) for k in params)
    steps = {}
    for key, step in asked:
        option = numeric_option(key, game)
        if step is None:
            step = natural_step(option)
        elif isinstance(step, bool) or not isinstance(step, int | float) or not step > 0:
            raise TuningError(f"--param: the step of {key} must be a positive number, not {step!r}")
        elif option.type != "float" and snap(option, step) != step:
            raise TuningError(f"--param: the step of {key} must be a whole "
                              f"{'number of thousands' if option.type == 'money' else 'number'}")
        steps[key] = step
    return steps


def stepped_values(option, current, step) -> dict[str, object]:
    """{"down": value, "up": value} one step either side, clipped to the declared range; a side
    that the clipping brings back to the current value is left out."""
    out = {}
    for direction, sign in (("down", -1), ("up", 1)):
        value = snap(option, min(max(current + sign * step, option.min), option.max))
        if value != current:
            out[direction] = checked(option, value)
    return out


@uses_scheduler
def sensitivity(players: int = 4, strategies="simple", games: int = DEFAULT_GAMES, seed: int = 0,
                params=None, ruleset=None, overrides: dict | None = None,
                workers: int | None = None, out=None, game: str = "nyk", force: bool = False,
                on_point: Callable | None = None, scheduler: str | None = None) -> pd.DataFrame:
    """The change in every headline metric for a step down and up of each option (long table:
    param, direction, current, value, metric, diff, lo, hi, paired, z); see the module doc.

    `attrs["skipped"]` lists the steps left out and why; `on_point(i, n, point)` reports progress
    (before point i of n; i = n at the end).
    """
    games, seed = check_games(games, seed)
    steps = steps_for(params, game)
    study = Study(players=players, strategies=strategies, ruleset=ruleset,
                  overrides=overrides or {}, game=game, workers=workers)
    study.check()
    current = study.base_values(steps)
    plan, skipped = _plan(study, steps, current, game)
    if not plan:
        raise TuningError("no option can be stepped: " + "; ".join(r for *_, r in skipped))
    table, base = play_plan(study, plan, skipped, current, games, seed, out, force, on_point)
    if out is not None:
        write_sensitivity(out, table, study, games, seed, base)
    return table


def play_plan(study: Study, plan, skipped: list, current: dict, games: int, seed: int, out=None,
              force: bool = False, on_point: Callable | None = None) -> tuple[pd.DataFrame, object]:
    """The current rules, then each (key, direction, value) of the plan, on the same games: the
    long table of paired changes (with Holm's p-values; attrs: skipped, metrics) and the base
    point's Evaluation."""
    n = len(plan) + 1
    if on_point is not None:
        on_point(0, n, {})
    base = study.evaluate({}, games, seed, point_dir(out, study, {}), force)
    undefined = study.undefined_metrics()
    rows = []
    for i, (key, direction, value) in enumerate(plan, start=1):
        point = {key: value}
        if on_point is not None:
            on_point(i, n, point)
        try:
            ev = study.evaluate(point, games, seed, point_dir(out, study, point), force)
        except TuningError as err:  # e.g. fewer seats allowed than the study's players
            skipped.append((key, direction, value, str(err)))
            continue
        change = difference(base, ev)
        ev.run = None
        for metric, d in change.drop(index=list(undefined), errors="ignore").iterrows():
            rows.append({"param": key, "direction": direction, "current": current[key], "value": value,
                         "metric": metric, "diff": d["diff"], "lo": d["lo"], "hi": d["hi"],
                         "paired": bool(d["paired"]), "z": _z(d["diff"], d["lo"], d["hi"])})
    if on_point is not None:
        on_point(n, n, {})   # done
    table = with_holm(pd.DataFrame(rows))
    table.attrs["skipped"] = [dict(zip(("param", "direction", "value", "reason"), s, strict=True))
                              for s in skipped]
    table.attrs["metrics"] = [m for m in base.headline.index if m not in undefined]
    table.attrs["undefined"] = sorted(undefined)
    return table, base


def _plan(study: Study, steps: dict, current: dict, game: str):
    """The (key, direction, value) steps to play, and the ones the rules refuse, with why."""
    plan, skipped = [], []
    for key, step in steps.items():
        option = options(game)[key]
        values = stepped_values(option, current[key], step)
        for direction in ("down", "up"):
            if direction not in values:
                skipped.append((key, direction, None, f"{key} = {current[key]} is at its "
                                f"{'minimum' if direction == 'down' else 'maximum'}"))
                continue
            try:
                study.ruleset_for({key: values[direction]})
            except TuningError as err:
                skipped.append((key, direction, values[direction], str(err)))
                continue
            plan.append((key, direction, values[direction]))
    return plan, skipped


def _z(diff: float, lo: float, hi: float) -> float:
    """The change in standard errors (0 when the step changed no game at all)."""
    se = (hi - lo) / (2 * Z95)
    if not se > 0:  # every game changed alike: a change of rounding size is no change
        return 0.0 if abs(diff) < 1e-9 else np.copysign(np.inf, diff)
    return diff / se


def with_holm(changes: pd.DataFrame) -> pd.DataFrame:
    """The changes with each z's two-sided p-value and Holm's adjusted p-value over every change of
    the study (every option, direction and metric: the family a ranking picks its largest from)."""
    if changes.empty:
        return changes.assign(p_value=pd.Series(dtype=float), p_holm=pd.Series(dtype=float))
    p = two_sided_p(changes["z"].to_numpy(float))
    return changes.assign(p_value=p, p_holm=holm(p))


def ranking(changes: pd.DataFrame) -> pd.DataFrame:
    """The options by influence: the largest |z| of a change over every metric and direction, the
    metric it moved most, that change's Holm-adjusted p-value over every change of the study, and
    how many of the option's metric changes stay significant at 5% after Holm's correction (an
    option whose largest |z| is not significant may be noise: with ~30 metrics per step, one |z|
    above 2 is expected from noise alone)."""
    columns = ["param", "max_abs_z", "metric", "p_holm", "significant"]
    if changes.empty:
        return pd.DataFrame(columns=columns)
    if "p_holm" not in changes:
        changes = with_holm(changes)
    work = changes.assign(abs_z=changes["z"].abs(), significant=changes["p_holm"] < ALPHA)
    top = work.loc[work.groupby("param")["abs_z"].idxmax(), ["param", "abs_z", "metric", "p_holm"]]
    count = work.groupby("param")["significant"].sum().rename("significant")
    out = top.set_index("param").join(count).rename(columns={"abs_z": "max_abs_z"})
    return out.sort_values("max_abs_z", ascending=False).reset_index()[columns]


def mirror_note(table: pd.DataFrame) -> str:
    """Why a mirror's study measures no strategy metric ("" when it measures them all)."""
    undefined = table.attrs.get("undefined") or []
    return (f"One strategy at every seat (a mirror): {', '.join(undefined)} not measured (no strategy to "
            f"be better than another)." if undefined else "")


def current_rules(study: Study) -> str:
    """The study's base rules in words: the file and the fixed changes, or the defaults."""
    parts = [str(study.ruleset)] if study.ruleset is not None else []
    parts += [show_point(study.overrides)] if study.overrides else []
    return ", ".join(parts) or "the defaults"


@dataclass(frozen=True)
class PageWords:
    """What a study page of paired changes says (the numeric sensitivity, the rulings)."""

    title: str
    intro: str            # formatted with games and seed
    top: str
    ranked: str
    figure: str           # formatted with metric
    every: str
    left_out: str
    refused: str


SENSITIVITY_WORDS = PageWords(
    title="Sensitivity of the headline metrics",
    intro="Each option is stepped once down and once up around the current rules; every run plays the "
          "same {games:,} games (seed {seed}), so each change is paired game by game. Bars: change; "
          "whiskers: 95% interval; |z|: the change in standard errors; p_holm: its p-value adjusted by "
          "Holm's method over every change of the study, and `significant` counts an option's changes "
          "with p_holm < 0.05.",
    top="Which knobs matter most", ranked="Options by their largest change, in standard errors (|z|)",
    figure="Sensitivity of {metric}", every="Change in each metric for each step (paired 95% intervals)",
    left_out="Steps left out", refused="Steps the rules refuse")


def write_sensitivity(out, table: pd.DataFrame, study: Study, games: int, seed: int, base) -> Path:
    """sensitivity.parquet, a tornado chart per metric, the ranking and the index pages."""
    from sim.tuning.figures import tornado_figure

    return write_study(out, "sensitivity", table, study, games, seed, base, SENSITIVITY_WORDS,
                       tornado_figure, "tornado")


def write_study(out, name: str, table: pd.DataFrame, study: Study, games: int, seed: int, base,
                words: PageWords, figure, figure_key: str) -> Path:
    """<name>.parquet, `figure(table, metric)` for each metric a change moved, the ranking and the
    index pages of a study of paired changes."""
    from sim import __version__
    from sim.analysis.report import Report
    from sim.tuning.figures import png

    root = Path(out)
    root.mkdir(parents=True, exist_ok=True)
    table.to_parquet(root / f"{name}.parquet", index=False)
    meta = {"mobsim version": __version__, "game": study.game, "players": str(study.players),
            "strategies": ",".join(study.strategies), "games per run": f"{games:,}", "seed": str(seed),
            "current rules": f"{current_rules(study)} ({base.fingerprint[:12]})"}
    report = Report(words.title, meta)
    report.text(words.intro.format(games=games, seed=seed))
    if table.attrs.get("undefined"):
        report.text(mirror_note(table))
    report.heading(words.top)
    ranked = ranking(table)
    report.table(ranked, words.ranked, name="ranking", shown=_metrics_shown(ranked))
    moved = set(table.loc[(table["lo"] != 0) | (table["hi"] != 0), "metric"])
    for metric in table.attrs["metrics"]:
        if metric in moved:  # a metric no change moved at all has nothing to draw
            report.figure(png(figure(table, metric)), f"{figure_key}-{metric}",
                          words.figure.format(metric=shown_metric(metric)))
    report.heading("Every change")
    report.table(table, words.every, name="changes", shown=_metrics_shown(table))
    if table.attrs["skipped"]:
        report.heading(words.left_out)
        report.table(pd.DataFrame(table.attrs["skipped"]), words.refused, name="skipped")
    report.write(root)
    return root / f"{name}.parquet"


def _metrics_shown(frame: pd.DataFrame) -> pd.DataFrame:
    """A table to show: its metric names as a page shows them (seats counted from 1, shown_metric)."""
    return frame.assign(metric=frame["metric"].map(shown_metric)) if "metric" in frame else frame
