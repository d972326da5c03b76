"""Missions (rulebook: missions and address tiles): the mission row, accepting with a crew,
accomplishing at the destination, missions lost, and the missions at the end of a turn.

Rule ids: NYK-A1, NYK-A2, NYK-T4, NYK-T5.
"""

import numpy as np
from numba import njit

from sim.nyk.chapters.base import ONE, bank_pays, log
from sim.nyk.chapters.cards import react
from sim.nyk.decisions import WIN_ACCOMPLISHED
from sim.nyk.events import EV_ACCEPT, EV_ACCOMPLISH, EV_END_CARD, EV_EXPIRE, EV_MISSION_LOST, EV_NO_TILE, EV_REVEAL
from sim.nyk.state import (
    ACTED, BAG0, BAG_N, C_ACCEPTED_1, C_ACCEPTED_2, C_ACCEPTED_RISKY, C_DONE_1, C_DONE_2, C_DONE_RISKY,
    C_MISSIONS_LOST, C_MISSION_INCOME, END_CARD, END_REVEALED, LAST_TURN, MISSION, MS_DONE, MS_HELD, MS_OUT, MS_ROW,
    M_ACCEPT, M_CREW, M_DECK0, M_DECK_POS, M_DEST, M_HOLDER, M_REWARD, M_RISK, M_SECRET, M_SLOT, M_STATE, NO, N_CHARS,
    N_MISSIONS, ROW0, S_BAG, TURN, lowest_bit,
)
from sim.rng import below_of
from sim.nyk.compiled import (
    CREW_ACTIONS_EACH, EMPTY_BAG_HOLD, P_CREW_ACTIONS, P_EMPTY_BAG, P_LAST_TURNS, P_MISSION_ROW,
)


@njit(cache=True)
def draw_tile(game):
    n = game.g[BAG_N]
    if n == 0:
        return NO
    i = below_of(game.rng, S_BAG, n)
    d = game.g[BAG0 + i]
    game.g[BAG0 + i] = game.g[BAG0 + n - 1]
    game.g[BAG_N] = n - 1
    return d


@njit(cache=True)
def return_tile(game, d):
    if d != NO:
        game.g[BAG0 + game.g[BAG_N]] = d
        game.g[BAG_N] += 1


@njit(cache=True)
def reveal_mission(game, env):
    """Put the next mission on space 1, shifting the others right (NYK-T4, A1 refill).

    Returns False once the end card has shown (NYK-T5: no more missions are revealed), or when
    no card could be put out. Ruling `missions.empty_bag`: a card whose address tiles cannot be
    drawn (the bag is empty) is discarded for the next one, or held on the deck.
    """
    row_n = env.rp[P_MISSION_ROW]
    while True:
        if game.g[END_REVEALED] or game.g[M_DECK_POS] > N_MISSIONS:
            return False
        m = game.g[M_DECK0 + game.g[M_DECK_POS]]
        game.g[M_DECK_POS] += 1
        if m == END_CARD:
            game.g[END_REVEALED] = 1
            game.g[LAST_TURN] = game.g[TURN] + env.rp[P_LAST_TURNS]
            game.ms[END_CARD, M_STATE] = MS_DONE
            log(game, EV_END_CARD, game.g[LAST_TURN])
            return False
        accept = draw_tile(game)
        dest = NO
        if accept != NO and not game.ms[m, M_SECRET]:
            dest = draw_tile(game)
            if dest == NO:
                return_tile(game, accept)
                accept = NO
        if accept == NO and env.rp[P_EMPTY_BAG] == EMPTY_BAG_HOLD:
            game.g[M_DECK_POS] -= 1  # ruling NYK-T4 "hold": it waits on the deck for its tiles
            return False
        if accept == NO:
            game.ms[m, M_STATE] = MS_OUT
            log(game, EV_NO_TILE, m)
            continue
        gap = 0  # the first empty space: the cards before it shift right by one
        while gap < row_n - 1 and game.g[ROW0 + gap] != NO:
            gap += 1
        for s in range(gap, 0, -1):
            game.g[ROW0 + s] = game.g[ROW0 + s - 1]
            game.ms[game.g[ROW0 + s], M_SLOT] = s
        game.g[ROW0 + 0] = m
        game.ms[m, M_STATE] = MS_ROW
        game.ms[m, M_SLOT] = 0
        game.ms[m, M_ACCEPT] = accept
        game.ms[m, M_DEST] = dest
        log(game, EV_REVEAL, m, accept, dest)
        return True


@njit(cache=True)
def take_from_row(game, env, slot):
    """Remove the mission at `slot` and close the gap toward space 1 (NYK-A1)."""
    m = game.g[ROW0 + slot]
    for s in range(slot, 0, -1):
        game.g[ROW0 + s] = game.g[ROW0 + s - 1]
        if game.g[ROW0 + s] != NO:
            game.ms[game.g[ROW0 + s], M_SLOT] = s
    game.g[ROW0 + 0] = NO
    game.ms[m, M_SLOT] = NO
    return m


@njit(cache=True)
def mission_out(game, m):
    """A mission leaves the game: its tiles go back to the bag."""
    return_tile(game, game.ms[m, M_ACCEPT])
    return_tile(game, game.ms[m, M_DEST])
    game.ms[m, M_ACCEPT] = NO
    game.ms[m, M_DEST] = NO
    game.ms[m, M_STATE] = MS_OUT
    game.ms[m, M_HOLDER] = NO


@njit(cache=True)
def holders(game, m):
    mask = np.int64(0)
    for c in range(N_CHARS):
        if game.ch[c, MISSION] == m:
            mask |= ONE << c
    return mask


@njit(cache=True)
def leave_mission(game, c):
    """Character c stops holding its mission (death, custody). A mission left with no holder
    ends (NYK-A2); a crew-2 mission keeps its survivor, who needs a new associate."""
    m = game.ch[c, MISSION]
    if m == NO:
        return
    game.ch[c, MISSION] = NO
    if holders(game, m) == 0:
        p = game.ms[m, M_HOLDER]
        mission_out(game, m)
        game.pl[p, C_MISSIONS_LOST] += 1
        log(game, EV_MISSION_LOST, p, m)


@njit(cache=True)
def end_of_turn_missions(game, env):
    """NYK-T4: the mission on the last space leaves the game; a new one comes on space 1."""
    last = env.rp[P_MISSION_ROW] - 1
    m = game.g[ROW0 + last]
    if m != NO:
        game.g[ROW0 + last] = NO
        game.ms[m, M_SLOT] = NO
        mission_out(game, m)
        log(game, EV_EXPIRE, m)
    if not reveal_mission(game, env):
        for s in range(last, 0, -1):  # no new card: the others still shift toward the end
            game.g[ROW0 + s] = game.g[ROW0 + s - 1]
            if game.g[ROW0 + s] != NO:
                game.ms[game.g[ROW0 + s], M_SLOT] = s
        game.g[ROW0 + 0] = NO


@njit(cache=True)
def spend_actions(game, env, crew):
    """Ruling NYK-A1: each crew member spends its action (or only one, by option)."""
    each = env.rp[P_CREW_ACTIONS] == CREW_ACTIONS_EACH
    rest = crew
    while rest:
        c = lowest_bit(rest)
        rest &= rest - 1
        game.ch[c, ACTED] = 1
        if not each:
            return


@njit(cache=True)
def accept(game, env, p, slot, crew):
    """NYK-A1: take the card; a "?" destination is drawn now, secretly; refill the row at once."""
    m = take_from_row(game, env, slot)
    game.ms[m, M_STATE] = MS_HELD
    game.ms[m, M_HOLDER] = p
    if game.ms[m, M_SECRET]:
        game.ms[m, M_DEST] = draw_tile(game)
        if game.ms[m, M_DEST] == NO:  # ruling: no tile left, the job falls through
            mission_out(game, m)
            reveal_mission(game, env)
            return
    rest = crew
    while rest:
        c = lowest_bit(rest)
        rest &= rest - 1
        game.ch[c, MISSION] = m
    spend_actions(game, env, crew)
    if game.ms[m, M_CREW] == 1:
        game.pl[p, C_ACCEPTED_1] += 1
    else:
        game.pl[p, C_ACCEPTED_2] += 1
    if game.ms[m, M_RISK]:
        game.pl[p, C_ACCEPTED_RISKY] += 1
    log(game, EV_ACCEPT, p, m, crew, game.ms[m, M_ACCEPT], game.ms[m, M_DEST])
    reveal_mission(game, env)


@njit(cache=True)
def accomplish(game, env, p, m, crew):
    """NYK-A2: reveal, discard, tiles back to the bag, the reward from the bank."""
    for c in range(N_CHARS):
        if game.ch[c, MISSION] == m:
            game.ch[c, MISSION] = NO
    spend_actions(game, env, crew)
    d = game.ms[m, M_DEST]
    mission_out(game, m)
    game.ms[m, M_STATE] = MS_DONE
    paid = bank_pays(game, env, p, game.ms[m, M_REWARD])
    game.pl[p, C_MISSION_INCOME] += paid
    if game.ms[m, M_CREW] == 1:
        game.pl[p, C_DONE_1] += 1
    else:
        game.pl[p, C_DONE_2] += 1
    if game.ms[m, M_RISK]:
        game.pl[p, C_DONE_RISKY] += 1
    log(game, EV_ACCOMPLISH, p, m, crew, d, paid)
    react(game, env, p, WIN_ACCOMPLISHED, m)  # e.g. Juicy Job, as many as p wishes
