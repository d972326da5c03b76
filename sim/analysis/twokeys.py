"""A measure by two keys: win share by seat and game length, fortune by strategy and player count,
each cell with its 95% interval, and its figure (one line per value of the first key).

    table = by_two_keys(run.seats, "won", "seat", "turns", games=run.games, bins=4)
    draw_by_two_keys(table)

A flag (won, alive) is a share with its Wilson interval; a number its mean with a normal interval.
A numeric second key with many values (game length) is cut into `bins` ranges of about equal
numbers of games (or at the given edges); the ranges are labelled "9-10" (turns 9 to 10)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from sim.analysis.stats import mean_interval, wilson

COLUMNS = ["first", "second", "n", "value", "lo", "hi"]


def by_two_keys(frame: pd.DataFrame, measure: str, first: str, second: str, games: pd.DataFrame | None = None,
                bins=None) -> pd.DataFrame:
    """The measure for every pair of values of the two keys: a long table (first, second, n,
    value, lo, hi), named by the keys in `attrs`. Columns missing from `frame` are taken from
    `games` by game_id (a seat table's game length). `bins`: an int (ranges of about equal
    counts) or a list of edges for a numeric second key; None keeps its values."""
    data = _with_game_columns(frame, games, [measure, first, second])
    if bins is not None:
        data = data.assign(**{second: _binned(data[second], bins)})
    flag = data[measure].dtype == bool
    rows = []
    for (a, b), part in data.groupby([first, second], observed=True, sort=True):
        values = part[measure]
        if flag:
            k, n = int(values.sum()), len(values)
            lo, hi = wilson(k, n)
            rows.append((a, b, n, k / n, float(lo), float(hi)))
        else:
            mean, lo, hi, n = mean_interval(values)
            rows.append((a, b, n, mean, lo, hi))
    table = pd.DataFrame(rows, columns=COLUMNS)
    table.attrs.update(measure=measure, first=first, second=second)
    return table


def _with_game_columns(frame: pd.DataFrame, games: pd.DataFrame | None, wanted: list[str]) -> pd.DataFrame:
    missing = [c for c in dict.fromkeys(wanted) if c not in frame]
    if not missing:
        return frame
    if games is None or "game_id" not in frame or any(c not in games for c in missing):
        raise ValueError(f"by_two_keys: no column {', '.join(missing)} in the table (give games= holding it, "
                         f"joined by game_id)")
    return frame.merge(games[["game_id", *missing]], on="game_id", how="left")


def _binned(values: pd.Series, bins) -> pd.Series:
    """Ranges of a numeric key, labelled "lo-hi" and ordered."""
    x = values.to_numpy(float)
    if isinstance(bins, int):
        edges = np.unique(np.quantile(x, np.linspace(0, 1, bins + 1)))
    else:
        edges = np.asarray(sorted(bins), float)
    if len(edges) < 2:
        edges = np.array([x.min(), x.max()])
    cut = pd.cut(x, edges, include_lowest=True, duplicates="drop")
    labels = [f"{_num(i.left if k else x.min())}-{_num(i.right)}" for k, i in enumerate(cut.categories)]
    return pd.Series(pd.Categorical.from_codes(cut.codes, labels, ordered=True), index=values.index)


def _num(v: float) -> str:
    return f"{v:g}"


def draw_by_two_keys(table: pd.DataFrame, ax=None, title: str = "", reference: float | None = None):
    """One line per value of the first key over the second key's values, 95% intervals as
    whiskers (a dashed line at `reference`, e.g. the even share 1 / players); the figure."""
    from sim.analysis.figures import color, figure

    if ax is None:
        fig, (ax,) = figure(width=6.0, height=3.8)
    else:
        fig = ax.figure
    seconds = list(dict.fromkeys(table["second"]))
    x = np.arange(len(seconds))
    for i, (key, part) in enumerate(table.groupby("first", sort=True)):
        at = x[[seconds.index(v) for v in part["second"]]] + (i - table["first"].nunique() / 2) * 0.04
        ax.errorbar(at, part["value"], yerr=[part["value"] - part["lo"], part["hi"] - part["value"]],
                    marker="o", capsize=3, color=color(i), label=f"{table.attrs.get('first', 'first')} {key}")
    if reference is not None:
        ax.axhline(reference, color="grey", linestyle="--", linewidth=1)
    ax.set_xticks(x, [str(s) for s in seconds])
    ax.set_xlabel(table.attrs.get("second", "second"))
    ax.set_ylabel(table.attrs.get("measure", "value"))
    ax.set_title(title or f"{table.attrs.get('measure')} by {table.attrs.get('first')} and "
                          f"{table.attrs.get('second')} (95% intervals)")
    ax.legend(fontsize=8)
    return fig
