"""American Gangsters's luck tables (sim.analysis.luck.games): its sources of luck grouped as a designer
names them, and its game replayed from the setup or from the start of a turn."""

from __future__ import annotations

import numpy as np

from sim.analysis.luck.games import ForwardTable, GameLuck, Outcome, seat_rows


class Table(ForwardTable):
    def forward(self, stop, every_kind: bool = True):
        """The game in the forward model, the seats in `stop` halting at every decision."""
        from sim.ag.forward import Forward

        lk = self.luck
        return Forward.new(lk.ruleset, lk.strategies, players=lk.players, seed=lk.seed,
                           game_id=self.game_id, stop=stop)

    def _from_setup(self, key) -> Outcome:
        from sim.ag.forward import new_state
        from sim.ag.state import GAME_DTYPE

        snap, work = (np.zeros(1, GAME_DTYPE).view(np.recarray) for _ in range(2))
        new_state(snap, work, self.fw.env, self.luck.players, key, self.game_id, 0, 0)
        return self._outcome(work[0])

    def _snapshots(self) -> dict:
        """Halting every seat at every decision: the snapshot of turn t is the record after turn
        t - 1 (the engine counts a turn when it begins), its script emptied as in NYK."""
        from sim.ag.state import FW_N, TURN

        fw = self.forward(stop=range(self.luck.players))
        snaps = {}
        while not fw.over:
            turn = int(fw.snap[0].g[TURN]) + 1
            if turn not in snaps:
                snaps[turn] = fw.snap.copy()
                snaps[turn][0].g[FW_N] = 0
            fw.apply_policy()
        return snaps

    def _play_on(self, snap) -> Outcome:
        from sim.ag.forward import advance
        from sim.ag.state import FW_STOP

        snap[0].g[FW_STOP] = 0
        work = np.zeros_like(snap).view(np.recarray)
        advance(snap, work, self.fw.env)
        return self._outcome(work[0])

    def _outcome(self, game) -> Outcome:
        from sim.ag import state
        from sim.ag.readers import score

        n, env = self.luck.players, self.fw.env[0]
        return Outcome(int(game.g[state.WINNER]), np.array([float(score(game, env, p)) for p in range(n)]),
                       game.pl[:n, state.RANK].astype(float), int(game.g[state.TURNS_PLAYED]))


class Luck(GameLuck):
    name = "ag"
    TABLE = Table

    def named_groups(self) -> dict:
        S, n = self.S, self.players
        return {"profile deal (the informer)": (S.S_DEAL,),
                "bags drawn": (S.S_BAGS,),
                "location deck": (S.S_LOCATIONS,),
                "event deck": (S.S_EVENTS,),
                "roulette barrel": (S.S_BARREL,),
                "players' dice": seat_rows(S.S_DICE0, n),
                "policy coins": seat_rows(S.S_POLICY0, n)}


LUCK = Luck
