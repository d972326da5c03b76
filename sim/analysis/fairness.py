"""Who wins: win rates by strategy, seat, player count and strategy x seat; a permutation test
of seat balance; pairwise strategy (or seat) differences with Holm's correction; Bradley-Terry
ratings; and the games a one-point difference needs. Tables in, tables out.

A shared win counts as a win for every sharer (rank 1), as in the run's `won` column.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd

from sim.analysis.headline import clustered_rate, strategy_masks, strategy_names
from sim.analysis.stats import (BOOT_REPS, BOOT_SEED, ELO, Z95, bradley_terry, games_needed, holm,
                                percentile_interval, resampled_sums, two_sided_p, wilson)

ONE_POINT = 0.01
ALPHA, POWER = 0.05, 0.8


def win_rates(seats: pd.DataFrame, by) -> pd.DataFrame:
    """Seats, wins, win rate and its 95% Wilson interval for each group of seat rows. With a
    `game_id` column the interval is clustered by game (a group holding two seats of one game
    does not count them as independent: `headline.clustered_rate`)."""
    grouped = seats.groupby(by, observed=True)["won"].agg(seats="size", wins="sum").reset_index()
    grouped["wins"] = grouped["wins"].astype(int)
    grouped["win_rate"] = grouped["wins"] / grouped["seats"]
    grouped["lo"], grouped["hi"] = wilson(grouped["wins"], grouped["seats"])
    if "game_id" in seats:
        keys = [by] if isinstance(by, str) else list(by)
        per_game = seats.groupby(keys + ["game_id"], observed=True)["won"].agg(["sum", "size"])
        bounds = {}
        for key, part in per_game.groupby(level=keys if len(keys) > 1 else keys[0], observed=True):
            rate = clustered_rate(part["sum"].to_numpy(float), part["size"].to_numpy(float))
            bounds[key] = (rate[1], rate[2])
        index = pd.MultiIndex.from_frame(grouped[keys]) if len(keys) > 1 else pd.Index(grouped[keys[0]])
        grouped["lo"] = [bounds[k][0] for k in index]
        grouped["hi"] = [bounds[k][1] for k in index]
    return grouped


def by_player_count(games: pd.DataFrame, seats: pd.DataFrame) -> pd.DataFrame:
    """Win rate of each strategy at each table size, next to the even share 1 / players."""
    counts = games.set_index("game_id")["n_players"]
    tagged = seats[["game_id", "strategy", "won"]].assign(n_players=counts.reindex(seats["game_id"]).to_numpy())
    table = win_rates(tagged, ["n_players", "strategy"])
    table.insert(2, "even_share", 1 / table["n_players"])
    return table


def seat_advantage(games: pd.DataFrame, seats: pd.DataFrame) -> pd.DataFrame:
    """Per table size and seat: its win rate (Wilson), the average seat's rate at that size
    (`average`: wins per game over players), and the seat's advantage = its rate minus the
    average, with a 95% normal interval on the per-game differences (won minus the game's mean
    win), so the seats of one game are not taken as independent."""
    sizes = games.set_index("game_id")["n_players"]
    tagged = seats[["game_id", "seat", "won"]].assign(n_players=sizes.reindex(seats["game_id"]).to_numpy())
    rows = []
    for size, part in tagged.groupby("n_players", observed=True):
        won = part.pivot_table(index="game_id", columns="seat", values="won", aggfunc="first").astype(float)
        diff = won.sub(won.mean(axis=1), axis=0)
        g = len(won)
        for seat in won.columns:
            k = int(won[seat].sum())
            lo, hi = wilson(k, g)
            adv = float(diff[seat].mean())
            half = Z95 * float(diff[seat].std(ddof=1)) / math.sqrt(g) if g > 1 else math.nan
            rows.append({"n_players": int(size), "seat": int(seat), "games": g, "wins": k, "win_rate": k / g,
                         "lo": lo, "hi": hi, "average": float(won.to_numpy().mean()), "advantage": adv,
                         "adv_lo": adv - half, "adv_hi": adv + half})
    return pd.DataFrame(rows, columns=["n_players", "seat", "games", "wins", "win_rate", "lo", "hi", "average",
                                       "advantage", "adv_lo", "adv_hi"])


def strategy_by_seat(seats: pd.DataFrame) -> pd.DataFrame:
    """Win rate of each strategy in each seat (long form, Wilson intervals)."""
    return win_rates(seats, ["strategy", "seat"])


# --- seats: is the gap more than noise? ---------------------------------------------------------

def seat_permutation_test(seats: pd.DataFrame, reps: int = BOOT_REPS, seed: int = BOOT_SEED) -> dict | None:
    """The largest gap between seats' win rates against its distribution when seats do not
    matter. With rotated seating, each game's outcome by lineup slot is kept and the seatings
    are shuffled among the games (the rotation is the design's randomisation, so strategies keep
    their strength); when every seat plays one strategy, the wins are shuffled among the seats of
    each game. Returns the observed gap, the null's median and 95th percentile (the gap noise
    alone opens), the p-value (1 + #null >= observed) / (1 + reps) and the method; None when
    seats and strategies cannot be told apart (fixed seating of different strategies)."""
    rng = np.random.default_rng(seed)
    seat = seats["seat"].to_numpy()
    n_seat = np.bincount(seat).astype(float)
    won = seats["won"].to_numpy(float)
    observed = _gap(np.bincount(seat, won, minlength=len(n_seat)) / n_seat)
    null_wins = np.zeros((reps, len(n_seat)))
    players = seats.groupby("game_id")["seat"].transform("size").to_numpy()
    rotated = "slot" in seats and _seatings_vary(seats)
    if not rotated and len(strategy_names(seats)) > 1:
        return None
    needed = seats[[c for c in ("game_id", "seat", "slot", "won") if c in seats]]  # not every counter
    for size in np.unique(players):
        group = needed[players == size]
        if rotated:
            null_wins[:, :size] += _reseated_wins(rng, group, int(size), reps)
        else:
            winners = group.groupby("game_id")["won"].sum()
            for w, count in winners.value_counts().items():
                null_wins[:, :size] += _shuffled_wins(rng, int(size), int(w), int(count), reps)
    null = np.array([_gap(w / n_seat) for w in null_wins])
    return {"gap": observed, "null_median": float(np.median(null)),
            "null_95": float(np.quantile(null, 0.95)),
            "p_value": (1 + int((null >= observed - 1e-12).sum())) / (1 + reps), "reps": reps,
            "method": "seatings shuffled among games" if rotated else "wins shuffled among seats"}


def _seatings_vary(seats: pd.DataFrame) -> bool:
    return bool((seats.groupby("slot", observed=True)["seat"].nunique() > 1).any())


def _reseated_wins(rng, group: pd.DataFrame, size: int, reps: int) -> np.ndarray:
    """Wins per seat when the games' seatings (slot -> seat) are dealt out again at random."""
    ordered = group.sort_values(["game_id", "slot"], kind="stable")
    slot_won = ordered["won"].to_numpy(float).reshape(-1, size)
    seat_of = ordered["seat"].to_numpy().reshape(-1, size)
    seatings, label = np.unique(seat_of, axis=0, return_inverse=True)
    label = label.ravel()
    n_seatings = len(seatings)
    flat_seats = seatings.ravel()
    out = np.zeros((reps, size))
    for r in range(reps):
        dealt = rng.permutation(label)
        per_seating = np.stack([np.bincount(dealt, slot_won[:, s], minlength=n_seatings) for s in range(size)],
                               axis=1)
        out[r] = np.bincount(flat_seats, per_seating.ravel(), minlength=size)
    return out


def _shuffled_wins(rng, players: int, winners: int, games: int, reps: int) -> np.ndarray:
    """Wins per seat when each of `games` games gives `winners` wins to distinct seats at random."""
    if winners == 0:
        return np.zeros((reps, players))
    if winners == 1:
        return rng.multinomial(games, [1 / players] * players, size=reps).astype(float)
    out = np.zeros((reps, players))
    for r in range(reps):
        picks = np.argsort(rng.random((games, players)), axis=1)[:, :winners]
        out[r] = np.bincount(picks.ravel(), minlength=players)
    return out


def _gap(rates) -> float:
    rates = np.asarray(rates, dtype=float)
    return float(np.nanmax(rates) - np.nanmin(rates))


# --- pairwise differences, Holm-corrected ------------------------------------------------------

def shares(seats: pd.DataFrame, key: str = "strategy") -> pd.DataFrame:
    """Per game (rows) and group (columns): the share of the group's seats that won, NaN when
    the group did not play that game. Counted by position (bincount), not grouped by a text key
    per seat: a few arrays of the seat table's length."""
    index, pos = np.unique(seats["game_id"].to_numpy(), return_inverse=True)
    pos = pos.ravel()
    won = seats["won"].to_numpy(float)
    if key == "strategy":
        groups = strategy_masks(seats)
    else:
        values = seats[key].to_numpy()
        found = {str(v): v for v in pd.unique(values)}
        groups = [(name, values == found[name]) for name in sorted(found, key=_natural)]
    table = {}
    for name, mask in groups:
        n = np.bincount(pos[mask], minlength=len(index))
        wins = np.bincount(pos[mask], won[mask], minlength=len(index))
        with np.errstate(divide="ignore", invalid="ignore"):
            table[name] = np.where(n > 0, wins / n, np.nan)
    out = pd.DataFrame(table, index=pd.Index(index, name="game_id"), dtype=float)
    out.columns.name = "_key"
    return out


def _natural(text: str):
    return (0, int(text)) if text.lstrip("-").isdigit() else (1, text)


def pairwise(seats: pd.DataFrame, key: str = "strategy") -> pd.DataFrame:
    """Every pair (a, b) of strategies (or seats): the mean over games where both played of
    a's share of winning seats minus b's, its 95% interval, the z-test p-value and Holm's
    adjusted p-value over all pairs; `significant` at 5% after the correction. The games needed
    to detect a one-point difference for this pair (5% two-sided, 80% power) is `games_1pt`."""
    table = shares(seats, key)
    rows = []
    for a, b in itertools.combinations(table.columns, 2):
        d = (table[a] - table[b]).dropna().to_numpy()
        n = len(d)
        rows.append(pair_row(a, b, n, float(d.mean()) if n else math.nan, float(d.std(ddof=1)) if n > 1 else math.nan))
    return pairwise_of(rows)


def pair_row(a, b, n: int, mean: float, sd: float) -> dict:
    """One row of `pairwise`: the games where both played, the mean difference and its sd."""
    se = sd / math.sqrt(n) if n > 1 else math.nan
    if n < 2:
        z = math.nan  # nothing to test
    else:  # no spread at all (one side won every game): an infinite z, p-value 0
        z = mean / se if se > 0 else (0.0 if mean == 0 else math.inf)
    return {"a": a, "b": b, "games": n, "diff": mean, "lo": mean - Z95 * se, "hi": mean + Z95 * se,
            "p_value": float(two_sided_p(z)[0]), "games_1pt": games_needed(sd, ONE_POINT, ALPHA, POWER)}


def pairwise_of(rows: list[dict]) -> pd.DataFrame:
    """`pairwise`'s table from its rows (`pair_row`): Holm's correction over them."""
    out = pd.DataFrame(rows, columns=["a", "b", "games", "diff", "lo", "hi", "p_value", "games_1pt"])
    out["p_holm"] = holm(out["p_value"].to_numpy()) if len(out) else []
    out["significant"] = out["p_holm"] < ALPHA
    return out


# --- Bradley-Terry ratings -----------------------------------------------------------------------

def pairwise_wins(seats: pd.DataFrame) -> tuple[list[str], np.ndarray]:
    """Per game, how often strategy i finished ahead of strategy j (rank strictly better) among
    the game's pairs of seats playing different strategies: an array (games, k, k) and the
    strategy names. Ties and same-strategy pairs carry no comparison."""
    names = strategy_names(seats)
    code = pd.Categorical(seats["strategy"].astype(str), categories=names).codes
    game_ids, pos = np.unique(seats["game_id"].to_numpy(), return_inverse=True)
    players = int(seats["seat"].max()) + 1
    k = len(names)
    rank = np.full((len(game_ids), players), -1)
    strat = np.full((len(game_ids), players), -1)
    rank[pos, seats["seat"].to_numpy()] = seats["rank"].to_numpy()
    strat[pos, seats["seat"].to_numpy()] = code
    wins = np.zeros((len(game_ids), k, k))
    rows = np.arange(len(game_ids))
    for i, j in itertools.permutations(range(players), 2):
        ok = (strat[:, i] >= 0) & (strat[:, j] >= 0) & (strat[:, i] != strat[:, j])
        ahead = ok & (rank[:, i] < rank[:, j])
        np.add.at(wins, (rows[ahead], strat[ahead, i], strat[ahead, j]), 1)
    return names, wins


def ratings(seats: pd.DataFrame, reps: int = BOOT_REPS, seed: int = BOOT_SEED,
            prior: float = 0.5) -> pd.DataFrame:
    """Bradley-Terry ratings of the strategies from the pairwise results within games, on the
    Elo scale (400 points: 10 to 1 odds; mean 0), with 95% bootstrap intervals over games.
    `expected_vs_average` is the modelled chance of finishing ahead of an average opponent."""
    names, per_game = pairwise_wins(seats)
    return ratings_of(names, per_game.reshape(len(per_game), -1), reps, seed, prior)


def ratings_of(names, units: np.ndarray, reps: int = BOOT_REPS, seed: int = BOOT_SEED,
               prior: float = 0.5) -> pd.DataFrame:
    """`ratings` from the per-game (or per-block: `stats.blocks`) counts of i ahead of j, flattened
    (rows: units; columns: i * k + j)."""
    k = len(names)
    if k < 2:
        return pd.DataFrame(columns=["strategy", "rating", "lo", "hi", "expected_vs_average",
                                     "comparisons"])
    total = units.sum(axis=0).reshape(k, k)
    logp = bradley_terry(total, prior)
    boot = bradley_terry(resampled_sums(units, reps, seed).reshape(reps, k, k), prior)
    lo, hi = percentile_interval(boot * ELO)
    return pd.DataFrame({"strategy": names, "rating": logp * ELO, "lo": lo, "hi": hi,
                         "expected_vs_average": np.exp(logp) / (np.exp(logp) + 1),
                         "comparisons": (total + total.T).sum(axis=1).astype(int)})


def wins_matrix(seats: pd.DataFrame) -> pd.DataFrame:
    """Times the row strategy finished ahead of the column strategy (over all games)."""
    names, per_game = pairwise_wins(seats)
    return wins_matrix_of(names, per_game.sum(axis=0))


def wins_matrix_of(names, total: np.ndarray) -> pd.DataFrame:
    return pd.DataFrame(total.astype(int), index=pd.Index(names, name="ahead"),
                        columns=pd.Index(names, name="behind"))


# --- power -------------------------------------------------------------------------------------

def power(games: pd.DataFrame, seats: pd.DataFrame) -> pd.DataFrame:
    """How many games a one-point (0.01) difference needs to be detected (5% two-sided test,
    80% power), from this run's own variability:
    - between two strategies of the same run (paired in each game: the `pairwise` sd);
    - a strategy's win rate between two independent runs (games in each run);
    - a seat's win rate against another seat of the same run."""
    table = shares(seats, "strategy")
    sds = {name: float(table[name].std(ddof=1)) for name in table.columns}
    return power_of(pairwise(seats, "strategy"), sds, pairwise(seats, "seat"), len(games))


def power_of(strategy_pairs: pd.DataFrame, share_sd: dict, seat_pairs: pd.DataFrame, n_games: int) -> pd.DataFrame:
    """`power` from the pairwise tables, each strategy's game-to-game sd of its share of seats won
    and the games."""
    rows = []
    for r in strategy_pairs.itertuples():
        rows.append({"difference": f"{r.a} vs {r.b} (same games)", "games": r.games_1pt})
    for name, sd in share_sd.items():
        rows.append({"difference": f"{name}'s win rate between two independent runs",
                     "games": games_needed(sd * math.sqrt(2), ONE_POINT, ALPHA, POWER)})
    if len(seat_pairs):
        worst = seat_pairs["games_1pt"].max()
        rows.append({"difference": "one seat vs another (same games)", "games": worst})
    out = pd.DataFrame(rows, columns=["difference", "games"])
    out["games_now"] = n_games
    return out


# --- intransitivity: cycles in the strategy-against-strategy table --------------------------------

def head_to_head(seats: pd.DataFrame, reps: int = BOOT_REPS, seed: int = BOOT_SEED) -> pd.DataFrame:
    """For every pair of strategies (a, b): the share of their comparisons in which a finished
    ahead of b (seats of the two in the same game, a better final rank; ties carry none), with a
    95% bootstrap interval over games (the comparisons of one game are not independent)."""
    names, per_game = pairwise_wins(seats)
    return head_to_head_of(names, per_game.reshape(len(per_game), -1), reps, seed)


def head_to_head_of(names, units: np.ndarray, reps: int = BOOT_REPS, seed: int = BOOT_SEED) -> pd.DataFrame:
    """`head_to_head` from the flattened per-game (or per-block) counts, as `ratings_of`."""
    k = len(names)
    cols = ["a", "b", "comparisons", "share", "lo", "hi"]
    if k < 2:
        return pd.DataFrame(columns=cols)
    total = units.sum(axis=0).reshape(k, k)
    boot = resampled_sums(units, reps, seed).reshape(reps, k, k)
    rows = []
    for i, j in itertools.combinations(range(k), 2):
        met = total[i, j] + total[j, i]
        with np.errstate(divide="ignore", invalid="ignore"):
            samples = boot[:, i, j] / (boot[:, i, j] + boot[:, j, i])
        lo, hi = percentile_interval(samples)
        rows.append({"a": names[i], "b": names[j], "comparisons": int(met),
                     "share": total[i, j] / met if met else math.nan, "lo": float(lo), "hi": float(hi)})
    return pd.DataFrame(rows, columns=cols)


def cycles(seats: pd.DataFrame, reps: int = BOOT_REPS, seed: int = BOOT_SEED) -> pd.DataFrame:
    """Intransitive triples: strategies x, y, z with x ahead of y, y ahead of z and z ahead of x
    more often than not (head-to-head shares above 50%). `weakest` is the smallest of the three
    shares; `significant` when each share's 95% interval lies above 50% (then the cycle is more
    than noise)."""
    return cycles_of(head_to_head(seats, reps, seed), strategy_names(seats))


def cycles_of(pairs: pd.DataFrame, names) -> pd.DataFrame:
    """`cycles` from the head-to-head table and the strategies in order."""
    share, low = {}, {}
    for r in pairs.itertuples():
        share[(r.a, r.b)], share[(r.b, r.a)] = r.share, 1 - r.share
        low[(r.a, r.b)], low[(r.b, r.a)] = r.lo, 1 - r.hi
    rows = []
    for x, y, z in itertools.combinations(names, 3):
        for cycle in ((x, y, z), (x, z, y)):
            links = list(zip(cycle, cycle[1:] + cycle[:1], strict=True))
            if all(share.get(link, math.nan) > 0.5 for link in links):
                rows.append({"cycle": " > ".join(cycle + cycle[:1]),
                             "weakest": min(share[link] for link in links),
                             "significant": all(low[link] > 0.5 for link in links)})
    return pd.DataFrame(rows, columns=["cycle", "weakest", "significant"])


# --- neighbour effects ----------------------------------------------------------------------------

def neighbours(seats: pd.DataFrame) -> pd.DataFrame:
    """Win rate of each strategy by the strategy seated after it (the next seat in the turn order,
    wrapping around), Wilson intervals, and the difference from the strategy's overall rate.
    Needs seatings that vary (`mobsim run --seating all` or `random`): with rotated seats a
    strategy always has the same neighbour."""
    frame = seats[["game_id", "seat", "strategy", "won"]].copy()
    frame["strategy"] = frame["strategy"].astype(str)
    size = frame.groupby("game_id")["seat"].transform("size")
    nxt = frame[["game_id", "seat", "strategy"]].rename(columns={"strategy": "next_strategy"})
    frame["next_seat"] = (frame["seat"] + 1) % size
    joined = frame.merge(nxt, left_on=["game_id", "next_seat"], right_on=["game_id", "seat"],
                         suffixes=("", "_n"))
    table = win_rates(joined, ["strategy", "next_strategy"])
    overall = frame.groupby("strategy")["won"].mean()
    table["vs_overall"] = table["win_rate"] - overall.reindex(table["strategy"]).to_numpy()
    return table
