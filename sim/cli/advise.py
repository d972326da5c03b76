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
@click.option("--try", "tries", multiple=True, metavar="KEY=VALUE[;KEY=VALUE]",
              help="A candidate change (repeatable; default: the game's designer knobs, docs/adding-a-rule-option.md).")
@click.option("--games", type=click.IntRange(min=1), default=None,
              help="Games a cell (default: from the tolerance, a seat's interval half the tolerance wide).")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True)
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True)
@scheduler_option
@click.option("--out", type=OutPath(file_okay=False, path_type=Path), required=True,
              help="Directory for advice.json, advice.csv, cells.csv, changes.csv and index.html.")
def advise_cmd(game, players, rungs, tolerance, target_turns, tries, games, seed, workers, scheduler, out):
    """Which seat is unfair, whether games last as wanted, and which rule changes fix it: each
    problem at the good rungs with the three candidate changes nearest the target, measured on
    the same games as today's rules, with their effect on every other measure."""
    from sim.cli.progress import Steps
    from sim.cli.verdict import _targets, parse_players
    from sim.verdict import VerdictError
    from sim.verdict.advise import advise, first_screen, write

    counts = parse_players(player_counts_of(players, game))
    candidates = None if not tries else [parse_sets(t.split(";")) for t in tries]
    bar = Steps("advise cells", "cell")
    try:
        result = advise(game, counts, None if rungs is None else rungs.split(","), tolerance / 100,
                        _targets(target_turns, ()), candidates, games, seed, workers, bar,
                        scheduler=scheduler)
    except VerdictError as err:
        raise click.UsageError(str(err)) from None
    finally:
        bar.close()
    write(result, out)
    click.echo(first_screen(result))
    click.echo(f"written: {out}/advice.json, advice.csv, index.html")


COMMANDS = [advise_cmd]
