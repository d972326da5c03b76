"""What a worker process runs. Light on imports: `init` must run before numba is imported."""

import os
import signal


def init() -> None:
    """Process-pool initializer: one numba thread; Ctrl-C is the driver's to handle."""
    os.environ["NUMBA_NUM_THREADS"] = "1"
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def play_batch(game: str, plan, seed: int, batch_id: int, first_id: int, n: int,
               record_turns: bool, store_in=None):
    """Play one batch: (batch_id, {table name: DataFrame}). With `store_in` = (run directory,
    table names), write the batch's parts there and return (batch_id, games played) instead:
    processes that share the run's disk then send back a number, not the tables."""
    os.environ.setdefault("NUMBA_NUM_THREADS", "1")
    from sim.runner.games import adapter

    tables = adapter(game).play(plan, seed, first_id, n, record_turns)
    if store_in is None:
        return batch_id, tables
    from pathlib import Path

    from sim.runner import store

    root, names = store_in
    for name in names:
        store.write_part(Path(root), name, batch_id, tables[name])
    return batch_id, len(tables["games"])
