"""What an American Gangsters replay page draws: the state after each event, and the game's data."""

from sim.ag import events as E
from sim.ag import state as S
from sim.ag.narrate import Names, _line
from sim.rules.ag.content import TRAFFICS
from sim.shared.seats import seat_labels as seat_labels_of

# the events the side panel lists: location rolls, shoot-outs and duels, with their dice
PANEL_EVENTS = {E.EV_ROLL: "roll", E.EV_REROLL: "re-roll", E.EV_SHOOTOUT: "shoot-out",
                E.EV_SHOT: "shot", E.EV_DUEL: "duel", E.EV_PULL: "roulette",
                E.EV_BOSS_DIES: "boss dies"}


def snapshot(game, env) -> dict:
    """The state the page shows, as small integer lists (read after an event's effects)."""
    g, pl = game.g, game.pl
    n = int(g[S.N_PLAYERS])

    def col(c):
        return [int(pl[p, c]) for p in range(n)]

    return {
        "turn": int(g[S.TURN]), "godfather": int(g[S.GODFATHER]), "fbi": int(g[S.FBI]),
        "decisions": int(g[S.DECISIONS]), "over": int(g[S.GAME_OVER]),
        "renown": col(S.RENOWN), "henchmen": col(S.HENCHMEN), "killers": col(S.KILLERS),
        "wounds": col(S.WOUNDS), "occ": col(S.OCC_READY),
        "bags": [int(S.bag_count(game, p)) for p in range(n)],
        "won": [[int(pl[p, S.WON0 + d]) for d in range(S.N_DISTRICTS)] for p in range(n)],
        "tokens": [[int(pl[p, S.TOK0 + t]) for t in range(S.N_TRAFFICS)] for p in range(n)],
        "barons": [int(g[S.BARON0 + t]) for t in range(S.N_TRAFFICS)],
        "caids": [int(g[S.CAID0 + d]) for d in range(S.N_DISTRICTS)],
        "shown": [int(g[S.SHOW0 + s]) for s in range(1 + int(g[S.SHOW_N]))],
        "at": [[[int(game.at[s, p, k]) for k in range(S.N_PIECES)] for p in range(n)]
               for s in range(1 + int(g[S.SHOW_N]))],
        "dice": [[[int(game.dice[p, k, r]) for r in range(3)] for k in range(3)] for p in range(n)],
    }


def board(ruleset) -> dict:
    """The cards, districts, traffics and tracks the page draws, from the ruleset."""
    cards = ruleset.content["locations"]
    return {
        "districts": list(cards.districts), "traffics": list(TRAFFICS),
        "cards": [{"label": c.label, "district": c.district, "target": int(c.target)}
                  for c in cards],
        "parrain": int(ruleset["renown.parrain"]), "fbi_max": int(ruleset["fbi.max"]),
        "fbi_informer": int(ruleset["fbi.informer"]),
    }


def panel_entry(code, args, names: Names, shown):
    kind = PANEL_EVENTS.get(code)
    if kind is None:
        return None
    return {"kind": kind, "text": _line(code, *args, names, shown)}


PANEL_TITLE = "Location rolls and shoot-outs"
DICE = {"face": lambda v: str(v + 1), "bullet": lambda v: "BANG" if v else "clic"}


def seat_labels(names, seating) -> list[str]:
    return seat_labels_of([names[s] for s in seating])


def tell(rows, ruleset, labels):
    """Each event row's narration line and side-panel entry (or None); a slot is named by the card
    shown on it, so the reveals are followed as the rows go."""
    names, shown = Names(ruleset, labels), {}
    for _, code, *args in rows:
        if code == E.EV_REVEAL:
            shown[args[0]] = args[1]
        yield _line(code, *args, names, shown) or "", panel_entry(code, args, names, shown)


def constants() -> dict:
    return {}
