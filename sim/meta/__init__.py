"""The meta-game of strategies: which styles survive when good players adapt to each other.

Empirical game theory on a board game, after OpenSpiel's evolutionary tools (heuristic payoff
tables of symmetric N-player games, replicator dynamics, alpha-Rank) and PSRO:

    from sim.meta import study
    meta = study(["runner", "enforcer", "networker", "tuned"], players=4, games=400, seed=1,
                 out="runs/meta1")          # plays every profile, writes meta.json and index.html
    meta["verdict"], meta["equilibrium"]["mixture"]

Rooms: `solvers` (payoff table, expected payoffs, replicator dynamics, alpha-Rank, cycles: game
agnostic numpy), `table` (every profile played as a runner run), `analysis` (equilibria with
regrets, the bootstrap), `report` (files and page), `psro` (a population grown by best
responses), `mixture` files (a mixture usable as a strategy: `meta:runs/psro1`).
"""

from __future__ import annotations

from sim.provenance import engine_commit
from sim.runner.executor import uses_scheduler


@uses_scheduler
def study(strategies, players: int = 4, games: int = 400, seed: int = 0, out=None, game: str = "nyk",
          ruleset=None, overrides=None, workers: int | None = None, resume: bool = False,
          force: bool = False, bootstrap: int | None = None, command: str = "", log=None,
          scheduler: str | None = None) -> dict:
    """Play every profile, solve the meta-game and write `out` (profiles.parquet, meta.json,
    figures, index.html); returns the contents of meta.json."""
    import time

    from sim.meta import analysis, report
    from sim.meta.table import play_profiles

    started = time.perf_counter()
    measured = play_profiles(strategies, players, games, seed, out, game, ruleset, overrides,
                             workers, resume, force, log)
    played = time.perf_counter() - started
    meta = analysis.analyse(measured, analysis.BOOTSTRAP if bootstrap is None else bootstrap, seed=seed)
    meta["game"] = game
    provenance = {"command": command, "engine_commit": engine_commit(), "seed": seed,
                  "games_total": int(games * len(measured.counts)),
                  "seconds_playing": round(played, 1),
                  "seconds_total": round(time.perf_counter() - started, 1)}
    report.write(measured, meta, out, command, provenance)
    meta["provenance"] = provenance
    return meta
