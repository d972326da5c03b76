"""Fortunes: final fortunes by strategy and, when the run recorded turns, fortunes over the turns
of a game by strategy (median and a quantile band). Tables in, tables out."""

from __future__ import annotations

import pandas as pd

from sim.analysis.stats import mean_interval

BAND = (0.1, 0.5, 0.9)


def by_game_mean(seats: pd.DataFrame, column: str, by: str = "strategy") -> pd.DataFrame:
    """Mean per seat of `column` for each group, with a 95% interval that treats games (not
    seats) as the independent units: each game contributes the mean of its seats in the group."""
    per_game = seats.groupby(["game_id", by], observed=True)[column].mean().reset_index()
    rows = []
    for key, group in per_game.groupby(by, observed=True, sort=False):
        mean, lo, hi, n = mean_interval(group[column])
        rows.append({by: key, "mean": mean, "lo": lo, "hi": hi, "games": n})
    return pd.DataFrame(rows, columns=[by, "mean", "lo", "hi", "games"])


def final_fortunes(seats: pd.DataFrame) -> pd.DataFrame:
    """Final fortune by strategy: mean (95% interval over games), median and the 10-90% band,
    and the share of seats that ended with nothing."""
    means = by_game_mean(seats, "fortune")
    grouped = seats.groupby("strategy", observed=True)["fortune"]
    extra = pd.DataFrame({
        "q10": grouped.quantile(0.1), "median": grouped.median(), "q90": grouped.quantile(0.9),
        "broke": grouped.apply(lambda f: float((f <= 0).mean())),
    })
    return means.merge(extra, left_on="strategy", right_index=True, how="left")


def fortune_bands(turns: pd.DataFrame, seats: pd.DataFrame, band=BAND) -> pd.DataFrame:
    """Per strategy and turn (0 = the start), quantiles of the fortunes of the seats whose game
    had reached that turn, and how many seats that is (games end at different turns)."""
    strategy = seats.set_index(["game_id", "seat"])["strategy"]
    key = pd.MultiIndex.from_arrays([turns["game_id"], turns["seat"]])
    tagged = turns.assign(strategy=strategy.reindex(key).to_numpy())
    grouped = tagged.groupby(["strategy", "turn"], observed=True)["fortune"]
    table = grouped.quantile(list(band)).unstack()
    table.columns = [f"q{round(100 * q):02d}" for q in band]
    table["seats"] = grouped.size()
    return table.reset_index()


def money_columns(seats: pd.DataFrame, columns) -> list[str]:
    """The columns of this list the run has."""
    return [c for c in columns if c in seats]


def per_seat_means(seats: pd.DataFrame, columns, by: str = "strategy") -> pd.DataFrame:
    """Mean per seat of several columns for each group and over all seats (wide table)."""
    table = seats.groupby(by, observed=True)[list(columns)].mean()
    table.loc["all"] = seats[list(columns)].mean()
    table.index.name = by
    return table.astype(float)
