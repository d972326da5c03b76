"""Decisions that matter: the share of decisions whose options lead to different winners.

At each decision of more than one option (every seat halting, as its own policy plays it), each
option (at most `max_options`, evenly spaced over the list) is taken on a copy of the game and
the game played out by the seats' policies. The copies keep every stream of luck, so the options
meet the same world (common random numbers): a decision *matters* when two of its options end
with different winners. By decision kind and by turn, with Wilson intervals: a designer's dead
turns (few decisions matter) and meaningful choices, and where a search should spend its time.
It is a lower bound of "matters": options not tried, and other worlds, may differ more.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from sim.analysis.stats import wilson


def options_tried(n: int, max_options: int) -> list[int]:
    """Every option of a short list; of a long one, max_options spread evenly, both ends in."""
    if n <= max_options:
        return list(range(n))
    return sorted({int(round(x)) for x in np.linspace(0, n - 1, max_options)})


def game_decisions(fw, outcome_of, turn_of, max_options: int = 6, every: int = 1) -> list[dict]:
    """One row per decision examined of the game in `fw` (a forward state halting at every
    decision; every `every`-th decision of more than one option is examined): its turn, seat,
    kind, options, options tried and whether the winner differs. `outcome_of(fw, k)`: the winner
    when option k is taken on a copy and the game played out; `turn_of(fw)`: the turn."""
    rows, seen = [], 0
    while not fw.over:
        d = fw.decision()
        if len(d.options) > 1:
            if seen % every == 0:
                tried = options_tried(len(d.options), max_options)
                winners = {outcome_of(fw, k) for k in tried}
                rows.append({"turn": turn_of(fw), "seat": d.seat, "kind": d.kind,
                             "options": len(d.options), "tried": len(tried), "matters": int(len(winners) > 1)})
            seen += 1
        fw.apply_policy()
    return rows


def played_out(fw, k: int) -> int:
    """The winner when option k is taken on a copy and every seat then plays its own strategy."""
    return fw.outcome_after(k).result()["winner"]


def turn_of(fw) -> int:
    return fw.turn


def decisions(luck, game_ids, max_options: int = 6, every: int = 1) -> pd.DataFrame:
    """The rows of `game_decisions` for a luck table's games (sim.analysis.luck.games)."""
    rows = []
    for game_id in game_ids:
        fw = luck.table(int(game_id)).forward(stop=range(luck.players), every_kind=True)
        for row in game_decisions(fw, played_out, turn_of, max_options, every):
            rows.append({"game_id": int(game_id), **row})
    return pd.DataFrame(rows)


def summarise(df: pd.DataFrame, by: str) -> pd.DataFrame:
    """The share of decisions that matter by `by` ("kind" or "turn"), with Wilson intervals."""
    out = []
    for key, part in df.groupby(by):
        k, n = int(part.matters.sum()), len(part)
        lo, hi = wilson(k, n)
        out.append({by: key, "decisions": n, "matter": k / n, "lo": lo, "hi": hi,
                    "options_mean": float(part.options.mean())})
    return pd.DataFrame(out)
