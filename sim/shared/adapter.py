"""How the runner plays a game: the adapter protocol, and the one implementation both games use.

An adapter knows, for its game, how to load a ruleset, check the players and strategies of a
study (`plan`), describe them for the manifest, warm its compiled code, and play the games
`first_id .. first_id + n - 1` of a run as tables (`play`; `play_columns` gives the same
columns before they become DataFrames, for the workers that write them). The runner only moves
plans and tables between processes and disk (sim.runner.games finds the adapters).

A plan must pickle (it travels to worker processes and Dask workers), and `play` must depend
only on (plan, seed, game ids): any split into batches then gives the same tables.

`LineupAdapter` is that adapter for a game whose Python entry points (`sim.<game>.game`) give a
`Lineup`, `check_players` and `play_many`, and whose batch module (`sim.<game>.batch`) names the
columns of its games and seats arrays. A game's adapter names itself, gives its entry points
and the type of each column, and may add to the manifest's description of its lineup.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

import numpy as np
import pandas as pd

from sim.seating import mode as seating_mode
from sim.shared.columns import compact, compact_block
from sim.shared.frozen import freeze_ruleset, thaw_ruleset


class GameAdapter(Protocol):
    name: str
    title: str

    def load_ruleset(self, path, overrides): ...

    def plan(self, ruleset, players: int, strategies, seating): ...

    def describe(self, plan) -> dict: ...

    def warm(self, plan) -> None: ...

    def play(self, plan, seed: int, first_id: int, n: int,
             record_turns: bool) -> dict[str, pd.DataFrame]: ...

    def play_columns(self, plan, seed: int, first_id: int, n: int,
                     record_turns: bool) -> dict[str, dict]: ...


@dataclass
class Plan:
    game: str
    players: int
    names: tuple[str, ...]        # strategy of each lineup slot (seat 0..n-1 before rotation)
    seating: str                  # the seating mode (sim.seating)
    fingerprint: str
    ruleset_state: dict = field(repr=False)


class LineupAdapter:
    """The shared adapter; a game's subclass sets `name`, `title`, `categorical` and gives
    `entry_points()`, `batch()`, `dtype(column)` and `describe_lineup(lineup)`."""

    name = ""
    title = ""
    categorical: tuple[str, ...] = ("decided_by",)   # game columns held as categories

    def __init__(self):
        self._cache: dict = {}  # per process: (fingerprint, names, seating) -> (ruleset, lineup)

    # --- what a game gives --------------------------------------------------------------------

    def entry_points(self):
        """The game's Python entry points: a module with Lineup, check_players, play_many."""
        raise NotImplementedError

    def games_of(self, lineup):
        """The function that plays a block of this lineup's games (`play_many`)."""
        return self.entry_points().play_many

    def batch(self):
        """The game's batch module: GAME_COLUMNS, SEAT_COLUMNS."""
        raise NotImplementedError

    def categories(self, column: str) -> tuple[str, ...]:
        """The labels of a categorical game column."""
        raise NotImplementedError

    def dtype(self, column: str) -> str:
        raise NotImplementedError

    def describe_lineup(self, lineup) -> dict:
        return {}

    # --- the protocol -------------------------------------------------------------------------

    def load_ruleset(self, path=None, overrides=None):
        from sim.rules import Ruleset

        return Ruleset.load(path, overrides, game=self.name)

    def plan(self, ruleset, players: int, strategies, seating) -> Plan:
        """`seating`: True, False or a seating mode of sim.seating."""
        """Check the ruleset, players and strategies (ValueError with a one-line reason)."""
        if ruleset.game != self.name:
            raise ValueError(f"the ruleset is for game {ruleset.game!r}, not {self.title} ({self.name!r})")
        game = self.entry_points()
        game.check_players(ruleset, players)
        lineup = game.Lineup.of(tuple(strategies or ()), players, rotate=seating)
        plan = Plan(self.name, players, tuple(lineup.names), seating_mode(seating), ruleset.fingerprint,
                    freeze_ruleset(ruleset))
        self._cache[(plan.fingerprint, plan.names, plan.seating)] = (ruleset, lineup)
        return plan

    def _setup(self, plan: Plan):
        key = (plan.fingerprint, plan.names, plan.seating)
        if key not in self._cache:
            from sim.rules import Ruleset

            rs = thaw_ruleset(Ruleset, plan.ruleset_state)
            if rs.fingerprint != plan.fingerprint:
                raise RuntimeError("the ruleset changed on its way to a worker "
                                   f"({rs.fingerprint[:12]} != {plan.fingerprint[:12]})")
            self._cache[key] = (rs, self.entry_points().Lineup.of(plan.names, plan.players, rotate=plan.seating))
        return self._cache[key]

    def describe(self, plan: Plan) -> dict:
        _, lineup = self._setup(plan)
        return {
            "names": list(plan.names),
            "categories": self.strategy_categories(plan),
            **self.describe_lineup(lineup),
            "parameters": [[float(x) for x in row] for row in lineup.params],
            "seatings": lineup.seatings.tolist(),
        }

    @staticmethod
    def strategy_categories(plan: Plan) -> list[str]:
        return list(dict.fromkeys(plan.names))

    def warm(self, plan: Plan) -> None:
        """Compile (or load) the engine here, so that it is in the cache before workers start:
        a batch of no games, which types the jitted entry as any batch does and plays nothing
        (two games played here cost a search lineup seconds, at every run of a study's cells)."""
        self.play_columns(plan, 0, 0, 0, False)

    def play(self, plan: Plan, seed: int, first_id: int, n: int,
             record_turns: bool) -> dict[str, pd.DataFrame]:
        return {name: pd.DataFrame(cols) for name, cols in
                self.play_columns(plan, seed, first_id, n, record_turns).items()}

    def play_columns(self, plan: Plan, seed: int, first_id: int, n: int,
                     record_turns: bool) -> dict[str, dict]:
        """The tables of `play` as {table: {column: array or Categorical}}: what a worker writes
        to Parquet without building DataFrames on the way."""
        batch = self.batch()
        rs, lineup = self._setup(plan)
        games, seats, turns = self.games_of(lineup)(seed, n, plan.players, lineup, rs,
                                                    first_id=first_id, record_turns=record_turns)
        players = plan.players
        ids = np.arange(first_id, first_id + n, dtype=np.int64)

        numbers = compact_block(games, batch.GAME_COLUMNS, self._types(batch.GAME_COLUMNS, self.categorical))
        g = {"game_id": compact("game_id", ids, "int32")}
        for j, col in enumerate(batch.GAME_COLUMNS):
            g[col] = (pd.Categorical.from_codes(games[:, j], categories=list(self.categories(col)))
                      if col in self.categorical else numbers[col])
        tables = {"games": g}

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
        s |= compact_block(flat, batch.SEAT_COLUMNS, self._types(batch.SEAT_COLUMNS, ("strategy",)))
        tables["seats"] = s

        if record_turns:
            played = games[:, batch.GAME_COLUMNS.index("turns")]
            keep = np.arange(turns.shape[1])[None, :, None] <= played[:, None, None]
            i, t, p = np.nonzero(np.broadcast_to(keep, turns.shape))
            tables["turns"] = {
                "game_id": compact("game_id", ids[i], "int32"),
                "turn": compact("turn", t, "int16"),
                "seat": compact("seat", p, "int8"),
                "fortune": compact("fortune", turns[i, t, p], "int32"),
            }
        return tables

    def _types(self, columns, skip) -> list:
        """Each column's stored type, None for the columns built apart (`skip`)."""
        return [None if col in skip else self.dtype(col) for col in columns]
