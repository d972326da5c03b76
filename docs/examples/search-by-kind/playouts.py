"""Playouts a game and CPU a playout of a New York Kings search preset, one seat against three
`distilled` (docs/learned.md, "What the target asks of a player at heuristic cost").

    .venv/bin/python docs/examples/search-by-kind/playouts.py docs/examples/search-by-kind/steps-floor.toml 40
"""

import sys
import time

import numpy as np

from sim import rng
from sim.nyk import state
from sim.nyk.env import N_POLICY_PARAMS, make_env, seat_lineup
from sim.nyk.game import Lineup, with_tables
from sim.rules import Ruleset
from sim.search import nyk as search


def playouts(preset: str, games: int, seed: int = 5) -> dict:
    """The searching seat's searched decisions and playouts a game, and the CPU seconds a game
    and a playout, the seat rotated over the four places as `mobsim strategies strength` seats it
    (each game played by `sim.search.nyk.play_searched`, as `search_games` plays it)."""
    lineup = Lineup.of([preset, "distilled", "distilled", "distilled"], 4)
    env = with_tables(make_env(Ruleset.load(game="nyk"), np.zeros(state.MAX_SEATS, np.int64),
                               np.zeros((state.MAX_SEATS, N_POLICY_PARAMS))), lineup)
    envs = np.array([env, env]).view(np.recarray)
    records = np.zeros(5, state.GAME_DTYPE).view(np.recarray)
    seatings, knobs, leaf = lineup.seatings_for(seed, 0, games), lineup.search, search.leaf_for(lineup.search)
    key = rng.run_key(seed)

    def play(game_id):
        seating = seatings[game_id % len(seatings)]
        seat_lineup(envs[0], seating, lineup.kinds, lineup.params, lineup.restrict, 4)
        return search.play_searched(records[0], records[1], envs[0], envs[1], records[2], records[3], records[4], 4,
                                    key, game_id, knobs[seating].copy(), leaf)

    play(0)   # compiled or loaded before the clock starts
    start = time.process_time()
    searched, spent = np.sum([play(i) for i in range(games)], axis=0)
    cpu = time.process_time() - start
    return {"games": games, "searched_a_game": float(searched / games), "playouts_a_game": float(spent / games),
            "cpu_s_a_game": cpu / games, "cpu_us_a_playout": float(cpu / spent * 1e6)}


if __name__ == "__main__":
    print(playouts(sys.argv[1], int(sys.argv[2])))
