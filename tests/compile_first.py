"""Compile the engines before the test workers start (see conftest.pytest_configure).

Left to the tests, every pytest-xdist worker compiles the New York Kings engine at the same
time (its first test needs it), a few minutes of one core spent twice. Here each compiled entry
point is built once, the two lists in two processes side by side, into numba's on-disk cache,
which the workers then load. With a warm cache each list takes about a second.

    python tests/compile_first.py          (every list, side by side)
    python tests/compile_first.py LIST     (one list: a key of LISTS)
"""

import sys
import time
import warnings

import numpy as np


def nyk_batch():
    from sim.bench import _play_slice

    _play_slice((0, 2), "nyk")


def ag_batch():
    from sim.bench import _play_slice

    _play_slice((0, 2), "ag")


def nyk_forward():
    from sim import rng
    from sim.bench import _study, _study_env
    from sim.nyk import forward, state

    rs, lineup, _ = _study("nyk")
    snap, work = (np.zeros(1, state.GAME_DTYPE).view(np.recarray) for _ in range(2))
    forward.random_steps(snap, work, _study_env(rs, lineup), 4, rng.run_key(0), 10)


def ag_forward():
    from sim import rng
    from sim.ag import state
    from sim.ag.env import N_POLICY_PARAMS, make_env
    from sim.ag.forward import random_steps
    from sim.rules import Ruleset

    env = np.array([make_env(Ruleset.load(game="ag"), np.zeros(state.MAX_SEATS, np.int64),
                             np.zeros((state.MAX_SEATS, N_POLICY_PARAMS)))]).view(np.recarray)
    snap, work = (np.zeros(1, state.GAME_DTYPE).view(np.recarray) for _ in range(2))
    random_steps(snap, work, env, 4, rng.run_key(0), 0, 10)


LISTS = {"first": (nyk_batch,), "second": (ag_batch, nyk_forward, ag_forward)}


def compile_list(name: str) -> None:
    warnings.simplefilter("ignore")
    for job in LISTS[name]:
        start = time.perf_counter()
        job()
        print(f"{name}: {job.__name__} {time.perf_counter() - start:.1f} s", flush=True)


def compile_all() -> int:
    """Every list in a process of its own; the first failure's exit status."""
    import subprocess

    jobs = [subprocess.Popen([sys.executable, __file__, name]) for name in LISTS]
    codes = [job.wait() for job in jobs]
    return next((code for code in codes if code), 0)


if __name__ == "__main__":
    if len(sys.argv) > 1:
        compile_list(sys.argv[1])
    else:
        sys.exit(compile_all())
