"""Parameter sweeps: every point of a grid of rule values, played on the same games.

    import sim
    table = sim.sweep(players=4, strategies="simple,random,simple,random", games=20_000, seed=1,
                      params={"missions.reward_scale": [0.6, 1.0, 1.4],
                              "recruit.min_offer": [1000, 2000]},
                      out="runs/sweep1")

Each point is a run with the same seed and game ids (common random numbers). The table has one
row per point: the swept values, every headline metric as `<metric>`, `<metric>.lo`,
`<metric>.hi` (95% interval), and its change from the baseline as `<metric>.diff`,
`<metric>.diff_lo`, `<metric>.diff_hi`, paired game by game (`sim.analysis.headline.compare`), and
the pairing gain of that change, `<metric>.gain`, `<metric>.gain_lo`, `<metric>.gain_hi`: how many
times fewer games the paired change needs than an unpaired one (`sim.analysis.pairing`).
The baseline is the current ruleset (`baseline="current"`, its row has `grid` False when
it is not itself a grid point) or the first point (`baseline="first"`). With `out`, the runs are
kept under `out/points/` (a finished point is read back, not played again), and `sweep.parquet`,
one figure per swept option and `index.md`/`index.html` are written.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pandas as pd

from sim.runner.executor import uses_scheduler
from sim.tuning.errors import TuningError
from sim.tuning.grid import MAX_POINTS, check_grid_size, checked_params, grid_points
from sim.tuning.study import Evaluation, Study, check_games, difference, point_dir, show_point

BASELINES = ("current", "first")
SUFFIXES = ("", ".lo", ".hi", ".diff", ".diff_lo", ".diff_hi")


@uses_scheduler
def sweep(players: int = 4, strategies="simple", games: int = 1000, seed: int = 0,
          params: dict | None = None, ruleset=None, overrides: dict | None = None,
          workers: int | None = None, out=None, baseline: str = "current", game: str = "nyk",
          force: bool = False, on_point: Callable | None = None, max_points: int = MAX_POINTS,
          scheduler: str | None = None) -> pd.DataFrame:
    """Play every point of the grid `params` ({key: values}) on the same games; see the module doc.
    A grid of more than `max_points` points is refused before any of its values is made.

    `on_point(i, n, point)` is called before each point is played (for progress reports).
    """
    if baseline not in BASELINES:
        raise TuningError(f"baseline {baseline!r}: use one of {', '.join(BASELINES)}")
    games, seed = check_games(games, seed)
    check_grid_size(params or {}, max_points)
    if out is not None:
        _claim(out)
    params = checked_params(params, game)
    study = Study(players=players, strategies=strategies, ruleset=ruleset,
                  overrides=overrides or {}, game=game, workers=workers)
    study.check()
    points = grid_points(params)
    for point in points:
        study.ruleset_for(point)  # every point's rules are valid before a game is played
    base_point = study.base_values(params) if baseline == "current" else points[0]
    todo = points if base_point in points else [base_point, *points]
    base_at = todo.index(base_point)
    evaluations, changes, gains = [None] * len(todo), [None] * len(todo), [None] * len(todo)
    for i in [base_at] + [j for j in range(len(todo)) if j != base_at]:  # the baseline first
        if on_point is not None:
            on_point(i, len(todo), todo[i])
        evaluations[i] = study.evaluate(todo[i], games, seed, point_dir(out, study, todo[i]), force)
        changes[i] = difference(evaluations[base_at], evaluations[i])
        gains[i] = pairing_gains(evaluations[base_at], evaluations[i])
        if i != base_at:
            evaluations[i].run = None  # only the baseline's tables are needed from here on
    base = evaluations[base_at]
    table = sweep_table(evaluations, changes, base, list(params), points, gains)
    if out is not None:
        write_sweep(out, table, study, params, games, seed, base)
    return table


def _claim(out) -> None:
    """The sweep's folder holds no other study (a run's, a meta-game's): it says it holds this one."""
    from sim.runner.store import RunError, claim

    try:
        claim(out, "tuning")
    except RunError as err:
        raise TuningError(str(err)) from None


def pairing_gains(base: Evaluation, other: Evaluation) -> pd.DataFrame | None:
    """The pairing gain of each metric's change from `base` (sim.analysis.pairing), when both
    points played the same games; None for the baseline itself or unpaired points."""
    from sim.analysis.headline import is_paired
    from sim.analysis.pairing import pairing_gain

    if other is base or base.run is None or other.run is None or not is_paired(base.run, other.run):
        return None
    return pairing_gain(base.run, other.run)


def sweep_table(evaluations: list[Evaluation], changes: list[pd.DataFrame], base: Evaluation,
                keys: list[str], grid: list[dict], gains: list | None = None) -> pd.DataFrame:
    """One row per point: swept values, each metric with its interval, its change from `base`
    and the pairing gain of that change."""
    metrics = list(base.headline.index)
    rows = []
    gains = gains or [None] * len(evaluations)
    for number, (ev, change, gain) in enumerate(zip(evaluations, changes, gains, strict=True)):
        row = {key: ev.point[key] for key in keys}
        row |= {"point": number, "grid": ev.point in grid, "baseline": ev is base,
                "games": ev.games, "seed": ev.seed, "fingerprint": ev.fingerprint}
        for metric in metrics:
            value, lo, hi = ev.metric(metric)
            row |= {metric: value, f"{metric}.lo": lo, f"{metric}.hi": hi}
            if metric in change.index:
                d = change.loc[metric]
                row |= {f"{metric}.diff": d["diff"], f"{metric}.diff_lo": d["lo"],
                        f"{metric}.diff_hi": d["hi"]}
            if gain is not None and metric in gain.index:
                g = gain.loc[metric]
                row |= {f"{metric}.gain": g["gain"], f"{metric}.gain_lo": g["lo"], f"{metric}.gain_hi": g["hi"]}
        rows.append(row)
    table = pd.DataFrame(rows)
    table.attrs["metrics"] = metrics
    table.attrs["params"] = keys
    table.attrs["paired"] = bool(all(c["paired"].all() for c in changes))
    return table


def metrics_of(table: pd.DataFrame) -> list[str]:
    """The metric names of a sweep table (those with a `.lo` column), in table order."""
    return [c[: -len(".lo")] for c in table.columns if c.endswith(".lo") and not c.endswith(".diff_lo")]


# --- output ---------------------------------------------------------------------------------------

def write_sweep(out, table: pd.DataFrame, study: Study, params: dict, games: int, seed: int,
                base: Evaluation) -> Path:
    """sweep.parquet, a figure per swept option (values and paired changes) and the index pages."""
    from sim import __version__
    from sim.analysis.report import Report
    from sim.tuning.figures import metric_figure, png

    root = Path(out)
    root.mkdir(parents=True, exist_ok=True)
    table.to_parquet(root / "sweep.parquet", index=False)
    meta = {"mobsim version": __version__, "game": study.game, "players": str(study.players),
            "strategies": ",".join(study.strategies), "games per point": f"{games:,}",
            "seed": str(seed), "points": str(int(table["grid"].sum())),
            "baseline": f"{show_point(base.point)} ({base.fingerprint[:12]})"}
    if study.overrides:
        meta["fixed changes"] = show_point(study.overrides)
    report = Report("Parameter sweep", meta)
    report.text(f"Every point is a run of the same {games:,} games (seed {seed}, game ids 0..{games - 1}): "
                "points differ only by their rules, so each change from the baseline is measured game "
                "by game (paired). Bands and bars are 95% intervals.")
    metrics = metrics_of(table)
    paired = table.attrs.get("paired", False)
    for key in params:
        if len(params[key]) < 2:
            continue
        report.heading(key)
        report.figure(png(metric_figure(table, key, metrics, change=False)),
                      f"sweep-{key}", f"Headline metrics against {key} (95% intervals)")
        report.figure(png(metric_figure(table, key, metrics, change=True)),
                      f"sweep-{key}-change", f"Change from the baseline against {key} (paired 95% intervals)")
    report.heading("Metrics at each point")
    report.table(_cells(table, list(params), metrics, ""), "Value [95% interval] at each point",
                 name="values")
    report.heading("Change from the baseline")
    report.text("Every change is paired game by game: means over games from per-game differences, gaps, "
                "maxima and win rates from a bootstrap that resamples the same games at both points."
                if paired else "The points did not all play the same games: changes are unpaired.")
    report.table(_cells(table, list(params), metrics, ".diff"), "Change [95% interval] from the baseline",
                 name="changes")
    report.write(root)
    return root / "sweep.parquet"


def point_label(row, keys) -> str:
    return ", ".join(f"{k}={row[k]}" for k in keys)


def _cells(table: pd.DataFrame, keys: list[str], metrics: list[str], kind: str) -> pd.DataFrame:
    """Metrics as rows, points as columns, each cell `value [lo, hi]`."""
    lo, hi = (".diff_lo", ".diff_hi") if kind else (".lo", ".hi")
    columns = {}
    for _, row in table.iterrows():
        label = point_label(row, keys) + (" (baseline)" if row["baseline"] else "")
        columns[label] = [_cell(row.get(m + kind), row.get(m + lo), row.get(m + hi)) for m in metrics]
    return pd.DataFrame(columns, index=pd.Index(metrics, name="metric"))


def _cell(value, lo, hi) -> str:
    if value is None or value != value:
        return ""
    return f"{_fmt(value)} [{_fmt(lo)}, {_fmt(hi)}]"


def _fmt(x) -> str:
    if x is None or x != x:
        return "nan"
    return f"{x:.4g}" if abs(x) < 1000 else f"{x:,.0f}"
