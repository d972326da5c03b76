"""The control of docs/architecture.md's distillation: knob vectors drawn at the distillation's
first spread around `tuned` (normal, 0.15 of each knob's range, numpy's generator seeded 1), with
no expert to pull them anywhere. Writes control-1.toml .. control-N.toml into a folder; each is
then set against `tuned` two against two:

    python docs/examples/distill-control/draw.py runs/control 4
    mobsim strategies ladder --rungs runs/control/control-1.toml,tuned --games 4000 --seed 2 --workers 2
"""

import sys
from pathlib import Path

import numpy as np

from sim.league.games import knobs
from sim.league.tune import cem_sample

SPREAD, SEED = 0.15, 1   # sim.league.distill.distill's first spread; the draws' seed


def draw(folder: Path, n: int) -> list[Path]:
    box = knobs("nyk")
    mean = box.to_unit(box.params_of("tuned"))
    units = cem_sample(mean, np.full(len(mean), SPREAD), n + 1, np.random.default_rng(SEED))[1:]
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for i, unit in enumerate(units, 1):
        params = dict(zip(box.names, box.to_knobs(unit), strict=True))
        doc = f"tuned's knobs moved at random (spread {SPREAD}, seed {SEED}, draw {i}): a control, no expert."
        path = folder / f"control-{i}.toml"
        path.write_text(box.preset_toml(f"control-{i}", params, doc, {"spread": SPREAD, "seed": SEED, "draw": i}))
        paths.append(path)
    return paths


if __name__ == "__main__":
    try:
        folder, n = Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 4
        if not (n > 0 and len(sys.argv) <= 3):
            raise ValueError
    except (IndexError, ValueError):
        sys.exit("usage: draw.py FOLDER [N] (the folder for control-1.toml .. control-N.toml; N > 0, 4 if left out)")
    for written in draw(folder, n):
        print(written)
