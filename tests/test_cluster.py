"""Every study on a Dask cluster (sim.runner.executor, docs/cluster.md): one local tcp scheduler with
two worker processes (at most 2 GB each), started once for the module; each study at a tiny size gives
the same tables and JSON through it as on local workers."""

import json
import math

import pandas as pd
import pytest
from click.testing import CliRunner

from sim.cli import main
from sim.runner.executor import check_reachable, current, executor_for, on_scheduler, uses_scheduler
from sim.runner.store import RunError

distributed = pytest.importorskip("distributed")

MIXED = "simple,random,simple,random"
# what differs by design: times, where the files went, the workers asked for
VARIES = {"started", "finished", "command", "engine_commit", "out", "path", "workers", "scheduler"}


@pytest.fixture(scope="module")
def scheduler():
    import logging

    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, memory_limit="2GB",
                                       dashboard_address=None, silence_logs=logging.ERROR,
                                       env={"NUMBA_NUM_THREADS": "1"})
    yield cluster.scheduler_address    # tcp://127.0.0.1:PORT
    cluster.close()


def plain(value):
    """A result as JSON-like data, timings, paths and worker counts left out (they differ by design)."""
    if isinstance(value, pd.DataFrame):
        return plain(json.loads(value.to_json(orient="split", double_precision=15)))
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()
                if k not in VARIES and "seconds" not in str(k) and not str(k).startswith("cpu")}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if isinstance(value, float) and math.isnan(value):
        return "nan"
    return value


# --- each study, tiny: (scheduler, tmp_path) -> what it measured --------------------------------------

def _sweep(scheduler, tmp):
    from sim.tuning.sweeps import sweep

    return sweep(players=4, strategies=MIXED, games=120, seed=5, params={"missions.reward_scale": [0.8, 1.2]},
                 workers=1, scheduler=scheduler)


def _sensitivity(scheduler, tmp):
    from sim.tuning.sensitivity import sensitivity

    return sensitivity(players=4, strategies=MIXED, games=120, seed=4, params={"missions.reward_scale": 0.2},
                       workers=1, scheduler=scheduler)


def _tune(scheduler, tmp):
    from sim.tuning.search import tune

    result = tune(params={"missions.reward_scale": (0.5, 2.0)}, targets=["mean_fortune=12000:14000"],
                  budget=1000, players=4, strategies=MIXED, seed=9, workers=1, candidates=2, min_games=100,
                  scheduler=scheduler)
    return result.to_json()


def _meta(scheduler, tmp):
    from sim.meta import study

    meta = study(("runner", "enforcer"), players=2, games=12, seed=3, out=tmp / "meta", workers=1, bootstrap=5,
                 scheduler=scheduler)
    return {k: v for k, v in meta.items() if k != "provenance"}


def _verdict(scheduler, tmp):
    from sim.verdict import study

    v = study("pig", players=(2,), rungs=["simple", "optimal"], games=60, seed=1, workers=1, metagame=0,
              exploit=False, scheduler=scheduler)
    return {"measures": v.measures, "verdicts": v.verdicts, "per_game": v.per_game, "metagame": v.metagame,
            "games": v.plan["games"].tolist()}


def _advise(scheduler, tmp):
    from sim.verdict.advise import advise

    a = advise("pig", [2], rungs=["simple", "optimal"], candidates=[{"goal": 50}], games=60, seed=2,
               scheduler=scheduler)
    return {"problems": a.problems, "cells": a.cells, "changes": a.changes}


def _strength(scheduler, tmp):
    from sim.league.strength import paired_strength

    return paired_strength("balanced", "simple", games=24, seed=2, against="random", workers=1,
                           scheduler=scheduler).row()


def _ladder(scheduler, tmp):
    from sim.league.ladder import ladder

    return ladder(["random", "simple"], games=200, seed=2, workers=1, scheduler=scheduler)


def _psro(scheduler, tmp):
    from sim.meta.psro import psro

    search = {"generations": 1, "population": 2, "elite": 1, "games": 40, "final_games": 80}
    result = psro(("random", "simple"), iterations=1, players=2, games_per_profile=8, seed=1, out=tmp / "psro",
                  workers=1, search=search, bootstrap=5, scheduler=scheduler)
    return json.loads(json.dumps(result["history"]).replace(str(tmp), "OUT"))   # its presets' paths


def _strategies_tune(scheduler, tmp):
    from sim.league import tune

    result = tune(seed=3, generations=1, population=2, elite=1, games=20, final_games=20, players=2,
                  opponents=["simple"], start="hold20", workers=1, game="pig", scheduler=scheduler)
    return {"final": result.final, "knobs": result.toml(name="t").split("[provenance]")[0]}


def _mechanics(scheduler, tmp):
    from sim.league import mechanic_values

    return mechanic_values("simple", restrictions=["no-subway-heli"], games=20, seed=2, workers=1,
                           scheduler=scheduler).to_dict("records")


def _blunders(scheduler, tmp):
    from sim.league.blunders import blunder_table

    return blunder_table(["simple", "balanced"], players=2, games=20, seed=2, workers=1,
                         scheduler=scheduler).to_dict("records")


STUDIES = {"sweep": _sweep, "sensitivity": _sensitivity, "tune": _tune, "meta": _meta, "verdict": _verdict,
           "advise": _advise, "strategies strength": _strength, "strategies ladder": _ladder,
           "strategies psro": _psro, "strategies tune": _strategies_tune, "strategies mechanics": _mechanics,
           "strategies blunders": _blunders}


@pytest.mark.parametrize("name", list(STUDIES))
def test_a_study_on_a_tcp_scheduler_gives_what_local_workers_give(name, scheduler, tmp_path):
    study = STUDIES[name]
    local = plain(study(None, tmp_path / "local"))
    before = transitions(scheduler)
    on_cluster = plain(study(scheduler, tmp_path / "cluster"))
    assert transitions(scheduler) > before   # its games were played on the cluster's workers
    assert current() is None                 # the study's connection ends with it
    assert on_cluster == local


def transitions(scheduler) -> int:
    """Task state changes the scheduler has seen (each task played adds some)."""
    with distributed.Client(scheduler) as client:
        return client.run_on_scheduler(lambda dask_scheduler: dask_scheduler.transition_counter)


# --- the mechanism ------------------------------------------------------------------------------------

def _square(x):
    return x * x


def test_every_executor_maps_in_the_tasks_order(scheduler):
    tasks = list(range(7))
    for backend in (executor_for(None, 1), executor_for(scheduler, 2)):
        with backend as ex:
            assert ex.map(_square, tasks) == [x * x for x in tasks]
    with on_scheduler(scheduler):
        inner = executor_for(None, 1)     # inside a study on a scheduler: its scheduler
        assert inner.scheduler == scheduler and inner.map(_square, [3]) == [9]


def test_a_study_function_without_the_keyword_is_refused():
    with pytest.raises(TypeError, match="scheduler"):
        uses_scheduler(lambda workers=1: None)


def test_a_bad_or_unreachable_scheduler_is_one_line_before_any_game(tmp_path):
    with pytest.raises(RunError, match="port is missing"):
        executor_for("tcp://localhost", 2)
    with pytest.raises(RunError, match="cannot reach the Dask scheduler at tcp://127.0.0.1:1"):
        check_reachable("tcp://127.0.0.1:1")
    commands = [["sweep", "--set", "missions.reward_scale=0.8,1.2"], ["sensitivity"],
                ["tune", "--param", "missions.reward_scale=0.5:2", "--target", "turns=9:12"],
                ["meta", "--out", str(tmp_path / "m")], ["verdict", "--out", str(tmp_path / "v")],
                ["advise", "--out", str(tmp_path / "a")], ["strategies", "strength", "simple"],
                ["strategies", "ladder"], ["strategies", "psro", "--out", str(tmp_path / "p")],
                ["strategies", "learn", "--out", str(tmp_path / "l" / "x.toml")],
                ["run", "--out", str(tmp_path / "r")]]
    for args in commands:
        for address, status, says in (("carrier-pigeon", 2, "use local or tcp://HOST:PORT"),
                                      ("tcp://127.0.0.1:1", 1, "cannot reach the Dask scheduler")):
            r = CliRunner().invoke(main, [*args, "--scheduler", address])
            lines = [line for line in r.output.splitlines() if line.strip()]
            assert r.exit_code == status and len(lines) == 1 and says in lines[0], (args, r.output)
    assert not any((tmp_path / d).exists() for d in "mvaplr")


def test_a_searching_seat_on_a_cluster_is_played_in_small_batches():
    # seconds a game: batches of 100 would keep all but a few workers idle on a few hundred games
    from sim.runner.core import MIN_BATCH, _least_batch

    assert _least_batch("nyk", ("search-200", "tuned"), on_cluster=True) == 1
    assert _least_batch("nyk", ("search-200", "tuned"), on_cluster=False) == MIN_BATCH
    assert _least_batch("nyk", ("tuned", "meta:equilibrium"), on_cluster=True) == MIN_BATCH
