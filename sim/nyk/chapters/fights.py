"""Fights (rulebook: provocation): intimidation, the folding rounds and the pot, re-rolls, the
fusillade, and the characters lost.

Rule ids: NYK-A4.
"""

import numpy as np
from numba import njit

from sim.nyk.fights import LOSE, WIN
from sim.nyk.hands import add_value, table_key
from sim.nyk.chapters.base import ONE, OPTS_CTX, ask, die, log, pay_into, put
from sim.nyk.chapters.cards import CANCELLED, card_param, offer_card, react, use_credit
from sim.nyk.chapters.police import choose_loss, crew_packed, eliminate, roll_n
from sim.nyk.decisions import (
    CTX_CREW, CTX_DECISION, CTX_DISTRICT, CTX_MINE, CTX_OPPONENT, CTX_OTHER_CREW, CTX_POT, CTX_STAGE, CTX_THEIRS,
    D_FOLD, OP_NO, OP_YES, WIN_FUSILLADE, WIN_INTIMIDATION, WIN_LOSING, WIN_WON_FIGHT,
)
from sim.nyk.events import EV_FOLD, EV_FUSILLADE, EV_PROVOKE, EV_STAGE
from sim.nyk.state import (
    ACTED, ALIVE, BANK, CR_SAVE, C_FAVOURITE, C_FAVOURITE_WON, C_FIGHTS_LOST, C_FIGHTS_TIED, C_FIGHTS_WON, C_FOLDS,
    C_FUSILLADES, C_POTS_LOST, C_POTS_WON, C_PROVOKED, C_PROVOKED_BY, C_RAISED, MONEY, NO, POT, S_DICE0,
    crew_code_of, group_at, lowest_bit,
)
from sim.nyk.compiled import (
    PROVOKE_ACTION_ONE, P_FOLD_PENALTY, P_FUSILLADE_RAISE, P_INTIMIDATION_DICE, P_PROVOCATION_ACTION,
    P_RAISE, P_STAKE, P_TIE_POT, TIE_POT_RETURN,
)


@njit(cache=True)
def provoke(game, env, p, d, q, spender):
    """NYK-A4: all characters of both camps on d fight; stakes, three stages, folds."""
    if env.rp[P_PROVOCATION_ACTION] == PROVOKE_ACTION_ONE:
        game.ch[spender, ACTED] = 1
    else:
        todo = group_at(game, p, d)
        while todo:
            c = lowest_bit(todo)
            todo &= todo - 1
            game.ch[c, ACTED] = 1
    game.pl[p, C_PROVOKED] += 1
    game.pl[q, C_PROVOKED_BY] += 1
    mine, theirs = group_at(game, p, d), group_at(game, q, d)
    crew_p, crew_q = crew_packed(game, mine), crew_packed(game, theirs)
    favourite = favourite_of(game, env, p, q, mine, theirs)
    log(game, EV_PROVOKE, p, q, d, mine, theirs)
    stake = env.rp[P_STAKE]
    put_p, put_q = pay_into(game, p, stake, POT), pay_into(game, q, stake, POT)
    dice_p = roll_n(game, S_DICE0 + p, np.int64(0), env.rp[P_INTIMIDATION_DICE])
    dice_q = roll_n(game, S_DICE0 + q, np.int64(0), env.rp[P_INTIMIDATION_DICE])
    dice_p = reroll_window(game, env, p, crew_p, dice_p)
    dice_q = reroll_window(game, env, q, crew_q, dice_q)
    for stage in range(1, 3):
        sp = env.table[table_key(crew_p + dice_p)]
        sq = env.table[table_key(crew_q + dice_q)]
        log(game, EV_STAGE, stage, sp, sq, game.g[POT])
        folder = fold_round(game, env, p, q, d, sp, sq, stage, crew_p + dice_p, crew_q + dice_q)
        if folder != NO:
            winner = q if folder == p else p
            pay_into(game, folder, env.rp[P_FOLD_PENALTY], POT)
            game.pl[folder, C_FOLDS] += 1
            settle_pot(game, winner, folder)
            log(game, EV_FOLD, folder, stage)
            return
        raise_ = env.rp[P_RAISE] if stage == 1 else env.rp[P_FUSILLADE_RAISE]
        counter = C_RAISED if stage == 1 else C_FUSILLADES  # the stage both sides went on to
        game.pl[p, counter] += 1
        game.pl[q, counter] += 1
        put_p += pay_into(game, p, raise_, POT)
        put_q += pay_into(game, q, raise_, POT)
        extra_p = fusillade_window(game, env, p) if stage == 2 else 0
        extra_q = fusillade_window(game, env, q) if stage == 2 else 0
        dice_p = roll_n(game, S_DICE0 + p, dice_p, 1 + extra_p)
        dice_q = roll_n(game, S_DICE0 + q, dice_q, 1 + extra_q)
    sp = env.table[table_key(crew_p + dice_p)]
    sq = env.table[table_key(crew_q + dice_q)]
    log(game, EV_FUSILLADE, p, q, sp, sq, game.g[POT])
    if favourite != NO:
        game.pl[favourite, C_FAVOURITE] += 1
    if sp != sq:
        winner, loser = (p, q) if sp > sq else (q, p)
        if winner == favourite:
            game.pl[winner, C_FAVOURITE_WON] += 1
        game.pl[winner, C_FIGHTS_WON] += 1
        game.pl[loser, C_FIGHTS_LOST] += 1
        settle_pot(game, winner, loser)
        lose_characters(game, env, loser, d, 1)
        press_the_win(game, env, winner, loser, d)
        return
    # a tie: each side loses a character of its choice; the pot is not shared (ruling: bank)
    game.pl[p, C_FIGHTS_TIED] += 1
    game.pl[q, C_FIGHTS_TIED] += 1
    if env.rp[P_TIE_POT] == TIE_POT_RETURN:
        game.pl[p, MONEY] += put_p
        game.pl[q, MONEY] += put_q
        game.g[POT] -= put_p + put_q
    game.g[BANK] += game.g[POT]
    game.g[POT] = 0
    lose_characters(game, env, p, d, 1)
    lose_characters(game, env, q, d, 1)


@njit(cache=True)
def press_the_win(game, env, winner, loser, d):
    """The won_fight window: each extra_elimination card (e.g. Fusillade), one after another,
    costs the beaten side more characters present, of its choice."""
    while game.pl[loser, ALIVE] and group_at(game, loser, d):
        card = offer_card(game, env, winner, WIN_WON_FIGHT)
        if card == NO:
            return
        if card != CANCELLED:
            lose_characters(game, env, loser, d, card_param(env, card, 0))


@njit(cache=True)
def favourite_of(game, env, p, q, mine, theirs):
    """The side with the better exact fusillade odds (sim.nyk.fights), or NO when even."""
    a, b = crew_code_of(game, mine), crew_code_of(game, theirs)
    win, lose = env.fight[a, b, WIN], env.fight[a, b, LOSE]
    return p if win > lose else (q if lose > win else NO)


@njit(cache=True)
def settle_pot(game, winner, loser):
    game.pl[winner, C_POTS_WON] += 1
    game.pl[loser, C_POTS_LOST] += 1
    game.pl[winner, MONEY] += game.g[POT]
    game.g[POT] = 0


@njit(cache=True)
def fold_round(game, env, p, q, d, sp, sq, stage, hand_p, hand_q):
    """The weaker hand may fold first (the provoked on equal strength), then the other; each is
    told the fight's district (what is at stake there: NYK-A5)."""
    opts = game.opts
    ctx = game.ctx
    first, second = (q, p) if sq <= sp else (p, q)
    for who in (first, second):
        other = q if who == p else p
        ctx[CTX_STAGE] = stage
        ctx[CTX_MINE] = sp if who == p else sq
        ctx[CTX_THEIRS] = sq if who == p else sp
        ctx[CTX_CREW] = hand_p if who == p else hand_q
        ctx[CTX_OTHER_CREW] = hand_q if who == p else hand_p
        ctx[CTX_OPPONENT] = other
        ctx[CTX_POT] = game.g[POT]
        ctx[CTX_DISTRICT] = d
        n = put(opts, 0, OP_NO)
        n = put(opts, n, OP_YES)
        ctx[CTX_DECISION] = D_FOLD
        if ask(game, env, who, n, OPTS_CTX) == 1:
            return who
    return NO


@njit(cache=True)
def reroll_window(game, env, p, crew, dice):
    """fight_reroll (e.g. Strike Face) at intimidation, card after card: roll again up to N dice,
    the owner re-rolling the dice that pair with nothing, lowest first."""
    ctx = game.ctx
    while game.pl[p, ALIVE]:
        ctx[CTX_CREW] = crew + dice
        ctx[CTX_OTHER_CREW] = dice
        card = offer_card(game, env, p, WIN_INTIMIDATION)
        if card == NO:
            break
        if card == CANCELLED:
            continue
        allowed = card_param(env, card, 0)
        hand = crew + dice
        for rank in range(6):
            count_dice = (dice >> (4 * rank)) & 15
            if (hand >> (4 * rank)) & 15 == 1 and count_dice == 1 and allowed > 0:
                dice -= ONE << (4 * rank)
                dice = add_value(dice, die(game, S_DICE0 + p))
                allowed -= 1
    return dice


@njit(cache=True)
def fusillade_window(game, env, p):
    """fight_bonus_die (e.g. Machine Gun), card after card: more dice at the fusillade, the best
    five count."""
    extra = 0
    while True:
        card = offer_card(game, env, p, WIN_FUSILLADE)
        if card == NO:
            return extra
        if card != CANCELLED:
            extra += card_param(env, card, 0)


@njit(cache=True)
def lose_characters(game, env, p, d, count):
    """The victim chooses whom it loses among its characters present; cancel_elimination
    (e.g. Bullet Proof) saves one, and at count N the next N - 1 of the turn too (NYK-C5)."""
    for _ in range(count):
        if not game.pl[p, ALIVE]:
            return
        group = group_at(game, p, d)
        if group == 0:
            return
        if use_credit(game, p, CR_SAVE) or react(game, env, p, WIN_LOSING, NO) > 0:  # e.g. Bullet Proof
            continue
        eliminate(game, env, choose_loss(game, env, p, group))
