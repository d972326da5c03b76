"""Rules round 2: one recruitment a turn (NYK-A8), recruiting from custody (NYK-A6/P7), a
henchman joining mid-turn, parting at any moment (NYK-A7), custody cards (NYK-P6), and the
rulings the engine used to make silently, each now an option (docs/ruleset.md)."""

import pytest
from scenario import (
    BROADWAY, BROOKLYN, CHELSEA, GREENWICH, HARLEM, PARAM, SOHO, Table, card_ids, mission_ids,
)

from sim.nyk import engine as E
from sim.nyk.chapters import actions
from sim.nyk.chapters import base
from sim.nyk.chapters import cards
from sim.nyk.chapters import invariants
from sim.nyk.chapters import missions
from sim.nyk.chapters import movement
from sim.nyk.chapters import recruitment
from sim.nyk.decisions import OP_END
from sim.nyk import state as S
from sim.nyk.decisions import OP_PART, OP_PLAY, OP_RECRUIT
from sim.nyk.compiled import E_POACH_HENCHMAN

LITTLE_SAL, FURYO, LOOXY, THE_LORD = 5, 7, 8, 9   # 9, J, Q, K of spades
CHARLIE, NICKY, EL_NINO = 10, 15, 20
(LOYALTY,) = card_ids(E_POACH_HENCHMAN)


def ops(t, p, op):
    return [row[1:] for row in t.options(p) if row[0] == op]


def poaches(t, p):
    return [row for row in ops(t, p, OP_PLAY) if row[1] == E_POACH_HENCHMAN]


# --- NYK-A8: one recruitment a turn ------------------------------------------------------------

def poach_table(overrides=None):
    t = Table(overrides=overrides)
    t.hench(FURYO, 1, SOHO)  # a rival's J of spades: the card may take it
    t.peripheral(0, CHARLIE)
    t.at(0, BROOKLYN)
    t.give(0, LOYALTY)
    t.begin(0)
    return t


def test_nyk_a8_the_poach_card_is_not_offered_after_the_turns_recruitment():
    t = poach_table()
    assert poaches(t, 0) == [(LOYALTY, E_POACH_HENCHMAN, FURYO, 0)] and ops(t, 0, OP_RECRUIT)
    t.force("9")  # a refused $1,000 offer still spends the recruit action
    t.recruit(0, CHARLIE, 1000)
    assert t.pl[0, S.RECRUITED] == 1 and poaches(t, 0) == [] and ops(t, 0, OP_RECRUIT) == []


def test_nyk_a8_the_poach_card_is_the_turns_recruitment():
    t = poach_table()
    actions.action_card(t.game, t.env, 0, LOYALTY, E_POACH_HENCHMAN, FURYO)
    assert t.ch[FURYO, S.OWNER] == 0 and t.pl[0, S.RECRUITED] == 1
    assert ops(t, 0, OP_RECRUIT) == []
    t.check()


def test_nyk_a8_the_invariant_counts_every_recruitment_of_the_turn():
    t = poach_table()
    t.pl[0, S.RECRUITED] = 2
    assert invariants.INVARIANTS[invariants.invariants(t.game, t.env)] == "more recruitments in a turn than allowed"


# --- NYK-A6/P7: recruiting while the affranchi is in custody --------------------------------------

@pytest.mark.parametrize("allowed", [True, False])
def test_nyk_a6_p7_ruling_recruiting_by_phone_from_custody(allowed):
    t = poach_table({"recruit.from_custody": allowed})
    t.hench(LOOXY, 0, CHELSEA)  # Q of spades: it has The Lord's number
    t.peripheral(1, THE_LORD)
    t.custody(0, 2)
    targets = {row[0] for row in ops(t, 0, OP_RECRUIT)}
    assert targets == ({THE_LORD} if allowed else set())  # never Charlie: not on its district
    assert bool(poaches(t, 0)) == allowed


# --- a henchman joining in the middle of a turn (one ruling for recruited and taken) --------------

@pytest.mark.parametrize("acts", [True, False])
def test_nyk_a6_a8_ruling_a_joining_henchman_may_act_that_turn(acts):
    t = poach_table({"henchmen.act_on_joining": acts})
    t.force("A")
    t.recruit(0, CHARLIE, 1000)
    assert t.ch[CHARLIE, S.OWNER] == 0 and t.ch[CHARLIE, S.MOVED] == 1
    assert t.ch[CHARLIE, S.ACTED] == (0 if acts else 1)
    t = poach_table({"henchmen.act_on_joining": acts})
    t.ch[FURYO, S.ACTED] = 1  # it acted for its former owner
    actions.action_card(t.game, t.env, 0, LOYALTY, E_POACH_HENCHMAN, FURYO)
    assert t.ch[FURYO, S.MOVED] == 1 and t.ch[FURYO, S.ACTED] == (0 if acts else 1)


# --- NYK-A7: parting at any moment of the owner's turn ---------------------------------------------

def test_nyk_a7_parting_is_offered_in_the_movement_phase_too():
    t = Table()
    t.hench(LOOXY, 0, CHELSEA)
    t.hench(FURYO, 0, SOHO)
    t.hold(mission_ids(crew=1, risk=0)[0], [FURYO], HARLEM)  # holds a mission: not this one
    t.begin(0)
    opts = t.game.opts
    n = movement.list_journeys(t.game, t.env, 0, base.put(opts, 0, OP_END), False)
    n = movement.list_movement_cards(t.game, t.env, 0, n)
    rows = [tuple(r) for r in opts[:recruitment.list_partings(t.game, 0, n)]]
    assert [r[1] for r in rows if r[0] == OP_PART] == [LOOXY]
    t.steer((len(rows), rows.index((OP_PART, LOOXY, 0, 0, 0))), (len(rows) - 1, 0))
    t.movement(0)
    assert t.ch[LOOXY, S.WHERE] == S.W_DISCARD and t.pl[0, S.C_PARTED] == 1
    t.check()


def test_nyk_a7_the_heuristic_parts_with_its_least_worth_for_a_better_henchman():
    t = Table(kind=PARAM)
    for c in (LITTLE_SAL, FURYO, NICKY, EL_NINO):  # two spades, two lone nines
        t.hench(c, 0, CHELSEA)
    t.peripheral(0, THE_LORD)  # the king of spades on the affranchi's district
    t.at(0, BROOKLYN)
    t.money(0, 30000)
    t.begin(0)
    assert ops(t, 0, OP_RECRUIT) == []  # every stand is taken
    t.force(*["A"] * 10)
    t.actions(0)
    assert t.pl[0, S.C_PARTED] == 1 and t.ch[THE_LORD, S.OWNER] == 0
    assert t.ch[NICKY, S.WHERE] == S.W_DISCARD  # a nine outside the spades family
    t.check()


def test_nyk_a7_the_heuristic_keeps_its_henchmen_when_nothing_better_is_in_reach():
    t = Table(kind=PARAM)
    for c in (LITTLE_SAL, FURYO, NICKY, EL_NINO):
        t.hench(c, 0, CHELSEA)
    t.peripheral(0, CHARLIE)  # another nine
    t.at(0, BROOKLYN)
    t.money(0, 30000)
    t.begin(0)
    t.actions(0)
    assert t.pl[0, S.C_PARTED] == 0


# --- NYK-P6: custody cards ---------------------------------------------------------------------------

@pytest.mark.parametrize("ruling, options, cells", [
    ("all", 2, (1, 1, 0)),   # one option: every character one cell on (Furyo is out)
    ("cell", 3, (1, 1, 1)),  # Looxy's cell, The Lord with it
    ("one", 4, (1, 2, 1)),   # Looxy alone
])
def test_nyk_p6_ruling_what_one_custody_card_moves(ruling, options, cells):
    t = Table(overrides={"custody.card_steps": ruling})
    for c, cell in ((LOOXY, 3), (THE_LORD, 3), (FURYO, 2)):
        t.hench(c, 0, SOHO)
        t.custody(c, cell)
    t.give(0, 0)
    t.begin(0)
    t.steer((options, 1 if ruling == "all" else 2))  # after the free step: Furyo, Looxy, ...
    t.custody_phase(0)
    assert t.hand(0) == [] and t.pl[0, S.C_CARDS_AS_MOVES] == 1
    assert tuple(int(t.ch[c, S.CELL]) for c in (LOOXY, THE_LORD, FURYO)) == cells
    t.check()


@pytest.mark.parametrize("frozen", [True, False])
def test_nyk_p6_ruling_a_released_character_frozen_for_the_turn(frozen):
    t = Table(overrides={"custody.release_frozen": frozen})
    t.hench(LOOXY, 0, SOHO)
    t.custody(LOOXY, 1)
    t.begin(0)
    t.custody_phase(0)
    assert t.ch[LOOXY, S.LOC] == BROADWAY and t.ch[LOOXY, S.MOVED] == (1 if frozen else 0)
    journeys = t.options(0, "moves")
    assert any(row[2] == 1 << LOOXY for row in journeys) == (not frozen)


# --- NYK-P5: the cars a resisting crew removed come back by the new first player --------------------

@pytest.mark.parametrize("ruling, questioned", [("first_player", 2), ("before_bid", 1)])
def test_nyk_p5_ruling_who_puts_the_returning_cars_back(ruling, questioned):
    t = Table(n_players=3, kind=PARAM, overrides={"police.return_at": ruling})
    risky = mission_ids(crew=1, risk=1)
    dests = t.bag()[-2:]  # two addresses still in the bag (hold takes its acceptance tiles from the front)
    for q, c, m, dest in ((1, LOOXY, risky[0], dests[0]), (2, FURYO, risky[1], dests[1])):
        t.hench(c, q, BROADWAY)
        t.hold(m, [c], dest)
    t.pl[1, S.C_MISSION_INCOME], t.pl[2, S.C_MISSION_INCOME] = 10000, 5000  # seat 1 looks richer
    t.money(0, 1000)
    t.money(2, 1000)
    t.money(1, 40000)  # seat 1 wins the bid
    t.g[S.FIRST] = 0   # last turn's first player
    t.police(GREENWICH, S.PC_RETURNING)
    E.open_turn(t.game, t.env)
    assert t.g[S.FIRST] == 1 and t.cars()[1] == BROADWAY
    assert t.pl[questioned, S.C_INTERROGATIONS] == 1 and t.pl[3 - questioned, S.C_INTERROGATIONS] == 0


# --- NYK-T2: the reshuffle when the pile empties ----------------------------------------------------

@pytest.mark.parametrize("ruling", ["empty", "next_draw"])
def test_nyk_t2_ruling_reshuffle_as_soon_as_the_pile_is_empty(ruling):
    t = Table(overrides={"resources.reshuffle": ruling})
    t.police(BROADWAY, BROADWAY)
    deck = t.deck()
    t.g[S.R_DISC0:S.R_DISC0 + len(deck) - 1] = deck[:-1]
    t.g[S.R_DISC_N] = len(deck) - 1
    t.g[S.R_DECK0] = deck[-1]
    t.g[S.R_DECK_N] = 1
    assert cards.draw_card(t.game, t.env, 0)
    now = ruling == "empty"
    assert t.g[S.R_DECK_N] == (len(deck) - 1 if now else 0)
    assert t.cars().count(BROADWAY) == (3 if now else 2)
    t.check()


# --- NYK-T4: an empty address bag -----------------------------------------------------------------

@pytest.mark.parametrize("ruling", ["discard", "hold"])
def test_nyk_t4_ruling_a_mission_revealed_with_an_empty_bag(ruling):
    t = Table(overrides={"missions.empty_bag": ruling})
    pos = int(t.g[S.M_DECK_POS])
    first = int(t.g[S.M_DECK0 + pos])
    t.g[S.BAG_N] = 0
    revealed = missions.reveal_mission(t.game, t.env)
    assert not revealed and t.g[S.ROW0] == S.NO
    if ruling == "hold":
        assert t.g[S.M_DECK_POS] == pos and t.ms[first, S.M_STATE] == S.MS_DECK
    else:
        assert t.ms[first, S.M_STATE] == S.MS_OUT and t.g[S.END_REVEALED] == 1


# --- NYK-A5: the last player standing -----------------------------------------------------------------

@pytest.mark.parametrize("ruling", [True, False])
def test_nyk_a5_ruling_the_game_ends_when_one_player_is_left(ruling):
    t = Table(n_players=3, overrides={"end.last_standing": ruling})
    assert not E.game_decided(t.game, t.env)
    t.pl[1, S.ALIVE] = 0
    assert not E.game_decided(t.game, t.env)
    t.pl[2, S.ALIVE] = 0
    assert E.game_decided(t.game, t.env) == ruling
    t.pl[0, S.ALIVE] = 0
    assert E.game_decided(t.game, t.env)

