"""A named output file is written there and nowhere beside it, whole, never over a device node
(a fifo stands in for one: reading it blocks, replacing it would replace the node) and never
over a shipped file; an existing file only with --force."""

import os
from pathlib import Path

import pytest

from tests.test_cli_fuzz import MOBSIM, one_line
from tests.test_exit_statuses import one_line_status


def refused(*args) -> str:
    """In this process (no interpreter to start): exit 2 in one line, its message."""
    code, err = one_line_status(args)
    assert code == 2, err
    return err

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def fifo(tmp_path):
    def make(name):
        path = tmp_path / name
        os.mkfifo(path)
        return path
    return make


def listing(folder: Path) -> set[str]:
    return {p.name for p in folder.iterdir()}


def test_strategies_leaf_never_writes_the_shipped_model_nor_a_device(tmp_path, fifo):
    shipped = ROOT / "strategies" / "nyk" / "leaf.toml"
    before = shipped.read_bytes()
    assert "Missing option '--out'" in refused("strategies", "leaf", "--games", 100)
    assert "shipped with mobsim" in refused("strategies", "leaf", "--out", shipped, "--force")
    node = fifo("leaf.toml")
    assert "not a regular file" in refused("strategies", "leaf", "--out", node, "--force")
    mine = tmp_path / "mine.toml"
    mine.write_text("kept\n")
    assert "add --force" in refused("strategies", "leaf", "--out", mine)
    assert shipped.read_bytes() == before and mine.read_text() == "kept\n"
    assert listing(tmp_path) == {"leaf.toml", "mine.toml"}


def test_docs_cli_neither_reads_nor_replaces_a_device(tmp_path, fifo):
    node = fifo("cli.md")   # a read would block (on /dev/full it grew without end)
    for args in ([], ["--check"]):
        assert "not a regular file" in one_line("docs", "cli", "--out", node, *args)
    assert "path is empty" in one_line("docs", "cli", "--out", "")
    assert listing(tmp_path) == {"cli.md"}


def test_board_writes_the_named_picture_or_nothing(tmp_path, fifo, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert "does not end in .png" in refused("board", "--out", "x.txt")
    assert "does not end in .png" in refused("board", "--out", "full")
    assert "path is empty" in refused("board", "--out", "")
    assert "not a regular file" in refused("board", "--out", fifo("node.png"))
    assert listing(tmp_path) == {"node.png"}


def test_odds_save_table_writes_the_named_file_or_nothing(tmp_path, fifo):
    args = ["odds", "provocation", "--provoker", "A", "--provoked", "A", "--save-table"]
    assert "does not end in .npz" in refused(*args, tmp_path / "full")
    assert "not a regular file" in refused(*args, fifo("t.npz"))
    assert listing(tmp_path) == {"t.npz"}


def test_a_write_that_fails_leaves_the_old_file_whole(tmp_path):
    from sim.cli.files import WriteFailed, write_whole

    path = tmp_path / "model.toml"
    path.write_text("old\n")

    def fails(tmp):
        tmp.write_text("half")
        raise OSError(28, "No space left on device")

    with pytest.raises(WriteFailed) as failed:
        write_whole(path, fails)
    assert failed.value.exit_code == 1 and path.read_text() == "old\n" and listing(tmp_path) == {"model.toml"}
    assert MOBSIM.exists()
