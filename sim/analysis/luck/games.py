"""The two games as luck tables: one game of a run, and the same game with chosen sources of luck
drawn afresh (from the setup, or from the start of turn t), every other stream as it was.

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


class NykTable(ForwardTable):
    def forward(self, stop, every_kind: bool = False):
        """The game in the forward model, the seats in `stop` halting at their bids (NYK-T1)
        or, `every_kind`, at every decision."""
        from sim.nyk.forward import Forward

        lk = self.luck
        return Forward.new(lk.ruleset, lk.strategies, seed=lk.seed, game_id=self.game_id, stop=stop,
                           players=lk.players, kinds=None if every_kind else ("bid",))

    def _from_setup(self, key) -> Outcome:
        from sim.nyk.forward import start
        from sim.nyk.state import ALL_KINDS, GAME_DTYPE, MAX_SEATS

        snap, work = (np.zeros(1, GAME_DTYPE).view(np.recarray) for _ in range(2))
        kinds = np.full(MAX_SEATS, ALL_KINDS, np.int64)
        start(snap[0], work[0], self.fw.env[0], self.luck.players, key, self.game_id, 0, 0, kinds)
        return self._outcome(work[0])

    def _snapshots(self) -> dict:
        """Halting every seat at its bid (NYK-T1, each turn's first decision): the snapshot of
        each turn (the record at its start), its script emptied, so that playing on asks every
        decision of the turn again of the seats' policies."""
        from sim.nyk.state import FW_N, TURN

        fw = self.forward(stop=range(self.luck.players))
        snaps = {}
        while not fw.over:
            turn = int(fw.snap[0].g[TURN])
            if turn not in snaps:
                snaps[turn] = fw.snap.copy()
                snaps[turn][0].fw[FW_N] = 0
            fw.apply_policy()
        return snaps

    def _play_on(self, snap) -> Outcome:
        from sim.nyk.forward import advance
        from sim.nyk.state import FW_HALT

        snap[0].fw[FW_HALT] = 0
        work = np.zeros_like(snap).view(np.recarray)
        advance(snap[0], work[0], self.fw.env[0])
        return self._outcome(work[0])

    def _outcome(self, game) -> Outcome:
        from sim.nyk import state

        n = self.luck.players
        return Outcome(int(game.g[state.WINNER]), game.pl[:n, state.MONEY].astype(float),
                       game.pl[:n, state.RANK].astype(float), int(game.g[state.TURNS_PLAYED]))


class AgTable(ForwardTable):
    def forward(self, stop, every_kind: bool = True):
        """The game in the forward model, the seats in `stop` halting at every decision."""
        from sim.ag.forward import Forward

        lk = self.luck
        return Forward.new(lk.ruleset, lk.strategies, players=lk.players, seed=lk.seed,
                           game_id=self.game_id, stop=stop, record=False)

    def _from_setup(self, key) -> Outcome:
        from sim.ag.forward import new_state
        from sim.ag.state import GAME_DTYPE

        snap, work = (np.zeros(1, GAME_DTYPE).view(np.recarray) for _ in range(2))
        new_state(snap, work, self.fw._env, self.luck.players, key, self.game_id, 0, 0)
        return self._outcome(work[0])

    def _snapshots(self) -> dict:
        """Halting every seat at every decision: the snapshot of turn t is the record after turn
        t - 1 (the engine counts a turn when it begins), its script emptied as in NYK."""
        from sim.ag.state import FW_N, TURN

        fw = self.forward(stop=range(self.luck.players))
        snaps = {}
        while not fw.over:
            turn = int(fw._snap[0].g[TURN]) + 1
            if turn not in snaps:
                snaps[turn] = fw._snap.copy()
                snaps[turn][0].g[FW_N] = 0
            fw.apply_policy()
        return snaps

    def _play_on(self, snap) -> Outcome:
        from sim.ag.forward import advance
        from sim.ag.state import FW_STOP

        snap[0].g[FW_STOP] = 0
        work = np.zeros_like(snap).view(np.recarray)
        advance(snap, work, self.fw._env)
        return self._outcome(work[0])

    def _outcome(self, game) -> Outcome:
        from sim.ag import state
        from sim.ag.readers import score

        n, env = self.luck.players, self.fw._env[0]
        return Outcome(int(game.g[state.WINNER]), np.array([float(score(game, env, p)) for p in range(n)]),
                       game.pl[:n, state.RANK].astype(float), int(game.g[state.TURNS_PLAYED]))


def _seats(first: int, players: int) -> tuple[int, ...]:
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

    def check(self) -> None:
        """ValueError (one line) when the players or the strategies cannot be seated."""
        import importlib

        game = importlib.import_module(f"sim.{self.name}.game")
        game.check_players(self.ruleset, self.players)
        game.Lineup.of(self.strategies, self.players)

    def play_once(self, game_ids) -> None:
        """The games played once by the batch, as a run plays them (the cost's yardstick)."""
        import importlib

        game = importlib.import_module(f"sim.{self.name}.game")
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
        """Each seat's own dice as a group of its own."""
        return {f"dice of seat {p}": (self.S.S_DICE0 + p,) for p in range(self.players)}

    def all_rows(self) -> tuple[int, ...]:
        return tuple(range(self.S.N_STREAMS))


class NykLuck(GameLuck):
    name = "nyk"
    TABLE = NykTable

    @property
    def S(self):
        from sim.nyk import state

        return state

    def named_groups(self) -> dict:
        S, n = self.S, self.players
        return {"decks (henchmen, resources)": (S.S_HENCHMEN, S.S_RESOURCES),
                "mission deck and address bag": (S.S_MISSIONS, S.S_BAG),
                "police dice": (S.S_POLICE,),
                "setup lots (start districts)": (S.S_SETUP,),
                "tie-breaks (first player, final)": (S.S_FIRST, S.S_FINAL),
                "players' dice": _seats(S.S_DICE0, n),
                "policy coins": _seats(S.S_POLICY0, n)}


class AgLuck(GameLuck):
    name = "ag"
    TABLE = AgTable

    @property
    def S(self):
        from sim.ag import state

        return state

    def named_groups(self) -> dict:
        S, n = self.S, self.players
        return {"profile deal (the informer)": (S.S_DEAL,),
                "bags drawn": (S.S_BAGS,),
                "location deck": (S.S_LOCATIONS,),
                "event deck": (S.S_EVENTS,),
                "roulette barrel": (S.S_BARREL,),
                "players' dice": _seats(S.S_DICE0, n),
                "policy coins": _seats(S.S_POLICY0, n)}


LUCK = {"nyk": NykLuck, "ag": AgLuck}
