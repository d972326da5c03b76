"""The one kind of local process pool the project starts: its workers die with the process that
started them, whatever ends it (kill -9, a double Ctrl-C), each runs one numba thread, and a
pool left by an error or Ctrl-C is killed at once rather than left to finish its tasks."""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
from concurrent.futures import ProcessPoolExecutor

from sim.runner import worker


@contextlib.contextmanager
def one_numba_thread():
    """NUMBA_NUM_THREADS=1 while the block runs: a worker process started in it inherits it."""
    saved = os.environ.get("NUMBA_NUM_THREADS")
    os.environ["NUMBA_NUM_THREADS"] = "1"
    try:
        yield
    finally:
        if saved is None:
            del os.environ["NUMBA_NUM_THREADS"]
        else:
            os.environ["NUMBA_NUM_THREADS"] = saved


class TiedPool(ProcessPoolExecutor):
    """A ProcessPoolExecutor whose workers are tied to this process (`worker.init`: Linux's
    parent-death signal and a watching thread) and ignore Ctrl-C (the parent handles it). As a
    context manager it waits for its tasks when the block ends normally, and kills its workers
    when the block ends by an exception (KeyboardInterrupt included)."""

    def __init__(self, workers: int, method: str = "spawn"):
        super().__init__(max_workers=workers, mp_context=multiprocessing.get_context(method),
                         initializer=worker.init, initargs=(os.getpid(),))

    def submit(self, fn, /, *args, **kwargs):
        with one_numba_thread():   # a worker process starts inside submit
            return super().submit(fn, *args, **kwargs)

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            self.shutdown(wait=True)
        else:
            kill_pool(self)
        return False


def kill_pool(pool) -> None:
    """Kill the pool's processes now (a second Ctrl-C meanwhile is ignored, so this cannot be
    cut halfway) and reap them."""
    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
    try:
        processes = list((getattr(pool, "_processes", None) or {}).values())
        for proc in processes:
            if proc.is_alive():
                proc.kill()
        manager = getattr(pool, "_executor_manager_thread", None)
        pool.shutdown(wait=False, cancel_futures=True)
        for proc in processes:
            proc.join(timeout=5)
        # the pool's manager thread closes its wake-up pipe as it ends: left running, it races the
        # interpreter's exit hook writing to that pipe ("OSError: Bad file descriptor" after the
        # clean "interrupted" line); its processes dead, it ends at once
        if manager is not None:
            manager.join(timeout=5)
            _unhook(manager)
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)


def _unhook(manager) -> None:
    """Take a killed pool's manager thread off the exit hook's list (concurrent.futures.process
    `_python_exit` wakes every listed manager by writing to its pipe, without the pool's lock): a
    manager slower to end than the join above (a loaded machine) closes that pipe on its own, and
    the interpreter still joins it, as every thread that is not a daemon."""
    from concurrent.futures import process

    with contextlib.suppress(AttributeError, TypeError):
        process._threads_wakeups.pop(manager, None)
