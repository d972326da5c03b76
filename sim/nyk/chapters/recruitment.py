"""Recruitment (rulebook: recruiting henchmen): the peripheral henchmen, the offers and their
dice, a henchman joining or being parted with.

Rule ids: NYK-A6, NYK-A7, NYK-A8, NYK-P7.
"""

from numba import njit

from sim.nyk.chapters.base import OPTS_CTX, ask, die, log, pay_into, put, shuffle
from sim.nyk.chapters.cards import card_param, spend_event
from sim.nyk.decisions import (
    ANY_OFFER, CTX_DECISION, CTX_MINE, CTX_THEIRS, D_HESITATE, D_OFFER, OP_NO, OP_PART, OP_RECRUIT, OP_YES,
)
from sim.nyk.env import RP_PERIPH
from sim.nyk.events import EV_PART, EV_RECRUIT, EV_RECRUIT_RESULT
from sim.nyk.state import (
    ACTED, BANK, CELL, C_DONE_BY_VALUE, C_OFFERED_BY_VALUE, C_PARTED, C_RECRUITS_DONE, C_RECRUITS_HESITATED,
    C_RECRUITS_TRIED, C_RECRUIT_SPENT, C_TRIED_BY_VALUE, HENCHMEN_MASK, H_DECK0, H_DECK_N, H_DISC0, H_DISC_N, LOC,
    MISSION, MONEY, MOVED, NO, PERIPH0, RECRUITED, ROSTER, START, S_DICE0, S_HENCHMEN, VALUE,
    WHERE, W_CONTROLLED, W_CUSTODY, W_DECK, W_DISCARD, W_PERIPHERAL, count_henchmen, lowest_bit, place,
    set_owner,
)
from sim.nyk.view import recruit_targets
from sim.nyk.compiled import (
    P_ACT_ON_JOINING, P_HENCHMEN_MAX, P_RECRUIT_FROM_CUSTODY, P_RECRUIT_HESITATION_EXTRA,
    P_RECRUIT_MAX_OFFER, P_RECRUIT_MIN_OFFER, P_RECRUIT_OFFER_STEP, P_RECRUIT_PER_TURN,
)


@njit(cache=True)
def refill_peripheral(game, env, slot):
    """NYK-A6: a henchman card replaces a recruited one at once; reshuffle the discard if needed."""
    if game.g[H_DECK_N] == 0 and game.g[H_DISC_N] > 0:
        for i in range(game.g[H_DISC_N]):
            game.g[H_DECK0 + i] = game.g[H_DISC0 + i]
            game.ch[game.g[H_DISC0 + i], WHERE] = W_DECK
        game.g[H_DECK_N] = game.g[H_DISC_N]
        game.g[H_DISC_N] = 0
        shuffle(game, H_DECK0, game.g[H_DECK_N], S_HENCHMEN)
    if game.g[H_DECK_N] == 0:
        game.g[PERIPH0 + slot] = NO  # no henchmen left in New York tonight
        return
    game.g[H_DECK_N] -= 1
    c = game.g[H_DECK0 + game.g[H_DECK_N]]
    game.g[PERIPH0 + slot] = c
    place(game, c, W_PERIPHERAL, env.rp[RP_PERIPH + slot])


@njit(cache=True)
def discard_henchman_card(game, c):
    set_owner(game, c, NO)
    place(game, c, W_DISCARD, NO)
    game.ch[c, CELL] = 0
    game.g[H_DISC0 + game.g[H_DISC_N]] = c
    game.g[H_DISC_N] += 1


@njit(cache=True)
def list_partings(game, p, n):
    """NYK-A7: p may part with a henchman at any moment of its turn (offered with every move
    and every action), unless it is in custody or holds a mission."""
    opts = game.opts
    todo = game.pl[p, ROSTER] & HENCHMEN_MASK
    while todo:
        c = lowest_bit(todo)
        todo &= todo - 1
        if game.ch[c, WHERE] == W_CONTROLLED and game.ch[c, MISSION] == NO:
            n = put(opts, n, OP_PART, c)
    return n


@njit(cache=True)
def part_with(game, p, c):
    """NYK-A7: a henchman card is discarded, freeing a stand."""
    discard_henchman_card(game, c)
    game.pl[p, C_PARTED] += 1
    log(game, EV_PART, p, c)


@njit(cache=True, inline="always")  # inlined into `list_recruits`, itself inlined where it is asked
def may_recruit_now(game, env, p):
    """NYK-A6/A8: the turn's one recruitment (`recruit.per_turn`), whether by the affranchi's
    action or by a card that recruits or takes a henchman; the affranchi on the board or, by the
    ruling `recruit.from_custody` (NYK-P7: no other limitation), in custody; a free stand (A7)."""
    where = game.ch[p, WHERE]
    if where != W_CONTROLLED and not (where == W_CUSTODY and env.rp[P_RECRUIT_FROM_CUSTODY]):
        return False
    return (game.pl[p, RECRUITED] < env.rp[P_RECRUIT_PER_TURN]
            and count_henchmen(game, p) < env.rp[P_HENCHMEN_MAX])


@njit(cache=True, inline="always")
def list_recruits(game, env, p, n):
    """The turn's recruit attempts, if p may recruit now (most often not: tested where it is
    asked, with no call)."""
    if not may_recruit_now(game, env, p):
        return n
    return list_recruit_targets(game, env, p, n)


@njit(cache=True)
def list_recruit_targets(game, env, p, n):
    targets = recruit_targets(game, env, p) & HENCHMEN_MASK
    while targets:  # the targets' bits in rising order, not every henchman's
        h = lowest_bit(targets)
        targets &= targets - 1
        n = list_offers(game, env, p, h, NO, n)
    return n


@njit(cache=True)
def list_offers(game, env, p, h, card, n):
    """A recruit attempt on h, if p can make the smallest offer; the offer is chosen next."""
    opts = game.opts
    lo = env.rp[P_RECRUIT_MIN_OFFER]
    if lo <= env.rp[P_RECRUIT_MAX_OFFER] and lo <= game.pl[p, MONEY]:
        n = put(opts, n, OP_RECRUIT, h, ANY_OFFER, card)
    return n


@njit(cache=True)
def choose_offer(game, env, p, h, card):
    """NYK-A6: p offers from `recruit.min_offer` to `max_offer` by `offer_step`, up to its money."""
    opts = game.opts
    ctx = game.ctx
    lo, hi, step = env.rp[P_RECRUIT_MIN_OFFER], env.rp[P_RECRUIT_MAX_OFFER], env.rp[P_RECRUIT_OFFER_STEP]
    n = 0
    offer = lo
    while offer <= hi and offer <= game.pl[p, MONEY]:
        n = put(opts, n, OP_RECRUIT, h, offer, card)
        offer += step
    ctx[CTX_DECISION] = D_OFFER
    return opts[ask(game, env, p, n, OPTS_CTX), 2]


@njit(cache=True)
def recruit(game, env, p, h, offer, card):
    """NYK-A6: one die per $1,000 offered; a die above the value recruits, else a die equal makes
    it hesitate (pay $1,000 more or give up), else refusal. The attempt is the turn's recruit."""
    opts = game.opts
    ctx = game.ctx
    if offer == ANY_OFFER:
        offer = choose_offer(game, env, p, h, card)
    game.pl[p, RECRUITED] += 1
    game.pl[p, C_RECRUITS_TRIED] += 1
    bonus = 0
    if card != NO:  # NYK-A8: a card that recruits is the turn's recruit action
        if not spend_event(game, env, p, card):
            return
        bonus = card_param(env, card, 0)
        offer = max(offer - card_param(env, card, 1), 0)
    value = game.ch[h, VALUE]
    game.pl[p, C_TRIED_BY_VALUE + value] += 1
    game.pl[p, C_OFFERED_BY_VALUE + value] += offer
    best = -1
    for _ in range(offer // env.rp[P_RECRUIT_OFFER_STEP] + bonus):
        best = max(best, die(game, S_DICE0 + p))
    log(game, EV_RECRUIT, p, h, offer, best)
    price = offer
    if best < value:
        log(game, EV_RECRUIT_RESULT, p, h, 0, 0)
        return
    if best == value:
        game.pl[p, C_RECRUITS_HESITATED] += 1
        price = offer + env.rp[P_RECRUIT_HESITATION_EXTRA]
        ctx[CTX_MINE], ctx[CTX_THEIRS] = h, price
        n = put(opts, 0, OP_NO)
        if game.pl[p, MONEY] >= price:
            n = put(opts, n, OP_YES)
        ctx[CTX_DECISION] = D_HESITATE
        if ask(game, env, p, n, OPTS_CTX) == 0:
            log(game, EV_RECRUIT_RESULT, p, h, 1, 0)
            return
    pay_into(game, p, price, BANK)
    game.pl[p, C_RECRUIT_SPENT] += price
    game.pl[p, C_RECRUITS_DONE] += 1
    game.pl[p, C_DONE_BY_VALUE + value] += 1
    take_henchman(game, env, p, h)
    log(game, EV_RECRUIT_RESULT, p, h, 2, price)


@njit(cache=True)
def take_henchman(game, env, p, h):
    """The henchman starts where it was recruited; a new card replaces it there at once."""
    d = game.ch[h, LOC]
    for slot in range(4):
        if game.g[PERIPH0 + slot] == h:
            d = env.rp[RP_PERIPH + slot]
            refill_peripheral(game, env, slot)
            break
    set_owner(game, h, p)
    place(game, h, W_CONTROLLED, d)
    game.ch[h, START] = d
    joins(game, env, h)


@njit(cache=True)
def joins(game, env, h):
    """A henchman recruited or taken this turn: it has no move left (it joins after the
    movements); by the ruling `henchmen.act_on_joining` it may act this turn or not."""
    game.ch[h, MOVED] = 1
    game.ch[h, ACTED] = 0 if env.rp[P_ACT_ON_JOINING] else 1
