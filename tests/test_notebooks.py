"""The notebooks run top to bottom on small studies, and are stored without outputs.

Each notebook reads MOBSIM_NOTEBOOK_GAMES (study size), MOBSIM_NOTEBOOK_WORKERS (processes) and
MOBSIM_NOTEBOOK_RUNS (where runs are written); the test sets them small, one process, a temporary
directory. A cell that raises fails the test with the cell's traceback.
"""

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"))
EXPECTED = ("01-quickstart", "02-balance-report", "03-fight-and-recruit-odds", "04-tuning", "05-meta-game",
            "06-luck")
GAMES = 150  # the tuning notebook needs 800 games of budget (six times this) for its two candidates
CELL_TIMEOUT = 600  # seconds; the first cell that plays may compile the engine after a source change


def test_the_notebooks_are_there():
    assert [p.stem for p in NOTEBOOKS] == list(EXPECTED)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_stored_without_outputs(path):
    notebook = nbformat.read(path, as_version=4)
    nbformat.validate(notebook)
    code = [c for c in notebook.cells if c.cell_type == "code"]
    assert code, f"{path.name} has no code"
    for cell in code:
        assert cell.outputs == [] and cell.execution_count is None, \
            f"{path.name}: clear the outputs before committing (cell {cell.get('id')})"
    assert notebook.cells[0].cell_type == "markdown", f"{path.name} should open with what it teaches"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_runs_top_to_bottom(path, tmp_path, monkeypatch):
    monkeypatch.setenv("MOBSIM_NOTEBOOK_GAMES", str(GAMES))
    monkeypatch.setenv("MOBSIM_NOTEBOOK_WORKERS", "1")
    monkeypatch.setenv("MOBSIM_NOTEBOOK_RUNS", str(tmp_path / "runs"))
    monkeypatch.setenv("MPLBACKEND", "Agg")
    notebook = nbformat.read(path, as_version=4)
    client = NotebookClient(notebook, timeout=CELL_TIMEOUT, kernel_name="python3",
                            resources={"metadata": {"path": str(path.parent)}})
    client.execute()
    images = [o for c in notebook.cells if c.cell_type == "code" for o in c.outputs
              if "image/png" in o.get("data", {})]
    assert images, f"{path.name} drew no figure"
    errors = [o for c in notebook.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    assert not errors
    assert (tmp_path / "runs").is_dir(), f"{path.name} should write its runs under MOBSIM_NOTEBOOK_RUNS"
