"""The designer's per-seat knobs of American Gangsters (ruleset section `seats`): defaults that
change no game, and each knob acting where it says (seats.bags at setup, AG-C2; seats.first_godfather
on the godfather card of turn 1, AG-C5)."""

import numpy as np
import pytest

from sim.ag import events as E
from sim.ag import state as S
from sim.ag.chapters.setup import setup
from sim.ag.env import make_env
from sim.ag.state import bag_count
from sim.ag.game import Lineup, play_one
from sim.rng import run_key
from sim.rules import Ruleset, RulesetError
from sim.shared.narrate import recorded

PLAYERS = 4


def ag(**overrides) -> Ruleset:
    return Ruleset.load(game="ag", overrides={k.replace("__", "."): v for k, v in overrides.items()})


def after_setup(rs):
    lineup = Lineup.of(["random"], PLAYERS)
    env = make_env(rs, *lineup.seated(lineup.seatings_for(0, 0, 1)[0], S.MAX_SEATS)[:2])
    game = S.new_game()
    setup(game, env, PLAYERS, run_key(0), 0)
    return game


def test_seats_bags_draws_each_seat_its_extra_bags_from_the_bank():   # AG-C2
    base = after_setup(ag())
    paid = after_setup(ag(seats__bags=[0, 1, 2, 3, 9]))
    got = [bag_count(paid, p) - bag_count(base, p) for p in range(PLAYERS)]
    assert got == [0, 1, 2, 3]                                   # seat 5 is not at a 4-player table
    assert bag_count(base, S.BANK_ROW) - bag_count(paid, S.BANK_ROW) == 6


def first_godfather(rs, game_id=1) -> int:
    rows = recorded(play_one(3, PLAYERS, ["random"], rs, game_id).game, S.N_EVENTS)
    return next(int(r[3]) for r in rows if r[1] == E.EV_TURN)


def test_first_godfather_names_who_holds_the_card_in_turn_1():      # AG-C5
    assert first_godfather(ag()) == 0
    assert first_godfather(ag(seats__first_godfather="last_seat")) == PLAYERS - 1
    drawn = {first_godfather(ag(seats__first_godfather="random"), g) for g in range(12)}
    assert len(drawn) > 1 and drawn <= set(range(PLAYERS))


def test_the_defaults_change_no_game():
    a = play_one(5, PLAYERS, ["random"], ag(), 2)
    b = play_one(5, PLAYERS, ["random"], ag(seats__bags=[0] * 5, seats__first_godfather="seat_1"), 2)
    assert np.array_equal(recorded(a.game, S.N_EVENTS), recorded(b.game, S.N_EVENTS))


@pytest.mark.parametrize("value", [[0, -1], [0, 1.5], [], "x"])
def test_a_bad_seat_list_is_refused_by_name(value):
    with pytest.raises(RulesetError, match="seats.bags"):
        ag(seats__bags=value)
