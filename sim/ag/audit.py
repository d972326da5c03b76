"""The blunder audit of American Gangsters: decisions a family at the table would call mistakes.

The same method as New York Kings' (sim.nyk.audit): a game is driven through the forward model
(sim.ag.forward) with every seat halting; at each halt the seat's own policy is asked, on a copy
of the record, which option it takes, the checks watching that decision kind judge it, and the
policy then plays it, so the audited game is the batch game of the same seed and game id. Each
check reads the board as the rules do (the ruleset's marks and prices, the pieces on the
locations), never the policy's valuations. The list and what each check means: docs/blunders.md.
"""

from __future__ import annotations

import numpy as np

from sim.ag import state as S
from sim.ag.decisions import (
    CTX_DECISION, CTX_PIECE, D_HOSPITAL, D_PLACE, D_REROLL, D_TRADE, OP_BUY_RENOWN, OP_HEAL, OP_NO, OP_PASS, OP_SLOT,
)
from sim.ag.env import (
    P_BUY_BAGS, P_INFORMER_AS_PARRAIN, P_INFORMER_FBI, P_INFORMER_RENOWN, P_PARRAIN, P_UNPLACED_BOSS,
)
from sim.ag.readers import score
from sim.shared.audit import Check, Pending, Tally, judge_decision
from strategies.ag.policy import choose

LINEUP = "simple,balanced,homebody,informer-aware,politician,racketeer,warlord"  # the CLI's default

CHECKS = (
    Check("boss_left_home", "AG-T3", (D_PLACE,),
          "the boss kept home, which costs renown, while the hospital (no shoot-out there) took it for nothing"),
    Check("win_not_bought", "AG-G1", (D_TRADE,),
          "a renown level left unbought (AG-T1: 3 bags) that would have put the family on its winning mark "
          "(the Parrain's; the informer's with the FBI pawn already past its own, AG-G2)"),
    Check("reroll_declined", "AG-T4", (D_REROLL,),
          "the boss's re-roll of the failed dice declined on a location whose target was missed: the card is "
          "then lost for sure, and the re-roll can only add CLICs (the boss is on no other location)"),
    Check("wound_left", "AG-H1", (D_HOSPITAL,),
          "the boss at the hospital, wounded, healed nothing and recruited nothing: a second wound kills it "
          "(AG-K4), the heal is free"),
)


def policy_pick(fw) -> Pending:
    """The pending decision and the option the seat's policy takes there (asked on a copy)."""
    work = fw.work[0]
    seat, n = int(work.g[S.FW_SEAT]), int(work.g[S.FW_OPTS_N])
    copy = fw.work.copy()[0]
    pick = int(choose(copy, fw.env[0], seat, copy.opts, n, copy.ctx))
    pick = pick if 0 <= pick < n else 0
    return Pending(seat, int(work.ctx[CTX_DECISION]), np.array(work.opts[:n]), np.array(work.ctx), pick)


def boss_left_home(game, env, d: Pending, tally: Tally):
    if d.ctx[CTX_PIECE] != S.BOSS or env.rp[P_UNPLACED_BOSS] == 0 or game.pl[d.seat, S.RENOWN] == 0:
        return False, False  # no renown to lose (the ladder starts at 0)
    home = [r[0] == OP_SLOT and r[1] == S.NO for r in d.opts]
    hospital = any(r[0] == OP_SLOT and r[1] == S.HOSPITAL for r in d.opts)
    return any(home) and hospital, home[d.pick] and hospital


def win_not_bought(game, env, d: Pending, tally: Tally):
    buy = [r[0] == OP_BUY_RENOWN for r in d.opts]
    if not any(buy) or not wins_with_one_more(game, env, d.seat):
        return False, False
    return True, not buy[d.pick]


def wins_with_one_more(game, env, p: int) -> bool:
    """One renown level more puts p on its winning mark (AG-G1, G2), the bags to pay for it aside."""
    after = int(score(game, env, p)) + 1
    if p == game.g[S.INFORMER]:
        if after >= env.rp[P_INFORMER_RENOWN] and game.g[S.FBI] >= env.rp[P_INFORMER_FBI]:
            return True
        if not env.rp[P_INFORMER_AS_PARRAIN]:
            return False
    return after >= env.rp[P_PARRAIN] and S.bag_count(game, p) >= env.rp[P_BUY_BAGS]


def reroll_declined(game, env, d: Pending, tally: Tally):
    declined = [r[0] == OP_NO for r in d.opts]
    return any(declined) and not all(declined), declined[d.pick]


def wound_left(game, env, d: Pending, tally: Tally):
    can_heal = any(r[0] == OP_HEAL for r in d.opts)
    return can_heal, can_heal and d.row[0] == OP_PASS


JUDGES = (boss_left_home, win_not_bought, reroll_declined, wound_left)
assert [j.__name__ for j in JUDGES] == [c.name for c in CHECKS]


def audit_game(ruleset, strategies, seed: int, game_id: int, players: int) -> tuple[list[str], Tally, dict]:
    """Play one game through the forward model and judge every watched decision of every seat:
    the seats' strategy names, the tally and the game's result."""
    from sim.ag.forward import Forward
    from sim.shared.seats import labelled_strategy

    fw = Forward.new(ruleset, strategies, players=players, seed=seed, game_id=game_id, stop=range(players))
    tally = Tally(players, checks=len(CHECKS))
    while not fw.over:
        judge_decision(tally, fw.game, fw.env[0], policy_pick(fw), CHECKS, JUDGES)
        fw.apply_policy()
    names = [labelled_strategy(label) for label in fw.labels]
    return names, tally, fw.result()
