"""`mobsim advise`: the verdict's problems at the good rungs (a seat outside the tolerance, game
length outside its target) and candidate rule changes measured against them, paired.

Each candidate (a `--try KEY=VALUE[,KEY=VALUE]` change, or by default the game's designer knobs,
sim.rules `source = "designer"`, and one step down and up of each numeric option asked with
`--param`) is played on the same game ids as today's rules (common random numbers) at every good
rung and player count; a problem's proposals are the three candidates that bring its measure
nearest the target, each with its reading there (fair / unfair by X points [lo, hi] / cannot
tell yet) at every cell and its paired effect on every other measure. The games per cell come
from the tolerance: enough for a seat's 95% interval to be half the tolerance wide.

The strong players are not re-fitted to a candidate's rules: a preset tuned for today's rules
plays the changed game (the page says so)."""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

from sim.runner.executor import uses_scheduler
from sim.verdict import fairness
from sim.verdict.measures import cell_measures, paired_change, per_game
from sim.verdict.plan import games_for_precision

PROPOSALS = 3
REFIT_NOTE = ("The players were not re-fitted to a candidate's rules: each rung plays the changed game "
              "with the preset fitted to today's rules.")


@dataclass
class Advice:
    problems: list[dict]                    # each with its proposals
    cells: pd.DataFrame                     # (candidate, rung, players, measure, estimate, lo, hi, games)
    changes: pd.DataFrame                   # each candidate's paired change from today's rules
    meta: dict = field(default_factory=dict)


def games_for(tolerance: float, players: int) -> int:
    """Games a cell needs for a seat's 95% interval to be half the tolerance wide."""
    return games_for_precision(1 / players, tolerance / 2)


def check_rungs(rungs, game: str) -> None:
    """Every rung loadable in `game`, or a one-line VerdictError."""
    import strategies
    from strategies import mixture
    from sim.verdict.study import VerdictError

    for name in rungs:
        try:
            mixture.load(name, game) if mixture.is_mixture(name) else strategies.load(name, game)
        except (strategies.StrategyError, OSError, ValueError) as err:
            raise VerdictError(f"rung {name!r}: {' '.join(str(err).split())}") from None


def default_candidates(game: str) -> list[dict]:
    """The game's designer knobs at each of their other values (a choice), or paying one seat
    $1,000-$3,000 at a time (a per-seat money list)."""
    from sim.rules.ruleset import options

    out = []
    for key, option in options(game).items():
        if not getattr(option, "designer", False):
            continue
        if option.type == "choice":
            out += [{key: c} for c in option.choices if c != option.default]
        elif option.type == "money_list":
            for seat in range(len(option.default)):
                for amount in (1000, 2000, 3000):
                    money = [0] * len(option.default)
                    money[seat] = amount
                    out.append({key: money})
    return out


def problems_of(cells: pd.DataFrame, tolerance: float, targets: dict) -> list[dict]:
    """Every (measure, players) of today's rules whose reading at the good rungs is outside."""
    base = cells[cells["candidate"] == ""]
    found = []
    for (measure, n), part in base.groupby(["measure", "players"], sort=False):
        got = fairness.reading(measure, _cells(part), tolerance, targets)
        if got["target"] == fairness.OUTSIDE:
            found.append({"measure": measure, "players": int(n), "reading": got["target_text"]})
    return found


def _cells(part: pd.DataFrame) -> list[tuple]:
    return [(r.rung, r.estimate, r.lo, r.hi, int(r.games)) for r in part.itertuples()]


def proposals(cells: pd.DataFrame, changes: pd.DataFrame, problem: dict, tolerance: float,
              targets: dict) -> list[dict]:
    """The candidates that bring the problem's measure nearest its target, best first."""
    band = fairness.band_of(problem["measure"], tolerance, targets)
    ranked = []
    for candidate, part in cells[cells["candidate"] != ""].groupby("candidate", sort=False):
        mine = part[(part["measure"] == problem["measure"]) & (part["players"] == problem["players"])]
        if mine.empty:
            continue
        got = fairness.reading(problem["measure"], _cells(mine), tolerance, targets)
        worst = max(_distance(r.estimate, band) for r in mine.itertuples())
        effect = changes[(changes["candidate"] == candidate) & (changes["measure"] == problem["measure"])
                         & (changes["players"] == problem["players"])]
        ranked.append((worst, {"change": candidate, "reading": got["target_text"],
                               "fixes": got["target"] == fairness.WITHIN,
                               "effect": _effects(effect), "side_effects": side_effects(changes, candidate, problem)}))
    ranked.sort(key=lambda p: p[0])
    return [p for _, p in ranked[:PROPOSALS]]


def _distance(estimate: float, band) -> float:
    low, high, _ = band
    return max(low - estimate, estimate - high, 0.0)


def _effects(rows: pd.DataFrame) -> list[dict]:
    return [{"rung": r.rung, "players": int(r.players), "change": r.change, "lo": r.lo, "hi": r.hi,
             "text": _paired_text(r.measure, r.change, r.lo, r.hi)} for r in rows.itertuples()]


def _paired_text(measure, change, lo, hi) -> str:
    from sim.verdict.units import show, with_unit

    return f"{with_unit(measure, show(measure, change, True))} [{show(measure, lo, True)}, {show(measure, hi, True)}]"


def side_effects(changes: pd.DataFrame, candidate: str, problem: dict) -> str:
    """The other measures the candidate moves beyond noise (paired), or "the rest within noise"."""
    rows = changes[(changes["candidate"] == candidate) & (changes["measure"] != problem["measure"])
                   & ((changes["lo"] > 0) | (changes["hi"] < 0))]
    if rows.empty:
        return "leaves the rest within noise"
    cells = changes[changes["candidate"] == candidate].groupby("measure")["rung"].size()
    parts = []
    for measure, part in rows.groupby("measure", sort=False):
        r = part.loc[part["change"].abs().idxmax()]   # the largest move, named with its cell
        parts.append(f"{measure} {_paired_text(measure, r['change'], r['lo'], r['hi'])} at {r['rung']}, "
                     f"{r['players']} players (moved in {len(part)} of {cells[measure]} cells)")
    return "; ".join(parts)


def label(change: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in change.items())


def measure_cells(frames: dict) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Every cell's measures, and each candidate's paired change from today's rules.
    `frames` {(candidate label, rung, players): per-game table}; "" is today's rules."""
    rows, changes = [], []
    for (candidate, rung, n), frame in frames.items():
        cols = [c for c in frame.columns if not frame[c].isna().all()]
        for row in cell_measures(frame[cols]):
            rows.append({"candidate": candidate, "rung": rung, "players": n} | row)
        if candidate:
            base = frames[("", rung, n)]
            keep = [c for c in base.columns if c in cols and c not in ("rung", "players")]
            for row in paired_change(base[keep], frame[keep]):
                changes.append({"candidate": candidate, "rung": rung, "players": n, "measure": row["measure"],
                                "change": row["estimate"], "lo": row["lo"], "hi": row["hi"]})
    return pd.DataFrame(rows), pd.DataFrame(changes, columns=["candidate", "rung", "players", "measure", "change",
                                                             "lo", "hi"])


@uses_scheduler
def advise(game: str, players, rungs=None, tolerance: float = fairness.DEFAULT_TOLERANCE, targets=None,
           candidates=None, games: int | None = None, seed: int = 0, workers: int = 1, progress=None,
           scheduler: str | None = None) -> Advice:
    """Play today's rules and every candidate at the good rungs and player counts, on the same
    game ids, and propose per problem the three candidates nearest the target."""
    from sim.verdict.study import _play, is_search, rungs_of

    targets = targets or {}
    asked = list(rungs or fairness.good_rungs(rungs_of(game)))
    check_rungs(asked, game)
    good = [r for r in asked if not is_search(r, game)]
    candidates = default_candidates(game) if candidates is None else list(candidates)
    points = [{}] + candidates
    frames, step = {}, 0
    total = len(points) * len(good) * len(players)
    for point in points:
        for n in players:
            count = games or games_for(tolerance, n)
            for rung in good:
                result = _play(game, n, rung, count, seed, None, point, workers)
                frame = per_game(result.games, result.seats, result.turns)
                frames[(label(point), rung, n)] = frame.assign(rung=rung)
                step += 1
                if progress:
                    progress(step, total, f"{label(point) or 'today'}: {rung} x{n}")
    cells, changes = measure_cells(frames)
    found = problems_of(cells, tolerance, targets)
    for problem in found:
        problem["proposals"] = proposals(cells, changes, problem, tolerance, targets)
    meta = {"game": game, "players": list(players), "rungs": good, "tolerance": tolerance,
            "targets": {k: list(v) for k, v in targets.items()}, "seed": seed,
            "games": {str(n): games or games_for(tolerance, n) for n in players},
            "candidates": [label(c) for c in candidates], "note": REFIT_NOTE,
            "not_played": [r for r in asked if r not in good]}
    return Advice(found, cells, changes, meta)



def write(advice: Advice, out) -> None:
    """advice.json (per problem its proposals), advice.csv (one row per proposal), cells.csv,
    changes.csv and the page (index.md/html)."""
    import json
    from pathlib import Path

    from sim.analysis.report import Report

    root = Path(out)
    root.mkdir(parents=True, exist_ok=True)
    (root / "advice.json").write_text(json.dumps({"meta": advice.meta, "problems": advice.problems},
                                                 indent=1, default=str) + "\n")
    table = pd.DataFrame([{"measure": p["measure"], "players": p["players"], "today": p["reading"],
                           "change": q["change"], "reading": q["reading"], "fixes": q["fixes"],
                           "side_effects": q["side_effects"]}
                          for p in advice.problems for q in p["proposals"]],
                         columns=["measure", "players", "today", "change", "reading", "fixes", "side_effects"])
    table.to_csv(root / "advice.csv", index=False)
    advice.cells.to_csv(root / "cells.csv", index=False)
    advice.changes.to_csv(root / "changes.csv", index=False)
    report = Report(f"mobsim advise: {advice.meta['game']}", {"game": advice.meta["game"]})
    report.heading("Problems and proposed changes")
    report.summary(first_screen(advice))
    report.table(table, "Per problem, the three candidates nearest the target, each read at the good rungs on "
                        "the same games as today's rules (paired)", name="advice")
    report.text(REFIT_NOTE)
    report.write(root)


def first_screen(advice: Advice) -> str:
    """The answer in words: each problem and its best proposal."""
    if not advice.problems:
        return (f"No problem at the good rungs ({', '.join(advice.meta['rungs'])}): every seat within "
                f"±{100 * advice.meta['tolerance']:.1f} points or not yet told apart, and game length on its target.")
    lines = []
    for p in advice.problems:
        best = p["proposals"][0] if p["proposals"] else None
        lines.append(f"{p['measure']} at {p['players']} players: {p['reading']}; "
                     + (f"best change {best['change']}: {best['reading']} ({best['side_effects']})."
                        if best else "no candidate played."))
    return " ".join(lines)
