"""The report read part by part (sim.analysis.scan) gives the figures of the whole tables: every
table of the generic sections equals the in-memory function that computes it from the whole
games, seats and turns tables (kept in sim.analysis.fairness, quality, economy, findings and
watch), the New York Kings tables equal plain pandas sums over the whole seat table, and the
counts of values give the quantiles pandas gives."""

import numpy as np
import pandas as pd
import pytest

import sim
from sim.analysis import economy, fairness, findings, quality, scan, watch
from sim.analysis.games import nyk
from sim.analysis.run_report import build_report
from sim.runner import RunResult
from sim.shared.game import find

GAMES = 400


def tables_of(report) -> dict[str, pd.DataFrame]:
    return {block[1].name: block[1].frame for block in report.blocks if block[0] == "table"}


def whole(run) -> RunResult:
    """The same run with its tables read whole (the reference functions' input)."""
    return RunResult(run.path, run.manifest, {"games": run.games, "seats": run.seats, "turns": run.turns})


@pytest.fixture(scope="module")
def nyk_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("runs") / "mixed"
    sim.run(players=4, strategies="runner,enforcer,networker,balanced", games=GAMES, seed=7, workers=1,
            batch_size=100, rotate="random", record_turns=True, out=out)  # 4 parts; seatings vary
    return out


@pytest.fixture(scope="module")
def nyk_tables(nyk_run):
    run = sim.load(nyk_run)
    produced = tables_of(build_report(run, command="c"))
    assert "seats" not in run._tables and "games" not in run._tables  # never read whole
    return produced


def reference_tables(run) -> dict[str, pd.DataFrame]:
    """The generic sections' tables computed from the whole tables."""
    games, seats, turns = run.games, run.seats, run.turns
    game = run.manifest["game"]
    out = {
        "win-rate-by-strategy": fairness.win_rates(seats, "strategy"),
        "win-rate-by-seat": fairness.win_rates(seats, "seat"),
        "win-rate-by-players": fairness.by_player_count(games, seats),
        "seat-advantage": fairness.seat_advantage(games, seats),
        "win-rate-by-strategy-and-seat": fairness.strategy_by_seat(seats),
        "pairwise-seats": fairness.pairwise(seats, "seat"),
        "pairwise-strategies": fairness.pairwise(seats, "strategy"),
        "ratings": fairness.ratings(seats),
        "pairwise-wins": fairness.wins_matrix(seats),
        "head-to-head": fairness.head_to_head(seats),
        "power": fairness.power(games, seats),
        "measures": quality.measures(games, find(game).score_unit),
        "closeness": quality.closeness(games),
        "endings": quality.endings(games),
        "durations": quality.distribution(games["turns"], "turns"),
        "final-fortunes": economy.final_fortunes(seats),
        "worth-watching": watch.worth_watching(games),
    }
    test = fairness.seat_permutation_test(seats)
    if test is not None:
        out["seat-test"] = pd.DataFrame([test])
    near = fairness.neighbours(seats)
    if len(near) > len(fairness.strategy_names(seats)):
        out["neighbours"] = near
    found = fairness.cycles(seats)
    if len(found):
        out["cycles"] = found
    if "times_first" in seats:
        out["first-player"] = quality.first_player(seats)
    if "lead_changes" in games:
        out["lead-changes"] = quality.distribution(games["lead_changes"], "lead_changes")
    used = findings.usage(seats, game)
    if not used.empty:
        out["mechanics-used"] = used.reset_index()
    if turns is not None:
        out |= {"leader-curve": quality.leader_curve(turns, games),
                "runaway-leader": quality.runaway_leader(turns, games),
                "winner-mid-game-place": quality.mid_game_rank(turns, games),
                "first-elimination": quality.first_elimination(turns, games, seats),
                "kingmaking": quality.kingmaking(turns, games),
                "fortune-bands": economy.fortune_bands(turns, seats)}
    return out


def assert_same(produced: pd.DataFrame, expected: pd.DataFrame, name: str):
    """Equal tables: counts exactly, means and spreads merged part by part to 1e-9 relative."""
    a, b = produced.reset_index(drop=True), expected.reset_index(drop=True)
    pd.testing.assert_frame_equal(a, b, check_dtype=False, check_exact=False, rtol=1e-9, atol=1e-12, obj=name)


def test_generic_tables_are_the_whole_tables_figures(nyk_run, nyk_tables):
    expected = reference_tables(whole(sim.load(nyk_run)))
    for name, table in expected.items():
        assert name in nyk_tables, name
        produced = nyk_tables[name]
        if name == "pairwise-wins":
            pd.testing.assert_frame_equal(produced, table, check_dtype=False)
        else:
            assert_same(produced, table, name)
    assert {"neighbours", "fortune-bands", "kingmaking", "mechanics-used"} <= set(expected)


def test_counts_are_exact_and_text_rounds_as_the_whole_tables(nyk_run, nyk_tables):
    run = whole(sim.load(nyk_run))
    exact = ("win-rate-by-strategy", "win-rate-by-seat", "ratings", "head-to-head", "durations", "closeness",
             "endings", "worth-watching", "seat-test", "kingmaking", "fortune-bands", "runaway-leader")
    expected = reference_tables(run)
    for name in exact:
        pd.testing.assert_frame_equal(nyk_tables[name].reset_index(drop=True), expected[name].reset_index(drop=True),
                                      check_dtype=False, obj=name)
    # the means of whole numbers and of shares of 1, 2, 4 or 8 seats are the whole column's to the bit
    assert nyk_tables["seat-advantage"]["advantage"].tolist() == expected["seat-advantage"]["advantage"].tolist()
    assert nyk_tables["pairwise-strategies"]["diff"].tolist() == expected["pairwise-strategies"]["diff"].tolist()


def test_nyk_tables_are_sums_of_the_whole_seat_table(nyk_run, nyk_tables):
    seats = sim.load(nyk_run).seats
    frame = seats.assign(strategy=seats["strategy"].astype(str))
    by = frame.groupby("strategy", sort=False)
    activity = nyk_tables["activity"]
    for column in activity.columns:
        assert activity.loc["all", column] == pytest.approx(frame[column].mean(), rel=1e-12)
        for name, g in by:
            assert activity.loc[name, column] == pytest.approx(g[column].mean(), rel=1e-12)
    police = nyk_tables["police"].set_index(["group", "measure"])
    for name, g in list(by) + [("all", frame)]:
        row = police.loc[(name, "arrests / interrogations")]
        assert (row["count"], row["out_of"]) == (g["arrests"].sum(), g["interrogations"].sum())
    deaths = nyk_tables["deaths"].set_index("group")
    assert deaths.loc["all", "count"] == (~frame["alive"].astype(bool)).sum()
    missions = nyk_tables["missions-by-strategy"]
    for r in missions[missions["kind"] == "crew of 1"].itertuples():
        g = frame[frame["strategy"] == r.group]
        assert (r.accepted, r.done) == (g["missions_accepted_1"].sum(), g["missions_done_1"].sum())
    flows = nyk_tables["money-flows"]
    flows = flows[flows["column"] == "mission_income"].set_index("strategy")
    source = seats[["game_id", "strategy", "mission_income"]].assign(all="all")
    for by_key in ("strategy", "all"):  # as the sections computed it from the whole table
        expected = economy.by_game_mean(source, "mission_income", by_key).set_index(by_key)
        got = flows.loc[expected.index]
        assert got["mean"].tolist() == expected["mean"].tolist()  # whole dollars: exact in any order
        assert got["hi"].tolist() == pytest.approx(expected["hi"].tolist(), rel=1e-9)
    cars = nyk_tables["police-cars"]
    assert_same(cars, nyk.police_cars(sim.load(nyk_run).games), "police-cars")


def test_parts_read_from_disk_and_the_tables_in_memory_give_the_same_report(nyk_run, nyk_tables):
    in_memory = tables_of(build_report(whole(sim.load(nyk_run)), command="c"))
    assert list(in_memory) == list(nyk_tables)
    for name, table in in_memory.items():
        pd.testing.assert_frame_equal(table, nyk_tables[name], obj=name)


def test_seat_test_with_fixed_seating_shuffles_wins_as_the_whole_table(tmp_path):
    out = tmp_path / "fixed"
    sim.run(players=4, strategies="simple", games=300, seed=3, workers=1, batch_size=60, rotate=False, out=out)
    seats = sim.load(out).seats
    test = scan.SeatTest()
    for _, part in seats.groupby(seats["game_id"] // 60):
        test.add(part)
    got = test.result(200, 11)
    assert got == fairness.seat_permutation_test(seats, reps=200, seed=11)
    assert got["method"] == "wins shuffled among seats"


def rotated_seats(games: int, seed: int) -> pd.DataFrame:
    """A seat table of rotated seating in which seat 0 wins more often."""
    rng = np.random.default_rng(seed)
    rows = []
    for g in range(games):
        seat_of_slot = (np.arange(4) + g) % 4
        winner = 0 if rng.random() < 0.4 else int(rng.integers(4))
        for slot in range(4):
            seat = int(seat_of_slot[slot])
            rows.append((g, seat, slot, "simple", seat == winner))
    return pd.DataFrame(rows, columns=["game_id", "seat", "slot", "strategy", "won"])


def test_seat_test_permutes_the_seatings_as_the_whole_table():
    seats = rotated_seats(500, 1)
    test = scan.SeatTest()
    for _, part in seats.groupby(seats["game_id"] // 120):
        test.add(part)
    assert test.result(300, 5) == fairness.seat_permutation_test(seats, reps=300, seed=5)


def test_a_large_run_draws_the_same_null_from_the_counts():
    seats = rotated_seats(2000, 2)
    exact, counted = scan.SeatTest(), scan.SeatTest(exact_games=100)  # the second keeps counts only
    for _, part in seats.groupby(seats["game_id"] // 400):
        exact.add(part)
        counted.add(part)
    a, b = exact.result(1000, 5), counted.result(1000, 5)
    assert counted.sizes[4]["codes"] is None and exact.sizes[4]["codes"] is not None
    assert a["gap"] == b["gap"] and a["method"] == b["method"]
    # both draw the gap of seatings dealt at random: the same distribution, other draws
    assert b["null_median"] == pytest.approx(a["null_median"], rel=0.1)
    assert b["null_95"] == pytest.approx(a["null_95"], rel=0.1)
    assert a["p_value"] < 0.01 and b["p_value"] < 0.01  # seat 0 wins 40% + 15%


def test_dealt_tables_keep_the_margins_and_the_hypergeometric_mean():
    observed = np.array([[30, 5, 0], [10, 20, 15], [0, 5, 15]])
    rng = np.random.default_rng(0)
    draws = np.array([scan._dealt_table(rng, observed) for _ in range(4000)])
    assert (draws.sum(axis=2) == observed.sum(axis=1)).all() and (draws.sum(axis=1) == observed.sum(axis=0)).all()
    expected = np.outer(observed.sum(axis=1), observed.sum(axis=0)) / observed.sum()
    sd = draws.std(axis=0) / np.sqrt(len(draws))
    assert (np.abs(draws.mean(axis=0) - expected) < 5 * sd + 1e-9).all()


def test_value_counts_give_pandas_quantiles_and_numpy_medians():
    rng = np.random.default_rng(0)
    for trial in range(300):
        x = rng.integers(-40, 40, size=int(rng.integers(1, 200))) * int(rng.choice([1, 1000]))
        x = x / 7.0 if trial % 3 == 0 else x
        counts = scan.ValueCounts()
        for part in np.array_split(x, 3):
            counts.add(part)
        series = pd.Series(x, dtype=float)
        for q in (0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95):
            assert counts.quantile(q) == series.quantile(q)
        assert counts.median() == float(np.median(x))
        assert (counts.sorted()[0].min(), counts.sorted()[0].max(), counts.n) == (x.min(), x.max(), len(x))


def test_counter_orders_ties_as_value_counts():
    rng = np.random.default_rng(1)
    for _ in range(300):
        x = rng.choice(["fortune", "tiebreak", "draw", "last_standing"], size=int(rng.integers(1, 30)))
        counter = scan.Counter()
        for part in np.array_split(x, 3):
            if len(part):
                counter.add(part)
        expected = pd.Series(x).value_counts()
        got = counter.value_counts()
        assert list(got.index) == list(expected.index) and list(got) == list(expected)


def test_american_gangsters_generic_tables_are_the_whole_tables_figures(tmp_path):
    out = tmp_path / "ag"
    sim.run(game="ag", players=4, strategies="balanced,politician,racketeer,warlord", games=120, seed=5,
            workers=1, batch_size=40, out=out)
    produced = tables_of(build_report(sim.load(out), command="c"))
    expected = reference_tables(whole(sim.load(out)))
    for name, table in expected.items():
        if name == "pairwise-wins":
            pd.testing.assert_frame_equal(produced[name], table, check_dtype=False)
        else:
            assert_same(produced[name], table, name)
    assert "ag-endings" in produced  # the game's own sections still read the whole tables


def test_totals_of_many_columns_add_without_a_fragmentation_warning():
    """The usage tally adds one column per decision choice (well over a hundred): built in one
    piece, it sums them without pandas' PerformanceWarning (a frame of many blocks)."""
    import warnings

    import numpy as np
    import pandas as pd

    from sim.analysis.scan import Totals

    seats = pd.DataFrame({"strategy": ["a", "b", "a", "b"]})
    used = {f"used:{i}": np.arange(4, dtype=float) for i in range(150)}
    with warnings.catch_warnings():
        warnings.simplefilter("error", pd.errors.PerformanceWarning)
        totals = Totals(list(used)).add(seats, used)
    assert totals.sums.loc["a", "used:7"] == 2.0 and totals.sums.loc["b", "_seats"] == 2.0
