"""The engine is one piece of code: with the JIT disabled it plays the very same games."""

import json
import os
import subprocess
import sys

from sim.nyk.game import Lineup, play_many
from sim.rules import Ruleset

# every policy family, and a restriction, in one game
LINEUP = ["balanced", "random", "enforcer", "simple+min-bid"]
SCRIPT = f"""
LINEUP = {LINEUP!r}
import json, warnings
warnings.simplefilter("ignore")
from sim.nyk.game import Lineup, play_many
from sim.rules import Ruleset
games, seats, _ = play_many(11, 1, 4, Lineup.of(LINEUP, 4), Ruleset.load())
print(json.dumps([games.tolist(), seats.tolist()]))
"""


def test_jitted_and_plain_python_engines_play_identical_games():
    games, seats, _ = play_many(11, 1, 4, Lineup.of(LINEUP, 4), Ruleset.load())
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True,
                         check=True, timeout=600)
    plain_games, plain_seats = json.loads(out.stdout.strip().splitlines()[-1])
    assert games.tolist() == plain_games
    assert seats.tolist() == plain_seats
