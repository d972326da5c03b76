"""Invariants (check mode): what every legal state keeps (money, tiles, cards, characters,
police cars, limits); `engine.checkpoint` checks them after every phase.

Rule ids: NYK-A8.
"""

from numba import njit

from sim.nyk.chapters.cards import kinds_in_hand
from sim.nyk.env import RP_N_CARDS, RP_N_DISTRICTS, RP_N_TILES
from sim.nyk.state import (
    BAG_N, BANK, CELL, HAND_KINDS, HAND_N, H_DECK_N, H_DISC_N, LOC, MONEY, MONEY_TOTAL, MS_HELD, MS_ROW, M_ACCEPT,
    M_DEST, M_STATE, NO, N_AFFRANCHI, N_CHARS, N_HENCHMEN, N_MISSIONS, N_PLAYERS, N_POLICE, OWNER, PC_OFF, POLICE0,
    POT, RECRUITED, ROW0, R_DECK_N, R_DISC_N, WHERE, W_CONTROLLED, W_CUSTODY, W_DEAD, W_PERIPHERAL, count_henchmen,
    group_at, scanned_group_at,
)
from sim.nyk.compiled import (
    P_HAND_LIMIT, P_HENCHMEN_MAX, P_MISSION_ROW, P_POLICE_MAX_CARS, P_POLICE_START_CARS, P_RECRUIT_PER_TURN,
)


(INV_MONEY, INV_TILES, INV_HENCHMEN, INV_MISSIONS, INV_CARDS, INV_PLACE, INV_LIMIT, INV_HAND, INV_POLICE,
 INV_RECRUITS, INV_OCCUPANCY) = range(1, 12)

INVARIANTS = ("", "money not conserved", "address tiles lost", "henchman cards lost",
              "mission cards lost", "resource cards lost", "character in two places",
              "more than the henchman limit", "hand above the limit", "police cars lost",
              "more recruitments in a turn than allowed", "occupancy out of step with the characters")


@njit(cache=True)
def invariants(game, env):
    n_players = game.g[N_PLAYERS]
    money = game.g[BANK] + game.g[POT]
    for p in range(n_players):
        money += game.pl[p, MONEY]
    if money != game.g[MONEY_TOTAL]:
        return INV_MONEY
    tiles = game.g[BAG_N]
    for m in range(N_MISSIONS):
        if game.ms[m, M_STATE] == MS_ROW or game.ms[m, M_STATE] == MS_HELD:
            # int(): numpy adds two booleans as a logical or (plain Python), numba as integers
            tiles += int(game.ms[m, M_ACCEPT] != NO) + int(game.ms[m, M_DEST] != NO)
    if tiles != env.rp[RP_N_TILES]:
        return INV_TILES
    places = game.g[H_DECK_N] + game.g[H_DISC_N]
    for c in range(N_AFFRANCHI, N_CHARS):
        w = game.ch[c, WHERE]
        if w == W_PERIPHERAL or w == W_CONTROLLED or w == W_CUSTODY or w == W_DEAD:
            places += 1
    if places != N_HENCHMEN:
        return INV_HENCHMEN
    in_row = 0
    for s in range(env.rp[P_MISSION_ROW]):
        if game.g[ROW0 + s] != NO:
            in_row += 1
            if game.ms[game.g[ROW0 + s], M_STATE] != MS_ROW:
                return INV_MISSIONS
    listed = 0
    for m in range(N_MISSIONS):
        listed += game.ms[m, M_STATE] == MS_ROW
    if listed != in_row:
        return INV_MISSIONS
    cards = game.g[R_DECK_N] + game.g[R_DISC_N]
    for p in range(n_players):
        cards += game.pl[p, HAND_N]
        if game.pl[p, HAND_N] > env.rp[P_HAND_LIMIT]:
            return INV_HAND
        if game.pl[p, HAND_KINDS] != kinds_in_hand(game, env, p):
            return INV_CARDS
        if count_henchmen(game, p) > env.rp[P_HENCHMEN_MAX]:
            return INV_LIMIT
        if game.pl[p, RECRUITED] > env.rp[P_RECRUIT_PER_TURN]:  # NYK-A8: cards count
            return INV_RECRUITS
    if cards != env.rp[RP_N_CARDS]:
        return INV_CARDS
    for c in range(N_CHARS):
        w = game.ch[c, WHERE]
        on_board = w == W_CONTROLLED or w == W_PERIPHERAL
        if on_board != (game.ch[c, LOC] != NO) or (w == W_CUSTODY) != (game.ch[c, CELL] > 0):
            return INV_PLACE
        if w == W_CONTROLLED and game.ch[c, OWNER] == NO:
            return INV_PLACE
    cars = 0
    for k in range(N_POLICE):
        if game.g[POLICE0 + k] != PC_OFF:
            cars += 1
    if cars < min(env.rp[P_POLICE_START_CARS], N_POLICE) or cars > min(env.rp[P_POLICE_MAX_CARS], N_POLICE):
        return INV_POLICE
    for p in range(n_players):
        for d in range(env.rp[RP_N_DISTRICTS]):
            if group_at(game, p, d) != scanned_group_at(game, p, d):
                return INV_OCCUPANCY
    return 0
