"""How often an American Gangsters game walks a shoot-out and solves a placement game
(docs/speed.md, "American Gangsters at half New York Kings' speed"): games of four `simple`
players on one env, as a batch plays them (sim.shared.play.play_on), then the env's counters:
contests valued and found in the table of contests already walked (memo_n), placement games
asked for and read back (belief_n).

    python docs/examples/ag-speed/counts.py 4000 0
"""

import sys

import numpy as np

from sim.ag import batch, state
from sim.ag.env import N_POLICY_PARAMS, make_env
from sim.ag.game import Lineup, with_tables
from sim.rules import Ruleset
from sim.shared import play


def counts(n_games: int, seed: int) -> dict:
    lineup = Lineup.of(["simple"], 4)
    env = with_tables(make_env(Ruleset.load(game="ag"), np.zeros(state.MAX_SEATS, np.int64),
                               np.zeros((state.MAX_SEATS, N_POLICY_PARAMS))), lineup)
    envs = np.array([env]).view(np.recarray)
    games, _, _ = play.play_on(batch, state, envs, lineup, (lineup.params,), seed, n_games, 4)
    e = envs[0]
    return {"games": n_games, "turns": games[:, batch.G_TURNS].mean(),
            "contests_valued": e.memo_n[0] / n_games, "contests_found": e.memo_n[1] / n_games,
            "walks": (e.memo_n[0] - e.memo_n[1]) / n_games,
            "placement_games_asked": e.belief_n[0] / n_games, "placement_games_read_back": e.belief_n[1] / n_games,
            "placement_games_solved": (e.belief_n[0] - e.belief_n[1]) / n_games}


if __name__ == "__main__":
    try:
        n, seed = int(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 0
        if not (n > 0 and seed >= 0 and len(sys.argv) <= 3):
            raise ValueError
    except (IndexError, ValueError):
        sys.exit("usage: counts.py GAMES [SEED] (a positive number of games; a seed of 0 or more, 0 if left out)")
    for key, value in counts(n, seed).items():
        print(f"{key}: {value:.2f}" if isinstance(value, float) else f"{key}: {value}")
