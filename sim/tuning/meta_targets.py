"""Targets on the meta-game of a study's strategies, for `mobsim tune` (automatic balancing
toward a healthy meta, after metagame autobalancing):

    meta_support>=3        at least 3 strategies with 5% weight or more in the equilibrium
    meta_max_share<=0.5    no strategy above half of the equilibrium mixture
    meta_entropy>=1.0      the equilibrium mixture's entropy (nats; log(k) for k equal styles)
    meta_seat_gap<=0.02    the seat gap when every seat plays the equilibrium mixture

At a point of the search the study's strategies play every profile of the meta-game under the
point's rules (`sim.meta.table`, the same game ids in every profile), the equilibrium is solved
(replicator dynamics) and each metric gets a 95% interval from bootstrap resamples of the games;
the seat gap is measured on a run in which every seat draws its style from the equilibrium
mixture (`meta:` strategies). These games come on top of the point's own run: a meta target
roughly doubles what a point costs.
"""

from __future__ import annotations

import math
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

METRICS = ("meta_support", "meta_max_share", "meta_entropy", "meta_seat_gap")
BOOTSTRAP = 40


def wanted(targets) -> bool:
    """Whether any target names a meta-game metric."""
    return any(getattr(t, "metric", t) in METRICS for t in targets)


def _summaries(mixture) -> dict[str, float]:
    from sim.meta.solvers import SUPPORT_WEIGHT, entropy

    x = np.asarray(mixture)
    return {"meta_support": float((x >= SUPPORT_WEIGHT).sum()), "meta_max_share": float(x.max()),
            "meta_entropy": entropy(x)}


def measure(study, point: dict, games: int, seed: int) -> pd.DataFrame:
    """The meta-game metrics of `point` (rows metric; value, lo, hi, n, se) from about `games`
    games in all: the profiles share half of them, the equilibrium-mixture run the other half."""
    from sim.analysis.headline import estimates
    from sim.meta.psro import mixture_toml
    from sim.meta.solvers import nash
    from sim.meta.table import play_profiles, profiles
    from sim.runner import run

    names, players = study.strategies, study.players
    distinct = tuple(dict.fromkeys(names))
    n_profiles = len(profiles(len(distinct), players))
    per_profile = max(players, (games // 2 // n_profiles) // players * players)
    overrides = {**study.overrides, **point}
    with tempfile.TemporaryDirectory(prefix="mobsim-meta-") as tmp:
        measured = play_profiles(distinct, players, per_profile, seed, Path(tmp) / "meta", study.game,
                                 study.ruleset, overrides, study.workers)
        x = nash(measured.table(), seed=seed)[0].mixture
        rng = np.random.default_rng(seed)
        centre = np.full(len(x), 1.0 / len(x))
        starts = np.vstack([centre, 0.8 * x + 0.2 * centre])
        boot = [_summaries(nash(measured.table(rng.integers(0, measured.games, measured.games)),
                                steps=1000, starts=starts)[0].mixture)
                for _ in range(BOOTSTRAP)]
        rows = {}
        for name, value in _summaries(x).items():
            samples = np.array([b[name] for b in boot])
            rows[name] = (value, float(np.quantile(samples, 0.025)), float(np.quantile(samples, 0.975)),
                          measured.games, float(samples.std(ddof=1)))
        mix = Path(tmp) / "mixture.toml"
        mix.write_text(mixture_toml(distinct, x, "equilibrium at this point", {}, game=study.game))
        r = run(game=study.game, players=players, strategies=[f"meta:{mix}"] * players,
                games=max(players, games // 2), seed=seed, ruleset=study.ruleset, overrides=overrides,
                workers=study.workers, progress=False)
        gap = estimates(r.games, r.seats).loc["seat_gap"]
        rows["meta_seat_gap"] = (float(gap["value"]), float(gap["lo"]), float(gap["hi"]),
                                 len(r.games), float(gap["se"]))
    table = pd.DataFrame.from_dict(rows, orient="index", columns=["value", "lo", "hi", "n", "se"])
    table.index.name = "metric"
    return table.assign(se=lambda t: t["se"].where(t["se"] > 0, math.nan))
