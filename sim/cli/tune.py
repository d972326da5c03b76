"""`mobsim sweep`, `mobsim sensitivity`, `mobsim tune`: designer tuning (sim.tuning)."""

import json
import math
from pathlib import Path

import click

from sim.cli.common import (DEFAULT_GAME, GAMES, kept_on_interrupt, parse_sets, ruleset_from_options, ruleset_options,
                            scheduler_option)
from sim.cli.files import claim_out
from sim.tuning.grid import MAX_POINTS  # points of a sweep grid, unless --max-points allows more

SHOWN = ("seat_gap", "turns", "mean_fortune", "strategy_gap")


def study_options(games_default: int | None):
    """The options every tuning command shares: the table, strategies, games, seed, workers."""
    games = [click.option("--games", type=click.IntRange(min=1), default=games_default, show_default=True,
                          help="Games per run (every run plays the same game ids).")] if games_default else []

    def wrap(func):
        for option in reversed([
            click.option("--players", type=click.IntRange(2, 8), default=4, show_default=True),
            click.option("--strategies", default="simple", show_default=True,
                         help="Comma-separated strategy per seat, or one for every seat."),
            *games,
            click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
                         help="Run seed shared by every run."),
            click.option("--workers", type=click.IntRange(min=1), default=None,
                         help="Processes per run (default: one per core); 1 plays in this process."),
            scheduler_option,
            click.option("--game", type=click.Choice(GAMES), default=DEFAULT_GAME, show_default=True),
            click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object."),
        ]):
            func = option(func)
        return func

    return wrap


def _usage(err) -> click.UsageError:
    return click.UsageError(" ".join(str(err).split()), ctx=click.get_current_context(silent=True))


def _progress(as_json: bool):
    """A progress bar over a study's points on stderr when it is a terminal (never with --json)."""
    from sim.cli.progress import Steps
    from sim.tuning.study import show_point

    bar = Steps("points", "point", as_json)
    return lambda i, n, point: bar(i, n, show_point(point))


RESUME_HELP = ("Finish the study in --out: its finished runs read back, the batches of damaged or missing "
               "parts played again (as giving the command again does).")


def _check_resume(out, resume: bool, force: bool) -> None:
    """--resume names a study to finish: it needs --out, and excludes --force."""
    if resume and force:
        raise click.UsageError("--resume and --force exclude each other")
    if resume and out is None:
        raise click.UsageError("--resume needs --out, the study's directory")


def _fmt(x) -> str:
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "-"
    return f"{x:.4g}" if abs(x) < 1000 else f"{x:,.0f}"


# --- sweep --------------------------------------------------------------------------------------

@click.command("sweep")
@study_options(games_default=1000)
@click.option("--set", "sets", multiple=True, metavar="KEY=A:B:N|KEY=V1,V2|KEY=V",
              help="Sweep an option over a range a:b:n (n evenly spaced values) or a list v1,v2; a "
                   "single value fixes it for every point (repeatable).")
@click.option("--ruleset", type=click.Path(dir_okay=False, path_type=Path), default=None,
              metavar="FILE", help="A ruleset file holding only what it changes from the defaults.")
@click.option("--baseline", type=click.Choice(["current", "first"]), default="current", show_default=True,
              help="What changes are measured from: the current rules or the first point.")
@click.option("--metric", "metrics", multiple=True, metavar="NAME",
              help=f"Metrics to print (repeatable; default {', '.join(SHOWN)}); the files hold them all.")
@click.option("--out", type=click.Path(file_okay=False), default=None,
              help="Directory for sweep.parquet, figures, index.md/html and the runs (resumable).")
@click.option("--force", is_flag=True, help="Play every point again, replacing the runs kept in --out.")
@click.option("--resume", is_flag=True, help=RESUME_HELP)
@click.option("--max-points", type=click.IntRange(min=1), default=MAX_POINTS, show_default=True,
              help="Refuse a grid of more points than this (each point is a run of --games games).")
def sweep_cmd(players, strategies, games, seed, workers, scheduler, game, as_json, sets, ruleset, baseline,
              metrics, out, force, resume, max_points):
    """Play every point of a grid of rule values on the same games and compare them.

    Example: mobsim sweep --strategies simple,random --games 20000 --set missions.reward_scale=0.6:1.4:5
    --set recruit.min_offer=1000,2000 --out runs/sweep1
    """
    from sim.tuning import TuningError
    from sim.tuning.grid import split_sets
    from sim.tuning.sweeps import sweep
    from sim.tuning.study import strategy_names
    from sim.tuning.targets import check_metric

    _check_grid_size(sets, max_points)
    _check_study_out(out)
    _check_resume(out, resume, force)
    try:
        swept, fixed = split_sets(sets, game)
        if not swept:
            raise TuningError("--set: nothing to sweep: give a range KEY=A:B:N or a list KEY=V1,V2 "
                              "(e.g. --set missions.reward_scale=0.6:1.4:5)")
        shown = [check_metric(m, strategy_names(strategies), game, "--metric") for m in metrics] or list(SHOWN)
        with kept_on_interrupt(out):
            table = sweep(players=players, strategies=strategies, games=games, seed=seed, params=swept,
                          ruleset=ruleset, overrides=fixed, workers=workers, scheduler=scheduler, out=out,
                          baseline=baseline,
                          game=game, force=force, on_point=_progress(as_json), max_points=max_points)
    except (TuningError, ValueError) as err:
        raise _usage(err) from None
    keys = list(swept)
    if as_json:
        rows = json.loads(table.to_json(orient="records"))
        click.echo(json.dumps({"out": out, "params": keys, "rows": rows}))
        return
    for line in _sweep_lines(table, keys, shown, games, seed, out):
        click.echo(line)


def _check_grid_size(sets, max_points: int) -> None:
    """Refuse a grid too large before any of its values is made (a:b:1000000000 included)."""
    from sim.tuning import TuningError
    from sim.tuning.grid import check_grid_size, is_sweep_text

    swept = {}
    for item in sets or ():
        key, _, text = item.partition("=")
        swept.pop(key.strip(), None)   # a later --set of the key wins
        if is_sweep_text(text):
            swept[key.strip()] = text
    try:
        check_grid_size(swept, max_points, "--max-points")
    except TuningError as err:
        raise click.UsageError(str(err), ctx=click.get_current_context(silent=True)) from None


def _check_study_out(out) -> None:
    """A tuning study's --out must not be a run directory (its files would mix with the run's)."""
    if out is None:
        return
    if not str(out).strip():
        raise click.BadParameter("the directory is empty: name one, e.g. runs/sweep1", param_hint="--out")
    path = Path(out)
    if path.exists() and not path.is_dir():
        raise click.BadParameter(f"{out} exists and is not a directory", param_hint="--out")
    claim_out(path, "tuning")   # sweeps, sensitivity and tune share their points: one kind of study


def _gain(row, metric) -> str:
    """The pairing gain of a change, printed after it (nothing for the baseline)."""
    from sim.analysis.pairing import gain_text

    if metric + ".gain" not in row or row[metric + ".gain"] != row[metric + ".gain"]:
        return ""
    return f"   pairing {gain_text(row[metric + '.gain'], row[metric + '.gain_lo'], row[metric + '.gain_hi'])}"


def _sweep_lines(table, keys, shown, games, seed, out) -> list[str]:
    lines = [f"{int(table['grid'].sum())} points of {games:,} games each (seed {seed}, the same games "
             f"at every point); change from the baseline with paired 95% intervals; pairing gain: how "
             f"many times fewer games the paired change needs than an unpaired one", ""]
    for _, row in table.iterrows():
        label = ", ".join(f"{k}={row[k]}" for k in keys) + ("  (baseline)" if row["baseline"] else "")
        lines.append(label)
        for m in shown:
            if m not in table:
                continue
            lines.append(f"    {m:<22}{_fmt(row[m]):>12}  [{_fmt(row[m + '.lo'])}, {_fmt(row[m + '.hi'])}]"
                         f"   change {_fmt(row[m + '.diff'])} [{_fmt(row[m + '.diff_lo'])}, "
                         f"{_fmt(row[m + '.diff_hi'])}]" + _gain(row, m))
    if out:
        lines += ["", f"files: {Path(out) / 'sweep.parquet'}, {Path(out) / 'index.html'}"]
    return lines


# --- sensitivity --------------------------------------------------------------------------------

@click.command("sensitivity")
@study_options(games_default=2000)
@click.option("--param", "params", multiple=True, metavar="KEY|KEY=STEP",
              help="An option to step (repeatable; default: every numeric option), with its step "
                   "(default: 1, $1,000, or 0.1 for a scale).")
@ruleset_options
@click.option("--out", type=click.Path(file_okay=False), default=None,
              help="Directory for sensitivity.parquet, tornado charts, index.md/html and the runs.")
@click.option("--force", is_flag=True, help="Play every run again, replacing the runs kept in --out.")
@click.option("--resume", is_flag=True, help=RESUME_HELP)
@click.option("--top", type=click.IntRange(min=1), default=15, show_default=True,
              help="Options to print, the most influential first.")
@click.option("--assumed", is_flag=True,
              help="Instead: vary every value marked assumed in the data files over its plausible range "
                   "(sim/rules/<game>/assumed.toml) and rank them (sim.tuning.assumed).")
@click.option("--rulings", is_flag=True,
              help="Instead: play every ruling (a reading where the book is silent, docs/ruleset.md) at each "
                   "of its other values, around the rules given, and rank them (sim.tuning.rulings).")
def sensitivity_cmd(players, strategies, games, seed, workers, scheduler, game, as_json, params, ruleset, sets,
                    out, force, resume, top, assumed, rulings):
    """Step every numeric rule option down and up and measure what each headline metric does.

    Example: mobsim sensitivity --strategies simple,random --games 2000 --out runs/sens
    """
    from sim.tuning import TuningError
    from sim.tuning.sensitivity import mirror_note, ranking, sensitivity

    _check_study_out(out)
    _check_resume(out, resume, force)
    if rulings:
        with kept_on_interrupt(out):
            _rulings(players, strategies, games, seed, workers, game, as_json, params, ruleset, sets, out,
                     force, top, assumed, scheduler)
        return
    if assumed:
        from sim.tuning.assumed import assumed_lines

        for given, name in ((params, "--param"), (force, "--force"), (resume, "--resume")):
            if given:
                raise click.UsageError(f"{name} does not apply with --assumed (the values varied and "
                                       f"their ranges come from sim/rules/{game}/assumed.toml): drop it")
        ruleset_from_options(ruleset, sets, game)   # a bad file or a key of another game: one line
        try:
            lines = assumed_lines(game=game, players=players, strategies=strategies, games=games, seed=seed,
                                  workers=workers, scheduler=scheduler, work=out, as_json=as_json, top=top,
                                  on_point=_progress(as_json), ruleset=ruleset,
                                  overrides=parse_sets(sets))
        except (TuningError, ValueError) as err:
            raise _usage(err) from None
        for line in lines:
            click.echo(line)
        return
    try:
        steps = _steps(params)
        with kept_on_interrupt(out):
            table = sensitivity(players=players, strategies=strategies, games=games, seed=seed,
                                params=steps or None, ruleset=ruleset, overrides=parse_sets(sets),
                                workers=workers, scheduler=scheduler, out=out, game=game, force=force,
                                on_point=_progress(as_json))
    except (TuningError, ValueError) as err:
        raise _usage(err) from None
    ranked = ranking(table)
    if as_json:
        click.echo(json.dumps({"out": out, "ranking": json.loads(ranked.to_json(orient="records")),
                               "changes": json.loads(table.to_json(orient="records")),
                               "skipped": table.attrs["skipped"]}))
        return
    lines = [f"{len(set(table['param']))} options stepped, {games:,} games per run (seed {seed}); "
             f"the largest change of each, in standard errors", mirror_note(table),
             f"{'option':<34}{'max |z|':>9}  {'metric moved most':<22}{'significant':>12}"]
    for row in ranked.head(top).itertuples():
        lines.append(f"{row.param:<34}{_fmt(row.max_abs_z):>9}  {row.metric:<22}{int(row.significant):>12}")
    if table.attrs["skipped"]:
        lines += ["", f"{len(table.attrs['skipped'])} steps left out (at a bound or refused by the "
                      "rules)" + (f": see {Path(out) / 'index.md'}" if out else "")]
    if out:
        lines += ["", f"files: {Path(out) / 'sensitivity.parquet'}, {Path(out) / 'index.html'}"]
    for line in lines:
        click.echo(line)


def _rulings(players, strategies, games, seed, workers, game, as_json, params, ruleset, sets, out, force,
             top, assumed, scheduler=None):
    from sim.tuning import TuningError
    from sim.tuning.rulings import rulings_lines, rulings_study

    if assumed or params:
        raise click.UsageError("--rulings varies the rulings only: drop "
                               + ("--assumed" if assumed else "--param"))
    try:
        table = rulings_study(players=players, strategies=strategies, games=games, seed=seed, ruleset=ruleset,
                              overrides=parse_sets(sets), workers=workers, scheduler=scheduler, out=out, game=game,
                              force=force, on_point=_progress(as_json))
    except (TuningError, ValueError) as err:
        raise _usage(err) from None
    for line in rulings_lines(table, games, seed, out, top, as_json):
        click.echo(line)


def _steps(params) -> dict:
    from sim.cli.common import parse_value

    steps = {}
    for item in params:
        key, sep, text = item.partition("=")
        steps[key.strip()] = parse_value(text) if sep else None
    return steps


# --- tune ---------------------------------------------------------------------------------------

@click.command("tune")
@study_options(games_default=None)
@click.option("--param", "params", multiple=True, metavar="KEY=LO:HI",
              help="An option to tune within [LO, HI] (repeatable).")
@click.option("--target", "targets", multiple=True, metavar="METRIC<=X|METRIC>=X|METRIC=A:B",
              help="A target on a headline metric, e.g. seat_gap<=0.02, turns=9:12, winrate_max<=0.4 "
                   "(repeatable).")
@click.option("--budget", type=click.IntRange(min=1), default=200_000, show_default=True,
              help="Games to spend in all, the final evaluations (the search's pick and today's rules) included.")
@click.option("--candidates", type=click.IntRange(min=2), default=None,
              help="Settings in the first round (default: as many as the budget allows, up to 64).")
@click.option("--eta", type=click.IntRange(min=2), default=2, show_default=True,
              help="Each round keeps 1/eta of the candidates.")
@ruleset_options
@click.option("--out", type=click.Path(file_okay=False), default=None,
              help="Directory for tune.json (provenance, history, evidence), index.md/html and every "
                   "candidate's run (round-<r>/, final/).")
@click.option("--force", is_flag=True, help="Play every run again, replacing the runs kept in --out.")
@click.option("--resume", is_flag=True, help=RESUME_HELP)
def tune_cmd(players, strategies, seed, workers, scheduler, game, as_json, params, targets, budget,
             candidates, eta, ruleset, sets, out, force, resume):
    """Search a box of rule values for settings that meet targets on the headline metrics.

    Example: mobsim tune --strategies simple,random --param missions.reward_scale=0.5:2
    --target "mean_fortune>=12000" --target "turns=9:12" --budget 200000
    """
    from sim.tuning import TuningError
    from sim.tuning.search import tune

    _check_resume(out, resume, force)
    _check_study_out(out)
    if not params:
        raise click.UsageError("tune: give at least one --param KEY=LO:HI (e.g. missions.reward_scale=0.5:2)")
    if not targets:
        raise click.UsageError("tune: give at least one --target (e.g. seat_gap<=0.02)")
    from sim.cli.progress import Steps

    bar = Steps("tune", "round", as_json)

    def on_round(r, n, each):   # the rounds, then the final evaluations (r = rounds)
        bar(r, None, f"{n} candidate(s), {each:,} games each")
    try:
        with kept_on_interrupt(out):
            result = tune(params=list(params), targets=list(targets), budget=budget, players=players,
                          strategies=strategies, seed=seed, ruleset=ruleset, overrides=parse_sets(sets),
                          workers=workers, scheduler=scheduler, candidates=candidates, eta=eta, out=out,
                          game=game,
                          on_round=on_round, force=force)
    except (TuningError, ValueError) as err:
        raise _usage(err) from None
    finally:
        bar.close()
    if as_json:
        click.echo(json.dumps({"out": out, **result.to_json()}))
        return
    for line in _tune_lines(result, out):
        click.echo(line)


def _tune_lines(result, out) -> list[str]:
    from sim.tuning.study import show_point

    from sim.tuning.search import verdict_sentence

    p = result.provenance
    worse = result.worse_than_baseline
    lines = [(f"best settings: {show_point(result.best)}  "
              f"({'meets every target' if result.met else 'misses a target'})") if not worse else
             f"no change recommended: {verdict_sentence(result)}",
             f"evidence: {result.final.games:,} fresh games (seed {result.final.seed}), today's rules on the same "
             f"games; searched {p['candidates']} candidates in {p['rounds']} rounds; {result.games_spent:,} of "
             f"{result.budget:,} games spent", "",
             f"{'target':<24}{'rules':<14}{'value':>12}  {'95% interval':<24}status"]
    for pick, base in zip(result.final_targets.itertuples(), result.baseline_targets.itertuples(), strict=True):
        for label, row in (("search's pick", pick), ("today's", base)):
            lines.append(f"{row.target:<24}{label:<14}{_fmt(row.value):>12}  [{_fmt(row.lo)}, {_fmt(row.hi)}]"
                         .ljust(76) + row.status)
    if out:
        lines += ["", f"files: {Path(out) / 'tune.json'}, {Path(out) / 'index.html'}"]
    return lines


COMMANDS = [sweep_cmd, sensitivity_cmd, tune_cmd]
