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



def pytest_configure(config):
    """Under pytest-xdist, compile the engines once before the workers start (the controller
    runs this; tests/compile_first.py says why)."""
    if hasattr(config, "workerinput") or not getattr(config.option, "numprocesses", None):
        return
    import subprocess
    import sys

    script = Path(__file__).with_name("compile_first.py")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True)
    if done.returncode:  # the tests that need an engine fail too, and say why
        print(f"{script.name} failed (exit {done.returncode}):\n{done.stdout}{done.stderr}",
              file=sys.stderr)
