"""`mobsim play`: one game told turn by turn, by the same engine that plays the batches."""

import json

import click

from sim.cli.common import ruleset_from_options, ruleset_options

MAX_GAME_ID = 2**31 - 1  # the runner's game ids (sim.runner.core.MAX_GAME_ID, int32 columns)


@click.command("play")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True, help="Run seed.")
@click.option("--game-id", type=click.IntRange(0, MAX_GAME_ID), default=0, show_default=True,
              help="Which game of the run (with --seed, it fixes every die).")
@click.option("--players", type=click.IntRange(2, 5), default=4, show_default=True)
@click.option("--strategies", default="simple", show_default=True,
              help="Comma-separated strategy per seat, or one for every seat.")
@click.option("--game", type=click.Choice(["nyk", "ag"]), default="nyk", show_default=True,
              help="nyk: New York Kings; ag: American Gangsters.")
@ruleset_options
@click.option("--json", "as_json", is_flag=True, help="One JSON object: result and events.")
def play_cmd(seed, game_id, players, strategies, game, ruleset, sets, as_json):
    """Play one game and tell it: bids, moves, checks, missions, fights, recruits, ranking."""
    if game == "ag":
        from sim.ag.game import play_one, result
        from sim.ag.narrate import event_dicts, story
    else:
        from sim.nyk.game import play_one, result
        from sim.nyk.narrate import event_dicts, story

    rs = ruleset_from_options(ruleset, sets, game=game)
    names = [s.strip() for s in strategies.split(",") if s.strip()]
    if not names:
        raise click.BadParameter("empty: give one strategy per seat or one for every seat, e.g. "
                                 "simple", param_hint="--strategies")
    longest = max(names, key=len)
    if len(longest) > 200:
        raise click.BadParameter(f"a strategy name of {len(longest):,} characters ({longest[:20]}...): "
                                 "names are at most 200, e.g. simple or runner+no-provoke",
                                 param_hint="--strategies")
    try:
        played = play_one(seed, players, names, rs, game_id=game_id)
    except ValueError as err:
        raise click.BadParameter(str(err), param_hint="--strategies/--players") from err
    if as_json:
        out = result(played)
        out["events"] = event_dicts(played)
        click.echo(json.dumps(out))
        return
    for line in story(played):
        click.echo(line)


COMMANDS = [play_cmd]
