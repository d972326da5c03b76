"""Where a cold compile goes: numba's compile events per function and signature.

    NUMBA_CACHE_DIR=$(mktemp -d) python -m sim.bench.compile nyk   # one game's play_one, cold

Prints, as JSON, the wall time of the first game, the functions and signatures compiled, the
functions of mobsim compiled for more than one signature, and the costliest by inclusive time (a
function's time includes the callees compiled inside it). Run it on an empty cache (a warm one
compiles nothing) and on a quiet machine: the figures are wall times.
"""

import json
import sys
import time
from collections import defaultdict


def profile(game: str) -> dict:
    from numba.core import event

    recorder = event.RecordingListener()
    event.register("numba:compile", recorder)
    start = time.perf_counter()
    from sim.shared.game import find

    find(game).part("game").play_one(0, 4, None)
    wall = time.perf_counter() - start
    spans, opened = defaultdict(float), {}
    for stamp, ev in recorder.buffer:
        fn = ev.data["dispatcher"].py_func
        key = (f"{fn.__module__}.{fn.__qualname__}", str(ev.data["args"]))
        if ev.is_start:
            opened[key] = stamp
        elif key in opened:
            spans[key] += stamp - opened.pop(key)
    inclusive, signatures = defaultdict(float), defaultdict(int)
    for (name, _), seconds in spans.items():
        inclusive[name] += seconds
        signatures[name] += 1
    ours = {n: k for n, k in signatures.items() if k > 1 and n.startswith(("sim.", "strategies."))}
    return {"game": game, "wall_s": round(wall, 1), "functions": len(inclusive), "signatures": len(spans),
            "ours_with_several_signatures": dict(sorted(ours.items(), key=lambda x: -x[1])),
            "extra_signatures_of_ours": sum(k - 1 for k in ours.values()),
            "costliest_inclusive_s": {n: round(s, 1) for n, s in sorted(inclusive.items(), key=lambda x: -x[1])[:12]}}


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python -m sim.bench.compile GAME   (on an empty NUMBA_CACHE_DIR)")
    try:
        print(json.dumps(profile(sys.argv[1]), indent=1))
    except ValueError as err:   # an unknown game, named with the games there are
        sys.exit(str(err))
