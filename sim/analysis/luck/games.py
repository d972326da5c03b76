"""The games as luck tables (each game's in `sim/analysis/luck/<game>.py`, `luck_of(game)`): one
game of a run, and the same game with chosen sources of luck drawn afresh (from the setup, or from
the start of turn t), every other stream as it was.

A table's `outcome(rows, salt, from_turn)` is one counterfactual game:
- from the setup (from_turn 0): the game begins with the key `sim.rng.redraw_key(seed, rows,
  salt)`, so setup's seeding draws those rows again (the decks' order, the lots) and the
  game is played through with the seats' policies;
- from turn t >= 1: the forward model's snapshot at the start of turn t (the record whose `rng`
  field holds every stream) gets fresh rows `sim.rng.redrawn_stream(...)` and plays on, every
  seat by its own policy.
Snapshots come from one pass of the forward model halting at each turn's first decision.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim import rng
from sim.shared.game import find
from sim.shared.seats import seat_label


@dataclass(frozen=True)
class Outcome:
    winner: int              # the winning seat, -1 when no seat won alone
    scores: np.ndarray       # each seat's final score (NYK fortune in dollars, AG points)
    ranks: np.ndarray        # each seat's final rank (1 the best)
    turns: int


class ForwardTable:
    """One game of a run and its counterfactuals (the game-specific parts in subclasses)."""

    def __init__(self, luck, game_id: int):
        self.luck, self.game_id = luck, game_id
        self.fw = self.forward(stop=())
        self.base = self._outcome(self.fw.game)
        self._snaps = None

    def forward(self, stop, every_kind: bool = True):
        """The game in its forward model (`sim.<game>.forward`), the seats in `stop` halting at
        every decision; a game whose forward model takes more overrides this."""
        lk = self.luck
        return find(lk.name).part("forward").Forward.new(lk.ruleset, lk.strategies, players=lk.players,
                                                          seed=lk.seed, game_id=self.game_id, stop=stop)

    def outcome(self, rows, salt: int, from_turn: int = 0) -> Outcome:
        if from_turn <= 0:
            return self._from_setup(rng.redraw_key(self.luck.seed, rows, salt))
        snap = self._snapshot(from_turn)
        if snap is None:                      # the game was over before turn t: no luck left
            return self.base
        snap = snap.copy()
        for s in rows:
            snap[0].rng[s, :] = rng.redrawn_stream(self.luck.seed, self.game_id, int(s), salt)
        return self._play_on(snap)

    def _snapshot(self, turn: int):
        """The record at the start of turn `turn` (or of the first turn after it with a halt)."""
        if self._snaps is None:
            self._snaps = self._snapshots()
        later = [t for t in self._snaps if t >= turn]
        return self._snaps[min(later)] if later else None


def seat_rows(first: int, players: int) -> tuple[int, ...]:
    return tuple(range(first, first + players))


class GameLuck:
    """A run's games (seed, lineup, ruleset, players) as luck tables, with the sources grouped as
    a designer names them. `groups()`: name -> rows of the record's `rng`."""

    def __init__(self, ruleset, strategies, players: int, seed: int):
        if ruleset is None:
            from sim.rules import Ruleset

            ruleset = Ruleset.load(None, {}, game=self.name)
        self.ruleset, self.strategies, self.players, self.seed = ruleset, tuple(strategies), players, seed

    def table(self, game_id: int):
        return self.TABLE(self, game_id)

    @property
    def S(self):
        """The game's state module: its sources of luck (S_*) and sizes."""
        return find(self.name).part("state")

    def check(self) -> None:
        """ValueError (one line) when the players or the strategies cannot be seated."""
        game = find(self.name).part("game")
        game.check_players(self.ruleset, self.players)
        game.Lineup.of(self.strategies, self.players)

    def play_once(self, game_ids) -> None:
        """The games played once by the batch, as a run plays them (the cost's yardstick)."""
        game = find(self.name).part("game")
        lineup = game.Lineup.of(self.strategies, self.players)
        first, last = min(game_ids), max(game_ids)
        game.play_many(self.seed, last - first + 1, self.players, lineup, self.ruleset, first_id=first)

    def groups(self) -> dict:
        """The named groups, then any other row of a seated game ("other sources": a source
        added to the game and not yet named here is still measured)."""
        S, groups = self.S, dict(self.named_groups())
        covered = {r for rows in groups.values() for r in rows}
        absent = {base + p for base in (S.S_DICE0, S.S_POLICY0) for p in range(self.players, S.MAX_SEATS)}
        rest = tuple(r for r in range(S.N_STREAMS) if r not in covered | absent)
        if rest:
            groups["other sources"] = rest
        return groups

    def seat_dice(self) -> dict:
        """Each seat's own dice as a group of its own, the seat named as a person counts it."""
        return {f"dice of {seat_label(p)}": (self.S.S_DICE0 + p,) for p in range(self.players)}

    def all_rows(self) -> tuple[int, ...]:
        return tuple(range(self.S.N_STREAMS))


def luck_of(game: str) -> type:
    """The game's luck tables (`sim/analysis/luck/<game>.py`: `LUCK`)."""
    plugin = find(game).plugin("analysis.luck")
    if plugin is None:
        raise ValueError(f"{find(game).title} has no luck tables (sim/analysis/luck/{game}.py)")
    return plugin.LUCK
