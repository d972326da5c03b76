"""`mobsim advise`: the verdict's problems at the good rungs (a seat outside the tolerance, game
length or another measure outside its target) and, for each, the rule changes that fix it,
measured paired.

1. Today's rules (the defaults, or `--set` changes) are played at every good rung and player
   count; each measure the verdict's *fair?* / *on target?* rule reads outside is a problem.
2. Screen: every candidate (the game's designer knobs, the seat compensation included, at their
   other values or one seat at a time paid one to three steps; one step down and up of each
   numeric option, sim.tuning.sensitivity's steps; or the `--try` changes) is played on the
   strongest good rung on the first game ids of today's games (common random numbers) and its
   paired change of each problem's measure measured. A knob whose values moved a problem beyond
   noise is then tuned: the secant step between the values that bracket the band's middle (or
   the line through today's rules), snapped to the option's kind (sim.tuning.grid), screened in
   turn, for a few rounds.
3. Verify: the five candidates per problem the screen ranks likeliest to land inside the band
   (without pushing another seat out of it; `screened_rank`) are played at every
   good rung and player count on the same game ids as today's rules; the three best per problem
   are proposed, each with its reading, its paired effect on the problem's measure and on every
   other measure (95% intervals), and a sentence.
4. Confirm (successive halving): while no verified candidate fixes a problem, the best two whose
   every level is inside the band, not yet by its interval, are played again at that problem's
   player count on more games (the count their reading needs, at least twice as many as before,
   at most MAX_TODAY; today's rules too when they had fewer), for CONFIRM_ROUNDS rounds: a
   verification that cannot decide on the tolerance's count is decided on the games it needs,
   spent only on the candidates that can still fix the problem.

Counts come from the tolerance: a verification cell plays enough games for the paired interval
of a seat's change to be narrower than the tolerance (verify_games), a screening cell a quarter
of that (twice as wide), unless `--games` / `--screen-games` say otherwise.

The strong players are not re-fitted to a candidate's rules: a preset tuned for today's rules
plays the changed game (the page says so). With `refit` (`mobsim advise --refit`), the best
proposal per problem is verified once more, its players fitted to its rules first
(sim.league.refit, `refit_budget` games for each), on the same game ids: its reading and paired
change from today's rules (played by the shipped players) beside the unrefit one."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from sim.analysis.stats import Z95
from sim.league.refit import shipped_sentence
from sim.runner.executor import uses_scheduler
from sim.verdict import fairness
from sim.verdict.measures import cell_measures, paired_change, per_game
from sim.verdict.plan import games_for_precision

PROPOSALS = 3
LISTS = ("money_list", "int_list")   # per-seat options
TUNE_ROUNDS = 3     # secant steps of a knob's tuning in the screen
MAX_TODAY = 20_000   # most games a cell of today's rules plays to decide a suspected problem
VERIFY = 5          # candidates per problem the screen sends to verification
CONFIRM_ROUNDS = 3  # rounds of more games for the candidates that may fix an undecided problem
CONFIRM_KEEP = 2    # candidates per problem a confirmation round plays again
REFIT_NOTE = ("The players were not re-fitted to a candidate's rules: each rung plays the changed game "
              "with the preset fitted to today's rules.")
REFIT_NOTE_SOME = ("The players were not re-fitted to the other candidates' rules: each rung plays those "
                   "changed games with the preset fitted to today's rules; the best proposal per problem was "
                   "verified again with its players refit to its rules (its \"players refit\" reading).")
REFIT_SUFFIX = " (players refit)"   # a candidate verified again with its players refit to its rules


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


def default_candidates(game: str, current: dict | None = None, seats: int | None = None) -> list[dict]:
    """The game's designer knobs at each of their other values (a choice), or one seat at a time
    given one to three steps more of a per-seat list ($1,000-$3,000, or 1-3 of a count) than the
    current rules (`current`: the base ruleset's values; the defaults when None), for the first
    `seats` seats (every seat of the list when None)."""
    from sim.rules.ruleset import options

    out = []
    for key, option in options(game).items():
        if not option.designer:
            continue
        now = option.default if current is None else current[key]
        if option.type == "choice":
            out += [{key: c} for c in option.choices if c != now]
        elif option.type in LISTS:
            unit = 1000 if option.type == "money_list" else 1
            for seat in range(min(len(now), seats or len(now))):
                for steps in (1, 2, 3):
                    amounts = list(now)
                    amounts[seat] += steps * unit
                    out.append({key: amounts})
    return out


def undecided(cells: pd.DataFrame, tolerance: float, targets: dict, plan: Plan, most: int = MAX_TODAY) -> dict:
    """{players: games} where today's rules leave a measure undecided ("cannot tell yet") with an
    estimate outside its band at some rung: the games a cell that would decide it (the verdict's
    count), at most MAX_TODAY; today's rules are played again at that count (the first game ids
    the same), so that a problem the verdict would flag with more games is not missed."""
    base = cells[cells["candidate"] == ""]
    out: dict = {}
    for (measure, n), part in base.groupby(["measure", "players"], sort=False):
        band = fairness.band_of(measure, tolerance, targets)
        got = fairness.reading(measure, _cells(part), tolerance, targets)
        if band is None or got["target"] != fairness.UNSURE:
            continue
        if any(_distance(r.estimate, band) > 0 for r in part.itertuples()):
            count = min(int(got["target_games"]), most)
            if count > plan.verify[int(n)]:
                out[int(n)] = max(out.get(int(n), 0), count)
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
    """The three verified candidates best for the problem, best first: those whose every cell reads
    within the band, then those whose every level is inside it, then by the farthest level from
    the band; each with its reading, its paired effect on the problem's measure at every cell, on
    every other measure, and a sentence. A candidate's level at a cell is measured paired: today's
    level there (every game of today's rules) plus its paired change, with the paired interval
    (`paired_levels`); a cell without today's level reads the candidate's own games."""
    return ranked_proposals(cells, changes, problem, tolerance, targets)[:PROPOSALS]


def ranked_proposals(cells: pd.DataFrame, changes: pd.DataFrame, problem: dict, tolerance: float,
                     targets: dict) -> list[dict]:
    """Every verified candidate's proposal for the problem, best first (`proposals`)."""
    ranked = []
    for candidate in cells.loc[cells["candidate"] != "", "candidate"].unique():
        if candidate.endswith(REFIT_SUFFIX):   # read beside its proposal (refit_reading), never ranked
            continue
        got = proposal_of(cells, changes, problem, candidate, tolerance, targets)
        if got is not None:
            ranked.append(got)
    ranked.sort(key=lambda p: p[0])
    return [p for _, p in ranked]


def confirmed_not_proposed(cells: pd.DataFrame, changes: pd.DataFrame, problem: dict, tolerance: float,
                           targets: dict, confirmed: list[dict]) -> list[dict]:
    """The candidates a confirmation round played again for this problem's player count that are
    not among its proposals: each with its rank among the verified candidates on the games it has
    now, its reading and why it ranks below (the ranking's order: fixes, pushes no seat out, every
    level inside the band, nearest)."""
    again = dict.fromkeys(r["change"] for r in confirmed if r["players"] == problem["players"])
    ranked = ranked_proposals(cells, changes, problem, tolerance, targets)
    shown = {q["change"] for q in ranked[:PROPOSALS]}
    out = []
    for rank, q in enumerate(ranked, 1):
        if q["change"] in again and q["change"] not in shown:
            why = ("it pushes another seat out of the band" if q["pushes_out"]
                   else "a level left the band on the games played again" if not q["within_band"]
                   else "its reading is not yet decided, and three others read nearer the band or fix it")
            out.append({"change": q["change"], "rank": rank, "of": len(ranked), "reading": q["reading"],
                        "why": why})
    return out


def dropped_sentence(problem: dict) -> str:
    """The confirmed candidates not proposed, in words ("" when none)."""
    return " ".join(f"{d['change']}, played again to confirm it, is not among the proposals: it ranks "
                    f"{d['rank']} of {d['of']} on its games now ({d['reading']}): {d['why']}."
                    for d in problem.get("confirmed_not_proposed", []))


def to_confirm(cells: pd.DataFrame, changes: pd.DataFrame, found, tolerance: float, targets: dict,
               most: int = MAX_TODAY, keep: int = CONFIRM_KEEP) -> dict:
    """{(candidate, players): games} of a confirmation round: per problem no verified candidate
    fixes, the best `keep` whose every level is inside the band but not yet decided, each at the
    games its reading needs (at least twice the most it has played there, at most `most`); none
    already at `most`."""
    wanted: dict = {}
    for problem in found:
        ranked = ranked_proposals(cells, changes, problem, tolerance, targets)
        if any(p["fixes"] for p in ranked):
            continue
        hopeful = [p for p in ranked if p["within_band"] and p["need_games"] > 0][:keep]
        for p in hopeful:
            played = max(level["games"] for level in p["level"])
            count = min(max(p["need_games"], 2 * played), most)
            if count > played:
                key = (p["change"], problem["players"])
                wanted[key] = max(wanted.get(key, 0), count)
    return wanted


def proposal_of(cells: pd.DataFrame, changes: pd.DataFrame, problem: dict, candidate: str, tolerance: float,
                targets: dict) -> tuple[tuple, dict] | None:
    """(rank key, proposal) of one verified candidate for the problem (None: not played there)."""
    band = fairness.band_of(problem["measure"], tolerance, targets)
    part = cells[cells["candidate"] == candidate]
    mine = part[(part["measure"] == problem["measure"]) & (part["players"] == problem["players"])]
    if mine.empty:
        return None
    effect = changes[(changes["candidate"] == candidate) & (changes["measure"] == problem["measure"])
                     & (changes["players"] == problem["players"])]
    levels = paired_levels(cells, effect, mine)
    got = fairness.reading(problem["measure"], levels, tolerance, targets)
    worst = max(_distance(estimate, band) for _, estimate, *_ in levels)
    pushed = pushed_out(cells, changes, problem, candidate, tolerance, targets)
    fixes = got["target"] == fairness.WITHIN and not pushed
    proposal = {"change": candidate, "reading": got["target_text"], "fixes": fixes,
                "within_band": bool(worst == 0.0), "need_games": int(got["target_games"]),
                "pushes_out": pushed, "effect": _effects(effect),
                "level": [dict(zip(("rung", "estimate", "lo", "hi", "games"), c, strict=True)) for c in levels],
                "side": side_rows(changes, candidate, problem),
                "side_effects": side_effects(changes, candidate, problem)}
    proposal["sentence"] = sentence(problem, proposal)
    return (not fixes, bool(pushed), worst > 0, worst), proposal


def pushed_out(cells: pd.DataFrame, changes: pd.DataFrame, problem: dict, candidate: str, tolerance: float,
               targets: dict) -> list[dict]:
    """For a seat's problem, the other seats the candidate puts outside the band (its paired level's
    interval clear of it) farther than today's rules leave them, at any good rung: a change that
    fixes one seat by making another unfair is no fix. [{measure, rung, text}]"""
    if fairness.family(problem["measure"]) != fairness.SEAT:
        return []
    n, out = problem["players"], []
    today = cells[(cells["candidate"] == "") & (cells["players"] == n)].set_index(["measure", "rung"])["estimate"]
    part = cells[(cells["candidate"] == candidate) & (cells["players"] == n)]
    for measure in part["measure"].unique():
        if measure == problem["measure"] or not _judged_with(measure, problem["measure"]):
            continue
        band = fairness.band_of(measure, tolerance, targets)
        effect = changes[(changes["candidate"] == candidate) & (changes["measure"] == measure)
                         & (changes["players"] == n)]
        for rung, estimate, lo, hi, games in paired_levels(cells, effect, part[part["measure"] == measure]):
            state = fairness.read(estimate, lo, hi, games, band)
            before = today.get((measure, rung), math.nan)
            if state["state"] == fairness.OUTSIDE and _distance(estimate, band) > _distance(before, band):
                out.append({"measure": measure, "rung": rung,
                            "text": f"{measure} {fairness.words(measure, state, band)} at {rung}"})
    return out


def refit_players(game: str, overrides: dict, out, budget: int, seed: int, workers: int, rungs, say):
    """The good rungs' players refit to a candidate's rules (sim.league.refit); a VerdictError on bad input."""
    from sim.league.refit import RefitError, refit
    from sim.verdict.study import VerdictError

    say(f"refitting the players to {label(overrides)} ({budget:,} games)")
    try:
        return refit(game, None, overrides, out, budget, seed, workers, rungs=rungs, log=say)
    except RefitError as err:
        raise VerdictError(str(err)) from None


def refit_reading(cells, changes, problem: dict, change: str, tolerance: float, targets: dict,
                  fitted_to: str) -> dict:
    """The proposal read again with its players refit to its rules: reading, fixes, paired effect."""
    _, got = proposal_of(cells, changes, problem, change + REFIT_SUFFIX, tolerance, targets)
    moves = "; ".join(f"{e['rung']}: {e['text']}" for e in got["effect"])
    return {"players_fitted_to": fitted_to, "reading": got["reading"], "fixes": got["fixes"],
            "within_band": got["within_band"], "effect": got["effect"], "level": got["level"],
            "side_effects": got["side_effects"],
            "sentence": (f"With the players refit to {change}: {got['reading']}, moving {problem['measure']} by "
                         f"{moves} (paired with today's rules played by the shipped players); {got['side_effects']}.")}


def paired_levels(cells: pd.DataFrame, effect: pd.DataFrame, mine: pd.DataFrame) -> list[tuple]:
    """[(rung, level, lo, hi, games)] of a candidate at each cell: today's estimate plus the paired
    change and its interval (today's own interval, far narrower on its many games, left out),
    or the candidate's own cell where no paired change was measured."""
    today = cells[cells["candidate"] == ""].set_index(["rung", "players", "measure"])["estimate"]
    out = []
    for r in mine.itertuples():
        key = (r.rung, r.players, r.measure)
        d = effect[effect["rung"] == r.rung]
        if key in today.index and len(d):
            base, d = float(today[key]), d.iloc[0]
            out.append((r.rung, base + d["change"], base + d["lo"], base + d["hi"], int(r.games)))
        else:
            out.append((r.rung, r.estimate, r.lo, r.hi, int(r.games)))
    return out


def side_rows(changes: pd.DataFrame, candidate: str, problem: dict) -> list[dict]:
    """The candidate's paired change of every other measure at every cell, with its interval."""
    rows = changes[(changes["candidate"] == candidate)
                   & ~((changes["measure"] == problem["measure"]) & (changes["players"] == problem["players"]))]
    return [{"measure": r.measure, "rung": r.rung, "players": int(r.players), "change": r.change, "lo": r.lo,
             "hi": r.hi, "moved": bool(r.lo > 0 or r.hi < 0)} for r in rows.itertuples()]


def sentence(problem: dict, proposal: dict) -> str:
    """"fixes seat 1 advantage at 4 players (fair at every good rung); game length +0.8 turns
    [0.7, 0.9] at tuned, 4 players (...)" or "leaves the rest within noise"."""
    what = f"{problem['measure']} at {problem['players']} players"
    pushed = "; ".join(p["text"] for p in proposal.get("pushes_out", []))
    if pushed:   # within for this seat, but another seat made unfair
        head = f"does not fix {what}: it pushes another seat out of the band ({pushed}; {proposal['reading']})"
    elif proposal["fixes"]:   # readings of today's level plus the paired change
        head = f"fixes {what} ({proposal['reading']})"
    elif proposal["within_band"]:
        head = (f"brings {what} inside the band at every good rung by its estimate, not yet by its "
                f"interval ({proposal['reading']})")
    else:
        head = f"does not fix {what} ({proposal['reading']})"
    moves = "; ".join(f"{e['rung']}: {e['text']}" for e in proposal["effect"])
    return f"{proposal['change']} {head}, moving it by {moves} (paired); {proposal['side_effects']}."


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
        if frame is None:   # a change the rules refused
            continue
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


def verify_games(tolerance: float, players: int) -> int:
    """Games a verification cell needs for the paired interval of a seat's change to be narrower
    than the tolerance on each side: the per-game difference of a win flag has variance at most
    2 p (1 - p) (the games independent; common random numbers only lower it), so
    N = Z95^2 2 p (1 - p) / tolerance^2 (3,600 games at 4 players for 2 points)."""
    return games_for_precision(1 / players, tolerance / math.sqrt(2))


def screen_games(verify: int) -> int:
    """Games a screening cell plays: a quarter of verification's, a paired half-width of twice the
    tolerance, enough to tell a candidate that moves the measure by a problem's size from one that
    does not."""
    return max(1, math.ceil(verify / 4))


def numeric_candidates(game: str, params=None, current: dict | None = None) -> list[dict]:
    """One step down and up of each numeric rule option (sim.tuning.sensitivity's steps; every
    numeric option by default), each clipped to its declared range."""
    from sim.rules.ruleset import options
    from sim.tuning.sensitivity import stepped_values, steps_for

    spec, out = options(game), []
    for key, step in steps_for(params, game).items():
        option = spec[key]
        if option.designer:
            continue
        now = option.default if current is None else current[key]
        out += [{key: v} for v in stepped_values(option, now, step).values()]
    return out


def axis_of(change: dict, game: str, current: dict):
    """(key, seat, current, value) when a change moves one number of the current rules (a numeric
    option, or one seat of a per-seat list), else None: the candidates a straight line can tune."""
    from sim.rules.ruleset import options
    from sim.tuning.grid import NUMERIC

    if len(change) != 1:
        return None
    (key, value), = change.items()
    option = options(game).get(key)
    if option is None:
        return None
    now = current[key]
    if option.type in NUMERIC:
        return key, None, now, value
    if option.type in LISTS:
        moved = [i for i, (v, d) in enumerate(zip(value, now, strict=False)) if v != d]
        if len(moved) == 1 and len(value) == len(now):
            i = moved[0]
            return key, i, now[i], value[i]
    return None



def tuned_candidates(screened: pd.DataFrame, problem: dict, game: str, tried: set, current: dict) -> list[dict]:
    """Per axis (a numeric option, one seat of a per-seat list) whose screened values moved the
    problem's measure beyond noise, the value that puts it at the middle of the band: between the
    two screened values (today's included) that bracket it, by a straight line (the secant step),
    or beyond the farthest by the line through today's rules when none does; snapped to the
    option's kind and clipped to its range (sim.tuning.grid). Played next in the screen."""
    from sim.rules.ruleset import options

    band = fairness.band_of(problem["measure"], screened.attrs["tolerance"], screened.attrs["targets"])
    rows = screened[(screened["measure"] == problem["measure"]) & (screened["players"] == problem["players"])]
    if band is None or rows.empty:
        return []
    goal = (band[0] + band[1]) / 2 - rows["base"].mean()
    by_axis: dict = {}
    for r in rows.itertuples():
        axis = axis_of(r.point, game, current)
        if axis is not None:
            by_axis.setdefault(axis[:3], []).append((axis[3] - axis[2], r.change, r.lo > 0 or r.hi < 0))
    out = []
    for (key, seat, now), moves in by_axis.items():
        if not any(moved for *_, moved in moves):   # no value of this knob moved it beyond noise
            continue
        step = secant(sorted([(0.0, 0.0)] + [(dv, dm) for dv, dm, _ in moves]), goal)
        if step is None:
            continue
        change = axis_value(options(game)[key], key, seat, now, step, current)
        if change is not None and label(change) not in tried:
            out.append(change)
    return out


def secant(points: list[tuple[float, float]], goal: float) -> float | None:
    """The step that brings the change to `goal` on the line between the two bracketing points
    (sorted by step), or on the line through 0 and the point moved most when none brackets."""
    for (x0, y0), (x1, y1) in zip(points, points[1:], strict=False):
        if (y0 - goal) * (y1 - goal) <= 0 and y0 != y1:
            return x0 + (goal - y0) * (x1 - x0) / (y1 - y0)
    x, y = max(points, key=lambda p: abs(p[1]))
    return None if y == 0 else x * goal / y


def axis_value(option, key: str, seat, now, step: float, current: dict) -> dict | None:
    """{key: value} one step along an axis from today's rules, snapped and clipped; None when the
    option refuses it or it is today's value."""
    from sim.tuning.grid import MONEY_STEP, snap

    target = min(max(now + step, option.min), option.max)
    if seat is None:   # a float to a hundredth: finer than any study tells apart
        value = round(target, 2) if option.type == "float" else snap(option, target)
    else:
        unit = MONEY_STEP if option.type == "money_list" else 1
        value = list(current[key])
        value[seat] = int(math.floor(target / unit + 0.5)) * unit
    try:
        value = list_or_value(option.check(value, "advise"))
    except ValueError:   # a RulesetError: a value the option refuses is no candidate
        return None
    return None if value == list_or_value(current[key]) else {key: value}


def today(game: str, overrides: dict | None) -> dict:
    """Today's rules as {key: value} (the game's defaults with `overrides`), or a VerdictError."""
    from sim.rules import Ruleset, RulesetError
    from sim.verdict.study import VerdictError

    try:
        return dict(Ruleset.load(game=game, overrides=overrides or {}).values)
    except RulesetError as err:
        raise VerdictError(str(err)) from None


def list_or_value(value):
    return list(value) if isinstance(value, tuple) else value


@dataclass
class Plan:
    """The games of an advice: screening and verification counts per player count, the candidates
    verified per problem."""

    screen: dict                 # players -> games a screening cell
    verify: dict                 # players -> games a verification cell (and today's rules)
    keep: int = VERIFY           # candidates verified per problem


def plan_for(players, tolerance: float, games: int | None = None, screen: int | None = None) -> Plan:
    """Counts from the tolerance (verify_games, screen_games) unless given."""
    verify = {n: games or verify_games(tolerance, n) for n in players}
    return Plan({n: screen or screen_games(verify[n]) for n in players}, verify)


@uses_scheduler
def advise(game: str, players, rungs=None, tolerance: float = fairness.DEFAULT_TOLERANCE, targets=None,
           candidates=None, games: int | None = None, seed: int = 0, workers: int = 1, progress=None,
           screen: int | None = None, params=None, screen_rung: str | None = None, log=None,
           overrides: dict | None = None, tune: bool = True, max_today: int = MAX_TODAY,
           scheduler: str | None = None, refit_dir=None, refit_budget: int = 0) -> Advice:
    """Read today's rules at the good rungs and player counts; for each problem screen the
    candidates on one rung (the strongest good rung unless `screen_rung`), tune the knobs that
    moved it, verify the nearest on the same game ids at every good rung and count, and propose
    the three best with their paired effect on every other measure (module docstring). Today's
    rules are the game's defaults with `overrides`; each candidate changes them further. A
    suspected problem is decided on up to `max_today` games a cell of today's rules (no more
    games than the plan's when it is not above them). `refit_dir`: verify the best proposal per
    problem again with its players refit to its rules there (`refit_budget` games each; module
    docstring)."""
    from sim.verdict.study import VerdictError, is_search, rungs_of

    say = log or (lambda _m: None)
    targets = targets or {}
    asked = list(rungs or fairness.good_rungs(rungs_of(game)))
    check_rungs(asked, game)
    good = [r for r in asked if not is_search(r, game)]
    if not good:
        raise VerdictError(f"rungs {','.join(asked)}: give at least one rung that is not a search")
    top = screen_rung or good[-1]
    if top not in good:
        raise VerdictError(f"--screen-rung {top!r}: give one of the good rungs {', '.join(good)}")
    plan = plan_for(players, tolerance, games, screen)
    given = candidates is not None
    current = today(game, overrides)
    for change in candidates or ():   # a change given is checked before any game: a typo is no advice
        today(game, (overrides or {}) | change)
    pool = list(candidates) if given else (default_candidates(game, current, max(players))
                                           + numeric_candidates(game, params, current))
    player = Player(game, seed, workers, progress, overrides or {})
    frames = {("", rung, n): player.play({}, rung, n, plan.verify[n]) for n in players for rung in good}
    cells, changes = measure_cells(frames)
    for n, count in undecided(cells, tolerance, targets, plan, max_today).items():   # a suspected problem: decide it
        say(f"today's rules at {n} players: a measure outside its band not yet decided; {count:,} games a cell")
        frames.update({("", rung, n): player.play({}, rung, n, count) for rung in good})
        cells, changes = measure_cells(frames)
    found = problems_of(cells, tolerance, targets)
    say(f"today's rules: {len(found)} problem(s) at the good rungs ({', '.join(good)})")
    screened = pd.DataFrame()
    verified: list[dict] = []
    confirmed: list[dict] = []
    if found:
        screened = screen_candidates(player, pool, found, top, plan, frames, tolerance, targets, game,
                                     current if tune else None)
        verified = pick_for_verification(screened, found, plan.keep, tolerance, targets)
        say(f"screened {screened['candidate'].nunique() if len(screened) else 0} candidates on {top}; "
            f"verifying {len(verified)} at every good rung and count")
        for point in verified:
            for n in players:
                for rung in good:
                    frames[(label(point), rung, n)] = player.play(point, rung, n, plan.verify[n])
        confirmed, cells, changes = confirm(player, frames, found, {label(c): c for c in verified}, good,
                                            tolerance, targets, max_today, say)
    for problem in found:
        problem["proposals"] = proposals(cells, changes, problem, tolerance, targets)
        problem["confirmed_not_proposed"] = confirmed_not_proposed(cells, changes, problem, tolerance, targets,
                                                                   confirmed)
        problem["screened"] = screened_rows(screened, problem)
    fitted = {"today": shipped_sentence(game, bool(overrides), hint="", rungs=good)}
    if refit_dir is not None and found:
        best = {p["proposals"][0]["change"]: p for p in found if p["proposals"]}
        points = {label(c): c for c in verified}
        for k, change in enumerate(best):
            point = points[change]
            refit = refit_players(game, (overrides or {}) | point, Path(refit_dir) / f"proposal-{k + 1}",
                                  refit_budget, seed, workers, good, say)
            fitted[change] = refit.fitted_to()
            for n in players:
                for rung in good:
                    frames[(change + REFIT_SUFFIX, rung, n)] = player.play(point, rung, n, plan.verify[n],
                                                                           refit.specs.get(rung))
        cells, changes = measure_cells(frames)
        for problem in found:
            for proposal in problem["proposals"]:
                if proposal["change"] in fitted:
                    proposal["refit"] = refit_reading(cells, changes, problem, proposal["change"], tolerance,
                                                      targets, fitted[proposal["change"]])
    meta = {"game": game, "players": list(players), "today": label(overrides or {}) or "the defaults",
            "rungs": good, "screen_rung": top, "tolerance": tolerance,
            "targets": {k: list(v) for k, v in targets.items()}, "seed": seed,
            "games": {str(n): plan.verify[n] for n in players},
            "today_games": {str(n): len(frames[("", good[0], n)]) for n in players},
            "screen_games": {str(n): plan.screen[n] for n in players},
            "candidates": [label(c) for c in pool], "verified": [label(c) for c in verified],
            "confirmed": confirmed,
            "skipped": player.skipped, "not_played": [r for r in asked if r not in good],
            "note": REFIT_NOTE if refit_dir is None else REFIT_NOTE_SOME, "players_fitted_to": fitted,
            "refit_budget": refit_budget if refit_dir is not None else None,
            "games_played": player.games,
            "screened_count": int(screened["candidate"].nunique()) if len(screened) else 0}
    return Advice(found, cells, changes, meta)


def confirm(player: Player, frames: dict, found, points: dict, good, tolerance: float, targets: dict,
            most: int, say) -> tuple[list[dict], pd.DataFrame, pd.DataFrame]:
    """Confirmation rounds (module docstring, step 4): the candidates `to_confirm` names played
    again at every good rung on more games, today's rules too where they had fewer, until a
    candidate fixes each problem, none is left hopeful, or CONFIRM_ROUNDS pass. Updates `frames`;
    returns one row per candidate and round, and the cells and changes of the frames as they end."""
    done = []
    cells, changes = measure_cells(frames)
    for round_ in range(1, CONFIRM_ROUNDS + 1):
        wanted = to_confirm(cells, changes, found, tolerance, targets, most)
        if not wanted:
            break
        for (change, n), count in wanted.items():
            say(f"confirming {change} at {n} players on {count:,} games a cell (round {round_})")
            for rung in good:
                if len(frames[("", rung, n)]) < count:   # today's rules on the same game ids
                    frames[("", rung, n)] = player.play({}, rung, n, count)
                frames[(change, rung, n)] = player.play(points[change], rung, n, count)
            done.append({"change": change, "players": n, "games": count, "round": round_})
        cells, changes = measure_cells(frames)
    return done, cells, changes


class Player:
    """Plays one cell (a change, a rung, a player count) on game ids 0..N-1 of one seed (common
    random numbers across every change and rung), counting the games and the changes the rules
    refuse."""

    def __init__(self, game: str, seed: int, workers: int, progress=None, overrides: dict | None = None):
        self.game, self.seed, self.workers, self.progress = game, seed, workers, progress
        self.overrides = overrides or {}
        self.games, self.skipped, self.step = 0, [], 0

    def play(self, point: dict, rung: str, n: int, count: int, spec: str | None = None) -> pd.DataFrame | None:
        """The cell's per-game table; `spec` plays the rung instead of its shipped preset (a refit player)."""
        from sim.verdict.study import VerdictError, _play

        try:
            result = _play(self.game, n, spec or rung, count, self.seed, None, self.overrides | point, self.workers)
        except VerdictError as err:
            if not point:
                raise
            self.skipped.append({"change": label(point), "reason": str(err)})
            return None
        self.games += count
        self.step += 1
        if self.progress:
            self.progress(self.step, None, f"{label(point) or 'today'}: {rung} x{n}")
        return per_game(result.games, result.seats, result.turns).assign(rung=rung)


def screen_candidates(player: Player, pool, found, rung: str, plan: Plan, frames: dict,
                      tolerance: float, targets: dict, game: str, current: dict | None) -> pd.DataFrame:
    """Every candidate on the screening rung at each player count with a problem, paired with the
    first games of today's rules there; then, per problem, the tuned value of each knob that moved
    it (tuned_candidates; not when `current` is None), screened the same way. One row per (candidate, players, measure):
    base, change, lo, hi."""
    counts = sorted({p["players"] for p in found})
    rows: list[dict] = []

    def run(points):
        for point in points:
            for n in counts:
                frame = player.play(point, rung, n, plan.screen[n])
                if frame is None:
                    break
                today_all = frames[("", rung, n)].drop(columns="rung")
                base = today_all.head(plan.screen[n])
                # today's level from every game played there (the screen's few games would add their
                # noise to every candidate alike); the candidate's paired change on the first ones
                level = {r["measure"]: r["estimate"] for r in cell_measures(today_all)}
                for row in paired_change(base, frame.drop(columns="rung")):
                    rows.append({"candidate": label(point), "point": point, "players": n,
                                 "measure": row["measure"], "base": level.get(row["measure"], math.nan),
                                 "change": row["estimate"], "lo": row["lo"], "hi": row["hi"]})

    run(pool)
    table = _screen_table(rows, tolerance, targets)
    if current is not None:
        tried = set(table["candidate"]) if len(table) else set()
        for _ in range(TUNE_ROUNDS):
            extra = []
            for problem in found:
                for change in tuned_candidates(table, problem, game, tried, current):
                    tried.add(label(change))
                    extra.append(change)
            if not extra:
                break
            run(extra)
            table = _screen_table(rows, tolerance, targets)
    return table


def _screen_table(rows, tolerance, targets) -> pd.DataFrame:
    table = pd.DataFrame(rows, columns=["candidate", "point", "players", "measure", "base", "change", "lo", "hi"])
    table.attrs.update(tolerance=tolerance, targets=targets)
    return table


def screened_rank(screened: pd.DataFrame, problem: dict, tolerance: float, targets: dict) -> pd.DataFrame:
    """Per candidate at the problem's player count, best first: `worsened`, how much farther out of
    the band it pushes any other seat than today's rules (`_judged_with`; 0 for none), then
    `p_inside`, the chance that today's level plus its screened change puts the problem's measure
    inside the band (normal on the screened paired interval). Among a hundred candidates screened
    on a few hundred games the noisiest look best by their estimates alone (the winner's curse):
    a precise change that lands inside goes before a noisy one whose estimate falls at the centre."""
    band = fairness.band_of(problem["measure"], tolerance, targets)
    rows = screened[(screened["measure"].map(lambda m: _judged_with(m, problem["measure"])))
                    & (screened["players"] == problem["players"])]
    levels = (rows["base"] + rows["change"]).to_numpy(float)
    own = (rows["measure"] == problem["measure"]).to_numpy()
    after = np.array([_distance(v, band) for v in levels])
    before = np.array([_distance(v, band) for v in rows["base"]])
    inside = chance_inside(levels, (rows["hi"] - rows["lo"]).to_numpy(float) / (2 * Z95), band)
    table = pd.DataFrame({"worsened": np.where(own, 0.0, np.maximum(after - before, 0.0)),
                          "p_inside": np.where(own, inside, 1.0)},
                         index=rows["candidate"].to_numpy())
    ranked = table.groupby(level=0).agg({"worsened": "max", "p_inside": "min"})
    return ranked.sort_values(["worsened", "p_inside"], ascending=[True, False], kind="stable")


def chance_inside(levels: np.ndarray, se: np.ndarray, band) -> np.ndarray:
    """P(low <= level <= high) for a normal level of this standard error (0 or 1 when it is exact;
    0 when it is undefined)."""
    from scipy.special import ndtr

    low, high, _ = band
    with np.errstate(divide="ignore", invalid="ignore"):
        spread = ndtr((high - levels) / se) - ndtr((low - levels) / se)
    exact = ((low <= levels) & (levels <= high)).astype(float)
    return np.where(np.isfinite(levels) & np.isfinite(se), np.where(se > 0, spread, exact), 0.0)


def _judged_with(measure: str, problem: str) -> bool:
    """Whether the screen judges a candidate for `problem` on `measure` too: a seat's problem on
    every seat at its player count (the same band: a change that pushes another seat farther out
    of it than today's rules, to fix this one, is no fix), any other problem on its own measure."""
    seats = fairness.family(problem) == fairness.SEAT
    return measure == problem or (seats and fairness.family(measure) == fairness.SEAT)


def pick_for_verification(screened: pd.DataFrame, found, keep: int, tolerance: float, targets: dict) -> list[dict]:
    """The `keep` candidates per problem the screen ranks best (`screened_rank`; each once)."""
    points = {r.candidate: r.point for r in screened.itertuples()}
    chosen: dict = {}
    for problem in found:
        for candidate in screened_rank(screened, problem, tolerance, targets).index[:keep]:
            chosen.setdefault(candidate, points[candidate])
    return list(chosen.values())


def screened_rows(screened: pd.DataFrame, problem: dict) -> list[dict]:
    """The screen's paired change of the problem's measure per candidate (for advice.json)."""
    if screened.empty:
        return []
    rows = screened[(screened["measure"] == problem["measure"]) & (screened["players"] == problem["players"])]
    return [{"change": r.candidate, "change_estimate": r.change, "lo": r.lo, "hi": r.hi} for r in rows.itertuples()]


def write(advice: Advice, out) -> None:
    """advice.json (per problem its proposals, each with its paired effects and intervals),
    advice.csv (one row per proposal), cells.csv, changes.csv, screen.csv and the page
    (index.md/html)."""
    import json
    from pathlib import Path

    from sim.analysis.report import Report

    root = Path(out)
    root.mkdir(parents=True, exist_ok=True)
    (root / "advice.json").write_text(json.dumps({"meta": advice.meta, "problems": advice.problems},
                                                 indent=1, default=str) + "\n")
    table = proposal_table(advice)
    table.to_csv(root / "advice.csv", index=False)
    advice.cells.to_csv(root / "cells.csv", index=False)
    advice.changes.to_csv(root / "changes.csv", index=False)
    screened = pd.DataFrame([{"measure": p["measure"], "players": p["players"]} | s
                             for p in advice.problems for s in p.get("screened", [])],
                            columns=["measure", "players", "change", "change_estimate", "lo", "hi"])
    screened.to_csv(root / "screen.csv", index=False)
    m = advice.meta
    report = Report(f"mobsim advise: {m['game']}", {"game": m["game"], "seed": str(m["seed"])})
    report.heading("Problems and proposed changes")
    report.summary(first_screen(advice))
    for p in advice.problems:
        for q in p["proposals"]:
            report.text(q["sentence"])
            if "refit" in q:
                report.text(q["refit"]["sentence"] + " " + q["refit"]["players_fitted_to"])
        if dropped_sentence(p):
            report.text(dropped_sentence(p))
    report.text(method_text(m))
    report.text("Players of today's rules: " + (m.get("players_fitted_to") or {}).get("today", "not recorded"))
    report.table(table, "Per problem, the three best verified candidates, each read at every good rung on the "
                        "same games as today's rules (paired)", name="advice")
    if len(screened):
        report.table(screened, f"The screen on {m['screen_rung']}: each candidate's paired change of the "
                               f"problem's measure", name="screen")
    report.text(m.get("note", REFIT_NOTE))
    report.write(root)


def proposal_table(advice: Advice) -> pd.DataFrame:
    """One row per proposal: the problem, the change, its reading, its paired effect on the
    problem's measure at each cell, its side effects and its sentence."""
    columns = ["measure", "players", "today", "rank", "change", "reading", "fixes", "within_band", "effect",
               "side_effects", "sentence"]
    return pd.DataFrame([{"measure": p["measure"], "players": p["players"], "today": p["reading"], "rank": i + 1,
                          "change": q["change"], "reading": q["reading"], "fixes": q["fixes"],
                          "within_band": q["within_band"],
                          "effect": "; ".join(f"{e['rung']}: {e['text']}" for e in q["effect"]),
                          "side_effects": q["side_effects"], "sentence": q["sentence"]}
                         for p in advice.problems for i, q in enumerate(p["proposals"])], columns=columns)


def method_text(m: dict) -> str:
    """How the advice was reached, with its counts."""
    if not m["verified"] and not m.get("screened_count"):
        return (f"Today's rules at {', '.join(m['rungs'])} "
                f"({', '.join(f'{g:,} games a cell at {n} players' for n, g in m['today_games'].items())}, "
                f"more where a measure outside its band was not yet decided); no problem, so no candidate "
                f"played; {m['games_played']:,} games in all, seed {m['seed']}.")
    counts = ", ".join(f"{n} players: {m['screen_games'][n]:,} games a screening cell, {m['games'][n]:,} a "
                       f"verification cell" for n in m["games"])
    return (f"Today's rules at {', '.join(m['rungs'])}; every candidate ({len(m['candidates'])}: the designer "
            f"knobs and one step down and up of each numeric option, or the changes given) screened on "
            f"{m['screen_rung']}, the knobs that moved a problem tuned to its band by a straight line, then the "
            f"{len(m['verified'])} nearest verified on the same game ids at every good rung and player count "
            f"({counts}: the paired interval of a seat's change narrower than the tolerance; today's rules "
            f"{', '.join(f'{g:,} games a cell at {n} players' for n, g in m['today_games'].items())}, more "
            f"where a measure outside its band was not yet decided); "
            f"{confirmed_text(m.get('confirmed') or [])}{m['games_played']:,} games in all, seed {m['seed']}.")


def confirmed_text(rows: list[dict]) -> str:
    """The confirmation rounds in words ("" when none ran)."""
    if not rows:
        return ""
    said = ", ".join(f"{r['change']} at {r['players']} players on {r['games']:,} games a cell (round {r['round']})"
                     for r in rows)
    return (f"no candidate fixed a problem on the verification's games, so the best two inside the band "
            f"were played again on the games their reading needed: {said}; ")


def first_screen(advice: Advice) -> str:
    """The answer in words: each problem and its best proposal."""
    if not advice.problems:
        targets = advice.meta.get("targets") or {}
        rest = f", and {', '.join(targets)} on target" if targets else " (no other target given)"
        return (f"No problem at the good rungs ({', '.join(advice.meta['rungs'])}): every seat within "
                f"±{100 * advice.meta['tolerance']:.1f} points or not yet told apart{rest}.")
    lines = []
    for p in advice.problems:
        best = p["proposals"][0] if p["proposals"] else None
        lines.append(f"{p['measure']} at {p['players']} players: {p['reading']}; "
                     + (f"best change {best['change']}: {best['reading']} ({best['side_effects']})."
                        if best else "no candidate played.")
                     + (f" With its players refit to its rules: {best['refit']['reading']}."
                        if best and "refit" in best else ""))
    return " ".join(lines)
