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


def measures(games: pd.DataFrame, unit: str = "$") -> pd.DataFrame:
    """Summaries of the per-game measures: turns, lead changes, decisiveness, margin and deficit
    (in the game's score unit)."""
    rows = [summary(games["turns"], "turns")]
    if "lead_changes" in games:
        rows.append(summary(games["lead_changes"], "lead changes"))
        rows.append(summary(lead_changes_per_turn(games), "lead changes per turn (Ludii)"))
    if "winner_led_from" in games:
        rows.append(summary(games["winner_led_from"], "turn the winner took the lead for good"))
        rows.append(summary(decided_share(games), "share of the game led for good by the winner"))
    if "margin" in games:
        rows.append(summary(games["margin"], f"margin of victory ({unit})"))
    if "winner_deficit_mid" in games:
        rows.append(summary(games["winner_deficit_mid"], f"winner's deficit at mid-game ({unit})"))
    return pd.DataFrame(rows)


def first_player(seats: pd.DataFrame, min_seats: int = 30) -> pd.DataFrame:
    """Win rate by the number of turns a seat played first (Wilson), values with fewer than
    `min_seats` seats pooled into the last row (`k+`)."""
    x = seats["times_first"].to_numpy()
    counts = np.bincount(x)
    big = np.nonzero(counts >= min_seats)[0]
    top = int(big.max()) if len(big) else int(x.max())
    label = np.where(x >= top, top, x)
    table = (seats[["won"]].assign(times_first=label).groupby("times_first")["won"]
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
    return leader_curve_of(leader_counts(turns, games))


def leader_counts(turns: pd.DataFrame, games: pd.DataFrame) -> np.ndarray:
    """Per share of the game played (PROGRESS): games whose winner then led, and games judged
    (rows: PROGRESS; columns: k, n). Sums over parts of a run."""
    g = games.set_index("game_id")
    fortune = turns.pivot_table(index=["game_id", "turn"], columns="seat", values="fortune",
                                aggfunc="first")
    out = np.zeros((len(PROGRESS), 2), dtype=np.int64)
    ids = g.index.to_numpy()
    length = g["turns"].to_numpy()
    winner = g["winner_seat"].to_numpy()
    for i, p in enumerate(PROGRESS):
        at = np.maximum(1, np.ceil(p * length - 1e-9)).astype(int)
        at = np.minimum(at, length)
        wanted = pd.MultiIndex.from_arrays([ids, at])
        f = fortune.reindex(wanted).to_numpy(float)
        valid = ~np.isnan(f).all(axis=1)
        best = np.nanmax(np.where(np.isnan(f), -np.inf, f), axis=1)
        leads = f[np.arange(len(ids)), winner] >= best
        out[i] = int(leads[valid].sum()), int(valid.sum())
    return out


def leader_curve_of(counts: np.ndarray) -> pd.DataFrame:
    rows = []
    for p, (k, n) in zip(PROGRESS, counts, strict=True):
        lo, hi = wilson(int(k), int(n))
        rows.append({"progress": p, "games": int(n), "winner_leads": k / n if n else np.nan, "lo": lo, "hi": hi})
    return pd.DataFrame(rows)


# --- from the per-turn fortunes (runs recorded with --record-turns) --------------------------------

def fortune_cube(turns: pd.DataFrame, games: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Fortunes as an array (games, turn 0..max turns, seats) in the order of `games` (NaN after
    a game's end or for an absent seat), with the games' lengths and winners."""
    g = games.sort_values("game_id")
    ids = g["game_id"].to_numpy()
    pos = np.searchsorted(ids, turns["game_id"].to_numpy())
    n_turns = int(turns["turn"].max()) + 1
    n_seats = int(turns["seat"].max()) + 1
    cube = np.full((len(ids), n_turns, n_seats), np.nan)
    cube[pos, turns["turn"].to_numpy(), turns["seat"].to_numpy()] = turns["fortune"].to_numpy(float)
    length = g["turns"].to_numpy()
    after_end = np.arange(n_turns)[None, :] > length[:, None]
    cube[after_end] = np.nan
    return cube, length, g["winner_seat"].to_numpy()


def _share_row(mask, **keys) -> dict:
    m = np.asarray(mask, dtype=bool)
    k, n = int(m.sum()), len(m)
    lo, hi = wilson(k, n)
    return keys | {"games": n, "count": k, "share": k / n if n else np.nan, "lo": lo, "hi": hi}


def runaway_leader(turns: pd.DataFrame, games: pd.DataFrame, min_games: int = 30) -> pd.DataFrame:
    """Chance that the leader after turn t wins, by t: among the games that went on after turn t
    and had a single leader then (the largest fortune, alone), the share won by that leader
    (Wilson). Near 1 early: a runaway leader; near 1 / players: the lead means little."""
    return runaway_leader_of(runaway_counts(turns, games), min_games)


def runaway_counts(turns: pd.DataFrame, games: pd.DataFrame) -> np.ndarray:
    """Per turn t (row t): games that went on after t, those with a single leader after t, and
    those that leader won. Sums over parts of a run (pad the shorter)."""
    cube, length, winner = fortune_cube(turns, games)
    out = np.zeros((cube.shape[1], 3), dtype=np.int64)
    for t in range(1, cube.shape[1]):
        going = length > t
        f = cube[going, t]
        filled = np.where(np.isnan(f), -np.inf, f)
        best = filled.max(axis=1) if len(f) else np.zeros(0)
        single = (filled == best[:, None]).sum(axis=1) == 1
        leader = filled.argmax(axis=1) if len(f) else np.zeros(0, dtype=int)
        out[t] = len(f), int(single.sum()), int((leader == winner[going])[single].sum())
    return out


def runaway_leader_of(counts: np.ndarray, min_games: int = 30) -> pd.DataFrame:
    rows = []
    for t in range(1, len(counts)):
        going, n, k = (int(v) for v in counts[t])
        if going < min_games:
            break
        lo, hi = wilson(k, n)
        rows.append({"turn": t, "games": n, "count": k, "share": k / n if n else np.nan, "lo": lo, "hi": hi})
    return pd.DataFrame(rows, columns=["turn", "games", "count", "share", "lo", "hi"])


def mid_game_rank(turns: pd.DataFrame, games: pd.DataFrame) -> pd.DataFrame:
    """Where the eventual winner stood at mid-game (after turn turns // 2, at least 1): the share
    of games by the winner's place then (1 = the largest fortune; tied fortunes share the better
    place), Wilson intervals. The last row is the comeback from last place."""
    return mid_game_rank_of(mid_game_places(turns, games))


def mid_game_places(turns: pd.DataFrame, games: pd.DataFrame) -> pd.Series:
    """Games per (winner's place at mid-game, players then); sums over parts of a run."""
    cube, length, winner = fortune_cube(turns, games)
    mid = np.maximum(length // 2, 1)
    f = cube[np.arange(len(length)), mid]
    mine = f[np.arange(len(length)), winner]
    place = 1 + (np.nan_to_num(f, nan=-np.inf) > mine[:, None]).sum(axis=1)
    players = (~np.isnan(f)).sum(axis=1)
    return pd.Series(1, index=pd.MultiIndex.from_arrays([place, players])).groupby(level=[0, 1]).sum()


def mid_game_rank_of(places: pd.Series) -> pd.DataFrame:
    place = places.index.get_level_values(0).to_numpy()
    players = places.index.get_level_values(1).to_numpy()
    count = places.to_numpy()
    n = int(count.sum())
    rows = [_count_row(int(count[place == r].sum()), n, place=str(r)) for r in range(1, int(players.max()) + 1)]
    rows.append(_count_row(int(count[(place == players) & (players > 1)].sum()), n, place="last"))
    return pd.DataFrame(rows, columns=["place", "games", "count", "share", "lo", "hi"])


def _count_row(k: int, n: int, **keys) -> dict:
    lo, hi = wilson(k, n)
    return keys | {"games": n, "count": k, "share": k / n if n else np.nan, "lo": lo, "hi": hi}


def first_elimination(turns: pd.DataFrame, games: pd.DataFrame, seats: pd.DataFrame) -> pd.DataFrame:
    """When the first player is put out of the game: the share of games where a seat ended out of
    play (`alive` false), and among them the turn of the first one, taken as the first turn from
    which that seat held $0 to the end (a seat put out loses its money, NYK-A5; a seat already
    broke before is counted from then, so the turn is an early bound)."""
    first = first_out(turns, games, seats)
    hit = np.isfinite(first)
    return first_elimination_of(len(first), int(hit.sum()), float(np.median(first[hit])) if hit.any() else np.nan,
                                mean_interval(first[hit]))


def first_out(turns: pd.DataFrame, games: pd.DataFrame, seats: pd.DataFrame) -> np.ndarray:
    """Per game (in game id order), the turn its first player was out (inf: nobody was)."""
    cube, length, _ = fortune_cube(turns, games)
    ids = np.sort(games["game_id"].to_numpy())
    out = seats[["game_id", "seat"]][~seats["alive"].astype(bool)] if "alive" in seats else seats.iloc[:0]
    gpos = np.searchsorted(ids, out["game_id"].to_numpy())
    first = np.full(len(ids), np.inf)
    for g, s in zip(gpos, out["seat"].to_numpy(), strict=True):
        f = cube[g, : length[g] + 1, s]
        nonzero = np.flatnonzero(f != 0)
        turn = nonzero[-1] + 1 if len(nonzero) else 0
        first[g] = min(first[g], turn)
    return first


def first_elimination_of(n_games: int, k: int, median: float, interval) -> pd.DataFrame:
    """The table of `first_elimination` from the games, those with a player out, and the median
    and `mean_interval` of the turns the first was out."""
    rows = [_count_row(k, n_games, measure="games with a player out") | {"mean": np.nan, "lo_mean": np.nan,
                                                                         "hi_mean": np.nan}]
    if k:
        mean, lo, hi, n = interval
        rows.append({"measure": "turn of the first player out", "games": n, "count": n, "share": np.nan,
                     "lo": np.nan, "hi": np.nan, "mean": mean, "lo_mean": lo, "hi_mean": hi,
                     "median": median})
    return pd.DataFrame(rows)


def kingmaking(turns: pd.DataFrame, games: pd.DataFrame) -> pd.DataFrame:
    """Kingmaking exposure (docs/reports.md): games where, before the last turn, (a) some seat could
    no longer win: its fortune plus the largest gain any seat made in one turn of that game is below
    the leader's, or it is out of play, while (b) first place was still open: the runner-up was
    within that largest one-turn gain of the leader. Then the last turn's actions of a seat that
    cannot win can decide which contender wins. `flipped`: of those, the games whose winner was not
    the leader before the last turn. The tables do not record who took money from whom, so this
    is the exposure to kingmaking (a necessary condition), an upper bound on kingmaking itself."""
    exposed, flipped = kingmaking_flags(turns, games)
    return kingmaking_of(int(exposed.sum()), int(flipped.sum()), len(exposed))


def kingmaking_of(exposed: int, flipped: int, n: int) -> pd.DataFrame:
    return pd.DataFrame([_count_row(exposed, n, measure="kingmaking exposure"),
                         _count_row(flipped, n, measure="exposed, and the leader before the last turn lost")])


def kingmaking_flags(turns: pd.DataFrame, games: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """Per game: exposed to kingmaking, and exposed with the leader before the last turn losing."""
    cube, length, winner = fortune_cube(turns, games)
    rows_exposed, rows_flipped = [], []
    for g in range(len(length)):
        t = int(length[g])
        if t < 2:
            rows_exposed.append(False)
            rows_flipped.append(False)
            continue
        path = cube[g, : t + 1]
        present = ~np.isnan(path[t - 1])
        gains = np.diff(path[:t], axis=0)
        swing = float(np.nanmax(gains)) if np.isfinite(gains).any() else 0.0
        before = np.where(present, path[t - 1], -np.inf)
        order = np.argsort(-before)
        lead, second = before[order[0]], before[order[1]]
        hopeless = present & (before + swing < lead)
        exposed = bool(hopeless.any() and lead - second <= swing)
        rows_exposed.append(exposed)
        rows_flipped.append(exposed and order[0] != winner[g])
    return np.array(rows_exposed, dtype=bool), np.array(rows_flipped, dtype=bool)


def lead_changes_per_turn(games: pd.DataFrame) -> pd.Series:
    """Per game, the lead changes over the turns where one could happen (turns - 1): the share of
    consecutive turns whose leader differs (Ludii's lead change)."""
    return games["lead_changes"] / (games["turns"] - 1).clip(lower=1)
