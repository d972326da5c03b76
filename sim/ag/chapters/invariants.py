"""Invariants (check mode): what every legal state keeps (bags, tokens, cards, titles, crews,
wounds, tracks, events); `engine.checkpoint` checks them after every phase.
"""

import numpy as np
from numba import njit

from sim.ag.env import (
    P_BAGS_ONES, P_BAGS_THREES, P_HENCHMEN, P_KILLERS, P_OCC_DICE, P_TOKENS, P_WOUNDS_TO_DIE, RP_C_DISTRICT, RP_H_LEN,
    RP_K_LEN,
)
from sim.ag.readers import fbi_top
from sim.ag.state import (
    BANK_ROW, BARON0, BOSS, E_DECK_N, E_DISC_N, FBI, HENCH, HENCHMEN, H_COST_POS, KILLER, KILLERS, K_COST_POS,
    LC_OWNER, LC_STATE, LS_DECK, LS_DISCARD, LS_SHOWN, L_DECK_N, L_DISC_N, MAX_SEATS, MAX_SLOTS, NO, N_CARDS,
    N_DISTRICTS, N_EVENT_CARDS, N_PLAYERS, N_TRAFFICS, OCC, OCC_NEW, OCC_READY, OCC_SUPPLY, POT_ROW, RENOWN, SHOW_N,
    SUPPLY0, TOK0, WON0, WOUNDS,
)


(INV_BAGS, INV_TOKENS, INV_CARDS, INV_TITLES, INV_CREW, INV_OCCASIONAL, INV_WOUNDS, INV_TRACKS,
 INV_EVENTS, INV_PLACED) = range(1, 11)

INVARIANTS = ("", "bags not conserved", "traffic tokens not conserved", "location cards lost",
              "a title held by nobody's seat", "crew beyond its limits", "occasional dice lost",
              "a boss past its last wound", "a track out of range", "event cards lost",
              "more pieces placed than the family has")


@njit(cache=True)
def invariants(game, env):
    g, rp = game.g, env.rp
    n = g[N_PLAYERS]
    ones, threes = game.bags[BANK_ROW, 0] + game.bags[POT_ROW, 0], game.bags[BANK_ROW, 1] + game.bags[POT_ROW, 1]
    for p in range(n):
        ones += game.bags[p, 0]
        threes += game.bags[p, 1]
    if ones != rp[P_BAGS_ONES] or threes != rp[P_BAGS_THREES] or game.bags[:, :].min() < 0:
        return INV_BAGS
    for t in range(N_TRAFFICS):
        held = g[SUPPLY0 + t]
        for p in range(n):
            held += game.pl[p, TOK0 + t]
            if game.pl[p, TOK0 + t] < 0:
                return INV_TOKENS
        if held != rp[P_TOKENS] or g[SUPPLY0 + t] < 0:
            return INV_TOKENS
    deck, disc, shown = 0, 0, 0
    won = np.zeros((MAX_SEATS, N_DISTRICTS), dtype=np.int64)
    for c in range(g[N_CARDS]):
        state = game.lc[c, LC_STATE]
        if state == LS_DECK:
            deck += 1
        elif state == LS_DISCARD:
            disc += 1
        elif state == LS_SHOWN:
            shown += 1
        else:
            won[game.lc[c, LC_OWNER], rp[RP_C_DISTRICT + c]] += 1
    if deck != g[L_DECK_N] or disc != g[L_DISC_N] or shown > g[SHOW_N]:
        return INV_CARDS
    for p in range(n):
        for d in range(N_DISTRICTS):
            if won[p, d] != game.pl[p, WON0 + d]:
                return INV_CARDS
    for i in range(N_TRAFFICS + N_DISTRICTS):
        if g[BARON0 + i] < NO or g[BARON0 + i] >= n:
            return INV_TITLES
    occ = g[OCC_SUPPLY]
    for p in range(n):
        if not 0 <= game.pl[p, HENCHMEN] <= rp[P_HENCHMEN] or not 0 <= game.pl[p, KILLERS] <= rp[P_KILLERS]:
            return INV_CREW
        if not 0 <= game.pl[p, WOUNDS] < rp[P_WOUNDS_TO_DIE]:
            return INV_WOUNDS
        if game.pl[p, RENOWN] < 0:
            return INV_TRACKS
        occ += game.pl[p, OCC_READY] + game.pl[p, OCC_NEW]
        boss, hench, killer = 0, 0, 0
        for s in range(MAX_SLOTS):
            occ += game.at[s, p, OCC]
            boss += game.at[s, p, BOSS]
            hench += game.at[s, p, HENCH]
            killer += game.at[s, p, KILLER]
        if boss > 1 or hench > game.pl[p, HENCHMEN] or killer > game.pl[p, KILLERS]:
            return INV_PLACED
    if occ != rp[P_OCC_DICE] or g[OCC_SUPPLY] < 0:
        return INV_OCCASIONAL
    if not 0 <= g[FBI] <= fbi_top(env):
        return INV_TRACKS
    if not 0 <= g[H_COST_POS] < rp[RP_H_LEN] or not 0 <= g[K_COST_POS] < rp[RP_K_LEN]:
        return INV_TRACKS
    if g[E_DECK_N] + g[E_DISC_N] != g[N_EVENT_CARDS]:
        return INV_EVENTS
    return 0
