"""Figures of tuning studies: metrics against a swept option, and tornado charts of sensitivity."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from sim.shared.seats import shown_metric

COLUMNS = 4
DOWN, UP = "#4C72B0", "#DD8452"
DPI = 90


def png(fig, dpi: int = DPI) -> bytes:
    """The figure as PNG bytes, closed. No tight bounding box: the layout is fixed when drawn
    (measuring every tick label for a tight box costs more than the rest of a small study)."""
    import io

    import matplotlib.pyplot as plt

    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=dpi)
    plt.close(fig)
    return buffer.getvalue()


def metric_figure(table: pd.DataFrame, key: str, metrics: list[str], change: bool = False):
    """One panel per metric against `key`, a line (with its 95% band) per setting of the other
    swept options, the baseline starred; `change` draws the paired change from the baseline."""
    import matplotlib.pyplot as plt

    params = table.attrs.get("params", [key])
    others = [p for p in params if p != key]
    rows = max(1, math.ceil(len(metrics) / COLUMNS))
    fig, axes = plt.subplots(rows, COLUMNS, figsize=(3.4 * COLUMNS, 2.5 * rows), squeeze=False)
    lines = table[table["grid"]] if "grid" in table else table  # a baseline off the grid: a star only
    groups = list(lines.groupby(others, sort=False)) if others else [((), lines)]
    base = table[table["baseline"]] if "baseline" in table else table.iloc[:0]
    levels = list(dict.fromkeys(table[key]))  # the swept values, in table order
    suffix, lo, hi = (".diff", ".diff_lo", ".diff_hi") if change else ("", ".lo", ".hi")
    for ax, metric in zip(axes.flat, metrics, strict=False):
        for label, part in groups:
            part = part.sort_values(key, key=lambda v: pd.Series(_positions(v, levels), index=v.index))
            if metric + suffix not in part:
                continue
            x = _positions(part[key], levels)
            name = ", ".join(f"{o}={v}" for o, v in zip(others, np.atleast_1d(label), strict=True))
            line, = ax.plot(x, part[metric + suffix], marker="o", markersize=3, label=name or None)
            ax.fill_between(x, part[metric + lo], part[metric + hi], color=line.get_color(), alpha=0.2)
        if change:
            ax.axhline(0, color="grey", linewidth=0.8)
        if not all(_numeric(v) for v in levels):
            ax.set_xticks(range(len(levels)), [str(v) for v in levels])
        if len(base) and metric + suffix in base:
            y = base[metric + suffix].to_numpy(dtype=float)
            err = np.abs(np.vstack([y - base[metric + lo].to_numpy(dtype=float),
                                    base[metric + hi].to_numpy(dtype=float) - y]))
            ax.errorbar(_positions(base[key], levels), y, yerr=err, marker="*", color="black",
                        markersize=8, linestyle="none", elinewidth=0.8, capsize=2,
                        label="baseline" if ax is axes.flat[0] else None)
        ax.set_title(shown_metric(metric) + (" change" if change else ""), fontsize=9)
        ax.tick_params(labelsize=7)
        ax.locator_params(axis="y", nbins=4)
    for ax in axes.flat[len(metrics):]:
        ax.set_visible(False)
    if len(groups) <= 8:
        axes.flat[0].legend(fontsize=6)
    fig.supxlabel(key, fontsize=9)
    height = fig.get_figheight()  # margins in inches, whatever the number of rows
    fig.subplots_adjust(left=0.06, right=0.98, top=1 - 0.3 / height, bottom=0.6 / height,
                        hspace=0.55, wspace=0.3)
    return fig


def _positions(values: pd.Series, levels: list) -> np.ndarray:
    """x positions: the values themselves when they are numbers, else their rank among `levels`."""
    if all(_numeric(v) for v in levels):
        return values.to_numpy(dtype=float)
    return np.array([levels.index(v) for v in values], dtype=float)


def _numeric(value) -> bool:
    return isinstance(value, int | float | np.number) and not isinstance(value, bool | np.bool_)


def tornado_figure(changes: pd.DataFrame, metric: str, top: int = 15):
    """Bars of the change in `metric` for a step down and a step up of each option, with 95%
    intervals, the options that move it most on top."""
    import matplotlib.pyplot as plt

    part = changes[changes["metric"] == metric]
    size = part.groupby("param")["diff"].apply(lambda d: d.abs().max()).sort_values(ascending=False)
    order = list(size.index[:top])[::-1]
    fig, ax = plt.subplots(figsize=(9, 0.32 * len(order) + 1.0))
    y = np.arange(len(order))
    for direction, colour, shift in (("down", DOWN, -0.18), ("up", UP, 0.18)):
        rows = part[part["direction"] == direction].set_index("param").reindex(order)
        diff = rows["diff"].to_numpy(dtype=float)
        err = np.vstack([diff - rows["lo"].to_numpy(dtype=float), rows["hi"].to_numpy(dtype=float) - diff])
        ax.barh(y + shift, np.nan_to_num(diff), height=0.36, color=colour, label=f"step {direction}")
        # a corrected gap's change may fall outside the plug-in change's interval (docs/reports.md)
        ax.errorbar(diff, y + shift, xerr=np.clip(np.nan_to_num(err), 0, None), fmt="none", ecolor="black",
                    elinewidth=0.8, capsize=2)
    ax.axvline(0, color="grey", linewidth=0.8)
    ax.set_yticks(y, [_param_label(part, p) for p in order], fontsize=7)
    ax.set_xlabel(f"change in {shown_metric(metric)} (paired 95% interval)", fontsize=8)
    ax.set_title(f"Sensitivity of {shown_metric(metric)}", fontsize=10)
    ax.legend(fontsize=7, loc="lower right")
    height = fig.get_figheight()
    fig.subplots_adjust(left=0.42, right=0.97, top=1 - 0.35 / height, bottom=0.55 / height)
    return fig


def rulings_figure(changes: pd.DataFrame, metric: str, top: int = 20):
    """A bar for each other value of each ruling: the change it makes in `metric` (95% interval),
    the largest on top."""
    part = changes[changes["metric"] == metric].copy()
    part["label"] = [f"{r.param} = {_short(r.value)} (now {_short(r.current)})" for r in part.itertuples()]
    return labelled_bars(part, metric, f"Rulings and {shown_metric(metric)}", top)


def assumed_figure(changes: pd.DataFrame, metric: str, top: int = 20):
    """A bar for each end of each assumed value's range: the change it makes in `metric`."""
    part = changes[changes["metric"] == metric].copy()
    part["label"] = [f"{r.value} at its {r.side} end ({r.setting})" for r in part.itertuples()]
    return labelled_bars(part, metric, f"Assumed values and {shown_metric(metric)}", top)


def labelled_bars(part: pd.DataFrame, metric: str, title: str, top: int = 20):
    """One bar per row of `part` (label, diff, lo, hi), the largest change on top."""
    import matplotlib.pyplot as plt

    part = part.reindex(part["diff"].abs().sort_values(ascending=False).index[:top][::-1])
    fig, ax = plt.subplots(figsize=(9, 0.3 * len(part) + 1.0))
    y = np.arange(len(part))
    diff = part["diff"].to_numpy(dtype=float)
    err = np.vstack([diff - part["lo"].to_numpy(dtype=float), part["hi"].to_numpy(dtype=float) - diff])
    ax.barh(y, np.nan_to_num(diff), height=0.6, color=UP)
    ax.errorbar(diff, y, xerr=np.clip(np.nan_to_num(err), 0, None), fmt="none", ecolor="black",
                elinewidth=0.8, capsize=2)
    ax.axvline(0, color="grey", linewidth=0.8)
    ax.set_yticks(y, list(part["label"]), fontsize=7)
    ax.set_xlabel(f"change in {shown_metric(metric)} (paired 95% interval)", fontsize=8)
    ax.set_title(title, fontsize=10)
    height = fig.get_figheight()
    fig.subplots_adjust(left=0.45, right=0.97, top=1 - 0.35 / height, bottom=0.55 / height)
    return fig


def _param_label(part: pd.DataFrame, param: str) -> str:
    rows = part[part["param"] == param]
    steps = {r.direction: r.value for r in rows.itertuples()}
    current = rows["current"].iloc[0] if len(rows) else ""
    down, up = steps.get("down", "-"), steps.get("up", "-")
    return f"{param} ({_short(down)} < {_short(current)} < {_short(up)})"


def _short(value) -> str:
    return f"{value:g}" if _numeric(value) else str(value)
