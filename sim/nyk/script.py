"""What `ask` does when a game is driven by the forward model (sim.nyk.forward): read the script.

The forward model replays a turn from its snapshot and feeds `ask` the choices made since then
(the script in `game.fw`). When the script is read to its end at a decision of a seat that halts
(FW_HALT, at a decision kind of FW_KINDS0 + seat), the pending decision is copied into the record
and `Halt` is raised: the driver's `try` catches it. No jitted function here calls the engine, so
the call graph stays acyclic (numba issue 6061: a cached recursive function crashes on load).

A determinization made mid-turn is applied here, when the replay reaches its decision.
"""

from numba import njit

from sim.nyk.decisions import CTX_DECISION
from sim.nyk.state import (
    FW_DET_AT, FW_DET_DONE, FW_DET_KEY, FW_DET_SEAT, FW_HALT, FW_HALTED, FW_KIND, FW_KINDS0, FW_N,
    FW_NOPTS, FW_POLICY, FW_POS, FW_SCRIPT0, FW_SEAT, FW_SWAP,
)
from sim.nyk.view import redeal, reseed_hidden


class Halt(Exception):
    """The replay reached the decision it was asked to stop at (not an error)."""


@njit(cache=True)
def forward_choice(game, env, p, opts, n, ctx):
    """The scripted option at this decision, or FW_POLICY (-1) to let seat p's policy decide;
    raises Halt at the first unscripted decision of a halting seat."""
    fw = game.fw
    pos = fw[FW_POS]
    if pos == fw[FW_DET_AT] and fw[FW_DET_DONE] == 0:
        determinize_now(game, env, fw[FW_DET_SEAT], fw[FW_DET_KEY])
        fw[FW_DET_DONE] = 1
        if fw[FW_SWAP] == 1:  # from here on the seats play the search's playout policies
            use_policies(env, game, 1)
    fw[FW_POS] = pos + 1
    if pos < fw[FW_N]:
        return fw[FW_SCRIPT0 + pos]
    kind = ctx[CTX_DECISION]
    if (fw[FW_HALT] >> p) & 1 and (fw[FW_KINDS0 + p] >> kind) & 1:
        fw[FW_POS] = pos
        fw[FW_HALTED] = 1
        fw[FW_SEAT] = p
        fw[FW_NOPTS] = n
        fw[FW_KIND] = kind
        game.fw_opts[:n, :] = opts[:n, :]
        game.fw_ctx[:] = ctx
        raise Halt()
    return FW_POLICY


@njit(cache=True)
def determinize_now(game, env, seat, key):
    """Re-deal what `seat` cannot see (sim.nyk.view.redeal) and re-seed every stream of luck it
    cannot predict (decks' reshuffles, dice, lots, the other seats' policy coins) from `key`."""
    redeal(game, env, seat, key)
    reseed_hidden(game, seat, key)


@njit(cache=True)
def use_policies(env, game, which):
    """Seat the policies `game.fw_kinds[which]`... in env (0: the game's, 1: a search's playouts)."""
    env.kinds[:] = game.fw_kinds[which]
    env.params[:, :] = game.fw_params[which]
    env.restrict[:] = game.fw_restrict[which]
