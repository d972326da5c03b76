"""Play a study of many games in fixed batches, in parallel, streamed to Parquet, resumable.

Game ids 0..games-1 are cut into batches of `batch_size` (batch b holds ids b*batch_size ..);
each batch is played wherever there is a free worker (this process, local processes or a Dask
cluster), returned as small tables and written as one part file per table by this process,
which then records the batch in the manifest. A game's result depends on (seed, game id) only,
so the tables are the same whatever the workers, batch size or backend.
"""

from __future__ import annotations

import contextlib
import math
import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pandas as pd

from sim.runner import executor
from sim.runner import games as game_adapters
from sim.runner import store
from sim.runner.sources import strategy_files
from sim.runner.store import RunError
from sim.seating import mode as seating_mode

DEFAULT_BATCH = 5000   # about a second of 4-player games on one core
MIN_BATCH = 100
# the manifest lists every batch (its checksums and tallies) and the plan holds one entry per batch:
# a million fits in memory and on disk (the default batch size stays under it for any game count)
MAX_BATCHES = 1_000_000
MAX_GAME_ID = 2**31 - 1
MAX_STRATEGY_NAME = 200  # a preset's file name, plus restrictions; the file system allows 255


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
                                                      self.manifest["batches_done"],
                                                      manifest=self.manifest)
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
        """Seats, wins and win rate of each strategy (a shared win counts for every sharer):
        from the batches' tallies in the manifest, or from the seats table (a run written
        before tallies, or a result whose seats are in memory)."""
        out = self._tallied() if "seats" not in self._tables else None
        if out is None:
            seats = self._tables.get("seats")
            if seats is None:
                seats = store.read_table(self.path, "seats", self.manifest["batches_done"],
                                         columns=["strategy", "won"], manifest=self.manifest)
            out = seats.groupby("strategy", observed=True)["won"].agg(seats="size", wins="sum")
        out["win_rate"] = out["wins"] / out["seats"]
        return out

    def _tallied(self) -> pd.DataFrame | None:
        counts = store.summed_tallies(self.manifest)
        if counts is None:
            return None
        index = pd.CategoricalIndex(list(counts), name="strategy",
                                    categories=self.manifest["strategies"]["categories"])
        return pd.DataFrame(list(counts.values()), columns=["seats", "wins"], index=index)

    def __repr__(self):
        m = self.manifest
        done = len(m["batches_done"])
        return (f"RunResult({m['game']}, {m['games']} games, {m['players']} players, "
                f"seed {m['seed']}, {m['status']} {done}/{m['batches']} batches, "
                f"path={str(self.path) if self.path else None!r})")


def load(path, verify: bool = True) -> RunResult:
    """Open a run directory (finished or not: an unfinished run holds its finished batches).

    `verify` checks every part of the finished batches against its checksum first (a format 1
    run has none: its parts' footers are checked), so a damaged run is refused here, in one line
    naming the part, rather than read back as other numbers."""
    root = Path(path)
    if not root.is_dir():
        raise RunError(f"{root}: no such run directory", usage=True)
    manifest = store.read_manifest(root)
    if verify:
        problems, _, _ = store.verify(root, manifest)
        if problems:
            more = f" ({len(problems) - 1} more damaged parts)" if len(problems) > 1 else ""
            raise RunError(f"{store.damaged(*problems[0])}{more}", usage=True)
    return RunResult(root, manifest)


# --- the run ------------------------------------------------------------------------------------

def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _default_workers() -> int:
    return executor.default_workers()


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
    """The strategy names; None for the game's default lineup. Given but empty is an error (it
    would silently play the default)."""
    if strategies is None:
        return ()
    if isinstance(strategies, str):
        strategies = strategies.split(",")
    names = tuple(s.strip() for s in strategies if s.strip())
    if not names:
        raise RunError("the strategies are empty: give one strategy per seat or one for every "
                       "seat, e.g. simple (mobsim strategies lists them)", usage=True)
    for name in names:
        if len(name) > MAX_STRATEGY_NAME:
            raise RunError(f"a strategy name of {len(name):,} characters ({name[:20]}...): names "
                           f"are at most {MAX_STRATEGY_NAME}, e.g. simple or runner+no-provoke "
                           f"(mobsim strategies lists them)", usage=True)
    return names


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
    return changed_files(old.get("strategy_files"), new.get("strategy_files"))


def changed_files(old: dict | None, new: dict | None) -> str | None:
    """Which strategy, mixture or weights file differs from the one a study was started with (None
    when none does, or the study recorded none: a run written before they were recorded)."""
    if old is None:
        return None
    for path in sorted(set(old) | set(new or {})):
        if old.get(path) != (new or {}).get(path):
            return (f"{path} has changed since the study started" if path in old and path in (new or {})
                    else f"the strategies are read from other files than the study's ({path})")
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
    games = whole_number(games, "games", 1, MAX_GAME_ID)
    seed = whole_number(seed, "seed", 0)
    players = whole_number(players, "players", 1)
    rs = _load_ruleset(adapter, ruleset, overrides)
    names = _strategy_names(strategies)
    try:
        plan = adapter.plan(rs, players, names, rotate)
    except (ValueError, OSError) as err:
        raise RunError(" ".join(str(err).split()), usage=True) from None
    workers = _default_workers() if workers is None else whole_number(workers, "workers", 1)
    if scheduler is None:   # inside a study on a cluster: its scheduler (sim.runner.executor)
        scheduler = executor.current()
    if scheduler is None and workers > _default_workers():
        import warnings

        warnings.warn(f"{workers} workers on {_default_workers()} cores: they share the cores, "
                      f"so the run is no faster (and uses more memory); --workers "
                      f"{_default_workers()} is enough", stacklevel=2)
    if batch_size is not None:
        batch_size = whole_number(batch_size, "batch_size", 1)

    _check_scheduler(scheduler)

    temporary = None
    if out is None:
        if resume:
            raise RunError("resume needs the run's directory (out)", usage=True)
        temporary = tempfile.TemporaryDirectory(prefix="mobsim-run-")
        root = Path(temporary.name)
    else:
        with _os_errors(Path(str(out))):
            root = _out_path(out)

    lock = None
    try:
        with _os_errors(root):
            # batches sized for the tasks that run at once: on a cluster, its workers' threads
            manifest, lock = _prepare(root, adapter, plan, rs, game, players, games, seed, rotate,
                                      record_turns, batch_size, executor.slots(scheduler, workers),
                                      resume, force, on_cluster=scheduler is not None)
        with _os_errors(root, resume_hint=temporary is None):
            result = _play(root, adapter, plan, manifest, workers, scheduler, progress, started,
                           _after_batch, in_memory=temporary is not None)
        if temporary is not None:
            tables = {t: result._table(t) for t in store.TABLES}
            return RunResult(None, manifest, tables)
        return result
    except store.WorkerLost:
        if temporary is None:
            raise
        raise store.WorkerLost() from None   # its folder goes now: no --resume to advise
    finally:
        if lock is not None:
            lock.close()
        if temporary is not None:
            temporary.cleanup()


def whole_number(value, name: str, least: int, most: int | None = None) -> int:
    """A count or seed given to the API as a plain int: numpy's integers are taken (a loop over
    np.arange gives them), True and False are refused (bool is an int to Python, not a count)."""
    import numbers

    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Integral) \
            or value < least or (most is not None and value > most):
        bound = f"from {least} to {most}" if most is not None else f">= {least}"
        raise RunError(f"{name} must be a whole number {bound}, not {value!r}", usage=True)
    return int(value)


def _out_path(out) -> Path:
    """The run directory `out` names; an empty name (the current directory) is refused."""
    if not str(out).strip():
        raise RunError("the run directory (--out) is empty: name a directory, e.g. runs/study1",
                       usage=True)
    root = Path(out)
    if root.exists() and not root.is_dir():
        raise RunError(f"{root} exists and is not a directory: choose a directory for --out",
                       usage=True)
    return root


@contextlib.contextmanager
def _os_errors(root: Path, resume_hint: bool = False):
    """An OSError (read-only or full disk, a path too long, ...) as one line naming the path
    and the cause; what was written before stays (the manifest lists the finished batches)."""
    try:
        yield
    except OSError as err:
        where = err.filename or f"in {root}"
        cause = err.strerror or " ".join(str(err).split())
        hint = ("; the finished batches are kept: fix it, then finish with the same command and "
                "--resume" if resume_hint and (root / store.MANIFEST).is_file() else "")
        raise RunError(f"cannot write {where}: {cause}{hint}", usage=not store.machine_failure(err)) from None


class _Lock:
    """The run directory's lock (`.lock`, flock), held for the whole run so that two runs cannot
    write one directory at once; the file goes when the run ends (the kernel drops the lock of
    a killed process, and the next run takes the file over)."""

    def __init__(self, root: Path):
        self.path = root / store.LOCK
        self.handle = None
        try:
            import fcntl
        except ImportError:  # not on a POSIX system: no lock
            return
        handle = open(self.path, "a+")  # noqa: SIM115  (held for the whole run)
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            same = os.fstat(handle.fileno()).st_ino == os.stat(self.path).st_ino
        except (BlockingIOError, FileNotFoundError):
            same = False
        if not same:  # held, or removed by a run that just ended: either way, another run
            handle.close()
            raise RunError(f"{root} is in use by another mobsim run (it holds {self.path.name}): "
                           f"wait for it to finish", usage=True)
        self.handle = handle

    def close(self) -> None:
        if self.handle is not None:
            with contextlib.suppress(OSError):
                self.path.unlink()
            self.handle.close()
            self.handle = None


def _prepare(root, adapter, plan, rs, game, players, games, seed, rotate, record_turns,
             batch_size, workers, resume, force, on_cluster: bool = False) -> tuple[dict, object]:
    """The manifest to play under (a new one, or the run's own when resuming) and the
    directory's lock, held from before the manifest is read."""
    from sim import __version__

    requested = batch_size
    if batch_size is None:
        per_worker = math.ceil(games / (2 * workers))
        batch_size = max(_least_batch(game, plan.names, on_cluster), min(DEFAULT_BATCH, per_worker))
    batch_size = int(batch_size)
    if math.ceil(games / batch_size) > MAX_BATCHES:
        raise RunError(f"{games:,} games in batches of {batch_size:,} make {math.ceil(games / batch_size):,} "
                       f"batches, more than a run can list ({MAX_BATCHES:,}): give --batch-size at least "
                       f"{math.ceil(games / MAX_BATCHES):,} (or leave it out)", usage=True)
    fresh = {
        "format": store.FORMAT,
        "status": "running",
        "game": game,
        "seed": int(seed),
        "games": int(games),
        "players": int(players),
        "strategies": adapter.describe(plan),
        "strategy_files": strategy_files(game, plan.names),
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
        "checksums": {},
        "tallies": {},
        "started": _now(),
        "finished": None,
        "seconds": 0.0,
        "tables": [t for t in store.TABLES if t != "turns" or record_turns],
    }
    exists = root.exists() and any(p.name != store.LOCK for p in root.iterdir())
    if exists and not (force or resume):
        raise RunError(f"{root} is not empty: add --resume to finish the run in it, or --force "
                       f"to replace it", usage=True)
    if exists and force and not store.is_run_dir(root):
        raise RunError(f"{root} holds files that are not a mobsim run (no manifest.json): "
                       f"not clearing it with --force; choose another --out", usage=True)
    root.mkdir(parents=True, exist_ok=True)
    lock = _Lock(root)
    try:
        if exists and force:
            store.clear(root)
        elif exists:
            return _resumed(root, fresh, requested), lock
        store.write_manifest(root, fresh)
    except BaseException:
        lock.close()
        raise
    return fresh, lock


def _least_batch(game: str, names, on_cluster: bool) -> int:
    """Fewest games a batch holds: MIN_BATCH, or 1 on a cluster when a seat searches (seconds a
    game: small batches spread a few hundred games over all the cluster's workers)."""
    import strategies

    if not on_cluster:
        return MIN_BATCH
    for name in names:
        try:
            if strategies.load(name, game).family == strategies.SEARCH:
                return 1
        except Exception:   # a mixture or a restriction: not a search player of its own  # noqa: BLE001
            continue
    return MIN_BATCH


def _resumed(root: Path, fresh: dict, requested) -> dict:
    """The run's own manifest, checked against the request, its damaged batches dropped."""
    old = store.read_manifest(root)
    if "format" not in old or "strategies" not in old or "ruleset" not in old:
        raise RunError(f"{root / store.MANIFEST} is corrupt (fields missing): start the run "
                       f"again with --force", usage=True)
    if requested is None:  # the run's own batches (another size would renumber the parts)
        fresh["batch_size"] = old.get("batch_size")
    fresh["batches"] = old.get("batches")
    problem = _resume_mismatch(old, fresh)
    if problem:
        raise RunError(f"cannot resume {root}: {problem} (use --force to start over)",
                       usage=True)
    old["status"] = "running"
    old["finished"] = None
    old["format"] = store.FORMAT
    old["batches_done"] = _verified(root, old)
    for kept in (old.setdefault("checksums", {}), old.setdefault("tallies", {})):
        for b in [k for k in kept if int(k) not in old["batches_done"]]:
            del kept[b]
    return old


def _verified(root: Path, manifest: dict) -> list[int]:
    """The finished batches whose parts all match their checksums (or, in a format 1 run, have
    sound footers and row counts); damaged ones are played again."""
    import warnings

    problems, _, _ = store.verify(root, manifest)
    bad = {}
    for path, problem in problems:
        bad.setdefault(int(path.stem.split("-")[1]), f"{path}: {problem}")
    for b, problem in sorted(bad.items()):
        warnings.warn(f"batch {b} will be played again: {problem}", stacklevel=4)
    return [b for b in sorted(manifest["batches_done"]) if b not in bad]


def _jsonable(value):
    return list(value) if isinstance(value, tuple) else value


def _batches(manifest: dict) -> list[tuple[int, int, int]]:
    """(batch id, first game id, games) of the batches still to play."""
    size, games = manifest["batch_size"], manifest["games"]
    done = set(manifest["batches_done"])
    return [(b, b * size, min(size, games - b * size))
            for b in range(manifest["batches"]) if b not in done]


def _play(root, adapter, plan, manifest, workers, scheduler, progress, started, after_batch,
          in_memory=False):
    """Play the batches still to do. A stored run writes each batch's parts and the manifest as
    it goes (what --resume reads). `in_memory` (a temporary run: its folder goes when it
    returns) keeps the batches' tables in memory instead and writes nothing more: a study plays
    hundreds of small cells, and writing each as Parquet to read it straight back was most of a
    small cell's time. The tables are the same either way (tests/test_runner.py)."""
    todo = _batches(manifest)
    total = manifest["games"]
    done_games = total - sum(n for _, _, n in todo)
    show = sys.stderr.isatty() if progress is None else bool(progress)
    bar = results = None
    played = 0
    kept: dict = {}   # batch id -> its tables (in_memory)
    t0 = time.perf_counter()
    try:
        if todo:
            jobs = _backend(scheduler, workers, len(todo))
            if jobs is not _inline_jobs:   # played here, the first batch loads the engine itself
                adapter.warm(plan)  # compile or load the engine once, before any worker starts
            store_in = None if in_memory else (str(root), tuple(manifest["tables"]))
            # local workers start here, before the progress bar's thread (a fork copies only
            # the calling thread)
            results = jobs(manifest["game"], plan, manifest["seed"], todo,
                           manifest["record_turns"], store_in)
            if show:
                from tqdm import tqdm

                bar = tqdm(total=total, initial=done_games, unit=" games", unit_scale=True,
                           smoothing=0.1, file=sys.stderr, dynamic_ncols=True,
                           desc=f"{manifest['game']} {root.name or root}")
            for batch_id, tables in results:
                if isinstance(tables, store.Written):  # the worker wrote its parts
                    n, sums, tally = tables.games, tables.checksums, tables.tally
                elif in_memory:
                    kept[batch_id] = tables
                    n, sums, tally = len(tables["games"]), {}, store.tally(tables["seats"])
                else:
                    sums = store.write_parts(root, tables, manifest["tables"], batch_id)
                    n, tally = len(tables["games"]), store.tally(tables["seats"])
                manifest["checksums"][str(batch_id)] = sums
                manifest["tallies"][str(batch_id)] = tally
                manifest["batches_done"].append(batch_id)
                manifest["seconds"] = round(manifest["seconds"] + time.perf_counter() - t0, 3)
                t0 = time.perf_counter()
                if not in_memory:
                    store.write_manifest(root, manifest)
                played += n
                if bar is not None:
                    bar.update(n)
                if after_batch is not None:
                    after_batch(batch_id)
    finally:
        if results is not None:
            results.close()  # stops the workers now, not when the traceback lets go of them
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
    if in_memory:
        return RunResult(root, manifest, _joined(kept, manifest["tables"]))
    store.write_manifest(root, manifest)
    return RunResult(root, manifest)


def _joined(kept: dict, names) -> dict:
    """Each table of the batches kept in memory, in game order, as one DataFrame."""
    order = sorted(kept)
    return {name: pd.concat([pd.DataFrame(kept[b][name]) for b in order], ignore_index=True)
            for name in names}


# --- backends: each yields (batch id, tables) as batches finish ---------------------------------

Jobs = Callable[..., Iterator[tuple[int, dict]]]


def _check_scheduler(scheduler: str | None) -> None:
    from sim.runner.executor import check_scheduler

    check_scheduler(scheduler)


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


def _windowed(submit, wait_first, todo, window, started=False):
    """Keep at most `window` batches in flight (results never pile up in memory). With
    `started`, first yield None once the first window is submitted."""
    pending = set()
    queue = list(reversed(todo))
    while queue and len(pending) < window:
        pending.add(submit(*queue.pop()))
    if started:
        yield None
    while queue or pending:
        while queue and len(pending) < window:
            pending.add(submit(*queue.pop()))
        finished, pending = wait_first(pending)
        for fut in finished:
            yield fut.result()


def _start_method() -> str:
    """"fork" where it is safe: on Linux, from a process with no other thread. A forked worker
    starts in milliseconds with the engine the driver has just loaded (a spawned one imports
    everything and loads the compiled engine again, a second or more per worker). A thread of
    the caller's (a notebook's, a server's) might hold a lock at the fork: then "spawn"."""
    import multiprocessing
    import threading

    if (sys.platform.startswith("linux") and threading.active_count() == 1
            and "fork" in multiprocessing.get_all_start_methods()):
        return "fork"
    return "spawn"


def _process_jobs(workers, game, plan, seed, todo, record_turns, store_in):
    """Local worker processes, each writing its own batches' parts (the driver keeps the
    manifest): no tables cross between processes. The workers start now (the first batches are
    submitted before this returns) and stay for the whole run. They die with this process
    (whatever kills it); when the loop stops early (Ctrl-C, SIGTERM, an error) they are killed
    at once rather than left to finish their batches, which the manifest does not list yet."""
    from sim.runner.pool import TiedPool, kill_pool

    method = _start_method()
    pool = TiedPool(workers, method)
    with _frozen_for_fork(method == "fork"):
        try:
            stream = _pool_results(pool, workers, game, plan, seed, todo, record_turns, store_in)
            next(stream)  # submits the first window: the workers start
        except BaseException:
            kill_pool(pool)
            raise
    return stream


@contextlib.contextmanager
def _frozen_for_fork(fork: bool):
    """While the workers fork: what they inherit is frozen for their garbage collector (its full
    collections would walk the loaded engine's objects, about 0.1 s each time, and touching
    them copies pages the processes could share); this process unfreezes its own afterwards."""
    import gc

    if not fork:
        yield
        return
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def _pool_results(pool, workers, game, plan, seed, todo, record_turns, store_in):
    from concurrent.futures import FIRST_COMPLETED, wait
    from concurrent.futures.process import BrokenProcessPool

    from sim.runner import worker
    from sim.runner.pool import kill_pool

    finished = False
    try:
        def submit(b, first, n):
            return pool.submit(worker.play_batch, game, plan, seed, b, first, n, record_turns, store_in)

        def wait_first(pending):
            done, rest = wait(pending, return_when=FIRST_COMPLETED)
            return done, set(rest)

        try:
            yield from _windowed(submit, wait_first, todo, 2 * workers, started=True)
        except BrokenProcessPool:
            raise store.WorkerLost(store_in[0] if store_in else None) from None
        finished = True
    finally:
        if finished:
            pool.shutdown(wait=True)
        else:
            kill_pool(pool)


def _dask_jobs(scheduler, workers, game, plan, seed, todo, record_turns, store_in):
    """Dask workers may not share the run's disk: they send their tables back (`store_in`
    unused). Inside a study on this scheduler the study's connection is used (sim.runner.executor)."""
    from distributed import wait

    from sim.runner import worker
    from sim.runner.executor import cluster_failures, dask_client

    with dask_client(scheduler, workers) as client, cluster_failures(scheduler):
        slots = max(1, sum(client.nthreads().values()))

        def submit(b, first, n):
            return client.submit(worker.play_batch, game, plan, seed, b, first, n, record_turns,
                                 pure=False)

        def wait_first(pending):
            done, rest = wait(list(pending), return_when="FIRST_COMPLETED")
            return done, set(rest)

        yield from _windowed(submit, wait_first, todo, 2 * slots)
