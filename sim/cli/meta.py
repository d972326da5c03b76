"""`mobsim meta`: the meta-game of strategies (every profile played, equilibrium, alpha-Rank)."""

import json
import sys

import click

from sim.cli.common import (DEFAULT_GAME, GAMES, OutPath, command_line, parse_sets, players_of, ruleset_options,
                            scheduler_option, study_errors)
from sim.cli.signals import interrupt_status


@click.command("meta")
@click.option("--players", type=click.IntRange(2, 8), default=None,
              help="Players at the table (default: the game's usual table: 4; pig 2).")
@click.option("--strategies", default=None,
              help="The strategies of the meta-game, comma-separated (presets, files, meta: mixtures; default: "
                   "the game's population, nyk runner,enforcer,networker,cautious,corrupter,balanced,tuned).")
@click.option("--games-per-profile", type=click.IntRange(min=1), default=400, show_default=True,
              help="Games of each profile (a multiple of --players: every seat rotates); the "
                   "same game ids in every profile.")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True)
@click.option("--out", type=OutPath(file_okay=False), required=True,
              help="Study directory: one run per profile, profiles.parquet, meta.json, index.html.")
@click.option("--game", type=click.Choice(GAMES), default=DEFAULT_GAME, show_default=True)
@ruleset_options
@click.option("--bootstrap", type=click.IntRange(min=0), default=200, show_default=True,
              help="Resamples of the games to measure how stable the equilibrium is.")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Processes (default: one per core).")
@scheduler_option
@click.option("--resume", is_flag=True, help="Finish the study in --out (its finished profiles kept).")
@click.option("--force", is_flag=True, help="Clear --out (a meta-game study) and start over.")
@click.option("--json", "as_json", is_flag=True, help="Print meta.json's summary as one JSON object.")
def meta_cmd(players, strategies, games_per_profile, seed, out, game, ruleset, sets, bootstrap,
             workers, scheduler, resume, force, as_json):
    """Play every profile of the symmetric game between these strategies and solve it: the
    equilibrium mixture (replicator dynamics), each strategy's regret, alpha-Rank, the cycles,
    and the equilibrium's stability under bootstrap resamples."""
    from sim.meta import study

    if resume and force:
        raise click.UsageError("--resume and --force exclude each other")
    from sim.shared.game import find

    names = list(find(game).population) if strategies is None else [s.strip() for s in strategies.split(",")
                                                                    if s.strip()]
    players = players_of(players, game)
    command = command_line()
    log = None if as_json else (lambda line: click.echo(line, err=True))
    try:
        with study_errors():
            meta = study(names, players, games_per_profile, seed, out, game, ruleset, parse_sets(sets),
                         workers, resume, force, bootstrap, command, log, scheduler=scheduler)
    except KeyboardInterrupt:
        click.echo(f"mobsim: interrupted: the finished profiles are kept in {out}; finish with the "
                   f"same command and --resume", err=True)
        sys.exit(interrupt_status())
    if as_json:
        keys = ("verdict", "equilibrium", "alpharank", "cycles", "dominated", "bootstrap", "provenance")
        click.echo(json.dumps({k: meta[k] for k in keys}))
        return
    click.echo(meta["verdict"])
    eq = meta["equilibrium"]
    click.echo(f"equilibrium (regret {eq['regret']:.2g}): "
               + ", ".join(f"{s} {100 * w:.1f}%" for s, w in sorted(eq["mixture"].items(),
                                                                    key=lambda kv: -kv[1]) if w > 0))
    unranked = meta["alpharank"].get("unranked") or []
    click.echo(f"alpha-Rank: {', '.join(meta['alpharank']['ranking'])}"
               + (f" (not ordered by log pi: {', '.join(unranked)})" if unranked else ""))
    click.echo(f"wrote {out}/index.html, meta.json, profiles.parquet")


COMMANDS = [meta_cmd]
