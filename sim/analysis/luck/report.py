"""The luck study as text lines, JSON and files (luck.png, luck.csv, luck.json)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pandas as pd

from sim.analysis.luck import ALL
from sim.shared.game import find


def _num(v):
    return None if v is None or (isinstance(v, float) and math.isnan(v)) else v


def to_json(result: dict, luck) -> dict:
    summary = result["summary"]
    extra = {}
    if result.get("skill") is not None:   # the Duersch-Lambrecht-Oechssler figure, and the pairs apart
        fig = result["skill"]["figure"]
        extra |= {"rating_sd": fig["rating_sd"], "coin_flip_share": fig["coin_flip_share"],
                  "skill": fig, "pairs": _records(result["skill"]["pairs"])}
    if result.get("versus") is not None:
        extra["versus"] = {"sets": result["versus_sets"], "table": _records(result["versus"])}
    if result.get("decisions") is not None:
        from sim.analysis.luck.decisions import summarise

        extra["decisions"] = {by: _records(summarise(result["decisions"], by)) for by in ("kind", "turn")}
    return extra | {"game": luck.name, "players": luck.players, "strategies": list(luck.strategies),
            "seed": luck.seed, "games": int(result["rows"].game_id.nunique()),
            "settled_turn": result["settled_turn"], "turns_mean": result["turns_mean"], "cost": result["cost"],
            "sources": {name: [int(s) for s in rows] for name, rows in {**luck.groups(), ALL: luck.all_rows()}.items()},
            "table": [{k: _num(v.item() if hasattr(v, "item") else v) for k, v in row.items()}
                      for row in summary.to_dict("records")]}


def _records(df) -> list[dict]:
    return [{k: _num(v.item() if hasattr(v, "item") else v) for k, v in r.items()} for r in df.to_dict("records")]


def _pct(v) -> str:
    return "    n/a" if v is None or math.isnan(v) else f"{100 * v:6.1f}%"


def lines(result: dict, luck) -> list[str]:
    summary = result["summary"]
    games = int(result["rows"].game_id.nunique())
    unit = find(luck.name).score_unit
    out = [f"{luck.name}: {games} games of {luck.players} players ({','.join(luck.strategies)}), seed {luck.seed}: "
           f"each game (of {result['turns_mean']:.1f} turns on average) played again with one source of "
           "luck drawn afresh"]
    for turn, part in summary.groupby("turn", sort=True):
        out.append("")
        out.append(f"drawn afresh from {'the setup' if turn == 0 else f'turn {turn}'}:")
        out.append(f"  {'source':<34}{'winner changes [95%]':>26}{'share of baseline [95%]':>28}"
                   f"{'|score change| ' + unit:>20}{'|rank change|':>15}")
        for row in part.sort_values("p_change", ascending=False).itertuples():
            out.append(f"  {row.source:<34}{_pct(row.p_change)} [{_pct(row.p_lo)},{_pct(row.p_hi)}]"
                       f"{'':>1}{_pct(row.share)} [{_pct(row.share_lo)},{_pct(row.share_hi)}]"
                       f"{row.score_change:>16,.1f}  {row.rank_change:>13.2f}")
    settled = result["settled_turn"]
    if summary.turn.nunique() > 1:
        out.append("")
        out.append(f"winner mostly settled (all luck afresh changes it half as often as from the setup) "
                   f"from turn {settled}" if settled is not None else
                   "winner not settled by the last turn measured (all luck afresh still changes it at "
                   "least half as often as from the setup)")
    if result.get("skill") is not None:
        out += _skill_lines(result["skill"])
    if result.get("versus") is not None:
        out += _versus_lines(result["versus"], result["versus_sets"])
    if result.get("decisions") is not None:
        out += _decision_lines(result["decisions"])
    cost = result["cost"]
    out.append(f"cost: {cost['counterfactuals_per_game']:.0f} counterfactual games per game, "
               f"{cost['seconds']:.1f} s against {cost['seconds_once']:.2f} s to play the games once "
               f"(x{cost['multiple']:.0f})"
               + (f"; decisions {cost['decisions_seconds']:.1f} s" if "decisions_seconds" in cost else ""))
    return out


def _skill_lines(skill: dict) -> list[str]:
    """The population's rating dispersion against its pure-skill benchmark, then the pair figures."""
    f = skill["figure"]
    ratings = ", ".join(f"{name} {elo:+.0f}" for name, elo in f["ratings"].items())
    out = ["", f"skill against chance (Duersch, Lambrecht & Oechssler 2020), for the population "
               f"{', '.join(f['population'])} at {f['players']} players: a round robin of {f['profiles']} "
               f"profiles, {f['games_per_profile']} games each; Plackett-Luce ratings (Elo) {ratings}",
           f"  rating_sd {f['rating_sd']:.0f} Elo [{f['rating_sd_lo']:.0f}, {f['rating_sd_hi']:.0f}]: as dispersed "
           f"as a pure-skill game among these players with coin_flip_share {f['coin_flip_share']:.2f} "
           f"[{f['coin_flip_share_lo']:.2f}, {f['coin_flip_share_hi']:.2f}] of its results replaced by a "
           f"uniform winner",
           "pairs (one seat of the stronger rung among weaker seats, from the round robin; pair_coin_share: "
           "(1 - w) / (1 - 1/N), a figure of the pair, not of the game):"]
    for r in skill["pairs"].itertuples():
        out.append(f"  {r.stronger:>10} vs {r.weaker:<10} win share {_pct(r.win_share)} [{_pct(r.win_lo)},"
                   f"{_pct(r.win_hi)}] (fair {_pct(r.fair_share)}), pair_coin_share {_pct(r.pair_coin_share)} "
                   f"[{_pct(r.pair_coin_lo)},{_pct(r.pair_coin_hi)}], {r.games} games")
    return out


def _versus_lines(df, sets) -> list[str]:
    out = ["", f"with {' '.join(sets)}: winner changes, as the rules are -> changed (difference b - a, paired "
               "over the same games):"]
    for r in df.itertuples():
        out.append(f"  {_from(r.turn):<10} {r.source:<34}{_pct(r.p_change_a)} -> {_pct(r.p_change_b)}  "
                   f"{100 * r.diff:+6.1f} points [{100 * r.diff_lo:+.1f}, {100 * r.diff_hi:+.1f}]")
    return out


def _decision_lines(df) -> list[str]:
    from sim.analysis.luck.decisions import summarise

    out = ["", f"decisions that matter (their options played out on the same luck lead to different winners; "
               f"{df.game_id.nunique()} games):"]
    for by in ("kind", "turn"):
        for r in summarise(df, by).itertuples():
            out.append(f"  {by} {getattr(r, by)!s:<12}{_pct(r.matter)} [{_pct(r.lo)},{_pct(r.hi)}] of "
                       f"{r.decisions} decisions, {r.options_mean:.1f} options on average")
    return out


def figure(result: dict):
    """A bar per source (winner changes from the setup, 95% intervals) and, when several turns
    were measured, a curve per source over the turn from which it is drawn afresh."""
    from sim.analysis import figures

    summary = result["summary"]
    curves = summary.turn.nunique() > 1
    fig, axes = figures.figure(ncols=2 if curves else 1, width=6.5, height=4.2)
    first = summary[summary.turn == summary.turn.min()]   # the sources' order: one colour each in both panels
    figures.bars(axes[0], [s.replace(" (", "\n(") for s in first.source], first.p_change, first.p_lo, first.p_hi,
                 title=f"winner changes, source drawn afresh from {_from(summary.turn.min())}",
                 ylabel="games whose winner changes")
    axes[0].tick_params(axis="x", labelsize=7, rotation=60)
    if curves:
        for i, (source, part) in enumerate(summary.groupby("source", sort=False)):
            part = part.sort_values("turn")
            figures.points(axes[1], part.turn, part.p_change, part.p_lo, part.p_hi, i=i, label=source,
                           title="winner changes, drawn afresh from turn t on", xlabel="turn t",
                           ylabel="games whose winner changes")
        axes[1].legend(fontsize=7)
    return fig


def _from(turn) -> str:
    return "the setup" if turn == 0 else f"turn {turn}"


def write(result: dict, out: Path, luck) -> None:
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    figure(result).savefig(out / "luck.png", dpi=110, bbox_inches="tight")
    result["summary"].to_csv(out / "luck.csv", index=False)
    if result.get("skill") is not None:
        result["skill"]["pairs"].to_csv(out / "pairs.csv", index=False)
        pd.DataFrame({"rung": list(result["skill"]["figure"]["ratings"]),
                      "elo": list(result["skill"]["figure"]["ratings"].values())}).to_csv(out / "ratings.csv",
                                                                                         index=False)
    if result.get("decisions") is not None:
        result["decisions"].to_csv(out / "decisions.csv", index=False)
    if result.get("versus") is not None:
        result["versus"].to_csv(out / "versus.csv", index=False)
    (out / "luck.json").write_text(json.dumps(to_json(result, luck), indent=1) + "\n", encoding="utf-8")
