"""NYK-T1..T5 (the turn) and NYK-E1, E2 (the end of the game)."""

import pytest
from scenario import (
    BROADWAY, CHELSEA, GARMENT, GREENWICH, HARLEM, RANDOM, SIMPLE, SOHO, TRIBECA, Table, mission_ids, play,
)

from sim.nyk import events as EV
from sim.nyk import state as S

LOOXY, FURYO, THE_LORD, CHARLIE, EDDY, LUCKY_ROSE, BIG_PAULIE = 8, 7, 9, 10, 11, 13, 14


# --- NYK-T1 ------------------------------------------------------------------------------------

def test_nyk_t1_largest_bid_is_first_and_all_valued_bills_go_to_the_bank():
    t = Table()
    t.money(0, 2000)
    t.pl[0, S.ZEROS] = 0      # only bid: $1,000 + $1,000
    t.money(1, 1000)
    t.pl[1, S.ZEROS] = 1      # only bid: $0 + $1,000
    t.g[S.FIRST] = 1
    bank = t.g[S.BANK]
    t.corruption()
    assert t.g[S.FIRST] == 0 and t.pl[0, S.C_TIMES_FIRST] == 1
    assert t.money(0) == 0 and t.money(1) == 0 and t.g[S.BANK] == bank + 3000
    assert t.pl[1, S.ZEROS] == 1
    assert t.pl[0, S.C_BIDS_PAID] == 2000 and t.pl[1, S.C_BIDS_PAID] == 1000


def test_nyk_t1_ties_are_decided_at_random():
    firsts = set()
    for seed in range(16):
        t = Table(n_players=3, seed=seed)
        for p in range(3):
            t.money(p, 0)      # everyone can only put down two $0 bills
        t.corruption()
        firsts.add(int(t.g[S.FIRST]))
        assert all(t.pl[p, S.ZEROS] == 2 for p in range(3))
    assert firsts == {0, 1, 2}


# --- NYK-T2 ------------------------------------------------------------------------------------

def test_nyk_t2_draw_the_largest_suit_count_first_player_first_hand_limit_five():
    t = Table()
    t.hench(LOOXY, 0, SOHO)
    t.hench(FURYO, 0, SOHO)
    t.hench(CHARLIE, 0, SOHO)
    t.give(0, 15, 16, 17, 18)       # own-turn cards already in hand
    t.stack(0, 1, 2, 3, 4)          # own-turn cards on the draw pile
    t.g[S.FIRST] = 1
    t.resources([1, 0])
    assert t.hand(1) == [0]         # seat 1 (affranchi only) draws 1, and first
    assert t.pl[0, S.C_CARDS_DRAWN] == 3 and len(t.hand(0)) == 5  # 4 + 3 spades, 2 discarded
    assert t.pl[0, S.C_CARDS_DISCARDED] == 2 and t.g[S.R_DISC_N] == 2
    assert set(t.hand(0)) | set(t.g[S.R_DISC0:S.R_DISC0 + 2]) == {1, 2, 3, 15, 16, 17, 18}


@pytest.mark.parametrize("limit", [2, 7])
def test_nyk_t2_hand_limit_option(limit):
    t = Table(overrides={"hand.limit": limit})
    t.give(0, 15, 16, 17, 18)
    t.stack(0, 1)
    t.resources([0])
    assert len(t.hand(0)) == min(5, limit)


# --- NYK-T3 ------------------------------------------------------------------------------------

MOVES = (EV.EV_JOURNEY, EV.EV_STEP)
ACTIONS = (EV.EV_ACCEPT, EV.EV_ACCOMPLISH, EV.EV_PROVOKE, EV.EV_RECRUIT)


def test_nyk_t3_each_player_moves_then_acts_in_turn_from_the_first_player():
    checked = 0
    for game_id in range(6):
        game, code = play(4, SIMPLE, game_id=game_id, record=1)
        assert code == 0
        ev = game.events[:game.g[S.N_EVENTS]]
        for turn in range(1, game.g[S.TURNS_PLAYED] + 1):
            rows = ev[ev[:, 0] == turn]
            first = [r[2] for r in rows if r[1] == EV.EV_FIRST]
            if not first or len(ev) >= S.MAX_EVENTS:
                continue
            seats = [int(r[2]) for r in rows if r[1] in MOVES + ACTIONS]
            blocks = [s for i, s in enumerate(seats) if i == 0 or seats[i - 1] != s]
            assert len(blocks) == len(set(blocks)), f"turn {turn}: players interleaved"
            order = [(first[0] + i) % 4 for i in range(4)]
            assert blocks == [s for s in order if s in blocks]
            for s in blocks:
                kinds = [r[1] for r in rows if r[2] == s and r[1] in MOVES + ACTIONS]
                acted = [k in ACTIONS for k in kinds]
                assert acted == sorted(acted), f"turn {turn}: seat {s} moved after acting"
            checked += 1
    assert checked > 20


# --- NYK-T4, T5 --------------------------------------------------------------------------------

def three_missions(t):
    m0, m1, m2 = mission_ids(crew=1, secret=0)[:3]
    t.row(0, m0, SOHO, CHELSEA)
    t.row(1, m1, TRIBECA, HARLEM)
    t.row(2, m2, GREENWICH, GARMENT)
    return m0, m1, m2


def test_nyk_t4_mission_3_leaves_a_new_one_on_space_1():
    t = Table()
    m0, m1, m2 = three_missions(t)
    bag = len(t.bag())
    t.end_of_turn()
    new = t.g[S.ROW0]
    assert list(t.g[S.ROW0:S.ROW0 + 3]) == [new, m0, m1] and new not in (m0, m1, m2, S.NO)
    assert t.ms[m2, S.M_STATE] == S.MS_OUT
    new_tiles = {t.ms[new, S.M_ACCEPT], t.ms[new, S.M_DEST]}
    assert {GREENWICH, GARMENT} <= set(t.bag()) | new_tiles  # back in the bag (maybe redrawn)
    drawn = 1 if t.ms[new, S.M_SECRET] else 2
    assert len(t.bag()) == bag + 2 - drawn
    t.check()


def test_nyk_t5_end_card_stops_the_missions_and_sets_one_last_turn():
    t = Table()
    m0, m1, m2 = three_missions(t)
    t.g[S.M_DECK_POS] = t.g[S.END_CARD_POS]
    t.g[S.TURN] = 5
    t.end_of_turn()
    assert t.g[S.END_REVEALED] == 1 and t.g[S.LAST_TURN] == 6
    assert list(t.g[S.ROW0:S.ROW0 + 3]) == [S.NO, m0, m1]
    t.end_of_turn()
    assert list(t.g[S.ROW0:S.ROW0 + 3]) == [S.NO, S.NO, m0]
    t.check()


@pytest.mark.parametrize("last_turns", [1, 2])
def test_nyk_t5_the_game_ends_after_the_last_turn(last_turns):
    for game_id in range(8):
        game, code = play(3, SIMPLE, {"missions.last_turns": last_turns}, game_id=game_id,
                          record=1)
        assert code == 0 and game.g[S.GAME_OVER] == 1
        ev = game.events[:game.g[S.N_EVENTS]]
        end = [r for r in ev if r[1] == EV.EV_END_CARD]
        if game.g[S.DECIDED_BY] == S.BY_LAST_STANDING or not end:
            continue
        assert game.g[S.TURNS_PLAYED] == end[0][0] + last_turns
        reveals = [r for r in ev if r[1] == EV.EV_REVEAL and r[0] > end[0][0]]
        assert not reveals  # no mission after the end card


# --- NYK-E1 ------------------------------------------------------------------------------------

def ranked(t, money, henchmen=()):
    for p, amount in enumerate(money):
        t.money(p, amount)
    for c, p in henchmen:
        t.hench(c, p, SOHO)
    t.ranking()
    return [int(t.pl[p, S.RANK]) for p in range(len(money))], int(t.g[S.WINNER])


def test_nyk_e1_largest_fortune_wins():
    t = Table(n_players=3)
    ranks, winner = ranked(t, [20000, 30000, 10000], [(LOOXY, 0), (CHARLIE, 0)])
    assert ranks == [2, 1, 3] and winner == 1 and t.g[S.DECIDED_BY] == S.BY_FORTUNE


def test_nyk_e1_tie_most_henchmen_then_their_values():
    t = Table(n_players=3)
    ranks, winner = ranked(t, [20000, 18000, 20000], [(LOOXY, 0), (CHARLIE, 2), (FURYO, 2)])
    assert ranks == [2, 3, 1] and winner == 2 and t.g[S.DECIDED_BY] == S.BY_HENCHMEN
    t = Table(n_players=2)
    # K, Q, 10 beats K, Q, 9
    ranks, winner = ranked(t, [20000, 20000], [(THE_LORD, 1), (LOOXY, 1), (EDDY, 1),
                                               (BIG_PAULIE, 0), (LUCKY_ROSE, 0), (CHARLIE, 0)])
    assert winner == 1 and ranks == [2, 1] and t.g[S.DECIDED_BY] == S.BY_VALUES


def test_nyk_e1_ruling_last_tiebreak_random_or_shared():
    winners = set()
    for seed in range(12):
        t = Table(seed=seed)
        ranks, winner = ranked(t, [20000, 20000])
        assert t.g[S.DECIDED_BY] == S.BY_RANDOM and sorted(ranks) == [1, 2]
        winners.add(winner)
    assert winners == {0, 1}
    t = Table(overrides={"tiebreak.last": "shared"})
    ranks, _ = ranked(t, [20000, 20000])
    assert ranks == [1, 1] and t.g[S.DECIDED_BY] == S.BY_SHARED


def test_nyk_e1_players_out_rank_last():
    t = Table(n_players=3)
    t.pl[1, S.ALIVE] = 0
    ranks, winner = ranked(t, [0, 0, 5000])
    assert ranks == [2, 3, 1] and winner == 2


def test_nyk_e1_last_player_standing():
    t = Table(n_players=2)
    t.pl[1, S.ALIVE] = 0
    ranks, winner = ranked(t, [0, 0])
    assert winner == 0 and t.g[S.DECIDED_BY] == S.BY_LAST_STANDING


# --- NYK-E2 ------------------------------------------------------------------------------------

def test_nyk_e2_a_player_buys_a_police_move_from_the_first_player():
    t = Table(kind=SIMPLE, overrides={"deals.enabled": True, "deals.police_move_price": 3000})
    t.hench(LOOXY, 1, SOHO)
    t.hold(mission_ids(crew=1, risk=1)[0], [LOOXY], CHELSEA)
    t.police(CHELSEA, BROADWAY)
    t.g[S.FIRST] = 0
    before = t.money(0), t.money(1)
    t.deals(0)  # simple: seat 1 pays to get the car off its at-risk destination; seat 0 takes it
    assert t.cars()[0] != CHELSEA and t.g[S.POLICE_STEPS0] == 1
    assert (t.money(0), t.money(1)) == (before[0] + 3000, before[1] - 3000)
    assert t.pl[0, S.C_DEALS] == 1 and t.pl[1, S.C_DEALS] == 1 and t.pl[0, S.C_POLICE_MOVES] == 1
    t.check()


def test_nyk_e2_deals_when_enabled_are_made_and_counted():
    deals = 0
    for game_id in range(10):
        game, code = play(4, RANDOM, {"deals.enabled": True}, game_id=game_id)
        assert code == 0
        deals += int(game.pl[:4, S.C_DEALS].sum())
    assert deals > 0 and deals % 2 == 0  # each deal counts for both sides


def test_nyk_e2_no_deals_by_default():
    for game_id in range(10):
        game, _ = play(4, SIMPLE, game_id=game_id)
        assert game.pl[:4, S.C_DEALS].sum() == 0
