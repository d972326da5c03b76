"""The bargaining models' arithmetic (AG-N1..N3), jitted for the engine.

`threat_values` is each present family's expected outcome, in bags, of the shoot-out that follows
a failed bargain (the disagreement point), by the model negotiation.threat names (AG-N2):
- shootout (default, sim.ag.shots.shootout_values): the exact value of the shoot-out the engine
  plays (its aiming BANG by BANG, hit-taking, Arms power, boss-death spoils);
- fixed_aim (`fixed_aim_values`, the jitted twin of `sim.ag.odds.shootout_values`): the exact
  value of a stated model: everyone rolls; each family's BANGs all go to the other family with the
  most expected BANGs (ties: the first tied family after the shooter in turn order, so equal
  families aim round a circle and none is everyone's target); a family gives up its members
  cheapest first (occasional dice, henchmen, killers at their recruit prices, the boss's wounds,
  its death); hits beyond its members are wasted; a family left alone takes the card, several
  survivors split it by the claims they state in the second hourglass (sim.ag.shots.sequel_part,
  AG-N3), nobody left: lost.
  Some 3 times faster than the walk (a game's contests rarely repeat, so the walk's table finds
  few of them), and the players' cheap forecast.
`forecast_values` is what a placing family expects them to be: the rule's own, or the fixed-aim
model (the players' `foresight` knob).
`alternating_values` solves the alternating-offers variant by backward induction;
`allocate` turns target worths into units of the gains plus side payments in bags: each unit to
the family furthest below its target when that family lacks the unit's whole worth; a unit worth
more than any family lacks is drawn among those below their targets, weighted by what each lacks
(`draw_taker`), so it goes to each as often as its part warrants (given to the one furthest
below, a few hundredths of a bag of difference between targets, from the place in turn order,
gave the 3-bag renown unit to the last in turn order); who pays or receives a bag is the family
furthest from its target; ties and draws from the game's sharing stream S_SHARE, never the place
in turn order (AG-N1).
`expected_share` is what a family placing its pieces can expect of a card from the bargain
(the policy's judgement of a location, strategies.ag.policy).
"""

import numpy as np
from numba import njit

from sim.ag.env import (
    MODEL_ALTERNATING, P_DEATH_RENOWN, P_DEATH_ROUNDING, P_MODEL, P_PATIENCE, P_ROUNDS, P_SECOND_ROUND,
    P_SUCCESSOR, P_THREAT, P_VAL_BAG, P_VAL_CARD, P_VAL_OCC, P_VAL_RENOWN, P_VAL_TOKEN, P_VAL_WOUND,
    P_WOUNDS_TO_DIE, ROUND_UP, SUCCESSOR_HENCHMAN, THREAT_SHOOTOUT,
)
from sim.ag.readers import bang_chance, fraction_of, recruit_price
from sim.ag.shots import bang_law, card_worth, claim_levels, sequel_part, shootout_values
from sim.ag.state import (
    BOSS, HENCH, HENCHMEN, HITS_ROW, KILLER, MAX_SEATS, N_DISTRICTS, N_ITEMS, N_PLAYERS, N_TRAFFICS, OCC,
    ORDER0, SI_AIM, SI_OTHERS, SI_TOPS, STEP_ROW, SV_ALIVE, SV_BANGS, SV_CLAIM, SV_LOSS, SV_TARGET,
    SV_THREAT, S_SHARE, TOK0, WON0, WOUNDS, bag_count, pieces_at,
)
from sim.rng import below_of

TIE = 1e-9   # worths closer than this are equal

@njit(cache=True)
def worth(env, key):
    return env.rp[key] / 1000.0


@njit(cache=True)
def death_loss(game, env, q):
    """What a boss's death costs family q (AG-K4): renown, half its bags, a card and a token if it
    has them, and the member who takes the boss's place (by the ruling)."""
    have = bag_count(game, q)
    half = (have + 1) // 2 if env.rp[P_DEATH_ROUNDING] == ROUND_UP else have // 2
    loss = env.rp[P_DEATH_RENOWN] * worth(env, P_VAL_RENOWN) + half * worth(env, P_VAL_BAG)
    cards, tokens = 0, 0
    for d in range(N_DISTRICTS):
        cards += game.pl[q, WON0 + d]
    for t in range(N_TRAFFICS):
        tokens += game.pl[q, TOK0 + t]
    if cards:
        loss += worth(env, P_VAL_CARD)
    if tokens:
        loss += worth(env, P_VAL_TOKEN)
    if env.rp[P_SUCCESSOR] == SUCCESSOR_HENCHMAN and game.pl[q, HENCHMEN] > 0:
        loss += recruit_price(game, env, HENCH) * worth(env, P_VAL_BAG)
    return loss


@njit(cache=True)
def hit_costs(game, env, slot, q, costs):
    """costs[0 .. n-1]: what the 1st, 2nd, ... hit costs family q on the slot; returns n."""
    n = 0
    for _ in range(game.at[slot, q, OCC]):
        costs[n] = worth(env, P_VAL_OCC)
        n += 1
    for _ in range(game.at[slot, q, HENCH]):
        costs[n] = recruit_price(game, env, HENCH) * worth(env, P_VAL_BAG)
        n += 1
    for _ in range(game.at[slot, q, KILLER]):
        costs[n] = recruit_price(game, env, KILLER) * worth(env, P_VAL_BAG)
        n += 1
    if game.at[slot, q, BOSS]:
        lives = env.rp[P_WOUNDS_TO_DIE] - game.pl[q, WOUNDS]
        for _ in range(lives - 1):
            costs[n] = worth(env, P_VAL_WOUND)
            n += 1
        costs[n] = death_loss(game, env, q)
        n += 1
    return n


@njit(cache=True)
def bang_dist(game, env, slot, q, out):
    """out[b] = P(family q fires b BANGs on the slot), b = 0 .. the most it can fire (returned)."""
    return bang_law(env, game.at[slot, q, HENCH], game.at[slot, q, KILLER], game.at[slot, q, OCC], 0, out)


@njit(cache=True)
def expected_bangs(game, env, slot, q):
    return (game.at[slot, q, HENCH] * bang_chance(env, HENCH) + game.at[slot, q, KILLER] * bang_chance(env, KILLER)
            + game.at[slot, q, OCC] * bang_chance(env, OCC))


@njit(cache=True)
def aim_all(game, mask, bangs, aims):
    """aims[p]: the family p shoots at in the model, for every family in `mask`: the other present
    family with the most expected BANGs (`bangs`); a tie goes to the first tied family after p
    in turn order (round the table), so equal families aim round a circle and each is the
    target of one: no seat is favoured by its place (AG-N2)."""
    n = game.g[N_PLAYERS]
    for p in range(n):
        if not (mask >> p) & 1:
            continue
        best, most = -1, -1.0
        for step in range(1, n):
            q = (p + step) % n   # seats in turn order after p (the order is seat order rotated)
            if (mask >> q) & 1 and bangs[q] > most + 1e-12:
                best, most = q, bangs[q]
        aims[p] = best


@njit(cache=True)
def hits_on(game, mask, q, tops):
    """game.bang[HITS_ROW, 0 .. top]: P(family q takes that many hits), the BANGs of every family
    aiming at it added up (game.si[SI_AIM] and the BANG distributions in game.bang); returns top."""
    hits, step, dists = game.bang[HITS_ROW], game.bang[STEP_ROW], game.bang
    hits[0] = 1.0
    top = 0
    for p in range(game.g[N_PLAYERS]):
        if p != q and (mask >> p) & 1 and game.si[SI_AIM, p] == q:
            step[: top + tops[p] + 1] = 0.0
            for a in range(top + 1):
                for b in range(tops[p] + 1):
                    step[a + b] += hits[a] * dists[p, b]
            top += tops[p]
            hits[: top + 1] = step[: top + 1]
    return top


@njit(cache=True)
def threat_values(game, env, slot, mask, total, out):
    """out[p]: family p's expected shoot-out outcome in bags by the negotiation.threat model (AG-N2,
    see the module doc), for every family in `mask`; 0 for the others."""
    if env.rp[P_THREAT] == THREAT_SHOOTOUT:
        shootout_values(game, env, slot, mask, total, out)
    else:
        fixed_aim_values(game, env, slot, mask, total, out)


@njit(cache=True)
def forecast_values(game, env, slot, mask, total, exact, out):
    """What a family placing its pieces expects the shoot-out values to be: the rule's own
    (threat_values) when it forecasts `exact`ly, else the fixed-aim model, many times cheaper
    than the walk for the crews a placement weighs (the players' `foresight` knob,
    strategies.ag.params)."""
    if exact:
        threat_values(game, env, slot, mask, total, out)
    else:
        fixed_aim_values(game, env, slot, mask, total, out)


@njit(cache=True)
def fixed_aim_values(game, env, slot, mask, total, out):
    """out[p]: family p's exact expected shoot-out outcome in bags under the fixed-aim model (see
    the module doc), for every family in `mask`; 0 for the others. Works in the game's bargaining
    scratch (game.bang, costs, sv, si): no allocation, it runs for every candidate crew."""
    n_players = game.g[N_PLAYERS]
    tops = game.si[SI_TOPS]
    bangs, alive, loss = game.sv[SV_BANGS], game.sv[SV_ALIVE], game.sv[SV_LOSS]
    for p in range(n_players):
        alive[p], loss[p] = 0.0, 0.0
        if (mask >> p) & 1:
            tops[p] = bang_dist(game, env, slot, p, game.bang[p])
            bangs[p] = expected_bangs(game, env, slot, p)
    aim_all(game, mask, bangs, game.si[SI_AIM])
    costs = game.costs
    for q in range(n_players):
        out[q] = 0.0
        if not (mask >> q) & 1:
            continue
        top = hits_on(game, mask, q, tops)
        hits = game.bang[HITS_ROW]
        m = hit_costs(game, env, slot, q, costs)
        cumulative = 0.0
        for j in range(top + 1):
            if j > 0 and j <= m:
                cumulative += costs[j - 1]
            loss[q] += hits[j] * cumulative
            if j < m:
                alive[q] += hits[j]
    second = env.rp[P_SECOND_ROUND] != 0
    levels = claim_levels(game, env, slot, mask)
    others = game.si[SI_OTHERS]
    for q in range(n_players):
        if not (mask >> q) & 1:
            continue
        k = 0
        for j in range(n_players):
            if j != q and (mask >> j) & 1:
                others[k] = j
                k += 1
        keep = 0.0
        for pattern in range(1 << k):
            chance, survivors = alive[q], 1 << q
            for bit in range(k):
                j = others[bit]
                if (pattern >> bit) & 1:
                    chance *= alive[j]
                    survivors |= 1 << j
                else:
                    chance *= 1.0 - alive[j]
            keep += chance * sequel_part(game, levels, survivors, q, total, second)
        out[q] = keep - loss[q]


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
def pick_most(game, eligible, values, floor):
    """The family in `eligible` whose value is the largest and above `floor`; a tie (within TIE)
    drawn from the sharing stream S_SHARE, not given by the place in turn order (AG-N1);
    -1 when none is above `floor`."""
    best, tied = floor, 0
    for p in range(game.g[N_PLAYERS]):
        if not (eligible >> p) & 1:
            continue
        if values[p] > best + TIE:
            best, tied = values[p], 1
        elif tied and values[p] > best - TIE:
            tied += 1
    if tied == 0:
        return -1
    j = below_of(game.rng, S_SHARE, tied) if tied > 1 else 0
    for p in range(game.g[N_PLAYERS]):
        if (eligible >> p) & 1 and values[p] > best - TIE:
            if j == 0:
                return p
            j -= 1
    return -1


@njit(cache=True)
def draw_taker(game, mask, want, unit):
    """AG-N1: the family that takes a unit worth `unit`: the one furthest below its target
    (pick_most, ties drawn) when it lacks the whole unit, or none lacks anything; else drawn from
    S_SHARE among the families of `mask` below their targets, each weighted by what it lacks, so
    a family's chance of the unit is what it lacks over what they lack together."""
    first = pick_most(game, mask, want, -1e18)
    if want[first] >= unit - TIE or want[first] <= TIE:
        return first
    weights = 0.0
    for p in range(game.g[N_PLAYERS]):
        if (mask >> p) & 1 and want[p] > TIE:
            weights += min(want[p], unit)
    u = fraction_of(game, S_SHARE) * weights
    last = -1
    for p in range(game.g[N_PLAYERS]):
        if (mask >> p) & 1 and want[p] > TIE:
            u -= min(want[p], unit)
            last = p
            if u < 0.0:
                return p
    return last


@njit(cache=True)
def allocate(game, env, mask, units, unit_worth, targets, want):
    """game.alloc: the card's units, most valuable first, each to a family below its target
    worth, drawn (draw_taker); want[p] is left holding what each family still lacks (a negative
    want is worth it must pay back in bags)."""
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
        taker = draw_taker(game, mask, want, best_worth)
        game.alloc[taker, best_item] += 1
        want[taker] -= best_worth


@njit(cache=True)
def next_side_payment(game, env, mask, want, purse):
    """The next bag of side payment (AG-N1: a split may include bags): (payer, payee), the family
    most over its target with a bag in its `purse` (the bags it may pay with, by
    negotiation.side_payments) and the one most under it, while each is more than half a bag
    away; ties drawn (pick_most); (-1, -1) when none."""
    bag = max(worth(env, P_VAL_BAG), 1e-9)
    # more than half a bag away, strictly: at exactly half a payment would only swap the two
    floor = 0.5 * bag + TIE
    owed, can_pay = game.sv[SV_CLAIM], 0
    for p in range(game.g[N_PLAYERS]):
        owed[p] = -want[p]
        if (mask >> p) & 1 and purse[p] > 0:
            can_pay |= 1 << p
    payee = pick_most(game, mask, want, floor)
    if payee < 0:
        return -1, -1
    payer = pick_most(game, can_pay, owed, floor)
    if payer < 0:
        return -1, -1
    return payer, payee



@njit(cache=True)
def expected_share(game, env, slot, card, p, bluff, exact):
    """AG-N1..N3 as a family weighs a location: the part of the card's worth p gets from the
    bargain among the families now on the slot, each other family claiming its shoot-out value
    (forecast_values: the rule's own when `exact`, else the fixed-aim model) and p that value
    plus `bluff` of the card's worth. Nash model: the Nash split when the
    claims leave a surplus, else p's shoot-out value (the fight follows); alternating model: the
    equilibrium's first offer. Alone on the card p takes it all. May be negative: a shoot-out p
    would lose more in than the card is worth to it."""
    mask = np.int64(0)  # not the literal 0: type inference would compile the threat models for it too
    for q in range(game.g[N_PLAYERS]):
        if pieces_at(game, slot, q) > 0:
            mask |= 1 << q
    if mask == 1 << p:
        return 1.0
    total = card_worth(game, env, card)
    if total <= 0.0 or not (mask >> p) & 1:
        return 0.0
    threats = game.sv[SV_THREAT]
    forecast_values(game, env, slot, mask, total, exact, threats)
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
