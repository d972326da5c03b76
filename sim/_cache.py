"""Keep numba's on-disk cache honest across source changes.

numba re-validates a cached function against its own file only: a function in one module that
calls into an edited module keeps its stale compiled copy. So the cache is stamped, room by room,
with a hash of the sources numba compiles, and a room's entries are emptied when its sources
change (a few milliseconds at import):

- the kernel (the jitted modules directly in `sim/` and the rules they compile against): every
  game calls into it, so a change empties the whole cache;
- each game's engine (`sim/nyk` with `strategies/`, `sim/ag`): a change empties that game only,
  so work on one game does not recompile the other.

Pure-Python rooms (runner, analysis, CLI) are not stamped: numba never compiles them.
"""

import hashlib
import os
import shutil
from pathlib import Path

STAMP = "mobsim-sources.sha256"


def sources_digest(roots, recursive: bool = True) -> str:
    digest = hashlib.sha256()
    for root in roots:
        root = Path(root)
        if root.is_file():  # one module named on its own
            digest.update(root.name.encode())
            digest.update(root.read_bytes())
            continue
        if not root.is_dir():
            continue
        for path in sorted(root.rglob("*.py") if recursive else root.glob("*.py")):
            digest.update(str(path.relative_to(root)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def cache_subdir(source_dir) -> str:
    """The folder numba caches a source directory's functions in (numba.core.caching's
    `_UserProvidedCacheLocator`: the directory's name and the SHA-1 of its absolute path)."""
    path = os.path.abspath(source_dir)
    return f"{os.path.basename(path)}_{hashlib.sha1(path.encode()).hexdigest()}"


def refresh(cache_dir: str, roots) -> None:
    """Empty `cache_dir` if it was filled from other sources than those under `roots` (one room)."""
    refresh_rooms(cache_dir, {"all": (list(roots), [])}, kernel="all")


def refresh_rooms(cache_dir: str, rooms: dict, kernel: str) -> None:
    """`rooms`: name -> (recursive roots, flat roots). A changed room loses its own cache folders;
    a changed `kernel` room empties the whole cache."""
    cache = Path(cache_dir)
    for name, (deep, flat) in rooms.items():
        stamp = cache / f"{STAMP}.{name}" if name != "all" else cache / STAMP
        current = sources_digest(deep) + sources_digest(flat, recursive=False)
        try:
            previous = stamp.read_text().strip()
        except OSError:
            previous = None
        if previous == current:
            continue
        if previous is not None and cache.is_dir():
            _empty(cache, None if name == kernel else _folders(deep, flat))
        _write_stamp(cache, stamp, current)


def _folders(deep, flat) -> set[str]:
    dirs = [Path(r) if Path(r).is_dir() else Path(r).parent for r in flat]
    for root in map(Path, deep):
        if root.is_dir():
            dirs += [root, *(p for p in root.rglob("*") if p.is_dir())]
    return {cache_subdir(d) for d in dirs}


def _empty(cache: Path, only: set[str] | None) -> None:
    for entry in cache.iterdir():
        if entry.name.startswith(STAMP) or (only is not None and entry.name not in only):
            continue
        shutil.rmtree(entry, ignore_errors=True) if entry.is_dir() else entry.unlink(missing_ok=True)


def _write_stamp(cache: Path, stamp: Path, digest: str) -> None:
    try:
        cache.mkdir(parents=True, exist_ok=True)
        tmp = cache / f".{stamp.name}.{os.getpid()}"
        tmp.write_text(digest)
        os.replace(tmp, stamp)
    except OSError:
        pass  # a read-only place: numba will simply not cache there
