"""A run's seat table a few columns at a time, so a report of millions of games never holds the
whole table (about 100 counters per seat in New York Kings) at once.

    from sim.analysis.tables import seat_columns
    seat_columns(run, ["strategy", "fortune"])             # those of the columns the run has
    seat_columns(run, lambda c: c.startswith("cards_"))     # or those a test picks

A run on disk whose seat table is not in memory yet is read for these columns only (in the
table's column order); a run in memory (or whose table is already loaded) is projected.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

import pandas as pd

# every seat column the generic sections read (headline, fairness, quality, fortunes, watch)
GENERIC = ("game_id", "seat", "strategy", "slot", "fortune", "rank", "won", "alive", "times_first")


def seat_columns(run, wanted: Collection[str] | Callable[[str], bool]) -> pd.DataFrame:
    """The run's seat table reduced to `wanted` (names, or a test of a name), in its own order."""
    run = getattr(run, "source", run)  # a ReportRun reads through to its run
    keep = wanted if callable(wanted) else set(wanted).__contains__
    if _on_disk(run):
        from sim.runner import store

        done = run.manifest["batches_done"]
        schema = _schema(run.path, min(done)) if done else None
        names = None if schema is None else [c for c in schema if keep(c)]
        # (no schema: a damaged first part, which read_table then names)
        return store.read_table(run.path, "seats", done, columns=names, manifest=run.manifest)
    seats = run.seats
    return seats[[c for c in seats.columns if keep(c)]]


class ReportRun:
    """A run as the report reads it: games and turns as they are, the seat table reduced to the
    generic sections' columns plus `extra` (the game sections read theirs with `seat_columns`),
    or whole when `extra` is None."""

    def __init__(self, run, extra: Collection[str] | None = ()):
        self.source = run
        self.path, self.manifest = run.path, run.manifest
        self.games, self.turns = run.games, run.turns
        self.seats = run.seats if extra is None else seat_columns(run, set(GENERIC) | set(extra))


def _on_disk(run) -> bool:
    """Read from disk: the run has a directory and its seat table is not in memory yet."""
    return run.path is not None and "seats" not in getattr(run, "_tables", {"seats": None})


def _schema(root, batch_id: int) -> list[str] | None:
    import pyarrow.parquet as pq

    from sim.runner import store

    try:
        return pq.read_schema(store.part_path(root, "seats", batch_id)).names
    except Exception:  # missing or damaged
        return None
