"""Keep numba's on-disk cache honest across source changes.

numba re-validates a cached function against its own file only: a function in one module that
calls into an edited module keeps its stale compiled copy. So the cache is stamped with a hash
of all of mobsim's sources and emptied when they change (a few milliseconds at import).
"""

import hashlib
import os
import shutil
from pathlib import Path

STAMP = "mobsim-sources.sha256"


def sources_digest(roots) -> str:
    digest = hashlib.sha256()
    for root in roots:
        for path in sorted(Path(root).rglob("*.py")):
            digest.update(str(path.relative_to(root)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def refresh(cache_dir: str, roots) -> None:
    """Empty `cache_dir` if it was filled from other sources than those under `roots`."""
    cache = Path(cache_dir)
    stamp = cache / STAMP
    current = sources_digest(roots)
    try:
        previous = stamp.read_text().strip()
    except OSError:
        previous = None
    if previous == current:
        return
    if previous is not None and cache.is_dir():
        for entry in cache.iterdir():
            if entry.name != STAMP:
                shutil.rmtree(entry, ignore_errors=True) if entry.is_dir() else entry.unlink(missing_ok=True)
    try:
        cache.mkdir(parents=True, exist_ok=True)
        tmp = cache / f".{STAMP}.{os.getpid()}"
        tmp.write_text(current)
        os.replace(tmp, stamp)
    except OSError:
        pass  # a read-only place: numba will simply not cache there
