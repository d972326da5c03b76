"""Where the search departs from warlord (run from the repository root: .venv/bin/python
docs/examples/ag-learned/departures.py 16): label games with the start weights, print the value
features of the heuristic's pick and the expert's at each departure, by kind."""
import sys
from collections import Counter

import numpy as np

import strategies
from sim.ag.decisions import DECISIONS
from sim.league import learn as L
from sim.league.match import ruleset_key
from sim.search.nyk_learn import R_BASE, R_EXPERT, R_FIRST, R_KIND, R_OPTIONS
from strategies.ag.learned import FEATURES

games = int(sys.argv[1]) if len(sys.argv) > 1 else 16
base = strategies.load("warlord", "ag")
rules = ruleset_key(None, None, "ag")
data = L.label_games(base, L.start_weights("ag"), games, 11, 4, rules, first_id=5000, game="ag")
np.savez("departures.npz", decisions=data.decisions, x=data.x, visits=data.visits, held=data.held)
names = ["hospital", "home", "gap", "rank", "chance", "share", "plan", "mix", "stake", "crowd", "level", "rivals",
         "own"]
cols = [FEATURES.index(n) for n in names]
d = data.decisions
dep = d[:, R_EXPERT] != d[:, R_BASE]
print("decisions", len(d), "departures", int(dep.sum()))
print("by kind", Counter(DECISIONS[k] for k in d[dep, R_KIND]), "of", Counter(DECISIONS[k] for k in d[:, R_KIND]))
print("kind  " + " ".join(f"{n[:6]:>6}" for n in names))
for row in d[dep]:
    kind, first, n, b, e = row[R_KIND], row[R_FIRST], row[R_OPTIONS], row[R_BASE], row[R_EXPERT]
    if DECISIONS[kind] not in ("place", "claim"):
        continue
    v = data.visits[first:first + n]
    for tag, j in (("base", b), ("exp ", e)):
        print(f"{DECISIONS[kind][:5]} {tag} " + " ".join(f"{data.x[first + j, c]:6.2f}" for c in cols)
              + f"  visits {int(v[j])}/{int(v.sum())}")

# in-sample, a one-hot target on the expert's pick, almost no pull: the most these features can follow
t = np.zeros(len(data.x))
for first, e in d[:, [R_FIRST, R_EXPERT]]:
    t[first + e] = 1.0
w0 = L.start_weights("ag")
for name in ("place", "claim"):
    k = DECISIONS.index(name)
    rows = np.where(d[:, R_KIND] == k)[0]
    owner = np.concatenate([[i] * d[r, R_OPTIONS] for i, r in enumerate(rows)])
    idx = np.concatenate([np.arange(d[r, R_FIRST], d[r, R_FIRST] + d[r, R_OPTIONS]) for r in rows])
    w = w0.copy()
    w[k] = L.fit_kind(data.x[idx], t[idx], owner, len(rows), w0[k], 1e-5)
    p = L.picks(data, w)[rows]
    gone = d[rows, R_EXPERT] != d[rows, R_BASE]
    print(f"{name}: the fit follows {int(((p == d[rows, R_EXPERT]) & gone).sum())} of {int(gone.sum())} departures, "
          f"leaves the heuristic at {int((p != d[rows, R_BASE]).sum())} of {len(rows)}")
