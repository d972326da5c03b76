"""A run's seat table a few columns at a time, so a report of millions of games never holds the
whole table (about 100 counters per seat in New York Kings) at once.

    from sim.analysis.tables import seat_columns
    seat_columns(run, ["strategy", "fortune"])             # those of the columns the run has
    seat_columns(run, lambda c: c.startswith("cards_"))     # or those a test picks

A run on disk whose seat table is not in memory yet is read for these columns only (in the
table's column order); a run in memory (or whose table is already loaded) is projected.

    n_games, parts = run_parts(run, game_columns, seat_columns)   # (games, seats) part by part

`run_parts` gives the run one Parquet part at a time, so a statistic reduced to sums part by
part (the headline metrics, `mobsim compare`) holds one part, whatever the run's size.
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
    """A run as the report reads it: the generic sections read it part by part
    (`sim.analysis.scan`); a game's own sections that read whole tables (American Gangsters) get
    them here on first use: games and turns as they are, the seat table reduced to the generic
    columns plus `extra`, or whole when `extra` is None."""

    def __init__(self, run, extra: Collection[str] | None = ()):
        self.source = run
        self.path, self.manifest = run.path, run.manifest
        self._extra = extra

    @property
    def games(self):
        return self.source.games

    @property
    def turns(self):
        return self.source.turns

    @property
    def seats(self):
        if self._extra is None:
            return self.source.seats
        return seat_columns(self.source, set(GENERIC) | set(self._extra))


def run_parts(run, game_columns: Collection[str], seat_columns: Collection[str],
              turn_columns: Collection[str] | None = None):
    """(games, parts): the run's number of games and an iterator of its (games, seats) tables part
    by part (one Parquet part per batch, in game id order), reduced to the columns named that the
    run has. A run on disk whose seat table is not in memory is read one part at a time (each part
    checked against its checksum); any other run is cut into its batches. With `turn_columns`,
    each part is (games, seats, turns), turns None when the run did not record them."""
    run = getattr(run, "source", run)
    with_turns = turn_columns is not None
    if not _on_disk(run) or not run.manifest["batches_done"]:
        games, seats = run.games, run.seats
        games = games[[c for c in games.columns if c in game_columns]]
        seats = seats[[c for c in seats.columns if c in seat_columns]]
        turns = run.turns if with_turns else None
        if turns is not None:
            turns = turns[[c for c in turns.columns if c in turn_columns]]
        size = getattr(run, "manifest", {}).get("batch_size")
        parts = _batches(games, seats, size, turns)
        return len(games), (parts if with_turns else ((g, s) for g, s, _ in parts))
    from sim.runner import store

    done = sorted(run.manifest["batches_done"])
    rows = [store._footer_rows(run.path, "games", b) for b in done]
    if None in rows:  # a damaged part: the whole-table read names it in one line
        store.read_table(run.path, "games", done, manifest=run.manifest)
    tables = ("games", "seats") + (("turns",) if with_turns and _has_turns(run) else ())
    wanted = {"games": game_columns, "seats": seat_columns, "turns": turn_columns}
    names = {t: [c for c in (_schema(run.path, done[0], t) or []) if c in wanted[t]] for t in tables}

    def parts():
        for b in done:
            read = [store.read_part(run.path, t, b, store.expected_checksum(run.manifest, t, b),
                                    names[t]).to_pandas() for t in tables]
            if with_turns:
                yield read[0], read[1], (read[2] if len(read) > 2 else None)
            else:
                yield read[0], read[1]

    return sum(rows), parts()


def _has_turns(run) -> bool:
    return bool(run.manifest.get("record_turns")) or "turns" in run.manifest.get("tables", [])


def _batches(games: pd.DataFrame, seats: pd.DataFrame, size, turns: pd.DataFrame | None = None):
    """Tables in memory cut into the run's batches (game ids b * size .. (b + 1) * size - 1), so
    that sums merged part by part round exactly as they do for the same run read from disk:
    (games, seats, turns) triples, turns None when absent."""
    if not isinstance(size, int) or size <= 0 or len(games) <= size:
        yield games, seats, turns
        return
    by_batch = dict(iter(seats.groupby(seats["game_id"].to_numpy() // size, sort=True)))
    turns_by = {} if turns is None else dict(iter(turns.groupby(turns["game_id"].to_numpy() // size, sort=True)))
    for batch, part in games.groupby(games["game_id"].to_numpy() // size, sort=True):
        part_turns = None if turns is None else turns_by.get(batch, turns.iloc[:0])
        yield part, by_batch.get(batch, seats.iloc[:0]), part_turns


def game_ids(run):
    """The run's game ids (the games table's one column when the run is on disk)."""
    run = getattr(run, "source", run)
    if _on_disk(run) and "games" not in getattr(run, "_tables", {}) and run.manifest["batches_done"]:
        from sim.runner import store

        return store.read_table(run.path, "games", run.manifest["batches_done"], columns=["game_id"],
                                manifest=run.manifest)["game_id"].to_numpy()
    return run.games["game_id"].to_numpy()


def game_count(run) -> int:
    """The games of the run's finished batches (from the parts' footers when it is on disk)."""
    run = getattr(run, "source", run)
    if _on_disk(run) and "games" not in getattr(run, "_tables", {}) and run.manifest["batches_done"]:
        from sim.runner import store

        rows = [store._footer_rows(run.path, "games", b) for b in run.manifest["batches_done"]]
        if None not in rows:
            return sum(rows)
    return len(run.games)


def table_columns(run, table: str) -> list[str]:
    """The columns of one of the run's tables (the first part's schema when it is on disk and not
    read yet)."""
    run = getattr(run, "source", run)
    done = getattr(run, "manifest", {}).get("batches_done") or []
    if getattr(run, "path", None) is not None and table not in getattr(run, "_tables", {}) and done:
        names = _schema(run.path, min(done), table)
        if names is not None:
            return names
    return list(getattr(run, table).columns)


def same_batches(a, b) -> bool:
    """Both runs are on disk (seat tables not in memory) with the same finished batches of the same
    sizes, so their parts hold the same game ids batch by batch."""
    a, b = getattr(a, "source", a), getattr(b, "source", b)
    if not (_on_disk(a) and _on_disk(b)):
        return False
    done = sorted(a.manifest["batches_done"])
    return (bool(done) and done == sorted(b.manifest["batches_done"])
            and all(a.manifest.get(k) == b.manifest.get(k) for k in ("games", "batch_size", "batches")))


def _on_disk(run) -> bool:
    """Read from disk: the run has a directory and its seat table is not in memory yet."""
    return getattr(run, "path", None) is not None and "seats" not in getattr(run, "_tables", {"seats": None})


def _schema(root, batch_id: int, table: str = "seats") -> list[str] | None:
    import pyarrow.parquet as pq

    from sim.runner import store

    try:
        return pq.read_schema(store.part_path(root, table, batch_id)).names
    except Exception:  # missing or damaged
        return None
