"""NYK-C5: a resource card plays only at the moment it states (its `window`, data in
resources.toml) and when its timing icon allows; in one window a player plays as many cards as it
wishes, one after another, and the others may answer each of them. One test per window."""

import pytest
from scenario import BROADWAY, CHELSEA, PARAM, SOHO, Table, card_ids, mission_ids

from sim.nyk.hands import add_value, parse_value
from sim.nyk.chapters import cards
from sim.nyk.chapters import fights
from sim.nyk.chapters import movement
from sim.nyk.chapters import turn
from sim.nyk import state as S
from sim.nyk.decisions import OP_PLAY
from sim.rules import Ruleset
from sim.nyk.compiled import (
    E_BANK_INCOME, E_BLOCK_INTERROGATION, E_CANCEL_CARD, E_CANCEL_ELIMINATION, E_EXTRA_ELIMINATION,
    E_FIGHT_BONUS_DIE, E_FIGHT_REROLL, E_MISSION_BONUS, E_POLICE_REMOVE,
)
from sim.rules.nyk.content import FIGHT_WINDOWS, WINDOWS

LITTLE_SAL, FURYO, LOOXY, THE_LORD = 5, 7, 8, 9   # 9, J, Q, K of spades
DECK = Ruleset.load().resources.expanded()


def packed(*labels):
    code = 0
    for label in labels:
        code = add_value(code, parse_value(label))
    return code


def played(t, p, kind):
    return int(t.pl[p, S.C_PLAYED_BY_KIND + kind])


def icon_allows(card, window, active, p):
    """The rulebook's icons: blue on the owner's turn, red on an opponent's, black in a common
    phase (no player's turn) or a fight."""
    if card.timing == "own":
        return active == p
    if card.timing == "opponent":
        return active not in (p, S.NO)
    return active == S.NO or WINDOWS[window] in FIGHT_WINDOWS


def test_nyk_c5_every_card_plays_in_its_window_when_its_icon_allows():
    t = Table()
    for active in (S.NO, 0, 1):
        t.g[S.ACTIVE] = active
        for card, printed in enumerate(DECK):
            for window in range(len(WINDOWS)):
                expected = printed.window == WINDOWS[window] and icon_allows(printed, window, active, 0)
                assert cards.playable(t.game, t.env, 0, card, window) == expected, (printed.name, window)


def test_nyk_c5_resources_window_black_income_cards_one_after_another_never_in_the_own_turn():
    t = Table(kind=PARAM)
    racket = card_ids(E_BANK_INCOME)
    t.give(0, *racket)
    t.stack(card_ids(E_FIGHT_REROLL)[0])  # the one card drawn: nothing to play at this moment
    t.g[S.ACTIVE] = S.NO  # a common phase: nobody's turn
    t.resources([0])
    assert t.money(0) == 16000 + 4000 and played(t, 0, E_BANK_INCOME) == 2
    t = Table(kind=PARAM)
    t.give(0, *racket)
    t.begin(0)  # the owner's own turn: a black card has no moment there
    assert [row for row in t.options(0) if row[0] == OP_PLAY] == []
    assert movement.list_movement_cards(t.game, t.env, 0, 0) == 0


def accomplished_with_two_juicy_jobs(t):
    t.hench(LOOXY, 0, CHELSEA)
    m = t.hold(mission_ids(crew=1, risk=0)[0], [LOOXY], CHELSEA)
    t.give(0, *card_ids(E_MISSION_BONUS)[:2])
    t.g[S.ACTIVE] = 0
    t.accomplish(0, m, 1 << LOOXY)
    return int(t.ms[m, S.M_REWARD])


def test_nyk_c5_accomplished_window_takes_every_juicy_job():
    t = Table(kind=PARAM)
    reward = accomplished_with_two_juicy_jobs(t)
    assert t.money(0) == 16000 + reward + 6000 and t.hand(0) == []


def test_nyk_c5_card_played_window_answers_each_card_one_by_one():
    t = Table(kind=PARAM)
    (informer,) = card_ids(E_CANCEL_CARD)
    t.give(1, informer)  # red: it answers in an opponent's turn
    reward = accomplished_with_two_juicy_jobs(t)
    assert t.money(0) == 16000 + reward + 3000  # the first is cancelled, the second pays
    assert played(t, 0, E_MISSION_BONUS) == 2 and played(t, 1, E_CANCEL_CARD) == 1
    assert t.hand(0) == [] and t.hand(1) == []
    t.check()


def test_nyk_c5_turn_start_window_red_payoffs_one_car_each():
    t = Table(kind=PARAM)
    t.hench(LOOXY, 1, SOHO)
    t.police(SOHO, SOHO, BROADWAY)
    t.give(1, *card_ids(E_POLICE_REMOVE))
    turn.start_player_turn(t.game, t.env, 0)  # seat 0's turn: red for seat 1
    assert sorted(t.cars()[:3]) == [BROADWAY] * 3 and t.hand(1) == []
    assert played(t, 1, E_POLICE_REMOVE) == 2


@pytest.mark.parametrize("active, blocked", [(1, True), (0, False)])
def test_nyk_c5_interrogation_window_one_red_alibi_blocks_it_only_in_an_opponents_turn(active, blocked):
    t = Table(kind=PARAM)
    t.hench(LOOXY, 0, SOHO)
    t.hold(mission_ids(crew=1, risk=1)[0], [LOOXY], CHELSEA)
    t.police(SOHO, BROADWAY)
    t.give(0, *card_ids(E_BLOCK_INTERROGATION))
    t.g[S.ACTIVE] = active
    t.force("9", "10", "9", "K", "K", "9")  # the police win if they roll
    t.interrogate(0, SOHO)
    assert (t.ch[LOOXY, S.WHERE] == S.W_CONTROLLED) == blocked
    assert len(t.hand(0)) == (1 if blocked else 2)  # one settles it; none offered on its own turn
    assert t.dice_left() == (6 if blocked else 0)


def test_nyk_c5_intimidation_window_each_strike_face_rerolls_while_a_die_pairs_nothing():
    t = Table(kind=PARAM)
    t.give(0, *card_ids(E_FIGHT_REROLL))
    t.force("Q", "J", "K", "K")  # the first card rerolls 9 and 10, the second J and Q
    dice = fights.reroll_window(t.game, t.env, 0, packed("A"), packed("9", "10", "K"))
    assert dice == packed("K", "K", "K") and t.dice_left() == 0
    assert played(t, 0, E_FIGHT_REROLL) == 2


def test_nyk_c5_intimidation_window_no_reroll_for_a_hand_without_a_lone_die():
    t = Table(kind=PARAM)
    t.give(0, *card_ids(E_FIGHT_REROLL))
    dice = fights.reroll_window(t.game, t.env, 0, packed("A"), packed("K", "K", "A"))
    assert dice == packed("K", "K", "A") and len(t.hand(0)) == 2


def test_nyk_c5_fusillade_window_machine_guns_add_up():
    t = Table(kind=PARAM)
    t.give(0, *card_ids(E_FIGHT_BONUS_DIE))
    assert fights.fusillade_window(t.game, t.env, 0) == 2 and t.hand(0) == []


def test_nyk_c5_losing_window_one_bullet_proof_saves_the_character():
    t = Table(kind=PARAM)
    t.hench(LOOXY, 0, SOHO)
    t.give(0, *card_ids(E_CANCEL_ELIMINATION))
    fights.lose_characters(t.game, t.env, 0, SOHO, 1)
    assert t.ch[LOOXY, S.WHERE] == S.W_CONTROLLED and len(t.hand(0)) == 1


def test_nyk_c5_won_fight_window_each_fusillade_card_costs_one_more_character():
    t = Table(kind=PARAM)
    for c in (LITTLE_SAL, FURYO, THE_LORD):
        t.hench(c, 1, SOHO)
    t.give(0, *card_ids(E_EXTRA_ELIMINATION))
    fights.press_the_win(t.game, t.env, 0, 1, SOHO)
    assert [t.ch[c, S.WHERE] == S.W_DEAD for c in (LITTLE_SAL, FURYO, THE_LORD)].count(True) == 2
    assert t.pl[1, S.ALIVE] == 1 and t.hand(0) == []  # the affranchi, elsewhere, is safe
    t.check()
