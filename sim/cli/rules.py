"""`mobsim rules show|check` and `mobsim board`: the effective ruleset of either game, checked and drawn."""

import json
from pathlib import Path

import click

from sim.cli.common import DEFAULT_GAME, GAMES, GAME_HELP, OutPath, ruleset_from_options, ruleset_options
from sim.cli.files import target_file, write_whole


@click.group("rules")
def rules_group():
    """Show or check rulesets (every rule constant, ruling and card as data)."""


@rules_group.command("show")
@ruleset_options
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (for scripts).")
@click.option("--game", type=click.Choice(GAMES), default=DEFAULT_GAME, show_default=True,
              help=GAME_HELP)
def show_cmd(ruleset, sets, as_json, game):
    """Print the effective ruleset, what differs from the defaults and what is assumed."""
    rs = ruleset_from_options(ruleset, sets, game)
    if as_json:
        content = rs.to_dict()
        click.echo(json.dumps({
            "fingerprint": rs.fingerprint,
            "game": rs.game,
            "values": content.pop("values"),
            "money": {k: rs.money(k) for k in rs.values if rs.option(k).type == "money"},
            "changed": list(rs.defaults_changed()),
            "assumed": {k: list(v) if isinstance(v, tuple) else v for k, v in rs.assumed.items()},
            "content": {k: v for k, v in content.items() if k != "game"},
        }, sort_keys=False))
        return
    changed = set(rs.defaults_changed())
    click.echo(f"ruleset {rs.game}  fingerprint {rs.fingerprint}")
    if ruleset is not None:
        click.echo(f"file    {ruleset}")
    click.echo("")
    for key, value in rs.values.items():
        option = rs.option(key)
        shown = json.dumps(list(value) if isinstance(value, tuple) else value)
        if option.type == "money" and rs.money(key) != value:
            shown += f" -> {rs.money(key)} after {option.knob}"
        marks = [option.rule]
        if option.assumed:
            marks.append(option.source)  # "ruling" or "assumed"
        if key in changed:
            marks.append("changed")
        click.echo(f"{key:32s} {shown:28s} {' '.join(marks)}")
    click.echo("")
    for line in _content_lines(rs):
        click.echo(line)


def _content_lines(rs) -> list[str]:
    """One line per content file: the game hook's summary, or a line per kind."""
    from sim.rules.ruleset import content_hook

    hook = content_hook(rs.game)
    if hook.summary is not None:
        return hook.summary(rs)
    lines = []
    for kind in hook.kinds:
        part, named = rs.content[kind], rs.assumed.get(kind, ())
        size = f"{len(part)} cards, " if hasattr(part, "__len__") else ""
        lines.append(f"{kind:<11} {size}{len(named)} assumed{': ' + ', '.join(named) if named else ''}")
    return [*lines, f"assumed     {', '.join(rs.assumed['values'])}"]


@rules_group.command("check")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--game", type=click.Choice(GAMES), default=DEFAULT_GAME, show_default=True,
              help=GAME_HELP)
def check_cmd(file, game):
    """Validate a ruleset FILE as `mobsim run` would (the engine's capacities included); print
    its fingerprint and what it changes."""
    from sim.rules import Ruleset, RulesetError

    try:
        rs = Ruleset.load(file, game=game)
    except RulesetError as err:   # bad input: 2, as from `run` and every command taking a ruleset
        failure = click.ClickException(str(err))
        failure.exit_code = 2
        raise failure from None
    changed = ", ".join(rs.defaults_changed()) or "nothing"
    click.echo(f"{file}: ok  fingerprint {rs.fingerprint}  changes: {changed}")


PICTURES = (".png", ".svg", ".pdf")


@click.command("board")
@ruleset_options
@click.option("--out", type=OutPath(dir_okay=False, path_type=Path), default=Path("board.png"),
              show_default=True, help="Picture file (PNG, SVG or PDF by its suffix).")
@click.option("--game", type=click.Choice(GAMES), default=DEFAULT_GAME, show_default=True,
              help=GAME_HELP)
def board_cmd(ruleset, sets, out, game):
    """Draw the board as the ruleset's content defines it (sim/rules/<game>/draw.py): New York
    Kings' bands, special districts, rivers and connections; American Gangsters' districts and
    location cards, hospital, renown ladder and cost tracks. Assumed content is marked."""
    import importlib

    out = target_file(out, force=True, suffixes=PICTURES, check_folder=False)   # a picture is replaced, a device never
    rs = ruleset_from_options(ruleset, sets, game)
    draw = importlib.import_module(f"sim.rules.{game}.draw").draw_board
    click.echo(str(write_whole(out, lambda tmp: draw(rs, tmp), make_folder=True)))


COMMANDS = [rules_group, board_cmd]
