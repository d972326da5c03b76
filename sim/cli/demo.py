"""`mobsim demo`: the balance study `make demo` runs (for now the odds study), as a report."""

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
@ruleset_options
@click.pass_context
def demo_cmd(ctx, out, character_value, ruleset, sets):
    """Write the balance report: exact odds of recruitment, interrogation and provocation."""
    from sim.analysis import odds_study

    rs = ruleset_from_options(ruleset, sets)
    study = odds_study.run(rs, character_value=character_value)
    try:
        index = odds_study.write_report(study, out, command=_command(ctx))
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
    if params["character_value"] != 6000:
        words += ["--character-value", str(params["character_value"])]
    if params["ruleset"] is not None:
        words += ["--ruleset", str(params["ruleset"])]
    for item in params["sets"]:
        words += ["--set", item]
    return shlex.join(words)


COMMANDS = [demo_cmd]
