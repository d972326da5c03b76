"""The forward model of New York Kings: a game paused at a decision, copied, stepped, determinized.

    fw = Forward.new(ruleset, ["balanced"] * 4, seed=7, game_id=0, stop=[0])  # sim.shared.forward
    d = fw.decision()        # seat 0's next decision: kind, options (rows), labels, ctx; None at the end
    fw.apply(2)              # seat 0 takes option 2; the bots play on to seat 0's next decision
    fw.apply_policy()        # or: the seat's own strategy decides
    fw.copy(); fw.over; fw.result(); fw.determinize(seat, key); fw.seen(seat); fw.view(seat)

A forward state is the game record at the start of its turn (the *snapshot*) and the *script*:
the options taken since then at every decision of more than one option (FW_POLICY: the seat's
own policy). Reaching the current decision replays the turn from the snapshot with the script
(sim.nyk.script feeds `ask`); the replay stops by raising `Halt` at the first unscripted decision
of a seat in the halt mask, caught by the `try` of `replay`. When a turn ends without a halt, the
record becomes the next snapshot. The engine's pieces (`begin_game`, `begin_turn`, `play_turn`,
`end_turn`, `end_game`) are the very ones `engine.play` strings together, so a game driven by
`apply_policy` is the batch game of the same seed and game id. The jitted functions below
(`start`, `advance`, `apply_choice`, `set_determinization`, `copy_record`) are the same model for
jitted drivers (sim.search). Design and costs: docs/architecture.md, "Forward model and search".
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim import rng
from sim.nyk import state
from sim.shared import forward as shared
from sim.nyk.decisions import DECISIONS, N_CTX
from sim.nyk.batch import summarise_game, summarise_seats
from sim.nyk.script import use_policies
from sim.nyk.engine import begin_game_late, begin_turn, end_game_late, end_turn_late, play_turn_late
from sim.nyk.env import N_POLICY_PARAMS, make_env, seat_lineup
from sim.nyk.state import (
    ALL_KINDS, FW_DET_AT, FW_DET_DONE, FW_DET_KEY, FW_DET_SEAT, FW_HALT, FW_HALTED, FW_KIND,
    FW_KINDS0, FW_MODE, FW_N, FW_NOPTS, FW_POLICY, FW_POLICY_PARAMS, FW_POS, FW_SCRIPT0, FW_SEAT, FW_SWAP, GAME_DTYPE,
    GAME_OVER, MAX_SCRIPT, MAX_SEATS, MAX_TURNS, N_EVENTS, N_FW_SCALARS, RECORD, clear_game,
)
from sim.shared.seats import seat_label

HALTED, OVER, ENGINE_ERROR, SCRIPT_FULL, TRUNCATED = 1, 0, -1, -2, 2
assert FW_POLICY_PARAMS == N_POLICY_PARAMS


# --- the jitted model ----------------------------------------------------------------------------

@njit(cache=True)
def copy_record(src, dst):
    """Copy a game record, but only what a game reads: the event rows up to their count (when
    recorded), the script up to its length."""
    dst.g[:] = src.g
    dst.pl[:, :] = src.pl
    dst.ch[:, :] = src.ch
    dst.ms[:, :] = src.ms
    dst.fortune[:, :] = src.fortune
    dst.rng[:, :] = src.rng
    dst.opts[:, :] = src.opts  # stale rows and slots of earlier decisions: a policy may read them
    dst.ctx[:] = src.ctx
    dst.opts2[:, :] = src.opts2
    dst.ctx2[:] = src.ctx2
    if src.fw[FW_SWAP]:
        dst.fw_kinds[:, :] = src.fw_kinds
        dst.fw_params[:, :, :] = src.fw_params
        dst.fw_restrict[:, :] = src.fw_restrict
    m = N_FW_SCALARS + src.fw[FW_N]
    dst.fw[:m] = src.fw[:m]
    if src.g[RECORD]:
        e = src.g[N_EVENTS]
        dst.events[:e, :] = src.events[:e, :]


@njit(cache=True)
def start(snap, work, env, n_players, key, game_id, record, halt, kinds):
    """A new game in `snap` (seats in the mask `halt` stop at the decision kinds `kinds[p]`),
    advanced to its first halt: returns HALTED or OVER (as `advance`)."""
    begin(snap, env, n_players, key, game_id, record, halt, kinds)
    return advance(snap, work, env)


@njit(cache=True)
def begin(snap, env, n_players, key, game_id, record, halt, kinds):
    """A new game in `snap` at the start of its first turn, not advanced (`start`)."""
    clear_game(snap)
    begin_game_late(snap, env, n_players, key, game_id, record, 0)
    snap.fw[FW_MODE] = 1
    snap.fw[FW_HALT] = halt
    snap.fw[FW_DET_AT] = -1
    for p in range(MAX_SEATS):
        snap.fw[FW_KINDS0 + p] = kinds[p]
    begin_turn(snap)


@njit(cache=True)
def replay(snap, work, env):
    """Play the snapshot's turn again in `work` with the script: HALTED at a pending decision,
    OVER (0) when the turn ended, ENGINE_ERROR if the engine raised anything but a halt."""
    copy_record(snap, work)
    work.fw[FW_POS] = 0
    work.fw[FW_HALTED] = 0
    work.fw[FW_DET_DONE] = 0
    if work.fw[FW_SWAP]:  # the policies of the turn's start: the game's until a switch, then the playouts'
        use_policies(env, work, work.fw[FW_SWAP] - 1)
    try:
        play_turn_late(work, env)
    except Exception:  # numba catches no narrower class; FW_HALTED tells a halt from an error
        return HALTED if work.fw[FW_HALTED] else ENGINE_ERROR
    return OVER


@njit(cache=True)
def advance(snap, work, env):
    """Play on from the snapshot and its script to the next halt (HALTED; `work` holds the state
    at the pending decision) or to the end of the game (OVER; both hold the final state)."""
    return advance_for(snap, work, env, MAX_TURNS + 1)


@njit(cache=True)
def advance_for(snap, work, env, turns):
    """`advance`, or TRUNCATED once `turns` turns have ended (the snapshot's own first): both
    records then hold the start of the next turn (a search's leaf: sim.search.nyk_leaf)."""
    ended = 0
    while True:
        r = replay(snap, work, env)
        if r != OVER:
            return r
        code = end_turn_late(work, env)
        if code >= 0:
            end_game_late(work, env)
        else:
            begin_turn(work)
        if work.fw[FW_SWAP] == 1 and work.fw[FW_DET_DONE]:
            work.fw[FW_SWAP] = 2
        work.fw[FW_N] = 0
        work.fw[FW_POS] = 0
        work.fw[FW_DET_AT] = -1
        work.fw[FW_DET_DONE] = 0
        work.fw[FW_HALTED] = 0
        copy_record(work, snap)
        if code >= 0:
            return OVER
        ended += 1
        if ended >= turns:
            return TRUNCATED


@njit(cache=True)
def apply_choice(snap, work, env, k):
    """The pending decision takes option k (FW_POLICY: the seat's policy decides); then on to
    the next halt. The caller checks 0 <= k < work.fw[FW_NOPTS]. SCRIPT_FULL if the turn already
    holds MAX_SCRIPT decisions."""
    return apply_for(snap, work, env, k, MAX_TURNS + 1)


@njit(cache=True)
def apply_for(snap, work, env, k, turns):
    """`apply_choice`, then `advance_for` `turns` turns at most."""
    pos = work.fw[FW_POS]
    if pos >= MAX_SCRIPT:
        return SCRIPT_FULL
    for i in range(snap.fw[FW_N], pos):  # decisions the bots took after the script: their policy's
        snap.fw[FW_SCRIPT0 + i] = FW_POLICY
    snap.fw[FW_SCRIPT0 + pos] = k
    snap.fw[FW_N] = pos + 1
    return advance_for(snap, work, env, turns)


@njit(cache=True)
def set_determinization(snap, work, env, seat, key):
    """Determinize the halted state from `seat`'s view with `key` (sim.nyk.script.determinize_now):
    recorded in the snapshot at the pending decision, so replays apply it at the same point."""
    snap.fw[FW_DET_AT] = work.fw[FW_POS]
    snap.fw[FW_DET_SEAT] = seat
    snap.fw[FW_DET_KEY] = key
    return advance(snap, work, env)


# --- the Python face -----------------------------------------------------------------------------

def _record():
    return np.zeros(1, GAME_DTYPE).view(np.recarray)


def kinds_mask(kinds) -> int:
    """The bit mask of decision kinds (names of sim.nyk.decisions.DECISIONS; None: all)."""
    if kinds is None:
        return ALL_KINDS
    mask = 0
    for name in kinds:
        if name not in DECISIONS:
            raise ValueError(f"unknown decision kind {name!r}: choose among {', '.join(DECISIONS)}")
        mask |= 1 << DECISIONS.index(name)
    return mask


class Forward(shared.ForwardState):
    """One New York Kings game paused at a decision (the module doc; sim.shared.forward: the face)."""

    def __init__(self, snap, work, env, names, seating, ruleset, seed, game_id):
        self.snap, self.work, self.env = snap, work, env
        self.names, self.seating, self.ruleset = names, seating, ruleset
        self.seed, self.game_id = seed, game_id
        self._labels = None

    @classmethod
    def new(cls, ruleset=None, strategies=None, players: int | None = None, seed: int = 0, game_id: int = 0,
            stop=None, record: bool = False, key=None, kinds=None) -> Forward:
        """Game `game_id` of run `seed`, seated as the batch seats it; the seats in `stop` (None:
        every seat) decide from outside (`apply`) at the decision kinds `kinds` (None: all), the
        others by their strategies. `key`: the streams' key (default `rng.run_key(seed)`;
        `rng.redraw_key` draws chosen sources afresh)."""
        from sim.nyk.game import Lineup, check_players, with_tables
        from sim.rules import Ruleset

        rs = ruleset or Ruleset.load()
        specs = tuple(strategies or ("balanced",))
        n = players or (len(specs) if len(specs) > 1 else 4)
        check_players(rs, n)
        lineup = Lineup.of(specs, n)
        rows = lineup.seatings_for(seed, game_id, 1)
        seating = rows[game_id % len(rows)]
        kinds_a = np.zeros(MAX_SEATS, np.int64)
        params = np.zeros((MAX_SEATS, N_POLICY_PARAMS))
        restrict = np.zeros(MAX_SEATS, np.int64)
        kinds_a[:n], params[:n], restrict[:n] = (lineup.kinds[seating], lineup.params[seating],
                                                 lineup.restrict[seating])
        env = np.array([with_tables(make_env(rs, kinds_a, params, restrict), lineup)]).view(np.recarray)
        halt = shared.halt_mask(stop, n)
        seat_kinds = np.full(MAX_SEATS, kinds_mask(kinds), np.int64)
        owner = lineup.owner[seating] if lineup.owner is not None else seating
        fw = cls(_record(), _record(), env, [lineup.names[i] for i in owner], seating, rs, seed, game_id)
        streams_key = rng.run_key(seed) if key is None else key
        fw._check(start(fw.snap[0], fw.work[0], env[0], n, streams_key, game_id, int(record), halt, seat_kinds))
        return fw

    # --- reading --------------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return bool(self.snap[0].g[GAME_OVER])

    @property
    def game(self):
        """The record at the current decision (the board as it stands): read it, do not change it."""
        return self.work[0]

    @property
    def players(self) -> int:
        return int(self.snap[0].g[state.N_PLAYERS])

    @property
    def turn(self) -> int:
        return int(self.work[0].g[state.TURN])

    @property
    def stop(self) -> tuple[int, ...]:
        return self.seats_of(self.snap[0].fw[FW_HALT])

    @stop.setter
    def stop(self, seats):
        """Change who decides from outside (from the next replay of the turn on)."""
        self.snap[0].fw[FW_HALT] = shared.halt_mask(seats, self.players)

    def _pending(self):
        fw = self.work[0].fw
        n = int(fw[FW_NOPTS])
        return (int(fw[FW_SEAT]), DECISIONS[fw[FW_KIND]], np.array(self.work[0].fw_opts[:n]),
                np.array(self.work[0].fw_ctx[:N_CTX]))

    def _label(self, seat, ctx, row) -> str:
        return self.label(row)

    def label(self, row) -> str:
        from sim.nyk.labels import option_label

        if self._labels is None:
            from sim.nyk.narrate import Names

            self._labels = Names(self.ruleset, [seat_label(p) for p in range(self.players)])
        return option_label(row, self._labels)

    def _result(self) -> dict:
        g, pl = self.work[0].g, self.work[0].pl
        n = self.players
        return {"winner": int(g[state.WINNER]), "ranks": [int(pl[p, state.RANK]) for p in range(n)],
                "fortunes": [int(pl[p, state.MONEY]) for p in range(n)],
                "turns": int(g[state.TURNS_PLAYED]), "decided_by": state.DECIDED[g[state.DECIDED_BY]]}

    def seen(self, seat: int) -> dict:
        """What `seat` sees, as data (sim.nyk.view): its hand and money, the board, each other
        seat's standing as the `view.fortunes` ruling lets it know it and the size of its hand."""
        from sim.nyk.view import seen_dest, seen_standing

        g = self.work[0]
        n = self.players
        self.check_seat(seat)
        return {
            "seat": seat, "turn": int(g.g[state.TURN]),
            "money": int(g.pl[seat, state.MONEY]),
            "hand": [int(c) for c in g.pl[seat, state.HAND0:state.HAND0 + g.pl[seat, state.HAND_N]]],
            "others": {q: {"standing": int(seen_standing(g, self.env[0], seat, q)),
                           "cards": int(g.pl[q, state.HAND_N]), "alive": bool(g.pl[q, state.ALIVE])}
                       for q in range(n) if q != seat},
            "characters": [(c, int(g.ch[c, state.OWNER]), int(g.ch[c, state.WHERE]), int(g.ch[c, state.LOC]))
                           for c in range(state.N_CHARS)],
            "row": [int(g.g[state.ROW0 + s]) for s in range(state.MAX_ROW)],
            "missions": {m: {"state": int(g.ms[m, state.M_STATE]), "holder": int(g.ms[m, state.M_HOLDER]),
                             "accept": int(g.ms[m, state.M_ACCEPT]), "dest": int(seen_dest(g, seat, m))}
                         for m in range(state.N_MISSIONS)
                         if g.ms[m, state.M_STATE] in (state.MS_ROW, state.MS_HELD)},
            "police": [int(g.g[state.POLICE0 + k]) for k in range(state.N_POLICE)],
        }

    def view(self, seat: int) -> list[str]:
        """What `seat` sees, in words (sim.nyk.table)."""
        from sim.nyk.table import Table

        return Table(self).view(self.check_seat(seat))

    def news(self, seat: int, since: int = 0) -> tuple[list[str], int]:
        """The events since event row `since`, told as `seat` may hear them; and the new cursor."""
        from sim.nyk.table import Table

        return Table(self).news(self.check_seat(seat), since)

    # --- stepping -------------------------------------------------------------------------------
    def _take(self, k: int) -> None:
        self._check(apply_choice(self.snap[0], self.work[0], self.env[0], int(k)))

    def _take_policy(self) -> None:
        self._check(apply_choice(self.snap[0], self.work[0], self.env[0], FW_POLICY))

    def copy(self) -> Forward:
        return Forward(self.snap.copy(), self.work.copy(), self.env, self.names, self.seating,
                       self.ruleset, self.seed, self.game_id)

    def _determinized(self, seat: int, key: int) -> Forward:
        """What `seat` cannot see re-dealt and every stream of luck it cannot predict re-seeded
        from `key`, consistently with its view (sim.nyk.view); once a turn."""
        if self.snap[0].fw[FW_DET_AT] >= 0:
            raise ValueError("this state was already determinized during this turn: "
                             "determinize the original, or step to the next turn first")
        fw = self.copy()
        fw._check(set_determinization(fw.snap[0], fw.work[0], fw.env[0], seat, key))
        return fw

    def _check(self, code: int) -> None:
        if code == SCRIPT_FULL:
            raise RuntimeError(f"a turn with more than {MAX_SCRIPT} decisions: raise "
                               "sim.nyk.state.MAX_SCRIPT")
        if code == ENGINE_ERROR:
            raise RuntimeError("the engine raised an error while replaying the turn")


# --- jitted drivers: whole games through the model -----------------------------------------------

@njit(cache=True)
def driven_games(snap_arr, work_arr, env_arr, kinds, lineups, params, restrict, n_players, key,
                 first_id, n, halt, games, seats):
    """`sim.nyk.batch.play_games` through the forward model: every decision of the seats in
    `halt` stops the replay and is taken by the seat's own policy (`apply_choice(FW_POLICY)`).
    Fills the same `games` and `seats` rows; returns the number of options applied."""
    snap, work, env = snap_arr[0], work_arr[0], env_arr[0]
    every = np.full(MAX_SEATS, ALL_KINDS, dtype=np.int64)
    steps = 0
    for i in range(n):
        game_id = first_id + i
        lineup = lineups[game_id % lineups.shape[0]]
        seat_lineup(env, lineup, kinds, params, restrict, n_players)
        r = start(snap, work, env, n_players, key, game_id, 0, halt, every)
        while r == HALTED:
            r = apply_choice(snap, work, env, FW_POLICY)
            steps += 1
        if r != OVER:
            return -1
        summarise_game(work, games[i])
        summarise_seats(work, lineup, seats[i])
    return steps


@njit(cache=True)
def random_steps(snap_arr, work_arr, env_arr, n_players, key, n_steps):
    """A random driver: every decision of every seat takes a uniform option, games one after
    another, until `n_steps` options are applied (the bench's forward_steps_per_s). Returns the
    games finished."""
    snap, work, env = snap_arr[0], work_arr[0], env_arr[0]
    every = np.full(MAX_SEATS, ALL_KINDS, dtype=np.int64)
    x = np.uint64(key[0]) | np.uint64(1)
    steps, finished, game_id = 0, 0, 0
    r = start(snap, work, env, n_players, key, game_id, 0, (1 << n_players) - 1, every)
    while steps < n_steps:
        if r != HALTED:
            finished += 1
            game_id += 1
            r = start(snap, work, env, n_players, key, game_id, 0, (1 << n_players) - 1, every)
            continue
        x ^= x << np.uint64(13)
        x ^= x >> np.uint64(7)
        x ^= x << np.uint64(17)
        r = apply_choice(snap, work, env, np.int64(x % np.uint64(work.fw[FW_NOPTS])))
        steps += 1
    return finished
