"""The bargaining models' arithmetic (AG-N1..N3), jitted for the engine.

`threat_values` is each present family's exact expected outcome, in bags, of the shoot-out that
follows a failed bargain (the disagreement point): the shoot-out the engine plays, by the same
aiming and hit-taking rules (sim.ag.shots). `sim.ag.odds.shootout_values` is the exact value of
a two-family shoot-out in fractions, where the aim is forced (tests hold the two together).
`alternating_values` solves the alternating-offers variant by backward induction;
`allocate` turns target worths into units of the gains plus side payments in bags.
`expected_share` is what a family placing its pieces can expect of a card from the bargain
(the policy's judgement of a location, strategies.ag.policy).
"""

import numpy as np
from numba import njit

from sim.ag.env import (
    MODEL_ALTERNATING, P_MODEL, P_PATIENCE, P_ROUNDS, P_VAL_BAG, P_VAL_CARD, P_VAL_OCC, P_VAL_RENOWN, P_VAL_TOKEN,
)
from sim.ag.readers import card_items
from sim.ag.shots import shootout_values
from sim.ag.state import (
    MAX_SEATS, N_ITEMS, N_PLAYERS, ORDER0, SV_CLAIM, SV_TARGET,
    SV_THREAT, bag_count, pieces_at,
)

@njit(cache=True)
def worth(env, key):
    return env.rp[key] / 1000.0


@njit(cache=True)
def threat_values(game, env, slot, mask, total, out):
    """out[p]: family p's exact expected outcome in bags of the shoot-out the engine would play
    after a failed bargain (sim.ag.shots.shootout_values: its aiming, hit-taking, Arms power and
    boss-death spoils), for every family in `mask`; 0 for the others."""
    shootout_values(game, env, slot, mask, total, out)


@njit(cache=True)
def nash_targets(game, mask, total, claims, out):
    """The Nash bargaining solution over the stated disagreement points `claims` (transferable
    worth): out[p] = claims[p] + an equal part of the surplus. Returns the surplus (negative: the
    claims leave nothing to agree on)."""
    n, claimed = 0, 0.0
    for p in range(game.g[N_PLAYERS]):
        if (mask >> p) & 1:
            n += 1
            claimed += claims[p]
    surplus = total - claimed
    for p in range(game.g[N_PLAYERS]):
        out[p] = claims[p] + surplus / n if (mask >> p) & 1 else 0.0
    return surplus


@njit(cache=True)
def proposer_of(game, mask, k):
    """The proposer of offer k (0-based): the present families in turn order from the godfather,
    one after the other."""
    present = 0
    for i in range(game.g[N_PLAYERS]):
        if (mask >> game.g[ORDER0 + i]) & 1:
            present += 1
    j = k % present
    for i in range(game.g[N_PLAYERS]):
        p = game.g[ORDER0 + i]
        if (mask >> p) & 1:
            if j == 0:
                return p
            j -= 1
    return -1


@njit(cache=True)
def alternating_values(game, mask, total, threats, patience, rounds, values):
    """Backward induction of the alternating offers (AG-N1 variant): values[k, p] is what family p
    gets when offer k is made (k = rounds: the shoot-out, its disagreement value). The proposer
    of offer k offers each other family what waiting is worth to it, its shoot-out value plus
    `patience` times the rest of what offer k + 1 would give it, and keeps the remainder."""
    n_players = game.g[N_PLAYERS]
    for p in range(n_players):
        values[rounds, p] = threats[p]
    for k in range(rounds - 1, -1, -1):
        i = proposer_of(game, mask, k)
        given = 0.0
        for p in range(n_players):
            values[k, p] = 0.0
            if (mask >> p) & 1 and p != i:
                values[k, p] = threats[p] + patience * (values[k + 1, p] - threats[p])
                given += values[k, p]
        values[k, i] = total - given


@njit(cache=True)
def allocate(game, env, mask, units, unit_worth, targets, want):
    """game.alloc: the card's units, most valuable first, each to the family furthest below its
    target worth (ties: turn order); want[p] is left holding what each family still lacks (a
    negative want is worth it must pay back in bags)."""
    n_players = game.g[N_PLAYERS]
    for p in range(n_players):
        want[p] = targets[p] if (mask >> p) & 1 else 0.0
        for item in range(N_ITEMS):
            game.alloc[p, item] = 0
    while True:
        best_item, best_worth = -1, -1.0
        for item in range(N_ITEMS):
            if units[item] > 0 and unit_worth[item] > best_worth:
                best_item, best_worth = item, unit_worth[item]
        if best_item < 0:
            break
        units[best_item] -= 1
        taker, gap = -1, -1e18
        for i in range(n_players):
            p = game.g[ORDER0 + i]
            if (mask >> p) & 1 and want[p] > gap + 1e-9:
                taker, gap = p, want[p]
        game.alloc[taker, best_item] += 1
        want[taker] -= best_worth


@njit(cache=True)
def next_side_payment(game, env, mask, want):
    """The next bag of side payment (AG-N1: a split may include bags): (payer, payee), the family
    most over its target with a bag to pay and the one most under it, while each is more than half
    a bag away; (-1, -1) when none."""
    bag = max(worth(env, P_VAL_BAG), 1e-9)
    # more than half a bag away, strictly: at exactly half a payment would only swap the two
    payer, payee, over, under = -1, -1, 0.5 * bag + 1e-9, 0.5 * bag + 1e-9
    for i in range(game.g[N_PLAYERS]):
        p = game.g[ORDER0 + i]
        if not (mask >> p) & 1:
            continue
        if -want[p] > over and bag_count(game, p) > 0:
            payer, over = p, -want[p]
        if want[p] > under:
            payee, under = p, want[p]
    if payer < 0 or payee < 0:
        return -1, -1
    return payer, payee



@njit(cache=True)
def card_worth(game, env, card):
    """The card's gains now, in bags by the bargaining rule's worths (negotiation.value_*)."""
    r, b, t, c, o = card_items(game, env, card)
    return (r * worth(env, P_VAL_RENOWN) + b * worth(env, P_VAL_BAG) + t * worth(env, P_VAL_TOKEN)
            + c * worth(env, P_VAL_CARD) + o * worth(env, P_VAL_OCC))


@njit(cache=True)
def expected_share(game, env, slot, card, p, bluff):
    """AG-N1..N3 as a family weighs a location: the part of the card's worth p gets from the
    bargain among the families now on the slot, each other family claiming its exact shoot-out
    value and p that value plus `bluff` of the card's worth. Nash model: the Nash split when the
    claims leave a surplus, else p's shoot-out value (the fight follows); alternating model: the
    equilibrium's first offer. Alone on the card p takes it all. May be negative: a shoot-out p
    would lose more in than the card is worth to it."""
    mask = 0
    for q in range(game.g[N_PLAYERS]):
        if pieces_at(game, slot, q) > 0:
            mask |= 1 << q
    if mask == 1 << p:
        return 1.0
    total = card_worth(game, env, card)
    if total <= 0.0 or not (mask >> p) & 1:
        return 0.0
    threats = game.sv[SV_THREAT]
    threat_values(game, env, slot, mask, total, threats)
    if env.rp[P_MODEL] == MODEL_ALTERNATING:
        rounds = env.rp[P_ROUNDS]
        values = np.zeros((rounds + 1, MAX_SEATS))
        alternating_values(game, mask, total, threats, env.rp[P_PATIENCE] / 1000.0, rounds, values)
        return values[0, p] / total
    claims, targets = game.sv[SV_CLAIM], game.sv[SV_TARGET]
    claims[:] = threats
    claims[p] += bluff * total
    if nash_targets(game, mask, total, claims, targets) < -1e-9:
        return threats[p] / total
    return targets[p] / total
