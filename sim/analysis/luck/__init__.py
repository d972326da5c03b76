"""How much is luck, and which luck: the outcome of a game attributed to each source of luck.

The measure is a counterfactual on common random numbers. Each source of luck is a stream of its
own (sim.rng: keyed by seed, game id and source), so a game can be played again with ONE group of
sources drawn afresh and every other stream as it was; and, as the baseline, with every stream
drawn afresh. Per group (and per turn t from which it is drawn afresh; t = 0: from the setup):
- `p_change`: the share of games whose winner changes (Wilson 95% interval);
- `share`: p_change over the baseline's p_change, on the same games (the share of the winner
  changes that this source alone brings about; seeded bootstrap over games);
- `score_change`, `rank_change`: the mean absolute change of a seat's final score and rank
  (normal 95% interval over games, each game's seats averaged first: games are the unit).
It is not a variance decomposition of independent factors: sources interact (a die matters
because of the cards in hand), so the groups' shares need not add up to one.

A game enters through a luck table (sim.analysis.luck.games for the two games; the tests'
synthetic games): `groups()` and `all_rows()` name the sources, `table(game_id)` gives `.base`
(the game as played) and `.outcome(rows, salt, from_turn)`.
"""

from __future__ import annotations

import math
import time

import numpy as np
import pandas as pd

from sim.analysis.stats import BOOT_REPS, BOOT_SEED, mean_interval, wilson

ALL = "all luck (baseline)"


def salt_of(seed: int, game_id: int, group: int, turn: int, replicate: int) -> int:
    """The salt of one counterfactual: a fresh draw for each game, group, turn and replicate."""
    return int(np.random.SeedSequence([seed, game_id, group, turn, replicate, 35]).generate_state(1, np.uint64)[0])


def attribute(luck, game_ids, turns=(0,), replicates: int = 1, each_seat: bool = False) -> pd.DataFrame:
    """One row per (game, group, turn, replicate): whether the winner changed and each seat's
    absolute change of score and rank against the game as played."""
    groups = _groups(luck, each_seat)
    rows = []
    for game_id in game_ids:
        table = luck.table(int(game_id))
        base = table.base
        for turn in turns:
            for gi, (name, sources) in enumerate(groups.items()):
                for r in range(replicates):
                    o = table.outcome(sources, salt_of(luck.seed, int(game_id), gi, int(turn), r), int(turn))
                    rows.append(_row(game_id, name, turn, r, base, o))
    return pd.DataFrame(rows)


def _groups(luck, each_seat: bool) -> dict:
    groups = dict(luck.groups())
    if each_seat:
        groups.update(luck.seat_dice())
    groups[ALL] = luck.all_rows()
    return groups


def _row(game_id, name, turn, r, base, o) -> dict:
    d_score = np.abs(o.scores - base.scores)
    d_rank = np.abs(o.ranks - base.ranks)
    row = {"game_id": int(game_id), "source": name, "turn": int(turn), "replicate": r,
           "changed": int(o.winner != base.winner), "score_change": float(d_score.mean()),
           "rank_change": float(d_rank.mean()), "base_turns": base.turns}
    for p, v in enumerate(d_score):
        row[f"score_change_seat{p}"] = float(v)
    return row


def summarise(df: pd.DataFrame) -> pd.DataFrame:
    """Per source and turn: p_change with its Wilson interval, the share of the baseline's
    changes with a bootstrap interval, the mean score and rank changes with normal intervals."""
    out = []
    for (turn, source), part in df.groupby(["turn", "source"], sort=False):
        base = df[(df.turn == turn) & (df.source == ALL)]
        k, n = int(part.changed.sum()), len(part)
        lo, hi = wilson(k, n)
        share, s_lo, s_hi = _share(part, base)
        row = {"source": source, "turn": int(turn), "games": part.game_id.nunique(), "trials": n,
               "p_change": k / n, "p_lo": lo, "p_hi": hi, "share": share, "share_lo": s_lo, "share_hi": s_hi}
        for col in ("score_change", "rank_change"):
            m, m_lo, m_hi, _ = mean_interval(part.groupby("game_id")[col].mean())
            row.update({col: m, f"{col}_lo": m_lo, f"{col}_hi": m_hi})
        for col in sorted(c for c in part.columns if c.startswith("score_change_seat")):
            row[col] = float(part[col].mean())
        out.append(row)
    return pd.DataFrame(out)


def _share(part: pd.DataFrame, base: pd.DataFrame, reps: int = BOOT_REPS) -> tuple[float, float, float]:
    """p_change(source) / p_change(all luck), resampling the games both were measured on."""
    a = part.groupby("game_id").changed.mean()
    b = base.groupby("game_id").changed.mean().reindex(a.index).to_numpy()
    a = a.to_numpy()
    if b.sum() == 0:
        return math.nan, math.nan, math.nan
    idx = np.random.default_rng(BOOT_SEED).integers(0, len(a), size=(reps, len(a)))
    with np.errstate(divide="ignore", invalid="ignore"):
        boot = a[idx].sum(axis=1) / b[idx].sum(axis=1)
    boot = boot[np.isfinite(boot)]
    return float(a.sum() / b.sum()), float(np.quantile(boot, 0.025)), float(np.quantile(boot, 0.975))


def _independent(a: np.ndarray, b: np.ndarray) -> tuple[float, float, float, int]:
    """b.mean() - a.mean() with a normal 95% interval of two independent samples."""
    diff = float(b.mean() - a.mean())
    se = math.sqrt(a.var(ddof=1) / len(a) + b.var(ddof=1) / len(b)) if min(len(a), len(b)) > 1 else math.nan
    return diff, diff - 1.96 * se, diff + 1.96 * se, min(len(a), len(b))


def settled_turn(summary: pd.DataFrame) -> int | None:
    """The first turn from which drawing every source afresh changes the winner in at most half
    as many games as drawing it afresh from the setup (None when no measured turn does)."""
    curve = summary[summary.source == ALL].sort_values("turn")
    if curve.empty:
        return None
    first = float(curve.p_change.iloc[0])
    settled = curve[(curve.turn > curve.turn.iloc[0]) & (curve.p_change <= first / 2)]
    return int(settled.turn.iloc[0]) if len(settled) else None


def study(luck, game_ids, turns=(0,), replicates: int = 1, each_seat: bool = False) -> dict:
    """The attribution of a sample of games with its cost: the summary table, the settled turn,
    the rows, and the seconds spent against the seconds of playing the same games once (the
    run analysed: the batch, warm)."""
    luck.play_once([int(g) for g in game_ids])   # compiled and warm before either is timed
    t0 = time.perf_counter()
    df = attribute(luck, game_ids, turns, replicates, each_seat)
    spent = time.perf_counter() - t0
    t0 = time.perf_counter()
    luck.play_once([int(g) for g in game_ids])
    once = time.perf_counter() - t0
    summary = summarise(df)
    plays = len(df) / max(len(game_ids), 1)
    turns = float(df.groupby("game_id").base_turns.first().mean()) if len(df) else math.nan
    return {"summary": summary, "rows": df, "settled_turn": settled_turn(summary), "turns_mean": turns,
            "cost": {"seconds": spent, "seconds_once": once, "multiple": spent / once if once else math.nan,
                     "counterfactuals_per_game": plays}}


def compare(rows_a: pd.DataFrame, rows_b: pd.DataFrame, paired: bool = True) -> pd.DataFrame:
    """Two studies (a ruleset and a variant): per source and turn, p_change in each and the
    difference b - a with a normal interval, over the games' paired differences when both studies
    played the same games (one seed, the same game ids), else over independent samples (does the
    change make the outcome more or less a matter of that luck?)."""
    out = []
    for (turn, source), a in rows_a.groupby(["turn", "source"], sort=False):
        b = rows_b[(rows_b.turn == turn) & (rows_b.source == source)]
        pa = a.groupby("game_id").changed.mean()
        pb = b.groupby("game_id").changed.mean()
        if paired:
            pb = pb.reindex(pa.index)
            diff, lo, hi, n = mean_interval((pb - pa).to_numpy())
        else:
            diff, lo, hi, n = _independent(pa.to_numpy(), pb.to_numpy())
        out.append({"source": source, "turn": int(turn), "games": n, "p_change_a": float(pa.mean()),
                    "p_change_b": float(pb.mean()), "diff": diff, "diff_lo": lo, "diff_hi": hi})
    return pd.DataFrame(out)
