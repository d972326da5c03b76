"""The `mobsim` command. Each room contributes its subcommands from its own module, imported when
the command is asked for (`COMMAND_MODULES`)."""

import contextlib
import sys
import warnings

import click

from sim import __version__
from sim.cli.signals import ignore_signals, interrupt_status, interrupted, stop_signals


# Each command and the module of sim.cli that defines it (in its COMMANDS). A process imports the
# one module its command needs: importing them all (the verdict's statistics, scipy.optimize)
# took 1.4 s of every `mobsim` process, a `mobsim run` of one game included.
COMMAND_MODULES = {
    "advise": "advise", "bench": "bench", "board": "rules", "compare": "report", "demo": "demo",
    "docs": "docs", "luck": "luck", "meta": "meta", "odds": "odds", "play": "play", "replay": "play",
    "report": "report", "rules": "rules", "run": "run", "sensitivity": "tune", "strategies": "strategies",
    "sweep": "tune", "tune": "tune", "verdict": "verdict", "verify": "run",
}


class LazyCommands(click.Group):
    """A group whose commands are loaded from their module (COMMAND_MODULES) when first asked for."""

    def list_commands(self, ctx):
        return sorted(set(COMMAND_MODULES) | set(self.commands))

    def get_command(self, ctx, name):
        if name not in self.commands and name in COMMAND_MODULES:
            import importlib

            module = importlib.import_module(f"sim.cli.{COMMAND_MODULES[name]}")
            for command in module.COMMANDS:
                if command.name not in self.commands:
                    _bound_whole_numbers(command)
                    self.add_command(command)
        return self.commands.get(name)


class OneLineErrors(LazyCommands):
    """Report bad input as one line (`mobsim: error: ...`) with exit status 2, not a usage dump."""

    def main(self, args=None, prog_name=None, **kwargs):
        try:
            if sys.stdout is None:   # started with stdout closed: everything printed would be lost
                click.echo("mobsim: error: standard output is closed: redirect it (e.g. > out.txt or "
                           "> /dev/null)", err=True)
                sys.exit(1)
            with stop_signals(), warnings.catch_warnings():
                warnings.showwarning = _one_line_warning
                try:
                    self._main(args, prog_name, **kwargs)
                except OSError as err:
                    _stdout_lost(err)
                    raise
                _stdout_lost()
                sys.exit(0)
        except SystemExit as done:
            if interrupted():  # stopped cleanly: the interpreter's shutdown would reset our handlers to
                ignore_signals()  # the default, where a second Ctrl-C kills by signal (exit -2)
            elif not done.code:
                _stdout_lost()
            raise

    def _main(self, args, prog_name, **kwargs):
        try:
            return super().main(args=args, prog_name=prog_name, standalone_mode=False, **kwargs)
        except click.exceptions.Exit as done:
            sys.exit(done.exit_code)
        except click.Abort:
            click.echo("mobsim: interrupted", err=True)
            sys.exit(interrupt_status())
        except click.ClickException as err:
            click.echo(f"mobsim: error: {_one_line(err)}", err=True)
            sys.exit(err.exit_code if err.exit_code != 1 else 1)
        except OverflowError as err:  # a count or seed past what a machine integer holds (2**70 games)
            click.echo(f"mobsim: error: a number given is too large ({err}): give a smaller one", err=True)
            sys.exit(2)
        except Exception as err:  # a run's one-line error raised where no command caught it (a worker's)
            from sim.runner.store import RunError

            if not isinstance(err, RunError):
                raise
            click.echo(f"mobsim: error: {' '.join(str(err).split())}", err=True)
            sys.exit(2 if err.usage else 1)


def _stdout_lost(err: OSError | None = None) -> None:
    """Exit 1 in one line when what the command printed cannot be written (stdout on a full
    device, a closed pipe): a command whose output is lost has not done its work. `err` is an
    error the command raised: it is stdout's when stdout cannot be flushed either."""
    import os

    if err is not None and not _from_stdout(err):
        return
    try:
        if err is None:
            sys.stdout.flush()
            return
    except OSError as failed:
        err = failed
    with contextlib.suppress(OSError):  # the rest of the buffer goes nowhere, at exit too
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    click.echo(f"mobsim: error: cannot write the output: {err.strerror or err}", err=True)
    sys.exit(1)


def _from_stdout(err: OSError) -> bool:
    """Whether `err` was raised writing to stdout (by click.echo, the commands' one way to print)."""
    import errno

    tb = err.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    target = tb.tb_frame.f_locals.get("file") if tb is not None else None
    return target is sys.stdout or err.errno == errno.EPIPE


_WARNED: set[str] = set()


def _one_line_warning(message, category, filename, lineno, file=None, line=None):
    """A warning (e.g. a damaged batch to play again) as `mobsim: warning: ...`, one line, once
    (a sweep's runs would repeat it at every point)."""
    text = " ".join(str(message).split())
    if text not in _WARNED:
        _WARNED.add(text)
        click.echo(f"mobsim: warning: {text}", err=True)


def _one_line(err: click.ClickException) -> str:
    message = err.format_message()
    ctx = getattr(err, "ctx", None)
    if isinstance(err, click.UsageError) and ctx is not None:
        message = f"{ctx.command_path}: {message} (see --help)"
    return " ".join(message.split())


@click.group(cls=OneLineErrors, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="mobsim")
def main():
    """mobsim: Monte Carlo balance simulator for mafia board games."""


def command_line():
    """The `mobsim` process: the command, then a quick exit. The interpreter's last garbage
    collections would walk every object the compiled engine and pandas made (0.2 to 0.3 s
    after each command, measured); frozen, they are left to the process's end. Only garbage
    in reference cycles goes unfinalised: modules are still cleared and open files closed."""
    import gc

    try:
        main()
    finally:
        gc.freeze()


LARGEST = 2**31 - 1   # games, ids, seeds, workers: what the engine's int32 game ids and numpy sizes take


def _bound_whole_numbers(command: click.Command) -> None:
    """Give every whole-number option an upper bound (LARGEST): 2**70 games or a seed past a
    machine integer is refused as bad input, never a traceback from numpy or the engine."""
    for param in command.params:
        kind = param.type
        if isinstance(kind, click.IntRange) and kind.max is None:
            kind.max = LARGEST
        elif kind is click.INT:
            param.type = click.IntRange(max=LARGEST)
    for sub in getattr(command, "commands", {}).values():
        _bound_whole_numbers(sub)

