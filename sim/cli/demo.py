"""`mobsim demo`: the balance study `make demo` runs, as a report: simulated games (who wins, by
strategy and seat), then the exact odds of every dice contest."""

import shlex
from pathlib import Path

import click

from sim.cli.common import ruleset_from_options, ruleset_options


@click.command("demo")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path),
              default=Path("reports/demo"), show_default=True,
              help="Directory of the report (index.html, index.md, figures/, tables/).")
@click.option("--character-value", type=click.IntRange(0, 1_000_000), default=6000,
              show_default=True,
              help="Dollars a side would pay to keep a character (prices a fusillade's loss).")
@click.option("--games", type=click.IntRange(min=4), default=20_000, show_default=True,
              help="4-player games to simulate (simple against random players, seats rotated).")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True)
@ruleset_options
@click.pass_context
def demo_cmd(ctx, out, character_value, games, seed, ruleset, sets):
    """Write the balance report: simulated games, then the exact odds of recruitment,
    interrogation and provocation."""
    import sim
    from sim.analysis import balance, odds_study

    rs = ruleset_from_options(ruleset, sets)
    strategies = ("simple", "random", "simple", "random")
    played = sim.run(players=4, strategies=strategies, games=games, seed=seed, ruleset=rs)
    study = odds_study.run(rs, character_value=character_value)
    report = odds_study.build_report(study, command=_command(ctx))
    report.title = "mobsim balance study: New York Kings"
    description = (f"{games:,} simulated 4-player games (seed {seed}), two `simple` players against "
                   "two `random` ones, every strategy in every seat equally often. The `simple` "
                   "player runs missions; `random` picks uniformly among the legal options.")
    odds_blocks = list(report.blocks)
    report.blocks.clear()  # the games first, then the odds
    balance.add_to_report(report, played.games, played.seats, description)
    report.blocks.extend(odds_blocks)
    try:
        index = report.write(out)
    except OSError as err:
        raise click.BadParameter(f"cannot write the report in {out}: {err.strerror or err}",
                                 param_hint="--out") from None
    click.echo(f"report written: {index}")
    click.echo(f"open it in a browser: file://{index.resolve()}")


def _command(ctx) -> str:
    """The command line that reproduces this report (the options as given)."""
    words = ["mobsim", *ctx.command_path.split()[1:]]
    params = ctx.params
    words += ["--out", str(params["out"])]
    if params["games"] != 20_000:
        words += ["--games", str(params["games"])]
    if params["seed"] != 0:
        words += ["--seed", str(params["seed"])]
    if params["character_value"] != 6000:
        words += ["--character-value", str(params["character_value"])]
    if params["ruleset"] is not None:
        words += ["--ruleset", str(params["ruleset"])]
    for item in params["sets"]:
        words += ["--set", item]
    return shlex.join(words)


COMMANDS = [demo_cmd]
