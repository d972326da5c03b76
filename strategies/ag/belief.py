"""Simultaneous placement as the game it is (AG-T3): which card each family's crew goes to.

Under placement.order = "simultaneous" a family places without seeing this turn's other
placements. Placing as if alone on an empty board, every family picks the same best card (the
herding measured in docs/american-gangsters.md). Here the turn's placement is played as a
simultaneous game among the families' crews: each family puts its crew on one of the shown cards,
and its payoff is the chance that the crews there together reach the target (the exact table of
sim.ag.odds) times its share of the card's gains (its share of the threat there, cut by CONFLICT
for each other family: the bargain may fail) plus the FBI step, by its own worths (its knobs). A
few rounds of fictitious play (`fictitious_play`: every family best-responds to the others'
average strategy so far) give each family a mixed strategy over the cards. A family works them
out once a turn (`belief`), when it places its first piece, from what it sees: the cards' goods
to every family, the others valued as mafia families (their profiles are hidden), itself by its
own profile (an informer's FBI step, AG-G2); it draws its card from its own strategy with its own
policy stream (`draw_card`), and the policy places its dice on that card, the hospital or home.
"""

from numba import njit

from sim.ag.env import P_INFORMER_FBI, P_REROLL, RP_C_FBI, RP_C_TARGET, T_H, T_K, T_O, T_R
from sim.ag.readers import bang_chance, fraction_of
from sim.ag.state import (
    FBI, HENCH, HENCHMEN, KILLER, KILLERS, MAX_SLOTS, N_PLAYERS, OCC, OCC_READY, PLAN,
    SHOW0, SHOW_N, S_POLICY0, TURN, WOUNDS,
)
from sim.rules.ag.content import MAX_TARGET
from strategies.ag.params import INDEX

VAL_FBI_MAFIA = INDEX["val_fbi_mafia"]
ROUNDS = 8          # rounds of fictitious play a turn
CONFLICT = 0.2      # worth lost to each other family on a card: the bargain may fail (AG-N; the policy's too)


@njit(cache=True)
def crew(game, q):
    """Family q's crew this turn: henchmen, killers, occasional dice, and its boss's re-roll (an
    unwounded boss goes with its dice)."""
    return (game.pl[q, HENCHMEN], game.pl[q, KILLERS], game.pl[q, OCC_READY], 1 if game.pl[q, WOUNDS] == 0 else 0)


@njit(cache=True)
def payoff_table(game, env, goods, me, fbi_me, u):
    """u[q, s, A]: family q's payoff with its crew on card slot s and the families of bitmask A
    (q not in A) there too: the chance the crews reach the target, times q's threat share cut by
    CONFLICT per other family, times the card's goods to q (goods[q, s]), plus the FBI step (worth
    fbi_me to family `me`, a mafia family's worth to the others). The crews' sums over A do not
    depend on the card, so they are added once per (q, A) and the cards read them."""
    n = game.g[N_PLAYERS]
    shown = game.g[SHOW_N]
    bh, bk, bo = bang_chance(env, HENCH), bang_chance(env, KILLER), bang_chance(env, OCC)
    fbi_step = 1.0 + game.g[FBI] / max(env.rp[P_INFORMER_FBI], 1)
    crews, threat = game.pt_crews, game.pt_threat   # the record's scratch: every entry read is written first
    for j in range(n):
        hj, kj, oj, rj = crew(game, j)
        crews[j, 0], crews[j, 1], crews[j, 2], crews[j, 3] = hj, kj, oj, rj
        threat[j] = hj * bh + kj * bk + oj * bo
    targets, fbi = game.pt_targets, game.pt_fbi
    for s in range(1, shown + 1):
        card = game.g[SHOW0 + s]
        targets[s] = min(env.rp[RP_C_TARGET + card], MAX_TARGET)
        for q in range(n):
            step = fbi_me if q == me else env.params[q, VAL_FBI_MAFIA] * fbi_step
            fbi[q, s] = env.rp[RP_C_FBI + card] * step
    for q in range(n):
        tq = threat[q]
        for a in range(1 << n):
            if (a >> q) & 1:
                continue
            h, k, o, r, t, others = crews[q, 0], crews[q, 1], crews[q, 2], crews[q, 3], tq, 0
            for j in range(n):
                if (a >> j) & 1:
                    h, k, o, r = h + crews[j, 0], k + crews[j, 1], o + crews[j, 2], r + crews[j, 3]
                    t += threat[j]
                    others += 1
            if not env.rp[P_REROLL]:
                r = 0
            share = tq / t if t > 0.0 else 1.0 / (others + 1)
            share *= max(0.0, 1.0 - CONFLICT * others)
            ih, ik, io, ir = min(h, T_H), min(k, T_K), min(o, T_O), min(r, T_R)
            for s in range(1, shown + 1):
                chance = env.success[ih, ik, io, ir, targets[s]]
                u[q, s, a] = chance * (share * goods[q, s] + fbi[q, s])


@njit(cache=True)
def fictitious_play(game, u, sigma):
    """sigma[q, s]: each family's average strategy after ROUNDS rounds in which every family
    best-responds to the others' average strategies so far (the first round: to an empty board).
    A family's payoff on a card is u summed, in the order of the sets, over the sets A of others
    there, each weighted by the chance that exactly they are there when each other family j is
    there with chance sigma[j, s] (independently): the product of its factors in seat order. A
    set of chance 0 adds a zero (+0 or -0: the sum is unchanged) and a factor 1 multiplies by one,
    so only the sets of the others there for sure and any of those there with a chance strictly
    between 0 and 1 are summed, their products taken over the latter alone: the same sum, bit for
    bit, of a few terms (most families' strategies are on one or two cards). The chances of the
    sets are built by doubling, one unsure family at a time in seat order, each set's chance the
    product of its prefix's by the next factor: the same products, each worked out once. Its reply
    is the first best card. Once every family's reply has been the same card in every round so far, the
    average strategies are that pure profile (x * t/(t+1) + 1/(t+1) is exactly 1.0 for x = 1.0
    and every round t < ROUNDS: `pure_average_stays_pure`), so every later round would reply the
    same and leave them unchanged: play stops there, the same strategies bit for bit. One loop, no
    call: a call passing the buffers counts references to them, which cost more than the products."""
    n = game.g[N_PLAYERS]
    shown = game.g[SHOW_N]
    sigma[:, :] = 0.0
    # the record's scratch (every entry read is written first), not allocated at each solve
    reply, first, bits = game.fp_seats[0], game.fp_seats[1], game.fp_seats[2]   # replies, the first round's
    sure_at = game.fp_slots[0]     # the families there for sure this round, card by card
    unsure_at = game.fp_slots[1]   # ... and those there with a chance strictly between 0 and 1
    chances = game.fp_chances      # the chance of each set of the unsure others ...
    sets = game.fp_sets            # ... and the set, in increasing order
    out, there = game.fp_factors[0], game.fp_factors[1]   # each unsure other's factors, in seat order
    steady = True                               # every round so far replied as the first did
    for t in range(ROUNDS):
        for s in range(1, shown + 1):
            sure_at[s], unsure_at[s] = 0, 0
            for j in range(n):
                if sigma[j, s] == 1.0:
                    sure_at[s] |= 1 << j
                elif sigma[j, s] != 0.0:
                    unsure_at[s] |= 1 << j
        for q in range(n):
            best, k = -1e18, 1
            for s in range(1, shown + 1):
                sure, unsure = sure_at[s] & ~(1 << q), unsure_at[s] & ~(1 << q)   # the others
                m = 0
                for j in range(n):
                    if (unsure >> j) & 1:
                        out[m], there[m], bits[m] = 1.0 - sigma[j, s], sigma[j, s], 1 << j
                        m += 1
                chances[0], sets[0], size = 1.0, 0, 1
                for i in range(m):   # entry c + size: the set of entry c with the i-th unsure other
                    for c in range(size):
                        chances[c + size] = chances[c] * there[i]
                        chances[c] = chances[c] * out[i]
                        sets[c + size] = sets[c] | bits[i]
                    size *= 2
                total = 0.0
                for c in range(size):   # the sets of a chance above 0 in increasing order, as the full sum went
                    total += chances[c] * u[q, s, sure | sets[c]]
                if total > best + 1e-12:
                    best, k = total, s
            reply[q] = k
            if t == 0:
                first[q] = k
            steady = steady and k == first[q]
        if t > 0 and steady:
            return   # a pure profile every family keeps replying with: sigma is final
        for q in range(n):
            for s in range(1, shown + 1):
                sigma[q, s] *= t / (t + 1.0)
            sigma[q, reply[q]] += 1.0 / (t + 1.0)


def pure_average_stays_pure(rounds=ROUNDS):
    """Whether fictitious play's averaging keeps a pure strategy exactly pure in every round t
    from 1 to rounds - 1 (1.0 * t/(t+1) + 1/(t+1) == 1.0 in floating point), as its early stop
    assumes."""
    for t in range(1, rounds):
        x = 1.0
        x *= t / (t + 1.0)
        x += 1.0 / (t + 1.0)
        if x != 1.0:
            return False
    return True


@njit(cache=True)
def belief(game, env, goods, me, fbi_me):
    """game.belief: the families' strategies for this turn's placement as family `me` works them
    out (the module doc); goods[q, s]: card slot s's goods to family q; fbi_me: an FBI step's
    worth to `me`. The game last solved under these rules is read back when it is this one
    (`recalled`): the next family placing sees the same crews, cards and goods, and its own FBI
    step is a mafia family's, as the others' are."""
    if recalled(game, env, goods, me, fbi_me):
        return
    u = env.belief_u   # payoff_table writes every payoff fictitious_play reads: not cleared
    payoff_table(game, env, goods, me, fbi_me, u)
    fictitious_play(game, u, game.belief)
    env.belief_val[:, :] = game.belief


@njit(cache=True)
def recalled(game, env, goods, me, fbi_me):
    """Whether the placement game is the one last solved under this env (env.belief_key: all that
    payoff_table reads but the rules, which never change in an env's life: the families, the
    cards shown, each family's crew and FBI step, the goods), its strategies then copied to
    game.belief; else the key becomes this game's."""
    n = game.g[N_PLAYERS]
    shown = game.g[SHOW_N]
    key = env.belief_key
    fbi_step = 1.0 + game.g[FBI] / max(env.rp[P_INFORMER_FBI], 1)
    env.belief_n[0] += 1
    same = key[0] == n and key[1] == shown
    key[0], key[1] = n, shown
    w = 2
    for s in range(1, shown + 1):
        same = same and key[w] == game.g[SHOW0 + s]
        key[w] = game.g[SHOW0 + s]
        w += 1
    for q in range(n):
        h, k, o, r = crew(game, q)
        step = fbi_me if q == me else env.params[q, VAL_FBI_MAFIA] * fbi_step
        same = same and key[w] == h and key[w + 1] == k and key[w + 2] == o and key[w + 3] == r \
            and key[w + 4] == step
        key[w], key[w + 1], key[w + 2], key[w + 3], key[w + 4] = h, k, o, r, step
        w += 5
        for s in range(1, shown + 1):
            same = same and key[w] == goods[q, s]
            key[w] = goods[q, s]
            w += 1
    if same:
        game.belief[:, :] = env.belief_val
        env.belief_n[1] += 1
    return same


@njit(cache=True)
def planned(game, p):
    """The card slot family p drew this turn (draw_card), or 0."""
    return game.pl[p, PLAN] % MAX_SLOTS if game.pl[p, PLAN] // MAX_SLOTS == game.g[TURN] else 0


@njit(cache=True)
def draw_card(game, p):
    """The card slot family p's crew goes to this turn, drawn from its strategy (game.belief)
    with p's policy stream, and kept for the turn."""
    x = fraction_of(game, S_POLICY0 + p)
    slot = game.g[SHOW_N]
    for s in range(1, game.g[SHOW_N] + 1):
        x -= game.belief[p, s]
        if x < 0.0:
            slot = s
            break
    game.pl[p, PLAN] = game.g[TURN] * MAX_SLOTS + slot
    return slot
