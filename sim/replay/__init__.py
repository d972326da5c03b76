"""Replays: one game as a self-contained page a designer can step through (`mobsim play --html`,
`mobsim replay RUN GAME_ID --html`).

    spec = GameSpec("nyk", seed=7, game_id=0, players=4, strategies=("runner", "tuned"))
    write_replay(spec, ruleset, "replay.html")     # -> Path; also checked against the jitted game
    spec_of_run(run_dir, game_id)                  # -> (GameSpec, Ruleset) from the run's manifest
"""

from pathlib import Path

from sim.replay.record import GameSpec, ReplayError, record_game
from sim.shared.game import find

__all__ = ["GameSpec", "ReplayError", "example_spec", "record_game", "replay_data", "write_replay", "spec_of_run"]


def example_spec(game: str) -> GameSpec:
    """The game's example game as a GameSpec (sim.shared.game.Game.example_game)."""
    return GameSpec(game, *find(game).example_game())


def _plugin(game: str):
    """The game's replay pieces (`sim/replay/<game>.py`): PANEL_TITLE, DICE, snapshot, board,
    constants, seat_labels, tell."""
    return find(game).plugin("replay")


def _steps(game: str, record: dict, ruleset, labels) -> tuple[list, list]:
    """Each event's turn and narration line, and the side panel's entries with their dice."""
    steps, panel = [], []
    told = _plugin(game).tell(record["events"], ruleset, labels)
    for i, (row, (text, entry)) in enumerate(zip(record["events"], told, strict=True)):
        steps.append({"turn": row[0], "code": row[1], "text": text})
        if entry is not None:
            entry.update(step=i, dice=record["dice"][i])
            panel.append(entry)
    return steps, panel


def replay_data(spec: GameSpec, ruleset, record: dict) -> dict:
    """Everything the page needs, JSON-able: the board, the steps, the states (as deltas)."""
    from sim.replay.page import deltas

    kind = _plugin(spec.game)
    labels = kind.seat_labels(record["names"], record["seating"])
    steps, panel = _steps(spec.game, record, ruleset, labels)
    return {"game": spec.game, "seed": spec.seed, "game_id": spec.game_id, "seats": labels,
            "winner": record["winner"], "turns": record["turns"],
            "ruleset_fingerprint": ruleset.fingerprint, "board": kind.board(ruleset),
            "const": kind.constants(), "steps": steps, "panel": panel,
            "deltas": deltas(record["snapshots"])}


def render_page(data: dict) -> str:
    from sim.replay.page import page

    winner = data["seats"][data["winner"]] if 0 <= data["winner"] < len(data["seats"]) else "nobody"
    subtitle = (f"seed {data['seed']}, game {data['game_id']}: {', '.join(data['seats'])}; "
                f"{data['turns']} turns, {winner} wins; ruleset {data['ruleset_fingerprint'][:12]}")
    return page(f"{find(data['game']).title} replay: game {data['game_id']} of seed {data['seed']}", subtitle,
                _plugin(data["game"]).PANEL_TITLE, data, data["game"])


def write_replay(spec: GameSpec, ruleset, path, expect: dict | None = None) -> Path:
    """Record `spec` and write its page to `path`. `expect`: {"winner": seat, "turns": n} of the
    same game played by the batch engine; a difference is an error, never a wrong page."""
    record = record_game(spec, ruleset)
    if expect is not None:
        for key, value in expect.items():
            if record[key] != value:
                raise ReplayError(f"the replayed game {spec.game_id} differs from the run "
                                  f"({key} {record[key]} against {value}): is the ruleset or a "
                                  f"strategy file changed since the run?")
    path = Path(path)
    if path.parent and not path.parent.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_page(replay_data(spec, ruleset, record)), encoding="utf-8")
    return path


def spec_of_run(run_dir, game_id: int):
    """The GameSpec and Ruleset of game `game_id` of a run, from its manifest."""
    from sim.rules import Ruleset
    from sim.runner.store import RunError, read_manifest

    root = Path(run_dir)
    manifest_path = root / "manifest.json"
    if not manifest_path.is_file():
        raise ReplayError(f"{root} is not a mobsim run (no manifest.json): give a run directory "
                          f"written by `mobsim run --out`")
    try:
        m = read_manifest(root)
        int(m["games"]), m["ruleset"]["fingerprint"], m["strategies"]["names"]
    except RunError as err:
        raise ReplayError(str(err)) from None
    except (KeyError, TypeError, ValueError):
        raise ReplayError(f"{manifest_path} is corrupt (fields missing): play the run again") from None
    if not 0 <= game_id < int(m["games"]):
        raise ReplayError(f"game {game_id} is not in {root}: it has games 0 to {int(m['games']) - 1}")
    rs = Ruleset.load(None, m["ruleset"].get("defaults_changed") or {}, game=m["game"])
    if rs.fingerprint != m["ruleset"]["fingerprint"]:
        raise ReplayError(f"the run's ruleset ({m['ruleset']['fingerprint'][:12]}) uses content files "
                          f"that are not the shipped ones; replay it from Python with that Ruleset")
    spec = GameSpec(m["game"], int(m["seed"]), int(game_id), int(m["players"]),
                    tuple(m["strategies"]["names"]), m.get("seating", bool(m.get("rotate", True))))
    return spec, rs
