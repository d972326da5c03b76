"""PSRO with the learned oracle (sim.meta.psro, `--oracle learned`) and expert iteration against
opponents (sim.league.learn, `opponents=`)."""

import numpy as np
import pytest
from click.testing import CliRunner

import strategies
from sim.cli import main
from sim.league import learn as L
from sim.meta.psro import mixture_toml, psro

TINY = {"budget": 8}


def _mixture(tmp_path, names=("random", "simple"), weights=(0.5, 0.5)):
    path = tmp_path / "mix.toml"
    path.write_text(mixture_toml(names, weights, "a test mixture", {"test": 1}))
    return f"meta:{path}"


def test_learning_against_itself_is_todays_learning():
    # the figures `learn` gave before it took opponents (seed 1, one iteration of 4 games, budget 8)
    row = L.learn(seed=1, iterations=1, games=4, workers=1, knobs=TINY, opponents=None).iterations[0]
    assert (row["decisions"], row["departures"]) == (512, 0.0586)


def test_the_apprentice_sits_one_seat_a_game_against_the_mixture_as_a_run_seats_it(tmp_path):
    from sim.nyk.game import Lineup
    from sim.nyk.state import MAX_SEATS
    from strategies import mixture

    mix = mixture.load(_mixture(tmp_path))
    base = strategies.load("distilled")
    pool = [strategies.load(c).kind("nyk") for c in mix.components]
    seats = []
    for game_id in range(8):
        kinds, _, _, seat, _ = L._seating(Lineup, base, [mix] * 3, 4, 5, game_id, MAX_SEATS)
        seats.append(seat)
        for other in set(range(4)) - {seat}:
            drawn = mixture.draw(mix.weights, 5, [game_id], other)[0]
            assert kinds[other] == pool[drawn]   # the run's draw, from (seed, game id, seat) alone
    assert sorted(set(seats)) == [0, 1, 2, 3]     # the seat rotates with the game id


def test_learning_against_a_mixture_is_the_same_with_one_worker_or_two(tmp_path):
    mix = _mixture(tmp_path)
    one, two = (L.learn(seed=2, iterations=1, games=4, workers=w, knobs=TINY, opponents=[mix], warm="learned")
                for w in (1, 2))
    assert np.array_equal(one.weights, two.weights) and one.iterations == two.iterations
    assert one.base == "distilled" and one.provenance["opponents"] == [mix] * 3


def test_the_apprentice_reads_its_own_weights_beside_learned_opponents():
    """Against learned opponents the apprentice's weights are the set after theirs, and its seat
    names that set (sim.league.learn._weight_sets, _apprentice_seats)."""
    from sim.nyk.env import LEARNED_SLOT
    from sim.nyk.game import Lineup
    from sim.nyk.state import MAX_SEATS
    from strategies.nyk import learned
    from strategies.nyk.params import FAMILIES

    opponent = strategies.load("learned")
    seated = L._seating(Lineup, strategies.load("distilled"), [opponent] * 3, 4, 5, 0, MAX_SEATS)
    kinds, params, _ = L._apprentice_seats(Lineup, MAX_SEATS, FAMILIES.index("learned"), None, 4, seated)
    mine = np.full((learned.WEIGHTS.kinds, learned.N_FEATURES), 0.5)
    sets = L._weight_sets(learned, mine, seated)
    seat = seated[3]
    assert params[seat, LEARNED_SLOT] == 1 and np.array_equal(sets[1], mine)
    assert all(params[q, LEARNED_SLOT] == 0 for q in range(4) if q != seat)
    assert np.array_equal(sets[0], learned.read_weights(opponent.table["file"])) and not sets[2:].any()


def test_the_learned_oracle_grows_the_population_by_a_loadable_learned_preset(tmp_path, monkeypatch):
    out = tmp_path / "p"
    result = psro(("random", "simple"), iterations=1, players=4, games_per_profile=8, seed=1, out=out, workers=1,
                  search={"final_games": 40}, bootstrap=5, oracle="learned",
                  learn={"iterations": 1, "games": 4, "knobs": TINY}, exploit_games=2)
    first, last = result["history"]
    preset = out / "presets" / "psro-1.toml"
    assert first["best_response"] == str(preset.resolve()) and (out / "presets" / "psro-1.npz").is_file()
    loaded = strategies.load(str(preset))
    assert loaded.family == "learned" and loaded.provenance["psro_iteration"] == 1
    assert first["added"] and first["exploitability_low"] > 0          # a search-taught player beats these two
    assert last["population"][-1] == str(preset.resolve())             # it joined the meta-game
    assert "exploiter" in first and "exploiter" in last and first["exploiter"]["games"] == 2
    assert result["oracle"] == "learned" and last["stopped"]
    from sim.league.games import Knobs
    from sim.meta.psro import ship
    from strategies import mixture

    monkeypatch.setattr(Knobs, "preset_dir", lambda self: tmp_path / "shipped")
    monkeypatch.setattr(mixture, "mixture_dir", lambda game="nyk": tmp_path / "shipped" / "mixtures")
    (tmp_path / "shipped").mkdir()
    shipped = strategies.load(str(ship(result, "eq")["eq-1"]))   # its weights shipped beside it
    assert shipped.table["file"] == str(tmp_path / "shipped" / "eq-1.npz") and shipped.params == loaded.params


def test_a_bad_oracle_is_one_line(tmp_path):
    bad = CliRunner().invoke(main, ["strategies", "psro", "--oracle", "nosuch", "--out", str(tmp_path / "x")])
    assert bad.exit_code == 2 and "Invalid value for '--oracle'" in bad.output
    with pytest.raises(ValueError, match="choose knobs or learned"):
        psro(("random", "simple"), iterations=1, out=tmp_path / "y", oracle="nosuch")


def test_american_gangsters_learns_against_a_mixture_too(tmp_path):
    path = tmp_path / "ag.toml"
    path.write_text(mixture_toml(("racketeer", "warlord"), (0.5, 0.5), "a test mixture", {"test": 1}, "ag"))
    result = L.learn(seed=1, iterations=1, games=4, workers=1, knobs=TINY, game="ag", opponents=[f"meta:{path}"],
                     warm="learned")
    assert result.iterations[0]["decisions"] > 0 and np.isfinite(result.weights).all()
    assert result.provenance["opponents"] == [f"meta:{path}"] * 3
