"""The forward model (sim.nyk.forward): games driven decision by decision are the batch's games,
a determinized state agrees with the seat's view and varies what it cannot see, options are
checked, and copies are independent."""

import numpy as np
import pytest

from sim import rng
from sim.nyk import state as S
from sim.nyk.batch import GAME_COLUMNS, SEAT_COLUMNS
from sim.nyk.decisions import DECISIONS
from sim.nyk.env import make_env, N_POLICY_PARAMS
from sim.nyk.forward import Forward, driven_games
from sim.nyk.game import Lineup, play_many
from sim.rules import Ruleset
from strategies import available
from strategies.nyk.learned import weights_of

PRESETS = available()


def lineups_of_every_preset():
    """Four presets a table, each preset at three tables."""
    return [[PRESETS[(i + j) % len(PRESETS)] for j in range(4)] for i in range(len(PRESETS))]


def driven(rs, lineup, seed, n, halt=0b1111):
    env = make_env(rs, np.zeros(S.MAX_SEATS, np.int64), np.zeros((S.MAX_SEATS, N_POLICY_PARAMS)))
    env.learned[:] = weights_of(lineup.tables)   # a learned seat's weights, as the batch's env carries them
    games = np.zeros((n, len(GAME_COLUMNS)), np.int64)
    seats = np.zeros((n, 4, len(SEAT_COLUMNS)), np.int64)
    snap, work = (np.zeros(1, S.GAME_DTYPE).view(np.recarray) for _ in range(2))
    steps = driven_games(snap, work, np.array([env]).view(np.recarray), lineup.kinds,
                         lineup.seatings, lineup.params, lineup.restrict, 4, rng.run_key(seed), 0,
                         n, halt, games, seats)
    return games, seats, steps


@pytest.mark.parametrize("specs", lineups_of_every_preset(), ids="+".join)
def test_games_driven_decision_by_decision_are_the_batch_games(specs):
    rs = Ruleset.load()
    lineup = Lineup.of(specs, 4)
    n = 120  # x 12 tables: 1,440 games, every preset at 3 tables and every seat
    batch_games, batch_seats, _ = play_many(11, n, 4, lineup, rs)
    games, seats, steps = driven(rs, lineup, 11, n)
    assert steps > 20 * n  # every decision of every seat went through apply_choice
    np.testing.assert_array_equal(games, batch_games)
    np.testing.assert_array_equal(seats, batch_seats)


def test_the_python_face_plays_the_batch_game():
    rs = Ruleset.load()
    specs = ["tuned", "random", "enforcer", "balanced"]
    batch_games, batch_seats, _ = play_many(3, 4, 4, Lineup.of(specs, 4), rs)
    for game_id in range(4):
        fw = Forward.new(rs, specs, seed=3, game_id=game_id, stop=[0, 2])
        while (d := fw.decision()) is not None:
            assert d.seat in (0, 2) and d.kind in DECISIONS and len(d.labels) == len(d.options) > 1
            fw.apply_policy()
        result = fw.result()
        fortunes = batch_seats[game_id, :, SEAT_COLUMNS.index("fortune")]
        assert result["fortunes"] == fortunes.tolist()
        assert result["winner"] == batch_games[game_id, GAME_COLUMNS.index("winner_seat")]
        assert result["turns"] == batch_games[game_id, GAME_COLUMNS.index("turns")]


def halted(seed=5, game_id=1, turns=3):
    """A game at seat 0's first decision of turn `turns` (hands dealt, missions held)."""
    fw = Forward.new(None, ["balanced"] * 4, seed=seed, game_id=game_id, stop=[0])
    while fw.game.g[S.TURN] < turns:
        fw.apply_policy()
    return fw


def hidden_facts(fw, seat):
    g = fw.game
    hands = [sorted(g.pl[q, S.HAND0:S.HAND0 + g.pl[q, S.HAND_N]].tolist()) for q in range(4) if q != seat]
    return {"hands": hands, "resources": g.g[S.R_DECK0:S.R_DECK0 + g.g[S.R_DECK_N]].tolist(),
            "henchmen": g.g[S.H_DECK0:S.H_DECK0 + g.g[S.H_DECK_N]].tolist(),
            "dice": g.rng[S.S_DICE0 + seat].tolist(),
            "others_coins": g.rng[S.S_POLICY0 + (seat + 1) % 4].tolist()}


def test_a_determinized_state_agrees_with_the_seat_view_and_varies_the_rest():
    fw = halted()
    seen, pending = fw.seen(0), fw.decision()
    own_coins = fw.game.rng[S.S_POLICY0 + 0].tolist()
    variants = {k: [] for k in hidden_facts(fw, 0)}
    for key in range(1, 13):
        det = fw.determinize(0, key)
        assert det.seen(0) == seen  # NYK-A1, NYK-S2: everything seat 0 sees is as it was
        d = det.decision()
        assert d.seat == pending.seat and d.kind == pending.kind
        np.testing.assert_array_equal(d.options, pending.options)
        assert det.game.rng[S.S_POLICY0 + 0].tolist() == own_coins
        for k, v in hidden_facts(det, 0).items():
            variants[k].append(repr(v))
        again = fw.determinize(0, key)  # one key, one world
        assert hidden_facts(again, 0) == hidden_facts(det, 0)
    truth = hidden_facts(fw, 0)
    for k, seen_values in variants.items():
        assert len(set(seen_values)) > 6, f"{k} hardly varies across keys"
        assert repr(truth[k]) not in seen_values or k == "hands", f"{k}: the true {k} leaked"


def test_a_determinized_state_plays_on_the_same_way_twice():
    det = halted().determinize(0, 99)
    other = det.copy()
    for fw in (det, other):
        while not fw.over:
            fw.apply_policy()
    assert det.result() == other.result()
    assert det.result()["turns"] > 3


def test_apply_checks_the_option():
    fw = halted(turns=1)
    n = len(fw.decision().options)
    for bad in (-1, n, 1.5, True, "0"):
        with pytest.raises(ValueError, match="option"):
            fw.apply(bad)
    fw.apply(n - 1)
    while not fw.over:
        fw.apply(0)
    with pytest.raises(ValueError, match="game is over"):
        fw.apply(0)
    assert fw.decision() is None and sorted(fw.result()["ranks"])[0] == 1


def test_a_copy_is_independent():
    fw = halted(turns=2)
    before = (fw.decision().options.copy(), fw.game.g.copy(), fw.snap.copy())
    other = fw.copy()
    while not other.over:
        k = len(other.decision().options) - 1
        other.apply(k)
    np.testing.assert_array_equal(fw.decision().options, before[0])
    np.testing.assert_array_equal(fw.game.g, before[1])
    np.testing.assert_array_equal(fw.snap, before[2])
    replay = fw.copy()
    for g in (fw, replay):
        while not g.over:
            g.apply_policy()
    assert fw.result() == replay.result()


def test_bad_stop_seat_and_decision_kind_are_refused():
    with pytest.raises(ValueError, match="seat 4 is not at this table"):
        Forward.new(None, ["simple"] * 4, stop=[4])
    with pytest.raises(ValueError, match="unknown decision kind 'moves'"):
        Forward.new(None, ["simple"] * 4, stop=[0], kinds=["moves"])
