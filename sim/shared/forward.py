"""The game-independent part of the forward models (sim.nyk.forward, sim.ag.forward) and the
human seat.

A forward state can be paused at a decision, copied, stepped and determinized (docs/architecture.md).
Each game's `Forward` class gives the game-specific pieces; this module holds what both share:

- `Decision`: the pending decision (seat, kind, option rows with a readable label each, ctx);
- `read_choice`: one option number read from a person, re-asked with the reason while it is bad;
- `play_human(fw, seat, ask=input, say=print)`: a person plays `seat` to the end of the game,
  seeing that seat's view only and the events since its last decision; the other seats are bots.

A game's Forward offers: `decision()`, `apply(k)`, `apply_policy()`, `over`, `result()`,
`players`; for the human seat, `view(seat)` (text lines of what the seat sees) and
`news(seat, since)` (the events told since event row `since`, and the new cursor), on the
Forward itself or on a table reader `sim.table_<game>.Table(fw)`.
"""

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Decision:
    """A decision waiting for `seat`: one of `len(options)` rows (the engine's option rows)."""

    seat: int
    kind: str
    options: np.ndarray
    labels: tuple[str, ...]
    ctx: np.ndarray

    def __len__(self) -> int:
        return len(self.options)


def check_option(decision: Decision | None, k) -> int:
    """k as an option index of the decision; ValueError naming the range when it is not one."""
    if decision is None:
        raise ValueError("the game is over: there is no decision to take")
    n = len(decision.options)
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)):
        raise ValueError(f"option {k!r} is not an integer: give an option number, 0 to {n - 1}")
    if not 0 <= k < n:
        raise ValueError(f"option {k} is out of range: this {decision.kind} decision has options "
                         f"0 to {n - 1}")
    return int(k)


def read_choice(decision: Decision, ask=input, say=print) -> int:
    """Ask until the answer is the number of an option; a bad entry is re-asked with the reason."""
    n = len(decision.options)
    while True:
        text = ask(f"Your choice (0-{n - 1}): ").strip()
        if not text.lstrip("-").isdigit():
            say(f"'{text}' is not a number: type the number of an option, 0 to {n - 1}.")
            continue
        k = int(text)
        if not 0 <= k < n:
            say(f"{k} is not an option: type a number from 0 to {n - 1}.")
            continue
        return k


def show_decision(decision: Decision) -> list[str]:
    lines = [f"Your decision ({decision.kind}):"]
    lines += [f"  {i:>3}  {label}" for i, label in enumerate(decision.labels)]
    return lines


def play_human(fw, seat: int, ask=input, say=print) -> dict:
    """Play `seat` of the forward game `fw` from the terminal (or any ask/say pair, e.g. a
    notebook's input and print) to the end; the other seats play their strategies. Make `fw`
    with `stop=(seat,)` (recorded, for the narration): the bots then play in jitted code between
    the person's decisions (another stopped seat is answered by its strategy here). Returns the
    game's result."""
    table = table_of(fw)
    since = 0
    while not fw.over:
        decision = fw.decision()
        if decision.seat != seat:
            fw.apply_policy()
            continue
        lines, since = table.news(seat, since)
        for line in lines + [""] + table.view(seat) + show_decision(decision):
            say(line)
        fw.apply(read_choice(decision, ask, say))
    lines, since = table.news(seat, since)
    for line in lines:
        say(line)
    result = fw.result()
    say(summary(result, seat))
    return result


def table_of(fw):
    """What tells a seat its view and the news: the game's Forward itself when it does (AG), else
    the game's table reader (sim.nyk.table for New York Kings)."""
    if hasattr(fw, "news"):
        return fw
    from importlib import import_module

    game = type(fw).__module__.split(".")[1]   # sim.<game>.forward
    return import_module(f"sim.{game}.table").Table(fw)


def summary(result: dict, seat: int) -> str:
    winner = result["winner"]
    ranks = result["ranks"]
    if winner == seat:
        return f"You won (seat {seat}) after {result['turns']} turns."
    return (f"Seat {winner} won after {result['turns']} turns; you (seat {seat}) ranked "
            f"{ranks[seat]}.")
