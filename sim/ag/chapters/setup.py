"""Setup (rules: components and setting up).

Rule ids: AG-C2, AG-C5, AG-C6, AG-C7; the designer's seat knobs (seats.bags, seats.first_godfather).
"""

from numba import njit

from sim.ag.chapters.base import log, move_bags, shuffle
from sim.ag.env import (
    FIRST_LAST_SEAT, FIRST_RANDOM, INFORMER_ALWAYS, INFORMER_DRAW, P_BAGS_ONES, P_BAGS_START, P_BAGS_THREES,
    P_FIRST_GODFATHER, P_HENCHMEN, P_INFORMER_MODE, P_KILLERS, P_OCC_DICE, P_PROFILE_CARDS, P_RENOWN_START,
    P_TOKENS, RP_N_CARDS, RP_N_EVENT_CARDS, RP_SEAT_BAGS,
)
from sim.ag.events import EV_SETUP
from sim.ag.readers import fbi_start
from sim.ag.state import (
    BANK_ROW, E_DECK0, E_DECK_N, FBI, FBI_PEAK, GODFATHER, HENCHMEN, INFORMER, IS_INFORMER, KILLERS, LC_OWNER,
    LC_STATE, LS_DECK, L_DECK0, L_DECK_N, NO, N_CARDS, N_EVENT_CARDS, N_PLAYERS, N_TRAFFICS, OCC_SUPPLY, RENOWN,
    SUPPLY0, S_DEAL, S_EVENTS, S_LOCATIONS,
)
from sim.rng import below_of, seed_streams


@njit(cache=True)
def setup(game, env, n_players, key, game_id):
    seed_streams(key, game_id, game.rng)
    g, rp = game.g, env.rp
    g[N_PLAYERS] = n_players
    g[GODFATHER] = 0
    g[FBI] = fbi_start(env)
    g[FBI_PEAK] = g[FBI]
    g[OCC_SUPPLY] = rp[P_OCC_DICE]
    game.bags[BANK_ROW, 0] = rp[P_BAGS_ONES]
    game.bags[BANK_ROW, 1] = rp[P_BAGS_THREES]
    for t in range(N_TRAFFICS):
        g[SUPPLY0 + t] = rp[P_TOKENS]
    for p in range(n_players):
        game.pl[p, RENOWN] = rp[P_RENOWN_START]
        game.pl[p, HENCHMEN] = rp[P_HENCHMEN]
        game.pl[p, KILLERS] = rp[P_KILLERS]
        move_bags(game, BANK_ROW, p, rp[P_BAGS_START])   # AG-C2: 4 bags drawn at random
    # seats.bags (designer's knob on AG-C2): after every family's own draw, so none drawn by default
    for p in range(n_players):
        move_bags(game, BANK_ROW, p, rp[RP_SEAT_BAGS + p])
    # AG-C6: each family draws a profile card; one of the cards is the informer
    mode = rp[P_INFORMER_MODE]
    informer = NO
    if mode == INFORMER_DRAW:
        x = below_of(game.rng, S_DEAL, rp[P_PROFILE_CARDS])
        informer = x if x < n_players else NO
    elif mode == INFORMER_ALWAYS:
        informer = below_of(game.rng, S_DEAL, n_players)
    g[INFORMER] = informer
    if informer >= 0:
        game.pl[informer, IS_INFORMER] = 1
    # seats.first_godfather (designer's knob on AG-C5): who holds the card in turn 1; drawn after the
    # profiles, so the default (seat 1) draws nothing more
    if rp[P_FIRST_GODFATHER] == FIRST_LAST_SEAT:
        g[GODFATHER] = n_players - 1
    elif rp[P_FIRST_GODFATHER] == FIRST_RANDOM:
        g[GODFATHER] = below_of(game.rng, S_DEAL, n_players)
    # AG-C7, C9: the location and event decks
    g[N_CARDS] = rp[RP_N_CARDS]
    for i in range(g[N_CARDS]):
        g[L_DECK0 + i] = i
        game.lc[i, LC_STATE] = LS_DECK
        game.lc[i, LC_OWNER] = NO
    g[L_DECK_N] = g[N_CARDS]
    shuffle(game, L_DECK0, g[L_DECK_N], S_LOCATIONS)
    g[N_EVENT_CARDS] = rp[RP_N_EVENT_CARDS]
    for i in range(g[N_EVENT_CARDS]):
        g[E_DECK0 + i] = i
    g[E_DECK_N] = g[N_EVENT_CARDS]
    shuffle(game, E_DECK0, g[E_DECK_N], S_EVENTS)
    log(g, game.events, EV_SETUP, n_players, informer)
