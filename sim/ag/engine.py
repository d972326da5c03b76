"""The American Gangsters engine: every rule of sim/rules/ag as jitted step functions on a game record.

Read top to bottom it follows the rules: setup (AG-C), the turn (AG-T1..T6) with its renown trade,
event (AG-V), location cards, placement, resolution with the bosses' re-rolls, negotiation and
shoot-outs (AG-N), majorities and titles (AG-B), boss wounds and death (AG-K4), the hospital (AG-H),
and the end (AG-G, AG-E). Every choice goes through `ask` with the legal options listed by the
engine, so a policy can never make an illegal move.
"""

import numpy as np
from numba import njit

from sim.ag.decisions import (
    BLUFF_LEVELS, CTX_DECISION, CTX_FAIR, CTX_NEXT, CTX_OFFER, CTX_PIECE, CTX_POWER, CTX_PROPOSER,
    CTX_REST_H, CTX_REST_K, CTX_REST_O, CTX_ROUND, CTX_SHOOTER, CTX_SHORT, CTX_SLOT, CTX_THREAT,
    CTX_TOTAL, D_ACCEPT, D_ARMS, D_BID, D_BUY, D_CLAIM, D_DRUGS, D_DUEL, D_GIVE_CAID, D_GIVE_CARD,
    D_GIVE_TOKEN,
    D_HIT, D_HOSPITAL, D_MOVE, D_OFFER, D_PLACE, D_REROLL, D_ROULETTE, D_SHOOT, D_STEAL, D_TRADE,
    MAX_OPTS, N_LEVELS, OP_BID, OP_BUY_RENOWN, OP_DISTRICT, OP_FOLD, OP_HEAL, OP_LEVEL, OP_MOVE, OP_NO,
    OP_PASS, OP_PIECE, OP_PULL, OP_RECRUIT, OP_SEAT, OP_SELL_BAGS, OP_SELL_HENCH, OP_SLOT, OP_TRAFFIC,
    OP_YES, POWER_ARMS, POWER_PROSTITUTION,
)
from sim.ag.env import (
    DEATH_TO_KILLER, E_AUCTION, E_BANK_PAYS, E_DUELS, E_FBI, E_HEAL, E_OCCASIONAL, E_PRESS,
    E_ROULETTE, E_TAX, INFORMER_ALWAYS, INFORMER_DRAW, P_BAGS_ONES, P_BAGS_START, P_BAGS_THREES,
    P_BULLET_BANGS, P_BULLET_CLICS, P_BUY_BAGS, P_DEATH_RENOWN, P_DEATH_ROUNDING, P_DEATH_TO,
    P_H_CLICS, P_HENCHMEN, P_INFORMER_AS_PARRAIN, P_INFORMER_FBI,
    P_INFORMER_MODE, P_INFORMER_RENOWN, P_K_CLICS, P_KILLERS, P_LOC_EXTRA, P_O_CLICS, P_O_FBI,
    P_OCC_DICE, P_PARRAIN, P_POWER_PRICE, P_POWERS, P_PROFILE_CARDS, P_RENOWN_START, P_REROLL,
    P_ROULETTE_FOLD, P_ROULETTE_STAKE, P_ROULETTE_WIN, P_SECOND_ROUND, P_SELL_BAGS, P_TOKENS,
    P_TURN_CAP, P_UNPLACED_BOSS, P_VAL_BAG, P_VAL_CARD, P_VAL_OCC, P_VAL_RENOWN, P_VAL_TOKEN,
    P_WOUNDS_TO_DIE, ROUND_UP, RP_C_DISTRICT, RP_C_FBI, RP_C_TARGET, RP_C_TRAFFIC, RP_E_EFFECT,
    RP_E_PARAM, RP_H_FBI, RP_H_LEN, RP_K_FBI, RP_K_LEN, RP_N_CARDS, RP_N_DISTRICTS,
    RP_N_EVENT_CARDS, CURSOR_RING, MODEL_ALTERNATING, MODEL_OFFER, MOVE_CARDS, P_CURSOR,
    P_DEATH_QUARTIER, P_HOSPITAL_BOSSES, P_MODEL, P_MOVE_TO, P_PATIENCE, P_PISTOL, P_ROUNDS,
    P_SUCCESSOR, P_ZERO_WINS, PISTOL_EXTRA, QUARTIER_CAID, SUCCESSOR_HENCHMAN,
)
from sim.ag.bargain import (
    allocate, alternating_values, nash_targets, next_side_payment, proposer_of, threat_values,
)
from sim.ag.events import (
    EV_ANSWER, EV_ARMS, EV_AUCTION_WIN, EV_BANK_PAYS, EV_BID, EV_BOSS_DIES, EV_DISCARDED, EV_DRUGS,
    EV_DUEL, EV_EVENT, EV_FAIL, EV_FBI, EV_FOLD, EV_HEAL_ALL, EV_HOSPITAL, EV_MOVE, EV_OCC_GAIN,
    EV_OFFER, EV_PLACE, EV_POWER_SOLD, EV_PRESS, EV_PULL, EV_RANK, EV_RESHUFFLE, EV_REROLL,
    EV_REVEAL, EV_ROLL, EV_ROULETTE_WIN, EV_SETUP, EV_SHOOTOUT, EV_SHOT, EV_SPLIT, EV_STEAL,
    EV_SIDE_PAYMENT, EV_SUCCESS, EV_TAX, EV_TITLE, EV_TRADE, EV_TURN, EV_UNPLACED, EV_WIN,
)
from sim.ag.policy import choose
from sim.ag.readers import (
    card_items, count_bits, fbi_start, fbi_top, fill_shares, present_mask, recruit_price, score,
)
from sim.ag.state import (
    ARMS, ARMS_USED, BANK_ROW, BARON0, BARREL0, BARREL_N, BARREL_POS, BID, BOSS, BOSS_DEATHS, BROKEN,
    BY_INFORMER, BY_MONEY, BY_PARRAIN, BY_RENOWN, BY_SHARED, C_AGREEMENTS, C_AUCTION_SPENT,
    C_AUCTIONS_WON, C_BAGS_LOC, C_BAGS_STOLEN, C_BANGS, C_BARON_TURNS, C_BOSS_DEATHS, C_BOSSES_KILLED,
    C_CAID_TURNS, C_CARDS_WON, C_DICE_PLACED, C_DUEL_SHOTS, C_FAILED, C_FBI_LOWERED, C_FBI_RAISED,
    C_HEALS, C_HENCH_LOST, C_KILLERS_LOST, C_OCC_GAINED, C_OCC_LOST, C_OFFERS_MADE,
    C_OFFERS_REFUSED, C_POWER_USES, C_POWERS_SOLD, C_RECRUIT_SPENT, C_RECRUITS, C_RENOWN_LOC,
    C_REROLLS, C_ROULETTE_PULLS, C_ROULETTE_WINS, C_SHOOTOUTS, C_SUCCEEDED, C_TOKENS_WON,
    C_TRADES_DOWN_BAGS, C_TRADES_DOWN_HENCH, C_TRADES_UP, C_TRIED, C_UNPLACED, C_WOUNDS, CAID0,
    CAP_HIT, CHECK, DECIDED_BY, DECISIONS, DIE_H, DIE_K, DIE_O, DRUGS, E_DECK0, E_DECK_N, E_DISC0,
    E_DISC_N, END_ALL_WON, END_CAP, END_INFORMER, END_PARRAIN, ENDED_BY, EVENTS_PLAYED, FBI,
    FBI_PEAK, FORCED0, FORCED_N, FORCED_POS, GAMBLING, GAME_OVER, GODFATHER, GOODS_KEY, H_COST_POS, HENCH,
    HENCHMEN, HOSPITAL, ILLEGAL, IN0, INFORMER, IS_INFORMER, IT_BAGS, IT_CARD, IT_OCC, IT_RENOWN,
    IT_TOKEN, K_COST_POS, KILLER, KILLERS, L_DECK0, L_DECK_N, L_DISC0, L_DISC_N, LC_OWNER, LC_STATE,
    LS_DECK, LS_DISCARD, LS_SHOWN, LS_WON, MAX_BULLETS, MAX_LOG, MAX_SLOTS, N_CARDS,
    N_DISTRICTS, N_EVENT_CARDS, N_EVENTS, N_PLAYERS, N_TRAFFICS, NO, OCC, OCC_NEW, OCC_READY,
    OCC_SUPPLY, ORDER0, POT_ROW, PROSTITUTION, R_BANG, R_CLIC, R_FBI, RANK, RECORD, RENOWN,
    REROLLED, SHOOTOUTS, SHOW0, SHOW_N, SUPPLY0, TOK0, TRADED, TURN, TURNS_PLAYED, WINNER, WON0,
    WOUNDS, bag_count, bag_value, pieces_at, C_CONTESTED, C_BARGAIN_THREAT, C_BARGAIN_GOT,
    C_BARGAIN_TOTAL, C_SIDE_PAID, C_SIDE_RECEIVED, MAX_SEATS, N_ITEMS,
)
from sim.ag.state import (  # the sources of luck, one stream each (sim.rng)
    S_BAGS, S_BARREL, S_DEAL, S_DICE0, S_EVENTS, S_LOCATIONS,
)
from sim.ag.state import FW_MODE, FW_POLICY  # the forward model's hook in `ask`
from sim.ag.script import forward_choice
from sim.rng import below_of, seed_streams

# --- little tools ----------------------------------------------------------------------------------


@njit(cache=True)
def log(g, events, code, a=0, b=0, c=0, d=0, e=0, f=0):
    """Append an event row when the game is recorded (`mobsim play --game ag`)."""
    if g[RECORD] == 0:
        return
    n = g[N_EVENTS]
    if n >= MAX_LOG:
        return
    row = events[n]
    row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7] = g[TURN], code, a, b, c, d, e, f
    g[N_EVENTS] = n + 1


@njit(cache=True)
def face(game, src):
    """One die face 0..5: a forced value first (scenario tests), else the stream of source src
    (the rolling family's S_DICE0 + p)."""
    if game.g[FORCED_POS] < game.g[FORCED_N]:
        v = game.g[FORCED0 + game.g[FORCED_POS]]
        game.g[FORCED_POS] += 1
        return v
    return below_of(game.rng, src, 6)


@njit(cache=True)
def result_of(env, die, f):
    """What face f of a die kind shows (AG-C10, C11): faces below the CLIC count are CLICs, then
    an occasional die's FBI jokers, the rest BANGs."""
    if die == DIE_H:
        return R_CLIC if f < env.rp[P_H_CLICS] else R_BANG
    if die == DIE_K:
        return R_CLIC if f < env.rp[P_K_CLICS] else R_BANG
    if f < env.rp[P_O_CLICS]:
        return R_CLIC
    return R_FBI if f < env.rp[P_O_CLICS] + env.rp[P_O_FBI] else R_BANG


@njit(cache=True)
def shuffle(game, start, n, src):
    """Fisher-Yates on the block game.g[start : start + n], drawing from source src."""
    g = game.g
    for i in range(n - 1, 0, -1):
        j = below_of(game.rng, src, i + 1)
        g[start + i], g[start + j] = g[start + j], g[start + i]


@njit(cache=True)
def ask(game, env, p, opts, n, ctx):
    """The decision interface: seat p picks one of the n legal options, for the decision kind in
    ctx[CTX_DECISION] (kept out of the arguments so that `ask` compiles once)."""
    if n <= 1:
        return 0
    game.g[DECISIONS] += 1
    if game.g[FW_MODE] != 0:   # a forward replay (sim.ag.forward): the script's choice, if any
        k = forward_choice(game, env, p, n)
        if k != FW_POLICY:
            return k if 0 <= k < n else 0
    k = choose(game, env, p, opts, n, ctx)
    if k < 0 or k >= n:
        game.g[ILLEGAL] += 1
        return 0
    return k


@njit(cache=True, inline="always")
def put(opts, n, op, a=0, b=0, c=0, d=0):
    if n < MAX_OPTS:
        opts[n, 0], opts[n, 1], opts[n, 2], opts[n, 3], opts[n, 4] = op, a, b, c, d
        return n + 1
    return n


@njit(cache=True)
def fill_order(game):
    """g[ORDER0 ..]: the seats in turn order from the godfather (AG-T)."""
    n = game.g[N_PLAYERS]
    for i in range(n):
        game.g[ORDER0 + i] = (game.g[GODFATHER] + i) % n


@njit(cache=True)
def move_bags(game, src, dst, n):
    """Move up to n bags, each drawn at random from the holder (values are hidden, AG-C2)."""
    moved = 0
    for _ in range(n):
        have = bag_count(game, src)
        if have == 0:
            break
        col = 1 if below_of(game.rng, S_BAGS, have) < game.bags[src, 1] else 0
        game.bags[src, col] -= 1
        game.bags[dst, col] += 1
        moved += 1
    return moved


@njit(cache=True)
def add_renown(game, p, delta):
    """Move a family's renown pawn; the ladder starts at 0."""
    game.pl[p, RENOWN] = max(0, game.pl[p, RENOWN] + delta)


@njit(cache=True)
def move_fbi(game, env, delta, cause):
    """The FBI pawn moves, within its track (AG-C6, G2); counted for the family that moved it."""
    before = game.g[FBI]
    game.g[FBI] = min(max(before + delta, 0), fbi_top(env))
    moved = game.g[FBI] - before
    if cause >= 0:
        if moved > 0:
            game.pl[cause, C_FBI_RAISED] += moved
        elif moved < 0:
            game.pl[cause, C_FBI_LOWERED] -= moved
    game.g[FBI_PEAK] = max(game.g[FBI_PEAK], game.g[FBI])
    if moved != 0:
        log(game.g, game.events, EV_FBI, game.g[FBI], moved, cause)


@njit(cache=True)
def gain_occasional(game, p, n):
    """AG-K3: occasional henchmen from the supply, ready from the next turn."""
    got = min(n, game.g[OCC_SUPPLY])
    game.g[OCC_SUPPLY] -= got
    game.pl[p, OCC_NEW] += got
    game.pl[p, C_OCC_GAINED] += got
    if got > 0:
        log(game.g, game.events, EV_OCC_GAIN, p, got)
    return got


# --- setup (AG-C) -----------------------------------------------------------------------------------

@njit(cache=True)
def setup(game, env, n_players, key, game_id):
    seed_streams(key, game_id, game.rng)
    g, rp = game.g, env.rp
    g[N_PLAYERS] = n_players
    g[GODFATHER] = 0
    g[FBI] = fbi_start(env)
    g[FBI_PEAK] = g[FBI]
    g[OCC_SUPPLY] = rp[P_OCC_DICE]
    game.bags[BANK_ROW, 0] = rp[P_BAGS_ONES]
    game.bags[BANK_ROW, 1] = rp[P_BAGS_THREES]
    for t in range(N_TRAFFICS):
        g[SUPPLY0 + t] = rp[P_TOKENS]
    for p in range(n_players):
        game.pl[p, RENOWN] = rp[P_RENOWN_START]
        game.pl[p, HENCHMEN] = rp[P_HENCHMEN]
        game.pl[p, KILLERS] = rp[P_KILLERS]
        move_bags(game, BANK_ROW, p, rp[P_BAGS_START])   # AG-C2: 4 bags drawn at random
    # AG-C6: each family draws a profile card; one of the cards is the informer
    mode = rp[P_INFORMER_MODE]
    informer = NO
    if mode == INFORMER_DRAW:
        x = below_of(game.rng, S_DEAL, rp[P_PROFILE_CARDS])
        informer = x if x < n_players else NO
    elif mode == INFORMER_ALWAYS:
        informer = below_of(game.rng, S_DEAL, n_players)
    g[INFORMER] = informer
    if informer >= 0:
        game.pl[informer, IS_INFORMER] = 1
    # AG-C7, C9: the location and event decks
    g[N_CARDS] = rp[RP_N_CARDS]
    for i in range(g[N_CARDS]):
        g[L_DECK0 + i] = i
        game.lc[i, LC_STATE] = LS_DECK
        game.lc[i, LC_OWNER] = NO
    g[L_DECK_N] = g[N_CARDS]
    shuffle(game, L_DECK0, g[L_DECK_N], S_LOCATIONS)
    g[N_EVENT_CARDS] = rp[RP_N_EVENT_CARDS]
    for i in range(g[N_EVENT_CARDS]):
        g[E_DECK0 + i] = i
    g[E_DECK_N] = g[N_EVENT_CARDS]
    shuffle(game, E_DECK0, g[E_DECK_N], S_EVENTS)
    log(g, game.events, EV_SETUP, n_players, informer)


# --- the turn ------------------------------------------------------------------------------------------

@njit(cache=True)
def gambling_baron(game, env, opts, ctx):
    """AG-B2: at the start of each turn the Gambling Baron may take a bag from a family."""
    h = game.g[BARON0 + GAMBLING]
    if h == NO or env.rp[P_POWERS] == 0:
        return
    n = put(opts, 0, OP_PASS)
    for q in range(game.g[N_PLAYERS]):
        if q != h and bag_count(game, q) > 0:
            n = put(opts, n, OP_SEAT, q)
    ctx[CTX_DECISION] = D_STEAL
    k = ask(game, env, h, opts, n, ctx)
    if opts[k, 0] == OP_SEAT:
        q = opts[k, 1]
        move_bags(game, q, h, 1)
        game.pl[h, C_BAGS_STOLEN] += 1
        game.pl[h, C_POWER_USES] += 1
        log(game.g, game.events, EV_STEAL, h, q)


@njit(cache=True)
def renown_trades(game, env, opts, ctx):
    """AG-T1: once a turn each, +1 renown for 3 bags to the bank, or -1 renown for 2 bags from the
    bank or one henchman back from the reserve (AG-K2)."""
    rp = env.rp
    for i in range(game.g[N_PLAYERS]):
        p = game.g[ORDER0 + i]
        n = put(opts, 0, OP_PASS)
        if bag_count(game, p) >= rp[P_BUY_BAGS]:
            n = put(opts, n, OP_BUY_RENOWN)
        if game.pl[p, RENOWN] >= 1:
            n = put(opts, n, OP_SELL_BAGS)
            if game.pl[p, HENCHMEN] < rp[P_HENCHMEN]:
                n = put(opts, n, OP_SELL_HENCH)
        ctx[CTX_DECISION] = D_TRADE
        op = opts[ask(game, env, p, opts, n, ctx), 0]
        if op == OP_PASS:
            continue
        game.pl[p, TRADED] = 1
        if op == OP_BUY_RENOWN:
            move_bags(game, p, BANK_ROW, rp[P_BUY_BAGS])
            add_renown(game, p, 1)
            game.pl[p, C_TRADES_UP] += 1
        elif op == OP_SELL_BAGS:
            add_renown(game, p, -1)
            move_bags(game, BANK_ROW, p, rp[P_SELL_BAGS])
            game.pl[p, C_TRADES_DOWN_BAGS] += 1
        else:
            add_renown(game, p, -1)
            game.pl[p, HENCHMEN] += 1
            game.pl[p, C_TRADES_DOWN_HENCH] += 1
        log(game.g, game.events, EV_TRADE, p, op)


# --- events (AG-V) ------------------------------------------------------------------------------------

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


# --- wounds and death (AG-N2, AG-K4) -------------------------------------------------------------------

@njit(cache=True)
def wound_boss(game, env, q, killer, opts, ctx):
    """A boss takes a wound; at wounds_to_die it dies (AG-K4). Returns True on a death."""
    game.pl[q, WOUNDS] += 1
    game.pl[q, C_WOUNDS] += 1
    if game.pl[q, WOUNDS] < env.rp[P_WOUNDS_TO_DIE]:
        return False
    boss_death(game, env, q, killer, opts, ctx)
    return True


@njit(cache=True)
def boss_death(game, env, q, killer, opts, ctx):
    """AG-K4: the family gives half its bags, one won location and one traffic token of its choice
    to the family that killed its boss (the bank when nobody did, or by the ruling), loses renown,
    discards the wound token; another member becomes boss. The profile stays hidden."""
    g, rp = game.g, env.rp
    to = killer if rp[P_DEATH_TO] == DEATH_TO_KILLER and killer >= 0 else NO
    dst = to if to >= 0 else BANK_ROW
    have = bag_count(game, q)
    half = (have + 1) // 2 if rp[P_DEATH_ROUNDING] == ROUND_UP else have // 2
    given = move_bags(game, q, dst, half)
    district = NO
    n = 0
    if rp[P_DEATH_QUARTIER] == QUARTIER_CAID:   # AG-K4 ruling: "un quartier" is a Caid title
        for d in range(N_DISTRICTS):
            if g[CAID0 + d] == q:
                n = put(opts, n, OP_DISTRICT, d)
        if n > 0:
            ctx[CTX_DECISION] = D_GIVE_CAID
            district = opts[ask(game, env, q, opts, n, ctx), 1]
            g[CAID0 + district] = to
            log(g, game.events, EV_TITLE, 1, district, to)
    if n == 0:
        for d in range(N_DISTRICTS):
            if game.pl[q, WON0 + d] > 0:
                n = put(opts, n, OP_DISTRICT, d)
        if n > 0:
            ctx[CTX_DECISION] = D_GIVE_CARD
            district = opts[ask(game, env, q, opts, n, ctx), 1]
            give_card(game, env, q, district, to)
    traffic = NO
    n = 0
    for t in range(N_TRAFFICS):
        if game.pl[q, TOK0 + t] > 0:
            n = put(opts, n, OP_TRAFFIC, t)
    if n > 0:
        ctx[CTX_DECISION] = D_GIVE_TOKEN
        traffic = opts[ask(game, env, q, opts, n, ctx), 1]
        game.pl[q, TOK0 + traffic] -= 1
        if to >= 0:
            game.pl[to, TOK0 + traffic] += 1
        else:
            g[SUPPLY0 + traffic] += 1
    add_renown(game, q, -rp[P_DEATH_RENOWN])
    if rp[P_SUCCESSOR] == SUCCESSOR_HENCHMAN:   # AG-K4: another member of the family becomes boss
        use_up_member(game, q)
    game.pl[q, WOUNDS] = 0
    game.pl[q, C_BOSS_DEATHS] += 1
    if killer >= 0:
        game.pl[killer, C_BOSSES_KILLED] += 1
    g[BOSS_DEATHS] += 1
    log(g, game.events, EV_BOSS_DIES, q, killer, given, district, traffic, to)


@njit(cache=True)
def use_up_member(game, q):
    """AG-K4 ruling: a henchman (else the killer) takes the dead boss's place: it leaves the crew;
    when all of that kind are placed, one is taken off its location (the last slot holding one)."""
    for piece, count, lost in ((HENCH, HENCHMEN, C_HENCH_LOST), (KILLER, KILLERS, C_KILLERS_LOST)):
        if game.pl[q, count] == 0:
            continue
        placed = 0
        for s in range(MAX_SLOTS):
            placed += game.at[s, q, piece]
        if placed >= game.pl[q, count]:
            for s in range(MAX_SLOTS - 1, -1, -1):
                if game.at[s, q, piece] > 0:
                    game.at[s, q, piece] -= 1
                    break
        game.pl[q, count] -= 1
        game.pl[q, lost] += 1
        return


@njit(cache=True)
def give_card(game, env, q, district, to):
    """One of q's won location cards of the district goes to family `to`, or back to the location
    discard pile when it goes to the bank."""
    for c in range(game.g[N_CARDS]):
        if game.lc[c, LC_STATE] == LS_WON and game.lc[c, LC_OWNER] == q \
                and env.rp[RP_C_DISTRICT + c] == district:
            game.pl[q, WON0 + district] -= 1
            if to >= 0:
                game.lc[c, LC_OWNER] = to
                game.pl[to, WON0 + district] += 1
            else:
                game.lc[c, LC_STATE] = LS_DISCARD
                game.lc[c, LC_OWNER] = NO
                game.g[L_DISC0 + game.g[L_DISC_N]] = c
                game.g[L_DISC_N] += 1
            return


# --- location cards (AG-T2) ------------------------------------------------------------------------------

@njit(cache=True)
def reveal_locations(game, env):
    """AG-T2: as many location cards as players (plus locations.extra); the past discards are
    reshuffled into a new pile when it runs out."""
    g = game.g
    want = g[N_PLAYERS] + env.rp[P_LOC_EXTRA]
    g[SHOW_N] = 0
    g[GOODS_KEY] = 0   # the policies' worths of the cards (sim.ag.policy) are for other cards now
    for s in range(1, want + 1):
        if g[L_DECK_N] == 0 and g[L_DISC_N] > 0:
            for i in range(g[L_DISC_N]):
                c = g[L_DISC0 + i]
                g[L_DECK0 + i] = c
                game.lc[c, LC_STATE] = LS_DECK
            g[L_DECK_N], g[L_DISC_N] = g[L_DISC_N], 0
            shuffle(game, L_DECK0, g[L_DECK_N], S_LOCATIONS)
            log(g, game.events, EV_RESHUFFLE, g[L_DECK_N])
        if g[L_DECK_N] == 0:
            break
        g[L_DECK_N] -= 1
        c = g[L_DECK0 + g[L_DECK_N]]
        game.lc[c, LC_STATE] = LS_SHOWN
        g[SHOW0 + s] = c
        g[SHOW_N] = s
        log(g, game.events, EV_REVEAL, s, c)


# --- placement (AG-T3) ----------------------------------------------------------------------------------

@njit(cache=True)
def place_piece(game, env, p, piece, home_allowed, opts, ctx):
    """One piece of family p goes to the hospital, a revealed card, or (if allowed) stays home."""
    n = 0
    for s in range(game.g[SHOW_N] + 1):
        n = put(opts, n, OP_SLOT, s)
    if home_allowed:
        n = put(opts, n, OP_SLOT, NO)
    ctx[CTX_DECISION] = D_PLACE
    ctx[CTX_PIECE] = piece
    slot = opts[ask(game, env, p, opts, n, ctx), 1]
    if slot >= 0:
        game.at[slot, p, piece] += 1
        log(game.g, game.events, EV_PLACE, p, slot, piece)
    return slot


@njit(cache=True)
def placement(game, env, opts, ctx):
    """AG-T3, modelled in turn order from the godfather (each family sees the earlier placements):
    the killer and henchmen may stay home; occasional henchmen must be placed (AG-K3); then the
    boss, whose family loses renown if it stays home."""
    rp = env.rp
    for i in range(game.g[N_PLAYERS]):
        p = game.g[ORDER0 + i]
        ctx[CTX_REST_K], ctx[CTX_REST_H] = game.pl[p, KILLERS], game.pl[p, HENCHMEN]
        ctx[CTX_REST_O] = game.pl[p, OCC_READY]
        for _ in range(game.pl[p, KILLERS]):
            ctx[CTX_REST_K] -= 1
            if place_piece(game, env, p, KILLER, True, opts, ctx) >= 0:
                game.pl[p, C_DICE_PLACED] += 1
        for _ in range(game.pl[p, HENCHMEN]):
            ctx[CTX_REST_H] -= 1
            if place_piece(game, env, p, HENCH, True, opts, ctx) >= 0:
                game.pl[p, C_DICE_PLACED] += 1
        for _ in range(game.pl[p, OCC_READY]):
            ctx[CTX_REST_O] -= 1
            place_piece(game, env, p, OCC, False, opts, ctx)
            game.pl[p, C_DICE_PLACED] += 1
        game.pl[p, OCC_READY] = 0
        if place_piece(game, env, p, BOSS, True, opts, ctx) < 0:
            add_renown(game, p, -rp[P_UNPLACED_BOSS])
            game.pl[p, C_UNPLACED] += 1
            log(game.g, game.events, EV_UNPLACED, p)
    if rp[P_POWERS]:
        drugs_baron(game, env, opts, ctx)
        prostitution_baron(game, env, opts, ctx)


@njit(cache=True)
def drugs_baron(game, env, opts, ctx):
    """AG-B1: at placement, the Drugs Baron's boss alone at the hospital (no henchman or killer of
    its family there) may take an occasional henchman free."""
    h = game.g[BARON0 + DRUGS]
    if h == NO or game.at[HOSPITAL, h, BOSS] == 0 or game.g[OCC_SUPPLY] == 0:
        return
    if game.at[HOSPITAL, h, HENCH] + game.at[HOSPITAL, h, KILLER] + game.at[HOSPITAL, h, OCC] > 0:
        return
    n = put(opts, 0, OP_YES)
    n = put(opts, n, OP_NO)
    ctx[CTX_DECISION] = D_DRUGS
    if opts[ask(game, env, h, opts, n, ctx), 0] == OP_YES:
        gain_occasional(game, h, 1)
        game.pl[h, C_POWER_USES] += 1
        log(game.g, game.events, EV_DRUGS, h)


@njit(cache=True)
def list_moves(game, env, opts):
    """Every henchman (not a killer: henchman and occasional dice) of any family to another slot;
    the hospital is a "lieu" too unless powers.move_to says cards only (AG-B4)."""
    n = put(opts, 0, OP_PASS)
    last = game.g[SHOW_N]
    first = 1 if env.rp[P_MOVE_TO] == MOVE_CARDS else 0
    for s in range(last + 1):
        for q in range(game.g[N_PLAYERS]):
            for piece in (HENCH, OCC):
                if game.at[s, q, piece] > 0:
                    for t in range(first, last + 1):
                        if t != s:
                            n = put(opts, n, OP_MOVE, s, q, piece, t)
    return n


@njit(cache=True)
def apply_move(game, mover, row):
    s, q, piece, t = row[1], row[2], row[3], row[4]
    game.at[s, q, piece] -= 1
    game.at[t, q, piece] += 1
    log(game.g, game.events, EV_MOVE, mover, s, q, piece, t)


@njit(cache=True)
def prostitution_baron(game, env, opts, ctx):
    """AG-B4: after placement the Prostitution Baron may move one henchman (not a killer) of any
    family to another location; a Baron who does not use it may sell the move (titles.power_price
    bags) to the first family, in turn order, that buys it."""
    h = game.g[BARON0 + PROSTITUTION]
    if h == NO:
        return
    n = list_moves(game, env, opts)
    if n <= 1:
        return
    ctx[CTX_DECISION] = D_MOVE
    ctx[CTX_POWER] = POWER_PROSTITUTION
    k = ask(game, env, h, opts, n, ctx)
    if opts[k, 0] == OP_MOVE:
        apply_move(game, h, opts[k])
        game.pl[h, C_POWER_USES] += 1
        return
    buyer = sell_power(game, env, h, POWER_PROSTITUTION, NO, opts, ctx)
    if buyer >= 0:
        n = list_moves(game, env, opts)
        ctx[CTX_DECISION] = D_MOVE
        ctx[CTX_POWER] = POWER_PROSTITUTION
        k = ask(game, env, buyer, opts, n, ctx)
        if opts[k, 0] == OP_MOVE:
            apply_move(game, buyer, opts[k])


@njit(cache=True)
def sell_power(game, env, h, power, mask, opts, ctx):
    """AG-B3, B4: the Baron's power offered in turn order (to the families in `mask`, or all when
    NO) for titles.power_price bags; returns the buyer or NO."""
    price = env.rp[P_POWER_PRICE]
    for i in range(game.g[N_PLAYERS]):
        q = game.g[ORDER0 + i]
        if q == h or bag_count(game, q) < price or (mask != NO and not (mask >> q) & 1):
            continue
        n = put(opts, 0, OP_NO)
        n = put(opts, n, OP_YES)
        ctx[CTX_DECISION] = D_BUY
        ctx[CTX_POWER] = power
        if opts[ask(game, env, q, opts, n, ctx), 0] == OP_YES:
            move_bags(game, q, h, price)
            game.pl[h, C_POWERS_SOLD] += 1
            game.pl[q, C_POWER_USES] += 1
            log(game.g, game.events, EV_POWER_SOLD, h, q, power)
            return q
    return NO


# --- resolution (AG-T4, AG-H) ------------------------------------------------------------------------------

@njit(cache=True)
def hospital(game, env, opts, ctx):
    """AG-H1: each family whose boss is at the hospital heals one wound free, or recruits a henchman
    or a killer it has lost (AG-K1) at its cost track's price (AG-K2)."""
    rp = env.rp
    bosses = 0
    for p in range(game.g[N_PLAYERS]):
        bosses += game.at[HOSPITAL, p, BOSS]
    if bosses < rp[P_HOSPITAL_BOSSES]:   # AG-H1: the card's minimum number of bosses
        return
    for i in range(game.g[N_PLAYERS]):
        p = game.g[ORDER0 + i]
        if game.at[HOSPITAL, p, BOSS] == 0:
            continue
        n = put(opts, 0, OP_PASS)
        if game.pl[p, WOUNDS] > 0:
            n = put(opts, n, OP_HEAL)
        if game.pl[p, HENCHMEN] < rp[P_HENCHMEN] and bag_count(game, p) >= recruit_price(game, env, HENCH):
            n = put(opts, n, OP_RECRUIT, HENCH)
        if game.pl[p, KILLERS] < rp[P_KILLERS] and bag_count(game, p) >= recruit_price(game, env, KILLER):
            n = put(opts, n, OP_RECRUIT, KILLER)
        ctx[CTX_DECISION] = D_HOSPITAL
        k = ask(game, env, p, opts, n, ctx)
        op, piece = opts[k, 0], opts[k, 1]
        if op == OP_HEAL:
            game.pl[p, WOUNDS] -= 1
            game.pl[p, C_HEALS] += 1
        elif op == OP_RECRUIT:
            recruit(game, env, p, piece)
        if op != OP_PASS:
            log(game.g, game.events, EV_HOSPITAL, p, op, piece)


@njit(cache=True)
def recruit(game, env, p, piece):
    """AG-K2: pay the price of the cost pawn's step; the pawn moves one step on, and a step showing
    the FBI symbol moves the FBI pawn up 1."""
    rp = env.rp
    price = recruit_price(game, env, piece)
    move_bags(game, p, BANK_ROW, price)
    game.pl[p, C_RECRUIT_SPENT] += price
    game.pl[p, C_RECRUITS] += 1
    pos, length, fbi = (K_COST_POS, RP_K_LEN, RP_K_FBI) if piece == KILLER else (H_COST_POS, RP_H_LEN, RP_H_FBI)
    moved = True
    if game.g[pos] < rp[length] - 1:
        game.g[pos] += 1
    elif rp[P_CURSOR] == CURSOR_RING and rp[length] > 1:   # "dans le sens horaire": round the ring
        game.g[pos] = 0
    else:
        moved = False
    if moved and rp[fbi + game.g[pos]]:
        move_fbi(game, env, 1, p)
    if piece == KILLER:
        game.pl[p, KILLERS] += 1
    else:
        game.pl[p, HENCHMEN] += 1


@njit(cache=True)
def roll_slot(game, env, slot, mask, converted):
    """Every family in `mask` rolls all its dice on the slot: game.dice[p, die, result] counts;
    `converted` (AG-B3) rolls one of its henchmen as a killer. Returns the CLICs (FBI jokers count)."""
    clics = 0
    for p in range(game.g[N_PLAYERS]):
        for die in range(3):
            for r in range(3):
                game.dice[p, die, r] = 0
        if not (mask >> p) & 1:
            continue
        for piece in (HENCH, KILLER, OCC):
            n = game.at[slot, p, piece]
            die = piece - 1
            for j in range(n):
                kind = DIE_K if (p == converted and piece == HENCH and j == 0) else die
                game.dice[p, die, result_of(env, kind, face(game, S_DICE0 + p))] += 1
        for die in range(3):
            clics += game.dice[p, die, R_CLIC] + game.dice[p, die, R_FBI]
    return clics


@njit(cache=True)
def reroll_failed(game, env, mask):
    """AG-T4: every failed die (a BANG) of everyone on the location is rolled again."""
    clics = 0
    for p in range(game.g[N_PLAYERS]):
        if not (mask >> p) & 1:
            continue
        for die in range(3):
            failed = game.dice[p, die, R_BANG]
            game.dice[p, die, R_BANG] = 0
            for _ in range(failed):
                game.dice[p, die, result_of(env, die, face(game, S_DICE0 + p))] += 1
            clics += game.dice[p, die, R_CLIC] + game.dice[p, die, R_FBI]
    return clics


@njit(cache=True)
def fbi_jokers(game, env, mask):
    """AG-C11: each FBI face shown moves the FBI pawn up 1 (counted for the die's family)."""
    for p in range(game.g[N_PLAYERS]):
        if (mask >> p) & 1 and game.dice[p, DIE_O, R_FBI] > 0:
            move_fbi(game, env, game.dice[p, DIE_O, R_FBI], p)


@njit(cache=True)
def resolve_location(game, env, slot, opts, ctx):
    """AG-T4: the families present roll all their dice toward the card's CLIC target; each boss
    present may once a turn have every failed die re-rolled; a success is shared by negotiation
    (AG-N), a miss discards the card."""
    g = game.g
    card = g[SHOW0 + slot]
    mask = present_mask(game, slot)
    if mask == 0:
        return
    target = env.rp[RP_C_TARGET + card]
    clics = roll_slot(game, env, slot, mask, NO)
    log(g, game.events, EV_ROLL, slot, clics, target)
    if env.rp[P_REROLL]:
        for i in range(g[N_PLAYERS]):
            if clics >= target:
                break
            p = g[ORDER0 + i]
            if game.at[slot, p, BOSS] == 0 or game.pl[p, REROLLED]:
                continue
            n = put(opts, 0, OP_YES)
            n = put(opts, n, OP_NO)
            ctx[CTX_DECISION] = D_REROLL
            ctx[CTX_SLOT] = slot
            ctx[CTX_SHORT] = target - clics
            if opts[ask(game, env, p, opts, n, ctx), 0] == OP_YES:
                game.pl[p, REROLLED] = 1
                game.pl[p, C_REROLLS] += 1
                clics = reroll_failed(game, env, mask)
                log(g, game.events, EV_REROLL, p, slot, clics)
    fbi_jokers(game, env, mask)
    for p in range(g[N_PLAYERS]):
        if (mask >> p) & 1:
            game.pl[p, C_TRIED] += 1
            game.pl[p, C_SUCCEEDED if clics >= target else C_FAILED] += 1
    if clics < target:
        log(g, game.events, EV_FAIL, slot)
        return
    log(g, game.events, EV_SUCCESS, slot, count_bits(mask))
    fbi = env.rp[RP_C_FBI + card]
    if fbi != 0:   # AG-C7: the FBI symbol (or the police station) acts on success
        for i in range(g[N_PLAYERS]):
            p = g[ORDER0 + i]
            if (mask >> p) & 1:
                move_fbi(game, env, fbi, p)
                break
    settle(game, env, slot, card, mask, opts, ctx)


# --- negotiation and shoot-out (AG-N) ----------------------------------------------------------------------

@njit(cache=True)
def item_worth(env, item):
    """The bargaining rule's worth of one unit of an item (negotiation.value_*, in bags)."""
    key = (P_VAL_RENOWN, P_VAL_BAG, P_VAL_TOKEN, P_VAL_CARD, P_VAL_OCC)[item]
    return env.rp[key] / 1000.0


@njit(cache=True)
def offer_worth(game, env, p):
    w = 0.0
    for item in range(5):
        w += game.alloc[p, item] * item_worth(env, item)
    return w


@njit(cache=True)
def bundle(game, env, card, units):
    """units[item] = the card's gains now; returns their worth under the bargaining rule."""
    r, b, t, c, o = card_items(game, env, card)
    units[IT_RENOWN], units[IT_BAGS], units[IT_TOKEN], units[IT_CARD], units[IT_OCC] = r, b, t, c, o
    total = 0.0
    for item in range(5):
        total += units[item] * item_worth(env, item)
    return total


@njit(cache=True)
def build_offer(game, env, card, proposer, level, mask):
    """AG-N (modelled): the split the proposer offers at a greed level. Every other family is
    offered (1 - greed) of its fair share (game.share) of the gains' worth, the proposer keeps the
    rest; units of the gains go, most valuable first, to the family furthest below its target
    (ties: the proposer, then turn order). game.alloc holds the split."""
    units, want = game.units, game.want
    total = bundle(game, env, card, units)
    greed = level / (N_LEVELS - 1.0)
    n_players = game.g[N_PLAYERS]
    others = 0.0
    for p in range(n_players):
        want[p] = 0.0
        for item in range(5):
            game.alloc[p, item] = 0
        if (mask >> p) & 1 and p != proposer:
            want[p] = (1.0 - greed) * game.share[p] * total
            others += want[p]
    want[proposer] = total - others
    while True:
        best_item, best_worth = -1, -1.0
        for item in range(5):
            if units[item] > 0 and item_worth(env, item) > best_worth:
                best_item, best_worth = item, item_worth(env, item)
        if best_item < 0:
            break
        units[best_item] -= 1
        taker, gap = proposer, want[proposer]
        for i in range(n_players):
            p = game.g[ORDER0 + i]
            if (mask >> p) & 1 and want[p] > gap + 1e-9:
                taker, gap = p, want[p]
        game.alloc[taker, best_item] += 1
        want[taker] -= best_worth
    return total


@njit(cache=True)
def bargain(game, env, slot, card, mask, rnd, opts, ctx):
    """AG-N1/N3 as a stated bargaining rule: the first family present in turn order proposes a
    split at one of N_LEVELS greed levels; every other family accepts or refuses, comparing the
    offer with its fair share. All accept: the split is made (True)."""
    g = game.g
    fill_shares(game, env, slot, mask)
    proposer = NO
    for i in range(g[N_PLAYERS]):
        p = g[ORDER0 + i]
        if (mask >> p) & 1:
            proposer = p
            break
    n = 0
    for level in range(N_LEVELS):
        n = put(opts, n, OP_LEVEL, level)
    ctx[CTX_DECISION] = D_OFFER
    ctx[CTX_SLOT] = slot
    ctx[CTX_ROUND] = rnd
    level = opts[ask(game, env, proposer, opts, n, ctx), 1]
    total = build_offer(game, env, card, proposer, level, mask)
    game.pl[proposer, C_OFFERS_MADE] += 1
    log(g, game.events, EV_OFFER, proposer, slot, level, rnd)
    for i in range(g[N_PLAYERS]):
        p = g[ORDER0 + i]
        if p == proposer or not (mask >> p) & 1:
            continue
        n = put(opts, 0, OP_YES)
        n = put(opts, n, OP_NO)
        ctx[CTX_DECISION] = D_ACCEPT
        ctx[CTX_SLOT] = slot
        ctx[CTX_PROPOSER] = proposer
        ctx[CTX_OFFER] = int(1000.0 * offer_worth(game, env, p))
        ctx[CTX_FAIR] = int(1000.0 * game.share[p] * total)
        yes = opts[ask(game, env, p, opts, n, ctx), 0] == OP_YES
        log(g, game.events, EV_ANSWER, p, 1 if yes else 0)
        if not yes:
            game.pl[p, C_OFFERS_REFUSED] += 1
            return False
    for p in range(g[N_PLAYERS]):
        if (mask >> p) & 1:
            game.pl[p, C_AGREEMENTS] += 1
    return True


@njit(cache=True)
def take_all(game, env, card, p):
    """AG-N1: a family alone on a won card takes all its gains."""
    for q in range(game.g[N_PLAYERS]):
        for item in range(5):
            game.alloc[q, item] = 0
    r, b, t, c, o = card_items(game, env, card)
    game.alloc[p, IT_RENOWN], game.alloc[p, IT_BAGS], game.alloc[p, IT_TOKEN] = r, b, t
    game.alloc[p, IT_CARD], game.alloc[p, IT_OCC] = c, o


@njit(cache=True)
def give_gains(game, env, card):
    """Make the split in game.alloc: renown, bags from the bank, the traffic token, the card (it
    counts toward its district's Caid), occasional henchmen."""
    g = game.g
    for p in range(g[N_PLAYERS]):
        a = game.alloc[p]
        if a[IT_RENOWN] + a[IT_BAGS] + a[IT_TOKEN] + a[IT_CARD] + a[IT_OCC] == 0:
            continue
        add_renown(game, p, a[IT_RENOWN])
        game.pl[p, C_RENOWN_LOC] += a[IT_RENOWN]
        game.pl[p, C_BAGS_LOC] += move_bags(game, BANK_ROW, p, a[IT_BAGS])
        if a[IT_TOKEN]:
            t = env.rp[RP_C_TRAFFIC + card]
            g[SUPPLY0 + t] -= 1
            game.pl[p, TOK0 + t] += 1
            game.pl[p, C_TOKENS_WON] += 1
        if a[IT_CARD]:
            game.lc[card, LC_STATE] = LS_WON
            game.lc[card, LC_OWNER] = p
            game.pl[p, WON0 + env.rp[RP_C_DISTRICT + card]] += 1
            game.pl[p, C_CARDS_WON] += 1
        if a[IT_OCC]:
            gain_occasional(game, p, a[IT_OCC])
        log(g, game.events, EV_SPLIT, p, a[IT_RENOWN], a[IT_BAGS], a[IT_TOKEN], a[IT_CARD], a[IT_OCC])


@njit(cache=True)
def settle(game, env, slot, card, mask, opts, ctx):
    """AG-N1..N3: alone, all is yours; else bargain (negotiation.model); no agreement: shoot-out,
    then the survivors bargain once more (or the one left takes all); still no agreement: the
    card is discarded."""
    if count_bits(mask) == 1:
        take_all(game, env, card, lowest(mask))
        share_out(game, env, card, mask, False)
        return
    threats = np.zeros(MAX_SEATS)
    record_contest(game, env, slot, card, mask, threats)
    if negotiate(game, env, slot, card, mask, 1, threats, opts, ctx):
        share_out(game, env, card, mask, True)
        return
    shootout(game, env, slot, mask, opts, ctx)
    left = present_mask(game, slot)
    if count_bits(left) == 1:
        take_all(game, env, card, lowest(left))
        share_out(game, env, card, mask, True)
        return
    threats[:] = 0.0   # AG-N3: failing again loses the card for everyone
    if left != 0 and env.rp[P_SECOND_ROUND] and negotiate(game, env, slot, card, left, 2, threats, opts, ctx):
        share_out(game, env, card, mask, True)
        return
    log(game.g, game.events, EV_DISCARDED, slot)


@njit(cache=True)
def record_contest(game, env, slot, card, mask, threats):
    """A success shared by several families: each one's exact shoot-out value (the disagreement
    point, sim.ag.bargain) into `threats`, and the counters of the bargaining report."""
    total = bundle(game, env, card, game.units)
    threat_values(game, env, slot, mask, total, threats)
    for p in range(game.g[N_PLAYERS]):
        if (mask >> p) & 1:
            game.pl[p, C_CONTESTED] += 1
            game.pl[p, C_BARGAIN_THREAT] += int(round(10.0 * threats[p]))
            game.pl[p, C_BARGAIN_TOTAL] += int(round(10.0 * total))


@njit(cache=True)
def share_out(game, env, card, mask, contested):
    """Make the split (game.alloc), then the side payments in bags it calls for (game.want: what
    each family still lacks of its agreed worth; AG-N1, any split, bags included)."""
    give_gains(game, env, card)
    bag = item_worth(env, IT_BAGS)
    net = np.zeros(MAX_SEATS)   # bags of side payments received less paid, this split
    while True:
        payer, payee = next_side_payment(game, env, mask, game.want)
        if payer < 0:
            break
        move_bags(game, payer, payee, 1)
        game.want[payer] += bag
        game.want[payee] -= bag
        net[payer] -= 1.0
        net[payee] += 1.0
        game.pl[payer, C_SIDE_PAID] += 1
        game.pl[payee, C_SIDE_RECEIVED] += 1
        log(game.g, game.events, EV_SIDE_PAYMENT, payer, payee)
    if contested:
        for p in range(game.g[N_PLAYERS]):
            if (mask >> p) & 1:
                got = offer_worth(game, env, p) + bag * net[p]
                game.pl[p, C_BARGAIN_GOT] += int(round(10.0 * got))
    for p in range(MAX_SEATS):
        game.want[p] = 0.0


@njit(cache=True)
def negotiate(game, env, slot, card, mask, rnd, threats, opts, ctx):
    """One hourglass of bargaining by the model of negotiation.model; True on an agreement, the
    split in game.alloc and the side payments still due in game.want."""
    model = env.rp[P_MODEL]
    if model == MODEL_OFFER:
        agreed = bargain(game, env, slot, card, mask, rnd, opts, ctx)
        for p in range(MAX_SEATS):
            game.want[p] = 0.0
        return agreed
    total = bundle(game, env, card, game.units)
    if model == MODEL_ALTERNATING:
        return alternating(game, env, slot, mask, rnd, threats, total, opts, ctx)
    return nash(game, env, slot, mask, rnd, threats, total, opts, ctx)


@njit(cache=True)
def agree(game, env, mask, targets):
    """The families agree on these worths: the card's units and side payments make them up."""
    worths = np.zeros(N_ITEMS)
    for item in range(N_ITEMS):
        worths[item] = item_worth(env, item)
    allocate(game, env, mask, game.units, worths, targets, game.want)
    for p in range(game.g[N_PLAYERS]):
        if (mask >> p) & 1:
            game.pl[p, C_AGREEMENTS] += 1


@njit(cache=True)
def nash(game, env, slot, mask, rnd, threats, total, opts, ctx):
    """AG-N1, Nash model: each family states its shoot-out value, true or raised by a bluff (a
    claim level, BLUFF_LEVELS of the card's worth); when the claims leave a surplus the split is
    the Nash bargaining solution over them (claims plus equal parts of the surplus), else no
    agreement: a shoot-out (AG-N2)."""
    g = game.g
    claims = np.zeros(MAX_SEATS)
    targets = np.zeros(MAX_SEATS)
    bluffed = 0
    for i in range(g[N_PLAYERS]):
        p = g[ORDER0 + i]
        if not (mask >> p) & 1:
            continue
        n = 0
        for level in range(len(BLUFF_LEVELS)):
            n = put(opts, n, OP_LEVEL, level)
        ctx[CTX_DECISION] = D_CLAIM
        ctx[CTX_SLOT] = slot
        ctx[CTX_ROUND] = rnd
        ctx[CTX_THREAT] = int(1000.0 * threats[p])
        ctx[CTX_TOTAL] = int(1000.0 * total)
        level = opts[ask(game, env, p, opts, n, ctx), 1]
        claims[p] = threats[p] + BLUFF_LEVELS[level] * total
        if level > 0:
            bluffed |= 1 << p
        game.pl[p, C_OFFERS_MADE] += 1
        log(g, game.events, EV_OFFER, p, slot, level, rnd)
    surplus = nash_targets(game, mask, total, claims, targets)
    if surplus < -1e-9:
        for p in range(g[N_PLAYERS]):
            if (bluffed >> p) & 1:
                game.pl[p, C_OFFERS_REFUSED] += 1
        return False
    agree(game, env, mask, targets)
    return True


@njit(cache=True)
def alternating(game, env, slot, mask, rnd, threats, total, opts, ctx):
    """AG-N1, alternating offers within the hourglass: negotiation.rounds offers, proposers in turn
    order from the godfather; the proposer shades the equilibrium offers (sim.ag.bargain.
    alternating_values) by a greed level; one refusal passes to the next offer; after the last,
    no agreement (AG-N2)."""
    g = game.g
    rounds = env.rp[P_ROUNDS]
    values = np.zeros((rounds + 1, MAX_SEATS))
    alternating_values(game, mask, total, threats, env.rp[P_PATIENCE] / 1000.0, rounds, values)
    offers = np.zeros(MAX_SEATS)
    for k in range(rounds):
        proposer = proposer_of(game, mask, k)
        n = 0
        for level in range(N_LEVELS):
            n = put(opts, n, OP_LEVEL, level)
        ctx[CTX_DECISION] = D_OFFER
        ctx[CTX_SLOT] = slot
        ctx[CTX_ROUND] = rnd
        greed = opts[ask(game, env, proposer, opts, n, ctx), 1] / (N_LEVELS - 1.0)
        given = 0.0
        for p in range(g[N_PLAYERS]):
            offers[p] = 0.0
            if (mask >> p) & 1 and p != proposer:
                offers[p] = threats[p] + (1.0 - greed) * (values[k, p] - threats[p])
                given += offers[p]
        offers[proposer] = total - given
        game.pl[proposer, C_OFFERS_MADE] += 1
        log(g, game.events, EV_OFFER, proposer, slot, int(greed * (N_LEVELS - 1) + 0.5), rnd)
        accepted = True
        for i in range(g[N_PLAYERS]):
            p = g[ORDER0 + i]
            if p == proposer or not (mask >> p) & 1:
                continue
            n = put(opts, 0, OP_YES)
            n = put(opts, n, OP_NO)
            ctx[CTX_DECISION] = D_ACCEPT
            ctx[CTX_SLOT] = slot
            ctx[CTX_PROPOSER] = proposer
            ctx[CTX_OFFER] = int(1000.0 * offers[p])
            ctx[CTX_FAIR] = int(1000.0 * values[k, p])
            ctx[CTX_NEXT] = int(1000.0 * values[k + 1, p])
            ctx[CTX_THREAT] = int(1000.0 * threats[p])
            ctx[CTX_TOTAL] = int(1000.0 * total)
            yes = opts[ask(game, env, p, opts, n, ctx), 0] == OP_YES
            log(g, game.events, EV_ANSWER, p, 1 if yes else 0)
            if not yes:
                game.pl[p, C_OFFERS_REFUSED] += 1
                accepted = False
                break
        if accepted:
            agree(game, env, mask, offers)
            return True
    return False


@njit(cache=True)
def lowest(mask):
    p = 0
    while not (mask >> p) & 1:
        p += 1
    return p


@njit(cache=True)
def arms_power(game, env, slot, mask, opts, ctx):
    """AG-B3: once a turn in a shoot-out the Arms Baron may roll one of its henchmen as a killer;
    when the Baron is not in the shoot-out it may sell the power to a family that is. Returns the
    family whose henchman is converted, or NO."""
    h = game.g[BARON0 + ARMS]
    if h == NO or env.rp[P_POWERS] == 0 or game.g[ARMS_USED]:
        return NO
    if (mask >> h) & 1:
        if game.at[slot, h, HENCH] == 0:
            return NO
        n = put(opts, 0, OP_YES)
        n = put(opts, n, OP_NO)
        ctx[CTX_DECISION] = D_ARMS
        ctx[CTX_SLOT] = slot
        if opts[ask(game, env, h, opts, n, ctx), 0] != OP_YES:
            return NO
        user = h
        game.pl[h, C_POWER_USES] += 1
    else:
        eligible = 0
        for q in range(game.g[N_PLAYERS]):
            if (mask >> q) & 1 and game.at[slot, q, HENCH] > 0:
                eligible |= 1 << q
        if eligible == 0:
            return NO
        ctx[CTX_SLOT] = slot
        user = sell_power(game, env, h, POWER_ARMS, eligible, opts, ctx)
        if user < 0:
            return NO
    game.g[ARMS_USED] = 1
    log(game.g, game.events, EV_ARMS, user)
    return user


@njit(cache=True)
def shootout(game, env, slot, mask, opts, ctx):
    """AG-N2: everyone involved rolls; then in turn order from the godfather each family assigns
    its BANGs (FBI jokers count, and move the FBI pawn) to families still on the card; the victim
    chooses which of its members is hit: a henchman or killer dies (to the reserve), an occasional
    die is discarded, a boss takes a wound and dies at the last one."""
    g = game.g
    g[SHOOTOUTS] += 1
    log(g, game.events, EV_SHOOTOUT, slot)
    converted = arms_power(game, env, slot, mask, opts, ctx)
    roll_slot(game, env, slot, mask, converted)
    fbi_jokers(game, env, mask)
    for p in range(g[N_PLAYERS]):
        if (mask >> p) & 1:
            game.pl[p, C_SHOOTOUTS] += 1
    for i in range(g[N_PLAYERS]):
        p = g[ORDER0 + i]
        if not (mask >> p) & 1:
            continue
        bangs = 0
        for die in range(3):
            bangs += game.dice[p, die, R_BANG] + game.dice[p, die, R_FBI]
        for _ in range(bangs):
            n = 0
            for q in range(g[N_PLAYERS]):
                if q != p and pieces_at(game, slot, q) > 0:
                    n = put(opts, n, OP_SEAT, q)
            if n == 0:
                break
            ctx[CTX_DECISION] = D_SHOOT
            ctx[CTX_SLOT] = slot
            q = opts[ask(game, env, p, opts, n, ctx), 1]
            game.pl[p, C_BANGS] += 1
            hit(game, env, slot, q, p, opts, ctx)


@njit(cache=True)
def hit(game, env, slot, q, shooter, opts, ctx):
    """AG-N2: the victim q chooses which of its members on the slot takes the BANG."""
    n = 0
    for piece in (OCC, HENCH, KILLER, BOSS):
        if game.at[slot, q, piece] > 0:
            n = put(opts, n, OP_PIECE, piece)
    ctx[CTX_DECISION] = D_HIT
    ctx[CTX_SLOT] = slot
    ctx[CTX_SHOOTER] = shooter
    piece = opts[ask(game, env, q, opts, n, ctx), 1]
    log(game.g, game.events, EV_SHOT, shooter, q, piece)
    if piece == BOSS:
        if wound_boss(game, env, q, shooter, opts, ctx):
            game.at[slot, q, BOSS] = 0   # the boss pawn goes back to its family (AG-K4)
        return
    game.at[slot, q, piece] -= 1
    if piece == OCC:
        game.g[OCC_SUPPLY] += 1
        game.pl[q, C_OCC_LOST] += 1
    elif piece == HENCH:
        game.pl[q, HENCHMEN] -= 1
        game.pl[q, C_HENCH_LOST] += 1
    else:
        game.pl[q, KILLERS] -= 1
        game.pl[q, C_KILLERS_LOST] += 1


# --- majorities, the end of the turn and of the game (AG-T5, T6, G, E) -----------------------------------------

@njit(cache=True)
def majority_holder(game, base, index, holder):
    """AG-T5: the family with strictly more than every other takes the title; on a tie the holder
    keeps it."""
    n_players = game.g[N_PLAYERS]
    best, best_n, tied = NO, -1, False
    for p in range(n_players):
        v = game.pl[p, base + index]
        if v > best_n:
            best, best_n, tied = p, v, False
        elif v == best_n:
            tied = True
    if tied or best_n <= 0:
        return holder
    return best


@njit(cache=True)
def majorities(game, env):
    """AG-T5: Caids of the districts (won locations) and Barons of the traffics (tokens)."""
    g = game.g
    for d in range(env.rp[RP_N_DISTRICTS]):
        new = majority_holder(game, WON0, d, g[CAID0 + d])
        if new != g[CAID0 + d]:
            g[CAID0 + d] = new
            log(g, game.events, EV_TITLE, 1, d, new)
    for t in range(N_TRAFFICS):
        new = majority_holder(game, TOK0, t, g[BARON0 + t])
        if new != g[BARON0 + t]:
            g[BARON0 + t] = new
            log(g, game.events, EV_TITLE, 0, t, new)
    for t in range(N_TRAFFICS):
        if g[BARON0 + t] >= 0:
            game.pl[g[BARON0 + t], C_BARON_TURNS] += 1
    for d in range(N_DISTRICTS):
        if g[CAID0 + d] >= 0:
            game.pl[g[CAID0 + d], C_CAID_TURNS] += 1


@njit(cache=True)
def winners_now(game, env):
    """AG-G1, G2 at the end of a turn: (ended_by, bitmask of the families that may win first place)
    or (NO, 0). The informer wins ties within the turn."""
    rp = env.rp
    inf = game.g[INFORMER]
    if inf >= 0 and score(game, env, inf) >= rp[P_INFORMER_RENOWN] and game.g[FBI] >= rp[P_INFORMER_FBI]:
        return END_INFORMER, 1 << inf
    mask = 0
    for p in range(game.g[N_PLAYERS]):
        if p == inf and not rp[P_INFORMER_AS_PARRAIN]:
            continue
        if score(game, env, p) >= rp[P_PARRAIN]:
            mask |= 1 << p
    if mask:
        return END_PARRAIN, mask
    return NO, 0


@njit(cache=True)
def beats(game, env, p, q):
    """Ranking key: renown with provisional points, then the hidden value of the bags (AG-E1).
    +2 / +1 when p is ahead by renown / money, -2 / -1 when behind, 0 when tied."""
    a, b = score(game, env, p), score(game, env, q)
    if a != b:
        return 2 if a > b else -2
    a, b = bag_value(game, p), bag_value(game, q)
    if a != b:
        return 1 if a > b else -1
    return 0


@njit(cache=True)
def final_ranking(game, env, ended_by, mask):
    """Rank the families: those in `mask` (who may win) first, each group by renown then money;
    tied families share a rank (AG-E1: shared victory)."""
    g = game.g
    n = g[N_PLAYERS]
    order = g[ORDER0:ORDER0 + n]   # reused: the ranking replaces the turn order at the end
    for p in range(n):
        order[p] = p
    for i in range(1, n):
        j = i
        while j > 0 and ranks_before(game, env, order[j], order[j - 1], mask):
            order[j], order[j - 1] = order[j - 1], order[j]
            j -= 1
    rank = 1
    for i in range(n):
        p = order[i]
        if i > 0:
            prev = order[i - 1]
            same_group = ((mask >> p) & 1) == ((mask >> prev) & 1)
            if not (same_group and beats(game, env, prev, p) == 0):
                rank = i + 1
        game.pl[p, RANK] = rank
        log(g, game.events, EV_RANK, p, rank, score(game, env, p), bag_value(game, p))
    winner = order[0]
    g[WINNER] = winner
    g[ENDED_BY] = ended_by
    group = count_bits(mask)
    if ended_by == END_INFORMER:
        g[DECIDED_BY] = BY_INFORMER
    elif ended_by == END_PARRAIN and group == 1:
        g[DECIDED_BY] = BY_PARRAIN
    else:
        level = abs(beats(game, env, winner, order[1])) if n > 1 else 2
        g[DECIDED_BY] = BY_RENOWN if level == 2 else (BY_MONEY if level == 1 else BY_SHARED)
    log(g, game.events, EV_WIN, winner, ended_by, g[DECIDED_BY])


@njit(cache=True)
def ranks_before(game, env, p, q, mask):
    in_p, in_q = (mask >> p) & 1, (mask >> q) & 1
    if in_p != in_q:
        return in_p > in_q
    return beats(game, env, p, q) > 0


@njit(cache=True)
def end_of_turn(game):
    """AG-T6: the locations nobody won are discarded; occasional henchmen used this turn go back to
    the supply and those gained become ready (AG-K3); the godfather card passes left."""
    g = game.g
    for s in range(1, g[SHOW_N] + 1):
        c = g[SHOW0 + s]
        if game.lc[c, LC_STATE] == LS_SHOWN:
            game.lc[c, LC_STATE] = LS_DISCARD
            g[L_DISC0 + g[L_DISC_N]] = c
            g[L_DISC_N] += 1
        g[SHOW0 + s] = NO
    g[SHOW_N] = 0
    for s in range(MAX_SLOTS):
        for p in range(g[N_PLAYERS]):
            g[OCC_SUPPLY] += game.at[s, p, OCC]
            for piece in range(4):
                game.at[s, p, piece] = 0
    for p in range(g[N_PLAYERS]):
        game.pl[p, OCC_READY] += game.pl[p, OCC_NEW]
        game.pl[p, OCC_NEW] = 0
        game.pl[p, TRADED] = 0
        game.pl[p, REROLLED] = 0
    g[ARMS_USED] = 0
    g[GODFATHER] = (g[GODFATHER] + 1) % g[N_PLAYERS]


@njit(cache=True)
def all_won(game):
    """AG-E1: every location card has been won."""
    return game.g[L_DECK_N] + game.g[L_DISC_N] == 0 and game.g[SHOW_N] == 0


@njit(cache=True)
def record_scores(game, env, turn):
    for p in range(game.g[N_PLAYERS]):
        game.fortune[turn, p] = score(game, env, p)


@njit(cache=True)
def checkpoint(game, env):
    """Check mode: the invariants after every phase; the first broken one is kept."""
    if game.g[CHECK] and game.g[BROKEN] == 0:
        game.g[BROKEN] = invariants(game, env)


@njit(cache=True)
def play_turn(game, env, opts, ctx):
    """One turn (AG-T1..T6); returns (ended_by, mask of possible winners) or (NO, 0)."""
    g = game.g
    fill_order(game)
    log(g, game.events, EV_TURN, g[TURN], g[GODFATHER])
    gambling_baron(game, env, opts, ctx)
    renown_trades(game, env, opts, ctx)
    checkpoint(game, env)
    event_phase(game, env, opts, ctx)
    checkpoint(game, env)
    reveal_locations(game, env)
    placement(game, env, opts, ctx)
    checkpoint(game, env)
    hospital(game, env, opts, ctx)
    for s in range(1, g[SHOW_N] + 1):
        resolve_location(game, env, s, opts, ctx)
        checkpoint(game, env)
    majorities(game, env)
    ended_by, mask = winners_now(game, env)
    end_of_turn(game)
    checkpoint(game, env)
    return ended_by, mask


@njit(cache=True)
def start(game, env, n_players, key, game_id, record, check):
    """The game before its first turn (AG-C): the batch and the forward model both begin here."""
    game.g[RECORD] = record
    game.g[CHECK] = check
    setup(game, env, n_players, key, game_id)
    record_scores(game, env, 0)


@njit(cache=True)
def next_turn(game, env):
    """The next turn, played whole: (ended_by, mask of possible winners) or (NO, 0)."""
    game.g[TURN] += 1
    return play_turn(game, env, game.opts, game.ctx)


@njit(cache=True)
def after_turn(game, env, ended_by, mask):
    """Between turns: the scores, the check, the end tests (AG-G, E1, the turn cap). Returns
    (invariant code or 0, ended_by, mask): ended_by NO while the game goes on."""
    n_players = game.g[N_PLAYERS]
    record_scores(game, env, game.g[TURN])
    if game.g[CHECK]:
        broken = game.g[BROKEN] if game.g[BROKEN] else invariants(game, env)
        if broken:
            return broken, ended_by, mask
    if ended_by >= 0:
        return 0, ended_by, mask
    if all_won(game):
        return 0, END_ALL_WON, (1 << n_players) - 1
    if game.g[TURN] >= min(env.rp[P_TURN_CAP], game.fortune.shape[0] - 1):
        game.g[CAP_HIT] = 1
        return 0, END_CAP, (1 << n_players) - 1
    return 0, NO, 0


@njit(cache=True)
def finish(game, env, ended_by, mask):
    """The end: the final ranking (AG-E1)."""
    game.g[TURNS_PLAYED] = game.g[TURN]
    final_ranking(game, env, ended_by, mask)
    game.g[GAME_OVER] = 1


@njit(cache=True)
def play(game, env, n_players, key, game_id, record, check):
    """Play one whole game (AG-C, T, G, E). Returns 0, or an invariant code in check mode."""
    start(game, env, n_players, key, game_id, record, check)
    while True:
        ended_by, mask = next_turn(game, env)
        broken, ended_by, mask = after_turn(game, env, ended_by, mask)
        if broken:
            return broken
        if ended_by >= 0:
            break
    finish(game, env, ended_by, mask)
    return 0


# --- invariants (check mode) --------------------------------------------------------------------------------

(INV_BAGS, INV_TOKENS, INV_CARDS, INV_TITLES, INV_CREW, INV_OCCASIONAL, INV_WOUNDS, INV_TRACKS,
 INV_EVENTS, INV_PLACED) = range(1, 11)
INVARIANTS = ("", "bags not conserved", "traffic tokens not conserved", "location cards lost",
              "a title held by nobody's seat", "crew beyond its limits", "occasional dice lost",
              "a boss past its last wound", "a track out of range", "event cards lost",
              "more pieces placed than the family has")


@njit(cache=True)
def invariants(game, env):
    g, rp = game.g, env.rp
    n = g[N_PLAYERS]
    ones, threes = game.bags[BANK_ROW, 0] + game.bags[POT_ROW, 0], game.bags[BANK_ROW, 1] + game.bags[POT_ROW, 1]
    for p in range(n):
        ones += game.bags[p, 0]
        threes += game.bags[p, 1]
    if ones != rp[P_BAGS_ONES] or threes != rp[P_BAGS_THREES] or game.bags[:, :].min() < 0:
        return INV_BAGS
    for t in range(N_TRAFFICS):
        held = g[SUPPLY0 + t]
        for p in range(n):
            held += game.pl[p, TOK0 + t]
            if game.pl[p, TOK0 + t] < 0:
                return INV_TOKENS
        if held != rp[P_TOKENS] or g[SUPPLY0 + t] < 0:
            return INV_TOKENS
    deck, disc, shown = 0, 0, 0
    won = np.zeros((MAX_SEATS, N_DISTRICTS), dtype=np.int64)
    for c in range(g[N_CARDS]):
        state = game.lc[c, LC_STATE]
        if state == LS_DECK:
            deck += 1
        elif state == LS_DISCARD:
            disc += 1
        elif state == LS_SHOWN:
            shown += 1
        else:
            won[game.lc[c, LC_OWNER], rp[RP_C_DISTRICT + c]] += 1
    if deck != g[L_DECK_N] or disc != g[L_DISC_N] or shown > g[SHOW_N]:
        return INV_CARDS
    for p in range(n):
        for d in range(N_DISTRICTS):
            if won[p, d] != game.pl[p, WON0 + d]:
                return INV_CARDS
    for i in range(N_TRAFFICS + N_DISTRICTS):
        if g[BARON0 + i] < NO or g[BARON0 + i] >= n:
            return INV_TITLES
    occ = g[OCC_SUPPLY]
    for p in range(n):
        if not 0 <= game.pl[p, HENCHMEN] <= rp[P_HENCHMEN] or not 0 <= game.pl[p, KILLERS] <= rp[P_KILLERS]:
            return INV_CREW
        if not 0 <= game.pl[p, WOUNDS] < rp[P_WOUNDS_TO_DIE]:
            return INV_WOUNDS
        if game.pl[p, RENOWN] < 0:
            return INV_TRACKS
        occ += game.pl[p, OCC_READY] + game.pl[p, OCC_NEW]
        boss, hench, killer = 0, 0, 0
        for s in range(MAX_SLOTS):
            occ += game.at[s, p, OCC]
            boss += game.at[s, p, BOSS]
            hench += game.at[s, p, HENCH]
            killer += game.at[s, p, KILLER]
        if boss > 1 or hench > game.pl[p, HENCHMEN] or killer > game.pl[p, KILLERS]:
            return INV_PLACED
    if occ != rp[P_OCC_DICE] or g[OCC_SUPPLY] < 0:
        return INV_OCCASIONAL
    if not 0 <= g[FBI] <= fbi_top(env):
        return INV_TRACKS
    if not 0 <= g[H_COST_POS] < rp[RP_H_LEN] or not 0 <= g[K_COST_POS] < rp[RP_K_LEN]:
        return INV_TRACKS
    if g[E_DECK_N] + g[E_DISC_N] != g[N_EVENT_CARDS]:
        return INV_EVENTS
    return 0
