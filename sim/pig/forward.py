"""The Pig forward model: a game paused at a decision, copied, stepped, determinized
(sim.shared.forward is the face).

Pig's engine is a resumable state machine (sim.pig.engine.run stops at the first decision of a
seat in g[FW_STOP]), so a forward state is the game record itself: a copy is a copy of the
record (145 KB, most of it the event log), a step is one `take` and a `run` to the next
halt. Nothing is hidden in Pig; a determinized copy keeps every fact and draws its future dice
and random choices afresh from the key (so a search that copies a state does not know the
dice to come).
"""

import numpy as np
from numba import njit

from sim import rng
from sim.pig import engine, state
from sim.pig.decisions import DECISIONS, D_ROLL_OR_HOLD, HOLD, OPTIONS, ROLL
from sim.pig.env import P_GOAL, make_env
from sim.pig.game import Lineup, check_players, load_default, seated, tables_of
from sim.pig.narrate import narrate
from sim.shared import forward as shared
from strategies.pig.policy import decide
from sim.shared.seats import seat_labels

ROWS = np.array([[ROLL], [HOLD]], dtype=np.int64)   # the options of every decision (PIG-3)


@njit(cache=True)
def new_state(game_arr, env_arr, tables, n_players, key, game_id, record, stop):
    """A new game in `game_arr[0]`, played to its first halt: engine.HALTED or engine.OVER."""
    set_up(game_arr, env_arr, n_players, key, game_id, record)
    game_arr[0].g[state.FW_STOP] = stop
    return engine.run(game_arr[0], env_arr[0], tables)


@njit(cache=True)
def set_up(game_arr, env_arr, n_players, key, game_id, record):
    """A new game in `game_arr[0]` before its first roll."""
    state.clear_game(game_arr[0])
    engine.start(game_arr[0], env_arr[0], n_players, key, game_id, record, 0)


@njit(cache=True)
def step(game_arr, env_arr, tables, choice):
    """The pending decision answered (`choice` ROLL, HOLD, or -1: the seat's own policy), then on
    to the next halt."""
    game, env = game_arr[0], env_arr[0]
    if choice < 0:
        choice = decide(game, env, tables, game.g[state.TO_MOVE])
    engine.take(game, env, choice)
    return engine.run(game, env, tables)


@njit(cache=True)
def reseed(game_arr, key, game_id):
    """Every stream drawn afresh from `key` (the dice and choices still to come)."""
    rng.seed_streams(key, game_id, game_arr[0].rng)


class Forward(shared.ForwardState):
    """A Pig game paused at a decision (module doc; sim.shared.forward: the face)."""

    def __init__(self, game, env, tables, ruleset, labels, seed, game_id, status):
        self.work, self.env, self.tables = game, env, tables
        self.ruleset, self.labels, self.seed, self.game_id = ruleset, labels, seed, game_id
        self._status = status

    @classmethod
    def new(cls, ruleset=None, strategies=None, players: int | None = None, seed: int = 0, game_id: int = 0,
            stop=None, record: bool = False, key=None) -> "Forward":
        """Game `game_id` of run `seed` (the batch's dice and seating), halting at the decisions of
        the seats in `stop` (None: every seat; the others play their strategies)."""
        rs = ruleset or load_default()
        players = players or int(rs["players.usual"])
        check_players(rs, players)
        lineup = Lineup.of(strategies, players)
        tables, params = tables_of(lineup, rs)
        seating = lineup.seatings_for(seed, game_id, 1)
        seating = seating[game_id % len(seating)]
        env = np.array([make_env(rs, *seated(lineup, params, seating))]).view(np.recarray)
        game = np.zeros(1, state.GAME_DTYPE).view(np.recarray)
        labels = seat_labels([lineup.names[s] for s in lineup.slots(seating)])
        mask = shared.halt_mask(stop, players)
        status = new_state(game, env, tables, players, rng.run_key(seed) if key is None else key,
                           game_id, int(record), mask)
        return cls(game, env, tables, rs, labels, seed, game_id, status)

    # --- the state -------------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self._status != engine.HALTED

    @property
    def players(self) -> int:
        return int(self.work[0].g[state.N_PLAYERS])

    @property
    def turn(self) -> int:
        return int(self.work[0].g[state.TURN])

    @property
    def game(self):
        """The game at the pending decision (or the finished game): read it, do not change it."""
        return self.work[0]

    @property
    def stop(self) -> tuple[int, ...]:
        return self.seats_of(self.work[0].g[state.FW_STOP])

    @stop.setter
    def stop(self, seats):
        self.work[0].g[state.FW_STOP] = shared.halt_mask(seats, self.players)

    def _pending(self):
        g = self.work[0].g
        ctx = np.array([D_ROLL_OR_HOLD, g[state.TURN_TOTAL], self.game.pl[g[state.TO_MOVE], state.SCORE]])
        return int(g[state.TO_MOVE]), DECISIONS[0], ROWS.copy(), ctx

    def _label(self, seat, ctx, row) -> str:
        if row[0] == HOLD:
            return f"hold: bank {int(ctx[1])}, score {int(ctx[2] + ctx[1])}"
        return f"roll again (turn total {int(ctx[1])})"

    # --- steps -----------------------------------------------------------------------------------
    def _take(self, k):
        self._status = step(self.work, self.env, self.tables, (ROLL, HOLD)[k])

    def _take_policy(self):
        self._status = step(self.work, self.env, self.tables, -1)

    def copy(self) -> "Forward":
        return Forward(self.work.copy(), self.env.copy(), self.tables, self.ruleset, list(self.labels),
                       self.seed, self.game_id, self._status)

    def _determinized(self, seat: int, key: int) -> "Forward":
        """Nothing of Pig is hidden: the copy keeps every fact, and its luck to come is redrawn."""
        out = self.copy()
        reseed(out.work, rng.salted_key(rng.run_key(self.seed), key), self.game_id)
        return out

    def _result(self) -> dict:
        game, n = self.game, self.players
        return {"winner": int(game.g[state.WINNER]), "turns": int(game.g[state.TURNS_PLAYED]),
                "ranks": [int(game.pl[p, state.RANK]) for p in range(n)],
                "fortunes": [int(game.pl[p, state.SCORE]) for p in range(n)],
                "ended_by": state.ENDED[game.g[state.ENDED_BY]],
                "decided_by": state.DECIDED[game.g[state.DECIDED_BY]]}

    # --- what a seat sees (everything: Pig hides nothing) ---------------------------------------------
    def news(self, seat: int, since: int = 0) -> tuple[list[str], int]:
        self.check_seat(seat)
        end = int(self.game.g[state.N_EVENTS])
        return narrate(self.game.events[since:end], self.labels), end

    def view(self, seat: int) -> list[str]:
        self.check_seat(seat)
        g, pl = self.game.g, self.game.pl
        lines = [f"Round {int(g[state.TURN])}, race to {int(self.env[0].rp[P_GOAL])}. "
                 f"You are {self.labels[seat]}."]
        for p in range(self.players):
            moving = f", turn total {int(g[state.TURN_TOTAL])}" if p == g[state.TO_MOVE] and not self.over else ""
            lines.append(f"  {self.labels[p]}{' (you)' if p == seat else ''}: score {int(pl[p, state.SCORE])}{moving}")
        return lines


__all__ = ["Forward", "OPTIONS"]


@njit(cache=True)
def play_to_round(game_arr, env_arr, tables, turn):
    """Every seat by its own policy up to the start of round `turn` (seat 0 before its first
    roll); False when the game ends first. The luck tables' snapshots (sim.analysis.luck.pig)."""
    game, env = game_arr[0], env_arr[0]
    g = game.g
    while g[state.GAME_OVER] == 0:
        if g[state.TURN] >= turn and g[state.TO_MOVE] == 0 and g[state.TURN_TOTAL] == 0:
            return True
        if engine.at_decision(game):
            engine.take(game, env, decide(game, env, tables, g[state.TO_MOVE]))
        else:
            engine.roll(game, env)
    return False
