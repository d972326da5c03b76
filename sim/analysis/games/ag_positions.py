"""American Gangsters side payments by turn position (AG-N1): who pays and who receives the bags
that even out a split, by the place in the turn order (0: the godfather), from recorded games.

    python -m sim.analysis.games.ag_positions --games 2000 --seed 1 --strategies balanced \
        [--set negotiation.side_payments=own_bags]
"""

from __future__ import annotations

import argparse
import tomllib

import numpy as np

from sim.ag import events as E
from sim.ag import state
from sim.ag.game import play_one
from sim.rules import Ruleset


def side_payments_by_position(seed: int, n_games: int, players: int, strategies, overrides=None):
    """(paid, received): bags of side payment by the payer's and payee's turn position, summed
    over games 0 .. n_games - 1 of run `seed`."""
    rs = Ruleset.load(game="ag", overrides=overrides or None)
    paid, received = np.zeros(players, np.int64), np.zeros(players, np.int64)
    for game_id in range(n_games):
        game = play_one(seed, players, strategies, rs, game_id).game
        godfather = 0
        for row in game.events[: game.g[state.N_EVENTS]]:
            code, a, b = int(row[1]), int(row[2]), int(row[3])
            if code == E.EV_TURN:
                godfather = b
            elif code == E.EV_SIDE_PAYMENT:
                paid[(a - godfather) % players] += 1
                received[(b - godfather) % players] += 1
    return paid, received


def chi_square(counts) -> float:
    """Pearson's statistic of the counts against equal shares (len - 1 degrees of freedom)."""
    counts = np.asarray(counts, float)
    expected = counts.sum() / len(counts)
    return float(((counts - expected) ** 2 / expected).sum()) if expected > 0 else 0.0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--strategies", default="balanced", help="one name for every seat, or one per seat")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="a rule option")
    args = ap.parse_args(argv)
    names = args.strategies.split(",")
    names = names * args.players if len(names) == 1 else names
    overrides = {}
    for item in args.set:
        key, sep, value = item.partition("=")
        if not sep:
            ap.error(f"--set {item!r}: write KEY=VALUE, e.g. --set negotiation.side_payments=own_bags")
        try:   # a TOML scalar (3, 1.5, true, "bank"), else the bare word
            overrides[key] = tomllib.loads(f"v = {value}")["v"]
        except tomllib.TOMLDecodeError:
            overrides[key] = value
    paid, received = side_payments_by_position(args.seed, args.games, args.players, names, overrides)
    total = max(int(paid.sum()), 1)
    print(f"bags paid {int(paid.sum())} in {args.games} games")
    print("paid by position    ", paid.tolist(), [round(100 * float(x) / total, 1) for x in paid])
    print("received by position", received.tolist(), [round(100 * float(x) / total, 1) for x in received])
    print(f"chi-square of payers ({args.players - 1} df): {chi_square(paid):.1f}")


if __name__ == "__main__":
    main()
