"""A progress bar (tqdm) on stderr for the commands that run longer than a few seconds; off when
stderr is not a terminal (a pipe, a log file, the tests) or the output is JSON."""

from __future__ import annotations

import sys


def enabled(as_json: bool = False) -> bool:
    return not as_json and sys.stderr.isatty()


class Steps:
    """A callback `(i, n, label)` that draws step i of n (0-based, called before the step; n
    None when not known) with the step's label; `close()` when the command is done."""

    def __init__(self, description: str, unit: str = "step", as_json: bool = False):
        self.description, self.unit, self.on = description, unit, enabled(as_json)
        self.bar = None

    def __call__(self, i: int, n: int, label="") -> None:
        if not self.on:
            return
        if self.bar is None:
            from tqdm import tqdm

            self.bar = tqdm(total=n, desc=self.description, unit=self.unit, file=sys.stderr, leave=False,
                            dynamic_ncols=True)
        self.bar.total = n
        self.bar.n = i
        self.bar.set_postfix_str(str(label)[:60], refresh=False)
        self.bar.refresh()
        if n is not None and i >= n:   # the study reports its end as step n of n
            self.close()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None
