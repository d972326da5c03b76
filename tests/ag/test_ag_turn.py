"""American Gangsters setup and turn, one scenario per rule: AG-C2, C6, C7, C9, K1, T1, T2, T3,
T4, C10, C11, T6, K3, H1, K2."""

import math

import numpy as np
import pytest
from ag_scenario import BANG, CLIC, FBI_FACE, H_CLIC_K_BANG, RULES, Table, card_id

from sim.ag.chapters import base
from sim.ag.chapters import placement
from sim.ag.decisions import OP_SLOT
from sim.ag import state as S


def test_ag_c2_four_random_bags_each_the_rest_in_the_bank():
    values = []
    for game_id in range(400):
        t = Table(4, game_id=game_id)
        for p in range(4):
            assert S.bag_count(t.game, p) == 4
            values.append(S.bag_value(t.game, p))
        assert S.bag_count(t.game, S.BANK_ROW) == 35 - 16
        t.check()
    # hidden values: a bag is worth 3 with probability 5/35; four bags: 4 * 45/35 on average
    mean, sd = 4 * 45 / 35, math.sqrt(4 * (9 * 5 / 35 + 30 / 35 - (45 / 35) ** 2) * 31 / 34)
    assert abs(np.mean(values) - mean) < 4 * sd / math.sqrt(len(values))


@pytest.mark.parametrize("n_players", [2, 4, 5])
def test_ag_c6_the_informer_is_dealt_with_probability_players_over_five(n_players):
    games = 600
    dealt = sum(Table(n_players, game_id=i).g[S.INFORMER] >= 0 for i in range(games))
    p = n_players / 5
    assert abs(dealt / games - p) <= 4 * math.sqrt(p * (1 - p) / games) + 1e-9
    t = Table(n_players, game_id=1)
    assert sum(t.pl[:n_players, S.IS_INFORMER]) == (t.g[S.INFORMER] >= 0)


def test_ag_c6_informer_always_or_never_for_studies():
    assert all(Table(3, overrides={"profiles.informer": "always"}, game_id=i).g[S.INFORMER] >= 0
               for i in range(30))
    assert all(Table(5, overrides={"profiles.informer": "never"}, game_id=i).g[S.INFORMER] == S.NO
               for i in range(30))


def test_ag_c7_c9_k1_decks_crews_and_tracks_at_setup():
    t = Table(4)
    assert t.g[S.L_DECK_N] == 40 and sorted(t.g[S.L_DECK0:S.L_DECK0 + 40]) == list(range(40))
    assert t.g[S.E_DECK_N] == 10 and Table(4, overrides={"events.optional": False}).g[S.E_DECK_N] == 8
    assert list(t.pl[:4, S.HENCHMEN]) == [2] * 4 and list(t.pl[:4, S.KILLERS]) == [1] * 4   # AG-K1
    assert t.g[S.FBI] == 0 and t.g[S.OCC_SUPPLY] == 5 and list(t.g[S.SUPPLY0:S.SUPPLY0 + 4]) == [10] * 4
    assert list(t.g[S.ORDER0:S.ORDER0 + 4]) == [0, 1, 2, 3]


def test_ag_t1_renown_trades_once_a_turn_each():
    t = Table(3)
    t.set_bags(0, 4)
    t.set_bags(1, 1)
    t.pl[1, S.RENOWN] = 2
    t.pl[2, S.RENOWN] = 1
    t.pl[2, S.HENCHMEN] = 1
    t.set_bags(2, 0)
    # seat 0: pass, buy (4 bags), sell bags (renown 0: no) -> buy; seat 1: pass, sell bags, sell
    # for a henchman (has both) -> no henchman missing, so [pass, sell bags]; seat 2: [pass, sell
    # bags, henchman]
    t.script(1, 1, 2)
    t.trades()
    assert t.pl[0, S.RENOWN] == 1 and S.bag_count(t.game, 0) == 1                  # +1 for 3 bags
    assert t.pl[1, S.RENOWN] == 1 and S.bag_count(t.game, 1) == 3                  # -1 for 2 bags
    assert t.pl[2, S.RENOWN] == 0 and t.pl[2, S.HENCHMEN] == 2                     # -1 for a henchman
    assert t.script_left() == 0 and list(t.pl[:3, S.TRADED]) == [1, 1, 1]
    t.check()


def test_ag_t2_as_many_cards_as_players_and_reshuffled_discards():
    t = Table(4, overrides={"locations.extra": 1})
    placement.reveal_locations(t.game, t.env)
    assert t.g[S.SHOW_N] == 5 and t.g[S.L_DECK_N] == 35
    t.end_of_turn()                                  # AG-T6: nobody won them: discarded
    assert t.g[S.L_DISC_N] == 5 and t.g[S.SHOW_N] == 0
    t.g[S.L_DECK_N] = 2                              # the pile runs out: the discards come back
    for c in t.g[S.L_DECK0 + 2:S.L_DECK0 + 35]:
        t.game.lc[c, S.LC_STATE] = S.LS_DISCARD
        t.g[S.L_DISC0 + t.g[S.L_DISC_N]] = c
        t.g[S.L_DISC_N] += 1
    placement.reveal_locations(t.game, t.env)
    assert t.g[S.SHOW_N] == 5 and t.g[S.L_DECK_N] + t.g[S.L_DISC_N] == 35
    t.check()


def test_ag_t3_placement_boss_home_costs_renown_and_occasionals_must_be_placed():
    t = Table(2)
    t.show(card_id("grocery"), card_id("bank"))
    t.pl[0, S.RENOWN] = 2
    t.pl[0, S.OCC_READY] = 1
    t.g[S.OCC_SUPPLY] -= 1
    home = 3   # options: hospital, card 1, card 2, home
    # seat 0: killer -> card 1, henchmen -> card 2 and home, occasional (no home option) -> card 2,
    # boss -> home; seat 1: killer, henchmen and boss home
    t.script(1, 2, home, 2, home, home, home, home, home)
    t.placement()
    assert t.options(4) == [(OP_SLOT, s, 0, 0, 0) for s in (0, 1, 2)] + [(OP_SLOT, S.NO, 0, 0, 0)]
    assert t.at[1, 0, S.KILLER] == 1 and t.at[2, 0, S.HENCH] == 1 and t.at[2, 0, S.OCC] == 1
    assert t.pl[0, S.RENOWN] == 1 and t.pl[1, S.RENOWN] == 0          # both bosses stayed home
    assert list(t.pl[:2, S.C_UNPLACED]) == [1, 1] and t.pl[0, S.OCC_READY] == 0
    assert t.script_left() == 0
    t.check()


def test_ag_t4_c10_the_boss_rerolls_only_the_failed_dice_of_everyone():
    t = Table(2)
    t.show(card_id("bakery"))                          # target 3
    t.put(1, 0, boss=1, hench=2)
    t.put(1, 1, killer=1)
    # first roll: henchman CLIC, henchman BANG, killer BANG -> 1; the re-roll: the two failed dice
    t.force(CLIC, BANG, BANG, CLIC, CLIC)
    t.script(0, 0, 0)                                  # reroll yes; offer at greed 0; accept
    t.resolve(1)
    assert t.forced_left() == 0 and t.pl[0, S.C_REROLLS] == 1
    assert t.pl[0, S.C_SUCCEEDED] == 1 and t.pl[1, S.C_SUCCEEDED] == 1


def test_ag_c10_faces_a_two_is_a_clic_for_a_henchman_and_a_bang_for_a_killer():
    t = Table(2, overrides={"boss.reroll": False})
    t.show(card_id("post_office"), card_id("casino"))  # targets 2 and 2
    t.put(1, 0, hench=2)
    t.put(2, 1, killer=2)
    t.force(H_CLIC_K_BANG, H_CLIC_K_BANG, H_CLIC_K_BANG, H_CLIC_K_BANG)
    t.resolve(1)
    t.resolve(2)
    assert t.pl[0, S.C_SUCCEEDED] == 1 and t.pl[1, S.C_FAILED] == 1


def test_ag_c11_an_fbi_face_is_a_clic_and_moves_the_fbi_pawn():
    t = Table(2)
    t.show(card_id("grocery"))                         # target 1, no FBI symbol
    t.put(1, 1, occ=1)
    t.force(FBI_FACE)
    t.resolve(1)
    assert t.g[S.FBI] == 1 and t.pl[1, S.C_FBI_RAISED] == 1 and t.pl[1, S.C_SUCCEEDED] == 1


def test_ag_c7_fbi_symbol_on_success_police_station_lowers_it_nothing_on_a_miss():
    t = Table(2)
    t.g[S.FBI] = 3
    t.show(card_id("post_office"), card_id("police_station"), card_id("bank"))
    t.put(1, 0, hench=2)
    t.put(2, 1, hench=2, killer=1)
    t.put(3, 0, killer=1)
    t.force(CLIC, CLIC, CLIC, CLIC, CLIC, BANG)
    t.resolve(1)
    assert t.g[S.FBI] == 4                             # post office: FBI symbol
    t.resolve(2)
    assert t.g[S.FBI] == 3                             # police station: FBI -1
    t.resolve(3)
    assert t.g[S.FBI] == 3                             # missed bank: nothing
    t.check()


def test_ag_t6_k3_occasionals_serve_the_next_turn_then_go_back():
    t = Table(2)
    base.gain_occasional(t.game, 0, 1)                    # gained this turn
    assert t.pl[0, S.OCC_NEW] == 1 and t.g[S.OCC_SUPPLY] == 4
    t.end_of_turn()
    assert t.pl[0, S.OCC_READY] == 1 and t.g[S.GODFATHER] == 1   # ready; the godfather passes left
    base.fill_order(t.game)
    t.show(card_id("grocery"))
    t.script(1, 1, 1, 1, 0, 0, 0, 1, 0)                # seat 1 places first; seat 0's occasional to card 1
    t.placement()
    assert t.at[1, 0, S.OCC] == 1 and t.pl[0, S.OCC_READY] == 0
    t.end_of_turn()
    assert t.g[S.OCC_SUPPLY] == 5 and t.pl[0, S.OCC_READY] == 0    # discarded after use
    t.check()


def test_ag_h1_k2_hospital_heals_or_recruits_at_the_track_price():
    t = Table(3)
    tracks = RULES.content["tracks"]
    t.put(0, 0, boss=1)
    t.put(0, 1, boss=1)
    t.put(0, 2, boss=1, hench=1)
    t.pl[0, S.WOUNDS] = 1
    t.pl[1, S.HENCHMEN] = 0
    t.pl[1, S.KILLERS] = 0
    t.set_bags(1, 10)
    t.g[S.H_COST_POS] = tracks.henchman.fbi_steps[0] - 1   # the next henchman lands on an FBI step
    price = tracks.henchman.prices[t.g[S.H_COST_POS]]
    # seat 0: [pass, heal] -> heal; seat 1: [pass, recruit henchman, recruit killer] -> henchman;
    # seat 2: nothing to heal or recruit: not asked
    t.script(1, 1)
    t.hospital()
    assert t.pl[0, S.WOUNDS] == 0 and t.pl[0, S.C_HEALS] == 1
    assert t.pl[1, S.HENCHMEN] == 1 and S.bag_count(t.game, 1) == 10 - price
    assert t.g[S.H_COST_POS] == tracks.henchman.fbi_steps[0] and t.g[S.FBI] == 1
    assert t.script_left() == 0
    t.check()


def test_ag_k1_recruits_only_replace_losses():
    t = Table(2)
    t.put(0, 0, boss=1)
    t.set_bags(0, 20)
    t.script(1)
    t.hospital()     # full crew: the only option is to pass, so nothing is asked
    assert t.script_left() == 1 and t.pl[0, S.HENCHMEN] == 2 and t.pl[0, S.C_RECRUITS] == 0
