"""American Gangsters titles, powers, events and the end, one scenario per rule: AG-T5, B1..B5,
V1..V3 (and the assumed event effects), G1, G2, E1."""

from ag_scenario import BRONX, BROOKLYN, FBI_FACE, H_CLIC_K_BANG, Table, card_id, play

from sim.ag.chapters import base
from sim.ag.chapters import end
from sim.ag.chapters import shootout
from sim.ag.chapters import titles
from sim.ag import state as S
from sim.ag.env import E_AUCTION, E_BANK_PAYS, E_DUELS, E_FBI, E_HEAL, E_OCCASIONAL, E_PRESS, E_ROULETTE, E_TAX
from strategies.ag.policy import PARAMETRIC


def test_ag_t5_strictly_more_takes_the_title_a_tie_leaves_it_with_the_holder():
    t = Table(3)
    t.majorities()
    assert t.g[S.CAID0 + BROOKLYN] == S.NO and t.g[S.BARON0 + S.ARMS] == S.NO   # 0-0-0: nobody
    t.win_card(card_id("grocery"), 0)
    t.token(0, S.ARMS)
    t.majorities()
    assert t.g[S.CAID0 + BROOKLYN] == 0 and t.g[S.BARON0 + S.ARMS] == 0
    t.win_card(card_id("bank"), 1)
    t.token(1, S.ARMS)
    t.majorities()
    assert t.g[S.CAID0 + BROOKLYN] == 0 and t.g[S.BARON0 + S.ARMS] == 0         # 1-1: the holder keeps
    t.win_card(card_id("racket"), 1)
    t.token(1, S.ARMS)
    t.majorities()
    assert t.g[S.CAID0 + BROOKLYN] == 1 and t.g[S.BARON0 + S.ARMS] == 1         # 1-2: seat 1 takes it
    assert t.g[S.CAID0 + BRONX] == S.NO


def test_ag_b5_g1_provisional_points_one_per_baron_two_per_caid():
    t = Table(2, overrides={"profiles.informer": "never"})
    t.pl[0, S.RENOWN] = 4
    t.g[S.BARON0 + S.DRUGS] = 0
    t.g[S.BARON0 + S.ARMS] = 0
    t.g[S.CAID0 + BRONX] = 0
    assert t.score(0) == 4 + 2 * 1 + 1 * 2
    assert end.winners_now(t.game, t.env) == (S.NO, 0)
    t.pl[0, S.RENOWN] = 5                              # 5 + 2 + 2 = 9: Parrain (AG-G1)
    assert end.winners_now(t.game, t.env) == (S.END_PARRAIN, 0b01)


def test_ag_g2_the_informer_wins_with_renown_and_fbi_at_six_and_wins_ties():
    t = Table(3, overrides={"profiles.informer": "always"})
    inf = int(t.g[S.INFORMER])
    mafia = (inf + 1) % 3
    t.pl[inf, S.RENOWN] = 6
    t.pl[mafia, S.RENOWN] = 9
    t.g[S.FBI] = 5
    assert end.winners_now(t.game, t.env) == (S.END_PARRAIN, 1 << mafia)
    t.g[S.FBI] = 6                                     # both conditions in the same turn
    assert end.winners_now(t.game, t.env) == (S.END_INFORMER, 1 << inf)
    t.pl[inf, S.RENOWN] = 9
    t.g[S.FBI] = 0                                     # an informer is no Parrain (ruling)
    assert end.winners_now(t.game, t.env) == (S.END_PARRAIN, 1 << mafia)
    t = Table(3, overrides={"profiles.informer": "always", "end.informer_as_parrain": True})
    t.pl[int(t.g[S.INFORMER]), S.RENOWN] = 9
    assert end.winners_now(t.game, t.env)[0] == S.END_PARRAIN


def informer_at_six_renown_fbi_at_five():
    t = Table(3, overrides={"profiles.informer": "always"})
    inf = int(t.g[S.INFORMER])
    t.pl[inf, S.RENOWN] = 6
    t.g[S.FBI] = 5
    return t, inf


def test_ag_g2_a_joker_takes_the_pawn_to_six_before_the_police_station_takes_it_back():
    """AG-G2 "dès qu'il remplit ces deux conditions": on the police station the informer's
    occasional die shows its FBI face (FBI 5 -> 6, the informer at 6 renown), then the card's
    success would move the pawn back (-1): the two cancel on one card, but the informer met both
    conditions between them and wins there."""
    station = card_id("police_station")
    t, inf = informer_at_six_renown_fbi_at_five()
    t.show(station)
    t.put(1, inf, hench=2, occ=1)
    t.force(0, 0, FBI_FACE)                            # two CLICs and the joker (a CLIC): target 3 met
    assert t.locations()
    assert t.g[S.FBI] == 6 and end.winners_now(t.game, t.env) == (S.END_INFORMER, 1 << inf)
    t.check()


def test_ag_g2_the_informer_reveals_itself_the_moment_both_conditions_are_met():
    """AG-G2 "il la révèlera dès qu'il remplit ces deux conditions": the gun shop (FBI +1) takes
    the pawn to 6 while the informer has 6 renown; the police station after it (FBI -1) would take
    it back to 5 by the end of the turn. The informer wins at the gun shop: the station is not
    played (nor the gun shop's gains shared). Played to the end of the turn, as before, the
    informer would not have won."""
    gun_shop, station = card_id("gun_shop"), card_id("police_station")
    t, inf = informer_at_six_renown_fbi_at_five()
    mafia = (inf + 1) % 3
    t.show(gun_shop, station)
    t.put(1, inf, hench=2, killer=1)
    t.put(2, mafia, hench=2, killer=1)
    t.force(*[0] * 6)                                  # every die a CLIC: both cards succeed
    assert t.locations()
    assert t.g[S.FBI] == 6 and end.winners_now(t.game, t.env) == (S.END_INFORMER, 1 << inf)
    assert t.pl[mafia, S.C_TRIED] == 0 and t.game.lc[station, S.LC_STATE] == S.LS_SHOWN
    assert t.game.lc[gun_shop, S.LC_STATE] == S.LS_SHOWN and t.pl[inf, S.RENOWN] == 6
    t.check()
    t, inf = informer_at_six_renown_fbi_at_five()      # the end-of-turn check alone
    t.show(gun_shop, station)
    t.put(1, inf, hench=2, killer=1)
    t.put(2, (inf + 1) % 3, hench=2, killer=1)
    t.force(*[0] * 6)
    t.g[S.INFORMER] = S.NO                             # hidden from the checks within the turn...
    t.resolve(1)
    t.resolve(2)
    t.g[S.INFORMER] = inf                              # ...and looked for at its end only
    assert t.g[S.FBI] == 5 and end.winners_now(t.game, t.env) == (S.NO, 0)


def test_ag_g2_a_renown_bought_at_the_start_of_the_turn_ends_the_game_there():
    """AG-G2: the informer at 5 renown with the FBI pawn at 6 buys a level (AG-T1): it reveals
    itself before the event and the placement are played."""
    t = Table(3, overrides={"profiles.informer": "always"})
    inf = int(t.g[S.INFORMER])
    t.pl[inf, S.RENOWN] = 5
    t.g[S.FBI] = 6
    for p in range(3):
        t.set_bags(p, 1 if p != inf else 3)            # only the informer can buy a level
        if p != inf:
            t.pl[p, S.RENOWN] = 1                      # the others may sell one: they are asked
    t.script(*([0] * inf + [1]))                        # the others pass; the informer buys
    assert t.turn() == (S.END_INFORMER, 1 << inf)
    assert t.pl[inf, S.RENOWN] == 6 and t.g[S.EVENTS_PLAYED] == 0 and t.g[S.SHOW_N] == 0


def test_ag_e1_rank_by_renown_then_hidden_bag_values_then_shared():
    t = Table(4)
    for p, renown in enumerate((5, 7, 7, 7)):
        t.pl[p, S.RENOWN] = renown
    for p, (ones, threes) in enumerate(((9, 0), (1, 1), (3, 0), (1, 1))):
        t.set_bags(p, ones, threes)
    end.final_ranking(t.game, t.env, S.END_ALL_WON, 0b1111)
    assert list(t.pl[:4, S.RANK]) == [4, 1, 3, 1]      # renown 7 and bags worth 4: a shared win
    assert t.g[S.DECIDED_BY] == S.BY_SHARED
    t.set_bags(3, 1, 0)                                # now seat 1 alone is richest among the 7s
    end.final_ranking(t.game, t.env, S.END_ALL_WON, 0b1111)
    assert list(t.pl[:4, S.RANK]) == [4, 1, 2, 3] and t.g[S.DECIDED_BY] == S.BY_MONEY


def test_ag_e1_the_game_ends_when_every_card_is_won():
    t = Table(2)
    assert not end.all_won(t.game)
    for c in range(40):
        t.win_card(c, c % 2)
    assert end.all_won(t.game)
    t.check()


def test_ag_e1_the_turn_cap_ends_a_game_and_is_reported():
    game, code = play(4, PARAMETRIC, {"end.turn_cap": 1}, seed=3)
    assert code == 0 and game.g[S.CAP_HIT] == 1 and game.g[S.TURNS_PLAYED] == 1
    assert game.g[S.ENDED_BY] == S.END_CAP and min(game.pl[:4, S.RANK]) == 1


def test_ag_b1_drugs_baron_alone_at_the_hospital_takes_an_occasional():
    t = Table(2)
    t.g[S.BARON0 + S.DRUGS] = 0
    t.put(0, 0, boss=1)
    t.script(0)                                        # yes
    titles.drugs_baron(t.game, t.env, t.opts, t.ctx)
    assert t.pl[0, S.OCC_NEW] == 1 and t.g[S.OCC_SUPPLY] == 4
    t.put(0, 0, hench=1)                               # accompanied: no
    t.script(0)
    titles.drugs_baron(t.game, t.env, t.opts, t.ctx)
    assert t.pl[0, S.OCC_NEW] == 1 and t.script_left() == 1


def test_ag_b2_gambling_baron_takes_a_bag_from_a_family_of_its_choice():
    t = Table(3)
    t.g[S.BARON0 + S.GAMBLING] = 1
    t.set_bags(2, 0)
    t.script(1)                                        # [pass, seat 0] (seat 2 has no bag)
    titles.gambling_baron(t.game, t.env, t.opts, t.ctx)
    assert S.bag_count(t.game, 1) == 5 and S.bag_count(t.game, 0) == 3
    assert t.options(2) == [(0, 0, 0, 0, 0), (4, 0, 0, 0, 0)]


def test_ag_b2_the_gambling_baron_robs_seat_0_too():
    """AG-B2 (issue 51's "AG-D2"): the pass row's unused argument 0 is no seat 0. At 2 players a
    parametric Baron in seat 1 takes its bag from seat 0, the only family it can rob."""
    t = Table(2, kind=PARAMETRIC)
    t.g[S.BARON0 + S.GAMBLING] = 1
    before = S.bag_count(t.game, 0)
    titles.gambling_baron(t.game, t.env, t.opts, t.ctx)
    assert S.bag_count(t.game, 0) == before - 1 and t.pl[1, S.C_BAGS_STOLEN] == 1


def test_ag_b2_the_gambling_baron_draws_among_equally_rich_families():
    """AG-B2: families with as many bags are robbed alike, not the lower seat first."""
    robbed = set()
    for seed in range(1, 40):
        t = Table(3, kind=PARAMETRIC, seed=seed)
        t.g[S.BARON0 + S.GAMBLING] = 2
        t.set_bags(0, 4)
        t.set_bags(1, 4)
        titles.gambling_baron(t.game, t.env, t.opts, t.ctx)
        robbed.add(0 if S.bag_count(t.game, 0) == 3 else 1)
    assert robbed == {0, 1}


def shootout_with_arms(baron, answers, overrides=None):
    """Seats 0 and 1 in a shoot-out on a casino; both have one henchman there rolling a 2 (a
    CLIC for a henchman, a BANG for a killer)."""
    t = Table(3, overrides=overrides)
    t.g[S.BARON0 + S.ARMS] = baron
    t.show(card_id("casino"))
    t.put(1, 0, hench=1)
    t.put(1, 1, hench=1)
    t.force(H_CLIC_K_BANG, H_CLIC_K_BANG)
    t.script(*answers)
    shootout.shootout(t.game, t.env, 1, 0b011, t.opts, t.ctx)
    return t


def test_ag_b3_arms_baron_rolls_a_henchman_as_a_killer_once_a_turn():
    t = shootout_with_arms(0, (0,))                    # seat 0 uses it: its 2 is a BANG
    assert t.pl[0, S.C_BANGS] == 1 and t.pl[1, S.C_BANGS] == 0 and t.g[S.ARMS_USED] == 1
    assert t.pl[1, S.HENCHMEN] == 1
    t = shootout_with_arms(0, (1,))                    # declined: two CLICs, no BANG
    assert t.pl[0, S.C_BANGS] == 0 and t.g[S.ARMS_USED] == 0


def test_ag_b3_arms_baron_sells_the_power_to_a_family_in_the_shoot_out():
    t = shootout_with_arms(2, (0, 1))                  # seat 0 declines ([no, yes]); seat 1 buys
    assert t.pl[1, S.C_BANGS] == 1 and t.pl[2, S.C_POWERS_SOLD] == 1
    assert S.bag_count(t.game, 2) == 5 and S.bag_count(t.game, 1) == 3


def test_ag_b4_prostitution_baron_moves_a_henchman_or_sells_the_move():
    t = Table(2)
    t.g[S.BARON0 + S.PROSTITUTION] = 0
    t.show(card_id("casino"), card_id("bank"))
    t.put(1, 1, hench=2, killer=1)
    t.put(2, 0, hench=1)
    # moves listed: from slot 1 seat 1 hench -> 0, 2; from slot 2 seat 0 hench -> 0, 1
    t.script(2)
    titles.prostitution_baron(t.game, t.env, t.opts, t.ctx)
    assert t.at[1, 1, S.HENCH] == 1 and t.at[2, 1, S.HENCH] == 1 and t.at[1, 1, S.KILLER] == 1
    t.script(0, 1, 1)                                  # the Baron passes; seat 1 buys and moves
    titles.prostitution_baron(t.game, t.env, t.opts, t.ctx)
    assert t.pl[0, S.C_POWERS_SOLD] == 1 and t.at[0, 1, S.HENCH] == 1


def test_ag_v1_auction_all_bids_lost_highest_wins_ties_from_the_godfather():
    t = Table(3)
    t.g[S.GODFATHER] = 1
    base.fill_order(t.game)
    t.script(2, 3, 2)                                  # seat 1 bids 2, seat 2 bids 3, seat 0 bids 2
    t.event(E_AUCTION, 1)
    assert [S.bag_count(t.game, p) for p in range(3)] == [2, 2, 1]
    assert list(t.pl[:3, S.RENOWN]) == [0, 0, 1]
    t.script(2, 1, 2)                                  # tie at 2: seat 1 bids first after the godfather
    t.event(E_AUCTION, 1)
    assert list(t.pl[:3, S.RENOWN]) == [0, 1, 1]
    t.check()


def test_ag_v2_roulette_first_round_fold_costs_renown_last_boss_wins_the_pot():
    t = Table(3)
    t.pl[1, S.RENOWN] = 2
    t.force(0, 1)                                      # seat 0's bullet: clic; seat 2's: BANG
    t.script(1, 0, 1)                                  # seat 0 pulls, seat 1 folds, seat 2 pulls
    t.event(E_ROULETTE)
    assert t.pl[1, S.RENOWN] == 1 and t.pl[2, S.WOUNDS] == 1
    assert t.pl[0, S.RENOWN] == 1 and S.bag_count(t.game, 0) == 4 - 1 + 2   # the pot and renown
    assert t.pl[0, S.C_ROULETTE_WINS] == 1
    t.check()


def test_ag_v2_a_second_roulette_wound_kills_and_pays_the_bank():
    t = Table(2)
    t.pl[1, S.WOUNDS] = 1
    t.set_bags(1, 4)
    t.force(0, 1)
    t.script(1, 1)
    t.event(E_ROULETTE)
    assert t.pl[1, S.C_BOSS_DEATHS] == 1 and S.bag_count(t.game, 1) == 2          # 4 - 1, half of 3 lost
    assert S.bag_count(t.game, 0) == 4 - 1 + 2                            # the pot: two stakes
    t.check()


def test_ag_v3_duels_a_surviving_boss_shoots_back_a_dead_one_does_not():
    t = Table(3)
    t.pl[2, S.WOUNDS] = 1
    # seat 0 -> seat 1: BANG, seat 1 survives and shoots back: clic; seat 1 -> seat 2: BANG, seat
    # 2 dies; seat 2 -> seat 0: clic, seat 0 shoots back: clic
    t.force(1, 0, 1, 0, 0)
    t.script(0, 1, 0)                                  # [1, 2] -> 1; [0, 2] -> 2; [0, 1] -> 0
    t.event(E_DUELS)
    assert list(t.pl[:3, S.WOUNDS]) == [0, 1, 0] and t.pl[2, S.C_BOSS_DEATHS] == 1
    assert t.forced_left() == 0 and list(t.pl[:3, S.C_DUEL_SHOTS]) == [2, 2, 1]
    t.check()


def test_assumed_event_effects():
    t = Table(3)
    t.event(E_FBI, 2)
    assert t.g[S.FBI] == 2
    t.event(E_FBI, -5)
    assert t.g[S.FBI] == 0                             # the track starts at 0
    t.event(E_BANK_PAYS, 1)
    assert [S.bag_count(t.game, p) for p in range(3)] == [5, 5, 5]
    t.set_bags(2, 0)
    t.event(E_TAX, 2)
    assert [S.bag_count(t.game, p) for p in range(3)] == [3, 3, 0]
    t.pl[0:3, S.WOUNDS] = 1
    t.event(E_HEAL)
    assert list(t.pl[:3, S.WOUNDS]) == [0, 0, 0]
    t.pl[1, S.RENOWN] = 3
    t.pl[2, S.RENOWN] = 3
    t.event(E_PRESS, 1)
    assert list(t.pl[:3, S.RENOWN]) == [0, 2, 2]
    t.event(E_OCCASIONAL, 2)
    assert t.pl[0, S.OCC_NEW] == 2                     # the godfather's
    t.check()
