"""Telling a recorded game: what both games' narrators (`sim.<game>.narrate`) share.

A recorded game holds `[turn, code, a, b, c, d, e, f]` event rows; a game's narrator knows what
each code means (`line(code, a, b, c, d, e, f)` -> a sentence, or None for a row it does not tell)
and the names of its event codes (`EV_*` in `sim.<game>.events`).
"""


def recorded(game, n_events: int):
    """The event rows a recorded game wrote (`n_events`: the game record's index of their count)."""
    return game.events[: int(game.g[n_events])]


def tell(rows, line, turn_code: int) -> list[str]:
    """One sentence per told event, each turn's row as a heading and its events indented under it."""
    lines = []
    for row in rows:
        code, *args = (int(x) for x in row[1:])
        text = line(code, *args)
        if text is not None:
            lines.append(text if code == turn_code else f"  {text}")
    return lines


def event_names(events) -> dict[int, str]:
    """code -> name of an events module's `EV_*` constants (EV_TURN -> "turn")."""
    return {v: k[3:].lower() for k, v in vars(events).items() if k.startswith("EV_")}


def event_dicts(rows, line, names: dict[int, str]) -> list[dict]:
    """The rows as JSON-able dicts: turn, event name, its arguments and its sentence (or None)."""
    out = []
    for row in rows:
        turn, code, *args = (int(x) for x in row)
        out.append({"turn": turn, "event": names[code], "args": args, "text": line(code, *args)})
    return out
