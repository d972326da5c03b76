"""The one face of the forward models (sim.nyk.forward, sim.ag.forward) and the human seat.

A forward state is a game paused at a decision: it can be read, copied, stepped and
determinized (docs/architecture.md), in the manner of OpenSpiel's `State` (a decision node with
its legal actions, `apply_action`, `clone`, `resample_from_infostate`). `ForwardState` is that
face, written once: each game's `Forward` subclasses it and gives the hooks, and the base owns
the checks, the `Decision` type, the defaults, the errors and the results' shape:

    Forward.new(ruleset=None, strategies=None, players=None, seed=0, game_id=0, stop=None,
                record=False, key=None)     # stop: the seats deciding from outside (None: every seat)
    fw.decision() -> Decision | None        fw.apply(k)    fw.apply_policy()    fw.over
    fw.copy()    fw.determinize(seat, key)  fw.result()    fw.players    fw.turn    fw.game
    fw.stop = ()                            # from now on, every seat plays its own strategy
    fw.view(seat) -> lines                  fw.news(seat, since) -> (lines, cursor)   # record=True

Also here: `read_choice` (one option number read from a person, re-asked with the reason while
it is bad) and `play_human(fw, seat, ask=input, say=print)` (a person plays `seat` to the end,
seeing that seat's view only and the events since its last decision; the other seats are bots).
"""

from dataclasses import dataclass

import numpy as np
from sim.shared.seats import seat_label


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


class ForwardState:
    """A game paused at a decision (module doc). A game's subclass gives:

    `_pending()` -> (seat, kind, option rows, ctx) of the pending decision; `_label(seat, ctx, row)`
    a readable option; `_take(k)` and `_take_policy()` step past it; `_determinized(seat, key)` a
    copy dealt again from `key` where `seat` cannot see; `_result()` the finished game's dict;
    `over`, `players`, `turn`, `game` (the record at the pending decision), `stop` (get and set),
    `copy()`, `view(seat)` and `news(seat, since)`."""

    def decision(self) -> Decision | None:
        """The pending decision, None once the game is over."""
        if self.over:
            return None
        seat, kind, rows, ctx = self._pending()
        return Decision(seat, kind, rows, tuple(self._label(seat, ctx, row) for row in rows), ctx)

    def apply(self, k) -> None:
        """The seat at the pending decision takes option k (ValueError when k is not an option)."""
        self._take(check_option(self.decision(), k))

    def apply_policy(self) -> None:
        """The seat at the pending decision plays its own strategy (as in the batch)."""
        if self.over:
            raise ValueError("the game is over: there is no decision to take")
        self._take_policy()

    def determinize(self, seat: int, key: int):
        """A copy in which what `seat` cannot see is dealt again from `key`, consistently with
        what it has seen (every public fact kept)."""
        self.check_seat(seat)
        if self.over:
            raise ValueError("the game is over: nothing to determinize")
        return self._determinized(int(seat), int(key) & 0x7FFFFFFFFFFFFFFF)

    def result(self) -> dict:
        """winner, ranks, fortunes (scores), turns and decided_by of the finished game."""
        if not self.over:
            raise ValueError("the game is not over: step it to the end first (apply, apply_policy)")
        return self._result()

    def outcome_after(self, k):
        """A copy in which option k is taken and every seat then plays its own strategy to the end."""
        played = self.copy()
        played.stop = ()
        played.apply(k)
        return played

    def check_seat(self, seat) -> int:
        return seat_at(seat, self.players)

    def seats_of(self, mask: int) -> tuple[int, ...]:
        return tuple(p for p in range(self.players) if (int(mask) >> p) & 1)


def halt_mask(seats, players: int) -> int:
    """The seats that decide from outside as a bit mask (None: every seat); ValueError naming the
    seats there are when one is not at the table."""
    mask = 0
    for p in range(players) if seats is None else seats:
        mask |= 1 << seat_at(p, players)
    return mask


def seat_at(seat, players: int) -> int:
    """`seat` as a seat of a table of `players`; ValueError naming the seats there are."""
    if not 0 <= int(seat) < players:
        raise ValueError(f"seat {seat} is not at this table: seats 0 to {players - 1}")
    return int(seat)


def read_choice(decision: Decision, ask=input, say=print) -> int:
    """Ask until the answer is the number of an option; a bad entry is re-asked with the reason."""
    n = len(decision.options)
    while True:
        text = ask(f"Your choice (0-{n - 1}): ").strip()
        if not (text.lstrip("-").isascii() and text.lstrip("-").isdigit()):  # "٣" is a digit to isdigit
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
    since = 0
    while not fw.over:
        decision = fw.decision()
        if decision.seat != seat:
            fw.apply_policy()
            continue
        lines, since = fw.news(seat, since)
        for line in lines + [""] + fw.view(seat) + show_decision(decision):
            say(line)
        fw.apply(read_choice(decision, ask, say))
    lines, since = fw.news(seat, since)
    for line in lines:
        say(line)
    result = fw.result()
    say(summary(result, seat))
    return result


def summary(result: dict, seat: int) -> str:
    winner = result["winner"]
    ranks = result["ranks"]
    if winner == seat:
        return f"You won ({seat_label(seat)}) after {result['turns']} turns."
    return (f"{seat_label(winner).capitalize()} won after {result['turns']} turns; you ({seat_label(seat)}) "
            f"ranked {ranks[seat]}.")
