"""The forward model's side of `ask` (sim.ag.engine): choices fed from the forward script.

A forward state is the game record at the start of the current turn plus the script of the
choices made since, one entry per decision with more than one option (sim.ag.forward). When the
forward driver replays the turn, `ask` calls `forward_choice`, which returns the next entry
(FW_POLICY: the seat's own policy decides, drawing the very same coins from the copied record);
past the end of the script a decision of a stopped seat halts the replay by raising `Halt` (the
decision stays in the record: FW_SEAT, FW_OPTS_N, game.opts, game.ctx), and any other seat's
decision is appended to the script as FW_POLICY. Determinizations recorded in the script
(position, seat, key) are applied when the replay reaches their position, so a determinized
state can itself be replayed and stepped; a search's env may swap the seats' policies there
(env.swap: its playouts). Nothing here calls the engine (no recursion).
"""

from numba import njit

from sim.ag.redeal import redeal
from sim.ag.state import (
    FW_DET0, FW_DET_DONE, FW_DET_N, FW_HALTED, FW_N, FW_OPTS_N, FW_POLICY, FW_POS, FW_SCRIPT0,
    FW_SEAT, FW_STOP, N_FW_SCRIPT,
)

HALTED, OVERFLOW = 1, 2   # g[FW_HALTED]: why the replay stopped


class Halt(Exception):
    """The replay reached the pending decision (or outgrew the script: g[FW_HALTED] says which)."""


@njit(cache=True)
def apply_determinizations(game, env, pos, asking):
    g = game.g
    while g[FW_DET_DONE] < g[FW_DET_N]:
        at = FW_DET0 + 3 * g[FW_DET_DONE]
        if g[at] != pos:
            return
        redeal(game, env, g[at + 1], asking, g[at + 2])
        if env.swap:  # a search's playout: the policies it plays the world out with
            env.kinds[:] = env.swap_kinds
            env.params[:, :] = env.swap_params
        g[FW_DET_DONE] += 1


@njit(cache=True)
def forward_choice(game, env, p, n):
    """Seat p's choice among n options in a forward replay, or FW_POLICY (its policy decides)."""
    g = game.g
    pos = g[FW_POS]
    apply_determinizations(game, env, pos, p)
    if pos < g[FW_N]:
        g[FW_POS] = pos + 1
        return g[FW_SCRIPT0 + pos]
    if (g[FW_STOP] >> p) & 1:
        g[FW_SEAT] = p
        g[FW_OPTS_N] = n
        g[FW_HALTED] = HALTED
        raise Halt()
    if pos >= N_FW_SCRIPT:
        g[FW_HALTED] = OVERFLOW
        raise Halt()
    g[FW_SCRIPT0 + pos] = FW_POLICY
    g[FW_N] = pos + 1
    g[FW_POS] = pos + 1
    return FW_POLICY
