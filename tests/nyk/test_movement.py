"""NYK-M1..M8: movements, police checks, special moves and bonus moves, step by step."""

from scenario import (
    BROADWAY, CHELSEA, FINANCIAL, GARMENT, GRAND_CENTRAL, GREENWICH, HELLS_KITCHEN, HARLEM, SOHO,
    TRIBECA, WASHINGTON_HEIGHTS, Table, card_ids, mission_ids,
)

from sim.nyk.chapters import movement
from sim.nyk.decisions import OP_PLAY
from sim.nyk.env import RP_N_DISTRICTS
from sim.nyk.compiled import E_EXTRA_MOVE, E_POLICE_PLACE
from sim.nyk import state as S
from sim.nyk.decisions import MODE_HELI, MODE_NORMAL, MODE_SUBWAY, OP_JOURNEY

LOOXY, CHARLIE = 8, 10  # Q of spades, 9 of hearts


def journeys(t, p):
    return {(row[1], row[2], row[3]) for row in t.options(p, "journeys") if row[0] == OP_JOURNEY}


def test_nyk_m1_two_connected_districts_then_the_character_has_moved():
    t = Table()
    t.at(0, SOHO)
    t.begin(0)
    # SOHO: stop, TRIBECA, LITTLE ITALY, GREENWICH; GREENWICH: stop + 4; a third step would be
    # the last pick if the engine offered one.
    t.steer((4, 3), (5, 4), (5, 2))
    t.journey(0, SOHO, t.group(0))
    assert t.ch[0, S.LOC] == CHELSEA
    assert t.ch[0, S.STEPS] == 2
    assert t.ch[0, S.MOVED] == 1
    assert not any(g & 1 for _, g, _ in journeys(t, 0))  # at most once a turn


def test_nyk_m1_move_steps_option_allows_a_third_district():
    t = Table(overrides={"move.steps": 3})
    t.at(0, SOHO)
    t.begin(0)
    t.steer((4, 3), (5, 4), (5, 3))  # ... then CHELSEA -> GARMENT DISTRICT
    t.journey(0, SOHO, t.group(0))
    assert t.ch[0, S.LOC] == GARMENT and t.ch[0, S.STEPS] == 3


def test_nyk_m2_entering_a_police_district_stops_the_move():
    t = Table()
    t.at(0, SOHO)
    t.police(GREENWICH, BROADWAY)
    t.begin(0)
    t.steer((4, 3), (5, 4))  # to GREENWICH; the second pick would go on to CHELSEA
    t.journey(0, SOHO, t.group(0))
    assert t.ch[0, S.LOC] == GREENWICH
    assert t.ch[0, S.STOPPED] == 1 and t.ch[0, S.STEPS] == 1
    assert t.pl[0, S.C_INTERROGATIONS] == 0  # no at-risk mission: a check only


def test_nyk_m2_check_with_an_at_risk_mission_means_an_interrogation():
    t = Table()
    t.hench(LOOXY, 0, SOHO)
    m = t.hold(mission_ids(crew=1, risk=1)[0], [LOOXY], HARLEM)
    t.police(GREENWICH, BROADWAY)
    t.begin(0)
    t.force("9", "10", "Q", "K", "K", "A")  # crew Q,9,10,Q: pair of Q < police J,K,K,A
    t.steer((4, 3))
    t.journey(0, SOHO, t.group(LOOXY))
    assert t.pl[0, S.C_INTERROGATIONS] == 1 and t.pl[0, S.C_ARRESTS] == 1
    assert t.ch[LOOXY, S.WHERE] == S.W_CUSTODY
    assert t.ms[m, S.M_STATE] == S.MS_OUT
    assert t.dice_left() == 0


def test_nyk_m3_a_character_starting_on_police_leaves_freely():
    t = Table()
    t.at(0, GREENWICH)
    t.police(GREENWICH, BROADWAY)
    t.begin(0)
    t.steer((5, 2), (4, 1))  # GREENWICH -> SOHO -> TRIBECA
    t.journey(0, GREENWICH, t.group(0))
    assert t.ch[0, S.LOC] == TRIBECA and t.ch[0, S.STEPS] == 2


def test_nyk_m4_group_travels_together_picks_up_and_drops():
    t = Table()
    t.at(0, SOHO)
    t.hench(LOOXY, 0, SOHO)
    t.hench(CHARLIE, 0, GREENWICH)
    t.begin(0)
    t.steer(
        (6, 3),  # SOHO: stop, 3 steps, drop x2 -> GREENWICH
        (8, 7),  # GREENWICH: stop, 4 steps, drop x2, pick up Charlie
        (8, 6),  # stop, 4 steps, drop affranchi / Looxy / Charlie -> drop Looxy
        (7, 4),  # stop, 4 steps, drop x2 -> CHELSEA
        (3, 0),  # CHELSEA: 2 districts done: stop
    )
    t.journey(0, SOHO, t.group(0, LOOXY))
    assert t.ch[0, S.LOC] == CHELSEA and t.ch[CHARLIE, S.LOC] == CHELSEA
    assert t.ch[LOOXY, S.LOC] == GREENWICH and t.ch[LOOXY, S.MOVED] == 1
    assert (t.ch[0, S.STEPS], t.ch[LOOXY, S.STEPS], t.ch[CHARLIE, S.STEPS]) == (2, 1, 1)
    assert journeys(t, 0) == set()  # nobody moves twice


def test_nyk_m5_first_player_moves_each_police_car_up_to_two_districts():
    t = Table()
    t.at(0, SOHO)
    t.g[S.FIRST] = 0
    t.begin(0)
    # END, SOHO journey, car 0, car 1; then car 0's five destinations: to GARMENT DISTRICT, then
    # on to CHELSEA; then car 0 has used its two districts: END, journey, car 1.
    t.steer((4, 2), (5, 0), (4, 2), (5, 0), (3, 0))
    t.movement(0)
    assert t.cars()[:2] == [CHELSEA, BROADWAY]
    assert t.g[S.POLICE_STEPS0] == 2
    assert t.pl[0, S.C_POLICE_MOVES] == 2


def neighbours(t, d):
    return [int(x) for x in t.env.nbr[d, 1:1 + t.env.nbr[d, 0]]]


def test_nyk_m5_the_first_player_moves_a_car_in_the_middle_of_a_journey():
    t = Table()
    t.at(0, SOHO)
    t.police(GREENWICH, BROADWAY)
    t.g[S.FIRST] = 0
    t.begin(0)
    # at SOHO: STOP, a step to each neighbour, then each car (car 0 at GREENWICH first); car 0's
    # destinations; then the same menu again: the affranchi stood on SOHO at the start of its turn,
    # so the car that came to it is no check (NYK-M3); it stops there
    n = 1 + len(neighbours(t, SOHO)) + 2
    onto_soho = neighbours(t, GREENWICH).index(SOHO)
    t.steer((n, n - 2), (len(neighbours(t, GREENWICH)), onto_soho), (n, 0))  # then stop
    t.journey(0, SOHO, 1)
    assert t.cars()[:2] == [SOHO, BROADWAY] and t.pl[0, S.C_POLICE_MOVES] == 1
    assert t.ch[0, S.LOC] == SOHO and t.ch[0, S.STOPPED] == 0
    assert t.ch[0, S.MOVED] == 1
    t.check()


def test_nyk_m5_only_the_first_player_moves_the_police():
    for seed in range(12):
        t = Table(seed=seed)
        t.at(1, SOHO)
        t.g[S.FIRST] = 0
        t.begin(1)
        t.movement(1)
        assert t.cars()[:2] == [BROADWAY, BROADWAY]
        assert t.pl[1, S.C_POLICE_MOVES] == 0


def test_nyk_m6_subway_three_districts_ignoring_police():
    t = Table()
    t.at(0, GRAND_CENTRAL)
    t.begin(0)
    assert (GRAND_CENTRAL, 1, MODE_SUBWAY) in journeys(t, 0)
    t.steer((4, 2), (6, 2), (6, 1))  # -> BROADWAY (police) -> HELL'S KITCHEN -> CHELSEA
    t.journey(0, GRAND_CENTRAL, 1, MODE_SUBWAY)
    assert t.ch[0, S.LOC] == CHELSEA
    assert t.ch[0, S.STOPPED] == 0
    assert t.pl[0, S.C_SUBWAY] == 1


def test_nyk_m6_no_subway_with_an_at_risk_mission_nor_from_elsewhere():
    t = Table()
    t.hench(LOOXY, 0, GRAND_CENTRAL)
    t.at(0, HELLS_KITCHEN)
    t.begin(0)
    assert (GRAND_CENTRAL, 1 << LOOXY, MODE_SUBWAY) in journeys(t, 0)
    assert not any(mode == MODE_SUBWAY for d, _, mode in journeys(t, 0) if d == HELLS_KITCHEN)
    t.hold(mission_ids(crew=1, risk=1)[0], [LOOXY], HARLEM)
    assert (GRAND_CENTRAL, 1 << LOOXY, MODE_SUBWAY) not in journeys(t, 0)
    assert (GRAND_CENTRAL, 1 << LOOXY, MODE_NORMAL) in journeys(t, 0)
    S.place(t.game, 0, S.W_CONTROLLED, GRAND_CENTRAL)  # walked in this turn: the subway is for a turn's start
    t.ch[0, S.START] = HELLS_KITCHEN
    assert (GRAND_CENTRAL, 1, MODE_SUBWAY) not in journeys(t, 0)


def test_nyk_m7_helicopter_anywhere_for_1000_each_even_at_risk():
    t = Table()
    t.at(0, FINANCIAL)
    t.hench(LOOXY, 0, FINANCIAL)
    t.hold(mission_ids(crew=1, risk=1)[0], [LOOXY], HARLEM)
    t.begin(0)
    group = t.group(0, LOOXY)
    assert (FINANCIAL, group, MODE_HELI) in journeys(t, 0)
    bank = t.g[S.BANK]
    t.steer((24, WASHINGTON_HEIGHTS), (3, 0))
    t.journey(0, FINANCIAL, group, MODE_HELI)
    assert t.ch[0, S.LOC] == WASHINGTON_HEIGHTS and t.ch[LOOXY, S.LOC] == WASHINGTON_HEIGHTS
    assert t.money(0) == 16000 - 2000 and t.g[S.BANK] == bank + 2000
    assert t.pl[0, S.C_HELI] == 1 and t.pl[0, S.C_HELI_SPENT] == 2000


def test_nyk_m7_a_crew_arrested_on_landing_goes_no_further():
    """NYK-M7, P2, P4: landing on a police district with an at-risk job is a check and an
    interrogation; once arrested the crew is off the board, so no card can move it on."""
    t = Table()
    t.at(0, FINANCIAL)
    t.hench(LOOXY, 0, FINANCIAL)
    t.hold(mission_ids(crew=1, risk=1)[0], [LOOXY], HARLEM)
    t.police(WASHINGTON_HEIGHTS, BROADWAY)
    t.give(0, 0, 1)  # cards that could buy bonus steps
    t.begin(0)
    t.force("9", "10", "Q", "K", "K", "K")  # a pair at best against three kings
    t.steer((24, WASHINGTON_HEIGHTS), (2, 0))  # fly there; do not resist
    t.journey(0, FINANCIAL, t.group(0, LOOXY), MODE_HELI)
    for c in (0, LOOXY):
        assert t.ch[c, S.WHERE] == S.W_CUSTODY and t.ch[c, S.LOC] == S.NO
    assert t.pl[0, S.C_ARRESTS] == 1 and t.pl[0, S.C_CARDS_AS_MOVES] == 0 and len(t.hand(0)) == 2
    t.check()


def test_nyk_m7_helicopter_needs_the_fare():
    t = Table()
    t.at(0, FINANCIAL)
    t.hench(LOOXY, 0, FINANCIAL)
    t.begin(0)
    t.money(0, 1000)
    assert (FINANCIAL, 1, MODE_HELI) in journeys(t, 0)
    assert (FINANCIAL, t.group(0, LOOXY), MODE_HELI) not in journeys(t, 0)


def test_nyk_m8_one_card_moves_the_whole_group_one_more_district():
    t = Table()
    t.at(0, SOHO)
    t.hench(LOOXY, 0, SOHO)
    t.give(0, 0)
    t.begin(0)
    discards = t.g[S.R_DISC_N]
    t.steer(
        (9, 5),   # SOHO: stop, (step, step with the card) x3, drop x2 -> GREENWICH on foot
        (11, 7),  # GREENWICH: stop, (step, card step) x4, drop x2 -> CHELSEA on foot
        (7, 3),   # CHELSEA: stop, card step x4, drop x2 -> GARMENT DISTRICT with the card
        (3, 0),
    )
    t.journey(0, SOHO, t.group(0, LOOXY))
    assert t.ch[0, S.LOC] == GARMENT and t.ch[LOOXY, S.LOC] == GARMENT
    assert t.ch[0, S.STEPS] == 3 and t.ch[LOOXY, S.STEPS] == 3
    assert t.hand(0) == [] and t.g[S.R_DISC_N] == discards + 1
    assert t.pl[0, S.C_CARDS_AS_MOVES] == 1


def test_nyk_m8_the_player_picks_which_card_pays_for_the_step():
    t = Table()
    t.at(0, SOHO)
    t.give(0, 0, 1)
    t.begin(0)
    first = neighbours(t, SOHO)[0]
    t.steer(
        (7, 2),  # SOHO: stop, (step, step paid by a card) x3 -> the first neighbour, with a card
        (2, 1),  # which card: the second of the hand
        (1 + 2 * len(neighbours(t, first)), 0),  # then stop
    )
    t.journey(0, SOHO, 1)
    assert t.ch[0, S.LOC] == first and t.hand(0) == [0] and t.pl[0, S.C_CARDS_AS_MOVES] == 1
    t.check()


def test_nyk_m8_bonus_steps_per_card_option():
    t = Table(overrides={"move.bonus_steps_per_card": 2})
    t.at(0, SOHO)
    t.give(0, 0)
    t.begin(0)
    t.steer(
        (7, 5),  # SOHO: stop, (step, card step) x3 -> GREENWICH on foot
        (9, 7),  # GREENWICH: stop, (step, card step) x4 -> CHELSEA on foot
        (5, 3),  # CHELSEA: stop, card step x4 -> GARMENT DISTRICT with the card
        (6, 3),  # GARMENT: stop, step x5 (paid by the same card) -> HELL'S KITCHEN
        (5, 1),  # would be a fourth free step if the card paid for more
    )
    t.journey(0, SOHO, 1)
    assert t.ch[0, S.LOC] == HELLS_KITCHEN and t.ch[0, S.STEPS] == 4
    assert t.hand(0) == []
    t = Table(overrides={"move.bonus_steps_per_card": 0})
    t.at(0, SOHO)
    t.give(0, 0)
    t.begin(0)
    t.steer((4, 3), (5, 4), (5, 1))  # no card steps are offered: 2 districts, card kept
    t.journey(0, SOHO, 1)
    assert t.ch[0, S.LOC] == CHELSEA and t.hand(0) == [0]


def test_nyk_c5_fast_car_extra_move_adds_districts_to_the_next_journey():
    """An extra_move card (Fast Car) played for its event: the next journey goes 2 districts
    further than NYK-M1 allows, without a card discarded per step."""
    t = Table()
    t.at(0, SOHO)
    fast_car = card_ids(E_EXTRA_MOVE)[0]
    t.give(0, fast_car)
    t.begin(0)
    movement.movement_card(t.game, t.env, 0, fast_car, E_EXTRA_MOVE, S.NO)
    assert t.pl[0, S.EXTRA_STEPS] == 2 and t.hand(0) == []
    t.steer(
        (4, 3),  # SOHO: stop, step x3 -> GREENWICH on foot
        (5, 4),  # GREENWICH: stop, step x4 -> CHELSEA on foot
        (5, 3),  # CHELSEA: stop, step x4 (first extra district) -> GARMENT DISTRICT
        (6, 3),  # GARMENT: stop, step x5 (second extra district) -> HELL'S KITCHEN
    )
    t.journey(0, SOHO, 1)
    assert t.ch[0, S.LOC] == HELLS_KITCHEN and t.ch[0, S.STEPS] == 4
    assert t.pl[0, S.EXTRA_STEPS] == 0 and t.pl[0, S.C_CARDS_AS_MOVES] == 0


def test_nyk_c5_police_place_card_sends_a_waiting_car_where_its_player_picks():
    """A police_place card: listed once in the movement options; the district is asked next,
    among every district but the station, and the car waiting there goes to it."""
    t = Table()
    t.at(0, SOHO)
    t.police(GREENWICH, BROADWAY)
    card = card_ids(E_POLICE_PLACE)[0]
    t.give(0, card)
    t.begin(0)
    n = movement.list_movement_cards(t.game, t.env, 0, 0)
    assert [list(t.opts[i, :4]) for i in range(n)] == [[OP_PLAY, card, E_POLICE_PLACE, S.NO]]
    others = [d for d in range(t.env.rp[RP_N_DISTRICTS]) if d != BROADWAY]
    t.steer((len(others), others.index(CHELSEA)))
    movement.movement_card(t.game, t.env, 0, card, E_POLICE_PLACE, S.NO)
    assert t.cars()[:2] == [GREENWICH, CHELSEA] and t.hand(0) == []
    t.check()
