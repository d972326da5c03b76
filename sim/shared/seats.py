"""How a person reads a seat: counted from 1 in everything shown, while stored tables keep the
engine's 0..N-1. A module of its own that imports no game's face, so that narration and forward
models (in the jitted rooms' cache stamps) name seats without a face's edit recompiling them."""

import re


def seat_number(index: int) -> int:
    """The seat a person reads, from the stored seat index: everything a person reads (pages,
    command output, findings, the verdict) counts seats from 1, seat 1 being the game's
    `first_seat` (New York Kings: first to bid in turn 1); the stored tables keep the engine's
    0..N-1 (column `seat`, metric id `seat0_advantage`) so that earlier results still read
    (docs/results-schema.md)."""
    return int(index) + 1


def seat_label(index: int, strategy: str | None = None) -> str:
    """A seat as narration, prompts and pages name it: "seat 1" or "seat 1 (runner)" (`seat_number`)."""
    label = f"seat {seat_number(index)}"
    return f"{label} ({strategy})" if strategy else label


_LABEL = re.compile(r"^seat \d+ \((.*)\)$")


def labelled_strategy(label: str) -> str:
    """The strategy a `seat_label` names ("seat 2 (runner)" -> "runner")."""
    named = _LABEL.match(label)
    if named is None:
        raise ValueError(f"{label!r} is not a seat label with its strategy (seat N (name))")
    return named.group(1)


def seat_labels(strategies) -> list[str]:
    """Each seat's label at a table whose seats play `strategies` (in seat order)."""
    return [seat_label(p, name) for p, name in enumerate(strategies)]


_SEAT_METRIC = re.compile(r"^seat(\d+)_advantage$")


def shown_metric(metric: str) -> str:
    """A metric's name as a page or a command shows it: seats counted from 1, the stored id beside
    it ("seat 1 advantage (seat0_advantage)"); any other metric as it is."""
    seat = _SEAT_METRIC.match(metric)
    return f"seat {seat_number(seat.group(1))} advantage ({metric})" if seat else metric


def with_seat_numbers(frame):
    """A table to show: its `seat` column counted from 1 (the stored table keeps 0..N-1)."""
    return frame.assign(seat=frame["seat"].astype(int) + 1) if "seat" in frame else frame
