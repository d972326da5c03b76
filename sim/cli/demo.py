"""`mobsim demo`: the balance study `make demo` runs, in one command: simulated games played into
a run directory, their full balance report (sim.analysis.report_run), then the exact odds of
every dice contest."""

import shlex
from pathlib import Path

import click

from sim.cli.common import ruleset_from_options, ruleset_options

# The study's lineup (one strategy per seat, rotated): three styles and the equilibrium mixture of
# the meta-game (docs/meta-game.md). One constant, so the demo can be pointed at other strategies.
DEMO_STRATEGIES = "runner,enforcer,networker,meta:equilibrium"
DEMO_GAMES = 20_000
DEMO_RUN_DIR = Path("runs/demo")


@click.command("demo")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path),
              default=Path("reports/demo"), show_default=True,
              help="Directory of the report (index.html, index.md, figures/, tables/).")
@click.option("--run-dir", type=click.Path(file_okay=False, path_type=Path), default=DEMO_RUN_DIR,
              show_default=True, help="Run directory the games are played into (cleared first).")
@click.option("--character-value", type=click.IntRange(0, 1_000_000), default=6000,
              show_default=True,
              help="Dollars a side would pay to keep a character (prices a fusillade's loss).")
@click.option("--games", type=click.IntRange(min=4), default=DEMO_GAMES, show_default=True,
              help=f"Games to simulate ({DEMO_STRATEGIES}, seats rotated).")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True)
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Processes playing the games (default: one per core).")
@ruleset_options
@click.pass_context
def demo_cmd(ctx, out, run_dir, character_value, games, seed, workers, ruleset, sets):
    """Play a balance study and write its report: who wins and how games go, the economy and the
    mechanics, then the exact odds of recruitment, interrogation and provocation."""
    from sim.analysis import odds_study
    from sim.analysis.run_report import build_report

    rs = ruleset_from_options(ruleset, sets)
    played = _play(rs, games, seed, run_dir, workers)
    command = _command(ctx)
    report = build_report(played, command=command, out_dir=out, replays=True)
    report.title = "mobsim balance study: New York Kings"
    report.blocks.insert(0, ("text", _description(games, seed, run_dir)))
    odds = odds_study.build_report(odds_study.run(rs, character_value=character_value), command=command)
    report.blocks.extend(odds.blocks)
    try:
        index = report.write(out)
    except OSError as err:
        raise click.BadParameter(f"cannot write the report in {out}: {err.strerror or err}",
                                 param_hint="--out") from None
    click.echo(f"games played into: {run_dir} (open with sim.load({str(run_dir)!r}))")
    click.echo(f"report written: {index}")
    click.echo(f"open it in a browser: file://{index.resolve()}")


def _play(rs, games: int, seed: int, run_dir: Path, workers):
    import sim
    from sim.runner import RunError

    players = len(DEMO_STRATEGIES.split(","))
    try:
        return sim.run(players=players, strategies=DEMO_STRATEGIES, games=games, seed=seed, ruleset=rs,
                       out=run_dir, force=True, record_turns=True, workers=workers)
    except RunError as err:
        raise click.BadParameter(" ".join(str(err).split()), param_hint="--run-dir") from None


def _description(games: int, seed: int, run_dir: Path) -> str:
    lineup = DEMO_STRATEGIES.split(",")
    return (f"{games:,} simulated {len(lineup)}-player games (seed {seed}, played into {run_dir}) with the "
            f"lineup {', '.join(lineup)}, every strategy in every seat equally often; then the exact odds "
            "of every dice contest. Each is a preset of the heuristic player or a mixture of presets "
            "(`mobsim strategies list`): "
            + "; ".join(f"{name}: {_doc(name)}" for name in dict.fromkeys(lineup)) + ".")


def _doc(name: str) -> str:
    import strategies
    from strategies import mixture

    if mixture.is_mixture(name):
        mix = mixture.load(name)
        parts = ", ".join(f"{Path(c).stem} {w:.0%}" for c, w in zip(mix.components, mix.weights, strict=True))
        return f"{mix.doc.rstrip('.')}, each game one style drawn from {parts}"
    return strategies.load(name).doc.rstrip(".")


def _command(ctx) -> str:
    """The command line that reproduces this report (the options as given)."""
    words = ["mobsim", *ctx.command_path.split()[1:]]
    params = ctx.params
    words += ["--out", str(params["out"])]
    if params["run_dir"] != DEMO_RUN_DIR:
        words += ["--run-dir", str(params["run_dir"])]
    if params["games"] != DEMO_GAMES:
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
