"""The batch runner: many games of one study, in parallel, streamed to Parquet, resumable.

    import sim
    r = sim.run(players=4, strategies=("simple", "random"), games=100_000, seed=42,
                out="runs/study1", workers=2)
    r.games, r.seats, r.turns, r.manifest      # DataFrames (turns only with record_turns)
    sim.load("runs/study1").win_rates()

Arguments of `run` (all keywords):
    game          "nyk" or "ag" (a game's adapter, found by sim.runner.games)
    players       seats at the table
    strategies    one name per seat, or one name for every seat (a tuple or "a,b,c,d")
    games, seed   game ids 0..games-1 of run `seed`; a game depends on (seed, id) only
    out           run directory (None: a temporary one; the tables come back in memory)
    ruleset       a ruleset file, a loaded Ruleset, or None for the defaults
    overrides     {"dotted.key": value} on top of the ruleset file
    workers       processes (default: the cores); 1 plays in this process
    batch_size    games per batch and part file (default up to 5000, about a second of work)
    rotate        rotate seatings so every strategy sits in every seat equally often (True), fixed
                  (False), or a seating mode: "rotate", "fixed", "all", "random" (sim.seating)
    record_turns  also write turns.parquet (each seat's fortune after each turn)
    resume        finish the run in `out`, skipping its finished batches
    force         clear `out` first (only a directory a run wrote)
    scheduler     None (local processes; inside a study on a cluster, the study's scheduler),
                  "local" (Dask LocalCluster) or "tcp://host:port" (sim.runner.executor, docs/cluster.md)
    progress      None: a progress bar when stderr is a terminal; True/False to force
"""

from sim.runner.core import RunResult, load, run
from sim.runner.store import RunError

__all__ = ["run", "load", "RunResult", "RunError"]
