"""The heuristic's police moves (NYK-M5, P4): a car driven onto one's own at-risk crew, with no
rival's there to question instead, costs what the crew's mission is worth; its Fast Car (NYK-C5)."""

import numpy as np
from scenario import BOARD, CHELSEA, GREENWICH, HARLEM, HENCH, PARAM, PERIPHERAL, SOHO, Table, mission_ids

from sim.nyk import state as S
from strategies.nyk import policy
from strategies.nyk.params import INDEX

FURYO, LOOXY = 7, 8


def step_worth(t, p, to):
    watched = policy.watched_missions(t.game, p)
    return policy.car_step_gain(t.game, t.env, p, 0, to, watched,
                                policy.crews_at_risk(t.game))


def table(n_players=2):
    t = Table(n_players=n_players, kind=PARAM)
    t.police(GREENWICH, HARLEM)
    return t


def test_nyk_p4_a_car_onto_ones_own_at_risk_crew_costs_its_mission():
    risky = mission_ids(crew=1, risk=1)[0]
    t = table()
    t.hench(FURYO, 0, SOHO)
    t.hold(risky, [FURYO], HARLEM)
    with_crew = step_worth(t, 0, SOHO)
    t.at(FURYO, HARLEM)  # the same mission, its crew elsewhere
    assert with_crew - step_worth(t, 0, SOHO) == -t.ms[risky, S.M_REWARD]


def test_nyk_p4_a_car_onto_ones_own_crew_beside_a_rivals_costs_nothing_the_rival_is_questioned():
    risky = mission_ids(crew=1, risk=1)
    t = table(3)
    t.hench(FURYO, 0, SOHO)
    t.hold(risky[0], [FURYO], CHELSEA, accept=SOHO)
    assert policy.arrival_gain(t.game, t.env, 0, SOHO, policy.crews_at_risk(t.game)) == -t.ms[risky[0], S.M_REWARD]
    t.hench(LOOXY, 1, SOHO)  # a rival's at-risk crew there too: the mover questions it (D_WHOM)
    t.hold(risky[1], [LOOXY], HARLEM, accept=GREENWICH)
    assert policy.arrival_gain(t.game, t.env, 0, SOHO, policy.crews_at_risk(t.game)) == 0.0
    assert policy.arrival_gain(t.game, t.env, 1, SOHO, policy.crews_at_risk(t.game)) == 0.0
    assert policy.arrival_gain(t.game, t.env, 0, GREENWICH, policy.crews_at_risk(t.game)) == 0.0


def test_nyk_c5_fast_car_is_played_before_the_journey_it_lengthens_whatever_the_card_appetite():
    """Valued above the journey that follows it (and only then): it adds steps to that journey."""
    from sim.nyk.decisions import MODE_NORMAL, OP_END, OP_JOURNEY, OP_PLAY
    from sim.nyk.compiled import E_EXTRA_MOVE
    from scenario import card_ids

    t = Table(kind=PARAM)
    fast = card_ids(E_EXTRA_MOVE)[0]
    t.give(0, fast)
    t.hench(FURYO, 0, SOHO)
    t.hold(mission_ids(crew=1, risk=0)[0], [FURYO], HARLEM, accept=SOHO)
    rows = [(OP_END, 0, 0, 0, 0), (OP_JOURNEY, SOHO, 1 << FURYO, MODE_NORMAL, 0), (OP_PLAY, fast, E_EXTRA_MOVE, -1, 0)]
    opts = np.array(rows + [(0,) * 5] * 5, dtype=np.int64)
    knobs = t.env["params"][0]  # the seat's knobs, read in place by the policy
    default = knobs[INDEX["card_events"]]
    for appetite in (0.0, 0.6, 1.0):
        knobs[INDEX["card_events"]] = appetite
        assert policy.best_move(t.game, t.env, 0, opts, 3) == 2, appetite
    knobs[INDEX["card_events"]] = default
    t.at(FURYO, HARLEM)  # at its goal: nothing to lengthen, the card is kept
    assert policy.best_move(t.game, t.env, 0, opts, 3) != 2


def test_nyk_p4_simple_never_drives_a_car_onto_its_own_crew_when_another_step_is_harmless():
    from scenario import SIMPLE
    from sim.nyk.decisions import OP_POLICE

    t = Table(kind=SIMPLE)
    t.police(GREENWICH, HARLEM)
    t.hench(FURYO, 0, SOHO)
    t.hold(mission_ids(crew=1, risk=1)[0], [FURYO], HARLEM, accept=SOHO)
    opts = np.array([(OP_POLICE, 0, SOHO, 0, 0), (OP_POLICE, 0, CHELSEA, 0, 0)], dtype=np.int64)
    picks = set()
    for seed in range(40):
        t.game.rng[S.S_POLICY0] = np.array([seed + 1, 7, 11, 13], dtype=np.uint64)
        picks.add(policy.harmless_step(t.game, t.env, 0, opts, 2))
    assert picks == {1}
    t.at(FURYO, HARLEM)  # no crew at risk on either step: both are drawn
    for seed in range(40):
        t.game.rng[S.S_POLICY0] = np.array([seed + 1, 7, 11, 13], dtype=np.uint64)
        picks.add(policy.harmless_step(t.game, t.env, 0, opts, 2))
    assert picks == {0, 1}


def test_nyk_p4_under_police_questioned_all_a_rivals_crew_beside_ones_own_is_no_cover():
    risky = mission_ids(crew=1, risk=1)
    t = Table(n_players=3, kind=PARAM, overrides={"police.questioned": "all"})
    t.police(GREENWICH, HARLEM)
    t.hench(FURYO, 0, SOHO)
    t.hold(risky[0], [FURYO], CHELSEA, accept=SOHO)
    t.hench(LOOXY, 1, SOHO)
    t.hold(risky[1], [LOOXY], HARLEM, accept=GREENWICH)
    assert policy.arrival_gain(t.game, t.env, 0, SOHO, policy.crews_at_risk(t.game)) == -t.ms[risky[0], S.M_REWARD]


def test_a_car_step_changes_its_distance_to_any_district_by_at_most_one():
    """What `policy.car_gain_bound` rests on: `dist` counts connections, both ends of one lie in
    one component of the board."""
    env = Table().env
    n = len(BOARD)
    for here in range(n):
        for j in range(env.nbr[here, 0]):
            to = env.nbr[here, 1 + j]
            assert np.abs(env.dist[to, :n] - env.dist[here, :n]).max() <= 1


def test_the_car_gain_bound_is_never_below_a_cars_gain_whatever_the_knobs():
    """Random held at-risk missions, cars and police knobs of either sign: no car's best step
    is worth more than the bound the heuristic skips the steps by (NYK-M5)."""
    gen = np.random.default_rng(3)
    risky = mission_ids(crew=1, risk=1)
    districts = [d for d in range(len(BOARD)) if d not in PERIPHERAL]
    henchmen = list(HENCH.values())
    for _ in range(40):
        t = Table(n_players=3, kind=PARAM)
        t.police(*gen.choice(districts, size=gen.integers(1, S.N_POLICE + 1), replace=False))
        in_deck = [m for m in risky if t.ms[m, S.M_STATE] == S.MS_DECK]
        for i, m in enumerate(gen.choice(in_deck, size=gen.integers(1, 5), replace=False)):
            c = henchmen[i]
            t.hench(c, int(gen.integers(0, 3)), int(gen.choice(districts)))
            t.hold(int(m), [c], int(gen.choice(t.bag())))
        for p in range(3):
            t.env.params[p, INDEX["police_clear"]] = gen.uniform(-2, 2)
            t.env.params[p, INDEX["police_block"]] = gen.uniform(-2, 2)
        crews = policy.crews_at_risk(t.game)
        for p in range(3):
            watched = policy.watched_missions(t.game, p)
            bound = policy.car_gain_bound(t.game, t.env, p, watched)
            route = policy.own_route(t.game, t.env, p)
            for car in range(S.N_POLICE):
                if t.g[S.POLICE0 + car] >= 0:
                    assert policy.car_gain(t.game, t.env, p, car, watched, crews, route) <= bound
