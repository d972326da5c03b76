"""American Gangsters negotiation and shoot-outs, one scenario per rule: AG-N1 (alone, and the
first bargaining model, negotiation.model = "offer", against hand-worked splits), AG-N2, AG-N3,
AG-K4. The Nash and alternating models are in test_ag_nash.py."""

import pytest
from ag_scenario import BANG, BRONX, BROOKLYN, CLIC, QUEENS, Table, card_id

from sim.ag.readers import fill_shares
from sim.ag import state as S

OFFER = {"negotiation.model": "offer"}


def test_ag_n1_alone_on_a_won_card_takes_all_its_gains():
    t = Table(2, overrides=OFFER)
    c = card_id("bakery", "Queens")                    # 1 renown, drugs token, occasional
    t.show(c)
    t.put(1, 1, hench=2, killer=1)
    t.force(CLIC, CLIC, CLIC)
    t.resolve(1)
    assert t.pl[1, S.RENOWN] == 1 and t.pl[1, S.TOK0 + S.DRUGS] == 1 and t.pl[1, S.OCC_NEW] == 1
    assert t.game.lc[c, S.LC_STATE] == S.LS_WON and t.game.lc[c, S.LC_OWNER] == 1
    assert t.pl[1, S.WON0 + 1] == 1 and t.g[S.SUPPLY0 + S.DRUGS] == 9
    t.check()


def test_ag_n1_bags_of_a_card_come_from_the_bank():
    t = Table(2, overrides=OFFER)
    t.show(card_id("bank"))                            # 3 bags, 2 renown, FBI +1
    t.put(1, 0, hench=2, killer=1, occ=3)
    t.force(CLIC, CLIC, CLIC, CLIC, CLIC, CLIC)
    bank = S.bag_count(t.game, S.BANK_ROW)
    t.resolve(1)
    assert S.bag_count(t.game, 0) == 4 + 3 and S.bag_count(t.game, S.BANK_ROW) == bank - 3
    assert t.pl[0, S.RENOWN] == 2 and t.g[S.FBI] == 1


def test_ag_n1_threat_split_at_greed_zero_matches_a_hand_worked_split():
    """Bakery: renown (worth 3), token (1.5), card (1.5), occasional (1): 7 in all. Two henchmen
    and one killer both threaten 2/3 of a BANG: fair shares 3.5 each. Units go, most valuable
    first, to the family furthest below its target (the proposer on a tie): renown to seat 0
    (3.5 -> 0.5), token then card to seat 1 (3.5 -> 2 -> 0.5), the occasional to seat 0."""
    t = Table(2, overrides=OFFER)
    t.show(card_id("bakery"))
    t.put(1, 0, boss=1, hench=2)
    t.put(1, 1, killer=1)
    t.force(CLIC, CLIC, CLIC)
    t.script(0, 0)                                     # offer at greed level 0; seat 1 accepts
    t.resolve(1)
    assert [list(t.game.alloc[p]) for p in (0, 1)] == [[1, 0, 0, 0, 1], [0, 0, 1, 1, 0]]
    assert list(t.game.share[:2]) == [0.5, 0.5]
    assert t.pl[0, S.RENOWN] == 1 and t.pl[1, S.TOK0 + S.DRUGS] == 1 and t.pl[1, S.WON0] == 1
    assert t.pl[0, S.C_AGREEMENTS] == 1 == t.pl[1, S.C_AGREEMENTS]


def test_ag_n1_shares_follow_threat_or_equal_by_the_ruling():
    t = Table(3, overrides=OFFER)
    t.show(card_id("racket"))
    t.put(1, 0, hench=2)                               # 2/3 of a BANG
    t.put(1, 1, killer=1)                              # 2/3
    t.put(1, 2, boss=1)                                # 0
    fill_shares(t.game, t.env, 1, 0b111)
    assert list(t.game.share[:3]) == [0.5, 0.5, 0.0]
    t = Table(3, overrides={**OFFER, "negotiation.share": "equal"})
    t.show(card_id("racket"))
    fill_shares(t.game, t.env, 1, 0b111)
    assert list(t.game.share[:3]) == pytest.approx([1 / 3] * 3)


def test_ag_n1_full_greed_keeps_everything_and_a_refusal_means_a_shoot_out():
    t = Table(2, overrides=OFFER)
    t.show(card_id("casino"))                          # target 2
    t.put(1, 0, hench=1)
    t.put(1, 1, hench=1)
    t.force(CLIC, CLIC,                                # the location roll: success
            BANG, BANG)                                # the shoot-out: one BANG each
    t.script(4, 1)                                     # greed level 4; seat 1 refuses
    t.resolve(1)
    assert list(t.game.alloc[0]) == [1, 0, 1, 1, 0] and sum(t.game.alloc[1]) == 0
    assert t.pl[1, S.C_OFFERS_REFUSED] == 1 and t.g[S.SHOOTOUTS] == 1
    assert list(t.pl[:2, S.HENCHMEN]) == [1, 1] and list(t.pl[:2, S.C_HENCH_LOST]) == [1, 1]
    # AG-N3: nobody left on the card: its gains are lost
    assert t.pl[0, S.RENOWN] == 0 and t.game.lc[card_id("casino"), S.LC_STATE] == S.LS_SHOWN
    t.check()


def test_ag_n2_the_victim_chooses_which_member_is_hit():
    t = Table(2, overrides=OFFER)
    t.show(card_id("casino"))
    t.put(1, 0, hench=1, killer=1)
    t.put(1, 1, boss=1, hench=1, occ=1)
    t.force(CLIC, CLIC, CLIC, CLIC,                    # success
            BANG, BANG, CLIC, CLIC)                    # seat 0 fires two BANGs, seat 1 none
    # offer greed 0; seat 1 refuses; it takes each hit as it chooses among [occ, hench, boss]:
    # the boss (a wound), then the henchman; both families are still on the card: the second
    # bargain, offer at greed 0, seat 1 accepts
    t.script(0, 1, 2, 1, 0, 0)
    t.resolve(1)
    assert t.script_left() == 0 and t.forced_left() == 0
    assert t.pl[1, S.WOUNDS] == 1 and t.pl[1, S.HENCHMEN] == 1 and t.at[1, 1, S.OCC] == 1
    assert t.pl[0, S.C_BANGS] == 2 and t.pl[1, S.C_AGREEMENTS] == 1
    t.check()


def test_ag_n3_second_bargain_fails_and_the_card_is_discarded():
    t = Table(2, overrides=OFFER)
    c = card_id("casino")
    t.show(c)
    t.put(1, 0, hench=2)
    t.put(1, 1, hench=2)
    t.force(CLIC, CLIC, CLIC, CLIC, CLIC, CLIC, CLIC, CLIC)   # success; nobody hits in the shoot-out
    t.script(4, 1, 4, 1)
    t.resolve(1)
    assert t.pl[0, S.C_OFFERS_MADE] == 2 and t.pl[1, S.C_OFFERS_REFUSED] == 2
    assert t.pl[0, S.RENOWN] == 0 and t.game.lc[c, S.LC_STATE] == S.LS_SHOWN
    t.end_of_turn()
    assert t.game.lc[c, S.LC_STATE] == S.LS_DISCARD


def test_ag_n3_without_a_second_round_the_card_is_lost_at_once():
    t = Table(2, overrides={**OFFER, "negotiation.second_round": False})
    t.show(card_id("casino"))
    t.put(1, 0, hench=2)
    t.put(1, 1, hench=2)
    t.force(CLIC, CLIC, CLIC, CLIC, CLIC, CLIC, CLIC, CLIC)
    t.script(4, 1)
    t.resolve(1)
    assert t.pl[0, S.C_OFFERS_MADE] == 1 and t.script_left() == 0


def boss_killed_by_seat_0(overrides=None, bags=(7, 3)):
    """Seat 1's wounded boss, alone on a card, is shot by seat 0 in a shoot-out."""
    t = Table(2, overrides={**OFFER, **(overrides or {})})
    t.show(card_id("casino"))                          # Brooklyn: renown, gambling token, card
    t.put(1, 0, hench=2)
    t.put(1, 1, boss=1)
    t.pl[1, S.WOUNDS] = 1
    t.set_bags(0, 4)
    t.set_bags(1, *bags)
    t.win_card(card_id("grocery", "Queens"), 1)
    t.win_card(card_id("casino", "Bronx"), 1)
    t.token(1, S.DRUGS)
    t.pl[1, S.RENOWN] = 3
    t.force(CLIC, CLIC, BANG, CLIC)                    # success; seat 0 fires one BANG
    # offer; seat 1 refuses; its boss is its only member there (not asked); it gives a card of
    # [Queens, Bronx] -> Bronx, and its only token (not asked); seat 0, alone, takes all
    t.script(0, 1, 1)
    t.resolve(1)
    assert t.script_left() == 0 and t.forced_left() == 0
    return t


def test_ag_k4_boss_death_gives_half_the_bags_a_card_and_a_token_to_the_killer():
    t = boss_killed_by_seat_0()
    assert t.pl[1, S.C_BOSS_DEATHS] == 1 and t.pl[0, S.C_BOSSES_KILLED] == 1
    assert S.bag_count(t.game, 1) == 5 and S.bag_count(t.game, 0) == 4 + 5   # half of 10
    assert t.pl[1, S.WON0 + BRONX] == 0 and t.pl[0, S.WON0 + BRONX] == 1    # the Bronx card
    assert t.pl[1, S.WON0 + QUEENS] == 1
    assert t.pl[1, S.TOK0 + S.DRUGS] == 0 and t.pl[0, S.TOK0 + S.DRUGS] == 1
    assert t.pl[1, S.RENOWN] == 2 and t.pl[1, S.WOUNDS] == 0                 # -1 renown, wound gone
    assert t.at[1, 1, S.BOSS] == 0                                           # the boss pawn went home
    assert t.pl[0, S.RENOWN] == 1 and t.pl[0, S.WON0 + BROOKLYN] == 1        # seat 0 took the casino
    t.check()


def test_ag_k4_rulings_bank_and_rounding_up():
    t = boss_killed_by_seat_0({"boss_death.to": "bank", "boss_death.bags_rounding": "up"}, bags=(4, 5))
    assert S.bag_count(t.game, 1) == 4 and S.bag_count(t.game, 0) == 4       # 5 of 9 to the bank
    assert t.pl[0, S.WON0 + BRONX] == 0 and t.g[S.L_DISC_N] == 1             # the card to the discards
    assert t.g[S.SUPPLY0 + S.DRUGS] == 10
    t.check()
