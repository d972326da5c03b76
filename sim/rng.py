"""Random numbers for the jitted path: xoshiro256** with per-game streams.

A generator state is a `uint64[4]` array (cheap to pass into njit code, unlike a numpy Generator).
Every game's stream depends on (run seed, game id) alone, so any split of games over batches,
processes or machines replays identically.
"""

import numpy as np
from numba import njit

_U = np.uint64
_MASK32 = _U(0xFFFFFFFF)
_GOLDEN = _U(0x9E3779B97F4A7C15)
_SM_MUL1 = _U(0xBF58476D1CE4E5B9)
_SM_MUL2 = _U(0x94D049BB133111EB)


@njit(cache=True, inline="always")
def _rotl(x, k):
    return (x << _U(k)) | (x >> _U(64 - k))


@njit(cache=True)
def next_u64(state):
    """One xoshiro256** output; advances `state` in place (Blackman & Vigna, 2018)."""
    result = _rotl(state[1] * _U(5), 7) * _U(9)
    t = state[1] << _U(17)
    state[2] ^= state[0]
    state[3] ^= state[1]
    state[1] ^= state[2]
    state[0] ^= state[3]
    state[2] ^= t
    state[3] = _rotl(state[3], 45)
    return result


@njit(cache=True)
def splitmix64(x):
    """SplitMix64 step: returns (output, next x). Used only to expand seeds."""
    x = _U(x) + _GOLDEN
    z = x
    z = (z ^ (z >> _U(30))) * _SM_MUL1
    z = (z ^ (z >> _U(27))) * _SM_MUL2
    return z ^ (z >> _U(31)), x


@njit(cache=True)
def below(state, n):
    """A uniform integer in [0, n) for small n (bias below 2**-50), from the top 53 bits."""
    return np.int64(((next_u64(state) >> _U(11)) * _U(n)) >> _U(53))


@njit(cache=True)
def roll_die(state):
    """One poker die: a rank 0..5 (9, 10, J, Q, K, A)."""
    return below(state, 6)


@njit(cache=True)
def seed_game(key, game_id, state):
    """Fill `state` with the stream of game `game_id` under run `key` (a uint64[4])."""
    x = key[0] ^ (_U(game_id) * _GOLDEN)
    for i in range(4):
        word, x = splitmix64(x)
        state[i] = word ^ key[i]
    if state[0] == 0 and state[1] == 0 and state[2] == 0 and state[3] == 0:
        state[0] = _GOLDEN  # the all-zero state is the one xoshiro must never take


def run_key(seed: int) -> np.ndarray:
    """The run key of a seed: 256 well-mixed bits from numpy's SeedSequence."""
    if seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed}")
    return np.random.SeedSequence(seed).generate_state(4, np.uint64)


def game_stream(seed: int, game_id: int) -> np.ndarray:
    """The generator state of one game of a run: identical wherever and whenever it is built."""
    state = np.empty(4, dtype=np.uint64)
    seed_game(run_key(seed), game_id, state)
    return state
