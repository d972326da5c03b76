"""Where a cold compile goes: numba's compile events per function and signature.

    NUMBA_CACHE_DIR=$(mktemp -d) python -m sim.bench.compile nyk   # one game's play_one, cold
    ... sim.bench.compile nyk --signatures   # and every signature of a function compiled twice, with its caller

Prints, as JSON, the wall time of the first game, the functions and signatures compiled, the
functions of mobsim compiled for more than one signature, and the costliest by inclusive time (a
function's time includes the callees compiled inside it) and by own time (without them; a function
inlined at numba's level counts in its caller's). Run it on an empty cache (a warm one compiles
nothing) and on a quiet machine: the figures are wall times.
"""

import json
import sys
import time
from collections import defaultdict


def profile(game: str, detail: bool = False) -> dict:
    from numba.core import event

    recorder = event.RecordingListener()
    event.register("numba:compile", recorder)
    start = time.perf_counter()
    from sim.shared.game import find

    find(game).part("game").play_one(0, find(game).players, None)
    wall = time.perf_counter() - start
    spans, own, stack, callers = defaultdict(float), defaultdict(float), [], {}
    for stamp, ev in recorder.buffer:   # compiles nest: a callee compiles inside its caller's typing
        fn = ev.data["dispatcher"].py_func
        key = (f"{fn.__module__}.{fn.__qualname__}", str(ev.data["args"]))
        if ev.is_start:
            callers.setdefault(key, stack[-1][0][0] if stack else None)
            stack.append([key, stamp, 0.0])
        elif stack and stack[-1][0] == key:
            _, began, inner = stack.pop()
            spans[key] += stamp - began
            own[key[0]] += stamp - began - inner
            if stack:
                stack[-1][2] += stamp - began
    inclusive, signatures = defaultdict(float), defaultdict(int)
    for (name, _), seconds in spans.items():
        inclusive[name] += seconds
        signatures[name] += 1
    ours = {n: k for n, k in signatures.items() if k > 1 and n.startswith(("sim.", "strategies."))}
    argument_types = {n: [f"{a} <- {callers.get((name, a))}" for name, a in spans if name == n] for n in ours}
    return {"game": game, "wall_s": round(wall, 1), "functions": len(inclusive), "signatures": len(spans),
            "ours_with_several_signatures": dict(sorted(ours.items(), key=lambda x: -x[1])),
            "extra_signatures_of_ours": sum(k - 1 for k in ours.values()),
            "costliest_inclusive_s": _top(inclusive), "costliest_own_s": _top(own),
            "argument_types": argument_types if detail else "(--signatures lists them)"}


def _top(seconds: dict, k: int = 15) -> dict:
    return {n: round(s, 1) for n, s in sorted(seconds.items(), key=lambda x: -x[1])[:k]}


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--signatures"]
    if len(args) != 1:
        sys.exit("usage: python -m sim.bench.compile GAME [--signatures]   (on an empty NUMBA_CACHE_DIR)")
    try:
        print(json.dumps(profile(args[0], "--signatures" in sys.argv), indent=1))
    except ValueError as err:   # an unknown game, named with the games there are
        sys.exit(str(err))
