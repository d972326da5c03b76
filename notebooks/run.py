"""Run every notebook headless, top to bottom, at its default size (`make notebooks-run`).

Each notebook is executed by nbclient in a fresh kernel from notebooks/ (the outputs are not
written back: the stored notebooks stay without outputs). The run prints each notebook's wall
time and fails (exit 1) when a cell raises, a notebook prints a warning, or a notebook takes
longer than its budget (--budget SECONDS, default 120: two minutes on 2 cores).

    python notebooks/run.py                      # every notebook
    python notebooks/run.py 01-quickstart        # the ones named
"""

import argparse
import subprocess
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

HERE = Path(__file__).resolve().parent
CELL_TIMEOUT = 600   # seconds; the first cell that plays may compile the engine


def warnings_of(notebook) -> list[str]:
    """Every warning a notebook printed (a stderr stream with "Warning" in it)."""
    return [o["text"].strip() for c in notebook.cells if c.cell_type == "code" for o in c.outputs
            if o.output_type == "stream" and o.get("name") == "stderr" and "Warning" in o.get("text", "")]


def run(path: Path) -> tuple[float, list[str]]:
    """(seconds, problems) of one notebook executed top to bottom."""
    notebook = nbformat.read(path, as_version=4)
    client = NotebookClient(notebook, timeout=CELL_TIMEOUT, kernel_name="python3",
                            resources={"metadata": {"path": str(HERE)}})
    start = time.perf_counter()
    try:
        client.execute(stderr=subprocess.DEVNULL)   # the kernel's own log (not the notebook's output)
    except CellExecutionError as err:
        return time.perf_counter() - start, [f"a cell raised: {str(err).strip().splitlines()[-1]}"]
    return time.perf_counter() - start, warnings_of(notebook)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="notebooks to run (stems, e.g. 01-quickstart); default: all")
    parser.add_argument("--budget", type=float, default=120.0, help="seconds a notebook may take")
    args = parser.parse_args(argv)
    paths = sorted(HERE.glob("*.ipynb"))
    if args.names:
        paths = [p for p in paths if p.stem in args.names]
        missing = set(args.names) - {p.stem for p in paths}
        if missing:
            print(f"no such notebook: {', '.join(sorted(missing))} (in {HERE})", file=sys.stderr)
            return 2
    failed = 0
    for path in paths:
        seconds, problems = run(path)
        if seconds > args.budget:
            problems.append(f"took {seconds:.0f} s, more than {args.budget:.0f} s")
        print(f"{path.stem}: {seconds:.1f} s" + ("" if not problems else " FAILED: " + "; ".join(problems)),
              flush=True)
        failed += bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
