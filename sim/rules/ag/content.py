"""American Gangsters content as immutable data: location cards (AG-C7), cost tracks (AG-K2) and
event cards (AG-C9, AG-V), parsed from `locations.toml`, `tracks.toml` and `events.toml`.

Each parser takes the table read from a file and the file's name (for error messages) and returns
frozen dataclasses, or raises RulesetError in one line. `HOOK` plugs them into `Ruleset.load`.
"""

from dataclasses import dataclass

from sim.rules.errors import RulesetError, unknown

DISTRICTS = ("Brooklyn", "Queens", "Manhattan", "Bronx")     # AG-C1: one Caid each
TRAFFICS = ("drugs", "arms", "gambling", "prostitution")     # AG-C3: one Baron each
MAX_CARDS = 64        # location cards the engine holds (40 in the box)
MAX_EVENT_CARDS = 16  # event cards (10 in the box)
MAX_TARGET = 24       # CLIC target of a card
MAX_TRACK = 16        # steps of a cost track

# AG-V: the fixed vocabulary of event effects, each with its integer parameters (in order)
EFFECTS: dict[str, tuple[str, ...]] = {
    "auction": ("renown",),     # AG-V1: secret bids, all lost; the highest bid gains `renown`
    "roulette": (),             # AG-V2: Russian roulette of the bosses
    "duels": (),                # AG-V3: one bullet at an opponent's boss, who shoots back
    "fbi": ("steps",),          # the FBI pawn moves `steps` (negative: down)
    "bank_pays": ("bags",),     # every family takes `bags` from the bank
    "tax": ("bags",),           # every family pays `bags` to the bank
    "heal": (),                 # every boss's wound is healed
    "press": ("renown",),       # the families with the highest renown lose `renown`
    "occasional": ("dice",),    # the godfather takes `dice` occasional henchmen
    "calm": (),                 # nothing happens
}
assert max(len(v) for v in EFFECTS.values()) <= 1   # the engine keeps one parameter per card

_CARD_FIELDS = ("target", "renown", "bags", "traffic", "occasional", "fbi")
_RANGES = {"target": (1, MAX_TARGET), "renown": (0, 10), "bags": (0, 10), "occasional": (0, 2),
           "fbi": (-3, 3)}


def _table(where: str, table, allowed, required=()) -> dict:
    if not isinstance(table, dict):
        raise RulesetError(f"{where}: expected a table, got {table!r}")
    for name in table:
        if name not in allowed:
            raise unknown(where, "key", name, allowed)
    for name in required:
        if name not in table:
            raise RulesetError(f"{where}: missing key {name!r}")
    return table


def _int(where: str, name: str, value, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise RulesetError(f"{where}: {name} = {value!r} is not allowed (allowed: an integer "
                           f"from {lo} to {hi})")
    return value


def _text(where: str, name: str, value, empty_ok: bool = False) -> str:
    if not isinstance(value, str) or (not value.strip() and not empty_ok):
        raise RulesetError(f"{where}: {name} = {value!r} is not allowed (allowed: a text)")
    return value.strip()


def _flag(where: str, name: str, value) -> bool:
    if not isinstance(value, bool):
        raise RulesetError(f"{where}: {name} = {value!r} is not allowed (allowed: true or false)")
    return value


# --- location cards (AG-C7) --------------------------------------------------------------------

@dataclass(frozen=True)
class LocationCard:
    kind: str
    label: str
    district: str
    target: int          # CLICs to succeed (AG-T4)
    renown: int          # pistols: renown points to share
    bags: int
    traffic: str | None  # a traffic token, or None
    occasional: int      # occasional henchmen dice it gives (AG-K3)
    fbi: int             # +1: FBI pawn up on success; -1: down (the police station)

    def to_dict(self) -> dict:
        return {"kind": self.kind, "label": self.label, "district": self.district,
                "target": self.target, "renown": self.renown, "bags": self.bags,
                "traffic": self.traffic or "", "occasional": self.occasional, "fbi": self.fbi}


@dataclass(frozen=True)
class Locations:
    cards: tuple[LocationCard, ...]   # kinds in file order, each in every district
    kinds: tuple[str, ...]
    districts: tuple[str, ...]
    assumed: bool
    source: str

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self):
        return iter(self.cards)

    def to_dict(self) -> dict:
        return {"assumed": self.assumed, "source": self.source, "districts": list(self.districts),
                "cards": [c.to_dict() for c in self.cards]}


def _card_fields(where: str, entry: dict, base: dict) -> dict:
    fields = dict(base)
    for name in _CARD_FIELDS:
        if name not in entry:
            continue
        value = entry[name]
        if name == "traffic":
            value = _text(where, name, value, empty_ok=True)
            if value and value not in TRAFFICS:
                raise unknown(where, "traffic", value, TRAFFICS)
            fields[name] = value or None
        else:
            fields[name] = _int(where, name, value, *_RANGES[name])
    return fields


def parse_locations(raw: dict, where: str) -> Locations:
    _table(where, raw, {"assumed", "source", "districts", "kind", "override"}, ("districts", "kind"))
    districts = raw["districts"]
    if (not isinstance(districts, list) or not 1 <= len(districts) <= len(DISTRICTS)
            or not all(isinstance(d, str) and d.strip() for d in districts)):
        raise RulesetError(f"{where}: districts = {districts!r} is not allowed (allowed: 1 to "
                           f"{len(DISTRICTS)} district names)")
    districts = tuple(d.strip() for d in districts)
    if len(set(districts)) != len(districts):
        raise RulesetError(f"{where}: districts = {list(districts)} names a district twice")
    entries = raw["kind"]
    if not isinstance(entries, list) or not entries:
        raise RulesetError(f"{where}: kind must be a list of [[kind]] tables")
    kinds, base = [], {}
    for n, entry in enumerate(entries, 1):
        here = f"{where}: kind {entry.get('name', n) if isinstance(entry, dict) else n}"
        _table(here, entry, {"name", "label", *_CARD_FIELDS}, ("name", *_CARD_FIELDS))
        name = _text(here, "name", entry["name"])
        if name in kinds:
            raise RulesetError(f"{where}: duplicate kind {name!r} (allowed: each kind once)")
        kinds.append(name)
        base[name] = {"label": _text(here, "label", entry.get("label", name)),
                      **_card_fields(here, entry, {})}
    fields = {(k, d): dict(base[k]) for k in kinds for d in districts}
    overrides = raw.get("override", [])
    if not isinstance(overrides, list):
        raise RulesetError(f"{where}: override must be a list of [[override]] tables")
    for n, entry in enumerate(overrides, 1):
        here = f"{where}: override {n}"
        _table(here, entry, {"kind", "district", *_CARD_FIELDS}, ("kind", "district"))
        kind, district = entry["kind"], entry["district"]
        if kind not in kinds:
            raise unknown(here, "kind", kind, kinds)
        if district not in districts:
            raise unknown(here, "district", district, districts)
        fields[(kind, district)] = _card_fields(here, entry, fields[(kind, district)])
    cards = tuple(LocationCard(kind=k, district=d, **fields[(k, d)]) for k in kinds for d in districts)
    if len(cards) > MAX_CARDS:
        raise RulesetError(f"{where}: {len(cards)} location cards (allowed: at most {MAX_CARDS})")
    return Locations(cards, tuple(kinds), districts,
                     _flag(where, "assumed", raw.get("assumed", True)),
                     _text(where, "source", raw.get("source", "assumed")))


# --- cost tracks (AG-K2) -----------------------------------------------------------------------

@dataclass(frozen=True)
class Track:
    prices: tuple[int, ...]     # bags to pay with the pawn on step i
    fbi_steps: tuple[int, ...]  # steps showing the FBI symbol (arriving there: FBI +1)

    def to_dict(self) -> dict:
        return {"prices": list(self.prices), "fbi_steps": list(self.fbi_steps)}


@dataclass(frozen=True)
class Tracks:
    henchman: Track
    killer: Track
    assumed: bool
    source: str

    def to_dict(self) -> dict:
        return {"assumed": self.assumed, "source": self.source,
                "henchman": self.henchman.to_dict(), "killer": self.killer.to_dict()}


def _track(where: str, raw) -> Track:
    _table(where, raw, {"prices", "fbi_steps"}, ("prices",))
    prices = raw["prices"]
    if not isinstance(prices, list) or not 1 <= len(prices) <= MAX_TRACK:
        raise RulesetError(f"{where}: prices = {prices!r} is not allowed (allowed: a list of 1 to "
                           f"{MAX_TRACK} prices)")
    prices = tuple(_int(where, "price", p, 0, 20) for p in prices)
    steps = raw.get("fbi_steps", [])
    if not isinstance(steps, list):
        raise RulesetError(f"{where}: fbi_steps = {steps!r} is not a list of steps")
    # the pawn moves onto steps 1 .. len - 1 (it stays on the last one)
    steps = tuple(sorted({_int(where, "fbi step", s, 1, len(prices) - 1) for s in steps}))
    return Track(prices, steps)


def parse_tracks(raw: dict, where: str) -> Tracks:
    _table(where, raw, {"assumed", "source", "henchman", "killer"}, ("henchman", "killer"))
    return Tracks(_track(f"{where}: henchman", raw["henchman"]), _track(f"{where}: killer", raw["killer"]),
                  _flag(where, "assumed", raw.get("assumed", True)),
                  _text(where, "source", raw.get("source", "assumed")))


# --- event cards (AG-C9, AG-V) -------------------------------------------------------------------

@dataclass(frozen=True)
class EventCard:
    name: str
    label: str
    effect: str
    params: tuple[tuple[str, int], ...]   # in the order of EFFECTS[effect]
    optional: bool                         # pistol symbol: joins the deck with events.optional
    text: str
    assumed: bool

    def to_dict(self) -> dict:
        return {"name": self.name, "label": self.label, "effect": self.effect,
                "params": dict(self.params), "optional": self.optional, "text": self.text,
                "assumed": self.assumed}


@dataclass(frozen=True)
class Events:
    cards: tuple[EventCard, ...]
    assumed: bool
    source: str

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self):
        return iter(self.cards)

    def deck(self, optional: bool) -> tuple[EventCard, ...]:
        """The cards shuffled into the event deck (the optional ones only with `optional`)."""
        return tuple(c for c in self.cards if optional or not c.optional)

    def to_dict(self) -> dict:
        return {"assumed": self.assumed, "source": self.source,
                "cards": [c.to_dict() for c in self.cards]}


def parse_events(raw: dict, where: str) -> Events:
    _table(where, raw, {"assumed", "source", "event"}, ("event",))
    entries = raw["event"]
    if not isinstance(entries, list):
        raise RulesetError(f"{where}: event must be a list of [[event]] tables")
    cards, names = [], set()
    for n, entry in enumerate(entries, 1):
        here = f"{where}: event {entry.get('name', n) if isinstance(entry, dict) else n}"
        _table(here, entry, {"name", "label", "effect", "params", "optional", "text", "assumed"},
               ("name", "effect"))
        name = _text(here, "name", entry["name"])
        if name in names:
            raise RulesetError(f"{where}: duplicate event {name!r} (allowed: each name once)")
        names.add(name)
        effect = entry["effect"]
        if effect not in EFFECTS:
            raise unknown(here, "effect", effect, EFFECTS)
        given = _table(f"{here}: params", entry.get("params", {}), EFFECTS[effect], EFFECTS[effect])
        params = tuple((k, _int(here, k, given[k], -10, 10)) for k in EFFECTS[effect])
        cards.append(EventCard(name, _text(here, "label", entry.get("label", name)), effect, params,
                               _flag(here, "optional", entry.get("optional", False)),
                               _text(here, "text", entry.get("text", ""), empty_ok=True),
                               _flag(here, "assumed", entry.get("assumed", True))))
    if len(cards) > MAX_EVENT_CARDS:
        raise RulesetError(f"{where}: {len(cards)} event cards (allowed: at most {MAX_EVENT_CARDS})")
    return Events(tuple(cards), _flag(where, "assumed", raw.get("assumed", True)),
                  _text(where, "source", raw.get("source", "assumed")))


# --- checks between options and content ----------------------------------------------------------

def cross_check(values: dict, origin: dict, content: dict) -> None:
    def fail(key: str, problem: str, allowed: str):
        where = origin.get(key, "rules.toml")
        raise RulesetError(f"{where}: {key} = {values[key]!r} {problem} (allowed: {allowed})")

    if values["players.min"] > values["players.max"]:
        fail("players.min", "is more than players.max", f"at most {values['players.max']}")
    if values["players.max"] > values["profiles.cards"]:
        fail("players.max", "is more than the profile cards", f"at most {values['profiles.cards']}")
    faces = values["dice.occasional_clics"] + values["dice.occasional_fbi"]
    if faces > 6:
        fail("dice.occasional_fbi", f"with {values['dice.occasional_clics']} CLIC faces is more "
             "than 6 faces", f"at most {6 - values['dice.occasional_clics']}")
    bags = values["bags.ones"] + values["bags.threes"]
    if values["bags.start"] * values["players.max"] > bags:
        fail("bags.start", f"for {values['players.max']} players is more than the {bags} bags",
             f"at most {bags // values['players.max']}")
    if values["renown.start"] >= values["renown.parrain"]:   # AG-G1: a family would win before turn 1
        fail("renown.start", "is not below the Parrain's renown", f"at most renown.parrain - 1 = "
             f"{values['renown.parrain'] - 1}")
    if values.get("fbi.track", "ladder") == "ladder":   # AG-G2: the FBI pawn on the renown ladder
        if values["fbi.informer"] > values["renown.parrain"]:
            fail("fbi.informer", "is beyond the last square of the renown ladder",
                 f"at most renown.parrain = {values['renown.parrain']}, or fbi.track = \"separate\"")
    else:
        for key in ("fbi.start", "fbi.informer"):
            if values[key] > values["fbi.max"]:
                fail(key, "is beyond the end of the FBI track", f"at most fbi.max = {values['fbi.max']}")


# --- the hook: Ruleset methods and the generated docs page -----------------------------------------

def assumed(rs) -> dict:
    loc, tracks, events = (rs.content[k] for k in ("locations", "tracks", "events"))
    return {"locations": tuple(loc.kinds) if loc.assumed else (),
            "tracks": ("henchman", "killer") if tracks.assumed else (),
            "events": tuple(e.name for e in events if e.assumed)}


def _cell(value) -> str:
    return str(value).replace("|", "\\|")


def doc_lines(rs) -> list[str]:
    """The content section of docs/ruleset-ag.md."""
    loc, tracks, events = (rs.content[k] for k in ("locations", "tracks", "events"))
    lines = ["## Content", "",
             "Default data files: `sim/rules/ag/locations.toml`, `tracks.toml`, `events.toml`.",
             "Each file says whether it is assumed and where its values come from.", "",
             f"### Location cards (AG-C7){' (assumed rewards)' if loc.assumed else ''}", "",
             f"{len(loc)} cards: {len(loc.kinds)} kinds in each of {', '.join(loc.districts)}. "
             f"Source: {loc.source}.", "",
             "| kind | label | district | target | renown | bags | traffic | occasional | fbi |",
             "|---|---|---|---|---|---|---|---|---|"]
    for c in loc:
        lines.append(f"| {c.kind} | {_cell(c.label)} | {c.district} | {c.target} | {c.renown} | "
                     f"{c.bags} | {c.traffic or ''} | {c.occasional} | {c.fbi:+d} |")
    lines += ["", f"### Cost tracks (AG-K2){' (assumed)' if tracks.assumed else ''}", "",
              f"Source: {tracks.source}.", "", "| track | prices by step | FBI steps |", "|---|---|---|"]
    for name in ("henchman", "killer"):
        t = getattr(tracks, name)
        lines.append(f"| {name} | {', '.join(map(str, t.prices))} | "
                     f"{', '.join(map(str, t.fbi_steps)) or 'none'} |")
    lines += ["", "### Event cards (AG-C9, AG-V)", "", f"Source: {events.source}.", "",
              "| event | label | effect | params | optional | text | source |", "|---|---|---|---|---|---|---|"]
    for e in events:
        params = ", ".join(f"{k}={v}" for k, v in e.params)
        lines.append(f"| {e.name} | {_cell(e.label)} | `{e.effect}` | {params} | "
                     f"{'yes' if e.optional else ''} | {_cell(e.text)} | "
                     f"{'assumed' if e.assumed else 'rulebook'} |")
    lines += ["", "Effect vocabulary (kind: parameters): "
              + "; ".join(f"`{k}`: {', '.join(v) or 'none'}" for k, v in EFFECTS.items()) + ".", ""]
    return lines


DOC_EXAMPLE = ("[negotiation]", 'share = "equal"', "", "[renown]", "parrain = 10", "", "[content]",
               'locations = "my_locations.toml"   # same layout as sim/rules/ag/locations.toml')
