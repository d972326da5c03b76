"""What one seat sees of a New York Kings game: the one reader of a seat's view.

A player knows the board (characters, police, the mission row, the henchmen waiting, custody),
its own hand, money and secret destinations, the number of cards in each hand, and what was done
in the open. It does not know the other hands, the order of any deck, the destinations the
others drew in secret (NYK-A1), nor, by the `view.fortunes` ruling, the others' fortunes
(NYK-S2: kept secret). Every policy reads hidden facts only through the readers here.

Public payments (`view.fortunes = "tracked"` counts them all): the bids are revealed (NYK-T1),
rewards and card income are taken from the bank, pots, folds, recruitment offers, fares and
card payments are paid in front of everyone. Under the default `hidden` ruling a player keeps
no such account: of a rival's fortune it knows the rewards that rival took for its missions.

`redeal` re-deals what `viewer` cannot see; the information-set test plays every preset with
`check = CHECK_VIEW` and counts the decisions a re-deal changes (`g[VIEW_MISMATCH]`).
"""

import numpy as np
from numba import njit

from sim.nyk.decisions import CTX_DECISION, D_BID
from sim.nyk.env import RP_PERIPH, RP_R_KIND
from sim.nyk.state import (
    ALIVE, BAG0, BAG_N, C_MISSION_INCOME, END_CARD, END_CARD_POS, H_DECK0, H_DECK_N, HAND0, HAND_KINDS, HAND_N,
    HENCHMEN_MASK, LOC, M_DECK0, M_DECK_POS, M_DEST, M_HOLDER, M_SECRET, M_STATE, MONEY, MS_HELD,
    N_MISSIONS, N_PLAYERS, N_STREAMS, NO, PERIPH0, R_DECK0, R_DECK_N, ROSTER, S_POLICY0, SUIT, VALUE, W_CONTROLLED,
    W_CUSTODY, WHERE, ZEROS, lowest_bit,
)
from sim.rng import splitmix64
from sim.nyk.compiled import FORTUNES_TRACKED, P_END_CARD_AMONG_LAST, P_VIEW_FORTUNES

CHECK_VIEW = 2  # play(..., check): invariants and the information-set check at every decision


@njit(cache=True)
def seen_dest(game, viewer, m):
    """Mission m's destination as `viewer` sees it: a secret one only by its holder (NYK-A1)."""
    if game.ms[m, M_SECRET] and game.ms[m, M_HOLDER] != viewer:
        return NO
    return game.ms[m, M_DEST]


@njit(cache=True)
def seen_standing(game, env, viewer, q):
    """How rich seat q looks to `viewer`, on one yardstick for every seat: fortunes when they
    are tracked; else (NYK-S2, fortunes secret) the rewards each seat took for its missions."""
    if env.rp[P_VIEW_FORTUNES] == FORTUNES_TRACKED:
        return game.pl[q, MONEY]
    return game.pl[q, C_MISSION_INCOME]


@njit(cache=True)
def recruit_targets(game, env, p):
    """Henchmen p's affranchi may try (NYK-A6): on its peripheral district, or known through the
    phone books of p's henchmen (same suit, one value above or below), in custody or not."""
    targets = np.int64(0)
    here = game.ch[p, LOC]
    for slot in range(4):
        h = game.g[PERIPH0 + slot]
        if h == NO:
            continue
        if env.rp[RP_PERIPH + slot] == here:
            targets |= np.int64(1) << np.int64(h)
            continue
        todo = game.pl[p, ROSTER] & HENCHMEN_MASK
        while todo:
            c = lowest_bit(todo)
            todo &= todo - 1
            if game.ch[c, WHERE] == W_CONTROLLED or game.ch[c, WHERE] == W_CUSTODY:
                if game.ch[c, SUIT] == game.ch[h, SUIT] and abs(game.ch[c, VALUE] - game.ch[h, VALUE]) == 1:
                    targets |= np.int64(1) << np.int64(h)
                    break
    return targets


# --- the re-deal of what a seat cannot see (the information-set check) --------------------------

@njit(cache=True)
def _next(state):
    """xorshift64*: the re-deal's own numbers (never the game's generator)."""
    x = state[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    state[0] = x
    return (x * np.uint64(2685821657736338717)) >> np.uint64(33)


@njit(cache=True)
def _below(state, n):
    return np.int64(_next(state) % np.uint64(n))


@njit(cache=True)
def _shuffle(state, values, n):
    for i in range(n - 1, 0, -1):
        j = _below(state, i + 1)
        values[i], values[j] = values[j], values[i]


@njit(cache=True)
def redeal(game, env, viewer, seed):
    """Re-deal, in place, everything `viewer` cannot see: the other hands with the resource
    pile (hand sizes kept), the henchman pile, the mission pile with the end card in its public
    window (`redeal_missions`), the others' secret destinations (swapped with tiles of the bag),
    when fortunes are hidden the others' money around what the viewer can guess of it
    (`redeal_fortunes`), and at its bid the others' face-down bids (`redeal_bids`). The decision
    pending is read from `game.ctx`."""
    state = np.array([np.uint64(seed) * np.uint64(0x9E3779B97F4A7C15) | np.uint64(1)])
    n_players = game.g[N_PLAYERS]
    pool = np.zeros(64, dtype=np.int64)
    k = 0
    for q in range(n_players):
        if q != viewer:
            for i in range(game.pl[q, HAND_N]):
                pool[k] = game.pl[q, HAND0 + i]
                k += 1
    for i in range(game.g[R_DECK_N]):
        pool[k] = game.g[R_DECK0 + i]
        k += 1
    _shuffle(state, pool, k)
    k = 0
    for q in range(n_players):
        if q != viewer:
            kinds = np.int64(0)
            for i in range(game.pl[q, HAND_N]):
                game.pl[q, HAND0 + i] = pool[k]
                kinds |= np.int64(1) << env.rp[RP_R_KIND + pool[k]]
                k += 1
            game.pl[q, HAND_KINDS] = kinds
    for i in range(game.g[R_DECK_N]):
        game.g[R_DECK0 + i] = pool[k]
        k += 1
    _shuffle(state, game.g[H_DECK0:], game.g[H_DECK_N])
    redeal_missions(game, env, state)
    for m in range(N_MISSIONS):
        if (game.ms[m, M_STATE] == MS_HELD and game.ms[m, M_SECRET] and game.ms[m, M_HOLDER] != viewer
                and game.ms[m, M_DEST] != NO and game.g[BAG_N] > 0):
            i = _below(state, game.g[BAG_N])
            game.ms[m, M_DEST], game.g[BAG0 + i] = game.g[BAG0 + i], game.ms[m, M_DEST]
    if env.rp[P_VIEW_FORTUNES] != FORTUNES_TRACKED:
        redeal_fortunes(game, viewer, state)
    redeal_bids(game, env, viewer, state)


@njit(cache=True)
def redeal_missions(game, env, state):
    """The mission cards still on the deck in a new order, the end card within what is public
    (NYK-S4/S5): setup put it uniformly among the last `missions.end_card_among_last` cards, so
    while it has not shown it lies uniformly among those of them still on the deck."""
    start = game.g[M_DECK_POS]
    if start > N_MISSIONS:
        return
    pool = np.zeros(N_MISSIONS + 1, dtype=np.int64)
    n, has_end = 0, False
    for i in range(start, N_MISSIONS + 1):
        m = game.g[M_DECK0 + i]
        if m == END_CARD:
            has_end = True
        else:
            pool[n] = m
            n += 1
    _shuffle(state, pool, n)
    end_at = NO
    if has_end:
        first = max(N_MISSIONS + 1 - min(env.rp[P_END_CARD_AMONG_LAST], N_MISSIONS + 1), start)
        end_at = first + _below(state, N_MISSIONS + 1 - first)
        game.g[END_CARD_POS] = end_at
    j = 0
    for i in range(start, N_MISSIONS + 1):
        if i == end_at:
            game.g[M_DECK0 + i] = END_CARD
        else:
            game.g[M_DECK0 + i] = pool[j]
            j += 1


@njit(cache=True)
def redeal_bids(game, env, viewer, state):
    """NYK-T1: the bills are put down face down and revealed together. At `viewer`'s own bid
    (ctx: D_BID, its bid not yet down) the bids the others already put down are unknown to it:
    each is drawn again among the bids that seat could make."""
    if game.ctx[CTX_DECISION] != D_BID or game.bids[viewer] != -1:
        return
    for q in range(game.g[N_PLAYERS]):
        if q == viewer or game.bids[q] < 0:
            continue
        n = 0
        for i in range(env.n_bids):
            if env.bids[i, 1] <= game.pl[q, ZEROS] and env.bids[i, 0] <= game.pl[q, MONEY]:
                n += 1
        pick = _below(state, n)
        for i in range(env.n_bids):
            if env.bids[i, 1] <= game.pl[q, ZEROS] and env.bids[i, 0] <= game.pl[q, MONEY]:
                if pick == 0:
                    game.bids[q] = env.bids[i, 0]
                    break
                pick -= 1


@njit(cache=True)
def reseed_hidden(game, seat, key):
    """Re-seed from `key` every stream of luck `seat` cannot predict (decks' reshuffles, dice,
    lots, the other seats' policy coins); its own policy coins it knows."""
    x = np.uint64(key) ^ np.uint64(0x5DEECE66D)
    for s in range(N_STREAMS):
        if s == S_POLICY0 + seat:
            continue
        zero = True
        for i in range(4):
            word, x = splitmix64(x)
            game.rng[s, i] = word
            zero = zero and word == 0
        if zero:
            game.rng[s, 0] = np.uint64(1)


@njit(cache=True)
def guessed_fortune(game, viewer, q):
    """What `viewer` can guess of seat q's hidden fortune (NYK-S2): its own money with its own
    mission rewards swapped for q's (the rewards are public; the rest of a fortune, card income
    and payments, is taken to have gone for q as it went for the viewer)."""
    own = game.pl[viewer, MONEY] - game.pl[viewer, C_MISSION_INCOME]
    return max(own + game.pl[q, C_MISSION_INCOME], 0)


@njit(cache=True)
def redeal_fortunes(game, viewer, state):
    """The others' hidden fortunes drawn around the viewer's guess: uniform within half of it
    either side (at least $5,000), in whole thousands. A draw centred on what the seat can
    estimate keeps a search's sampled worlds plausible; a flat draw makes most of them lost."""
    for q in range(game.g[N_PLAYERS]):
        if q != viewer and game.pl[q, ALIVE]:
            guess = guessed_fortune(game, viewer, q) // 1000
            spread = max(guess // 2, 5)
            game.pl[q, MONEY] = 1000 * max(guess - spread + _below(state, 2 * spread + 1), 0)
