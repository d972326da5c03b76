"""The American Gangsters engine is one piece of code: with the JIT disabled it plays the very same
games (every die, decision and counter)."""

import json
import os
import subprocess
import sys

from sim.ag.game import Lineup, play_many
from sim.rules import Ruleset

LINEUP = ["simple", "random", "warlord", "informer-aware"]
SCRIPT = f"""
import json, warnings
warnings.simplefilter("ignore")
from sim.ag.game import Lineup, play_many
from sim.rules import Ruleset
games, seats, _ = play_many(11, 2, 4, Lineup.of({LINEUP!r}, 4), Ruleset.load(game="ag"), check=True)
print(json.dumps([games.tolist(), seats.tolist()]))
"""


def test_jitted_and_plain_python_engines_play_identical_games():
    games, seats, _ = play_many(11, 2, 4, Lineup.of(LINEUP, 4), Ruleset.load(game="ag"), check=True)
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True,
                         check=True, timeout=600)
    plain_games, plain_seats = json.loads(out.stdout.strip().splitlines()[-1])
    assert games.tolist() == plain_games
    assert seats.tolist() == plain_seats
