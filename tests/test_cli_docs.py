"""docs/cli.md is generated from the click commands (`mobsim docs cli`) and must be current."""

import click
from click.testing import CliRunner

from sim.cli import docs, main


def test_committed_command_reference_is_current():
    assert docs.CLI_DOC.read_text(encoding="utf-8") == docs.generate(main), \
        "docs/cli.md is out of date: run mobsim docs cli"


def test_every_command_and_option_has_its_place():
    text = docs.generate(main)
    ctx = click.Context(main, info_name="mobsim", **main.context_settings)
    for command, sub_ctx in list(docs.walk(main, ctx))[1:]:
        assert f"# {sub_ctx.command_path}\n" in text, sub_ctx.command_path
        for param in command.params:
            if isinstance(param, click.Option) and "--help" not in param.opts:
                assert f"`{param.opts[0]}" in text or f", {param.opts[0]}" in text, (sub_ctx.command_path, param)


def _toy_group():
    @click.group("toy")
    def toy():
        """A toy program."""

    @toy.command("go")
    @click.argument("where")
    @click.option("--speed", type=int, default=3, show_default=True, help="How fast | how far.")
    def go(where, speed):
        """Go somewhere."""

    return toy


def test_generated_from_the_commands_not_written_by_hand():
    text = docs.generate(_toy_group())
    assert "## mobsim go\n" in text and "mobsim go [OPTIONS] WHERE" in text
    assert "| `--speed INTEGER` | How fast \\| how far. [default: 3] |" in text
    assert "Arguments: `WHERE`." in text and "- [`mobsim go`](#mobsim-go)" in text


def test_check_flags_a_stale_page(tmp_path):
    page = tmp_path / "cli.md"
    page.write_text("old\n")
    stale = CliRunner().invoke(main, ["docs", "cli", "--out", str(page), "--check"])
    assert stale.exit_code == 1 and "out of date" in stale.stderr
    assert page.read_text() == "old\n"
    written = CliRunner().invoke(main, ["docs", "cli", "--out", str(page)])
    assert written.exit_code == 0 and page.read_text() == docs.generate(main)
    assert CliRunner().invoke(main, ["docs", "cli", "--out", str(page), "--check"]).exit_code == 0


def test_every_command_is_found_in_the_module_named_for_it():
    """sim.cli.COMMAND_MODULES names each command's module: each module's commands are listed
    there, and each listed name is a command of its module."""
    import importlib
    import pkgutil

    import sim.cli
    from sim.cli import COMMAND_MODULES

    found = {}
    for info in pkgutil.iter_modules(sim.cli.__path__):
        module = importlib.import_module(f"sim.cli.{info.name}")
        for command in getattr(module, "COMMANDS", []):
            found[command.name] = info.name
    assert found == COMMAND_MODULES


def test_a_command_imports_its_own_module_only():
    """`mobsim run` does not import the verdict's statistics (scipy.optimize): a process imports the
    module of the command it runs."""
    import subprocess
    import sys

    code = ("import sys; from sim.cli import main; main.get_command(None, 'run'); "
            "print(sorted(m for m in ('scipy.optimize', 'sim.verdict', 'sim.cli.verdict') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
