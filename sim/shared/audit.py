"""The blunder audit's plumbing every game's audit shares (`sim.<game>.audit`): a check, the
decision at hand, the tally of opportunities and blunders per seat and check, and the judging of
one decision by the checks that watch its kind. A game's audit module gives `CHECKS`, `JUDGES`,
`LINEUP` (its default strategies) and `audit_game(ruleset, strategies, seed, game_id, players)`;
`sim.league.blunders` finds it through the game's face."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True)
class Check:
    name: str
    rule: str
    kinds: tuple[int, ...]   # the decision kinds it watches (the game's D_* decisions)
    what: str                # the mistake, as a player at the table would say it



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
    """Per seat and check: the opportunities and the blunders, and the decisions judged."""
    players: int
    checks: int
    opportunities: np.ndarray = field(init=False)
    blunders: np.ndarray = field(init=False)
    decisions: np.ndarray = field(init=False)

    def __post_init__(self):
        self.opportunities = np.zeros((self.players, self.checks), np.int64)
        self.blunders = np.zeros((self.players, self.checks), np.int64)
        self.decisions = np.zeros(self.players, np.int64)

    def count(self, seat: int, check: int, opportunity: bool, blunder: bool) -> None:
        self.opportunities[seat, check] += opportunity
        self.blunders[seat, check] += blunder


def judge_decision(tally: Tally, game, env, d: Pending, checks, judges) -> None:
    """Each check watching the decision's kind judges the pick (any game's checks)."""
    tally.decisions[d.seat] += 1
    for i, (check, judge) in enumerate(zip(checks, judges, strict=True)):
        if d.kind in check.kinds:
            tally.count(d.seat, i, *judge(game, env, d, tally))
