"""The rooms of mobsim and the one direction of imports, as data (docs/architecture.md).

`ROOMS` lists the rooms from the bottom up, each with the module prefixes it holds. A module may
import modules of its own room and of the rooms below it, never of a room above; within a room
no two modules import each other in a circle. Each game's modules (`GAMES`) never import another
game's. tests/test_imports.py walks every import of `sim` and `strategies` (the source, not run)
and holds the code to this.

The games are found, not listed: a game is a package `sim/<name>/` with an `adapter.py` and its
rules in `sim/rules/<name>/rules.toml` (`game_names`); the runner's registry, the commands'
`--game` choices and the numba cache's rooms read the same list, so a new game is added by adding
its files.
"""

from pathlib import Path

_SIM = Path(__file__).resolve().parent
DEFAULT_GAME = "nyk"   # the game of a command given no --game


def game_names() -> tuple[str, ...]:
    """Every game's name, the default first."""
    found = sorted(p.parent.name for p in _SIM.glob("*/adapter.py")
                   if (_SIM / "rules" / p.parent.name / "rules.toml").is_file())  # a game has rules
    return tuple(sorted(found, key=lambda name: name != DEFAULT_GAME))


ROOMS = (
    ("kernel", ("sim.rooms", "sim._imports", "sim._cache", "sim.rng", "sim.nyk.hands", "sim.nyk.dice", "sim.nyk.odds",
                "sim.nyk.fights", "sim.seating", "sim.provenance")),
    ("rules", ("sim.rules",)),
    ("shared", ("sim.shared",)),                            # what every game shares: adapter, columns
    ("games", (*(f"sim.{g}" for g in game_names()), "strategies", "sim.search")),  # engines, players, search
    ("runner", ("sim.runner",)),
    ("replay", ("sim.replay",)),
    ("analysis", ("sim.analysis",)),
    ("league", ("sim.league",)),
    ("meta", ("sim.meta",)),
    ("refit", ("sim.league.refit",)),                       # the players fitted again: tunes, the meta-game re-solved
    ("tuning", ("sim.tuning",)),
    ("bench", ("sim.bench",)),
    ("verdict", ("sim.verdict",)),                          # the game across skill levels
    ("cli", ("sim.cli",)),
)

# a game's own modules: they never import another game's
GAMES = {g: (f"sim.{g}", f"strategies.{g}", f"sim.rules.{g}") for g in game_names()}

# the imports allowed against the direction, each with its reason
EXCEPTIONS = {
    # the package's doorway: `sim.run`, `sim.load`, `sim.sweep` imported on first use
    ("sim", "sim.runner"): "sim.run and sim.load, imported on first use",
    ("sim", "sim.tuning.sweeps"): "sim.sweep, imported on first use",
    # a maintainer's tool beside the replay: the pictures of replays and reports (docs/play-and-replay.md)
    ("sim.replay.browser", "sim.analysis.run_report"): "the pictures of docs/play-and-replay.md (browser._shots)",
    # a maintainer's tool in a game's room: its workers die with it, as every pool's (one kind of pool)
    ("sim.nyk.checkrun", "sim.runner.pool"): "the runner's pool tied to its parent",
}


def room_of(module: str) -> str | None:
    """The room of a dotted module name (`sim` itself, the package, is no room's): the room of its
    longest matching prefix (sim.league.refit sits above sim.league: it solves meta-games)."""
    best, length = None, -1
    for name, prefixes in ROOMS:
        for p in prefixes:
            if (module == p or module.startswith(p + ".")) and len(p) > length:
                best, length = name, len(p)
    return best


def game_of(module: str) -> str | None:
    for name, prefixes in GAMES.items():
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return name
    return None
