"""Negotiation (rules: negotiation and shoot-out): what the gains of a location are worth, the
bargaining models (offers, Nash, alternating offers), agreements and the sharing out.

Rule ids: AG-N, AG-N1, AG-N2, AG-N3.
"""

import numpy as np
from numba import njit

from sim.ag.bargain import allocate, alternating_values, nash_targets, next_side_payment, proposer_of, threat_values
from sim.ag.chapters.base import add_renown, ask, gain_occasional, log, move_bags, put
from sim.ag.chapters.shootout import lowest, shootout
from sim.ag.decisions import (
    BLUFF_LEVELS, CTX_DECISION, CTX_FAIR, CTX_NEXT, CTX_OFFER, CTX_PROPOSER, CTX_ROUND, CTX_SLOT, CTX_THREAT,
    CTX_TOTAL, D_ACCEPT, D_CLAIM, D_OFFER, N_LEVELS, OP_LEVEL, OP_NO, OP_YES,
)
from sim.ag.env import (
    MODEL_ALTERNATING, MODEL_OFFER, P_MODEL, P_PATIENCE, P_ROUNDS, P_SECOND_ROUND, P_SIDE_PAYMENTS, P_VAL_BAG,
    P_VAL_CARD, P_VAL_OCC, P_VAL_RENOWN, P_VAL_TOKEN, RP_C_DISTRICT, RP_C_TRAFFIC, SIDE_OWN_BAGS,
)
from sim.ag.events import EV_ANSWER, EV_DISCARDED, EV_OFFER, EV_SIDE_PAYMENT, EV_SPLIT
from sim.ag.readers import card_items, count_bits, fill_shares, present_mask
from sim.shared.codes import codes
from sim.ag.state import (
    BANK_ROW, C_AGREEMENTS, C_BAGS_LOC, C_BARGAIN_GOT, C_BARGAIN_THREAT, C_BARGAIN_TOTAL, C_CARDS_WON, C_CONTESTED,
    C_OFFERS_MADE, C_OFFERS_REFUSED, C_RENOWN_LOC, C_SIDE_PAID, C_SIDE_RECEIVED, C_TOKENS_WON, IT_BAGS, IT_CARD,
    IT_OCC, IT_RENOWN, IT_TOKEN, LC_OWNER, LC_STATE, LS_WON, MAX_SEATS, NO, N_ITEMS, N_PLAYERS, ORDER0, SF_CLAIMS,
    SF_NET, SF_TARGETS, SF_THREATS, SUPPLY0, TOK0, WON0, bag_count,
)

ROUND_ONE, ROUND_TWO = codes(3)[1:]   # the bargain's rounds (AG-N3), int64: `negotiate` compiles once

@njit(cache=True)
def item_worth(env, item):
    """The bargaining rule's worth of one unit of an item (negotiation.value_*, in bags)."""
    key = (P_VAL_RENOWN, P_VAL_BAG, P_VAL_TOKEN, P_VAL_CARD, P_VAL_OCC)[item]
    return env.rp[key] / 1000.0


@njit(cache=True)
def offer_worth(game, env, p):
    w = 0.0
    for item in range(5):
        w += game.alloc[p, item] * item_worth(env, item)
    return w


@njit(cache=True)
def bundle(game, env, card, units):
    """units[item] = the card's gains now; returns their worth under the bargaining rule."""
    r, b, t, c, o = card_items(game, env, card)
    units[IT_RENOWN], units[IT_BAGS], units[IT_TOKEN], units[IT_CARD], units[IT_OCC] = r, b, t, c, o
    total = 0.0
    for item in range(5):
        total += units[item] * item_worth(env, item)
    return total


@njit(cache=True)
def build_offer(game, env, card, proposer, level, mask):
    """AG-N (modelled): the split the proposer offers at a greed level. Every other family is
    offered (1 - greed) of its fair share (game.share) of the gains' worth, the proposer keeps the
    rest; units of the gains go, most valuable first, to the family furthest below its target
    (ties: the proposer, then turn order). game.alloc holds the split."""
    units, want = game.units, game.want
    total = bundle(game, env, card, units)
    greed = level / (N_LEVELS - 1.0)
    n_players = game.g[N_PLAYERS]
    others = 0.0
    for p in range(n_players):
        want[p] = 0.0
        for item in range(5):
            game.alloc[p, item] = 0
        if (mask >> p) & 1 and p != proposer:
            want[p] = (1.0 - greed) * game.share[p] * total
            others += want[p]
    want[proposer] = total - others
    while True:
        best_item, best_worth = -1, -1.0
        for item in range(5):
            if units[item] > 0 and item_worth(env, item) > best_worth:
                best_item, best_worth = item, item_worth(env, item)
        if best_item < 0:
            break
        units[best_item] -= 1
        taker, gap = proposer, want[proposer]
        for i in range(n_players):
            p = game.g[ORDER0 + i]
            if (mask >> p) & 1 and want[p] > gap + 1e-9:
                taker, gap = p, want[p]
        game.alloc[taker, best_item] += 1
        want[taker] -= best_worth
    return total


@njit(cache=True)
def bargain(game, env, slot, card, mask, rnd, opts, ctx):
    """AG-N1/N3 as a stated bargaining rule: the first family present in turn order proposes a
    split at one of N_LEVELS greed levels; every other family accepts or refuses, comparing the
    offer with its fair share. All accept: the split is made (True)."""
    g = game.g
    fill_shares(game, env, slot, mask)
    proposer = NO
    for i in range(g[N_PLAYERS]):
        p = g[ORDER0 + i]
        if (mask >> p) & 1:
            proposer = p
            break
    n = 0
    for level in range(N_LEVELS):
        n = put(opts, n, OP_LEVEL, level)
    ctx[CTX_DECISION] = D_OFFER
    ctx[CTX_SLOT] = slot
    ctx[CTX_ROUND] = rnd
    level = opts[ask(game, env, proposer, opts, n, ctx), 1]
    total = build_offer(game, env, card, proposer, level, mask)
    game.pl[proposer, C_OFFERS_MADE] += 1
    log(g, game.events, EV_OFFER, proposer, slot, level, rnd)
    for i in range(g[N_PLAYERS]):
        p = g[ORDER0 + i]
        if p == proposer or not (mask >> p) & 1:
            continue
        n = put(opts, 0, OP_YES)
        n = put(opts, n, OP_NO)
        ctx[CTX_DECISION] = D_ACCEPT
        ctx[CTX_SLOT] = slot
        ctx[CTX_PROPOSER] = proposer
        ctx[CTX_OFFER] = int(1000.0 * offer_worth(game, env, p))
        ctx[CTX_FAIR] = int(1000.0 * game.share[p] * total)
        yes = opts[ask(game, env, p, opts, n, ctx), 0] == OP_YES
        log(g, game.events, EV_ANSWER, p, 1 if yes else 0)
        if not yes:
            game.pl[p, C_OFFERS_REFUSED] += 1
            return False
    for p in range(g[N_PLAYERS]):
        if (mask >> p) & 1:
            game.pl[p, C_AGREEMENTS] += 1
    return True


@njit(cache=True)
def take_all(game, env, card, p):
    """AG-N1: a family alone on a won card takes all its gains."""
    for q in range(game.g[N_PLAYERS]):
        for item in range(5):
            game.alloc[q, item] = 0
    r, b, t, c, o = card_items(game, env, card)
    game.alloc[p, IT_RENOWN], game.alloc[p, IT_BAGS], game.alloc[p, IT_TOKEN] = r, b, t
    game.alloc[p, IT_CARD], game.alloc[p, IT_OCC] = c, o


@njit(cache=True)
def give_gains(game, env, card):
    """Make the split in game.alloc: renown, bags from the bank, the traffic token, the card (it
    counts toward its district's Caid), occasional henchmen."""
    g = game.g
    for p in range(g[N_PLAYERS]):
        a = game.alloc[p]
        if a[IT_RENOWN] + a[IT_BAGS] + a[IT_TOKEN] + a[IT_CARD] + a[IT_OCC] == 0:
            continue
        add_renown(game, p, a[IT_RENOWN])
        game.pl[p, C_RENOWN_LOC] += a[IT_RENOWN]
        game.pl[p, C_BAGS_LOC] += move_bags(game, BANK_ROW, p, a[IT_BAGS])
        if a[IT_TOKEN]:
            t = env.rp[RP_C_TRAFFIC + card]
            g[SUPPLY0 + t] -= 1
            game.pl[p, TOK0 + t] += 1
            game.pl[p, C_TOKENS_WON] += 1
        if a[IT_CARD]:
            game.lc[card, LC_STATE] = LS_WON
            game.lc[card, LC_OWNER] = p
            game.pl[p, WON0 + env.rp[RP_C_DISTRICT + card]] += 1
            game.pl[p, C_CARDS_WON] += 1
        if a[IT_OCC]:
            gain_occasional(game, p, a[IT_OCC])
        log(g, game.events, EV_SPLIT, p, a[IT_RENOWN], a[IT_BAGS], a[IT_TOKEN], a[IT_CARD], a[IT_OCC])


@njit(cache=True)
def settle(game, env, slot, card, mask, opts, ctx):
    """AG-N1..N3: alone, all is yours; else bargain (negotiation.model); no agreement: shoot-out,
    then the survivors bargain once more (or the one left takes all); still no agreement: the
    card is discarded."""
    if count_bits(mask) == 1:
        take_all(game, env, card, lowest(mask))
        share_out(game, env, card, mask, False)
        return
    threats = game.settle_f[SF_THREATS]
    threats[:] = 0.0
    record_contest(game, env, slot, card, mask, threats)
    if negotiate(game, env, slot, card, mask, ROUND_ONE, threats, opts, ctx):
        share_out(game, env, card, mask, True)
        return
    shootout(game, env, slot, mask, opts, ctx)
    after_shootout(game, env, slot, card, mask, threats, opts, ctx)


@njit(cache=True)
def after_shootout(game, env, slot, card, mask, threats, opts, ctx):
    """AG-N3, the sequel of the shoot-out among the families of `mask`: the one left takes all;
    several survivors bargain once more; still no agreement (or nobody left): the card is
    discarded. The sequel the bargaining model values (sim.ag.shots.sequel_part)."""
    left = present_mask(game, slot)
    if count_bits(left) == 1:
        take_all(game, env, card, lowest(left))
        share_out(game, env, card, mask, True)
        return
    threats[:] = 0.0   # AG-N3: failing again loses the card for everyone
    if left != 0 and env.rp[P_SECOND_ROUND] and negotiate(game, env, slot, card, left, ROUND_TWO, threats, opts, ctx):
        share_out(game, env, card, mask, True)
        return
    log(game.g, game.events, EV_DISCARDED, slot)


@njit(cache=True)
def record_contest(game, env, slot, card, mask, threats):
    """A success shared by several families: each one's exact shoot-out value (the disagreement
    point, sim.ag.bargain) into `threats`, and the counters of the bargaining report."""
    total = bundle(game, env, card, game.units)
    threat_values(game, env, slot, mask, total, threats)
    for p in range(game.g[N_PLAYERS]):
        if (mask >> p) & 1:
            game.pl[p, C_CONTESTED] += 1
            game.pl[p, C_BARGAIN_THREAT] += int(round(10.0 * threats[p]))
            game.pl[p, C_BARGAIN_TOTAL] += int(round(10.0 * total))


@njit(cache=True)
def side_purses(game, env, mask):
    """The bags each family may pay side payments with (AG-N1, negotiation.side_payments): the
    families share "les gains proposés par la carte", so by default only the bags it takes from
    this card's split; under own_bags any bag it holds."""
    purse = game.settle_purse
    purse[:] = 0
    for p in range(game.g[N_PLAYERS]):
        if (mask >> p) & 1:
            purse[p] = bag_count(game, p)
            if env.rp[P_SIDE_PAYMENTS] != SIDE_OWN_BAGS:
                purse[p] = min(purse[p], game.alloc[p, IT_BAGS])
    return purse


@njit(cache=True)
def share_out(game, env, card, mask, contested):
    """Make the split (game.alloc), then the side payments in bags it calls for (game.want: what
    each family still lacks of its agreed worth; AG-N1, any split, bags included), out of the
    purses negotiation.side_payments allows (side_purses)."""
    give_gains(game, env, card)
    bag = item_worth(env, IT_BAGS)
    net = game.settle_f[SF_NET]   # bags of side payments received less paid, this split
    net[:] = 0.0
    purse = side_purses(game, env, mask)
    while True:
        payer, payee = next_side_payment(game, env, mask, game.want, purse)
        if payer < 0:
            break
        purse[payer] -= 1
        move_bags(game, payer, payee, 1)
        game.want[payer] += bag
        game.want[payee] -= bag
        net[payer] -= 1.0
        net[payee] += 1.0
        game.pl[payer, C_SIDE_PAID] += 1
        game.pl[payee, C_SIDE_RECEIVED] += 1
        log(game.g, game.events, EV_SIDE_PAYMENT, payer, payee)
    if contested:
        for p in range(game.g[N_PLAYERS]):
            if (mask >> p) & 1:
                got = offer_worth(game, env, p) + bag * net[p]
                game.pl[p, C_BARGAIN_GOT] += int(round(10.0 * got))
    for p in range(MAX_SEATS):
        game.want[p] = 0.0


@njit(cache=True)
def negotiate(game, env, slot, card, mask, rnd, threats, opts, ctx):
    """One hourglass of bargaining by the model of negotiation.model; True on an agreement, the
    split in game.alloc and the side payments still due in game.want."""
    model = env.rp[P_MODEL]
    if model == MODEL_OFFER:
        agreed = bargain(game, env, slot, card, mask, rnd, opts, ctx)
        for p in range(MAX_SEATS):
            game.want[p] = 0.0
        return agreed
    total = bundle(game, env, card, game.units)
    if model == MODEL_ALTERNATING:
        return alternating(game, env, slot, mask, rnd, threats, total, opts, ctx)
    return nash(game, env, slot, mask, rnd, threats, total, opts, ctx)


@njit(cache=True)
def agree(game, env, mask, targets):
    """The families agree on these worths: the card's units and side payments make them up."""
    worths = game.settle_worths
    for item in range(N_ITEMS):
        worths[item] = item_worth(env, item)
    allocate(game, env, mask, game.units, worths, targets, game.want)
    for p in range(game.g[N_PLAYERS]):
        if (mask >> p) & 1:
            game.pl[p, C_AGREEMENTS] += 1


@njit(cache=True)
def state_claims(game, env, slot, mask, rnd, threats, total, opts, ctx, claims):
    """AG-N1: each family in turn order states its shoot-out value, true or raised by a bluff (a
    claim level, BLUFF_LEVELS of the card's worth), into claims[p]; returns the families that
    bluffed (a bit per seat)."""
    g = game.g
    bluffed = 0
    for i in range(g[N_PLAYERS]):
        p = g[ORDER0 + i]
        if not (mask >> p) & 1:
            continue
        n = 0
        for level in range(len(BLUFF_LEVELS)):
            n = put(opts, n, OP_LEVEL, level)
        ctx[CTX_DECISION] = D_CLAIM
        ctx[CTX_SLOT] = slot
        ctx[CTX_ROUND] = rnd
        ctx[CTX_THREAT] = int(1000.0 * threats[p])
        ctx[CTX_TOTAL] = int(1000.0 * total)
        level = opts[ask(game, env, p, opts, n, ctx), 1]
        claims[p] = threats[p] + BLUFF_LEVELS[level] * total
        if level > 0:
            bluffed |= 1 << p
        game.pl[p, C_OFFERS_MADE] += 1
        log(g, game.events, EV_OFFER, p, slot, level, rnd)
    return bluffed


@njit(cache=True)
def claims_fail(game, mask, total, claims, bluffed):
    """Claims that add up to more than the card leave nothing to agree on (a shoot-out follows,
    AG-N2): the bluffers are counted as refusing."""
    claimed = 0.0
    for p in range(game.g[N_PLAYERS]):
        if (mask >> p) & 1:
            claimed += claims[p]
    if claimed <= total + 1e-9:
        return False
    for p in range(game.g[N_PLAYERS]):
        if (bluffed >> p) & 1:
            game.pl[p, C_OFFERS_REFUSED] += 1
    return True


@njit(cache=True)
def nash(game, env, slot, mask, rnd, threats, total, opts, ctx):
    """AG-N1, Nash model: the families state their claims (state_claims); when the claims leave a
    surplus the split is the Nash bargaining solution over them (claims plus equal parts of the
    surplus), else no agreement: a shoot-out (AG-N2)."""
    claims, targets = game.settle_f[SF_CLAIMS], game.settle_f[SF_TARGETS]
    claims[:], targets[:] = 0.0, 0.0
    bluffed = state_claims(game, env, slot, mask, rnd, threats, total, opts, ctx, claims)
    if claims_fail(game, mask, total, claims, bluffed):
        return False
    nash_targets(game, mask, total, claims, targets)
    agree(game, env, mask, targets)
    return True


@njit(cache=True)
def alternating(game, env, slot, mask, rnd, threats, total, opts, ctx):
    """AG-N1, alternating offers within the hourglass: the families first state their claims as
    in the Nash model (state_claims: claims that leave no surplus are a shoot-out at once); then
    negotiation.rounds offers, proposers in turn order from the godfather, over the stated claims
    as disagreement points; the proposer shades the equilibrium offers (sim.ag.bargain.
    alternating_values) by a greed level; one refusal passes to the next offer; after the last,
    no agreement (AG-N2)."""
    g = game.g
    claims = np.zeros(MAX_SEATS)
    bluffed = state_claims(game, env, slot, mask, rnd, threats, total, opts, ctx, claims)
    if claims_fail(game, mask, total, claims, bluffed):
        return False
    threats = claims   # the offers answer the stated values
    rounds = env.rp[P_ROUNDS]
    values = np.zeros((rounds + 1, MAX_SEATS))
    alternating_values(game, mask, total, threats, env.rp[P_PATIENCE] / 1000.0, rounds, values)
    offers = np.zeros(MAX_SEATS)
    for k in range(rounds):
        proposer = proposer_of(game, mask, k)
        n = 0
        for level in range(N_LEVELS):
            n = put(opts, n, OP_LEVEL, level)
        ctx[CTX_DECISION] = D_OFFER
        ctx[CTX_SLOT] = slot
        ctx[CTX_ROUND] = rnd
        greed = opts[ask(game, env, proposer, opts, n, ctx), 1] / (N_LEVELS - 1.0)
        given = 0.0
        for p in range(g[N_PLAYERS]):
            offers[p] = 0.0
            if (mask >> p) & 1 and p != proposer:
                offers[p] = threats[p] + (1.0 - greed) * (values[k, p] - threats[p])
                given += offers[p]
        offers[proposer] = total - given
        game.pl[proposer, C_OFFERS_MADE] += 1
        log(g, game.events, EV_OFFER, proposer, slot, int(greed * (N_LEVELS - 1) + 0.5), rnd)
        accepted = True
        for i in range(g[N_PLAYERS]):
            p = g[ORDER0 + i]
            if p == proposer or not (mask >> p) & 1:
                continue
            n = put(opts, 0, OP_YES)
            n = put(opts, n, OP_NO)
            ctx[CTX_DECISION] = D_ACCEPT
            ctx[CTX_SLOT] = slot
            ctx[CTX_PROPOSER] = proposer
            ctx[CTX_OFFER] = int(1000.0 * offers[p])
            ctx[CTX_FAIR] = int(1000.0 * values[k, p])
            ctx[CTX_NEXT] = int(1000.0 * values[k + 1, p])
            ctx[CTX_THREAT] = int(1000.0 * threats[p])
            ctx[CTX_TOTAL] = int(1000.0 * total)
            yes = opts[ask(game, env, p, opts, n, ctx), 0] == OP_YES
            log(g, game.events, EV_ANSWER, p, 1 if yes else 0)
            if not yes:
                game.pl[p, C_OFFERS_REFUSED] += 1
                accepted = False
                break
        if accepted:
            agree(game, env, mask, offers)
            return True
    return False
