"""Compact table columns: a game's integer arrays in the smallest type that holds them."""

import numpy as np


def compact(name: str, values: np.ndarray, dtype) -> np.ndarray:
    """`values` as `dtype`, refusing to wrap around: a value out of range is a loud error."""
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return values != 0
    if values.size:
        info = np.iinfo(dtype)
        lo, hi = int(values.min()), int(values.max())
        if lo < info.min or hi > info.max:
            bad = lo if lo < info.min else hi
            raise OverflowError(f"column {name} holds {bad}, out of range for {dtype}: "
                                f"widen it in the game's adapter (sim/<game>/adapter.py)")
    return values.astype(dtype)
