"""`mobsim report` (a run's balance report) and `mobsim compare` (two runs' headline metrics side
by side, with the difference and its 95% interval)."""

import json
import shlex
from pathlib import Path

import click

from sim.cli.common import OutPath
from sim.cli.files import claim_out

REQUIRED_MANIFEST = ("game", "seed", "games", "players", "strategies", "ruleset", "batches_done")
REQUIRED_COLUMNS = {"games": ("game_id", "n_players", "turns"),
                    "seats": ("game_id", "seat", "strategy", "won", "rank", "fortune")}


def open_run(path: Path, hint: str, read_turns: bool = True):
    """A finished (or partly finished) run whose tables hold the columns a report needs (the
    parts' schemas are checked, the tables read when used), or a one-line error. `read_turns`:
    read the turns table now (a report uses it)."""
    import sim
    from sim.analysis.tables import table_columns
    from sim.runner import RunError

    if path.exists() and not path.is_dir():
        raise click.BadParameter(f"{path} is a file, not a run directory", param_hint=hint)
    try:
        run = sim.load(path)
        missing = [k for k in REQUIRED_MANIFEST if k not in run.manifest]
        if missing:
            raise RunError(f"{path / 'manifest.json'} is corrupt (no {', '.join(missing)}): play the run again "
                           "with --force")
        for table, columns in REQUIRED_COLUMNS.items():
            # the columns alone: a report never loads the seat table whole, a comparison no table
            present = table_columns(run, table)
            absent = [c for c in columns if c not in present]
            if absent:
                raise RunError(f"{path}: the {table} table lacks {', '.join(absent)}, so it is not a mobsim "
                               "run's table")
        if read_turns:
            run.turns  # noqa: B018  (read now: a damaged part is a clear error here, not a traceback later)
    except RunError as err:
        raise click.BadParameter(" ".join(str(err).split()), param_hint=hint) from None
    return run


def _out_dir(out: Path, run_paths) -> Path:
    """Refuse to write a report into a run directory (it would no longer be a clean run)."""
    for run_path in run_paths:
        if out.resolve() == Path(run_path).resolve():
            raise click.BadParameter(f"{out} is the run directory; choose another directory for the report",
                                     param_hint="--out")
    if (out / "manifest.json").exists():
        raise click.BadParameter(f"{out} holds a run (manifest.json); choose another directory for the report",
                                 param_hint="--out")
    return claim_out(out, "report")


def _written(write, out: Path) -> Path:
    try:
        return write()
    except OSError as err:
        raise click.BadParameter(f"cannot write the report in {out}: {err.strerror or err}",
                                 param_hint="--out") from None


@click.command("report")
@click.argument("run_dir", type=click.Path(path_type=Path))
@click.option("--out", type=OutPath(file_okay=False, path_type=Path), default=None,
              help="Directory of the report (default: reports/<name of the run directory>).")
@click.option("--target-turns", default=None, metavar="LO:HI",
              help="Target game length in turns: the report flags games too short or too long.")
@click.option("--replays/--no-replays", default=True, show_default=True,
              help="Write a replay page of each game worth watching (closest, longest, a comeback).")
def report_cmd(run_dir, out, target_turns, replays):
    """Write the balance report of the run in RUN_DIR: index.html and index.md with figures
    (readable offline), and every table as CSV. It opens with what to look at first and the
    games worth watching, each with its replay page in replays/."""
    from sim.analysis.findings import parse_target
    from sim.analysis.run_report import report_run

    try:
        target = parse_target(target_turns)
    except ValueError as err:
        raise click.BadParameter(str(err), param_hint="--target-turns") from None
    run = open_run(run_dir, "RUN_DIR")
    out = _out_dir(out or Path("reports") / run_dir.resolve().name, [run_dir])
    command = shlex.join(["mobsim", "report", str(run_dir), "--out", str(out)])
    index = _written(lambda: report_run(run, out, command=command, replays=replays, target_turns=target), out)
    if run.manifest.get("status") != "complete":
        from sim.runner.store import run_state

        click.echo(f"mobsim: warning: {run_dir} is not finished ({run_state(run_dir, run.manifest)})", err=True)
    click.echo(f"report written: {index}")
    click.echo(f"open it in a browser: file://{index.resolve()}")


def _comparable(a: dict, b: dict) -> None:
    """Two runs of another game, table size or seating measure different things (a 4-player
    win rate of 25% against a 3-player one of 33%): refused in one line."""
    for key, what in (("game", "games"), ("players", "numbers of players"), ("seating", "seatings")):
        if a.get(key) != b.get(key):
            raise click.UsageError(f"the runs are of different {what} ({key} {a.get(key)} in RUN_A, "
                                   f"{b.get(key)} in RUN_B): their metrics do not compare; compare runs "
                                   f"that differ only in rules or strategies")


@click.command("compare")
@click.argument("run_a", type=click.Path(path_type=Path))
@click.argument("run_b", type=click.Path(path_type=Path))
@click.option("--out", type=OutPath(file_okay=False, path_type=Path), default=None,
              help="Also write the comparison as a small report (index.html, index.md, tables/).")
@click.option("--json", "as_json", is_flag=True, help="Print the table as one JSON object.")
@click.option("--luck", "luck_games", type=click.IntRange(min=0, max=100_000), default=0, show_default=True,
              help="Also how much of the outcome is luck in each run: its first GAMES games played again "
                   "with each source of luck drawn afresh (mobsim luck), and the change B - A (0: not measured).")
def compare_cmd(run_a, run_b, out, as_json, luck_games):
    """Every headline metric of RUN_A and RUN_B side by side, with the difference B - A and its
    95% interval: paired game by game when both runs played the same seed and game ids (e.g. two
    rulesets on one seed), independent otherwise. A paired comparison also shows each metric's
    pairing gain: how many times fewer games it needs than an unpaired one. With --luck: does the
    change make the game more or less a matter of luck, and of which luck?"""
    from sim.analysis.headline import compare
    from sim.analysis.pairing import SEAT_PREFIX, gain_text, pairing_gain, with_gain
    from sim.shared.seats import seat_number
    from sim.analysis.run_report import compare_report, compare_shown, run_label

    a, b = open_run(run_a, "RUN_A", read_turns=False), open_run(run_b, "RUN_B", read_turns=False)
    _comparable(a.manifest, b.manifest)
    table = compare(a, b)
    paired = bool(table["paired"].all())
    gains = pairing_gain(a, b) if paired else None
    if gains is not None:
        table = with_gain(table, gains)
    luck = _luck_change((run_a, a), (run_b, b), luck_games, paired) if luck_games else None
    if out is not None:
        out = _out_dir(out, [run_a, run_b])
        command = shlex.join(["mobsim", "compare", str(run_a), str(run_b), "--out", str(out)])
        index = _written(lambda: compare_report(a, b, table, out, command), out)
    if as_json:
        rows = table.reset_index().astype(object).where(table.reset_index().notna(), None)
        seats = gains.loc[gains.index.str.startswith(SEAT_PREFIX)] if gains is not None else None
        click.echo(json.dumps({"a": str(run_a), "b": str(run_b), "paired": paired,
                               "metrics": rows.to_dict(orient="records"),
                               "seat_pairing_gain": (None if seats is None else
                                                     seats.reset_index().to_dict(orient="records")),
                               "luck": None if luck is None else luck.to_dict(orient="records"),
                               "report": str(index) if out is not None else None}))
        return
    click.echo(f"A  {run_label(a)}")
    click.echo(f"B  {run_label(b)}")
    click.echo("paired game by game (same seed and game ids)" if paired
               else "independent samples (not the same seed and game ids)")
    click.echo("")
    shown = compare_shown(table)
    if gains is not None:
        gains_shown = [gain_text(*table.loc[m, ["pairing_gain", "pairing_lo", "pairing_hi"]]) for m in table.index]
        shown.insert(len(shown.columns) - 1, "pairing gain", gains_shown)  # before the `*` column
    for line in _aligned(shown):
        click.echo(line)
    click.echo("(* the 95% interval of B - A excludes 0)")
    if gains is not None:
        seats = [f"seat {seat_number(m[len(SEAT_PREFIX):])} {gain_text(r.gain, r.lo, r.hi)}"
                 for m, r in gains.iterrows() if m.startswith(SEAT_PREFIX)]
        click.echo("pairing gain: variance of the unpaired difference / variance of the paired one (how "
                   "many times fewer games the paired comparison needs), 95% interval")
        if seats:
            click.echo("pairing gain of each seat's win rate: " + ", ".join(seats))
    if luck is not None:
        for line in _luck_lines(luck, luck_games, paired):
            click.echo(line)
    if out is not None:
        click.echo(f"report written: {index}")


def _luck_change(side_a, side_b, games: int, paired: bool):
    """Per source of luck, the share of games whose winner changes when it is drawn afresh (from
    the setup) in each run, and B - A with its 95% interval (sim.analysis.luck.compare)."""
    from sim.analysis.luck import compare as luck_compare
    from sim.analysis.luck import study
    from sim.cli.luck import luck_of_run

    rows = []
    for (path, run), hint in ((side_a, "RUN_A"), (side_b, "RUN_B")):
        luck = luck_of_run(path, hint)
        rows.append(study(luck, range(min(games, int(run.manifest["games"]))))["rows"])
    return luck_compare(rows[0], rows[1], paired=paired)


def _luck_lines(table, games: int, paired: bool) -> list[str]:
    pairing = "paired game by game" if paired else "independent samples"
    lines = ["", f"luck: the share of games whose winner changes when a source is drawn afresh from the setup "
                 f"({games} games of each run, {pairing}; B - A with its 95% interval)"]
    for row in table.itertuples():
        mark = " *" if row.diff_lo > 0 or row.diff_hi < 0 else ""
        lines.append(f"  {row.source:<38} A {row.p_change_a:6.1%}  B {row.p_change_b:6.1%}  "
                     f"B - A {row.diff:+6.1%} [{row.diff_lo:+.1%}, {row.diff_hi:+.1%}]{mark}")
    return lines


def _aligned(frame) -> list[str]:
    """A text table: the metric left-aligned, the rest right-aligned."""
    header = list(frame.columns)
    rows = [[str(v) for v in row] for row in frame.itertuples(index=False, name=None)]
    widths = [max(len(str(h)), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]

    def line(cells):
        first = cells[0].ljust(widths[0])
        return "  ".join([first] + [c.rjust(w) for c, w in zip(cells[1:], widths[1:], strict=True)]).rstrip()

    return [line([str(h) for h in header])] + [line(r) for r in rows]


COMMANDS = [report_cmd, compare_cmd]
