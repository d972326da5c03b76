"""Speed figures measured in one run, so that ratios hold on a shared, noisy machine.

Each measurement warms its kernel first (compilation excluded), then repeats it for about
`seconds` and keeps the best rate of the repetitions.
"""

import time
from pathlib import Path

import numpy as np

from sim import rng
from sim.nyk import dice, hands


def _best_rate(work, items: int, seconds: float, min_repeats: int = 3) -> float:
    """Items per second of `work()` (one call does `items`), best of repeated timings."""
    work()  # warm: compile, fault pages in
    best, spent, repeats = 0.0, 0.0, 0
    while spent < seconds or repeats < min_repeats:
        start = time.perf_counter()
        work()
        elapsed = time.perf_counter() - start
        spent += elapsed
        repeats += 1
        best = max(best, items / elapsed)
    return best


def _random_hands(n: int, seed: int = 1):
    """n hands of 5 to 7 values (dice and characters), as rows of 7 ranks padded with EMPTY."""
    gen = np.random.default_rng(seed)
    rows = gen.integers(0, hands.N_RANKS, size=(n, 7), dtype=np.int8)
    lengths = gen.integers(5, 8, size=n)
    rows[np.arange(7)[None, :] >= lengths[:, None]] = hands.EMPTY
    return rows


def hand_speed(seconds: float) -> dict:
    table = hands.table()
    rows = _random_hands(2_000_000)
    out = np.empty(len(rows), dtype=np.int32)
    jitted = _best_rate(lambda: hands.strengths_of_rows(rows, table, out), len(rows), seconds)
    sample = [[v for v in row if v != hands.EMPTY] for row in rows[:3000].tolist()]
    python = _best_rate(lambda: [hands.reference_strength(v) for v in sample], len(sample),
                        seconds, min_repeats=1)
    return {"hand_evals_per_s": jitted, "hand_evals_per_s_python": python,
            "hand_speedup_vs_python": jitted / python}


def fight_speed(seconds: float) -> dict:
    """Whole fusillades: 10 dice rolled into two crews' hands, both ranked and compared."""
    table = hands.table()
    state = rng.game_stream(0, 0)
    crew_a = hands.pack(np.array([5, 4, 2], dtype=np.int64))
    crew_b = hands.pack(np.array([5, 3], dtype=np.int64))
    n = 2_000_000
    rate = _best_rate(lambda: dice.count_contests(state, crew_a, crew_b, 5, table, n), n, seconds)
    return {"fights_per_s": rate}


SHARES = ("presets_vs_simple", "run_efficiency", "ag_vs_threat_shares", "ag_vs_nyk",
          "start_cpu_vs_blas_threads")  # ratios below 1: three decimals


def run_all(seconds: float = 1.0) -> dict:
    figures = {}
    figures.update(hand_speed(seconds))
    figures.update(fight_speed(seconds))
    figures.update(every_core_speed(seconds))
    figures.update(game_speed(seconds))
    figures.update(ag_game_speed(seconds))
    figures.update(ag_vs_nyk(figures))
    figures.update(presets_speed(figures))
    figures.update(ag_forward_speed(seconds))
    figures.update(forward_speed(seconds))
    figures.update(search_speed(seconds))
    figures.update(run_speed(figures["games_per_s_4p"]))
    figures.update(start_speed())
    figures = {k: round(v, 3 if k in SHARES else 1) for k, v in figures.items()}
    figures.update(strength_per_cpu())
    return figures


# --- whole games (New York Kings engine) ---------------------------------------------------------

_NOJIT_SCRIPT = """
import json, sys, warnings
warnings.simplefilter("ignore")
from sim.bench import games_per_s_one_thread
print(json.dumps(games_per_s_one_thread(int(sys.argv[1]), float(sys.argv[2]))))
"""


def _study(game: str = "nyk", names: tuple = ("simple",)):
    """(ruleset, lineup, play_many) of a benchmark study: 4 `simple` players of the game, or
    the lineup `names` (one per seat, seats rotated)."""
    import importlib

    from sim.rules import Ruleset

    entry = importlib.import_module(f"sim.{game}.game")   # the game's entry points (Lineup, play_many)
    return Ruleset.load(game=game), entry.Lineup.of(list(names), 4), entry.play_many


def _play_slice(first_and_n, game: str = "nyk", names: tuple = ("simple",)) -> int:
    """Play games first .. first + n - 1 of run 0 in blocks of a `mobsim run` batch, as the
    runner's workers do: a block's tables (some 3 KB a game) then fit in the memory the
    allocator keeps from the block before, where one table for the whole slice (65 MB for 20,000
    games) is mapped afresh and faulted in page by page at every repeat."""
    from sim.runner.core import DEFAULT_BATCH

    rs, lineup, play_many = _study(game, names)
    first, n = first_and_n
    for start in range(first, first + n, DEFAULT_BATCH):
        play_many(0, min(DEFAULT_BATCH, first + n - start), 4, lineup, rs, first_id=start)
    return n


def games_per_s_one_thread(n_games: int, seconds: float, game: str = "nyk") -> float:
    """4-player games per second of the batch kernel in this process (jitted or not)."""
    _play_slice((0, 2), game)  # warm
    return _best_rate(lambda: _play_slice((0, n_games), game), n_games, seconds, min_repeats=1)


def games_per_s_all_cores(n_games: int, seconds: float, game: str = "nyk",
                          names: tuple = ("simple",)) -> float:
    """4-player games per second with one process per core, each playing its share of a run."""
    return games_per_s_alternating({"rate": (game, names, n_games)}, seconds)["rate"]


def games_per_s_alternating(studies: dict, seconds: float, min_rounds: int = 2) -> dict:
    """4-player games per second of each study (figure -> (game, lineup, games a round)) with one
    process per core, each playing its share, the studies taking turns in one pool: a round plays
    each once, so a load that comes and goes on a shared machine meets them alike and their
    ratios hold. After a first round untimed (compiled code loaded, pages faulted in), rounds go
    on until each study has run `seconds`; each figure is its best round."""
    import os
    from functools import partial

    from sim.runner.pool import TiedPool

    workers = os.cpu_count() or 1
    plays = {}
    for figure, (game, names, n_games) in studies.items():
        share = n_games // workers
        plays[figure] = (partial(_play_slice, game=game, names=tuple(names)),
                         [(w * share, share) for w in range(workers)], share * workers)
    best, spent = dict.fromkeys(plays, 0.0), dict.fromkeys(plays, 0.0)
    rounds = -1   # the first round is not timed
    with TiedPool(workers) as pool:
        while rounds < min_rounds or min(spent.values()) < seconds:
            for figure, (play, slices, games) in plays.items():
                start = time.perf_counter()
                sum(pool.map(play, slices))
                if rounds >= 0:
                    elapsed = time.perf_counter() - start
                    spent[figure] += elapsed
                    best[figure] = max(best[figure], games / elapsed)
            rounds += 1
    return best


def every_core_speed(seconds: float) -> dict:
    """The whole 4-player games a second on every core that the bench's ratios divide
    (`ag_vs_nyk`, `ag_vs_threat_shares`, `presets_vs_simple`), taken in turns in one pool
    (games_per_s_alternating): four `simple` New York Kings players, the demo's lineup, four
    `simple` American Gangsters players, and the same placing by threat shares."""
    studies = {"games_per_s_4p": ("nyk", ("simple",), 40_000),
               "games_per_s_4p_presets": ("nyk", PRESETS_LINEUP, 20_000),
               "ag_games_per_s_4p": ("ag", ("simple",), AG_GAMES),
               "ag_games_per_s_4p_threat_shares": ("ag", (AG_THREAT_SHARES,), AG_GAMES)}
    return games_per_s_alternating(studies, seconds)


def game_speed(seconds: float) -> dict:
    """Whole 4-player games on one thread, and the same kernel with the JIT disabled
    (NUMBA_DISABLE_JIT=1, in a subprocess), in this run (on every core: every_core_speed)."""
    import json
    import os
    import subprocess
    import sys

    one = games_per_s_one_thread(10_000, seconds)
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run([sys.executable, "-c", _NOJIT_SCRIPT, "4", str(seconds)], env=env,
                         capture_output=True, text=True, check=True)
    plain = json.loads(out.stdout.strip().splitlines()[-1])
    return {"games_per_s_4p_one_thread": one, "games_per_s_4p_nojit": plain,
            "engine_speedup_vs_nojit": one / plain}


# --- whole games (American Gangsters engine) ---------------------------------------------------------

# the default rules with placement by threat shares: `simple` players whose foresight is below 1/3
AG_THREAT_SHARES = str(Path(__file__).with_name("ag-threat-shares.toml"))
# a repeat on every core: 2 to 3 s at the exact shoot-out's speed (2,600 to 4,300 games/s on the shared
# 2 cores), so the bench stays within 2 minutes when the machine is slow
AG_GAMES = 8_000


def ag_game_speed(seconds: float) -> dict:
    """Whole 4-player American Gangsters games (`simple` players) on one thread, in this run (on
    every core, and placing by threat shares, AG_THREAT_SHARES: every_core_speed)."""
    return {"ag_games_per_s_4p_one_thread": games_per_s_one_thread(AG_GAMES // 3, seconds, game="ag")}


def ag_vs_nyk(figures: dict) -> dict:
    """`ag_vs_nyk`: American Gangsters' 4-player games a second on every core (`simple` players)
    over New York Kings' (the same), taken in turns in this run (every_core_speed); and
    `ag_vs_threat_shares`, the default's share of the same rules with `simple` players who place
    by threat shares (what placement by the bargaining values costs)."""
    return {"ag_vs_nyk": figures["ag_games_per_s_4p"] / figures["games_per_s_4p"],
            "ag_vs_threat_shares": figures["ag_games_per_s_4p"] / figures["ag_games_per_s_4p_threat_shares"]}


# --- the players designers run, and the whole run ---------------------------------------------------

PRESETS_LINEUP = ("runner", "enforcer", "networker", "meta:equilibrium")  # sim.cli.demo's lineup
RUN_GAMES = 200_000
_MOBSIM = "import sys; from sim.cli import command_line; sys.argv[0] = 'mobsim'; command_line()"


def presets_speed(figures: dict) -> dict:
    """`presets_vs_simple`: 4-player games per second of the demo lineup (heuristic presets and
    the meta-game's mixture) over four `simple` players', on every core, taken in turns in this
    run (every_core_speed)."""
    return {"presets_vs_simple": figures["games_per_s_4p_presets"] / figures["games_per_s_4p"]}


def run_speed(engine_rate: float, games: int = RUN_GAMES) -> dict:
    """A whole `mobsim run` of `games` games of four `simple` players into a temporary directory,
    timed from the command's start to its exit (start-up, workers, Parquet parts, manifest and
    summary: what the user waits for), and its share of the engine's speed on every core."""
    import os
    import subprocess
    import sys
    import tempfile

    with tempfile.TemporaryDirectory(prefix="mobsim-bench-") as tmp:
        command = [sys.executable, "-c", _MOBSIM, "run", "--games", str(games), "--strategies",
                   "simple", "--out", os.path.join(tmp, "run"), "--json"]
        start = time.perf_counter()
        subprocess.run(command, capture_output=True, text=True, check=True)
        rate = games / (time.perf_counter() - start)
    return {"run_games_per_s": rate, "run_efficiency": rate / engine_rate}


def start_speed(repeats: int = 3) -> dict:
    """`start_cpu_s`: the CPU seconds of a process that loads the New York Kings engine, and
    `start_cpu_vs_blas_threads`: its share of the same with OpenBLAS's thread a core (what numpy
    starts without sim/__init__.py's one BLAS thread), the two alternating, best of `repeats` each."""
    import os
    import resource
    import subprocess
    import sys

    def cpu(threads: str) -> float:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        env = dict(os.environ, OPENBLAS_NUM_THREADS=threads)
        subprocess.run([sys.executable, "-c", "import sim.nyk.game"], env=env, check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime

    one, many = [], []
    for _ in range(repeats):
        one.append(cpu("1"))
        many.append(cpu(str(os.cpu_count() or 1)))
    return {"start_cpu_s": min(one), "start_cpu_vs_blas_threads": min(one) / min(many)}


def ag_forward_speed(seconds: float) -> dict:
    """American Gangsters forward model (sim.ag.forward): options applied per second by a uniform
    random driver on one thread, every seat stopped at every decision (each step replays the
    turn from its snapshot), new games as games end."""
    import numpy as np

    from sim.ag import state
    from sim.ag.env import N_POLICY_PARAMS, make_env
    from sim.ag.forward import random_steps
    from sim.rules import Ruleset

    env = np.array([make_env(Ruleset.load(game="ag"), np.zeros(state.MAX_SEATS, np.int64),
                             np.zeros((state.MAX_SEATS, N_POLICY_PARAMS)))]).view(np.recarray)
    snap = np.zeros(1, state.GAME_DTYPE).view(np.recarray)
    work = np.zeros(1, state.GAME_DTYPE).view(np.recarray)
    key = rng.run_key(0)
    steps = 20_000
    return {"ag_forward_steps_per_s": _best_rate(
        lambda: random_steps(snap, work, env, 4, key, 0, steps), steps, seconds)}


# --- the forward model and the search player (New York Kings) --------------------------------------

def forward_speed(seconds: float) -> dict:
    """Options applied per second through the forward model (sim.nyk.forward) by a random driver
    that takes every decision of every seat, one thread: each option replays its turn."""
    from sim.nyk import forward, state

    rs, lineup, _ = _study("nyk")
    snap, work = (np.zeros(1, state.GAME_DTYPE).view(np.recarray) for _ in range(2))
    env = _study_env(rs, lineup)
    n = 20_000
    rate = _best_rate(lambda: forward.random_steps(snap, work, env, 4, rng.run_key(0), n), n, seconds)
    return {"forward_steps_per_s": rate}


def search_speed(seconds: float, iterations: int = 200) -> dict:
    """Decisions per second of one `search` seat (IS-MCTS at `iterations` per decision, every
    decision kind, playouts by balanced) against three balanced players, one thread."""
    from dataclasses import replace

    import strategies
    from sim.nyk import state
    from sim.nyk.decisions import DECISIONS
    from sim.nyk.game import Lineup
    from sim.search.nyk import leaf_model, play_searched

    rs, _, _ = _study("nyk")
    balanced = strategies.load("balanced", "nyk")
    base = strategies.load("search-800", "nyk")  # the knobs set below, playouts by balanced
    player = replace(base, params=balanced.params, restrictions=balanced.restrictions,
                     search={**base.search, "iterations": iterations, "exploration": 0.7, "root": "uct",
                             "kinds": DECISIONS, "rollout": "balanced", "rollout_family": balanced.family})
    lineup = Lineup.of_strategies([player] + [balanced] * 3, 4, rotate=False)
    env = _study_env(rs, lineup, seating=lineup.seatings[0])
    envs = np.array([env[0], env[0]]).view(np.recarray)
    recs = np.zeros(5, state.GAME_DTYPE).view(np.recarray)
    knobs = Lineup.search_knobs([player] + [balanced] * 3)
    n = 20

    def work():
        searched, _ = play_searched(recs[0], recs[1], envs[0], envs[1], recs[2], recs[3], recs[4], 4,
                                    rng.run_key(0), 0, knobs, leaf_model(False), n)
        assert searched == n, "the benchmark game ended before its searched decisions"

    return {"search_decisions_per_s": _best_rate(work, n, seconds, min_repeats=2)}


STRENGTH_GAMES = {"search-200": 4, "search-leaf": 20, "tuned": 2000, "distilled": 2000,  # few: a cost figure
                  "learned": 2000}


def strength_per_cpu(games: dict = STRENGTH_GAMES, seed: int = 5) -> dict:
    """`strength_per_cpu`: for the cheap search presets, `tuned` and `distilled`, one seat against
    three `meta:equilibrium` seats (sim.league.strength, seats rotated, game ids 0 ..): the win
    share with its Wilson interval and the process CPU seconds a game, in this process; and
    `distilled_vs_tuned`, the distilled player's games a CPU second over tuned's, and
    `learned_cpu_vs_tuned`, the learned player's CPU a game over tuned's (target: at most 3). The counts are
    small so the bench stays fast: the CPU figures hold, the search shares' intervals are wide."""
    from sim.league.strength import strength

    out = {}
    for name, n in games.items():
        row = strength(name, games=n, seed=seed, workers=1).row()
        out[name] = {"games": n, "win_share": round(row["win_share"], 3), "low": round(row["low"], 3),
                     "high": round(row["high"], 3), "cpu_s_per_game": float(f"{row['cpu_s_per_game']:.3g}")}
    figures = {"strength_per_cpu": out}
    if "tuned" in out and "distilled" in out:  # the distilled player must keep a tenth of tuned's speed
        figures["distilled_vs_tuned"] = round(out["tuned"]["cpu_s_per_game"] / out["distilled"]["cpu_s_per_game"], 3)
    if "tuned" in out and "learned" in out:  # the learned player must cost at most 3 times tuned's CPU a game
        figures["learned_cpu_vs_tuned"] = round(out["learned"]["cpu_s_per_game"] / out["tuned"]["cpu_s_per_game"], 3)
    return figures


def _study_env(rs, lineup, seating=None):
    from sim.nyk.env import N_POLICY_PARAMS, make_env
    from sim.nyk.state import MAX_SEATS

    rows = lineup.seatings[0] if seating is None else seating
    kinds = np.zeros(MAX_SEATS, np.int64)
    params = np.zeros((MAX_SEATS, N_POLICY_PARAMS))
    kinds[:4], params[:4] = lineup.kinds[rows], lineup.params[rows]
    return np.array([make_env(rs, kinds, params)]).view(np.recarray)


# --- where the time goes: a profile of the jitted code -----------------------------------------------

def profile_games(names: tuple, games: int, game: str = "nyk") -> dict:
    """Play `games` 4-player games of the lineup `names` on one thread with numba's cached code
    named for perf (sim.bench.perfmap): run under `perf record -g`, `perf report` then names the
    engine's and the players' functions."""
    from sim.bench import perfmap

    perfmap.record_cache_loads()  # before the first game loads the engine
    start = time.perf_counter()
    _play_slice((0, games), game, tuple(names))
    seconds = time.perf_counter() - start
    path, functions = perfmap.write_perf_map()
    return {"games": games, "games_per_s": games / seconds, "perf_map": str(path),
            "functions": functions}
