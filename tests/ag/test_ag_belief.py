"""AG-T3, simultaneous placement as the game it is (strategies.ag.belief): the families do not all
put their crews on the one card that is best alone; their strategies come from fictitious play
over the turn's placement game, and each draws its card from its own."""

import numpy as np
from ag_scenario import PARAMETRIC, Table, card_id

from sim.ag import state as S
from strategies.ag import belief as B
from strategies.ag import policy as P

CHEAP = ("casino", "post_office")   # target 2 each: a crew takes either alone
HARD = ("bank", "armoured_van")     # target 6: out of a lone crew's reach


def four_crews_before_placement(game_id):
    t = Table(4, kind=PARAMETRIC, game_id=game_id)
    t.g[S.TURN] = 1
    t.show(*(card_id(k) for k in CHEAP + HARD))
    return t


def herded(t):
    """Every family put every die on one and the same card."""
    slots = set()
    for p in range(4):
        dice = t.at[:, p, S.HENCH] + t.at[:, p, S.KILLER] + t.at[:, p, S.OCC]
        slots |= set(np.flatnonzero(dice))
    return len(slots) == 1 and 0 not in slots


def test_ag_t3_simultaneous_families_do_not_all_pile_on_the_best_card():
    """Four equal crews, two cheap cards and two hard ones, placed by the engine (simultaneous,
    the default): placing as if alone, all four put every die on the same cheap card in nearly
    every game; best-responding to the others' strategies, they do so in under a fifth of 60 games."""
    n = 60
    herds = 0
    for game_id in range(n):
        t = four_crews_before_placement(game_id)
        t.placement()
        herds += herded(t)
        t.check()
    assert herds < n / 5, herds


def test_ag_t3_the_placement_strategies_are_mixed_and_a_card_drawn_once_a_turn():
    """The fictitious play's strategies (the last family's): each a distribution over the shown
    cards, none putting every family on one card for sure; a family's card is drawn once a turn."""
    t = four_crews_before_placement(0)
    t.placement()
    sigma = t.game.belief[:4, 1:5].copy()
    assert np.allclose(sigma.sum(axis=1), 1.0)
    assert np.prod(sigma, axis=0).max() < 0.5             # no card where all four go for sure
    plans = [int(B.planned(t.game, p)) for p in range(4)]
    assert all(1 <= s <= 4 for s in plans)
    assert [int(B.planned(t.game, p)) for p in range(4)] == plans


def test_ag_t3_a_coalition_partner_is_read_from_the_belief_when_placing_at_once():
    """Placing at once no family sees another's crew: the last family in turn order (none places
    after it) may still be joined on its card, by the family its belief puts there (with the
    belief's chance); one the belief never puts there is no partner; the pieces the others placed
    this turn, out of sight, change nothing. Placing in turn, the strongest family still to place
    joins, counted at LEAD."""
    t = four_crews_before_placement(0)
    game, last, card = t.game, 3, 2
    game.belief[:4, :] = 0.0
    game.belief[:4, 1] = 1.0
    game.belief[1, 1], game.belief[1, card] = 0.4, 0.6
    assert P.strongest_after(game, last) == S.NO                 # placing in turn: no one after it
    assert P.coalition_partner(game, last, 0) == (S.NO, P.LEAD)
    partner, chance = P.coalition_partner(game, last, card)
    assert partner == 1 and chance == 0.6
    assert P.coalition_partner(game, last, 3)[0] == S.NO         # a card no other family goes to
    game.hidden[card, 2, S.KILLER] = 1                           # family 2's killer, out of sight there
    assert P.coalition_partner(game, last, card) == (partner, chance)
    assert P.coalition_partner(game, 0, 0) == (P.strongest_after(game, 0), P.LEAD)
    assert P.strongest_after(game, 0) != S.NO


def copied(env):
    """A copy of an env, no placement game remembered in it."""
    env = np.array([env]).view(np.recarray)[0]
    env.belief_key[:] = 0.0
    env.belief_n[:] = 0
    return env


def test_ag_t3_a_placement_game_read_back_is_the_one_solved_afresh():
    """The placement game last solved under an env is read back (env.belief_key) when the next
    family sees the same crews, cards, goods and FBI steps, solved again when any differs, and
    what is read back is what an env that never solved it finds, bit for bit."""
    t = four_crews_before_placement(0)
    goods = np.zeros((S.MAX_SEATS, S.MAX_SLOTS))
    goods[:4, 1:5] = [[3.0, 2.5, 9.0, 8.0], [2.0, 3.5, 7.0, 9.5], [3.0, 3.0, 8.0, 8.0], [1.0, 4.0, 6.0, 9.0]]
    fbi = -0.5
    env, fresh = copied(t.env), copied(t.env)   # the scenario's env is shared between tests

    def solved(env, goods, me, fbi_me):
        B.belief(t.game, env, goods, me, fbi_me)
        return t.game.belief.copy()

    first = solved(env, goods, 0, fbi)
    assert tuple(env.belief_n) == (1, 0)
    assert np.array_equal(solved(env, goods, 0, fbi), first)
    assert tuple(env.belief_n) == (2, 1)                  # the same game: read back
    other = goods.copy()
    other[2, 3] += 1.0
    changed = solved(env, other, 0, fbi)
    assert tuple(env.belief_n) == (3, 1)                  # other goods: solved again
    assert np.array_equal(changed.view(np.int64), solved(fresh, other, 0, fbi).view(np.int64))
    solved(env, other, 1, fbi + 1.0)
    assert tuple(env.belief_n) == (4, 1)                  # another FBI step for the one placing


def full_fictitious_play(n, shown, u):
    """Fictitious play as its docstring states it, every round and every set of others summed
    (the reference the jitted one, with its early stop and its pruned sums, must equal bit for bit)."""
    sigma = np.zeros((S.MAX_SEATS, S.MAX_SLOTS))
    for t in range(B.ROUNDS):
        reply = [0] * n
        for q in range(n):
            best, k = -1e18, 1
            for s in range(1, shown + 1):
                total = 0.0
                for a in range(1 << n):
                    if (a >> q) & 1:
                        continue
                    chance = 1.0
                    for j in range(n):
                        if j != q:
                            chance = chance * (sigma[j, s] if (a >> j) & 1 else 1.0 - sigma[j, s])
                    total += chance * u[q, s, a]
                if total > best + 1e-12:
                    best, k = total, s
            reply[q] = k
        for q in range(n):
            for s in range(1, shown + 1):
                sigma[q, s] *= t / (t + 1.0)
            sigma[q, reply[q]] += 1.0 / (t + 1.0)
    return sigma


def test_ag_t3_fictitious_play_stops_early_with_the_strategies_of_every_round():
    """A pure profile every family keeps replying with ends fictitious play early (averaging keeps
    it exactly pure); mixed or not, its strategies are those of all ROUNDS rounds, bit for bit."""
    assert B.pure_average_stays_pure()
    t = four_crews_before_placement(0)
    rng = np.random.default_rng(3)
    u = np.zeros((S.MAX_SEATS, S.MAX_SLOTS, 1 << S.MAX_SEATS))
    pure = 0
    for case in range(40):
        u[:] = 0.0
        u[:4, 1:5, :16] = rng.random((4, 4, 16))
        if case % 2:   # one card best for every family whoever joins it: a pure fixed point
            u[:4, 1 + case % 4, :16] += 2.0
        B.fictitious_play(t.game, u, t.game.belief)
        got = t.game.belief.copy()
        assert np.array_equal(got.view(np.int64), full_fictitious_play(4, 4, u).view(np.int64)), case
        pure += bool(np.all(np.isin(got[:4, 1:5], (0.0, 1.0))))
    assert pure >= 20


def test_ag_t3_the_cards_goods_to_every_family_are_worked_out_once_a_turn():
    """plan_goods holds goods_worth of every shown card to every family, kept for the turn
    (nothing a placement does changes them) and worked out again on the next."""
    t = four_crews_before_placement(0)
    game, env = t.game, t.env
    goods = P.plan_goods(game, env).copy()
    for q in range(4):
        for s in range(1, 5):
            assert goods[q, s] == P.goods_worth(game, env, q, game.g[S.SHOW0 + s])
    game.plan_goods[:] = -1.0
    assert np.all(P.plan_goods(game, env) == -1.0)   # the same turn: kept
    game.g[S.TURN] += 1
    assert np.array_equal(P.plan_goods(game, env)[:4, 1:5], goods[:4, 1:5])
