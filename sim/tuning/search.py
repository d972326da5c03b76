"""Automatic balancing: find rule values inside a box that meet targets on the headline metrics.

    result = tune(params={"missions.reward_scale": (0.5, 2.0), "provocation.stake": (1000, 5000)},
                  targets=["seat_gap<=0.02", "turns=9:12"], budget=2_000_000, seed=1)
    result.best, result.final_targets, result.games_spent, result.to_json()

The search is successive halving with common random numbers. Candidates are a Latin hypercube of
the box (the current rules, pulled into the box, among them). In each round every surviving
candidate plays the same games (one seed per round, so candidates are compared game for game),
then the better half (1/eta) goes on to the next round, which gives each survivor more games.
A candidate's score is its total violation of the targets, each target's excess measured in
units of that metric's standard error at the first round (so targets of different metrics weigh
alike); candidates meeting every target are ranked by their smallest margin inside the targets.
The winner is then played again on fresh games (a seed the search never used), and its metrics
with their 95% intervals are the evidence reported, beside today's rules (the study's base rules)
played on the very same games (the baseline, paired by common random numbers). A fifth of the
budget goes to each of those two final evaluations by default. A winner worse than the baseline
on any target (its excess over the target larger) is flagged and not recommended: the result is
then to keep today's rules. The whole search is deterministic for a seed.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from sim.runner.executor import uses_scheduler
from sim.tuning.errors import TuningError
from sim.tuning.grid import checked, numeric_option, parse_box, snap
from sim.tuning.study import Evaluation, Study, derived_seed, point_dir, show_point, strategy_names
from sim.tuning import meta_targets
from sim.tuning.targets import Target, parse_targets

MAX_CANDIDATES = 64
MIN_GAMES = 200          # fewest games a candidate plays in the first round
FINAL_SHARE = 0.2
FINAL_ROUND = 2**20      # the final evaluation's seed path: never one of the rounds'


@dataclass
class TuneResult:
    """The best settings found, the evidence at the final evaluation and the search's history."""

    best: dict
    final: Evaluation
    targets: list[Target]
    scales: dict
    history: pd.DataFrame
    games_spent: int
    budget: int
    seed: int
    provenance: dict = field(default_factory=dict)
    baseline: Evaluation | None = None     # today's rules on the final evaluation's games

    def _targets_of(self, ev: Evaluation) -> pd.DataFrame:
        rows = []
        for t in self.targets:
            value, lo, hi = ev.metric(t.metric)
            rows.append({"metric": t.metric, "target": t.text, "value": value, "lo": lo, "hi": hi,
                         "status": t.status(value, lo, hi), "excess": t.excess(value)})
        return pd.DataFrame(rows)

    @property
    def baseline_targets(self) -> pd.DataFrame:
        """Each target under today's rules, on the final evaluation's games."""
        return self._targets_of(self.baseline if self.baseline is not None else self.final)

    @property
    def worse_than_baseline(self) -> list[str]:
        """The targets the winner misses by more than today's rules do (by value, on the same games)."""
        mine, base = self.final_targets, self.baseline_targets
        return [t for t, a, b in zip(mine["target"], mine["excess"], base["excess"], strict=True) if a > b + 1e-12]

    @property
    def recommended(self) -> dict:
        """The settings to use: the winner, or no change ({}: today's rules) when it is worse than
        them on any target."""
        return {} if self.worse_than_baseline else dict(self.best)

    @property
    def final_targets(self) -> pd.DataFrame:
        """Each target at the final evaluation: value, 95% interval, status (met/likely/missed)."""
        return self._targets_of(self.final)

    @property
    def met(self) -> bool:
        """Whether the best settings meet every target at the final evaluation (by value)."""
        return bool(self.final_targets["status"].isin(["met", "likely"]).all())

    def to_json(self) -> dict:
        """Everything needed to check the result: provenance, history, best, final evidence."""
        final = self.final
        return {
            **self.provenance,
            "seed": self.seed,
            "budget": self.budget,
            "games_spent": self.games_spent,
            "targets": [{"text": t.text, "metric": t.metric, "lo": _finite(t.lo), "hi": _finite(t.hi),
                         "scale": self.scales[t.metric]} for t in self.targets],
            "best": {"params": self.best, "fingerprint": final.fingerprint,
                     "worse_than_baseline": self.worse_than_baseline, "recommended": self.recommended},
            "baseline": {"params": {}, "games": (self.baseline or final).games,
                         "targets": _records(self.baseline_targets)},
            "final": {
                "seed": final.seed, "games": final.games, "met": self.met,
                "targets": _records(self.final_targets),
                "metrics": {m: {k: _finite(v) for k, v in row.items()}
                            for m, row in final.headline.to_dict(orient="index").items()},
            },
            "history": _records(self.history),
        }


def _finite(x):
    if isinstance(x, float | np.floating) and not math.isfinite(x):
        return None
    return x.item() if isinstance(x, np.generic) else x


def _records(frame: pd.DataFrame) -> list[dict]:
    return [{k: _finite(v) for k, v in row.items()} for row in frame.to_dict(orient="records")]


# --- the box ------------------------------------------------------------------------------------

def parse_params(params, game: str = "nyk") -> dict[str, tuple]:
    """{key: (lo, hi)} from a dict or from "key=lo:hi" strings, every end checked."""
    if isinstance(params, str):
        params = [params]
    if isinstance(params, dict):
        items = [f"{k}={_text(v, k)}" for k, v in params.items()]
    else:
        items = list(params or ())
    if not items:
        raise TuningError("--param: give at least one option to tune as KEY=LO:HI "
                          "(e.g. missions.reward_scale=0.5:2)")
    box = {}
    for item in items:
        key, lo, hi = parse_box(item, game)
        if key in box:
            raise TuningError(f"--param: {key} is given twice")
        box[key] = (lo, hi)
    return box


def _text(bounds, key: str) -> str:
    if not isinstance(bounds, list | tuple) or len(bounds) != 2:
        raise TuningError(f"params: {key} needs (lo, hi), not {bounds!r}")
    return f"{bounds[0]}:{bounds[1]}"


def distinct_points(box: dict, game: str = "nyk") -> float:
    """How many settings the box holds (infinite with a float option)."""
    total = 1.0
    for key, (lo, hi) in box.items():
        option = numeric_option(key, game)
        if option.type == "float":
            return math.inf
        total *= int(round((hi - lo) / (1000 if option.type == "money" else 1))) + 1
    return total


def snap_within(option, x: float, lo, hi):
    """`x` clipped to [lo, hi] and rounded to the option's step; a float to about a hundredth of
    the box (settings closer than that are not told apart by any affordable number of games)."""
    x = min(max(x, lo), hi)
    if option.type != "float":
        return snap(option, x)
    step = 10.0 ** math.floor(math.log10((hi - lo) / 100))
    decimals = max(0, -int(math.floor(math.log10(step))))
    return round(min(max(round(x / step) * step, lo), hi), decimals)


def latin_candidates(box: dict, n: int, rng: np.random.Generator, start: dict,
                     game: str = "nyk") -> list[dict]:
    """`start` pulled into the box, then a Latin hypercube of the box, rounded to each option's
    step, without repeats, until there are `n` candidates (or the box has no more)."""
    keys = list(box)
    opts = {k: numeric_option(k, game) for k in keys}

    def setting(key, x):
        return checked(opts[key], snap_within(opts[key], x, *box[key]))

    clipped = {k: setting(k, start[k]) for k in keys}
    out = [clipped]
    for _ in range(20):  # rounding can repeat points in small integer boxes: draw again
        if len(out) >= n:
            break
        cube = (rng.permuted(np.tile(np.arange(n), (len(keys), 1)), axis=1).T
                + rng.random((n, len(keys)))) / n
        for row in cube:
            point = {k: setting(k, box[k][0] + u * (box[k][1] - box[k][0]))
                     for k, u in zip(keys, row, strict=True)}
            if point not in out:
                out.append(point)
            if len(out) >= n:
                break
    return out


# --- the budget ---------------------------------------------------------------------------------

def rounds_for(n: int, eta: int) -> int:
    """Rounds of halving (by eta) that leave one candidate out of n."""
    rounds, left = 0, n
    while left > 1:
        left = math.ceil(left / eta)
        rounds += 1
    return rounds


def plan_budget(budget: int, eta: int, candidates: int | None, box_size: float,
                min_games: int = MIN_GAMES, final_share: float = FINAL_SHARE) -> tuple[int, int, int]:
    """(candidates, rounds, final games): the most candidates (a power of eta, at most 64) whose
    first round still gives each at least `min_games` games, within the budget."""
    final = max(min_games, int(budget * final_share))
    search = budget - 2 * final   # the winner's final evaluation and today's rules on its games

    def affordable(n):
        return n <= min(MAX_CANDIDATES, box_size) and search // (rounds_for(n, eta) * n) >= min_games

    if candidates is None:
        candidates = 2
        while affordable(candidates * eta):
            candidates *= eta
        if box_size < candidates * eta and affordable(box_size):  # a small box: try all of it
            candidates = box_size
    candidates = int(min(candidates, box_size))
    if candidates < 2:
        raise TuningError("the box holds a single setting: widen a --param range")
    rounds = rounds_for(candidates, eta)
    if search // (rounds * candidates) < min_games:
        need = rounds * candidates * min_games + 2 * final
        raise TuningError(f"budget {budget:,} is too small for {candidates} candidates: give at "
                          f"least {need:,} games (--budget) or fewer candidates")
    return candidates, rounds, final


# --- scores -------------------------------------------------------------------------------------

def target_scales(evaluations: list[Evaluation], targets: list[Target]) -> dict[str, float]:
    """Each target metric's unit of violation: its median standard error over the first round."""
    scales = {}
    for t in targets:
        errors = [ev.standard_error(t.metric) for ev in evaluations]
        errors = [e for e in errors if e > 0 and math.isfinite(e)]
        scales[t.metric] = float(np.median(errors)) if errors else 0.01 * t.scale_hint()
    return scales


def games_needed(scale: float, target: Target, games: int) -> int:
    """Games a candidate needs for the metric's standard error to be at most half the target's
    tolerance (a 95% interval about as wide as the target), from its error at `games` games."""
    tol = target.tolerance()
    if not (math.isfinite(tol) and scale > 0):
        return 0
    return math.ceil(games * (scale / (tol / 2)) ** 2)


def check_precision(scales: dict, targets, each: int, rounds: int, candidates: int):
    """No candidate is dropped on fewer games than its targets need: after the first round
    measures the standard errors, a one-line refusal with the budget that would do."""
    short = [(t, games_needed(scales[t.metric], t, each)) for t in targets]
    short = [(t, need) for t, need in short if need > each]
    if not short:
        return
    target, need = max(short, key=lambda p: p[1])
    budget = math.ceil(need * rounds * candidates / (1 - 2 * FINAL_SHARE))   # the search's share of a budget
    raise TuningError(f"{each:,} games a candidate cannot tell candidates apart on {target.text}: a standard "
                      f"error of {scales[target.metric]:.3g} against a tolerance of {target.tolerance():.3g} "
                      f"needs about {need:,} games a candidate in the first round; give --budget "
                      f"{budget:,} or fewer --candidates")


def score(ev: Evaluation, targets: list[Target], scales: dict) -> tuple[float, float]:
    """(total violation, smallest margin inside), both in units of each metric's scale."""
    total, margin = 0.0, math.inf
    for t in targets:
        value = ev.metric(t.metric)[0]
        total += t.excess(value) / scales[t.metric]
        margin = min(margin, t.slack(value) / scales[t.metric])
    return total, margin


# --- the search ---------------------------------------------------------------------------------

@uses_scheduler
def tune(params, targets, budget: int, players: int = 4, strategies="simple", seed: int = 0,
         ruleset=None, overrides: dict | None = None, workers: int | None = None,
         candidates: int | None = None, eta: int = 2, min_games: int = MIN_GAMES,
         final_share: float = FINAL_SHARE, out=None, game: str = "nyk",
         on_round: Callable | None = None, force: bool = False, scheduler: str | None = None) -> TuneResult:
    """Search the box `params` ({key: (lo, hi)} or "key=lo:hi" strings) for settings meeting the
    `targets` (strings or Targets) within `budget` games in all; see the module doc.

    With `out`, every candidate's run is kept in `out/round-<r>/points/` (the final one in
    `out/final/points/`): an interrupted search given again reads its finished runs back (the
    candidates and seeds depend on the arguments only) and plays the rest; `force` plays all again.

    `on_round(round, candidates, games_each)` is called before each round (progress reports).
    """
    box = parse_params(params, game)
    names = strategy_names(strategies)
    if isinstance(targets, str | Target):
        targets = [targets]
    targets = parse_targets([t.text if isinstance(t, Target) else t for t in targets or ()], names, game)
    _check_search(budget, seed, eta, candidates, min_games, final_share)
    study = Study(players=players, strategies=names, ruleset=ruleset, overrides=overrides or {},
                  game=game, workers=workers, meta=meta_targets.wanted(targets))
    study.check()
    n, rounds, final_games = plan_budget(budget, eta, candidates, distinct_points(box, game),
                                         min_games, final_share)
    rng = np.random.default_rng(np.random.SeedSequence([seed, 0x7475]))
    pool = [p for p in latin_candidates(box, n, rng, study.base_values(box), game) if _valid(study, p)]
    if len(pool) < 2:
        raise TuningError("fewer than two settings in the box are valid rules: widen or move a --param")
    alive = list(range(len(pool)))
    search_budget = budget - 2 * final_games
    history, scales, spent = [], None, 0
    for r in range(rounds):
        each = search_budget // (rounds * len(alive))
        round_seed = derived_seed(seed, r)
        if on_round is not None:
            on_round(r, len(alive), each)
        evaluations = {i: study.evaluate(pool[i], each, round_seed, _kept(out, study, f"round-{r}", pool[i]),
                                         force, keep_tables=False) for i in alive}
        spent += each * len(alive)
        if scales is None:
            scales = target_scales(list(evaluations.values()), targets)
            check_precision(scales, targets, each, rounds, len(alive))
        ranked = sorted(alive, key=lambda i: (*_key(evaluations[i], targets, scales), i))
        keep = set(ranked[: max(1, math.ceil(len(alive) / eta))])
        for i in alive:
            total, margin = score(evaluations[i], targets, scales)
            history.append({"round": r, "seed": round_seed, "games": each, "candidate": i,
                            **pool[i], "violation": total, "inside": margin, "kept": i in keep,
                            **{t.metric: evaluations[i].metric(t.metric)[0] for t in targets}})
        alive = [i for i in ranked if i in keep]
    best = pool[alive[0]]
    final_seed = derived_seed(seed, FINAL_ROUND)
    if on_round is not None:
        on_round(rounds, 1, final_games)
    final = study.evaluate(best, final_games, final_seed, _kept(out, study, "final", best), force,
                           keep_tables=False)
    baseline = study.evaluate({}, final_games, final_seed, _kept(out, study, "final", {}), force,
                              keep_tables=False)   # same games: paired
    spent += 2 * final_games
    provenance = {"game": game, "players": players, "strategies": list(names),
                  "ruleset": {"file": None if ruleset is None else str(ruleset),
                              "fingerprint": study.ruleset_for({}).fingerprint,
                              "fixed": dict(study.overrides)},
                  "box": {k: list(v) for k, v in box.items()}, "eta": eta, "candidates": len(pool),
                  "rounds": rounds, "final_share": final_share}
    result = TuneResult(best=best, final=final, targets=targets, scales=scales,
                        history=pd.DataFrame(history), games_spent=spent, budget=budget, seed=seed,
                        provenance=provenance, baseline=baseline)
    if out is not None:
        write_tune(out, result)
    return result


def _kept(out, study: Study, stage: str, point: dict):
    """Where a candidate's run of one stage (a round, or the final evaluation) is kept: a point's
    runs of different rounds play other games, so each stage has its own folder."""
    return None if out is None else point_dir(Path(out) / stage, study, point)


def _key(ev: Evaluation, targets, scales) -> tuple[float, float]:
    total, margin = score(ev, targets, scales)
    return total, -margin


def _valid(study: Study, point: dict) -> bool:
    try:
        study.ruleset_for(point)
    except TuningError:
        return False
    return True


def _check_search(budget, seed, eta, candidates, min_games, final_share):
    def whole(value, least):
        return isinstance(value, int) and not isinstance(value, bool) and value >= least

    if not whole(budget, 1):
        raise TuningError(f"budget must be a whole number of games, not {budget!r}")
    if not whole(seed, 0):
        raise TuningError(f"seed must be a whole number >= 0, not {seed!r}")
    if not whole(eta, 2):
        raise TuningError(f"eta (the halving factor) must be a whole number of at least 2, not {eta!r}")
    if candidates is not None and not whole(candidates, 2):
        raise TuningError(f"candidates must be a whole number of at least 2, not {candidates!r}")
    if not whole(min_games, 1):
        raise TuningError(f"min_games must be a whole number of at least 1, not {min_games!r}")
    if not 0 < final_share < 1:
        raise TuningError(f"final_share must be between 0 and 1, not {final_share!r}")


# --- output -------------------------------------------------------------------------------------

def write_tune(out, result: TuneResult) -> Path:
    """tune.json (provenance, history, best settings, final evidence) and the index pages."""
    from sim import __version__
    from sim.analysis.report import Report

    root = Path(out)
    root.mkdir(parents=True, exist_ok=True)
    path = root / "tune.json"
    path.write_text(json.dumps({"mobsim_version": __version__, **result.to_json()}, indent=2) + "\n")
    p = result.provenance
    report = Report("Automatic balancing", {
        "mobsim version": __version__, "players": str(p["players"]),
        "strategies": ",".join(p["strategies"]), "seed": str(result.seed),
        "budget": f"{result.budget:,} games", "games spent": f"{result.games_spent:,}",
        "base rules": p["ruleset"]["fingerprint"][:12]})
    report.heading("Best settings" if not result.worse_than_baseline else "No change recommended")
    report.text(verdict_sentence(result))
    report.table(targets_beside_baseline(result), "Targets at the final evaluation, the search's pick and "
                 "today's rules on the same fresh games (95% intervals; met: the whole interval inside, "
                 "missed: wholly outside, likely/unlikely: the interval reaches across the target)",
                 name="targets")
    report.table(result.final.headline.reset_index(), "Every headline metric at the final evaluation",
                 name="final-metrics")
    report.heading("Search")
    report.text(f"Successive halving over {p['candidates']} candidates in {p['rounds']} rounds "
                f"(eta {p['eta']}); in each round the candidates play the same games.")
    report.table(result.history, "Every candidate in every round", name="history")
    report.write(root)
    return path


def verdict_sentence(result: TuneResult) -> str:
    """What the search found, never a winner worse than today's rules presented as the result."""
    games = f"{result.final.games:,} fresh games"
    worse = result.worse_than_baseline
    if worse:
        return (f"Keep today's rules: the search's pick ({show_point(result.best)}) does worse than "
                f"today's rules on {', '.join(worse)}, measured on the same {games}.")
    return (f"{show_point(result.best)}: " + ("meets every target" if result.met else "misses a target")
            + f" at the final evaluation ({games}), no worse than today's rules on any target.")


def targets_beside_baseline(result: TuneResult) -> pd.DataFrame:
    """One row per target and rules (the search's pick, today's rules)."""
    pick = result.final_targets.assign(rules=show_point(result.best))
    base = result.baseline_targets.assign(rules="today's rules")
    table = pd.concat([pick, base], ignore_index=True)
    picked = table["rules"] != "today's rules"
    table["worse_than_baseline"] = table["target"].isin(result.worse_than_baseline) & picked
    return table[["target", "rules", "value", "lo", "hi", "status", "excess", "worse_than_baseline"]]
