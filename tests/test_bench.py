"""The bench's whole-run, presets and strength figures: keys, and the shares computed from them."""

import pytest

from sim import bench


def test_run_speed_times_a_whole_run_and_divides_by_the_engine_rate():
    figures = bench.run_speed(engine_rate=1000.0, games=40)
    assert set(figures) == {"run_games_per_s", "run_efficiency"}
    assert figures["run_games_per_s"] > 0
    assert figures["run_efficiency"] == figures["run_games_per_s"] / 1000.0


def test_presets_lineup_is_the_demo_lineup():
    from sim.cli.demo import DEMO_STRATEGIES

    assert ",".join(bench.PRESETS_LINEUP) == DEMO_STRATEGIES


def test_function_symbols_place_a_jitted_function_where_numba_loaded_it():
    """The ELF reader against numba's own answer: an exported function of a library's object
    code, at its offset from its section, is where the engine says the function is."""
    from numba import njit

    from sim.bench.perfmap import function_symbols

    @njit
    def twice(x):
        return 2 * x

    twice(3)
    library = next(iter(twice.overloads.values())).library
    _, kind, (elf, _) = library.serialize_using_object_code()
    assert kind == "object"
    symbols = function_symbols(elf)
    named = [s for s in symbols if "twice" in s[3]]
    assert named and all(size > 0 for _, size, _, _ in named)
    engine = library._codegen._engine
    value, _, section, name = named[0]
    base = engine.get_function_address(name) - value
    for other_value, _, other_section, other_name in named[1:]:
        if other_section == section:
            assert engine.get_function_address(other_name) == base + other_value


def test_profile_writes_perf_map_of_the_engine_and_the_players(tmp_path):
    """`mobsim bench --profile` in a fresh process: the map names the engine's chapters and the
    heuristic's functions, one line each, sorted by address."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    command = [sys.executable, "-c", bench._MOBSIM, "bench", "--profile", "runner,simple,tuned,random",
               "--games", "20", "--json"]
    out = subprocess.run(command, capture_output=True, text=True, check=True)
    figures = json.loads(out.stdout)
    lines = Path(figures["perf_map"]).read_text().splitlines()
    assert figures["games"] == 20 and figures["functions"] == len(lines) > 50
    rows = [line.split(" ", 2) for line in lines]
    addresses = [int(a, 16) for a, _, _ in rows]
    assert addresses == sorted(addresses) and all(int(size, 16) > 0 for _, size, _ in rows)
    names = " ".join(name for _, _, name in rows)
    for part in ("chapters8movement7journey", "policy9best_step", "batch10play_games"):
        assert part in names
    Path(figures["perf_map"]).unlink()


def test_profile_refuses_a_bad_lineup_in_one_line():
    from click.testing import CliRunner

    from sim.cli import main

    for spec, message in (("nobody", "unknown strategy 'nobody'"),
                          ("simple,simple", "one strategy for every seat or four")):
        result = CliRunner().invoke(main, ["bench", "--profile", spec, "--games", "2"])
        assert result.exit_code == 2 and message in result.output


def test_strength_per_cpu_gives_each_players_share_in_its_interval_and_its_cpu():
    figures = bench.strength_per_cpu({"search-200": 1, "tuned": 200, "distilled": 200})
    rows = figures["strength_per_cpu"]
    assert list(rows) == ["search-200", "tuned", "distilled"]
    for name, games in (("search-200", 1), ("tuned", 200), ("distilled", 200)):
        row = rows[name]
        assert row["games"] == games and row["low"] <= row["win_share"] <= row["high"]
        assert row["cpu_s_per_game"] > 0
    assert figures["distilled_vs_tuned"] == pytest.approx(
        rows["tuned"]["cpu_s_per_game"] / rows["distilled"]["cpu_s_per_game"], rel=1e-3)


def test_a_slice_is_played_in_runner_batches_covering_its_ids_once(monkeypatch):
    """The bench plays a worker's slice in blocks of a `mobsim run` batch: every id of the slice
    once, in order, no block above the batch size."""
    from sim.runner.core import DEFAULT_BATCH

    blocks = []
    monkeypatch.setattr(bench, "_study", lambda game, names: (
        None, None, lambda seed, n, players, lineup, rs, first_id: blocks.append((first_id, n))))
    first, n = 7, 2 * DEFAULT_BATCH + 3
    assert bench._play_slice((first, n)) == n
    ids = [i for start, size in blocks for i in range(start, start + size)]
    assert ids == list(range(first, first + n))
    assert max(size for _, size in blocks) == DEFAULT_BATCH


def test_studies_taking_turns_in_one_pool_each_get_their_best_round():
    """games_per_s_alternating: a figure for every study, each its games over a round's time (no
    round is shorter than a worker's share takes; a figure is not another study's)."""
    rates = bench.games_per_s_alternating({"few": ("nyk", ("simple",), 40), "more": ("nyk", ("simple",), 400)},
                                          seconds=0.0, min_rounds=2)
    assert set(rates) == {"few", "more"} and all(r > 0 for r in rates.values())
    assert rates["few"] != rates["more"]


def test_start_cpu_is_a_process_loading_the_engine_with_one_blas_thread_over_a_thread_a_core():
    figures = bench.start_speed(repeats=1)
    assert set(figures) == {"start_cpu_s", "start_cpu_vs_blas_threads"}
    assert figures["start_cpu_s"] > 0 and figures["start_cpu_vs_blas_threads"] > 0


def test_learned_cpu_vs_tuned_is_the_learned_players_cpu_a_game_over_tuneds():
    figures = bench.strength_per_cpu({"tuned": 100, "learned": 100})
    rows = figures["strength_per_cpu"]
    assert figures["learned_cpu_vs_tuned"] == pytest.approx(
        rows["learned"]["cpu_s_per_game"] / rows["tuned"]["cpu_s_per_game"], rel=1e-3)


def test_bench_prints_ag_vs_nyk_in_json_and_text(monkeypatch):
    """`ag_vs_nyk` (American Gangsters' games a second over New York Kings', one run) is in the
    bench's JSON and text output: the measurements are replaced by fixed figures (no timing)."""
    import json

    from click.testing import CliRunner

    from sim.cli.bench import bench_cmd

    fixed = {"games_per_s_4p": 4000.0, "ag_games_per_s_4p": 1000.0, "ag_games_per_s_4p_threat_shares": 2000.0,
             "games_per_s_4p_presets": 800.0}
    for name in ("hand_speed", "fight_speed", "game_speed", "ag_game_speed", "ag_forward_speed", "forward_speed",
                 "search_speed"):
        monkeypatch.setattr(bench, name, lambda seconds: {})
    monkeypatch.setattr(bench, "every_core_speed", lambda seconds: dict(fixed))
    monkeypatch.setattr(bench, "run_speed", lambda rate: {})
    monkeypatch.setattr(bench, "start_speed", lambda: {})
    monkeypatch.setattr(bench, "strength_per_cpu", lambda: {})
    as_json = json.loads(CliRunner().invoke(bench_cmd, ["--json"]).output)
    assert as_json["ag_vs_nyk"] == 0.25
    assert as_json["ag_vs_threat_shares"] == 0.5 and as_json["presets_vs_simple"] == 0.2
    text = CliRunner().invoke(bench_cmd, []).output
    assert any(line.split()[0] == "ag_vs_nyk" for line in text.splitlines())


def test_the_ag_counts_example_reads_the_env_counters_of_one_batch(doc_example):
    """docs/examples/ag-speed/counts.py (quoted in docs/speed.md): the walks are the contests valued
    less those found in the table, the solves the placement games asked for less those read back,
    and a game of four values contests and asks placement games."""
    got = doc_example("ag-speed/counts.py").counts(40, 0)
    assert got["walks"] == pytest.approx(got["contests_valued"] - got["contests_found"]) and got["contests_valued"] > 0
    asked, read_back = got["placement_games_asked"], got["placement_games_read_back"]
    assert got["placement_games_solved"] == pytest.approx(asked - read_back)
    assert 0 < got["placement_games_solved"] <= got["placement_games_asked"] and got["turns"] >= 1
