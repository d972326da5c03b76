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
    D_DISCARD, D_FOLD, D_HESITATE, D_MOVE, D_POLICE, D_RESIST, D_STEP, MODE_NORMAL, MODE_SUBWAY, N_CTX,
    OP_ACCOMPLISH, OP_CARD, OP_END, OP_JOURNEY, OP_NO, OP_PLAY, OP_POLICE, OP_PROVOKE, OP_RECRUIT, OP_STEP,
    OP_STOP, OP_YES,
)
from sim.nyk.compiled import E_BANK_INCOME, E_EXTRA_MOVE, E_MISSION_BONUS, P_MOVE_STEPS
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


def test_nyk_c5_a_journey_set_out_without_its_fast_car_then_paying_a_card_for_a_step():
    t = Table(kind=PARAM)
    fast = card_ids(E_EXTRA_MOVE)[0]
    menu = [(OP_END,), (OP_JOURNEY, SOHO, 1 << FURYO, MODE_NORMAL), (OP_PLAY, fast, E_EXTRA_MOVE, NO)]
    paid_step = [(OP_STOP,), (OP_STEP, CHELSEA, NO), (OP_STEP, CHELSEA, ANY_CARD)]
    tally = audit.Tally(2)
    assert judge(t, "fast_car_skipped", pending(D_MOVE, menu, 1), tally) == (False, False)
    assert judge(t, "fast_car_skipped", pending(D_STEP, paid_step, 1), tally) == (False, False)  # a free step
    assert judge(t, "fast_car_skipped", pending(D_STEP, paid_step, 2), tally) == (True, True)
    assert judge(t, "fast_car_skipped", pending(D_STEP, paid_step, 2), tally) == (False, False)  # once a journey
    # played first, then the journey: paying for a step beyond the card's is no blunder
    assert judge(t, "fast_car_skipped", pending(D_MOVE, menu, 2), tally) == (False, False)
    assert judge(t, "fast_car_skipped", pending(D_MOVE, menu[:2], 1), tally) == (False, False)
    assert judge(t, "fast_car_skipped", pending(D_STEP, paid_step, 2), tally) == (True, False)
    # past a police check only a card goes on (NYK-P2): no verdict while the crew is stopped
    assert judge(t, "fast_car_skipped", pending(D_MOVE, menu, 1), tally) == (False, False)
    t.hench(FURYO, 0, SOHO)
    t.ch[FURYO, S.STOPPED] = 1
    furyo_step = pending(D_STEP, paid_step, 2, ctx={CTX_GROUP: 1 << FURYO})
    assert judge(t, "fast_car_skipped", furyo_step, tally) == (False, False)
    t.ch[FURYO, S.STOPPED] = 0
    assert judge(t, "fast_car_skipped", furyo_step, tally) == (True, True)
    # no Fast Car in hand: no opportunity
    assert judge(t, "fast_car_skipped", pending(D_MOVE, menu[:2], 1), tally) == (False, False)
    assert judge(t, "fast_car_skipped", pending(D_STEP, paid_step, 2), tally) == (False, False)


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


PAID = [(OP_STOP,), (OP_STEP, GREENWICH, NO), (OP_STEP, GREENWICH, ANY_CARD)]


def paid_step(t, tally, c, pick):
    ctx = {CTX_GROUP: 1 << c, CTX_DISTRICT: SOHO}
    return judge(t, "path_paid_twice", pending(D_STEP, PAID, pick, ctx=ctx), tally)


@pytest.mark.parametrize("pick, blunder", [(2, True), (0, False), (1, False)])
def test_nyk_m8_a_second_group_from_the_same_district_paying_for_the_same_step(pick, blunder):
    t, tally = Table(kind=PARAM), audit.Tally(2)
    t.hench(FURYO, 0, SOHO)
    t.hench(LOOXY, 0, SOHO)
    assert paid_step(t, tally, FURYO, 2) == (False, False)  # the first card paid is no mistake
    assert paid_step(t, tally, LOOXY, pick) == (True, blunder)


def test_nyk_m8_a_group_that_set_out_elsewhere_pays_its_own_card():
    t, tally = Table(kind=PARAM), audit.Tally(2)
    t.hench(FURYO, 0, SOHO)
    t.hench(LOOXY, 0, SOHO)
    t.ch[LOOXY, S.START] = CHELSEA  # it came to SOHO this turn: it could not have travelled with Furyo
    paid_step(t, tally, FURYO, 2)
    assert paid_step(t, tally, LOOXY, 2) == (False, False)


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


def step_around(pick):
    return pending(D_STEP, AROUND, pick, ctx={CTX_GROUP: 1 << FURYO, CTX_DISTRICT: GREENWICH})


@pytest.mark.parametrize("pick, verdict", [(1, (True, True)), (2, (False, False)), (0, (False, False))])
def test_nyk_m2_a_check_walked_into_on_a_car_its_own_player_drove_there(pick, verdict):
    t, tally = crew_beside_own_car()
    assert judge(t, "own_car_check", step_around(pick), tally) == verdict


def test_nyk_m2_a_check_on_a_rivals_car_is_no_blunder_one_at_the_destination_no_opportunity():
    t, tally = crew_beside_own_car()
    t.g[S.POLICE0 + 1] = GRAMERCY  # a car the player did not drive
    assert judge(t, "own_car_check", step_around(2), tally) == (True, False)
    t.ms[t.ch[FURYO, S.MISSION], S.M_DEST] = CHELSEA  # its own car on the job's destination stops nothing
    assert judge(t, "own_car_check", step_around(1), tally) == (False, False)
    assert judge(t, "own_car_check", step_around(1), audit.Tally(2)) == (False, False)  # nobody drove


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
