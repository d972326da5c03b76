"""Resource cards (rulebook: the resources and their use): drawing, the hand limit, the reshuffle
that brings a police car, which card plays in which window, the Informer's cancel, and the
opponents' reactions.

Rule ids: NYK-C5, NYK-M8, NYK-P1, NYK-T2.
"""

import numpy as np
from numba import njit

from sim.nyk.chapters.base import ONE, OPTS2_CTX, OPTS_CTX, ask, bank_pays, log, put, shuffle
from sim.nyk.decisions import (
    CTX_DECISION, CTX_MINE, CTX_OPPONENT, CTX_WINDOW, D_DISCARD, D_REACT, OP_CARD, OP_END, OP_PLAY, WIN_CARD_PLAYED,
    WIN_FUSILLADE, WIN_INTERROGATED, WIN_INTIMIDATION, WIN_LOSING, WIN_TURN_START, WIN_WON_FIGHT,
)
from sim.nyk.env import RP_R_KIND, RP_R_PARAMS, RP_R_TIMING, RP_R_WINDOW, RP_STATION, RP_WIN_KINDS
from sim.nyk.events import EV_CANCELLED, EV_CARD, EV_DISCARD, EV_POLICE_BACK, EV_RESHUFFLE
from sim.nyk.state import (
    ACTIVE, ALIVE, CREDIT0, CR_BLOCK, CR_CANCEL, CR_SAVE, C_CARDS_DISCARDED, C_CARDS_DRAWN, C_CARDS_PLAYED,
    C_CARD_INCOME, C_DRAWN_BY_KIND, C_MISSION_INCOME, C_PLAYED_BY_KIND, HAND0, HAND_KINDS, HAND_N, HENCHMEN_MASK,
    NO, N_PLAYERS, N_POLICE, PC_OFF, POLICE0, POLICE_CHECK, ROSTER, R_DECK0, R_DECK_N, R_DISC0, R_DISC_N, SUIT,
    S_RESOURCES, TURN, WHERE, W_CONTROLLED, lowest_bit, police_at,
)
from sim.nyk.compiled import (
    E_BANK_INCOME, E_BLOCK_INTERROGATION, E_CANCEL_ELIMINATION, E_DRAW_CARDS, E_MISSION_BONUS, E_POLICE_REMOVE,
    MAX_PARAMS, P_HAND_LIMIT,
    P_POLICE_CARS_PER_RESHUFFLE, P_POLICE_MAX_CARS, P_RESHUFFLE, RESHUFFLE_EMPTY, T_OPPONENT, T_OTHER, T_OWN,
)


# NYK-C5: a black-icon card plays in a common phase or in these fight windows
FIGHT_WINDOWS = sum(1 << w for w in (WIN_INTIMIDATION, WIN_FUSILLADE, WIN_LOSING, WIN_WON_FIGHT))

# windows where one card that takes effect settles the matter (an interrogation blocked, a
# character saved): no second card is offered
SETTLED_BY_ONE = (1 << WIN_INTERROGATED) | (1 << WIN_LOSING)

CANCELLED = -3  # offer_card: the card was played and an opponent's card cancelled it


@njit(cache=True)
def card_param(env, card, i):
    """Parameter i of a resource card, in the order of its effect's (sim.rules.nyk.content.EFFECTS)."""
    return env.rp[RP_R_PARAMS + MAX_PARAMS * card + i]


@njit(cache=True)
def grant_uses(game, p, credit, count):
    """NYK-C5: a card of `count` uses (Alibi, Bullet Proof, Informer) took effect once; the other
    count - 1 apply to the next such events of this turn, without a card."""
    game.pl[p, CREDIT0 + credit] = 8 * (game.g[TURN] + 1) + count - 1


@njit(cache=True)
def use_credit(game, p, credit):
    """Whether a use granted this turn (`grant_uses`) is left for p; it is spent if so."""
    v = game.pl[p, CREDIT0 + credit]
    if v // 8 != game.g[TURN] + 1 or v % 8 == 0:
        return False
    game.pl[p, CREDIT0 + credit] = v - 1
    return True


@njit(cache=True)
def add_police_car(game, env):
    """NYK-P1: one more police car at BROADWAY, up to the cars in the box; False when every car
    allowed is in play. Whether it finds an at-risk crew there is checked by the phase that drew
    the card (`police_check`)."""
    cap = min(env.rp[P_POLICE_MAX_CARS], N_POLICE)
    in_play = 0
    for k in range(N_POLICE):
        if game.g[POLICE0 + k] != PC_OFF:
            in_play += 1
    for k in range(N_POLICE):
        if game.g[POLICE0 + k] == PC_OFF and in_play < cap:
            game.g[POLICE0 + k] = env.rp[RP_STATION]
            game.g[POLICE_CHECK] = 1
            return True
    return False


@njit(cache=True)
def reshuffle_resources(game, env):
    """NYK-T2: the discard becomes the new pile, and one more police car comes (NYK-P1) while
    the cap leaves room; the log says how many came."""
    n = game.g[R_DISC_N]
    if n == 0:
        return
    for i in range(n):
        game.g[R_DECK0 + i] = game.g[R_DISC0 + i]
    game.g[R_DECK_N] = n
    game.g[R_DISC_N] = 0
    shuffle(game, R_DECK0, n, S_RESOURCES)
    added = 0
    for _ in range(env.rp[P_POLICE_CARS_PER_RESHUFFLE]):
        added += add_police_car(game, env)
    log(game, EV_RESHUFFLE, n, added)


@njit(cache=True)
def draw_card(game, env, p):
    """Draw one resource. Ruling `resources.reshuffle`: the pile is rebuilt as soon as it is
    empty (or only at the next draw); an empty pile with an empty discard draws nothing."""
    if game.g[R_DECK_N] == 0:
        reshuffle_resources(game, env)
        if game.g[R_DECK_N] == 0:
            return False
    game.g[R_DECK_N] -= 1
    card = game.g[R_DECK0 + game.g[R_DECK_N]]
    game.pl[p, HAND0 + game.pl[p, HAND_N]] = card
    game.pl[p, HAND_N] += 1
    game.pl[p, HAND_KINDS] |= ONE << env.rp[RP_R_KIND + card]
    game.pl[p, C_CARDS_DRAWN] += 1
    game.pl[p, C_DRAWN_BY_KIND + env.rp[RP_R_KIND + card]] += 1
    if game.g[R_DECK_N] == 0 and env.rp[P_RESHUFFLE] == RESHUFFLE_EMPTY:
        reshuffle_resources(game, env)
    return True


@njit(cache=True)
def discard_card(game, env, p, card):
    n = game.pl[p, HAND_N]
    for i in range(n):
        if game.pl[p, HAND0 + i] == card:
            game.pl[p, HAND0 + i] = game.pl[p, HAND0 + n - 1]
            game.pl[p, HAND_N] = n - 1
            game.g[R_DISC0 + game.g[R_DISC_N]] = card
            game.g[R_DISC_N] += 1
            game.pl[p, HAND_KINDS] = kinds_in_hand(game, env, p)
            return


@njit(cache=True)
def kinds_in_hand(game, env, p):
    kinds = np.int64(0)
    for i in range(game.pl[p, HAND_N]):
        kinds |= ONE << env.rp[RP_R_KIND + game.pl[p, HAND0 + i]]
    return kinds


@njit(cache=True)
def draw_count(game, p):
    """NYK-T2/P7: the largest number of p's characters in one suit, the affranchi in every suit,
    characters in custody left out."""
    best = 0
    affranchi = 1 if (game.pl[p, ALIVE] and game.ch[p, WHERE] == W_CONTROLLED) else 0
    for suit in range(4):  # no array: this runs for every player every turn
        n = affranchi
        todo = game.pl[p, ROSTER] & HENCHMEN_MASK
        while todo:
            c = lowest_bit(todo)
            todo &= todo - 1
            n += game.ch[c, WHERE] == W_CONTROLLED and game.ch[c, SUIT] == suit
        best = max(best, n)
    return best


@njit(cache=True, inline="always")
def enforce_hand_limit(game, env, p):
    """A hand above the limit discards down to it; most often it is not above: tested where it
    is asked, with no call."""
    if game.pl[p, HAND_N] > env.rp[P_HAND_LIMIT]:
        discard_to_limit(game, env, p)


@njit(cache=True)
def discard_to_limit(game, env, p):
    opts = game.opts
    ctx = game.ctx
    limit = env.rp[P_HAND_LIMIT]
    while game.pl[p, HAND_N] > limit:
        n = 0
        for i in range(game.pl[p, HAND_N]):
            n = put(opts, n, OP_CARD, game.pl[p, HAND0 + i])
        ctx[CTX_DECISION] = D_DISCARD
        k = ask(game, env, p, n, OPTS_CTX)
        discard_card(game, env, p, opts[k, 1])
        game.pl[p, C_CARDS_DISCARDED] += 1
        log(game, EV_DISCARD, p, opts[k, 1])


@njit(cache=True)
def playable(game, env, p, card, window):
    """NYK-C5: a card plays only at the moment it states (its `window` in the content file), and
    when its icon allows: blue on its owner's turn, red on an opponent's, black in a common phase
    (no player's turn) or a fight."""
    if env.rp[RP_R_WINDOW + card] != window:
        return False
    timing = env.rp[RP_R_TIMING + card]
    active = game.g[ACTIVE]
    if timing == T_OWN:
        return active == p
    if timing == T_OPPONENT:
        return active != p and active != NO
    return timing == T_OTHER and (active == NO or (FIGHT_WINDOWS >> window) & 1 == 1)


@njit(cache=True, inline="always")
def holds_kind_for(game, env, p, window):
    """Whether p's hand holds a card of a kind played in `window`: most often not, tested where it
    is asked, with no call."""
    return env.rp[RP_WIN_KINDS + window] & game.pl[p, HAND_KINDS] != 0


@njit(cache=True, inline="always")
def has_card_for(game, env, p, window):
    """Whether p holds a card it may play in `window` now."""
    return holds_kind_for(game, env, p, window) and playable_in_hand(game, env, p, window)


@njit(cache=True)
def playable_in_hand(game, env, p, window):
    for i in range(game.pl[p, HAND_N]):
        if playable(game, env, p, game.pl[p, HAND0 + i], window):
            return True
    return False


@njit(cache=True)
def cancelled_by_informer(game, env, p, card):
    """NYK-C5: the others, in turn, may answer a card just played for its event with a card of
    the `card_played` window (cancel_card, e.g. Informer); one played this turn with uses left
    cancels it without a card. The answering card is not answered in turn (the deck holds one)."""
    opts = game.opts
    ctx = game.ctx
    n_players = game.g[N_PLAYERS]
    for i in range(1, n_players):
        q = (p + i) % n_players
        if game.pl[q, ALIVE] and use_credit(game, q, CR_CANCEL):
            log(game, EV_CANCELLED, q, NO, p, card)
            return True
    for i in range(1, n_players):
        q = (p + i) % n_players
        if not game.pl[q, ALIVE] or not has_card_for(game, env, q, WIN_CARD_PLAYED):
            continue
        ctx[CTX_WINDOW] = WIN_CARD_PLAYED
        ctx[CTX_OPPONENT] = p
        ctx[CTX_MINE] = env.rp[RP_R_KIND + card]
        n = put(opts, 0, OP_END)
        for j in range(game.pl[q, HAND_N]):
            answer = game.pl[q, HAND0 + j]
            if playable(game, env, q, answer, WIN_CARD_PLAYED):
                n = put(opts, n, OP_PLAY, answer, env.rp[RP_R_KIND + answer])
        ctx[CTX_DECISION] = D_REACT
        k = ask(game, env, q, n, OPTS_CTX)
        if k > 0:
            answer = opts[k, 1]
            discard_card(game, env, q, answer)
            game.pl[q, C_CARDS_PLAYED] += 1
            game.pl[q, C_PLAYED_BY_KIND + env.rp[RP_R_KIND + answer]] += 1
            log(game, EV_CANCELLED, q, answer, p, card)
            grant_uses(game, q, CR_CANCEL, card_param(env, answer, 0))
            return True
    return False


@njit(cache=True)
def spend_event(game, env, p, card):
    """Discard a card played for its event; False if an opponent cancelled it."""
    discard_card(game, env, p, card)
    game.pl[p, C_CARDS_PLAYED] += 1
    game.pl[p, C_PLAYED_BY_KIND + env.rp[RP_R_KIND + card]] += 1
    log(game, EV_CARD, p, card, env.rp[RP_R_KIND + card])
    return not cancelled_by_informer(game, env, p, card)


@njit(cache=True)
def offer_card(game, env, p, window):
    """NYK-C5: offer p one more card for `window` (or none). Returns the card played, CANCELLED
    when an opponent's card cancelled it, or NO when p plays none. Called in a loop: a player
    may play as many cards as it wishes, one after another, each answerable."""
    opts = game.opts
    ctx = game.ctx
    if env.rp[RP_WIN_KINDS + window] & game.pl[p, HAND_KINDS] == 0:
        return NO
    n = put(opts, 0, OP_END)
    for i in range(game.pl[p, HAND_N]):
        card = game.pl[p, HAND0 + i]
        if playable(game, env, p, card, window):
            n = put(opts, n, OP_PLAY, card, env.rp[RP_R_KIND + card])
    if n == 1:
        return NO
    ctx[CTX_WINDOW] = window
    ctx[CTX_DECISION] = D_REACT
    k = ask(game, env, p, n, OPTS_CTX)
    if k == 0:
        return NO
    card = opts[k, 1]
    if not spend_event(game, env, p, card):
        return CANCELLED
    return card


@njit(cache=True, inline="always")
def react(game, env, p, window, subject):
    """NYK-C5: p plays cards for `window` one after another (resources phase, a mission just
    accomplished, an opponent's turn start, an interrogation, a loss) and each takes effect
    unless cancelled. Returns how many took effect; an interrogation blocked or a character saved
    needs one. A hand with no card of the window's kinds plays none (`offer_card` would offer
    none): tested where it is asked, with no call."""
    if not holds_kind_for(game, env, p, window):
        return 0
    return play_cards(game, env, p, window, subject)


@njit(cache=True)
def play_cards(game, env, p, window, subject):
    done = 0
    while True:
        if window == WIN_TURN_START and police_at(game, subject) == 0:
            return done
        card = offer_card(game, env, p, window)
        if card == NO:
            return done
        if card == CANCELLED:
            continue
        done += 1
        kind = env.rp[RP_R_KIND + card]
        amount = card_param(env, card, 0)
        if kind == E_BANK_INCOME:
            game.pl[p, C_CARD_INCOME] += bank_pays(game, env, p, amount)
        elif kind == E_DRAW_CARDS:
            for _ in range(amount):
                draw_card(game, env, p)
            enforce_hand_limit(game, env, p)
        elif kind == E_MISSION_BONUS:
            paid = bank_pays(game, env, p, amount)
            game.pl[p, C_CARD_INCOME] += paid
            game.pl[p, C_MISSION_INCOME] += paid
        elif kind == E_POLICE_REMOVE:
            for _ in range(amount):
                remove_one_car(game, env, subject)
        elif kind == E_BLOCK_INTERROGATION:
            grant_uses(game, p, CR_BLOCK, amount)
        elif kind == E_CANCEL_ELIMINATION:
            grant_uses(game, p, CR_SAVE, amount)
        if (SETTLED_BY_ONE >> window) & 1:
            return done


@njit(cache=True)
def remove_one_car(game, env, d):
    """A police car on district d goes back to BROADWAY (Payoff); the phase that played the card
    checks BROADWAY for at-risk crews (`police_check`)."""
    for k in range(N_POLICE):
        if game.g[POLICE0 + k] == d and d != env.rp[RP_STATION]:
            game.g[POLICE0 + k] = env.rp[RP_STATION]
            game.g[POLICE_CHECK] = 1  # NYK-P4: it arrives at BROADWAY like any car (`police_check`)
            log(game, EV_POLICE_BACK, k, d)
            return


@njit(cache=True)
def pay_with_card(game, env, p):
    """NYK-M8: the card p discards for a bonus move, any card of its hand."""
    ctx = game.ctx
    opts = game.opts2
    n = 0
    for i in range(game.pl[p, HAND_N]):
        n = put(opts, n, OP_CARD, game.pl[p, HAND0 + i])
    ctx[CTX_DECISION] = D_DISCARD
    return opts[ask(game, env, p, n, OPTS2_CTX), 1]
