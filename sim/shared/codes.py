"""Integer codes that jitted functions take as arguments (decision kinds, option codes, card
windows, parameter slots, piece kinds).

numba types a module's Python int constant as a literal type, one per value, and a jitted callee
given one compiles once per constant its callers pass: the New York Kings policy compiled twice,
its `offer_card` eight times. An np.int64 constant is typed int64, so the callee compiles once;
its value is still frozen into the caller's code, so nothing is lost at run time."""

import numpy as np


def codes(n: int) -> tuple:
    """The codes 0..n-1 as np.int64, to unpack into names."""
    return tuple(np.int64(i) for i in range(n))
