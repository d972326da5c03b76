"""The balance report of a finished run: is the game fair, which strategies win, how long and how
close games are, where the money goes and what the mechanics do, with figures.

    import sim
    from sim.analysis import report_run
    report_run(sim.load("runs/study1"), "reports/study1")   # -> reports/study1/index.html

`build_report(run)` returns the `Report` before it is written (to add sections). The generic
sections use the columns every game has (seat, strategy, won, rank, fortune; turns, decided_by
...); `sim.analysis.games.<game>` adds the game's own. Definitions are in docs/reports.md.
"""

from __future__ import annotations

import shlex
from pathlib import Path

import numpy as np
import pandas as pd

from sim import __version__
from sim.analysis import economy, fairness, figures, quality
from sim.analysis.games import add_game_sections, section_module
from sim.analysis.headline import definition, run_estimates
from sim.analysis.report import Report, count, dollars, number, percent
from sim.analysis.scan import GenericScan
from sim.analysis.stats import BOOT_REPS, BOOT_SEED
from sim.analysis.tables import GENERIC, ReportRun, game_count, run_parts, table_columns
from sim.analysis.watch import add_opening
from sim.runner.store import run_state
from sim.shared.seats import seat_number, shown_metric, with_seat_numbers

RATE_METRICS = ("balance", "seat_gap", "seat0_advantage", "cap_rate", "completion", "comeback_rate",
                "tiebreak_rate", "winrate_max", "strategy_gap")
MONEY_METRICS = ("margin", "mean_fortune")
RATES = {c: percent for c in ("win_rate", "lo", "hi", "share", "even_share", "winner_leads",
                              "expected_vs_average")}


def report_run(run, out_dir, command: str | None = None, replays: bool = False,
               target_turns: tuple[int, int] | None = None) -> Path:
    """Write the run's whole report (index.html, index.md, figures/, tables/) into out_dir and
    return the path of index.html. `replays`: also write a replay page of each game worth
    watching into out_dir/replays/; `target_turns`: (lo, hi) turns, for the game-length findings."""
    return build_report(run, command=command, out_dir=out_dir, replays=replays,
                        target_turns=target_turns).write(out_dir)


def build_report(run, command: str | None = None, out_dir=None, replays: bool = False,
                 target_turns: tuple[int, int] | None = None) -> Report:
    """The run's report, every section in order, not yet written. The run is read part by part
    (`scan_run`, `headline.run_estimates`, the game's sections): its memory does not grow with
    the games."""
    run = report_run_view(run)
    manifest = run.manifest
    scan = scan_run(run)
    report = Report(f"mobsim balance report: {game_title(manifest)}",
                    run_meta(run, command or report_command(run, out_dir), scan.games_seen))
    if manifest.get("status") != "complete":
        report.text(f"Warning: this run is not finished ({scan.games_seen:,} of {manifest.get('games', 0):,} "
                    f"games; {run_state(run.path, manifest)}); the report covers the finished batches only.")
    head = run_estimates(run)
    seat_test = scan.seat_test.result(BOOT_REPS, BOOT_SEED)
    pairs = scan.strategy_pairs.table()
    add_opening(report, run, scan, head, seat_test, pairs, out_dir, replays, target_turns)
    game = game_of(manifest)
    _summary_section(report, scan, head, seat_test, pairs, game)
    _who_wins_section(report, scan, seat_test, pairs, game)
    _quality_section(report, scan, game)
    _fortunes_section(report, scan, game)
    add_game_sections(report, run)
    _definitions_section(report, head, game)
    return report


def game_of(manifest: dict):
    """The run's game (sim.shared.game): its unit, what its first seat is, its plain endings."""
    from sim.shared.game import find, names

    return find(manifest.get("game") if manifest.get("game") in names() else names()[0])


def scan_run(run) -> GenericScan:
    """One pass over the run's parts: what the generic sections need (`scan.GenericScan`)."""
    from sim.analysis.findings import choices as choices_of

    choices = tuple(choices_of(run.manifest.get("game")))
    games_present = table_columns(run, "games")
    n_games, parts = run_parts(run, games_present, set(GENERIC) | set(choices), TURN_COLUMNS)
    scan = GenericScan(n_games, choices)
    for games, seats, turns in parts:
        scan.add(games, seats, turns)
    return scan


TURN_COLUMNS = ("game_id", "turn", "seat", "fortune")


def report_run_view(run) -> ReportRun:
    """The run as the report reads it: the game's own sections that read whole tables get them on
    first use (New York Kings reads its own columns part by part)."""
    own = getattr(section_module(run.manifest.get("game")), "READS_OWN_COLUMNS", False)
    return ReportRun(run, () if own else None)


# --- metadata ----------------------------------------------------------------------------------------

def game_title(manifest: dict) -> str:
    from sim.runner import games as adapters

    game = manifest.get("game", "?")
    try:
        return adapters.adapter(game).title
    except (ValueError, KeyError, AttributeError):
        return str(game)


def run_command(manifest: dict, path) -> str:
    """The `mobsim run` command line that plays this run again (the same tables)."""
    words = ["mobsim", "run", "--game", str(manifest.get("game")), "--players", str(manifest.get("players")),
             "--strategies", ",".join(manifest.get("strategies", {}).get("names", [])),
             "--games", str(manifest.get("games")), "--seed", str(manifest.get("seed"))]
    for key, value in manifest.get("ruleset", {}).get("defaults_changed", {}).items():
        words += ["--set", f"{key}={_toml(value)}"]
    seating = manifest.get("seating", "rotate" if manifest.get("rotate", True) else "fixed")
    if seating != "rotate":
        words += ["--seating", seating]
    if manifest.get("record_turns"):
        words.append("--record-turns")
    words += ["--out", str(path) if path else "RUN_DIR"]
    return shlex.join(words)


def _toml(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)


def report_command(run, out_dir) -> str:
    return shlex.join(["mobsim", "report", str(run.path or "RUN_DIR"), "--out", str(out_dir or "DIR")])


def run_meta(run, command: str, n_games: int | None = None) -> dict:
    m = run.manifest
    strategies = m.get("strategies", {}).get("names", [])
    seating = {"rotate": "rotated (every strategy in every seat equally often)", "fixed": "fixed",
               "all": "every order of the lineup in turn", "random": "a random order per game"}[
        m.get("seating", "rotate" if m.get("rotate", True) else "fixed")]
    changed = m.get("ruleset", {}).get("defaults_changed", {})
    meta = {
        "run": str(run.path) if run.path else "(in memory)",
        "game": game_title(m),
        "games": f"{game_count(run) if n_games is None else n_games:,} of {m.get('games', 0):,} "
                 f"({run_state(run.path, m)})",
        "players": str(m.get("players")),
        "strategies (by slot)": ", ".join(strategies) + f"; seating {seating}",
        "seed": str(m.get("seed")),
        "ruleset fingerprint": m.get("ruleset", {}).get("fingerprint", "?"),
        "options changed": ", ".join(f"{k}={v!r}" for k, v in changed.items()) or "none (the game's defaults)",
        "played with mobsim": str(m.get("mobsim_version", "?")),
        "report by mobsim": __version__,
        "played": f"{m.get('started', '?')} to {m.get('finished') or 'unfinished'}",
        "play the run again": run_command(m, run.path),
        "this report": command,
    }
    return meta


# --- summary -----------------------------------------------------------------------------------------

def _interval(value, lo, hi, fmt) -> str:
    return f"{fmt(value)} (95% interval {fmt(lo)} to {fmt(hi)})"


def _pct(v) -> str:
    return "n/a" if v is None or v != v else f"{100 * v:.1f}%"


def _points(v) -> str:
    return "n/a" if v is None or v != v else f"{100 * v:.1f} points"


def _summary_section(report, scan, head, seat_test, pairs, game):
    report.heading("Summary")
    lines = []
    if "seat_gap" in head.index:
        gap = head.loc["seat_gap"]
        line = (f"Seats: balance {_pct(1 - gap['value'])}; the largest gap between two seats' win rates, "
                f"corrected for the part noise alone opens, is "
                f"{_interval(gap['value'], gap['lo'], gap['hi'], _points)}")
        if "seat0_advantage" in head.index:
            adv = head.loc["seat0_advantage"]
            line += (f"; seat 1 ({game.first_seat}) wins "
                     f"{_interval(adv['value'], adv['lo'], adv['hi'], _signed_points)} against the average seat")
        line += "."
        if seat_test is not None:
            verdict = ("the seats differ by more than noise" if seat_test["p_value"] < 0.05
                       else "no evidence that the seats differ")
            line += (f" If seats did not matter, noise alone would open a gap of about "
                     f"{_points(seat_test['null_median'])} (95th percentile {_points(seat_test['null_95'])}); "
                     f"permutation p = {seat_test['p_value']:.3f}: {verdict}.")
        lines.append(line)
    names = scan.names()
    if len(names) > 1:
        rates = [(n, head.loc[f"winrate:{n}"]) for n in names]
        rates.sort(key=lambda item: -item[1]["value"])
        listed = "; ".join(f"{n} {_interval(r['value'], r['lo'], r['hi'], _pct)}" for n, r in rates)
        significant = int(pairs["significant"].sum())
        lines.append(f"Strategies (share of their seats won): {listed}. {significant} of {len(pairs)} "
                     "pairwise differences are significant at 5% after Holm's correction.")
    else:
        lines.append(f"One strategy ({names[0] if names else '?'}) plays every seat: the run measures "
                     "the rules and the seats, not the strategies.")
    if "turns" in head.index:
        t = scan.measures["turns"]
        line = (f"Length: {head.loc['turns', 'value']:.1f} turns on average (median {t.median():.0f}, "
                f"90% of games between {t.quantile(0.05):.0f} and {t.quantile(0.95):.0f})")
        if "cap_rate" in head.index:
            line += f"; {_pct(head.loc['cap_rate', 'value'])} reached the turn cap"
        lines.append(line + ".")
    close = []
    if "winner_led_from" in scan.game_columns:
        led = scan.measures["winner_led_from"].interval()[0]
        close.append(f"the winner took the lead for good at turn {led:.1f} on average")
    if "comeback_rate" in head.index:
        close.append(f"{_pct(head.loc['comeback_rate', 'value'])} of winners were behind at mid-game")
    if "margin" in head.index:
        close.append(f"the mean margin of victory is {game.amount(head.loc['margin', 'value'])}")
    if "tiebreak_rate" in head.index:
        close.append(f"{_pct(head.loc['tiebreak_rate', 'value'])} of games needed a tie-break")
    if close:
        lines.append("Closeness: " + "; ".join(close) + ".")
    needs = []
    if len(pairs):
        needs.append(f"between two strategies about {pairs['games_1pt'].max():,.0f}")
    seat_pairs = scan.seat_pairs.table()
    if len(seat_pairs):
        needs.append(f"between two seats about {seat_pairs['games_1pt'].max():,.0f}")
    if needs:
        lines.append("Precision: games needed to detect a one-point difference in win rate (5% test, 80% power): "
                     + ", ".join(needs) + f"; this run has {scan.games_seen:,}.")
    for line in lines:
        report.text(line)
    report.table(head.drop(columns="se"), "Headline metrics with 95% intervals", name="headline",
                 shown=_headline_shown(head, game))


def _headline_shown(head: pd.DataFrame, game=None) -> pd.DataFrame:
    rows = []
    for metric, r in head.iterrows():
        fmt = metric_format(metric, game)
        rows.append({"metric": shown_metric(metric), "value": fmt(r["value"]),
                     "95% interval": f"{fmt(r['lo'])} to {fmt(r['hi'])}",
                     "n": f"{int(r['n']):,}", "definition": in_terms(definition(metric), game)})
    return pd.DataFrame(rows)


def in_terms(text: str, game=None) -> str:
    """A definition in the game's terms: its score unit for "dollars", its first seat."""
    if game is None:
        return text
    text = text.replace("(seat 1 plays first in turn 1's bidding order)", f"(seat 1: {game.first_seat})")
    return text if game.score_unit == "$" else text.replace("in dollars", f"in {game.score_unit}").replace(
        "money", "score")


def metric_format(metric: str, game=None):
    """How a headline metric's value reads: a percentage, the game's score unit (dollars by
    default), points per turn or a number."""
    if metric == "seat0_advantage":
        return lambda v: "n/a" if v != v else f"{100 * v:+.1f} points"
    if metric in RATE_METRICS or metric.startswith("winrate:"):
        return _pct
    if metric in MONEY_METRICS:
        return dollars if game is None else game.amount
    return lambda v: "n/a" if v != v else f"{v:.2f}"


# --- who wins ----------------------------------------------------------------------------------------

def _who_wins_section(report, scan, seat_test, pairs, game):
    report.heading("Who wins")
    by_strategy = scan.win_rates("strategy")
    by_seat = scan.win_rates("seat")
    sizes = scan.players.order
    players = int(sizes[0]) if len(sizes) == 1 else None
    fig, axes = figures.figure(ncols=2)
    figures.bars(axes[0], by_strategy["strategy"], by_strategy["win_rate"], by_strategy["lo"], by_strategy["hi"],
                 "Win rate by strategy", "share of its seats won")
    figures.bars(axes[1], by_seat["seat"] + 1, by_seat["win_rate"], by_seat["lo"], by_seat["hi"], "Win rate by seat",
                 "share of games won", reference=1 / players if players else None,
                 reference_label=f"even: 1/{players}" if players else None)
    report.figure(fig, "win-rates", "Win rates with 95% Wilson intervals")
    report.table(by_strategy, "Win rate by strategy", name="win-rate-by-strategy", formats=RATES)
    report.table(by_seat, f"Win rate by seat (seat 1: {game.first_seat})", name="win-rate-by-seat", formats=RATES,
                 shown=with_seat_numbers(by_seat))
    report.table(scan.by_player_count(), "Win rate by player count and strategy",
                 name="win-rate-by-players", formats=RATES)
    advantage = scan.advantage.table()
    report.text("Each starting seat's advantage: its win rate minus the average seat's at that table size "
                "(wins per game / players), 95% intervals over games. With several table sizes, one row per "
                "size and seat: the seat win rate by player count.")
    fig, (ax,) = figures.figure(width=7)
    for i, (size, part) in enumerate(advantage.groupby("n_players")):
        figures.points(ax, part["seat"] + 1 + 0.08 * i, part["advantage"], part["adv_lo"], part["adv_hi"],
                       "Advantage of each starting seat", "seat", "win rate minus the average seat's",
                       label=f"{size} players", i=i)
    ax.axhline(0, color="grey", linewidth=0.8)
    ax.set_xticks(sorted(advantage["seat"].unique() + 1))
    ax.legend(fontsize=8)
    report.figure(fig, "seat-advantage", "Advantage of each starting seat over the average seat (95% intervals)")
    report.table(advantage, "Seat advantage by player count", name="seat-advantage", shown=with_seat_numbers(advantage),
                 formats=RATES | {"average": percent, "advantage": _signed_points, "adv_lo": _signed_points,
                                  "adv_hi": _signed_points})
    near = scan.neighbours()
    names = scan.names()
    if len(near) > len(names):  # some strategy met more than one neighbour
        report.text("Neighbour effects: each strategy's win rate by the strategy seated after it (next in the "
                    "turn order), and the difference from its overall rate. Needs seatings that vary "
                    "(mobsim run --seating all or random).")
        report.table(near, "Win rate by the next seat's strategy", name="neighbours",
                     formats=RATES | {"vs_overall": _signed_points})
    cross = scan.by_strategy_seat.table()
    matrix = cross.pivot(index="strategy", columns="seat", values="win_rate").reindex(names)
    matrix.columns = [seat_number(c) for c in matrix.columns]
    fig, (ax,) = figures.figure(width=7, height=0.6 * len(matrix) + 2)
    figures.heatmap(ax, matrix.to_numpy(), matrix.index, matrix.columns, "Win rate by strategy and seat")
    ax.set_xlabel("seat")
    report.figure(fig, "strategy-by-seat", "Win rate of each strategy in each seat")
    report.table(cross, "Win rate by strategy and seat", name="win-rate-by-strategy-and-seat", formats=RATES,
                 shown=with_seat_numbers(cross))

    report.heading("Is the seat gap more than noise?", level=3)
    if seat_test is None:
        report.text("Not testable: with fixed seating of different strategies, a seat's effect cannot be "
                    "told apart from its strategy's.")
    else:
        report.text(f"The largest gap between seats' win rates, against its distribution when seats do not "
                    f"matter ({seat_test['method']}, {seat_test['reps']:,} permutations, seeded).")
        report.table(pd.DataFrame([seat_test]), "Seat permutation test", name="seat-test",
                     formats={"gap": percent, "null_median": percent, "null_95": percent})
    seat_pairs = scan.seat_pairs.table()
    report.table(seat_pairs, "Seat against seat: difference of win rates in the same "
                 "games, Holm-corrected", name="pairwise-seats", formats=_pair_formats())

    if len(pairs):
        report.heading("Strategy against strategy", level=3)
        report.text("For each pair, the mean over games of the difference between their shares of seats "
                    "won, a z-test and Holm's correction over all pairs (family-wise error 5%). "
                    "games_1pt: games needed to detect a one-point difference for that pair (5% two-sided "
                    "test, 80% power).")
        report.table(pairs, "Pairwise strategy differences", name="pairwise-strategies", formats=_pair_formats())
        ahead_names, units = scan.ahead.units()
        ratings = fairness.ratings_of(ahead_names, units)
        report.text("Bradley-Terry ratings from every pair of seats with different strategies in each game "
                    "(ahead = better final rank), on the Elo scale (mean 0; +400 points: 10 to 1 odds of "
                    "finishing ahead), 95% bootstrap intervals over games. expected_vs_average: the model's "
                    "chance of finishing ahead of an average strategy. Half a win each way is added to every "
                    "pair that met, which keeps a never-beaten strategy finite.")
        fig, (ax,) = figures.figure(width=7)
        figures.points(ax, np.arange(len(ratings)), ratings["rating"], ratings["lo"], ratings["hi"],
                       "Bradley-Terry ratings", "", "Elo points", percent=False)
        ax.set_xticks(np.arange(len(ratings)), ratings["strategy"])
        ax.axhline(0, color="grey", linewidth=0.8)
        report.figure(fig, "ratings", "Strategy ratings (Bradley-Terry, Elo scale) with 95% intervals")
        report.table(ratings, "Strategy ratings", name="ratings", formats=RATES | {"rating": _elo, "lo": _elo,
                                                                                   "hi": _elo})
        k = len(ahead_names)
        wins = fairness.wins_matrix_of(ahead_names, units.sum(axis=0).reshape(k, k))
        report.table(wins, "Times the row strategy finished ahead of the column strategy", name="pairwise-wins")
        report.text("Head to head: for each pair, the share of their meetings in one game where a finished ahead "
                    "of b (95% bootstrap intervals over games). Intransitivity: triples where x beats y, y beats "
                    "z and z beats x more often than not; significant when all three shares' intervals lie "
                    "above 50%.")
        shares = fairness.head_to_head_of(ahead_names, units)
        report.table(shares, "Head-to-head shares", name="head-to-head", formats=RATES)
        found = fairness.cycles_of(shares, names)
        if len(found):
            report.table(found, "Intransitive cycles", name="cycles", formats={"weakest": percent})
        else:
            report.text("No intransitive cycle: the head-to-head table is transitive.")
    report.heading("How many games a difference needs", level=3)
    report.text("Games needed to detect a one-point (0.01) difference with a two-sided 5% test and 80% power, "
                "from this run's own game-to-game variation. Comparing two rule sets on the same seed and "
                "game ids (mobsim compare) pairs the games and usually needs fewer.")
    power = fairness.power_of(pairs, scan.strategy_pairs.share_sd(), seat_pairs, scan.games_seen)
    report.table(power, "Games needed for a one-point difference", name="power",
                 formats={"games": count, "games_now": count})


def _pair_formats():
    return {"diff": _signed_points, "lo": _signed_points, "hi": _signed_points, "p_value": _p,
            "p_holm": _p, "games_1pt": count}


def _signed_points(v) -> str:
    return "" if v != v else f"{100 * v:+.1f} points"


def _p(v) -> str:
    return "" if v != v else ("<0.0001" if v < 1e-4 else f"{v:.4f}")


def _elo(v) -> str:
    return "" if v != v else f"{v:+.0f}"


# --- game quality ------------------------------------------------------------------------------------

def _quality_section(report, scan, game):
    report.heading("Game quality")
    report.text("Length, endings and closeness. Shares carry 95% Wilson intervals, means 95% normal "
                "intervals; quantiles q05..q95 describe the spread of games.")
    columns = scan.game_columns
    measures = scan.quality_measures(game.score_unit)
    report.table(measures, "Per-game measures", name="measures",
                 formats={c: number for c in measures.columns if c != "measure"})
    report.table(scan.closeness(), "Closeness and completion", name="closeness",
                 formats={"share": percent, "lo": percent, "hi": percent})
    if "decided_by" in columns:
        report.table(scan.endings_table(), f"How the winner was decided (no tie-break: "
                     f"{', '.join(game.plain_decisions)})", name="endings",
                     formats={"share": percent, "lo": percent, "hi": percent})
    fig, axes = figures.figure(ncols=2)
    lengths = scan.measures["turns"].distribution("turns")
    figures.histogram(axes[0], lengths["turns"], lengths["games"], "Game length", "turns")
    if "margin" in columns:
        margins = scan.measures["margin"]
        if game.score_unit == "$":
            step = 1000 if margins.sorted()[0].max() <= 100_000 else 5000
            binned = margins.binned(step).distribution("margin")
            figures.histogram(axes[1], binned["margin"] / 1000, binned["games"], "Margin of victory",
                              "thousand dollars")
        else:
            binned = margins.binned(1).distribution("margin")
            figures.histogram(axes[1], binned["margin"], binned["games"], "Margin of victory", game.score_unit)
    report.figure(fig, "durations", "Game length and margin of victory (games per value)")
    report.table(lengths, "Game length in turns", name="durations", formats={"share": percent})
    if "times_first" in scan.seat_columns:
        _first_player_block(report, scan.first_player())
    turns = scan.turns
    if "lead_changes" in columns:
        fig, axes = figures.figure(ncols=2)
        changes = scan.measures["lead_changes"].distribution("lead_changes")
        figures.histogram(axes[0], changes["lead_changes"], changes["games"], "Lead changes per game", "lead changes")
        if turns is not None and "winner_seat" in columns:
            curve = quality.leader_curve_of(turns.leader)
            figures.points(axes[1], curve["progress"], curve["winner_leads"], curve["lo"], curve["hi"],
                           "How early the winner leads", "share of the game played", "winner has the most money")
            report.figure(fig, "lead", "Lead changes; share of games whose eventual winner has the largest fortune "
                          "at each tenth of the game (95% Wilson intervals)")
            report.table(curve, "Eventual winner leading, by share of the game played", name="leader-curve",
                         formats=RATES)
        else:
            report.figure(fig, "lead", "Lead changes per game")
        report.table(changes, "Lead changes per game", name="lead-changes", formats={"share": percent})
    if turns is not None and "winner_seat" in columns:
        _per_turn_block(report, scan, turns)


def _per_turn_block(report, scan, turns):
    report.heading("Runaway leaders, comebacks, eliminations and kingmaking", level=3)
    runaway = quality.runaway_leader_of(turns.runaway)
    report.text("Runaway leader: the chance that the leader after turn t (the largest fortune, alone) wins, "
                "among the games that go on after turn t (drawn while at least 30 games do). Near 1 early: "
                "the game is decided early; near 1 / players: a lead means little.")
    if len(runaway):
        fig, (ax,) = figures.figure(width=7)
        figures.points(ax, runaway["turn"], runaway["share"], runaway["lo"], runaway["hi"],
                       "Chance that the leader after turn t wins", "turn t", "leader wins")
        report.figure(fig, "runaway-leader", "Chance that the leader after each turn wins (95% Wilson intervals)")
    report.table(runaway, "Leader after turn t wins", name="runaway-leader", formats=RATES)
    report.table(quality.mid_game_rank_of(turns.places), "The winner's place at mid-game (last: comeback from "
                 "last place)", name="winner-mid-game-place", formats=RATES)
    if "alive" in scan.seat_columns:
        report.table(turns.first_elimination(), "The first player out of the game",
                     name="first-elimination", formats=RATES | {"mean": number, "lo_mean": number,
                                                              "hi_mean": number})
    report.text("Kingmaking exposure: games where, before the last turn, some seat could no longer win (its "
                "fortune plus the largest one-turn gain of that game stays below the leader's, or it is out) "
                "while first place was still open (the runner-up within that gain of the leader): the last "
                "turn's actions of a seat that cannot win may then decide between the contenders. The tables do "
                "not say who took money from whom, so this bounds kingmaking from above.")
    report.table(quality.kingmaking_of(turns.exposed, turns.flipped, turns.games), "Kingmaking exposure",
                 name="kingmaking", formats=RATES)


def _first_player_block(report, table):
    report.heading("First player", level=3)
    report.text("Win rate by the number of turns a seat played first (bidding decides it each turn). A "
                "curve, not a slope: players who win may also be those who bid to play first, so this is an "
                "association; the advantage of the starting seat itself is in the seat table (Who wins).")
    fig, (ax,) = figures.figure(width=7)
    figures.points(ax, np.arange(len(table)), table["win_rate"], table["lo"], table["hi"],
                   "Win rate by turns played first", "turns as first player", "win rate")
    ax.set_xticks(np.arange(len(table)), table["times_first"].astype(str))
    report.figure(fig, "first-player", "Win rate by turns as first player (95% Wilson intervals)")
    report.table(table, "Win rate by turns as first player", name="first-player", formats=RATES)


# --- fortunes ----------------------------------------------------------------------------------------

def _fortunes_section(report, scan, game):
    report.heading("Fortunes")
    final = scan.final_fortunes()
    turns = scan.turns
    report.table(final, f"Final fortune by strategy ({game.score_unit}; interval over games)", name="final-fortunes",
                 formats={c: game.amount for c in ("mean", "lo", "hi", "q10", "median", "q90")} | {"broke": percent})
    if turns is None:
        report.text("Fortunes over the turns need a run recorded with --record-turns.")
        return
    bands = turns.fortune_bands(economy.BAND)
    names = scan.names()
    fig, (ax,) = figures.figure(width=8, height=4)
    for i, name in enumerate(names):
        part = bands[bands["strategy"] == name]
        part = part[part["seats"] >= 0.05 * part["seats"].max()]  # the few longest games would dominate
        ax.plot(part["turn"], part["q50"], color=figures.color(i), label=f"{name} (median)")
        ax.fill_between(part["turn"], part["q10"], part["q90"], color=figures.color(i), alpha=0.2)
    ax.set_xlabel("turn (0: the start)")
    figures.finish(ax, "Fortune over the game by strategy (median, 10-90% band)",
                   "dollars" if game.score_unit == "$" else game.score_unit, False)
    ax.legend(fontsize=8)
    report.figure(fig, "fortunes", "Fortunes over turns by strategy: median and 10-90% band of the seats whose "
                  "game had reached that turn (drawn while at least 5% of them still play)")
    report.table(bands, "Fortune by strategy and turn: median (10% to 90%)", name="fortune-bands",
                 shown=_bands_shown(bands, names, game.amount))


def _bands_shown(bands: pd.DataFrame, names, amount=dollars) -> pd.DataFrame:
    cells = bands.assign(cell=[f"{amount(r.q50)} ({amount(r.q10)} to {amount(r.q90)})" for r in bands.itertuples()])
    table = cells.pivot(index="turn", columns="strategy", values="cell").reindex(columns=list(names))
    seats = bands.groupby("turn")["seats"].sum()
    table.columns.name = None
    return table.assign(seats=seats.map(count)).reset_index()


# --- definitions -------------------------------------------------------------------------------------

def _definitions_section(report, head, game):
    report.heading("Definitions and methods")
    rows = [{"metric": m, "definition": in_terms(definition(m), game)} for m in head.index]
    report.table(pd.DataFrame(rows), "Headline metrics", name="definitions")
    for text in METHODS:
        report.text(text)


METHODS = (
    "Intervals are 95%. Shares use Wilson score intervals, means normal intervals over games (seats of "
    "one game are not independent, so per-seat means are first averaged within each game).",
    "Gaps, maxima, the first-player slope and ratings use a bootstrap over games (1,000 resamples, seeded: "
    "the same run gives the same report); a largest gap or a maximum is biased upward, so its interval is "
    "widened to contain the estimate. Runs above 20,000 games are resampled in 20,000 blocks of "
    "consecutive games.",
    "Pairwise differences (strategies, seats) are tested with z-tests on per-game differences and Holm's "
    "step-down correction over all pairs of the table.",
    "Games needed for a one-point difference: ((1.96 + 0.84) x sd / 0.01)^2 for a two-sided 5% test with "
    "80% power, with sd the game-to-game standard deviation of the difference.",
    "docs/reports.md defines every table and figure.",
)


# --- comparing two runs ------------------------------------------------------------------------------

def compare_shown(table: pd.DataFrame) -> pd.DataFrame:
    """`headline.compare`'s table as text: each metric in its unit, the difference with its 95%
    interval, and `*` where the interval excludes 0."""
    rows = []
    for metric, r in table.iterrows():
        fmt = metric_format(metric)
        diff_fmt = _diff_format(metric)
        excludes = bool(r["lo"] > 0 or r["hi"] < 0)
        rows.append({"metric": metric, "A": fmt(r["a"]), "B": fmt(r["b"]), "B - A": diff_fmt(r["diff"]),
                     "95% interval": f"{diff_fmt(r['lo'])} to {diff_fmt(r['hi'])}",
                     "excludes 0": "*" if excludes else ""})
    return pd.DataFrame(rows)


def _diff_format(metric: str):
    if metric in RATE_METRICS or metric.startswith("winrate:"):
        return lambda v: "n/a" if v != v else f"{100 * v:+.2f} pts"
    if metric in MONEY_METRICS:
        return lambda v: "n/a" if v != v else ("+" if v >= 0 else "-") + dollars(abs(v))
    return lambda v: "n/a" if v != v else f"{v:+.3f}"


def run_label(run) -> str:
    """A run in one line: where, how many games, seed, ruleset and what it changed."""
    m = run.manifest
    return (f"{run.path or '(in memory)'}: {game_count(run):,} games, {m.get('players')} players, "
            f"strategies {','.join(m.get('strategies', {}).get('names', []))}, seed {m.get('seed')}, ruleset "
            f"{m.get('ruleset', {}).get('fingerprint', '?')[:12]} ({ruleset_changes(m)})")


def ruleset_changes(manifest: dict) -> str:
    """What a run's rules change from its game's defaults: the options set, and the content kinds
    read from a file whose content differs from the game's own ("defaults" when neither)."""
    import json

    from sim.rules.ruleset import Ruleset

    rules = manifest.get("ruleset", {})
    parts = [f"{k}={v}" for k, v in rules.get("defaults_changed", {}).items()]
    content = rules.get("content", {})
    if content:
        own = json.loads(json.dumps(Ruleset.load(game=manifest.get("game", "nyk")).to_dict()))
        parts += [f"{kind} from {Path(source).name}" for kind, source in rules.get("sources", {}).items()
                  if content.get(kind) != own.get(kind)]
    return ", ".join(parts) or "defaults"


def compare_report(a, b, table: pd.DataFrame, out_dir, command: str) -> Path:
    """Write the comparison of runs a and b (table: `headline.compare(a, b)`) as a small report."""
    report = Report("mobsim comparison of two runs", {"A": run_label(a), "B": run_label(b), "this report": command,
                                                      "report by mobsim": __version__})
    paired = bool(table["paired"].all())
    report.text("Every headline metric of run A and run B, the difference B - A and its 95% interval. "
                + ("The runs played the same game ids from the same seed, so the difference is paired game by "
                   "game (common random numbers)." if paired else
                   "The runs did not play the same games, so the two samples are treated as independent."))
    rates = [m for m in table.index if m in RATE_METRICS or m.startswith("winrate:")]
    if rates:
        fig, (ax,) = figures.figure(width=8, height=0.35 * len(rates) + 1.5)
        part = table.loc[rates]
        y = np.arange(len(rates))
        err = np.vstack([part["diff"] - part["lo"], part["hi"] - part["diff"]])
        ax.errorbar(part["diff"] * 100, y, xerr=np.clip(np.nan_to_num(err), 0, None) * 100, fmt="o",
                    color=figures.color(0), capsize=3)
        ax.axvline(0, color="grey", linewidth=0.8)
        ax.set_yticks(y, rates)
        ax.invert_yaxis()
        ax.set_xlabel("B - A (percentage points, 95% interval)")
        ax.set_title("Differences of the rates")
        report.figure(fig, "differences", "Differences of the rates between the runs (B - A)")
    report.table(table, "Headline metrics of both runs and their difference", name="compare",
                 shown=compare_shown(table))
    report.text("Definitions: docs/reports.md; the metrics are those of the headline table of a run's report.")
    return report.write(out_dir)
