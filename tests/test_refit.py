"""`mobsim strategies refit` and `--refit` (sim.league.refit): the good rungs' players fitted again
to the rules under study, warm-started from the shipped ones, within a budget of games. Pig at two
players with a few hundred games: a refit costs seconds."""

import json

import pytest
from click.testing import CliRunner

from sim.cli import main
from sim.league import refit as R

SHORT = {"goal": 50}   # PIG-5: a shorter race, a rule change the players were not fitted to


def hold_at(path) -> float:
    import strategies

    return strategies.load(str(path), "pig").knobs()["hold_at"]


def test_the_budget_is_split_as_documented_and_never_overspent():
    split = R.shares({"tuned": "knobs", "meta:equilibrium": "mixture", "distilled": "knobs", "s": "search"}, 10_001)
    assert split == {"tuned": 2500, "meta:equilibrium": 5000, "distilled": 2500, "s": 0}
    assert R.shares({"simple": "knobs", "optimal": "table"}, 900) == {"simple": 900, "optimal": 0}
    for share, opponents in ((900, 5), (20_000, 8), (R.tune_needs(8), 8)):
        sizes = R.tune_plan(share, opponents)
        spent = (sizes["generations"] * sizes["population"] * sizes["games"] + 2 * sizes["final_games"]) * opponents
        assert spent <= share and sizes["games"] >= R.MIN_GAMES
    assert R.tune_plan(R.tune_needs(8) - 1, 8) is None


def same_refit(a, b) -> bool:
    """The same players fitted the same way (the files' folders aside), the same knobs where fitted."""
    for x, y in zip(a.players_refit, b.players_refit, strict=True):
        if (x.method, x.games, x.note, x.file) != (y.method, y.games, y.note, y.file):
            return False
        if x.method == "knobs" and hold_at(x.spec) != hold_at(y.spec):
            return False
    return True


def test_a_refit_is_the_same_from_its_seed_whatever_the_workers(tmp_path):
    one = R.refit("pig", overrides=SHORT, out=tmp_path / "a", budget=600, seed=3, workers=1)
    two = R.refit("pig", overrides=SHORT, out=tmp_path / "b", budget=600, seed=3, workers=2)
    assert [r.shipped for r in one.players_refit] == ["simple", "optimal"]
    assert one.players_refit[0].games > 0 and one.players_refit[1].method == "table"
    assert same_refit(one, two) and one.games_spent <= 600
    other = R.refit("pig", overrides=SHORT, out=tmp_path / "c", budget=600, seed=4, workers=1)
    assert not same_refit(one, other)   # the seed draws the search: its scores differ


def test_the_tune_starts_from_the_shipped_knobs_and_the_files_say_so(tmp_path, monkeypatch):
    import importlib

    tune_module = importlib.import_module("sim.league.tune")   # the module (sim.league.tune is also the function)
    started = {}
    real = tune_module.tune

    def spy(**kwargs):
        started.update(kwargs)
        return real(**kwargs)

    monkeypatch.setattr(tune_module, "tune", spy)
    got = R.refit("pig", overrides=SHORT, out=tmp_path / "r", budget=600, seed=0, workers=1, rungs=["simple"])
    assert started["start"] == "simple" and started["overrides"] == SHORT   # warm start, the studied rules
    simple = got.players_refit[0]
    if simple.fitted:   # the tune beat the shipped knobs on the same fresh games: its preset says how it was made
        import strategies

        provenance = strategies.load(simple.spec, "pig").provenance
        assert provenance["warm_start"] == "the shipped simple" and provenance["refit_overrides"] == SHORT
        assert provenance["refit_fingerprint"] == got.rules["fingerprint"]
    else:
        assert "kept as shipped" in simple.note and simple.spec == "simple"
    manifest = json.loads((tmp_path / "r" / "refit.json").read_text())
    assert manifest["specs"] == got.specs and manifest["rules"]["overrides"] == SHORT
    assert manifest["players_fitted_to"] == got.fitted_to()


def test_zero_budget_under_the_default_rules_gives_the_shipped_players(tmp_path):
    got = R.refit("nyk", out=tmp_path / "r", budget=0)
    assert got.specs == {r: r for r in ("tuned", "meta:equilibrium", "distilled", "search-leaf-all")}
    assert got.games_spent == 0 and sorted(p.name for p in (tmp_path / "r").iterdir()) == ["refit.json"]
    assert got.fitted_to().startswith("The players as shipped") and "default rules" in got.fitted_to()


def test_the_optimal_table_is_made_again_exactly_for_the_rules(tmp_path):
    import numpy as np

    from sim.pig import exact

    got = R.refit("pig", overrides=SHORT, out=tmp_path / "r", budget=1, rungs=["optimal"])
    (optimal,) = got.players_refit
    assert optimal.method == "table" and optimal.games == 0
    with np.load(tmp_path / "r" / "optimal.npz") as table:
        assert int(table["goal"]) == 50
        assert (table["hold"] == exact.optimal(50, 6)[1]).all()


@pytest.mark.parametrize("args, says", [
    (["--rungs", "nosuch"], "rung 'nosuch'"),
    (["--budget", "0", "--set", "goal=50"], "budget 0 refits nothing under changed rules"),
    (["--set", "nosuch=1"], "nosuch"),
])
def test_bad_input_is_one_line(tmp_path, args, says):
    r = CliRunner().invoke(main, ["strategies", "refit", "--game", "pig", "--out", str(tmp_path / "o"), *args])
    assert r.exit_code == 2 and says in r.output
    assert len(r.output.strip().splitlines()) == 1


def test_an_unwritable_out_is_one_line(tmp_path):
    (tmp_path / "file").write_text("x")
    for out, says in ((tmp_path / "file", "is a file"), (tmp_path / "file" / "below", "cannot write")):
        r = CliRunner().invoke(main, ["strategies", "refit", "--game", "pig", "--out", str(out), "--budget", "0"])
        assert r.exit_code == 2 and says in r.output and len(r.output.strip().splitlines()) == 1


def test_the_command_prints_each_player_against_the_shipped_one(tmp_path):
    r = CliRunner().invoke(main, ["strategies", "refit", "--game", "pig", "--set", "goal=50", "--out",
                                  str(tmp_path / "o"), "--budget", "600", "--check-games", "200", "--workers", "1"])
    assert r.exit_code == 0, r.output
    assert "optimal: refit (table, 0 games)" in r.stdout and "against 1 shipped optimal (fair 50.0%" in r.stdout
    assert "goal=50" in r.stdout and "written:" in r.stdout
    run = ["run", "--game", "pig", "--strategies", "optimal,hold20", "--games", "20", "--workers", "1",
           "--refit", str(tmp_path / "o")]
    r = CliRunner().invoke(main, [*run, "--set", "goal=50", "--out", str(tmp_path / "run")])
    assert r.exit_code == 0, r.output
    names = json.loads((tmp_path / "run" / "manifest.json").read_text())["strategies"]["names"]
    assert names[0] == str(tmp_path / "o" / "optimal.toml") and names[1] == "hold20"   # a name not refit stays
    r = CliRunner().invoke(main, [*run, "--out", str(tmp_path / "run2")])             # the default rules: refused
    assert r.exit_code == 2 and "not to the rules played here" in r.output


def test_the_verdict_names_the_players_and_the_rules_they_were_fitted_to(tmp_path):
    base = ["verdict", "--game", "pig", "--players", "2", "--games", "100", "--meta-games", "0", "--set", "goal=50",
            "--workers", "1"]
    r = CliRunner().invoke(main, [*base, "--refit", "--refit-budget", "600", "--out", str(tmp_path / "v")])
    assert r.exit_code == 0, r.output
    meta = json.loads((tmp_path / "v" / "verdict.json").read_text())["meta"]
    assert meta["players_fitted_to"].startswith("Refit to the rules goal=50") and "optimal" in meta["players_fitted_to"]
    assert meta["refit"]["optimal"].endswith("optimal.toml")
    assert meta["players_fitted_to"] in (tmp_path / "v" / "index.md").read_text()
    r = CliRunner().invoke(main, [*base, "--out", str(tmp_path / "w")])
    meta = json.loads((tmp_path / "w" / "verdict.json").read_text())["meta"]
    assert "fitted to the default rules, not re-fitted" in meta["players_fitted_to"] and meta["refit"] == {}
    r = CliRunner().invoke(main, [*base, "--refit-budget", "600", "--out", str(tmp_path / "x")])
    assert r.exit_code == 2 and "add --refit" in r.output


def test_advise_verifies_the_best_proposal_again_with_its_players_refit(tmp_path):
    from sim.verdict import advise as A

    got = A.advise("pig", [2], ["simple", "optimal"], 0.02, {"game length (turns)": (12, 14)},
                   [{"goal": 150}], games=100, seed=0, workers=1, tune=False, refit_dir=tmp_path / "refit",
                   refit_budget=600)
    (length,) = [p for p in got.problems if p["measure"] == "game length (turns)"]
    best = length["proposals"][0]
    assert best["change"] == "goal=150" and "refit" in best
    assert got.meta["players_fitted_to"]["goal=150"].startswith("Refit to the rules goal=150")
    assert "default rules" in got.meta["players_fitted_to"]["today"]
    assert all(e["lo"] <= e["change"] <= e["hi"] for e in best["refit"]["effect"])   # paired, with intervals
    assert (tmp_path / "refit" / "proposal-1" / "refit.json").is_file()
