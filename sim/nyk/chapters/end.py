"""The end of the game (rulebook: the winner): the final ranking and its tie-breaks.

Rule ids: NYK-E1.
"""

import numpy as np
from numba import njit

from sim.nyk.chapters.base import alive_players, log
from sim.nyk.events import EV_GAME_END, EV_RANK
from sim.nyk.state import (
    ALIVE, BY_FORTUNE, BY_HENCHMEN, BY_LAST_STANDING, BY_RANDOM, BY_SHARED, BY_VALUES, DECIDED_BY, HENCHMEN_MASK,
    MONEY, N_PLAYERS, RANK, ROSTER, S_FINAL, VALUE, WHERE, WINNER, W_CONTROLLED, W_CUSTODY, count_henchmen, lowest_bit,
)
from sim.rng import below_of
from sim.nyk.compiled import P_TIEBREAK_LAST, TIEBREAK_RANDOM


KEY_BASE = 32  # a field of the values' key per value: more than henchmen.max's bound (20), so 30 bits in all


@njit(cache=True)
def tiebreak_key(game, p, level):
    """Level 0: fortune; 1: number of henchmen; 2: henchmen values from the highest down."""
    if level == 0:
        return game.pl[p, MONEY]
    if level == 1:
        return count_henchmen(game, p)
    values = np.zeros(6, dtype=np.int64)
    todo = game.pl[p, ROSTER] & HENCHMEN_MASK
    while todo:
        c = lowest_bit(todo)
        todo &= todo - 1
        if (game.ch[c, WHERE] == W_CONTROLLED or game.ch[c, WHERE] == W_CUSTODY):
            values[game.ch[c, VALUE]] += 1
    key = np.int64(0)
    for r in range(5, -1, -1):  # how many of each value, the highest first: between equal numbers of
        key = key * KEY_BASE + values[r]  # henchmen (level 1 tied), the sorted values' lexicographic order
    return key


@njit(cache=True)
def beats(game, p, q):
    """The first tie-break level where p and q differ: +level+1 if p wins there, -(...) if q."""
    for level in range(3):
        a, b = tiebreak_key(game, p, level), tiebreak_key(game, q, level)
        if a != b:
            return level + 1 if a > b else -(level + 1)
    return 0


@njit(cache=True)
def final_ranking(game, env):
    """NYK-E1: largest fortune; ties by most henchmen, then their values; then the ruling's last
    tie-break (a random draw, recorded as such). Players out of the game rank last."""
    n_players = game.g[N_PLAYERS]
    order = np.arange(n_players)
    lots = np.zeros(n_players, dtype=np.int64)
    for p in range(n_players):
        lots[p] = below_of(game.rng, S_FINAL, 1 << 30)
    # insertion sort, best first: alive, then tie-break levels, then the lot
    for i in range(1, n_players):
        j = i
        while j > 0 and ranks_before(game, order[j], order[j - 1], lots):
            order[j], order[j - 1] = order[j - 1], order[j]
            j -= 1
    for i in range(n_players):
        game.pl[order[i], RANK] = i + 1
        log(game, EV_RANK, order[i], i + 1, game.pl[order[i], MONEY])
    winner = order[0]
    game.g[WINNER] = winner
    if alive_players(game) == 1:
        game.g[DECIDED_BY] = BY_LAST_STANDING
    elif n_players > 1:
        second = order[1]
        level = abs(beats(game, winner, second)) if game.pl[second, ALIVE] else 1
        if level == 0:
            shared = env.rp[P_TIEBREAK_LAST] != TIEBREAK_RANDOM
            game.g[DECIDED_BY] = BY_SHARED if shared else BY_RANDOM
            if shared:
                game.pl[second, RANK] = 1
        else:
            game.g[DECIDED_BY] = (BY_FORTUNE, BY_HENCHMEN, BY_VALUES)[level - 1]
    log(game, EV_GAME_END, winner, game.g[DECIDED_BY])


@njit(cache=True)
def ranks_before(game, p, q, lots):
    if game.pl[p, ALIVE] != game.pl[q, ALIVE]:
        return game.pl[p, ALIVE] > game.pl[q, ALIVE]
    b = beats(game, p, q)
    if b != 0:
        return b > 0
    return lots[p] > lots[q]
