"""Where a mirror's seat edge comes from: per game, what each place in the turn order (0: the
godfather, AG-C5; the order runs clockwise from it and the card passes left each turn) won and
lost, mechanism by mechanism, from recorded games.

    python -m sim.analysis.games.ag_seat_trace --strategy warlord --players 3 --games 3000 --seed 1

Each row is a count a game by turn position with its 95% interval (normal over games), and the
last minus the first position with its interval: renown and cards won alone or on a shared card
(AG-N1), hits taken, boss deaths and bosses killed in shoot-outs (AG-N2, K4), re-rolls (AG-T4), auctions won
(AG-V1), bags stolen by the Gambling Baron (AG-B2), titles taken (AG-T5).
"""

from __future__ import annotations

import argparse

import numpy as np

from sim.ag import events as E
from sim.ag import state as S
from sim.ag.game import load_default, play_one

Z95 = 1.96
ROWS = ("renown alone", "renown shared", "cards alone", "cards shared", "tokens shared", "bags shared",
        "hits taken", "boss deaths", "bosses killed", "re-rolls", "auctions won", "bags stolen from", "titles taken")


class Place:
    """A seat's place in this turn's order (0: the godfather)."""

    def __init__(self, godfather: int, players: int):
        self.godfather, self.players = godfather, players

    def __call__(self, seat: int) -> int:
        return (seat - self.godfather) % self.players


def position_counts(played, players: int) -> dict[str, np.ndarray]:
    """One game's counts by turn position (ROWS)."""
    out = {row: np.zeros(players) for row in ROWS}
    godfather, on_card = 0, 1
    for row in played.game.events[: played.game.g[S.N_EVENTS]]:
        code, a, b, c, d, e = (int(x) for x in row[1:7])
        if code == E.EV_TURN:
            godfather = b
        at = Place(godfather, players)
        if code == E.EV_SUCCESS:
            on_card = b
        elif code == E.EV_SPLIT:
            kind = "alone" if on_card == 1 else "shared"
            out[f"renown {kind}"][at(a)] += b
            out[f"cards {kind}"][at(a)] += e
            if on_card > 1:
                out["tokens shared"][at(a)] += d
                out["bags shared"][at(a)] += c
        elif code == E.EV_SHOT:
            out["hits taken"][at(b)] += 1
        elif code == E.EV_BOSS_DIES:
            out["boss deaths"][at(a)] += 1
            if row[7] >= 0:   # the killer's family takes the spoils (AG-K4)
                out["bosses killed"][at(int(row[7]))] += 1
        elif code == E.EV_REROLL:
            out["re-rolls"][at(a)] += 1
        elif code == E.EV_AUCTION_WIN and a >= 0:
            out["auctions won"][at(a)] += 1
        elif code == E.EV_STEAL:
            out["bags stolen from"][at(b)] += 1
        elif code == E.EV_TITLE and c >= 0:
            out["titles taken"][at(c)] += 1
    return out


def trace(strategy: str, players: int, games: int, seed: int, ruleset=None) -> dict[str, np.ndarray]:
    """Per row, an array (games, players) of counts by turn position, games 0 .. games - 1."""
    rs = ruleset or load_default()
    table = {row: np.zeros((games, players)) for row in ROWS}
    for game_id in range(games):
        counts = position_counts(play_one(seed, players, [strategy] * players, rs, game_id), players)
        for row in ROWS:
            table[row][game_id] = counts[row]
    return table


def interval(x: np.ndarray) -> tuple[float, float, float]:
    """Mean over games and its 95% interval."""
    mean = float(x.mean())
    half = Z95 * float(x.std(ddof=1)) / np.sqrt(len(x)) if len(x) > 1 else float("inf")
    return mean, mean - half, mean + half


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--strategy", default="warlord")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    if args.games < 2:
        ap.error(f"--games {args.games}: give at least 2 games, e.g. --games 3000")
    table = trace(args.strategy, args.players, args.games, args.seed)
    print(f"{args.strategy} x{args.players}, {args.games} games, seed {args.seed}: a game, by turn position "
          f"(0 = godfather), 95% intervals; last - first")
    for row in ROWS:
        cells = []
        for k in range(args.players):
            m, lo, hi = interval(table[row][:, k])
            cells.append(f"{m:.3f} [{lo:.3f}, {hi:.3f}]")
        m, lo, hi = interval(table[row][:, -1] - table[row][:, 0])
        print(f"{row:17s} " + " | ".join(cells) + f" | {m:+.3f} [{lo:+.3f}, {hi:+.3f}]")


if __name__ == "__main__":
    main()
