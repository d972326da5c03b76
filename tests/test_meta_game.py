"""The meta-game played (sim.meta.table, sim.meta.analysis, `mobsim meta`) and PSRO (sim.meta.psro)."""

import json

import numpy as np
import pytest

import sim
from sim.meta.table import MetaError, lineup, measure, play_profiles

PAIR = ("runner", "enforcer")


@pytest.fixture(scope="module")
def study(tmp_path_factory):
    out = tmp_path_factory.mktemp("meta") / "study"
    return out, play_profiles(PAIR, players=4, games=12, seed=3, out=out, workers=1)


def win_shares(run) -> dict:
    seats = run.seats
    share = seats["won"] / seats.groupby("game_id")["won"].transform("sum")
    return share.groupby(seats["strategy"].astype(str)).mean().to_dict()


def test_every_profile_is_played_on_the_same_games(study):
    _, measured = study
    assert [tuple(c) for c in measured.counts] == [(4, 0), (3, 1), (2, 2), (1, 3), (0, 4)]
    assert list(measured.game_ids) == list(range(12))
    # a profile's win shares of one game sum to 1 over its seats
    per_seat = np.nan_to_num(measured.win) * measured.counts[:, None, :]
    assert np.allclose(per_seat.sum(axis=2), 1.0)


def test_the_payoff_table_reproduces_a_run_of_the_same_profile_and_seed(study):
    _, measured = study
    table = measured.table()
    for p, counts in enumerate(measured.counts):
        run = sim.run(players=4, strategies=lineup(PAIR, counts), games=12, seed=3, workers=1,
                      progress=False)
        shares = win_shares(run)
        for k, name in enumerate(PAIR):
            if counts[k]:
                assert table.payoffs[p, k] == pytest.approx(shares[name])
        if run.seats.groupby("game_id")["won"].sum().max() == 1:  # no shared win: the run's win rates
            rates = run.win_rates()["win_rate"]
            for k, name in enumerate(PAIR):
                if counts[k]:
                    assert table.payoffs[p, k] == pytest.approx(rates[name])


def test_a_study_resumes_and_refuses_to_overwrite(study):
    out, measured = study
    again = play_profiles(PAIR, players=4, games=12, seed=3, out=out, workers=1, resume=True)
    assert np.array_equal(again.win, measured.win, equal_nan=True)
    with pytest.raises(MetaError, match="not empty"):
        play_profiles(PAIR, players=4, games=12, seed=3, out=out, workers=1)
    with pytest.raises(MetaError, match="seed is 3 in the study"):
        play_profiles(PAIR, players=4, games=12, seed=4, out=out, workers=1, resume=True)
    assert np.array_equal(measure(out).win, measured.win, equal_nan=True)


def test_games_per_profile_must_rotate_every_seat(tmp_path):
    with pytest.raises(MetaError, match="multiple of the players"):
        play_profiles(PAIR, players=4, games=10, out=tmp_path / "x")


def test_the_meta_command_writes_the_study(tmp_path):
    from click.testing import CliRunner

    from sim.cli import main

    out = tmp_path / "m"
    result = CliRunner().invoke(main, ["meta", "--players", "3", "--strategies", "runner,tuned",
                                       "--games-per-profile", "6", "--seed", "1", "--out", str(out),
                                       "--workers", "1", "--bootstrap", "5"])
    assert result.exit_code == 0, result.output
    meta = json.loads((out / "meta.json").read_text())
    assert set(meta["equilibrium"]["mixture"]) == {"runner", "tuned"}
    assert meta["verdict"].startswith("At equilibrium")
    assert (out / "index.html").is_file() and (out / "profiles.parquet").is_file()
    assert meta["provenance"]["games_total"] == 4 * 6


def test_psro_exploitability_falls(tmp_path):
    from sim.meta.psro import psro

    search = {"generations": 2, "population": 4, "elite": 1, "games": 40, "final_games": 200}
    result = psro(("random", "simple"), iterations=2, players=4, games_per_profile=8, seed=1,
                  out=tmp_path / "p", workers=1, search=search, bootstrap=5)
    exploit = [row["exploitability"] for row in result["history"] if "exploitability" in row]
    assert len(exploit) >= 2
    assert exploit[0] > 0.1            # a search beats random and simple by far
    assert exploit[-1] < exploit[0]
    assert (tmp_path / "p" / "mixture.toml").is_file() and (tmp_path / "p" / "index.html").is_file()
    from strategies import mixture

    m = mixture.load(f"meta:{tmp_path / 'p'}")
    assert abs(sum(m.weights) - 1) < 1e-9
    assert set(m.components) <= set(result["history"][-1]["population"])


def test_american_gangsters_has_a_meta_game_too(tmp_path):
    from sim.meta.analysis import analyse

    measured = play_profiles(("racketeer", "warlord"), players=3, games=6, seed=2, out=tmp_path / "ag",
                             game="ag", workers=1)
    assert measured.counts.shape == (4, 2)
    per_seat = np.nan_to_num(measured.win) * measured.counts[:, None, :]
    assert np.allclose(per_seat.sum(axis=2), 1.0)
    meta = analyse(measured, bootstrap=3)
    assert abs(sum(meta["equilibrium"]["mixture"].values()) - 1) < 1e-9
