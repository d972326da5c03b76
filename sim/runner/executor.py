"""Where a study's work runs: this process, local worker processes tied to it, or a Dask cluster.

    with executor_for(scheduler, workers) as ex:
        results = ex.map(play_block, tasks)     # one result per task, in the tasks' order

Every task carries its own seed and game-id range (e.g. (lineup, seed, first_id, n)): what it
returns depends on the task alone, and the results come back in the tasks' order, so a study's
figures are the same whichever backend plays it and however many workers it has.

`scheduler`: None plays on this machine (`workers` local processes, tied to this one:
sim/runner/pool.py; 1 plays in this process); "local" starts a Dask LocalCluster of `workers`
processes; "tcp://HOST:PORT" uses a running Dask scheduler and whatever workers it has
(docs/cluster.md).

A study takes a scheduler with one keyword, `scheduler=None`, and the `@uses_scheduler`
decorator on its Python function: the decorator checks the value before any game and holds one
connection to the cluster for the whole call, and every run (`sim.run`) and every map
(`executor_for`, sim.league.match.Pool) inside the call that is given no scheduler of its own
plays on that cluster. Its command takes the same value with `@scheduler_option`
(sim/cli/common.py).
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import inspect
import os
from dataclasses import dataclass

from sim.runner.store import RunError, WorkerLost

LOCAL = "local"
CONNECT_SECONDS = 5     # a scheduler that does not answer a TCP connection in this time is unreachable
CLIENT_TIMEOUT = "10s"  # Dask's own handshake, once the port answers
WORKERS_SECONDS = 30    # a scheduler with no worker after this long has none to give


def default_workers() -> int:
    """The cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


# --- the scheduler's address ----------------------------------------------------------------------

def check_scheduler(scheduler: str | None) -> None:
    """None, "local" or a scheduler address, and Dask installed when one is asked for."""
    if scheduler is None:
        return
    if not isinstance(scheduler, str):
        raise RunError(f"scheduler {scheduler!r}: use local or tcp://HOST:PORT (e.g. tcp://10.0.0.5:8786)",
                       usage=True)
    if scheduler != LOCAL:
        check_address(scheduler)
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise RunError("Dask is not installed: pip install 'dask[distributed]' (or leave out --scheduler "
                       "for local processes)", usage=True) from None


def check_address(scheduler: str) -> tuple[str, str, int]:
    """(scheme, host, port) of a scheduler address tcp://HOST:PORT (tls://, ws://, wss:// too)."""
    from urllib.parse import urlsplit

    usage = f"scheduler {scheduler!r}: use local or tcp://HOST:PORT (e.g. tcp://10.0.0.5:8786)"
    try:
        parts = urlsplit(scheduler)
        port = parts.port
    except ValueError:
        raise RunError(f"{usage}: the port is not a number from 0 to 65535", usage=True) from None
    if parts.scheme not in ("tcp", "tls", "ws", "wss"):
        raise RunError(usage, usage=True)
    if not parts.hostname:
        raise RunError(f"{usage}: the host is missing", usage=True)
    if port is None:
        raise RunError(f"{usage}: the port is missing", usage=True)
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise RunError(f"{usage}: nothing may follow the port", usage=True)
    return parts.scheme, parts.hostname, port


def check_reachable(scheduler: str | None) -> None:
    """A scheduler address whose port answers: one line at once when nothing listens there (Dask
    itself would retry until its timeout)."""
    import socket

    if scheduler is None or scheduler == LOCAL:
        return
    _, host, port = check_address(scheduler)
    try:
        socket.create_connection((host, port), timeout=CONNECT_SECONDS).close()
    except OSError as err:
        reason = err.strerror or type(err).__name__
        raise RunError(f"cannot reach the Dask scheduler at {scheduler}: {reason.lower()}; start one there "
                       f"(dask scheduler) or correct the address (docs/cluster.md)") from None


# --- one connection per study -----------------------------------------------------------------------

@dataclass
class _Connection:
    scheduler: str
    client: object
    cluster: object = None

    def close(self) -> None:
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()


_study: contextvars.ContextVar[_Connection | None] = contextvars.ContextVar("mobsim_scheduler", default=None)


def current() -> str | None:
    """The scheduler of the study this call runs inside (None: local processes)."""
    conn = _study.get()
    return conn.scheduler if conn is not None else None


def _connect(scheduler: str, workers: int | None) -> _Connection:
    """A Dask client: a LocalCluster of `workers` processes, or the running scheduler's."""
    import logging

    from distributed import Client, LocalCluster

    if scheduler == LOCAL:
        cluster = LocalCluster(n_workers=workers or default_workers(), threads_per_worker=1, processes=True,
                               dashboard_address=None, silence_logs=logging.ERROR,
                               env={"NUMBA_NUM_THREADS": "1"})
        return _Connection(scheduler, Client(cluster), cluster)
    check_reachable(scheduler)
    # the client's own log would print tracebacks when the scheduler goes: one line says it instead
    logging.getLogger("distributed.client").setLevel(logging.CRITICAL)
    try:
        client = Client(scheduler, timeout=CLIENT_TIMEOUT)
    except Exception as err:  # OSError, TimeoutError, or a security setting tls:// lacks
        reason = " ".join(str(err).split()) or type(err).__name__
        raise RunError(f"cannot reach the Dask scheduler at {scheduler}: {reason}") from None
    try:
        client.wait_for_workers(1, timeout=WORKERS_SECONDS)
    except TimeoutError:   # work sent there would wait for ever
        client.close()
        raise RunError(f"the Dask scheduler at {scheduler} has no workers: start them (dask worker "
                       f"{scheduler} --nthreads 1, docs/cluster.md)") from None
    return _Connection(scheduler, client)


@contextlib.contextmanager
def dask_client(scheduler: str, workers: int | None = None):
    """A Dask client for `scheduler`: the study's own connection when this runs inside a study on
    that scheduler, else one opened (and closed) for this block."""
    conn = _study.get()
    if conn is not None and conn.scheduler == scheduler:
        yield conn.client
        return
    conn = _connect(scheduler, workers)
    try:
        yield conn.client
    finally:
        conn.close()


@contextlib.contextmanager
def cluster_failures(scheduler: str):
    """A failure of the cluster itself (not of a task's own code) as one line (exit 1): work that
    killed its workers again and again (Dask's allowed-failures), or the scheduler lost."""
    import asyncio
    from concurrent.futures import CancelledError

    from distributed.client import FutureCancelledError
    from distributed.comm.core import CommClosedError
    from distributed.scheduler import KilledWorker

    try:
        yield
    except KilledWorker as err:
        raise RunError(f"the Dask workers at {scheduler} kept dying on one piece of work (out of "
                       f"memory?): {' '.join(str(err).split())}") from None
    except (CancelledError, asyncio.CancelledError, FutureCancelledError, CommClosedError) as err:
        raise RunError(f"lost the Dask scheduler at {scheduler} ({type(err).__name__}): what was "
                       f"finished is kept in the study's --out; finish with the same command and --resume") from None


def slots(scheduler: str | None, workers: int | None) -> int:
    """How many tasks run at once: the cluster's worker threads inside a study on a scheduler,
    else `workers` (or the cores)."""
    conn = _study.get()
    if scheduler is not None and conn is not None and conn.scheduler == scheduler:
        return max(1, sum(conn.client.nthreads().values()))
    return workers or default_workers()


@contextlib.contextmanager
def on_scheduler(scheduler: str | None, workers: int | None = None):
    """Run the block as one study on `scheduler`: checked first, one connection held throughout,
    and every run or map inside that names no scheduler of its own plays there."""
    if scheduler is None or current() == scheduler:
        yield
        return
    check_scheduler(scheduler)
    conn = _connect(scheduler, workers)
    token = _study.set(conn)
    try:
        yield
    finally:
        _study.reset(token)
        conn.close()


def uses_scheduler(func):
    """A study's Python function taking `scheduler=` (and `workers=`): the call runs on_scheduler."""
    signature = inspect.signature(func)
    passed_on = any(p.kind is p.VAR_KEYWORD for p in signature.parameters.values())  # **kwargs
    if "scheduler" not in signature.parameters and not passed_on:
        raise TypeError(f"{func.__name__} takes no scheduler= keyword")

    @functools.wraps(func)
    def study(*args, **kwargs):
        given = {**kwargs, **signature.bind_partial(*args, **kwargs).arguments}
        with on_scheduler(given.get("scheduler"), given.get("workers")):
            return func(*args, **kwargs)

    return study


# --- the executors -----------------------------------------------------------------------------------

class Executor:
    """`map(fn, tasks)`: fn (a module-level function) over the tasks, results in the tasks' order.
    As a context manager it stops its workers when the block ends (at once on an error)."""

    scheduler: str | None = None
    workers: int = 1

    def map(self, fn, tasks) -> list:
        return [fn(task) for task in tasks]

    def close(self) -> None:
        pass

    def kill(self) -> None:
        self.close()

    def __enter__(self):
        return self

    def __exit__(self, exc_type, *exc):
        if exc_type is not None:
            self.kill()
        else:
            self.close()
        return False


class InThisProcess(Executor):
    """Plays every task here, one after another."""


class LocalProcesses(Executor):
    """`workers` local processes that die with this one (sim/runner/pool.py), started on the first
    map of more than one task and kept for the next."""

    def __init__(self, workers: int):
        self.workers = workers
        self._pool = None

    def map(self, fn, tasks) -> list:
        tasks = list(tasks)
        if len(tasks) <= 1:
            return super().map(fn, tasks)
        from concurrent.futures.process import BrokenProcessPool

        if self._pool is None:
            from sim.runner.pool import TiedPool

            self._pool = TiedPool(self.workers)
        try:
            return list(self._pool.map(fn, tasks))
        except BrokenProcessPool:   # a worker killed or out of memory: one line, exit 1
            raise WorkerLost() from None

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
            self._pool = None

    def kill(self) -> None:
        if self._pool is not None:
            from sim.runner.pool import kill_pool

            kill_pool(self._pool)
            self._pool = None


class OnDask(Executor):
    """The workers of a Dask scheduler (the study's connection, or one opened on the first map)."""

    def __init__(self, scheduler: str, workers: int | None):
        self.scheduler, self.workers = scheduler, workers or default_workers()
        self._stack = contextlib.ExitStack()
        self._client = None

    def map(self, fn, tasks) -> list:
        tasks = list(tasks)
        if not tasks:
            return []
        if self._client is None:
            self._client = self._stack.enter_context(dask_client(self.scheduler, self.workers))
        futures = self._client.map(fn, tasks, pure=False)
        try:
            with cluster_failures(self.scheduler):
                return self._client.gather(futures)
        finally:
            self._client.cancel(futures)

    def close(self) -> None:
        self._client = None
        self._stack.close()


def executor_for(scheduler: str | None = None, workers: int | None = None) -> Executor:
    """Where to map a study's tasks: `scheduler` (default: the study's, see `on_scheduler`), else
    `workers` local processes (default: the cores; 1 plays in this process)."""
    scheduler = current() if scheduler is None else scheduler
    if scheduler is not None:
        check_scheduler(scheduler)
        return OnDask(scheduler, workers)
    workers = default_workers() if workers is None else max(1, int(workers))
    return InThisProcess() if workers == 1 else LocalProcesses(workers)
