"""The blunder audit of New York Kings: decisions a player at the table would call mistakes.

A game is driven through the forward model (sim.nyk.forward) with every seat halting at the
decision kinds the checks watch. At each halt the seat's own policy is asked, on a copy of the
record, which option it takes (`policy_pick`), each check watching that kind judges the pick,
and the policy then plays it (`apply_policy`), so the audited game is the batch game of the same
seed and game id.

Each check answers two questions about one decision: was the mistake *possible and avoidable*
here (an opportunity: a mistaken option and a sound one were both on the list), and was it
*made*. The checks read the board as the rules do (the engine's own `questionable`, the hand
tables of the ruleset), never the policy's valuations, so a policy cannot pass by agreeing with
itself. The list and what each check means: docs/blunders.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from itertools import product

import numpy as np

from sim.nyk import hands
from sim.nyk import state as S
from sim.nyk.state import carries_risk
from strategies.nyk.policy import choose
from sim.nyk.chapters.police import questionable
from sim.nyk.decisions import (
    ANY_CARD, CTX_CREW, CTX_DISTRICT, CTX_GROUP, CTX_MODE, CTX_OTHER_CREW, CTX_STAGE,
    D_ACTION, D_DEAL, D_DEAL_ACCEPT, D_FOLD, D_MOVE, D_POLICE, D_STEP, DECISIONS, MODE_NORMAL,
    OP_ACCOMPLISH, OP_END, OP_JOURNEY, OP_PLAY, OP_POLICE, OP_STEP,
)
from sim.nyk.compiled import E_EXTRA_MOVE, P_POLICE_QUESTIONED, QUESTIONED_ALL


@dataclass(frozen=True)
class Check:
    name: str
    rule: str
    kinds: tuple[int, ...]   # the decision kinds it watches (sim.nyk.decisions D_*)
    what: str                # the mistake, as a player at the table would say it


CHECKS = (
    Check("car_onto_own_crew", "NYK-P4", (D_POLICE, D_STEP, D_DEAL, D_DEAL_ACCEPT),
          "a police car moved onto one's own at-risk crew, which it questions, while another move did not"),
    Check("walk_into_check", "NYK-M2", (D_STEP,),
          "an at-risk crew walked onto a police district that is not its destination (a check and an "
          "interrogation) while it could stop or step elsewhere"),
    Check("fold_ahead", "NYK-A4", (D_FOLD,),
          "a fold with the better hand and more than an even chance to win the fight with the dice to come"),
    Check("mission_left", "NYK-A2", (D_ACTION,),
          "the actions ended while a mission could be accomplished"),
    Check("fast_car_skipped", "NYK-C5", (D_MOVE, D_STEP),
          "set out without the playable Fast Car (extra steps) and then paid a card for a step of that journey "
          "that the car's steps would have made (not past a police check, NYK-P2)"),
)
WATCHED = tuple(sorted({k for c in CHECKS for k in c.kinds}))


@dataclass
class Pending:
    """The decision at hand: its seat, kind, options and context, the option the policy takes."""
    seat: int
    kind: int
    opts: np.ndarray
    ctx: np.ndarray
    pick: int

    @property
    def row(self) -> np.ndarray:
        return self.opts[self.pick]


@dataclass
class Tally:
    """Per seat and check: opportunities and blunders; `journey`: the Fast Car check's memory."""
    players: int
    opportunities: np.ndarray = field(init=False)
    blunders: np.ndarray = field(init=False)
    decisions: np.ndarray = field(init=False)
    journey: dict = field(default_factory=dict)

    def __post_init__(self):
        self.opportunities = np.zeros((self.players, len(CHECKS)), np.int64)
        self.blunders = np.zeros((self.players, len(CHECKS)), np.int64)
        self.decisions = np.zeros(self.players, np.int64)

    def count(self, seat: int, check: int, opportunity: bool, blunder: bool) -> None:
        self.opportunities[seat, check] += opportunity
        self.blunders[seat, check] += blunder


def policy_pick(fw) -> Pending:
    """The pending decision and the option the seat's policy takes there (asked on a copy of the
    record, so the policy's own coin is drawn again, identically, when it plays)."""
    work = fw.work[0]
    seat, kind, n = int(work.fw[S.FW_SEAT]), int(work.fw[S.FW_KIND]), int(work.fw[S.FW_NOPTS])
    copy = fw.work.copy()[0]
    pick = int(choose(copy, fw.env[0], seat, copy.fw_opts, n, copy.fw_ctx))
    pick = pick if 0 <= pick < n else 0  # as `ask` does with an index out of range
    return Pending(seat, kind, np.array(work.fw_opts[:n]), np.array(work.fw_ctx), pick)


# --- the checks: (opportunity, blunder) for one decision ------------------------------------------

def car_arrivals(game, d: Pending) -> list[int | None]:
    """Where each option sends a police car (None: no car arrives)."""
    if d.kind == D_DEAL_ACCEPT:  # option 1 takes the money and moves the buyer's car (NYK-E2)
        return [None, int(d.ctx[CTX_DISTRICT])][:len(d.opts)]
    return [int(r[2]) if r[0] == OP_POLICE and r[2] != S.NO else None for r in d.opts]


def questions_own(game, env, p: int, to: int) -> bool:
    """A car arriving on `to` questions p's crew (NYK-P4): p has an at-risk crew there that may
    be questioned, and no rival's is there for the mover to pick instead (`police.questioned =
    one`), or every such crew is questioned (`all`)."""
    if not questionable(game, env, p, to):
        return False
    if env.rp[P_POLICE_QUESTIONED] == QUESTIONED_ALL:
        return True
    return not any(q != p and game.pl[q, S.ALIVE] and questionable(game, env, q, to)
                   for q in range(game.g[S.N_PLAYERS]))


def car_onto_own_crew(game, env, d: Pending, tally: Tally):
    harmful = [to is not None and questions_own(game, env, d.seat, to) for to in car_arrivals(game, d)]
    return any(harmful) and not all(harmful), harmful[d.pick]


def walk_into_check(game, env, d: Pending, tally: Tally):
    group = int(d.ctx[CTX_GROUP])
    if d.ctx[CTX_MODE] != MODE_NORMAL or not carries_risk(game, group):
        return False, False
    goals = {int(game.ms[game.ch[c, S.MISSION], S.M_DEST]) for c in range(S.N_CHARS)
             if (group >> c) & 1 and game.ch[c, S.MISSION] != S.NO}
    risky = [r[0] == OP_STEP and S.police_at(game, int(r[1])) > 0 and int(r[1]) not in goals for r in d.opts]
    return any(risky) and not all(risky), risky[d.pick]


def fold_ahead(game, env, d: Pending, tally: Tally):
    left = 3 - int(d.ctx[CTX_STAGE])  # NYK-A4: one die more at each later stage
    mine, theirs = int(d.ctx[CTX_CREW]), int(d.ctx[CTX_OTHER_CREW])
    table = np.asarray(env.table)
    ahead = strength_of(mine, table) > strength_of(theirs, table) and win_chance(mine, theirs, left, table) > 0.5
    return ahead, ahead and d.pick == 1


def mission_left(game, env, d: Pending, tally: Tally):
    possible = bool((d.opts[:, 0] == OP_ACCOMPLISH).any())
    return possible, possible and d.row[0] == OP_END


def fast_car_skipped(game, env, d: Pending, tally: Tally):
    """Judged at a journey's first card-paid step (one verdict a journey), from what its seat
    did at the movement menu: played an extra_move card first ("armed", then "played"), or set out
    with one playable ("skipped")."""
    before = tally.journey.get(d.seat)
    if d.kind == D_MOVE:
        extra = (d.opts[:, 0] == OP_PLAY) & (d.opts[:, 2] == E_EXTRA_MOVE)
        if extra[d.pick]:
            tally.journey[d.seat] = "armed"
        elif d.row[0] == OP_JOURNEY:
            tally.journey[d.seat] = "skipped" if extra.any() else ("played" if before == "armed" else None)
        elif before != "armed":
            tally.journey[d.seat] = None
        return False, False
    if before not in ("skipped", "played") or d.row[0] != OP_STEP or d.row[2] != ANY_CARD:
        return False, False
    if stopped(game, int(d.ctx[CTX_GROUP])):  # past a check only a card goes on (NYK-P2): the car's steps would not
        return False, False
    tally.journey[d.seat] = None
    return True, before == "skipped"


def stopped(game, group: int) -> bool:
    return any((group >> c) & 1 and game.ch[c, S.STOPPED] for c in range(S.N_CHARS))


JUDGES = (car_onto_own_crew, walk_into_check, fold_ahead, mission_left, fast_car_skipped)
assert [j.__name__ for j in JUDGES] == [c.name for c in CHECKS]


# --- hands, brute force (independent of the policy's tables of multisets) -------------------------

def strength_of(packed: int, table) -> int:
    return int(hands.packed_strength(packed, table))


@cache
def rolls(dice: int) -> tuple[int, ...]:
    """Every ordered roll of `dice` dice as packed counts (6**dice of them, made once)."""
    return tuple(sum(1 << (4 * v) for v in roll) for roll in product(range(hands.N_RANKS), repeat=dice))


def win_chance(mine: int, theirs: int, dice: int, table) -> float:
    """P(mine beats theirs) once each side rolls `dice` more dice: every roll of both, counted."""
    if dice <= 0:
        return float(strength_of(mine, table) > strength_of(theirs, table))
    mine_s = np.array([strength_of(mine + r, table) for r in rolls(dice)])
    theirs_s = np.array([strength_of(theirs + r, table) for r in rolls(dice)])
    return float((mine_s[:, None] > theirs_s[None, :]).mean())


# --- one game -------------------------------------------------------------------------------------

def audit_game(ruleset, strategies, seed: int, game_id: int, players: int) -> tuple[list[str], Tally, dict]:
    """Play one game through the forward model and judge every watched decision of every seat:
    the seats' strategy names, the tally and the game's result."""
    from sim.nyk.forward import Forward

    fw = Forward.new(ruleset, strategies, seed=seed, game_id=game_id, stop=range(players), players=players,
                     kinds=[DECISIONS[k] for k in WATCHED])
    tally = Tally(players)
    env = fw.env[0]
    while not fw.over:
        d = policy_pick(fw)
        tally.decisions[d.seat] += 1
        for i, (check, judge) in enumerate(zip(CHECKS, JUDGES, strict=True)):
            if d.kind in check.kinds:
                opportunity, blunder = judge(fw.game, env, d, tally)
                tally.count(d.seat, i, opportunity, blunder)
        fw.apply_policy()
    return list(fw.names), tally, fw.result()
