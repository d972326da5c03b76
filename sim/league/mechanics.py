"""What each mechanic is worth: a restricted player against copies of itself unrestricted.

One seat plays `base+restriction`, the other seats `base`, seats rotated. With nothing taken away
every seat would win its fair share 1/players; the shortfall of the restricted seat (with its 95%
interval) is what the mechanic is worth to that style of play. A mechanic nobody needs shows no
shortfall; a negative shortfall means the style is better off without it.
"""

from __future__ import annotations

import pandas as pd

import strategies as strategy_presets
from sim.rooms import DEFAULT_GAME
from sim.league.match import Pool, play_lineups, resolve, ruleset_key
from sim.runner.executor import uses_scheduler


@uses_scheduler
def mechanic_values(base: str = "balanced", restrictions=None, players: int = 4, games: int = 4000,
                    seed: int = 0, ruleset=None, overrides=None, workers: int | None = None,
                    scheduler: str | None = None) -> pd.DataFrame:
    """One row per restriction: the restricted seat's win rate, the fair share, the shortfall
    (fair share minus win rate) with its 95% interval, and whether it is significant."""
    names = list(restrictions or strategy_presets.space(DEFAULT_GAME).RESTRICTIONS)
    plain = resolve(base)
    lineups = [[resolve(f"{base}+{r}")] + [plain] * (players - 1) for r in names]
    with Pool(workers) as pool:
        matches = play_lineups(pool, lineups, games, seed, ruleset_key(ruleset, overrides))
    fair = 1 / players
    rows = []
    for r, m in zip(names, matches, strict=True):
        lo, hi = m.interval(0)
        rows.append({"restriction": r, "base": base, "games": games, "win_rate": m.rate(0), "low": lo,
                     "high": hi, "fair": fair, "worth": fair - m.rate(0), "worth_low": fair - hi,
                     "worth_high": fair - lo, "significant": hi < fair or lo > fair})
    return pd.DataFrame(rows).sort_values("worth", ascending=False, ignore_index=True)
