"""The heuristic payoff table of a game's strategies, measured by playing every profile.

A profile is a multiset of strategies for the seats (7 strategies and 4 seats: 210 profiles).
Each profile is one runner run (`sim.run`) in its own directory `profiles/<a>-<b>-.../` (its
styles in name order) of the study, so a study inherits what the runner guarantees: a game
depends on (seed, game id) only, seats rotate inside a run, parts are written atomically and an
interrupted run resumes.
One run per profile (rather than one run with the profile encoded in its batches) keeps every
profile an ordinary run that `mobsim report` opens, and lets a study grow by strategies: the
profiles already played are kept. Every profile plays the same game ids 0..games-1 of the same
seed (common random numbers), so differences between profiles are not dice. Profiles are shared
out to worker processes, each playing its runs inline (its engine compiled once).

A strategy's payoff in a profile is its mean **win share** per seat: a win shared by w players
counts 1/w for each, so the shares of a game sum to 1 and a fair seat earns 1/players. Its mean
rank is kept beside it.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from sim.meta.solvers import PayoffTable, profiles
from sim.runner.core import changed_files
from sim.runner.sources import strategy_files

PLAN = "meta-plan.json"


class MetaError(Exception):
    """A meta-game study that cannot be made, in one line. `usage` marks a problem with the
    request itself (exit 2); without it the work failed on its way (exit 1)."""

    def __init__(self, message: str, usage: bool = True):
        super().__init__(message)
        self.usage = usage


@dataclass
class Measured:
    """Every profile's per-game payoffs: `win[p, g, k]` the mean win share of strategy k's seats
    in game g of profile p (NaN where k is absent), `rank` the same for ranks."""

    strategies: tuple[str, ...]
    players: int
    counts: np.ndarray
    win: np.ndarray
    rank: np.ndarray
    game_ids: np.ndarray

    @property
    def games(self) -> int:
        return self.win.shape[1]

    def table(self, games=None) -> PayoffTable:
        """The payoff table (mean win shares) over all games, or over the resampled `games`."""
        w = self.win if games is None else self.win[:, games, :]
        se = _se(w) if games is None else None
        with np.errstate(invalid="ignore"):
            return PayoffTable(self.strategies, self.counts, _nanmean(w), se)

    def frame(self) -> pd.DataFrame:
        """profiles.parquet: one row per profile; n_<s> counts, win_<s>, win_se_<s>, rank_<s>,
        rank_se_<s> for each strategy (NaN where it is absent)."""
        rows = {"profile": np.arange(len(self.counts)), "label": [self.label(c) for c in self.counts],
                "games": self.games}
        win, win_se = _nanmean(self.win), _se(self.win)
        rank, rank_se = _nanmean(self.rank), _se(self.rank)
        for k, s in enumerate(self.strategies):
            rows[f"n_{s}"] = self.counts[:, k]
        for k, s in enumerate(self.strategies):
            rows[f"win_{s}"], rows[f"win_se_{s}"] = win[:, k], win_se[:, k]
            rows[f"rank_{s}"], rows[f"rank_se_{s}"] = rank[:, k], rank_se[:, k]
        return pd.DataFrame(rows)

    def label(self, counts) -> str:
        return ",".join(f"{c}x{s}" if c > 1 else s for s, c in zip(self.strategies, counts, strict=True) if c)


def _nanmean(a: np.ndarray) -> np.ndarray:
    present = ~np.isnan(a)
    n = present.sum(axis=1)
    total = np.where(present, a, 0.0).sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(n > 0, total / np.maximum(n, 1), np.nan)


def _se(a: np.ndarray) -> np.ndarray:
    """Standard error of the mean over games (games are the independent unit)."""
    n = (~np.isnan(a)).sum(axis=1)
    mean = _nanmean(a)
    dev = np.where(np.isnan(a), 0.0, a - np.nan_to_num(mean)[:, None, :])
    with np.errstate(invalid="ignore", divide="ignore"):
        var = (dev ** 2).sum(axis=1) / np.maximum(n - 1, 1)
        return np.where(n > 1, np.sqrt(var / np.maximum(n, 1)), np.nan)


# --- the study --------------------------------------------------------------------------------------

def lineup(strategies, counts) -> list[str]:
    """A profile as one strategy per seat, in a canonical order (by name), so that a profile
    is the same run whatever the study's list of strategies (a study grows by strategies)."""
    seats = [s for s, c in zip(strategies, counts, strict=True) for _ in range(int(c))]
    return sorted(seats, key=lambda s: (_safe(s), s))


def profile_dir(root: Path, strategies, counts) -> Path:
    return root / "profiles" / "-".join(_safe(s) for s in lineup(strategies, counts))


def _safe(name: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in Path(name).stem)


def _plan(game, players, strategies, games, seed, ruleset, overrides, fingerprint) -> dict:
    return {"game": game, "players": int(players), "strategies": list(strategies),
            "games_per_profile": int(games), "seed": int(seed),
            "ruleset": None if ruleset is None else str(ruleset),
            "overrides": {k: v for k, v in sorted((overrides or {}).items())},
            "ruleset_fingerprint": fingerprint, "strategy_files": strategy_files(game, strategies)}


def _prepare(root: Path, plan: dict, resume: bool, force: bool) -> None:
    from sim.runner.store import STUDY, RunError, claim

    path = root / PLAN
    if root.exists() and any(p.name != STUDY for p in root.iterdir()):
        if force:
            if not path.is_file():
                raise MetaError(f"{root} holds files that are not a meta-game study (no {PLAN}): "
                                f"not clearing it; choose another --out")
            import shutil

            shutil.rmtree(root)
        elif resume:
            if not path.is_file():
                raise MetaError(f"{root} is not a meta-game study (no {PLAN}): choose another --out")
            old = json.loads(path.read_text())
            for key in ("game", "players", "games_per_profile", "seed", "ruleset_fingerprint"):
                if old.get(key) != plan.get(key):
                    raise MetaError(f"cannot resume {root}: {key} is {old.get(key)!r} in the study, "
                                    f"{plan.get(key)!r} now (use --force to start over)")
            kept = _kept_files(old, plan)
            changed = kept and changed_files(kept, {p: plan["strategy_files"][p] for p in kept})
            if changed:
                raise MetaError(f"cannot resume {root}: {changed} (use --force to start over)")
        else:
            raise MetaError(f"{root} is not empty: add --resume to finish the study in it, or "
                            f"--force to replace it")
    try:
        claim(root, "meta")
        (root / PLAN).write_text(json.dumps(plan, indent=2) + "\n")
    except RunError as err:
        raise MetaError(str(err), usage=err.usage) from None
    except OSError as err:
        raise MetaError(f"cannot write the study to {root}: {err.strerror or err}; give --out a "
                        f"writable directory") from None


def _kept_files(old: dict, plan: dict) -> dict | None:
    """The study's files that its strategies still read (a study grows by strategies: a new
    strategy's files are new, an old strategy's must be unchanged)."""
    if "strategy_files" not in old:
        return None
    return {path: digest for path, digest in old["strategy_files"].items() if path in plan["strategy_files"]}


def _play_profile(task) -> int:
    """One profile as one runner run, played in this process (resumed if it was interrupted)."""
    import sim
    from sim.runner import store

    index, out, game, players, names, games, seed, ruleset, overrides = task
    out = Path(out)
    if (out / store.MANIFEST).is_file():
        if _sound(out):
            return index
        resume = True   # interrupted or damaged: as `run --resume`, its damaged batches played again
    else:
        resume = False
    sim.run(game=game, players=players, strategies=names, games=games, seed=seed, out=out,
            ruleset=ruleset, overrides=overrides or None, workers=1, rotate=True, resume=resume,
            progress=False)
    return index


def _sound(out: Path) -> bool:
    """A profile's run is complete and every part of it matches its checksum."""
    from sim.runner import store
    from sim.runner.store import RunError

    try:
        manifest = store.read_manifest(out)
        return manifest.get("status") == "complete" and not store.verify(out, manifest)[0]
    except (RunError, OSError, ValueError, KeyError):
        return False


def play_profiles(strategies, players: int = 4, games: int = 400, seed: int = 0, out=None,
                  game: str = "nyk", ruleset=None, overrides=None, workers: int | None = None,
                  resume: bool = False, force: bool = False, log=None) -> Measured:
    """Play every profile of `strategies` at `players` seats for `games` games each (the same
    game ids in every profile) and measure the payoff table. `out` keeps one run per profile."""
    from sim.runner import games as adapters

    strategies = tuple(dict.fromkeys(s.strip() for s in strategies if s.strip()))
    if len(strategies) < 2:
        raise MetaError("a meta-game needs at least two strategies (e.g. --strategies runner,enforcer)")
    safe = [_safe(s) for s in strategies]
    if len(set(safe)) < len(safe):
        twins = sorted({s for s in strategies if safe.count(_safe(s)) > 1})
        raise MetaError(f"strategies {', '.join(twins)} share a short name ({_safe(twins[0])}): "
                        f"rename one of the files")
    if games < players:
        raise MetaError(f"games per profile ({games}) must be at least the players ({players}), "
                        f"so every seat rotates")
    if games % players:
        raise MetaError(f"games per profile ({games}) must be a multiple of the players ({players}), "
                        f"so each strategy sits each seat equally often")
    if out is None:
        raise MetaError("a meta-game study needs a directory (--out)")
    root = Path(out)
    try:
        adapter = adapters.adapter(game)
        rs = adapter.load_ruleset(ruleset, overrides or None)
        plans = [adapter.plan(rs, players, [s] * players, True) for s in strategies]  # checked
    except ValueError as err:
        raise MetaError(" ".join(str(err).split())) from None
    plan = _plan(game, players, strategies, games, seed, ruleset, overrides, rs.fingerprint)
    _prepare(root, plan, resume, force)
    adapter.warm(plans[0])  # compile or load the engine once, before any worker starts
    counts = profiles(len(strategies), players)
    tasks = [(i, str(profile_dir(root, strategies, c)), game, players, lineup(strategies, c), games,
              seed, None if ruleset is None else str(ruleset), dict(overrides or {}))
             for i, c in enumerate(counts)]
    _run_tasks(tasks, workers, log, root, rs)
    return measure(root)


def _run_tasks(tasks, workers, log, root, rs) -> None:
    """Play the profiles, in worker processes tied to this one (none outlives it); inside a study
    on a Dask scheduler, one after another here, each run's batches played on the cluster (whose
    workers need not share this disk). Played here, each run takes the ruleset `rs` loaded
    (the same rules as the tasks' file and overrides) instead of reading its files again."""
    from concurrent.futures.process import BrokenProcessPool

    from sim.runner.executor import current
    from sim.runner.pool import TiedPool
    from sim.runner.store import WorkerLost

    workers = workers or _cores()
    if workers == 1 or current() is not None:
        loaded = (task[:7] + (rs, None) for task in tasks)   # (..., ruleset, overrides)
        return _count(map(_play_profile, loaded), len(tasks), log)
    try:
        with TiedPool(workers) as pool:
            _count(pool.map(_play_profile, tasks), len(tasks), log)
    except BrokenProcessPool:
        raise WorkerLost(root) from None


def _count(results, total: int, log) -> None:
    for done, _ in enumerate(results, 1):
        if log and (done % max(1, total // 20) == 0 or done == total):
            log(f"profiles played: {done}/{total}")


def _cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


def measure(root) -> Measured:
    """The per-game payoffs of a study's profiles, read from their runs."""
    import sim
    from sim.runner import store

    root = Path(root)
    plan = json.loads((root / PLAN).read_text())
    strategies, players = tuple(plan["strategies"]), plan["players"]
    counts = profiles(len(strategies), players)
    games = plan["games_per_profile"]
    win = np.full((len(counts), games, len(strategies)), np.nan)
    rank = np.full_like(win, np.nan)
    ids = None
    for p, c in enumerate(counts):
        run = sim.load(profile_dir(root, strategies, c))
        if not run.complete:
            raise MetaError(f"{run.path}: the profile's run is unfinished: add --resume")
        # the four columns a payoff reads, not the seats table's hundred counters
        seats = store.read_table(run.path, "seats", run.manifest["batches_done"],
                                 columns=["game_id", "strategy", "won", "rank"], manifest=run.manifest)
        seats = seats.sort_values(["game_id"], kind="stable")
        winners = seats.groupby("game_id")["won"].transform("sum")
        seats["share"] = (seats["won"] / winners.where(winners > 0, 1)).astype(float)  # no winner: 0
        per = seats.groupby(["game_id", "strategy"], observed=True)[["share", "rank"]].mean()
        g_ids = np.sort(seats["game_id"].unique())
        if ids is None:
            ids = g_ids
        for s in per.index.get_level_values("strategy").unique():
            k = strategies.index(str(s))
            sub = per.xs(s, level="strategy").reindex(ids)
            win[p, :, k] = sub["share"].to_numpy()
            rank[p, :, k] = sub["rank"].to_numpy()
    return Measured(strategies, players, counts, win, rank, ids)
