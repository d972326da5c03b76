"""A readable line for each option row of the decision interface (sim.nyk.decisions)."""

from sim.nyk import decisions as D
from sim.nyk.state import NO


def option_label(row, names) -> str:  # noqa: C901 - one case per op code
    op, a, b, c, _ = (int(x) for x in row)
    district, who = names.district, names.group
    if op == D.OP_END:
        return "end (nothing more)"
    if op == D.OP_BID:
        return f"bid ${a:,} ({b} $0 bill(s))"
    if op == D.OP_CARD:
        return f"card {names.cards[a]}" if 0 <= a < len(names.cards) else "no card"
    if op == D.OP_POLICE:
        return f"police car {a + 1} to {district(b)}" if b != NO else f"police car {a + 1}"
    if op == D.OP_JOURNEY:
        mode = {D.MODE_SUBWAY: " by subway", D.MODE_HELI: " by helicopter"}.get(c, "")
        return f"{who(b)} to {district(a)}{mode}"
    if op == D.OP_STEP:
        paid = " (paying a card)" if b == D.ANY_CARD else (f" with {names.cards[b]}" if b >= 0 else "")
        return f"step to {district(a)}{paid}"
    if op == D.OP_DROP:
        return f"leave {names.characters[a]} here"
    if op == D.OP_PICKUP:
        return f"take {names.characters[a]} along"
    if op == D.OP_PLAYER:
        return names.seat(a)
    if op == D.OP_YES:
        return "yes"
    if op == D.OP_NO:
        return "no"
    if op == D.OP_CHAR:
        return names.characters[a] if a != NO else "none"
    if op == D.OP_ACCEPT:
        return f"accept the mission on space {a + 1} with {who(b)}"
    if op == D.OP_ACCOMPLISH:
        return f"accomplish {names.missions[a]} with {who(b)}"
    if op == D.OP_PROVOKE:
        return f"provoke {names.seat(b)} at {district(a)} (by {names.characters[c]})"
    if op == D.OP_RECRUIT:
        offer = "" if b == D.ANY_OFFER else f" offering ${b:,}"
        return f"recruit {names.characters[a]}{offer}"
    if op == D.OP_PLAY:
        return f"play {names.cards[a]}" + (f" (target {c})" if c != NO and c != 0 else "")
    if op == D.OP_PART:
        return f"part with {names.characters[a]}"
    if op == D.OP_STOP:
        return "stop here"
    return f"option {op} {a} {b} {c}"
