"""One face for every game: what a game is, what it can do, and where its parts are.

Each game's package declares itself in `sim/<game>/__init__.py` as `GAME = Game(...)`, and every
room above the games reaches a game through that object (`find(name)`, `every()`), never by
testing its name. What a game can do is declared, in the spirit of OpenSpiel's `GameType`: a room
asks `game.has(SEARCH)` rather than whether the game is New York Kings. A game is found when
`sim/<game>/adapter.py` and `sim/rules/<game>/rules.toml` exist (sim.rooms). docs/adding-a-game.md
walks Pig's files in the order an author writes them. The parts a room reads, written here once
(`game.part("narrate")` is `sim.<game>.narrate`):

    sim.rules.<game>       HOOK (sim.rules.ruleset.ContentHook); rules.toml with players.min and
                           players.max (and players.usual, the table a command seats by default:
                           `Game.players`, else 4); draw.py: draw_board(ruleset, path) (mobsim board)
    sim.<game>.state       GAME_DTYPE (a record with at least g, rng, events, fortune), new_game(),
                           MAX_SEATS, MAX_TURNS; the indices into g that rooms read: TURN, N_EVENTS,
                           RECORD, WINNER, TURNS_PLAYED; the sources of luck S_DICE0 + seat,
                           S_POLICY0 + seat and N_STREAMS (rows of `rng`: the luck tables read them)
    sim.<game>.env         make_env(ruleset, kinds, params[, restrict when RESTRICTIONS]) -> the env
                           record (the replay recorder builds it)
    sim.<game>.engine      play(game, env, n_players, key, game_id, record, check) -> 0 or a broken
                           invariant; `log(...)`, the one function that writes an event row, and the
                           die functions named in the replay plug-in's DICE (the recorder wraps them
                           by name, the JIT disabled); a game whose `play` takes more arguments gives
                           its replay plug-in a `play` (Pig's policy tables)
    sim.<game>.decisions   DECISIONS: the names of the decision kinds (the search player's knobs)
    sim.<game>.batch       GAME_COLUMNS (n_players, turns, winner_seat, decided_by, cap_hit,
                           lead_changes, winner_led_from, winner_deficit_mid, margin,
                           illegal_decisions, invariant, then the game's own), SEAT_COLUMNS
                           (strategy, fortune, rank, won, then the game's own), play_games
    sim.<game>.game        Lineup (strategies.lineup.Lineup: game, width, decisions), load_default,
                           check_players(ruleset, players), play_one(seed, players, strategies,
                           ruleset, game_id, record, check) -> Played (game, env, lineup, seating,
                           ruleset), result(played) -> dict (winner, turns, seats), play_many(seed,
                           n_games, players, lineup, ruleset, first_id, check, record_turns) ->
                           (games, seats, turns) integer arrays
    sim.<game>.adapter     ADAPTER: the runner's adapter (sim.shared.adapter.LineupAdapter: name,
                           title, categorical, entry_points, batch, categories, dtype, describe_lineup)
    sim.<game>.narrate     story(played) -> lines, event_dicts(played) -> dicts (mobsim play)
    sim.<game>.forward     Forward: the game paused at a decision (sim.shared.forward.ForwardState)
    sim.<game>.tables      optional: make_optimal(ruleset, folder, name) (mobsim strategies table)
    strategies.<game>      params (PARAMS, NAMES, INDEX, DEFAULTS, RESTRICTIONS, FAMILIES,
                           DEFAULT_FAMILY, optional TABLE_FAMILIES), policy (jitted), presets/*.toml:
                           `random` and `simple` at least, and every preset the fields below name

Rooms above the runner that need more of a game keep a plug-in module of their own, found by the
game's name: `sim/replay/<game>.py` (PANEL_TITLE, DICE, snapshot, board, constants, seat_labels,
tell; optional play) with `sim/replay/assets/<game>.js` (setup, render), `sim/analysis/luck/<game>.py`
(LUCK: a GameLuck with its ForwardTable), optionally `sim/analysis/games/<game>.py` (report
sections, findings' labels) and `sim/search/<game>.py` (with SEARCH). The jitted engines know
nothing of this object.

The fields a room reads: ladder (mobsim verdict, strategies ladder: random first), top_rungs,
reference (strength), exploiter (a rung's exploitability), showcase (a four-seat lineup: replays,
pictures, the golden game's seats), opponents and population (the league, the meta-game), metrics
(tuning), score_unit, first_seat and plain_decisions (the report's words), players and player_range
(every command's table), example (the recorded game of the replay's tests: `example_game()`).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from functools import cache
from types import ModuleType

# what a game can do (declared by the game, read by the rooms above)
RESTRICTIONS = "restrictions"        # strategies may be restricted per decision kind (sim.league.mechanics)
SEARCH = "search"                    # the search player plays it (sim.search.<game>)
HIDDEN_FORTUNES = "hidden_fortunes"  # a seat's fortune is hidden from the others (views, determinization)
CAPABILITIES = (RESTRICTIONS, SEARCH, HIDDEN_FORTUNES)


@dataclass(frozen=True)
class Game:
    """A game as the rooms above the engines see it (declared in `sim/<game>/__init__.py`)."""

    name: str                                  # the short name of --game ("nyk")
    title: str                                 # the name on the box ("New York Kings")
    capabilities: frozenset = frozenset()      # of CAPABILITIES
    score_unit: str = "pts"                    # what a fortune counts ("$" for dollars): the report's unit
    first_seat: str = "first to act in turn 1"  # what seat 1 is in this game (see `seat_number`)
    plain_decisions: tuple[str, ...] = ("fortune", "last_standing")  # `decided_by` labels that are no tie-break
    ladder: tuple[str, ...] = ()               # skill rungs, weakest first: random .. the strongest preset
    top_rungs: tuple[str, ...] = ()            # above the ladder: a shipped equilibrium, the search player
    reference: str = ""                        # the opponents strength is measured against (sim.league.strength)
    exploiter: str = ""                        # the seat that reads a rung's exploitability (sim.league.strength)
    showcase: tuple[str, ...] = ()             # a 4-seat lineup that shows the game (replays, pictures)
    opponents: tuple[str, ...] = ()            # the presets a tuned player must beat (sim.league)
    population: tuple[str, ...] = ()           # the meta-game's starting population (PSRO)
    metrics: tuple[str, ...] = ()              # tuning metrics only this game has (sim.tuning.targets)
    example: tuple = ()                        # a short game that shows the game's parts, recorded by the
    #                                            replay's tests: (seed, game_id, players, strategies); none
    #                                            declared: game 0 of seed 7, the showcase at the usual table
    doc: str = field(default="", compare=False)

    def __post_init__(self):
        unknown = set(self.capabilities) - set(CAPABILITIES)
        if unknown:
            raise ValueError(f"game {self.name!r}: unknown capabilities {sorted(unknown)} "
                             f"(known: {', '.join(CAPABILITIES)})")

    def amount(self, value) -> str:
        """A score in the game's unit: "$1,200" for dollars, "12 pts" otherwise ("" when missing)."""
        if value is None or value != value:
            return ""
        value = float(value)
        if self.score_unit == "$":
            return f"-${-value:,.0f}" if value < 0 else f"${value:,.0f}"
        return f"{value:,.0f} {self.score_unit}"

    def has(self, capability: str) -> bool:
        return capability in self.capabilities

    def part(self, role: str) -> ModuleType:
        """The game's module of that role: `sim.<game>.<role>`."""
        return importlib.import_module(f"sim.{self.name}.{role}")

    def plugin(self, room: str) -> ModuleType | None:
        """A room's plug-in module for this game (`sim.<room>.<game>`), None when it has none."""
        try:
            return importlib.import_module(f"sim.{room}.{self.name}")
        except ModuleNotFoundError as missing:
            if missing.name in (f"sim.{room}.{self.name}", f"sim.{room}"):
                return None
            raise

    def example_game(self) -> tuple[int, int, int, tuple[str, ...]]:
        """(seed, game_id, players, strategies) of the game's example: a short game to record
        (tests/test_replay.py, tests/test_browser.py), declared by the game or its showcase."""
        if self.example:
            seed, game_id, players, strategies = self.example
            return seed, game_id, players, tuple(strategies)
        return 7, 0, self.players, tuple((self.showcase * self.players)[:self.players])

    @property
    def rungs(self) -> tuple[str, ...]:
        """The skill axis, weakest first: the ladder, then the top rungs (mobsim verdict's default)."""
        return self.ladder + self.top_rungs

    @property
    def good_rungs(self) -> tuple[str, ...]:
        """The upper half of the skill axis: the "good players" the verdict reads fairness at and
        `mobsim strategies refit` fits again (sim.verdict.fairness.good_rungs, the same rule)."""
        return self.rungs[len(self.rungs) // 2:]

    @property
    def adapter(self):
        return self.part("adapter").ADAPTER

    @property
    def player_range(self) -> range:
        """The table sizes of the game's shipped rules (`players.min` .. `players.max`)."""
        rules = _default_rules(self.name)
        return range(rules["players.min"], rules["players.max"] + 1)

    @property
    def players(self) -> int:
        """The table a command seats when given no --players: the rules' `players.usual` where
        the game names one, else USUAL_PLAYERS (inside the game's range)."""
        rules = _default_rules(self.name)
        usual = rules.values.get("players.usual", USUAL_PLAYERS)
        return min(max(usual, self.player_range.start), self.player_range.stop - 1)


USUAL_PLAYERS = 4   # a game's table when its rules name none (New York Kings, American Gangsters)


@cache
def _default_rules(name: str):
    from sim.rules import Ruleset

    return Ruleset.load(game=name)


def names() -> tuple[str, ...]:
    """Every game's name, the default first (sim.rooms.game_names)."""
    from sim.rooms import game_names

    return game_names()


@cache
def find(name: str) -> Game:
    """The game of that name; ValueError naming the games there are."""
    if name not in names():
        raise ValueError(f"unknown game {name!r}: choose among {', '.join(names())}")
    return importlib.import_module(f"sim.{name}").GAME


def every() -> tuple[Game, ...]:
    return tuple(find(name) for name in names())


def titles() -> dict[str, str]:
    """name -> title, for help texts ("nyk: New York Kings; ag: American Gangsters")."""
    return {g.name: g.title for g in every()}


def help_text() -> str:
    return "; ".join(f"{name}: {title}" for name, title in titles().items()) + "."
