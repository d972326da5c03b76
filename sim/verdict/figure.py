"""The verdict's figure: one small panel per measure, the measure over the skill axis (rungs
weakest first), one line per player count, its 95% interval as a band."""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd

from sim.verdict.measures import SEAT_GAP, seat_measure

COLUMNS = 4


def panel_measures(measures: pd.DataFrame) -> list[str]:
    """The measures drawn: seat 1's advantage, the seat gap, then every measure not per seat."""
    names = list(dict.fromkeys(measures["measure"]))
    rest = [m for m in names if not (m.startswith("seat ") and m.endswith(" advantage")) and m != SEAT_GAP]
    return [m for m in (seat_measure(1), SEAT_GAP) if m in names] + rest


def draw(measures: pd.DataFrame, rungs, path: Path, title: str = "") -> Path:
    """The figure written to `path` (PNG)."""
    import matplotlib.pyplot as plt

    fig = make(measures, rungs, title)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def make(measures: pd.DataFrame, rungs, title: str = ""):
    """The matplotlib figure: a panel per measure (`panel_measures`)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = panel_measures(measures)
    rows = math.ceil(len(names) / COLUMNS)
    fig, axes = plt.subplots(rows, COLUMNS, figsize=(3.1 * COLUMNS, 2.5 * rows), squeeze=False)
    for ax, name in zip(axes.flat, names, strict=False):
        cell = measures[measures["measure"] == name]
        for n, line in cell.groupby("players"):
            line = line.sort_values("rung_index")
            x = line["rung_index"].to_numpy()
            ax.plot(x, line["estimate"], marker="o", ms=3, lw=1.2, label=f"{n} players")
            ax.fill_between(x, line["lo"], line["hi"], alpha=0.2)
        if name.endswith("advantage"):
            ax.axhline(0.0, color="grey", lw=0.6)
        ax.set_title(name, fontsize=8)
        ax.set_xticks(range(len(rungs)))
        ax.set_xticklabels(rungs, rotation=35, ha="right", fontsize=6)
        ax.tick_params(axis="y", labelsize=6)
    for ax in list(axes.flat)[len(names):]:
        ax.axis("off")
    axes.flat[0].legend(fontsize=6)
    if title:
        fig.suptitle(title, fontsize=9)
    fig.tight_layout()
    return fig
