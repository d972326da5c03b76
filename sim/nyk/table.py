"""A New York Kings seat at the table, in words: its view and the news (sim.shared.forward.play_human).

Everything here reads the forward state through the seat's view (sim.nyk.view): its own hand and
money, the board, the missions (a secret destination only when it holds the mission, NYK-A1),
each rival's standing as the `view.fortunes` ruling lets it know it (NYK-S2) and the size of
its hand. The news is the engine's narration with what the seat cannot see taken out: the end
card's place in the mission deck and the destinations the others drew in secret.
"""

from sim.nyk import events as E
from sim.nyk import state
from sim.nyk.narrate import Names, narrate
from sim.nyk.view import seen_dest, seen_standing
from sim.shared.seats import seat_labels

WHERE = {state.W_CONTROLLED: "", state.W_CUSTODY: " (in custody)"}


class Table:
    def __init__(self, fw):
        self.fw = fw
        n = fw.players
        self.names = Names(fw.ruleset, seat_labels([fw.names[p] for p in range(n)]))

    def news(self, seat: int, since: int = 0) -> tuple[list[str], int]:
        game = self.fw.game
        end = int(game.g[state.N_EVENTS])
        lines = []
        for row in game.events[since:end]:
            code, a, b = int(row[1]), int(row[2]), int(row[3])
            if code == E.EV_SETUP:
                lines.append(f"  Setup: {a} players; the end card is shuffled into the mission deck.")
            elif code == E.EV_ACCEPT and self.names.secret[b] and a != seat:
                m, crew, at = self.names.missions[b], self.names.group(int(row[4])), int(row[5])
                lines.append(f"  {self.names.seat(a)} accepts '{m}' with {crew} at "
                             f"{self.names.district(at)}, destination drawn secretly.")
            else:
                lines += narrate([row], self.names)
        return lines, end

    def view(self, seat: int) -> list[str]:
        fw, names = self.fw, self.names
        game, env = fw.game, fw.env[0]
        g, pl = game.g, game.pl
        hand = [names.cards[int(c)] for c in pl[seat, state.HAND0:state.HAND0 + pl[seat, state.HAND_N]]]
        lines = [f"Turn {int(g[state.TURN])}. You are {names.seat(seat)}: ${int(pl[seat, state.MONEY]):,}; "
                 f"hand: {', '.join(hand) or 'empty'}."]
        for q in range(fw.players):
            crew = [f"{names.characters[c]} at {names.district(int(game.ch[c, state.LOC]))}"
                    f"{WHERE.get(int(game.ch[c, state.WHERE]), '')}"
                    for c in range(state.N_CHARS) if game.ch[c, state.OWNER] == q
                    and game.ch[c, state.WHERE] in WHERE]
            standing = "" if q == seat else f"standing ${int(seen_standing(game, env, seat, q)):,}, "
            alive = "" if pl[q, state.ALIVE] else " (out of the game)"
            lines.append(f"  {names.seat(q)}{alive}: {standing}{int(pl[q, state.HAND_N])} card(s); "
                         + ("; ".join(crew) or "no characters"))
        for m in range(state.N_MISSIONS):
            if game.ms[m, state.M_STATE] not in (state.MS_ROW, state.MS_HELD):
                continue
            dest = int(seen_dest(game, seat, m))
            holder = int(game.ms[m, state.M_HOLDER])
            held = f", held by {names.seat(holder)}" if game.ms[m, state.M_STATE] == state.MS_HELD else ""
            lines.append(f"  Mission '{names.missions[m]}' (${names.rewards[m]:,}): accept at "
                         f"{names.district(int(game.ms[m, state.M_ACCEPT]))}, accomplish at "
                         f"{names.district(dest) if dest != state.NO else '?'}{held}.")
        police = [names.district(int(g[state.POLICE0 + k])) for k in range(state.N_POLICE)]
        lines.append("  Police cars: " + ", ".join(police) + ".")
        return lines
