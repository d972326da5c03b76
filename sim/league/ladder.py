"""The skill ladder: rungs of strategies whose strength should be strictly ordered.

Each pair of rungs plays 4-player games with two seats each, seats rotated; the higher rung's
win rate per seat minus the lower rung's, with a 95% interval (games as the independent unit),
tells whether it is stronger. With h seats each, one game moves that difference by 1/h, so it
lies between -1/h and +1/h (-50 and +50 points in a two-against-two game). The same comparison
as a share: `higher_share`, the higher rung's share of the games either side won (head-to-head
win share, 50% for equal rungs). The ladder is strictly ordered when every higher rung beats
every lower one with significance.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from sim.analysis.stats import Z95, wilson
from sim.league.match import Pool, play_lineups, resolve, ruleset_key
from sim.rooms import DEFAULT_GAME
from sim.runner.executor import uses_scheduler
from sim.shared.game import find



PAIRS = ("all", "steps")  # every pair of rungs, or each rung against the one below it


@uses_scheduler
def ladder(rungs=None, games: int = 4000, seed: int = 0, players: int = 4, ruleset=None,
           overrides=None, workers: int | None = None, pairs: str = "all", game: str = DEFAULT_GAME,
           scheduler: str | None = None) -> pd.DataFrame:
    """One row per pair (lower, higher): each side's win rate per seat and the difference with its
    95% interval; `ordered` is True when the interval lies above zero. `pairs = "steps"` plays
    only neighbouring rungs (a costly top rung, such as a search player, meets one rung). `rungs`
    default: the game's ladder (sim.shared.game)."""
    if players % 2:
        raise ValueError("the ladder seats two strategies equally: give an even number of players")
    if pairs not in PAIRS:
        raise ValueError(f"pairs = {pairs!r}: choose {' or '.join(PAIRS)}")
    rungs = [resolve(r, game) for r in (find(game).ladder if rungs is None else rungs)]
    played = [(i, j) for i in range(len(rungs)) for j in range(i + 1, len(rungs))
              if pairs == "all" or j == i + 1]
    half = players // 2
    lineups = [[rungs[i]] * half + [rungs[j]] * half for i, j in played]
    with Pool(workers) as pool:
        matches = play_lineups(pool, lineups, games, seed, ruleset_key(ruleset, overrides, game))
    rows = [{"lower": rungs[i].name, "higher": rungs[j].name, **pair_row(m, games, half)}
            for (i, j), m in zip(played, matches, strict=True)]
    return pd.DataFrame(rows)


def pair_row(m, games: int, half: int) -> dict:
    """A pair's reading from its match (the lower rung in the first `half` slots, the higher in
    the rest): each side's win rate a seat, the difference with its 95% interval, the
    head-to-head share and whether the pair is ordered."""
    low_rate = sum(m.wins[:half]) / (games * half)
    high_rate = sum(m.wins[half:]) / (games * half)
    diff = high_rate - low_rate
    # a game's difference d (higher side's wins minus lower side's, per seat) is +-1/half when
    # one side wins (shared wins aside): Var d = E[d^2] - diff^2 = wins per game / half^2 - diff^2
    per_game = sum(m.wins) / games
    se = float(np.sqrt(max(per_game / half**2 - diff**2, 0.0) / games))
    lo, hi = diff - Z95 * se, diff + Z95 * se
    share, s_lo, s_hi = head_to_head_share(sum(m.wins[half:]), sum(m.wins[:half]), games)
    # near 0 or 100% that normal interval collapses: never report one narrower than the
    # head-to-head share's Wilson interval mapped onto the difference (inside the ceiling)
    scale = (sum(m.wins[half:]) + sum(m.wins[:half])) / (games * half)
    lo, hi = min(lo, scale * (2 * s_lo - 1)), max(hi, scale * (2 * s_hi - 1))
    return {"games": games, "lower_win_rate": low_rate, "higher_win_rate": high_rate, "difference": diff,
            "low": lo, "high": hi, "ceiling": 1 / half, "higher_share": share, "share_low": s_lo,
            "share_high": s_hi, "ordered": lo > 0}


def head_to_head_share(high_wins: int, low_wins: int, games: int) -> tuple[float, float, float]:
    """The higher side's share of the wins of either side, with a Wilson interval on the games
    (a shared win counts for both, so the wins are scaled back to games)."""
    decided = high_wins + low_wins
    if decided == 0:
        return float("nan"), 0.0, 1.0
    share = high_wins / decided
    trials = min(games, decided)
    lo, hi = wilson(share * trials, trials)
    return share, float(lo), float(hi)
