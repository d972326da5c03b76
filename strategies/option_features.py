"""The option features every game's learned player starts with (docs/learned.md): whether the
heuristic takes the option, where the engine lists it, its op code one-hot, and whether it shares
the heuristic pick's op code or first argument. Columns 0..3 and 4.. (the op codes) are the same in
every game; the two `same_*` columns are the game's."""

from numba import njit

(F_BASE, F_FIRST, F_LAST, F_POSITION) = range(4)
F_OP0 = 4


@njit(cache=True)
def common_features(opts, n, base, j, x, n_ops, f_same_op, f_same_arg):
    """Clear x and write option j's listing features (module doc); `base` is the heuristic's pick."""
    x[:] = 0.0
    op = opts[j, 0]
    x[F_BASE] = 1.0 if j == base else 0.0
    x[F_FIRST] = 1.0 if j == 0 else 0.0
    x[F_LAST] = 1.0 if j == n - 1 else 0.0
    x[F_POSITION] = j / (n - 1) if n > 1 else 0.0
    if 0 <= op < n_ops:
        x[F_OP0 + op] = 1.0
    if j != base:
        x[f_same_op] = 1.0 if op == opts[base, 0] else 0.0
        x[f_same_arg] = 1.0 if opts[j, 1] == opts[base, 1] else 0.0
