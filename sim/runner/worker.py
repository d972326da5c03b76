"""What a worker process runs. Light on imports: `init` must run before numba is imported."""

import os
import signal


def init() -> None:
    """Process-pool initializer: one numba thread; Ctrl-C is the driver's to handle."""
    os.environ["NUMBA_NUM_THREADS"] = "1"
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def play_batch(game: str, plan, seed: int, batch_id: int, first_id: int, n: int,
               record_turns: bool):
    """Play one batch: (batch_id, {table name: DataFrame})."""
    os.environ.setdefault("NUMBA_NUM_THREADS", "1")
    from sim.runner.games import adapter

    return batch_id, adapter(game).play(plan, seed, first_id, n, record_turns)
