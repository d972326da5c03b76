"""The headline metrics and the comparison of runs part by part (bounded memory) against the same
figures from the whole tables: the sums behind the bootstrap and the clustered standard errors,
and the tables a report and `mobsim compare` print."""

import math

import numpy as np
import pandas as pd
import pytest

import sim
from sim.analysis import headline as H
from sim.analysis import stats
from sim.analysis.tables import game_count, game_ids, run_parts, same_batches
from sim.runner import RunResult
from sim.runner import store

GAMES = 400
LINEUP = "simple,random,simple,random"


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("parts")

    def play(name, scale, batch_size=100):
        sim.run(players=4, strategies=LINEUP, games=GAMES, seed=5, workers=1, batch_size=batch_size,
                out=root / name, overrides={"missions.reward_scale": scale})
        return sim.load(root / name)

    return {"low": play("low", 0.5), "high": play("high", 2.0), "high_200": play("high_200", 2.0, 200)}


def whole(run) -> RunResult:
    """The run with its tables read whole (one part)."""
    return RunResult(run.path, run.manifest, {t: getattr(sim.load(run.path), t) for t in ("games", "seats")})


def test_parts_follow_each_other_and_cover_the_run(runs):
    run = sim.load(runs["low"].path)
    n, parts = run_parts(run, H.GAME_COLUMNS, H.SEAT_COLUMNS)
    parts = list(parts)
    assert n == GAMES == game_count(run) and len(parts) == GAMES // 100
    assert "seats" not in run._tables and "games" not in run._tables  # never read whole
    ids = np.concatenate([g["game_id"].to_numpy() for g, _ in parts])
    assert np.array_equal(ids, np.sort(ids)) and np.array_equal(ids, game_ids(run))
    assert all(set(s.columns) == set(H.SEAT_COLUMNS) for _, s in parts)


def test_estimates_part_by_part_equal_the_whole_tables(runs):
    for name in ("low", "high"):
        streamed = H.run_estimates(sim.load(runs[name].path))
        plain = whole(runs[name])
        expected = H.estimates(plain.games, plain.seats)
        pd.testing.assert_frame_equal(streamed, expected, check_exact=False, rtol=1e-10, atol=1e-13)


def test_game_sums_are_the_bootstrap_blocks_and_products_of_the_whole_matrix():
    """Above stats.MAX_UNITS games the units are blocks of consecutive games: the sums added part
    by part (parts of uneven sizes, across block ends) are exactly `stats.blocks` of the matrix."""
    rng = np.random.default_rng(1)
    n = stats.MAX_UNITS * 2 + 777
    frame = pd.DataFrame({"seat_won:0": rng.integers(0, 2, n), "seat_n:0": np.ones(n),
                          "strategy_won:a": rng.integers(0, 3, n), "strategy_n:a": rng.integers(0, 3, n)})
    sums = H.GameSums(n)
    cuts = [0, 1, 4999, 5000, 17_123, 30_000, n]
    for lo, hi in zip(cuts, cuts[1:], strict=False):
        sums.add(frame.iloc[lo:hi])
    matrix = frame.to_numpy(float)
    units = np.column_stack([sums.unit_sums[c] for c in frame.columns])
    assert np.array_equal(units, stats.blocks(matrix))
    assert [sums.total[c] for c in frame.columns] == list(matrix.sum(axis=0))
    gram = matrix.T @ matrix
    assert all(sums.cross[(a, b)] == gram[i, j] for i, a in enumerate(frame.columns)
               for j, b in enumerate(frame.columns))
    assert sums.nonzero["strategy_n:a"] == int((frame["strategy_n:a"] > 0).sum())
    with pytest.raises(ValueError, match="more games"):
        sums.add(frame.iloc[:1])


def test_clustered_rate_of_sums_is_the_influence_formula():
    rng = np.random.default_rng(2)
    seats = rng.integers(0, 3, 500).astype(float)
    won = np.minimum(seats, rng.integers(0, 2, 500))
    p = won.sum() / seats.sum()
    influence = (won - p * seats) / seats.sum()
    g = int((seats > 0).sum())
    se = math.sqrt(np.sum(influence ** 2) * g / (g - 1))
    rate, lo, hi, n, got = H.clustered_rate(won, seats)
    assert rate == pytest.approx(p) and got == pytest.approx(se, rel=1e-12) and n == seats.sum()
    assert lo < rate < hi
    # a rate of 1: no spread at all, the seats themselves
    assert H.clustered_rate(seats, seats)[4] == 0


def test_compare_part_by_part_equals_the_whole_tables(runs):
    low, high = sim.load(runs["low"].path), sim.load(runs["high"].path)
    assert same_batches(low, high) and not same_batches(low, sim.load(runs["high_200"].path))
    streamed = H.compare(low, high)
    assert "seats" not in low._tables and "seats" not in high._tables
    expected = H.compare(whole(runs["low"]), whole(runs["high"]))
    assert streamed["paired"].all()
    pd.testing.assert_frame_equal(streamed, expected, check_exact=False, rtol=1e-10, atol=1e-13)
    # the same games in parts of other sizes: read whole, the same figures
    other = H.compare(sim.load(runs["low"].path), sim.load(runs["high_200"].path))
    pd.testing.assert_frame_equal(other, expected, check_exact=False, rtol=1e-10, atol=1e-13)


def test_parts_out_of_game_order_are_refused(runs):
    plain = whole(runs["low"])
    games, seats = plain.games, plain.seats
    first = games["game_id"] < GAMES // 2
    seated_first = seats["game_id"] < GAMES // 2
    late, early = (games[~first], seats[~seated_first]), (games[first], seats[seated_first])
    with pytest.raises(ValueError, match="game id order"):
        H.estimates_of_parts(GAMES, [late, early])


def test_a_damaged_part_is_named(runs, tmp_path):
    import shutil

    copy = tmp_path / "run"
    shutil.copytree(runs["low"].path, copy)
    run = sim.load(copy)
    part = store.part_path(copy, "seats", 2)
    data = bytearray(part.read_bytes())
    data[len(data) // 2] ^= 0xFF
    part.write_bytes(bytes(data))
    with pytest.raises(store.RunError, match="part-000002"):
        H.run_estimates(run)


def test_shares_by_position_are_the_grouped_means(runs):
    """fairness.shares counts by position; the same table as a groupby of a text key per seat."""
    from sim.analysis import fairness

    seats = sim.load(runs["low"].path).seats
    for key in ("strategy", "seat"):
        frame = seats[["game_id", "won"]].assign(_key=seats[key].astype(str))
        grouped = frame.groupby(["game_id", "_key"], observed=True)["won"].mean().unstack("_key")
        order = (H.strategy_names(seats) if key == "strategy"
                 else sorted(frame["_key"].unique(), key=fairness._natural))
        pd.testing.assert_frame_equal(fairness.shares(seats, key), grouped[order].astype(float), check_exact=True)


def test_a_run_in_memory_gives_the_figures_of_its_parts_on_disk(runs):
    """The same run, its tables loaded or read part by part: the same headline, to the last bit."""
    on_disk = H.run_estimates(sim.load(runs["low"].path))
    loaded = sim.load(runs["low"].path)
    loaded.seats  # noqa: B018  (in memory now)
    pd.testing.assert_frame_equal(H.run_estimates(loaded), on_disk, check_exact=True)


def test_a_page_opens_with_its_summary_then_its_details(tmp_path):
    """The answer in plain words first (p.summary), the run's details (the meta table) below it,
    in the page and in index.md; a page with no summary keeps its details on top."""
    from sim.analysis.report import Report

    r = Report("t", {"command": "mobsim verdict"})
    r.heading("Verdict")
    r.summary("The seats are fair.")
    r.text("detail")
    page = r.write(tmp_path).read_text(encoding="utf-8")
    assert page.index('<p class="summary">The seats are fair.') < page.index('<table class="meta">') < page.index(
        "<p>detail")
    md = (tmp_path / "index.md").read_text(encoding="utf-8")
    assert md.index("The seats are fair.") < md.index("- **command**") < md.index("detail")
    plain = Report("t", {"command": "c"})
    plain.text("detail")
    assert plain.markdown().index("- **command**") < plain.markdown().index("detail")
