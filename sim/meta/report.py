"""A meta-game study written out: profiles.parquet, meta.json, figures and an index.html a
designer reads in a minute (the verdict first, then the figures that back it)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from sim.analysis import figures
from sim.analysis.report import Report, percent
from sim.meta.analysis import population_path, short


def write(measured, meta: dict, out, command: str = "", provenance: dict | None = None) -> Path:
    """Write the study's tables, figures and page into `out`; returns the path of index.html."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    measured.frame().to_parquet(out / "profiles.parquet", index=False)
    meta = dict(meta, provenance=provenance or {})
    (out / "meta.json").write_text(json.dumps(meta, indent=2, default=_plain) + "\n")
    table = measured.table()
    report = Report("The meta-game of strategies", {"command": command} if command else {})
    report.text(meta["verdict"])
    report.text(_reading(meta))
    report.heading("The equilibrium mixture")
    report.figure(mixture_figure(meta), "equilibrium", "Weight of each strategy in the symmetric "
                  "equilibrium, with the 95% range of the equilibria of "
                  f"{meta['bootstrap']['replicates']} bootstrap resamples of the games")
    report.table(_strategy_rows(meta), "Each strategy at equilibrium", name="strategies",
                 formats={c: percent for c in ("weight", "low", "high", "in_support", "alpharank")}
                 | {c: _points for c in ("regret", "regret_low", "regret_high")})
    report.heading("Who beats whom")
    report.figure(graph_figure(meta), "response-graph", "Response graph: an arrow from A to B when "
                  "one B player invading a population of A takes over more readily than the "
                  "reverse (alpha-Rank's fixation probabilities); node size: alpha-Rank mass")
    report.heading("As the population shifts")
    report.figure(path_figure(table), "population", "From an even population, replicator dynamics: "
                  "the share of each style (top) and its expected win share per seat (bottom); "
                  "the dashed line is a fair seat")
    report.heading("Every equilibrium found")
    eqs = pd.DataFrame([{**{"regret": e["regret"], "payoff": e["payoff"], "starts": e["starts"]},
                         **{short(k): v for k, v in e["mixture"].items()}} for e in meta["equilibria"]])
    report.table(eqs, "Equilibria of replicator dynamics from several starts (regret 0 is exact)",
                 name="equilibria")
    return report.write(out)


def _plain(value):
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    return str(value)


def _points(value) -> str:
    return "" if value != value else f"{100 * float(value):+.1f} pts"


def _reading(meta: dict) -> str:
    b = meta["bootstrap"]
    ar = meta["alpharank"]
    return (f"{meta['profiles']} profiles of {meta['players']} seats, {meta['games_per_profile']} "
            f"games each on the same game ids; payoff: {meta['payoff']} (fair: "
            f"{percent(meta['fair_share'])}). The equilibrium's regret is "
            f"{meta['equilibrium']['regret']:.2g} (0 at an exact equilibrium); bootstrap: "
            f"{b['replicates']} resamples of the games, mean distance to the equilibrium "
            f"{b['mean_l1_distance'] or 0:.2f} (L1). alpha-Rank (alpha {ar['alpha']:g}, population "
            f"{ar['population']}) ranks {', '.join(ar['ranking'])}.")


def _strategy_rows(meta: dict) -> pd.DataFrame:
    rows = []
    for s in meta["strategies"]:
        w = meta["bootstrap"]["weights"].get(s, {})
        r = meta["regret_against_equilibrium"][s]
        rows.append({"strategy": short(s), "weight": meta["equilibrium"]["mixture"][s],
                     "low": w.get("low"), "high": w.get("high"),
                     "in_support": w.get("in_support_share"),
                     "regret": r["regret"], "regret_low": r["low"], "regret_high": r["high"],
                     "alpharank": meta["alpharank"]["pi"][s]})
    return pd.DataFrame(rows).sort_values("weight", ascending=False, ignore_index=True)


def mixture_figure(meta: dict):
    fig, (ax,) = figures.figure(width=6.5)
    names = meta["strategies"]
    w = [meta["equilibrium"]["mixture"][s] for s in names]
    boot = meta["bootstrap"]["weights"]
    lo = [boot[s]["low"] for s in names] if boot else None
    hi = [boot[s]["high"] for s in names] if boot else None
    figures.bars(ax, [short(s) for s in names], w, lo, hi, title="Equilibrium mixture", ylabel="weight")
    return fig


def graph_figure(meta: dict):
    fig, (ax,) = figures.figure(width=5.5, height=5.0)
    names = meta["strategies"]
    n = len(names)
    angle = np.pi / 2 - 2 * np.pi * np.arange(n) / n
    pos = np.c_[np.cos(angle), np.sin(angle)]
    pi = meta["alpharank"]["pi"]
    for loser, winner in meta["response_graph"]:
        a, b = pos[names.index(loser)], pos[names.index(winner)]
        ax.annotate("", xy=b * 0.86 + a * 0.14, xytext=a * 0.86 + b * 0.14,
                    arrowprops={"arrowstyle": "-|>", "color": "#888888", "lw": 0.8})
    for cyc in meta["cycles"]:
        if cyc["bootstrap_share"] >= 0.5:
            ring = cyc["cycle"] + cyc["cycle"][:1]
            for a, b in zip(ring, ring[1:], strict=False):
                pa, pb = pos[names.index(a)], pos[names.index(b)]
                ax.annotate("", xy=pb * 0.86 + pa * 0.14, xytext=pa * 0.86 + pb * 0.14,
                            arrowprops={"arrowstyle": "-|>", "color": "#C44E52", "lw": 1.8})
    for i, s in enumerate(names):
        ax.scatter(*pos[i], s=300 + 3000 * pi[s], color=figures.color(i), zorder=3)
        ax.text(pos[i, 0] * 1.22, pos[i, 1] * 1.22, f"{short(s)}\n{100 * pi[s]:.0f}%", ha="center",
                va="center", fontsize=8)
    ax.set_xlim(-1.5, 1.5)
    ax.set_ylim(-1.5, 1.5)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title("Response graph (red: a stable cycle)")
    return fig


def path_figure(table):
    times, shares, pays = population_path(table)
    fig, axes = figures.figure(nrows=2, width=6.5, height=3.0)
    for k, s in enumerate(table.strategies):
        axes[0].plot(times, shares[:, k], color=figures.color(k), label=short(s))
        axes[1].plot(times, pays[:, k], color=figures.color(k), label=short(s))
    axes[1].axhline(1 / table.players, color="grey", linestyle="--", linewidth=1)
    axes[0].set_ylabel("share of the population")
    axes[1].set_ylabel("expected win share")
    axes[1].set_xlabel("replicator steps from an even population")
    axes[0].legend(fontsize=7, ncol=2, loc="best")
    return fig
