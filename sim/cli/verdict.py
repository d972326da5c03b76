"""`mobsim verdict`: every balance measure across the skill ladder and player counts, read into a
verdict per measure (sim.verdict); `--compare A B`: the paired change of each measure between two
verdicts or two rulesets."""

from pathlib import Path

import click
from click.core import ParameterSource

from sim.cli.common import (DEFAULT_GAME, GAME_HELP, GAMES, OutPath, finite, kept_on_interrupt, parse_sets,
                            player_counts_of, ruleset_options, scheduler_option, study_errors)
from sim.cli.files import claim_out, read_small_table


def parse_players(value: str) -> list[int]:
    try:
        counts = sorted({int(p) for p in value.split(",") if p.strip()})
    except ValueError:
        raise click.BadParameter(f"{value!r}: give player counts separated by commas, e.g. 2,3,4,5",
                                 param_hint="--players") from None
    if not counts or counts[0] < 2 or counts[-1] > 5:
        raise click.BadParameter(f"{value!r}: give player counts from 2 to 5, e.g. 3,4",
                                 param_hint="--players")
    return counts


def _default_rungs() -> str:
    """Each game's default ladder, from its description (so that the help never goes stale)."""
    from sim.verdict.study import rungs_of

    return "; ".join(f"{g} {','.join(rungs_of(g))}" for g in GAMES)


@click.command("verdict")
@click.option("--game", type=click.Choice(GAMES), default=DEFAULT_GAME, show_default=True,
              help=GAME_HELP)
@click.option("--players", default=None,
              help="Player counts, comma-separated (default: every count the game's rules allow: nyk and ag "
                   "2,3,4,5, pig 2,3,4).")
@click.option("--rungs", default=None,
              help="The skill ladder, weakest first (default: the game's ladder and top rungs, sim.shared.game: "
                   f"{_default_rungs()}).")
@click.option("--precision", type=click.FloatRange(0, 0.5, min_open=True, max_open=True), default=0.01,
              show_default=True, callback=finite,
              help="Wanted half-width of each seat advantage's 95% interval (0.01: +-1 point).")
@click.option("--games", "games_per_cell", type=click.IntRange(min=1), default=None,
              help="Games in every heuristic cell (rung x player count): fixed counts, the same on any machine.")
@click.option("--search-games", type=click.IntRange(min=0), default=0, show_default=True,
              help="With --games: games in every search cell (0: not played, named as not judged).")
@click.option("--plan", "plan_file", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              help="Replay a written plan.csv: its games per cell, exactly.")
@click.option("--budget", type=click.FloatRange(0, 7 * 86400, min_open=True), default=None, callback=finite,
              help="Seconds on this machine from which to propose a plan (timed pilots; default 600 when "
                   "neither --games nor --plan is given); the plan is written as plan.csv to replay.")
@click.option("--style", "styles", multiple=True, metavar="RUNG:KNOB=VALUE",
              help="A style variant of a heuristic rung (tuned:provoke_edge=0.2), played like the rung; a "
                   "measure it moves beyond the band at similar strength reads 'depends on style'; repeatable.")
@click.option("--strength", "strength_file", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              default=None, help="The rungs' measured strength (a ratings.csv of `mobsim luck --skill-games N "
                                 "--out DIR`): a trend is read against it instead of the ladder's order.")
@click.option("--band", "bands", multiple=True, metavar="MEASURE=VALUE",
              help="A measure's tolerance band half-width, absolute (game length (turns)=0.5) or a share of "
                   "the strong rungs' centre (margin of victory=10%); repeatable.")
@click.option("--tolerance", type=click.FloatRange(min=0, min_open=True, max=50, max_open=True), default=2.0,
              show_default=True, help="Points of win share a seat may be from fair at the good rungs and still "
                                      "read 'fair'.")
@click.option("--target-turns", default=None, metavar="LOW-HIGH",
              help="Wanted game length in turns at the good rungs: a range (10-12) or one number (11: 11 +- 0.5).")
@click.option("--target", "targets", multiple=True, metavar="MEASURE=LOW-HIGH",
              help="Where another measure should be at the good rungs, in its unit (a share in points): "
                   "'a player out=0-10', 'lead changes=2-5'; repeatable.")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True)
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Processes (default: one per core).")
@scheduler_option
@click.option("--no-exploit", is_flag=True,
              help="Skip the search seat against equilibrium seats (a game with both rungs only).")
@click.option("--luck", type=click.IntRange(min=0), default=0, show_default=True, metavar="GAMES",
              help="Also measure luck on this many games of each heuristic mirror: the share whose winner "
                   "changes when every source of luck is drawn again (outside the budget).")
@click.option("--meta-games", type=click.IntRange(min=0), default=100, show_default=True, metavar="GAMES",
              help="Games a profile of the meta-game of the game's shipped population plays (which styles "
                   "survive at this ruleset, within the budget); 0 leaves it out.")
@click.option("--compare", "compare_with", nargs=2, default=None, metavar="A B",
              help="Two verdict directories (--out of earlier runs), or two ruleset files to play "
                   "on the same plan: the paired change of each measure at every rung and count.")
@click.option("--out", type=OutPath(file_okay=False, path_type=Path), default=None,
              help="Directory for verdict.csv, verdict.json, measures.csv, metagame.csv, verdict.png.")
@click.option("--resume", is_flag=True,
              help="Finish the study in --out: the runs it kept (runs/, metagame/) read back where the "
                   "plan asks for them again, the rest played (as giving the command again does).")
@click.option("--force", is_flag=True, help="Play every run again, deleting the runs kept in --out.")
@click.option("--refit", is_flag=True,
              help="Fit the good rungs' players again to the rules studied (each side's with --compare), "
                   "warm-started from the shipped ones, before playing (mobsim strategies refit; written in "
                   "--out/refit, or --out/A/refit and --out/B/refit).")
@click.option("--refit-budget", type=click.IntRange(min=1), default=20_000, show_default=True,
              help="With --refit: games the fitting of each ruleset's players may play (docs/refit.md).")
@ruleset_options
@click.pass_context
def verdict_cmd(ctx, game, players, rungs, precision, games_per_cell, search_games, plan_file, budget, styles,
                strength_file, bands, tolerance, target_turns, targets, seed, workers, scheduler, no_exploit, luck,
                meta_games, compare_with, out, resume, force, refit, refit_budget, ruleset, sets):
    """Is the game fair to every seat, does it last and stay tense, at every player count, and does
    that hold once players are good? Mirrors of the skill ladder (every seat one rung), measures
    with intervals, and a verdict per measure by the rules of docs/reports.md."""
    from sim.verdict import VerdictError

    counts = parse_players(player_counts_of(players, game))
    names = None if rungs is None else rungs.split(",")
    overrides = parse_sets(sets)
    kwargs = {"game": game, "players": counts, "rungs": names, "precision": precision,
              "budget": 600.0 if budget is None else budget, "games": _counts(games_per_cell, plan_file, budget),
              "search_games": search_games, "bands": _bands(bands), "styles": styles,
              "strength": _strength(strength_file), "tolerance": tolerance / 100,
              "targets": _targets(target_turns, targets), "seed": seed,
              "workers": workers or _cores(), "exploit": not no_exploit, "luck": luck, "metagame": meta_games,
              "scheduler": scheduler,
              "log": lambda m: click.echo(m, err=True)}
    if resume and force:
        raise click.UsageError("--resume and --force exclude each other")
    if not refit and ctx.get_parameter_source("refit_budget") not in (ParameterSource.DEFAULT, None):
        raise click.UsageError("--refit-budget sets the games of --refit: add --refit, or leave it out")
    refit_with = {"budget": refit_budget} if refit else None
    from sim.cli.progress import Steps

    bar = Steps("verdict cells", "cell")
    if bar.on:   # the bar tells the cells' progress; the log lines would break it
        kwargs |= {"progress": bar, "log": None}
    try:
        with study_errors(), kept_on_interrupt(out):
            if compare_with:
                _compare(ctx, compare_with, out, kwargs, ruleset, overrides, refit_with)
                return
            if out is None:
                raise click.UsageError("give --out DIR for the verdict's files (or --compare A B)")
            claim_out(out, "verdict")
            from sim.verdict import study

            if force:
                _clear_runs(out)
            fitted = _refit(refit_with, out / "refit", ruleset, overrides, kwargs)
            v = study(ruleset=ruleset, overrides=overrides, metagame_dir=out / "metagame", style_dir=out / "styles",
                      runs_dir=out / ("runs-refit" if refit else "runs"), **kwargs, **fitted)
            _write(v, out)
    except VerdictError as err:
        raise click.UsageError(str(err)) from None
    finally:
        bar.close()
    _echo_verdict(v)
    click.echo(v.meta["players_fitted_to"])
    click.echo(f"written: {out}/verdict.csv, verdict.json, measures.csv, plan.csv (replay: --plan), verdict.png")


def _refit(refit_with: dict | None, out: Path, ruleset, overrides, kwargs) -> dict:
    """With --refit: the good rungs' players fitted to these rules in `out` (sim.league.refit), as
    the study's `refit` and `fitted_to` keywords; without it, none."""
    if refit_with is None:
        return {}
    import shlex
    import sys

    from sim.league.refit import RefitError, refit
    from sim.verdict.fairness import good_rungs
    from sim.verdict.study import rungs_of

    rungs = good_rungs(kwargs["rungs"] or rungs_of(kwargs["game"]))
    try:
        result = refit(kwargs["game"], ruleset, overrides, out, refit_with["budget"], kwargs["seed"],
                       kwargs["workers"], kwargs["scheduler"], rungs=rungs,
                       command="mobsim " + " ".join(shlex.quote(a) for a in sys.argv[1:]), log=kwargs["log"])
    except RefitError as err:
        raise click.UsageError(str(err)) from None
    return {"refit": result.specs, "fitted_to": result.fitted_to()}


def _counts(games_per_cell, plan_file, budget):
    """The plan's counts: --games N, a --plan file, or None (the budget proposes them)."""
    given = [name for name, v in (("--games", games_per_cell), ("--plan", plan_file), ("--budget", budget))
             if v is not None]
    if len(given) > 1:
        raise click.UsageError(f"{' and '.join(given)}: give one way to count the games")
    if plan_file is None:
        return games_per_cell
    from sim.verdict.plan import plan_counts

    try:
        return plan_counts(read_small_table(plan_file, "--plan", "a verdict's plan.csv"), plan_file)
    except (ValueError, OSError) as err:
        raise click.BadParameter(" ".join(str(err).split()), param_hint="--plan") from None


def _strength(path) -> dict | None:
    """{rung: Elo} from a ratings.csv (rung, elo)."""
    if path is None:
        return None
    table = read_small_table(path, "--strength", "a ratings.csv")
    if not {"rung", "elo"} <= set(table.columns):
        raise click.BadParameter(f"{path}: not a ratings.csv (columns rung, elo): give the one `mobsim luck "
                                 f"--skill-games N --out DIR` writes", param_hint="--strength")
    return {str(r.rung): float(r.elo) for r in table.itertuples()}


def _targets(target_turns, texts) -> dict:
    from sim.verdict.fairness import TURNS, parse_target, parse_target_turns

    try:
        turns = parse_target_turns(target_turns)
    except ValueError as err:
        raise click.BadParameter(str(err), param_hint="--target-turns") from None
    try:
        given = dict(parse_target(t) for t in texts)
    except ValueError as err:
        raise click.BadParameter(str(err), param_hint="--target") from None
    return given | ({} if turns is None else {TURNS: turns})


def _bands(texts) -> dict:
    from sim.verdict.rules import parse_band

    try:
        return dict(parse_band(t) for t in texts)
    except ValueError as err:
        raise click.BadParameter(str(err), param_hint="--band") from None


def _clear_runs(out: Path) -> None:
    """--force: the runs a verdict kept go (its other files are written again)."""
    import shutil

    for kept in ("runs", "metagame"):
        if (out / kept).is_dir():
            shutil.rmtree(out / kept)


def _cores() -> int:
    import os

    return max(1, len(os.sched_getaffinity(0)))


def _write(v, out: Path):
    from sim.verdict import write

    try:
        write(v, out)
    except OSError as err:
        raise click.BadParameter(f"cannot write in {out}: {err.strerror or err}", param_hint="--out") from None


def _echo_verdict(v):
    from sim.verdict.plain import summary as plain_summary

    click.echo(plain_summary(v.verdicts))
    for row in v.verdicts.to_dict("records"):
        style = f" [{row['style']}]" if str(row.get("style") or "") not in ("", "nan") else ""
        target = str(row.get("target_text") or "").replace("nan", "")
        fair = f"{'fair?' if row['measure'].startswith(('seat', 'max seat')) else 'on target?'} {target} | " \
            if target else ""
        click.echo(f"{row['players']}p  {row['measure']:<40} {fair}across skill: {row['text']}{style}")
    for row in v.exploit.itertuples():
        click.echo(f"{row.players}p  exploitability: {row.text}")
    for n, text in (v.meta.get("metagame") or {}).items():
        click.echo(f"{n}p  meta-game: {text}")


PLAYED = ("game", "players", "rungs", "precision", "games_per_cell", "search_games", "plan_file", "budget",
          "styles", "strength_file", "bands", "seed", "workers", "no_exploit", "luck", "meta_games", "ruleset",
          "sets")   # what plays a study: nothing to do with two verdicts read


def _compare(ctx, pair, out, kwargs, ruleset, overrides, refit_with=None):
    import json

    from sim.verdict import compare, read, study, summary

    a, b = (Path(p) for p in pair)
    if a.is_dir() and b.is_dir():
        given = [param.opts[0] for param in ctx.command.params if param.name in PLAYED
                 and ctx.get_parameter_source(param.name) not in (ParameterSource.DEFAULT, None)]
        if given:
            raise click.UsageError(f"--compare of two verdict directories reads them as they were played: "
                                   f"leave out {', '.join(given)} (they apply to two ruleset files)")
        if refit_with is not None:
            raise click.UsageError("--refit fits the players before playing: give two ruleset files to --compare")
        va, vb = read(a), read(b)
    elif a.is_file() and b.is_file():
        if ruleset is not None:
            raise click.UsageError("--compare A B names the two rulesets: leave out --ruleset")
        if out is None:
            raise click.UsageError("give --out DIR: the two verdicts are written in DIR/A and DIR/B")
        claim_out(out, "verdict comparison")
        va = study(ruleset=a, overrides=overrides, **kwargs,
                   **_refit(refit_with, out / "A" / "refit", a, overrides, kwargs))
        planned = {(r.rung, int(r.players)): int(r.games) for r in va.plan.itertuples()}
        vb = study(ruleset=b, overrides=overrides, **(kwargs | {"games": planned}),
                   **_refit(refit_with, out / "B" / "refit", b, overrides, kwargs))
        _write(va, out / "A")
        _write(vb, out / "B")
    else:
        raise click.BadParameter(f"{a} and {b}: give two verdict directories or two ruleset files",
                                 param_hint="--compare")
    if out is not None:
        claim_out(out, "verdict comparison")
    changes = compare(va, vb)
    table = summary(changes)
    fitted = {side: v.meta.get("players_fitted_to") or "not recorded" for side, v in (("A", va), ("B", vb))}
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        changes.to_csv(out / "compare.csv", index=False)
        table.to_csv(out / "compare_summary.csv", index=False)
        (out / "compare.json").write_text(json.dumps({"A": str(a), "B": str(b), "players_fitted_to": fitted},
                                                     indent=1) + "\n")
    from sim.verdict.units import show, with_unit

    for row in table.itertuples():
        m = row.measure
        click.echo(f"{row.players}p  {m:<40} {row.reading} (at {row.at_top_rung}: "
                   f"{with_unit(m, show(m, row.top_change, True))} [{show(m, row.top_lo, True)}, "
                   f"{show(m, row.top_hi, True)}])")
    for side, text in fitted.items():
        click.echo(f"players of {side}: {text}")
    if out is not None:
        click.echo(f"written: {out}/compare.csv, compare_summary.csv, compare.json")


COMMANDS = [verdict_cmd]
