"""Actions (rulebook: the actions phase): the crews' actions (missions, provocation,
recruitment, parting) and the action cards.

Rule ids: NYK-A0, NYK-A1, NYK-A2, NYK-A3, NYK-A8, NYK-C5.
"""

import numpy as np
from numba import njit

from sim.nyk.chapters.base import ONE, OPTS_CTX, ask, bank_pays, log, player_pays_player, put
from sim.nyk.chapters.cards import card_param, draw_card, enforce_hand_limit, holds_kind_for, playable, spend_event
from sim.nyk.chapters.fights import provoke
from sim.nyk.chapters.missions import accept, accomplish, holders
from sim.nyk.chapters.police import police_check
from sim.nyk.chapters.recruitment import (
    discard_henchman_card, joins, list_offers, list_partings, list_recruits, may_recruit_now, part_with, recruit,
)
from sim.nyk.decisions import (
    CTX_DECISION, D_ACTION, OP_ACCEPT, OP_ACCOMPLISH, OP_END, OP_PART, OP_PLAY, OP_PROVOKE, OP_RECRUIT, WIN_ACTIONS,
)
from sim.nyk.env import RP_R_KIND
from sim.nyk.events import EV_CARD_EFFECT
from sim.nyk.state import (
    ACTED, ALIVE, C_CARD_INCOME, FIRST, HAND0, HAND_N, LOC, MISSION, MONEY, M_ACCEPT, M_CREW, M_DEST,
    M_RISK, NO, N_AFFRANCHI, N_CHARS, N_PLAYERS, OWNER, PERIPH0, RECRUITED, ROSTER,
    ROW0, VALUE, WHERE, W_CONTROLLED, count_bits, group_at, lowest_bit, police_at, set_owner,
)
from sim.nyk.compiled import (
    E_BANK_INCOME, E_DISCARD_HENCHMAN, E_DRAW_CARDS, E_POACH_HENCHMAN, E_RECRUIT, E_STEAL_MONEY,
    P_MISSION_ROW,
)


@njit(cache=True)
def free_crew(game, p, d):
    """p's characters on d with their action unspent and no mission."""
    mask = group_at(game, p, d)
    todo = mask
    while todo:
        c = lowest_bit(todo)
        todo &= todo - 1
        if game.ch[c, ACTED] or game.ch[c, MISSION] != NO:
            mask &= ~(ONE << c)
    return mask


@njit(cache=True)
def missions_held(game, p):
    """The missions p holds (bits), found from its characters: a held mission keeps a holder
    (NYK-A2: one left with none ends), and a holder is neither parted with nor taken."""
    mask = np.int64(0)
    todo = game.pl[p, ROSTER]
    while todo:
        c = lowest_bit(todo)
        todo &= todo - 1
        if game.ch[c, MISSION] != NO:
            mask |= ONE << game.ch[c, MISSION]
    return mask


@njit(cache=True)
def spent_any(game, crew):
    """Whether a member of `crew` has spent its action this turn (NYK-A0)."""
    rest = crew
    while rest:
        c = lowest_bit(rest)
        rest &= rest - 1
        if game.ch[c, ACTED]:
            return True
    return False


@njit(cache=True)
def subsets_of_size(game, mask, k, n, op, a):
    """Every subset of `mask` with k members, as options (op, a, subset)."""
    opts = game.opts
    sub = mask
    while sub:
        if count_bits(sub) == k:
            n = put(opts, n, op, a, sub)
        sub = (sub - 1) & mask
    return n


@njit(cache=True)
def list_actions(game, env, p):
    opts = game.opts
    n = put(opts, 0, OP_END)
    # NYK-A1 accept: enough free characters on the ACCEPT address; not at risk under police (A3)
    for s in range(env.rp[P_MISSION_ROW]):
        m = game.g[ROW0 + s]
        if m == NO:
            continue
        d = game.ms[m, M_ACCEPT]
        free = free_crew(game, p, d)  # most often none: tested before the police
        if free == 0 or (game.ms[m, M_RISK] and police_at(game, d) > 0):
            continue
        n = subsets_of_size(game, free, game.ms[m, M_CREW], n, OP_ACCEPT, s)
    # NYK-A2 accomplish: the crew on the destination, a lost associate replaced by a free one
    held = missions_held(game, p)
    while held:
        m = lowest_bit(held)
        held &= held - 1
        d = game.ms[m, M_DEST]
        if game.ms[m, M_RISK] and police_at(game, d) > 0:
            continue
        crew = holders(game, m)
        present = crew & group_at(game, p, d)
        if present != crew or spent_any(game, crew):  # NYK-A0: one action per character
            continue
        need = game.ms[m, M_CREW] - count_bits(present)
        if need <= 0:
            n = put(opts, n, OP_ACCOMPLISH, m, present)
        else:
            free = free_crew(game, p, d)
            sub = free
            while sub:
                if count_bits(sub) == need:
                    n = put(opts, n, OP_ACCOMPLISH, m, present | sub)
                sub = (sub - 1) & free
    # NYK-A3/A4 provoke: an opponent's characters on a district where one of p's can still act
    todo = game.pl[p, ROSTER]
    while todo:
        c = lowest_bit(todo)
        todo &= todo - 1
        if game.ch[c, WHERE] != W_CONTROLLED or game.ch[c, ACTED]:
            continue
        d = game.ch[c, LOC]
        for q in range(game.g[N_PLAYERS]):
            if q != p and game.pl[q, ALIVE] and group_at(game, q, d):
                n = put(opts, n, OP_PROVOKE, d, q, c)
    n = list_recruits(game, env, p, n)
    n = list_action_cards(game, env, p, n)
    return list_partings(game, p, n)


@njit(cache=True)
def actions_phase(game, env, p):
    opts = game.opts
    ctx = game.ctx
    while game.pl[p, ALIVE]:
        n = list_actions(game, env, p)
        ctx[CTX_DECISION] = D_ACTION
        k = ask(game, env, p, n, OPTS_CTX)
        op, a, b, c = opts[k, 0], opts[k, 1], opts[k, 2], opts[k, 3]
        if op == OP_END:
            break
        if op == OP_ACCEPT:
            accept(game, env, p, a, b)
        elif op == OP_ACCOMPLISH:
            accomplish(game, env, p, a, b)
        elif op == OP_PROVOKE:
            provoke(game, env, p, a, b, c)
        elif op == OP_RECRUIT:
            recruit(game, env, p, a, b, c)
        elif op == OP_PLAY:
            action_card(game, env, p, a, b, c)
        elif op == OP_PART:
            part_with(game, p, a)


@njit(cache=True, inline="always")
def list_action_cards(game, env, p, n):
    """Cards of the actions window (NYK-C5). A hand with none of the window's kinds lists none:
    tested where it is asked, with no call."""
    if not holds_kind_for(game, env, p, WIN_ACTIONS):
        return n
    return list_action_cards_held(game, env, p, n)


@njit(cache=True)
def list_action_cards_held(game, env, p, n):
    opts = game.opts
    recruit_now = may_recruit_now(game, env, p)  # NYK-A8: a card that recruits is the recruit
    for i in range(game.pl[p, HAND_N]):
        card = game.pl[p, HAND0 + i]
        if not playable(game, env, p, card, WIN_ACTIONS):
            continue
        kind = env.rp[RP_R_KIND + card]
        if kind == E_STEAL_MONEY:
            for q in range(game.g[N_PLAYERS]):
                if q != p and game.pl[q, ALIVE] and shares_district(game, p, q):
                    n = put(opts, n, OP_PLAY, card, kind, q)
        elif kind == E_BANK_INCOME or kind == E_DRAW_CARDS:
            n = put(opts, n, OP_PLAY, card, kind, NO)
        elif kind == E_RECRUIT:
            if recruit_now:
                for slot in range(4):
                    if game.g[PERIPH0 + slot] != NO:
                        n = list_offers(game, env, p, game.g[PERIPH0 + slot], card, n)
        elif kind == E_POACH_HENCHMAN or kind == E_DISCARD_HENCHMAN:
            if kind == E_POACH_HENCHMAN and (not recruit_now
                                             or game.pl[p, MONEY] < card_param(env, card, 0)):
                continue
            top = card_param(env, card, 1 if kind == E_POACH_HENCHMAN else 0)  # max_rank
            for c in range(N_AFFRANCHI, N_CHARS):
                q = game.ch[c, OWNER]
                if (q != NO and q != p and game.ch[c, WHERE] == W_CONTROLLED
                        and game.ch[c, MISSION] == NO and game.ch[c, VALUE] <= top):
                    n = put(opts, n, OP_PLAY, card, kind, c)
    return n


@njit(cache=True)
def shares_district(game, p, q):
    todo = game.pl[p, ROSTER]
    while todo:
        c = lowest_bit(todo)
        todo &= todo - 1
        if game.ch[c, WHERE] == W_CONTROLLED:
            if group_at(game, q, game.ch[c, LOC]):
                return True
    return False


@njit(cache=True)
def action_card(game, env, p, card, kind, target):
    if kind == E_POACH_HENCHMAN:  # NYK-A8: played, even if cancelled, it is the turn's recruit
        game.pl[p, RECRUITED] += 1
    if not spend_event(game, env, p, card):
        return
    amount = card_param(env, card, 0)
    if kind == E_STEAL_MONEY:
        taken = player_pays_player(game, target, p, amount)
        game.pl[p, C_CARD_INCOME] += taken
        log(game, EV_CARD_EFFECT, p, kind, target, taken, target)
    elif kind == E_BANK_INCOME:
        game.pl[p, C_CARD_INCOME] += bank_pays(game, env, p, amount)
    elif kind == E_DRAW_CARDS:
        for _ in range(amount):
            draw_card(game, env, p)
        enforce_hand_limit(game, env, p)
        police_check(game, env, game.g[FIRST])
    elif kind == E_POACH_HENCHMAN:
        q = game.ch[target, OWNER]
        paid = player_pays_player(game, p, q, amount)
        log(game, EV_CARD_EFFECT, p, kind, target, paid, q)
        set_owner(game, target, p)
        joins(game, env, target)
    elif kind == E_DISCARD_HENCHMAN:
        log(game, EV_CARD_EFFECT, p, kind, target, 0, game.ch[target, OWNER])
        discard_henchman_card(game, target)
