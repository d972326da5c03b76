"""Coverage of the headline intervals on synthetic runs with a known truth.

Each scenario draws a few hundred seeded runs directly with numpy (one winner per game, drawn
from known per-seat chances; no engine) and computes the metrics built from per-game wins
(`headline.sum_metrics`: seat gap, balance, seat 0's advantage, each strategy's win rate, the
best strategy's win rate, the strategy gap). Every 95% interval must cover the truth in 92-98%
of the runs, and every estimate, linear (seat advantage, win rates) or a bias-corrected maximum
or gap, must be unbiased within a quarter of its standard deviation over the runs (the plug-in
maxima and gaps are biased by 1.0-2.3 of it here).
"""

import numpy as np
import pandas as pd
import pytest

from sim.analysis import headline as H

GAMES = 1000
RUNS = 300
REPS = 200
TOLERANCE = 0.25  # of the estimate's standard deviation over the runs


def one_run(rng, chances, lineup, rotate=True):
    """Per-game sums of one synthetic run: seat s wins with chance chances[s]; the strategies of
    `lineup` sit in seats rotated by game id."""
    k = len(chances)
    winner = rng.choice(k, size=GAMES, p=chances)
    won = np.zeros((GAMES, k))
    won[np.arange(GAMES), winner] = 1
    cols = {}
    for s in range(k):
        cols[f"seat_won:{s}"] = won[:, s]
        cols[f"seat_n:{s}"] = np.ones(GAMES)
    shift = np.arange(GAMES) % k if rotate else np.zeros(GAMES, dtype=int)
    for name in dict.fromkeys(lineup):
        slots = [i for i, x in enumerate(lineup) if x == name]
        seat_of = (np.array(slots)[None, :] + shift[:, None]) % k
        cols[f"strategy_won:{name}"] = won[np.arange(GAMES)[:, None], seat_of].sum(axis=1)
        cols[f"strategy_n:{name}"] = np.full(GAMES, float(len(slots)))
    return pd.DataFrame(cols)


def truths(chances, lineup, strengths):
    """True values: seat rates are the chances when strategies are equal (rotated seating), and a
    strategy's rate is its strength per seat when seats are equal."""
    seat = np.asarray(chances)
    out = {"seat_gap": seat.max() - seat.min(), "balance": 1 - (seat.max() - seat.min()),
           "seat0_advantage": seat[0] - seat.mean()}
    rates = {name: strengths[name] for name in dict.fromkeys(lineup)}
    if len(rates) == 1:
        return out  # one strategy in every seat: its win rate is fixed by the rules, not measured
    for name, r in rates.items():
        out[f"winrate:{name}"] = r
    out["winrate_max"] = max(rates.values())
    out["strategy_gap"] = max(rates.values()) - min(rates.values())
    return out


def strength_run(rng, lineup, strengths):
    """A run where strategies differ and seats do not: the winner is drawn among the lineup slots
    with chance strengths[name] per seat, then seated by the rotation."""
    k = len(lineup)
    chances = np.array([strengths[x] for x in lineup])
    slot = rng.choice(k, size=GAMES, p=chances / chances.sum())
    shift = np.arange(GAMES) % k
    seat = (slot + shift) % k
    won = np.zeros((GAMES, k))
    won[np.arange(GAMES), seat] = 1
    cols = {}
    for s in range(k):
        cols[f"seat_won:{s}"], cols[f"seat_n:{s}"] = won[:, s], np.ones(GAMES)
    slot_won = np.zeros((GAMES, k))
    slot_won[np.arange(GAMES), slot] = 1
    for name in dict.fromkeys(lineup):
        slots = [i for i, x in enumerate(lineup) if x == name]
        cols[f"strategy_won:{name}"] = slot_won[:, slots].sum(axis=1)
        cols[f"strategy_n:{name}"] = np.full(GAMES, float(len(slots)))
    return pd.DataFrame(cols)


SCENARIOS = {
    "fair seats": ([0.25] * 4, ("a",) * 4, {"a": 0.25}),
    "a 2-point seat gap": ([0.26, 0.25, 0.25, 0.24], ("a",) * 4, {"a": 0.25}),
    "equal strategies": ([0.25] * 4, ("a", "b", "c", "d"), {s: 0.25 for s in "abcd"}),
    "a strategy holding two seats": ([0.25] * 4, ("a", "b", "a", "c"), {"a": 0.3, "b": 0.2, "c": 0.2}),
}


@pytest.fixture(scope="module", params=list(SCENARIOS), ids=list(SCENARIOS))
def replications(request):
    chances, lineup, strengths = SCENARIOS[request.param]
    rng = np.random.default_rng(20_260_116)
    rows = []
    for r in range(RUNS):
        if len(set(strengths.values())) > 1:
            parts = strength_run(rng, lineup, strengths)
        else:
            parts = one_run(rng, chances, lineup)
        rows.append(pd.DataFrame(H.sum_metrics(parts, REPS, seed=r), index=["value", "lo", "hi", "n", "se"]).T)
    table = pd.concat(rows, keys=range(RUNS), names=["run", "metric"])
    return table, truths(chances, lineup, strengths), request.param


def test_every_interval_covers_the_truth_92_to_98_percent(replications):
    table, truth, name = replications
    for metric, value in truth.items():
        part = table.xs(metric, level="metric")
        covered = ((part["lo"] <= value + 1e-12) & (value - 1e-12 <= part["hi"])).mean()
        assert 0.92 <= covered <= 0.98, f"{name}: {metric} covers {covered:.3f}"


def test_estimates_are_unbiased_within_their_standard_error(replications):
    table, truth, name = replications
    for metric, value in truth.items():
        part = table.xs(metric, level="metric")["value"].astype(float)
        bias, sd = part.mean() - value, part.std()
        assert abs(bias) <= TOLERANCE * sd + 1e-12, f"{name}: {metric} bias {bias:+.4f} = {bias / sd:+.2f} se"


def test_a_fair_game_meets_a_seat_gap_target_it_used_to_miss(replications):
    from sim.tuning.targets import parse_target

    table, truth, name = replications
    if name != "fair seats":
        pytest.skip("the target is about a fair game")
    target = parse_target("seat_gap<=0.02")
    values = table.xs("seat_gap", level="metric")["value"].astype(float)
    met = np.mean([target.excess(v) == 0 for v in values])
    # the plug-in gap of 4 fair seats in 1,000 games is on average above 2 points (bias +2.3
    # standard errors), so the target was met only by luck (19% of these runs); the bias-corrected
    # gap is centred near 0 with a standard deviation of about 2.7 points, so it meets the target
    # in about two runs of three (66%)
    assert met >= 0.6
