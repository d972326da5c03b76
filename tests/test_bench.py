"""The bench's whole-run and presets figures: keys, and the shares computed from them."""

from sim import bench


def test_run_speed_times_a_whole_run_and_divides_by_the_engine_rate():
    figures = bench.run_speed(engine_rate=1000.0, games=40)
    assert set(figures) == {"run_games_per_s", "run_efficiency"}
    assert figures["run_games_per_s"] > 0
    assert figures["run_efficiency"] == figures["run_games_per_s"] / 1000.0


def test_presets_lineup_is_the_demo_lineup():
    from sim.cli.demo import DEMO_STRATEGIES

    assert ",".join(bench.PRESETS_LINEUP) == DEMO_STRATEGIES
