"""The rooms of mobsim and the one direction of imports, as data (docs/architecture.md).

`ROOMS` lists the rooms from the bottom up, each with the module prefixes it holds. A module may
import modules of its own room and of the rooms below it, never of a room above; within a room
no two modules import each other in a circle. Each game's modules (`GAMES`) never import another
game's. tests/test_imports.py walks every import of `sim` and `strategies` (the source, not run)
and holds the code to this.
"""

ROOMS = (
    ("kernel", ("sim.rooms", "sim._cache", "sim.rng", "sim.hands", "sim.dice", "sim.odds", "sim.fights",
                "sim.seating", "sim.provenance")),
    ("rules", ("sim.rules",)),
    ("shared", ("sim.shared",)),                            # what every game shares: adapter, columns
    ("games", ("sim.nyk", "sim.ag", "strategies", "sim.search")),  # a game's model, engine, players, search
    ("runner", ("sim.runner",)),
    ("replay", ("sim.replay",)),
    ("analysis", ("sim.analysis",)),
    ("league", ("sim.league",)),
    ("meta", ("sim.meta",)),
    ("tuning", ("sim.tuning",)),
    ("bench", ("sim.bench",)),
    ("cli", ("sim.cli",)),
)

# a game's own modules: they never import another game's
GAMES = {
    "nyk": ("sim.nyk", "strategies.nyk", "sim.rules.nyk"),
    "ag": ("sim.ag", "strategies.ag", "sim.rules.ag"),
}

# the imports allowed against the direction, each with its reason
EXCEPTIONS = {
    # the package's doorway: `sim.run`, `sim.load`, `sim.sweep` imported on first use
    ("sim", "sim.runner"): "sim.run and sim.load, imported on first use",
    ("sim", "sim.tuning.sweeps"): "sim.sweep, imported on first use",
    # a maintainer's tool beside the replay: the README's pictures of replays and reports
    ("sim.replay.browser", "sim.analysis.run_report"): "the README pictures (browser._shots)",
}


def room_of(module: str) -> str | None:
    """The room of a dotted module name (`sim` itself, the package, is no room's)."""
    for name, prefixes in ROOMS:
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return name
    return None


def game_of(module: str) -> str | None:
    for name, prefixes in GAMES.items():
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return name
    return None
