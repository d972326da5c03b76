"""Players see only what a player sees (sim.nyk.view): re-dealing what a seat cannot see (the
other hands, every deck order with the end card in its public window (NYK-S4/S5), the others'
secret destinations, the others' money when fortunes are hidden, the bids put down face down
before its own (NYK-T1), every stream of luck but its own coins) never changes that seat's
decision, over thousands of decisions of every preset; the search presets bid without reading
the bids put down before theirs."""

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


# --- NYK-S4/S5: the end card is re-dealt within its public window --------------------------------

def paused_positions(turns=(1, 3, 6), ruleset=None):
    """Real positions of a 4-player game of `balanced`: seat 0's first decision of each turn."""
    from sim.nyk.forward import Forward

    fw = Forward.new(ruleset or Ruleset.load(), ["balanced"] * 4, seed=11, game_id=0, stop=[0])
    found = {}
    while not fw.over and len(found) < len(turns):
        turn = int(fw.work[0].g[S.TURN])
        if turn in turns and turn not in found:
            found[turn] = (fw.work.copy(), fw.env)
        fw.apply_policy()
    assert sorted(found) == sorted(turns)
    return found


def test_redeal_puts_the_end_card_only_where_setup_could_have_put_it():
    # NYK-S4/S5: setup puts the end card uniformly among the last `missions.end_card_among_last`
    # cards; a re-deal keeps it there, among the cards still on the deck, and every such world is
    # sampled; the cards drawn, the others' order aside, and all the seat sees stay as they were
    last = Ruleset.load()["missions.end_card_among_last"]
    for turn, (work, env) in paused_positions().items():
        g0 = work[0]
        start = int(g0.g[S.M_DECK_POS])
        deck = slice(S.M_DECK0, S.M_DECK0 + S.N_MISSIONS + 1)
        window = set(range(max(S.N_MISSIONS + 1 - last, start), S.N_MISSIONS + 1))
        seen_at = set()
        for seed in range(1, 300):
            game = work.copy()[0]
            game.ctx[:] = 0
            redeal(game, env[0], 0, seed)
            cards_now = game.g[deck]
            at = int(np.flatnonzero(cards_now == S.END_CARD)[0])
            assert at in window, f"turn {turn}: end card at {at}, outside {sorted(window)}"
            assert game.g[S.END_CARD_POS] == at
            assert np.array_equal(cards_now[:start], g0.g[deck][:start])
            assert sorted(cards_now[start:]) == sorted(g0.g[deck][start:])
            assert np.array_equal(game.ch, g0.ch) and game.g[S.M_DECK_POS] == start
            assert game.pl[0, S.HAND0:S.HAND0 + game.pl[0, S.HAND_N]].tolist() == \
                g0.pl[0, S.HAND0:S.HAND0 + g0.pl[0, S.HAND_N]].tolist()
            seen_at.add(at)
        assert seen_at == window, f"turn {turn}: worlds never sampled {sorted(window - seen_at)}"


def test_the_end_card_window_follows_the_ruleset():
    # NYK-S4: the window is the ruleset's count, not a number in the code
    rs = Ruleset.load(overrides={"missions.end_card_among_last": 2})
    (work, env), = paused_positions((1,), rs).values()
    seen_at = set()
    for seed in range(1, 100):
        game = work.copy()[0]
        game.ctx[:] = 0
        redeal(game, env[0], 0, seed)
        seen_at.add(int(np.flatnonzero(game.g[S.M_DECK0:S.M_DECK0 + S.N_MISSIONS + 1] == S.END_CARD)[0]))
    assert seen_at == {S.N_MISSIONS - 1, S.N_MISSIONS}


# --- NYK-T1: bids are put down face down ----------------------------------------------------------

def test_redeal_draws_again_the_bids_put_down_before_the_seats_own():
    # NYK-T1: at seat 2's bid, seats 0 and 1 have put their bills down face down: a re-deal draws
    # them again among the bids each could make; once seat 2 has bid (or outside a bid) they stay
    from sim.nyk.decisions import CTX_DECISION, D_BID, D_MOVE

    t = Table(n_players=3)
    env = t.env
    legal = {q: {int(env.bids[i, 0]) for i in range(env.n_bids)
                 if env.bids[i, 1] <= t.pl[q, S.ZEROS] and env.bids[i, 0] <= t.money(q)} for q in (0, 1)}
    drawn = {0: set(), 1: set()}
    for seed in range(1, 200):
        t.game.bids[:3] = (2000, 0, -1)
        t.game.ctx[CTX_DECISION] = D_BID
        redeal(t.game, env, 2, seed)
        assert t.game.bids[2] == -1
        for q in (0, 1):
            assert int(t.game.bids[q]) in legal[q]
            drawn[q].add(int(t.game.bids[q]))
    assert drawn == legal and len(legal[0]) > 2
    for decision, bids in ((D_BID, (2000, 0, 1000)), (D_MOVE, (2000, 0, -1))):
        t.game.bids[:3] = bids
        t.game.ctx[CTX_DECISION] = decision
        redeal(t.game, env, 2, 5)
        assert tuple(t.game.bids[:3]) == bids


@pytest.mark.parametrize("preset, root", [("search-800", "uct"), ("search-800", "halving")])
def test_a_search_bids_without_reading_the_bids_put_down_before_its_own(preset, root):
    # NYK-T1 for the searching seats: seat 0's face-down bid, whatever it is, leaves seat 1's
    # searched bid unchanged (tiny budgets, the preset's knobs at either root, its bid searched)
    import strategies
    from sim.nyk.forward import Forward
    from sim.search.nyk import choose

    knobs = {**strategies.load(preset, "nyk").search, "root": root}
    rollout = knobs["rollout"]
    for game_id in range(3):
        base = Forward.new(Ruleset.load(), [rollout] * 4, seed=3, game_id=game_id, stop=[0, 1], kinds=["bid"])
        chosen, spread = set(), set()
        for k in range(base.decision().options.shape[0]):
            fw = base.copy()
            assert fw.decision().seat == 0 and fw.decision().kind == "bid"
            fw.apply(k)
            d = fw.decision()
            assert d.seat == 1 and d.kind == "bid"
            spread.add(int(d.options.shape[0]))
            chosen.add(choose(fw, 1, iterations=12, exploration=knobs.get("exploration", 0.7), key=game_id + 1,
                              root=knobs.get("root", "uct"), guard=knobs.get("guard", 2.0)))
        assert len(chosen) == 1, f"{preset}, game {game_id}: seat 1's bid follows seat 0's: {chosen}"
