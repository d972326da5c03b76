"""Skill against chance: how often a stronger player beats weaker ones, and the share of games a
pure-skill game would hand to a coin flip to spread results as widely.

One seat of the stronger rung sits with players - 1 seats of the weaker one, seats rotated; `w`
is the stronger seat's win share (a win shared by k counts 1/k). The benchmark follows Duersch,
Lambrecht & Oechssler (2020, "Measuring skill and chance in games", European Economic Review):
a game of pure skill in which the stronger player always wins, played with probability q by a
coin flip among the N seats instead, gives the stronger seat w = (1 - q) + q / N, so

    q = (1 - w) / (1 - 1 / N)

q = 0: skill decides every game between these rungs; q = 1: the stronger rung wins no more than
its fair share 1/N (all chance, or no skill difference). The interval maps w's normal 95% interval
through the same (monotone) formula. A rung pair whose gap is small reads as much chance: q is a
figure of the two rungs as well as of the game: the top rung against the second one (the weakest
player that plays the game at all) is the figure quoted for a game.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from sim.analysis.stats import mean_interval
from sim.shared.game import find



def coin_share(w, players: int):
    """The coin-flip share q of a pure-skill game giving the stronger seat the win share w."""
    return np.clip((1 - np.asarray(w, dtype=float)) / (1 - 1 / players), 0.0, 1.0)


def strong_shares(game: str, strong: str, weak: str, players: int, games: int, seed: int, ruleset) -> np.ndarray:
    """Per game, the win share of the one `strong` seat among players - 1 `weak` seats."""
    mod, batch = find(game).part("game"), find(game).part("batch")
    lineup = mod.Lineup.of([strong] + [weak] * (players - 1), players)
    _, seats, _ = mod.play_many(seed, games, players, lineup, ruleset)
    won = seats[:, :, batch.SEAT_COLUMNS.index("won")].astype(float)
    strong_seat = seats[:, :, batch.SEAT_COLUMNS.index("strategy")] == 0
    winners = np.maximum(won.sum(axis=1), 1)
    return (won * strong_seat).sum(axis=1) / winners


def skill_table(game: str, rungs, players: int, games: int, seed: int, ruleset) -> pd.DataFrame:
    """Each rung against the one below it, and the top rung against the bottom one and against
    the second (the weakest that is not the bottom: a uniform random player is beaten by anyone)."""
    pairs = [(rungs[i + 1], rungs[i]) for i in range(len(rungs) - 1)]
    pairs += [(rungs[-1], rungs[k]) for k in (0, 1) if len(rungs) > k + 2]
    rows = []
    for strong, weak in pairs:
        w, lo, hi, n = mean_interval(strong_shares(game, strong, weak, players, games, seed, ruleset))
        rows.append({"game": game, "players": players, "stronger": strong, "weaker": weak, "games": n,
                     "win_share": w, "win_lo": lo, "win_hi": hi, "fair_share": 1 / players,
                     "coin_share": float(coin_share(w, players)), "coin_lo": float(coin_share(hi, players)),
                     "coin_hi": float(coin_share(lo, players))})
    return pd.DataFrame(rows)
