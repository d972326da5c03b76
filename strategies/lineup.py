"""The strategies of a study and how they sit at the table: one `Lineup` type for every game.

A lineup holds, per strategy (lineup slot), the policy family the engine runs (`kinds`), its knobs
(`params`, padded to the engine's width) and restriction bits (`restrict`), and the seating table
(`seatings[r, seat]` indexes the slots). Mixtures (`meta:`) add their components to the pool the
engine indexes and draw a component per seat and game (strategies.mixture). A game's entry points
(`sim.<game>.game`) subclass it to name the game and the engine's width of the knob vector.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np

import strategies
from sim import seating
from strategies import mixture
from strategies.learned_weights import files_of


@dataclass(frozen=True)
class Lineup:
    names: tuple[str, ...]
    kinds: np.ndarray
    params: np.ndarray
    restrict: np.ndarray
    seatings: np.ndarray
    pools: dict = field(default_factory=dict)   # mixture slots (strategies.mixture.expand)
    owner: np.ndarray | None = None
    search: np.ndarray | None = None  # per strategy, a searching player's knobs, if any searches
    tables: tuple = ()   # per pool entry, its strategy's [table] ({} when none: strategies.load)

    game: ClassVar[str] = ""
    width: ClassVar[int] = 0   # knobs per seat the engine holds (env.params' columns)
    table_slot: ClassVar[int] = -1  # the column naming a table-holding entry's file (files_of), if the engine reads one
    decisions: ClassVar[tuple[str, ...]] = ()  # the game's decision kinds (a searching seat's kinds)

    def seatings_for(self, seed: int, first_id: int, n: int) -> np.ndarray:
        """The seatings the engine indexes for these games (each game's own draw of mixtures)."""
        if not self.pools:
            return self.seatings
        return mixture.seatings_for(self.seatings, self.pools, seed, first_id, n)

    @classmethod
    def of(cls, specs, players: int, rotate: bool = True) -> Lineup:
        """`specs`: one strategy spec per seat, or one for every seat (see `strategies`)."""
        names = tuple(specs) if specs else ("simple",) * players
        if len(names) == 1:
            names = names * players
        if len(names) != players:
            raise ValueError(f"{len(names)} strategies for {players} players: give one per seat "
                             f"or a single one for every seat")
        return cls.of_strategies([mixture.load(n, cls.game) if mixture.is_mixture(n) else cls.load(n)
                                  for n in names], players, rotate)

    @classmethod
    def load(cls, spec: str):
        return strategies.load(spec, cls.game)

    @classmethod
    def of_strategies(cls, chosen, players: int, rotate: bool = True) -> Lineup:
        """The same from loaded strategies and mixtures (e.g. a candidate being tuned)."""
        if len(chosen) != players:
            raise ValueError(f"{len(chosen)} strategies for {players} players")
        names = tuple(s.name for s in chosen)
        pool, pools, owner = mixture.expand(chosen, cls.load)
        kinds = np.array([s.kind(cls.game) for s in pool], dtype=np.int64)
        params = np.zeros((len(pool), cls.width), dtype=np.float64)
        for i, s in enumerate(pool):
            params[i, : len(s.params)] = s.params
        restrict = np.array([s.restrict_bits(cls.game) for s in pool], dtype=np.int64)
        seatings = seating.table(players, rotate)  # rotate: True, False or a mode of sim.seating
        tables = tuple(dict(s.table) for s in pool)
        if cls.table_slot >= 0:   # each learned entry reads its own file's weights
            files = files_of(tables)
            for i, t in enumerate(tables):
                if t:
                    params[i, cls.table_slot] = files.index(t["file"])
        return cls(names, kinds, params, restrict, seatings, pools, owner, cls.search_knobs(pool), tables)

    @classmethod
    def search_knobs(cls, pool) -> np.ndarray | None:
        """The searching players' knobs, one row per pool entry (None: nobody searches)."""
        if not any(s.family == strategies.SEARCH for s in pool):
            return None
        from sim.shared.search import knob_rows

        return knob_rows(pool, cls.decisions)

    def seated(self, seating: np.ndarray, max_seats: int):
        """Each seat's (kind, knobs, restriction bits) under `seating`, padded to `max_seats`: the
        arrays a game's `make_env` takes for one game."""
        n = len(seating)
        kinds = np.zeros(max_seats, dtype=np.int64)
        params = np.zeros((max_seats, self.width), dtype=np.float64)
        restrict = np.zeros(max_seats, dtype=np.int64)
        kinds[:n], params[:n], restrict[:n] = self.kinds[seating], self.params[seating], self.restrict[seating]
        return kinds, params, restrict

    def slots(self, pool_index: np.ndarray) -> np.ndarray:
        """The lineup slot of each pool entry the engine seated (a mixture's draw is its slot's)."""
        return pool_index if self.owner is None else self.owner[pool_index]
