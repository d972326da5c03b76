"""Options shared by the commands that take a ruleset: `--ruleset FILE` and `--set key=value`."""

import contextlib
from pathlib import Path

import click

from sim.rooms import DEFAULT_GAME, game_names
from sim.rules.spec import parse_value
from sim.shared.game import help_text

GAMES = game_names()   # the --game choices: every game found (sim.rooms), the default first
GAME_HELP = help_text()  # "nyk: New York Kings; ag: ..." from each game's description


def ruleset_options(func):
    """Add `--ruleset FILE` and repeated `--set key=value` (passed as `ruleset` and `sets`)."""
    func = click.option(
        "--set", "sets", multiple=True, metavar="KEY=VALUE",
        help="Change one rule option, e.g. --set provocation.stake=3000 (repeatable; values are "
             "TOML scalars: 3000, 1.2, true, \"bank\").",
    )(func)
    func = click.option(
        "--ruleset", type=click.Path(dir_okay=False, path_type=Path), default=None,
        metavar="FILE", help="A ruleset file holding only what it changes from the defaults.",
    )(func)
    return func


def scheduler_option(func):
    """Add `--scheduler local|tcp://HOST:PORT` (passed as `scheduler`): where a study plays, checked
    before any game (a bad value: exit 2; nothing answering at the address: exit 1). The command
    passes it on as its study function's `scheduler=` keyword (sim.runner.executor)."""
    return click.option(
        "--scheduler", default=None, metavar="local|tcp://HOST:PORT", callback=_checked_scheduler,
        help="Play on Dask: local starts a LocalCluster of --workers processes; tcp://HOST:PORT uses a "
             "running scheduler and its workers (docs/cluster.md). Results are the same as local workers'.",
    )(func)


def _checked_scheduler(ctx, param, value):
    from sim.runner.executor import check_reachable, check_scheduler
    from sim.runner.store import RunError

    try:
        check_scheduler(value)
    except RunError as err:
        raise click.BadParameter(str(err), ctx=ctx, param=param) from None
    try:
        check_reachable(value)
    except RunError as err:
        raise click.ClickException(str(err)) from None
    return value


def command_line() -> str:
    """The command as typed (`mobsim ...`, arguments quoted for a shell): a fitted file's provenance.
    Called from Python (no such command line), the command's name alone."""
    import shlex
    import sys

    ctx = click.get_current_context(silent=True)
    words = ctx.command_path.split()[1:] if ctx is not None else []   # e.g. strategies distill
    typed = sys.argv[1:]
    if typed[:len(words)] != words:
        typed = words
    return " ".join(["mobsim", *(shlex.quote(a) for a in typed)])


def parse_sets(sets) -> dict:
    """["a.b=3", ...] -> {"a.b": 3}; later settings of a key win."""
    overrides = {}
    for item in sets or ():
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise click.BadParameter(f"{item!r} is not KEY=VALUE (e.g. provocation.stake=3000)",
                                     param_hint="--set")
        overrides[key.strip()] = parse_value(value)
    return overrides


def ruleset_from_options(ruleset=None, sets=(), game: str = DEFAULT_GAME):
    """The Ruleset the options describe; a bad ruleset becomes a one-line usage error."""
    from sim.rules import Ruleset, RulesetError

    overrides = parse_sets(sets)
    try:
        return Ruleset.load(ruleset, overrides, game=game, overrides_origin="--set")
    except RulesetError as err:
        raise click.UsageError(str(err), ctx=click.get_current_context(silent=True)) from None


class OutPath(click.Path):
    """An output path; an empty one (which would mean the current directory) is refused."""

    def convert(self, value, param, ctx):
        if isinstance(value, str) and not value.strip():
            self.fail("the path is empty: name a directory, e.g. runs/study1", param, ctx)
        return super().convert(value, param, ctx)


def players_of(players, game: str) -> int:
    """--players, or the game's usual table when it was not given (sim.shared.game.Game.players)."""
    from sim.shared.game import find

    return find(game).players if players is None else players


def player_counts_of(players, game: str) -> str:
    """--players of a study over table sizes, or every size the game's rules allow."""
    from sim.shared.game import find

    return ",".join(map(str, find(game).player_range)) if players is None else players


def os_error_status(err: OSError) -> int:
    """1 when the machine failed (a full disk, an I/O error), 2 when the named place cannot be
    used (read-only, missing, not a directory, no permission): the table in docs/cli.md."""
    from sim.runner.store import machine_failure

    return 1 if machine_failure(err) else 2


@contextlib.contextmanager
def study_errors(hint: str = "--out"):
    """A study's failures as one line with the status of docs/cli.md's table: a problem with the
    request (a RunError or MetaError marked `usage`, a destination that cannot be written) 2, a
    failure on the way (a killed worker) 1."""
    from sim.meta.table import MetaError
    from sim.runner.store import RunError

    try:
        yield
    except (MetaError, RunError) as err:
        failure = click.UsageError(str(err)) if err.usage else click.ClickException(str(err))
        raise failure from None
    except OSError as err:
        failure = click.ClickException(f"cannot use {err.filename or 'the output'}: {err.strerror or err}; "
                                       f"give {hint} a writable place")
        failure.exit_code = os_error_status(err)
        raise failure from None


def finite(ctx, param, value):
    """A click callback refusing inf and nan (FloatRange lets nan through: no comparison holds)."""
    import math

    if value is not None and not math.isfinite(value):
        raise click.BadParameter(f"{value} is not a finite number", param=param)
    return value


@contextlib.contextmanager
def kept_on_interrupt(out):
    """Ctrl-C or SIGTERM: one line saying what is kept and how to finish, with the signal's status."""
    import sys

    from sim.cli.signals import interrupt_status

    try:
        yield
    except KeyboardInterrupt:
        kept = (f": the finished runs are kept in {out}; finish with the same command and --resume"
                if out is not None else "")
        click.echo(f"mobsim: interrupted{kept}", err=True)
        sys.exit(interrupt_status())
