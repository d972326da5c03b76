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


def hand_made_turns():
    """Three 3-player games, fortunes after each turn (turn 0 = the start), winners known."""
    paths = {  # game: (winner, [[seat 0, seat 1, seat 2] per turn 0..T])
        0: (0, [[0, 0, 0], [5, 1, 0], [6, 2, 0], [9, 3, 1]]),          # led throughout
        1: (2, [[0, 0, 0], [4, 3, 0], [4, 5, 1], [4, 6, 9]]),          # last at mid-game, then wins
        2: (1, [[0, 0, 0], [3, 3, 1], [2, 8, 0], [0, 9, 0], [0, 10, 0]]),  # seat 0 broke from turn 3
    }
    turns, games, seats = [], [], []
    for g, (winner, path) in paths.items():
        for t, row in enumerate(path):
            turns += [{"game_id": g, "turn": t, "seat": s, "fortune": f} for s, f in enumerate(row)]
        games.append({"game_id": g, "n_players": 3, "turns": len(path) - 1, "winner_seat": winner,
                      "lead_changes": 0})
        seats += [{"game_id": g, "seat": s, "won": s == winner, "alive": not (g == 2 and s == 0)}
                  for s in range(3)]
    return pd.DataFrame(turns), pd.DataFrame(games), pd.DataFrame(seats)


def test_runaway_leader_by_turn_on_hand_made_games():
    turns, games, _ = hand_made_turns()
    table = quality.runaway_leader(turns, games, min_games=1).set_index("turn")
    # after turn 1: leaders 0 (wins), 0 (loses), tie (left out) -> 1 of 2
    assert (table.loc[1, "games"], table.loc[1, "count"]) == (2, 1)
    # after turn 2: leaders 0 (wins), 1 (loses), 1 (wins) -> 2 of 3
    assert (table.loc[2, "games"], table.loc[2, "count"]) == (3, 2)
    # after turn 3 only game 2 goes on, led by its winner
    assert (table.loc[3, "games"], table.loc[3, "count"]) == (1, 1)


def test_mid_game_place_of_the_winner_and_comeback_from_last():
    turns, games, _ = hand_made_turns()
    table = quality.mid_game_rank(turns, games).set_index("place")
    # mid-game turn 1, 1, 2: winners 0 first; 2 last (0 < 3 < 4); 1 first (8)
    assert table.loc["1", "count"] == 2 and table.loc["3", "count"] == 1
    assert table.loc["last", "count"] == 1 and table.loc["last", "share"] == pytest.approx(1 / 3)


def test_first_elimination_is_the_turn_the_seat_went_to_zero_for_good():
    turns, games, seats = hand_made_turns()
    table = quality.first_elimination(turns, games, seats).set_index("measure")
    assert table.loc["games with a player out", "count"] == 1
    assert table.loc["turn of the first player out", "mean"] == 3


def test_kingmaking_exposure_by_its_definition():
    turns, games, _ = hand_made_turns()
    table = quality.kingmaking(turns, games).set_index("measure")
    # game 0: before the last turn (after turn 2) 6, 2, 0; largest one-turn gain 5: seat 2 cannot
    # reach 6 (0 + 5 < 6) and seat 1 is within 5 -> exposed; leader 0 won -> not flipped.
    # game 1: 4, 5, 1; largest gain 4 (seat 0's first turn): seat 2 at 1 + 4 can still tie the
    # leader's 5 -> every seat can win -> not exposed. game 2: 0, 9, 0; gain 5: seats 0 and 2 hopeless, but the
    # runner-up is 9 behind -> first place not open -> not exposed.
    assert table.loc["kingmaking exposure", "count"] == 1
    assert table.loc["exposed, and the leader before the last turn lost", "count"] == 0


def test_lead_changes_per_turn_divides_by_the_turns_that_could_change_it():
    games = pd.DataFrame({"lead_changes": [0, 3, 2], "turns": [1, 4, 11]})
    assert quality.lead_changes_per_turn(games).tolist() == [0.0, 1.0, 0.2]


def test_cycles_find_rock_paper_scissors():
    rows = []
    beats = {("r", "s"), ("s", "p"), ("p", "r")}
    for g, (a, b) in enumerate([("r", "s"), ("s", "p"), ("p", "r")] * 40):
        for seat, name in enumerate((a, b)):
            ahead = (a, b) in beats if seat == 0 else (b, a) in beats
            rows.append({"game_id": g, "seat": seat, "strategy": name, "rank": 1 if ahead else 2, "won": ahead})
    seats = pd.DataFrame(rows)
    seats["strategy"] = pd.Categorical(seats["strategy"], categories=["r", "p", "s"])
    table = fairness.cycles(seats, reps=200)
    assert len(table) == 1 and bool(table.loc[0, "significant"]) and table.loc[0, "weakest"] == 1.0
    pairs = fairness.head_to_head(seats, reps=200).set_index(["a", "b"])
    assert pairs.loc[("r", "s"), "share"] == 1.0 and pairs.loc[("r", "p"), "share"] == 0.0


def test_neighbours_count_the_strategy_seated_next():
    seats = pd.DataFrame({"game_id": [0, 0, 0, 1, 1, 1], "seat": [0, 1, 2, 0, 1, 2],
                          "strategy": ["a", "b", "c", "a", "c", "b"], "won": [1, 0, 0, 0, 0, 1]})
    table = fairness.neighbours(seats).set_index(["strategy", "next_strategy"])
    assert table.loc[("a", "b"), "win_rate"] == 1.0 and table.loc[("a", "c"), "win_rate"] == 0.0
    assert table.loc[("c", "a"), "seats"] == 1 and table.loc[("b", "a"), "wins"] == 1
    assert table.loc[("a", "b"), "vs_overall"] == pytest.approx(0.5)


def test_seat_advantage_by_player_count_against_direct_counts():
    rng = np.random.default_rng(1)
    rows, games = [], []
    for g in range(400):
        n = 3 if g % 2 else 4
        winner = 0 if rng.random() < 0.4 else int(rng.integers(0, n))
        games.append({"game_id": g, "n_players": n})
        rows += [{"game_id": g, "seat": s, "won": s == winner} for s in range(n)]
    table = fairness.seat_advantage(pd.DataFrame(games), pd.DataFrame(rows)).set_index(["n_players", "seat"])
    four = pd.DataFrame(rows).merge(pd.DataFrame(games))
    four = four[four["n_players"] == 4]
    rates = four.groupby("seat")["won"].mean()
    assert table.loc[(4, 0), "advantage"] == pytest.approx(rates[0] - rates.mean())
    assert table.loc[(4, 0), "adv_lo"] > 0 and set(table.index.get_level_values(0)) == {3, 4}


def test_win_rates_are_clustered_by_game_when_a_group_holds_two_seats():
    rng = np.random.default_rng(4)
    rows = []
    for g in range(2000):
        winner = int(rng.integers(0, 4))
        rows += [{"game_id": g, "seat": s, "strategy": "ab"[s % 2], "won": s == winner} for s in range(4)]
    seats = pd.DataFrame(rows)
    table = fairness.win_rates(seats, "strategy").set_index("strategy")
    # one winner per game: a's two seats never both win (correlation -1/3 between them), so the
    # variance of a's rate is (1 - 1/3) times the independent seats' one: the interval is
    # sqrt(2/3) = 0.82 times as wide
    independent = wilson(table.loc["a", "wins"], table.loc["a", "seats"])
    ratio = (table.loc["a", "hi"] - table.loc["a", "lo"]) / (independent[1] - independent[0])
    assert ratio == pytest.approx(np.sqrt(2 / 3), rel=0.05)
    by_seat = fairness.win_rates(seats, "seat")  # one seat per game: the same as independent seats
    assert (by_seat["hi"] - by_seat["lo"]).to_numpy() == pytest.approx(
        np.subtract(*wilson(by_seat["wins"], by_seat["seats"])[::-1]), rel=0.01)
