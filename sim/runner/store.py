"""A run on disk: `manifest.json` and one Parquet part per batch and table.

    runs/study1/
        manifest.json
        games.parquet/part-000000.parquet, part-000001.parquet, ...
        seats.parquet/part-000000.parquet, ...
        turns.parquet/...          (only with record_turns)

Every part's checksum (blake2b, 128 bits, of the file's bytes) is recorded in the manifest when
the batch is recorded, so a part changed on disk afterwards (a flipped byte, a truncated copy) is
caught when it is read, verified or resumed, not read back as other numbers.

Every file is written under a hidden temporary name in its own directory and moved into place
with `os.replace`, so a killed process leaves either the old file or the new one, never half of
one (and readers such as `pandas.read_parquet(dir)` skip the hidden names).
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

MANIFEST = "manifest.json"
LOCK = ".lock"      # held (flock) by the process writing the run
TABLES = ("games", "seats", "turns")
FORMAT = 3          # 2: checksums of the parts in the manifest (format 1 runs have none); 3: and of itself
SEAL = "manifest_checksum"   # blake2b-128 of the manifest's own bytes, this field's value zeroed
_SEAL_FIELD = re.compile(rf'"{SEAL}": "([0-9a-f]{{32}})"')
CHECKSUM = "blake2b-128"


class RunError(Exception):
    """A run that cannot go on, in one line. `usage` marks a problem with the request itself."""

    def __init__(self, message: str, usage: bool = False):
        super().__init__(message)
        self.usage = usage


class WorkerLost(RunError):
    """A worker process ended abruptly (killed, out of memory): the work failed on its way."""

    def __init__(self, kept_in=None):
        kept = (f"the finished work is kept in {kept_in}; finish with the same command and --resume"
                if kept_in else "nothing was kept (no output directory): play it again")
        super().__init__(f"a worker process ended abruptly (killed, or out of memory): {kept}")


def machine_failure(err: OSError) -> bool:
    """A full disk or an I/O error (exit 1), rather than a place that cannot be used as named:
    read-only, missing, not a directory, no permission (exit 2)."""
    import errno

    return err.errno in (errno.ENOSPC, errno.EIO, errno.EDQUOT, errno.ENOMEM)


STUDY = ".mobsim-study"   # in a study's folder: the kind of study it holds (one a folder)
KNOWN_BY = {MANIFEST: "run", "meta-plan.json": "meta", "psro.json": "psro", "verdict.json": "verdict",
            "points": "tuning", "sweep.parquet": "tuning", "index.md": "report"}   # folders written before STUDY


def study_kind(root: Path) -> str | None:
    """The kind of study `root` holds (its STUDY file, or a file only that kind writes), or None."""
    try:
        return (root / STUDY).read_text(encoding="utf-8").strip() or None
    except (OSError, UnicodeDecodeError):
        pass
    return next((kind for name, kind in KNOWN_BY.items() if (root / name).exists()), None)


def claim(root, kind: str) -> Path:
    """Make `root` the folder of a `kind` study now, before any game is played: a folder holding
    another study (a run, a meta-game, ...) is refused, as is one that cannot be written (RunError;
    usage unless the disk failed). The folder then says which study it holds."""
    root = Path(root)
    held = study_kind(root) if root.is_dir() else None
    if held not in (None, kind):
        raise RunError(f"{root} holds a {held} study: choose another --out for this {kind} study (a folder holds "
                       f"one study)", usage=True)
    if held is None and root.is_dir() and any(root.iterdir()):
        raise RunError(f"{root} holds files that are not a mobsim study: choose a new or empty folder for this "
                       f"{kind} study", usage=True)
    try:
        root.mkdir(parents=True, exist_ok=True)
        if held is None:
            atomic_write_bytes(root / STUDY, lambda tmp: tmp.write_text(kind + "\n", encoding="utf-8"))
    except OSError as err:
        raise RunError(f"cannot write in {root}: {err.strerror or err}; choose a writable --out",
                       usage=not machine_failure(err)) from None
    return root


def table_dir(root: Path, table: str) -> Path:
    return root / f"{table}.parquet"


def part_name(batch_id: int) -> str:
    return f"part-{batch_id:06d}.parquet"


def part_path(root: Path, table: str, batch_id: int) -> Path:
    return table_dir(root, table) / part_name(batch_id)


def atomic_write_bytes(path: Path, write) -> None:
    """Call write(tmp_path), then move tmp_path onto path in one step."""
    tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
    try:
        write(tmp)
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


def checksum(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def file_checksum(path: Path) -> str:
    digest = hashlib.blake2b(digest_size=16)
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


@dataclass(frozen=True)
class Written:
    """What a worker that wrote a batch's parts itself sends back: games, part checksums and the
    batch's tally of seats and wins per strategy."""

    games: int
    checksums: dict
    tally: dict


def tally(seats) -> dict:
    """{strategy: [seats, wins]} of a batch's seats table (a DataFrame, or the columns of
    `adapter.play_columns`): the run's summary adds these up instead of reading the seats back."""
    strategy = pd.Categorical(seats["strategy"])
    codes = np.asarray(strategy.codes)
    won = np.asarray(seats["won"], dtype=bool)
    n = len(strategy.categories)
    count, wins = np.bincount(codes, minlength=n), np.bincount(codes[won], minlength=n)
    return {str(name): [int(count[i]), int(wins[i])]
            for i, name in enumerate(strategy.categories) if count[i]}


def summed_tallies(manifest: dict) -> dict | None:
    """{strategy: [seats, wins]} over the finished batches, in the run's strategy order; None
    when a finished batch has no tally (a run written before tallies): read the seats then."""
    tallies = manifest.get("tallies", {})
    done = manifest.get("batches_done", [])
    if not all(str(b) in tallies for b in done):
        return None
    total = {name: [0, 0] for name in manifest.get("strategies", {}).get("categories", [])}
    for b in done:
        for name, (seats, wins) in tallies[str(b)].items():
            counts = total.setdefault(name, [0, 0])
            counts[0] += seats
            counts[1] += wins
    return {name: counts for name, counts in total.items() if counts[0]}


def write_part(root: Path, table: str, batch_id: int, data) -> str:
    """Write one part (a DataFrame, or the {column: array or Categorical} of
    `adapter.play_columns`); its checksum (the manifest records it with the batch)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    folder = table_dir(root, table)
    folder.mkdir(parents=True, exist_ok=True)
    arrow = to_arrow(data)
    sink = pa.BufferOutputStream()
    pq.write_table(arrow, sink, compression="zstd", **encodings(arrow.schema))
    data = sink.getvalue().to_pybytes()
    atomic_write_bytes(part_path(root, table, batch_id), lambda tmp: tmp.write_bytes(data))
    return checksum(data)


def to_arrow(data):
    """An Arrow table of a DataFrame or of columns. Columns go to Arrow without a DataFrame on
    the way (building one and converting it was a fifth of a batch's writing), under the schema
    pandas gives the same columns, so the part is the same, byte for byte."""
    import pyarrow as pa

    if isinstance(data, pd.DataFrame):
        return pa.Table.from_pandas(data, preserve_index=False)
    schema = _schema(tuple(_column_kind(name, values) for name, values in data.items()))
    return pa.Table.from_arrays([_arrow_array(values) for values in data.values()], schema=schema)


def _column_kind(name: str, values) -> tuple:
    """What pandas' schema of a column depends on: its name and dtype; a Categorical's order and
    categories, of which only how many when they are strings (the metadata counts them, the
    dictionary's type is a string): a meta-game's profiles each name other strategies."""
    if isinstance(values, pd.Categorical):
        categories = values.categories
        strings = pd.api.types.infer_dtype(categories, skipna=False) == "string"
        return (name, "category", values.ordered, len(categories) if strings else tuple(categories))
    return name, values.dtype.str


@functools.lru_cache(maxsize=64)
def _schema(kinds: tuple):
    """pandas' Arrow schema of columns of these kinds, built once: deriving it from an empty
    frame was most of a small part's writing (the seats table's hundred columns, some 4 ms)."""
    import pyarrow as pa

    empty = pd.DataFrame({kind[0]: _empty(kind) for kind in kinds})
    return pa.Schema.from_pandas(empty, preserve_index=False)


def _empty(kind: tuple):
    if kind[1] == "category":   # strings: as many stand-ins (the schema names no category)
        _, _, ordered, categories = kind
        stand_in = [f"c{i}" for i in range(categories)] if isinstance(categories, int) else list(categories)
        return pd.Categorical([], categories=stand_in, ordered=ordered)
    return np.empty(0, np.dtype(kind[1]))


def _arrow_array(values):
    import pyarrow as pa

    if isinstance(values, pd.Categorical):
        return pa.DictionaryArray.from_arrays(values.codes, pa.array(values.categories.to_numpy()))
    return pa.array(values)


def encodings(schema) -> dict:
    """Parquet writer options for a part: the categories dictionary-encoded, the whole numbers
    delta-encoded, min/max statistics kept only for game_id (what a reader filters on). Writing
    is on the workers' critical path: a dictionary and statistics for each of the seats table's
    hundred counter columns made writing a part about half as long again as with these options
    (for parts about 30% smaller); the values read back are the same."""
    import pyarrow as pa

    whole = [f.name for f in schema if pa.types.is_integer(f.type)]
    return {"use_dictionary": [f.name for f in schema if pa.types.is_dictionary(f.type)],
            "column_encoding": dict.fromkeys(whole, "DELTA_BINARY_PACKED"),
            "write_statistics": [name for name in ("game_id",) if name in schema.names]}


def write_parts(root: Path, tables: dict, names, batch_id: int) -> dict:
    """Write a batch's parts: {table: checksum}."""
    return {name: write_part(root, name, batch_id, tables[name]) for name in names}


def write_manifest(root: Path, manifest: dict) -> None:
    text = sealed(manifest_text({**manifest, SEAL: "0" * 32}))
    atomic_write_bytes(root / MANIFEST, lambda tmp: tmp.write_text(text))


def manifest_text(manifest: dict) -> str:
    """The manifest as JSON, a top-level key a line, each value on its line. json's indented
    output is written by its pure-Python encoder (a 30 KB manifest took 1.4 ms, written three times
    a run, a meta-game's few hundred profiles each a run); this is its C encoder's (0.4 ms)."""
    lines = [f"  {json.dumps(key)}: {json.dumps(value)}" for key, value in manifest.items()]
    return "{\n" + ",\n".join(lines) + "\n}\n"


def sealed(text: str) -> str:
    """The manifest text with its checksum filled in: of every byte of the text, so one flipped bit
    anywhere in it (a tally, the seed, a name, a key, the checksum itself) is caught when read."""
    return text.replace(f'"{SEAL}": "{"0" * 32}"', f'"{SEAL}": "{checksum(text.encode())}"', 1)


def seal_problem(text: str, manifest: dict) -> str | None:
    """What is wrong with a manifest's checksum, or None (a format 1 or 2 run has none to check)."""
    found = _SEAL_FIELD.search(text)
    if found is None:
        return f"no {SEAL}" if manifest.get("format", 0) >= 3 or SEAL in manifest else None
    blank = text[:found.start(1)] + "0" * 32 + text[found.end(1):]
    if checksum(blank.encode()) != found.group(1):
        return "its checksum differs from its content: it was changed after it was written"
    return None


MAX_MANIFEST_BYTES = 256 << 20   # a manifest of 10 million games is a few MB


def read_manifest(root: Path) -> dict:
    path = root / MANIFEST
    if not path.is_file():
        raise RunError(f"{root}: no {MANIFEST}, so not a mobsim run directory", usage=True)
    try:
        if path.stat().st_size > MAX_MANIFEST_BYTES:
            raise ValueError(f"{path.stat().st_size:,} bytes, more than a manifest holds")
        text = path.read_text()
        manifest = json.loads(text)
        if not isinstance(manifest, dict) or "batches_done" not in manifest:
            raise ValueError("not a run manifest")
        problem = seal_problem(text, manifest)
        if problem:
            raise ValueError(problem)
        manifest.pop(SEAL, None)
        _check_fields(manifest)
    except (ValueError, TypeError, UnicodeDecodeError) as err:
        reason = " ".join(str(err).split())
        raise RunError(f"{path} is corrupt ({reason}): start the run again with --force", usage=True) from None
    except OSError as err:
        raise RunError(f"cannot read {path}: {err.strerror or err}", usage=True) from None
    return manifest


def _whole(manifest: dict, key: str, least: int) -> None:
    value = manifest[key]
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise ValueError(f"{key} is {value!r}, not a whole number >= {least}")


def _check_fields(manifest: dict) -> None:
    """The fields the runner counts with hold what a run writes (a hand edit may break them)."""
    done = manifest["batches_done"]
    if not isinstance(done, list) or not all(isinstance(b, int) and not isinstance(b, bool)
                                             for b in done):
        raise ValueError("batches_done is not a list of batch numbers")
    for key, least in (("games", 1), ("players", 1), ("batch_size", 1), ("batches", 1),
                       ("seed", 0)):
        if key in manifest:
            _whole(manifest, key, least)
    if len(set(done)) != len(done):
        twice = sorted({b for b in done if done.count(b) > 1})
        raise ValueError(f"batches_done lists batch {twice[0]} more than once")
    if "games" in manifest and "batch_size" in manifest and "batches" in manifest:
        expected = -(-manifest["games"] // manifest["batch_size"])
        if manifest["batches"] != expected:
            raise ValueError(f"batches is {manifest['batches']}, but {manifest['games']} games in "
                             f"batches of {manifest['batch_size']} make {expected}")
        outside = [b for b in done if not 0 <= b < expected]
        if outside:
            raise ValueError(f"batches_done lists batch {outside[0]}, outside 0..{expected - 1}")
    sums = manifest.get("checksums", {})
    if not isinstance(sums, dict) or not all(isinstance(v, dict) for v in sums.values()):
        raise ValueError("checksums is not a table of batch: {table: checksum}")
    counts = manifest.get("tallies", {})
    if not isinstance(counts, dict) or not all(map(_is_tally, counts.values())):
        raise ValueError("tallies is not a table of batch: {strategy: [seats, wins]}")


def _is_tally(tally) -> bool:
    """{strategy: [seats, wins]}, both whole numbers."""
    return isinstance(tally, dict) and all(
        isinstance(c, list) and len(c) == 2 and all(isinstance(x, int) for x in c)
        for c in tally.values())


def is_live(root: Path) -> bool:
    """Whether a process holds the run's lock now (the run is being played, not interrupted)."""
    try:
        import fcntl
    except ImportError:  # not on a POSIX system: no lock to ask
        return False
    try:
        with open(Path(root) / LOCK, "rb") as handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_SH | fcntl.LOCK_NB)
            except BlockingIOError:
                return True
            fcntl.flock(handle, fcntl.LOCK_UN)
            return False
    except OSError:  # no lock file: nobody plays it
        return False


def run_state(root, manifest: dict) -> str:
    """`complete`, `running` (its lock is held) or `interrupted`, with how to finish it."""
    status = manifest.get("status", "?")
    if status != "running" or root is None:
        return status
    if is_live(root):
        return "running"
    return (f"interrupted: finish it with the command that started it and --resume (mobsim run --out "
            f"{root} --games {manifest.get('games')} --seed {manifest.get('seed')} ... --resume)")


def is_run_dir(root: Path) -> bool:
    """Holds a manifest, or only names a run writes."""
    return (root / MANIFEST).is_file() or not foreign(root)


def _run_file(name: str) -> bool:
    return name in (MANIFEST, LOCK) or name.startswith(f".{MANIFEST}.tmp")


def _part_file(name: str) -> bool:
    return (name.startswith("part-") and name.endswith(".parquet")
            or name.startswith(".part-") and ".parquet.tmp" in name)


def foreign(root: Path) -> list[str]:
    """The names in `root` that a run did not write (relative to root; folders end in /)."""
    tables = {f"{t}.parquet" for t in TABLES}
    found = []
    for p in sorted(root.iterdir()):
        if p.name in tables and p.is_dir() and not p.is_symlink():
            found += [f"{p.name}/{q.name}" + ("/" if q.is_dir() else "") for q in sorted(p.iterdir())
                      if q.is_dir() or q.is_symlink() or not _part_file(q.name)]
        elif p.is_dir() or p.is_symlink() or not _run_file(p.name):
            found.append(p.name + ("/" if p.is_dir() else ""))
    return found


def clear(root: Path) -> None:
    """Delete what a run wrote in `root`; refuse (RunError) when it holds anything else."""
    others = foreign(root)
    if others:
        shown = ", ".join(others[:3]) + (f" and {len(others) - 3} more" if len(others) > 3 else "")
        raise RunError(f"{root} also holds {shown}, which a run did not write: not clearing it "
                       f"with --force; move them away or choose another --out", usage=True)
    for t in TABLES:
        folder = table_dir(root, t)
        if folder.is_dir():
            for part in folder.iterdir():
                part.unlink()
            folder.rmdir()
    for p in root.iterdir():
        if p.name != LOCK:  # the caller holds it
            p.unlink()


def expected_checksum(manifest: dict, table: str, batch_id: int) -> str | None:
    """The checksum recorded for a part, or None (a format 1 run recorded none)."""
    return manifest.get("checksums", {}).get(str(batch_id), {}).get(table)


def check_part(root: Path, table: str, batch_id: int, rows: int | None = None,
               expected: str | None = None) -> str | None:
    """None when the part is sound, else what is wrong. With `expected` (its recorded
    checksum) every byte is checked; without, only the footer (and `rows` if given)."""
    import pyarrow.parquet as pq

    path = part_path(root, table, batch_id)
    if not path.is_file():
        return "missing"
    try:
        if expected is not None:
            return None if file_checksum(path) == expected else "its checksum differs from the manifest's"
        meta = pq.read_metadata(path)
    except OSError as err:
        return f"unreadable ({err.strerror or err})"
    except Exception as err:  # pyarrow raises several kinds for a damaged file
        return " ".join(str(err).split()) or type(err).__name__
    if rows is not None and meta.num_rows != rows:
        return f"{meta.num_rows} rows where {rows} were expected"
    return None


def damaged(path: Path, reason: str) -> RunError:
    """A damaged part: the run given is bad input for any command that reads it (exit status 2)."""
    return RunError(f"{path} is damaged or missing ({reason}): play its batch again with the run's command "
                    f"and --resume (mobsim verify {path.parent.parent} lists every damaged part)", usage=True)


def read_part(root: Path, table: str, batch_id: int, expected: str | None = None, columns=None):
    """One part as an Arrow table, its bytes checked against `expected` first when given."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = part_path(root, table, batch_id)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise damaged(path, "missing") from None
    except OSError as err:
        raise damaged(path, f"unreadable: {err.strerror or err}") from None
    if expected is not None and checksum(data) != expected:
        raise damaged(path, "its checksum differs from the manifest's")
    try:
        return pq.read_table(pa.BufferReader(data), columns=columns)
    except Exception as err:
        raise damaged(path, " ".join(str(err).split()) or type(err).__name__) from None


def read_table(root: Path, table: str, batch_ids, columns=None,
               manifest: dict | None = None) -> pd.DataFrame:
    """The parts of the finished batches as one DataFrame, in game order (each part checked
    against its checksum in `manifest` when the manifest records one), in the parts' own
    compact column types (int8 to int32, bool, categories).

    Each column is allocated once at its full length (the parts' footers give the rows) and
    filled part by part, so the peak is the table plus one part: joining the parts in Arrow and
    converting the result holds the table twice, and Arrow's allocator keeps what it freed."""
    ids = sorted(batch_ids)
    if not ids:
        raise RunError(f"{root}: no finished batch holds {table} yet")
    rows = [_footer_rows(root, table, b) for b in ids]
    if None in rows:
        return _read_table_arrow(root, table, ids, columns, manifest)  # it names the damaged part
    filled, start = None, 0
    for b, n in zip(ids, rows, strict=True):
        part = read_part(root, table, b, expected_checksum(manifest or {}, table, b), columns).to_pandas()
        if filled is None:
            filled = {name: _Column.like(part[name], sum(rows)) for name in part.columns}
        if len(part) != n or list(part.columns) != list(filled) or not all(
                filled[c] is not None and filled[c].takes(part[c]) for c in filled):
            return _read_table_arrow(root, table, ids, columns, manifest)  # parts of other layouts
        for name, column in filled.items():
            column.put(start, part[name])
        start += n
    return pd.DataFrame({name: column.series(name) for name, column in filled.items()}, copy=False)


def _footer_rows(root: Path, table: str, batch_id: int) -> int | None:
    import pyarrow.parquet as pq

    try:
        return pq.read_metadata(part_path(root, table, batch_id)).num_rows
    except Exception:  # missing or damaged: read_part says which, in one line
        return None


class _Column:
    """A column being filled part by part: a NumPy array, or the codes of a categorical."""

    def __init__(self, values: np.ndarray, categories=None):
        self.values, self.categories = values, categories

    @classmethod
    def like(cls, part: pd.Series, rows: int) -> _Column | None:
        if isinstance(part.dtype, pd.CategoricalDtype):
            return cls(np.empty(rows, part.cat.codes.dtype), part.cat.categories)
        return cls(np.empty(rows, part.dtype)) if isinstance(part.dtype, np.dtype) else None

    def takes(self, part: pd.Series) -> bool:
        if self.categories is not None:
            return (isinstance(part.dtype, pd.CategoricalDtype) and not part.cat.ordered
                    and part.cat.categories.equals(self.categories)
                    and part.cat.codes.dtype == self.values.dtype)
        return part.dtype == self.values.dtype

    def put(self, start: int, part: pd.Series) -> None:
        codes = part.cat.codes if self.categories is not None else part
        self.values[start:start + len(part)] = codes.to_numpy()

    def series(self, name: str) -> pd.Series:
        if self.categories is None:
            return pd.Series(self.values, name=name, copy=False)
        return pd.Series(pd.Categorical.from_codes(self.values, self.categories), name=name, copy=False)


def _read_table_arrow(root, table, batch_ids, columns, manifest) -> pd.DataFrame:
    import pyarrow as pa

    pieces = [read_part(root, table, b, expected_checksum(manifest or {}, table, b), columns)
              for b in sorted(batch_ids)]
    return pa.concat_tables(pieces, promote_options="permissive").to_pandas()


COUNTED = ("games", "players", "batch_size", "batches")   # what reading and verifying need


def require(root: Path, manifest: dict, keys=COUNTED) -> None:
    """A one-line error when the manifest lacks one of `keys`."""
    missing = [k for k in keys if k not in manifest]
    if missing:
        raise RunError(f"{root / MANIFEST} is corrupt (no {', '.join(missing)}): start the run "
                       f"again with --force", usage=True)


def verify(root: Path, manifest: dict) -> tuple[list[tuple[Path, str]], int, int]:
    """(problems, parts checked by checksum, parts checked by footer only) of a run's finished
    batches; a problem is (path of the part, what is wrong)."""
    require(root, manifest)
    size, games, players = manifest["batch_size"], manifest["games"], manifest["players"]
    problems, by_sum, by_footer = [], 0, 0
    for b in sorted(manifest["batches_done"]):
        n = min(size, games - b * size)
        rows = {"games": n, "seats": n * players}
        for table in manifest.get("tables", TABLES[:2]):
            expected = expected_checksum(manifest, table, b)
            if expected is None:
                by_footer += 1
            else:
                by_sum += 1
            problem = check_part(root, table, b, rows.get(table), expected)
            if problem:
                problems.append((part_path(root, table, b), problem))
    return problems, by_sum, by_footer
