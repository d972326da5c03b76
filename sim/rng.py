"""Random numbers for the jitted path: xoshiro256** streams, one per source of luck.

A generator state is a `uint64[4]` array (cheap to pass into njit code, unlike a numpy Generator).
A game holds one state per source of randomness (a deck, a seat's dice, a seat's policy...) as the
rows of a `uint64[n_sources, 4]` array; the sources are named constants of each game's state module.
Row s of game g under run seed k is a function of (k, g, s) alone, so:
- any split of games over batches, processes or machines replays identically;
- a source that draws more or fewer numbers (one seat's policy deciding otherwise) leaves every
  other source's draws unchanged, so two rule variants played on one seed meet the same luck
  wherever the games have not diverged (common random numbers that pair game by game).
A draw from row s costs what a draw from a lone state costs: the row is indexed in place.
"""

import numpy as np
from numba import njit

_U = np.uint64
_MASK32 = _U(0xFFFFFFFF)
_GOLDEN = _U(0x9E3779B97F4A7C15)
_SM_MUL1 = _U(0xBF58476D1CE4E5B9)
_SM_MUL2 = _U(0x94D049BB133111EB)
_SOURCE_MUL = _U(0xD1B54A32D192ED03)  # odd constants spreading source and epoch numbers over 64 bits
_EPOCH_MUL = _U(0xAEF17502108EF2D9)


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
def next_u64_of(streams, s):
    """`next_u64` on row s of a `uint64[n_sources, 4]` array, in place (no view is made)."""
    result = _rotl(streams[s, 1] * _U(5), 7) * _U(9)
    t = streams[s, 1] << _U(17)
    streams[s, 2] ^= streams[s, 0]
    streams[s, 3] ^= streams[s, 1]
    streams[s, 1] ^= streams[s, 2]
    streams[s, 0] ^= streams[s, 3]
    streams[s, 2] ^= t
    streams[s, 3] = _rotl(streams[s, 3], 45)
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
def below_of(streams, s, n):
    """`below` drawn from source s of a game's streams."""
    return np.int64(((next_u64_of(streams, s) >> _U(11)) * _U(n)) >> _U(53))


@njit(cache=True)
def roll_die(state):
    """One poker die: a rank 0..5 (9, 10, J, Q, K, A)."""
    return below(state, 6)


@njit(cache=True)
def roll_die_of(streams, s):
    """One poker die from source s of a game's streams."""
    return below_of(streams, s, 6)


@njit(cache=True)
def seed_source(key, game_id, source, streams, epoch=0):
    """Fill row `source` of `streams` with the stream of (run `key`, game `game_id`, `source`,
    `epoch`): epoch 0 at setup, epoch t from turn t for the sources a game re-keys every turn."""
    game_word, _ = splitmix64(key[0] ^ (_U(game_id) * _GOLDEN))
    x = game_word ^ key[1] ^ (_U(source + 1) * _SOURCE_MUL) ^ (_U(epoch) * _EPOCH_MUL)
    for i in range(4):
        word, x = splitmix64(x)
        streams[source, i] = word ^ key[(i + 2) % 4]
    if streams[source, 0] == 0 and streams[source, 1] == 0 and streams[source, 2] == 0 and streams[source, 3] == 0:
        streams[source, 0] = _GOLDEN  # the all-zero state is the one xoshiro must never take


REDRAW_WORDS = 6   # a run key (4 words), then the mask of sources drawn afresh, then their salt


@njit(cache=True)
def seed_streams(key, game_id, streams):
    """Seed every source (row) of a game's `uint64[n_sources, 4]` streams. A key of REDRAW_WORDS
    words (`redraw_key`) then draws the sources of its mask afresh: setup draws included."""
    for s in range(streams.shape[0]):
        seed_source(key, game_id, s, streams)
    if key.shape[0] >= REDRAW_WORDS:
        redraw_sources(key, game_id, streams)


@njit(cache=True)
def salted_key(key, salt):
    """A run key moved by `salt`: the streams it seeds share nothing with the key's own."""
    out = np.empty(4, dtype=np.uint64)
    x = _U(salt) ^ _EPOCH_MUL
    for i in range(4):
        word, x = splitmix64(x)
        out[i] = key[i] ^ word
    return out


@njit(cache=True)
def redraw_sources(key, game_id, streams):
    """Re-seed the rows in the mask key[4] from the key salted by key[5] (a counterfactual game:
    those sources' luck drawn again, every other stream as it was; sim.analysis.luck)."""
    salted = salted_key(key, key[5])
    for s in range(streams.shape[0]):
        if (key[4] >> _U(s)) & _U(1):
            seed_source(salted, game_id, s, streams)


@njit(cache=True)
def seed_game(key, game_id, state):
    """Fill `state` with the single stream of game `game_id` under run `key` (a uint64[4]): the
    kernel's contests and benchmarks draw from it; the engines use `seed_streams`."""
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


def redraw_key(seed: int, sources, salt: int) -> np.ndarray:
    """The run key of `seed` extended so that setup draws the rows `sources` afresh from `salt`
    (`seed_streams`); with no sources it seeds every game as `run_key(seed)` does."""
    key = np.zeros(REDRAW_WORDS, dtype=np.uint64)
    key[:4] = run_key(seed)
    for s in sources:
        if not 0 <= int(s) < 64:
            raise ValueError(f"source must be in 0..63, got {s}")
        key[4] |= _U(1) << _U(int(s))
    key[5] = _U(int(salt) & 0xFFFFFFFFFFFFFFFF)
    return key


def redrawn_stream(seed: int, game_id: int, source: int, salt: int) -> np.ndarray:
    """Row `source` of game `game_id` as `redraw_key(seed, [source], salt)` seeds it."""
    streams = np.zeros((source + 1, 4), dtype=np.uint64)
    seed_source(salted_key(run_key(seed), _U(int(salt) & 0xFFFFFFFFFFFFFFFF)), game_id, source, streams)
    return streams[source].copy()


def game_stream(seed: int, game_id: int) -> np.ndarray:
    """The generator state of one game of a run: identical wherever and whenever it is built."""
    state = np.empty(4, dtype=np.uint64)
    seed_game(run_key(seed), game_id, state)
    return state


def source_stream(seed: int, game_id: int, source: int, n_sources: int | None = None) -> np.ndarray:
    """The generator state of one source of one game of a run (row `source` of the game's streams)."""
    if source < 0 or (n_sources is not None and source >= n_sources):
        raise ValueError(f"source must be in 0..{(n_sources or 1) - 1}, got {source}")
    streams = np.zeros((source + 1, 4), dtype=np.uint64)
    seed_source(run_key(seed), game_id, source, streams)
    return streams[source].copy()
