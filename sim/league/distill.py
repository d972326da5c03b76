"""A fast New York Kings player distilled from the search (expert iteration into the heuristic's knobs).

Each round: the apprentice (a `param` preset, `tuned` at first) plays games against itself; the
expert, Sequential Halving with the apprentice as rollout and the leaf model at its leaves
(the search of the `search-leaf-all` preset), labels every decision of one seat a game
(sim.search.nyk_distill.label). Then the cross-entropy method moves the apprentice's knobs to
agree with the expert: a candidate's score is the share of labelled decisions at which it takes
the expert's option, over the same states for every candidate (the comparison is paired). The
last quarter of the labelled games is held out: the agreement there says whether the fit
generalises. The final mean is the next round's apprentice (unless it agrees no better on the
fitted games than the apprentice did: then the apprentice stays), whose own games (new ids) give
the next round's states, labelled by the search with it as rollout. Anchors: expert iteration
(Anthony, Tian & Barber 2017) and DAgger (Ross, Gordon & Bagnell 2011), here into the knobs of a
heuristic rather than a network.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime

import numpy as np

from sim.league.games import knobs as game_knobs, ruleset as ruleset_of
from sim.league.match import Pool
from sim.runner.executor import uses_scheduler

DEFAULT_KNOBS = {"budget": 200, "guard": 2.0, "horizon": 0}  # the expert: search-leaf-all's search
BLOCK = 4  # games a labelling task: the expert takes about a second a game
DECISIONS_A_GAME = 2000  # room for one seat's decisions in a game (a few hundred are met)


@dataclass
class Labels:
    """The expert's labels of the apprentice's games: game ids (of run `seed`, `players` seats,
    rules `rules`), the labelled seat of each, and one row per decision (sim.search.nyk_distill, L_*)."""

    game_ids: np.ndarray
    seats: np.ndarray
    rows: np.ndarray
    seed: int
    players: int
    rules: tuple

    @property
    def departures(self) -> np.ndarray:
        from sim.search.nyk_distill import L_EXPERT, L_OWN

        return self.rows[:, L_EXPERT] != self.rows[:, L_OWN]


@dataclass
class DistillResult:
    params: dict[str, float]
    rounds: list[dict]
    provenance: dict = field(default_factory=dict)

    def toml(self, name: str = "distilled") -> str:
        doc = (f"Distilled from the search (expert iteration): {self.provenance.get('start', 'tuned')}'s knobs "
               "moved by the cross-entropy method to agree with Sequential Halving's choices (search-leaf-all) "
               "on the states the player meets.")
        return game_knobs("nyk").preset_toml(name, self.params, doc, self.provenance)


def _env(apprentice, players: int, rules: tuple):
    from sim.nyk.env import make_env
    from sim.nyk.game import Lineup
    from sim.nyk.state import MAX_SEATS

    lineup = Lineup.of_strategies([apprentice] * players, players, rotate=False)
    env = make_env(ruleset_of(*rules), *lineup.seated(np.arange(players), MAX_SEATS))
    return np.array([env, env]).view(np.recarray)


def _records(n: int):
    from sim.nyk import state

    return np.zeros(n, state.GAME_DTYPE).view(np.recarray)


def _label_block(task) -> np.ndarray:
    """The label rows of a block of games (runs in a worker; game indices local to the block)."""
    from sim import rng
    from sim.nyk.state import ALL_KINDS
    from sim.search import nyk_distill as nd
    from sim.search.nyk import leaf_model

    apprentice, players, rules, seed, ids, budget, guard, horizon = task
    envs, recs = _env(apprentice, players, rules), _records(5)
    ids = np.asarray(ids, dtype=np.int64)
    labels = np.zeros((len(ids) * DECISIONS_A_GAME, nd.N_L), dtype=np.int64)
    n = nd.label(recs[0], recs[1], envs[0], envs[1], recs[2], recs[3], recs[4], players, rng.run_key(seed), ids,
                 ids % players, ALL_KINDS, budget, guard, horizon, leaf_model(horizon >= 0), labels)
    if n < 0:
        raise RuntimeError("the engine failed while the search labelled the apprentice's games")
    return labels[:n]


def label_games(apprentice, games: int, seed: int, players: int = 4, rules: tuple = (None, (), "nyk"),
                pool: Pool | None = None, first_id: int = 0, budget: int = DEFAULT_KNOBS["budget"],
                guard: float = DEFAULT_KNOBS["guard"], horizon: int = DEFAULT_KNOBS["horizon"]) -> Labels:
    """The expert's labels of `games` games of `apprentice` against itself (game ids from
    `first_id`; seat game_id % players labelled)."""
    from sim.search.nyk_distill import L_GAME

    ids = np.arange(first_id, first_id + games, dtype=np.int64)
    blocks = [ids[i:i + BLOCK] for i in range(0, games, BLOCK)]
    tasks = [(apprentice, players, rules, seed, tuple(int(g) for g in b), budget, guard, horizon) for b in blocks]
    parts = (pool or Pool(1)).map(tasks, play=_label_block)
    for k, part in enumerate(parts):
        part[:, L_GAME] += k * BLOCK
    rows = np.concatenate(parts) if parts else np.zeros((0, 5), dtype=np.int64)
    return Labels(ids, ids % players, rows, seed, players, rules)


def candidate_picks(apprentice, labels: Labels, candidates: np.ndarray) -> np.ndarray:
    """picks[c, j]: the option knob row c takes at label row j (the labelled games replayed)."""
    from sim import rng
    from sim.nyk.state import ALL_KINDS
    from sim.search.nyk_distill import agreement

    envs, recs = _env(apprentice, labels.players, labels.rules), _records(2)
    picks = np.full((len(candidates), len(labels.rows)), -1, dtype=np.int64)
    n = agreement(recs[0], recs[1], envs[0], labels.players, rng.run_key(labels.seed), labels.game_ids,
                  labels.seats, ALL_KINDS, labels.rows, np.ascontiguousarray(candidates, dtype=np.float64), picks)
    if n != len(labels.rows):
        raise RuntimeError("the replayed games do not meet the labelled decisions: label them again "
                           "with the same apprentice, rules and seed")
    return picks


@uses_scheduler
def distill(seed: int = 0, rounds: int = 2, games: int = 200, generations: int = 12, population: int = 32,
            elite: int = 8, spread: float = 0.15, start: str = "tuned", players: int = 4, ruleset=None,
            overrides=None, workers: int | None = None, log=None, scheduler: str | None = None) -> DistillResult:
    """`rounds` of expert iteration from `start` (module doc); `games` labelled games a round."""
    from sim.league.match import ruleset_key
    from sim.provenance import engine_commit

    if games < 4:
        raise ValueError(f"games = {games}: label at least 4 games (a quarter is held out)")
    if not 2 <= elite < population:
        raise ValueError(f"elite = {elite}, population = {population}: keep 2 <= elite < population")
    box = game_knobs("nyk")
    rules = ruleset_key(ruleset, overrides)
    apprentice = box.resolve(start)
    history = []
    with Pool(workers) as pool:
        for r in range(rounds):
            labels = label_games(apprentice, games, seed, players, rules, pool, first_id=r * games)
            if log:
                log(f"round {r + 1}/{rounds}: {len(labels.rows)} decisions labelled, the search departs from "
                    f"the apprentice at {labels.departures.mean():.1%}")
            unit, row = fit_knobs(apprentice, labels, seed + r, generations, population, elite, spread, log)
            apprentice = box.strategy(f"distilled-{r + 1}", box.to_knobs(unit))
            history.append({"round": r + 1, "games": games, "labels": len(labels.rows),
                            "departures": round(float(labels.departures.mean()), 4), **row})
    provenance = {"method": "expert iteration: Sequential Halving labels, cross-entropy fit of the knobs",
                  "seed": seed, "rounds": rounds, "games_per_round": games, "generations": generations,
                  "population": population, "elite": elite, "spread": spread, "start": start,
                  "expert": "halving, " + ", ".join(f"{k} {v}" for k, v in DEFAULT_KNOBS.items()),
                  "players": players, "ruleset": str(ruleset) if ruleset else "default",
                  "overrides": {k: v for k, v in rules[1]}, "ruleset_fingerprint": ruleset_of(*rules).fingerprint,
                  "date": datetime.now(UTC).strftime("%Y-%m-%d"),
                  "engine_commit": engine_commit(),
                  "held_out_agreement": [h["held_out_after"] for h in history]}
    return DistillResult(dict(zip(box.names, apprentice.params, strict=True)), history, provenance)


def fit_knobs(apprentice, labels: Labels, seed: int, generations: int, population: int, elite: int,
              spread: float, log=None) -> tuple[np.ndarray, dict]:
    """The cross-entropy method over the unit knobs, from the apprentice's, to agree with the
    expert on the first three quarters of the labelled games; the mean found (the apprentice's
    own knobs if it agrees no better on the fitted games), and the agreement before and after on
    the fitted and the held-out games."""
    from sim.league.tune import cem_refit, cem_sample
    from sim.search.nyk_distill import L_EXPERT, L_GAME

    box = game_knobs("nyk")
    rng = np.random.default_rng(seed)
    fitted = labels.rows[:, L_GAME] < (3 * len(labels.game_ids)) // 4
    expert = labels.rows[:, L_EXPERT]
    start = mean = box.to_unit(apprentice.params)
    sd = np.full(len(mean), spread)

    def agreement(units):
        picks = candidate_picks(apprentice, labels, np.array([box.to_knobs(u) for u in units]))
        agree = picks == expert
        return agree[:, fitted].mean(axis=1), agree[:, ~fitted].mean(axis=1)

    (before_fit, *_), (before_held, *_) = agreement([mean])
    for gen in range(generations):
        units = cem_sample(mean, sd, population, rng)
        score, _ = agreement(units)
        chosen = np.array([units[i] for i in np.argsort(score, kind="stable")[::-1][:elite]])
        mean, sd = cem_refit(chosen, mean, sd, floor=0.02)
        if log:
            log(f"  generation {gen + 1}/{generations}: best agreement {score.max():.4f}")
    (after_fit, *_), (after_held, *_) = agreement([mean])
    if after_fit <= before_fit:  # no better imitation found: the apprentice stays as it was
        mean, after_fit, after_held = start, before_fit, before_held
    row = {"fitted_before": before_fit, "fitted_after": after_fit, "held_out_before": before_held,
           "held_out_after": after_held}
    return mean, {k: round(float(v), 4) for k, v in row.items()}
