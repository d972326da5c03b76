"""Fitting the New York Kings search's leaf model (sim.search.nyk_leaf) and writing its file.

Games of the rollout preset against itself are played turn by turn; at each turn's start every
seat's features are kept with the game's eventual winner. One conditional logit is fitted per
player count and phase, and judged on games it was not fitted to (held out: the next game ids)
by its log loss, beside a fair coin's (log n) and a model of money alone.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.league.games import toml_value
from sim.provenance import engine_commit
from sim.search import nyk_leaf as leaf


@dataclass(frozen=True)
class PhaseFit:
    players: int
    phase: str
    rows: int              # turn starts fitted
    held_out: int          # turn starts judged
    log_loss: float        # held out, nats per turn start
    money_only: float      # the same with money alone
    coin: float            # log(players): every seat even


def fit_model(players=(2, 3, 4, 5), games: int = 4000, seed: int = 11, strategy: str = "tuned",
              held_out: int = 1000) -> tuple[np.ndarray, list[PhaseFit]]:
    """Coefficients (leaf.LEAF_SHAPE) fitted to `games` games at each player count, and how
    well each phase's fit predicts the winner of `held_out` further games."""
    coef = np.zeros(leaf.LEAF_SHAPE)
    report = []
    for n in players:
        x, phase, won = leaf.collect_games(n, games, seed, strategy)
        tx, tphase, twon = leaf.collect_games(n, held_out, seed, strategy, first_id=games)
        for f, name in enumerate(leaf.PHASES):
            fit, test = phase == f, tphase == f
            if fit.sum() < 10 * leaf.N_FEATURES or test.sum() == 0:
                raise ValueError(f"{n} players, phase {name!r}: {fit.sum()} turn starts to fit, {test.sum()} to "
                                 f"judge: play more games (--games)")
            coef[n, f] = leaf.fit(x[fit], won[fit])
            money = leaf.fit(x[fit][:, :, :1], won[fit])
            report.append(PhaseFit(n, name, int(fit.sum()), int(test.sum()),
                                   leaf.log_loss(tx[test], twon[test], coef[n, f]),
                                   leaf.log_loss(tx[test][:, :, :1], twon[test], money), float(np.log(n))))
    return coef, report


def model_toml(coef: np.ndarray, report: list[PhaseFit], command: str, games: int, seed: int, strategy: str) -> str:
    """The model file: features, phases, provenance, then one table per player count fitted."""
    lines = ["# The leaf model of the New York Kings search (sim.search.nyk_leaf): a conditional logit of the",
             "# winner on each seat's features, one row of coefficients per phase. Written by the command below.",
             f"features = {toml_value(list(leaf.FEATURES))}", f"phases = {toml_value(list(leaf.PHASES))}", "",
             "[provenance]", f"command = {toml_value(command)}", f"commit = {toml_value(engine_commit())}",
             f"games = {games}", f"seed = {seed}", f"strategy = {toml_value(strategy)}"]
    for n in sorted({r.players for r in report}):
        rows = [r for r in report if r.players == n]
        lines += ["", f"[players.{n}]",
                  "coef = [" + ", ".join("[" + ", ".join(f"{v:.6g}" for v in coef[n, f]) + "]"
                                         for f in range(leaf.N_PHASES)) + "]",
                  f"held_out_log_loss = {toml_value([round(r.log_loss, 4) for r in rows])}",
                  f"money_only_log_loss = {toml_value([round(r.money_only, 4) for r in rows])}",
                  f"coin_log_loss = {round(float(np.log(n)), 4)}"]
    return "\n".join(lines) + "\n"

