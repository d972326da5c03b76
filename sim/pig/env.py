"""What stays fixed during a Pig game: the rules as an int64 vector `rp` (P_* indices) and each
seat's policy family and knobs, in one numpy record (`ENV_DTYPE`) passed to jitted code.

A seat's table (the `optimal` family's policy table, strategies.pig.tables) is not in the record:
its size follows the goal, so the engine takes the lineup's tables as one more array and a seat
finds its own at `params[p, TABLE_SLOT]` (strategies.pig.params)."""

import numpy as np
from numba import njit

from sim.pig.state import MAX_SEATS

KEYS = ("players.min", "players.max", "players.usual", "goal", "die.faces", "end.turn_cap")
(P_PLAYERS_MIN, P_PLAYERS_MAX, P_PLAYERS_USUAL, P_GOAL, P_FACES, P_TURN_CAP) = range(len(KEYS))
N_RP = len(KEYS)
N_POLICY_PARAMS = 4

ENV_DTYPE = np.dtype([
    ("rp", np.int64, N_RP),
    ("kinds", np.int64, MAX_SEATS),                        # each seat's policy family
    ("params", np.float64, (MAX_SEATS, N_POLICY_PARAMS)),  # each seat's knobs
])


def compile_ruleset(rs) -> np.ndarray:
    """The rules vector `rp` of a Pig ruleset."""
    missing = set(rs.values) - set(KEYS)
    if missing:
        raise ValueError(f"options not compiled for the engine: {sorted(missing)}")
    return np.array([int(rs[key]) for key in KEYS], dtype=np.int64)


def make_env(ruleset, kinds, params):
    """The engine's view of a ruleset (a numpy record), with each seat's policy."""
    env = np.zeros(1, ENV_DTYPE).view(np.recarray)[0]
    env.rp[:] = compile_ruleset(ruleset)
    kinds, params = np.asarray(kinds, dtype=np.int64), np.asarray(params, dtype=np.float64)
    env.kinds[: len(kinds)] = kinds
    env.params[: params.shape[0], : params.shape[1]] = params[:, :N_POLICY_PARAMS]
    return env


@njit(cache=True)
def seat_lineup(env, lineup, kinds, params, n_players):
    """Seat p plays strategy `lineup[p]` of a study: its policy family and knobs."""
    for p in range(n_players):
        env.kinds[p] = kinds[lineup[p]]
        env.params[p, :] = params[lineup[p], :N_POLICY_PARAMS]
