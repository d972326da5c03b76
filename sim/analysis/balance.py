"""A first balance study from a run's tables: who wins (by strategy, by seat) and how games end.

Every rate carries its 95% Wilson interval. Functions take the run's DataFrames and return
DataFrames, so notebooks can use them as they are.
"""

import numpy as np
import pandas as pd

from sim.analysis.report import Report, percent
from sim.analysis.stats import Z95, wilson  # noqa: F401  (wilson and Z95 are part of this module's API)


def win_rates(seats: pd.DataFrame, by) -> pd.DataFrame:
    """Games, wins, win rate and its 95% interval for each group of seat rows."""
    grouped = seats.groupby(by, observed=True)["won"].agg(games="size", wins="sum").reset_index()
    grouped["win_rate"] = grouped["wins"] / grouped["games"]
    grouped["low"], grouped["high"] = wilson(grouped["wins"], grouped["games"])
    return grouped


def endings(games: pd.DataFrame) -> pd.DataFrame:
    """How the winner was decided (fortune or which tie-break), with shares and intervals."""
    counts = games["decided_by"].value_counts().rename_axis("decided_by").reset_index(name="games")
    counts["share"] = counts["games"] / len(games)
    counts["low"], counts["high"] = wilson(counts["games"], len(games))
    return counts


def durations(games: pd.DataFrame) -> pd.DataFrame:
    return games["turns"].value_counts().sort_index().rename_axis("turns").reset_index(name="games")


def _bar_with_intervals(ax, frame: pd.DataFrame, label: str, title: str, fair: float | None):
    x = np.arange(len(frame))
    rate = frame["win_rate"].to_numpy()
    ax.bar(x, rate, color="#4C72B0")
    ax.errorbar(x, rate, yerr=[rate - frame["low"], frame["high"] - rate], fmt="none", ecolor="black",
                capsize=4)
    if fair is not None:
        ax.axhline(fair, color="grey", linestyle="--", linewidth=1, label=f"1/{round(1 / fair)}")
        ax.legend()
    ax.set_xticks(x, frame[label].astype(str))
    ax.set_ylabel("win rate (95% interval)")
    ax.set_title(title)


def add_to_report(report: Report, games: pd.DataFrame, seats: pd.DataFrame, description: str):
    """The balance section: win rates by strategy and seat, endings, durations."""
    import matplotlib.pyplot as plt

    n_players = int(games["n_players"].iloc[0])
    by_strategy = win_rates(seats, "strategy")
    by_seat = win_rates(seats, "seat")
    report.heading("Balance study: who wins")
    report.text(description)
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.6))
    _bar_with_intervals(axes[0], by_strategy, "strategy", "Win rate by strategy", None)
    _bar_with_intervals(axes[1], by_seat, "seat", "Win rate by seat (seating rotated)", 1 / n_players)
    report.figure(fig, "win-rates", "Win rates with 95% Wilson intervals")
    rates = {"win_rate": percent, "low": percent, "high": percent}
    report.table(by_strategy, "Win rate by strategy", name="win-rate-by-strategy", formats=rates)
    report.table(by_seat, "Win rate by seat", name="win-rate-by-seat", formats=rates)
    gap = by_seat["win_rate"].max() - by_seat["win_rate"].min()
    report.text(f"Seat balance: the largest gap between two seats' win rates is {gap:.1%} "
                f"({len(games):,} games).")
    report.heading("How games end", level=3)
    report.table(endings(games), "How the winner was decided (NYK-E1)", name="endings",
                 formats={"share": percent, "low": percent, "high": percent})
    report.table(durations(games), "Game length in turns", name="durations")
