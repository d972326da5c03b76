"""Pig's rules (sim/rules/pig/rules.md) held on recorded games: every roll, bust and hold as the
rules say (PIG-2..4), the goal wins at once (PIG-5), the cap ends a game by score (PIG-6), the
forward model steps as the batch plays, and the ruleset refuses what it must."""

import numpy as np
import pytest

from sim.pig import events as E
from sim.pig import state as S
from sim.pig.forward import Forward
from sim.pig.game import Lineup, play_many, play_one, result
from sim.rules import Ruleset, RulesetError


def rows_of(played):
    return played.game.events[: int(played.game.g[S.N_EVENTS])]


@pytest.mark.parametrize("seed", range(4))
def test_every_roll_bust_and_hold_follows_the_rules(seed):
    """PIG-2: faces 1..6; PIG-3: a 1 loses the turn total, any other face adds; PIG-4: a hold
    banks the turn total; the first roll of a turn is not a choice."""
    played = play_one(seed, 3, ["random", "hold10", "optimal"])
    score, total, rolled_this_turn = [0, 0, 0], 0, False
    for _, code, a, b, c, *_ in rows_of(played).tolist():
        if code == E.EV_TURN:
            assert total == 0
            rolled_this_turn = False
        elif code == E.EV_ROLL:
            assert 2 <= b <= 6 and c == total + b
            total, rolled_this_turn = c, True
        elif code == E.EV_BUST:
            assert b == total       # the score stays as it was
            total = 0
        elif code == E.EV_HOLD:
            assert rolled_this_turn and b == total and c == score[a] + b
            score[a], total = c, 0
    assert score == played.game.pl[:3, S.SCORE].tolist()


def test_the_goal_wins_at_once_and_the_others_rank_by_score():
    """PIG-5: the winner reached the goal on holding; nobody else did; ranks follow the scores."""
    for game_id in range(20):
        r = result(play_one(2, 4, ["hold10", "hold20", "hold25", "optimal"], game_id=game_id))
        scores = [s["score"] for s in r["seats"]]
        winner = r["winner"]
        assert r["ended_by"] == "goal" and scores[winner] >= 100
        assert all(s < 100 for p, s in enumerate(scores) if p != winner)
        for p, seat in enumerate(r["seats"]):
            assert seat["rank"] == (1 if p == winner else 2 + sum(q != winner and scores[q] > scores[p]
                                                                  for q in range(4)))


def test_the_cap_ends_a_game_by_the_highest_score():
    """PIG-6: after end.turn_cap rounds the highest score wins; equal highest share (no winner)."""
    rs = Ruleset.load(None, {"goal": 200, "end.turn_cap": 10}, game="pig")
    games, seats, _ = play_many(4, 200, 2, Lineup.of(["random"], 2), rs, check=True)
    from sim.pig.batch import GAME_COLUMNS, SEAT_COLUMNS

    g = {name: games[:, i] for i, name in enumerate(GAME_COLUMNS)}
    assert (g["cap_hit"] == 1).all() and (g["turns"] == 10).all() and (g["invariant"] == 0).all()
    fortune = seats[:, :, SEAT_COLUMNS.index("fortune")]
    alone = fortune[:, 0] != fortune[:, 1]
    assert (g["winner_seat"][alone] == fortune[alone].argmax(axis=1)).all()
    assert (g["winner_seat"][~alone] == -1).all() and (g["decided_by"][~alone] == S.BY_SHARED).all()


def test_a_two_faced_die_rolls_only_ones_and_twos():
    played = play_one(1, 2, ["hold10"], Ruleset.load(None, {"die.faces": 2, "goal": 20}, game="pig"))
    faces = [b for _, code, a, b, *_ in rows_of(played).tolist() if code == E.EV_ROLL]
    assert faces and set(faces) == {2}


def test_the_forward_model_holding_at_once_banks_each_first_roll():
    """Seat 0 decides from outside and always holds: each of its turns banks its first roll (or
    nothing after a 1); seat 1 plays its strategy as in the batch."""
    fw = Forward.new(None, ["hold20", "optimal"], seed=4, stop=(0,), record=True)
    while not fw.over:
        d = fw.decision()
        assert d.seat == 0 and d.kind == "roll_or_hold" and d.labels[1].startswith("hold")
        total = int(fw.game.g[S.TURN_TOTAL])
        assert 2 <= total <= 6
        fw.apply(1)
    banked = [b for _, code, a, b, *_ in fw.game.events[: int(fw.game.g[S.N_EVENTS])].tolist()
              if code == E.EV_HOLD and a == 0]
    assert banked and all(2 <= b <= 6 for b in banked)
    assert fw.result()["fortunes"][0] == sum(banked)


def test_the_rules_refuse_a_usual_table_outside_the_range():
    with pytest.raises(RulesetError, match="players.usual = 3 is outside"):
        Ruleset.load(None, {"players.max": 2, "players.usual": 3}, game="pig")
    with pytest.raises(ValueError, match="5 players: Pig is for 2 to 4"):
        play_one(0, 5)


def test_a_preset_of_the_table_family_needs_its_table(tmp_path):
    import strategies

    path = tmp_path / "mine.toml"
    path.write_text('doc = "mine"\nfamily = "table"\n')
    with pytest.raises(strategies.StrategyError, match="plays from a file: give \\[table\\]"):
        strategies.load(str(path), "pig")
    path.write_text('doc = "mine"\nfamily = "hold"\n[table]\nfile = "x.npz"\nsha256 = "0"\n')
    with pytest.raises(strategies.StrategyError, match="reads no table: remove \\[table\\]"):
        strategies.load(str(path), "pig")


def test_an_optimal_seat_reads_its_own_table_among_the_lineups():
    lineup = Lineup.of(["hold20", "optimal", "random"], 3)
    from sim.pig.game import tables_of
    from strategies.pig.params import TABLE_SLOT

    held, params = tables_of(lineup, Ruleset.load(game="pig"))
    assert held.shape == (1, 100, 100, 100) and params[1, TABLE_SLOT] == 0
    assert np.array_equal(held[0][:, :, 0], np.zeros((100, 100)))   # nobody holds on nothing
