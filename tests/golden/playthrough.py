"""Golden playthroughs: one narrated game of every game, kept in `tests/golden/<game>.txt`.

A rule change shows as a readable diff of these files, and a refactor that leaves them unchanged
is shown to play the same games. `make golden` writes them again (after a deliberate change to
the games the engine plays: read the diff before committing it); tests/test_golden.py compares.

    python tests/golden/playthrough.py          # write every game's file
"""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SEED, GAME_ID = 1, 2


def playthrough(name: str) -> str:
    """Game GAME_ID of run SEED at the game's usual table (`Game.players`), seated from its
    showcase lineup, told by its narration."""
    from sim.shared.game import find

    game = find(name)
    players, lineup = game.players, list(game.showcase[: game.players])
    played = game.part("game").play_one(SEED, players, lineup, game_id=GAME_ID)
    header = [f"# {game.title}: game {GAME_ID} of seed {SEED}, {players} players "
              f"({', '.join(lineup)}), default rules",
              "# written by `make golden` (tests/golden/playthrough.py); compared by tests/test_golden.py", ""]
    return "\n".join(header + list(game.part("narrate").story(played))) + "\n"


def path(name: str) -> Path:
    return HERE / f"{name}.txt"


def main() -> int:
    sys.path.insert(0, str(HERE.parents[1]))
    from sim.shared.game import names

    for name in names():
        path(name).write_text(playthrough(name), encoding="utf-8")
        print(f"wrote {path(name)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
