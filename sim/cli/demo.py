"""`mobsim demo`: the balance study `make demo` runs, in one command: first the verdict about the
game (sim.verdict: every measure across the skill ladder and player counts, within a small time
budget stated on the page), then simulated games of one lineup played into a run directory and
their full balance report (sim.analysis.report_run), then the exact odds of every dice contest."""

import shlex
from pathlib import Path

import click

from sim.cli.common import OutPath, finite, ruleset_from_options, ruleset_options
from sim.cli.files import claim_out

# The study's lineup (one strategy per seat, rotated): three styles and the equilibrium mixture of
# the meta-game (docs/meta-game.md). One constant, so the demo can be pointed at other strategies.
DEMO_STRATEGIES = "runner,enforcer,networker,meta:equilibrium"
DEMO_GAMES = 20_000
DEMO_RUN_DIR = Path("runs/demo")
# the verdict's study: its budget (seconds, scaled down with a smaller --games) and player counts
# and precision (a seat advantage's half-width: coarser than the command's default, so that the
# search seat against equilibrium seats gets a few games; with a cold compile, the games and the
# report, a fresh clone's `make demo` fits in five minutes)
DEMO_VERDICT_BUDGET = 180.0
DEMO_VERDICT_PLAYERS = "3,4"
DEMO_VERDICT_PRECISION = 0.02
DEMO_VERDICT_METAGAME = 50   # games a profile of the population's meta-game plays (scaled like the budget)


@click.command("demo")
@click.option("--out", type=OutPath(file_okay=False, path_type=Path),
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
@click.option("--verdict-budget", type=click.FloatRange(min=0), default=None, callback=finite,
              help=f"Seconds for the verdict across skill (default {DEMO_VERDICT_BUDGET:g}, scaled down "
                   f"with --games below {DEMO_GAMES:,}, at least 5); 0 leaves the verdict out.")
@click.option("--verdict-players", default=DEMO_VERDICT_PLAYERS, show_default=True,
              help="Player counts of the verdict, comma-separated (2 to 5).")
@ruleset_options
@click.pass_context
def demo_cmd(ctx, out, run_dir, character_value, games, seed, workers, verdict_budget, verdict_players,
             ruleset, sets):
    """Play a balance study and write its report: who wins and how games go, the economy and the
    mechanics, then the exact odds of recruitment, interrogation and provocation."""
    from sim.analysis import odds_study
    from sim.analysis.run_report import build_report

    rs = ruleset_from_options(ruleset, sets)
    claim_out(out, "report")   # before the games: never a run's folder, never one that cannot be written
    played = _play(rs, games, seed, run_dir, workers)
    command = _command(ctx)
    report = build_report(played, command=command, out_dir=out, replays=True)
    report.title = "mobsim balance study: New York Kings"
    report.blocks.insert(0, ("text", _description(games, seed, run_dir)))
    budget = _verdict_budget(verdict_budget, games)
    if budget > 0:
        _open_with_verdict(report, _verdict(rs, verdict_players, budget, seed, workers, out), command)
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


def _verdict_budget(given, games: int) -> float:
    if given is not None:
        return float(given)
    return max(5.0, DEMO_VERDICT_BUDGET * min(1.0, games / DEMO_GAMES))


def _verdict(rs, players: str, budget: float, seed: int, workers, out: Path):
    """The verdict across skill for the demo's rules (its files in <out>/verdict)."""
    from sim.cli.verdict import parse_players
    from sim.verdict import VerdictError, study, write

    counts = parse_players(players)
    meta_games = max(5, round(DEMO_VERDICT_METAGAME * min(1.0, budget / DEMO_VERDICT_BUDGET)))
    try:
        v = study("nyk", players=counts, ruleset=rs, budget=budget, seed=seed, workers=workers or _cores(),
                  precision=DEMO_VERDICT_PRECISION, metagame=meta_games,
                  log=lambda m: click.echo(m, err=True))
    except VerdictError as err:
        raise click.UsageError(str(err)) from None
    v.meta["command"] = (f"mobsim verdict --game nyk --players {','.join(map(str, counts))} --budget {budget:g} "
                         f"--precision {DEMO_VERDICT_PRECISION:g} --meta-games {meta_games} --seed {seed} "
                         f"--out {out / 'verdict'}")
    try:
        write(v, out / "verdict")
    except OSError as err:
        raise click.BadParameter(f"cannot write the verdict in {out}: {err.strerror or err}",
                                 param_hint="--out") from None
    return v


def _cores() -> int:
    import os

    return max(1, len(os.sched_getaffinity(0)))


def _open_with_verdict(report, v, command: str) -> None:
    """The report's first screen: the verdict (its table, figure and budget), the lineup study's
    manifest moved below it, one link away."""
    from sim.verdict.page import add_blocks

    lineup_blocks = report.blocks
    manifest = pd_frame(report.meta)
    report.blocks = []
    lineup = "The lineup study: one lineup of styles, seats rotated"
    add_blocks(report, v, lead=_verdict_lead(v))
    report.links([("The lineup study (who wins, game quality, economy, mechanics, exact odds): ",
                   "#" + report.anchor(lineup)),
                  (f"The verdict's files: verdict/ (verdict.csv, measures.csv, verdict.png); again with: "
                   f"{v.meta['command']}", "verdict/index.html")])
    report.heading(lineup)
    report.table(manifest, "The lineup run: manifest", name="lineup-manifest", shown=manifest)
    report.blocks.extend(lineup_blocks)
    report.meta = {k: report.meta[k] for k in report.meta if k in _FIRST_SCREEN_META}


_FIRST_SCREEN_META = ("game", "ruleset fingerprint", "options changed", "report by mobsim", "this report")


def pd_frame(meta):
    """A report's manifest as a two-column table."""
    import pandas as pd

    return pd.DataFrame({"field": list(meta), "value": [str(v) for v in meta.values()]})


def _verdict_lead(v) -> str:
    m = v.meta
    return (f"Is New York Kings fair to every seat, does it last and stay tense, at every player count, "
            f"and does that still hold once players are good? Mirrors of the skill ladder "
            f"({', '.join(m['rungs'])}: every seat the same rung) at {', '.join(map(str, m['players']))} "
            f"players on common random numbers (seed {m['seed']}), read by the rules of docs/reports.md. "
            f"A small budget: {m['budget']:g} s of play on this machine ({m['seconds']:g} s taken), game counts "
            f"chosen for ±{m['precision']:.0%} on each seat's advantage within it; the search rung gets what "
            f"the budget allows and its wide intervals are shown as such (a rung whose interval is wider than a "
            f"measure's band is not judged). Which styles of the shipped population survive is its meta-game, "
            f"played within the same budget. Run `mobsim verdict --budget 3600` for a tighter verdict.")


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
