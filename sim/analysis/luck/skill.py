"""Skill against chance, as Duersch, Lambrecht & Oechssler (2020, "Measuring skill and chance in
games", European Economic Review 127) define it, for a stated population of players (the game's
ladder, or the rungs given):

1. a round robin: every multiset of the population on the N seats but the mirrors (a rung
   against itself says nothing about skill), `games` games each, seats rotated, common game ids;
2. a multi-player rating fit: Plackett-Luce on the winner's place (Luce's choice model: seat i
   wins with probability exp(r_i) / sum over the seats exp(r_j); a win shared by k counts 1/k),
   by maximum likelihood with a weak normal prior (sd `PRIOR_SD` in log-strength) that keeps a
   player that never lost finite; ratings in Elo points (400 / ln 10 per unit of log-strength);
3. skill as the dispersion of the ratings: `rating_sd`, their standard deviation over the
   population (Elo points), with a bootstrap interval over each profile's games;
4. the benchmark, computed the same way: the same schedule played by a game of pure skill in the
   population's measured order (the best-rated seat wins) with a share x of its results replaced
   by a uniform winner among the seats, rated the same way; `coin_flip_share` is the x whose
   rating dispersion matches (the paper's "x%-chess": here the pure-skill game stands in for
   chess, which has no results for these players). 0: as much skill as a pure-skill game shows
   among these players; 1: no more dispersion than coin flips.

The pair figure of earlier versions (one seat of a stronger rung among weaker seats, its win share
w rescaled as q = (1 - w) / (1 - 1/N)) describes one pair of rungs, not a population: it is kept
under its own name, `pair_coin_share`, read from the round robin's profile of that pair.
"""

from __future__ import annotations

from itertools import combinations_with_replacement

import numpy as np
import pandas as pd

from sim.analysis.stats import BOOT_SEED, ELO, mean_interval, percentile_interval
from sim.shared.game import find

PRIOR_SD = 4.0          # log-strength: ~700 Elo points, weak against any real game's evidence
BENCHMARK_REPLICATES = 64
BENCHMARK_GRID = np.linspace(0.0, 1.0, 41)
SKILL_BOOT_REPS = 200


def profiles(population, players: int) -> list[tuple[int, ...]]:
    """Every multiset of the population's indices on the seats, the mirrors left out."""
    return [p for p in combinations_with_replacement(range(len(population)), players) if len(set(p)) > 1]


def seat_counts(schedule, members: int) -> np.ndarray:
    """(profiles, members): how many seats each member holds in each profile."""
    out = np.zeros((len(schedule), members))
    for i, p in enumerate(schedule):
        np.add.at(out[i], list(p), 1.0)
    return out


def fit_ratings(seats: np.ndarray, wins: np.ndarray, prior_sd: float = PRIOR_SD, iterations: int = 100) -> np.ndarray:
    """Plackett-Luce (winner's place) log-strengths, mean 0, by Newton's method on the penalised
    log-likelihood; `wins[..., p, k]`: member k's wins in profile p (leading axes fitted
    independently: bootstrap resamples, benchmark replicates). Hand-written: neither scipy nor
    statsmodels fits a Luce choice model over seats of varying multiplicity, and one call here
    fits hundreds of tables (tests/test_luck.py checks it against scipy's optimiser)."""
    wins = np.asarray(wins, dtype=float)
    k = seats.shape[1]
    r = np.zeros(wins.shape[:-2] + (k,))
    games = wins.sum(axis=-1)                                    # (..., P)
    for _ in range(iterations):
        logits = np.where(seats > 0, np.log(np.maximum(seats, 1e-300)) + r[..., None, :], -np.inf)
        pi = np.exp(logits - logits.max(axis=-1, keepdims=True))
        pi /= pi.sum(axis=-1, keepdims=True)                    # (..., P, K)
        grad = (wins - games[..., None] * pi).sum(axis=-2) - r / prior_sd**2
        weighted = games[..., None, None] * (pi[..., :, None] * np.eye(k) - pi[..., :, None] * pi[..., None, :])
        hess = weighted.sum(axis=-3) + np.eye(k) / prior_sd**2   # the negative Hessian
        step = np.clip(np.linalg.solve(hess, grad[..., None])[..., 0], -2.0, 2.0)
        r = r + step
        if np.abs(step).max(initial=0.0) < 1e-10:
            break
    return r - r.mean(axis=-1, keepdims=True)


def rating_sd(seats, wins) -> np.ndarray:
    """The standard deviation of the fitted Elo ratings over the population."""
    return (ELO * fit_ratings(seats, wins)).std(axis=-1)


def benchmark_curve(schedule, seats, games: int, order, seed: int = BOOT_SEED,
                    grid=BENCHMARK_GRID, replicates: int = BENCHMARK_REPLICATES) -> np.ndarray:
    """Rating dispersion of the pure-skill game (the best-rated seat in `order` wins) over the
    same schedule, with a share x of each profile's `games` replaced by a uniform winner among
    the seats, for every x of `grid` (the mean over replicates; common draws across x)."""
    rng = np.random.default_rng(seed)
    slots = np.array(schedule)                                        # (P, N)
    n_prof, players = slots.shape
    k, grid = seats.shape[1], np.asarray(grid, float)
    best = np.array([max(p, key=lambda m: order[m]) for p in schedule])
    u = rng.random((replicates, n_prof, games))                       # a game is a coin flip at x when u < x
    member = slots[np.arange(n_prof)[None, :, None], rng.integers(0, players, (replicates, n_prof, games))]
    first = np.searchsorted(grid, u, side="right")                    # the first grid point at which it is
    cell = ((np.arange(replicates)[:, None, None] * n_prof + np.arange(n_prof)[None, :, None]) * (len(grid) + 1)
            + first) * k + member
    hist = np.bincount(cell.ravel(), minlength=replicates * n_prof * (len(grid) + 1) * k)
    coin = hist.reshape(replicates, n_prof, len(grid) + 1, k).cumsum(axis=2)[:, :, :-1]   # (R, P, grid, K)
    curve = []
    for j in range(len(grid)):
        wins = coin[:, :, j].astype(float)
        wins += (games - wins.sum(axis=-1))[..., None] * np.eye(k)[best]
        curve.append(rating_sd(seats, wins).mean())
    return np.minimum.accumulate(np.array(curve))                     # dispersion falls with x


def coin_flip_share(sd, grid, curve) -> np.ndarray:
    """The x of the benchmark whose dispersion matches `sd` (0 above the curve, 1 below it)."""
    return np.clip(np.interp(-np.asarray(sd, float), -curve, grid), 0.0, 1.0)


def skill_figure(schedule, population, game_wins: list[np.ndarray], seed: int = BOOT_SEED,
                 reps: int = SKILL_BOOT_REPS) -> dict:
    """The Duersch-Lambrecht-Oechssler figure of a played round robin: `game_wins[p]` is a
    (games, members) array of each game's win shares in profile p."""
    k = len(population)
    seats = seat_counts(schedule, k)
    wins = np.stack([g.sum(axis=0) for g in game_wins])
    ratings = ELO * fit_ratings(seats, wins)
    sd = float(ratings.std())
    rng = np.random.default_rng(seed)
    boot = np.stack([rng.multinomial(len(g), np.full(len(g), 1 / len(g)), size=reps) @ g for g in game_wins], axis=1)
    # the basic (reverse-percentile) interval: resampling adds noise that inflates a dispersion,
    # and the percentile interval would carry that shift (it covered 85% in the synthetic test)
    q_lo, q_hi = percentile_interval(rating_sd(seats, boot))
    sd_lo, sd_hi = max(2 * sd - q_hi, 0.0), 2 * sd - q_lo
    games = int(np.median([len(g) for g in game_wins]))
    curve = benchmark_curve(schedule, seats, games, ratings, seed)
    x, x_lo, x_hi = (float(coin_flip_share(v, BENCHMARK_GRID, curve)) for v in (sd, sd_hi, sd_lo))
    return {"population": list(population), "ratings": dict(zip(population, map(float, ratings), strict=True)),
            "rating_sd": sd, "rating_sd_lo": float(sd_lo), "rating_sd_hi": float(sd_hi),
            "coin_flip_share": x, "coin_flip_share_lo": x_lo, "coin_flip_share_hi": x_hi,
            "profiles": len(schedule), "games_per_profile": games,
            "benchmark": {"x": [float(v) for v in BENCHMARK_GRID], "rating_sd": [float(v) for v in curve]}}


def play_round_robin(game: str, population, players: int, games: int, seed: int, ruleset):
    """(schedule, per profile a (games, members) array of each game's win shares)."""
    mod, batch = find(game).part("game"), find(game).part("batch")
    schedule = profiles(population, players)
    out = []
    for profile in schedule:
        lineup = mod.Lineup.of([population[m] for m in profile], players)
        _, seats, _ = mod.play_many(seed, games, players, lineup, ruleset)
        won = seats[:, :, batch.SEAT_COLUMNS.index("won")].astype(float)
        slot = seats[:, :, batch.SEAT_COLUMNS.index("strategy")].astype(int)
        share = won / np.maximum(won.sum(axis=1, keepdims=True), 1)
        member = np.asarray(profile)[slot]                           # (games, seats) -> member index
        per_game = np.zeros((games, len(population)))
        np.add.at(per_game, (np.arange(games)[:, None].repeat(players, 1), member), share)
        out.append(per_game)
    return schedule, out


def pair_coin_share(w, players: int):
    """The pair figure: q of a pure-skill game giving the stronger seat the win share w."""
    return np.clip((1 - np.asarray(w, dtype=float)) / (1 - 1 / players), 0.0, 1.0)


def pair_table(game: str, population, players: int, schedule, game_wins) -> pd.DataFrame:
    """Each rung against the one below it, and the top rung against the bottom one and against
    the second: the stronger seat's win share among players - 1 weaker seats (from the round
    robin's profile of that pair) and its `pair_coin_share`."""
    k = len(population)
    pairs = [(i + 1, i) for i in range(k - 1)] + [(k - 1, j) for j in (0, 1) if k > j + 2]
    where = {p: i for i, p in enumerate(schedule)}
    rows = []
    for strong, weak in pairs:
        shares = game_wins[where[tuple(sorted((strong,) + (weak,) * (players - 1)))]][:, strong]
        w, lo, hi, n = mean_interval(shares)
        rows.append({"game": game, "players": players, "stronger": population[strong], "weaker": population[weak],
                     "games": n, "win_share": w, "win_lo": lo, "win_hi": hi, "fair_share": 1 / players,
                     "pair_coin_share": float(pair_coin_share(w, players)),
                     "pair_coin_lo": float(pair_coin_share(hi, players)),
                     "pair_coin_hi": float(pair_coin_share(lo, players))})
    return pd.DataFrame(rows)


def skill_study(game: str, population, players: int, games: int, seed: int, ruleset) -> dict:
    """The round robin played, its skill figure and its pair table."""
    schedule, game_wins = play_round_robin(game, population, players, games, seed, ruleset)
    figure = skill_figure(schedule, population, game_wins)
    return {"figure": figure | {"game": game, "players": players}, "pairs": pair_table(game, population, players,
                                                                                        schedule, game_wins)}


def skill_table(game: str, rungs, players: int, games: int, seed: int, ruleset) -> pd.DataFrame:
    """The pair table of a round robin of `rungs` (`pair_table`); `coin_share`, `coin_lo` and
    `coin_hi` repeat the pair columns for notebooks/06-luck.ipynb, which reads those names."""
    study = skill_study(game, rungs, players, games, seed, ruleset)
    pairs = study["pairs"]
    return pairs.assign(coin_share=pairs["pair_coin_share"], coin_lo=pairs["pair_coin_lo"],
                        coin_hi=pairs["pair_coin_hi"])
