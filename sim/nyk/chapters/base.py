"""The little tools every chapter uses: the decision interface `ask` (with the information-set
check of `view_check`), the event log, dice and shuffles, option lists, seat order, and money
(the bank, the pot, payments between players).

The rules list their options in the game record's own table and context (`game.opts`, `game.ctx`;
`game.opts2` for a choice asked in the middle of another's options, as a bonus move's card) and
read them there: handed down as arguments, each array cost every call seven or nine machine words
and two calls of numba's reference counter, some twenty levels deep. `ask` too is told which of
the record's tables hold the options (OPTS_CTX, OPTS2_CTX, OPTS2_CTX2), not handed them: it is
a call by symbol at every decision, which inlines nothing.

Rule ids: NYK-A4, NYK-S2, NYK-T2.
"""

import numpy as np
from numba import njit, types
from numba.extending import register_jitable

from sim.nyk.decisions import MAX_OPTS
from sim.nyk.state import (
    ALIVE, BANK, BANK_FAILURES, CHECK, DECISIONS, FORCED0, FORCED_N, FORCED_POS, GAME_DTYPE, ILLEGAL, MAX_EVENTS,
    MONEY, N_EVENTS, N_PLAYERS, RECORD, TURN, VIEW_MISMATCH,
)
from sim.nyk.script import forward_choice
from sim.nyk.state import FW_MODE, FW_POLICY
from sim.nyk.view import CHECK_VIEW, redeal, reseed_hidden
from sim.shared.late import decision_signature, late, record
from sim.nyk.env import ENV_DTYPE
from sim.rng import below_of, roll_die_of
from sim.nyk.compiled import P_BANK_FINITE
from strategies.nyk.policy import choose


ONE = np.int64(1)


@register_jitable(inline="always")
def log(game, code, a=0, b=0, c=0, d=0, e=0, f=0):
    """Append an event row when the game is recorded (`mobsim play`). Typed as an overload, so its
    callers' constant codes and arguments arrive as int64 and the row writer compiles once (as a
    jitted function it compiled once per combination of constants, some fifty times). Inlined,
    with the test of the recording in the caller: an unrecorded game (every batch) makes no call
    for its some 360 events a game."""
    if game.g[RECORD] != 0:
        log_row(game, np.int64(code), np.int64(a), np.int64(b), np.int64(c), np.int64(d), np.int64(e),
                np.int64(f))


@njit(cache=True)
def log_row(game, code, a, b, c, d, e, f):
    g = game.g
    if g[RECORD] == 0:
        return
    n = g[N_EVENTS]
    if n >= MAX_EVENTS:
        return
    row = game.events[n]
    row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7] = g[TURN], code, a, b, c, d, e, f
    g[N_EVENTS] = n + 1


@njit(cache=True)
def die(game, src):
    """One die: a forced value first (scenario tests), else the stream of source src (the
    rolling seat's S_DICE0 + p, or S_POLICE)."""
    if game.g[FORCED_POS] < game.g[FORCED_N]:
        v = game.g[FORCED0 + game.g[FORCED_POS]]
        game.g[FORCED_POS] += 1
        return v
    return roll_die_of(game.rng, src)


@njit(cache=True)
def shuffle(game, start, n, src):
    """Fisher-Yates on the block game.g[start : start + n], drawing from source src."""
    g = game.g
    for i in range(n - 1, 0, -1):
        j = below_of(game.rng, src, i + 1)
        g[start + i], g[start + j] = g[start + j], g[start + i]


# where `ask` reads the options and the context: game.opts and game.ctx; game.opts2 (a choice in
# the middle of another's options) and game.ctx; game.opts2 and game.ctx2 (the police's own scratch)
OPTS_CTX, OPTS2_CTX, OPTS2_CTX2 = 0, 1, 2


@njit(cache=True)
def decide(game, env, p, n, tables):
    """The decision interface, called as `ask` (below): seat p picks one of the n legal options the
    engine listed in the game record's tables `tables` (OPTS_CTX, OPTS2_CTX or OPTS2_CTX2), for
    the decision kind in the context's CTX_DECISION (set by the caller: kept out of the arguments,
    a constant there would make numba compile it once per decision kind)."""
    if n <= 1:
        return 0
    # plain C arrays (`[:]`), the types the policy is compiled for once (`choose_late`): the
    # record's own tables would compile the whole policy a second time
    opts = game.opts[:] if tables == OPTS_CTX else game.opts2[:]
    ctx = game.ctx2[:] if tables == OPTS2_CTX2 else game.ctx[:]
    game.g[DECISIONS] += 1
    if game.fw[FW_MODE] != 0:  # driven by the forward model (sim.nyk.forward)
        k = forward_choice(game, env, p, opts, n, ctx)
        if k != FW_POLICY:
            return k
    if game.g[CHECK] == CHECK_VIEW:
        view_check(game, env, p, opts, n, ctx)
    k = choose(game, env, p, opts, n, ctx)
    if k < 0 or k >= n:
        game.g[ILLEGAL] += 1
        return 0
    return k


@njit(cache=True)
def view_check(game, env, p, opts, n, ctx):
    """The information-set check: p's decision on a copy of the game whose hidden facts are
    re-dealt (sim.nyk.view.redeal) must be the one it makes on the game; mismatches are counted."""
    copy = np.zeros(1, GAME_DTYPE)
    shadow = copy[0]
    shadow.g[:] = game.g
    shadow.pl[:, :] = game.pl
    shadow.ch[:, :] = game.ch
    shadow.ms[:, :] = game.ms
    shadow.rng[:] = game.rng  # the policy's own coin: the same on both
    shadow.ctx[:] = ctx       # the pending decision (a bid's face-down rivals, NYK-T1)
    shadow.bids[:] = game.bids
    redeal(shadow, env, p, game.g[DECISIONS])
    reseed_hidden(shadow, p, game.g[DECISIONS])  # dice, lots and the others' coins
    shadow.g[CHECK] = 0
    saved = game.rng.copy()  # the decision on the game itself leaves its generator as it was
    k = choose(game, env, p, opts, n, ctx)
    game.rng[:] = saved
    if choose(shadow, env, p, opts, n, ctx) != k:
        game.g[VIEW_MISMATCH] += 1


@njit(cache=True, inline="always")
def put(opts, n, op, a=0, b=0, c=0, d=0):
    if n < MAX_OPTS:
        opts[n, 0], opts[n, 1], opts[n, 2], opts[n, 3], opts[n, 4] = op, a, b, c, d
        return n + 1
    return n


@njit(cache=True)
def alive_players(game):
    n = 0
    for p in range(game.g[N_PLAYERS]):
        n += game.pl[p, ALIVE]
    return n


@njit(cache=True)
def seat_order(game, first, out):
    """Alive seats from `first` clockwise (NYK-T2, T3)."""
    n_players = game.g[N_PLAYERS]
    k = 0
    for i in range(n_players):
        p = (first + i) % n_players
        if game.pl[p, ALIVE]:
            out[k] = p
            k += 1
    return k


@njit(cache=True)
def pay_into(game, p, amount, slot):
    """p pays up to `amount` into g[slot], the bank or the pot; a player short of money gives
    all it has (NYK-A4)."""
    paid = min(amount, game.pl[p, MONEY])
    game.pl[p, MONEY] -= paid
    game.g[slot] += paid
    return paid


@njit(cache=True)
def bank_pays(game, env, p, amount):
    """The bank pays p; a finite bank (ruling NYK-S2) pays what it has and counts its failures."""
    if env.rp[P_BANK_FINITE] and game.g[BANK] < amount:
        game.g[BANK_FAILURES] += 1
        amount = max(game.g[BANK], 0)
    game.g[BANK] -= amount
    game.pl[p, MONEY] += amount
    return amount


@njit(cache=True)
def player_pays_player(game, payer, payee, amount):
    paid = min(amount, game.pl[payer, MONEY])
    game.pl[payer, MONEY] -= paid
    game.pl[payee, MONEY] += paid
    return paid


# compiled once, when the engine is imported, and called from every rule that asks without
# being linked into each (sim.shared.late); the policy beneath it too, for the searches and
# their labelling loops, which call it directly (`decide` links its own copy: a call by symbol
# per decision cost 10% of a game of cheap players)
choose_late = late(choose, decision_signature(GAME_DTYPE, ENV_DTYPE))
decide_late = late(decide, (record(GAME_DTYPE), record(ENV_DTYPE), types.int64, types.int64, types.int64))


@njit(cache=True, inline="always")
def ask(game, env, p, n, tables):
    """`decide`, called by symbol; a single option is taken where it was listed, with no call."""
    if n <= 1:
        return 0
    return decide_late(game, env, p, n, tables)
