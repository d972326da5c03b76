"""The dice of a location (rules: the turn, AG-T4): a slot's roll, the bosses' re-rolls of
failed dice, and the FBI jokers.

Rule ids: AG-B3, AG-C11, AG-T4.
"""

from numba import njit

from sim.ag.chapters.base import face, move_fbi, result_of
from sim.ag.state import DIE_K, DIE_O, HENCH, KILLER, N_PLAYERS, OCC, R_BANG, R_CLIC, R_FBI, S_DICE0


@njit(cache=True)
def roll_slot(game, env, slot, mask, converted):
    """Every family in `mask` rolls all its dice on the slot: game.dice[p, die, result] counts;
    `converted` (AG-B3) rolls one of its henchmen as a killer. Returns the CLICs (FBI jokers count)."""
    clics = 0
    for p in range(game.g[N_PLAYERS]):
        for die in range(3):
            for r in range(3):
                game.dice[p, die, r] = 0
        if not (mask >> p) & 1:
            continue
        for piece in (HENCH, KILLER, OCC):
            n = game.at[slot, p, piece]
            die = piece - 1
            for j in range(n):
                kind = DIE_K if (p == converted and piece == HENCH and j == 0) else die
                game.dice[p, die, result_of(env, kind, face(game, S_DICE0 + p))] += 1
        for die in range(3):
            clics += game.dice[p, die, R_CLIC] + game.dice[p, die, R_FBI]
    return clics


@njit(cache=True)
def reroll_failed(game, env, mask):
    """AG-T4: every failed die (a BANG) of everyone on the location is rolled again."""
    clics = 0
    for p in range(game.g[N_PLAYERS]):
        if not (mask >> p) & 1:
            continue
        for die in range(3):
            failed = game.dice[p, die, R_BANG]
            game.dice[p, die, R_BANG] = 0
            for _ in range(failed):
                game.dice[p, die, result_of(env, die, face(game, S_DICE0 + p))] += 1
            clics += game.dice[p, die, R_CLIC] + game.dice[p, die, R_FBI]
    return clics


@njit(cache=True)
def fbi_jokers(game, env, mask):
    """AG-C11: each FBI face shown moves the FBI pawn up 1 (counted for the die's family)."""
    for p in range(game.g[N_PLAYERS]):
        if (mask >> p) & 1 and game.dice[p, DIE_O, R_FBI] > 0:
            move_fbi(game, env, game.dice[p, DIE_O, R_FBI], p)
