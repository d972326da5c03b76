"""Small matplotlib helpers for the reports. Figures are built with `matplotlib.figure.Figure`
(no pyplot state, no display needed) and handed to `Report.figure`, which renders them as PNG."""

from __future__ import annotations

import numpy as np

PALETTE = ("#4C72B0", "#DD8452", "#55A868", "#C44E52", "#8172B3", "#937860", "#DA8BC3", "#8C8C8C",
           "#CCB974", "#64B5CD")


def figure(ncols: int = 1, width: float = 5.0, height: float = 3.6, nrows: int = 1):
    """A figure and its axes (a flat list)."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width * ncols, height * nrows))  # no layout engine: savefig's tight box is enough
    axes = fig.subplots(nrows, ncols, squeeze=False)
    fig.subplots_adjust(wspace=0.3, hspace=0.4)
    return fig, list(axes.ravel())


def color(i: int) -> str:
    return PALETTE[i % len(PALETTE)]


def bars(ax, labels, values, lo=None, hi=None, title: str = "", ylabel: str = "",
         reference: float | None = None, reference_label: str | None = None, percent: bool = True):
    """Bars with 95% interval whiskers and an optional dashed reference line."""
    x = np.arange(len(labels))
    v = np.asarray(values, dtype=float)
    ax.bar(x, v, color=[color(i) for i in range(len(v))])
    if lo is not None and hi is not None:
        err = np.vstack([v - np.asarray(lo, dtype=float), np.asarray(hi, dtype=float) - v])
        ax.errorbar(x, v, yerr=np.clip(err, 0, None), fmt="none", ecolor="black", capsize=4)
    if reference is not None:
        ax.axhline(reference, color="grey", linestyle="--", linewidth=1, label=reference_label)
        if reference_label:
            ax.legend(loc="best", fontsize=8)
    ax.set_xticks(x, [str(s) for s in labels], rotation=30 if len(labels) > 6 else 0)
    finish(ax, title, ylabel, percent)


def points(ax, x, values, lo, hi, title: str = "", xlabel: str = "", ylabel: str = "",
           percent: bool = True, label: str | None = None, i: int = 0):
    """Points with 95% interval whiskers, joined by a line."""
    v = np.asarray(values, dtype=float)
    err = np.vstack([v - np.asarray(lo, dtype=float), np.asarray(hi, dtype=float) - v])
    ax.errorbar(x, v, yerr=np.clip(err, 0, None), fmt="o-", color=color(i), capsize=3,
                markersize=4, label=label)
    ax.set_xlabel(xlabel)
    finish(ax, title, ylabel, percent)


def grouped_bars(ax, groups, series, title: str = "", ylabel: str = "", percent: bool = True):
    """Bars grouped by `groups` (x axis), one colour per series; `series` maps a label to
    (values, lo, hi) aligned with `groups` (95% interval whiskers)."""
    x = np.arange(len(groups))
    width = 0.8 / max(1, len(series))
    for i, (label, (values, lo, hi)) in enumerate(series.items()):
        v = np.asarray(values, dtype=float)
        at = x + (i - (len(series) - 1) / 2) * width
        ax.bar(at, v, width=width, color=color(i), label=str(label))
        err = np.vstack([v - np.asarray(lo, dtype=float), np.asarray(hi, dtype=float) - v])
        ax.errorbar(at, v, yerr=np.clip(np.nan_to_num(err), 0, None), fmt="none", ecolor="black", capsize=3)
    ax.set_xticks(x, [str(g) for g in groups])
    ax.legend(fontsize=7, loc="best")
    finish(ax, title, ylabel, percent)


def heatmap(ax, matrix, row_labels, col_labels, title: str = "", fmt=lambda v: f"{100 * v:.1f}%"):
    """A matrix as coloured cells with their values written in."""
    m = np.asarray(matrix, dtype=float)
    image = ax.imshow(m, cmap="viridis", aspect="auto")
    ax.set_xticks(range(len(col_labels)), [str(c) for c in col_labels])
    ax.set_yticks(range(len(row_labels)), [str(r) for r in row_labels])
    middle = np.nanmean(m) if np.isfinite(m).any() else 0
    for (i, j), value in np.ndenumerate(m):
        if np.isfinite(value):
            ax.text(j, i, fmt(value), ha="center", va="center", fontsize=8,
                    color="white" if value < middle else "black")
    ax.set_title(title)
    ax.figure.colorbar(image, ax=ax, shrink=0.8)


def histogram(ax, values, counts, title: str = "", xlabel: str = "", ylabel: str = "games"):
    """Counts per value as bars (the data are whole numbers already counted)."""
    ax.bar(np.asarray(values, dtype=float), counts, width=0.9 * _step(values), color=color(0))
    ax.set_xlabel(xlabel)
    finish(ax, title, ylabel, percent=False)


def _step(values) -> float:
    v = np.unique(np.asarray(values, dtype=float))
    return float(np.min(np.diff(v))) if len(v) > 1 else 1.0


def finish(ax, title: str, ylabel: str, percent: bool):
    ax.set_title(title)
    ax.set_ylabel(ylabel)
    if percent:
        from matplotlib.ticker import PercentFormatter

        ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    ax.grid(axis="y", alpha=0.3)
