"""The report's opening: what to look at first (sim.analysis.findings), the games worth watching
(the closest, the longest, a comeback: each with a replay page next to the report), and pictures
of what the report otherwise shows only as tables.

    picks = worth_watching(run.games)              # DataFrame: why, game_id, turns, margin, ...
    add_opening(report, run, scan, head, seat_test, pairs, out_dir, replays=True, target_turns=(10, 14))
"""

from __future__ import annotations

import shlex
from pathlib import Path

import numpy as np
import pandas as pd

from sim.rooms import DEFAULT_GAME
from sim.analysis import figures
from sim.analysis.findings import MECHANICS_SECTION, measured_of

FIRST_LOOK = "What to look at first"
WATCH = "Games worth watching"
GLANCE = "The run at a glance"
MECHANICS = MECHANICS_SECTION


def worth_watching(games: pd.DataFrame) -> pd.DataFrame:
    """The closest game (smallest margin of victory among games won outright), the longest game,
    and the biggest comeback (the winner furthest behind at mid-game, when one was behind)."""
    rows = []
    if games.empty:
        return pd.DataFrame(columns=["why", "game_id"])
    if "margin" in games:
        outright = games[games["margin"] > 0]
        pool = outright if len(outright) else games
        rows.append(("the closest game", pool.sort_values(["margin", "game_id"]).iloc[0]))
    rows.append(("the longest game", games.sort_values(["turns", "game_id"], ascending=[False, True]).iloc[0]))
    if "winner_deficit_mid" in games and (games["winner_deficit_mid"] > 0).any():
        rows.append(("a comeback", games.sort_values(["winner_deficit_mid", "game_id"],
                                                     ascending=[False, True]).iloc[0]))
    keep = [c for c in ("game_id", "turns", "winner_seat", "margin", "winner_deficit_mid", "lead_changes")
            if c in games]
    return pd.DataFrame([{"why": why, **{c: int(r[c]) for c in keep}} for why, r in rows])


def write_replays(run, picks: pd.DataFrame, out_dir) -> dict[int, str]:
    """A replay page for each picked game in out_dir/replays/; returns game_id -> relative path."""
    from sim.replay import spec_of_run, write_replay

    written = {}
    for game_id in dict.fromkeys(int(g) for g in picks["game_id"]):
        row = picks[picks["game_id"] == game_id].iloc[0]
        spec, rs = spec_of_run(run.path, game_id)
        rel = f"replays/game-{game_id}.html"
        write_replay(spec, rs, Path(out_dir) / rel,
                     expect={"winner": int(row["winner_seat"]), "turns": int(row["turns"])})
        written[game_id] = rel
    return written


def add_opening(report, run, scan, head, seat_test, pairs, out_dir=None, replays: bool = False,
                target_turns=None):
    """The report's first sections: what to look at first, the games worth watching, the run at
    a glance, from the run's `scan.GenericScan`. Replay pages are written into out_dir/replays/
    when `replays` and the run is on disk."""
    game = run.manifest.get("game", DEFAULT_GAME)
    used = scan.usage_table()
    found = _findings(scan, game, seat_test, pairs, target_turns, used)
    report.heading(FIRST_LOOK)
    if found:
        report.text(f"{len(found)} finding(s), each flagged by a rule stated in docs/reports.md "
                    "(\"What to look at first\"), with its evidence and the section that shows it.")
        report.links([(f"{f.title}. {f.evidence}.", f"#{report.anchor(f.section)}") for f in found])
    else:
        report.text("No rule flags anything in this run (the rules are stated in docs/reports.md, "
                    "\"What to look at first\").")
    not_judged = measured_of(_judges_kingmaking(scan), "winner_led_from" in scan.game_columns)
    if target_turns is None:
        not_judged.append("games too short or too long (no target length: mobsim report --target-turns LO:HI)")
    if not_judged:
        report.text("Not judged: " + "; ".join(not_judged) + ".")
    _watch_section(report, run, scan.worth_watching(), out_dir, replays)
    _glance_section(report, scan, pairs, used)


def _judges_kingmaking(scan) -> bool:
    return scan.turns is not None and scan.games_seen > 0 and "winner_seat" in scan.game_columns


def _findings(scan, game, seat_test, pairs, target_turns, used) -> list:
    """`findings.findings` of a scanned run: every rule, in the same order."""
    from sim.analysis import findings as rules
    from sim.analysis.quality import kingmaking_of

    columns = scan.game_columns
    capped = scan.close.get("cap") if "cap_hit" in columns else None
    found = rules.dominant_strategy(pairs) + rules.seat_advantage(seat_test)
    found += rules.game_length_of(scan.measures["turns"], capped, target_turns)
    if {"winner_led_from", "turns"} <= columns and scan.games_seen:
        behind = scan.close.get("comeback") if "winner_deficit_mid" in columns else None
        found += rules.runaway_leaders_of(scan.early, scan.games_seen, behind)
    if _judges_kingmaking(scan):
        t = scan.turns
        found += rules.kingmaking_of(kingmaking_of(t.exposed, t.flipped, t.games))
    found += rules.unused_mechanics(None, game, used=used, sizes=scan.seat_counts())
    return found


def _watch_section(report, run, picks, out_dir, replays):
    report.heading(WATCH)
    if picks.empty:
        report.text("No game to pick.")
        return
    pages = {}
    if replays and run.path is not None and out_dir is not None:
        from sim.replay import ReplayError

        try:
            pages = write_replays(run, picks, out_dir)
        except ReplayError as err:   # e.g. a ruleset with content files of its own: say so, go on
            report.text(f"Replay pages not written: {err}.")
    items = []
    for r in picks.itertuples():
        facts = [f"game {r.game_id}", f"{r.turns} turns"]
        if "margin" in picks:
            facts.append(f"margin {r.margin:,}")
        if "winner_deficit_mid" in picks and r.winner_deficit_mid > 0:
            facts.append(f"the winner was {r.winner_deficit_mid:,} behind at mid-game")
        text = f"{r.why}: " + ", ".join(facts)
        if r.game_id not in pages:
            text += (" (replay: " + shlex.join(["mobsim", "replay", str(run.path or "RUN_DIR"), str(r.game_id),
                                                 "--html", f"game-{r.game_id}.html"]) + ")")
        items.append((text, pages.get(r.game_id)))
    report.text("Watch these games step by step: each replay page shows the board and every family "
                "after each event, with the dice of every contest, and works offline.")
    report.links(items)
    report.table(picks, "Games worth watching", name="worth-watching")


def _glance_section(report, scan, pairs, used):
    report.heading(GLANCE)
    report.text("Pictures of what the sections below give as tables.")
    if pairs is not None and len(pairs):
        fig, (ax,) = figures.figure(width=8, height=0.35 * len(pairs) + 1.6)
        y = np.arange(len(pairs))
        diff, lo, hi = (100 * pairs[c].to_numpy(dtype=float) for c in ("diff", "lo", "hi"))
        colours = [figures.color(3) if s else figures.color(7) for s in pairs["significant"]]
        ax.errorbar(diff, y, xerr=np.clip(np.vstack([diff - lo, hi - diff]), 0, None), fmt="none",
                    ecolor="#888", capsize=3)
        ax.scatter(diff, y, c=colours, zorder=3)
        ax.axvline(0, color="grey", linewidth=0.8)
        ax.set_yticks(y, [f"{a} - {b}" for a, b in zip(pairs["a"], pairs["b"], strict=True)])
        ax.invert_yaxis()
        ax.set_xlabel("difference of shares of seats won (points, 95% interval); red: significant after Holm")
        ax.set_title("Strategy against strategy")
        report.figure(fig, "pairwise-strategies", "Pairwise strategy differences with 95% intervals "
                      "(the table of 'Strategy against strategy')")
    fig, axes = figures.figure(ncols=2)
    final = scan.final_fortunes()
    x = np.arange(len(final))
    axes[0].vlines(x, final["q10"], final["q90"], color="#bbb", linewidth=6, label="10% to 90% of seats")
    axes[0].errorbar(x, final["mean"], yerr=np.clip(np.vstack([final["mean"] - final["lo"],
                                                                 final["hi"] - final["mean"]]), 0, None),
                     fmt="o", color=figures.color(0), capsize=3, label="mean, 95% interval")
    axes[0].set_xticks(x, final["strategy"].astype(str))
    axes[0].set_title("Final fortune (or score) by strategy")
    axes[0].legend(fontsize=7)
    if "decided_by" in scan.game_columns:
        ends = scan.endings_table()
        label = ends.columns[0]
        figures.bars(axes[1], ends[label].astype(str), ends["share"], ends["lo"], ends["hi"],
                     "How the winner was decided", "share of games")
    report.figure(fig, "glance-fortunes-endings", "Final fortunes by strategy; how the winner was decided "
                  "(95% intervals)")
    table = used
    if not table.empty:
        report.heading(MECHANICS, level=3)
        report.text("Share of each strategy's seats that used each mechanic at least once (from the seat "
                    "counters). A blank row for a strategy is a mechanic it never uses.")
        fig, (ax,) = figures.figure(width=1.3 * len(table.columns) + 4, height=0.32 * len(table) + 1.5)
        figures.heatmap(ax, table.to_numpy(), list(table.index), list(table.columns),
                        "Seats that used the mechanic", fmt=lambda v: f"{100 * v:.0f}%")
        report.figure(fig, "mechanics-by-strategy", "Share of seats using each mechanic, by strategy")
        report.table(table.reset_index(), "Mechanics used, by strategy (share of seats)", name="mechanics-used",
                     formats={c: _pct for c in table.columns})


def _pct(v) -> str:
    return "" if v != v else f"{100 * v:.0f}%"
