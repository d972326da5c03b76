"""`mobsim play`: one game told turn by turn, by the same engine that plays the batches;
`mobsim replay`: any game of a run as a page to step through (both with `--html`)."""

import json
import sys
from pathlib import Path

import click

from sim.cli.common import DEFAULT_GAME, GAMES, GAME_HELP, OutPath, players_of, ruleset_from_options, ruleset_options
from sim.cli.files import target_file, write_whole

MAX_GAME_ID = 2**31 - 1  # the runner's game ids (sim.runner.core.MAX_GAME_ID, int32 columns)


@click.command("play")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True, help="Run seed.")
@click.option("--game-id", type=click.IntRange(0, MAX_GAME_ID), default=0, show_default=True,
              help="Which game of the run (with --seed, it fixes every die).")
@click.option("--players", type=click.IntRange(2, 5), default=None,
              help="Players at the table (default: the game's usual table, 4; pig 2).")
@click.option("--strategies", default="simple", show_default=True,
              help="Comma-separated strategy per seat, or one for every seat.")
@click.option("--game", type=click.Choice(GAMES), default=DEFAULT_GAME, show_default=True,
              help=GAME_HELP)
@ruleset_options
@click.option("--json", "as_json", is_flag=True, help="One JSON object: result and events.")
@click.option("--html", "html_path", type=OutPath(dir_okay=False, path_type=Path), default=None,
              help="Also write the game as a replay page to step through (offline, one file).")
@click.option("--human", type=int, default=None, metavar="SEAT",
              help="Seat a person at seat SEAT, counted from 1 as every page and narration counts "
                   "them (seat 1 acts first in turn 1): the terminal shows that seat's view and asks "
                   "for its choices by number; the other seats play --strategies.")
def play_cmd(seed, game_id, players, strategies, game, ruleset, sets, as_json, html_path, human):
    """Play one game and tell it: bids, moves, checks, missions, fights, recruits, ranking.
    With --human SEAT, play that seat yourself against the bots."""
    from sim.shared.game import find

    entry, narrate = find(game).part("game"), find(game).part("narrate")
    play_one, result, event_dicts, story = entry.play_one, entry.result, narrate.event_dicts, narrate.story

    rs = ruleset_from_options(ruleset, sets, game=game)
    players = players_of(players, game)
    if html_path is not None:   # checked before the game: a page, never a device or a folder
        html_path = target_file(html_path, force=True, hint="--html", suffixes=(".html",), check_folder=False)
    names = [s.strip() for s in strategies.split(",") if s.strip()]
    if not names:
        raise click.BadParameter("empty: give one strategy per seat or one for every seat, e.g. "
                                 "simple", param_hint="--strategies")
    longest = max(names, key=len)
    if len(longest) > 200:
        raise click.BadParameter(f"a strategy name of {len(longest):,} characters ({longest[:20]}...): "
                                 "names are at most 200, e.g. simple or runner+no-provoke",
                                 param_hint="--strategies")
    if human is not None:
        _play_human(game, rs, names, players, seed, game_id, human, as_json or html_path)
        return
    try:
        played = play_one(seed, players, names, rs, game_id=game_id)
    except ValueError as err:
        raise click.BadParameter(str(err), param_hint="--strategies/--players") from err
    page = None
    if html_path is not None:
        from sim.replay import GameSpec

        spec = GameSpec(game, seed, game_id, players, tuple(played.lineup.names))
        page = _write_page(spec, rs, html_path, played)
    if as_json:
        out = result(played)
        out["events"] = event_dicts(played)
        if page is not None:
            out["replay"] = str(page)
        click.echo(json.dumps(out))
        return
    for line in story(played):
        click.echo(line)
    if page is not None:
        click.echo(f"Replay: {page.resolve().as_uri()}")


def _play_human(game, rs, names, players, seed, game_id, seat, other_output):
    """A person plays `seat` through the game's forward model (sim.shared.forward.play_human)."""
    from sim.shared.forward import play_human
    from sim.shared.game import find

    if other_output:
        raise click.UsageError("--human plays in the terminal: leave out --json and --html")
    if sys.stdin is None or sys.stdin.closed:
        raise click.UsageError("--human reads your answers from standard input, which is closed: "
                               "run it in a terminal (or pipe the answers in)")
    index = seat_index(seat, players, find(game).first_seat)
    try:
        forward = find(game).part("forward")
    except ImportError as err:
        raise click.ClickException(f"the {game} forward model is not in this build ({err})") from err
    try:
        fw = forward.Forward.new(rs, names, players=players, seed=seed, game_id=game_id, stop=(index,),
                                 record=True)
    except ValueError as err:
        raise click.BadParameter(str(err), param_hint="--strategies/--players") from err
    try:
        play_human(fw, index, ask=input, say=click.echo)
    except (EOFError, RuntimeError) as err:   # input() raises RuntimeError when stdin goes away
        raise click.UsageError("the input ended before the game did: answer every decision "
                               "with an option number") from err


def seat_index(seat: int, players: int, first_seat: str) -> int:
    """The stored seat index (0..N-1) of seat `seat` as a person numbers it (1..N, sim.shared.seats.seat_number)."""
    if not 1 <= seat <= players:
        raise click.BadParameter(f"seat {seat} is not at a table of {players}: seats are numbered 1 to {players} "
                                 f"(seat 1: {first_seat})", param_hint="--human")
    return seat - 1


def _write_page(spec, rs, path: Path, played=None) -> Path:
    """Write the replay page; with `played`, check it against the jitted game (same winner, turns)."""
    from sim.replay import ReplayError, write_replay
    from sim.shared.game import find

    expect = None
    if played is not None:
        g = played.game.g
        state = find(spec.game).part("state")
        expect = {"winner": int(g[state.WINNER]), "turns": int(g[state.TURNS_PLAYED])}
    try:
        return write_whole(path, lambda tmp: write_replay(spec, rs, tmp, expect=expect), hint="--html",
                           make_folder=True)
    except ReplayError as err:
        raise click.ClickException(str(err)) from err


@click.command("replay")
@click.argument("run_dir", type=click.Path(file_okay=False, path_type=Path))
@click.argument("game_id", type=click.IntRange(min=0))
@click.option("--html", "html_path", type=OutPath(dir_okay=False, path_type=Path),
              default=Path("replay.html"), show_default=True, help="The page to write.")
def replay_cmd(run_dir, game_id, html_path):
    """Replay game GAME_ID of the run in RUN_DIR (its seed, strategies and ruleset from the
    manifest) and write it as a page: the board, each family, the police, missions and custody
    step by step, with the fights and interrogations and their dice. Works offline."""
    from sim.replay import ReplayError, spec_of_run

    try:
        spec, rs = spec_of_run(run_dir, game_id)
    except ReplayError as err:
        raise click.BadParameter(str(err), param_hint="RUN_DIR/GAME_ID") from err
    page = target_file(html_path, force=True, hint="--html", suffixes=(".html",), check_folder=False)
    expect = _run_row(run_dir, game_id)
    from sim.replay import write_replay

    try:
        write_whole(page, lambda tmp: write_replay(spec, rs, tmp, expect=expect), hint="--html", make_folder=True)
    except ReplayError as err:
        raise click.ClickException(str(err)) from err
    click.echo(f"Replay of game {game_id}: {page.resolve().as_uri()}")


def _run_row(run_dir, game_id) -> dict | None:
    """The run's own winner and length of the game, to check the replay against (None if the
    game's batch is not finished)."""
    import sim

    games = sim.load(run_dir).games
    row = games[games["game_id"] == game_id]
    if row.empty:
        return None
    return {"winner": int(row["winner_seat"].iloc[0]), "turns": int(row["turns"].iloc[0])}


COMMANDS = [play_cmd, replay_cmd]
