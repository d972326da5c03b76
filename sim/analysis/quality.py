"""Game quality: how long games last, how they end, how close they are and when they are decided.
Tables in, tables out; shares carry Wilson intervals, means normal intervals.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from sim.analysis.headline import DECIDED_PLAINLY
from sim.analysis.stats import mean_interval, wilson

QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)
PROGRESS = tuple(round(0.1 * k, 1) for k in range(1, 11))  # 10%, 20%, ..., 100% of a game


def summary(values, name: str) -> dict:
    """Mean with its 95% interval, quantiles, min and max of one column."""
    x = pd.Series(values, dtype=float).dropna()
    mean, lo, hi, n = mean_interval(x)
    row = {"measure": name, "n": n, "mean": mean, "lo": lo, "hi": hi}
    row |= {f"q{round(100 * q):02d}": float(x.quantile(q)) for q in QUANTILES}
    return row | {"min": float(x.min()), "max": float(x.max())}


def share(mask, name: str) -> dict:
    """A share with its Wilson interval."""
    m = np.asarray(mask, dtype=bool)
    k, n = int(m.sum()), len(m)
    lo, hi = wilson(k, n)
    return {"measure": name, "games": n, "count": k, "share": k / n if n else np.nan, "lo": lo, "hi": hi}


def distribution(values, name: str) -> pd.DataFrame:
    """Games per value of a whole-number column, with shares."""
    counts = pd.Series(values).value_counts().sort_index()
    table = counts.rename_axis(name).reset_index(name="games")
    table["share"] = table["games"] / table["games"].sum()
    return table


def endings(games: pd.DataFrame) -> pd.DataFrame:
    """How the winner was decided (fortune, a tie-break, or last standing), shares with intervals."""
    counts = games["decided_by"].astype(str).value_counts()
    table = counts.rename_axis("decided_by").reset_index(name="games")
    table["tie_break"] = ~table["decided_by"].isin(DECIDED_PLAINLY)
    table["share"] = table["games"] / len(games)
    table["lo"], table["hi"] = wilson(table["games"], len(games))
    return table


def closeness(games: pd.DataFrame) -> pd.DataFrame:
    """Shares about how contested games are: comebacks, the winner leading from the first turn,
    the lead taken for good only in the last turn, games with no lead change."""
    rows = []
    if "winner_deficit_mid" in games:
        rows.append(share(games["winner_deficit_mid"] > 0, "comeback (winner behind at mid-game)"))
    if "winner_led_from" in games:
        rows.append(share(games["winner_led_from"] <= 1, "winner led from the first turn"))
        rows.append(share(games["winner_led_from"] >= games["turns"], "lead taken for good in the last turn"))
    if "lead_changes" in games:
        rows.append(share(games["lead_changes"] == 0, "no lead change"))
    if "cap_hit" in games:
        rows.append(share(games["cap_hit"], "turn cap reached"))
    return pd.DataFrame(rows, columns=["measure", "games", "count", "share", "lo", "hi"])


def decided_share(games: pd.DataFrame) -> pd.Series:
    """Per game, the share of its turns during which the eventual winner led for good:
    (turns - winner_led_from + 1) / turns (1: led from the first turn)."""
    turns = games["turns"].clip(lower=1).astype(float)
    return ((turns - games["winner_led_from"] + 1) / turns).clip(0, 1)


def measures(games: pd.DataFrame) -> pd.DataFrame:
    """Summaries of the per-game measures: turns, lead changes, decisiveness, margin, deficit."""
    rows = [summary(games["turns"], "turns")]
    if "lead_changes" in games:
        rows.append(summary(games["lead_changes"], "lead changes"))
    if "winner_led_from" in games:
        rows.append(summary(games["winner_led_from"], "turn the winner took the lead for good"))
        rows.append(summary(decided_share(games), "share of the game led for good by the winner"))
    if "margin" in games:
        rows.append(summary(games["margin"], "margin of victory ($)"))
    if "winner_deficit_mid" in games:
        rows.append(summary(games["winner_deficit_mid"], "winner's deficit at mid-game ($)"))
    return pd.DataFrame(rows)


def first_player(seats: pd.DataFrame, min_seats: int = 30) -> pd.DataFrame:
    """Win rate by the number of turns a seat played first (Wilson), values with fewer than
    `min_seats` seats pooled into the last row (`k+`)."""
    x = seats["times_first"].to_numpy()
    counts = np.bincount(x)
    big = np.nonzero(counts >= min_seats)[0]
    top = int(big.max()) if len(big) else int(x.max())
    label = np.where(x >= top, top, x)
    table = (seats.assign(times_first=label).groupby("times_first")["won"]
             .agg(seats="size", wins="sum").reset_index())
    table["wins"] = table["wins"].astype(int)
    table["win_rate"] = table["wins"] / table["seats"]
    table["lo"], table["hi"] = wilson(table["wins"], table["seats"])
    if (x > top).any():
        table["times_first"] = table["times_first"].astype(str)
        table.loc[table.index[-1], "times_first"] = f"{top}+"
    return table


def leader_curve(turns: pd.DataFrame, games: pd.DataFrame) -> pd.DataFrame:
    """How early the winner is known: at 10%, 20%, ..., 100% of each game (the turn
    ceil(share x turns)), the share of games whose eventual winner then had the largest fortune
    (alone or tied), with Wilson intervals. From the per-turn fortunes (record_turns)."""
    g = games.set_index("game_id")
    fortune = turns.pivot_table(index=["game_id", "turn"], columns="seat", values="fortune",
                                aggfunc="first")
    rows = []
    ids = g.index.to_numpy()
    length = g["turns"].to_numpy()
    winner = g["winner_seat"].to_numpy()
    for p in PROGRESS:
        at = np.maximum(1, np.ceil(p * length - 1e-9)).astype(int)
        at = np.minimum(at, length)
        wanted = pd.MultiIndex.from_arrays([ids, at])
        f = fortune.reindex(wanted).to_numpy(float)
        valid = ~np.isnan(f).all(axis=1)
        best = np.nanmax(np.where(np.isnan(f), -np.inf, f), axis=1)
        leads = f[np.arange(len(ids)), winner] >= best
        k, n = int(leads[valid].sum()), int(valid.sum())
        lo, hi = wilson(k, n)
        rows.append({"progress": p, "games": n, "winner_leads": k / n if n else np.nan, "lo": lo, "hi": hi})
    return pd.DataFrame(rows)
