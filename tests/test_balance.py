"""Win rates, endings, first-player pooling, the leader curve and the seat permutation test, against
their closed forms or a direct count."""

import math

import numpy as np
import pandas as pd
import pytest

from sim.analysis import fairness, quality
from sim.analysis.stats import Z95, wilson


def test_wilson_interval_matches_the_closed_form():
    k, n, z = 37, 120, Z95
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    low, high = wilson(k, n)
    assert low == pytest.approx(centre - half) and high == pytest.approx(centre + half)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0  # exact ends, no rounding past them


def test_win_rates_count_wins_per_group():
    seats = pd.DataFrame({"strategy": ["a", "b", "a", "b", "a", "b"], "seat": [0, 1, 1, 0, 0, 1],
                          "won": [True, False, False, True, True, False]})
    table = fairness.win_rates(seats, "strategy").set_index("strategy")
    assert table.loc["a", "seats"] == 3 and table.loc["a", "wins"] == 2
    assert table.loc["b", "win_rate"] == pytest.approx(1 / 3)
    assert (table["lo"] <= table["win_rate"]).all() and (table["win_rate"] <= table["hi"]).all()


def test_endings_shares_add_up_and_mark_tie_breaks():
    games = pd.DataFrame({"decided_by": ["fortune"] * 7 + ["random"] * 2 + ["last_standing"]})
    table = quality.endings(games).set_index("decided_by")
    assert table.loc["fortune", "share"] == pytest.approx(0.7)
    assert np.isclose(table["share"].sum(), 1.0)
    assert table["tie_break"].to_dict() == {"fortune": False, "random": True, "last_standing": False}


def test_first_player_pools_the_rare_values():
    seats = pd.DataFrame({"times_first": [0] * 40 + [1] * 40 + [2] * 5 + [3] * 2,
                          "won": [True] * 10 + [False] * 30 + [True] * 20 + [False] * 20 + [True] * 7})
    table = quality.first_player(seats, min_seats=30)
    assert table["times_first"].tolist() == ["0", "1+"]
    assert table["seats"].tolist() == [40, 47] and table["wins"].tolist() == [10, 27]


def test_leader_curve_on_a_hand_made_game():
    # game 0: 4 turns, seat 1 wins, leads from turn 3; game 1: 2 turns, seat 0 leads throughout
    games = pd.DataFrame({"game_id": [0, 1], "turns": [4, 2], "winner_seat": [1, 0]})
    fortunes = {0: [(5, 5), (6, 4), (6, 5), (4, 7), (3, 9)], 1: [(5, 5), (7, 3), (8, 2)]}
    rows = [(g, t, s, f) for g, per_turn in fortunes.items() for t, pair in enumerate(per_turn)
            for s, f in enumerate(pair)]
    turns = pd.DataFrame(rows, columns=["game_id", "turn", "seat", "fortune"])
    curve = quality.leader_curve(turns, games).set_index("progress")
    # at 50%: game 0 at turn 2 (seat 0 leads), game 1 at turn 1 (seat 0 leads) -> 1 of 2
    assert curve.loc[0.5, "winner_leads"] == 0.5
    assert curve.loc[1.0, "winner_leads"] == 1.0 and curve.loc[0.1, "games"] == 2


def rotated_seats(n_games, strength, seat_bonus, seed=0):
    """Four slots (strengths) rotated over four seats; the winner drawn from strength x seat bonus."""
    rng = np.random.default_rng(seed)
    rows = []
    for g in range(n_games):
        seat_of_slot = [(slot + g) % 4 for slot in range(4)]
        weights = np.array([strength[s] * seat_bonus[seat_of_slot[s]] for s in range(4)])
        winner = rng.choice(4, p=weights / weights.sum())
        rows += [{"game_id": g, "slot": s, "seat": seat_of_slot[s], "strategy": "ab"[s % 2],
                  "won": s == winner} for s in range(4)]
    return pd.DataFrame(rows)


def test_seat_permutation_test_finds_a_seat_advantage_and_not_a_strategy_one():
    fair = rotated_seats(2000, [3, 1, 3, 1], [1, 1, 1, 1])
    unfair = rotated_seats(2000, [3, 1, 3, 1], [1.5, 1, 1, 1])
    assert fairness.seat_permutation_test(fair, reps=400)["p_value"] > 0.01
    assert fairness.seat_permutation_test(unfair, reps=400)["p_value"] < 0.01


def test_seat_permutation_null_matches_a_direct_shuffle():
    seats = rotated_seats(400, [3, 1, 3, 1], [1, 1, 1, 1], seed=2)
    got = fairness.seat_permutation_test(seats, reps=600, seed=1)
    # brute force: deal the games' seatings (game_id % 4) out again, one game at a time
    rng = np.random.default_rng(9)
    won = seats.sort_values(["game_id", "slot"])["won"].to_numpy().reshape(-1, 4)
    gaps = []
    for _ in range(600):
        rotation = rng.permutation(np.arange(400) % 4)
        wins = np.zeros(4)
        for g in range(400):
            for slot in range(4):
                wins[(slot + rotation[g]) % 4] += won[g, slot]
        gaps.append((wins.max() - wins.min()) / 400)
    assert got["null_median"] == pytest.approx(np.median(gaps), abs=0.006)
    assert got["null_95"] == pytest.approx(np.quantile(gaps, 0.95), abs=0.012)


def test_fixed_seating_of_different_strategies_is_not_testable():
    seats = rotated_seats(50, [1, 1, 1, 1], [1, 1, 1, 1])
    seats["seat"] = seats["slot"]
    assert fairness.seat_permutation_test(seats, reps=50) is None
    one = seats.assign(strategy="a")
    assert fairness.seat_permutation_test(one, reps=50)["method"] == "wins shuffled among seats"
