"""American Gangsters components: AG-C1 (2 to 5 players), AG-C4 (4 Barons, 4 Caids), AG-C5 (the
godfather card passes left and the godfather acts first), AG-C8 (the hospital is always there)."""

import pytest
from ag_scenario import Table, play

from sim.ag.chapters import base
from sim.ag.chapters import placement
from sim.ag import state as S
from sim.ag.game import play_one
from strategies.ag.policy import PARAMETRIC


@pytest.mark.parametrize("players", [1, 6])
def test_ag_c1_two_to_five_players(players):
    with pytest.raises(ValueError, match="American Gangsters is for 2 to 5"):
        play_one(1, players)


def test_ag_c4_four_barons_and_four_caids_held_by_families_or_nobody():
    game, _ = play(5, PARAMETRIC, seed=2)
    titles = list(game.g[S.BARON0:S.BARON0 + 4]) + list(game.g[S.CAID0:S.CAID0 + 4])
    assert len(titles) == 8 and all(S.NO <= t < 5 for t in titles)
    assert sum(t >= 0 for t in titles) >= 1


def test_ag_c5_the_godfather_card_passes_left_and_the_godfather_places_first():
    t = Table(3)
    for turn in range(4):
        base.fill_order(t.game)
        assert t.g[S.GODFATHER] == turn % 3
        assert list(t.g[S.ORDER0:S.ORDER0 + 3]) == [(turn + i) % 3 for i in range(3)]
        t.end_of_turn()


def test_ag_c8_the_hospital_is_slot_zero_every_turn():
    t = Table(2)
    placement.reveal_locations(t.game, t.env)
    assert t.g[S.SHOW0] == S.NO and t.g[S.SHOW_N] == 2
    t.script(0, 0, 0, 0, 0, 0, 0, 0)                   # every piece to option 0: the hospital
    t.placement()
    assert t.at[S.HOSPITAL, 0, S.BOSS] == 1 and t.at[S.HOSPITAL, 1, S.BOSS] == 1
