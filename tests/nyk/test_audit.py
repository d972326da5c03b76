"""The blunder audit (sim.nyk.audit): each check on positions where the mistake is possible, made,
avoided or impossible; the audit's brute-force fight odds against the policy's; its picks are the
policy's own."""

import numpy as np
import pytest
from scenario import CHELSEA, GRAMERCY, GREENWICH, HARLEM, PARAM, SOHO, Table, card_ids, mission_ids

from sim.nyk.hands import pack
from sim.nyk import audit
from sim.nyk import state as S
from sim.nyk.decisions import (
    ANY_CARD, ANY_OFFER, CTX_CREW, CTX_DISTRICT, CTX_GROUP, CTX_MODE, CTX_OTHER_CREW, CTX_STAGE, D_ACTION,
    D_DEAL_ACCEPT, D_DISCARD, D_FOLD, D_HESITATE, D_MOVE, D_POLICE, D_RESIST, D_STEP, MODE_NORMAL, MODE_SUBWAY, N_CTX,
    OP_ACCOMPLISH, OP_CARD, OP_END, OP_JOURNEY, OP_NO, OP_PLAY, OP_POLICE, OP_PROVOKE, OP_RECRUIT, OP_STEP,
    OP_STOP, OP_YES,
)
from sim.nyk.compiled import E_BANK_INCOME, E_EXTRA_MOVE, E_MISSION_BONUS, P_MOVE_STEPS
from sim.nyk.env import RP_N_DISTRICTS
from strategies.nyk import policy

FURYO, LOOXY = 7, 8
NO = S.NO


def pending(kind, rows, pick, ctx=None, seat=0):
    opts = np.zeros((len(rows), 5), np.int64)
    for i, row in enumerate(rows):
        opts[i, :len(row)] = row
    c = np.zeros(N_CTX, np.int64)
    for slot, value in (ctx or {}).items():
        c[slot] = value
    return audit.Pending(seat, kind, opts, c, pick)


def judge(t, check, d, tally=None):
    return getattr(audit, check)(t.game, t.env, d, tally or audit.Tally(2))


def crew_at_risk(overrides=None, n_players=2):
    """Seat 0's at-risk crew (Furyo) on SOHO, bound for HARLEM; cars on GREENWICH and HARLEM."""
    t = Table(n_players=n_players, kind=PARAM, overrides=overrides)
    t.police(GREENWICH, HARLEM)
    t.hench(FURYO, 0, SOHO)
    t.hold(mission_ids(crew=1, risk=1)[0], [FURYO], HARLEM, accept=SOHO)
    return t


CAR_MOVES = [(OP_POLICE, 0, SOHO), (OP_POLICE, 0, CHELSEA)]


@pytest.mark.parametrize("pick, blunder", [(0, True), (1, False)])
def test_nyk_p4_car_onto_own_crew_is_a_blunder_when_another_move_was_open(pick, blunder):
    t = crew_at_risk()
    assert judge(t, "car_onto_own_crew", pending(D_POLICE, CAR_MOVES, pick)) == (True, blunder)


def test_nyk_p4_car_onto_own_crew_beside_a_rivals_questions_the_rival_unless_all_are_questioned():
    for questioned, expected in (("one", (False, False)), ("all", (True, True))):
        t = crew_at_risk({"police.questioned": questioned}, n_players=3)
        t.hench(LOOXY, 1, SOHO)
        t.hold(mission_ids(crew=1, risk=1)[1], [LOOXY], GREENWICH, accept=CHELSEA)
        assert judge(t, "car_onto_own_crew", pending(D_POLICE, CAR_MOVES, 0)) == expected, questioned


def test_nyk_p4_a_car_with_no_harmless_move_is_no_opportunity():
    t = crew_at_risk()
    assert judge(t, "car_onto_own_crew", pending(D_POLICE, CAR_MOVES[:1], 0)) == (False, True)


STEPS = [(OP_STOP,), (OP_STEP, GREENWICH, NO), (OP_STEP, CHELSEA, NO)]


@pytest.mark.parametrize("pick, blunder", [(0, False), (1, True), (2, False)])
def test_nyk_m2_an_at_risk_crew_walking_into_a_check_off_its_route(pick, blunder):
    t = crew_at_risk()
    d = pending(D_STEP, STEPS, pick, ctx={CTX_GROUP: 1 << FURYO, CTX_MODE: MODE_NORMAL})
    assert judge(t, "walk_into_check", d) == (True, blunder)


def test_nyk_m2_the_destinations_own_check_and_the_subway_are_no_opportunity():
    t = crew_at_risk()
    to_goal = [(OP_STOP,), (OP_STEP, HARLEM, NO)]
    assert judge(t, "walk_into_check", pending(D_STEP, to_goal, 1, ctx={CTX_GROUP: 1 << FURYO})) == (False, False)
    subway = pending(D_STEP, STEPS, 1, ctx={CTX_GROUP: 1 << FURYO, CTX_MODE: MODE_SUBWAY})
    assert judge(t, "walk_into_check", subway) == (False, False)
    t.ms[t.ch[FURYO, S.MISSION], S.M_RISK] = 0  # nothing to question: a check only stops the crew
    assert judge(t, "walk_into_check", pending(D_STEP, STEPS, 1, ctx={CTX_GROUP: 1 << FURYO})) == (False, False)


def packed(*ranks):
    return int(pack(np.array(ranks, dtype=np.int64)))


AHEAD, BEHIND = packed(5, 5, 5, 4), packed(0, 1, 2, 4)  # three aces and a king; 9, 10, J, K


@pytest.mark.parametrize("pick, blunder", [(0, False), (1, True)])
def test_nyk_a4_folding_the_better_hand_with_the_odds_in_favour(pick, blunder):
    t = Table(kind=PARAM)
    d = pending(D_FOLD, [(OP_NO,), (OP_YES,)], pick, ctx={CTX_STAGE: 2, CTX_CREW: AHEAD, CTX_OTHER_CREW: BEHIND})
    assert judge(t, "fold_ahead", d) == (True, blunder)


def test_nyk_a4_folding_the_worse_hand_is_no_blunder():
    t = Table(kind=PARAM)
    d = pending(D_FOLD, [(OP_NO,), (OP_YES,)], 1, ctx={CTX_STAGE: 1, CTX_CREW: BEHIND, CTX_OTHER_CREW: AHEAD})
    assert judge(t, "fold_ahead", d) == (False, False)


@pytest.mark.parametrize("mine, theirs, dice", [
    (AHEAD, BEHIND, 1), (BEHIND, AHEAD, 2), (packed(0, 0), packed(1), 2), (packed(3, 3, 2), packed(3, 3, 1), 1),
])
def test_the_audits_brute_force_fight_odds_equal_the_policys_multiset_odds(mine, theirs, dice):
    t = Table(kind=PARAM)
    exact = audit.win_chance(mine, theirs, dice, np.asarray(t.env.table))
    assert exact == pytest.approx(policy.win_chance(t.env, mine, theirs, dice), abs=1e-12)


@pytest.mark.parametrize("pick, blunder", [(0, True), (1, False)])
def test_nyk_a2_ending_the_actions_with_a_mission_to_accomplish(pick, blunder):
    t = Table(kind=PARAM)
    rows = [(OP_END,), (OP_ACCOMPLISH, 3, 1 << FURYO)]
    assert judge(t, "mission_left", pending(D_ACTION, rows, pick)) == (True, blunder)
    assert judge(t, "mission_left", pending(D_ACTION, rows[:1], 0)) == (False, False)


FAST_MENU = [(OP_END,), (OP_JOURNEY, SOHO, 1 << FURYO, MODE_NORMAL), (OP_PLAY, 0, E_EXTRA_MOVE, NO)]
FAST_STEPS = [(OP_STOP,), (OP_STEP, CHELSEA, NO), (OP_STEP, CHELSEA, ANY_CARD)]


def fast_car_trip(t, tally, picks, play=False):
    """A journey of Furyo from SOHO with a Fast Car in hand (played first or not), its steps'
    picks (1: a step for no card, 2: a card-paid one), then the next movement menu's verdict."""
    menu = [(r[0], card_ids(E_EXTRA_MOVE)[0], *r[2:]) if r[0] == OP_PLAY else r for r in FAST_MENU]
    t.hench(FURYO, 0, SOHO)
    if play:
        assert judge(t, "fast_car_skipped", pending(D_MOVE, menu, 2), tally) == (False, False)
    assert judge(t, "fast_car_skipped", pending(D_MOVE, menu, 1), tally) == (False, False)
    for pick in picks:
        step = pending(D_STEP, FAST_STEPS, pick, ctx={CTX_GROUP: 1 << FURYO})
        assert judge(t, "fast_car_skipped", step, tally) == (False, False)
    return judge(t, "fast_car_skipped", pending(D_MOVE, menu[:1], 0), tally)


@pytest.mark.parametrize("picks, play, verdict", [
    ([1, 1, 2, 2], False, (True, True)),    # made: two cards where the car (one card) would do
    ([1, 1, 1, 1], True, (True, False)),    # avoided: the car played and its two steps made
    ([1, 1, 2], False, (False, False)),     # one card for one step costs no more than the car
    ([1, 1], False, (False, False)),        # nothing beyond the ordinary steps
])
def test_nyk_c5_a_journey_set_out_without_its_fast_car_then_paying_two_cards_for_its_steps(picks, play, verdict):
    t = Table(kind=PARAM)
    assert t.env.rp[P_MOVE_STEPS] == 2
    assert fast_car_trip(t, audit.Tally(2), picks, play) == verdict


def test_nyk_c5_a_skipped_fast_car_is_judged_by_the_longest_one_playable(monkeypatch):
    """Two Fast Cars of 1 and 3 steps in hand (a card list may hold both), the journey set out
    with neither and two cards paid for its steps beyond the ordinary ones: the 3-step car would
    have saved a card, whichever of the two the menu lists first."""
    t, tally = Table(kind=PARAM), audit.Tally(2)
    short, long = card_ids(E_EXTRA_MOVE)[:2]
    monkeypatch.setattr(audit, "car_steps", lambda env, card: 1 if card == short else 3)
    menu = FAST_MENU[:2] + [(OP_PLAY, short, E_EXTRA_MOVE, NO), (OP_PLAY, long, E_EXTRA_MOVE, NO)]
    t.hench(FURYO, 0, SOHO)
    assert judge(t, "fast_car_skipped", pending(D_MOVE, menu, 1), tally) == (False, False)
    for pick in (1, 1, 2, 2):
        judge(t, "fast_car_skipped", pending(D_STEP, FAST_STEPS, pick, ctx={CTX_GROUP: 1 << FURYO}), tally)
    assert judge(t, "fast_car_skipped", pending(D_MOVE, menu[:1], 0), tally) == (True, True)


def test_nyk_p2_steps_paid_past_a_check_are_no_steps_the_fast_car_would_make():
    t = Table(kind=PARAM)
    t.hench(FURYO, 0, SOHO)
    t.ch[FURYO, S.STOPPED] = 1
    assert fast_car_trip(t, audit.Tally(2), [1, 2, 2]) == (False, False)


def test_nyk_c5_a_journey_still_under_way_when_the_game_ends_is_judged_then():
    t, tally = Table(kind=PARAM), audit.Tally(2)
    fast_car_trip(t, tally, [])
    assert audit.skip_verdict(tally, 0) == (False, False)  # the last one was judged at the menu
    tally.journey[0] = {"skipped": True, "steps": 2, "paid": 2, "free": 0, "ordinary": 2}
    assert audit.skip_verdict(tally, 0) == (True, True)


# --- the affranchi alone (NYK-A5), the last turn (NYK-E1) ---------------------------------------------

EVEN_PAIRS = packed(3, 3, 1, 0), packed(4, 4, 2, 0)  # a pair of queens against a pair of kings: behind, not lost


def affranchi_facing_looxy():
    """Seat 0's affranchi on SOHO with seat 1's Looxy, seat 0 having provoked there."""
    t = Table(kind=PARAM)
    t.at(0, SOHO)
    t.hench(LOOXY, 1, SOHO)
    tally = audit.Tally(2)
    judge(t, "fought_on_alone", pending(D_ACTION, [(OP_END,), (OP_PROVOKE, SOHO, 1, 0)], 1), tally)
    return t, tally


def fold(pick, hands=EVEN_PAIRS, stage=1):
    return pending(D_FOLD, [(OP_NO,), (OP_YES,)], pick, ctx={CTX_STAGE: stage, CTX_CREW: hands[0],
                                                              CTX_OTHER_CREW: hands[1]})


@pytest.mark.parametrize("pick, blunder", [(0, True), (1, False)])
def test_nyk_a5_the_affranchi_alone_fighting_on_at_worse_than_even_odds(pick, blunder):
    t, tally = affranchi_facing_looxy()
    assert audit.win_chance(*EVEN_PAIRS, 2, np.asarray(t.env.table)) < 0.5
    assert judge(t, "fought_on_alone", fold(pick), tally) == (True, blunder)


def test_nyk_a5_fighting_on_ahead_or_beside_a_henchman_is_no_opportunity():
    t, tally = affranchi_facing_looxy()
    assert judge(t, "fought_on_alone", fold(0, EVEN_PAIRS[::-1]), tally) == (False, False)
    t.hench(FURYO, 0, SOHO)  # a henchman beside it: a lost fight may cost the henchman instead
    assert judge(t, "fought_on_alone", fold(0), tally) == (False, False)


@pytest.mark.parametrize("pick, blunder", [(1, True), (0, False)])
def test_nyk_p5_the_affranchi_alone_resisting_at_worse_than_even_odds(pick, blunder):
    t = Table(kind=PARAM)
    t.at(0, SOHO)
    d = pending(D_RESIST, [(OP_NO,), (OP_YES,)], pick,
                ctx={CTX_DISTRICT: SOHO, CTX_CREW: EVEN_PAIRS[0], CTX_OTHER_CREW: EVEN_PAIRS[1]})
    assert judge(t, "fought_on_alone", d) == (True, blunder)
    t.hench(FURYO, 0, SOHO)
    assert judge(t, "fought_on_alone", d) == (False, False)


RECRUIT = [(OP_END,), (OP_RECRUIT, FURYO, ANY_OFFER, NO)]


def last_turn_table():
    t = Table(kind=PARAM)
    t.g[S.END_REVEALED], t.g[S.LAST_TURN] = 1, t.g[S.TURN]
    return t


@pytest.mark.parametrize("pick, blunder", [(1, True), (0, False)])
def test_nyk_e1_buying_a_henchman_in_the_last_turn(pick, blunder):
    t = last_turn_table()
    assert judge(t, "spent_in_last_turn", pending(D_ACTION, RECRUIT, pick)) == (True, blunder)
    assert judge(t, "spent_in_last_turn", pending(D_HESITATE, [(OP_NO,), (OP_YES,)], pick)) == (True, blunder)


def test_nyk_e1_a_recruit_before_the_last_turn_or_with_nothing_to_buy_is_no_opportunity():
    t = last_turn_table()
    assert judge(t, "spent_in_last_turn", pending(D_ACTION, RECRUIT[:1], 0)) == (False, False)
    t.g[S.LAST_TURN] = t.g[S.TURN] + 1  # the end card is out, one turn still to play
    assert judge(t, "spent_in_last_turn", pending(D_ACTION, RECRUIT, 1)) == (False, False)


# --- journeys: the Fast Car, the Juicy Job, one card for a group, one's own car -------------------------

def fast_car_journey(t, tally, free_steps, extra=2):
    fast = card_ids(E_EXTRA_MOVE)[0]
    menu = [(OP_END,), (OP_JOURNEY, SOHO, 1 << FURYO, MODE_NORMAL), (OP_PLAY, fast, E_EXTRA_MOVE, NO)]
    verdicts = [judge(t, "fast_car_wasted", pending(D_MOVE, menu, 2), tally)]
    t.pl[0, S.EXTRA_STEPS] = extra  # what the played card gave (0: it was cancelled)
    verdicts.append(judge(t, "fast_car_wasted", pending(D_MOVE, menu, 1), tally))
    steps = [(OP_STOP,), (OP_STEP, CHELSEA, NO), (OP_STEP, CHELSEA, ANY_CARD)]
    for _ in range(free_steps):
        verdicts.append(judge(t, "fast_car_wasted", pending(D_STEP, steps, 1), tally))
    verdicts.append(judge(t, "fast_car_wasted", pending(D_MOVE, menu[:2], 0), tally))  # the next menu
    return verdicts


@pytest.mark.parametrize("free_steps, blunder", [(0, True), (2, True), (3, False), (4, False)])
def test_nyk_c5_a_fast_car_whose_journey_made_no_step_beyond_the_ordinary_ones(free_steps, blunder):
    t = Table(kind=PARAM)
    assert t.env.rp[P_MOVE_STEPS] == 2
    *before, verdict = fast_car_journey(t, audit.Tally(2), free_steps)
    assert set(before) == {(False, False)} and verdict == (True, blunder)


def test_nyk_c5_a_fast_car_played_and_lapsed_a_cancelled_one_and_none_at_all():
    t, tally = Table(kind=PARAM), audit.Tally(2)
    fast = card_ids(E_EXTRA_MOVE)[0]
    menu = [(OP_END,), (OP_PLAY, fast, E_EXTRA_MOVE, NO)]
    t.pl[0, S.EXTRA_STEPS] = 2
    assert judge(t, "fast_car_wasted", pending(D_MOVE, menu, 1), tally) == (False, False)
    assert judge(t, "fast_car_wasted", pending(D_MOVE, menu, 0), tally) == (True, True)  # its steps lapse
    assert fast_car_journey(t, tally, 0, extra=0)[-1] == (False, False)  # cancelled: nothing to waste
    assert judge(t, "fast_car_wasted", pending(D_MOVE, menu, 0), tally) == (False, False)  # none played


def juicy_and(*kinds):
    return [card_ids(k)[0] for k in (E_MISSION_BONUS, *kinds)]


def pay(t, tally, to, cards, pick):
    judge(t, "juicy_job_thrown", pending(D_STEP, [(OP_STOP,), (OP_STEP, to, ANY_CARD)], 1,
                                        ctx={CTX_GROUP: 1 << FURYO}), tally)
    return judge(t, "juicy_job_thrown", pending(D_DISCARD, [(OP_CARD, c) for c in cards], pick), tally)


@pytest.mark.parametrize("pick, blunder", [(0, True), (1, False)])
def test_nyk_m8_a_juicy_job_thrown_for_a_step_while_another_card_could_pay(pick, blunder):
    t = crew_at_risk()
    assert pay(t, audit.Tally(2), HARLEM, juicy_and(E_BANK_INCOME), pick) == (True, blunder)


def test_nyk_m8_a_lone_juicy_job_may_pay_the_step_onto_its_jobs_destination_only():
    t = crew_at_risk()
    assert pay(t, audit.Tally(2), HARLEM, juicy_and(), 0) == (True, False)
    assert pay(t, audit.Tally(2), CHELSEA, juicy_and(), 0) == (True, True)


def test_nyk_m8_no_juicy_job_in_hand_or_a_discard_for_the_hand_limit_is_no_opportunity():
    t, tally = crew_at_risk(), audit.Tally(2)
    assert pay(t, tally, CHELSEA, [card_ids(E_BANK_INCOME)[0]], 0) == (False, False)
    hand_limit = pending(D_DISCARD, [(OP_CARD, c) for c in juicy_and(E_BANK_INCOME)], 0)
    assert judge(t, "juicy_job_thrown", hand_limit, tally) == (False, False)


def trip(t, tally, c, route, paid, seat=0):
    """A journey of character c from route[0] along `route`, paying a card for the steps
    numbered in `paid`; the verdict of the journey before it, given at its menu."""
    verdict = judge(t, "path_paid_twice", pending(D_MOVE, [(OP_END,), (OP_JOURNEY, route[0], 1 << c, MODE_NORMAL)],
                                                  1, seat=seat), tally)
    for i, (here, to) in enumerate(zip(route, route[1:], strict=False)):
        rows = [(OP_STOP,), (OP_STEP, to, NO), (OP_STEP, to, ANY_CARD)]
        step = pending(D_STEP, rows, 2 if i in paid else 1, ctx={CTX_GROUP: 1 << c, CTX_DISTRICT: here}, seat=seat)
        assert judge(t, "path_paid_twice", step, tally) == (False, False)
    return verdict


def two_trips(first, second, paid_first, paid_second, risk=0):
    t, tally = Table(kind=PARAM), audit.Tally(2)
    t.hench(FURYO, 0, SOHO)
    t.hench(LOOXY, 0, SOHO)
    if risk:
        t.hold(mission_ids(crew=1, risk=1)[0], [FURYO], HARLEM, accept=SOHO)
    assert trip(t, tally, FURYO, first, paid_first) == (0, 0)
    assert trip(t, tally, LOOXY, second, paid_second) == (0, 0)  # the first journey: nothing before it
    return judge(t, "path_paid_twice", pending(D_ACTION, [(OP_END,), (OP_ACCOMPLISH, 0, 0)], 0), tally)


SHORT, LONG = [SOHO, GREENWICH, CHELSEA], [SOHO, GREENWICH, CHELSEA, GRAMERCY]


@pytest.mark.parametrize("paid_first, verdict", [({1}, (1, 1)), (set(), (1, 0))])
def test_nyk_m8_a_second_journey_paying_again_for_a_step_they_could_have_shared(paid_first, verdict):
    """Made: both paid the step GREENWICH-CHELSEA, one journey (the short one dropped at its end)
    would have paid once. Avoided: the first went there for no card."""
    assert two_trips(SHORT, LONG, paid_first, {1}) == verdict
    assert two_trips(LONG, SHORT, paid_first, {1}) == verdict


def test_nyk_m4_journeys_that_part_ways_or_beside_a_job_at_risk_pay_their_own_cards():
    assert two_trips(SHORT, [SOHO, GREENWICH, CHELSEA, HARLEM], {1}, {1}) == (1, 1)
    assert two_trips(LONG, [SOHO, GREENWICH, CHELSEA, HARLEM], {1}, {1}) == (0, 0)  # they part at CHELSEA
    assert two_trips(SHORT, LONG, {1}, {1}, risk=1) == (0, 0)  # travelling beside it shares its interrogation


def crew_beside_own_car():
    """Seat 0's crew (Furyo, a job not at risk to HARLEM) on GREENWICH; seat 0 drove car 0 onto
    CHELSEA this turn; GRAMERCY is as close to HARLEM and has no car."""
    t, tally = Table(kind=PARAM), audit.Tally(2)
    t.police(GREENWICH)
    t.hench(FURYO, 0, GREENWICH)
    t.hold(mission_ids(crew=1, risk=0)[0], [FURYO], HARLEM)
    judge(t, "own_car_check", pending(D_POLICE, [(OP_POLICE, 0, CHELSEA), (OP_POLICE, 0, SOHO)], 0), tally)
    t.g[S.POLICE0] = CHELSEA
    return t, tally


AROUND = [(OP_STOP,), (OP_STEP, CHELSEA, NO), (OP_STEP, GRAMERCY, NO)]


def step_around(pick, rows=AROUND):
    return pending(D_STEP, rows, pick, ctx={CTX_GROUP: 1 << FURYO, CTX_DISTRICT: GREENWICH})


@pytest.mark.parametrize("pick, verdict", [(1, (True, True)), (2, (True, False)), (0, (True, False))])
def test_nyk_m2_a_check_walked_into_on_a_car_its_own_player_drove_there(pick, verdict):
    t, tally = crew_beside_own_car()
    assert t.env.dist[GRAMERCY, HARLEM] <= t.env.dist[CHELSEA, HARLEM]
    assert judge(t, "own_car_check", step_around(pick), tally) == verdict


def test_nyk_m2_a_check_on_a_rivals_car_is_no_blunder_one_at_the_destination_no_opportunity():
    t, tally = crew_beside_own_car()
    t.g[S.POLICE0 + 1] = CHELSEA  # a rival's car beside its own: still a car it drove there
    assert judge(t, "own_car_check", step_around(1), tally) == (True, True)
    t.ms[t.ch[FURYO, S.MISSION], S.M_DEST] = CHELSEA  # its own car on the job's destination stops nothing
    assert judge(t, "own_car_check", step_around(1), tally) == (False, False)
    assert judge(t, "own_car_check", step_around(1), audit.Tally(2)) == (False, False)  # nobody drove


def test_nyk_m2_no_other_road_is_no_opportunity():
    t, tally = crew_beside_own_car()
    t.g[S.POLICE0 + 1] = GRAMERCY  # the other step has a car too
    assert judge(t, "own_car_check", step_around(1), tally) == (False, False)
    t.g[S.POLICE0 + 1] = NO
    paid_alike = [(OP_STOP,), (OP_STEP, CHELSEA, NO), (OP_STEP, GRAMERCY, ANY_CARD)]
    assert judge(t, "own_car_check", step_around(1, paid_alike), tally) == (False, False)  # only for a card
    far = next(x for x in range(int(t.env.rp[RP_N_DISTRICTS]))
               if t.env.dist[x, HARLEM] > t.env.dist[CHELSEA, HARLEM] and x != GREENWICH)
    farther = [(OP_STOP,), (OP_STEP, CHELSEA, NO), (OP_STEP, far, NO)]
    assert judge(t, "own_car_check", step_around(1, farther), tally) == (False, False)  # only further away


def test_nyk_e2_a_car_whose_step_a_buyer_chose_or_that_left_again_is_not_the_players_doing():
    t, tally = crew_beside_own_car()
    t.g[S.POLICE0] = SOHO  # driven on from CHELSEA by someone else's card: it stands elsewhere
    t.g[S.POLICE0 + 1] = CHELSEA
    assert judge(t, "own_car_check", step_around(1), tally) == (False, False)
    accepted = pending(D_DEAL_ACCEPT, [(OP_NO,), (OP_YES,)], 1, ctx={audit.CTX_DISTRICT: CHELSEA})
    fresh = audit.Tally(2)
    assert audit.CHECKS[audit.check_index("own_car_check")].kinds.count(D_DEAL_ACCEPT) == 0
    assert judge(t, "own_car_check", accepted, fresh) == (False, False)
    assert judge(t, "own_car_check", step_around(1), fresh) == (False, False)


def test_the_audits_picks_are_the_policys_own():
    """Taking the audited pick by hand leaves the game where the policy's own play leaves it."""
    from sim.nyk.forward import Forward

    fw = Forward.new(None, ["balanced", "tuned", "enforcer"], seed=3, game_id=1, stop=range(3),
                     kinds=[audit.DECISIONS[k] for k in audit.WATCHED])
    for _ in range(40):
        if fw.over:
            break
        d = audit.policy_pick(fw)
        by_hand = fw.copy()
        by_hand.apply(d.pick)
        fw.apply_policy()
        assert np.array_equal(by_hand.game.pl, fw.game.pl) and np.array_equal(by_hand.game.ch, fw.game.ch)


def test_an_audited_game_is_the_batch_game():
    from sim.nyk.forward import Forward

    lineup = ["balanced", "enforcer", "simple"]
    names, tally, result = audit.audit_game(None, lineup, 4, 2, 3)
    plain = Forward.new(None, lineup, seed=4, game_id=2, stop=())  # no seat halts: the batch game
    assert names == plain.names and result == plain.result()
    assert tally.decisions.sum() > 0 and (tally.blunders <= tally.opportunities).all()
