"""Does the search depart again? (.venv/bin/python docs/examples/ag-learned/repeat.py 16) At each
labelled decision of warlord's own games, a second halving on other worlds (another decision key):
how often the two departures coincide."""
import sys

import numpy as np
from numba import njit

import strategies
from sim import rng
from sim.ag import state
from sim.ag.decisions import CTX_DECISION, DECISIONS
from sim.ag.forward import OVER, advance, new_state, push
from sim.ag.script import HALTED
from sim.ag.state import DECISIONS as G_DECISIONS, FW_POLICY
from sim.league import learn as L
from sim.league.match import ruleset_key
from sim.search.ag import halving_counts
from sim.search.ag_learn import heuristic_pick
from sim.search.halving import decision_key


@njit(cache=True)
def twice(recs, env_arr, senv_arr, n_players, key, key2, game_ids, seats, budget, guard, out):
    snap, work, base, it_snap, it_work = recs[0:1], recs[1:2], recs[2:3], recs[3:4], recs[4:5]
    row = 0
    for i in range(game_ids.shape[0]):
        status = new_state(snap, work, env_arr, n_players, key, game_ids[i], 0, 1 << seats[i])
        while status == HALTED:
            w = work[0]
            own = heuristic_pick(w, env_arr[0], seats[i])
            kind = w.ctx[CTX_DECISION]
            d = w.g[G_DECISIONS]
            a = halving_counts(snap, work, env_arr, senv_arr, base, it_snap, it_work, seats[i], budget, False, False,
                               decision_key(key, game_ids[i], d, seats[i]), guard)[0]
            b = halving_counts(snap, work, env_arr, senv_arr, base, it_snap, it_work, seats[i], budget, False, False,
                               decision_key(key2, game_ids[i], d, seats[i]), guard)[0]
            out[row, 0], out[row, 1], out[row, 2], out[row, 3] = kind, own, a, b
            row += 1
            if not push(snap, FW_POLICY):
                return -1
            status = advance(snap, work, env_arr)
        if status != OVER:
            return -1
    return row


games = int(sys.argv[1])
env_arr = L._ag_env(strategies.load("warlord", "ag"), L.start_weights("ag"), 4, ruleset_key(None, None, "ag"))
recs = np.zeros(5, state.GAME_DTYPE).view(np.recarray)
ids = np.arange(5000, 5000 + games, dtype=np.int64)
out = np.zeros((games * 200, 4), np.int64)
n = twice(recs, env_arr, env_arr.copy(), 4, rng.run_key(11), rng.run_key(12), ids, ids % 4, 200, 2.0, out)
o = out[:n]
a, b = o[:, 2] != o[:, 1], o[:, 3] != o[:, 1]
print(f"decisions {n}; departs in the first search {a.sum()}, in the second {b.sum()}, in both {(a & b).sum()}, "
      f"to the same option in both {(a & b & (o[:, 2] == o[:, 3])).sum()}")
for k in sorted(set(o[:, 0])):
    m = o[:, 0] == k
    print(DECISIONS[k], int(m.sum()), "first", int((a & m).sum()), "second", int((b & m).sum()),
          "same departure", int((a & b & m & (o[:, 2] == o[:, 3])).sum()))
