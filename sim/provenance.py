"""Which code made a result: recorded in the provenance of tuned presets and PSRO mixtures."""

import subprocess
from pathlib import Path


def engine_commit() -> str:
    """The project's git commit (with '+changes' when the tree differs), or 'unknown'."""
    root = Path(__file__).resolve().parents[1]
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True,
                              text=True, timeout=10, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=root,
                               capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return head + ("+changes" if dirty else "")

