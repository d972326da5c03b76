"""A study records a checksum of every strategy, mixture and weights file it reads, and refuses to
resume after one of them changed (the missing batches would be played by another player)."""

import pytest

import sim
from sim.runner.sources import strategy_files
from sim.runner import RunError


@pytest.fixture
def preset(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text('family = "param"\n[params]\n')
    return path


def test_every_file_a_strategy_reads_is_fingerprinted(preset):
    files = strategy_files("nyk", [str(preset), "simple", "meta:equilibrium"])
    assert str(preset) in files and "strategies/nyk/presets/simple.toml" in files
    assert "strategies/nyk/mixtures/equilibrium.toml" in files
    assert any(path.startswith("strategies/nyk/presets/equilibrium-") for path in files)


def test_a_run_does_not_resume_across_an_edited_preset(preset, tmp_path):
    out = tmp_path / "run"
    lineup = (str(preset), "simple")
    with pytest.raises(KeyboardInterrupt):
        sim.run(players=2, strategies=lineup, games=8, batch_size=2, seed=1, out=out, workers=1,
                progress=False, _after_batch=lambda b: (_ for _ in ()).throw(KeyboardInterrupt))
    preset.write_text('family = "param"\n[params]\nprovoke_edge = 0.5\n')
    with pytest.raises(RunError, match="mine.toml has changed since the study started"):
        sim.run(players=2, strategies=lineup, games=8, batch_size=2, seed=1, out=out, workers=1,
                progress=False, resume=True)


def test_a_meta_study_does_not_resume_across_an_edited_preset(preset, tmp_path):
    from sim.meta.table import MetaError, play_profiles

    out = tmp_path / "meta"
    play_profiles([str(preset), "random"], players=2, games=2, out=out, workers=1)
    preset.write_text('family = "param"\n[params]\nprovoke_edge = 0.5\n')
    with pytest.raises(MetaError, match="mine.toml has changed"):
        play_profiles([str(preset), "random"], players=2, games=2, out=out, workers=1, resume=True)
