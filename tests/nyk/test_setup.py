"""NYK-S1..S9 (setup) and NYK-C1..C6 (components) as the engine deals them."""

from collections import Counter

import numpy as np
import pytest
from scenario import (
    BROADWAY, CHELSEA, FINANCIAL, GRAND_CENTRAL, PERIPHERAL, SOHO, Table, compiled, mission_ids,
)

from sim.nyk import state as S

LOOXY, FURYO = 8, 7


def row_tiles(t):
    tiles = []
    for s in range(3):
        m = t.g[S.ROW0 + s]
        tiles += [d for d in (t.ms[m, S.M_ACCEPT], t.ms[m, S.M_DEST]) if d != S.NO]
    return tiles


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_nyk_s1_one_affranchi_per_player_at_broadway(n):
    t = Table(n_players=n, clear=False)
    for c in range(5):
        if c < n:
            assert t.ch[c, S.OWNER] == c and t.ch[c, S.WHERE] == S.W_CONTROLLED
            assert t.ch[c, S.LOC] == BROADWAY and t.pl[c, S.ALIVE] == 1
        else:
            assert t.ch[c, S.WHERE] == S.W_DEAD and t.pl[c, S.ALIVE] == 0


def test_nyk_s1_ruling_start_district():
    t = Table(overrides={"start.district": "SOHO"}, clear=False)
    assert t.ch[0, S.LOC] == t.ch[1, S.LOC] == SOHO
    seen = {int(Table(overrides={"start.district": "random"}, seed=s, clear=False).ch[0, S.LOC])
            for s in range(40)}
    assert len(seen) > 5 and seen <= set(range(24))


@pytest.mark.parametrize("n", [2, 5])
def test_nyk_s2_sixteen_thousand_each_and_the_bank_holds_the_rest(n):
    t = Table(n_players=n, clear=False)
    for p in range(n):
        assert t.money(p) == 16000 and t.pl[p, S.ZEROS] == 2
    box = 25 * 1000 + 25 * 2000 + 30 * 5000
    assert t.g[S.BANK] == box - 16000 * n and t.g[S.MONEY_TOTAL] == box


@pytest.mark.parametrize("finite", [False, True])
def test_nyk_s2_ruling_finite_bank_pays_what_it_has_and_counts_failures(finite):
    t = Table(overrides={"bank.finite": finite})
    t.hench(LOOXY, 0, CHELSEA)
    m = t.hold(mission_ids(crew=1, risk=0)[0], [LOOXY], CHELSEA)
    reward = t.ms[m, S.M_REWARD]
    total = t.g[S.BANK] + t.money(0)
    t.money(0, total - 1000)  # the bank is down to $1,000
    t.accomplish(0, m, 1 << LOOXY)
    if finite:
        assert t.money(0) == total and t.g[S.BANK] == 0 and t.g[S.BANK_FAILURES] == 1
    else:
        assert t.money(0) == total - 1000 + reward and t.g[S.BANK_FAILURES] == 0


def test_nyk_s3_four_henchmen_revealed_at_the_peripheral_districts_in_order():
    for seed in range(5):
        t = Table(seed=seed, clear=False)
        shown = [int(t.g[S.PERIPH0 + i]) for i in range(4)]
        deck = [int(c) for c in t.g[S.H_DECK0:S.H_DECK0 + t.g[S.H_DECK_N]]]
        assert t.g[S.H_DECK_N] == 16 and sorted(shown + deck) == list(range(5, 25))
        for slot, c in enumerate(shown):
            assert t.ch[c, S.WHERE] == S.W_PERIPHERAL and t.ch[c, S.LOC] == PERIPHERAL[slot]


def test_nyk_s4_s5_end_card_uniformly_among_the_last_six():
    positions = Counter(int(Table(seed=s, clear=False).g[S.END_CARD_POS]) for s in range(240))
    assert set(positions) == set(range(19, 25))
    assert min(positions.values()) >= 20
    t = Table(clear=False)
    deck = list(t.g[S.M_DECK0:S.M_DECK0 + 25])
    assert sorted(deck) == list(range(25)) and deck[t.g[S.END_CARD_POS]] == S.END_CARD
    assert {int(Table(overrides={"missions.end_card_among_last": 1}, seed=s,
                      clear=False).g[S.END_CARD_POS]) for s in range(10)} == {24}


def test_nyk_s6_the_bag_holds_the_nineteen_address_tiles():
    t = Table(clear=False)
    tiles = sorted(t.bag() + row_tiles(t))
    assert tiles == sorted(np.flatnonzero(compiled().tile))
    assert len(tiles) == len(set(tiles)) == 19


def test_nyk_s7_three_missions_revealed_with_their_tiles():
    for seed in range(20):
        t = Table(seed=seed, clear=False)
        row = [int(t.g[S.ROW0 + s]) for s in range(3)]
        assert S.NO not in row and t.g[S.M_DECK_POS] == 3
        # placed in drawing order: the first card drawn on space 1
        drawn = [int(t.g[S.M_DECK0 + i]) for i in range(3)]
        assert row == drawn or S.END_CARD in drawn
        for s, m in enumerate(row):
            assert t.ms[m, S.M_STATE] == S.MS_ROW and t.ms[m, S.M_SLOT] == s
            assert t.ms[m, S.M_ACCEPT] != S.NO
            assert (t.ms[m, S.M_DEST] == S.NO) == bool(t.ms[m, S.M_SECRET])
        assert not set(row_tiles(t)) & set(t.bag())


def test_nyk_s8_resources_shuffled():
    decks = [tuple(Table(seed=s, clear=False).deck()) for s in range(3)]
    assert all(sorted(d) == list(range(32)) for d in decks) and len(set(decks)) == 3


@pytest.mark.parametrize("cars", [2, 3])
def test_nyk_s9_police_cars_at_broadway(cars):
    t = Table(overrides={"police.start_cars": cars}, clear=False)
    assert t.cars() == [BROADWAY] * cars + [S.PC_OFF] * (4 - cars)


# --- components --------------------------------------------------------------------------------

def test_nyk_c1_board_twenty_manhattan_districts_nineteen_tiles_and_specials():
    R = compiled()
    assert R.n_districts == 24 and R.tile.sum() == 19 and R.peripheral.sum() == 4
    assert not R.tile[BROADWAY] and not R.tile[list(PERIPHERAL)].any()
    assert (R.police_station, R.subway, R.heliport) == (BROADWAY, GRAND_CENTRAL, FINANCIAL)
    assert (R.distance < 99).all()  # connected
    t = Table(clear=False)
    assert BROADWAY not in t.bag() + row_tiles(t)


def test_nyk_c2_affranchi_are_aces_in_every_suit_henchmen_nine_to_king():
    t = Table(n_players=5, clear=False)
    assert list(t.ch[:5, S.VALUE]) == [5] * 5 and list(t.ch[:5, S.SUIT]) == [S.ALL_SUITS] * 5
    pairs = {(int(t.ch[c, S.SUIT]), int(t.ch[c, S.VALUE])) for c in range(5, 25)}
    assert pairs == {(s, v) for s in range(4) for v in range(5)}


def test_nyk_c3_money_is_conserved_in_bundles_of_thousands():
    t = Table(n_players=3, clear=False)
    assert t.g[S.MONEY_TOTAL] == t.g[S.BANK] + sum(t.money(p) for p in range(3))
    assert all(t.money(p) % 1000 == 0 for p in range(3))


def test_nyk_c4_missions_crew_risk_secret_and_rewards():
    R = compiled()
    assert set(R.mission_crew) == {1, 2} and set(R.mission_at_risk) == {0, 1}
    assert R.mission_secret.any() and (R.mission_reward >= 4000).all()
    assert (R.mission_reward <= 12000).all()
    doubled = compiled((("missions.reward_scale", 2.0),)).mission_reward
    assert (doubled == 2 * R.mission_reward).all()
    t = Table(overrides={"missions.reward_scale": 2.0}, clear=False)
    assert all(t.ms[m, S.M_REWARD] == doubled[m] for m in range(24))


@pytest.mark.parametrize("active, bonus", [(0, 3000), (1, 0)])
def test_nyk_c5_juicy_job_pays_3000_more_on_its_owners_turn_only(active, bonus):
    t = Table()
    t.hench(LOOXY, 0, CHELSEA)
    m = t.hold(mission_ids(crew=1, risk=0)[0], [LOOXY], CHELSEA)
    t.give(0, 0)  # Juicy Job: own turn, mission bonus $3,000
    t.g[S.ACTIVE] = active
    t.steer((2, 1))  # play it when offered
    rng = t.game.rng.copy()
    t.accomplish(0, m, 1 << LOOXY)
    assert t.money(0) == 16000 + t.ms[m, S.M_REWARD] + bonus
    assert len(t.hand(0)) == (0 if bonus else 1)
    if not bonus:
        assert np.array_equal(t.game.rng, rng)  # not even offered


@pytest.mark.parametrize("value, arrested", [("J", False), ("K", True)])
def test_nyk_c6_a_police_car_is_worth_a_jack(value, arrested):
    t = Table(overrides={"police.car_value": value})
    t.hench("The Lord", 0, SOHO)
    t.hold(mission_ids(crew=1, risk=1)[0], [9], CHELSEA)
    t.police(SOHO, BROADWAY)
    t.force("9", "10", "Q", "9", "10", "Q")  # crew K,9,10,Q; police car + 9,10,Q
    t.interrogate(0, SOHO)
    assert (t.ch[9, S.WHERE] == S.W_CUSTODY) == arrested
