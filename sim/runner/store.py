"""A run on disk: `manifest.json` and one Parquet part per batch and table.

    runs/study1/
        manifest.json
        games.parquet/part-000000.parquet, part-000001.parquet, ...
        seats.parquet/part-000000.parquet, ...
        turns.parquet/...          (only with record_turns)

Every file is written under a hidden temporary name in its own directory and moved into place
with `os.replace`, so a killed process leaves either the old file or the new one, never half of
one (and readers such as `pandas.read_parquet(dir)` skip the hidden names).
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pandas as pd

MANIFEST = "manifest.json"
TABLES = ("games", "seats", "turns")
FORMAT = 1


class RunError(Exception):
    """A run that cannot go on, in one line. `usage` marks a problem with the request itself."""

    def __init__(self, message: str, usage: bool = False):
        super().__init__(message)
        self.usage = usage


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


def write_part(root: Path, table: str, batch_id: int, df: pd.DataFrame) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    folder = table_dir(root, table)
    folder.mkdir(parents=True, exist_ok=True)
    arrow = pa.Table.from_pandas(df, preserve_index=False)
    atomic_write_bytes(part_path(root, table, batch_id),
                       lambda tmp: pq.write_table(arrow, tmp, compression="zstd"))


def write_manifest(root: Path, manifest: dict) -> None:
    text = json.dumps(manifest, indent=2, sort_keys=False) + "\n"
    atomic_write_bytes(root / MANIFEST, lambda tmp: tmp.write_text(text))


def read_manifest(root: Path) -> dict:
    path = root / MANIFEST
    if not path.is_file():
        raise RunError(f"{root}: no {MANIFEST}, so not a mobsim run directory")
    try:
        manifest = json.loads(path.read_text())
        if not isinstance(manifest, dict) or "batches_done" not in manifest:
            raise ValueError("not a run manifest")
        manifest["batches_done"] = [int(b) for b in manifest["batches_done"]]
    except (ValueError, TypeError, UnicodeDecodeError) as err:
        reason = " ".join(str(err).split())
        raise RunError(f"{path} is corrupt ({reason}): start the run again with --force") from None
    return manifest


def is_run_dir(root: Path) -> bool:
    """Holds a manifest, or only names a run writes (safe to clear with force)."""
    if (root / MANIFEST).is_file():
        return True
    known = {MANIFEST} | {f"{t}.parquet" for t in TABLES}
    return all(p.name in known or p.name.startswith(f".{MANIFEST}") for p in root.iterdir())


def clear(root: Path) -> None:
    for p in root.iterdir():
        if p.is_dir() and not p.is_symlink():
            shutil.rmtree(p)
        else:
            p.unlink()


def check_part(root: Path, table: str, batch_id: int, rows: int | None = None) -> str | None:
    """None when the part is readable (with `rows` rows if given), else what is wrong."""
    import pyarrow.parquet as pq

    path = part_path(root, table, batch_id)
    if not path.is_file():
        return "missing"
    try:
        meta = pq.read_metadata(path)
    except Exception as err:  # pyarrow raises several kinds for a damaged file
        return " ".join(str(err).split()) or type(err).__name__
    if rows is not None and meta.num_rows != rows:
        return f"{meta.num_rows} rows where {rows} were expected"
    return None


def read_table(root: Path, table: str, batch_ids, columns=None) -> pd.DataFrame:
    """The parts of the finished batches as one DataFrame, in game order."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    pieces = []
    for b in sorted(batch_ids):
        path = part_path(root, table, b)
        try:
            pieces.append(pq.read_table(path, columns=columns))
        except Exception as err:
            reason = " ".join(str(err).split()) or type(err).__name__
            raise RunError(f"{path} is damaged or missing ({reason}): rerun with --resume to "
                           f"play its batch again") from None
    if not pieces:
        raise RunError(f"{root}: no finished batch holds {table} yet")
    return pa.concat_tables(pieces, promote_options="permissive").to_pandas()
