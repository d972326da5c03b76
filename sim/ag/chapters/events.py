"""Events (rules: events): the event card of the turn and its effects (auction, Russian
roulette, duels, taxes, the press...).

Rule ids: AG-C11, AG-T2, AG-V1, AG-V2, AG-V3.
"""

from numba import njit

from sim.ag.chapters.base import add_renown, ask, gain_occasional, log, move_bags, move_fbi, put, shuffle
from sim.ag.chapters.wounds import wound_boss
from sim.ag.decisions import (
    CTX_DECISION, CTX_ROUND, CTX_TOTAL, D_BID, D_DUEL, D_ROULETTE, MAX_OPTS, OP_BID, OP_FOLD, OP_PULL, OP_SEAT,
)
from sim.ag.env import (
    E_AUCTION, E_BANK_PAYS, E_DUELS, E_FBI, E_HEAL, E_OCCASIONAL, E_PRESS, E_ROULETTE, E_TAX, PISTOL_EXTRA,
    P_BULLET_BANGS, P_BULLET_CLICS, P_PISTOL, P_ROULETTE_FOLD, P_ROULETTE_STAKE, P_ROULETTE_WIN, P_ZERO_WINS,
    RP_E_EFFECT, RP_E_PARAM,
)
from sim.ag.events import (
    EV_AUCTION_WIN, EV_BANK_PAYS, EV_BID, EV_DUEL, EV_EVENT, EV_FOLD, EV_HEAL_ALL, EV_PRESS, EV_PULL, EV_ROULETTE_WIN,
    EV_TAX,
)
from sim.ag.readers import score
from sim.ag.state import (
    BANK_ROW, BARREL0, BARREL_N, BARREL_POS, BID, C_AUCTIONS_WON, C_AUCTION_SPENT, C_DUEL_SHOTS, C_ROULETTE_PULLS,
    C_ROULETTE_WINS, EVENTS_PLAYED, E_DECK0, E_DECK_N, E_DISC0, E_DISC_N, FORCED0, FORCED_N, FORCED_POS, GODFATHER,
    IN0, MAX_BULLETS, NO, N_PLAYERS, ORDER0, POT_ROW, S_BARREL, S_EVENTS, WOUNDS, bag_count,
)


@njit(cache=True)
def event_phase(game, env, opts, ctx):
    """AG-T2: the godfather reveals an event and resolves it (the discards are reshuffled when the
    pile runs out)."""
    g = game.g
    if g[E_DECK_N] == 0:
        for i in range(g[E_DISC_N]):
            g[E_DECK0 + i] = g[E_DISC0 + i]
        g[E_DECK_N], g[E_DISC_N] = g[E_DISC_N], 0
        shuffle(game, E_DECK0, g[E_DECK_N], S_EVENTS)
    if g[E_DECK_N] == 0:
        return
    g[E_DECK_N] -= 1
    e = g[E_DECK0 + g[E_DECK_N]]
    g[E_DISC0 + g[E_DISC_N]] = e
    g[E_DISC_N] += 1
    g[EVENTS_PLAYED] += 1
    log(g, game.events, EV_EVENT, e, g[GODFATHER])
    resolve_event(game, env, env.rp[RP_E_EFFECT + e], env.rp[RP_E_PARAM + e], opts, ctx)


@njit(cache=True)
def resolve_event(game, env, effect, param, opts, ctx):
    n_players = game.g[N_PLAYERS]
    if effect == E_AUCTION:
        auction(game, env, param, opts, ctx)
    elif effect == E_ROULETTE:
        roulette(game, env, opts, ctx)
    elif effect == E_DUELS:
        duels(game, env, opts, ctx)
    elif effect == E_FBI:
        move_fbi(game, env, param, NO)
    elif effect == E_BANK_PAYS:
        for i in range(n_players):
            p = game.g[ORDER0 + i]
            log(game.g, game.events, EV_BANK_PAYS, p, move_bags(game, BANK_ROW, p, param))
    elif effect == E_TAX:
        for i in range(n_players):
            p = game.g[ORDER0 + i]
            log(game.g, game.events, EV_TAX, p, move_bags(game, p, BANK_ROW, param))
    elif effect == E_HEAL:
        for p in range(n_players):
            game.pl[p, WOUNDS] = 0
        log(game.g, game.events, EV_HEAL_ALL)
    elif effect == E_PRESS:
        best = 0
        for p in range(n_players):
            best = max(best, score(game, env, p))
        for p in range(n_players):
            if score(game, env, p) == best:
                add_renown(game, p, -param)
                log(game.g, game.events, EV_PRESS, p, param)
    elif effect == E_OCCASIONAL:
        gain_occasional(game, game.g[GODFATHER], param)


@njit(cache=True)
def auction(game, env, renown, opts, ctx):
    """AG-V1: everyone bids bags secretly (0 allowed); all bids are lost; the highest bid wins,
    ties in turn order from the godfather; the winner gains `renown` (assumed)."""
    n_players = game.g[N_PLAYERS]
    for i in range(n_players):
        p = game.g[ORDER0 + i]
        n = 0
        for b in range(min(bag_count(game, p), MAX_OPTS - 1) + 1):
            n = put(opts, n, OP_BID, b)
        ctx[CTX_DECISION] = D_BID
        ctx[CTX_TOTAL] = renown   # the prize, for the bidder to price
        game.pl[p, BID] = opts[ask(game, env, p, opts, n, ctx), 1]   # secret: policies see only their own
    winner, best = NO, -1
    for i in range(n_players):
        p = game.g[ORDER0 + i]
        bid = game.pl[p, BID]
        move_bags(game, p, BANK_ROW, bid)
        game.pl[p, C_AUCTION_SPENT] += bid
        log(game.g, game.events, EV_BID, p, bid)
        if bid > best:
            winner, best = p, bid
    if best == 0 and not env.rp[P_ZERO_WINS]:   # AG-V1 ruling: a bid of 0 wins nothing
        log(game.g, game.events, EV_AUCTION_WIN, NO, 0, 0)
        return
    add_renown(game, winner, renown)
    game.pl[winner, C_AUCTIONS_WON] += 1
    log(game.g, game.events, EV_AUCTION_WIN, winner, best, renown)


@njit(cache=True)
def load_barrel(game, env):
    """AG-C11: the barrel of bullet cards (1 = BANG), shuffled."""
    n = min(env.rp[P_BULLET_CLICS] + env.rp[P_BULLET_BANGS], MAX_BULLETS)
    for i in range(n):
        game.g[BARREL0 + i] = 1 if i < env.rp[P_BULLET_BANGS] else 0
    game.g[BARREL_N] = n
    game.g[BARREL_POS] = 0
    shuffle(game, BARREL0, n, S_BARREL)


@njit(cache=True)
def bullet(game, env):
    """Turn the next bullet card: 1 for a BANG. A forced value comes first (tests: nonzero is a
    BANG); an exhausted barrel is made again from the turned cards (AG-V2)."""
    if game.g[FORCED_POS] < game.g[FORCED_N]:
        v = game.g[FORCED0 + game.g[FORCED_POS]]
        game.g[FORCED_POS] += 1
        return 1 if v != 0 else 0
    if game.g[BARREL_POS] >= game.g[BARREL_N]:
        load_barrel(game, env)
    b = game.g[BARREL0 + game.g[BARREL_POS]]
    game.g[BARREL_POS] += 1
    return b


@njit(cache=True)
def roulette(game, env, opts, ctx):
    """AG-V2: from the godfather each boss folds or pays 1 bag and turns a bullet; a BANG wounds
    it and puts it out; folding in the first round costs renown. The last boss in wins the pot and
    renown."""
    g, rp = game.g, env.rp
    n_players = g[N_PLAYERS]
    load_barrel(game, env)
    for p in range(n_players):
        g[IN0 + p] = 1
    left = n_players
    rnd = 1
    while left > 1:
        for i in range(n_players):
            p = g[ORDER0 + i]
            if g[IN0 + p] == 0 or left <= 1:
                continue
            n = put(opts, 0, OP_FOLD)
            if bag_count(game, p) >= rp[P_ROULETTE_STAKE]:
                n = put(opts, n, OP_PULL)
            ctx[CTX_DECISION] = D_ROULETTE
            ctx[CTX_ROUND] = rnd
            if opts[ask(game, env, p, opts, n, ctx), 0] == OP_FOLD:
                g[IN0 + p] = 0
                left -= 1
                if rnd == 1:
                    add_renown(game, p, -rp[P_ROULETTE_FOLD])
                log(g, game.events, EV_FOLD, p, rnd)
                continue
            move_bags(game, p, POT_ROW, rp[P_ROULETTE_STAKE])
            game.pl[p, C_ROULETTE_PULLS] += 1
            bang = bullet(game, env)
            log(g, game.events, EV_PULL, p, bang)
            if bang:
                g[IN0 + p] = 0
                left -= 1
                wound_boss(game, env, p, NO, opts, ctx)
        rnd += 1
    for p in range(n_players):
        if g[IN0 + p]:
            pot = bag_count(game, POT_ROW)
            move_bags(game, POT_ROW, p, pot)
            add_renown(game, p, rp[P_ROULETTE_WIN] + (1 if rp[P_PISTOL] == PISTOL_EXTRA else 0))   # AG-V2
            game.pl[p, C_ROULETTE_WINS] += 1
            log(g, game.events, EV_ROULETTE_WIN, p, pot)


@njit(cache=True)
def duels(game, env, opts, ctx):
    """AG-V3: from the godfather each family chooses an opponent and turns one bullet at its boss;
    a BANG wounds it; a boss that survives shoots back the same way. One round of the table."""
    n_players = game.g[N_PLAYERS]
    load_barrel(game, env)
    for i in range(n_players):
        p = game.g[ORDER0 + i]
        n = 0
        for q in range(n_players):
            if q != p:
                n = put(opts, n, OP_SEAT, q)
        ctx[CTX_DECISION] = D_DUEL
        q = opts[ask(game, env, p, opts, n, ctx), 1]
        game.pl[p, C_DUEL_SHOTS] += 1
        bang = bullet(game, env)
        log(game.g, game.events, EV_DUEL, p, q, bang)
        if bang and wound_boss(game, env, q, p, opts, ctx):
            continue  # the defender died: it does not shoot back
        game.pl[q, C_DUEL_SHOTS] += 1
        back = bullet(game, env)
        log(game.g, game.events, EV_DUEL, q, p, back)
        if back:
            wound_boss(game, env, p, q, opts, ctx)
