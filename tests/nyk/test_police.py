"""NYK-P1..P7: police cars, checks, interrogations, resisting, custody."""

import numpy as np
import pytest
from scenario import (
    BROADWAY, CHELSEA, GREENWICH, HARLEM, SOHO, Table, mission_ids,
)

from sim.nyk.chapters import cards as cards_rules
from sim.nyk.chapters import police
from sim.nyk import state as S
from sim.nyk.decisions import OP_ACCEPT, OP_PROVOKE

FURYO, LOOXY, CHARLIE, NICKY = 7, 8, 10, 15  # J, Q of spades, 9 of hearts, 9 of diamonds


def empty_draw_pile(t):
    cards = t.deck()
    t.g[S.R_DISC0:S.R_DISC0 + len(cards)] = cards
    t.g[S.R_DISC_N] = len(cards)
    t.g[S.R_DECK_N] = 0


@pytest.mark.parametrize("cars, after", [(2, 3), (3, 4), (4, 4)])
def test_nyk_p1_a_reshuffle_adds_a_police_car_at_broadway_up_to_four(cars, after):
    t = Table()
    t.police(*[HARLEM] * cars)
    empty_draw_pile(t)
    assert cards_rules.draw_card(t.game, t.env, 0)
    assert t.g[S.R_DECK_N] == 31 and t.g[S.R_DISC_N] == 0 and t.hand(0)
    assert sum(d != S.PC_OFF for d in t.cars()) == after
    assert t.cars().count(BROADWAY) == after - cars


def test_nyk_p1_police_max_cars_option_caps_the_cars():
    t = Table(overrides={"police.max_cars": 2})
    t.police(HARLEM, HARLEM)
    empty_draw_pile(t)
    cards_rules.draw_card(t.game, t.env, 0)
    assert t.cars() == [HARLEM, HARLEM, S.PC_OFF, S.PC_OFF]


def test_nyk_p2_only_a_discarded_card_moves_on_past_a_check():
    t = Table()
    t.at(0, SOHO)
    t.police(GREENWICH, BROADWAY)
    t.begin(0)
    t.steer((4, 3), (5, 4))  # the second pick would be taken if a step were offered
    t.journey(0, SOHO, 1)
    assert t.ch[0, S.LOC] == GREENWICH
    t2 = Table()
    t2.at(0, SOHO)
    t2.police(GREENWICH, BROADWAY)
    t2.give(0, 0)
    t2.begin(0)
    # SOHO: stop, (step, card step) x3 -> GREENWICH on foot; there: stop, card step x4 -> CHELSEA
    t2.steer((7, 5), (5, 4))
    t2.journey(0, SOHO, 1)
    assert t2.ch[0, S.LOC] == CHELSEA and t2.hand(0) == []
    assert t2.pl[0, S.C_CARDS_AS_MOVES] == 1


def test_nyk_p3_only_at_risk_missions_are_barred_where_the_police_are():
    t = Table()
    m = mission_ids(crew=1, risk=0, secret=0)[0]
    t.row(0, m, SOHO, CHELSEA)
    t.hench(LOOXY, 0, SOHO)
    t.at(1, SOHO)
    t.police(SOHO, BROADWAY)
    t.begin(0)
    rows = t.options(0)
    assert (OP_ACCEPT, 0, 1 << LOOXY, 0, 0) in rows
    assert any(r[0] == OP_PROVOKE and r[1] == SOHO for r in rows)


def carrier(t, c, p, d, risk=1, dest=HARLEM):
    t.hench(c, p, d)
    return t.hold(mission_ids(crew=1, risk=risk)[c % 3], [c], dest)


def test_nyk_p4_police_moved_onto_an_at_risk_crew_interrogates_and_arrests_all_present():
    t = Table()
    m = carrier(t, LOOXY, 1, SOHO)
    t.hench(CHARLIE, 1, SOHO)
    other = t.hold(mission_ids(crew=1, risk=0)[0], [CHARLIE], CHELSEA)
    t.hench(NICKY, 1, CHELSEA)
    t.police(GREENWICH, BROADWAY)
    tiles = len(t.bag())
    t.force("9", "10", "K", "J", "J", "J")  # Q,9,9,10,K: pair of 9s < four jacks
    t.move_police(0, SOHO, 0)
    assert t.pl[1, S.C_INTERROGATIONS] == 1 and t.pl[1, S.C_ARRESTS] == 1
    for c in (LOOXY, CHARLIE):
        assert t.ch[c, S.WHERE] == S.W_CUSTODY and t.ch[c, S.CELL] == 3
        assert t.ch[c, S.LOC] == S.NO and t.ch[c, S.MISSION] == S.NO
    assert t.ch[NICKY, S.WHERE] == S.W_CONTROLLED and t.ch[NICKY, S.LOC] == CHELSEA
    assert t.ms[m, S.M_STATE] == S.MS_OUT and t.ms[other, S.M_STATE] == S.MS_OUT
    assert len(t.bag()) == tiles + 4
    t.check()


@pytest.mark.parametrize("who, arrested", [(FURYO, True), (LOOXY, False)])
def test_nyk_p4_the_crew_must_be_strictly_stronger(who, arrested):
    t = Table()
    m = carrier(t, who, 0, SOHO)
    t.police(SOHO, BROADWAY)
    t.force("9", "10", "K", "9", "10", "K")  # equal dice; J (Furyo) ties the car's J
    t.interrogate(0, SOHO)
    assert (t.ch[who, S.WHERE] == S.W_CUSTODY) == arrested
    assert (t.ms[m, S.M_STATE] == S.MS_OUT) == arrested
    assert t.pl[0, S.C_INTERROGATIONS] == 1


def test_nyk_p4_the_police_mover_chooses_whom_to_interrogate():
    t = Table(n_players=3)
    carrier(t, LOOXY, 1, SOHO)
    carrier(t, CHARLIE, 2, SOHO, dest=CHELSEA)
    t.police(GREENWICH, BROADWAY)
    t.force("9", "10", "K", "J", "J", "J")
    t.steer((2, 1))  # seat 0 moves the car and names seat 2
    t.move_police(0, SOHO, 0)
    assert t.pl[2, S.C_INTERROGATIONS] == 1 and t.ch[CHARLIE, S.WHERE] == S.W_CUSTODY
    assert t.pl[1, S.C_INTERROGATIONS] == 0 and t.ch[LOOXY, S.WHERE] == S.W_CONTROLLED


def test_nyk_p4_no_interrogation_without_an_at_risk_mission():
    t = Table()
    carrier(t, LOOXY, 1, SOHO, risk=0)
    t.police(GREENWICH, BROADWAY)
    t.move_police(0, SOHO, 0)
    assert t.pl[1, S.C_INTERROGATIONS] == 0 and t.ch[LOOXY, S.WHERE] == S.W_CONTROLLED


def resisting(extra, picks):
    t = Table()
    t.at(0, SOHO)
    m = carrier(t, LOOXY, 0, SOHO)
    t.police(SOHO, BROADWAY)
    # 3 dice each: A,Q,9,10,9 (nines) < J,K,K,9 (kings); then 2 more dice each
    t.force("9", "10", "9", "K", "K", "9", *extra)
    t.steer(*picks)
    t.interrogate(0, SOHO)
    assert t.dice_left() == 0 and t.pl[0, S.C_RESISTS] == 1
    return t, m


def test_nyk_p5_resisting_and_winning_sends_the_cars_back_next_turn():
    t, m = resisting(["K", "A", "9", "10"], [(2, 1)])  # aces and nines beat kings and nines
    assert t.pl[0, S.C_RESISTS_WON] == 1
    assert t.cars() == [S.PC_RETURNING, BROADWAY, S.PC_OFF, S.PC_OFF]
    assert t.ch[LOOXY, S.MISSION] == m and t.ch[LOOXY, S.WHERE] == S.W_CONTROLLED
    assert t.ch[0, S.WHERE] == S.W_CONTROLLED
    police.return_police(t.game, t.env)
    assert t.cars() == [BROADWAY, BROADWAY, S.PC_OFF, S.PC_OFF]
    t.check()


def test_nyk_p5_resisting_and_losing_costs_a_character_of_choice_the_rest_to_cell_3():
    t, m = resisting(["10", "J", "K", "Q"], [(2, 1), (2, 1)])  # police: three kings
    assert t.ch[LOOXY, S.WHERE] == S.W_DEAD and t.pl[0, S.C_CHARS_LOST] == 1
    assert t.ch[0, S.WHERE] == S.W_CUSTODY and t.ch[0, S.CELL] == 3
    assert t.ms[m, S.M_STATE] == S.MS_OUT and t.pl[0, S.ALIVE] == 1
    assert t.cars()[0] == SOHO
    t.check()


def test_nyk_p5_losing_the_affranchi_while_resisting_ends_the_players_game():
    t, _ = resisting(["10", "J", "K", "Q"], [(2, 1), (2, 0)])
    assert t.pl[0, S.ALIVE] == 0 and t.ch[LOOXY, S.WHERE] == S.W_DISCARD
    t.check()


def test_nyk_p5_henchmen_alone_cannot_resist():
    t = Table()
    carrier(t, LOOXY, 0, SOHO)
    t.police(SOHO, BROADWAY)
    t.force("9", "10", "9", "K", "K", "9")
    rng = t.game.rng.copy()
    t.interrogate(0, SOHO)
    assert np.array_equal(t.game.rng, rng)  # no decision was asked
    assert t.pl[0, S.C_RESISTS] == 0 and t.ch[LOOXY, S.WHERE] == S.W_CUSTODY


def test_nyk_p6_custody_one_cell_a_turn_then_broadway():
    t = Table()
    t.hench(LOOXY, 0, SOHO)
    t.custody(LOOXY, 3)
    t.begin(0)
    t.custody_phase(0)
    assert t.ch[LOOXY, S.CELL] == 2
    t.begin(0)
    t.custody_phase(0)
    assert t.ch[LOOXY, S.CELL] == 1
    t.begin(0)
    t.custody_phase(0)
    assert t.ch[LOOXY, S.WHERE] == S.W_CONTROLLED and t.ch[LOOXY, S.LOC] == BROADWAY
    assert t.ch[LOOXY, S.CELL] == 0 and t.ch[LOOXY, S.MOVED] == 1
    assert t.pl[0, S.C_CUSTODY_TURNS] == 3
    t.check()


def test_nyk_p6_cards_give_bonus_steps_out_of_custody():
    t = Table()
    t.hench(LOOXY, 0, SOHO)
    t.custody(LOOXY, 3)
    t.give(0, 0, 1)
    t.begin(0)
    t.steer((2, 1), (2, 0), (2, 1))  # a card for Looxy's cell, which card, again: both spent
    t.custody_phase(0)
    assert t.ch[LOOXY, S.LOC] == BROADWAY and t.hand(0) == []
    assert t.pl[0, S.C_CARDS_AS_MOVES] == 2


def test_nyk_p6_custody_cells_option_sets_the_entry_cell():
    t = Table(overrides={"custody.cells": 5})
    carrier(t, LOOXY, 0, SOHO)
    t.police(SOHO, BROADWAY)
    t.force("9", "10", "9", "K", "K", "9")
    t.interrogate(0, SOHO)
    assert t.ch[LOOXY, S.CELL] == 5


def test_nyk_p7_characters_in_custody_do_not_count_for_the_draw():
    t = Table()
    t.hench(LOOXY, 0, SOHO)
    t.hench(FURYO, 0, SOHO)
    t.stack(*range(10))  # own-turn cards: nothing to play in the resources window
    t.resources([0])
    assert len(t.hand(0)) == 3  # affranchi + two spades
    t = Table()
    t.hench(LOOXY, 0, SOHO)
    t.hench(FURYO, 0, SOHO)
    t.custody(0, 2)
    t.custody(FURYO, 1)
    t.stack(*range(10))
    t.resources([0])
    assert len(t.hand(0)) == 1  # Looxy alone
