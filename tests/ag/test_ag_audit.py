"""The American Gangsters blunder audit (sim.ag.audit): each check on positions where the
mistake is possible, made, avoided or impossible; an audited game is the batch game."""

import numpy as np
import pytest
from ag_scenario import Table

from sim.ag import state as S
from sim.ag.decisions import (
    CTX_PIECE, D_HOSPITAL, D_PLACE, D_REROLL, D_TRADE, N_CTX, OP_BUY_RENOWN, OP_HEAL, OP_NO, OP_PASS, OP_RECRUIT,
    OP_SELL_BAGS, OP_SLOT, OP_YES,
)
from sim.ag.env import P_BUY_BAGS, P_INFORMER_FBI, P_INFORMER_RENOWN, P_PARRAIN
from sim.ag import audit
from sim.shared.audit import Pending, Tally

NO = S.NO


def pending(kind, rows, pick, piece=0, seat=0):
    opts = np.zeros((len(rows), 5), np.int64)
    for i, row in enumerate(rows):
        opts[i, :len(row)] = row
    ctx = np.zeros(N_CTX, np.int64)
    ctx[CTX_PIECE] = piece
    return Pending(seat, kind, opts, ctx, pick)


def judge(t, check, d):
    return getattr(audit, check)(t.game, t.env, d, Tally(4, checks=len(audit.CHECKS)))


PLACES = [(OP_SLOT, S.HOSPITAL), (OP_SLOT, 1), (OP_SLOT, NO)]


@pytest.mark.parametrize("pick, blunder", [(2, True), (0, False), (1, False)])
def test_ag_t3_a_boss_kept_home_while_the_hospital_was_open(pick, blunder):
    t = Table()
    t.pl[0, S.RENOWN] = 2
    assert judge(t, "boss_left_home", pending(D_PLACE, PLACES, pick, piece=S.BOSS)) == (True, blunder)


def test_ag_t3_a_henchman_home_or_a_boss_with_no_renown_to_lose_is_no_opportunity():
    t = Table()
    t.pl[0, S.RENOWN] = 2
    assert judge(t, "boss_left_home", pending(D_PLACE, PLACES, 2, piece=S.HENCH)) == (False, False)
    t.pl[0, S.RENOWN] = 0
    assert judge(t, "boss_left_home", pending(D_PLACE, PLACES, 2, piece=S.BOSS)) == (False, False)


TRADES = [(OP_PASS,), (OP_BUY_RENOWN,), (OP_SELL_BAGS,)]


def one_level_short(t, p=0):
    t.pl[p, S.RENOWN] = t.env.rp[P_PARRAIN] - 1
    t.set_bags(p, t.env.rp[P_BUY_BAGS])
    if t.g[S.INFORMER] == p:
        t.g[S.INFORMER] = 1 - p  # a mafia family in seat p


@pytest.mark.parametrize("pick, blunder", [(0, True), (2, True), (1, False)])
def test_ag_g1_the_level_that_makes_the_parrain_left_unbought(pick, blunder):
    t = Table()
    one_level_short(t)
    assert judge(t, "win_not_bought", pending(D_TRADE, TRADES, pick)) == (True, blunder)


def test_ag_g1_two_levels_short_or_nothing_to_buy_is_no_opportunity():
    t = Table()
    one_level_short(t)
    assert judge(t, "win_not_bought", pending(D_TRADE, [TRADES[0], TRADES[2]], 0)) == (False, False)
    t.pl[0, S.RENOWN] -= 1
    assert judge(t, "win_not_bought", pending(D_TRADE, TRADES, 0)) == (False, False)


def test_ag_g2_the_informer_one_level_short_with_the_fbi_past_its_mark():
    t = Table()
    t.g[S.INFORMER] = 0
    t.pl[0, S.RENOWN] = t.env.rp[P_INFORMER_RENOWN] - 1
    t.g[S.FBI] = t.env.rp[P_INFORMER_FBI]
    assert judge(t, "win_not_bought", pending(D_TRADE, TRADES, 0)) == (True, True)
    t.g[S.FBI] = t.env.rp[P_INFORMER_FBI] - 1
    assert judge(t, "win_not_bought", pending(D_TRADE, TRADES, 0))[0] is False


@pytest.mark.parametrize("pick, blunder", [(1, True), (0, False)])
def test_ag_t4_a_reroll_declined_on_a_missed_target(pick, blunder):
    t = Table()
    assert judge(t, "reroll_declined", pending(D_REROLL, [(OP_YES,), (OP_NO,)], pick)) == (True, blunder)


@pytest.mark.parametrize("pick, blunder", [(0, True), (1, False), (2, False)])
def test_ag_h1_a_wounded_boss_leaving_the_hospital_as_it_came(pick, blunder):
    t = Table()
    rows = [(OP_PASS,), (OP_HEAL,), (OP_RECRUIT, S.HENCH)]
    assert judge(t, "wound_left", pending(D_HOSPITAL, rows, pick)) == (True, blunder)
    assert judge(t, "wound_left", pending(D_HOSPITAL, [rows[0], rows[2]], 0)) == (False, False)  # no wound


def test_an_audited_game_is_the_batch_game():
    from sim.ag.forward import Forward

    lineup = ["balanced", "homebody", "simple"]
    names, tally, result = audit.audit_game(None, lineup, 4, 2, 3)
    plain = Forward.new(None, lineup, players=3, seed=4, game_id=2, stop=())
    assert sorted(names) == sorted(lineup) and result == plain.result()
    assert tally.decisions.sum() > 0 and (tally.blunders <= tally.opportunities).all()
    assert tally.blunders[:, 0].sum() > 0  # homebody keeps its boss home: the check sees it


def test_the_league_table_runs_the_ag_audit():
    from sim.league.blunders import blunder_table

    table = blunder_table(["balanced", "homebody"], players=3, games=2, seed=1, game="ag")
    assert list(dict.fromkeys(table["check"])) == [c.name for c in audit.CHECKS]
    home = table[(table.strategy == "homebody") & (table.check == "boss_left_home")].iloc[0]
    assert home.blunders == home.opportunities > 0
