"""Rules round 3: the card parameters read at their limits (NYK-C5, A8), leaving a police district
(NYK-M3), the Payoff car arriving at BROADWAY (NYK-P4), and the readings the engine used to take
silently, each now an option (`police.questioned`, `police.requestion`, `subway.card_steps`)."""

import pytest
from scenario import (
    BROADWAY, CHELSEA, GARMENT, GRAND_CENTRAL, GREENWICH, HARLEM, RULES, SOHO, Table, card_ids, mission_ids,
    with_param,
)

from sim.nyk.chapters import actions
from sim.nyk.decisions import OP_PLAY
from sim.nyk import state as S
from sim.nyk.compiled import (
    E_BANK_INCOME, E_DISCARD_HENCHMAN, E_POACH_HENCHMAN, E_POLICE_REMOVE, E_STEAL_MONEY,
)

LITTLE_SAL, TEN, FURYO, LOOXY, THE_LORD = 5, 6, 7, 8, 9   # 9, 10, J, Q, K of spades
(LOYALTY,) = card_ids(E_POACH_HENCHMAN)
(UNDERCOVER,) = card_ids(E_DISCARD_HENCHMAN)
RANKS = (LITTLE_SAL, TEN, FURYO, LOOXY, THE_LORD)


def card_targets(t, p, kind):
    return sorted(row[3] for row in t.options(p) if row[0] == OP_PLAY and row[2] == kind)


def rivals_henchmen_of_every_rank(n_players=3):
    t = Table(n_players=n_players)
    for c in RANKS:
        t.hench(c, 1, SOHO)
    t.begin(0)
    return t


# --- NYK-C5/A8: every parametrised card effect at its limits --------------------------------------

def test_nyk_c5_undercover_cop_reaches_up_to_its_printed_rank_whatever_the_player_count():
    for n_players in (2, 3, 5):  # the limit once followed players.min (2: up to J)
        t = rivals_henchmen_of_every_rank(n_players)
        t.give(0, UNDERCOVER)
        assert card_targets(t, 0, E_DISCARD_HENCHMAN) == sorted(RANKS), n_players  # max_rank K


@pytest.mark.parametrize("max_rank", range(5))
def test_nyk_c5_undercover_cop_max_rank_at_each_value(max_rank):
    t = with_param(rivals_henchmen_of_every_rank(), UNDERCOVER, 0, max_rank)
    t.give(0, UNDERCOVER)
    assert card_targets(t, 0, E_DISCARD_HENCHMAN) == list(RANKS[:max_rank + 1])
    target = RANKS[max_rank]
    actions.action_card(t.game, t.env, 0, UNDERCOVER, E_DISCARD_HENCHMAN, target)
    assert t.ch[target, S.WHERE] == S.W_DISCARD and t.ch[target, S.OWNER] == S.NO
    t.check()


@pytest.mark.parametrize("max_rank", range(5))
def test_nyk_a8_loyalty_price_max_rank_at_each_value(max_rank):
    t = with_param(rivals_henchmen_of_every_rank(), LOYALTY, 1, max_rank)
    t.money(0, 20000)
    t.give(0, LOYALTY)
    assert card_targets(t, 0, E_POACH_HENCHMAN) == list(RANKS[:max_rank + 1])


@pytest.mark.parametrize("cost", [1000, 5000, 9000])
def test_nyk_a8_loyalty_price_cost_is_what_it_asks_and_what_it_pays(cost):
    t = with_param(rivals_henchmen_of_every_rank(), LOYALTY, 0, cost)
    t.money(0, cost - 1000)
    t.give(0, LOYALTY)
    assert card_targets(t, 0, E_POACH_HENCHMAN) == []  # cannot pay
    t.money(0, cost)
    assert card_targets(t, 0, E_POACH_HENCHMAN) == sorted(RANKS[:4])
    before = t.money(1)
    actions.action_card(t.game, t.env, 0, LOYALTY, E_POACH_HENCHMAN, FURYO)
    assert t.money(0) == 0 and t.money(1) == before + cost and t.ch[FURYO, S.OWNER] == 0
    t.check()


@pytest.mark.parametrize("amount", [1000, 4000, 30000])
def test_nyk_c5_steal_money_takes_its_amount_or_all_the_victim_has(amount):
    (card, *_) = card_ids(E_STEAL_MONEY)
    t = Table()
    t.hench(FURYO, 1, SOHO)
    t.hench(LOOXY, 0, SOHO)
    with_param(t, card, 0, amount)
    t.money(1, 5000)
    t.give(0, card)
    t.begin(0)
    mine = t.money(0)
    actions.action_card(t.game, t.env, 0, card, E_STEAL_MONEY, 1)
    assert t.money(0) - mine == min(amount, 5000) and t.money(1) == 5000 - min(amount, 5000)
    t.check()


@pytest.mark.parametrize("amount", [1000, 2000, 7000])
def test_nyk_c5_bank_income_pays_its_amount(amount):
    (card, *_) = card_ids(E_BANK_INCOME)
    t = with_param(Table(), card, 0, amount)
    t.give(0, card)
    t.begin(0)
    mine = t.money(0)
    actions.action_card(t.game, t.env, 0, card, E_BANK_INCOME, S.NO)
    assert t.money(0) - mine == amount
    t.check()


# --- NYK-M3: leaving a police district ------------------------------------------------------------

def neighbours(t, d):
    return [int(x) for x in t.env["nbr"][d, 1:1 + t.env["nbr"][d, 0]]]


def car_onto_the_group_then_a_step(moved_before):
    """Seat 0 (the first player) journeys from SOHO with one henchman; in the journey it drives the
    GREENWICH car onto SOHO, then tries a step to SOHO's first neighbour, then stops."""
    t = Table()
    t.hench(FURYO, 0, SOHO)
    t.g[S.FIRST] = 0
    t.police(GREENWICH, HARLEM)  # the second car far away
    t.begin(0)
    if moved_before:  # it came to SOHO this turn (one step taken)
        t.ch[FURYO, S.START], t.ch[FURYO, S.STEPS] = CHELSEA, 1
    soho, greenwich = neighbours(t, SOHO), neighbours(t, GREENWICH)
    car = 1 + len(soho)  # stop, the normal steps, then the two cars (the hand is empty: no paid steps)
    picks = [(car + 2, car), (len(greenwich), greenwich.index(SOHO))]
    if moved_before:  # stopped: only stop and the cars are left
        picks.append((3, 0))
    else:  # the first neighbour, then stop
        picks += [(1 + len(soho) + 2, 1), (1 + len(neighbours(t, soho[0])) + 2, 0)]
    t.steer(*picks, seat=0)
    t.journey(0, SOHO, t.group(FURYO))
    assert t.cars()[0] == SOHO
    return t, soho[0]


def test_nyk_m3_a_car_driven_onto_a_group_where_its_turn_started_lets_it_leave():
    t, first_neighbour = car_onto_the_group_then_a_step(moved_before=False)
    assert t.ch[FURYO, S.LOC] == first_neighbour and t.ch[FURYO, S.STOPPED] == 0
    t.check()


def test_nyk_m2_a_car_driven_onto_a_group_that_came_this_turn_stops_it():
    t, _ = car_onto_the_group_then_a_step(moved_before=True)
    assert t.ch[FURYO, S.LOC] == SOHO and t.ch[FURYO, S.STOPPED] == 1


# --- NYK-P4: the Payoff car arrives at BROADWAY ----------------------------------------------------

def test_nyk_p4_the_car_payoff_sends_back_questions_an_at_risk_crew_at_broadway():
    from sim.nyk.chapters import turn
    (payoff, *_) = card_ids(E_POLICE_REMOVE)
    questioned = set()
    for pick in range(2):  # seat 1 plays the card or not (random policy, steered)
        t = Table(n_players=3)
        t.hench(FURYO, 1, SOHO)
        t.hench(LOOXY, 2, BROADWAY)
        t.hold(mission_ids(crew=1, risk=1)[0], [LOOXY], HARLEM)
        t.police(SOHO, HARLEM)
        t.g[S.FIRST] = 0
        t.give(1, payoff)
        t.steer((2, pick), seat=1)
        t.force("9", "9", "10", "A", "A", "A")  # the crew loses: an arrest
        turn.start_player_turn(t.game, t.env, 0)
        if t.cars()[0] == BROADWAY:
            questioned.add(int(t.pl[2, S.C_INTERROGATIONS]))
            assert t.ch[LOOXY, S.WHERE] == S.W_CUSTODY
        else:
            assert t.pl[2, S.C_INTERROGATIONS] == 0
        t.check()
    assert questioned == {1}  # one of the two picks played the card, and its car questioned


# --- readings as options (docs/ruleset.md) ---------------------------------------------------------

def two_at_risk_crews(overrides):
    t = Table(n_players=3, overrides=overrides)
    risky = mission_ids(crew=1, risk=1)
    t.hench(FURYO, 1, SOHO)
    t.hench(LOOXY, 2, SOHO)
    t.hold(risky[0], [FURYO], HARLEM)
    t.hold(risky[1], [LOOXY], CHELSEA)
    t.police(GREENWICH, GARMENT)
    t.force(*["A", "A", "A", "9", "9", "10"] * 4)  # every crew escapes
    return t


@pytest.mark.parametrize("questioned, expected", [("one", 1), ("all", 2)])
def test_nyk_p4_ruling_police_questioned_one_or_all_crews(questioned, expected):
    t = two_at_risk_crews({"police.questioned": questioned})
    t.steer((2, 0), seat=0)
    t.move_police(0, SOHO, 0)
    assert int(t.pl[1, S.C_INTERROGATIONS] + t.pl[2, S.C_INTERROGATIONS]) == expected
    assert t.pl[1, S.C_INTERROGATIONS] == 1  # the mover's pick comes first
    t.check()


@pytest.mark.parametrize("requestion, expected", [("each_arrival", 2), ("once", 1)])
def test_nyk_p4_ruling_police_requestion_a_crew_that_escaped(requestion, expected):
    t = Table(overrides={"police.requestion": requestion})
    t.hench(FURYO, 1, SOHO)
    t.hold(mission_ids(crew=1, risk=1)[0], [FURYO], HARLEM)
    t.police(GREENWICH, GARMENT)
    t.force(*["A", "A", "A", "9", "9", "10"] * 2)  # the crew escapes each time
    t.move_police(0, SOHO, 0)
    t.move_police(1, SOHO, 0)
    assert t.pl[1, S.C_INTERROGATIONS] == expected
    t.g[S.TURN] += 1  # a new turn: questioned again
    t.force(*["A", "A", "A", "9", "9", "10"])
    t.move_police(0, GREENWICH, 0)
    t.move_police(0, SOHO, 0)
    assert t.pl[1, S.C_INTERROGATIONS] == expected + 1
    t.check()


def subway_ride_then_a_paid_step(card_steps):
    """A henchman rides 3 districts from GRAND CENTRAL, then pays a card for a 4th, onto police."""
    t = Table(overrides={"subway.card_steps": card_steps})
    t.hench(FURYO, 0, GRAND_CENTRAL)
    (card, *_) = card_ids(E_BANK_INCOME)
    t.give(0, card)
    t.begin(0)
    path = [GRAND_CENTRAL]
    while len(path) < 4:  # a simple path of three steps, each to the lowest new neighbour
        path.append(next(n for n in neighbours(t, path[-1]) if n not in path))
    last = next(n for n in neighbours(t, path[-1]) if n not in path)
    t.police(last, next(d for d in (HARLEM, SOHO, CHELSEA) if d not in path + [last]))
    picks = [(1 + 2 * len(neighbours(t, d)), 1 + 2 * neighbours(t, d).index(nxt))  # the normal step
             for d, nxt in zip(path, path[1:], strict=False)]
    ends = neighbours(t, path[-1])
    picks.append((1 + len(ends), 1 + ends.index(last)))  # only paid steps are left
    t.steer(*picks, seat=0)
    from sim.nyk.decisions import MODE_SUBWAY
    t.journey(0, GRAND_CENTRAL, t.group(FURYO), MODE_SUBWAY)
    assert t.ch[FURYO, S.LOC] == last and t.hand(0) == []
    return t


@pytest.mark.parametrize("card_steps, stopped", [("unchecked", 0), ("checked", 1)])
def test_nyk_m6_m8_ruling_subway_card_steps_checked_or_not(card_steps, stopped):
    t = subway_ride_then_a_paid_step(card_steps)
    assert t.ch[FURYO, S.STOPPED] == stopped
    t.check()


# --- narration a reader can check ------------------------------------------------------------------

def test_narration_names_the_target_of_undercover_cop_and_loyalty_price():
    t = rivals_henchmen_of_every_rank()
    t.g[S.RECORD] = 1
    t.money(0, 20000)
    t.give(0, UNDERCOVER, LOYALTY)
    actions.action_card(t.game, t.env, 0, UNDERCOVER, E_DISCARD_HENCHMAN, THE_LORD)
    actions.action_card(t.game, t.env, 0, LOYALTY, E_POACH_HENCHMAN, FURYO)
    text = "\n".join(t.told())
    lord, furyo = (RULES.characters.henchmen[c - S.N_AFFRANCHI].name for c in (THE_LORD, FURYO))
    assert f"{lord} (K) (seat 1) is exposed and discarded" in text
    assert f"{furyo} (J) leaves seat 1 for $5,000" in text


def test_narration_a_journey_of_no_step_tells_nothing_and_a_custody_card_is_shown():
    t = Table()
    t.g[S.RECORD] = 1
    t.hench(FURYO, 0, SOHO)
    t.begin(0)
    t.steer((1 + len(neighbours(t, SOHO)), 0), seat=0)  # stop at once
    t.journey(0, SOHO, t.group(FURYO))
    assert not any("set(s) out" in line for line in t.told())
    (card, *_) = card_ids(E_BANK_INCOME)
    t.give(0, card)
    t.hench(LOOXY, 0, SOHO)
    t.custody(LOOXY, 3)
    t.steer((2, 1), seat=0)  # pay the card for one more cell
    t.custody_phase(0)
    lines = t.told()
    assert any(RULES.resources.expanded()[card].name in line and "custody" in line for line in lines)
    assert t.ch[LOOXY, S.CELL] == 1
