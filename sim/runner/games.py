"""The games the runner can play, behind one small interface.

An adapter knows, for its game, how to load a ruleset, check the players and strategies of a
study (`plan`), describe them for the manifest, warm its compiled code, and play the games
`first_id .. first_id + n - 1` of a run as tables (`play`). The runner only moves plans and
tables between processes and disk, so a new game plugs in by adding an adapter to `GAMES`.

A plan must pickle (it travels to worker processes and Dask workers), and `play` must depend
only on (plan, seed, game ids): any split into batches then gives the same tables.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Protocol

import numpy as np
import pandas as pd

from sim.seating import mode as seating_mode


class GameAdapter(Protocol):
    name: str
    title: str

    def load_ruleset(self, path, overrides): ...

    def plan(self, ruleset, players: int, strategies, rotate: bool): ...

    def describe(self, plan) -> dict: ...

    def warm(self, plan) -> None: ...

    def play(self, plan, seed: int, first_id: int, n: int,
             record_turns: bool) -> dict[str, pd.DataFrame]: ...


# --- compact columns ------------------------------------------------------------------------------

def compact(name: str, values: np.ndarray, dtype) -> np.ndarray:
    """`values` as `dtype`, refusing to wrap around: a value out of range is a loud error."""
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return values != 0
    if values.size:
        info = np.iinfo(dtype)
        lo, hi = int(values.min()), int(values.max())
        if lo < info.min or hi > info.max:
            bad = lo if lo < info.min else hi
            raise OverflowError(f"column {name} holds {bad}, out of range for {dtype}: "
                                f"widen it in sim/runner/games.py")
    return values.astype(dtype)


# --- rulesets across processes -------------------------------------------------------------------

def freeze_ruleset(rs) -> dict:
    """A picklable copy of a Ruleset (its read-only mappings as plain dicts)."""
    state = {}
    for f in fields(rs):
        value = getattr(rs, f.name)
        proxy = isinstance(value, MappingProxyType)
        state[f.name] = ("proxy", dict(value)) if proxy else ("", value)
    return state


def thaw_ruleset(cls, state: dict):
    return cls(**{name: MappingProxyType(v) if kind == "proxy" else v
                  for name, (kind, v) in state.items()})


# --- New York Kings -------------------------------------------------------------------------------

@dataclass
class NykPlan:
    players: int
    names: tuple[str, ...]        # strategy of each lineup slot (seat 0..n-1 before rotation)
    rotate: str                   # the seating mode (sim.seating)
    fingerprint: str
    ruleset_state: dict = field(repr=False)


_NYK_CACHE: dict = {}  # per process: (fingerprint, names, rotate) -> (ruleset, lineup)

# money in dollars needs 32 bits; counts of things fit 16; seats, ranks and flags 8 or 1
_INT8 = {"n_players", "winner_seat", "seat", "slot", "rank", "henchmen", "police_cars_end"}
_BOOL = {"won", "alive", "cap_hit"}
_INT32 = {"game_id", "fortune", "margin", "winner_deficit_mid", "henchman_values",
          "illegal_decisions"}
_INT16 = {"turns", "end_card_pos", "lead_changes", "winner_led_from", "bank_failures",
          "invariant", "turn"}


def nyk_dtype(name: str, counters=()) -> str:
    if name in _BOOL:
        return "bool"
    if name in _INT8:
        return "int8"
    if name in _INT32 or name.endswith(("_income", "_spent", "_paid")) or name.startswith("recruit_offered_"):
        return "int32"
    if name in _INT16 or name in counters:
        return "int16"
    return "int32"  # a column this table does not know yet: wide enough for money


class Nyk:
    name = "nyk"
    title = "New York Kings"

    def load_ruleset(self, path=None, overrides=None):
        from sim.rules import Ruleset

        return Ruleset.load(path, overrides, game="nyk")

    def plan(self, ruleset, players: int, strategies, rotate: bool) -> NykPlan:
        """Check players and strategies (ValueError with a one-line reason) and fix the study."""
        from sim.nyk.game import Lineup, check_players

        check_players(ruleset, players)
        lineup = Lineup.of(tuple(strategies or ()), players, rotate=rotate)
        plan = NykPlan(players, tuple(lineup.names), seating_mode(rotate), ruleset.fingerprint,
                       freeze_ruleset(ruleset))
        _NYK_CACHE[(plan.fingerprint, plan.names, plan.rotate)] = (ruleset, lineup)
        return plan

    def _setup(self, plan: NykPlan):
        key = (plan.fingerprint, plan.names, plan.rotate)
        if key not in _NYK_CACHE:
            from sim.nyk.game import Lineup
            from sim.rules import Ruleset

            rs = thaw_ruleset(Ruleset, plan.ruleset_state)
            if rs.fingerprint != plan.fingerprint:
                raise RuntimeError("the ruleset changed on its way to a worker "
                                   f"({rs.fingerprint[:12]} != {plan.fingerprint[:12]})")
            _NYK_CACHE[key] = (rs, Lineup.of(plan.names, plan.players, rotate=plan.rotate))
        return _NYK_CACHE[key]

    def describe(self, plan: NykPlan) -> dict:
        rs, lineup = self._setup(plan)
        return {
            "names": list(plan.names),
            "categories": self.strategy_categories(plan),
            "parameters": [[float(x) for x in row] for row in lineup.params],
            "restrictions": [int(bits) for bits in lineup.restrict],
            "seatings": lineup.seatings.tolist(),
        }

    @staticmethod
    def strategy_categories(plan: NykPlan) -> list[str]:
        return list(dict.fromkeys(plan.names))

    def warm(self, plan: NykPlan) -> None:
        """Play two games here, so the compiled engine is in the cache before workers start."""
        self.play(plan, 0, 0, 2, False)

    def play(self, plan: NykPlan, seed: int, first_id: int, n: int,
             record_turns: bool) -> dict[str, pd.DataFrame]:
        from sim.nyk import batch, state
        from sim.nyk.game import play_many

        rs, lineup = self._setup(plan)
        if lineup.search is not None:  # a seat searches: its games go through the forward model
            from sim.search.nyk import play_many
        games, seats, turns = play_many(seed, n, plan.players, lineup, rs, first_id=first_id,
                                        record_turns=record_turns)
        players = plan.players
        counters = set(state.COUNTERS)
        ids = np.arange(first_id, first_id + n, dtype=np.int64)

        g = {"game_id": compact("game_id", ids, "int32")}
        for j, col in enumerate(batch.GAME_COLUMNS):
            if col == "decided_by":
                g[col] = pd.Categorical.from_codes(games[:, j], categories=list(state.DECIDED))
            else:
                g[col] = compact(col, games[:, j], nyk_dtype(col))
        tables = {"games": pd.DataFrame(g)}

        flat = seats.reshape(n * players, len(batch.SEAT_COLUMNS))
        cats = self.strategy_categories(plan)
        slot_code = np.array([cats.index(name) for name in plan.names], dtype=np.int64)
        slots = flat[:, batch.SEAT_COLUMNS.index("strategy")]
        s = {
            "game_id": compact("game_id", np.repeat(ids, players), "int32"),
            "seat": np.tile(np.arange(players, dtype=np.int8), n),
            "strategy": pd.Categorical.from_codes(slot_code[slots], categories=cats),
            "slot": compact("slot", slots, "int8"),
        }
        for j, col in enumerate(batch.SEAT_COLUMNS):
            if col != "strategy":
                s[col] = compact(col, flat[:, j], nyk_dtype(col, counters))
        tables["seats"] = pd.DataFrame(s)

        if record_turns:
            played = games[:, batch.GAME_COLUMNS.index("turns")]
            keep = np.arange(turns.shape[1])[None, :, None] <= played[:, None, None]
            keep = np.broadcast_to(keep, turns.shape)
            i, t, p = np.nonzero(keep)
            tables["turns"] = pd.DataFrame({
                "game_id": compact("game_id", ids[i], "int32"),
                "turn": compact("turn", t, "int16"),
                "seat": compact("seat", p, "int8"),
                "fortune": compact("fortune", turns[i, t, p], "int32"),
            })
        return tables


from sim.ag.adapter import Ag  # noqa: E402  (it uses the helpers above)

GAMES: dict[str, GameAdapter] = {"nyk": Nyk(), "ag": Ag()}


def adapter(name: str) -> GameAdapter:
    try:
        return GAMES[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}: choose among {', '.join(GAMES)}") from None
