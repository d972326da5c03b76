"""A recorded American Gangsters game told in words, from the engine's event rows (sim.ag.events)."""

from sim.ag import events as E
from sim.ag.decisions import (
    OP_BUY_RENOWN, OP_HEAL, OP_SELL_BAGS, POWER_ARMS,
)
from sim.ag.state import BOSS, DECIDED, ENDED, HENCH, INFORMER, KILLER, N_EVENTS, N_PLAYERS, NO, OCC
from sim.rules.ag.content import TRAFFICS
from sim.shared.narrate import event_dicts as shared_event_dicts
from sim.shared.narrate import event_names, recorded, tell
from sim.shared.seats import seat_labels as seat_labels_of

PIECES = {BOSS: "boss", HENCH: "henchman", KILLER: "killer", OCC: "occasional henchman"}


class Names:
    """Readable names of a ruleset's cards and events, and of the seats."""

    def __init__(self, ruleset, seat_labels):
        cards = ruleset.content["locations"]
        self.districts = cards.districts
        self.cards = [f"{c.label} ({c.district}, target {c.target})" for c in cards]
        self.events = [e.label for e in ruleset.content["events"].deck(ruleset["events.optional"])]
        self.seats = seat_labels

    def seat(self, p):
        return self.seats[p] if p >= 0 else "the bank"

    def slot(self, s, shown):
        return "the hospital" if s == 0 else self.cards[shown.get(s, 0)]


def narrate(rows, names: Names, before=()) -> list[str]:
    """One line per event, turns as headings. `before`: the game's earlier rows, read but not
    told, so that a later chunk names the cards revealed before it."""
    line = teller(names)
    for row in before:
        line(*(int(x) for x in row[1:]))
    return tell(rows, line, E.EV_TURN)


def teller(names: Names):
    """The sentence of one event row (`line(code, a, b, c, d, e, f)`, sim.shared.narrate), told in
    order: it remembers which card each revealed slot shows."""
    shown = {}

    def line(code, a, b, c, d, e, f):
        if code == E.EV_REVEAL:
            shown[a] = b
        return _line(code, a, b, c, d, e, f, names, shown)
    return line


def _line(code, a, b, c, d, e, f, n: Names, shown):  # noqa: C901 - one case per event kind
    seat = n.seat
    if code == E.EV_SETUP:
        return f"Setup: {a} families, 4 bags each; profiles dealt face down."
    if code == E.EV_TURN:
        return f"Turn {a} (godfather: {seat(b)})"
    if code == E.EV_STEAL:
        return f"{seat(a)}, Gambling Baron, takes a bag from {seat(b)}."
    if code == E.EV_TRADE:
        what = {OP_BUY_RENOWN: "buys a renown level", OP_SELL_BAGS: "sells a renown level for bags"}
        return f"{seat(a)} {what.get(b, 'gives up a renown level for a henchman')}."
    if code == E.EV_EVENT:
        return f"Event: {n.events[a]}."
    if code == E.EV_BID:
        return f"{seat(a)} bid {b} bag(s)."
    if code == E.EV_AUCTION_WIN:
        if a == NO:
            return "Nobody bid a bag: nobody wins the auction."
        return f"{seat(a)} wins the auction with {b} bag(s) and gains {c} renown."
    if code == E.EV_PULL:
        return f"{seat(a)} pays and turns a bullet: {'BANG!' if b else 'clic...'}"
    if code == E.EV_FOLD:
        return f"{seat(a)} folds in round {b}{' (loses renown)' if b == 1 else ''}."
    if code == E.EV_ROULETTE_WIN:
        return f"{seat(a)} is the last boss in: wins the pot of {b} bag(s) and renown."
    if code == E.EV_DUEL:
        return f"{seat(a)} shoots at {seat(b)}'s boss: {'BANG!' if c else 'clic...'}"
    if code == E.EV_FBI:
        cause = f" ({seat(c)})" if c >= 0 else ""
        return f"FBI pawn {'up' if b > 0 else 'down'} {abs(b)} to {a}{cause}."
    if code == E.EV_BANK_PAYS:
        return f"{seat(a)} takes {b} bag(s) from the bank."
    if code == E.EV_TAX:
        return f"{seat(a)} pays {b} bag(s) to the bank."
    if code == E.EV_HEAL_ALL:
        return "Every boss is healed."
    if code == E.EV_PRESS:
        return f"{seat(a)} loses {b} renown to the press."
    if code == E.EV_OCC_GAIN:
        return f"{seat(a)} gains {b} occasional henchman(men)."
    if code == E.EV_REVEAL:
        return f"Location {a}: {n.cards[b]}."
    if code == E.EV_PLACE:
        return f"{seat(a)} places its {PIECES[c]} on {n.slot(b, shown)}."
    if code == E.EV_UNPLACED:
        return f"{seat(a)} keeps its boss home and loses renown."
    if code == E.EV_DRUGS:
        return f"{seat(a)}, Drugs Baron, takes an occasional henchman at the hospital."
    if code == E.EV_MOVE:
        return (f"{seat(a)} moves {seat(c)}'s {PIECES[d]} from {n.slot(b, shown)} to "
                f"{n.slot(e, shown)} (Prostitution Baron).")
    if code == E.EV_POWER_SOLD:
        power = "Arms" if c == POWER_ARMS else "Prostitution"
        return f"{seat(a)} sells the {power} Baron's power to {seat(b)}."
    if code == E.EV_HOSPITAL:
        return f"{seat(a)} at the hospital: " + ("heals its boss." if b == OP_HEAL else
                                                 f"recruits a {PIECES[c]}.")
    if code == E.EV_ROLL:
        return f"{n.slot(a, shown)}: {b} CLIC(s) for a target of {c}."
    if code == E.EV_REROLL:
        return f"{seat(a)}'s boss has the failed dice re-rolled: {c} CLIC(s)."
    if code == E.EV_FAIL:
        return "Missed: the card will be discarded."
    if code == E.EV_SUCCESS:
        return f"Target reached; {b} family(ies) on the card."
    if code == E.EV_OFFER:
        return (f"{seat(a)} makes its terms (greed or bluff level {c})"
                f"{' after the shoot-out' if d > 1 else ''}.")
    if code == E.EV_ANSWER:
        return f"{seat(a)} {'accepts' if b else 'refuses'}."
    if code == E.EV_SPLIT:
        parts = [f"{b} renown" if b else "", f"{c} bag(s)" if c else "", "the token" if d else "",
                 "the card" if e else "", f"{f} occasional" if f else ""]
        return f"{seat(a)} gets " + (", ".join(x for x in parts if x) or "nothing") + "."
    if code == E.EV_SHOOTOUT:
        return "No agreement: shoot-out!"
    if code == E.EV_ARMS:
        return f"{seat(a)} rolls a henchman as a killer (Arms Baron)."
    if code == E.EV_SHOT:
        return f"{seat(a)} hits {seat(b)}'s {PIECES[c]}."
    if code == E.EV_BOSS_DIES:
        to = seat(f) if f >= 0 else "the bank"
        card = f", a card of {n.districts[d]}" if d != NO else ""
        token = f", a {TRAFFICS[e]} token" if e != NO else ""
        return f"{seat(a)}'s boss dies: {c} bag(s){card}{token} go to {to}; a new boss takes over."
    if code == E.EV_DISCARDED:
        return "Still no agreement: the card and its gains are discarded."
    if code == E.EV_TITLE:
        what = f"Baron of {TRAFFICS[b]}" if a == 0 else f"Caid of {n.districts[b]}"
        if c == NO:
            return f"The title {what} goes back to the box."
        return f"{seat(c)} becomes {what}."
    if code == E.EV_RANK:
        return f"#{b} {seat(a)}: renown {c} with titles, bags worth {d}."
    if code == E.EV_WIN:
        return f"Game over ({ENDED[b]}): {seat(a)} wins, decided by {DECIDED[c]}."
    if code == E.EV_SIDE_PAYMENT:
        return f"{seat(a)} pays {seat(b)} a bag (side payment)."
    if code == E.EV_RESHUFFLE:
        return f"The location pile is rebuilt from {a} discarded cards."
    return None


def seat_labels(played) -> list[str]:
    names = played.lineup.names
    return seat_labels_of([names[played.seating[p]] for p in range(int(played.game.g[N_PLAYERS]))])


def story(played) -> list[str]:
    """The whole game in words: the table, every event, the ranking, the informer unmasked."""
    game = played.game
    labels = seat_labels(played)
    names = Names(played.ruleset, labels)
    rows = recorded(game, N_EVENTS)
    informer = int(game.g[INFORMER])
    tail = (f"The informer was {labels[informer]}." if informer >= 0
            else "No family held the informer's profile.")
    return narrate(rows, names) + [tail]


def event_dicts(played) -> list[dict]:
    """The recorded events as dicts (for --json, sim.shared.narrate.event_dicts)."""
    names = Names(played.ruleset, seat_labels(played))
    return shared_event_dicts(recorded(played.game, N_EVENTS), teller(names), EVENT_NAMES)


EVENT_NAMES = event_names(E)
