"""Golden New York Kings tables: a hash of the integer tables (games, seats, fortunes by turn)
that `play_many` fills for a few lineups, tables and seeds, kept in `tests/golden/nyk_tables.json`.

A change to the engine's speed must play the same games table for table: tests/nyk/test_table_hashes.py
plays these cases again and compares. `make golden` writes the file again (after a deliberate
change to the games the engine or the players play).

    python tests/golden/nyk_tables.py          # write the file
"""

import hashlib
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
PATH = HERE / "nyk_tables.json"
DEMO = ("runner", "enforcer", "networker", "meta:equilibrium")  # sim.cli.demo's lineup
# (name, strategies, players, seed, games, first game id): few games each, so the check stays cheap
CASES = (
    ("simple-4", ("simple",), 4, 3, 300, 0),
    ("simple-2", ("simple",), 2, 11, 300, 500),
    ("simple-5", ("simple",), 5, 7, 200, 0),
    ("tuned-3", ("tuned",), 3, 5, 200, 40),
    ("distilled-4", ("distilled",), 4, 2, 200, 0),
    ("equilibrium-4", ("meta:equilibrium",), 4, 9, 200, 0),
    ("demo-4", DEMO, 4, 1, 300, 0),
    ("demo-4-seed8", DEMO, 4, 8, 200, 1000),
    ("mixed-5", ("simple", "tuned", "distilled", "meta:equilibrium", "runner"), 5, 4, 200, 0),
    ("mixed-2", ("distilled", "enforcer"), 2, 6, 300, 0),
)


def tables_hash(strategies: tuple, players: int, seed: int, games: int, first_id: int) -> str:
    """sha256 of the games, seats and turns tables of games first_id .. of run `seed`."""
    from sim.nyk.game import Lineup, play_many
    from sim.rules import Ruleset

    lineup = Lineup.of(list(strategies), players)
    tables = play_many(seed, games, players, lineup, Ruleset.load(game="nyk"), first_id=first_id,
                       record_turns=True)
    digest = hashlib.sha256()
    for table in tables:
        digest.update(str(table.shape).encode())
        digest.update(table.astype("<i8").tobytes())
    return digest.hexdigest()


def hashes() -> dict:
    return {name: tables_hash(*case) for name, *case in CASES}


def main() -> int:
    sys.path.insert(0, str(HERE.parents[1]))
    PATH.write_text(json.dumps(hashes(), indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
