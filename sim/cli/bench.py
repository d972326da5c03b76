"""`mobsim bench`: speed figures measured in one run, printed as one JSON object."""

import json

import click

from sim.cli.common import DEFAULT_GAME, GAMES, finite


@click.command("bench")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (for scripts).")
@click.option("--seconds", type=click.FloatRange(0.01, 600), default=1.0, show_default=True,
              callback=finite,
              help="Target time of each measurement.")
@click.option("--profile", "profile", default=None, metavar="STRATEGIES",
              help="Instead: play --games games of this lineup (comma-separated, one per seat or "
                   "one for all) on one thread and write perf's map of the jitted functions. Run "
                   "under `perf record -g`, then `perf report --no-children --sort sym`.")
@click.option("--games", type=click.IntRange(min=1), default=20000, show_default=True,
              help="Games played by --profile.")
@click.option("--game", type=click.Choice(GAMES), default=DEFAULT_GAME, show_default=True,
              help="The game --profile plays.")
def bench_cmd(as_json, seconds, profile, games, game):
    """Measure kernel speeds (hands, fights) and their ratio to plain Python, in one run; or,
    with --profile, play a lineup for perf to profile."""
    from sim.bench import perfmap, profile_games, run_all

    if profile is not None:
        perfmap.record_cache_loads()  # before the lineup's check imports the engine, which loads its policy
        names = _lineup(profile, game)
        figures = profile_games(names, games, game)
    else:
        figures = run_all(seconds=seconds)
    if as_json:
        click.echo(json.dumps(figures))
    else:
        for key, value in figures.items():
            click.echo(f"{key:32s} {value:,.1f}" if isinstance(value, float) else f"{key:32s} {value}")


def _lineup(spec: str, game: str) -> tuple:
    """Four seats from a comma-separated spec, checked as `mobsim run` checks them (one line)."""
    from sim.rules import Ruleset
    from sim.runner.games import adapter

    names = tuple(name.strip() for name in spec.split(","))
    if len(names) not in (1, 4):
        raise click.BadParameter(f"{spec!r}: give one strategy for every seat or four",
                                 param_hint="--profile")
    try:
        adapter(game).plan(Ruleset.load(game=game), 4, names, "rotate")
    except ValueError as err:
        raise click.BadParameter(str(err).splitlines()[0], param_hint="--profile") from None
    return names  # one name plays every seat (Lineup.of)


COMMANDS = [bench_cmd]
