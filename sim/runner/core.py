"""Play a study of many games in fixed batches, in parallel, streamed to Parquet, resumable.

Game ids 0..games-1 are cut into batches of `batch_size` (batch b holds ids b*batch_size ..);
each batch is played wherever there is a free worker (this process, local processes or a Dask
cluster), returned as small tables and written as one part file per table by this process,
which then records the batch in the manifest. A game's result depends on (seed, game id) only,
so the tables are the same whatever the workers, batch size or backend.
"""

from __future__ import annotations

import math
import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path

import pandas as pd

from sim.runner import games as game_adapters
from sim.runner import store
from sim.runner.store import RunError
from sim.seating import mode as seating_mode

DEFAULT_BATCH = 5000   # about a second of 4-player games on one core
MIN_BATCH = 100
MAX_GAME_ID = 2**31 - 1


class RunResult:
    """A run's tables and manifest. Tables are read from disk the first time they are used."""

    def __init__(self, path: Path | None, manifest: dict, tables: dict | None = None):
        self.path = path
        self.manifest = manifest
        self._tables = dict(tables or {})

    def _table(self, name: str) -> pd.DataFrame | None:
        if name not in self._tables:
            if name == "turns" and not self.manifest.get("record_turns"):
                self._tables[name] = None
            else:
                self._tables[name] = store.read_table(self.path, name,
                                                      self.manifest["batches_done"])
        return self._tables[name]

    @property
    def games(self) -> pd.DataFrame:
        return self._table("games")

    @property
    def seats(self) -> pd.DataFrame:
        return self._table("seats")

    @property
    def turns(self) -> pd.DataFrame | None:
        """Each seat's fortune after each turn (turn 0: the start), if the run recorded them."""
        return self._table("turns")

    @property
    def complete(self) -> bool:
        return self.manifest.get("status") == "complete"

    def win_rates(self) -> pd.DataFrame:
        """Seats, wins and win rate of each strategy (a shared win counts for every sharer)."""
        if "seats" in self._tables:
            seats = self._tables["seats"][["strategy", "won"]]
        else:
            seats = store.read_table(self.path, "seats", self.manifest["batches_done"],
                                     columns=["strategy", "won"])
        out = seats.groupby("strategy", observed=True)["won"].agg(seats="size", wins="sum")
        out["win_rate"] = out["wins"] / out["seats"]
        return out

    def __repr__(self):
        m = self.manifest
        done = len(m["batches_done"])
        return (f"RunResult({m['game']}, {m['games']} games, {m['players']} players, "
                f"seed {m['seed']}, {m['status']} {done}/{m['batches']} batches, "
                f"path={str(self.path) if self.path else None!r})")


def load(path) -> RunResult:
    """Open a run directory (finished or not: an unfinished run holds its finished batches)."""
    root = Path(path)
    if not root.is_dir():
        raise RunError(f"{root}: no such run directory", usage=True)
    return RunResult(root, store.read_manifest(root))


# --- the run ------------------------------------------------------------------------------------

def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _default_workers() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def _load_ruleset(adapter, ruleset, overrides):
    from sim.rules import Ruleset, RulesetError

    try:
        if isinstance(ruleset, Ruleset):
            if overrides:
                raise RunError("give overrides with a ruleset file, not with a loaded Ruleset",
                               usage=True)
            return ruleset
        return adapter.load_ruleset(ruleset, overrides)
    except RulesetError as err:
        raise RunError(" ".join(str(err).split()), usage=True) from None


def _strategy_names(strategies) -> tuple[str, ...]:
    if strategies is None:
        return ()
    if isinstance(strategies, str):
        strategies = strategies.split(",")
    return tuple(s.strip() for s in strategies if s.strip())


def _resume_mismatch(old: dict, new: dict) -> str | None:
    for key in ("game", "seed", "games", "players", "rotate", "record_turns", "batch_size"):
        if old.get(key) != new.get(key):
            return f"{key} is {old.get(key)!r} in the run, {new.get(key)!r} now"
    if old["strategies"].get("seatings") != new["strategies"].get("seatings"):
        return f"seating is {old.get('seating', 'rotate')!r} in the run, {new.get('seating')!r} now"
    if old["strategies"]["names"] != new["strategies"]["names"]:
        return (f"strategies are {','.join(old['strategies']['names'])} in the run, "
                f"{','.join(new['strategies']['names'])} now")
    if old["ruleset"]["fingerprint"] != new["ruleset"]["fingerprint"]:
        return "the ruleset differs from the run's (fingerprint)"
    return None


def run(game: str = "nyk", players: int = 4, strategies=("simple",), games: int = 1000,
        seed: int = 0, out=None, ruleset=None, overrides=None, workers: int | None = None,
        batch_size: int | None = None, rotate: bool = True, record_turns: bool = False,
        resume: bool = False, force: bool = False, scheduler: str | None = None,
        progress: bool | None = None, _after_batch: Callable[[int], None] | None = None
        ) -> RunResult:
    """Play `games` games of `game` with these strategies and rules; see sim/runner/__init__.py.

    `out=None` plays into a temporary directory and returns the tables in memory.
    """
    started = time.perf_counter()
    try:
        adapter = game_adapters.adapter(game)
    except ValueError as err:
        raise RunError(str(err), usage=True) from None
    if not isinstance(games, int) or games < 1 or games > MAX_GAME_ID:
        raise RunError(f"games must be a whole number from 1 to {MAX_GAME_ID}", usage=True)
    if not isinstance(seed, int) or seed < 0:
        raise RunError("seed must be a whole number >= 0", usage=True)
    rs = _load_ruleset(adapter, ruleset, overrides)
    names = _strategy_names(strategies)
    try:
        plan = adapter.plan(rs, players, names, rotate)
    except ValueError as err:
        raise RunError(" ".join(str(err).split()), usage=True) from None
    workers = _default_workers() if workers is None else int(workers)
    if workers < 1:
        raise RunError("workers must be at least 1", usage=True)
    if batch_size is not None and int(batch_size) < 1:
        raise RunError("batch size must be at least 1", usage=True)

    _check_scheduler(scheduler)

    temporary = None
    if out is None:
        if resume:
            raise RunError("resume needs the run's directory (out)", usage=True)
        temporary = tempfile.TemporaryDirectory(prefix="mobsim-run-")
        root = Path(temporary.name)
    else:
        root = Path(out)

    try:
        manifest = _prepare(root, adapter, plan, rs, game, players, games, seed, rotate,
                            record_turns, batch_size, workers, resume, force)
        result = _play(root, adapter, plan, manifest, workers, scheduler, progress, started,
                       _after_batch)
        if temporary is not None:
            tables = {t: result._table(t) for t in store.TABLES}
            return RunResult(None, manifest, tables)
        return result
    finally:
        if temporary is not None:
            temporary.cleanup()


def _prepare(root, adapter, plan, rs, game, players, games, seed, rotate, record_turns,
             batch_size, workers, resume, force) -> dict:
    """The manifest to play under: a new one, or the run's own when resuming."""
    from sim import __version__

    requested = batch_size
    if batch_size is None:
        per_worker = math.ceil(games / (2 * workers))
        batch_size = max(MIN_BATCH, min(DEFAULT_BATCH, per_worker))
    batch_size = int(batch_size)
    fresh = {
        "format": store.FORMAT,
        "status": "running",
        "game": game,
        "seed": int(seed),
        "games": int(games),
        "players": int(players),
        "strategies": adapter.describe(plan),
        "rotate": rotate not in (False, "fixed"),
        "seating": seating_mode(rotate),
        "record_turns": bool(record_turns),
        "ruleset": {
            "fingerprint": rs.fingerprint,
            "defaults_changed": {k: _jsonable(rs.values[k]) for k in rs.defaults_changed()},
            "sources": dict(rs.sources),
            "content": rs.to_dict(),
        },
        "mobsim_version": __version__,
        "batch_size": batch_size,
        "batches": math.ceil(games / batch_size),
        "batches_done": [],
        "started": _now(),
        "finished": None,
        "seconds": 0.0,
        "tables": [t for t in store.TABLES if t != "turns" or record_turns],
    }
    exists = root.exists() and any(root.iterdir())
    if exists and force:
        if not store.is_run_dir(root):
            raise RunError(f"{root} holds files that are not a mobsim run (no manifest.json): "
                           f"not clearing it with --force; choose another --out", usage=True)
        store.clear(root)
    elif exists and resume:
        old = store.read_manifest(root)
        if "format" not in old or "strategies" not in old or "ruleset" not in old:
            raise RunError(f"{root / store.MANIFEST} is corrupt (fields missing): start the run "
                           f"again with --force")
        if requested is None:  # the run's own batches (another size would renumber the parts)
            fresh["batch_size"] = old.get("batch_size")
        fresh["batches"] = old.get("batches")
        problem = _resume_mismatch(old, fresh)
        if problem:
            raise RunError(f"cannot resume {root}: {problem} (use --force to start over)",
                           usage=True)
        old["status"] = "running"
        old["finished"] = None
        old["batches_done"] = _verified(root, old)
        return old
    elif exists:
        raise RunError(f"{root} is not empty: add --resume to finish the run in it, or --force "
                       f"to replace it", usage=True)
    root.mkdir(parents=True, exist_ok=True)
    store.write_manifest(root, fresh)
    return fresh


def _verified(root: Path, manifest: dict) -> list[int]:
    """The finished batches whose parts are all readable; damaged ones are played again."""
    import warnings

    size, games = manifest["batch_size"], manifest["games"]
    players = manifest["players"]
    good = []
    for b in sorted(set(manifest["batches_done"])):
        n = min(size, games - b * size)
        rows = {"games": n, "seats": n * players, "turns": None}
        problems = [f"{store.part_path(root, t, b)}: {p}" for t in manifest["tables"]
                    if (p := store.check_part(root, t, b, rows[t]))]
        if problems:
            warnings.warn(f"batch {b} will be played again: {problems[0]}", stacklevel=3)
        else:
            good.append(b)
    return good


def _jsonable(value):
    return list(value) if isinstance(value, tuple) else value


def _batches(manifest: dict) -> list[tuple[int, int, int]]:
    """(batch id, first game id, games) of the batches still to play."""
    size, games = manifest["batch_size"], manifest["games"]
    done = set(manifest["batches_done"])
    return [(b, b * size, min(size, games - b * size))
            for b in range(manifest["batches"]) if b not in done]


def _play(root, adapter, plan, manifest, workers, scheduler, progress, started, after_batch):
    todo = _batches(manifest)
    total = manifest["games"]
    done_games = total - sum(n for _, _, n in todo)
    show = sys.stderr.isatty() if progress is None else bool(progress)
    bar = None
    played = 0
    t0 = time.perf_counter()
    try:
        if todo:
            adapter.warm(plan)  # compile or load the engine once, before any worker starts
            if show:
                from tqdm import tqdm

                bar = tqdm(total=total, initial=done_games, unit=" games", unit_scale=True,
                           smoothing=0.1, file=sys.stderr, dynamic_ncols=True,
                           desc=f"{manifest['game']} {root.name or root}")
            jobs = _backend(scheduler, workers, len(todo))
            store_in = (str(root), tuple(manifest["tables"]))
            for batch_id, tables in jobs(manifest["game"], plan, manifest["seed"], todo,
                                         manifest["record_turns"], store_in):
                if isinstance(tables, int):  # the worker wrote its parts
                    n = tables
                else:
                    for name in manifest["tables"]:
                        store.write_part(root, name, batch_id, tables[name])
                    n = len(tables["games"])
                manifest["batches_done"].append(batch_id)
                manifest["seconds"] = round(manifest["seconds"] + time.perf_counter() - t0, 3)
                t0 = time.perf_counter()
                store.write_manifest(root, manifest)
                played += n
                if bar is not None:
                    bar.update(n)
                if after_batch is not None:
                    after_batch(batch_id)
    finally:
        if bar is not None:
            bar.close()
    manifest["batches_done"].sort()
    manifest["status"] = "complete"
    manifest["finished"] = _now()
    manifest["seconds"] = round(manifest["seconds"] + time.perf_counter() - t0, 3)
    elapsed = time.perf_counter() - started
    manifest["last"] = {"games_played": played, "seconds": round(elapsed, 3),
                        "games_per_s": round(played / elapsed, 1) if elapsed > 0 else None,
                        "workers": workers, "scheduler": scheduler or "processes"}
    store.write_manifest(root, manifest)
    return RunResult(root, manifest)


# --- backends: each yields (batch id, tables) as batches finish ---------------------------------

Jobs = Callable[..., Iterator[tuple[int, dict]]]


def _check_scheduler(scheduler: str | None) -> None:
    if scheduler is None:
        return
    if scheduler != "local" and not scheduler.startswith(("tcp://", "tls://", "ws://")):
        raise RunError(f"scheduler {scheduler!r}: use local or tcp://host:port", usage=True)
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise RunError("Dask is not installed: pip install 'dask[distributed]' (or run without "
                       "--scheduler for local processes)", usage=True) from None


def _backend(scheduler: str | None, workers: int, n_batches: int) -> Jobs:
    if scheduler is not None:
        return lambda *a: _dask_jobs(scheduler, workers, *a)
    if workers == 1 or n_batches == 1:
        return _inline_jobs
    return lambda *a: _process_jobs(min(workers, n_batches), *a)


def _inline_jobs(game, plan, seed, todo, record_turns, store_in):
    from sim.runner.worker import play_batch

    for b, first, n in todo:
        yield play_batch(game, plan, seed, b, first, n, record_turns, store_in)


def _windowed(submit, wait_first, todo, window):
    """Keep at most `window` batches in flight (results never pile up in memory)."""
    pending = set()
    queue = list(reversed(todo))
    while queue or pending:
        while queue and len(pending) < window:
            pending.add(submit(*queue.pop()))
        finished, pending = wait_first(pending)
        for fut in finished:
            yield fut.result()


def _process_jobs(workers, game, plan, seed, todo, record_turns, store_in):
    """Local worker processes, each writing its own batches' parts (the driver keeps the
    manifest): no tables cross between processes."""
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    from sim.runner import worker

    ctx = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=worker.init)
    try:
        def submit(b, first, n):
            # a worker process starts inside submit: it inherits one numba thread from here
            saved = os.environ.get("NUMBA_NUM_THREADS")
            os.environ["NUMBA_NUM_THREADS"] = "1"
            try:
                return pool.submit(worker.play_batch, game, plan, seed, b, first, n,
                                   record_turns, store_in)
            finally:
                if saved is None:
                    del os.environ["NUMBA_NUM_THREADS"]
                else:
                    os.environ["NUMBA_NUM_THREADS"] = saved

        def wait_first(pending):
            done, rest = wait(pending, return_when=FIRST_COMPLETED)
            return done, set(rest)

        yield from _windowed(submit, wait_first, todo, 2 * workers)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _dask_jobs(scheduler, workers, game, plan, seed, todo, record_turns, store_in):
    """Dask workers may not share the run's disk: they send their tables back (`store_in`
    unused)."""
    import logging

    from distributed import Client, LocalCluster, wait

    from sim.runner import worker

    cluster = None
    if scheduler == "local":
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               dashboard_address=None, silence_logs=logging.ERROR,
                               env={"NUMBA_NUM_THREADS": "1"})
        client = Client(cluster)
    else:
        try:
            client = Client(scheduler, timeout="10s")
        except OSError as err:
            raise RunError(f"cannot reach the Dask scheduler at {scheduler}: "
                           f"{' '.join(str(err).split())}") from None
    try:
        slots = max(1, sum(client.nthreads().values()))

        def submit(b, first, n):
            return client.submit(worker.play_batch, game, plan, seed, b, first, n, record_turns,
                                 pure=False)

        def wait_first(pending):
            done, rest = wait(list(pending), return_when="FIRST_COMPLETED")
            return done, set(rest)

        yield from _windowed(submit, wait_first, todo, 2 * slots)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
