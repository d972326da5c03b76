"""Pig's policy tables: the optimal player's table made, written with its checksum, read back.

    make_optimal(ruleset, folder, name="optimal")  -> (preset path, table path): the table of the
        policy that maximises the chance of winning (sim.pig.exact, two players) and the preset
        that holds it (`mobsim strategies table --game pig`)
    read(path, ruleset)                            -> the hold table (uint8, goal x goal x goal)
        for the ruleset: an optimal table made for other rules is made again for these (once per
        process, about 2 s at goal 100), any other table is refused in one line

A table file is an .npz of `hold` (1 where the policy holds), `goal`, `faces` and `kind`
("optimal" when sim.pig.exact made it and can make it again for any rules).
"""

import datetime
import time
from pathlib import Path

import numpy as np

from sim.pig import exact


OPTIMAL = "optimal"


def write_table(path: Path, hold: np.ndarray, goal: int, faces: int, kind: str = OPTIMAL) -> None:
    with open(path, "wb") as out:   # a file object: np.savez_compressed adds no suffix to it
        np.savez_compressed(out, hold=hold.astype(np.uint8), goal=np.int64(goal), faces=np.int64(faces),
                            kind=np.str_(kind))


def optimal_for(goal: int, faces: int) -> np.ndarray:
    """The optimal hold table of other rules than the shipped table's (made once per process)."""
    return exact.optimal(goal, faces)[1]


def read(path, ruleset) -> np.ndarray:
    """The hold table of `path` for the ruleset's goal and die (ValueError when it cannot be)."""
    with np.load(path) as data:
        hold, goal, faces, kind = data["hold"], int(data["goal"]), int(data["faces"]), str(data["kind"])
    if (goal, faces) != (ruleset["goal"], ruleset["die.faces"]) and kind == OPTIMAL:
        return optimal_for(int(ruleset["goal"]), int(ruleset["die.faces"]))
    if (goal, faces) != (ruleset["goal"], ruleset["die.faces"]) or hold.shape != (goal,) * 3:
        raise ValueError(f"the policy table {Path(path).name} is for goal {goal} and a {faces}-faced die; the "
                         f"ruleset has goal {ruleset['goal']} and {ruleset['die.faces']} faces: make one with "
                         f"`mobsim strategies table --game pig --set goal={ruleset['goal']} --out DIR`")
    return hold


def preset_text(name: str, table: Path, sha: str, value: float, goal: int, faces: int, seconds: float) -> str:
    return "\n".join([
        f"# Pig strategy preset (family table): {name}, written by `mobsim strategies table --game pig`.",
        'family = "table"',
        f'doc = "Holds where holding maximises the chance of winning (Neller & Presser 2004; goal {goal}, '
        f'{faces}-faced die, two players; at more seats it reads the best other score as the opponent)."',
        "",
        "[table]",
        f'file = "{table.name}"',
        f'sha256 = "{sha}"',
        "",
        "[provenance]",
        'made_by = "sim.pig.tables.make_optimal: value iteration of sim.pig.exact (maximise the win chance)"',
        f"goal = {goal}",
        f"faces = {faces}",
        f"first_player_wins = {value:.12f}",
        f"seconds = {seconds:.1f}",
        f'made_on = "{datetime.date.today().isoformat()}"',
        "",
    ])


def make_optimal(ruleset, folder, name: str = "optimal") -> tuple[Path, Path]:
    """Compute the optimal table for the ruleset's goal and die; write it and its preset."""
    from strategies import file_sha256

    goal, faces = int(ruleset["goal"]), int(ruleset["die.faces"])
    began = time.perf_counter()
    value, hold = exact.optimal(goal, faces)
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    table = folder / f"{name}.npz"
    write_table(table, hold, goal, faces)
    preset = folder / f"{name}.toml"
    preset.write_text(preset_text(name, table, file_sha256(table), value, goal, faces,
                                  time.perf_counter() - began))
    return preset, table
