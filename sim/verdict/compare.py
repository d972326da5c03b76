"""Two verdict studies of one game side by side (two rulesets, same seed): the paired change of
every measure at every rung and player count, on the game ids both played (common random
numbers pair them game by game), with 95% intervals. `moves`: the interval excludes 0."""

from __future__ import annotations

import pandas as pd

from sim.verdict.measures import order_key, paired_change
from sim.verdict.study import Verdict, VerdictError


def compare(a: Verdict, b: Verdict) -> pd.DataFrame:
    for key in ("game", "seed"):
        if a.meta.get(key) != b.meta.get(key):
            raise VerdictError(f"the two verdicts differ in {key} ({a.meta.get(key)!r} and "
                               f"{b.meta.get(key)!r}): compare studies of one game played with one seed")
    rungs = [r for r in a.meta["rungs"] if r in b.meta["rungs"]]
    if not rungs:
        raise VerdictError("the two verdicts share no rung: play them with the same --rungs")
    rows = []
    for (rung, n), fa in a.per_game.groupby(["rung", "players"], sort=False):
        if rung not in rungs:
            continue
        fb = b.per_game[(b.per_game["rung"] == rung) & (b.per_game["players"] == n)]
        if fb.empty:
            continue
        for row in paired_change(_cell(fa), _cell(fb)):
            rows.append({"rung": rung, "rung_index": rungs.index(rung), "players": int(n)}
                        | {"measure": row["measure"], "change": row["estimate"], "lo": row["lo"],
                           "hi": row["hi"], "games": row["games"]})
    out = pd.DataFrame(rows)
    if out.empty:
        raise VerdictError("the two verdicts share no (rung, players) cell with common game ids")
    out["moves"] = (out["lo"] > 0) | (out["hi"] < 0)
    return out.sort_values(["measure", "players", "rung_index"], kind="stable").reset_index(drop=True)


def _cell(frame: pd.DataFrame) -> pd.DataFrame:
    """One cell's per-game values: the table holds every player count's seats (won_5 is empty at
    3 players), so a column without a value in this cell is not one of its measures."""
    frame = frame.drop(columns=["rung", "players", "search_seat"])
    return frame.loc[:, frame.notna().any()]


def summary(changes: pd.DataFrame) -> pd.DataFrame:
    """Per measure and player count: at which rungs B moves the measure beyond noise, and
    whether the change holds at the strongest rung compared ("for good players")."""
    rows = []
    for (measure, n), cell in changes.groupby(["measure", "players"], sort=False):
        cell = cell.sort_values("rung_index")
        top = cell.iloc[-1]
        moved = cell.loc[cell["moves"], "rung"].tolist()
        rows.append({"measure": measure, "players": int(n), "moves_at": ",".join(moved),
                     "at_top_rung": top["rung"], "top_change": top["change"], "top_lo": top["lo"],
                     "top_hi": top["hi"],
                     "reading": ("moves at the strongest rung too" if top["moves"] else
                                 "moves only weaker play" if moved else "no change beyond noise")})
    out = pd.DataFrame(rows)
    if out.empty:
        return out
    out["order"] = out["measure"].map(order_key)
    return out.sort_values(["order", "players"]).drop(columns="order").reset_index(drop=True)
