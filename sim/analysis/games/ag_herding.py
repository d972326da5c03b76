"""How families place under simultaneous placement (AG-T3), read from recorded games.

- herding rate: the share of turns in which every family that places dice puts every die on one
  and the same location card;
- lone-deviation gain: in those turns, for each family on the herded card, what its placed dice
  (and boss, for the re-roll) would have been worth alone on the best other card shown (the
  exact chance of success times the card's gains at the bargaining worths), less what it took
  of the herded card (its split and side payments, at the same worths; shoot-out losses not
  counted, so the gain is a lower bound).

    python -m sim.analysis.games.ag_herding --players 4 --games 500 --strategies balanced --seed 1

prints both with 95% intervals (Wilson for the rate, normal over games for the gain).
"""

import argparse
import math

import numpy as np

from sim.ag import events as E
from sim.ag import state as S
from sim.ag.env import P_REROLL, P_VAL_BAG, P_VAL_CARD, P_VAL_OCC, P_VAL_RENOWN, P_VAL_TOKEN
from sim.ag.game import load_default, play_one
from sim.analysis.stats import wilson
from sim.rules import Ruleset
from sim.rules.ag.content import MAX_TARGET


def card_value(card, worth) -> float:
    """A card's gains at the bargaining worths (AG-N)."""
    return (card.renown * worth[P_VAL_RENOWN] + card.bags * worth[P_VAL_BAG]
            + (worth[P_VAL_TOKEN] if card.traffic else 0.0) + worth[P_VAL_CARD]
            + card.occasional * worth[P_VAL_OCC])


def alone_value(env, crew, card, worth) -> float:
    h, k, o, boss = crew
    rerolls = boss if env.rp[P_REROLL] else 0
    top = env.success.shape
    chance = env.success[min(h, top[0] - 1), min(k, top[1] - 1), min(o, top[2] - 1), min(rerolls, top[3] - 1),
                         min(card.target, MAX_TARGET)]
    return chance * card_value(card, worth)


def turns_of(played):
    """Per turn: shown cards {slot: card}, each family's crew per slot, and its gains per slot."""
    rows = played.game.events[: played.game.g[S.N_EVENTS]]
    turns = {}
    for row in rows:
        turn, code, a, b, c, d, e, f = (int(x) for x in row[:8])
        t = turns.setdefault(turn, {"shown": {}, "crew": {}, "got": {}})
        if code == E.EV_REVEAL:
            t["shown"][a] = b
        elif code == E.EV_PLACE and b >= 1:
            crew = t["crew"].setdefault(a, {})
            counts = crew.setdefault(b, [0, 0, 0, 0])
            counts[{S.HENCH: 0, S.KILLER: 1, S.OCC: 2, S.BOSS: 3}[c]] += 1
        elif code == E.EV_SPLIT:
            t["got"].setdefault(a, []).append(("split", b, c, d, e, f))
        elif code == E.EV_SIDE_PAYMENT:
            t["got"].setdefault(a, []).append(("paid", 1))
            t["got"].setdefault(b, []).append(("received", 1))
    return turns


def got_value(items, worth) -> float:
    v = 0.0
    for item in items:
        if item[0] == "split":
            _, r, b, t, c, o = item
            v += (r * worth[P_VAL_RENOWN] + b * worth[P_VAL_BAG] + t * worth[P_VAL_TOKEN] + c * worth[P_VAL_CARD]
                  + o * worth[P_VAL_OCC])
        else:
            v += worth[P_VAL_BAG] * (1 if item[0] == "received" else -1)
    return v


def herding(players: int, games: int, strategies, seed: int, ruleset: Ruleset) -> dict:
    cards = ruleset.content["locations"].cards
    herded_turns, all_turns, gains = 0, 0, []
    for game_id in range(games):
        played = play_one(seed, players, strategies, ruleset, game_id)
        worth = {k: played.env.rp[k] / 1000.0 for k in (P_VAL_BAG, P_VAL_CARD, P_VAL_OCC, P_VAL_RENOWN, P_VAL_TOKEN)}
        for t in turns_of(played).values():
            placers = {p: slots for p, slots in t["crew"].items() if any(sum(v[:3]) for v in slots.values())}
            if not placers or not t["shown"]:
                continue
            all_turns += 1
            dice_slots = {s for slots in placers.values() for s, v in slots.items() if sum(v[:3])}
            if len(placers) < players or len(dice_slots) != 1:
                continue
            herded_turns += 1
            slot = dice_slots.pop()
            for p, slots in placers.items():
                crew = slots[slot]
                best = max((alone_value(played.env, crew, cards[c], worth) for s, c in t["shown"].items()
                            if s != slot), default=0.0)
                gains.append((best, got_value(t["got"].get(p, []), worth)))
    lo, hi = wilson(herded_turns, all_turns)
    out = {"turns": all_turns, "herded": herded_turns, "rate": herded_turns / max(all_turns, 1),
           "rate_ci": (lo, hi), "deviations": len(gains)}
    if gains:
        g = np.array(gains)
        diff = g[:, 0] - g[:, 1]
        half = 1.96 * diff.std(ddof=1) / math.sqrt(len(diff)) if len(diff) > 1 else float("nan")
        out.update(alone=float(g[:, 0].mean()), got=float(g[:, 1].mean()), gain=float(diff.mean()),
                   gain_ci=(float(diff.mean() - half), float(diff.mean() + half)))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--strategies", default="balanced")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--set", action="append", default=[], help="KEY=VALUE rule override (TOML scalar)")
    args = ap.parse_args(argv)
    import tomllib
    overrides = {k: tomllib.loads(f"v = {v}")["v"] for k, v in (s.split("=", 1) for s in args.set)}
    rs = Ruleset.load(game="ag", overrides=overrides) if overrides else load_default()
    names = args.strategies.split(",")
    out = herding(args.players, args.games, names, args.seed, rs)
    lo, hi = out["rate_ci"]
    print(f"{args.players} players, {args.games} games of {args.strategies}: herding in {out['herded']} of "
          f"{out['turns']} turns = {out['rate']:.1%} [{lo:.1%}, {hi:.1%}]")
    if out.get("deviations"):
        a, b = out["gain_ci"]
        print(f"lone deviation: alone on the best other card {out['alone']:.2f} bags against {out['got']:.2f} got;"
              f" gain {out['gain']:.2f} [{a:.2f}, {b:.2f}] over {out['deviations']} family-turns")


if __name__ == "__main__":
    main()
