"""Pig game state: one numpy record (`GAME_DTYPE`) changed in place by the engine.

`g` holds the game's scalars, `pl` a row per seat (score, rank, counters), `fortune` every
seat's score at the end of each round (a round is a turn of every seat: the "turn" of the
rooms above), `rng` one xoshiro stream per source of luck, `events` the recorded game.
"""

import numpy as np
from numba import njit

MAX_SEATS = 4                 # PIG-1
MAX_TURNS = 400               # rounds a record holds: end.turn_cap is at most this (PIG-6)
MAX_LOG = 2048                # event rows a recorded game keeps (4 random seats: at most 373 in 200 games)
EVENT_WIDTH = 8
NO = np.int64(-1)

# --- g: game scalars ---------------------------------------------------------------------------------
(TURN, N_PLAYERS, TO_MOVE, TURN_TOTAL, GAME_OVER, WINNER, N_EVENTS, RECORD, CHECK, BROKEN,
 DECISIONS, ILLEGAL, TURNS_PLAYED, CAP_HIT, ENDED_BY, DECIDED_BY, FW_STOP, ROLLS) = range(18)
# TURN: the round being played (1..); TO_MOVE: the seat whose turn it is; TURN_TOTAL: its turn
# total (0 at a turn's start: the first roll is forced, PIG-3); FW_STOP: the seats the forward model
# halts for, a bit each (sim.pig.forward); ROLLS: dice rolled in the game
N_G = 20

# --- pl: a row per seat ------------------------------------------------------------------------------
SCORE, RANK = 0, 1
CTR0 = 2
COUNTERS = ("turns", "rolls", "holds", "busts", "points_banked", "points_lost", "best_turn")
(C_TURNS, C_ROLLS, C_HOLDS, C_BUSTS, C_BANKED, C_LOST, C_BEST) = range(CTR0, CTR0 + len(COUNTERS))
N_PL = CTR0 + len(COUNTERS)

# --- the end (PIG-5, PIG-6) ------------------------------------------------------------------------
ENDED = ("goal", "cap")
END_GOAL, END_CAP = range(2)
DECIDED = ("goal", "score", "shared")   # the goal reached; the cap, the highest score alone; shared
BY_GOAL, BY_SCORE, BY_SHARED = range(3)

# --- random-number streams (sim.rng): one per source of luck ------------------------------------------
S_DICE0 = 0                        # seat p's die: S_DICE0 + p (PIG-2)
S_POLICY0 = S_DICE0 + MAX_SEATS    # seat p's policy randomness: S_POLICY0 + p
N_STREAMS = S_POLICY0 + MAX_SEATS

GAME_DTYPE = np.dtype([
    ("g", np.int64, N_G),
    ("pl", np.int64, (MAX_SEATS, N_PL)),
    ("fortune", np.int64, (MAX_TURNS + 1, MAX_SEATS)),   # scores at the end of each round
    ("rng", np.uint64, (N_STREAMS, 4)),
    ("events", np.int64, (MAX_LOG, EVENT_WIDTH)),
])
Game = np.record


def new_game() -> Game:
    game = np.zeros(1, GAME_DTYPE).view(np.recarray)[0]
    clear_game(game)
    return game


@njit(cache=True)
def clear_game(game):
    """Empty every field a game reads (the event log is only read up to g[N_EVENTS])."""
    game.g[:] = 0
    game.pl[:, :] = 0
    game.fortune[:, :] = 0
    game.rng[:, :] = 0
    game.g[WINNER] = NO
