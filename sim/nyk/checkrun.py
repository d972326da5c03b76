"""Many New York Kings games in check mode: every invariant after every phase, among them that
no seat recruits more often in a turn than `recruit.per_turn` allows (NYK-A8, a card that
recruits or takes a henchman counting).

    python -m sim.nyk.checkrun --games 100000 --seed 1 --workers 2

Plays the shipped presets in lineups that give each one seats at every table size (2 to 5
players), and prints the games played and every broken invariant found (exit 1 if any).
"""

import argparse
import sys

import numpy as np

from sim.nyk import batch
from sim.nyk.chapters.invariants import INVARIANTS
from sim.nyk.game import Lineup, play_many
from sim.rules import Ruleset
from sim.runner.pool import TiedPool
from strategies import available

CHUNK = 2000


def lineups() -> list[tuple[str, ...]]:
    """Every preset at tables of 2 to 5 players, the presets taken in turn around the list."""
    names = available()
    tables = []
    for players in (2, 3, 4, 5):
        for start in range(len(names)):
            tables.append(tuple(names[(start + i) % len(names)] for i in range(players)))
    return tables


def play_chunk(args) -> tuple[int, dict[str, int], int]:
    seed, table, first_id, n = args
    lineup = Lineup.of(list(table), len(table))
    games, seats, _ = play_many(seed, n, len(table), lineup, Ruleset.load(), first_id, check=True)
    codes = games[:, batch.G_INVARIANT]
    broken = {INVARIANTS[c]: int((codes == c).sum()) for c in np.unique(codes) if c}
    return n, broken, int(games[:, batch.G_ILLEGAL].sum())


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args(argv)
    tables = lineups()
    jobs, first_id = [], 0
    while first_id < args.games:
        n = min(CHUNK, args.games - first_id)
        jobs.append((args.seed, tables[len(jobs) % len(tables)], first_id, n))
        first_id += n
    played, broken, illegal = 0, {}, 0
    with TiedPool(args.workers, "fork") as pool:
        for n, found, bad in pool.map(play_chunk, jobs):
            played += n
            illegal += bad
            for name, count in found.items():
                broken[name] = broken.get(name, 0) + count
    print(f"{played} games in check mode ({len(tables)} lineups of the presets {', '.join(available())}, "
          f"2 to 5 players, seed {args.seed}): {sum(broken.values())} broke an invariant, "
          f"{illegal} illegal decisions")
    for name, count in sorted(broken.items()):
        print(f"  {count} games: {name}")
    return 1 if broken or illegal else 0


if __name__ == "__main__":
    sys.exit(main())
