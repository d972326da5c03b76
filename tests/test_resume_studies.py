"""`tune` keeps every candidate's run in --out: interrupted, it says how to finish, and given again
(--resume) it reads the finished runs back and ends where an uninterrupted search ends."""

import pytest

from sim.tuning import search
from sim.tuning.study import Study

ARGS = {"params": ["missions.reward_scale=0.5:2"], "targets": ["turns=9:12"], "budget": 240, "players": 2,
        "strategies": "random", "candidates": 2, "min_games": 20, "workers": 1}


def test_an_interrupted_tune_resumes_to_the_same_result(tmp_path, monkeypatch):
    evaluate, calls = Study.evaluate, []

    def interrupted_at_the_second(self, *args, **kwargs):
        calls.append(args)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return evaluate(self, *args, **kwargs)

    monkeypatch.setattr(Study, "evaluate", interrupted_at_the_second)
    with pytest.raises(KeyboardInterrupt):
        search.tune(out=tmp_path / "tune", **ARGS)
    kept = list((tmp_path / "tune").glob("round-0/points/*/manifest.json"))
    assert len(kept) == 1   # the first candidate's finished run

    monkeypatch.setattr(Study, "evaluate", evaluate)
    resumed = search.tune(out=tmp_path / "tune", **ARGS)
    fresh = search.tune(out=tmp_path / "fresh", **ARGS)
    assert resumed.best == fresh.best and resumed.history.equals(fresh.history)
    assert (tmp_path / "tune" / "tune.json").is_file()


def test_an_interrupted_verdict_keeps_its_runs_and_reads_them_back(tmp_path, monkeypatch):
    import importlib

    from sim.verdict import study as verdict_study

    module = importlib.import_module("sim.verdict.study")
    plan = {("random", 2): 60, ("simple", 2): 60}
    args = {"game": "nyk", "players": (2,), "rungs": ["random", "simple"], "exploit": False, "pilot": 20,
            "games": plan, "workers": 1, "runs_dir": tmp_path / "runs"}
    play, kept = module._play, []

    def interrupted_at_the_second_full_run(*a):
        if len(a) > 8 and a[8] is not None:
            kept.append(a[8])
            if len(kept) == 2:
                raise KeyboardInterrupt
        return play(*a)

    monkeypatch.setattr(module, "_play", interrupted_at_the_second_full_run)
    with pytest.raises(KeyboardInterrupt):
        verdict_study(**args)
    parts = {p: p.stat().st_mtime_ns for p in kept[0].rglob("part-*.parquet")}
    monkeypatch.setattr(module, "_play", play)
    again = verdict_study(**args)
    assert parts and {p: p.stat().st_mtime_ns for p in parts} == parts   # read back, not played again
    assert sorted(again.plan["games"]) == [60, 60]
