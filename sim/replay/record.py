"""One game recorded step by step: the engine's event log, plus the state after every event.

The jitted engine keeps no history: it changes one game record in place. With the JIT disabled
the very same engine runs as plain Python (tests/nyk/test_nojit.py holds the two to identical
games), and then the module's `log` and dice functions can be wrapped: every time an event is
logged, the state the page draws is copied (the engine logs an event once it has done it), and every
die rolled (NYK: 9..A; AG: faces 1..6 and bullet cards) is kept with the event that reports it.
Nothing of this touches the batch engine: `record_game` runs it in a child process with
NUMBA_DISABLE_JIT=1.
"""

import json
import os
import pickle
import subprocess
import sys
from dataclasses import dataclass

from sim.shared.game import RESTRICTIONS, find


class ReplayError(ValueError):
    """A game that cannot be replayed as asked (one line, says what to change)."""


@dataclass(frozen=True)
class GameSpec:
    """Which game to replay: the run's seed and game id, its players, strategies and seating."""

    game: str              # a game's name (sim.shared.game)
    seed: int
    game_id: int
    players: int
    strategies: tuple[str, ...]
    seating: bool | str = True   # True, False or a seating mode of sim.seating (the run's `seating`)


def record_game(spec: GameSpec, ruleset, timeout: float = 900) -> dict:
    """Play `spec` under `ruleset` in a child process with the JIT disabled; return the record:
    {"events": rows, "snapshots": [dict per event + final], "dice": [list per event], "result"}."""
    from sim.shared.frozen import freeze_ruleset

    payload = pickle.dumps((spec, freeze_ruleset(ruleset)))
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONWARNINGS="ignore")
    done = subprocess.run([sys.executable, "-m", "sim.replay.record"], input=payload, env=env,
                          capture_output=True, timeout=timeout)
    if done.returncode != 0:
        tail = done.stderr.decode(errors="replace").strip().splitlines()[-1:] or ["no output"]
        raise ReplayError(f"replaying game {spec.game_id} failed: {tail[0]}")
    return json.loads(done.stdout.decode().strip().splitlines()[-1])


# --- in the child process (NUMBA_DISABLE_JIT=1) ----------------------------------------------------

def _lineup_and_seating(spec: GameSpec):
    entry = find(spec.game).part("game")   # the game's entry points
    lineup = entry.Lineup.of(spec.strategies, spec.players, rotate=spec.seating)
    rows = lineup.seatings_for(spec.seed, spec.game_id, 1)  # a mixture seat's style drawn as in the run
    return lineup, rows[spec.game_id % len(rows)]


def _env(spec: GameSpec, ruleset, lineup, seating):
    """The engine's fixed record for this seating, built as `play_one` builds it."""
    game = find(spec.game)
    kinds, params, restrict = lineup.seated(seating, game.part("state").MAX_SEATS)
    env = game.part("env").make_env(ruleset, kinds, params, *([restrict] if game.has(RESTRICTIONS) else []))
    with_tables = getattr(game.part("game"), "with_tables", None)   # a game whose env holds presets' data files
    return env if with_tables is None else with_tables(env, lineup)


def _modules(engine):
    """The loaded modules of the engine's game (the engine and its chapters)."""
    package = engine.__name__.rsplit(".", 1)[0] + "."
    return [m for name, m in list(sys.modules.items()) if name.startswith(package) and m is not None]


def _tool(engine, name: str):
    """The engine's function `name` (`log`, a die) where its chapter defines it."""
    for module in _modules(engine):
        fn = getattr(module, name, None)
        if fn is not None and getattr(fn, "__module__", None) == module.__name__:
            return fn
    raise ReplayError(f"the engine has no function {name!r} to record")


def _wrap(engine, name: str, wrapper) -> None:
    """Put `wrapper` in place of the engine's function `name` in every module of the game that
    calls it (each chapter imports what it calls by name, so each holds its own reference)."""
    original = _tool(engine, name)
    for module in _modules(engine):
        if getattr(module, name, None) is original:
            setattr(module, name, wrapper)


def capture(spec: GameSpec, ruleset) -> dict:
    """Play the game with the engine's `log` and dice wrapped (plain Python only)."""
    from sim import rng

    game_of = find(spec.game)
    engine, state, kind = game_of.part("engine"), game_of.part("state"), game_of.plugin("replay")
    snapshot, dice_fns = kind.snapshot, kind.DICE
    from numba import config

    if not config.DISABLE_JIT:
        raise ReplayError("the recorder needs NUMBA_DISABLE_JIT=1 (use record_game)")
    lineup, seating = _lineup_and_seating(spec)
    env = _env(spec, ruleset, lineup, seating)
    game = state.new_game()
    snaps, dice, pending = [], [], []
    limit = game.events.shape[0]
    original_log = _tool(engine, "log")

    def log(*args):  # each engine's own arguments (its game, or the game's scalars and events)
        g = game.g
        if g[state.RECORD] and g[state.N_EVENTS] < limit:
            snaps.append(snapshot(game, env))   # the engine logs an event once it is done
            dice.append(list(pending))
            pending.clear()
        original_log(*args)

    def keeping(fn, shown):
        def rolled(*args):
            value = fn(*args)
            pending.append(shown(int(value)))
            return value
        return rolled

    _wrap(engine, "log", log)
    for name, shown in dice_fns.items():
        _wrap(engine, name, keeping(_tool(engine, name), shown))
    play = getattr(kind, "play", None)   # a game whose engine takes more than the face's arguments
    if play is None:
        engine.play(game, env, spec.players, rng.run_key(spec.seed), spec.game_id, 1, 0)
    else:
        play(engine, game, env, spec, ruleset, lineup, seating)
    n = int(game.g[state.N_EVENTS])
    if lineup.owner is not None:  # a seat's name is its lineup slot, whatever a mixture drew
        seating = lineup.owner[seating]
    if n:
        snaps[-1] = snapshot(game, env)     # the last step shows the game as it ends
    return {"events": game.events[:n].tolist(), "snapshots": snaps, "dice": dice,
            "seating": [int(s) for s in seating], "names": list(lineup.names),
            "winner": int(game.g[state.WINNER]), "turns": int(game.g[state.TURNS_PLAYED])}


def _main():
    from sim.rules import Ruleset
    from sim.shared.frozen import thaw_ruleset

    spec, frozen = pickle.loads(sys.stdin.buffer.read())
    out = capture(spec, thaw_ruleset(Ruleset, frozen))
    sys.stdout.write(json.dumps(out, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    _main()
