"""What to look at first: a run's findings, each flagged by a stated rule, with its evidence and the
report section that shows it (docs/reports.md, "What to look at first", states every rule).

    found = findings(games, seats, game="nyk", head=estimates(games, seats),
                     seat_test=fairness.seat_permutation_test(seats),
                     pairs=fairness.pairwise(seats, "strategy"), target_turns=(10, 14))
    [f.title for f in found]          # Finding(rule, title, evidence, section)

Every rule reads only the run's tables. A rule whose measure the tables lack says so
(`kingmaking` needs the per-turn table of `mobsim run --record-turns`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from sim.analysis import quality
from sim.analysis.counts import ValueCounts
from sim.analysis.games import section_module
from sim.analysis.stats import wilson

# --- the rules' thresholds (docs/reports.md states each) ------------------------------------------
DOMINANCE_MARGIN = 0.05      # a dominant strategy beats every other by at least 5 points (Holm 5%)
SEAT_ALPHA = 0.05            # a seat gap beyond noise: permutation p below 5%
OFF_TARGET_SHARE = 0.20      # games too short / long: more than 20% of games outside the target
CAP_SHARE = 0.01             # games too long: more than 1% stopped by the engine's turn cap
RUNAWAY_SHARE = 0.50         # runaway leaders: the winner led for good from the first third of the
                             # game in more than half of the games (lower 95% bound above 50%)
KINGMAKER_SHARE = 0.10       # kingmaking: more than 10% of games (lower 95% bound)
MIN_SEATS = 100              # a strategy "never" uses a mechanic only over at least this many seats

def choices(game: str) -> dict[str, str]:
    """The counters that count a player's own choices (not outcomes), with what each is: a mechanic
    is "used" when its counter is above zero (the game's plug-in, sim/analysis/games/<game>.py)."""
    module = section_module(game)
    return dict(getattr(module, "CHOICES", {})) if module is not None else {}
MECHANICS_SECTION = "Which strategy uses which mechanic"   # the report's heading (sim.analysis.watch)
RANDOM_FAMILY = "random"   # the preset that chooses uniformly: it uses everything by chance


@dataclass(frozen=True)
class Finding:
    rule: str        # which rule flagged it (docs/reports.md)
    title: str       # what to look at, in one line
    evidence: str    # the numbers behind it, with intervals
    section: str     # the heading of the report section that shows it


# --- the rules --------------------------------------------------------------------------------------

def dominant_strategy(pairs: pd.DataFrame, margin: float = DOMINANCE_MARGIN) -> list[Finding]:
    """A strategy whose share of seats won exceeds every other strategy's by at least `margin`,
    each difference significant after Holm's correction (pairs: `fairness.pairwise`)."""
    if pairs is None or pairs.empty:
        return []
    names = sorted(set(pairs["a"]) | set(pairs["b"]))
    out = []
    for name in names:
        beats = []
        for _, r in pairs[(pairs["a"] == name) | (pairs["b"] == name)].iterrows():
            sign = 1 if r["a"] == name else -1
            diff, lo, hi = sign * r["diff"], *(sorted((sign * r["lo"], sign * r["hi"])))
            other = r["b"] if sign == 1 else r["a"]
            beats.append((other, diff, lo, hi, bool(r["significant"]), r["p_holm"]))
        if beats and all(sig and diff >= margin for _, diff, _, _, sig, _ in beats):
            weakest = min(beats, key=lambda b: b[1])
            listed = "; ".join(f"{o} {100 * d:+.1f} pts [{100 * lo:+.1f}, {100 * hi:+.1f}], Holm p {_p(p)}"
                               for o, d, lo, hi, _, p in beats)
            out.append(Finding("dominant strategy", f"{name} dominates: it beats every other strategy by "
                               f"{100 * weakest[1]:.1f} points or more",
                               f"share of seats won minus the other's, in the same games: {listed} "
                               f"(rule: every difference at least {100 * margin:.0f} points and significant "
                               f"after Holm)", "Strategy against strategy"))
    return out


def _p(p) -> str:
    return "< 0.0001" if p < 1e-4 else f"{p:.2g}"


def seat_advantage(seat_test: dict | None, alpha: float = SEAT_ALPHA) -> list[Finding]:
    """The gap between seats' win rates is beyond what noise opens (permutation test)."""
    if seat_test is None or not seat_test["p_value"] < alpha:
        return []
    return [Finding("seat advantage", f"the seats are not equal: a gap of {100 * seat_test['gap']:.1f} points "
                    "between seats' win rates",
                    f"noise alone opens about {100 * seat_test['null_median']:.1f} points (95th percentile "
                    f"{100 * seat_test['null_95']:.1f}); permutation p = {seat_test['p_value']:.3g} "
                    f"(rule: p below {alpha:g})", "Is the seat gap more than noise?")]


def usage(seats: pd.DataFrame, game: str) -> pd.DataFrame:
    """Share of each strategy's seats that used each mechanic at least once (rows: mechanics)."""
    columns = [c for c in choices(game) if c in seats]
    if not columns:
        return pd.DataFrame()
    # grouped by the category itself (no text per seat), then in the order of the names
    used = (seats[columns] > 0).groupby(seats["strategy"], observed=True, sort=False).mean()
    used.index = used.index.astype(str)
    table = used.sort_index().T
    table.index.name = "mechanic"
    table.columns.name = None
    return table


def unused_mechanics(seats: pd.DataFrame | None, game: str, min_seats: int = MIN_SEATS,
                     used: pd.DataFrame | None = None, sizes: pd.Series | None = None) -> list[Finding]:
    """Mechanics no (non-random) strategy ever uses, and mechanics one strategy never uses while
    another does, over at least `min_seats` seats of each. `used`: `usage(seats, game)` if
    already computed (then `seats` needs only the strategy column); `sizes`: the seats of each
    strategy, if already counted (then `seats` is not read)."""
    table = usage(seats, game) if used is None else used
    if table.empty:
        return []
    if sizes is None:
        sizes = seats["strategy"].value_counts()
    sizes.index = sizes.index.astype(str)
    judged = [s for s in table.columns if sizes.get(s, 0) >= min_seats]
    deliberate = [s for s in judged if s.split("+")[0] != RANDOM_FAMILY]
    labels = choices(game)
    out = []
    for mechanic, row in table.iterrows():
        label = f"{labels[mechanic]} (`{mechanic}`)"
        never = [s for s in deliberate if row[s] == 0]
        if deliberate and len(never) == len(deliberate):
            by_random = [s for s in judged if s not in deliberate and row[s] > 0]
            note = f"; only {', '.join(by_random)} ever does" if by_random else ""
            out.append(Finding("unused mechanic", f"no strategy uses {labels[mechanic]}",
                               f"{label} is zero in every seat of {', '.join(deliberate)}{note} "
                               f"({int(sum(sizes[s] for s in deliberate)):,} seats)", MECHANICS_SECTION))
            continue
        users = [s for s in judged if row[s] > 0]
        for s in never:
            shown = ", ".join(f"{u} {100 * row[u]:.0f}%" for u in users)
            out.append(Finding("unused mechanic", f"{s} never uses {labels[mechanic]}",
                               f"{label} is zero in all {int(sizes[s]):,} seats of {s}; seats that use it: "
                               f"{shown}", MECHANICS_SECTION))
    return out


def game_length(games: pd.DataFrame, target_turns: tuple[int, int] | None = None,
                share: float = OFF_TARGET_SHARE, cap_share: float = CAP_SHARE) -> list[Finding]:
    """Games too short or too long against a target length (lo..hi turns, inclusive), and games
    stopped by the engine's turn cap."""
    capped = int(games["cap_hit"].sum()) if "cap_hit" in games else None
    return game_length_of(ValueCounts().add(games["turns"].to_numpy()), capped, target_turns, share, cap_share)


def game_length_of(lengths, capped: int | None, target_turns: tuple[int, int] | None = None,
                   share: float = OFF_TARGET_SHARE, cap_share: float = CAP_SHARE) -> list[Finding]:
    """`game_length` from the counts of each length (`counts.ValueCounts`) and the games capped."""
    out = []
    n = lengths.n
    if n == 0:
        return out
    values, counts = lengths.sorted()
    if capped is not None:
        lo, hi = wilson(capped, n)
        if capped / n > cap_share:
            out.append(Finding("game length", f"{100 * capped / n:.1f}% of games never end by the rules",
                               f"{capped:,} of {n:,} games stopped at the engine's turn cap "
                               f"[{100 * lo:.1f}%, {100 * hi:.1f}%] (rule: above {100 * cap_share:.0f}%)",
                               "Game quality"))
    if target_turns is not None:
        low, high = target_turns
        for word, mask, bound in (("short", values < low, f"fewer than {low}"),
                                  ("long", values > high, f"more than {high}")):
            k = int(counts[mask].sum())
            lo, hi = wilson(k, n)
            if k / n > share:
                out.append(Finding("game length", f"games run too {word}: {100 * k / n:.0f}% last {bound} turns",
                                   f"{k:,} of {n:,} games [{100 * lo:.1f}%, {100 * hi:.1f}%] outside the target "
                                   f"{low} to {high} turns; mean {lengths.interval()[0]:.1f}, median "
                                   f"{lengths.median():.0f} (rule: more than {100 * share:.0f}% of games)",
                                   "Game quality"))
    return out


def runaway_leaders(games: pd.DataFrame, share: float = RUNAWAY_SHARE) -> list[Finding]:
    """The eventual winner led for good from the first third of the game in most games."""
    if not {"winner_led_from", "turns"} <= set(games.columns) or games.empty:
        return []
    early = games["winner_led_from"] <= np.maximum(1, games["turns"] // 3)
    behind = int((games["winner_deficit_mid"] > 0).sum()) if "winner_deficit_mid" in games else None
    return runaway_leaders_of(int(early.sum()), len(games), behind, share)


def runaway_leaders_of(k: int, n: int, behind: int | None, share: float = RUNAWAY_SHARE) -> list[Finding]:
    """`runaway_leaders` from the games whose winner led for good from the first third, the games,
    and those whose winner was behind at mid-game (None: not recorded)."""
    lo, hi = wilson(k, n)
    if lo <= share:
        return []
    evidence = (f"{k:,} of {n:,} games [{100 * lo:.1f}%, {100 * hi:.1f}%] (rule: lower 95% bound above "
                f"{100 * share:.0f}%)")
    if behind is not None:
        evidence += f"; {100 * behind / n:.1f}% of winners were behind at mid-game"
    return [Finding("runaway leader", f"the leader runs away: in {100 * k / n:.0f}% of games the winner "
                    "led for good from the first third of the game", evidence, "Game quality")]


def kingmaking(games: pd.DataFrame, turns: pd.DataFrame | None,
               share: float = KINGMAKER_SHARE) -> list[Finding]:
    """Kingmaking: a player who can no longer win decides who does. Read from the per-turn table
    (`quality.kingmaking`): games exposed to kingmaking whose leader before the last turn then lost.
    Flags when the lower 95% bound of that share exceeds `share`."""
    if not _judges_kingmaking(games, turns):
        return []
    return kingmaking_of(quality.kingmaking(turns, games), share)


def kingmaking_of(table: pd.DataFrame, share: float = KINGMAKER_SHARE) -> list[Finding]:
    """`kingmaking` from `quality.kingmaking`'s table."""
    row = table.iloc[1]
    if row["lo"] <= share:
        return []
    k, n = int(row["count"]), int(row["games"])
    return [Finding("kingmaking", f"kingmaking can decide {100 * k / n:.0f}% of games",
                    f"{k:,} of {n:,} games [{100 * row['lo']:.1f}%, {100 * row['hi']:.1f}%] had a seat that "
                    "could no longer win while first place was open, and the leader before the last turn "
                    f"lost (rule: lower 95% bound above {100 * share:.0f}%)", "Game quality")]


def _judges_kingmaking(games, turns) -> bool:
    return turns is not None and not games.empty and "winner_seat" in games


def findings(games, seats, game: str, head=None, seat_test=None, pairs=None,
             target_turns: tuple[int, int] | None = None, turns=None,
             used: pd.DataFrame | None = None) -> list[Finding]:
    """Every rule, in the order a designer reads them (`used`: as in `unused_mechanics`)."""
    return (dominant_strategy(pairs) + seat_advantage(seat_test) + game_length(games, target_turns)
            + runaway_leaders(games) + kingmaking(games, turns) + unused_mechanics(seats, game, used=used))


def measured(games: pd.DataFrame, turns: pd.DataFrame | None = None) -> list[str]:
    """The rules a run's tables cannot judge, said in the report rather than silently skipped."""
    return measured_of(_judges_kingmaking(games, turns), "winner_led_from" in games)


def measured_of(kingmaking_judged: bool, has_led_from: bool) -> list[str]:
    missing = []
    if not kingmaking_judged:
        missing.append("kingmaking (needs the per-turn table: mobsim run --record-turns)")
    if not has_led_from:
        missing.append("runaway leaders (no winner_led_from column)")
    return missing


def parse_target(text: str | None) -> tuple[int, int] | None:
    """'10:14' -> (10, 14): the target length in turns (inclusive)."""
    if text is None:
        return None
    try:
        lo, hi = (int(x) for x in str(text).split(":"))
    except ValueError:
        raise ValueError(f"target length {text!r}: write LO:HI in turns, e.g. 10:14") from None
    if not 1 <= lo <= hi:
        raise ValueError(f"target length {text!r}: need 1 <= LO <= HI")
    return lo, hi
