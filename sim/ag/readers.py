"""Small readers of an American Gangsters game shared by the engine and the policies."""

import numpy as np
from numba import njit

from sim.ag.env import (
    FBI_LADDER, P_BARON_POINTS, P_CAID_POINTS, P_FBI_MAX, P_FBI_START, P_FBI_TRACK, P_H_CLICS,
    P_K_CLICS, P_O_CLICS, P_PARRAIN, P_RENOWN_START, P_SHARE, RP_C_BAGS, RP_C_OCC,
    RP_C_RENOWN, RP_C_TRAFFIC, RP_H_LEN, RP_H_PRICE, RP_K_LEN, RP_K_PRICE, SHARE_EQUAL,
)
from sim.rng import next_u64_of
from sim.shared.bits import count_bits  # noqa: F401  (the chapters read it here)
from sim.ag.state import (
    BARON0, CAID0, H_COST_POS, HENCH, K_COST_POS, KILLER, N_DISTRICTS, N_PLAYERS,
    N_TRAFFICS, OCC, OCC_SUPPLY, RENOWN, SUPPLY0, pieces_at,
)


@njit(cache=True)
def fraction_of(game, src):
    """A uniform fraction in [0, 1) from source src of the game's streams (its top 53 bits)."""
    return (next_u64_of(game.rng, src) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def titles(game, p):
    """(Barons, Caids) held by seat p (AG-C4)."""
    barons = 0
    for t in range(N_TRAFFICS):
        barons += game.g[BARON0 + t] == p
    caids = 0
    for d in range(N_DISTRICTS):
        caids += game.g[CAID0 + d] == p
    return barons, caids


@njit(cache=True)
def score(game, env, p):
    """Renown with the provisional points of titles (AG-G1: Baron +1, Caid +2 each)."""
    barons, caids = titles(game, p)
    return game.pl[p, RENOWN] + env.rp[P_BARON_POINTS] * barons + env.rp[P_CAID_POINTS] * caids


@njit(cache=True)
def bang_chance(env, piece):
    """Chance that a die of this piece kind shows a BANG in a shoot-out (the FBI joker is one)."""
    if piece == HENCH:
        return (6 - env.rp[P_H_CLICS]) / 6.0
    if piece == KILLER:
        return (6 - env.rp[P_K_CLICS]) / 6.0
    if piece == OCC:
        return (6 - env.rp[P_O_CLICS]) / 6.0
    return 0.0


@njit(cache=True)
def threat(game, env, slot, p):
    """A family's expected BANGs in a shoot-out on this slot: its bargaining weight (AG-N)."""
    return (game.at[slot, p, HENCH] * bang_chance(env, HENCH) + game.at[slot, p, KILLER] * bang_chance(env, KILLER)
            + game.at[slot, p, OCC] * bang_chance(env, OCC))


@njit(cache=True)
def fill_shares(game, env, slot, mask):
    """game.share[p]: each present family's fair share (AG-N rule): by threat, or equal."""
    total, n = 0.0, 0
    for p in range(game.g[N_PLAYERS]):
        game.share[p] = 0.0
        if (mask >> p) & 1:
            n += 1
            total += threat(game, env, slot, p)
    for p in range(game.g[N_PLAYERS]):
        if (mask >> p) & 1:
            if env.rp[P_SHARE] == SHARE_EQUAL or total <= 0.0:
                game.share[p] = 1.0 / n
            else:
                game.share[p] = threat(game, env, slot, p) / total


@njit(cache=True)
def present_mask(game, slot):
    """Bitmask of the families with a piece on the slot."""
    mask = 0
    for p in range(game.g[N_PLAYERS]):
        if pieces_at(game, slot, p) > 0:
            mask |= 1 << p
    return mask


@njit(cache=True)
def card_items(game, env, card):
    """The gains a card offers now: renown, bags, token (0/1), card, occasional (AG-C7)."""
    traffic = env.rp[RP_C_TRAFFIC + card]
    token = 1 if traffic >= 0 and game.g[SUPPLY0 + traffic] > 0 else 0
    occ = min(env.rp[RP_C_OCC + card], game.g[OCC_SUPPLY])
    return env.rp[RP_C_RENOWN + card], env.rp[RP_C_BAGS + card], token, 1, occ


@njit(cache=True)
def recruit_price(game, env, piece):
    """Bags a recruit of this kind costs at the hospital now (AG-K2 cost tracks)."""
    if piece == KILLER:
        return env.rp[RP_K_PRICE + min(game.g[K_COST_POS], env.rp[RP_K_LEN] - 1)]
    return env.rp[RP_H_PRICE + min(game.g[H_COST_POS], env.rp[RP_H_LEN] - 1)]




@njit(cache=True)
def fbi_start(env):
    """Where the FBI pawn starts: DEPART of the renown ladder, or its own track's start (AG-G2)."""
    return env.rp[P_RENOWN_START] if env.rp[P_FBI_TRACK] == FBI_LADDER else env.rp[P_FBI_START]


@njit(cache=True)
def fbi_top(env):
    """The furthest the FBI pawn goes: the ladder's last square (Parrain), or its track's end."""
    return env.rp[P_PARRAIN] if env.rp[P_FBI_TRACK] == FBI_LADDER else env.rp[P_FBI_MAX]
