"""Game content as immutable data: board (NYK-C1), characters (C2), missions (C4), resources (C5).

Each `parse_*` function takes the table read from a data file and the file's name (for error
messages) and returns frozen dataclasses, or raises RulesetError in one line.
"""

from collections import deque
from dataclasses import dataclass

import numpy as np

from sim.rules.errors import RulesetError, did_you_mean, unknown
from sim.rules.spec import RANDOM, RANK_LABELS

BANDS = ("white", "grey", "black")            # NYK-C1: Lower, Midtown, Upper Manhattan
# BROADWAY (NYK-S9), GRAND CENTRAL (NYK-M6), FINANCIAL (NYK-M7)
SPECIALS = ("police", "subway", "heliport")
SUITS = ("hearts", "diamonds", "clubs", "spades")
TIMINGS = ("own", "opponent", "other")        # NYK-C5: blue, red, black icons
# NYK-C5: the moment a card is played at ("ACCOMPLISH MISSION:", "FUSILLADE:", ...), in the order
# of the engine's windows (sim.nyk.decisions WIN_*). Each window allows some icons: the owner's own
# movement, actions and just-accomplished mission are blue; the start of an opponent's turn is red;
# the common resources phase is black; fights, interrogations and an answer to a card take any icon
# (the icon then says whose turn it must be: blue own, red an opponent's, black a fight or a
# common phase).
WINDOWS = ("interrogation", "intimidation", "fusillade", "losing", "won_fight", "card_played",
           "turn_start", "resources", "accomplished", "movement", "actions")
WINDOW_ICONS = {
    "interrogation": TIMINGS, "intimidation": TIMINGS, "fusillade": TIMINGS, "losing": TIMINGS,
    "won_fight": TIMINGS, "card_played": TIMINGS, "turn_start": ("opponent",),
    "resources": ("other",), "accomplished": ("own",), "movement": ("own",), "actions": ("own",),
}
FIGHT_WINDOWS = ("intimidation", "fusillade", "losing", "won_fight")  # a black icon plays here
AFFRANCHI_RANK = 5                            # NYK-C2: the affranchi are the aces

# NYK-C5: the fixed vocabulary of resource effects, each with its numeric parameters (in order).
EFFECTS: dict[str, tuple[str, ...]] = {
    "mission_bonus": ("amount",),            # an accomplished mission pays `amount` more
    "steal_money": ("amount",),              # take `amount` from an opponent sharing a district
    "bank_income": ("amount",),              # take `amount` from the bank
    "extra_move": ("steps",),                # one character or group moves `steps` more districts
    "police_move": ("cars", "steps"),        # move up to `cars` different police cars, `steps` each
    "police_place": ("cars",),               # put `cars` police cars from BROADWAY (while any) on any district
    "police_remove": ("cars",),              # `cars` police cars go back to BROADWAY
    "block_interrogation": ("count",),       # cancel an interrogation, and the next count - 1 of the turn
    "release_custody": ("cells",),           # characters in custody move `cells` toward the exit
    "recruit": ("dice_bonus", "discount"),   # a recruit attempt anywhere (NYK-A8), extra dice
    "poach_henchman": ("cost", "max_rank"),  # buy an opponent's henchman up to `max_rank` (NYK-A8)
    "discard_henchman": ("max_rank",),       # an opponent discards a henchman up to `max_rank`
    "fight_bonus_die": ("dice",),            # roll `dice` more dice in a fight, best five count
    "fight_reroll": ("dice",),               # roll again up to `dice` of your dice
    "cancel_elimination": ("count",),        # an elimination cancelled, and the next count - 1 of the turn
    "extra_elimination": ("count",),         # the beaten side loses `count` more characters
    "cancel_card": ("count",),               # cancel a card just played, and the next count - 1 of the turn
    "draw_cards": ("count",),                # draw `count` resource cards
}
MAX_PARAMS = max(len(names) for names in EFFECTS.values())
# NYK-C5: the windows in which the engine can resolve each effect (the first is a file's default)
EFFECT_WINDOWS: dict[str, tuple[str, ...]] = {
    "mission_bonus": ("accomplished",),
    "steal_money": ("actions",),
    "bank_income": ("resources", "actions"),
    "extra_move": ("movement",),
    "police_move": ("movement",),
    "police_place": ("movement",),
    "police_remove": ("turn_start",),
    "block_interrogation": ("interrogation",),
    "release_custody": ("movement",),
    "recruit": ("actions",),
    "poach_henchman": ("actions",),
    "discard_henchman": ("actions",),
    "fight_bonus_die": ("fusillade",),
    "fight_reroll": ("intimidation",),
    "cancel_elimination": ("losing",),
    "extra_elimination": ("won_fight",),
    "cancel_card": ("card_played",),
    "draw_cards": ("resources", "actions"),
}
assert set(EFFECT_WINDOWS) == set(EFFECTS)
_MONEY_PARAMS = {"amount", "cost", "discount"}

# What the engine's fixed-size arrays hold (sim/nyk/state.py, sim/nyk/env.py). Content outside
# these is refused here, so `mobsim rules check` and `mobsim run` agree on every ruleset
# (tests/test_ruleset_limits.py keeps these numbers equal to the engine's).
ENGINE_MISSIONS = 24            # exactly: the engine deals and shuffles a deck of this size
ENGINE_RESOURCE_CARDS = 32      # exactly
ENGINE_HENCHMEN = 20            # exactly
ENGINE_MAX_AFFRANCHI = 5        # one per seat, at most 5 seats
ENGINE_MAX_DISTRICTS = 32
ENGINE_MAX_NEIGHBOURS = 12
ENGINE_MAX_TILES = 19           # the address tiles' bag
ENGINE_PERIPHERAL = 4           # exactly: the peripheral districts where henchmen wait
ENGINE_MAX_BILLS = 16           # starting bills per player
# money stays inside the int32 columns of the results (2,147,483,647) even with an endless bank:
# 24 rewards of at most $1,000,000 at the largest reward_scale, and card amounts of at most
# $100,000 however many cards a game plays (64 turns x 5 seats x a full hand of 32)
ENGINE_MAX_REWARD = 1_000_000
ENGINE_MAX_CARD_AMOUNT = 100_000
# other card parameters: dice are counted in 4-bit fields, and a move or a draw is a few steps
ENGINE_MAX_PARAM = {"dice": 5, "dice_bonus": 5, "steps": 12, "cars": 4, "cells": 10, "count": 5}
# a card of no car or no count would be played for nothing (and an Alibi of count 0 still block)
ENGINE_MIN_PARAM = {"cars": 1, "count": 1}


def _tables(where: str, raw: dict, key: str, what: str) -> list:
    """raw[key] as a list of tables (`[[key]]` entries), or a one-line error."""
    entries = raw[key]
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise RulesetError(f"{where}: {key} = {_short(entries)} is not allowed (allowed: a list "
                           f"of [[{key}]] tables, one per {what})")
    return entries


def _short(value) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _exactly(where: str, count: int, wanted: int, what: str) -> None:
    if count != wanted:
        raise RulesetError(f"{where}: the deck has {count} {what} (allowed: exactly {wanted}, the "
                           f"size the engine plays)")


def _fields(where: str, table, allowed: set, required: set = frozenset()) -> dict:
    if not isinstance(table, dict):
        raise RulesetError(f"{where}: expected a table, got {table!r}")
    for name in table:
        if name not in allowed:
            raise unknown(where, "key", name, allowed)
    for name in sorted(required):
        if name not in table:
            raise RulesetError(f"{where}: missing key {name!r}")
    return table


def _typed(where: str, table: dict, name: str, kinds, default=None, words="a value"):
    value = table.get(name, default)
    ok = isinstance(value, kinds) and not (isinstance(value, bool) and bool not in _tuple(kinds))
    if not ok:
        raise RulesetError(f"{where}: {name} = {value!r} is not allowed (allowed: {words})")
    return value


def _tuple(kinds):
    return kinds if isinstance(kinds, tuple) else (kinds,)


def _unique(where: str, names, what: str = "name"):
    seen = set()
    for name in names:
        if name in seen:
            raise RulesetError(f"{where}: duplicate {what} {name!r} (allowed: each {what} once)")
        seen.add(name)


# --- board (NYK-C1) ----------------------------------------------------------------------------

@dataclass(frozen=True)
class District:
    name: str
    band: str | None        # "white" | "grey" | "black" for tile districts, None otherwise
    has_tile: bool
    peripheral: bool
    special: str | None     # "police" | "subway" | "heliport" | None
    x: float
    y: float


@dataclass(frozen=True)
class Board:
    districts: tuple[District, ...]
    edges: tuple[tuple[int, int], ...]          # i < j, sorted
    peripheral_order: tuple[str, ...]           # NYK-S3 order
    tiles: int
    assumed: bool
    rivers: tuple[tuple[str, tuple[tuple[float, float], ...]], ...] = ()
    parks: tuple[tuple[str, tuple[tuple[float, float], ...]], ...] = ()

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(d.name for d in self.districts)

    def __len__(self) -> int:
        return len(self.districts)

    def index(self, name: str) -> int:
        for i, district in enumerate(self.districts):
            if district.name == name:
                return i
        raise KeyError(f"no district {name!r}{did_you_mean(name, self.names)}")

    def neighbours(self, i: int) -> tuple[int, ...]:
        found = {b for a, b in self.edges if a == i} | {a for a, b in self.edges if b == i}
        return tuple(sorted(found))

    def special(self, kind: str) -> int:
        """Index of the district with this special ("police", "subway", "heliport")."""
        for i, district in enumerate(self.districts):
            if district.special == kind:
                return i
        raise KeyError(kind)

    @property
    def tile_indices(self) -> tuple[int, ...]:
        return tuple(i for i, d in enumerate(self.districts) if d.has_tile)

    @property
    def peripheral_indices(self) -> tuple[int, ...]:
        return tuple(self.index(name) for name in self.peripheral_order)

    def distances(self) -> list[list[int]]:
        """Shortest path lengths (in connections) between every two districts."""
        n = len(self.districts)
        adjacency = [self.neighbours(i) for i in range(n)]
        table = []
        for start in range(n):
            dist = [-1] * n
            dist[start] = 0
            queue = deque([start])
            while queue:
                here = queue.popleft()
                for there in adjacency[here]:
                    if dist[there] < 0:
                        dist[there] = dist[here] + 1
                        queue.append(there)
            table.append(dist)
        return table

    def to_dict(self) -> dict:
        return {
            "assumed": self.assumed, "tiles": self.tiles,
            "peripheral_order": list(self.peripheral_order),
            "districts": [
                {"name": d.name, "band": d.band, "tile": d.has_tile, "peripheral": d.peripheral,
                 "special": d.special, "x": d.x, "y": d.y} for d in self.districts],
            "edges": [[self.districts[a].name, self.districts[b].name] for a, b in self.edges],
        }


_BOARD_KEYS = {"assumed", "tiles", "peripheral_order", "district", "connections", "river", "park"}
_DISTRICT_KEYS = {"name", "band", "tile", "peripheral", "special", "x", "y"}


def parse_board(raw: dict, where: str) -> Board:
    _fields(where, raw, _BOARD_KEYS, {"tiles", "peripheral_order", "district", "connections"})
    entries = raw["district"]
    if not isinstance(entries, list) or not entries:
        raise RulesetError(f"{where}: district must be a list of [[district]] tables")
    if len(entries) > ENGINE_MAX_DISTRICTS:
        raise RulesetError(f"{where}: {len(entries)} districts (allowed: at most "
                           f"{ENGINE_MAX_DISTRICTS}, what the engine holds)")
    districts = []
    for n, entry in enumerate(entries, 1):
        here = f"{where}: district {entry.get('name', n) if isinstance(entry, dict) else n}"
        _fields(here, entry, _DISTRICT_KEYS, {"name", "x", "y"})
        name = _typed(here, entry, "name", str, words="a district name")
        has_tile = _typed(here, entry, "tile", bool, False, "true or false")
        peripheral = _typed(here, entry, "peripheral", bool, False, "true or false")
        band = entry.get("band", "none")
        if band not in (*BANDS, "none"):
            raise RulesetError(f"{here}: band = {band!r} is not allowed "
                               f"(allowed: {', '.join(BANDS)}, none)")
        band = None if band == "none" else band
        if has_tile and band is None:
            raise RulesetError(f"{here}: a tile district needs a band "
                               f"(allowed: {', '.join(BANDS)})")
        if not has_tile and band is not None:
            raise RulesetError(f"{here}: band = {band!r} on a district without a tile "
                               f"(allowed: none)")
        special = entry.get("special")
        if special is not None and special not in SPECIALS:
            raise RulesetError(f"{here}: special = {special!r} is not allowed"
                               f"{did_you_mean(special, SPECIALS)} "
                               f"(allowed: {', '.join(SPECIALS)})")
        x = _typed(here, entry, "x", (int, float), words="a number")
        y = _typed(here, entry, "y", (int, float), words="a number")
        districts.append(District(name.strip().upper(), band, has_tile, peripheral, special,
                                  float(x), float(y)))
    names = [d.name for d in districts]
    _unique(where, names, "district")

    for kind in SPECIALS:
        count = sum(d.special == kind for d in districts)
        if count != 1:
            problem = "is missing" if count == 0 else f"is on {count} districts"
            raise RulesetError(f"{where}: special district {kind!r} {problem} "
                               f"(allowed: exactly one)")

    tiles = _typed(where, raw, "tiles", int, words="an integer")
    tile_districts = sum(d.has_tile for d in districts)
    if tiles != tile_districts:
        raise RulesetError(f"{where}: tiles = {tiles} but {tile_districts} districts have a tile "
                           f"(allowed: tiles = {tile_districts}, one per tile district)")
    if tiles > ENGINE_MAX_TILES:
        raise RulesetError(f"{where}: tiles = {tiles} (allowed: at most {ENGINE_MAX_TILES}, the "
                           f"address tiles the engine's bag holds)")

    order = raw["peripheral_order"]
    if not isinstance(order, list) or not all(isinstance(o, str) for o in order):
        raise RulesetError(f"{where}: peripheral_order = {order!r} is not a list of district names")
    order = tuple(o.strip().upper() for o in order)
    for name in order:
        if name not in names:
            raise unknown(f"{where}: peripheral_order", "district", name, names)
    _unique(f"{where}: peripheral_order", order, "district")
    peripheral = {d.name for d in districts if d.peripheral}
    if set(order) != peripheral or not order:
        raise RulesetError(f"{where}: peripheral_order = {list(order)} (allowed: exactly the "
                           f"peripheral districts {sorted(peripheral)})")
    if len(order) != ENGINE_PERIPHERAL:
        raise RulesetError(f"{where}: {len(order)} peripheral districts (allowed: exactly "
                           f"{ENGINE_PERIPHERAL}, what the engine plays)")
    for d in districts:
        if d.peripheral and d.has_tile:
            raise RulesetError(f"{where}: district {d.name} is peripheral and has a tile "
                               f"(allowed: peripheral districts carry no tile)")

    connections = raw["connections"]
    if not isinstance(connections, dict):
        raise RulesetError(f"{where}: connections must be a table of district = [neighbours]")
    edges = set()
    for name, others in connections.items():
        here = f"{where}: connections"
        key = name.strip().upper()
        if key not in names:
            raise unknown(here, "district", name, names)
        if not isinstance(others, list):
            raise RulesetError(f"{here}: {name} = {others!r} is not a list of district names")
        for other in others:
            other_key = str(other).strip().upper()
            if other_key not in names:
                raise unknown(f"{here}: {name}", "district", other, names)
            if other_key == key:
                raise RulesetError(f"{here}: {name} is connected to itself "
                                   f"(allowed: other districts)")
            a, b = sorted((names.index(key), names.index(other_key)))
            edges.add((a, b))

    board = Board(
        districts=tuple(districts), edges=tuple(sorted(edges)), peripheral_order=order,
        tiles=tiles, assumed=_typed(where, raw, "assumed", bool, True, "true or false"),
        rivers=_shapes(where, raw, "river"), parks=_shapes(where, raw, "park"),
    )
    for i, district in enumerate(districts):
        degree = len(board.neighbours(i))
        if degree > ENGINE_MAX_NEIGHBOURS:
            raise RulesetError(f"{where}: district {district.name} has {degree} neighbours "
                               f"(allowed: at most {ENGINE_MAX_NEIGHBOURS}, what the engine holds)")
    unreachable = [board.districts[i].name for i, d in enumerate(board.distances()[0]) if d < 0]
    if unreachable:
        raise RulesetError(f"{where}: the board is disconnected: {', '.join(unreachable)} "
                           f"cannot be reached from {names[0]} (allowed: a connected board)")
    return board


def _shapes(where: str, raw: dict, key: str):
    shapes = []
    for entry in raw.get(key, []):
        _fields(f"{where}: {key}", entry, {"name", "points"}, {"name", "points"})
        points = entry["points"]
        ok = isinstance(points, list) and len(points) >= 2 and all(
            isinstance(p, list) and len(p) == 2 and all(isinstance(c, int | float) for c in p)
            for p in points)
        if not ok:
            raise RulesetError(f"{where}: {key} {entry['name']}: points must be a list of [x, y]")
        shapes.append((str(entry["name"]), tuple((float(a), float(b)) for a, b in points)))
    return tuple(shapes)


# --- characters (NYK-C2) -----------------------------------------------------------------------

@dataclass(frozen=True)
class Character:
    name: str
    suit: str | None     # None for an affranchi (counts in every suit)
    value: int           # rank 0..5 for 9, 10, J, Q, K, A
    assumed: bool

    @property
    def label(self) -> str:
        return RANK_LABELS[self.value]


@dataclass(frozen=True)
class Characters:
    affranchi: tuple[Character, ...]
    henchmen: tuple[Character, ...]

    def henchman(self, name: str) -> Character:
        for h in self.henchmen:
            if h.name == name:
                return h
        raise KeyError(name)

    def to_dict(self) -> dict:
        return {
            "affranchi": [{"name": a.name, "value": a.label, "assumed": a.assumed}
                          for a in self.affranchi],
            "henchmen": [{"name": h.name, "suit": h.suit, "value": h.label, "assumed": h.assumed}
                         for h in self.henchmen],
        }


def parse_characters(raw: dict, where: str) -> Characters:
    _fields(where, raw, {"henchmen_count", "affranchi", "henchman"},
            {"henchmen_count", "affranchi", "henchman"})
    affranchi = []
    for entry in _tables(where, raw, "affranchi", "affranchi"):
        here = f"{where}: affranchi {entry.get('name', '?') if isinstance(entry, dict) else '?'}"
        _fields(here, entry, {"name", "assumed"}, {"name"})
        affranchi.append(Character(_typed(here, entry, "name", str, words="a name"), None,
                                   AFFRANCHI_RANK, _typed(here, entry, "assumed", bool, False,
                                                          "true or false")))
    henchmen = []
    for entry in _tables(where, raw, "henchman", "henchman"):
        here = f"{where}: henchman {entry.get('name', '?') if isinstance(entry, dict) else '?'}"
        _fields(here, entry, {"name", "suit", "value", "assumed"}, {"name", "suit", "value"})
        suit = entry["suit"]
        if suit not in SUITS:
            raise RulesetError(f"{here}: suit = {suit!r} is not allowed{did_you_mean(suit, SUITS)} "
                               f"(allowed: {', '.join(SUITS)})")
        label = str(entry["value"]).strip().upper()
        if label not in RANK_LABELS[:AFFRANCHI_RANK]:
            raise RulesetError(f"{here}: value = {entry['value']!r} is not allowed "
                               f"(allowed: 9, 10, J, Q, K)")
        henchmen.append(Character(_typed(here, entry, "name", str, words="a name"), suit,
                                  RANK_LABELS.index(label),
                                  _typed(here, entry, "assumed", bool, False, "true or false")))
    if not affranchi:
        raise RulesetError(f"{where}: affranchi: none given (allowed: one per player, at least 2)")
    _unique(where, [c.name for c in affranchi + henchmen], "character name")
    _unique(where, [f"{RANK_LABELS[h.value]} of {h.suit}" for h in henchmen], "henchman card")
    count = _typed(where, raw, "henchmen_count", int, words="an integer")
    if count != len(henchmen):
        raise RulesetError(f"{where}: henchmen_count = {count} but the deck has {len(henchmen)} "
                           f"henchmen (allowed: the counts add up)")
    _exactly(where, len(henchmen), ENGINE_HENCHMEN, "henchmen")
    if len(affranchi) > ENGINE_MAX_AFFRANCHI:
        raise RulesetError(f"{where}: {len(affranchi)} affranchi (allowed: at most "
                           f"{ENGINE_MAX_AFFRANCHI}, one per seat of the engine)")
    return Characters(tuple(affranchi), tuple(henchmen))


# --- missions (NYK-C4) -------------------------------------------------------------------------

@dataclass(frozen=True)
class Mission:
    name: str
    crew: int            # 1 or 2 characters to accept and accomplish
    at_risk: bool
    secret: bool         # "?" destination, drawn when accepted
    reward: int          # dollars, whole thousands
    assumed: bool


@dataclass(frozen=True)
class EndCard:
    name: str
    text: str
    assumed: bool


@dataclass(frozen=True)
class MissionDeck:
    cards: tuple[Mission, ...]
    end_card: EndCard

    def __iter__(self):
        return iter(self.cards)

    def __len__(self) -> int:
        return len(self.cards)

    def __getitem__(self, i):
        return self.cards[i]

    def to_dict(self) -> dict:
        return {
            "end_card": {"name": self.end_card.name, "text": self.end_card.text,
                         "assumed": self.end_card.assumed},
            "missions": [{"name": m.name, "crew": m.crew, "at_risk": m.at_risk, "secret": m.secret,
                          "reward": m.reward, "assumed": m.assumed} for m in self.cards],
        }


def parse_missions(raw: dict, where: str) -> MissionDeck:
    _fields(where, raw, {"deck_size", "end_card", "mission"}, {"deck_size", "end_card", "mission"})
    end = _fields(f"{where}: end_card", raw["end_card"], {"name", "text", "assumed"}, {"name"})
    end_card = EndCard(_typed(f"{where}: end_card", end, "name", str, words="a name"),
                       str(end.get("text", "")),
                       _typed(f"{where}: end_card", end, "assumed", bool, False, "true or false"))
    cards = []
    for entry in _tables(where, raw, "mission", "mission"):
        here = f"{where}: mission {entry.get('name', '?') if isinstance(entry, dict) else '?'}"
        _fields(here, entry, {"name", "crew", "at_risk", "secret", "reward", "assumed"},
                {"name", "crew", "reward"})
        crew = entry["crew"]
        if crew not in (1, 2) or isinstance(crew, bool):
            raise RulesetError(f"{here}: crew = {crew!r} is not allowed (allowed: 1 or 2)")
        reward = entry["reward"]
        if isinstance(reward, bool) or not isinstance(reward, int):
            raise RulesetError(f"{here}: reward = {reward!r} is not allowed (allowed: whole "
                               f"thousands of dollars, e.g. 4000)")
        if reward % 1000 or reward <= 0:
            raise RulesetError(f"{here}: reward = {reward} is not a whole number of thousands "
                               f"(allowed: 1000, 2000, ... as bills are thousands)")
        if reward > ENGINE_MAX_REWARD:
            raise RulesetError(f"{here}: reward = {reward} is out of range (allowed: at most "
                               f"{ENGINE_MAX_REWARD:,}, so money fits the results' columns)")
        cards.append(Mission(
            _typed(here, entry, "name", str, words="a name"), crew,
            _typed(here, entry, "at_risk", bool, False, "true or false"),
            _typed(here, entry, "secret", bool, False, "true or false"), reward,
            _typed(here, entry, "assumed", bool, False, "true or false")))
    _unique(where, [m.name for m in cards] + [end_card.name], "mission name")
    size = _typed(where, raw, "deck_size", int, words="an integer")
    if size != len(cards):
        raise RulesetError(f"{where}: deck_size = {size} but the deck has {len(cards)} missions "
                           f"(allowed: the counts add up)")
    if not cards:
        raise RulesetError(f"{where}: no missions (allowed: at least one)")
    _exactly(where, len(cards), ENGINE_MISSIONS, "missions")
    return MissionDeck(tuple(cards), end_card)


# --- resources (NYK-C5) ------------------------------------------------------------------------

@dataclass(frozen=True)
class Resource:
    name: str
    count: int
    timing: str                        # "own" | "opponent" | "other"
    effect: str                        # a key of EFFECTS
    params: tuple[tuple[str, int], ...]  # (parameter, value) in the order of EFFECTS[effect]
    text: str
    assumed: bool
    window: str = ""                   # a key of WINDOWS: the moment it is played (NYK-C5)

    def param(self, name: str) -> int:
        return dict(self.params)[name]


@dataclass(frozen=True)
class ResourceDeck:
    cards: tuple[Resource, ...]        # one entry per card name, with its count
    size: int

    def __iter__(self):
        return iter(self.cards)

    def expanded(self) -> tuple[Resource, ...]:
        """One entry per physical card (the deck as shuffled)."""
        return tuple(card for card in self.cards for _ in range(card.count))

    def to_dict(self) -> dict:
        return {"size": self.size, "cards": [
            {"name": c.name, "count": c.count, "timing": c.timing, "window": c.window,
             "effect": c.effect,
             "params": dict(c.params), "text": c.text, "assumed": c.assumed} for c in self.cards]}


def parse_resources(raw: dict, where: str) -> ResourceDeck:
    _fields(where, raw, {"deck_size", "card"}, {"deck_size", "card"})
    cards = []
    for entry in _tables(where, raw, "card", "card"):
        here = f"{where}: card {entry.get('name', '?') if isinstance(entry, dict) else '?'}"
        _fields(here, entry, {"name", "count", "timing", "window", "effect", "params", "text",
                              "assumed"},
                {"name", "count", "timing", "effect", "text"})
        count = entry["count"]
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise RulesetError(f"{here}: count = {count!r} is not allowed "
                               f"(allowed: an integer >= 1)")
        timing = entry["timing"]
        if timing not in TIMINGS:
            raise RulesetError(f"{here}: timing = {timing!r} is not allowed"
                               f"{did_you_mean(timing, TIMINGS)} (allowed: {', '.join(TIMINGS)})")
        effect = entry["effect"]
        if effect not in EFFECTS:
            raise RulesetError(f"{here}: effect = {effect!r} is not allowed"
                               f"{did_you_mean(effect, EFFECTS)} (allowed: {', '.join(EFFECTS)})")
        window = _window(here, entry, timing, effect)
        names = EFFECTS[effect]
        given = _fields(f"{here}: params", entry.get("params", {}), set(names), set(names))
        params = []
        for name in names:
            value = given[name]
            least = ENGINE_MIN_PARAM.get(name, 0)
            if isinstance(value, bool) or not isinstance(value, int) or value < least:
                raise RulesetError(f"{here}: params.{name} = {value!r} is not allowed "
                                   f"(allowed: an integer >= {least})")
            if name in _MONEY_PARAMS and value % 1000:
                raise RulesetError(f"{here}: params.{name} = {value} is not a whole number of "
                                   f"thousands (allowed: 1000, 2000, ...)")
            most = ENGINE_MAX_CARD_AMOUNT if name in _MONEY_PARAMS else ENGINE_MAX_PARAM.get(name)
            if most is not None and value > most:
                raise RulesetError(f"{here}: params.{name} = {value} is out of range (allowed: "
                                   f"at most {most:,}, what the engine holds)")
            if name == "max_rank" and value > AFFRANCHI_RANK - 1:
                raise RulesetError(f"{here}: params.max_rank = {value} is out of range "
                                   f"(allowed: 0..4 for 9..K)")
            params.append((name, value))
        cards.append(Resource(_typed(here, entry, "name", str, words="a name"), count, timing,
                              effect, tuple(params), _typed(here, entry, "text", str, words="text"),
                              _typed(here, entry, "assumed", bool, True, "true or false"),
                              window))
    _unique(where, [c.name for c in cards], "card name")
    size = _typed(where, raw, "deck_size", int, words="an integer")
    total = sum(c.count for c in cards)
    if size != total:
        raise RulesetError(f"{where}: deck_size = {size} but the card counts add up to {total} "
                           f"(allowed: the counts add up)")
    _exactly(where, total, ENGINE_RESOURCE_CARDS, "resource cards")
    return ResourceDeck(tuple(cards), size)


def _window(here: str, entry: dict, timing: str, effect: str) -> str:
    """NYK-C5: the card's window, one its effect can be resolved in and its icon allows."""
    window = entry.get("window", EFFECT_WINDOWS[effect][0])
    if window not in WINDOWS:
        raise RulesetError(f"{here}: window = {window!r} is not allowed"
                           f"{did_you_mean(str(window), WINDOWS)} (allowed: {', '.join(WINDOWS)})")
    if window not in EFFECT_WINDOWS[effect]:
        raise RulesetError(f"{here}: window = {window!r} cannot resolve effect {effect!r} "
                           f"(allowed: {', '.join(EFFECT_WINDOWS[effect])})")
    if timing not in WINDOW_ICONS[window]:
        raise RulesetError(f"{here}: timing = {timing!r} cannot be played in window {window!r} "
                           f"(allowed: {', '.join(WINDOW_ICONS[window])})")
    return window


# --- the Ruleset's hook (sim/rules/nyk/__init__.py) -----------------------------------------------

def cross_check(values: dict, origin: dict, content: dict) -> None:
    """Checks between values and content; the message names where the later value came from."""

    def fail(key: str, problem: str, allowed: str):
        where = origin.get(key, "rules.toml")
        raise RulesetError(f"{where}: {key} = {values[key]!r} {problem} (allowed: {allowed})")

    board, characters = content["board"], content["characters"]
    n_affranchi = len(characters.affranchi)
    if values["players.max"] > n_affranchi:
        fail("players.max", "is more than the affranchi", f"at most {n_affranchi}")
    if values["players.min"] > values["players.max"]:
        fail("players.min", "is more than players.max", f"at most {values['players.max']}")
    if len(values["start.bills"]) > ENGINE_MAX_BILLS:
        fail("start.bills", f"holds {len(values['start.bills'])} bills",
             f"at most {ENGINE_MAX_BILLS} bills, what the engine holds")
    district = values["start.district"]
    if district != RANDOM and district not in board.names:
        fail("start.district", f"is not a district{did_you_mean(district, board.names)}",
             '"random" or a district name')
    if values["police.start_cars"] > values["police.max_cars"]:
        fail("police.start_cars", "is more than police.max_cars",
             f"at most {values['police.max_cars']}")
    if values["recruit.min_offer"] > values["recruit.max_offer"]:
        fail("recruit.min_offer", "is more than recruit.max_offer",
             f"at most {values['recruit.max_offer']}")
    step = values["recruit.offer_step"]
    for key in ("recruit.min_offer", "recruit.max_offer"):
        if values[key] % step:
            fail(key, "is not a multiple of recruit.offer_step", f"multiples of {step}")
    if values["missions.end_card_among_last"] > len(content["missions"]) + 1:
        fail("missions.end_card_among_last", "is more than the mission deck and end card",
             f"at most {len(content['missions']) + 1}")
    if values["missions.row"] > len(content["missions"]):
        fail("missions.row", "is more than the mission deck", f"at most {len(content['missions'])}")


def assumed(rs) -> dict:
    """The content names that are assumptions rather than printed rules."""
    return {
        "board": rs.board.assumed,
        "henchmen": tuple(h.name for h in rs.characters.henchmen if h.assumed),
        "missions": tuple(m.name for m in rs.missions if m.assumed),
        "resources": tuple(c.name for c in rs.resources if c.assumed),
    }


def mission_rewards(rs) -> np.ndarray:
    """Rewards of the mission deck (in deck file order) after missions.reward_scale."""
    from sim.rules.ruleset import round_thousands

    scale = rs["missions.reward_scale"]
    return np.array([round_thousands(m.reward * scale) for m in rs.missions], dtype=np.int64)


def start_district(rs) -> int:
    """Index of the start district, or -1 for a random district each game."""
    name = rs["start.district"]
    return -1 if name == RANDOM else rs.board.index(name)
