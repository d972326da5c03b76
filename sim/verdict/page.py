"""The verdict as report blocks (sim.analysis.report.Report): the verdict table (one row per
measure, one column per player count), its figure, the exploitability of the equilibrium rung,
the meta-game of the shipped population, and the games played per cell. `mobsim demo` opens its report with them."""

from __future__ import annotations

import math

import pandas as pd

from sim.analysis.report import Report, count
from sim.verdict import fairness, rules, styles
from sim.verdict.figure import make, panel_measures
from sim.verdict.measures import order_key
from sim.verdict.study import Verdict
from sim.verdict.plain import summary as plain_summary
from sim.verdict.units import band, show, with_unit


def short(row) -> str:
    """A reading in a table cell: what it says, over which rungs, and which were not judged."""
    measure = row["measure"]
    centre = (f"{with_unit(measure, show(measure, row['centre']))}, {band(measure, row['tolerance'])}"
              if not _nan(row.get("centre")) else "")
    unjudged = str(row.get("not_judged") or "").replace("nan", "")
    beside = f"; not judged: {unjudged.replace(',', ', ')}" if unjudged else ""
    read_over = str(row.get("read_over") or "").split(",")
    if row["verdict"] == rules.HOLDS:
        if "at every skill" in str(row["text"]):
            where = "holds at every skill"
        elif row["from_rung"] == read_over[0]:
            where = f"holds over {read_over[0]} to {read_over[-1]}"
        else:
            where = f"holds from {row['from_rung']} up to {read_over[-1]}"
        return f"{where} ({centre}){beside}"
    if row["verdict"] == rules.WEAK:
        return f"only at weak play (fair from {row['from_rung']} up to {read_over[-1]}){beside}"
    if row["verdict"] == rules.CHANGES:
        change = with_unit(measure, show(measure, row["change"], True))
        return f"changes with skill: {row['direction']} ({change} from {read_over[0]} to {read_over[-1]}){beside}"
    if row["verdict"] == rules.DIFFER:
        return f"rungs differ, no monotone trend ({row['steps'] or 'no single step beyond noise'}){beside}"
    total = len(str(row["rungs"]).split(","))
    noisy = len([r for r in unjudged.split(",") if r])
    return "undetermined" + (f" ({noisy} of {total} rungs too noisy to judge)" if noisy else
                             " (no difference beyond noise, intervals too wide to say it holds)")


def _nan(value) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def with_style(row) -> str:
    """The short reading, marked when a variant of similar strength moved the measure."""
    style = str(row.get("style") or "")
    if style == "depends on style":
        return f"{short(row)} · depends on style ({str(row.get('style_moved_by')).replace(',', ', ')})"
    return short(row)


def verdict_grid(verdicts: pd.DataFrame) -> pd.DataFrame:
    """Measures as rows (in the figure's order), player counts as columns, the short verdicts."""
    cells = verdicts.assign(cell=[with_style(r) for r in verdicts.to_dict("records")])
    grid = cells.pivot_table(index="measure", columns="players", values="cell", aggfunc="first")
    order = sorted(dict.fromkeys(verdicts["measure"]), key=order_key)
    grid = grid.reindex(order).fillna("")
    grid.columns = [f"{c} players" for c in grid.columns]
    return grid.rename_axis("measure").reset_index()


def target_grid(verdicts: pd.DataFrame) -> pd.DataFrame:
    """The first question, apart from the second: per measure with a target (the seats, and
    what the designer gave), its reading at the good rungs, one column per player count."""
    if "target_text" not in verdicts:
        return pd.DataFrame()
    rows = verdicts[verdicts["target_text"].fillna("").astype(str) != ""]
    if rows.empty:
        return pd.DataFrame()
    grid = rows.pivot_table(index="measure", columns="players", values="target_text", aggfunc="first")
    grid = grid.reindex(sorted(dict.fromkeys(rows["measure"]), key=order_key)).fillna("")
    grid.columns = [f"{c} players" for c in grid.columns]
    return grid.rename_axis("measure").reset_index()


def add_blocks(report: Report, v: Verdict, lead: str = "") -> None:
    """Append the verdict's blocks to `report`."""
    meta = v.meta
    report.heading("Verdict: the game across skill levels and player counts")
    first, lead = plain_summary(v.verdicts), lead or _lead(v)
    if first:   # the answer first, from the table below it
        report.summary(first)
        report.text(lead)
    else:
        report.summary(lead)
    report.text(players_fitted_to(meta))
    style = styles.sentence(v.verdicts)
    if style:
        report.text(style)
    targets = target_grid(v.verdicts)
    if len(targets):
        report.table(targets, f"Fair? On target? At the good rungs ({', '.join(fairness.good_rungs(meta['rungs']))}), "
                              f"each rung's 95% interval against the target: a seat against fair "
                              f"±{100 * meta.get('tolerance', fairness.DEFAULT_TOLERANCE):.1f} points of win share "
                              f"(--tolerance), game length against --target-turns; \"cannot tell yet\" says how "
                              f"many games a cell would decide it", name="verdict-targets", shown=targets)
    grid = verdict_grid(v.verdicts)
    report.table(grid, "Stable across skill? Per measure and player count, by the rules of docs/reports.md "
                       "(a band is the tolerance of that reading, not an interval)", name="verdict", shown=grid)
    names = panel_measures(v.measures)
    report.figure(make(v.measures, meta["rungs"]), "verdict",
                  "Each measure over the skill ladder (every seat the same rung, weakest left), one "
                  "line per player count, 95% intervals as bands: " + ", ".join(names) + ".")
    for row in v.exploit.to_dict("records"):
        report.text(f"Exploitability of {row['against']}, checked ({row['players']} players): {row['text']}"
                    + (f"; paired over {count(row['paired_games'])} games against the same seat of "
                       f"the {row['against']} mirror, {row['paired_gain']:+.1%} [{row['paired_lo']:+.1%}, "
                       f"{row['paired_hi']:+.1%}]." if not _nan(row.get("paired_gain")) else "."))
    _metagame_blocks(report, v)
    for row in v.plan.to_dict("records"):
        if row.get("games", 0) == 0 and str(row.get("note") or "") not in ("", "nan"):
            report.text(f"{row['rung']} at {row['players']} players: {row['note']} "
                        f"(a plan with games for it plays it).")
    played = v.plan.pivot_table(index="rung", columns="players", values="games", aggfunc="first")
    played = played.reindex([r for r in dict.fromkeys(v.plan["rung"])])
    played.columns = [f"{c} players" for c in played.columns]
    played = played.rename_axis("rung").reset_index()
    report.table(played, "Games played per rung and player count (common random numbers: game ids "
                         "0..N-1 at every rung)", name="verdict-games",
                 shown=played.map(lambda x: count(x) if isinstance(x, int | float) and not _nan(x) else x))


def players_fitted_to(meta: dict) -> str:
    """Which players were fitted to which rules (a verdict written before the sentence: unknown)."""
    return meta.get("players_fitted_to") or "Which rules the players were fitted to was not recorded."


def _metagame_blocks(report: Report, v: Verdict) -> None:
    """Which styles of the shipped population survive at each player count (sim.verdict.metagame)."""
    for n, text in (v.meta.get("metagame") or {}).items():
        report.text(f"At equilibrium, checked ({n} players): the meta-game {text}")
    if v.metagame.empty:
        return
    shown = v.metagame.assign(
        weight=v.metagame["weight"].map(lambda w: f"{w:.1%}"),
        regret=[f"{r:+.3f} [{lo:+.3f}, {hi:+.3f}]" for r, lo, hi in
                v.metagame[["regret", "regret_lo", "regret_hi"]].itertuples(index=False)],
        alpharank_place=v.metagame["alpharank_place"].map(lambda k: "unranked" if _nan(k) else f"{int(k)}"))
    shown = shown[["players", "strategy", "weight", "survives", "regret", "alpharank_place"]]
    report.table(v.metagame, "The meta-game of the shipped population: each style's weight in the Nash "
                             "equilibrium of the payoff table, its regret against that mixture (win share, "
                             "bootstrap 95% interval) and its alpha-Rank place (alpha 50)",
                 name="verdict-metagame", shown=shown)


def _lead(v: Verdict) -> str:
    m = v.meta
    counts = ("game counts from a plan (plan.csv: replayed exactly by `mobsim verdict --plan`)"
              if m.get("counts") == "plan" else
              f"game counts proposed for ±{m['precision']:.0%} on each seat's advantage by a budget of "
              f"{m['budget']:g} s on this machine ({m['seconds']:g} s taken), written to plan.csv so that "
              f"`mobsim verdict --plan` replays them exactly")
    claims = int(v.verdicts["claims_on_page"].iloc[0]) if "claims_on_page" in v.verdicts and len(v.verdicts) else 0
    return (f"For one ruleset, mirrors of the skill ladder ({', '.join(m['rungs'])}: every seat the same "
            f"rung) at {', '.join(str(p) for p in m['players'])} players, seed {m['seed']}, {counts}. "
            f"A rung whose interval is wider than a measure's band is not judged and is named beside the "
            f"reading; \"at every skill\" is said only when every rung was judged. The {claims} claims of a "
            f"difference on this page (rungs differ, a trend) are adjusted together by Holm (family-wise "
            f"error 5%); a \"holds\" reading is an equivalence test of its own (TOST at 5%).")
