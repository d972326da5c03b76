"""What a Pig replay page draws: each seat's score and the mover's turn total after each event."""

from sim.pig import events as E
from sim.pig import state as S
from sim.pig.narrate import teller
from sim.shared.seats import seat_labels as seat_labels_of

PANEL_EVENTS = {E.EV_BUST: "bust", E.EV_HOLD: "hold", E.EV_WIN: "win"}
PANEL_TITLE = "Busts and holds"
DICE = {"roll_face": str}    # the engine's die (sim.pig.engine.roll_face), shown as its face


def snapshot(game, env) -> dict:
    g = game.g
    n = int(g[S.N_PLAYERS])
    return {"turn": int(g[S.TURN]), "mover": int(g[S.TO_MOVE]), "total": int(g[S.TURN_TOTAL]),
            "over": int(g[S.GAME_OVER]), "score": [int(game.pl[p, S.SCORE]) for p in range(n)]}


def board(ruleset) -> dict:
    return {"goal": int(ruleset["goal"]), "faces": int(ruleset["die.faces"])}


def seat_labels(names, seating) -> list[str]:
    return seat_labels_of([names[s] for s in seating])


def tell(rows, ruleset, labels):
    """Each event row's narration line and side-panel entry (or None)."""
    line = teller(labels)
    for _, code, *args in rows:
        text = line(code, *args) or ""
        kind = PANEL_EVENTS.get(code)
        yield text, ({"kind": kind, "text": text} if kind else None)


def constants() -> dict:
    return {}


def play(engine, game, env, spec, ruleset, lineup, seating) -> None:
    """The recorded game (sim.replay.record): Pig's engine also takes the lineup's policy tables."""
    from sim import rng
    from sim.pig.game import tables_of

    held, params = tables_of(lineup, ruleset)
    env.params[: len(seating)] = params[seating]
    engine.play(game, env, held, spec.players, rng.run_key(spec.seed), spec.game_id, 1, 0)
