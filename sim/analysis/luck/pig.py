"""Pig's luck tables (sim.analysis.luck.games): each seat's die and policy coin, and the game
replayed from the setup or from the start of a round (the record is the forward state)."""

from __future__ import annotations

import numpy as np

from sim.analysis.luck.games import ForwardTable, GameLuck, Outcome, seat_rows


class Table(ForwardTable):
    def _from_setup(self, key) -> Outcome:
        from sim.pig.forward import new_state
        from sim.pig.state import GAME_DTYPE

        game = np.zeros(1, GAME_DTYPE).view(np.recarray)
        new_state(game, self.fw.env, self.fw.tables, self.luck.players, key, self.game_id, 0, 0)
        return self._outcome(game[0])

    def _snapshots(self) -> dict:
        """The record at the start of every round (sim.pig.forward.play_to_round)."""
        from sim.pig.forward import play_to_round, set_up
        from sim.pig.state import GAME_DTYPE

        game = np.zeros(1, GAME_DTYPE).view(np.recarray)
        set_up(game, self.fw.env, self.luck.players, self._key(), self.game_id, 0)
        snaps = {}
        for turn in range(1, self.base.turns + 1):
            if not play_to_round(game, self.fw.env, self.fw.tables, turn):
                break
            snaps[turn] = game.copy()
        return snaps

    def _key(self):
        from sim import rng

        return rng.run_key(self.luck.seed)

    def _play_on(self, snap) -> Outcome:
        from sim.pig.engine import run
        from sim.pig.state import FW_STOP

        snap[0].g[FW_STOP] = 0
        run(snap[0], self.fw.env[0], self.fw.tables)
        return self._outcome(snap[0])

    def _outcome(self, game) -> Outcome:
        from sim.pig import state

        n = self.luck.players
        return Outcome(int(game.g[state.WINNER]), game.pl[:n, state.SCORE].astype(float),
                       game.pl[:n, state.RANK].astype(float), int(game.g[state.TURNS_PLAYED]))


class Luck(GameLuck):
    name = "pig"
    TABLE = Table

    def named_groups(self) -> dict:
        S, n = self.S, self.players
        return {"players' dice": seat_rows(S.S_DICE0, n), "policy coins": seat_rows(S.S_POLICY0, n)}


LUCK = Luck
