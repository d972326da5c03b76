"""The heuristic where a player at the table would call the other answer a blunder: the affranchi
alone at worse than even odds (NYK-A5), money spent in the last turn (NYK-E1), a Juicy Job thrown
for a step (NYK-M8), a group sharing a path and its card (NYK-M4), the Fast Car's journey (NYK-C5),
a check next to a car-free step (NYK-M2). The same mistakes the audit counts (sim.nyk.audit)."""

import numpy as np
import pytest
from scenario import (
    BROADWAY, CHELSEA, CHINATOWN, DISTRICT, GRAMERCY, GRAND_CENTRAL, GREENWICH, HARLEM, PARAM, SOHO, TRIBECA,
    UNION_CITY, Table, card_ids, mission_ids,
)

from sim.nyk import state as S
from sim.nyk.compiled import E_BANK_INCOME, E_MISSION_BONUS, E_STEAL_MONEY, P_POLICE_MOVE_STEPS, P_RESIST_DICE
from sim.nyk.decisions import (
    ANY_CARD, CTX_CREW, CTX_DECISION, CTX_DISTRICT, CTX_GROUP, CTX_MODE, CTX_OPPONENT, CTX_OTHER_CREW, CTX_STAGE,
    CTX_STEPS, CTX_THEIRS, D_FOLD, D_HESITATE, D_RESIST, D_STEP, MODE_NORMAL, MODE_SUBWAY, N_CTX, OP_CARD, OP_DROP,
    OP_END, OP_JOURNEY, OP_POLICE, OP_STEP, OP_STOP,
)
from sim.nyk.hands import pack
from strategies.nyk import policy
from strategies.nyk.params import INDEX

FURYO, LOOXY = 7, 8
NO = S.NO


def packed(*ranks):
    return int(pack(np.array(ranks, dtype=np.int64)))


QUEENS, KINGS = packed(3, 3, 1, 0), packed(4, 4, 2, 0)  # one character's value and three dice each


@pytest.fixture
def t():
    """A 2-player table; the knobs a test sets are put back (the env is shared between tables)."""
    table = Table(kind=PARAM)
    saved = table.env.params.copy()
    yield table
    table.env.params[:] = saved


def decide(t, decision, slots, n=2):
    ctx = np.zeros(N_CTX, np.int64)
    ctx[CTX_DECISION] = decision
    for slot, value in slots.items():
        ctx[slot] = value
    return policy.heuristic(t.game, t.env, 0, decision, np.zeros((n, 5), np.int64), n, ctx)


def options(*rows):
    opts = np.zeros((len(rows), 5), np.int64)
    for i, row in enumerate(rows):
        opts[i, :len(row)] = row
    return opts


def test_nyk_a5_the_affranchi_alone_folds_below_even_odds_whatever_its_fold_knob(t):
    t.at(0, SOHO)
    t.hench(LOOXY, 1, SOHO)
    t.env.params[0, INDEX["fold_below"]] = 0.15
    assert 0.15 < policy.win_chance(t.env, QUEENS, KINGS, 2) < 0.5
    fold = {CTX_STAGE: 1, CTX_CREW: QUEENS, CTX_OTHER_CREW: KINGS, CTX_OPPONENT: 1, CTX_DISTRICT: SOHO}
    assert decide(t, D_FOLD, fold) == 1
    assert decide(t, D_FOLD, fold | {CTX_DISTRICT: GREENWICH}) == 0  # a fight elsewhere risks no affranchi
    t.hench(FURYO, 0, SOHO)  # a henchman beside it could be the one lost: the knob decides
    assert decide(t, D_FOLD, fold) == 0


def test_nyk_p5_the_affranchi_alone_does_not_resist_below_even_odds(t):
    t.at(0, SOHO)
    t.env.params[0, INDEX["resist_min"]] = 0.2
    assert 0.2 < policy.win_chance(t.env, QUEENS, KINGS, t.env.rp[P_RESIST_DICE]) < 0.5
    resist = {CTX_DISTRICT: SOHO, CTX_CREW: QUEENS, CTX_OTHER_CREW: KINGS}
    assert decide(t, D_RESIST, resist) == 0
    t.hench(FURYO, 0, SOHO)
    assert decide(t, D_RESIST, resist) == 1


def test_nyk_e1_no_money_for_a_henchman_in_the_last_turn(t):
    t.money(0, 30000)
    worth = policy.henchman_worth(t.game, t.env, 0, FURYO)
    assert policy.offer_worth_of(t.game, t.env, 0, FURYO, 5000, NO, worth) > 0.0
    assert decide(t, D_HESITATE, {CTX_THEIRS: 2000}) == 1
    t.g[S.END_REVEALED], t.g[S.LAST_TURN] = 1, t.g[S.TURN]
    assert policy.offer_worth_of(t.game, t.env, 0, FURYO, 5000, NO, worth) == 0.0
    assert decide(t, D_HESITATE, {CTX_THEIRS: 2000}) == 0
    assert not policy.may_recruit(t.game, t.env, 0)


JUICY, INCOME = card_ids(E_MISSION_BONUS)[0], card_ids(E_BANK_INCOME)[0]


def test_nyk_c5_a_juicy_job_is_the_last_card_to_go():
    t = Table(kind=PARAM)
    assert policy.least_useful_card(t.env, options((OP_CARD, JUICY), (OP_CARD, INCOME)), 2) == 1


@pytest.mark.parametrize("dest, hand, steps", [
    (HARLEM, (JUICY,), False), (CHELSEA, (JUICY,), True), (HARLEM, (JUICY, INCOME), True),
])
def test_nyk_m8_a_lone_juicy_job_pays_only_the_step_that_finishes_its_job(t, dest, hand, steps):
    t.env.params[0, INDEX["card_moves"]] = 1.0
    t.hench(FURYO, 0, GREENWICH)
    t.hold(mission_ids(crew=1, risk=0)[0], [FURYO], dest)
    t.give(0, *hand)
    opts = options((OP_STOP,), (OP_STEP, CHELSEA, ANY_CARD))
    assert policy.best_step(t.game, t.env, 0, opts, 2, 1 << FURYO) == int(steps)


def test_nyk_m2_a_check_loses_to_a_car_free_step_as_close(t):
    t.env.params[0, INDEX["avoid_police"]] = 0.0
    t.police(CHELSEA)
    t.hench(FURYO, 0, GREENWICH)
    t.hold(mission_ids(crew=1, risk=0)[0], [FURYO], HARLEM)
    opts = options((OP_STOP,), (OP_STEP, CHELSEA, NO), (OP_STEP, GRAMERCY, NO))
    assert policy.best_step(t.game, t.env, 0, opts, 3, 1 << FURYO) == 2


def test_nyk_m4_characters_sharing_a_goal_set_out_together(t):
    t.hench(FURYO, 0, SOHO)
    t.hench(LOOXY, 0, SOHO)
    jobs = mission_ids(crew=1, risk=0)
    t.hold(jobs[0], [FURYO], HARLEM)
    t.hold(jobs[1], [LOOXY], CHELSEA)
    t.ms[jobs[1], S.M_DEST] = HARLEM  # the same destination (one tile a district: set by hand)
    both = 1 << FURYO | 1 << LOOXY
    gain = policy.journey_gain(t.game, t.env, 0, SOHO, both, MODE_NORMAL, policy.decision_memo(t.env))
    assert gain > policy.journey_gain(t.game, t.env, 0, SOHO, 1 << FURYO, MODE_NORMAL, policy.decision_memo(t.env))
    t.ms[jobs[1], S.M_DEST] = CHELSEA  # on the way: together to CHELSEA, where Looxy is dropped
    assert policy.journey_gain(t.game, t.env, 0, SOHO, both, MODE_NORMAL, policy.decision_memo(t.env)) == gain
    t.at(FURYO, GREENWICH)
    t.at(LOOXY, GREENWICH)
    steps = options((OP_STOP,), (OP_STEP, GRAMERCY, NO), (OP_STEP, CHELSEA, NO))  # both as close to HARLEM
    assert policy.best_step(t.game, t.env, 0, steps, 3, both) == 2
    t.ms[jobs[1], S.M_DEST] = TRIBECA  # another way: one card would not serve both
    assert policy.journey_gain(t.game, t.env, 0, GREENWICH, both, MODE_NORMAL, policy.decision_memo(t.env)) == 0.0


def test_nyk_c5_a_played_fast_car_goes_to_the_far_journey_on_an_open_road(t):
    t.hench(FURYO, 0, SOHO)
    t.hench(LOOXY, 0, SOHO)
    jobs = mission_ids(crew=1, risk=0)
    t.hold(jobs[0], [FURYO], HARLEM)    # six districts away
    t.hold(jobs[1], [LOOXY], GREENWICH)  # next door

    def gain(c):
        return policy.journey_gain(t.game, t.env, 0, SOHO, 1 << c, MODE_NORMAL, policy.decision_memo(t.env))

    assert gain(FURYO) == gain(LOOXY)
    t.pl[0, S.EXTRA_STEPS] = 2
    assert gain(FURYO) > gain(LOOXY)
    assert policy.far_goal(t.game, t.env, 0, policy.decision_memo(t.env))
    t.police(GREENWICH)  # every shortest way out of SOHO goes through a check
    assert gain(FURYO) == gain(LOOXY)
    assert not policy.far_goal(t.game, t.env, 0, policy.decision_memo(t.env))


def test_nyk_a5_e1_simple_keeps_the_same_guards(t):
    """`simple` folds alone below even odds (its own rule would fight on a pair against a pair)
    and buys no henchman in the last turn."""
    t.at(0, SOHO)
    t.hench(LOOXY, 1, SOHO)
    ctx = np.zeros(N_CTX, np.int64)
    ctx[CTX_STAGE], ctx[CTX_CREW], ctx[CTX_OTHER_CREW], ctx[CTX_OPPONENT] = 1, QUEENS, KINGS, 1
    ctx[CTX_DISTRICT] = SOHO
    opts = np.zeros((2, 5), np.int64)
    assert policy.simple(t.game, t.env, 0, D_FOLD, opts, 2, ctx) == 1
    t.hench(FURYO, 0, SOHO)
    assert policy.simple(t.game, t.env, 0, D_FOLD, opts, 2, ctx) == 0
    t.money(0, 30000)
    ctx[CTX_THEIRS] = 2000
    assert policy.simple(t.game, t.env, 0, D_HESITATE, opts, 2, ctx) == 1
    t.g[S.END_REVEALED], t.g[S.LAST_TURN] = 1, t.g[S.TURN]
    assert policy.simple(t.game, t.env, 0, D_HESITATE, opts, 2, ctx) == 0


def test_nyk_m2_the_first_player_drives_no_car_onto_its_own_crews_way(t):
    t.police(SOHO)
    t.hench(FURYO, 0, CHELSEA)
    t.hold(mission_ids(crew=1, risk=0)[0], [FURYO], SOHO)  # CHELSEA -> GREENWICH -> SOHO
    steps = options((OP_POLICE, 0, GREENWICH), (OP_POLICE, 0, TRIBECA))
    assert policy.best_destination(t.game, t.env, 0, steps, 2) == 1
    assert (policy.own_route(t.game, t.env, 0) >> GREENWICH) & 1


def test_nyk_m2_a_car_whose_every_step_is_on_the_crews_way_is_worth_less(t):
    t.police(DISTRICT["BROOKLYN"])  # its two neighbours: both on Furyo's way
    t.hench(FURYO, 0, CHINATOWN)
    job = t.hold(mission_ids(crew=1, risk=0)[0], [FURYO], HARLEM)
    t.ms[job, S.M_DEST] = DISTRICT["BROOKLYN"]  # CHINATOWN -> FINANCIAL or LOWER EAST SIDE -> BROOKLYN
    watched, crews = policy.watched_missions(t.game, 0), policy.crews_at_risk(t.game)
    free = policy.car_gain(t.game, t.env, 0, 0, watched, crews, 0)
    blocked = policy.car_gain(t.game, t.env, 0, 0, watched, crews, policy.own_route(t.game, t.env, 0))
    assert blocked < free


def test_nyk_m4_m8_a_group_heads_for_its_farthest_members_goal_dropping_the_nearer_on_the_way(t):
    """Furyo (the lower id) is bound next door, Looxy beyond it: one journey, one card for the
    steps they share, rather than two that pay twice."""
    t.hench(FURYO, 0, SOHO)
    t.hench(LOOXY, 0, SOHO)
    jobs = mission_ids(crew=1, risk=0)
    t.hold(jobs[0], [FURYO], HARLEM)
    t.hold(jobs[1], [LOOXY], CHELSEA)
    t.ms[jobs[0], S.M_DEST], t.ms[jobs[1], S.M_DEST] = CHELSEA, HARLEM  # Furyo's on Looxy's way (set by hand)
    both, memo = 1 << FURYO | 1 << LOOXY, policy.decision_memo(t.env)
    assert policy.group_goal(t.game, t.env, 0, both, memo) == HARLEM
    together = policy.journey_gain(t.game, t.env, 0, SOHO, both, MODE_NORMAL, policy.decision_memo(t.env))
    alone = policy.journey_gain(t.game, t.env, 0, SOHO, 1 << FURYO, MODE_NORMAL, policy.decision_memo(t.env))
    assert together > alone > 0.0


def test_nyk_m2_of_two_steps_as_close_the_one_whose_way_on_is_free(t):
    """From GREENWICH, CHELSEA and GRAMERCY are as close to HARLEM; a car on HELL'S KITCHEN, the
    only way on from CHELSEA, would stop the journey there (and waste a Fast Car's steps)."""
    t.hench(FURYO, 0, GREENWICH)
    t.hold(mission_ids(crew=1, risk=0)[0], [FURYO], HARLEM)
    steps = options((OP_STOP,), (OP_STEP, CHELSEA, NO), (OP_STEP, GRAMERCY, NO))
    assert policy.best_step(t.game, t.env, 0, steps, 3, 1 << FURYO) == 1
    t.police(DISTRICT["HELL'S KITCHEN"])
    assert policy.best_step(t.game, t.env, 0, steps, 3, 1 << FURYO) == 2


def test_nyk_m4_m8_ways_that_part_travel_together_while_the_cards_take_one_no_farther(t):
    """From SOHO, Furyo's job is in BROADWAY and Looxy's in UNION CITY, both four steps away by
    GREENWICH VILLAGE, CHELSEA and GARMENT DISTRICT. With three cards, Furyo's journey pays two
    and Looxy alone could then go three steps, no farther than the GARMENT DISTRICT where their
    ways part: one journey, Looxy dropped there, and the card it would pay again is saved. With
    four cards, each reaches its own: two journeys; not so if the fourth is a Juicy Job (paid only
    for the step that finishes its job, NYK-C5)."""
    garment = DISTRICT["GARMENT DISTRICT"]
    t.hench(FURYO, 0, SOHO)
    t.hench(LOOXY, 0, SOHO)
    jobs = mission_ids(crew=1, risk=0)
    t.hold(jobs[0], [FURYO], HARLEM)
    t.hold(jobs[1], [LOOXY], CHELSEA)
    t.ms[jobs[0], S.M_DEST], t.ms[jobs[1], S.M_DEST] = DISTRICT["BROADWAY"], DISTRICT["UNION CITY"]  # by hand
    cards = card_ids(E_BANK_INCOME) + card_ids(E_STEAL_MONEY)
    t.give(0, *cards[:3])
    both = 1 << FURYO | 1 << LOOXY
    together = policy.journey_gain(t.game, t.env, 0, SOHO, both, MODE_NORMAL, policy.decision_memo(t.env))
    alone = policy.journey_gain(t.game, t.env, 0, SOHO, 1 << FURYO, MODE_NORMAL, policy.decision_memo(t.env))
    assert together > alone > 0.0
    assert policy.group_goal(t.game, t.env, 0, both, policy.decision_memo(t.env)) == DISTRICT["BROADWAY"]
    t.at(FURYO, CHELSEA)
    t.at(LOOXY, CHELSEA)
    steps = options((OP_STOP,), (OP_STEP, DISTRICT["HELL'S KITCHEN"], ANY_CARD), (OP_STEP, garment, ANY_CARD))
    assert policy.best_step(t.game, t.env, 0, steps, 3, both) in (1, 2)  # still on both ways
    t.at(FURYO, garment)
    t.at(LOOXY, garment)
    steps = options((OP_STOP,), (OP_STEP, DISTRICT["BROADWAY"], ANY_CARD), (OP_STEP, DISTRICT["UNION CITY"], ANY_CARD),
                    (OP_DROP, FURYO), (OP_DROP, LOOXY))
    assert policy.best_step(t.game, t.env, 0, steps, 5, both) == 4
    t.at(FURYO, SOHO)
    t.at(LOOXY, SOHO)
    t.give(0, card_ids(E_MISSION_BONUS)[0])
    assert policy.journey_gain(t.game, t.env, 0, SOHO, both, MODE_NORMAL, policy.decision_memo(t.env)) == together
    t.give(0, cards[3])
    assert policy.journey_gain(t.game, t.env, 0, SOHO, both, MODE_NORMAL, policy.decision_memo(t.env)) == 0.0


def test_nyk_m8_no_card_again_for_a_step_an_earlier_journey_of_the_turn_paid(t):
    """Looxy set out from SOHO this turn and went on to BROADWAY by GREENWICH VILLAGE, CHELSEA and
    GARMENT DISTRICT, a card paying its steps past the ordinary two; Furyo's goal became BROADWAY
    only once it had gone (a goal can change within the movement), so the two were no group. Set
    out from SOHO and come to CHELSEA, Furyo does not pay a card for the step to the GARMENT
    DISTRICT again: it stops. A step without a card it makes; beside a job at risk (no one journey
    with it, NYK-P4) it pays."""
    garment, broadway = DISTRICT["GARMENT DISTRICT"], DISTRICT["BROADWAY"]
    t.env.params[0, INDEX["card_moves"]] = 1.0
    t.hench(FURYO, 0, SOHO)
    t.hench(LOOXY, 0, SOHO)
    job = t.hold(mission_ids(crew=1, risk=0)[0], [FURYO], HARLEM)
    t.ms[job, S.M_DEST] = broadway  # by hand (its tile is not in the bag)
    t.give(0, *card_ids(E_BANK_INCOME)[:2])
    S.place(t.game, LOOXY, S.W_CONTROLLED, broadway)
    t.ch[LOOXY, S.STEPS], t.ch[LOOXY, S.MOVED] = 4, 1
    S.place(t.game, FURYO, S.W_CONTROLLED, CHELSEA)
    t.ch[FURYO, S.STEPS] = 2
    assert t.ch[FURYO, S.START] == t.ch[LOOXY, S.START] == SOHO
    paid = options((OP_STOP,), (OP_STEP, garment, ANY_CARD))
    free = options((OP_STOP,), (OP_STEP, garment, NO))
    assert policy.best_step(t.game, t.env, 0, paid, 2, 1 << FURYO) == 0
    assert policy.best_step(t.game, t.env, 0, free, 2, 1 << FURYO) == 1
    t.ch[LOOXY, S.STEPS] = 6  # it went round another way: this step was not on it
    assert policy.best_step(t.game, t.env, 0, paid, 2, 1 << FURYO) == 1
    t.ch[LOOXY, S.STEPS] = 4
    t.hold(mission_ids(crew=1, risk=1)[0], [LOOXY], t.bag()[-1])
    assert policy.best_step(t.game, t.env, 0, paid, 2, 1 << FURYO) == 1
    assert t.ch[FURYO, S.MISSION] == job


def crew_to_harlem_past_a_car(t, rival_bound_for):
    """Seat 0's Furyo at SOHO with a job bound for HARLEM, a police car on GREENWICH VILLAGE (every
    shortest way goes through it), and a rival's public job at risk bound for `rival_bound_for`: where
    the car is worth driving (seat 0 avoids the police and blocks rivals at its fullest)."""
    t.env.params[0, INDEX["avoid_police"]] = 1.0
    t.env.params[0, INDEX["police_block"]] = 1.0
    t.police(GREENWICH)
    t.hench(FURYO, 0, SOHO)
    t.hold(mission_ids(crew=1, risk=0)[0], [FURYO], HARLEM)
    t.hench(LOOXY, 1, TRIBECA)
    t.hold(mission_ids(crew=1, risk=1, secret=0)[0], [LOOXY], rival_bound_for)


def test_nyk_c5_m5_the_first_player_plays_the_fast_car_on_a_road_it_opens_itself(t):
    """From SOHO every shortest way to HARLEM goes through GREENWICH VILLAGE, where a car stands: no
    open road for the Fast Car. As the first player, with that car still to move and its best step
    off the way (to LITTLE ITALY, a rival's public job at risk), the player drives it off (NYK-M5)
    and the road is open; not with the car's steps spent, nor when it is not the first player."""
    crew_to_harlem_past_a_car(t, rival_bound_for=DISTRICT["LITTLE ITALY"])

    def far():
        return policy.far_goal(t.game, t.env, 0, policy.decision_memo(t.env))

    assert not far()
    t.g[S.FIRST] = 0
    assert far()
    t.g[S.POLICE_STEPS0] = t.env.rp[P_POLICE_MOVE_STEPS]
    assert not far()


def test_nyk_c5_m3_a_car_driven_onto_the_crews_own_district_has_left_its_way(t):
    """As above, but the car's best step is onto SOHO itself (a rival's public job at risk bound
    there): the crew has not set out and leaves a car on its own district freely (NYK-M3), so the
    car has left the road to HARLEM and the Fast Car goes (before, SOHO counted as on the way)."""
    crew_to_harlem_past_a_car(t, rival_bound_for=SOHO)
    t.g[S.FIRST] = 0
    memo = policy.decision_memo(t.env)
    assert policy.cars_driven_off(t.game, t.env, 0, SOHO, HARLEM, False, memo) == (1, 0)  # GREENWICH to SOHO
    assert policy.far_goal(t.game, t.env, 0, policy.decision_memo(t.env))


def test_nyk_c5_m5_a_car_driven_onto_one_of_two_ways_leaves_the_other_open(t):
    """From CHINATOWN to MORNINGSIDE HEIGHTS every way goes through CHELSEA, where a car stands, by
    GREENWICH VILLAGE or by GRAMERCY. The car's best step is onto GREENWICH (a rival's public job at
    risk bound there): once the crew stands beside the car on GRAMERCY, `best_step` drives it
    there rather than stop (NYK-M5), so at the menu the road is open for the Fast Car, the way by
    GRAMERCY free (before, GREENWICH counted as the crew's own way and the car stayed)."""
    morningside = DISTRICT["MORNINGSIDE HEIGHTS"]
    t.env.params[0, INDEX["police_block"]] = 1.0
    t.police(CHELSEA)
    t.hench(FURYO, 0, CHINATOWN)
    t.hold(mission_ids(crew=1, risk=0)[0], [FURYO], morningside)
    t.hench(LOOXY, 1, TRIBECA)
    t.hold(mission_ids(crew=1, risk=1, secret=0)[0], [LOOXY], GREENWICH)
    t.g[S.FIRST] = 0
    memo = policy.decision_memo(t.env)
    assert policy.on_the_way(t.env, CHINATOWN, GREENWICH, morningside)
    assert policy.cars_driven_off(t.game, t.env, 0, CHINATOWN, morningside, False, memo) == (1, 1 << GREENWICH)
    assert policy.far_goal(t.game, t.env, 0, policy.decision_memo(t.env))
    S.place(t.game, FURYO, S.W_CONTROLLED, GRAMERCY)  # the journey under way, beside the car
    t.ch[FURYO, S.STEPS] = 2
    steps = options((OP_STOP,), (OP_STEP, CHELSEA, ANY_CARD), (OP_POLICE, 0))
    assert policy.best_step(t.game, t.env, 0, steps, 3, 1 << FURYO) == 2


def test_nyk_m2_a_crew_not_at_risk_steps_onto_its_goal_where_a_car_stands(t):
    """A check stops a journey (NYK-M2): onto the crew's goal it stops nothing, so a crew not at
    risk, one step from its goal where a car stands, steps on however much it avoids the police
    (as `open_road` reads the goal, which played the Fast Car for it); a crew at risk would be
    questioned there (NYK-P4) and stops."""
    t.env.params[0, INDEX["avoid_police"]] = 1.0
    t.police(SOHO)
    t.hench(FURYO, 0, GREENWICH)
    job = mission_ids(crew=1, risk=0)[0]
    t.hold(job, [FURYO], SOHO)
    steps = options((OP_STOP,), (OP_STEP, SOHO, NO))
    assert policy.best_step(t.game, t.env, 0, steps, 2, 1 << FURYO) == 1
    t.ms[job, S.M_RISK] = 1
    assert policy.best_step(t.game, t.env, 0, steps, 2, 1 << FURYO) == 0


def test_nyk_m2_the_first_player_drives_no_car_onto_its_own_crew_under_way(t):
    """A crew that set out from SOHO and stands on GREENWICH VILLAGE, its journey under way toward
    HARLEM: a car driven onto GREENWICH stops it there (NYK-M2, the Fast Car's steps lost with the
    journey), so that district is on its own route and a car's step there costs the step. Before
    it set out, on the district it started from, a car is no check (NYK-M3)."""
    t.hench(FURYO, 0, SOHO)
    t.hold(mission_ids(crew=1, risk=0)[0], [FURYO], HARLEM)
    assert not (policy.own_route(t.game, t.env, 0) >> SOHO) & 1
    S.place(t.game, FURYO, S.W_CONTROLLED, GREENWICH)
    t.ch[FURYO, S.STEPS] = 1
    assert (policy.own_route(t.game, t.env, 0) >> GREENWICH) & 1
    t.police(SOHO)
    route, watched, crews = (policy.own_route(t.game, t.env, 0), policy.watched_missions(t.game, 0),
                             policy.crews_at_risk(t.game))
    onto = policy.car_step_worth(t.game, t.env, 0, 0, GREENWICH, watched, crews, route)
    assert onto == policy.car_step_gain(t.game, t.env, 0, 0, GREENWICH, watched, crews) - policy.ROUTE_BLOCK_COST


def test_nyk_c5_m6_the_fast_car_goes_on_from_where_the_subway_ride_ends(t):
    """A crew that started its turn on GRAND CENTRAL, its job on TRIBECA five districts away, every
    way on foot through a check: the subway ride (three districts, no checks, NYK-M6) and the Fast
    Car's two steps after it get there for one card (NYK-C5, M8), so the player plays it and rides
    (before, only a road on foot counted and two cards paid the last steps)."""
    t.env.params[0, INDEX["subway"]] = 1.0
    t.hench(FURYO, 0, GRAND_CENTRAL)
    t.hold(mission_ids(crew=1, risk=0)[0], [FURYO], TRIBECA)
    t.police(DISTRICT["MURRAY HILL"], BROADWAY, DISTRICT["UPPER EAST SIDE"])
    assert policy.far_goal(t.game, t.env, 0, policy.decision_memo(t.env))

    def gain(mode):
        return policy.journey_gain(t.game, t.env, 0, GRAND_CENTRAL, 1 << FURYO, mode, policy.decision_memo(t.env))

    ride = gain(MODE_SUBWAY)
    t.pl[0, S.EXTRA_STEPS] = 2
    assert gain(MODE_SUBWAY) == ride + policy.ARMED_JOURNEY > gain(MODE_NORMAL)
    t.env.params[0, INDEX["subway"]] = 0.0  # a player that walks: no ride, the road on foot closed
    assert not policy.far_goal(t.game, t.env, 0, policy.decision_memo(t.env))


def test_nyk_m6_a_subway_ride_goes_on_past_the_police_it_ignores(t):
    """A crew riding the subway, one district out of GRAND CENTRAL on MURRAY HILL, its goal SOHO
    beyond GRAMERCY where a car stands: the ride ignores the police (NYK-M6), so it goes on there
    (the Fast Car's steps after the ride with it) where a walk would stop short of the check."""
    t.env.params[0, INDEX["avoid_police"]] = 1.0
    t.hench(FURYO, 0, DISTRICT["MURRAY HILL"])
    t.hold(mission_ids(crew=1, risk=0)[0], [FURYO], SOHO)
    t.police(GRAMERCY)
    steps = options((OP_STOP,), (OP_STEP, GRAMERCY, NO))
    ctx = np.zeros(N_CTX, np.int64)
    ctx[CTX_DECISION], ctx[CTX_GROUP], ctx[CTX_STEPS] = D_STEP, 1 << FURYO, 1
    ctx[CTX_MODE] = MODE_NORMAL
    assert policy.heuristic(t.game, t.env, 0, D_STEP, steps, 2, ctx) == 0
    ctx[CTX_MODE] = MODE_SUBWAY
    assert policy.heuristic(t.game, t.env, 0, D_STEP, steps, 2, ctx) == 1


def test_nyk_m5_the_first_player_moves_a_car_worth_moving_before_its_crews_set_out(t):
    """A car worth moving (toward a rival's public job at risk, off the crew's way) goes before the
    journey: the crew's goal and road, and the Fast Car, are then judged on the board as the car
    leaves it, not changed under the journey by the player's own car (before, the journey went
    first and the car in the middle of it)."""
    t.env.params[0, INDEX["police_block"]] = 1.0
    t.police(GREENWICH)
    t.hench(FURYO, 0, SOHO)
    t.hold(mission_ids(crew=1, risk=0)[0], [FURYO], HARLEM)
    t.hench(LOOXY, 1, TRIBECA)
    t.hold(mission_ids(crew=1, risk=1, secret=0)[0], [LOOXY], DISTRICT["LITTLE ITALY"])
    t.g[S.FIRST] = 0
    menu = options((OP_END,), (OP_JOURNEY, SOHO, 1 << FURYO, MODE_NORMAL), (OP_POLICE, 0))
    assert policy.car_worth(t.game, t.env, 0, 0, policy.decision_memo(t.env), 0.0) > 0.0
    assert policy.best_move(t.game, t.env, 0, menu, 3) == 2
    t.env.params[0, INDEX["police_block"]] = 0.0  # a car worth nothing stays: the crew sets out
    assert policy.best_move(t.game, t.env, 0, menu, 3) == 1


def test_nyk_c5_m4_the_fast_car_goes_to_a_group_only_on_the_groups_own_road(t):
    """From MORNINGSIDE HEIGHTS, jobs on MURRAY HILL (four districts, an open road by HARLEM) and
    UNION CITY (three, only by UPPER WEST SIDE, where a car stands): together the two take the
    way by UPPER WEST SIDE (each goal kept on it) and its check stops them, the Fast Car's steps
    lost (NYK-M2). The played car goes to the one bound for MURRAY HILL alone (before, the group
    got it on its lead's road and stopped where it set out)."""
    morningside = DISTRICT["MORNINGSIDE HEIGHTS"]
    t.hench(FURYO, 0, morningside)
    t.hench(LOOXY, 0, morningside)
    jobs = mission_ids(crew=1, risk=0)
    t.hold(jobs[0], [FURYO], DISTRICT["MURRAY HILL"])
    t.ms[t.hold(jobs[1], [LOOXY], t.bag()[-1]), S.M_DEST] = UNION_CITY  # by hand (its tile is not in the bag)
    t.police(DISTRICT["UPPER WEST SIDE"], CHELSEA)
    t.pl[0, S.EXTRA_STEPS] = 2

    def gain(group):
        return policy.journey_gain(t.game, t.env, 0, morningside, group, MODE_NORMAL, policy.decision_memo(t.env))

    both = (1 << FURYO) | (1 << LOOXY)
    assert gain(1 << FURYO) == 5500.0 + policy.ARMED_JOURNEY
    assert gain(both) == 6000.0 < gain(1 << FURYO)


def test_nyk_m2_p4_a_crew_at_risk_takes_the_way_that_goes_on_to_next_to_its_guarded_goal(t):
    """From the GARMENT DISTRICT to HARLEM, with cars on HARLEM (the goal), UPPER WEST SIDE and
    UPPER EAST SIDE: no way reaches the goal unseen, but the one by MURRAY HILL, QUEENS and EAST
    HARLEM goes on car-free to next to it, where HELL'S KITCHEN's meets a car after one step. A
    crew at risk takes MURRAY HILL (the Fast Car's steps are not lost before a car); before, both
    ways counted as closed (the goal's car ended both) and the first listed won."""
    t.hench(FURYO, 0, DISTRICT["GARMENT DISTRICT"])
    t.hold(mission_ids(crew=1, risk=1)[0], [FURYO], HARLEM)
    t.police(HARLEM, DISTRICT["UPPER WEST SIDE"], DISTRICT["UPPER EAST SIDE"])
    steps = options((OP_STOP,), (OP_STEP, DISTRICT["HELL'S KITCHEN"], NO), (OP_STEP, DISTRICT["MURRAY HILL"], NO))
    assert policy.best_step(t.game, t.env, 0, steps, 3, 1 << FURYO) == 2
