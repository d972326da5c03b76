"""Time a mirror of one preset on one thread: the best of 3 runs of `play_many`, per game and per
turn (games that last fewer turns cost less, so both are shown).

    python -m sim.ag.timing --games 2000 --players 4 --strategy balanced
"""

import argparse
import time

from sim.ag.batch import G_TURNS
from sim.ag.game import Lineup, load_default, play_many


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--strategy", default="balanced")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    rs = load_default()
    lineup = Lineup.of([args.strategy] * args.players, args.players)
    play_many(0, 4, args.players, lineup, rs)   # compiled or loaded before the clock starts
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        games, _, _ = play_many(args.seed, args.games, args.players, lineup, rs)
        best = min(best, time.perf_counter() - start)
    turns = int(games[:, G_TURNS].sum())
    print(f"{args.games} games of {args.players} {args.strategy}: best of 3 {best:.2f} s, "
          f"{1000 * best / args.games:.3f} ms a game, {turns / args.games:.2f} turns a game, "
          f"{1e6 * best / turns:.1f} us a turn")


if __name__ == "__main__":
    main()
