"""The American Gangsters forward model: a game paused at a decision, copied, stepped, determinized.

A forward state is a pair of game records: `snap`, the game at the start of the current turn with
the forward script (the choices made since, sim.ag.script), and `work`, the game at the pending
decision, rebuilt by replaying the turn from `snap` with the script (the engine is deterministic
given the record: every random stream is a row of it). No recursion: the engine halts by
exception at the pending decision and the driver here catches it (docs/architecture.md).

Jitted (for the search player), on 1-element record arrays:
    new_state(snap, work, env, n_players, key, game_id, record, stop) -> status
    push(snap, k) then advance(snap, work, env) -> status     # k an option index or FW_POLICY
    determinize_state(snap, work, env, seat, key) -> status
status: HALTED (work holds the decision: seat g[FW_SEAT], g[FW_OPTS_N] rows of work.opts, ctx),
OVER (the game ended: work is the finished game), OUTGROWN (a turn outgrew the script).

From Python (sim.shared.forward documents the shared face):
    fw = Forward.new(ruleset, strategies, players=4, seed=0, game_id=0, stop=(0, 1, 2, 3))
    d = fw.decision(); fw.apply(k); fw.apply_policy(); fw.copy(); fw.over; fw.result()
    fw.determinize(seat, key); fw.view(seat); fw.news(seat, since)
"""

import numpy as np
from numba import njit

from sim.shared import forward as shared
from sim import rng
from sim.ag import engine, state
from sim.ag.batch import summarise_game, summarise_seats
from sim.ag.decisions import (
    BLUFF_LEVELS, CTX_DECISION, CTX_PIECE, CTX_POWER, CTX_SLOT, DECISIONS, D_CLAIM, D_DUEL, D_PLACE, D_SHOOT,
    D_STEAL, N_LEVELS, OP_BID, OP_BUY_RENOWN, OP_DISTRICT, OP_FOLD, OP_HEAL, OP_LEVEL, OP_MOVE, OP_NO,
    OP_PASS, OP_PIECE, OP_PULL, OP_RECRUIT, OP_SEAT, OP_SELL_BAGS, OP_SELL_HENCH, OP_SLOT,
    OP_TRAFFIC, OP_YES, POWER_ARMS,
)
from sim.ag.env import (
    N_POLICY_PARAMS, PLACE_SIMULTANEOUS, P_BUY_BAGS, P_PLACEMENT, P_SELL_BAGS, make_env, seat_lineup,
)
from sim.ag.events import EV_PLACE, EV_UNPLACED
from sim.ag.game import Lineup, check_players, load_default, with_tables
from sim.ag.narrate import PIECES, Names, narrate
from sim.ag.readers import score, titles
from sim.ag.script import HALTED
from sim.ag.state import (
    FW_DET0, FW_DET_DONE, FW_DET_N, FW_HALTED, FW_MAX_N, FW_MODE, FW_N, FW_OPTS_N, FW_POLICY, FW_POS,
    FW_SCRIPT0, FW_SEAT, FW_STOP, GAME_OVER, N_FW_DET, N_FW_SCRIPT, NO, clear_game,
)
from sim.rules.ag.content import TRAFFICS
from sim.shared.seats import seat_labels

OVER, OUTGROWN = 0, -1


@njit(cache=True)
def new_state(snap_arr, work_arr, env_arr, n_players, key, game_id, record, stop):
    """A new game in `snap` (setup done), played to its first halt into `work`."""
    snap = snap_arr[0]
    clear_game(snap)
    engine.start_late(snap, env_arr[0], n_players, key, game_id, record, 0)
    snap.g[FW_MODE] = 1
    snap.g[FW_STOP] = stop
    return advance(snap_arr, work_arr, env_arr)


@njit(cache=True)
def push(snap_arr, k):
    """Append choice k (an option index, or FW_POLICY) to the script; False when it is full."""
    g = snap_arr[0].g
    if g[FW_N] >= N_FW_SCRIPT:
        return False
    g[FW_SCRIPT0 + g[FW_N]] = k
    g[FW_N] += 1
    return True


@njit(cache=True)
def advance(snap_arr, work_arr, env_arr):
    """Replay the turn from `snap` with its script, and the next turns, up to the next halt or
    the end of the game (the between-turns code is the batch's: engine.after_turn, finish)."""
    snap, env = snap_arr[0], env_arr[0]
    while True:
        if snap.g[GAME_OVER]:
            work_arr[0] = snap_arr[0]
            return OVER
        work_arr[0] = snap_arr[0]
        work = work_arr[0]
        work.g[FW_POS] = 0
        work.g[FW_DET_DONE] = 0
        work.g[FW_HALTED] = 0
        ended_by, mask = NO, 0
        halted = False
        try:
            ended_by, mask = engine.next_turn_late(work, env)
        except Exception:
            halted = True
        if halted:
            if work.g[FW_HALTED] != HALTED:
                return OUTGROWN
            for i in range(snap.g[FW_N], work.g[FW_N]):   # the bots' turns past the old script
                snap.g[FW_SCRIPT0 + i] = work.g[FW_SCRIPT0 + i]
            snap.g[FW_N] = work.g[FW_N]
            return HALTED
        broken, ended_by, mask = engine.after_turn_late(work, env, ended_by, mask)
        work.g[FW_MAX_N] = max(work.g[FW_MAX_N], work.g[FW_N])
        work.g[FW_N] = 0
        work.g[FW_POS] = 0
        work.g[FW_DET_N] = 0
        work.g[FW_DET_DONE] = 0
        if ended_by >= 0:
            engine.finish_late(work, env, ended_by, mask)
        snap_arr[0] = work_arr[0]


@njit(cache=True)
def determinize_state(snap_arr, work_arr, env_arr, seat, key):
    """Record a re-deal from `seat`'s view at the pending decision (sim.ag.redeal) and replay up
    to it; False when the turn already holds N_FW_DET of them."""
    g = snap_arr[0].g
    if g[GAME_OVER]:
        return OVER
    if g[FW_DET_N] >= N_FW_DET:
        return OUTGROWN
    at = FW_DET0 + 3 * g[FW_DET_N]
    g[at], g[at + 1], g[at + 2] = g[FW_N], seat, key
    g[FW_DET_N] += 1
    return advance(snap_arr, work_arr, env_arr)


@njit(cache=True)
def random_steps(snap_arr, work_arr, env_arr, n_players, key, seed, steps):
    """Options applied per call by a uniform random driver, new games as they end (the bench's
    forward_steps_per_s): returns the number of games begun."""
    state_ = np.empty(4, np.uint64)
    rng.seed_game(key, seed, state_)
    games = 1
    status = new_state(snap_arr, work_arr, env_arr, n_players, key, seed, 0, (1 << n_players) - 1)
    for _ in range(steps):
        if status != HALTED:
            status = new_state(snap_arr, work_arr, env_arr, n_players, key, seed + games, 0,
                               (1 << n_players) - 1)
            games += 1
            continue
        push(snap_arr, rng.below(state_, work_arr[0].g[FW_OPTS_N]))
        status = advance(snap_arr, work_arr, env_arr)
    return games


@njit(cache=True)
def play_games_forward(snap_arr, work_arr, env_arr, kinds, lineups, params, n_players, key,
                       first_id, n, games, seats):
    """sim.ag.batch.play_games through the forward model: every seat stopped at every decision
    and answered by its own policy (FW_POLICY), the same summaries (the identical-games test).
    Returns the number of games that outgrew the script (0)."""
    env = env_arr[0]
    outgrown = 0
    for i in range(n):
        game_id = first_id + i
        lineup = lineups[game_id % lineups.shape[0]]
        seat_lineup(env, lineup, kinds, params, n_players)
        status = new_state(snap_arr, work_arr, env_arr, n_players, key, game_id, 0,
                           (1 << n_players) - 1)
        while status == HALTED:
            push(snap_arr, FW_POLICY)
            status = advance(snap_arr, work_arr, env_arr)
        outgrown += status == OUTGROWN
        summarise_game(work_arr[0], env, games[i])
        summarise_seats(work_arr[0], env, lineup, seats[i])
    return outgrown


def _check(status: int):
    if status == OUTGROWN:
        raise RuntimeError(f"a turn needed more than {N_FW_SCRIPT} decisions or {N_FW_DET} "
                           "determinizations: raise N_FW_SCRIPT / N_FW_DET in sim/ag/state.py")
    return status


class Forward(shared.ForwardState):
    """An American Gangsters game paused at a decision (module doc; sim.shared.forward: the face)."""

    def __init__(self, snap, work, env, ruleset, labels, seed, game_id, status):
        self.snap, self.work, self.env = snap, work, env
        self.ruleset, self.labels, self.seed, self.game_id = ruleset, labels, seed, game_id
        self._status = status
        self.names = Names(ruleset, labels)

    @classmethod
    def new(cls, ruleset=None, strategies=None, players: int | None = None, seed: int = 0, game_id: int = 0,
            stop=None, record: bool = False, key=None) -> "Forward":
        """Game `game_id` of run `seed` (the batch's dice and seating), halting at the decisions of
        the seats in `stop` (None: every seat; the others play their strategies). `key`: the
        streams' key (default `rng.run_key(seed)`; `rng.redraw_key` draws chosen sources afresh)."""
        rs = ruleset or load_default()
        players = players or 4
        check_players(rs, players)
        lineup = Lineup.of(strategies, players)
        rows = lineup.seatings_for(seed, game_id, 1)
        seating = rows[game_id % len(rows)]
        kinds = np.zeros(state.MAX_SEATS, dtype=np.int64)
        params = np.zeros((state.MAX_SEATS, N_POLICY_PARAMS), dtype=np.float64)
        kinds[:players] = lineup.kinds[seating]
        params[:players] = lineup.params[seating]
        env = np.array([with_tables(make_env(rs, kinds, params), lineup)]).view(np.recarray)
        snap = np.zeros(1, state.GAME_DTYPE).view(np.recarray)
        work = np.zeros(1, state.GAME_DTYPE).view(np.recarray)
        slots = lineup.owner[seating] if lineup.owner is not None else seating
        labels = seat_labels([lineup.names[slots[p]] for p in range(players)])
        mask = shared.halt_mask(stop, players)
        status = _check(new_state(snap, work, env, players, rng.run_key(seed) if key is None else key,
                                 game_id, int(record), mask))
        return cls(snap, work, env, rs, labels, seed, game_id, status)

    # --- the state -------------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self._status != HALTED

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
        return self.seats_of(self.snap[0].g[FW_STOP])

    @stop.setter
    def stop(self, seats):
        """Change who chooses from outside (the pending decision stays)."""
        self.snap[0].g[FW_STOP] = shared.halt_mask(seats, self.players)

    def _pending(self):
        g = self.work[0].g
        n = int(g[FW_OPTS_N])
        ctx = self.work[0].ctx.copy()
        return int(g[FW_SEAT]), DECISIONS[ctx[CTX_DECISION]], self.work[0].opts[:n].copy(), ctx

    def _label(self, seat, ctx, row) -> str:
        return option_label(self, seat, ctx, row)

    # --- steps -----------------------------------------------------------------------------------
    def _take(self, k):
        self._step(k)

    def _take_policy(self):
        self._step(FW_POLICY)

    def _step(self, k):
        if not push(self.snap, k):
            _check(OUTGROWN)
        self._status = _check(advance(self.snap, self.work, self.env))

    def copy(self) -> "Forward":
        return Forward(self.snap.copy(), self.work.copy(), self.env.copy(), self.ruleset,
                       list(self.labels), self.seed, self.game_id, self._status)

    def _determinized(self, seat: int, key: int) -> "Forward":
        """What `seat` cannot see dealt again from `key` (sim.ag.redeal)."""
        out = self.copy()
        out._status = _check(determinize_state(out.snap, out.work, out.env, seat, key))
        return out

    def _result(self) -> dict:
        game = self.game
        n = self.players
        return {"winner": int(game.g[state.WINNER]), "turns": int(game.g[state.TURNS_PLAYED]),
                "ranks": [int(game.pl[p, state.RANK]) for p in range(n)],
                "fortunes": [int(score(game, self.env[0], p)) for p in range(n)],
                "ended_by": state.ENDED[game.g[state.ENDED_BY]],
                "decided_by": state.DECIDED[game.g[state.DECIDED_BY]]}

    @property
    def most_script(self) -> int:
        """The most script entries one turn of this game has needed so far."""
        return int(max(self.work[0].g[FW_MAX_N], self.work[0].g[FW_N]))

    # --- what a seat sees --------------------------------------------------------------------------
    def news(self, seat: int, since: int = 0) -> tuple[list[str], int]:
        """The events since event row `since`, told as `seat` may hear them; and the new cursor.
        AG-T3 simultaneous: while the families place, the news stops at the first placement of
        this turn by another family (the board hides it, game.hidden) and goes on from there
        once the placement is over."""
        self.check_seat(seat)
        game = self.game
        end = placements_hidden_from(self, seat, since, int(game.g[state.N_EVENTS]))
        return narrate(game.events[since:end], self.names, before=game.events[:since]), end

    def view(self, seat: int) -> list[str]:
        """What `seat` sees: the board, every family in the open, its own profile (text lines)."""
        return view_lines(self, self.check_seat(seat))


# --- readable options and views (the human seat) -------------------------------------------------------

def placements_hidden_from(fw: Forward, seat: int, since: int, end: int) -> int:
    """The first event row in [since, end) that simultaneous placement hides from `seat` now (another
    family's placement this turn while the families still place, AG-T3), else `end`."""
    game = fw.game
    if fw.over or fw.env[0].rp[P_PLACEMENT] != PLACE_SIMULTANEOUS or game.ctx[CTX_DECISION] != D_PLACE:
        return end
    turn = game.g[state.TURN]
    for i in range(since, end):
        row = game.events[i]
        if row[0] == turn and row[1] in (EV_PLACE, EV_UNPLACED) and row[2] != seat:
            return i
    return end


def slot_name(fw: Forward, slot: int) -> str:
    if slot == NO:
        return "stay home"
    if slot == state.HOSPITAL:
        return "the hospital"
    return fw.names.cards[int(fw.game.g[state.SHOW0 + slot])]


def card_gains(fw: Forward, slot: int) -> str:
    """What a shown location card gives on success (AG-C7), for the human seat's view."""
    if slot == state.HOSPITAL:
        return ""
    card = fw.ruleset.content["locations"].cards[int(fw.game.g[state.SHOW0 + slot])]
    gains = [f"{card.renown} renown" if card.renown else "", f"{card.bags} bag(s)" if card.bags else "",
             f"{card.traffic} token" if card.traffic else "",
             f"{card.occasional} occasional" if card.occasional else "",
             {1: "FBI +1", -1: "FBI -1"}.get(card.fbi, "")]
    return " gives " + ", ".join(x for x in gains if x) if any(gains) else ""


def option_label(fw: Forward, seat: int, ctx, row) -> str:  # noqa: C901 - one case per op code
    op, a, b, c, d = (int(x) for x in row)
    kind = int(ctx[CTX_DECISION])
    rp = fw.env[0].rp
    name = fw.names.seat
    if op == OP_PASS:
        return "pass"
    if op == OP_BUY_RENOWN:
        return f"buy a renown level for {rp[P_BUY_BAGS]} bags"
    if op == OP_SELL_BAGS:
        return f"sell a renown level for {rp[P_SELL_BAGS]} bags"
    if op == OP_SELL_HENCH:
        return "give up a renown level to take back a henchman"
    if op == OP_SEAT:
        verb = {D_STEAL: "take a bag from", D_DUEL: "shoot at the boss of", D_SHOOT: "fire a BANG at"}
        return f"{verb.get(kind, 'choose')} {name(a)}"
    if op == OP_BID:
        return f"bid {a} bag(s)"
    if op == OP_PULL:
        return "pay a bag and turn a bullet"
    if op == OP_FOLD:
        return "fold"
    if op == OP_SLOT:
        piece = PIECES[int(ctx[CTX_PIECE])]
        return f"{piece} -> {slot_name(fw, a)}"
    if op == OP_MOVE:
        return f"move {name(b)}'s {PIECES[c]} from {slot_name(fw, a)} to {slot_name(fw, d)}"
    if op in (OP_YES, OP_NO):
        return "yes" if op == OP_YES else "no"
    if op == OP_HEAL:
        return "heal a wound of your boss"
    if op == OP_RECRUIT:
        return f"recruit a {PIECES[a]}"
    if op == OP_LEVEL:
        if kind == D_CLAIM:
            return f"claim your shoot-out value + {BLUFF_LEVELS[a]:.0%} of the card"
        return f"greed level {a} of {N_LEVELS - 1}"
    if op == OP_PIECE:
        return f"your {PIECES[a]} takes the hit"
    if op == OP_DISTRICT:
        return f"a card (or the Caid title) of {fw.names.districts[a]}"
    if op == OP_TRAFFIC:
        return f"a {TRAFFICS[a]} token"
    return f"option {op} {a} {b} {c} {d}"


def view_lines(fw: Forward, seat: int) -> list[str]:
    game, env = fw.game, fw.env[0]
    g, pl = game.g, game.pl
    profile = "the INFORMER" if pl[seat, state.IS_INFORMER] else "a mafia family"
    lines = [f"Turn {int(g[state.TURN])}, godfather {fw.names.seat(int(g[state.GODFATHER]))}; "
             f"FBI pawn at {int(g[state.FBI])}. You are {fw.names.seat(seat)}, {profile}."]
    for p in range(fw.players):
        barons, caids = titles(game, p)
        tokens = ", ".join(f"{TRAFFICS[t]} {int(pl[p, state.TOK0 + t])}"
                           for t in range(state.N_TRAFFICS) if pl[p, state.TOK0 + t])
        won = ", ".join(f"{fw.names.districts[d]} {int(pl[p, state.WON0 + d])}"
                        for d in range(state.N_DISTRICTS) if pl[p, state.WON0 + d])
        me = " (you)" if p == seat else ""
        lines.append(f"  {fw.names.seat(p)}{me}: score {int(score(game, env, p))} (renown "
                     f"{int(pl[p, state.RENOWN])}, {int(barons)} Baron, {int(caids)} Caid), "
                     f"{int(state.bag_count(game, p))} bags, {int(pl[p, state.HENCHMEN])} henchmen, "
                     f"{int(pl[p, state.KILLERS])} killers, {int(pl[p, state.OCC_READY])}+"
                     f"{int(pl[p, state.OCC_NEW])} occasional, {int(pl[p, state.WOUNDS])} wounds"
                     + (f"; tokens {tokens}" if tokens else "") + (f"; cards {won}" if won else ""))
    for s in range(int(g[state.SHOW_N]) + 1):
        here = []
        for p in range(fw.players):
            pieces = [f"{int(game.at[s, p, k])} {PIECES[k]}" for k in range(state.N_PIECES)
                      if game.at[s, p, k]]
            if pieces:
                here.append(f"{fw.names.seat(p)}: " + ", ".join(pieces))
        lines.append(f"  [{s}] {slot_name(fw, s)}{card_gains(fw, s)}" + (": " + "; ".join(here) if here else ""))
    ctx = game.ctx
    if fw.over:
        return lines
    kind = DECISIONS[int(ctx[CTX_DECISION])]
    if kind in ("shoot", "hit", "reroll", "offer", "accept", "claim", "arms"):
        lines.append(f"  At stake: {slot_name(fw, int(ctx[CTX_SLOT]))}.")
    if kind == "buy":
        power = "Arms" if ctx[CTX_POWER] == POWER_ARMS else "Prostitution"
        lines.append(f"  The {power} Baron's power is for sale.")
    return lines
