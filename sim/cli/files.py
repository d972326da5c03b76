"""Writing a named output file: at that path and nowhere beside it, whole or not at all, never
over a device node or a directory, and over an existing file only with --force."""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from pathlib import Path

import click

from sim.cli.common import os_error_status

PROJECT = Path(__file__).resolve().parents[2]
SHIPPED = (PROJECT / "strategies",)   # what the project ships: no command writes there unasked


def regular_or_absent(path: Path) -> bool:
    """Whether `path` is missing or a regular file (a device node, a fifo or a directory is not:
    reading one may never end, replacing one may replace the machine's /dev/null)."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except FileNotFoundError:
        return True
    except OSError:
        return False


def shipped(path: Path) -> bool:
    """Whether `path` lies in a folder the project ships (its presets, mixtures and models)."""
    target = Path(os.path.abspath(path))
    return any(target.is_relative_to(root) for root in SHIPPED)


def target_file(path, force: bool = False, hint: str = "--out", suffixes=(),
                allow_shipped: bool = False, check_folder: bool = True) -> Path:
    """The file a command may write as `path`, checked before any work is done: a plain file
    name (with one of `suffixes`, when given, so nothing is added beside it) in an existing
    folder; an existing file only with --force, and only a regular one; nothing shipped unless
    `allow_shipped` (then with --force)."""
    text = str(path) if path is not None else ""
    if not text.strip():
        raise click.BadParameter("the path is empty: name a file, e.g. runs/out" + (suffixes[0] if suffixes else ""),
                                 param_hint=hint)
    path = Path(text)
    if suffixes and path.suffix.lower() not in suffixes:
        raise click.BadParameter(f"{path} does not end in {' or '.join(suffixes)}: name a file that does",
                                 param_hint=hint)
    if not regular_or_absent(path):
        raise click.BadParameter(f"{path} is not a regular file (a directory or a device): name a file",
                                 param_hint=hint)
    if check_folder and not path.parent.is_dir():
        raise click.BadParameter(f"{path.parent} is not a directory: create it first", param_hint=hint)
    if shipped(path) and not allow_shipped:
        raise click.BadParameter(f"{path} is shipped with mobsim and never written by a command: "
                                 f"name another file (e.g. runs/{path.name}) and copy it in by hand",
                                 param_hint=hint)
    if path.exists() and not force:
        raise click.BadParameter(f"{path} exists: add --force to replace it, or name another file",
                                 param_hint=hint)
    if path.parent.is_dir():   # last: nothing is created beside a file refused above
        _probe(path, hint)
    return path


def _probe(path: Path, hint: str) -> None:
    """Create and remove a file beside `path` now, so that a folder that cannot take the file (read-only,
    no permission) is refused before the work, not after it."""
    probe = path.with_name(f".{path.name}.probe{os.getpid()}")
    try:
        os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        probe.unlink()
    except OSError as err:
        raise WriteFailed(path, err, hint) from None


class WriteFailed(click.ClickException):
    """A named output that could not be written: status 2 when the place cannot take it (read-only,
    missing, not a file), 1 when the machine failed (a full disk, an I/O error)."""

    def __init__(self, path, err: OSError, hint: str = "--out"):
        super().__init__(f"cannot write {path}: {err.strerror or err}; give {hint} a writable file")
        self.exit_code = os_error_status(err)


def write_whole(path, content, hint: str = "--out", make_folder: bool = False) -> Path:
    """Write `content` (str, bytes, or a function writing the file it is given) to `path` under
    a hidden temporary name beside it, then move it into place in one step: the old file stays
    whole until the new one is complete, and a failure leaves no temporary file behind."""
    path = Path(path)
    if not regular_or_absent(path):
        raise WriteFailed(path, OSError(errno.EEXIST, "not a regular file"), hint)
    # the suffix kept last: writers that pick a format by it (or add one without it) see the real one
    tmp = path.with_name(f".{path.stem}.tmp{os.getpid()}{path.suffix}")
    try:
        if make_folder:
            path.parent.mkdir(parents=True, exist_ok=True)
        if callable(content):
            content(tmp)
        elif isinstance(content, bytes):
            tmp.write_bytes(content)
        else:
            tmp.write_text(content, encoding="utf-8")
        os.replace(tmp, path)
    except OSError as err:
        raise WriteFailed(path, err, hint) from None
    finally:
        with contextlib.suppress(OSError):   # on a read-only file system even a missing file is EROFS
            tmp.unlink(missing_ok=True)
    return path


def claim_out(out, kind: str, hint: str = "--out") -> Path:
    """Make `out` the folder of a `kind` study before any work (store.claim): another study's
    folder, or one that cannot be written, is one line (exit 2; 1 when the disk failed)."""
    from sim.runner.store import RunError, claim

    try:
        return claim(out, kind)
    except RunError as err:
        failure = click.BadParameter(str(err), param_hint=hint) if err.usage else click.ClickException(str(err))
        raise failure from None


MAX_TABLE_BYTES = 1 << 20   # a plan or a ratings table is a few lines: a larger file is not one


def read_small_table(path, hint: str, what: str):
    """A small CSV an option names (a verdict's plan.csv, a ratings.csv) as a DataFrame: a device,
    a fifo or a file past MAX_TABLE_BYTES is refused before it is read, a file that is no CSV in
    one line naming `what` it should be."""
    import pandas as pd

    path = Path(path)
    if not regular_or_absent(path) or not path.is_file():
        raise click.BadParameter(f"{path}: not a regular file: give {what}", param_hint=hint)
    size = path.stat().st_size
    if size > MAX_TABLE_BYTES:
        raise click.BadParameter(f"{path}: {size:,} bytes, more than {what} holds", param_hint=hint)
    try:
        return pd.read_csv(path)
    except (ValueError, UnicodeDecodeError, pd.errors.EmptyDataError) as err:
        raise click.BadParameter(f"{path}: not {what} ({' '.join(str(err).split())})", param_hint=hint) from None
