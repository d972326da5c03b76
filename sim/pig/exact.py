"""Pig's known answers, computed exactly for two players (Neller & Presser 2004), two ways.

A policy is a hold table `h[i, j, k]`: the probability that the mover, with score i against the
other's j and turn total k (i + k < goal, k >= 1), holds (PIG-4); at k = 0 the roll is forced
(PIG-3) and once i + k reaches the goal every policy here holds and wins (PIG-5).

- `backward(h0, h1, goal, faces)`: value iteration, backward from the goal. `w[p, i, j, k]` is
  the probability that the mover wins when seat p moves. Score pairs are solved in decreasing
  order of i + j; within a pair, the mover's and the other's turn-start values feed each other
  (a bust passes the turn at the same scores), so the pair is iterated to a fixed point (1e-15).
  With `optimal=True` the mover takes the better of roll and hold: the policy that maximises the
  probability of winning, and its table (`optimal_table`).
- `forward(h0, h1, goal, faces)`: the game as a Markov chain over turn starts, pushed forward
  from (0, 0) in increasing order of i + j. Each turn's outcome (bust, or a bank of k, or a win)
  comes from its within-turn distribution, and the bust cycle between the two turn starts of a
  score pair is summed in closed form: no iteration at all.

The two share no code but the policies; the tests hold them together to 1e-6 (they agree to
about 1e-13). `first_player_wins` is the forward figure with the expected length of the game.
"""

from dataclasses import dataclass
from functools import cache

import numpy as np
from numba import njit

TOL = 1e-15
MAX_SWEEPS = 1_000_000


# --- backward: value iteration ------------------------------------------------------------------

@njit(cache=True)
def sweep(w, h, p, i, j, other_start, goal, faces, optimal, best):
    """The mover's values at scores (i, j) for every turn total, highest first, given the other's
    value at its turn start after a bust (`other_start`). Writes w[p, i, j, :] and, when
    optimal, best[i, j, k] = 1 where holding is at least as good as rolling."""
    q = 1 - p
    for k in range(goal - 1 - i, -1, -1):
        rolled = (1.0 - other_start) / faces
        for r in range(2, faces + 1):
            rolled += (1.0 if i + k + r >= goal else w[p, i, j, k + r]) / faces
        if k == 0:
            w[p, i, j, k] = rolled
            continue
        held = 1.0 - w[q, j, i + k, 0]
        if optimal:
            best[i, j, k] = held >= rolled
            w[p, i, j, k] = max(held, rolled)
        else:
            chance = h[p, i, j, k]
            w[p, i, j, k] = chance * held + (1.0 - chance) * rolled


@njit(cache=True)
def solve_pair(w, h, i, j, goal, faces, optimal, best):
    """The two turn starts (seat 0 at (i, j), seat 1 at (j, i)) iterated to their fixed point."""
    for _ in range(MAX_SWEEPS):
        before0, before1 = w[0, i, j, 0], w[1, j, i, 0]
        sweep(w, h, 0, i, j, w[1, j, i, 0], goal, faces, optimal, best)
        sweep(w, h, 1, j, i, w[0, i, j, 0], goal, faces, optimal, best)
        if abs(w[0, i, j, 0] - before0) < TOL and abs(w[1, j, i, 0] - before1) < TOL:
            return True
    return False


@njit(cache=True)
def backward_values(h, goal, faces, optimal):
    """w[p, i, j, k] for every state, and the optimal hold table (zeros unless `optimal`)."""
    w = np.zeros((2, goal, goal, goal))
    best = np.zeros((goal, goal, goal), dtype=np.uint8)
    for total in range(2 * goal - 2, -1, -1):
        for i in range(max(0, total - goal + 1), min(goal - 1, total) + 1):
            if not solve_pair(w, h, i, total - i, goal, faces, optimal, best):
                raise ValueError("a score pair did not converge")
    return w, best


# --- forward: the Markov chain over turn starts ----------------------------------------------------

@njit(cache=True)
def turn_outcome(hold, i, goal, faces, bank):
    """One turn from score i under the mover's hold row `hold[k]`: fills bank[k] (the chance of
    banking k without reaching the goal) and returns (chance of a bust, chance of winning)."""
    mass = np.zeros(goal + faces + 1)
    mass[0] = 1.0
    bank[:] = 0.0
    bust, win = 0.0, 0.0
    for k in range(goal - i):
        if mass[k] == 0.0:
            continue
        chance = 0.0 if k == 0 else hold[k]
        bank[k] += mass[k] * chance
        step = mass[k] * (1.0 - chance) / faces
        bust += step
        for r in range(2, faces + 1):
            if i + k + r >= goal:
                win += step
            else:
                mass[k + r] += step
    return bust, win


@njit(cache=True)
def forward_chain(h, goal, faces):
    """(seat 0's chance of winning, seat 1's, expected turns, expected rounds): mass pushed from the
    first turn. A round begins with seat 0's turn, so the rounds are seat 0's turns."""
    arrive = np.zeros((2, goal, goal))   # chance of a turn start not yet reached by a bust cycle
    arrive[0, 0, 0] = 1.0
    bank0, bank1 = np.zeros(goal), np.zeros(goal)
    won0, won1, turns, rounds = 0.0, 0.0, 0.0, 0.0
    for total in range(2 * goal - 1):
        for i in range(max(0, total - goal + 1), min(goal - 1, total) + 1):
            j = total - i                     # seat 0 at (i, j), seat 1 at (j, i)
            m0, m1 = arrive[0, i, j], arrive[1, j, i]
            if m0 == 0.0 and m1 == 0.0:
                continue
            bust0, win0 = turn_outcome(h[0, i, j], i, goal, faces, bank0)
            bust1, win1 = turn_outcome(h[1, j, i], j, goal, faces, bank1)
            cycle = 1.0 - bust0 * bust1       # the busts' back and forth, summed in closed form
            visits0 = (m0 + m1 * bust1) / cycle
            visits1 = (m1 + m0 * bust0) / cycle
            turns += visits0 + visits1
            rounds += visits0
            won0 += visits0 * win0
            won1 += visits1 * win1
            for k in range(1, goal):
                if bank0[k] > 0.0:
                    arrive[1, j, i + k] += visits0 * bank0[k]
                if bank1[k] > 0.0:
                    arrive[0, i, j + k] += visits1 * bank1[k]
    return won0, won1, turns, rounds


# --- policies as hold tables ------------------------------------------------------------------------

def hold_at(n: int, goal: int) -> np.ndarray:
    """Neller & Presser's "hold at n": hold once the turn total reaches n (or the goal)."""
    k = np.arange(goal)
    return np.broadcast_to((k >= n).astype(np.float64), (goal, goal, goal)).copy()


def pair(h0: np.ndarray, h1: np.ndarray) -> np.ndarray:
    """Seat 0's and seat 1's hold tables as one array h[p, i, j, k] (floats)."""
    return np.stack([np.asarray(h0, np.float64), np.asarray(h1, np.float64)])


@dataclass(frozen=True)
class Answer:
    first_wins: float       # the first player's chance of winning
    second_wins: float
    turns: float            # expected turns (a turn of one seat) in a game
    rounds: float           # expected rounds (the tables' `turns`: a turn of every seat)


def backward(h0, h1, goal: int = 100, faces: int = 6) -> float:
    """The first player's chance of winning by value iteration (policies h0, h1)."""
    w, _ = backward_values(pair(h0, h1), goal, faces, False)
    return float(w[0, 0, 0, 0])


def forward(h0, h1, goal: int = 100, faces: int = 6) -> Answer:
    """The same chance by the forward chain, with the other's chance and the game's length."""
    won0, won1, turns, rounds = forward_chain(pair(h0, h1), goal, faces)
    return Answer(float(won0), float(won1), float(turns), float(rounds))


def share(h0, h1, goal: int = 100, faces: int = 6) -> float:
    """The first policy's share of wins over both seatings (a run's rotated seats, half each)."""
    return (forward(h0, h1, goal, faces).first_wins + 1 - forward(h1, h0, goal, faces).first_wins) / 2


@cache
def optimal(goal: int = 100, faces: int = 6) -> tuple[float, np.ndarray]:
    """The optimal mirror's first-player chance (value iteration with max) and the hold table
    (read-only: made once per process and rules)."""
    dummy = np.zeros((2, 1, 1, 1))
    w, best = backward_values(dummy, goal, faces, True)
    best.flags.writeable = False
    return float(w[0, 0, 0, 0]), best
