"""The verdict rules judged by their own Monte Carlo: rungs with a known truth, each cell's count
drawn binomially at an earlier verdict's game counts (docs/findings.md: 7,203 games a heuristic rung, 165 for the search
mirror) and given its Wilson interval, read by `classify` many times; the share of each reading.
The cells' Wilson intervals are not the normal model the rules assume (truth and estimator differ).

    python -m sim.verdict.selfcheck [REPS] [SEED]     # the rates quoted in docs/reports.md
"""

from __future__ import annotations

import sys

import numpy as np

from sim.analysis.stats import wilson
from sim.verdict.rules import CHANGES, HOLDS, classify

LADDER = ("random", "simple", "balanced", "tuned", "meta:equilibrium", "distilled", "search-leaf-all")
HEURISTIC_GAMES, SEARCH_GAMES = 7_203, 165


def _games(search_judged: bool) -> np.ndarray:
    games = np.full(len(LADDER), HEURISTIC_GAMES)
    if not search_judged:
        games[-1] = SEARCH_GAMES
    return games


def _offsets(case: str, rng) -> np.ndarray:
    """Each rung's true value minus the base, by case."""
    k = len(LADDER)
    if case == "unjudged top":          # heuristic rungs -3 points, the search rung +5
        return np.r_[np.full(k - 1, -0.03), 0.05]
    if case == "constant":              # a seat advantage of +3 points at every rung
        return np.full(k, 0.03)
    if case == "monotone trend":        # a share rising 0.6 points a rung, 3.6 in all
        return 0.006 * np.arange(k)
    if case == "style scatter":         # each rung off by its style, uniform in +-4 points, no trend
        return rng.uniform(-0.04, 0.04, k)
    raise ValueError(case)


CASES = {  # case -> (measure read, base share, search rung judged?)
    "unjudged top": ("seat 4 advantage", 0.25, False),
    "constant": ("seat 4 advantage", 0.25, False),
    "monotone trend": ("a player out", 0.30, True),
    "style scatter": ("a player out", 0.30, False),
}


def replicate(case: str, rng) -> dict:
    """One reading of a case: cells drawn at their counts, Wilson intervals, `classify`."""
    measure, base, judged = CASES[case]
    games = _games(judged)
    truth = base + _offsets(case, rng)
    k = rng.binomial(games, truth)
    lo, hi = wilson(k, games)
    shift = base if "advantage" in measure else 0.0    # an advantage is read as share - fair
    return classify(measure, LADDER, k / games - shift, lo - shift, hi - shift)


def reading_rates(case: str, reps: int, seed: int = 0) -> dict:
    """The share of replications in each reading that the case's test speaks of."""
    rng = np.random.default_rng([seed, list(CASES).index(case)])
    rows = [replicate(case, rng) for _ in range(reps)]
    weakest = [r["read_over"].split(",")[0] if r["read_over"] else None for r in rows]
    return {
        "holds": np.mean([r["verdict"] == HOLDS for r in rows]),
        "holds from the weakest judged rung": np.mean([r["verdict"] == HOLDS and r["from_rung"] == w
                                                       for r, w in zip(rows, weakest, strict=True)]),
        "at every skill": np.mean(["at every skill" in r["text"] for r in rows]),
        "changes with skill": np.mean([r["verdict"] == CHANGES for r in rows]),
    }


def main(argv) -> None:
    reps = int(argv[0]) if argv else 2000
    seed = int(argv[1]) if len(argv) > 1 else 0
    for case in CASES:
        rates = reading_rates(case, reps, seed)
        print(f"{case:<16} " + "  ".join(f"{k}: {v:.1%}" for k, v in rates.items()))


if __name__ == "__main__":
    main(sys.argv[1:])
