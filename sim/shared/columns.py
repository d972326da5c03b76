"""Compact table columns: a game's integer arrays in the smallest type that holds them."""

import numpy as np


def compact(name: str, values: np.ndarray, dtype) -> np.ndarray:
    """`values` as `dtype`, refusing to wrap around: a value out of range is a loud error."""
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return values != 0
    if values.size:
        _check_range(name, int(values.min()), int(values.max()), dtype)
    return values.astype(dtype)


def compact_block(block: np.ndarray, names, dtypes) -> dict:
    """The columns of a rows x columns block as `compact` gives them, {name: array}, in one pass
    for the ranges and one to lay the columns out (a column of a row-major block is strided:
    read one by one, the block is walked three times per column). A column whose dtype is None
    is left out."""
    columns = np.ascontiguousarray(block.T)
    rows = block.shape[0]
    if rows:
        lows, highs = columns.min(axis=1), columns.max(axis=1)
    out = {}
    for j, (name, dtype) in enumerate(zip(names, dtypes, strict=True)):
        if dtype is None:
            continue
        dtype = np.dtype(dtype)
        if dtype == np.bool_:
            out[name] = columns[j] != 0
            continue
        if rows:
            _check_range(name, int(lows[j]), int(highs[j]), dtype)
        out[name] = columns[j].astype(dtype)
    return out


def _check_range(name: str, lo: int, hi: int, dtype: np.dtype) -> None:
    info = np.iinfo(dtype)
    if lo < info.min or hi > info.max:
        bad = lo if lo < info.min else hi
        raise OverflowError(f"column {name} holds {bad}, out of range for {dtype}: "
                            f"widen it in the game's adapter (sim/<game>/adapter.py)")
