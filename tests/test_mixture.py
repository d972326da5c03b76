"""Mixtures used as strategies (`meta:`): each seat draws its style every game from the seed
and the game id alone (strategies.mixture)."""

import numpy as np
import pytest

import sim
from sim.nyk.game import Lineup, play_many
from sim.rules import Ruleset
from strategies import mixture

RULES = Ruleset.load()


def write_mixture(path, weights, game="nyk"):
    lines = ['doc = "test mixture"', f'game = "{game}"', "[weights]"]
    lines += [f'"{name}" = {w}' for name, w in weights.items()]
    path.write_text("\n".join(lines) + "\n")
    return f"meta:{path}"


def test_draws_follow_the_weights_and_depend_on_seed_game_and_seat_only():
    ids = np.arange(40_000)
    picked = mixture.draw([0.2, 0.5, 0.3], 7, ids, seat=1)
    shares = np.bincount(picked, minlength=3) / len(ids)
    assert np.allclose(shares, [0.2, 0.5, 0.3], atol=4 * np.sqrt(0.25 / len(ids)))
    assert (mixture.draw([0.2, 0.5, 0.3], 7, ids[123:456], seat=1) == picked[123:456]).all()
    assert (mixture.draw([0.2, 0.5, 0.3], 7, ids, seat=2) != picked).mean() > 0.4
    assert (mixture.draw([0.2, 0.5, 0.3], 8, ids, seat=1) != picked).mean() > 0.4


def test_a_mixture_of_one_strategy_plays_exactly_that_strategy(tmp_path):
    spec = write_mixture(tmp_path / "one.toml", {"runner": 1.0})
    plain = play_many(3, 40, 4, Lineup.of(("runner", "enforcer", "networker", "balanced"), 4), RULES)
    mixed = play_many(3, 40, 4, Lineup.of((spec, "enforcer", "networker", "balanced"), 4), RULES)
    for a, b in zip(plain, mixed, strict=True):
        assert np.array_equal(a, b)


def test_mixture_games_do_not_depend_on_batches(tmp_path):
    spec = write_mixture(tmp_path / "m.toml", {"runner": 0.5, "enforcer+no-provoke": 0.3, "cautious": 0.2})
    lineup = Lineup.of((spec, spec, "networker", "balanced"), 4)
    whole = play_many(5, 30, 4, lineup, RULES)
    parts = [play_many(5, 13, 4, lineup, RULES), play_many(5, 17, 4, lineup, RULES, first_id=13)]
    for k in range(2):
        assert np.array_equal(whole[k], np.concatenate([p[k] for p in parts]))


def test_a_run_reports_the_mixture_as_the_seat_strategy(tmp_path):
    spec = write_mixture(tmp_path / "m.toml", {"runner": 0.5, "tuned": 0.5})
    r = sim.run(players=4, strategies=[spec, "enforcer", "networker", "balanced"], games=40, seed=2,
                workers=1, progress=False)
    assert set(r.seats["strategy"].astype(str)) == {spec, "enforcer", "networker", "balanced"}
    assert (r.seats.groupby("game_id")["won"].sum() >= 1).all()


def test_a_directory_holding_mixture_toml_and_relative_components(tmp_path):
    (tmp_path / "bold.toml").write_text('doc = "bold"\n[params]\nprovoke_edge = -0.2\n')
    write_mixture(tmp_path / "mixture.toml", {"bold.toml": 2, "runner": 2})
    m = mixture.load(f"meta:{tmp_path}")
    assert m.weights == (0.5, 0.5)
    assert m.components[0] == str((tmp_path / "bold.toml").resolve())


@pytest.mark.parametrize("weights, words", [
    ({"runner": -1}, "not a number >= 0"),
    ({"runner": 0}, "every weight is 0"),
])
def test_bad_mixtures_are_one_line_errors(tmp_path, weights, words):
    spec = write_mixture(tmp_path / "bad.toml", weights)
    with pytest.raises(mixture.MixtureError, match=words):
        mixture.load(spec)


def test_an_unknown_mixture_names_the_choices():
    with pytest.raises(mixture.MixtureError, match="not found"):
        mixture.load("meta:nowhere/at/all")
    with pytest.raises(ValueError, match="not found"):
        Lineup.of(("meta:nowhere/at/all",), 4)


def test_american_gangsters_takes_mixtures_too(tmp_path):
    from sim.ag.game import Lineup as AgLineup
    from sim.ag.game import play_many as ag_play_many

    spec = write_mixture(tmp_path / "ag.toml", {"racketeer": 1.0}, game="ag")
    rules = Ruleset.load(game="ag")
    plain = ag_play_many(1, 20, 4, AgLineup.of(("racketeer", "warlord", "politician", "balanced"), 4), rules)
    mixed = ag_play_many(1, 20, 4, AgLineup.of((spec, "warlord", "politician", "balanced"), 4), rules)
    for a, b in zip(plain, mixed, strict=True):
        assert np.array_equal(a, b)


def test_the_shipped_equilibrium_mixture_loads_with_its_provenance():
    m = mixture.load("meta:equilibrium")
    assert abs(sum(m.weights) - 1) < 1e-9 and m.components   # a PSRO equilibrium may be pure
    assert m.provenance["command"].startswith("mobsim strategies psro")
    assert m.provenance["engine_commit"] and m.provenance["games_total"] > 0
    lineup = Lineup.of(("meta:equilibrium", "runner", "enforcer", "networker"), 4)
    assert lineup.names[0] == "meta:equilibrium" and len(lineup.kinds) == 4 + len(m.components)
