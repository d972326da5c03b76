"""What a New York Kings replay page draws: the state after each event, and the board's data."""

from sim.nyk import events as E
from sim.nyk import state as S
from sim.nyk.narrate import Names, _line
from sim.rules.nyk.content import mission_rewards
from sim.shared.seats import seat_labels as seat_labels_of

VALUE_LABELS = ("9", "10", "J", "Q", "K", "A")
SUIT_MARKS = {"spades": "\u2660", "hearts": "\u2665", "diamonds": "\u2666", "clubs": "\u2663", None: ""}

# the events the side panel lists: police interrogations and fights, with their dice
PANEL_EVENTS = {E.EV_INTERROGATION: "interrogation", E.EV_RESIST: "resist",
                E.EV_PROVOKE: "provocation", E.EV_STAGE: "stage", E.EV_FOLD: "fold",
                E.EV_FUSILLADE: "fusillade", E.EV_RECRUIT: "recruitment"}


def snapshot(game, env) -> dict:
    """The state the page shows, as small integer lists (read after an event's effects)."""
    g, pl, ch, ms = game.g, game.pl, game.ch, game.ms
    n = int(g[S.N_PLAYERS])
    return {
        "turn": int(g[S.TURN]), "first": int(g[S.FIRST]), "active": int(g[S.ACTIVE]),
        "decisions": int(g[S.DECISIONS]), "end": int(g[S.END_REVEALED]),
        "money": [int(pl[p, S.MONEY]) for p in range(n)],
        "hand": [int(pl[p, S.HAND_N]) for p in range(n)],
        "alive": [int(pl[p, S.ALIVE]) for p in range(n)],
        "owner": [int(x) for x in ch[:, S.OWNER]],
        "where": [int(x) for x in ch[:, S.WHERE]],
        "loc": [int(x) for x in ch[:, S.LOC]],
        "cell": [int(x) for x in ch[:, S.CELL]],
        "mission": [int(x) for x in ch[:, S.MISSION]],
        "police": [int(g[S.POLICE0 + k]) for k in range(S.N_POLICE)],
        "row": [int(g[S.ROW0 + i]) for i in range(S.MAX_ROW)],
        "periph": [int(g[S.PERIPH0 + i]) for i in range(4)],
        "m_state": [int(x) for x in ms[:, S.M_STATE]],
        "m_accept": [int(x) for x in ms[:, S.M_ACCEPT]],
        "m_dest": [int(x) for x in ms[:, S.M_DEST]],
        "m_holder": [int(x) for x in ms[:, S.M_HOLDER]],
    }


def board(ruleset) -> dict:
    """The map and the cast, from the ruleset (districts, connections, specials, rivers, parks)."""
    b = ruleset.board
    chars = []
    for a in ruleset.characters.affranchi:
        chars.append({"name": a.name, "short": "A", "value": VALUE_LABELS[5]})
    for h in ruleset.characters.henchmen:
        chars.append({"name": h.name, "short": VALUE_LABELS[h.value] + SUIT_MARKS.get(h.suit, ""),
                      "value": VALUE_LABELS[h.value]})
    missions = [{"name": m.name, "reward": int(r), "crew": m.crew, "risk": bool(m.at_risk),
                 "secret": bool(m.secret)}
                for m, r in zip(ruleset.missions, mission_rewards(ruleset), strict=False)]
    missions.append({"name": ruleset.missions.end_card.name, "reward": 0, "crew": 0, "risk": False,
                     "secret": False})
    return {
        "districts": [{"name": d.name, "band": d.band, "special": d.special,
                       "peripheral": bool(d.peripheral), "x": d.x, "y": d.y}
                      for d in b.districts],
        "edges": [list(e) for e in b.edges],
        "rivers": [{"name": n, "points": [list(p) for p in pts]} for n, pts in b.rivers],
        "parks": [{"name": n, "points": [list(p) for p in pts]} for n, pts in b.parks],
        "characters": chars, "missions": missions,
        "cells": int(ruleset["custody.cells"]), "row": int(ruleset["missions.row"]),
    }


def panel_entry(code, args, names: Names):
    """A side-panel line for a fight, an interrogation or a recruitment, or None."""
    kind = PANEL_EVENTS.get(code)
    if kind is None:
        return None
    return {"kind": kind, "text": _line(code, *args, names)}


def constants() -> dict:
    """The engine's codes the page reads (so the script holds no copy of them)."""
    codes = {"W_PERIPHERAL": S.W_PERIPHERAL, "W_CONTROLLED": S.W_CONTROLLED,
             "W_CUSTODY": S.W_CUSTODY, "W_DEAD": S.W_DEAD, "MS_ROW": S.MS_ROW,
             "MS_HELD": S.MS_HELD, "MS_DONE": S.MS_DONE, "N_AFFRANCHI": S.N_AFFRANCHI,
             "PC_RETURNING": S.PC_RETURNING, "NO": S.NO}
    return {name: int(code) for name, code in codes.items()}   # plain ints for the page's JSON


PANEL_TITLE = "Fights, interrogations, recruitments"
DICE = {"die": lambda v: VALUE_LABELS[v]}   # the engine's dice functions, each face as the page shows it


def seat_labels(names, seating) -> list[str]:
    return seat_labels_of([names[s] for s in seating])


def tell(rows, ruleset, labels):
    """Each event row's narration line and side-panel entry (or None)."""
    names = Names(ruleset, labels)
    for _, code, *args in rows:
        yield _line(code, *args, names) or "", panel_entry(code, args, names)
