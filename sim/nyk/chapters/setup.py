"""Setup (rulebook: preparing the game).

Rule ids: NYK-S1, NYK-S2, NYK-S3, NYK-S4, NYK-S6, NYK-S7, NYK-S8, NYK-S9.
"""

from numba import njit

from sim.nyk.chapters.base import log, shuffle
from sim.nyk.chapters.missions import reveal_mission
from sim.nyk.chapters.recruitment import refill_peripheral
from sim.nyk.env import (
    RP_BILLS, RP_H_SUIT, RP_H_VALUE, RP_M_CREW, RP_M_REWARD, RP_M_RISK, RP_M_SECRET, RP_N_BILLS, RP_N_CARDS,
    RP_N_DISTRICTS, RP_N_TILES, RP_SEAT_MONEY, RP_STATION, RP_TILES,
)
from sim.nyk.events import EV_SETUP
from sim.nyk.state import (
    ALIVE, ALL_SUITS, BAG0, BAG_N, BANK, END_CARD, END_CARD_POS, FIRST, H_DECK0, H_DECK_N, LOC, MISSION, MONEY,
    MONEY_TOTAL, MS_DECK, M_ACCEPT, M_CREW, M_DECK0, M_DECK_POS, M_DEST, M_HOLDER, M_REWARD, M_RISK, M_SECRET, M_SLOT,
    M_STATE, NO, N_AFFRANCHI, N_CHARS, N_HENCHMEN, N_MISSIONS, N_PLAYERS, N_POLICE, OWNER, POLICE0, ROW0, R_DECK0,
    R_DECK_N, SUIT, S_HENCHMEN, S_MISSIONS, S_RESOURCES, S_SETUP, VALUE, WHERE, W_CONTROLLED, W_DEAD, W_DECK, ZEROS,
    place, set_owner,
)
from sim.rng import below_of, seed_streams
from sim.nyk.compiled import (
    AFFRANCHI_RANK, P_BANK_BUNDLES_1000, P_BANK_BUNDLES_2000, P_BANK_BUNDLES_5000, P_END_CARD_AMONG_LAST,
    P_MISSION_ROW, P_POLICE_START_CARS, P_START_DISTRICT, START_RANDOM,
)


@njit(cache=True)
def setup(game, env, n_players, key, game_id):
    seed_streams(key, game_id, game.rng)
    g = game.g
    g[N_PLAYERS] = n_players
    g[FIRST] = 0
    # NYK-S2: the bank holds every valued bundle; it makes change at any time.
    g[BANK] = (1000 * env.rp[P_BANK_BUNDLES_1000] + 2000 * env.rp[P_BANK_BUNDLES_2000]
               + 5000 * env.rp[P_BANK_BUNDLES_5000])
    start = env.rp[P_START_DISTRICT]
    for p in range(n_players):
        game.pl[p, ALIVE] = 1
        for i in range(env.rp[RP_N_BILLS]):
            b = env.rp[RP_BILLS + i]
            if b == 0:
                game.pl[p, ZEROS] += 1
            else:
                game.pl[p, MONEY] += b
                g[BANK] -= b
        # seats.money, a designer's knob (0 by default): the bank pays each seat its compensation
        game.pl[p, MONEY] += env.rp[RP_SEAT_MONEY + p]
        g[BANK] -= env.rp[RP_SEAT_MONEY + p]
    g[MONEY_TOTAL] = g[BANK] + game.pl[:, MONEY].sum()
    # NYK-S1: one affranchi each; start district by ruling (BROADWAY, a district, or random).
    for c in range(N_CHARS):
        game.ch[c, OWNER] = NO
        game.ch[c, LOC] = NO
        game.ch[c, MISSION] = NO
        if c < N_AFFRANCHI:
            game.ch[c, VALUE] = AFFRANCHI_RANK
            game.ch[c, SUIT] = ALL_SUITS
            game.ch[c, WHERE] = W_DEAD if c >= n_players else W_CONTROLLED
        else:
            game.ch[c, VALUE] = env.rp[RP_H_VALUE + c - N_AFFRANCHI]
            game.ch[c, SUIT] = env.rp[RP_H_SUIT + c - N_AFFRANCHI]
            game.ch[c, WHERE] = W_DECK
    for p in range(n_players):
        set_owner(game, p, p)
        place(game, p, W_CONTROLLED,
              below_of(game.rng, S_SETUP, env.rp[RP_N_DISTRICTS]) if start == START_RANDOM else start)
    # NYK-S3: shuffle the henchmen; reveal four at BROOKLYN, UNION CITY, BRONX, QUEENS.
    for h in range(N_HENCHMEN):
        game.g[H_DECK0 + h] = N_AFFRANCHI + h
    g[H_DECK_N] = N_HENCHMEN
    shuffle(game, H_DECK0, N_HENCHMEN, S_HENCHMEN)
    for slot in range(4):
        refill_peripheral(game, env, slot)
    # NYK-S4/S5: the end card uniformly among the last `end_card_among_last` cards.
    for m in range(N_MISSIONS):
        game.g[M_DECK0 + m] = m
        game.ms[m, M_STATE] = MS_DECK
        game.ms[m, M_CREW] = env.rp[RP_M_CREW + m]
        game.ms[m, M_RISK] = env.rp[RP_M_RISK + m]
        game.ms[m, M_SECRET] = env.rp[RP_M_SECRET + m]
        game.ms[m, M_REWARD] = env.rp[RP_M_REWARD + m]
    for m in range(N_MISSIONS + 1):
        game.ms[m, M_SLOT] = NO
        game.ms[m, M_ACCEPT] = NO
        game.ms[m, M_DEST] = NO
        game.ms[m, M_HOLDER] = NO
    game.ms[END_CARD, M_STATE] = MS_DECK
    shuffle(game, M_DECK0, N_MISSIONS, S_MISSIONS)
    last = min(env.rp[P_END_CARD_AMONG_LAST], N_MISSIONS + 1)
    pos = N_MISSIONS + 1 - last + below_of(game.rng, S_MISSIONS, last)
    for i in range(N_MISSIONS, pos, -1):
        game.g[M_DECK0 + i] = game.g[M_DECK0 + i - 1]
    game.g[M_DECK0 + pos] = END_CARD
    g[END_CARD_POS] = pos
    g[M_DECK_POS] = 0
    # NYK-S6: the address tiles in the bag.
    g[BAG_N] = env.rp[RP_N_TILES]
    for i in range(env.rp[RP_N_TILES]):
        game.g[BAG0 + i] = env.rp[RP_TILES + i]
    # NYK-S7: reveal the mission row with its tiles, the first card on space 1 (each reveal
    # enters on space 1 and pushes the others right, so the row is read back in drawing order).
    row_n = env.rp[P_MISSION_ROW]
    for _ in range(row_n):
        reveal_mission(game, env)
    for s in range(row_n // 2):
        a, b = game.g[ROW0 + s], game.g[ROW0 + row_n - 1 - s]
        game.g[ROW0 + s], game.g[ROW0 + row_n - 1 - s] = b, a
    for s in range(row_n):
        if game.g[ROW0 + s] != NO:
            game.ms[game.g[ROW0 + s], M_SLOT] = s
    # NYK-S8: shuffle the resources.
    n_cards = env.rp[RP_N_CARDS]
    for i in range(n_cards):
        game.g[R_DECK0 + i] = i
    g[R_DECK_N] = n_cards
    shuffle(game, R_DECK0, n_cards, S_RESOURCES)
    # NYK-S9: police cars at BROADWAY.
    for k in range(min(env.rp[P_POLICE_START_CARS], N_POLICE)):
        game.g[POLICE0 + k] = env.rp[RP_STATION]
    log(game, EV_SETUP, n_players, pos)
