"""The meta-game read from a payoff table: equilibria, regrets, alpha-Rank, cycles, dominance,
and how stable the equilibrium is when the games are resampled (the bootstrap).

`analyse(measured)` returns the dictionary written as `meta.json`; `verdict(meta)` the sentence a
designer reads first.
"""

from __future__ import annotations

import numpy as np

from sim.meta.solvers import (
    SUPPORT_WEIGHT,
    PayoffTable,
    alpharank,
    cycles,
    entropy,
    expected_payoffs,
    nash,
    profiles,
    regrets,
)

ALPHA = 50.0        # ranking intensity: large, so that a clear payoff gap decides an invasion
POPULATION = 50     # alpha-Rank's finite population m
BOOTSTRAP = 200
ALPHA_SWEEP = (1.0, 10.0, 50.0, 200.0)


def analyse(measured, bootstrap: int = BOOTSTRAP, alpha: float = ALPHA, m: int = POPULATION,
            seed: int = 0) -> dict:
    table = measured.table()
    names = table.strategies
    equilibria = nash(table, seed=seed)
    main = equilibria[0]
    x = main.mixture
    boot = _bootstrap(measured, x, bootstrap, alpha, m, seed)
    ar = alpharank(table, alpha, m)
    found_cycles = cycles(ar.beats())
    reg = regrets(table, x)
    out = {
        "strategies": list(names),
        "players": measured.players,
        "games_per_profile": measured.games,
        "profiles": len(measured.counts),
        "fair_share": 1.0 / measured.players,
        "payoff": "win share per seat (a shared win split between the sharers)",
        "equilibria": [e.as_dict(names) for e in equilibria],
        "equilibrium": main.as_dict(names),
        "entropy": entropy(x),
        "regret_against_equilibrium": {
            s: {"regret": float(reg[k]), "low": float(boot["regret_lo"][k]),
                "high": float(boot["regret_hi"][k])}
            for k, s in enumerate(names)},
        "alpharank": ar.as_dict(names),
        "alpharank_sweep": {str(a): alpharank(table, a, m).ranking(names) for a in ALPHA_SWEEP},
        "response_graph": [[names[s], names[r]] for r in range(len(names)) for s in range(len(names))
                           if ar.beats()[r, s]],
        "cycles": [{"cycle": [names[i] for i in c],
                    "bootstrap_share": boot["cycle_share"].get(tuple(c), 0.0)} for c in found_cycles],
        "dominated": dominated(table),
        "bootstrap": boot["summary"],
    }
    out["verdict"] = verdict(out)
    return out


def _bootstrap(measured, x, reps, alpha, m, seed) -> dict:
    """Resample the games (the same resampled ids in every profile, keeping the common random
    numbers) and solve each resampled table again."""
    rng = np.random.default_rng(seed + 1)
    names = measured.strategies
    n = len(names)
    mixtures, regs, cyc = [], [], {}
    support_main = set(np.nonzero(x >= SUPPORT_WEIGHT)[0])
    same_support = 0
    centre = np.full(n, 1.0 / n)
    starts = np.vstack([centre, 0.8 * x + 0.2 * centre])  # the even population, and near the equilibrium
    for _ in range(reps):
        ids = rng.integers(0, measured.games, measured.games)
        t = measured.table(ids)
        eq = nash(t, steps=1500, starts=starts)[0]
        mixtures.append(eq.mixture)
        regs.append(regrets(t, x))
        same_support += set(np.nonzero(eq.mixture >= SUPPORT_WEIGHT)[0]) == support_main
        for c in cycles(alpharank(t, alpha, m).beats()):
            cyc[tuple(c)] = cyc.get(tuple(c), 0) + 1
    M = np.array(mixtures).reshape(-1, n)
    R = np.array(regs).reshape(-1, n)
    summary = {
        "replicates": reps,
        "same_support_share": same_support / reps if reps else None,
        "mean_l1_distance": float(np.abs(M - x).sum(axis=1).mean()) if reps else None,
        "weights": {s: {"mean": float(M[:, k].mean()), "low": float(np.quantile(M[:, k], 0.025)),
                        "high": float(np.quantile(M[:, k], 0.975)),
                        "in_support_share": float((M[:, k] >= SUPPORT_WEIGHT).mean())}
                    for k, s in enumerate(names)} if reps else {},
    }
    lo = np.quantile(R, 0.025, axis=0) if reps else np.full(n, np.nan)
    hi = np.quantile(R, 0.975, axis=0) if reps else np.full(n, np.nan)
    return {"summary": summary, "regret_lo": lo, "regret_hi": hi,
            "cycle_share": {c: v / reps for c, v in cyc.items()}}


def dominated(table: PayoffTable) -> dict[str, list[str]]:
    """For each strategy s, the strategies t doing better than s in its seat whatever the others
    play (every multiset of the other N-1 seats): s is strictly dominated by t."""
    names, n, N = table.strategies, table.n, table.players
    others = profiles(n, N - 1)
    out = {}
    for s in range(n):
        by = []
        for t in range(n):
            if t == s:
                continue
            better = [table.payoff(o + np.eye(n, dtype=np.int64)[t], t)
                      > table.payoff(o + np.eye(n, dtype=np.int64)[s], s) for o in others]
            if all(better):
                by.append(names[t])
        if by:
            out[names[s]] = by
    return out


def population_path(table: PayoffTable, steps: int = 50, horizon: int = 200):
    """The replicator dynamics from the uniform population: (time, shares (T, n), payoffs (T, n)):
    how each strategy's payoff moves as the population shifts toward the equilibrium."""
    from sim.meta.solvers import replicator

    x = np.full(table.n, 1.0 / table.n)
    times, shares, pays = [], [], []
    per = max(1, horizon // steps)
    for i in range(steps + 1):
        times.append(i * per)
        shares.append(x.copy())
        pays.append(expected_payoffs(table, x))
        x = replicator(table, x[None, :], per)[0][0]
    return np.array(times), np.array(shares), np.array(pays)


def _pct(v: float) -> str:
    return f"{100 * v:.0f}%"


def short(name: str) -> str:
    """A strategy's name for a sentence: a preset file by its stem."""
    from pathlib import Path

    return Path(name).stem if name.endswith(".toml") else name


def _dominance(dom: dict, strategies) -> str:
    common = set.intersection(*(set(by) for by in dom.values()))
    if len(dom) == len(strategies) - 1 and common:
        return f"{short(common.pop())} dominates every other style (does better in any company)"
    shown = [f"{short(s)} is dominated by {short(by[0])}" for s, by in list(dom.items())[:3]]
    more = len(dom) - len(shown)
    return "; ".join(shown) + (f" and {more} more {'is' if more == 1 else 'are'} dominated" if more else "")


def verdict(meta: dict) -> str:
    """One sentence: the equilibrium, the strategies it leaves out, the cycles."""
    eq = meta["equilibrium"]["mixture"]
    support = meta["equilibrium"]["support"]
    words = ", ".join(f"{_pct(eq[s])} {short(s)}" for s in support)
    parts = [f"At equilibrium, {words}"]
    out = [s for s in meta["strategies"] if eq[s] < SUPPORT_WEIGHT]
    dom = meta["dominated"]
    if dom:
        parts.append(_dominance(dom, meta["strategies"]))
    elif out:
        parts.append(f"{', '.join(map(short, out))} {'is' if len(out) == 1 else 'are'} left out")
    stable = meta["bootstrap"].get("same_support_share")
    if stable is not None:
        parts.append(f"the same styles are in play in {_pct(stable)} of bootstrap resamples")
    firm = [c for c in meta["cycles"] if c["bootstrap_share"] >= 0.5]
    if firm:
        c = firm[0]["cycle"]
        ring = [short(s) for s in c[::-1] + [c[-1]]]
        parts.append(f"the game has a rock-paper-scissors cycle {' beats '.join(ring)}")
    elif meta["cycles"]:
        parts.append("the cycles found are not stable under resampling")
    else:
        parts.append("no intransitive cycle")
    return "; ".join(parts) + "."
