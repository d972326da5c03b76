"""What one family cannot see of an American Gangsters game, and its re-deal (determinization).

A family sees the board (locations shown, pieces, dice rolled, tracks, titles, tokens, won cards,
the discard piles), every holder's number of bags, its own profile, and what was done in the
open. It does not see:

- the worth of any bag, its own included (AG-C2: "on ne connait jamais la valeur des magots");
- the other families' profiles: who, if anyone, is the informer (AG-C6);
- the order of the location and event piles (AG-C7, C9) and of the bullet cards not yet turned
  (AG-C11): which cards they hold follows from the cards seen;
- the bids of the families who bid before it in an auction still going on (AG-V1: secret);
- under simultaneous placement (AG-T3), the slots of the pieces the families before it placed
  this turn (`game.hidden`): each is dealt again to a slot drawn uniformly, the hospital or a card
  of the turn (how many pieces of each kind a family placed is taken as known);
- every future roll, reshuffle and the other families' coins (their policy streams).

`redeal(game, env, seat, asking, key)` re-deals all of it in place, consistently with what the
seat has seen (the counts of bags per holder, the cards out of the piles, the turned bullets),
and re-seeds every stream the seat cannot predict from `key`: the seat's own policy stream stays.
The other families' strategies are not part of the record (the env holds them): whoever
determinizes chooses the policies the other seats play by. No allocation: the re-deal runs inside
forward replays that may halt by exception.
"""

import numpy as np
from numba import njit

from sim.ag.decisions import CTX_DECISION, D_BID, MAX_OPTS
from sim.ag.env import INFORMER_ALWAYS, INFORMER_DRAW, P_INFORMER_MODE, P_PROFILE_CARDS
from sim.ag.events import EV_SETUP
from sim.ag.state import (
    BANK_ROW, BARREL0, FW0, FW_SEAT, N_G, BARREL_N, BARREL_POS, BID, E_DECK0, E_DECK_N, INFORMER,
    IS_INFORMER, L_DECK0, L_DECK_N, MAX_SEATS, N_EVENTS, N_PIECES, N_PLAYERS, NO, N_STREAMS, ORDER0, POT_ROW,
    SHOW_N, S_DEAL, S_POLICY0, bag_count, forget_worths,
)
from sim.rng import below_of, splitmix64

_KEY_MUL = np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True)
def reseed(game, s, key):
    """Row s of the game's streams from (key, s) alone: a stream the seat cannot predict."""
    x = np.uint64(key) ^ (np.uint64(s + 1) * _KEY_MUL)
    for i in range(4):
        word, x = splitmix64(x)
        game.rng[s, i] = word
    if game.rng[s, 0] == 0 and game.rng[s, 1] == 0 and game.rng[s, 2] == 0 and game.rng[s, 3] == 0:
        game.rng[s, 0] = _KEY_MUL


@njit(cache=True)
def shuffle_block(game, start, n):
    """Fisher-Yates on game.g[start : start + n], from the re-deal's own stream (S_DEAL, only
    drawn at setup otherwise)."""
    g = game.g
    for i in range(n - 1, 0, -1):
        j = below_of(game.rng, S_DEAL, i + 1)
        g[start + i], g[start + j] = g[start + j], g[start + i]


@njit(cache=True)
def redeal_bags(game):
    """AG-C2: every holder keeps its number of bags; which are worth 3 is dealt again from all
    the bags (each one's worth hidden from everyone)."""
    n = game.g[N_PLAYERS]
    left, threes = 0, 0
    for r in range(MAX_SEATS + 2):
        if r < n or r == BANK_ROW or r == POT_ROW:
            left += bag_count(game, r)
            threes += game.bags[r, 1]
    for r in range(MAX_SEATS + 2):
        if not (r < n or r == BANK_ROW or r == POT_ROW):
            continue
        have = bag_count(game, r)
        three = 0
        for _ in range(have):
            if below_of(game.rng, S_DEAL, left) < threes:
                three += 1
                threes -= 1
            left -= 1
        game.bags[r, 0], game.bags[r, 1] = have - three, three


@njit(cache=True)
def redeal_profiles(game, env, seat):
    """AG-C6: the seat knows only its own profile card. Not the informer, it deals the informer
    card again among the cards it does not hold (profiles.cards of them, one per family, the rest
    out of the game)."""
    g = game.g
    n = g[N_PLAYERS]
    if game.pl[seat, IS_INFORMER]:
        return
    mode = env.rp[P_INFORMER_MODE]
    informer = NO
    if mode == INFORMER_DRAW and env.rp[P_PROFILE_CARDS] > 1:
        u = below_of(game.rng, S_DEAL, env.rp[P_PROFILE_CARDS] - 1)
        if u < n - 1:
            informer = u if u < seat else u + 1
    elif mode == INFORMER_ALWAYS and n > 1:
        u = below_of(game.rng, S_DEAL, n - 1)
        informer = u if u < seat else u + 1
    for p in range(n):
        game.pl[p, IS_INFORMER] = 1 if p == informer else 0
    g[INFORMER] = informer
    for i in range(g[N_EVENTS]):   # the setup row names the informer (told only at the end)
        if game.events[i, 1] == EV_SETUP:
            game.events[i, 3] = informer
            break


@njit(cache=True)
def redeal_bids(game, seat, asking, decision):
    """AG-V1: in an auction still going on (the pending decision a bid of seat `asking`), the
    families who bid before it bid secretly: their bids are drawn again (0 to their bags)."""
    if decision != D_BID:
        return
    g = game.g
    for i in range(g[N_PLAYERS]):
        q = g[ORDER0 + i]
        if q == asking:
            return
        if q != seat:
            game.pl[q, BID] = below_of(game.rng, S_DEAL, min(bag_count(game, q), MAX_OPTS - 1) + 1)


@njit(cache=True)
def redeal_placements(game, seat):
    """AG-T3 simultaneous: the pieces the other families placed this turn are out of the seat's
    sight (game.hidden, empty outside placement): each goes again to a slot drawn uniformly."""
    slots = game.g[SHOW_N] + 1   # the hospital and the cards of the turn
    for q in range(game.g[N_PLAYERS]):
        if q == seat:
            continue
        for piece in range(N_PIECES):
            placed = 0
            for s in range(game.hidden.shape[0]):
                placed += game.hidden[s, q, piece]
                game.hidden[s, q, piece] = 0
            for _ in range(placed):
                game.hidden[below_of(game.rng, S_DEAL, slots), q, piece] += 1


@njit(cache=True)
def redeal(game, env, seat, asking, key):
    """Re-deal in place what `seat` cannot see (module doc); `asking` is the seat whose decision
    is pending (ctx holds it). Deterministic in (game, seat, key)."""
    g = game.g
    for s in range(N_STREAMS):
        if s != S_POLICY0 + seat:
            reseed(game, s, key)
    redeal_bags(game)
    redeal_profiles(game, env, seat)
    redeal_bids(game, seat, asking, game.ctx[CTX_DECISION])
    shuffle_block(game, L_DECK0, g[L_DECK_N])
    shuffle_block(game, E_DECK0, g[E_DECK_N])
    shuffle_block(game, BARREL0 + g[BARREL_POS], max(g[BARREL_N] - g[BARREL_POS], 0))
    redeal_placements(game, seat)
    forget_worths(g)   # the policies' cached worths read the profiles: work them out again


def visible(game, seat: int) -> dict:
    """Everything `seat` sees of a game record, as arrays (Python; the determinization test): the
    record with what it cannot see blanked out, and the piles' hidden orders sorted."""
    g = np.array(game.g, copy=True)
    g[FW0:N_G] = 0                       # the forward model's bookkeeping
    forget_worths(g)                     # a policy's caches
    for start, count in ((L_DECK0, L_DECK_N), (E_DECK0, E_DECK_N)):
        g[start:start + g[count]] = np.sort(g[start:start + g[count]])
    pos, end = g[BARREL_POS], max(g[BARREL_N], g[BARREL_POS])
    g[BARREL0 + pos:BARREL0 + end] = np.sort(g[BARREL0 + pos:BARREL0 + end])
    pl = np.array(game.pl, copy=True)
    n = int(g[N_PLAYERS])
    if not pl[seat, IS_INFORMER]:
        g[INFORMER] = -2
        pl[:n, IS_INFORMER] = 0
    if game.ctx[CTX_DECISION] == D_BID:
        for i in range(n):
            q = int(g[ORDER0 + i])
            if q == game.g[FW_SEAT]:   # the bidder asked now: those before it bid in secret
                break
            if q != seat:
                pl[q, BID] = 0
    hidden = np.array(game.hidden, copy=True)   # others' pieces placed this turn: how many, not where
    others = [q for q in range(n) if q != seat]
    hidden[0, others, :] = hidden[:, others, :].sum(axis=0)
    hidden[1:, others, :] = 0
    events = np.array(game.events[:game.g[N_EVENTS]], copy=True)
    events[events[:, 1] == EV_SETUP, 3] = 0
    return {"g": g, "pl": pl, "bag_counts": game.bags.sum(axis=1), "lc": np.array(game.lc),
            "at": np.array(game.at), "hidden": hidden, "dice": np.array(game.dice), "fortune": np.array(game.fortune),
            "opts": np.array(game.opts), "ctx": np.array(game.ctx), "events": events,
            "alloc": np.array(game.alloc), "share": np.array(game.share),
            "want": np.array(game.want), "units": np.array(game.units)}
