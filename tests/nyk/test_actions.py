"""NYK-A0..A8: accept, accomplish, at-risk missions, provocations, death of an affranchi,
recruitment, the henchman limit and recruit cards."""

import pytest
from scenario import (
    BRONX, BROOKLYN, CHELSEA, GARMENT, GREENWICH, HARLEM, QUEENS, SOHO, TRIBECA, UNION_CITY,
    Table, card_ids, mission_ids,
)

from sim.nyk.chapters import recruitment
from sim.nyk import state as S
from sim.nyk.decisions import ANY_OFFER, OP_ACCEPT, OP_ACCOMPLISH, OP_PART, OP_PROVOKE, OP_RECRUIT
from sim.nyk.compiled import E_RECRUIT

LITTLE_SAL, FURYO, LOOXY, THE_LORD = 5, 7, 8, 9   # 9, J, Q, K of spades
CHARLIE, LUCKY_ROSE, BIG_PAULIE = 10, 13, 14       # 9, Q, K of hearts
NICKY, HARD_JACK, EL_NINO = 15, 19, 20             # 9 and K of diamonds, 9 of clubs
NO_FOLD = (2, 0)


def ops(t, p, op):
    return [row[1:] for row in t.options(p) if row[0] == op]


# --- NYK-A0 ------------------------------------------------------------------------------------

def test_nyk_a0_a_character_that_acted_cannot_accomplish_too():
    t = Table()
    t.hench(LOOXY, 0, SOHO)
    m = t.hold(mission_ids(crew=1, risk=0)[0], [LOOXY], SOHO)
    t.begin(0)
    assert ops(t, 0, OP_ACCOMPLISH) == [(m, 1 << LOOXY, 0, 0)]
    t.ch[LOOXY, S.ACTED] = 1  # e.g. it provoked
    assert ops(t, 0, OP_ACCOMPLISH) == []


def test_nyk_a0_one_action_each_and_the_affranchi_recruits_besides():
    t = Table()
    t.at(0, BROOKLYN)
    t.at(1, BROOKLYN)
    t.begin(0)
    assert ops(t, 0, OP_PROVOKE) == [(BROOKLYN, 1, 0, 0)]
    t.ch[0, S.ACTED] = 1
    assert ops(t, 0, OP_PROVOKE) == []
    assert ops(t, 0, OP_RECRUIT)  # the extra action is still there


# --- NYK-A1 ------------------------------------------------------------------------------------

def test_nyk_a1_accept_takes_the_card_and_refills_the_row_at_once():
    t = Table()
    m0, m1, m2 = mission_ids(crew=1, risk=0, secret=0)[:3]
    t.row(0, m0, TRIBECA, HARLEM)
    t.row(1, m1, SOHO, CHELSEA)
    t.row(2, m2, GREENWICH, GARMENT)
    t.hench(LOOXY, 0, SOHO)
    t.begin(0)
    assert ops(t, 0, OP_ACCEPT) == [(1, 1 << LOOXY, 0, 0)]
    t.accept(0, 1, 1 << LOOXY)
    assert t.ms[m1, S.M_STATE] == S.MS_HELD and t.ms[m1, S.M_HOLDER] == 0
    assert t.ch[LOOXY, S.MISSION] == m1 and t.ch[LOOXY, S.ACTED] == 1
    new = t.g[S.ROW0]
    assert new not in (m0, m1, m2, S.NO) and t.ms[new, S.M_STATE] == S.MS_ROW
    assert list(t.g[S.ROW0:S.ROW0 + 3]) == [new, m0, m2]
    assert t.ms[m0, S.M_SLOT] == 1 and t.pl[0, S.C_ACCEPTED_1] == 1
    assert ops(t, 0, OP_ACCEPT) == []  # one mission at a time
    t.check()


def test_nyk_a1_secret_destination_drawn_when_accepted():
    t = Table()
    m = mission_ids(crew=1, secret=1)[0]
    t.row(0, m, SOHO)
    t.hench(LOOXY, 0, SOHO)
    t.begin(0)
    assert t.ms[m, S.M_DEST] == S.NO
    t.accept(0, 0, 1 << LOOXY)
    dest = t.ms[m, S.M_DEST]
    assert dest != S.NO and dest != SOHO and dest not in t.bag()
    t.check()


def test_nyk_a1_crew_of_two_needs_two_characters():
    t = Table()
    m = mission_ids(crew=2, risk=0, secret=0)[0]
    t.row(0, m, SOHO, CHELSEA)
    t.hench(LOOXY, 0, SOHO)
    t.begin(0)
    assert ops(t, 0, OP_ACCEPT) == []
    t.hench(CHARLIE, 0, SOHO)
    t.begin(0)
    assert ops(t, 0, OP_ACCEPT) == [(0, t.group(LOOXY, CHARLIE), 0, 0)]


@pytest.mark.parametrize("ruling, acted", [("each", (1, 1)), ("one", (1, 0))])
def test_nyk_a1_ruling_crew_actions(ruling, acted):
    t = Table(overrides={"missions.crew_actions": ruling})
    m = mission_ids(crew=2, risk=0, secret=0)[0]
    t.row(0, m, SOHO, CHELSEA)
    t.hench(LOOXY, 0, SOHO)
    t.hench(CHARLIE, 0, SOHO)
    t.begin(0)
    t.accept(0, 0, t.group(LOOXY, CHARLIE))
    assert (t.ch[LOOXY, S.ACTED], t.ch[CHARLIE, S.ACTED]) == acted
    assert t.ch[LOOXY, S.MISSION] == m and t.ch[CHARLIE, S.MISSION] == m


# --- NYK-A2 ------------------------------------------------------------------------------------

def test_nyk_a2_accomplish_pays_the_reward_and_returns_the_tiles():
    t = Table()
    t.hench(LOOXY, 0, CHELSEA)
    m = t.hold(mission_ids(crew=1, risk=0)[0], [LOOXY], CHELSEA, accept=SOHO)
    reward = t.ms[m, S.M_REWARD]
    bank, tiles = t.g[S.BANK], len(t.bag())
    t.begin(0)
    t.accomplish(0, m, 1 << LOOXY)
    assert t.money(0) == 16000 + reward and t.g[S.BANK] == bank - reward
    assert t.ms[m, S.M_STATE] == S.MS_DONE and t.ch[LOOXY, S.MISSION] == S.NO
    assert len(t.bag()) == tiles + 2 and {SOHO, CHELSEA} <= set(t.bag())
    assert t.pl[0, S.C_MISSION_INCOME] == reward and t.pl[0, S.C_DONE_1] == 1
    t.check()


def test_nyk_a2_a_lost_associate_must_be_replaced():
    t = Table()
    t.hench(LOOXY, 0, CHELSEA)
    m = t.hold(mission_ids(crew=2, risk=0)[0], [LOOXY], CHELSEA)  # its associate was killed
    t.begin(0)
    assert ops(t, 0, OP_ACCOMPLISH) == []
    t.hench(CHARLIE, 0, CHELSEA)
    t.begin(0)
    assert ops(t, 0, OP_ACCOMPLISH) == [(m, t.group(LOOXY, CHARLIE), 0, 0)]
    t.accomplish(0, m, t.group(LOOXY, CHARLIE))
    assert t.money(0) == 16000 + t.ms[m, S.M_REWARD] and t.pl[0, S.C_DONE_2] == 1


def test_nyk_a2_the_whole_crew_must_be_there():
    t = Table()
    t.hench(LOOXY, 0, CHELSEA)
    t.hench(CHARLIE, 0, SOHO)
    t.hold(mission_ids(crew=2, risk=0)[0], [LOOXY, CHARLIE], CHELSEA)
    t.begin(0)
    assert ops(t, 0, OP_ACCOMPLISH) == []


# --- NYK-A3 ------------------------------------------------------------------------------------

def test_nyk_a3_at_risk_mission_neither_accepted_nor_accomplished_under_police():
    t = Table()
    risky = mission_ids(crew=1, risk=1, secret=0)
    t.row(0, risky[0], SOHO, HARLEM)
    t.hench(LOOXY, 0, SOHO)
    t.hench(CHARLIE, 0, CHELSEA)
    held = t.hold(risky[1], [CHARLIE], CHELSEA)
    t.begin(0)
    assert ops(t, 0, OP_ACCEPT) and ops(t, 0, OP_ACCOMPLISH) == [(held, 1 << CHARLIE, 0, 0)]
    t.police(SOHO, CHELSEA)
    assert ops(t, 0, OP_ACCEPT) == [] and ops(t, 0, OP_ACCOMPLISH) == []


# --- NYK-A4 provocation ------------------------------------------------------------------------

def duel(overrides=None, mine=(), theirs=()):
    """Seat 0 (affranchi + `mine`) and seat 1 (affranchi + `theirs`) on SOHO."""
    t = Table(overrides=overrides)
    t.at(0, SOHO)
    t.at(1, SOHO)
    for c in mine:
        t.hench(c, 0, SOHO)
    for c in theirs:
        t.hench(c, 1, SOHO)
    t.begin(0)
    return t


def test_nyk_a4_weaker_folds_pays_more_and_the_other_takes_the_pot():
    t = duel()
    t.force("A", "A", "K", "9", "10", "Q")  # three aces against ace high
    t.steer((2, 1))                         # the weaker (provoked) is asked first: folds
    t.provoke(0, SOHO, 1, 0)
    assert t.pl[1, S.C_FOLDS] == 1 and t.pl[0, S.C_POTS_WON] == 1
    assert t.money(0) == 16000 + 4000 and t.money(1) == 16000 - 4000
    assert t.g[S.POT] == 0 and t.dice_left() == 0
    assert t.ch[1, S.WHERE] == S.W_CONTROLLED  # nobody dies on a fold
    t.check()


def test_nyk_a4_on_equal_strength_the_provoked_decides_first():
    t = duel()
    t.force("9", "10", "Q", "9", "10", "Q")
    t.steer((2, 1))  # the first one asked folds
    t.provoke(0, SOHO, 1, 0)
    assert t.pl[1, S.C_FOLDS] == 1 and t.pl[0, S.C_FOLDS] == 0


def test_nyk_a4_fold_at_the_artillery_after_the_raise():
    t = duel()
    t.force("9", "10", "Q", "9", "10", "Q", "A", "9")  # 4th die: ace pair vs nine pair
    t.steer(NO_FOLD, (2, 1), seat=1)  # the provoked stays in, then folds as the weaker
    t.steer(NO_FOLD, seat=0)
    t.provoke(0, SOHO, 1, 0)
    assert t.pl[1, S.C_FOLDS] == 1
    # seat 1 put 2,000 + 1,000 + 2,000 (penalty); seat 0 takes it back with its own 3,000
    assert t.money(0) == 16000 + 5000 and t.money(1) == 16000 - 5000


def test_nyk_a4_fusillade_all_present_count_winner_takes_pot_victim_chooses_loss():
    t = duel(mine=[LOOXY], theirs=[CHARLIE])
    # equal dice; seat 0's queen makes a straight 10-A, seat 1 has three nines
    t.force("9", "10", "J", "9", "10", "J", "K", "K", "9", "9")
    t.steer(NO_FOLD, NO_FOLD, (2, 1), seat=1)  # the loser gives up Charlie
    t.steer(NO_FOLD, NO_FOLD, seat=0)
    t.provoke(0, SOHO, 1, 0)
    assert t.pl[0, S.C_FIGHTS_WON] == 1 and t.pl[1, S.C_FIGHTS_LOST] == 1
    assert t.money(0) == 16000 + 4000 and t.money(1) == 16000 - 4000
    assert t.ch[CHARLIE, S.WHERE] == S.W_DEAD and t.ch[1, S.WHERE] == S.W_CONTROLLED
    assert t.ch[LOOXY, S.WHERE] == S.W_CONTROLLED and t.pl[1, S.ALIVE] == 1
    assert t.pl[1, S.C_CHARS_LOST] == 1 and t.dice_left() == 0
    t.check()


@pytest.mark.parametrize("ruling", ["bank", "return"])
def test_nyk_a4_tie_each_loses_one_and_the_pot_by_ruling(ruling):
    t = duel({"provocation.tie_pot": ruling}, mine=[LOOXY], theirs=[LUCKY_ROSE])
    t.force("9", "10", "J", "9", "10", "J", "K", "K", "9", "9")
    bank = t.g[S.BANK]
    t.steer(NO_FOLD, NO_FOLD, (2, 1))  # each seat: stays in twice, then loses its henchman
    t.provoke(0, SOHO, 1, 0)
    assert t.ch[LOOXY, S.WHERE] == S.W_DEAD and t.ch[LUCKY_ROSE, S.WHERE] == S.W_DEAD
    assert t.pl[0, S.C_FIGHTS_TIED] == 1 and t.pl[1, S.C_FIGHTS_TIED] == 1
    if ruling == "bank":
        assert t.money(0) == t.money(1) == 16000 - 4000 and t.g[S.BANK] == bank + 8000
    else:
        assert t.money(0) == t.money(1) == 16000 and t.g[S.BANK] == bank
    assert t.g[S.POT] == 0
    t.check()


def test_nyk_a4_a_side_that_cannot_pay_gives_everything_it_has():
    t = duel()
    t.money(1, 1000)
    t.force("A", "A", "K", "9", "10", "Q")
    t.steer((2, 1))
    t.provoke(0, SOHO, 1, 0)
    assert t.money(1) == 0 and t.money(0) == 16000 + 1000
    t.check()


@pytest.mark.parametrize("ruling, acted", [("one", (0, 1)), ("all", (1, 1))])
def test_nyk_a4_ruling_provocation_spends_one_or_all_actions(ruling, acted):
    t = duel({"provocation.action": ruling}, mine=[LOOXY])
    t.force("A", "A", "K", "9", "10", "Q")
    t.steer((2, 1))
    t.provoke(0, SOHO, 1, LOOXY)
    assert (t.ch[0, S.ACTED], t.ch[LOOXY, S.ACTED]) == acted


# --- NYK-A5 ------------------------------------------------------------------------------------

def test_nyk_a5_death_of_an_affranchi_puts_its_player_out():
    t = duel()
    t.hench(CHARLIE, 1, CHELSEA)
    m = t.hold(mission_ids(crew=1, risk=0)[0], [CHARLIE], HARLEM)
    t.give(1, *t.deck()[:3])
    t.force("A", "A", "K", "9", "9", "10", "K", "10", "Q", "J")  # full house vs two pairs
    bank = t.g[S.BANK]
    t.steer(NO_FOLD, NO_FOLD, NO_FOLD, NO_FOLD)  # seat 1 has only its affranchi to lose
    t.provoke(0, SOHO, 1, 0)
    assert t.pl[1, S.ALIVE] == 0 and t.ch[1, S.WHERE] == S.W_DEAD
    assert t.money(1) == 0 and t.g[S.BANK] == bank + 16000 - 4000
    assert t.money(0) == 16000 + 4000
    assert t.hand(1) == [] and t.g[S.R_DISC_N] == 3
    assert t.ch[CHARLIE, S.WHERE] == S.W_DISCARD and t.ms[m, S.M_STATE] == S.MS_OUT
    assert t.pl[0, S.ALIVE] == 1
    t.check()


# --- NYK-A6 recruitment ------------------------------------------------------------------------

def recruiting(dice, offer=2000, picks=()):
    t = Table()
    t.peripheral(0, FURYO)  # J of spades at BROOKLYN
    t.at(0, BROOKLYN)
    t.begin(0)
    deck = t.g[S.H_DECK_N]
    t.force(*dice)
    if picks:
        t.steer(*picks)
    t.recruit(0, FURYO, offer)
    assert t.dice_left() == 0  # one die per $1,000 offered
    return t, deck


def test_nyk_a6_a_die_above_the_value_recruits_and_a_new_card_replaces_it():
    t, deck = recruiting(["9", "Q"])
    assert t.ch[FURYO, S.OWNER] == 0 and t.ch[FURYO, S.WHERE] == S.W_CONTROLLED
    assert t.ch[FURYO, S.LOC] == BROOKLYN and t.money(0) == 16000 - 2000
    new = t.g[S.PERIPH0]
    assert new not in (FURYO, S.NO) and t.ch[new, S.LOC] == BROOKLYN
    assert t.ch[new, S.WHERE] == S.W_PERIPHERAL and t.g[S.H_DECK_N] == deck - 1
    assert t.pl[0, S.C_RECRUITS_DONE] == 1 and ops(t, 0, OP_RECRUIT) == []  # once a turn
    t.check()


def test_nyk_a6_all_dice_below_refuses_money_kept_action_spent():
    t, _ = recruiting(["9", "10", "10"], offer=3000)
    assert t.ch[FURYO, S.WHERE] == S.W_PERIPHERAL and t.money(0) == 16000
    assert t.pl[0, S.C_RECRUITS_TRIED] == 1 and ops(t, 0, OP_RECRUIT) == []


@pytest.mark.parametrize("pay", [0, 1])
def test_nyk_a6_an_equal_die_makes_it_hesitate(pay):
    t, _ = recruiting(["9", "J"], picks=[(2, pay)])
    assert t.pl[0, S.C_RECRUITS_HESITATED] == 1
    if pay:
        assert t.ch[FURYO, S.OWNER] == 0 and t.money(0) == 16000 - 3000
    else:
        assert t.ch[FURYO, S.WHERE] == S.W_PERIPHERAL and t.money(0) == 16000
    assert ops(t, 0, OP_RECRUIT) == []


def test_nyk_a6_recruiting_at_a_distance_through_phone_books():
    t = Table()
    t.peripheral(0, CHARLIE)
    t.peripheral(1, HARD_JACK)
    t.peripheral(2, FURYO)
    t.peripheral(3, THE_LORD)
    t.at(0, SOHO)
    t.hench(LOOXY, 0, CHELSEA)  # Q of spades knows J and K of spades
    t.begin(0)
    assert {row[0] for row in ops(t, 0, OP_RECRUIT)} == {FURYO, THE_LORD}
    assert [row[1] for row in ops(t, 0, OP_RECRUIT) if row[0] == FURYO] == [ANY_OFFER]
    t.force("A")
    t.recruit(0, FURYO, 1000)
    assert t.ch[FURYO, S.OWNER] == 0 and t.ch[FURYO, S.LOC] == BRONX
    assert t.g[S.PERIPH0 + 2] not in (FURYO, S.NO)
    t.check()


def test_nyk_a6_the_offer_is_chosen_once_the_henchman_is_from_the_minimum_up_to_the_money():
    t = Table()
    t.peripheral(2, FURYO)
    t.at(0, BRONX)
    t.begin(0)
    t.pl[0, S.MONEY] = 4500
    t.steer((4, 3))  # $1,000 to $4,000: the fourth
    assert recruitment.choose_offer(t.game, t.env, 0, FURYO, S.NO) == 4000
    t.pl[0, S.MONEY] = 50000
    t.steer((10, 9))  # up to `recruit.max_offer`
    assert recruitment.choose_offer(t.game, t.env, 0, FURYO, S.NO) == 10000


def test_nyk_a6_peripheral_only_with_the_affranchi_there():
    t = Table()
    t.peripheral(3, CHARLIE)
    t.hench(NICKY, 0, QUEENS)  # a henchman there does not recruit, nor knows Charlie
    t.at(0, SOHO)
    t.begin(0)
    assert ops(t, 0, OP_RECRUIT) == []
    t.at(0, QUEENS)
    assert {row[0] for row in ops(t, 0, OP_RECRUIT)} == {CHARLIE}


def test_nyk_a6_replacement_reshuffles_the_discard_then_runs_out():
    t = Table()
    t.peripheral(0, FURYO)
    t.at(0, BROOKLYN)
    deck = [int(c) for c in t.g[S.H_DECK0:S.H_DECK0 + t.g[S.H_DECK_N]]]
    for c in deck[1:]:  # all but one gone for good; that one waits in the discard pile
        t.ch[c, S.WHERE] = S.W_DEAD
    t.g[S.H_DECK_N] = 0
    t.g[S.H_DISC0], t.g[S.H_DISC_N] = deck[0], 1
    t.ch[deck[0], S.WHERE] = S.W_DISCARD
    t.begin(0)
    t.force("A")
    t.recruit(0, FURYO, 1000)
    assert t.g[S.PERIPH0] == deck[0] and t.g[S.H_DISC_N] == 0 and t.g[S.H_DECK_N] == 0
    t.check()
    t.begin(0)
    t.force("A")
    t.recruit(0, deck[0], 1000)
    assert t.ch[deck[0], S.OWNER] == 0 and t.g[S.PERIPH0] == S.NO
    t.check()


# --- NYK-A7 ------------------------------------------------------------------------------------

def test_nyk_a7_at_most_four_henchmen_and_parting_with_one():
    t = Table()
    t.peripheral(0, FURYO)
    t.at(0, BROOKLYN)
    for c in (LOOXY, CHARLIE, NICKY):
        t.hench(c, 0, CHELSEA)
    t.hench(EL_NINO, 0, CHELSEA)
    t.begin(0)
    assert ops(t, 0, OP_RECRUIT) == []
    t.custody(NICKY, 2)
    t.hold(mission_ids(crew=1, risk=0)[0], [CHARLIE], HARLEM)
    assert {row[0] for row in ops(t, 0, OP_PART)} == {LOOXY, EL_NINO}
    recruitment.part_with(t.game, 0, LOOXY)
    assert t.ch[LOOXY, S.WHERE] == S.W_DISCARD and t.ch[LOOXY, S.OWNER] == S.NO
    assert t.g[S.H_DISC0 + t.g[S.H_DISC_N] - 1] == LOOXY and t.pl[0, S.C_PARTED] == 1
    assert {row[0] for row in ops(t, 0, OP_RECRUIT)} == {FURYO}
    t.check()


# --- NYK-A8 ------------------------------------------------------------------------------------

def test_nyk_a8_a_recruit_card_is_the_turns_recruit_action():
    t = Table()
    t.peripheral(1, HARD_JACK)  # K of diamonds at UNION CITY, far from the affranchi
    t.at(0, SOHO)
    card = card_ids(E_RECRUIT)[0]
    t.give(0, card)
    t.begin(0)
    rows = [r for r in ops(t, 0, OP_RECRUIT) if r[2] == card]
    assert {r[0] for r in rows} >= {HARD_JACK} and ops(t, 0, OP_RECRUIT) == rows
    t.force("9", "10", "A")  # $1,000 gives one die, the card two more: the third recruits
    t.recruit(0, HARD_JACK, 1000, card)
    assert t.dice_left() == 0
    assert t.ch[HARD_JACK, S.OWNER] == 0 and t.ch[HARD_JACK, S.LOC] == UNION_CITY
    assert t.hand(0) == [] and t.pl[0, S.RECRUITED] == 1
    t.at(0, BROOKLYN)
    assert ops(t, 0, OP_RECRUIT) == []
