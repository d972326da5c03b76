"""What every game's search shares: naming options across worlds, keying worlds, and the
bookkeeping of Sequential Halving at the root (Karnin, Koren & Somekh 2013; the root search of
Gumbel MuZero, Danihelka et al. 2022) with a paired guard for the rollout preset's own option.

A game's driver (sim.search.<game>) plays the playouts; the halving here decides how many worlds
each round plays (`worlds_this_round`), tallies one world's values of every option still in the
race (`tally_world`: each option's sum, and its paired difference with the rollout's option in the
same world), keeps the better half (`keep_better_half`) and picks (`halving_choice`). The rollout
preset's own option is never dropped, and another replaces it only when its paired advantage,
world by world, reaches a z-score of `guard`: Monte Carlo policy improvement over the rollout
preset (Tesauro & Galperin's rollout algorithm) with a test in place of a noisy argmax.
"""

import numpy as np
from numba import njit

from sim.rng import splitmix64

# rows of a halving's statistics, one column per root option
(ST_TOTAL, ST_COUNT, ST_DIFF, ST_DIFF2, ST_PAIRS) = range(5)
N_ST = 5
VERIFY_WORLD0 = 1 << 40  # a verification's worlds (sim.search.nyk.verified): apart from the halving's


@njit(cache=True)
def option_hash(opts, j):
    """FNV-1a of option row j: the name of an option across determinizations."""
    h = np.uint64(1469598103934665603)
    for c in range(opts.shape[1]):
        h = (h ^ np.uint64(opts[j, c] + 8)) * np.uint64(1099511628211)
    return np.int64(h >> np.uint64(12))  # exact in a float64 tree row


@njit(cache=True)
def world_key(key, w):
    """The determinization key of world w of a decision (the same world for every option)."""
    word, _ = splitmix64(np.uint64(key) + np.uint64(w) * np.uint64(0x9E3779B97F4A7C15))
    return np.int64(word >> np.uint64(1))


@njit(cache=True)
def decision_key(key, game_id, decisions, seat):
    """The search's key at a decision: from the run's key, the game, the decision's number, the seat."""
    x, _ = splitmix64(key[0] ^ np.uint64(game_id) * np.uint64(0x9E3779B97F4A7C15))
    x, _ = splitmix64(x ^ key[1] ^ np.uint64(decisions) * np.uint64(0xD1B54A32D192ED03))
    x, _ = splitmix64(x ^ np.uint64(seat + 1))
    return np.int64(x >> np.uint64(1))


@njit(cache=True)
def halving_rounds(n):
    """ceil(log2 n) rounds take n options down to one."""
    rounds = 0
    while (1 << rounds) < n:
        rounds += 1
    return rounds


@njit(cache=True)
def worlds_this_round(alive, rounds, r, left):
    """Round r's worlds: the budget left spread evenly over the options alive and the rounds left."""
    return max(left // (alive.sum() * (rounds - r)), 1)


@njit(cache=True)
def tally_world(stats, value, alive, d):
    """Add one world's values (NaN: the option was not on offer there) to the statistics;
    returns the playouts counted."""
    played = 0
    for j in range(value.shape[0]):
        if not np.isnan(value[j]):
            stats[ST_TOTAL, j] += value[j]
            stats[ST_COUNT, j] += 1
            played += 1
    if not np.isnan(value[d]):
        for j in range(value.shape[0]):
            if alive[j] and j != d and not np.isnan(value[j]):
                x = value[j] - value[d]
                stats[ST_DIFF, j] += x
                stats[ST_DIFF2, j] += x * x
                stats[ST_PAIRS, j] += 1
    return played


@njit(cache=True)
def keep_better_half(alive, stats, keep):
    """Drop the worse half of the options alive (by mean value), never option `keep`."""
    m = alive.sum()
    n_keep = (m + 1) // 2
    mean = np.full(alive.shape[0], -np.inf)
    for j in range(alive.shape[0]):
        if alive[j] and stats[ST_COUNT, j] > 0:
            mean[j] = stats[ST_TOTAL, j] / stats[ST_COUNT, j]
    order = np.argsort(-mean, kind="mergesort")
    kept = 0
    for i in range(alive.shape[0]):
        j = order[i]
        if alive[j] and kept < n_keep:
            kept += 1
        elif j != keep:
            alive[j] = False


@njit(cache=True)
def halving_choice(alive, stats, d, guard):
    """The best mean among the options alive, if its paired advantage over option d has a z of
    at least `guard`; else d."""
    best, best_mean = d, -1.0
    for j in range(alive.shape[0]):
        if alive[j] and stats[ST_COUNT, j] > 0 and stats[ST_TOTAL, j] / stats[ST_COUNT, j] > best_mean:
            best, best_mean = j, stats[ST_TOTAL, j] / stats[ST_COUNT, j]
    if best != d and paired_z(stats[ST_DIFF, best], stats[ST_DIFF2, best], stats[ST_PAIRS, best]) < guard:
        best = d
    return best


@njit(cache=True)
def paired_z(s, s2, n):
    """z of a mean paired difference from its sums (0 without two pairs or with no spread)."""
    if n < 2:
        return 0.0
    mean = s / n
    var = (s2 - n * mean * mean) / (n - 1)
    if var <= 0.0:
        return np.inf if mean > 0 else 0.0
    return mean / np.sqrt(var / n)


@njit(cache=True)
def confirm_key(key):
    """A second search's key at the same decision: other worlds and playouts, derived from the
    decision's own key (so reproducible from the run's seed, whatever the workers)."""
    x, _ = splitmix64(np.uint64(key) ^ np.uint64(0xA0761D6478BD642F))
    return np.int64(x >> np.uint64(1))


@njit(cache=True)
def confirmed(first, second, own, counts, counts2):
    """The expert's label at a decision where a first search departed from the apprentice's
    option `own` and a second, independent one picked `second`: the departure only if the second
    repeats it, else `own`. The second's visit counts are added to the first's (in place): the
    first's are those of a search selected for departing, the second's are not, so the sum halves
    that selection's pull toward the departure in the visit target."""
    counts += counts2
    return first if second == first else own
