"""What a worker process runs. Light on imports: `init` must run before numba is imported."""

import os
import signal
import sys
import threading
import time

PR_SET_PDEATHSIG = 1   # linux/prctl.h
WATCH_SECONDS = 1.0


def init(parent_pid: int | None = None) -> None:
    """Process-pool initializer: one numba thread; Ctrl-C is the driver's to handle (SIGTERM
    just ends a worker); and the worker dies with the driver, whatever ends it (kill -9
    included)."""
    os.environ["NUMBA_NUM_THREADS"] = "1"
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # a forked worker has the driver's handler
    if parent_pid is not None:
        die_with_parent(parent_pid)


def die_with_parent(parent_pid: int) -> None:
    """Ask Linux to kill this process when its parent ends (PR_SET_PDEATHSIG), and watch the
    parent's pid from a thread as well (other systems; and between batches, a second net)."""
    if sys.platform.startswith("linux"):
        import ctypes

        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent_pid:  # the parent ended before prctl took hold
        os._exit(1)
    threading.Thread(target=_watch, args=(parent_pid,), daemon=True, name="watch-parent").start()


def _watch(parent_pid: int) -> None:
    while os.getppid() == parent_pid:
        time.sleep(WATCH_SECONDS)
    os._exit(1)


def play_batch(game: str, plan, seed: int, batch_id: int, first_id: int, n: int,
               record_turns: bool, store_in=None):
    """Play one batch: (batch_id, {table name: DataFrame}). With `store_in` = (run directory,
    table names), write the batch's parts there and return (batch_id, store.Written) instead:
    processes that share the run's disk then send back a number, checksums and a tally, not the tables."""
    os.environ.setdefault("NUMBA_NUM_THREADS", "1")
    from sim.runner.games import adapter

    if store_in is None:
        return batch_id, adapter(game).play(plan, seed, first_id, n, record_turns)
    from pathlib import Path

    from sim.runner import store

    root, names = store_in
    columns = adapter(game).play_columns(plan, seed, first_id, n, record_turns)
    sums = store.write_parts(Path(root), columns, names, batch_id)
    return batch_id, store.Written(n, sums, store.tally(columns["seats"]))
