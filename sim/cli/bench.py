"""`mobsim bench`: speed figures measured in one run, printed as one JSON object."""

import json

import click


@click.command("bench")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (for scripts).")
@click.option("--seconds", default=1.0, show_default=True, help="Target time of each measurement.")
def bench_cmd(as_json, seconds):
    """Measure kernel speeds (hands, fights) and their ratio to plain Python, in one run."""
    from sim.bench import run_all

    figures = run_all(seconds=seconds)
    if as_json:
        click.echo(json.dumps(figures))
    else:
        for key, value in figures.items():
            click.echo(f"{key:32s} {value:,.1f}" if isinstance(value, float) else f"{key:32s} {value}")


COMMANDS = [bench_cmd]
