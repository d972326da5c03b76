"""`mobsim advise`: the verdict's problems at the good rungs, and candidate rule changes measured
against them on the same games (sim.verdict.advise)."""

from pathlib import Path

import click

from sim.cli.common import DEFAULT_GAME, GAME_HELP, GAMES, OutPath, parse_sets, player_counts_of, scheduler_option


@click.command("advise")
@click.option("--game", type=click.Choice(GAMES), default=DEFAULT_GAME, show_default=True, help=GAME_HELP)
@click.option("--players", default=None, help="Player counts, comma-separated (default: every count the "
                                               "game's rules allow).")
@click.option("--rungs", default=None, help="The good rungs to read at (default: the upper half of the "
                                            "game's ladder, search rungs left out).")
@click.option("--tolerance", type=click.FloatRange(min=0, min_open=True, max=50, max_open=True), default=2.0,
              show_default=True, help="Points of win share a seat may be from fair and still read 'fair'.")
@click.option("--target-turns", default=None, metavar="LOW-HIGH", help="Wanted game length in turns (10-12).")
@click.option("--target", "targets", multiple=True, metavar="MEASURE=LOW-HIGH",
              help="Where another measure should be at the good rungs, in its unit (a share in points): "
                   "'a player out=0-10', 'runaway leader (mid-game leader wins)=0-30'; repeatable.")
@click.option("--try", "tries", multiple=True, metavar="KEY=VALUE[;KEY=VALUE]",
              help="A candidate change (repeatable; default: the game's designer knobs and one step down and up "
                   "of each numeric option, docs/adding-a-rule-option.md).")
@click.option("--set", "sets", multiple=True, metavar="KEY=VALUE",
              help="Today's rules: the defaults with these changes (repeatable); candidates change them further.")
@click.option("--param", "params", multiple=True, metavar="KEY",
              help="Step only these numeric options (repeatable; default: every numeric option).")
@click.option("--games", type=click.IntRange(min=1), default=None,
              help="Games a verification cell (default: from the tolerance, the paired interval of a seat's "
                   "change narrower than the tolerance).")
@click.option("--screen-games", type=click.IntRange(min=1), default=None,
              help="Games a screening cell (default: a quarter of --games).")
@click.option("--max-today", type=click.IntRange(min=0), default=None,
              help="Most games a cell of today's rules plays to decide a suspected problem (default: 20,000; "
                   "0: the plan's counts only).")
@click.option("--screen-rung", default=None, help="The good rung candidates are screened on (default: the "
                                                  "strongest good rung).")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True)
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True)
@scheduler_option
@click.option("--out", type=OutPath(file_okay=False, path_type=Path), required=True,
              help="Directory for advice.json, advice.csv, cells.csv, changes.csv and index.html.")
@click.option("--refit", is_flag=True,
              help="Verify the best proposal per problem again with the good rungs' players refit to its rules "
                   "(mobsim strategies refit; written in --out/refit/proposal-<k>).")
@click.option("--refit-budget", type=click.IntRange(min=1), default=20_000, show_default=True,
              help="With --refit: games the fitting of each best proposal's players may play (docs/refit.md).")
@click.pass_context
def advise_cmd(ctx, game, players, rungs, tolerance, target_turns, targets, tries, sets, params, games, screen_games,
               max_today, screen_rung, seed, workers, scheduler, out, refit, refit_budget):
    """Which seat is unfair, whether games last as wanted, and which rule changes fix it: each
    problem at the good rungs; candidates screened on one rung, the knobs that move it tuned, the
    nearest verified on the same games as today's rules at every good rung and count; the three
    best proposed with their paired effect on every other measure."""
    from sim.cli.progress import Steps
    from sim.cli.verdict import _targets, parse_players
    from sim.tuning.errors import TuningError
    from sim.verdict import VerdictError
    from sim.verdict.advise import MAX_TODAY, advise, first_screen, write

    from click.core import ParameterSource

    if not refit and ctx.get_parameter_source("refit_budget") not in (ParameterSource.DEFAULT, None):
        raise click.UsageError("--refit-budget sets the games of --refit: add --refit, or leave it out")
    counts = parse_players(player_counts_of(players, game))
    candidates = None if not tries else [parse_sets(t.split(";")) for t in tries]
    wanted = _targets(target_turns, targets)
    bar = Steps("advise cells", "cell")
    try:
        result = advise(game, counts, None if rungs is None else rungs.split(","), tolerance / 100, wanted,
                        candidates, games, seed, workers, bar, screen=screen_games, params=list(params) or None,
                        screen_rung=screen_rung, log=lambda m: click.echo(m, err=True),
                        overrides=parse_sets(sets) if sets else None, scheduler=scheduler,
                        max_today=MAX_TODAY if max_today is None else max_today,
                        refit_dir=out / "refit" if refit else None, refit_budget=refit_budget if refit else 0)
    except (VerdictError, TuningError) as err:
        raise click.UsageError(str(err)) from None
    finally:
        bar.close()
    write(result, out)
    click.echo(first_screen(result))
    click.echo(f"written: {out}/advice.json, advice.csv, screen.csv, index.html")


COMMANDS = [advise_cmd]
