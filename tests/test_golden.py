"""Every game's golden playthrough (tests/golden/<game>.txt) is the game the engine plays now:
a change to the rules shows as a readable diff, a refactor that keeps the files plays the same
games (`make golden` writes them again after a deliberate change)."""

import difflib
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "golden"))

from playthrough import path, playthrough  # noqa: E402

from sim.shared.game import names  # noqa: E402


@pytest.mark.parametrize("name", names())
def test_the_golden_playthrough_is_the_game_played_now(name):
    now, kept = playthrough(name), path(name).read_text(encoding="utf-8")
    diff = "".join(difflib.unified_diff(kept.splitlines(True), now.splitlines(True), str(path(name)), "now", n=1))
    assert now == kept, (f"the engine plays another game than tests/golden/{name}.txt: if the change is "
                         f"meant, run `make golden` and commit the diff\n{diff[:4000]}")
