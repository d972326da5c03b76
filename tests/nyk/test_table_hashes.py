"""The New York Kings engine plays the same games table for table: the integer tables of a few
lineups (2 to 5 players, `simple`, `tuned`, `distilled`, `meta:equilibrium`, the demo lineup,
several seeds) hash as kept in tests/golden/nyk_tables.json (`make golden` writes it again after
a deliberate change to the games)."""

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "golden"))

from nyk_tables import CASES, PATH, tables_hash  # noqa: E402

KEPT = json.loads(PATH.read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", CASES, ids=[case[0] for case in CASES])
def test_the_tables_are_the_games_kept(case):
    name, *args = case
    assert tables_hash(*args) == KEPT[name], (
        f"{name}: the engine plays other games than tests/golden/nyk_tables.json keeps; if the change "
        "is meant, run `make golden` and commit the file")
