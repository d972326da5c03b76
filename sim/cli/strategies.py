"""`mobsim strategies`: the presets (list, show), the skill ladder, strength per CPU second, and
tuning a strong player."""

import json
from pathlib import Path

import click

from sim.cli.common import (DEFAULT_GAME, GAMES, GAME_HELP, OutPath, command_line, parse_sets, players_of,
                            ruleset_from_options, ruleset_options, scheduler_option, study_errors)
from sim.cli.signals import interrupt_status
from sim.cli.files import target_file, write_whole


@click.group("strategies")
def strategies_cmd():
    """Strategy presets, restricted play, the skill ladder and the tuned player."""


@strategies_cmd.command("list")
@click.option("--game", type=click.Choice(GAMES), default=DEFAULT_GAME, show_default=True)
def list_cmd(game):
    """Print the preset names (with their one-line description) and the restrictions."""
    import strategies

    names = strategies.available(game, searchers=True)
    width = max(len(n) for n in names) + 1
    for name in names:
        s = strategies.load(name, game)
        click.echo(f"{name:<{width}} {s.family:<10} {s.doc}")
    restrictions = list(strategies.space(game).RESTRICTIONS)
    if restrictions:
        click.echo(f"\nrestrictions (add to any name, e.g. {names[0]}+{restrictions[0]}): {', '.join(restrictions)}")
    from strategies import mixture

    mixtures = mixture.available(game)
    if mixtures:
        click.echo(f"mixtures (each seat draws a style every game, e.g. meta:{mixtures[0]}): "
                   f"{', '.join(mixtures)}")


@strategies_cmd.command("show")
@click.argument("spec")
@click.option("--game", type=click.Choice(GAMES), default=DEFAULT_GAME, show_default=True)
def show_cmd(spec, game):
    """Every knob of a strategy (a preset name, a .toml file, with +restrictions)."""
    import strategies

    s = _load(spec, game)
    space = strategies.space(game)
    click.echo(f"{s.name}: {s.doc} (family {s.family}, from {s.source})")
    if s.restrictions:
        click.echo(f"restricted: {', '.join(s.restrictions)}")
    if s.family == space.DEFAULT_FAMILY:
        for p, value in zip(space.PARAMS, s.params, strict=True):
            mark = " " if value == p.default else "*"
            click.echo(f" {mark} {p.name:<16} {value:>10.4g}   [{p.lo:g}, {p.hi:g}]  {p.doc}")
    for key, value in s.provenance.items():
        click.echo(f"   provenance.{key} = {value}")


@strategies_cmd.command("table")
@click.option("--game", type=click.Choice(GAMES), default=DEFAULT_GAME, show_default=True, help=GAME_HELP)
@ruleset_options
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="Directory for the table file and the preset that holds it (the shipped one: "
                   "strategies/<game>/presets).")
@click.option("--name", default="optimal", show_default=True, help="The preset's name.")
def table_cmd(game, ruleset, sets, out, name):
    """Make a game's policy table again (the optimal player's, computed exactly) and the preset that
    holds it with its checksum and provenance; a game without tables says so."""
    maker = _table_maker(game)
    rs = ruleset_from_options(ruleset, sets, game)
    preset, table = maker(rs, out, name)
    click.echo(f"wrote {table} and its preset {preset} (load it as --strategies {preset})")


def _table_maker(game: str):
    """The game's `tables.make_optimal` (sim.<game>.tables), or a usage error naming the games that have one."""
    import importlib.util

    from sim.shared.game import every

    having = [g.name for g in every() if importlib.util.find_spec(f"sim.{g.name}.tables") is not None]
    if game not in having:
        raise click.UsageError(f"{game} ships no policy table: the games with tables are {', '.join(having)}")
    return importlib.import_module(f"sim.{game}.tables").make_optimal


def _load(spec, game):
    import strategies

    try:
        return strategies.load(spec, game)
    except strategies.StrategyError as err:
        raise click.BadParameter(str(err), param_hint="SPEC") from None


def _check(spec, game, hint):
    """A strategy or mixture spec of `game` that the league can play; a one-line error if not."""
    from sim.league.games import knobs
    from strategies import StrategyError, mixture

    try:
        knobs(game).resolve(spec)
    except (StrategyError, mixture.MixtureError, ValueError) as err:
        raise click.BadParameter(" ".join(str(err).split()), param_hint=hint) from None


def _json_rows(table, as_json: bool) -> bool:
    """With --json, print one JSON object per row (and say so)."""
    if as_json:
        for row in table.to_dict("records"):
            click.echo(json.dumps(row))
    return as_json


LADDER_PLAYERS = 4   # two seats of each rung of a pair


@strategies_cmd.command("ladder")
@click.option("--rungs", default=None,
              help="Strategies from weakest to strongest, comma-separated (default: the game's ladder, "
                   "nyk random,simple,balanced,tuned).")
@click.option("--games", type=click.IntRange(min=10), default=4000, show_default=True,
              help="Games per pair of rungs (half the seats each, rotated).")
@click.option("--players", type=click.IntRange(2, 8), default=None,
              help="An even table, half the seats to each rung (default: 4, or 2 where the game's usual table is 2).")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True)
@click.option("--pairs", type=click.Choice(["all", "steps"]), default="all", show_default=True,
              help="Every pair of rungs, or each rung against the one below (steps).")
@click.option("--workers", type=click.IntRange(min=1), default=None)
@scheduler_option
@ruleset_options
@click.option("--json", "as_json", is_flag=True, help="One JSON object per pair.")
@click.option("--game", type=click.Choice(GAMES), default=DEFAULT_GAME, show_default=True, help=GAME_HELP)
def ladder_cmd(rungs, games, players, seed, pairs, workers, scheduler, ruleset, sets, as_json, game):
    """Play every pair of rungs (or neighbouring rungs) and tell whether their strength is strictly ordered."""
    from sim.league import ladder

    from sim.shared.game import find

    names = list(find(game).ladder) if rungs is None else [r.strip() for r in rungs.split(",") if r.strip()]
    if len(names) < 2 or len(set(names)) < len(names):
        raise click.BadParameter(f"{rungs!r}: give at least two different strategies, weakest first "
                                 f"(e.g. --rungs random,simple,balanced)", param_hint="--rungs")
    if games % LADDER_PLAYERS:
        raise click.BadParameter(f"{games} games: give a multiple of {LADDER_PLAYERS} (the players), so every "
                                 f"rung sits every seat equally often", param_hint="--games")
    for name in names:
        _check(name, game, "--rungs")   # a preset, a file or a mixture (meta:equilibrium, the verdict's rung)
    ruleset_from_options(ruleset, sets, game)  # a bad ruleset is a one-line error before any game
    players = _even_table(players, game)
    with study_errors():
        table = ladder(names, games=games, seed=seed, players=players, ruleset=ruleset, overrides=parse_sets(sets),
                       workers=workers, pairs=pairs, game=game, scheduler=scheduler)
    if _json_rows(table, as_json):
        return
    side = {1: "one", 2: "two", 3: "three", 4: "four"}.get(players // 2, str(players // 2))
    click.echo(f"win rate per seat, higher minus lower (at most +-{200 // players} points {side} against {side}), "
               "95% interval; "
               "head-to-head share of the games either side won")
    for row in table.itertuples():
        verdict = "stronger" if row.ordered else "NOT significantly stronger"
        click.echo(f"{row.higher:>12} vs {row.lower:<12} {row.higher_win_rate:6.1%} vs {row.lower_win_rate:6.1%} "
                   f"per seat: {row.difference:+.1%} [{row.low:+.1%}, {row.high:+.1%}]; share "
                   f"{row.higher_share:.1%} [{row.share_low:.1%}, {row.share_high:.1%}] {verdict}")
    click.echo("strictly ordered" if table["ordered"].all() else "not strictly ordered")


def _even_table(players, game: str) -> int:
    """--players of the ladder: an even table inside the game's range (default: 4, or the game's
    usual table when that is even and smaller)."""
    from sim.shared.game import find

    found = find(game)
    usual = found.players if found.players % 2 == 0 else 4
    players = min(4, usual) if players is None else players
    if players % 2 or players not in found.player_range:
        choices = ", ".join(str(n) for n in found.player_range if n % 2 == 0)
        raise click.BadParameter(f"{players}: the ladder seats two rungs half the table each: give an even "
                                 f"table of {found.title} ({choices})", param_hint="--players")
    return players


@strategies_cmd.command("mechanics")
@click.option("--base", default="balanced", show_default=True, help="The style whose mechanics are priced.")
@click.option("--games", type=click.IntRange(min=10), default=4000, show_default=True,
              help="4-player games per restriction (one restricted seat, rotated).")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True)
@click.option("--workers", type=click.IntRange(min=1), default=None)
@scheduler_option
@ruleset_options
@click.option("--json", "as_json", is_flag=True, help="One JSON object per restriction.")
def mechanics_cmd(base, games, seed, workers, scheduler, ruleset, sets, as_json):
    """What each mechanic is worth: the restricted player against the same style unrestricted."""
    from sim.league import mechanic_values

    _load(base, "nyk")
    ruleset_from_options(ruleset, sets)
    table = mechanic_values(base, games=games, seed=seed, ruleset=ruleset, overrides=parse_sets(sets),
                            workers=workers, scheduler=scheduler)
    if _json_rows(table, as_json):
        return
    for row in table.itertuples():
        mark = "" if row.significant else "  (not significant)"
        click.echo(f"{base}+{row.restriction:<18} wins {row.win_rate:6.1%} [{row.low:.1%}, {row.high:.1%}]: "
                   f"the mechanic is worth {row.worth:+.1%} of win rate{mark}")


@strategies_cmd.command("strength")
@click.argument("name")
@click.option("--against", default=None,
              help="The strategy (or mixture) in every other seat (default: the game's reference, "
                   "nyk meta:equilibrium, ag warlord).")
@click.option("--games", type=click.IntRange(min=1, max=1_000_000), default=100, show_default=True,
              help="Games (seats rotated; game ids 0 .. games - 1).")
@click.option("--players", type=click.IntRange(2, 5), default=None,
              help="Players at the table (default: the game's usual table: 4; pig 2).")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True)
@click.option("--workers", type=click.IntRange(min=1), default=None)
@scheduler_option
@ruleset_options
@click.option("--versus", default=None,
              help="A second strategy measured on the same games: the paired difference of the win shares.")
@click.option("--exploit", is_flag=True,
              help="Read NAME's exploitability instead (NAME: one rung or several, comma-separated): the "
                   "game's exploiter (nyk search-leaf-all, ag search-200, pig optimal) in one seat against "
                   "NAME in every other, its win share minus fair with a 95% interval.")
@click.option("--exploit-games", type=click.IntRange(min=1, max=1_000_000), default=480, show_default=True,
              help="--exploit: games a rung (a fixed plan, seats rotated; game ids 0 .. N - 1).")
@click.option("--exploiter", default=None, help="--exploit: the seat that exploits (default: the game's).")
@click.option("--json", "as_json", is_flag=True, help="One JSON object (one a rung with --exploit).")
@click.option("--game", type=click.Choice(GAMES), default=DEFAULT_GAME, show_default=True, help=GAME_HELP)
def strength_cmd(name, against, games, players, seed, workers, scheduler, ruleset, sets, versus, exploit,
                 exploit_games, exploiter, as_json, game):
    """Strength per CPU second: one seat of NAME against the others of --against, its win share
    with a 95% Wilson interval against the fair 1/players, and the CPU seconds a game; with
    --versus, the same for a second strategy and the paired difference, game by game; with
    --exploit, NAME's exploitability (the exploiter's gain over fair), each rung labelled
    "equilibrium" only when the gain is within 2 points of fair."""
    from sim.league.strength import paired_strength, strength
    from sim.shared.game import find

    if exploit:
        _exploit(name, exploiter, exploit_games, players, seed, workers, scheduler, ruleset, sets, as_json, game)
        return
    against = find(game).reference if against is None else against
    for spec, hint in ((name, "NAME"), (against, "--against"), (versus, "--versus")):
        if spec is not None:
            _check(spec, game, hint)
    ruleset_from_options(ruleset, sets, game)
    kwargs = dict(games=games, seed=seed, players=players_of(players, game), against=against, ruleset=ruleset,
                  overrides=parse_sets(sets), workers=workers, game=game, scheduler=scheduler)
    if versus is None:
        with study_errors():
            row = strength(name, **kwargs).row()
        click.echo(json.dumps(row) if as_json else _strength_line(row, seed))
        return
    with study_errors():
        row = paired_strength(name, versus, **kwargs).row()
    if as_json:
        click.echo(json.dumps(row))
        return
    click.echo(_strength_line(row["one"], seed))
    click.echo(_strength_line(row["other"], seed))
    click.echo(f"{row['strategy']} minus {row['versus']}, paired over the same {row['games']} games: "
               f"{row['difference']:+.1%} [{row['low']:+.1%}, {row['high']:+.1%}] of win share, at "
               f"{row['cpu_ratio']:.3g} times the CPU a game")


def _exploit(names, exploiter, games, players, seed, workers, scheduler, ruleset, sets, as_json, game) -> None:
    """`strategies strength --exploit`: each rung's exploitability (sim.league.strength.exploitability)."""
    from sim.league.strength import exploitability
    from sim.shared.game import find

    rungs = [r.strip() for r in names.split(",") if r.strip()]
    exploiter = exploiter or find(game).exploiter
    for spec, hint in [*((r, "NAME") for r in rungs), (exploiter, "--exploiter")]:
        _check(spec, game, hint)
    ruleset_from_options(ruleset, sets, game)
    for rung in rungs:
        row = exploitability(rung, games=games, searcher=exploiter, seed=seed, players=players_of(players, game),
                             ruleset=ruleset, overrides=parse_sets(sets), workers=workers, game=game,
                             scheduler=scheduler).row()
        click.echo(json.dumps(row) if as_json else
                   f"{row['rung']} at {row['players']} players: {row['searcher']} in one seat wins "
                   f"{row['win_share']:.1%} of {row['games']} games (fair {row['fair']:.1%}, seed {seed}): "
                   f"{row['label']}")


def _strength_line(row: dict, seed: int) -> str:
    verdict = ("above" if row["above_fair"] else "below" if row["below_fair"] else "not significantly off")
    return (f"{row['strategy']} in one seat against {row['players'] - 1} x {row['against']}, {row['games']} games, "
            f"seed {seed}: {row['wins']} wins, {row['win_share']:.1%} [{row['low']:.1%}, {row['high']:.1%}] against "
            f"a fair {row['fair']:.1%} ({verdict}); {row['cpu_s_per_game']:.4g} CPU s a game")


@strategies_cmd.command("leaf")
@click.option("--players", "players_text", default="2,3,4,5", show_default=True,
              help="Player counts to fit, comma-separated.")
@click.option("--games", type=click.IntRange(min=100, max=1_000_000), default=4000, show_default=True,
              help="Games fitted to at each player count (then a quarter as many judged, held out).")
@click.option("--seed", type=click.IntRange(min=0), default=11, show_default=True)
@click.option("--strategy", default="tuned", show_default=True, help="The preset every seat plays (the rollout's).")
@click.option("--out", type=OutPath(dir_okay=False), required=True,
              help="The model file to write (the shipped strategies/nyk/leaf.toml is never replaced: "
                   "write another file and copy it in by hand).")
@click.option("--force", is_flag=True, help="Replace --out if it exists (a regular file only).")
def leaf_cmd(players_text, games, seed, strategy, out, force):
    """Fit the New York Kings search's leaf model (sim.search.nyk_leaf): the winner's chance from
    each seat's board at a turn's start, per player count and phase; prints each fit's held-out
    log loss beside money alone and a fair coin, and writes the model file."""

    from sim.league.leaf import fit_model, model_toml

    try:
        players = tuple(sorted({int(p) for p in players_text.split(",") if p.strip()}))
    except ValueError:
        players = ()
    if not players or any(not 2 <= p <= 5 for p in players):
        raise click.BadParameter(f"{players_text!r}: give player counts from 2 to 5, e.g. 2,3,4,5",
                                 param_hint="--players")
    path = target_file(out, force, suffixes=(".toml",))
    if _load(strategy, "nyk").family == "search":
        raise click.BadParameter(f"{strategy!r} searches: name the heuristic preset the playouts use",
                                 param_hint="--strategy")
    try:
        coef, report = fit_model(players, games=games, seed=seed, strategy=strategy, held_out=max(games // 4, 100))
    except ValueError as err:  # a phase with too few turn starts to fit
        raise click.BadParameter(" ".join(str(err).split()), param_hint="--games") from None
    click.echo("players  phase          turn starts  held-out log loss  money alone  coin")
    for r in report:
        click.echo(f"{r.players:>7}  {r.phase:<13}  {r.rows:>11,}  {r.log_loss:>17.4f}  {r.money_only:>11.4f}  "
                   f"{r.coin:.4f}")
    write_whole(path, model_toml(coef, report, command_line(), games, seed, strategy))
    click.echo(f"wrote {path}")


@strategies_cmd.command("blunders")
@click.option("--strategies", "names", default=None,
              help="Comma-separated strategies; game i seats them in turn from position i [default: the "
                   "game's audit lineup, LINEUP of sim.<game>.audit].")
@click.option("--game", type=click.Choice(GAMES), default=DEFAULT_GAME, show_default=True,
              help="A game with a blunder audit (sim.<game>.audit).")
@click.option("--players", type=click.IntRange(2, 5), default=4, show_default=True)
@click.option("--games", type=click.IntRange(min=1, max=100_000), default=200, show_default=True)
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True)
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True)
@scheduler_option
@ruleset_options
@click.option("--json", "as_json", is_flag=True, help="One JSON object per strategy and check.")
def blunders_cmd(names, game, players, games, seed, workers, scheduler, ruleset, sets, as_json):
    """The blunder audit: per strategy, how often it makes each mistake a player at the table
    would call one, out of the decisions where it could (docs/blunders.md)."""
    from sim.league.blunders import audit_module, blunder_table

    try:
        audit = audit_module(game)
    except ValueError as err:
        raise click.BadParameter(str(err), param_hint="--game") from None
    names = names or audit.LINEUP
    chosen = [n.strip() for n in names.split(",") if n.strip()]
    if not chosen:
        raise click.BadParameter(f"{names!r}: name at least one strategy", param_hint="--strategies")
    for name in chosen:
        _check(name, game, "--strategies")
        if ":" not in name and _load(name, game).family == "search":
            raise click.BadParameter(f"{name!r} is a search player: the audit judges the engine's policies, "
                                     "whose picks it can ask; choose a preset or a mixture", param_hint="--strategies")
    ruleset_from_options(ruleset, sets, game=game)
    table = blunder_table(chosen, players=players, games=games, seed=seed, ruleset=ruleset,
                          overrides=parse_sets(sets), workers=workers, game=game, scheduler=scheduler)
    if _json_rows(table, as_json):
        return
    click.echo(f"blunders / decisions where the mistake was possible (rate, 95% interval), {games} games of "
               f"{players} players, seed {seed}")
    for check, rows in table.groupby("check", sort=False):
        click.echo(f"{check} ({rows['rule'].iloc[0]}):")
        for row in rows.itertuples():
            rate = "   -  " if row.opportunities == 0 else f"{row.rate:6.1%} [{row.low:.1%}, {row.high:.1%}]"
            click.echo(f"  {row.strategy:<18} {row.blunders:>5} / {row.opportunities:<6} {rate}")


@strategies_cmd.command("tune")
@click.option("--generations", type=click.IntRange(min=1), default=8, show_default=True)
@click.option("--population", type=click.IntRange(min=2), default=12, show_default=True)
@click.option("--elite", type=click.IntRange(min=1), default=3, show_default=True)
@click.option("--games", type=click.IntRange(min=10), default=800, show_default=True,
              help="Games per candidate and opponent in each generation (same ids for all candidates).")
@click.option("--final-games", type=click.IntRange(min=10), default=4000, show_default=True,
              help="Games against each opponent to measure the result, on fresh ids.")
@click.option("--opponents", default=None, help="Comma-separated presets to beat (default: every preset).")
@click.option("--start", default="balanced", show_default=True, help="Preset the search starts from.")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True)
@click.option("--workers", type=click.IntRange(min=1), default=None)
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Preset file to write (default: the game's shipped tuned preset, with --force).")
@click.option("--force", is_flag=True, help="Replace a shipped preset (the default --out is one).")
@click.option("--game", type=click.Choice(GAMES), default=DEFAULT_GAME, show_default=True,
              help=GAME_HELP)
@scheduler_option
@ruleset_options
def tune_cmd(generations, population, elite, games, final_games, opponents, start, seed, workers,
             out, force, game, scheduler, ruleset, sets):
    """Search the knobs for a player that beats the presets, and save it with its provenance."""
    from sim.league import tune
    from sim.league.games import knobs

    if elite > population:
        raise click.BadParameter(f"{elite} elite out of a population of {population}", param_hint="--elite")
    chosen = [o.strip() for o in opponents.split(",")] if opponents else list(knobs(game).opponents)
    for name in chosen:
        _check(name, game, "--opponents")
    _check(start, game, "--start")
    ruleset_from_options(ruleset, sets, game)
    target = _tuned_target(out, knobs(game).preset_dir(), force)
    result = tune(seed=seed, generations=generations, population=population, elite=elite, games=games,
                  final_games=final_games, opponents=chosen, start=start, ruleset=ruleset,
                  overrides=parse_sets(sets), workers=workers, log=lambda line: click.echo(line, err=True),
                  game=game, scheduler=scheduler)
    result.provenance["command"] = command_line()
    write_whole(target, result.toml(name=target.stem))
    for row in result.final:
        verdict = "beats" if row["low"] > row["fair"] else "does NOT beat"
        click.echo(f"tuned {verdict:<13} {row['opponent']:<10} {row['win_rate']:6.1%} "
                   f"[{row['low']:.1%}, {row['high']:.1%}] (fair share {row['fair']:.0%}, {row['games']} games)")
    click.echo(f"saved {target} ({result.provenance['games_spent']:,} games)")


def _tuned_target(out, presets: Path, force: bool, shipped: str = "tuned") -> Path:
    """Where a fitted preset goes: --out, a .toml file whose folder exists, or the shipped
    preset `shipped`; an existing file (a shipped one too) is replaced only with --force."""
    target = Path(out) if out is not None else presets / f"{shipped}.toml"
    if target.suffix == ".toml" and target.exists() and target.resolve().parent == presets.resolve() and not force:
        raise click.BadParameter(f"{target} is a shipped preset: add --force to replace it, or give "
                                 f"--out another file (e.g. runs/{shipped}.toml)", param_hint="--out")
    if target.suffix != ".toml" or not target.stem.strip():
        raise click.BadParameter(f"{target} is not a .toml file name (e.g. runs/tuned.toml)", param_hint="--out")
    return target_file(target, force, suffixes=(".toml",), allow_shipped=True)


@strategies_cmd.command("distill")
@click.option("--rounds", type=click.IntRange(min=1, max=20), default=2, show_default=True,
              help="Rounds of expert iteration (each labels the games of the last round's player).")
@click.option("--games", type=click.IntRange(min=4, max=100_000), default=200, show_default=True,
              help="Games labelled by the search a round (one seat each; the last quarter held out).")
@click.option("--generations", type=click.IntRange(min=1), default=12, show_default=True)
@click.option("--population", type=click.IntRange(min=3), default=32, show_default=True)
@click.option("--elite", type=click.IntRange(min=2), default=8, show_default=True)
@click.option("--start", default="tuned", show_default=True, help="The heuristic preset the apprentice starts from.")
@click.option("--players", type=click.IntRange(2, 5), default=4, show_default=True,
              help="Seats of the labelled games (the apprentice in every one).")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True)
@click.option("--workers", type=click.IntRange(min=1), default=None)
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Preset file to write (default: the shipped distilled preset, with --force).")
@click.option("--force", is_flag=True, help="Replace a shipped preset (the default --out is one).")
@scheduler_option
@ruleset_options
def distill_cmd(rounds, games, generations, population, elite, start, players, seed, workers, out, force, scheduler,
                ruleset, sets):
    """Distil the New York Kings search into the heuristic's knobs (expert iteration,
    sim.league.distill): the search labels the decisions of the apprentice's games, the
    cross-entropy method fits the knobs to agree with it; prints each round's agreement on the
    fitted and the held-out games, and writes the preset with its provenance."""

    from sim.league.distill import distill
    from sim.league.games import knobs

    if elite >= population:
        raise click.BadParameter(f"{elite} elite out of a population of {population}: keep elite below it",
                                 param_hint="--elite")
    if _load(start, "nyk").family != "param":
        raise click.BadParameter(f"{start!r} is not a knob preset: start from one of the param family (e.g. tuned)",
                                 param_hint="--start")
    ruleset_from_options(ruleset, sets, "nyk")
    target = _tuned_target(out, knobs("nyk").preset_dir(), force, "distilled")
    result = distill(seed=seed, rounds=rounds, games=games, generations=generations, population=population,
                     elite=elite, start=start, players=players, ruleset=ruleset, overrides=parse_sets(sets),
                     workers=workers, log=lambda line: click.echo(line, err=True), scheduler=scheduler)
    result.provenance["command"] = command_line()
    _agreement_table("round", [(h["round"], h["labels"], h) for h in result.rounds])
    write_whole(target, result.toml(name=target.stem))
    click.echo(f"saved {target}")


def _agreement_table(step: str, rows) -> None:
    """Expert iteration's progress, one line a step: (step, decisions labelled, its history row)."""
    click.echo(f"{step}  decisions  search departs  agreement fitted (before -> after)  held out (before -> after)")
    for k, decisions, h in rows:
        click.echo(f"{k:>{len(step)}}  {decisions:>9,}  {h['departures']:>14.1%}  "
                   f"{h['fitted_before']:>18.2%} -> {h['fitted_after']:.2%}  "
                   f"{h['held_out_before']:>11.2%} -> {h['held_out_after']:.2%}")


@strategies_cmd.command("learn")
@click.option("--game", type=click.Choice(GAMES), default=DEFAULT_GAME, show_default=True, help=GAME_HELP)
@click.option("--iterations", type=click.IntRange(min=1, max=20), default=2, show_default=True,
              help="Iterations of expert iteration (each labels the last iteration's player's own games).")
@click.option("--games", type=click.IntRange(min=4, max=100_000), default=100, show_default=True,
              help="Games labelled by the search an iteration (one seat each; the last quarter held out).")
@click.option("--base", default=None,
              help="The heuristic preset whose pick is the logit's first feature (and whose knobs it keeps); "
                   "default: distilled (New York Kings), equilibrium-1 (American Gangsters).")
@click.option("--players", type=click.IntRange(2, 5), default=4, show_default=True,
              help="Seats of the labelled games (the apprentice in every one).")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True)
@click.option("--workers", type=click.IntRange(min=1), default=None)
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Preset file to write, its weights beside it as NAME.npz (default: the shipped learned "
                   "preset, with --force).")
@click.option("--force", is_flag=True, help="Replace a shipped preset (the default --out is one).")
@click.option("--confirm/--no-confirm", default=True, show_default=True,
              help="Keep a departure of the search from the apprentice's option as the label only if a second "
                   "search on other worlds repeats it (else the apprentice's option).")
@scheduler_option
@ruleset_options
def learn_cmd(game, iterations, games, base, players, seed, workers, out, force, confirm, scheduler, ruleset, sets):
    """Learn a player from the search (expert iteration, sim.league.learn): the search labels the
    apprentice's own decisions, scipy's L-BFGS fits a conditional logit over option features to
    its picks and visit counts, the fitted player becomes the next iteration's apprentice and the
    search's rollout; prints each iteration's agreement and writes the weights and the preset
    `learned` with its provenance (command, seed, engine commit, the weights' sha256)."""

    from sim.league.games import knobs
    from sim.league.learn import learn, preset_text, side
    from strategies import file_sha256

    try:
        this = side(game)
    except ValueError as err:
        raise click.BadParameter(str(err), param_hint="--game") from None
    base = base or this.default_base
    if _load(base, game).family != this.base_family:
        raise click.BadParameter(f"{base!r} is not a knob preset: give one of the {this.base_family} family "
                                 f"(e.g. {this.default_base})", param_hint="--base")
    ruleset_from_options(ruleset, sets, game)
    target = _tuned_target(out, knobs(game).preset_dir(), force, "learned")
    weights = target.with_suffix(".npz")
    if weights.exists() and not force:
        raise click.BadParameter(f"{weights} exists: add --force to replace it", param_hint="--out")
    result = learn(seed=seed, iterations=iterations, games=games, base=base, players=players, ruleset=ruleset,
                   overrides=parse_sets(sets), workers=workers, log=lambda line: click.echo(line, err=True),
                   scheduler=scheduler, game=game, confirm=confirm)
    result.provenance["command"] = command_line()
    _agreement_table("iteration", [(h["iteration"], h["decisions"], h) for h in result.iterations])
    write_whole(weights, lambda path: this.module().write_weights(path, result.weights), make_folder=True)
    write_whole(target, preset_text(result, target.stem, weights.name, file_sha256(weights)))
    click.echo(f"saved {target} and {weights}")


@strategies_cmd.command("psro")
@click.option("--iterations", type=click.IntRange(min=1), default=3, show_default=True,
              help="Best responses to search (the study stops early when one gains nothing).")
@click.option("--game", type=click.Choice(GAMES), default=DEFAULT_GAME, show_default=True,
              help=GAME_HELP)
@click.option("--population", default=None,
              help="The starting population, comma-separated (default: the game's presets; New York "
                   "Kings: runner,enforcer,networker,cautious,corrupter,balanced,tuned; American "
                   "Gangsters: racketeer,warlord,politician,informer-aware,balanced).")
@click.option("--players", type=click.IntRange(2, 8), default=4, show_default=True)
@click.option("--games-per-profile", type=click.IntRange(min=1), default=80, show_default=True,
              help="Games of each profile of the meta-game (a multiple of --players).")
@click.option("--generations", type=click.IntRange(min=1), default=4, show_default=True,
              help="Generations of each best-response search.")
@click.option("--candidates", type=click.IntRange(min=2), default=8, show_default=True,
              help="Candidates per generation of the search.")
@click.option("--games", type=click.IntRange(min=10), default=400, show_default=True,
              help="Games per candidate against the mixture (same ids for all candidates).")
@click.option("--final-games", type=click.IntRange(min=10), default=2000, show_default=True,
              help="Games measuring each best response against the mixture, on fresh ids.")
@click.option("--oracle", type=click.Choice(["knobs", "learned"]), default="knobs", show_default=True,
              help="How a best response is found: the knob search (--generations, --candidates, --games), or "
                   "expert iteration (`strategies learn`) warm-started from the shipped learned player, one seat "
                   "a game against the mixture (--learn-iterations, --learn-games, --learn-budget).")
@click.option("--learn-iterations", type=click.IntRange(1, 20), default=1, show_default=True,
              help="--oracle learned: iterations of expert iteration a best response.")
@click.option("--learn-games", type=click.IntRange(4, 100_000), default=24, show_default=True,
              help="--oracle learned: games labelled by the search an iteration (the last quarter held out).")
@click.option("--learn-budget", type=click.IntRange(min=2), default=None,
              help="--oracle learned: the labelling search's playouts a decision (default: the game's "
                   "expert's, 200).")
@click.option("--exploit-games", type=click.IntRange(min=0), default=0, show_default=True,
              help="Games of the game's exploiter (nyk search-leaf-all, ag search-200) in one seat against each "
                   "iteration's mixture (`strategies strength --exploit`); the study stops when it gains less "
                   "than 2 points over fair (0: no reading).")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True)
@click.option("--workers", type=click.IntRange(min=1), default=None)
@scheduler_option
@click.option("--out", type=OutPath(file_okay=False), required=True,
              help="Study directory (meta-game runs, presets, mixtures, psro.json).")
@click.option("--ship", default=None, metavar="NAME",
              help="Also write the result as shipped presets NAME-<k> and the mixture meta:NAME.")
@click.option("--resume", is_flag=True, help="Go on with the study in --out (played profiles kept).")
@click.option("--force", is_flag=True, help="Clear --out (a PSRO study) and start over; with --ship, "
                                            "also replace shipped presets and mixture of that name.")
@ruleset_options
def psro_cmd(iterations, game, population, players, games_per_profile, generations, candidates, games,
             final_games, oracle, learn_iterations, learn_games, learn_budget, exploit_games, seed, workers,
             scheduler, out, ship, resume, force, ruleset, sets):
    """Grow a population by best responses (PSRO): solve the meta-game, find a best response to its
    equilibrium mixture (the knob search, or expert iteration with --oracle learned), add it if it
    gains; exploitability per iteration, and what stopped the study."""
    import sys

    from sim.meta import psro
    from sim.meta.table import MetaError

    if resume and force:
        raise click.UsageError("--resume and --force exclude each other")
    from sim.league.games import knobs

    if ship is not None:
        try:
            psro.check_ship_name(ship, game, force)   # before any game: the study is long
        except MetaError as err:
            raise click.BadParameter(str(err), param_hint="--ship") from None
    names = ([p.strip() for p in population.split(",") if p.strip()] if population
             else list(knobs(game).population))
    for name in names:
        _check(name, game, "--population")
    ruleset_from_options(ruleset, sets, game)
    search = {"generations": generations, "population": candidates, "elite": max(1, candidates // 4),
              "games": games, "final_games": final_games}
    learn = {"iterations": learn_iterations, "games": learn_games}
    if oracle == "learned":
        _learned_oracle_fits(game)
        if learn_budget is not None:
            learn["knobs"] = {"budget": learn_budget}
    try:
        with study_errors():
            result = psro.psro(names, iterations, players, games_per_profile, seed, out, ruleset,
                               parse_sets(sets), workers, search, resume, force, command_line(),
                               log=lambda line: click.echo(line, err=True), game=game, scheduler=scheduler,
                               oracle=oracle, learn=learn, exploit_games=exploit_games)
    except KeyboardInterrupt:
        click.echo(f"mobsim: interrupted: the played profiles are kept in {out}; finish with the "
                   f"same command and --resume", err=True)
        sys.exit(interrupt_status())
    for row in result["history"]:
        if "exploitability" in row:
            click.echo(f"iteration {row['iteration']}: exploitability {100 * row['exploitability']:+.1f} pts "
                       f"[{100 * row['exploitability_low']:+.1f}, {100 * row['exploitability_high']:+.1f}]"
                       f"{'' if row['added'] else ' (no gain: stopped)'}")
        if "exploiter" in row:
            click.echo(f"iteration {row['iteration']}: {row['exploiter']['label']}")
    click.echo(f"stopped: {result['history'][-1]['stopped']}")
    mix = ", ".join(f"{Path(s).stem} {100 * w:.0f}%" for s, w in result["mixture"].items() if w >= 0.01)
    click.echo(f"equilibrium mixture: {mix}")
    click.echo(f"use it as a strategy: {f'--game {game} ' if game != DEFAULT_GAME else ''}--strategies meta:{out}")
    if ship:
        for name, path in psro.ship(result, ship, force).items():
            click.echo(f"shipped {name}: {path}")


def _learned_oracle_fits(game: str) -> None:
    """--oracle learned: a game with a learned player."""
    from sim.league.learn import side

    try:
        side(game)
    except ValueError as err:
        raise click.BadParameter(str(err), param_hint="--game") from None


@strategies_cmd.command("refit")
@click.option("--game", type=click.Choice(GAMES), default=DEFAULT_GAME, show_default=True, help=GAME_HELP)
@ruleset_options
@click.option("--out", type=OutPath(file_okay=False), required=True,
              help="Directory for the refit presets and mixture and refit.json (shipped name -> refit file).")
@click.option("--budget", type=click.IntRange(min=0), default=20_000, show_default=True,
              help="Games the fitting may play, split over the players (docs/refit.md); 0 keeps the shipped "
                   "players (the default rules only).")
@click.option("--rungs", default=None,
              help="The shipped players to refit, comma-separated (default: the game's good rungs).")
@click.option("--players", type=click.IntRange(2, 5), default=None,
              help="Seats of the fitting games (default: the game's usual table).")
@click.option("--check-games", type=click.IntRange(min=0), default=2000, show_default=True,
              help="Games of each refit player in one seat against the shipped one in the others, on fresh "
                   "game ids, outside the budget (0: no check).")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True)
@click.option("--workers", type=click.IntRange(min=1), default=None)
@scheduler_option
def refit_cmd(game, ruleset, sets, out, budget, rungs, players, check_games, seed, workers, scheduler):
    """Fit the shipped strong players (the good rungs) again under a ruleset, warm-started from the
    shipped ones, within a budget of games; print each refit player against the shipped one."""
    import shlex
    import sys

    from sim.league.refit import RefitError, check_against_shipped, refit

    ruleset_from_options(ruleset, sets, game)
    command = "mobsim " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    try:
        with study_errors():
            result = refit(game, ruleset, parse_sets(sets), out, budget, seed, workers, scheduler,
                           None if rungs is None else rungs.split(","), players, command,
                           log=lambda line: click.echo(line, err=True))
            checks = {r["player"]: r for r in (check_against_shipped(result, check_games, seed, workers, scheduler)
                                               if check_games else [])}
    except RefitError as err:
        raise click.UsageError(str(err)) from None
    for r in result.players_refit:
        click.echo(refit_line(r, checks.get(r.shipped), result.players))
    click.echo(result.fitted_to())
    click.echo(f"written: {out}/refit.json ({result.games_spent:,} games spent)")


def refit_line(r, check: dict | None, players: int) -> str:
    """One refit player: what was done, and its win rate against the shipped one (its interval)."""
    if not r.fitted:
        return f"{r.shipped}: {r.note}"
    head = f"{r.shipped}: refit ({r.method}, {r.games:,} games) -> {r.file}"
    if check is None:
        return head + ("; not played against the shipped one (a search: seconds a game)" if r.method == "search"
                       else "")
    return (f"{head}; wins {check['win_rate']:.1%} [{check['low']:.1%}, {check['high']:.1%}] in one seat against "
            f"{players - 1} shipped {r.shipped} (fair {check['fair']:.1%}, {check['games']:,} games, these rules)")


COMMANDS = [strategies_cmd]
