"""A searching player's knobs as the jitted search drivers read them (sim.search.<game>).

One row per strategy of a lineup (`knob_rows`): whether it searches, then the knobs of its
`[search]` table (strategies.SEARCH_KNOBS), the decision kinds it searches as a bit mask over the
game's decision kinds (`sim.<game>.decisions.DECISIONS`), and the switches as numbers. Every game's
search reads the same layout.
"""

import numpy as np

N_SEARCH_KNOBS = 10
(SK_ON, SK_ITERATIONS, SK_EXPLORATION, SK_KINDS, SK_ACTUAL, SK_RANK, SK_ROOT, SK_GUARD,
 SK_HORIZON, SK_VERIFY) = range(N_SEARCH_KNOBS)
ROOT_HALVING = 1  # SK_ROOT: 0 the IS-MCTS tree (UCT), 1 Sequential Halving at the root


def knob_rows(pool, decisions) -> np.ndarray:
    """One row per strategy of `pool` (strategies.Strategy): zeros for a player that does not search."""
    rows = np.zeros((len(pool), N_SEARCH_KNOBS), dtype=np.float64)
    for i, s in enumerate(pool):
        k = s.search
        if k:
            rows[i] = (1, k["iterations"], k["exploration"], sum(1 << decisions.index(name) for name in k["kinds"]),
                       k["opponents"] == "actual", k["reward"] == "rank", k["root"] == "halving", k["guard"],
                       k["horizon"], k["verify"])
    return rows
