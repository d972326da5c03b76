"""Players see only what a player sees (sim.nyk.view): re-dealing what a seat cannot see (the
other hands, every deck order, the others' secret destinations, the others' money when fortunes
are hidden) never changes that seat's decision, over thousands of decisions of every preset."""

import numpy as np
import pytest
from scenario import CHELSEA, SOHO, Table, mission_ids

from sim.nyk.chapters import cards
from sim.nyk import state as S
from sim.nyk.game import play_one
from sim.nyk.view import CHECK_VIEW, guessed_fortune, redeal, seen_dest, seen_standing
from sim.rules import Ruleset
from strategies import available

LOOXY, FURYO = 8, 7


@pytest.mark.parametrize("preset", available())
def test_a_redeal_of_hidden_facts_never_changes_a_decision(preset):
    decisions = 0
    for game_id in range(5):
        played = play_one(5, 4, [preset] * 4, game_id=game_id, record=False, check=CHECK_VIEW)
        g = played.game.g
        assert played.invariant == 0
        assert g[S.VIEW_MISMATCH] == 0, f"{preset}: {g[S.VIEW_MISMATCH]} decisions read hidden facts"
        decisions += int(g[S.DECISIONS])
    assert decisions >= 1500


def test_tracked_fortunes_are_part_of_the_view():
    rs = Ruleset.load(overrides={"view.fortunes": "tracked"})
    played = play_one(5, 4, ["balanced"] * 4, rs, record=False, check=CHECK_VIEW)
    assert played.game.g[S.VIEW_MISMATCH] == 0 and played.game.g[S.DECISIONS] > 200


def dealt_table():
    t = Table(n_players=3)
    t.give(0, 0, 5)
    t.give(1, 1, 7, 9)
    t.give(2, 11)
    t.hench(LOOXY, 1, SOHO)
    t.hench(FURYO, 0, SOHO)
    secret = mission_ids(secret=1)
    t.hold(secret[0], [LOOXY], CHELSEA)   # seat 1's secret destination
    t.hold(secret[1], [FURYO], SOHO)      # seat 0's own
    return t, secret


@pytest.mark.parametrize("fortunes", ["hidden", "tracked"])
def test_redeal_changes_only_what_the_seat_cannot_see(fortunes):
    changed = {"hands": False, "deck": False, "dest": False, "money": False}
    for seed in range(1, 40):
        t, secret = dealt_table()
        env = Table(n_players=3, overrides={"view.fortunes": fortunes}).env
        before = {"hands": [t.hand(q) for q in range(3)], "deck": t.deck(),
                  "money": [t.money(q) for q in range(3)], "ch": t.ch.copy()}
        pool = sorted(before["hands"][1] + before["hands"][2] + before["deck"])
        redeal(t.game, env, 0, seed)
        assert t.hand(0) == before["hands"][0] and t.money(0) == before["money"][0]
        assert [len(t.hand(q)) for q in range(3)] == [len(h) for h in before["hands"]]
        assert sorted(t.hand(1) + t.hand(2) + t.deck()) == pool
        assert np.array_equal(t.ch, before["ch"]) and t.ms[secret[1], S.M_DEST] == SOHO
        assert seen_dest(t.game, 0, secret[0]) == S.NO and seen_dest(t.game, 1, secret[0]) != S.NO
        changed["hands"] |= t.hand(1) != before["hands"][1]
        changed["deck"] |= t.deck() != before["deck"]
        changed["dest"] |= t.ms[secret[0], S.M_DEST] != CHELSEA
        changed["money"] |= [t.money(q) for q in (1, 2)] != before["money"][1:]
        for q in range(3):
            assert t.pl[q, S.HAND_KINDS] == cards.kinds_in_hand(t.game, env, q)
    assert changed == {"hands": True, "deck": True, "dest": True, "money": fortunes == "hidden"}


def test_standing_is_the_fortune_only_when_fortunes_are_tracked():
    t = Table(n_players=3)
    t.pl[1, S.C_MISSION_INCOME] = 9000
    hidden = Table(n_players=3).env
    tracked = Table(n_players=3, overrides={"view.fortunes": "tracked"}).env
    assert seen_standing(t.game, hidden, 0, 1) == 9000
    assert seen_standing(t.game, tracked, 0, 1) == t.money(1)


def test_hidden_fortunes_are_redealt_around_what_the_seat_can_guess():
    # NYK-S2: seat 0 holds $30,000 of which $10,000 came from missions; seat 1 took $20,000 in
    # rewards, seat 2 none: the guesses are $40,000 and $20,000, drawn within half either side
    t = Table(n_players=3)
    t.pl[0, S.MONEY], t.pl[0, S.C_MISSION_INCOME] = 30_000, 10_000
    t.pl[1, S.C_MISSION_INCOME], t.pl[2, S.C_MISSION_INCOME] = 20_000, 0
    env = Table(n_players=3).env
    assert guessed_fortune(t.game, 0, 1) == 40_000 and guessed_fortune(t.game, 0, 2) == 20_000
    drawn = {1: [], 2: []}
    for seed in range(1, 400):
        redeal(t.game, env, 0, seed)
        assert t.money(0) == 30_000
        for q in (1, 2):
            drawn[q].append(t.money(q))
    for q, guess in ((1, 40_000), (2, 20_000)):
        x = np.array(drawn[q])
        assert x.min() >= guess // 2 and x.max() <= guess * 3 // 2 and (x % 1000 == 0).all()
        assert abs(x.mean() - guess) < 0.1 * guess  # centred: sd of the mean about 1.5% here
        assert len(set(x.tolist())) > 10
