"""Does the learned player's policy class hold a player stronger than `distilled`?
(.venv/bin/python docs/examples/learned-search/policy_search.py search step,move,action;
 .venv/bin/python docs/examples/learned-search/policy_search.py scale 1,2,4,8)

Expert iteration asks the search which option to take; this asks the games directly. For each
decision kind named, the cross-entropy method (Rubinstein 1999; the knob search of `mobsim tune`
uses it too) searches that kind's row of the learned player's weights (every feature but `base`,
which stays 1, so a zero row plays `distilled` exactly) for the most wins two against two
`distilled`, its seats rotated: 16 candidates a generation, the 4 best kept, 12 generations of
4,000 games (the same game ids for every candidate of a generation, new ids each generation).
The last mean is then played on 16,000 fresh game ids and read as `mobsim strategies ladder` reads
a pair: the difference of the two sides' wins a seat, with its 95% interval.

`scale`: the shipped `learned` weights with their departure from the heuristic (every weight
but `base` 1) multiplied by a, on its own knobs, two against two `distilled` on 16,000 game ids:
whether the fit points the right way and only lacks the strength to outweigh `base`."""
import dataclasses
import sys
import tempfile
from pathlib import Path

import numpy as np

from sim.league.games import knobs
from sim.league.ladder import pair_row
from sim.league.match import Pool, play_lineups, ruleset_key
from sim.nyk.decisions import DECISIONS
from strategies.nyk.learned import F_BASE, N_FEATURES, read_weights, write_weights

POPULATION, ELITE, GENERATIONS, GAMES, FINAL, SPREAD, FLOOR = 16, 4, 12, 4000, 16_000, 0.25, 0.05


def learned_with(weights, folder: Path, k: int):
    """`distilled`'s knobs played by the learned family with these weights (a file of its own)."""
    box = knobs("nyk")
    path = folder / f"candidate-{k}.npz"
    write_weights(path, weights)
    return dataclasses.replace(box.load("learned"), name=f"candidate-{k}", params=box.resolve("distilled").params,
                               table={"file": str(path), "sha256": ""})


def edges(pool, candidates, games: int, first_id: int) -> list[tuple[float, float, float]]:
    """Each candidate's edge a seat over `distilled`, two against two, with its 95% interval, read
    as the ladder reads a pair (the candidate in the lower rung's slots: the edge is minus the
    ladder's difference)."""
    distilled = knobs("nyk").resolve("distilled")
    lineups = [[c, c, distilled, distilled] for c in candidates]
    out = []
    for m in play_lineups(pool, lineups, games, seed=0, rules=ruleset_key(), first_id=first_id):
        row = pair_row(m, games, half=2)
        out.append((-row["difference"], -row["high"], -row["low"]))
    return out


def search(pool, kind: int, folder: Path) -> tuple[float, float, float, list[float]]:
    rng = np.random.default_rng(kind)
    free = np.ones(N_FEATURES, bool)
    free[F_BASE] = False
    mean, spread = np.zeros(N_FEATURES), np.where(free, SPREAD, 0.0)
    start = np.zeros((len(DECISIONS), N_FEATURES))
    start[:, F_BASE] = 1.0
    history = []
    for g in range(GENERATIONS):
        rows = mean + spread * rng.standard_normal((POPULATION, N_FEATURES))
        rows[0] = mean
        cands = []
        for k, row in enumerate(rows):
            w = start.copy()
            w[kind] += row
            cands.append(learned_with(w, folder, k))
        scores = np.array([e for e, _, _ in edges(pool, cands, GAMES, first_id=(kind * 100 + g) * GAMES)])
        history.append(float(scores[0]))
        elite = rows[np.argsort(-scores)[:ELITE]]
        mean, spread = elite.mean(axis=0), np.where(free, np.maximum(elite.std(axis=0), FLOOR), 0.0)
    w = start.copy()
    w[kind] += mean
    diff, lo, hi = edges(pool, [learned_with(w, folder, 0)], FINAL, first_id=1 << 30)[0]
    return diff, lo, hi, history


def scaled(pool, factors: list[float], folder: Path) -> None:
    box = knobs("nyk")
    shipped = box.load("learned")
    fitted = read_weights(shipped.table["file"])
    start = np.zeros_like(fitted)
    start[:, F_BASE] = 1.0
    for a in factors:
        path = folder / f"scaled-{a}.npz"
        write_weights(path, start + a * (fitted - start))
        player = dataclasses.replace(shipped, name=f"scaled-{a}", table={"file": str(path), "sha256": ""})
        diff, lo, hi = edges(pool, [player], FINAL, first_id=1 << 30)[0]
        print(f"a = {a:g}: {diff:+.4f} [{lo:+.4f}, {hi:+.4f}]", flush=True)


def main(what: str, args: list[str]) -> None:
    with Pool(2) as pool, tempfile.TemporaryDirectory() as folder:
        if what == "scale":
            return scaled(pool, [float(a) for a in args], Path(folder))
        for name in args:
            diff, lo, hi, history = search(pool, DECISIONS.index(name), Path(folder))
            print(f"{name}: the search's mean a generation {' '.join(f'{h:+.3f}' for h in history)}; "
                  f"on {FINAL:,} fresh games {diff:+.4f} [{lo:+.4f}, {hi:+.4f}]", flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2].split(","))
