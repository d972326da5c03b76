"""Seat win rates of a mirror match (every seat the same preset): each seat's share of the wins
with its 95% Wilson interval, and the chi-square of the win counts against equal seats.

    python -m sim.analysis.games.ag_seat_rates --strategy warlord --players 3 4 5 --games 4000 --seed 1

Seat 0 is the first godfather (AG-T: the godfather card passes left each turn). A shared victory
(AG-E1: tied on renown and on the bags' hidden value) counts as a part of a win for each family
that shares it: the engine's `winner_seat` names the first of them by seat, which would hand every
shared win to the lower seat.
"""

import argparse

from sim.analysis.games.ag_positions import chi_square
from sim.ag.batch import S_RANK
from sim.ag.game import Lineup, load_default, play_many
from sim.analysis.stats import wilson


def seat_wins(strategy: str, players: int, games: int, seed: int):
    """Wins by seat over games 0 .. games - 1 of run `seed`, a shared victory split equally."""
    lineup = Lineup.of([strategy] * players, players)
    _, seats, _ = play_many(seed, games, players, lineup, load_default())
    first = (seats[:, :players, S_RANK] == 1).astype(float)
    return (first / first.sum(axis=1, keepdims=True)).sum(axis=0)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--strategy", default="warlord")
    ap.add_argument("--players", type=int, nargs="+", default=[3, 4, 5])
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    critical = {1: 3.84, 2: 5.99, 3: 7.81, 4: 9.49}   # chi-square at p = 0.05 by degrees of freedom
    for n in args.players:
        wins = seat_wins(args.strategy, n, args.games, args.seed)
        total = wins.sum()
        stat = chi_square(wins)
        rates = ", ".join(f"{w / total:.1%} [{lo:.1%}, {hi:.1%}]" for w, (lo, hi) in
                          ((w, wilson(round(w), round(total))) for w in wins))
        print(f"{args.strategy} x{n}, {total:.0f} games: {rates}; chi-square {stat:.1f} on {n - 1} df "
              f"(5% critical value {critical[n - 1]})")


if __name__ == "__main__":
    main()
