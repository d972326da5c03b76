"""`mobsim demo`: the balance study `make demo` runs, in one command: first the verdict about the
game (sim.verdict: every measure across the skill ladder and player counts, from a plan of fixed
game counts, so that every machine writes the same verdict), then a small advice (sim.verdict.advise:
candidate rule changes for its problems, measured paired), then simulated games of one lineup
played into a run directory and their full balance report (sim.analysis.report_run), then the
exact odds of every dice contest."""

import shlex
from pathlib import Path

import click

from sim.cli.common import OutPath, ruleset_from_options, ruleset_options
from sim.cli.files import claim_out

# The study's lineup (one strategy per seat, rotated): three styles and the equilibrium mixture of
# the meta-game (docs/meta-game.md). One constant, so the demo can be pointed at other strategies.
DEMO_STRATEGIES = "runner,enforcer,networker,meta:equilibrium"
DEMO_GAMES = 20_000
DEMO_RUN_DIR = Path("runs/demo")
# the verdict's plan: fixed game counts (games, not seconds: the same verdict on every machine).
# Every heuristic cell 2,000 games (a seat advantage's 95% half-width about 2 points); the search
# rung not played (named on the page as not judged: a search game costs seconds, and its reading
# needs a hundred of them, `mobsim verdict --search-games`); with a cold compile, the games and the
# report a fresh clone's `make demo` fits in five minutes on 2 cores
DEMO_VERDICT_GAMES = 2000
DEMO_VERDICT_PLAYERS = "3,4"
DEMO_VERDICT_PRECISION = 0.02
DEMO_VERDICT_METAGAME = 50   # games a profile of the population's meta-game plays
# the demo's advice: one player count, the strongest heuristic rung, fixed counts, the designer's
# knobs and the two options that set game length (mobsim advise for the full search)
DEMO_ADVISE = {"players": 4, "rungs": ("tuned",), "games": 1000, "screen": 250,
               "params": ("missions.last_turns", "missions.reward_scale"), "target_turns": (10.0, 12.0)}


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
@click.option("--verdict-games", type=click.IntRange(min=0), default=None,
              help=f"Games of each heuristic cell of the verdict across skill (default {DEMO_VERDICT_GAMES:,}, "
                   f"scaled down with --games below {DEMO_GAMES:,}, at least 50); 0 leaves the verdict and "
                   f"the advice out.")
@click.option("--verdict-players", default=DEMO_VERDICT_PLAYERS, show_default=True,
              help="Player counts of the verdict, comma-separated (2 to 5).")
@ruleset_options
@click.pass_context
def demo_cmd(ctx, out, run_dir, character_value, games, seed, workers, verdict_games, verdict_players,
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
    counts = _verdict_games(verdict_games, games)
    if counts > 0:
        v = _verdict(rs, verdict_players, counts, seed, workers, out)
        a = _advice(rs, counts, seed, workers, out)
        _open_with_verdict(report, v, a, command)
    odds = odds_study.build_report(odds_study.run(rs, character_value=character_value), command=command)
    report.blocks.extend(odds.blocks)
    index = _written(lambda: report.write(out), f"the report in {out}")
    click.echo(f"games played into: {run_dir} (open with sim.load({str(run_dir)!r}))")
    click.echo(f"report written: {index}")
    click.echo(f"open it in a browser: file://{index.resolve()}")


def _verdict_games(given, games: int) -> int:
    if given is not None:
        return int(given)
    return max(50, round(DEMO_VERDICT_GAMES * min(1.0, games / DEMO_GAMES)))


def _scaled(count: int, full: int, minimum: int) -> int:
    """A fixed count of the demo scaled like the verdict's games (the default plays it in full)."""
    return max(minimum, round(count * min(1.0, full / DEMO_VERDICT_GAMES)))


def _verdict(rs, players: str, games: int, seed: int, workers, out: Path):
    """The verdict across skill for the demo's rules, from its fixed plan (its files in <out>/verdict)."""
    from sim.cli.verdict import parse_players
    from sim.verdict import VerdictError, study, write

    counts = parse_players(players)
    meta_games = _scaled(DEMO_VERDICT_METAGAME, games, 5)
    try:
        v = study("nyk", players=counts, ruleset=rs, games=games, search_games=0, seed=seed,
                  workers=workers or _cores(), precision=DEMO_VERDICT_PRECISION, metagame=meta_games,
                  log=lambda m: click.echo(m, err=True))
    except VerdictError as err:
        raise click.UsageError(str(err)) from None
    v.meta["command"] = (f"mobsim verdict --game nyk --players {','.join(map(str, counts))} --games {games} "
                         f"--search-games 0 --precision {DEMO_VERDICT_PRECISION:g} --meta-games {meta_games} "
                         f"--seed {seed} --out {out / 'verdict'}")
    _written(lambda: write(v, out / "verdict"), f"the verdict in {out}")
    return v


def _advice(rs, games: int, seed: int, workers, out: Path):
    """A small advice for the demo's rules (DEMO_ADVISE, its counts scaled like the verdict's; its
    files in <out>/advise): the verdict's problems at 4 players and the changes that fix them."""
    from sim.verdict import VerdictError
    from sim.verdict.advise import advise, write
    from sim.verdict.fairness import TURNS

    a = DEMO_ADVISE
    overrides = {k: v for k, v in rs.values.items() if rs.option(k).default != v}
    try:
        result = advise("nyk", [a["players"]], list(a["rungs"]), targets={TURNS: a["target_turns"]},
                        games=_scaled(a["games"], games, 50), screen=_scaled(a["screen"], games, 20), seed=seed,
                        workers=workers or _cores(), params=list(a["params"]), overrides=overrides or None,
                        max_today=0,   # the plan's counts only: the same small advice on every machine
                        log=lambda m: click.echo(m, err=True))
    except VerdictError as err:
        raise click.UsageError(str(err)) from None
    _written(lambda: write(result, out / "advise"), f"the advice in {out}")
    return result


def _written(write, what: str):
    """What `write()` returns; a file system's refusal as a one-line error naming --out."""
    try:
        return write()
    except OSError as err:
        raise click.BadParameter(f"cannot write {what}: {err.strerror or err}", param_hint="--out") from None


def _cores() -> int:
    import os

    return max(1, len(os.sched_getaffinity(0)))


def _open_with_verdict(report, v, a, command: str) -> None:
    """The report's first screen: the verdict (its table, figure and plan), then the advice, the
    lineup study's manifest moved below them, one link away."""
    from sim.verdict.page import add_blocks

    lineup_blocks = report.blocks
    manifest = pd_frame(report.meta)
    report.blocks = []
    lineup = "The lineup study: one lineup of styles, seats rotated"
    add_blocks(report, v, lead=_verdict_lead(v))
    _advice_blocks(report, a)
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
            f"A fixed plan (verdict/plan.csv): {DEMO_VERDICT_GAMES:,} games a heuristic cell, the same "
            f"games on every machine; the search rung is not played here (a search game costs seconds, and "
            f"its reading needs a hundred: `mobsim verdict --search-games N`). Which styles of the shipped "
            f"population survive is its meta-game. Run `mobsim verdict --games 12000` for a tighter verdict.")


def _advice_blocks(report, a) -> None:
    """The advice after the verdict: its answer, each proposal's sentence, the link to its page."""
    from sim.verdict.advise import first_screen, method_text

    m = a.meta
    report.heading("Which change would fix it? (mobsim advise)")
    report.text(first_screen(a))
    for p in a.problems:
        for q in p["proposals"]:
            report.text(q["sentence"])
    report.text(f"A small advice: {m['players'][0]} players, {', '.join(m['rungs'])} only, the designer's "
                f"knobs and the options {', '.join(DEMO_ADVISE['params'])}. " + method_text(m)
                + " The players were not re-fitted to a candidate's rules. `mobsim advise --game nyk --players 4 "
                  "--target-turns 10-12` searches every knob at every good rung.")
    report.links([("The advice's files: advise/ (advice.json, advice.csv, screen.csv)", "advise/index.html")])


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
