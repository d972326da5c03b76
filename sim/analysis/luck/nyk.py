"""New York Kings's luck tables (sim.analysis.luck.games): its sources of luck grouped as a designer
names them, and its game replayed from the setup or from the start of a turn."""

from __future__ import annotations

import numpy as np

from sim.analysis.luck.games import ForwardTable, GameLuck, Outcome, seat_rows


class Table(ForwardTable):
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


class Luck(GameLuck):
    name = "nyk"
    TABLE = Table

    def named_groups(self) -> dict:
        S, n = self.S, self.players
        return {"decks (henchmen, resources)": (S.S_HENCHMEN, S.S_RESOURCES),
                "mission deck and address bag": (S.S_MISSIONS, S.S_BAG),
                "police dice": (S.S_POLICE,),
                "setup lots (start districts)": (S.S_SETUP,),
                "tie-breaks (first player, final)": (S.S_FIRST, S.S_FINAL),
                "players' dice": seat_rows(S.S_DICE0, n),
                "policy coins": seat_rows(S.S_POLICY0, n)}


LUCK = Luck
