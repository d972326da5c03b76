"""One Pig game in words: each recorded event row as a sentence (sim.shared.narrate)."""

from sim.pig import events as E
from sim.pig.state import N_EVENTS, N_PLAYERS
from sim.shared.narrate import event_dicts as shared_event_dicts
from sim.shared.narrate import event_names, recorded, tell
from sim.shared.seats import seat_labels as seat_labels_of


def teller(labels):
    """line(code, a, b, c, d, e, f) -> the sentence of one event, seats named by `labels`."""
    def line(code, a, b, c, d=0, e=0, f=0):  # noqa: ARG001 - every row has six arguments
        if code == E.EV_SETUP:
            return f"{a} players race to {b} points (PIG-1, PIG-5)."
        if code == E.EV_TURN:
            return f"Round {a}: {labels[b]} to roll."
        if code == E.EV_ROLL:
            return f"{labels[a]} rolls {b}: turn total {c}."
        if code == E.EV_BUST:
            return f"{labels[a]} rolls 1 and loses {b} (PIG-3)."
        if code == E.EV_HOLD:
            return f"{labels[a]} holds and banks {b}: score {c} (PIG-4)."
        if code == E.EV_WIN:
            return f"{labels[a]} reaches {b} and wins (PIG-5)."
        if code == E.EV_CAP:
            return f"No winner after {a} rounds: the highest score wins (PIG-6)."
        if code == E.EV_RANK:
            return f"{labels[a]} ranks {b} with {c}."
        return None
    return line


def narrate(rows, labels) -> list[str]:
    return tell(rows, teller(labels), E.EV_TURN)


def seat_labels(played) -> list[str]:
    names = played.lineup.names
    return seat_labels_of([names[played.seating[p]] for p in range(int(played.game.g[N_PLAYERS]))])


def story(played) -> list[str]:
    """The whole game in words: every roll, bust and hold, then the ranking."""
    return narrate(recorded(played.game, N_EVENTS), seat_labels(played))


def event_dicts(played) -> list[dict]:
    """The recorded events as dicts (for --json)."""
    return shared_event_dicts(recorded(played.game, N_EVENTS), teller(seat_labels(played)), EVENT_NAMES)


EVENT_NAMES = event_names(E)
