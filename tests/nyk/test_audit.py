"""The blunder audit (sim.nyk.audit): each check on positions where the mistake is possible, made,
avoided or impossible; the audit's brute-force fight odds against the policy's; its picks are the
policy's own."""

import numpy as np
import pytest
from scenario import CHELSEA, GREENWICH, HARLEM, PARAM, SOHO, Table, card_ids, mission_ids

from sim.nyk.hands import pack
from sim.nyk import audit
from sim.nyk import state as S
from sim.nyk.decisions import (
    ANY_CARD, CTX_CREW, CTX_GROUP, CTX_MODE, CTX_OTHER_CREW, CTX_STAGE, D_ACTION, D_FOLD, D_MOVE, D_POLICE,
    D_STEP, MODE_NORMAL, MODE_SUBWAY, N_CTX, OP_ACCOMPLISH, OP_END, OP_JOURNEY, OP_NO, OP_PLAY, OP_POLICE,
    OP_STEP, OP_STOP, OP_YES,
)
from sim.nyk.compiled import E_EXTRA_MOVE
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
