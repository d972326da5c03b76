"""The verdict study: mirrors of the skill ladder (every seat the same rung) at each player count,
on common random numbers (one seed, game ids 0..N-1 at every rung), game counts from the wanted
precision within a time budget (sim.verdict.plan), every measure along the axis
(sim.verdict.measures), read by the stated rules (sim.verdict.rules); and the exploitability of the
equilibrium mixture by the search rung (one search seat against equilibrium seats, paired) and the
meta-game of the game's shipped population (sim.verdict.metagame: which styles survive)."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from sim.analysis.stats import holm, mean_interval, wilson
from sim.league.refit import shipped_sentence
from sim.league.strength import exploit_label
from sim.rooms import DEFAULT_GAME
from sim.runner.executor import uses_scheduler
from sim.shared.game import find
from sim.verdict import fairness, plan, rules
from sim.verdict.measures import cell_measures, order_key, per_game
from sim.verdict.styles import reading as style_reading

def rungs_of(game: str) -> tuple[str, ...]:
    """The skill axis of a game, weakest first: its ladder, then its top rungs (a shipped
    equilibrium mixture, the search player) where it has them (sim.shared.game)."""
    described = find(game)
    return described.ladder + described.top_rungs

EQUILIBRIUM = "meta:equilibrium"
EXPLOIT = rules.family("exploitability of meta:equilibrium")
PILOT = 200          # games of a heuristic rung's pilot (its cost per game, and kept if enough)
# the cost of a search game in seconds per searching seat when the counts are given (no pilot):
# a 2-player mirror of search-800 took 105 s a game on 2 shared cores; a planned study times one
# game of its cheapest search cell instead, then each cell played
SEARCH_SECONDS_PER_SEAT = 55.0
MAX_GAMES = 20_000   # at most this many games per cell, whatever the precision asked
METAGAME = "meta-game (population)"   # the plan's row for the meta-game's games
EXPLOIT_MIN_GAMES = 100   # the exploitability reading says nothing on fewer games


class VerdictError(ValueError):
    """Input a verdict study cannot use (one line: what is wrong and how to fix it)."""


@dataclass
class Verdict:
    """A verdict study's tables: `measures` (rung, players, measure, estimate, lo, hi, games),
    `verdicts` (one row per measure and player count), `per_game` (every cell's per-game
    values, for paired comparisons), `plan` (games and cost per cell), `exploit` (the search
    seat against equilibrium seats), `metagame` (each style of the shipped population at each
    player count: equilibrium weight, regret, alpha-Rank place) and `meta` (what was asked and
    played, `meta["metagame"]` the meta-game's sentence per player count)."""

    measures: pd.DataFrame
    verdicts: pd.DataFrame
    per_game: pd.DataFrame
    plan: pd.DataFrame
    exploit: pd.DataFrame
    meta: dict = field(default_factory=dict)
    metagame: pd.DataFrame = field(default_factory=pd.DataFrame)
    styles: pd.DataFrame = field(default_factory=pd.DataFrame)           # each style variant's strength
    style_measures: pd.DataFrame = field(default_factory=pd.DataFrame)   # its mirror's measures


def is_search(spec: str, game: str) -> bool:
    import strategies
    from strategies import SEARCH, mixture

    if mixture.is_mixture(spec):
        return False
    return strategies.load(spec, game).family == SEARCH


def check_rungs(rungs, game: str) -> list[str]:
    """The rungs as strategy specs, each loadable in `game`; a one-line VerdictError if not."""
    import strategies
    from strategies import mixture

    names = [r.strip() for r in rungs if r.strip()]
    if len(names) < 2 or len(set(names)) != len(names):
        raise VerdictError(f"rungs {','.join(names) or '(none)'}: give at least two different "
                           f"strategies, weakest first (e.g. --rungs random,simple)")
    for name in names:
        try:
            if mixture.is_mixture(name):
                mixture.load(name, game)
            else:
                strategies.load(name, game)
        except (strategies.StrategyError, OSError, ValueError) as err:
            raise VerdictError(f"rung {name!r}: {' '.join(str(err).split())}") from None
    return names


def _play(game, players, lineup, games, seed, ruleset, overrides, workers, out=None):
    import sim
    from sim.runner import RunError

    resume = out is not None and (Path(out) / "manifest.json").is_file()
    try:
        return sim.run(game=game, players=players, strategies=lineup, games=games, seed=seed,
                       ruleset=ruleset, overrides=overrides, workers=workers, record_turns=True,
                       progress=False, out=out, resume=resume)
    except RunError as err:
        if not err.usage:   # a killed worker, a full disk: the study failed on its way (exit 1)
            raise
        raise VerdictError(" ".join(str(err).split())) from None


def _timed(*args):
    start = time.perf_counter()
    result = _play(*args)
    return result, time.perf_counter() - start


def _kept(runs_dir, label: str, players: int, games: int, seed: int):
    """Where a cell's full run is kept (None: a temporary run): found again, and read back or
    finished, when the study is given again with the same counts (`mobsim verdict --resume`)."""
    if runs_dir is None:
        return None
    name = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in label)[:80]
    return Path(runs_dir) / f"{name}-{players}p-{games}g-seed{seed}"


def _finished(out) -> bool:
    """Whether a kept run is complete already (its time then says nothing of a game's cost)."""
    from sim.runner.store import RunError, read_manifest

    try:
        return out is not None and read_manifest(Path(out)).get("status") == "complete"
    except RunError:
        return False


@uses_scheduler
def study(game: str = DEFAULT_GAME, players=(4,), rungs=None, precision: float = 0.01, budget: float = 120.0,
          seed: int = 0, workers: int | None = None, ruleset=None, overrides=None, exploit: bool = True,
          pilot: int = PILOT, max_games: int = MAX_GAMES, games: dict | int | None = None, search_games: int = 0,
          luck: int = 0, metagame: int = 0, metagame_dir=None, bands=None, styles=(), style_dir=None,
          strength: dict | None = None, tolerance: float = fairness.DEFAULT_TOLERANCE, targets: dict | None = None,
          log=None, progress=None, runs_dir=None, scheduler: str | None = None, refit: dict | None = None,
          fitted_to: str = "") -> Verdict:
    """Play the verdict study (module docstring). `games` fixes the counts: {(rung label,
    players): n} (a written plan, replayed: sim.verdict.plan.read_plan), or n for every heuristic
    cell with `search_games` for every search cell (0: not played, named as not judged). Without
    it the budget proposes the counts (timed pilots), which `plan` keeps to be replayed. `bands`
    {measure family: (value, relative?)} replaces rules.TOLERANCE's bands. `styles`
    ["tuned:provoke_edge=0.2", ...]: style variants of heuristic rungs (sim.verdict.styles), each
    played as a mirror and as one seat among the rung's, their presets written in `style_dir`
    (default: a temporary directory). `strength` {rung: rating}: the rungs' measured strength,
    which orders them for a trend (default: the ladder's order). `tolerance` (a share: 0.02 is 2
    points) and `targets` {measure family: (low, high)}: what "fair" and "on target" mean at the
    good rungs (sim.verdict.fairness). `progress(i, n, label)`: called as each of the n cells
    is done (a progress bar). `luck` > 0:
    on that many games of each heuristic mirror, whether the winner changes when every source
    of luck is drawn again (sim.analysis.luck), its cost outside the budget. `metagame` > 0: the
    meta-game of the game's population at each player count, that many games a profile, played
    after the heuristic mirrors and before the search cells (its time counts against the budget);
    `metagame_dir` keeps its profiles' runs (`<dir>/<n>p`); `runs_dir` keeps each cell's full run, so
    that the study given again reads back (or finishes) the runs of the counts it plans again.
    `refit` {rung: spec}: what plays each rung (sim.league.refit: the players fitted to these
    rules; a rung not named plays its shipped preset), `fitted_to` the sentence saying so
    (`meta["players_fitted_to"]`; default: the shipped players, fitted to the default rules).

    Heuristic cells get a timed pilot, then their share of the budget (sim.verdict.plan); the
    search cells come last, fewest searching seats first, each given its share of what the
    budget then leaves (the costliest cells, whose one round of games would overrun an equal
    share, leave theirs to the cheaper ones), their cost per game predicted from the search
    cells already played (before the first: one timed game of the cheapest search cell, after an
    untimed one that loads the search's compiled code); a cell whose games would overrun its
    share is not played."""
    log = log or (lambda message: None)
    progress = progress or (lambda i, n, label: None)
    if not precision > 0 or precision >= 0.5:
        raise VerdictError(f"precision {precision!r}: give the wanted half-width of the seat "
                           f"advantage's interval, above 0 and below 0.5 (e.g. 0.01)")
    if not 0 < tolerance < 0.5:
        raise VerdictError(f"tolerance {tolerance!r}: give how far from fair a seat may be, a share above 0 and "
                           f"below 0.5 (0.02: 2 points)")
    if metagame < 0:
        raise VerdictError(f"metagame {metagame!r}: give the games a profile of the meta-game plays, "
                           f"0 to leave it out (e.g. 100)")
    if not budget > 0:
        raise VerdictError(f"budget {budget!r}: give the seconds the study may take, above 0 (e.g. 120)")
    rungs = check_rungs(rungs or rungs_of(game), game)
    missing = [r for r in rungs if strength is not None and r not in strength]
    if missing:
        raise VerdictError(f"no measured strength for {', '.join(missing)}: give a rating for every rung "
                           f"(mobsim luck --skill-games N --rungs {','.join(rungs)} --out DIR writes DIR/ratings.csv)")
    players = sorted(set(int(p) for p in players))
    workers = max(1, int(workers or 1))
    plays = dict(refit or {})   # rung -> what plays it: a refit player, else the shipped rung
    cells = [(r, plays.get(r, r), n) for n in players for r in rungs]   # (label, lineup, players)
    search = [r for r in rungs if is_search(r, game)]
    variants = _style_variants(game, rungs, search, styles, style_dir)
    cells += [c for v in variants for n in players for c in (
        (v["label"], v["spec"], n), (f"{v['label']} vs {v['rung']}", ",".join([v["spec"]] + [v["rung"]] * (n - 1)), n))]
    exploited = exploited_rungs(rungs, game, search) if exploit and search else []
    cells += [(f"{search[-1]} vs {r}", f"{plays.get(search[-1], search[-1])},"
               + ",".join([plays.get(r, r)] * (n - 1)), n) for r in exploited for n in players]
    effort = {cell: search_effort(cell[1], game, cell[2]) for cell in cells}   # searching seats
    if isinstance(games, int):
        games = {(c[0], c[2]): search_games if effort[c] else games for c in cells}
    light = [c for c in cells if not effort[c]]
    heavy = sorted((c for c in cells if effort[c]), key=lambda c: (effort[c], c[2]))
    wanted = {c: plan.games_for_precision(1 / c[2], precision, maximum=max_games) for c in cells}
    started = time.perf_counter()
    overhead = 0.0   # a run's fixed cost (setting up, writing its tables), from one-game runs
    for n in players:  # load the compiled engine; a player count the game refuses fails here
        _, overhead = _timed(game, n, rungs[0], 1, seed, ruleset, overrides, 1)
    pilots, cost = {}, {}
    for cell in light:
        label, lineup, n = cell
        p_games = pilot if games is None else max(1, min(pilot, games.get((label, n), pilot)))
        result, seconds = _timed(game, n, lineup, p_games, seed, ruleset, overrides, 1)
        pilots[cell] = result
        cost[cell] = max(seconds - overhead, 0.1 * seconds) / p_games
        log(f"pilot {label} x{n}: {p_games} games, {cost[cell] * 1000:.2f} ms a game")
    per_seat = SEARCH_SECONDS_PER_SEAT
    if heavy and games is None:  # one game of the cheapest search cell sets the cost a searching seat
        label, lineup, n = heavy[0]
        _play(game, n, lineup, 1, seed, ruleset, overrides, 1)  # untimed: loads (or compiles) the search
        _, seconds = _timed(game, n, lineup, 1, seed, ruleset, overrides, 1)
        per_seat = max(seconds - overhead, 0.1 * seconds) / effort[heavy[0]]
        log(f"pilot {label} x{n}: 1 game, {per_seat:.1f} s a searching seat")
    for cell in heavy:
        cost[cell] = per_seat * effort[cell]
    if games is not None:
        counts = {c: games.get((c[0], c[2]), 0) for c in cells}
    else:
        left = budget - (time.perf_counter() - started) - overhead * len(cells)
        share = plan.allot([wanted[c] for c in cells], [cost[c] / workers for c in cells], left, minimum=0)
        counts = dict(zip(cells, share, strict=True))
        for c in light:
            counts[c] = max(counts[c], min(pilots[c].manifest["games"], wanted[c]))
    frames, plan_rows = {}, {}
    for cell in light:
        label, lineup, n = cell
        result = pilots[cell]
        if counts[cell] > result.manifest["games"]:
            log(f"playing {label} x{n}: {counts[cell]:,} games")
            result = _play(game, n, lineup, counts[cell], seed, ruleset, overrides, workers,
                           _kept(runs_dir, label, n, counts[cell], seed))
        frames[cell] = _frame(result, cell, counts[cell], game, ruleset, overrides, seed, luck, log)
        plan_rows[cell] = {"seconds_per_game": cost[cell], "note": ""}
        progress(len(frames), len(cells), f"{label} x{n}")
    metagame_rows, metagame_text, metagame_plan = _metagame(game, players, metagame, seed, ruleset, overrides,
                                                            workers, metagame_dir, log)
    for i, cell in enumerate(heavy):
        label, lineup, n = cell
        predicted = per_seat * effort[cell]
        if games is None:
            left = budget - (time.perf_counter() - started)
            rest = heavy[i:]
            # a cell whose one round of games (one game a worker, played side by side) costs more
            # than an equal share gives its share to the cheaper cells
            while len(rest) > 1 and left / len(rest) < per_seat * effort[rest[-1]]:
                rest = rest[:-1]
            share = plan.allot([wanted[c] for c in rest], [per_seat * effort[c] / workers for c in rest],
                               left, minimum=0)
            k, allotted = share[0], share[0] * predicted / workers
            while k and k * predicted / min(workers, k) > allotted:  # fewer games than workers idle a core
                k -= 1
            counts[cell] = k
        if counts[cell] < 1:
            plan_rows[cell] = {"seconds_per_game": predicted,
                               "note": "not played: no games in the plan" if games is not None else
                                       f"not played: a game costs about {predicted:.0f} s, more than the "
                                       f"budget leaves"}
            log(f"{label} x{n}: not played (no games in the plan)" if games is not None else
                f"{label} x{n}: not played (about {predicted:.0f} s a game, over the budget)")
            continue
        log(f"playing {label} x{n}: {counts[cell]:,} games (about {predicted:.0f} s each)")
        kept = _kept(runs_dir, label, n, counts[cell], seed)
        read_back = _finished(kept)
        result, seconds = _timed(game, n, lineup, counts[cell], seed, ruleset, overrides, workers, kept)
        spent = seconds * min(workers, counts[cell]) / counts[cell]   # one game's time on one core
        if read_back:   # played before: its cost is the prediction's, not the time to read it
            spent = predicted
        per_seat = spent / effort[cell]
        frames[cell] = _frame(result, cell, counts[cell], game, ruleset, overrides, seed, 0, log)
        plan_rows[cell] = {"seconds_per_game": spent, "note": ""}
        progress(len(frames), len(cells), f"{label} x{n}")
    plan_table = pd.DataFrame([{"rung": c[0], "players": c[2], "wanted": wanted[c],
                                "games": len(frames[c]) if c in frames else 0} | plan_rows[c] for c in cells]
                              + metagame_plan)
    table = pd.concat([frames[c] for c in cells if c in frames], ignore_index=True)
    mirrors = table[table["rung"].isin(rungs)]
    measures = measure_table(mirrors, rungs)
    verdicts = verdict_table(measures, rungs, precision, bands, strength=strength, tolerance=tolerance,
                             targets=targets)
    exploit_table = exploitability(table, rungs, search[-1] if search else None, exploited)
    style_table, style_measures = _styles(table, variants)
    if len(style_table):
        verdicts = verdicts.merge(style_reading(pd.concat([measures, style_measures]), style_table, verdicts),
                                  on=["measure", "players"], how="left")
    meta = {"game": game, "players": players, "rungs": rungs, "precision": precision,
            "budget": budget if games is None else None, "counts": "budget" if games is None else "plan",
            "bands": {k: list(v) for k, v in (bands or {}).items()}, "strength": strength,
            "tolerance": tolerance, "targets": {k: list(v) for k, v in (targets or {}).items()},
            "seed": seed, "workers": workers, "seconds": round(time.perf_counter() - started, 1),
            "overrides": dict(overrides or {}), "ruleset": _ruleset_name(ruleset),
            "fingerprint": _fingerprint(game, ruleset, overrides), "metagame": metagame_text}
    meta["styles"] = [v["label"] for v in variants]
    changed = _fingerprint(game, None, None) != meta["fingerprint"]
    meta["players_fitted_to"] = fitted_to or shipped_sentence(game, changed, rungs=fairness.good_rungs(rungs))
    meta["refit"] = plays
    return Verdict(measures, verdicts, table.drop(columns=["lineup"]), plan_table, exploit_table, meta,
                   metagame_rows, style_table, style_measures)


def _style_variants(game, rungs, search, styles, directory) -> list[dict]:
    """Each style text as {label, rung, spec}: the rung's preset with one knob moved, written out."""
    import tempfile

    from sim.verdict.styles import label, parse_style, variant_preset

    out = []
    for text in styles or ():
        try:
            rung, knob, value = parse_style(text)
            if rung not in rungs or rung in search:
                raise ValueError(f"style {text!r}: {rung!r} is not a heuristic rung of this verdict "
                                 f"({', '.join(r for r in rungs if r not in search)})")
            directory = directory or tempfile.mkdtemp(prefix="mobsim-styles-")
            out.append({"label": label(rung, knob, value), "rung": rung,
                        "spec": variant_preset(game, rung, knob, value, directory)})
        except (ValueError, OSError) as err:
            raise VerdictError(" ".join(str(err).split())) from None
    return out


def _styles(table: pd.DataFrame, variants) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Each variant's strength at each player count, and its mirror's measures."""
    from sim.verdict.styles import strength

    if not variants:
        return pd.DataFrame(), pd.DataFrame()
    labels = [v["label"] for v in variants]
    rows = []
    for v in variants:
        for n, frame in table[table["rung"] == f"{v['label']} vs {v['rung']}"].groupby("players"):
            rows.append({"label": v["label"], "rung": v["rung"], "players": int(n), "games": len(frame)}
                        | strength(frame, int(n)))
    return pd.DataFrame(rows), measure_table(table[table["rung"].isin(labels)], labels)


def _metagame(game, players, games, seed, ruleset, overrides, workers, root, log):
    """The population's meta-game at each player count: (rows, sentence per count, plan rows)."""
    from sim.verdict import metagame

    if games < 1:
        return pd.DataFrame(), {}, []
    frames, text, plan_rows = [], {}, []
    styles = len(metagame.population(game))
    for n in players:
        profiles, per_profile = metagame.profile_count(styles, n), metagame.games_per_profile(games, n)
        log(f"meta-game x{n}: {profiles} profiles of the population, {per_profile:,} games each")
        start = time.perf_counter()
        try:
            rows, verdict = metagame.play(game, n, games, seed, ruleset, overrides, workers,
                                          None if root is None else Path(root) / f"{n}p")
        except metagame.MetagameError as err:
            raise VerdictError(str(err)) from None
        seconds = time.perf_counter() - start
        frames.append(rows)
        text[str(n)] = metagame.sentence(rows, verdict)
        played = profiles * per_profile
        plan_rows.append({"rung": METAGAME, "players": n, "wanted": played, "games": played,
                          "seconds_per_game": seconds * workers / played, "note": ""})
    return pd.concat(frames, ignore_index=True), text, plan_rows


def _frame(result, cell, count, game, ruleset, overrides, seed, luck, log) -> pd.DataFrame:
    """A cell's per-game table (its first `count` games), labelled, with luck flags if asked."""
    label, lineup, n = cell
    frame = per_game(result.games, result.seats, result.turns)
    frame = frame[frame["game_id"] < count]
    frame = frame.assign(rung=label, lineup=lineup, search_seat=_slot_seat(result.seats, 0, frame))
    if luck and label == lineup:
        frame["luck_changed"] = _luck_flags(game, ruleset, overrides, lineup, n, seed, frame["game_id"], luck)
        log(f"luck {label} x{n}: {min(luck, len(frame))} games")
    return frame


def search_effort(lineup: str, game: str, players: int) -> int:
    """Searching seats at the table (a lineup of one name fills every seat; 0: none search)."""
    specs = lineup.split(",")
    seats = specs * players if len(specs) == 1 else specs
    return sum(is_search(spec, game) for spec in seats)


def _fingerprint(game, ruleset, overrides) -> str:
    from sim.rules import Ruleset

    rs = ruleset if isinstance(ruleset, Ruleset) else Ruleset.load(ruleset, overrides or {}, game=game)
    return rs.fingerprint


def _luck_flags(game, ruleset, overrides, rung, n, seed, game_ids, count) -> np.ndarray:
    """Per game (NaN beyond the first `count`): 1 when the winner changes with every source of
    luck drawn afresh from the setup, the strategies' choices left to play on (sim.analysis.luck)."""
    from sim.analysis.luck import games as luck_games
    from sim.analysis.luck import salt_of
    from sim.rules import Ruleset

    rs = ruleset if isinstance(ruleset, Ruleset) else Ruleset.load(ruleset, overrides or {}, game=game)
    table = luck_games.luck_of(game)(rs, [rung], n, seed)
    out = np.full(len(game_ids), np.nan)
    for i, g in enumerate(np.asarray(game_ids)[:count]):
        t = table.table(int(g))
        again = t.outcome(table.all_rows(), salt_of(seed, int(g), 0, 0, 0), 0)
        out[i] = float(again.winner != t.base.winner)
    return out


def _ruleset_name(ruleset) -> str | None:
    """A ruleset file's path, a loaded ruleset's sources, or None for the defaults."""
    if ruleset is None:
        return None
    sources = getattr(ruleset, "sources", None)
    return str(dict(sources).get("values")) if sources is not None else str(ruleset)


def _slot_seat(seats: pd.DataFrame, slot: int, frame: pd.DataFrame) -> np.ndarray:
    """The seat lineup slot `slot` held in each game of `frame` (its first seat if several)."""
    held = seats[seats["slot"] == slot].groupby("game_id")["seat"].min()
    return held.reindex(frame["game_id"]).fillna(-1).to_numpy(np.int64) + 1


def measure_table(per_game_table: pd.DataFrame, rungs) -> pd.DataFrame:
    """Every measure of every cell (rung, players), rungs in ladder order."""
    rows = []
    for (rung, n), frame in per_game_table.groupby(["rung", "players"], sort=False):
        cols = [c for c in frame.columns if not frame[c].isna().all()]
        for row in cell_measures(frame[cols]):
            rows.append({"rung": rung, "rung_index": rungs.index(rung), "players": int(n)} | row)
    out = pd.DataFrame(rows)
    return out.sort_values(["players", "rung_index"], kind="stable").reset_index(drop=True)


def verdict_table(measures: pd.DataFrame, rungs, precision: float = 0.0, bands=None,
                  alpha: float = rules.ALPHA, strength: dict | None = None,
                  tolerance: float = fairness.DEFAULT_TOLERANCE, targets: dict | None = None) -> pd.DataFrame:
    """One reading per (measure, players) by the rules of sim.verdict.rules, every rung of the
    ladder named (a rung with no games is read as not judged). A seat's advantage (and the seat
    gap) never gets a band narrower than twice the precision asked, so that an interval of the
    wanted half-width can lie inside it. The page's claims of a difference (each reading's Q and
    trend p-values) are adjusted together by Holm: family-wise error 5% over the page. `strength`
    {rung: measured strength} (e.g. the Elo ratings of `mobsim luck --skill-games`) places the
    rungs for the trend and its monotone fit; default: the ladder's order. Beside it, the other
    question, kept apart: is the measure where it should be at the good rungs (`target*` columns,
    sim.verdict.fairness: a seat against fair +- `tolerance`, a measure against its `targets`)."""
    positions = np.arange(len(rungs), dtype=float) if strength is None else \
        np.array([float(strength[r]) for r in rungs])
    cells = []
    for (measure, n), cell in measures.groupby(["measure", "players"], sort=False):
        cell = cell.set_index("rung").reindex(list(rungs))
        floor = 2 * precision if rules.family(measure) in rules.NEUTRAL else 0.0
        args = (measure, list(rungs), cell["estimate"], cell["lo"], cell["hi"], floor, positions)
        cells.append((int(n), args))
    first = [rules.classify(*args, alpha=alpha, bands=bands) for _, args in cells]
    m = len(first)
    adjusted = holm([r["p_differ"] for r in first] + [r["p_trend"] for r in first])
    rows = []
    for i, (n, args) in enumerate(cells):
        page = {"p_differ": adjusted[i], "p_trend": adjusted[m + i]}
        page = {k: (1.0 if math.isnan(v) else v) for k, v in page.items()}
        got = rules.classify(*args, alpha=alpha, bands=bands, adjusted=page)
        rows.append({"players": n} | got | {"p_differ_page": page["p_differ"], "p_trend_page": page["p_trend"],
                                             "claims_on_page": 2 * m}
                    | fairness.reading(args[0], _good_cells(measures, args[0], n, rungs), tolerance, targets))
    out = pd.DataFrame(rows)
    out["order"] = out["measure"].map(order_key)
    return out.sort_values(["order", "players"]).drop(columns="order").reset_index(drop=True)


def _good_cells(measures: pd.DataFrame, measure: str, n: int, rungs) -> list[tuple]:
    """(rung, estimate, lo, hi, games) of the good rungs played for one measure and count."""
    cell = measures[(measures["measure"] == measure) & (measures["players"] == n)].set_index("rung")
    return [(r, *(float(cell.at[r, k]) for k in ("estimate", "lo", "hi")), int(cell.at[r, "games"]))
            for r in fairness.good_rungs(rungs) if r in cell.index and int(cell.at[r, "games"]) > 0]


def exploited_rungs(rungs, game: str, search) -> list[str]:
    """The rungs whose exploitability the study reads: the game's top rungs that do not search
    (an equilibrium mixture, a distilled or learned player), else its ladder's top rung."""
    top = [r for r in find(game).top_rungs if r in rungs and r not in search]
    if top:
        return top
    below = [r for r in rungs if r not in search]
    return below[-1:]


def exploitability(table: pd.DataFrame, rungs, searcher: str | None, exploited=(EQUILIBRIUM,)) -> pd.DataFrame:
    """The search seat's win share against each exploited rung's seats (Wilson, against the fair
    1/n), its gap over fair labelling the rung (sim.league.strength.exploit_label), and its paired
    gain over the same seat of the rung's mirror on the same game ids. `understates`: the interval
    lies above fair, so the rung understates strong play."""
    rows = []
    if searcher is None:
        return pd.DataFrame(rows)
    for against in exploited:
        rows += _exploit_rows(table, searcher, against)
    return pd.DataFrame(rows)


def _exploit_rows(table: pd.DataFrame, searcher: str, against: str) -> list[dict]:
    rows = []
    label = f"{searcher} vs {against}"
    for n, frame in table[table["rung"] == label].groupby("players"):
        seat = frame["search_seat"].to_numpy()
        won = frame[[f"won_{s}" for s in range(1, n + 1)]].to_numpy(bool)
        wins = won[np.arange(len(frame)), seat - 1]
        k, g = int(wins.sum()), len(frame)
        lo, hi = wilson(k, g)
        row = {"players": int(n), "searcher": searcher, "against": against, "games": g, "wins": k,
               "win_share": k / g, "lo": lo, "hi": hi, "fair": 1 / n, "read": g >= EXPLOIT_MIN_GAMES,
               "understates": g >= EXPLOIT_MIN_GAMES and lo > 1 / n}
        mirror = table[(table["rung"] == against) & (table["players"] == n)].set_index("game_id")
        common = frame["game_id"].isin(mirror.index).to_numpy()
        if common.any():
            ids = frame["game_id"].to_numpy()[common]
            base = mirror.loc[ids, [f"won_{s}" for s in range(1, n + 1)]].to_numpy(bool)
            d = wins[common].astype(float) - base[np.arange(len(ids)), seat[common] - 1]
            mean, d_lo, d_hi, m = mean_interval(d)
            row |= {"paired_games": m, "paired_gain": mean, "paired_lo": d_lo, "paired_hi": d_hi}
        row |= {"exploitability": k / g - 1 / n, "exploit_low": lo - 1 / n, "exploit_high": hi - 1 / n}
        row["label"] = (exploit_label(row["exploitability"], row["exploit_low"], row["exploit_high"], searcher)
                        if row["read"] else "")
        row["text"] = (f"{searcher} in one seat wins {k / g:.1%} [{lo:.1%}, {hi:.1%}] of {g} games "
                       f"against {n - 1} {against} seats (fair {1 / n:.1%}): "
                       + (f"not read (at least {EXPLOIT_MIN_GAMES} games needed)" if not row["read"] else
                          f"the rung is {row['label']}"
                          + ("; it understates what strong play does" if row["understates"] else "")))
        rows.append(row)
    return rows


def fmt_interval(estimate: float, lo: float, hi: float) -> str:
    if any(isinstance(v, float) and math.isnan(v) for v in (estimate, lo, hi)):
        return f"{estimate:.3g}"
    return f"{estimate:.3g} [{lo:.3g}, {hi:.3g}]"
