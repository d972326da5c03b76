"""`mobsim luck`: how much of a game's outcome each source of luck decides (sim.analysis.luck)."""

import json
from pathlib import Path

import click

from sim.cli.files import claim_out
from sim.cli.common import DEFAULT_GAME, GAMES, OutPath, ruleset_from_options, ruleset_options


def parse_turns(text: str) -> tuple[int, ...]:
    """"0,5,10" -> (0, 5, 10); "0:30:5" -> 0, 5, ..., 30 (turn 0: drawn afresh from the setup)."""
    try:
        if ":" in text:
            lo, hi, step = (int(x) for x in text.split(":"))
            if step <= 0 or hi < lo:
                raise ValueError
            turns = tuple(range(lo, hi + 1, step))
        else:
            turns = tuple(int(x) for x in text.split(",") if x.strip())
    except ValueError:
        raise click.BadParameter(f"{text!r} is not a list of turns: write 0,5,10 or FIRST:LAST:STEP "
                                 "such as 0:30:5", param_hint="--turns") from None
    if not turns or min(turns) < 0:
        raise click.BadParameter(f"{text!r}: turns are 0 (from the setup) or more", param_hint="--turns")
    return tuple(sorted(set(turns)))


def _luck(game, ruleset, sets, strategies, players, seed, rs=None):
    from sim.analysis.luck.games import luck_of

    rs = rs or ruleset_from_options(ruleset, sets, game)
    specs = [s.strip() for s in strategies.split(",") if s.strip()]
    if not specs:
        raise click.BadParameter("no strategy given: name one per seat or one for every seat",
                                 param_hint="--strategies")
    if any(s.startswith("search") for s in specs):
        raise click.BadParameter("a search player cannot be measured here (it plays through its own "
                                 "driver): choose other strategies", param_hint="--strategies")
    luck = luck_of(game)(rs, specs, players, seed)
    try:
        luck.check()
    except ValueError as err:
        raise click.UsageError(" ".join(str(err).split())) from None
    return luck


def _rungs(game, text, players, ruleset):
    from sim.analysis.luck.games import luck_of
    from sim.shared.game import find

    names = find(game).ladder if text is None else tuple(s.strip() for s in text.split(",") if s.strip())
    if len(names) < 2:
        raise click.BadParameter(f"{text!r}: name at least two rungs, weakest first, e.g. random,simple",
                                 param_hint="--rungs")
    for name in names:
        try:
            luck_of(game)(ruleset, [name], players, 0).check()
        except ValueError as err:
            raise click.BadParameter(" ".join(str(err).split()), param_hint="--rungs") from None
    return names


RUN_SETS = ("game", "players", "strategies", "seed", "ruleset", "sets")   # what a run's manifest fixes


def _of_run(run_dir: Path, ctx):
    """(game, players, strategies, seed, ruleset) of the run in RUN_DIR, from its manifest."""
    from click.core import ParameterSource

    given = [f"--{n.replace('_', '-')}" for n in RUN_SETS if ctx.get_parameter_source(n) != ParameterSource.DEFAULT]
    if given:
        raise click.UsageError(f"RUN_DIR fixes the game, players, strategies, seed and rules: drop {', '.join(given)}")
    return run_setting(run_dir, "RUN_DIR")


def luck_of_run(run_dir: Path, hint: str):
    """The luck tables of a run's games (its game, players, strategies, seed and rules)."""
    game, players, strategies, seed, rs = run_setting(run_dir, hint)
    return _luck(game, None, (), strategies, players, seed, rs)


def run_setting(run_dir: Path, hint: str):
    """(game, players, strategies, seed, ruleset) of a run, from its manifest; a run the luck
    study cannot replay is refused in one line."""
    from sim.replay import ReplayError, spec_of_run

    try:
        spec, rs = spec_of_run(run_dir, 0)
    except (ReplayError, KeyError, ValueError) as err:
        raise click.BadParameter(" ".join(str(err).split()), param_hint=hint) from None
    if spec.seating not in (True, "rotate"):
        raise click.BadParameter(f"{run_dir} seats its strategies by {spec.seating!r}; the luck study seats "
                                 "them as rotate does: play the run with the default seating", param_hint=hint)
    return spec.game, spec.players, ",".join(spec.strategies), spec.seed, rs


def _variant(luck, versus, ruleset, sets, game):
    """The study's games under the ruleset changed by --versus (on top of --ruleset and --set)."""
    if luck.ruleset.fingerprint != ruleset_from_options(ruleset, sets, game).fingerprint:
        raise click.UsageError("--versus changes the rules given by --ruleset and --set: with RUN_DIR, "
                               "give no --versus or play the variant as a run of its own")
    try:
        changed = ruleset_from_options(ruleset, tuple(sets) + tuple(versus), game)
    except click.BadParameter as err:      # --set was read before: the fault is in --versus
        err.param_hint = "--versus"
        raise
    except click.UsageError as err:
        raise click.UsageError(err.message.replace("--set", "--versus", 1)) from None
    return type(luck)(changed, luck.strategies, luck.players, luck.seed)


@click.command("luck")
@click.argument("run_dir", required=False, type=click.Path(path_type=Path))
@click.option("--game", type=click.Choice(GAMES), default=DEFAULT_GAME, show_default=True)
@click.option("--players", type=click.IntRange(2, 8), default=4, show_default=True)
@click.option("--strategies", default="balanced", show_default=True,
              help="Comma-separated strategy per seat, or one for every seat.")
@click.option("--games", type=click.IntRange(min=1), default=100, show_default=True,
              help="Games measured (game ids from --first-game on).")
@click.option("--first-game", type=click.IntRange(min=0), default=0, show_default=True)
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True)
@click.option("--turns", default="0", show_default=True,
              help="Turns from which each source is drawn afresh: 0,5,10 or FIRST:LAST:STEP "
                   "(0: from the setup, the decks' order and the lots included).")
@click.option("--replicates", type=click.IntRange(min=1), default=1, show_default=True,
              help="Fresh draws of each source per game and turn.")
@click.option("--each-seat", is_flag=True, help="Also each seat's dice as a source of its own.")
@click.option("--skill-games", type=click.IntRange(min=0), default=0, show_default=True,
              help="Also skill against chance (Duersch, Lambrecht & Oechssler): a round robin of the rungs, "
                   "this many games a profile, their rating dispersion against a pure-skill benchmark "
                   "(0: not measured).")
@click.option("--rungs", default=None, metavar="A,B,...",
              help="The population of the round robin, weakest first (default: the game's ladder, "
                   "sim.shared.game).")
@click.option("--decisions", "decision_games", type=click.IntRange(min=0), default=0, show_default=True,
              help="Also decisions that matter: in this many games (from --first-game), each decision's "
                   "options played out on the same luck (0: not measured).")
@click.option("--max-options", type=click.IntRange(min=2), default=6, show_default=True,
              help="Options tried at a decision of --decisions, spread evenly over a longer list.")
@click.option("--versus", multiple=True, metavar="KEY=VALUE",
              help="Also the same study with this rule changed (repeatable), and per source the "
                   "change of the winner-change share with its paired interval.")
@ruleset_options
@click.option("--out", type=OutPath(file_okay=False, path_type=Path), default=None,
              help="Directory for luck.png (a bar per source, a curve over turns), luck.csv, luck.json.")
@click.option("--json", "as_json", is_flag=True, help="Print the table as one JSON object.")
@click.pass_context
def luck_cmd(ctx, run_dir, game, players, strategies, games, first_game, seed, turns, replicates, each_seat,
             skill_games, rungs, decision_games, max_options, versus, ruleset, sets, out, as_json):
    """How much is luck, and which luck: each game played again with one source of luck drawn
    afresh (every other stream as it was) and, as the baseline, with all of them drawn afresh.
    Per source: the share of games whose winner changes, that share over the baseline's, and
    the mean change of a seat's score and rank, with 95% intervals. With --skill-games: a round
    robin of the rungs, the dispersion of their Plackett-Luce ratings (rating_sd) and the share
    of results a pure-skill game among them would hand to a coin flip to be as dispersed
    (coin_flip_share); each pair's figure apart (pair_coin_share). With --decisions: the share of decisions
    whose options lead to different winners, by decision kind and by turn. With --versus: the
    same study under a changed ruleset, and each source's change. RUN_DIR: the games
    of that run (its game, players, strategies, seed and rules, from its manifest)."""
    from sim.analysis.luck import study
    from sim.analysis.luck.report import lines, to_json, write

    chosen = parse_turns(turns)
    if out is not None:
        claim_out(out, "luck")   # before the games: never a run's folder, never one that cannot be written
    if run_dir is not None:
        game, players, strategies, seed, rs = _of_run(run_dir, ctx)
        luck = _luck(game, None, (), strategies, players, seed, rs)
    else:
        luck = _luck(game, ruleset, sets, strategies, players, seed)
    ladder = _rungs(game, rungs, players, luck.ruleset) if skill_games else None
    variant = _variant(luck, versus, ruleset, sets, game) if versus else None
    result = study(luck, range(first_game, first_game + games), chosen, replicates, each_seat)
    if variant is not None:
        from sim.analysis.luck import compare

        other = study(variant, range(first_game, first_game + games), chosen, replicates, each_seat)
        result["versus"] = compare(result["rows"], other["rows"])
        result["versus_sets"] = list(versus)
    if ladder:
        from sim.analysis.luck.skill import skill_study

        result["skill"] = skill_study(game, ladder, players, skill_games, seed, luck.ruleset)
    if decision_games:
        from sim.analysis.luck.decisions import decisions

        import time

        t0 = time.perf_counter()
        result["decisions"] = decisions(luck, range(first_game, first_game + decision_games), max_options)
        result["cost"]["decisions_seconds"] = time.perf_counter() - t0
    if out is not None:
        try:
            write(result, out, luck)
        except OSError as err:
            raise click.BadParameter(f"cannot write in {out}: {err.strerror or err}", param_hint="--out") from None
    if as_json:
        click.echo(json.dumps(to_json(result, luck)))
        return
    for line in lines(result, luck):
        click.echo(line)
    if out is not None:
        click.echo(f"wrote {out}/luck.png, luck.csv, luck.json")


COMMANDS = [luck_cmd]
