"""`mobsim run`: play a study of many games into a run directory (sim.runner)."""

import json
import sys
from pathlib import Path

import click

from sim.cli.common import (DEFAULT_GAME, GAMES, GAME_HELP, OutPath, parse_sets, players_of, ruleset_options,
                            scheduler_option)
from sim.cli.signals import interrupt_status


@click.command("run")
@click.option("--players", type=click.IntRange(2, 8), default=None,
              help="Players at the table (default: the game's usual table, 4; pig 2).")
@click.option("--strategies", default="simple", show_default=True,
              help="Comma-separated strategy per seat, or one for every seat.")
@click.option("--games", type=click.IntRange(min=1), default=1000, show_default=True)
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True, help="Run seed.")
@click.option("--out", type=OutPath(file_okay=False), required=True,
              help="Run directory (manifest.json and the Parquet tables).")
@ruleset_options
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Processes (default: one per core); 1 plays in this process.")
@click.option("--batch-size", type=click.IntRange(min=1), default=None,
              help="Games per batch and part file (default: up to 5000).")
@click.option("--fixed-seating", is_flag=True,
              help="Seat the strategies in the given order every game (the same as --seating fixed).")
@click.option("--seating", type=click.Choice(["rotate", "fixed", "all", "random"]), default=None,
              help="rotate: the lineup turned one seat per game (default); all: every order of the "
                   "lineup in turn; random: a random order per game (all and random measure "
                   "neighbour effects).")
@click.option("--record-turns", is_flag=True,
              help="Also write turns.parquet: each seat's fortune after each turn (large).")
@click.option("--resume", is_flag=True, help="Finish the run in --out, skipping its done batches.")
@click.option("--force", is_flag=True, help="Clear --out (a run directory) and start over.")
@scheduler_option
@click.option("--game", type=click.Choice(GAMES), default=DEFAULT_GAME, show_default=True,
              help=GAME_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print the summary as one JSON object.")
@click.option("--refit", "refit_dir", type=click.Path(file_okay=False, path_type=Path), default=None, metavar="DIR",
              help="Play the players refit in DIR (`mobsim strategies refit --out DIR`, to this run's rules) in "
                   "place of the shipped ones of the same names (tuned, meta:equilibrium, ...).")
def run_cmd(players, strategies, games, seed, out, ruleset, sets, workers, batch_size,
            fixed_seating, seating, record_turns, resume, force, scheduler, game, as_json, refit_dir):
    """Play many games with these strategies and rules; every result is kept in --out.

    The manifest records a checksum of every part file; --resume checks them all and plays the
    batches of damaged or missing parts again. One run at a time may write a directory (it holds
    --out/.lock while it runs), and --force clears only the files a run writes."""
    from sim.runner import RunError, run

    if resume and force:
        raise click.UsageError("--resume and --force exclude each other")
    if fixed_seating and seating not in (None, "fixed"):
        raise click.UsageError(f"--fixed-seating and --seating {seating} exclude each other")
    seating = "fixed" if fixed_seating else (seating or "rotate")
    overrides = parse_sets(sets)
    fitted = None
    if refit_dir is not None:   # a run compares lineups, not rulesets: its players come fitted (docs/refit.md)
        from sim.league.refit import RefitError, players_for

        try:
            strategies, fitted = players_for(refit_dir, game, ruleset, overrides, strategies)
        except RefitError as err:
            raise click.BadParameter(str(err), param_hint="--refit") from None
    try:
        result = run(game=game, players=players_of(players, game), strategies=strategies, games=games, seed=seed,
                     out=out, ruleset=ruleset, overrides=overrides, workers=workers,
                     batch_size=batch_size, rotate=seating,
                     record_turns=record_turns, resume=resume, force=force,
                     scheduler=scheduler, progress=None if not as_json else False)
    except RunError as err:
        if err.usage:
            raise click.UsageError(str(err)) from None
        raise click.ClickException(str(err)) from None
    except KeyboardInterrupt:
        click.echo(f"mobsim: interrupted: the finished batches are kept in {out}; "
                   f"finish with the same command and --resume", err=True)
        sys.exit(interrupt_status())
    summary = _summary(result)
    if fitted is not None:
        summary["players_fitted_to"] = fitted
    if as_json:
        click.echo(json.dumps(summary))
        return
    for line in _lines(summary):
        click.echo(line)
    if fitted is not None:
        click.echo(fitted)


def _summary(result) -> dict:
    from sim.analysis.run_report import ruleset_changes

    m = result.manifest
    last = m.get("last", {})
    rates = result.win_rates()
    root = result.path
    return {
        "out": str(root),
        "status": m["status"],
        "game": m["game"],
        "games": m["games"],
        "players": m["players"],
        "seed": m["seed"],
        "strategies": m["strategies"]["names"],
        "rotate": m["rotate"],
        "seating": m.get("seating", "rotate" if m["rotate"] else "fixed"),
        "ruleset_fingerprint": m["ruleset"]["fingerprint"],
        "defaults_changed": m["ruleset"]["defaults_changed"],
        "ruleset_changes": ruleset_changes(m),
        "batches": m["batches"],
        "batch_size": m["batch_size"],
        "games_played": last.get("games_played"),
        "seconds": last.get("seconds"),
        "games_per_s": last.get("games_per_s"),
        "workers": last.get("workers"),
        "files": {name: str(root / f"{name}.parquet") for name in m["tables"]}
        | {"manifest": str(root / "manifest.json")},
        "win_rates": [
            {"strategy": str(name), "seats": int(row.seats), "wins": int(row.wins),
             "win_rate": round(float(row.win_rate), 4)}
            for name, row in rates.iterrows()
        ],
    }


def _lines(s: dict) -> list[str]:
    lines = [
        f"{s['games']:,} games of {s['players']} players, seed {s['seed']}: {s['status']} "
        f"in {s['out']}",
        f"played {s['games_played']:,} games in {s['seconds']:.1f} s "
        f"({s['games_per_s'] or 0:,.0f} games/s, {s['workers']} workers, "
        f"{s['batches']} batches of {s['batch_size']:,})",
        f"strategies: {','.join(s['strategies'])} "
        f"({s['seating']} seating); ruleset "
        f"{s['ruleset_fingerprint'][:12]} ({s['ruleset_changes']})",
        "",
        f"{'strategy':<16}{'seats':>10}{'wins':>10}{'win rate':>10}",
    ]
    for row in s["win_rates"]:
        lines.append(f"{row['strategy']:<16}{row['seats']:>10,}{row['wins']:>10,}"
                     f"{row['win_rate']:>10.1%}")
    lines.append(f"(even odds: {1 / s['players']:.1%}; a shared win counts for each sharer)")
    lines.append("")
    lines.append("files: " + ", ".join(s["files"].values()))
    lines.append(f"open with: sim.load({s['out']!r})")
    return lines


@click.command("verify")
@click.argument("run_dir", type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
def verify_cmd(run_dir, as_json):
    """Check every part of the run in RUN_DIR against the checksum its manifest recorded; exit 2
    when a part is damaged or missing (play its batch again with the run's command and
    --resume). A run written before checksums (format 1) has only its parts' footers and row
    counts checked."""
    from sim.runner import RunError, store

    if not run_dir.is_dir():
        raise click.BadParameter(f"{run_dir}: no such run directory", param_hint="RUN_DIR")
    try:
        manifest = store.read_manifest(run_dir)
        problems, by_sum, by_footer = store.verify(run_dir, manifest)
    except RunError as err:
        raise click.UsageError(" ".join(str(err).split())) from None
    done, batches = len(manifest["batches_done"]), manifest["batches"]
    if as_json:
        click.echo(json.dumps({"run": str(run_dir), "ok": not problems,
                               "damaged": [{"part": str(p), "problem": why} for p, why in problems],
                               "checked_by_checksum": by_sum, "checked_by_footer": by_footer,
                               "batches_done": done, "batches": batches}))
    else:
        for line in _verify_lines(run_dir, problems, by_sum, by_footer, done, batches):
            click.echo(line)
    if problems:
        sys.exit(2)   # a damaged run, as every command that reads it says (docs/cli.md: exit statuses)


def _verify_lines(run_dir, problems, by_sum, by_footer, done, batches) -> list[str]:
    lines = [f"{path}: {why}" for path, why in problems]
    state = "" if done == batches else f" (unfinished: {done} of {batches} batches played)"
    if by_footer:
        lines.append(f"{run_dir}: {by_footer} parts have no checksum (written before mobsim "
                     f"recorded them): only their footers and row counts were checked")
    if problems:
        lines.append(f"{run_dir}: {len(problems)} damaged or missing parts{state}: play their "
                     f"batches again with the run's command and --resume")
    else:
        lines.append(f"{run_dir}: ok: {by_sum + by_footer} parts of {done} batches sound"
                     + (f", {by_sum} matching their checksums" if by_sum else "") + state)
    return lines


COMMANDS = [run_cmd, verify_cmd]
