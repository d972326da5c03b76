"""The manifest carries a checksum of its own bytes: one flipped bit anywhere in it (a win tally,
the seed, the player count, a strategy name, a key) is caught by every reader, never read as
other numbers."""

import random
import subprocess

import pytest

import sim
from sim.runner import RunError, store
from tests.test_cli_fuzz import MOBSIM, one_line


@pytest.fixture(scope="module")
def a_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("seal") / "run"
    sim.run(players=3, strategies="simple,random,balanced", games=12, seed=5, out=out, workers=1,
            progress=False)
    return out


def flipped(data: bytes, position: int, bit: int) -> bytes:
    return data[:position] + bytes([data[position] ^ (1 << bit)]) + data[position + 1:]


def test_one_flipped_bit_anywhere_in_the_manifest_is_caught(a_run, tmp_path):
    data = (a_run / store.MANIFEST).read_bytes()
    text = data.decode()
    aimed = [text.index('"seed"') + 8, text.index('"players"') + 11, text.index('"tallies"') + 30,
             text.index("random"), text.index(f'"{store.SEAL}"') + 3, len(data) - 40]
    picks = random.Random(0)
    positions = aimed + [picks.randrange(len(data)) for _ in range(300)]
    copy = tmp_path / "run"
    copy.mkdir()
    for position in positions:
        (copy / store.MANIFEST).write_bytes(flipped(data, position, picks.randrange(8)))
        with pytest.raises(RunError, match="corrupt"):
            store.read_manifest(copy)


def test_verify_report_and_resume_refuse_a_changed_manifest(a_run, tmp_path):
    import shutil

    run = tmp_path / "run"
    shutil.copytree(a_run, run)
    data = (run / store.MANIFEST).read_bytes()
    position = data.index(b'"seed": 5') + 8
    (run / store.MANIFEST).write_bytes(flipped(data, position, 1))   # seed 5 -> 7
    assert "checksum" in one_line("verify", run) and "checksum" in one_line("report", run, "--out", tmp_path / "r")
    assert "checksum" in one_line("run", "--players", 3, "--strategies", "simple,random,balanced",
                                  "--games", 12, "--seed", 7, "--workers", 1, "--out", run, "--resume")
    assert "checksum" in one_line("replay", run, 0, "--html", tmp_path / "r.html")
    assert subprocess.run([str(MOBSIM), "verify", str(a_run)], capture_output=True).returncode == 0
