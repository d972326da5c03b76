import importlib.util
import os
from pathlib import Path

os.environ.setdefault("NUMBA_CACHE_DIR", str(Path(__file__).resolve().parent.parent / ".numba_cache"))
os.environ.setdefault("MPLBACKEND", "Agg")

import pytest  # noqa: E402
from hypothesis import settings  # noqa: E402

# The suite is reproducible: property tests draw the same examples on every run (CI included).
# `make fuzz` explores fresh random examples, many more of them, to find new failures.
settings.register_profile("default", max_examples=60, deadline=None, derandomize=True, print_blob=True)
settings.register_profile("fuzz", max_examples=3000, deadline=None, derandomize=False, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

# The files that take longest (some 30 to 80 s each on the 2 cores; pytest --durations), first:
# `make test` gives each worker a whole file at a time, in this order (--dist loadfile
# --no-loadscope-reorder: not by their number of tests), and a long file drawn
# last keeps one worker busy while the other has nothing left to do.
LONGEST_FIRST = ("test_notebooks.py", "test_distill.py", "test_demo.py", "test_faults.py",
                 "test_readme_commands.py", "test_runner.py", "test_verdict.py", "test_sweep.py",
                 "ag/test_ag_learned.py", "test_commands_every_game.py", "test_browser.py", "test_cli_fuzz.py")


def pytest_collection_modifyitems(items):
    def rank(item):
        path = item.path.as_posix()
        return next((i for i, name in enumerate(LONGEST_FIRST) if path.endswith(f"/tests/{name}")),
                    len(LONGEST_FIRST))
    items.sort(key=rank)   # stable: the other files, and the tests within a file, keep their order


@pytest.fixture
def doc_example():
    """A script of docs/examples loaded as a module (its path from docs/examples/), to test what
    the docs quote from it."""
    def load(relative: str):
        path = Path(__file__).resolve().parent.parent / "docs/examples" / relative
        spec = importlib.util.spec_from_file_location(path.stem.replace("-", "_"), path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    return load
