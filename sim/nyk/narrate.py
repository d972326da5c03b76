"""A recorded New York Kings game told in words, from the engine's event rows (sim.nyk.events)."""

from sim.nyk.hands import show_strength
from sim.nyk import events as E
from sim.nyk.decisions import MODE_HELI, MODE_SUBWAY
from sim.nyk.state import DECIDED, N_CHARS, N_EVENTS, NO
from sim.nyk.compiled import E_POACH_HENCHMAN, E_STEAL_MONEY
from sim.shared.narrate import event_dicts as shared_event_dicts
from sim.shared.narrate import event_names, recorded, tell
from sim.rules.nyk.content import mission_rewards
from sim.shared.seats import seat_labels as seat_labels_of


class Names:
    """Readable names of the ruleset's districts, characters, missions and cards."""

    def __init__(self, ruleset, seat_labels):
        self.districts = ruleset.board.names
        aff = [a.name for a in ruleset.characters.affranchi]
        hen = [f"{h.name} ({h.label})" for h in ruleset.characters.henchmen]
        self.characters = aff + hen
        self.missions = [m.name for m in ruleset.missions] + [ruleset.missions.end_card.name]
        self.rewards = list(mission_rewards(ruleset))
        self.secret = [m.secret for m in ruleset.missions] + [False]
        self.cards = [c.name for c in ruleset.resources.expanded()]
        self.seats = seat_labels

    def district(self, d):
        return self.districts[d] if 0 <= d < len(self.districts) else "nowhere"

    def group(self, mask):
        return ", ".join(self.characters[c] for c in range(N_CHARS) if (mask >> c) & 1) or "nobody"

    def seat(self, p):
        return self.seats[p]


def narrate(rows, names: Names) -> list[str]:
    """One line per event, turns as headings."""
    return tell(rows, teller(names), E.EV_TURN)


def teller(names: Names):
    """The sentence of one event row (`line(code, a, b, c, d, e, f)`, sim.shared.narrate)."""
    return lambda code, a, b, c, d, e, f: _line(code, a, b, c, d, e, f, names)


def _card_effect(kind, target, amount, owner, seat, n: Names) -> str:
    """The target of a card that names one (Shakedown, Loyalty Price, Undercover Cop)."""
    if kind == E_STEAL_MONEY:
        return f"  it takes ${amount:,} from {seat(target)}."
    if kind == E_POACH_HENCHMAN:
        return f"  {n.characters[target]} leaves {seat(owner)} for ${amount:,}."
    return f"  {n.characters[target]} ({seat(owner)}) is exposed and discarded."


def _line(code, a, b, c, d, e, f, n: Names):  # noqa: C901 - one case per event kind
    seat, dist, who, m = n.seat, n.district, n.group, n.missions
    if code == E.EV_SETUP:
        return f"Setup: {a} players; the end card is card {b + 1} of the mission deck."
    if code == E.EV_TURN:
        return f"Turn {a}"
    if code == E.EV_BID:
        return f"{seat(a)} bids ${b:,} ({c} $0 bill(s))."
    if code == E.EV_FIRST:
        tie = f", drawn among {c} tied" if c > 1 else ""
        return f"{seat(a)} takes the first player card with ${b:,}{tie}."
    if code == E.EV_DRAW:
        return f"{seat(a)} draws {b} resource card(s)."
    if code == E.EV_RESHUFFLE:
        cars = ("no police car joins: every car allowed is in play" if b == 0 else
                "a police car joins at BROADWAY" if b == 1 else f"{b} police cars join at BROADWAY")
        return f"The resource pile is rebuilt from {a} discarded cards; {cars}."
    if code == E.EV_DISCARD:
        return f"{seat(a)} discards {n.cards[b]} (hand limit)."
    if code == E.EV_CUSTODY_STEP:
        return f"{n.characters[b]} ({seat(a)}) moves to custody cell {c}."
    if code == E.EV_RELEASED:
        return f"{n.characters[b]} ({seat(a)}) leaves custody at BROADWAY."
    if code == E.EV_POLICE_MOVE:
        return f"{seat(a)} moves police car {b + 1} to {dist(c)}."
    if code == E.EV_JOURNEY:
        how = {MODE_SUBWAY: " by subway", MODE_HELI: " by helicopter"}.get(d, "")
        return f"{seat(a)}: {who(c)} set(s) out from {dist(b)}{how}."
    if code == E.EV_STEP:
        return f"{seat(a)}: {who(c)} -> {dist(b)}."
    if code == E.EV_CHECK:
        return f"Police check at {dist(b)}: {seat(a)}'s characters stop."
    if code == E.EV_INTERROGATION:
        if d < 0:
            return f"{seat(a)} escapes the interrogation at {dist(b)} with a card."
        return (f"Interrogation of {seat(a)} at {dist(b)} ({c} car(s)): crew {show_strength(d)} "
                f"against police {show_strength(e)}.")
    if code == E.EV_ESCAPE:
        return f"{seat(a)}'s crew is stronger: nothing found."
    if code == E.EV_RESIST:
        return f"{seat(a)} resists: crew {show_strength(c)} against police {show_strength(d)}."
    if code == E.EV_ARREST:
        lost = f"; {n.characters[c]} is lost" if c != NO else ""
        return f"{seat(a)}: {who(b)} arrested, to custody{lost}."
    if code == E.EV_ACCEPT:
        dest = dist(e) + (" (drawn secretly)" if n.secret[b] else "")
        return f"{seat(a)} accepts '{m[b]}' with {who(c)} at {dist(d)}, destination {dest}."
    if code == E.EV_ACCOMPLISH:
        return f"{seat(a)} accomplishes '{m[b]}' at {dist(d)} with {who(c)}: +${e:,}."
    if code == E.EV_REVEAL:
        dest = dist(c) if c != NO else "?"
        return f"New mission '{m[a]}' (${n.rewards[a]:,}): accept at {dist(b)}, accomplish at {dest}."
    if code == E.EV_EXPIRE:
        return f"Mission '{m[a]}' expires."
    if code == E.EV_END_CARD:
        return f"'{m[-1]}' is revealed: the game ends after turn {a}."
    if code == E.EV_PROVOKE:
        return f"{seat(a)} provokes {seat(b)} at {dist(c)}: {who(d)} against {who(e)}."
    if code == E.EV_STAGE:
        stage = ("intimidation", "artillery")[a - 1]
        return f"  {stage}: {show_strength(b)} against {show_strength(c)}; pot ${d:,}."
    if code == E.EV_FOLD:
        return f"  {seat(a)} folds."
    if code == E.EV_FUSILLADE:
        return (f"  fusillade: {seat(a)} {show_strength(c)} against {seat(b)} "
                f"{show_strength(d)}; pot ${e:,}.")
    if code == E.EV_LOSE:
        return f"{seat(a)} loses {n.characters[b]}."
    if code == E.EV_AFFRANCHI_DIES:
        return f"{seat(a)}'s affranchi is dead: {seat(a)} is out of the game."
    if code == E.EV_RECRUIT:
        return f"{seat(a)} offers ${c:,} to {n.characters[b]}: best die {_die(d)}."
    if code == E.EV_RECRUIT_RESULT:
        outcome = ("refuses", "hesitates; the offer is withdrawn", f"joins for ${d:,}")[c]
        return f"{n.characters[b]} {outcome}."
    if code == E.EV_PART:
        return f"{seat(a)} parts with {n.characters[b]}."
    if code == E.EV_CARD:
        return f"{seat(a)} plays {n.cards[b]}."
    if code == E.EV_CARD_MOVE:
        return f"{seat(a)} discards {n.cards[b]} for a bonus move."
    if code == E.EV_CUSTODY_CARD:
        whom = "every character" if c == NO else f"the cell of {n.characters[c]}"
        return f"{seat(a)} discards {n.cards[b]} to move {whom} one custody cell toward the exit."
    if code == E.EV_CARD_EFFECT:
        return _card_effect(b, c, d, e, seat, n)
    if code == E.EV_HELI:
        return f"{seat(a)}: {who(c)} fly to {dist(b)} for ${d:,}."
    if code == E.EV_MISSION_LOST:
        return f"{seat(a)} loses mission '{m[b]}'."
    if code == E.EV_POLICE_BACK:
        return f"Police car {a + 1} goes back from {dist(b)} to BROADWAY."
    if code == E.EV_CANCELLED:
        return f"{seat(a)} cancels {seat(c)}'s {n.cards[d]}."
    if code == E.EV_NO_TILE:
        return f"Mission '{m[a]}' is discarded: no address tile left in the bag."
    if code == E.EV_DEAL:
        return f"{seat(a)} pays {seat(b)} ${c:,} to move police car {d + 1} to {dist(e)}."
    if code == E.EV_RANK:
        return f"#{b}: {seat(a)} with ${c:,}."
    if code == E.EV_GAME_END:
        return f"{seat(a)} wins (decided by {DECIDED[b]})."
    return None


def _die(rank):
    return ("9", "10", "J", "Q", "K", "A")[rank] if 0 <= rank < 6 else "-"


def seat_labels(played) -> list[str]:
    names = played.lineup.names
    return seat_labels_of([names[played.seating[p]] for p in range(len(played.seating))])


def story(played) -> list[str]:
    return narrate(recorded(played.game, N_EVENTS), Names(played.ruleset, seat_labels(played)))


def event_dicts(played) -> list[dict]:
    """The recorded events as dicts (for --json, sim.shared.narrate.event_dicts)."""
    names = Names(played.ruleset, seat_labels(played))
    return shared_event_dicts(recorded(played.game, N_EVENTS), teller(names), EVENT_NAMES)


EVENT_NAMES = event_names(E)
