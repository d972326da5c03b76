import os
from pathlib import Path

os.environ.setdefault("NUMBA_CACHE_DIR", str(Path(__file__).resolve().parent.parent / ".numba_cache"))
os.environ.setdefault("MPLBACKEND", "Agg")

from hypothesis import settings  # noqa: E402

# The suite is reproducible: property tests draw the same examples on every run (CI included).
# `make fuzz` explores fresh random examples, many more of them, to find new failures.
settings.register_profile("default", max_examples=60, deadline=None, derandomize=True, print_blob=True)
settings.register_profile("fuzz", max_examples=3000, deadline=None, derandomize=False, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
