"""The shoot-out as it is played, for the engine's players and for the bargaining model (AG-N2,
AG-K4, AG-B3).

One set of rules decides a shoot-out's choices, so that the disagreement point of the bargain
(`shootout_values`) is the value of the shoot-out the engine would actually play:

- aim (`aim_worth`): each BANG, one at a time, goes to the family on the card with the most
  expected BANGs there now, plus the shooter's aggression times a third of its score, plus the
  aggression again on a wounded boss; an exact tie is drawn from the shooter's stream in play and
  split equally in the model (no seat is favoured by its place at the table);
- hits (`cheapest_piece`): the victim gives up its cheapest member at the bargaining worths
  (negotiation.value_*): an occasional die, a henchman or a killer at its recruit price, the
  boss's wound, the boss's death (AG-K4) at what it costs; ties in the order occasional,
  henchman, killer, boss;
- the Arms Baron (`arms_user`, AG-B3) converts one of its henchmen when it is there, else sells
  the power in turn order to the first family there that buys it (`buys_arms`).

`shootout_values` is the exact expected outcome of that shoot-out for every family, in bags: the
rolls are independent (each family's BANG count has its binomial law, fixed before anyone aims),
and the aiming that follows is deterministic but for ties, so a depth-first walk over the BANG
counts of the families in turn order and over the tied targets, each branch carrying its
probability, is exact. Each leaf adds the pieces lost and the spoils of a boss's death (half the
dead boss's bags, a card and a token to its killer, by boss_death.to) to the card's share: a
family left alone takes the card, several survivors share it equally (the second round's Nash
split when failing loses it, AG-N3), none: it is lost. FBI jokers move the FBI pawn, which the
bargaining worths do not count.
"""

import numpy as np

from sim.shared.codes import codes
from numba import njit

from sim.ag.env import (
    DEATH_TO_KILLER, P_BARON_POINTS, P_CAID_POINTS, P_DEATH_RENOWN, P_DEATH_ROUNDING, P_DEATH_TO, P_POWERS,
    P_POWER_PRICE, P_SECOND_ROUND, P_SUCCESSOR, P_VAL_BAG, P_VAL_CARD, P_VAL_OCC, P_VAL_RENOWN, P_VAL_TOKEN,
    P_VAL_WOUND, P_WOUNDS_TO_DIE, ROUND_UP, SUCCESSOR_HENCHMAN, MEMO_F, MEMO_SLOTS, MEMO_W,
)
from sim.ag.readers import bang_chance, card_items, recruit_price, titles
from sim.ag.state import (
    ARMS, ARMS_USED, BARON0, BOSS, HENCH, HENCHMEN, KILLER, KILLERS, MAX_SEATS, MAX_SLOTS, NO, N_DISTRICTS,
    N_PLAYERS, N_TRAFFICS, OCC, ORDER0, RENOWN, SHOW0, TOK0, WALK_CAP, WALK_F, WON0, WOUNDS, bag_count,
)
from strategies.ag.params import INDEX

AGGRESSION = INDEX["aggression"]
BAG_RESERVE = INDEX["bag_reserve"]
TIE = 1e-12
# a family's state in the walk
F_OCC, F_HENCH, F_KILLER, F_BOSS, F_LIVES, F_BAGS, F_CARDS, F_TOKENS, F_RENOWN = range(9)
N_F = WALK_F
SAMPLES = 400   # shoot-outs sampled when the exact walk is too large (sampled_values)
DONE, CUR, NEXT = codes(3)   # the walk's buffers (game.walk) as it starts: the shooter's turn over, its BANGs now, next


@njit(cache=True)
def worth(env, key):
    return env.rp[key] / 1000.0


@njit(cache=True)
def aim_worth(env, shooter, threat_q, score_q, wounded_boss_q):
    """AG-N2: how much `shooter` wants to hit a family with this threat (expected BANGs on the
    card now), score and, on the card, a wounded boss (or not)."""
    a = env.params[shooter, AGGRESSION]
    return threat_q + a * score_q / 3.0 + (a if wounded_boss_q else 0.0)


@njit(cache=True)
def cheapest_piece(env, occ, hench, killer, boss, lives, price_h, price_k, death_cost):
    """AG-N2: the piece a victim with these members on the card gives up: the cheapest at the
    bargaining worths, ties in the order occasional, henchman, killer, boss."""
    bag = worth(env, P_VAL_BAG)
    best, piece = 1e18, -1
    if occ > 0:
        best, piece = worth(env, P_VAL_OCC), OCC
    if hench > 0 and price_h * bag < best - TIE:
        best, piece = price_h * bag, HENCH
    if killer > 0 and price_k * bag < best - TIE:
        best, piece = price_k * bag, KILLER
    if boss > 0:
        cost = worth(env, P_VAL_WOUND) if lives > 1 else death_cost
        if cost < best - TIE:
            piece = BOSS
    return piece


@njit(cache=True)
def death_terms(env, bags, cards, tokens, renown_worth, member_cost):
    """AG-K4: (what a boss's death costs its family, what its killer takes), in bags."""
    half = (bags + 1) // 2 if env.rp[P_DEATH_ROUNDING] == ROUND_UP else bags // 2
    spoils = half * worth(env, P_VAL_BAG)
    if cards > 0:
        spoils += worth(env, P_VAL_CARD)
    if tokens > 0:
        spoils += worth(env, P_VAL_TOKEN)
    return spoils + renown_worth + member_cost, spoils


@njit(cache=True)
def successor_kind(game, env, q):
    """AG-K4 ruling: the kind of member that takes a dead boss's place (HENCH, KILLER), or -1."""
    if env.rp[P_SUCCESSOR] != SUCCESSOR_HENCHMAN:
        return -1
    if game.pl[q, HENCHMEN] > 0:
        return HENCH
    if game.pl[q, KILLERS] > 0:
        return KILLER
    return -1


@njit(cache=True)
def successor_from_slot(game, q, slot, kind):
    """Is the member that takes the boss's place taken off this slot (sim.ag.chapters.wounds.
    use_up_member: a spare one first, else the one on the last slot holding one)?"""
    if kind < 0:
        return False
    count = game.pl[q, HENCHMEN] if kind == HENCH else game.pl[q, KILLERS]
    placed, later = 0, 0
    for s in range(MAX_SLOTS):
        placed += game.at[s, q, kind]
        if s > slot:
            later += game.at[s, q, kind]
    return placed >= count and later == 0 and game.at[slot, q, kind] > 0


@njit(cache=True)
def death_cost_now(game, env, q):
    """What the boss's death would cost family q now (AG-K4, the worths of the bargain)."""
    cards, tokens = 0, 0
    for d in range(N_DISTRICTS):
        cards += game.pl[q, WON0 + d]
    for t in range(N_TRAFFICS):
        tokens += game.pl[q, TOK0 + t]
    kind = successor_kind(game, env, q)
    member = recruit_price(game, env, kind) * worth(env, P_VAL_BAG) if kind >= 0 else 0.0
    renown = min(env.rp[P_DEATH_RENOWN], game.pl[q, RENOWN]) * worth(env, P_VAL_RENOWN)
    return death_terms(env, bag_count(game, q), cards, tokens, renown, member)[0]


@njit(cache=True)
def hit_choice(game, env, slot, q):
    """The engine's victim q on the slot: the piece it gives up (cheapest_piece)."""
    lives = env.rp[P_WOUNDS_TO_DIE] - game.pl[q, WOUNDS]
    return cheapest_piece(env, game.at[slot, q, OCC], game.at[slot, q, HENCH], game.at[slot, q, KILLER],
                          game.at[slot, q, BOSS], lives, recruit_price(game, env, HENCH),
                          recruit_price(game, env, KILLER), death_cost_now(game, env, q))


@njit(cache=True)
def card_worth(game, env, card):
    """The card's gains now, in bags by the bargaining rule's worths (negotiation.value_*)."""
    r, b, t, c, o = card_items(game, env, card)
    return (r * worth(env, P_VAL_RENOWN) + b * worth(env, P_VAL_BAG) + t * worth(env, P_VAL_TOKEN)
            + c * worth(env, P_VAL_CARD) + o * worth(env, P_VAL_OCC))


@njit(cache=True)
def arms_gain(game, env, slot, mask, q):
    """AG-B3: what rolling one of its henchmen as a killer adds to family q's expected outcome of
    this shoot-out, in bags, net of the price it pays when it is not the Baron (the exact walk
    with and without the conversion, shootout_values_with)."""
    total = card_worth(game, env, game.g[SHOW0 + slot])
    with_it, without = np.zeros(MAX_SEATS), np.zeros(MAX_SEATS)
    shootout_values_with(game, env, slot, mask, total, q, with_it)
    shootout_values_with(game, env, slot, mask, total, NO, without)
    return with_it[q] - without[q]


@njit(cache=True)
def buys_arms(game, env, slot, mask, q):
    """AG-B3: a family offered the Arms power in this shoot-out buys it when the conversion adds
    more to its expected outcome than the price (arms_gain > 0, in bags at the bargaining worths)
    and it keeps its bag reserve after paying."""
    if bag_count(game, q) < env.rp[P_POWER_PRICE] + env.params[q, BAG_RESERVE]:
        return False
    return arms_gain(game, env, slot, mask, q) > 0.0


@njit(cache=True)
def arms_user(game, env, slot, mask):
    """AG-B3 as played: the family whose henchman the Arms power converts in this shoot-out (the
    Baron there always uses it; away, it sells it in turn order to the first family there that
    buys it), or NO."""
    h = game.g[BARON0 + ARMS]
    if h == NO or env.rp[P_POWERS] == 0 or game.g[ARMS_USED]:
        return NO
    if (mask >> h) & 1:
        return h if game.at[slot, h, HENCH] > 0 else NO
    price = env.rp[P_POWER_PRICE]
    for i in range(game.g[N_PLAYERS]):
        q = game.g[ORDER0 + i]
        if (mask >> q) & 1 and game.at[slot, q, HENCH] > 0 and bag_count(game, q) >= price \
                and buys_arms(game, env, slot, mask, q):
            return q
    return NO


@njit(cache=True)
def bang_law(env, hench, killer, occ, converted, out):
    """out[b] = P(b BANGs) of these dice (one henchman rolled as a killer when converted);
    returns the most BANGs."""
    out[:] = 0.0
    out[0] = 1.0
    top = 0
    for piece, n in ((HENCH, hench - converted), (KILLER, killer + converted), (OCC, occ)):
        p = bang_chance(env, piece)
        for _ in range(n):
            top += 1
            for b in range(top, 0, -1):
                out[b] = out[b] * (1.0 - p) + out[b - 1] * p
            out[0] *= 1.0 - p
    return top


@njit(cache=True)
def start_state(game, env, slot, mask, state):
    for q in range(game.g[N_PLAYERS]):
        state[q, :] = 0
        if not (mask >> q) & 1:
            continue
        state[q, F_OCC] = game.at[slot, q, OCC]
        state[q, F_HENCH] = game.at[slot, q, HENCH]
        state[q, F_KILLER] = game.at[slot, q, KILLER]
        state[q, F_BOSS] = game.at[slot, q, BOSS]
        state[q, F_LIVES] = env.rp[P_WOUNDS_TO_DIE] - game.pl[q, WOUNDS]
        state[q, F_BAGS] = bag_count(game, q)
        for d in range(N_DISTRICTS):
            state[q, F_CARDS] += game.pl[q, WON0 + d]
        for t in range(N_TRAFFICS):
            state[q, F_TOKENS] += game.pl[q, TOK0 + t]
        state[q, F_RENOWN] = game.pl[q, RENOWN]


@njit(cache=True)
def on_card(state, q):
    return state[q, F_OCC] + state[q, F_HENCH] + state[q, F_KILLER] + state[q, F_BOSS]


@njit(cache=True)
def fixed_terms(game, env, slot, mask, fixed):
    """fixed[q]: title points, successor kind (or -1), 1 when the successor leaves this slot,
    recruit prices of a henchman and a killer."""
    for q in range(game.g[N_PLAYERS]):
        if (mask >> q) & 1:
            barons, caids = titles(game, q)
            fixed[q, 0] = env.rp[P_BARON_POINTS] * barons + env.rp[P_CAID_POINTS] * caids
            kind = successor_kind(game, env, q)
            fixed[q, 1] = kind
            fixed[q, 2] = 1 if successor_from_slot(game, q, slot, kind) else 0
    for q in range(MAX_SEATS):
        fixed[q, 3] = recruit_price(game, env, HENCH)
        fixed[q, 4] = recruit_price(game, env, KILLER)


@njit(cache=True)
def apply_hit(env, state, acc, fixed, q, shooter):
    """The victim q gives up its cheapest piece; acc[.] takes the worths lost and won."""
    bag = worth(env, P_VAL_BAG)
    price_h, price_k, kind = fixed[q, 3], fixed[q, 4], fixed[q, 1]
    member = 0.0
    if kind == HENCH:
        member = price_h * bag
    elif kind == KILLER:
        member = price_k * bag
    renown = min(env.rp[P_DEATH_RENOWN], state[q, F_RENOWN]) * worth(env, P_VAL_RENOWN)
    cost, spoils = death_terms(env, state[q, F_BAGS], state[q, F_CARDS], state[q, F_TOKENS], renown, member)
    piece = cheapest_piece(env, state[q, F_OCC], state[q, F_HENCH], state[q, F_KILLER], state[q, F_BOSS],
                           state[q, F_LIVES], price_h, price_k, cost)
    if piece == OCC:
        state[q, F_OCC] -= 1
        acc[q] -= worth(env, P_VAL_OCC)
    elif piece == HENCH:
        state[q, F_HENCH] -= 1
        acc[q] -= price_h * bag
    elif piece == KILLER:
        state[q, F_KILLER] -= 1
        acc[q] -= price_k * bag
    elif state[q, F_LIVES] > 1:
        state[q, F_LIVES] -= 1
        acc[q] -= worth(env, P_VAL_WOUND)
    else:
        boss_dies(env, state, acc, fixed, q, shooter, cost, spoils)


@njit(cache=True)
def boss_dies(env, state, acc, fixed, q, shooter, cost, spoils):
    half = (state[q, F_BAGS] + 1) // 2 if env.rp[P_DEATH_ROUNDING] == ROUND_UP else state[q, F_BAGS] // 2
    acc[q] -= cost
    state[q, F_BOSS] = 0
    state[q, F_LIVES] = env.rp[P_WOUNDS_TO_DIE]
    state[q, F_BAGS] -= half
    state[q, F_RENOWN] = max(0, state[q, F_RENOWN] - env.rp[P_DEATH_RENOWN])
    had_card, had_token = state[q, F_CARDS] > 0, state[q, F_TOKENS] > 0
    state[q, F_CARDS] -= 1 if had_card else 0
    state[q, F_TOKENS] -= 1 if had_token else 0
    if fixed[q, 2]:   # the successor was on this card
        state[q, F_HENCH if fixed[q, 1] == HENCH else F_KILLER] -= 1
    if env.rp[P_DEATH_TO] == DEATH_TO_KILLER:
        acc[shooter] += spoils
        state[shooter, F_BAGS] += half
        state[shooter, F_CARDS] += 1 if had_card else 0
        state[shooter, F_TOKENS] += 1 if had_token else 0


@njit(cache=True)
def targets_of(game, env, state, fixed, shooter, tied):
    """tied[0 .. k-1]: the families the shooter's next BANG may go to (the best by aim_worth,
    all of them on an exact tie); returns k (0: nobody left on the card to shoot)."""
    bh, bk, bo = bang_chance(env, HENCH), bang_chance(env, KILLER), bang_chance(env, OCC)
    best, k = -1e18, 0
    for q in range(game.g[N_PLAYERS]):
        if q == shooter or on_card(state, q) == 0:
            continue
        threat_q = state[q, F_HENCH] * bh + state[q, F_KILLER] * bk + state[q, F_OCC] * bo
        wounded = state[q, F_BOSS] > 0 and state[q, F_LIVES] < env.rp[P_WOUNDS_TO_DIE]
        value = aim_worth(env, shooter, threat_q, state[q, F_RENOWN] + fixed[q, 0], wounded)
        if value > best + TIE:
            best, k = value, 0
        if value > best - TIE:
            tied[k] = q
            k += 1
    return k


@njit(cache=True)
def leaf(game, mask, state, wacc, weight, total, second, out):
    survivors = 0
    for q in range(game.g[N_PLAYERS]):
        if (mask >> q) & 1 and on_card(state, q) > 0:
            survivors += 1
    for q in range(game.g[N_PLAYERS]):
        if not (mask >> q) & 1:
            continue
        keep = 0.0
        if on_card(state, q) > 0 and (survivors == 1 or second):
            keep = total / survivors
        out[q] += weight * keep + wacc[q]


@njit(cache=True)
def state_hash(state, left, n):
    h = left + 1
    for q in range(n):
        for f in range(N_F):
            h = (h * 1000003 + state[q, f]) & 0xFFFFFFFFFFFF
    return h


@njit(cache=True)
def same_state(game, buf, j, state, left, n):
    if game.walk_left[buf, j] != left:
        return False
    for q in range(n):
        for f in range(N_F):
            if game.walk[buf, j, q, f] != state[q, f]:
                return False
    return True


@njit(cache=True)
def empty_buffer(game, buf):
    """Empty a buffer of the walk: a new stamp makes every cell of its hash table stale, so no
    table is cleared between the walk's steps."""
    game.walk_stamp[buf] += 1
    return 0


@njit(cache=True)
def merge_in(game, buf, size, state, left, weight, wacc, scale, delta):
    """Add a state of the walk to buffer `buf` (game.walk*), merged with an equal one (found by
    its hash): its probability, and its probability-weighted worths wacc * scale + weight *
    delta. Returns the buffer's new size, -1 when it is full."""
    n = game.g[N_PLAYERS]
    cells = 2 * WALK_CAP
    stamp = game.walk_stamp[buf] << 16
    cell = state_hash(state, left, n) % cells
    while game.walk_slot[buf, cell] > stamp:
        j = game.walk_slot[buf, cell] - stamp - 1
        if same_state(game, buf, j, state, left, n):
            game.walk_w[buf, j] += weight
            for q in range(n):
                game.walk_acc[buf, j, q] += wacc[q] * scale + weight * delta[q]
            return size
        cell = (cell + 1) % cells
    if size == WALK_CAP:
        return -1   # full: the caller samples the shoot-out instead (sampled_values)
    game.walk_slot[buf, cell] = stamp + size + 1
    game.walk[buf, size, :n, :] = state[:n, :]
    game.walk_left[buf, size] = left
    game.walk_w[buf, size] = weight
    for q in range(n):
        game.walk_acc[buf, size, q] = wacc[q] * scale + weight * delta[q]
    return size + 1


@njit(cache=True)
def shootout_values(game, env, slot, mask, total, out):
    """out[q]: family q's exact expected outcome, in bags, of the shoot-out the engine would play
    on the slot between the families of `mask` over a card worth `total` (see the module doc);
    0 for the families not in it. The walk goes shooter by shooter in turn order and BANG by BANG;
    equal states reached by different paths (aim ties in a symmetric contest) are merged, their
    probabilities added and their worths carried probability-weighted (the values are linear)."""
    shootout_values_with(game, env, slot, mask, total, arms_user(game, env, slot, mask), out)


@njit(cache=True)
def shootout_values_with(game, env, slot, mask, total, converted, out):
    """shootout_values with the Arms power's user given (`converted`, or NO). A contest already
    walked under this env is read back from its table (`recall`): the same key, the same value."""
    fixed = np.zeros((MAX_SEATS, 5), np.int64)
    fixed_terms(game, env, slot, mask, fixed)
    state = np.zeros((MAX_SEATS, N_F), np.int64)
    start_state(game, env, slot, mask, state)
    key, fkey = np.zeros(MEMO_W, np.int64), np.zeros(MEMO_F)
    cell = walk_key(game, env, mask, total, converted, state, fixed, key, fkey)
    if recall(env, cell, key, fkey, out):
        return
    walked_values(game, env, slot, mask, total, converted, fixed, state, out)
    env.memo_key[cell, :] = key
    env.memo_fkey[cell, :] = fkey
    env.memo_val[cell, :] = out


@njit(cache=True)
def walk_key(game, env, mask, total, converted, state, fixed, key, fkey):
    """key, fkey: everything the walk reads of a contest: who is on the card and the shooting
    order; each family's pieces there, lives, bags, cards, tokens, renown, title points,
    successor and aggression (aim_worth); the Arms power's user and whether it pays; the recruit
    prices and the card's worth. Returns the contest's slot in the table."""
    n = game.g[N_PLAYERS]
    order = 0
    for i in range(n):
        order = order * 8 + game.g[ORDER0 + i]
    pays = 1 if converted != NO and game.g[BARON0 + ARMS] != converted else 0
    key[0] = mask | (n << 8) | (order << 12)   # never 0: an empty slot matches nothing
    key[1] = (converted + 1) | (pays << 8)
    key[2] = fixed[0, 3] | (fixed[0, 4] << 20)
    fkey[0] = total
    h = 0
    for q in range(n):
        if (mask >> q) & 1:
            s = state[q]
            key[3 + 2 * q] = (s[F_OCC] | (s[F_HENCH] << 4) | (s[F_KILLER] << 8) | (s[F_BOSS] << 12)
                              | (s[F_LIVES] << 16) | ((fixed[q, 1] + 1) << 20) | (fixed[q, 2] << 24)
                              | (s[F_CARDS] << 28) | (s[F_TOKENS] << 44))
            key[4 + 2 * q] = s[F_BAGS] | (s[F_RENOWN] << 24) | (fixed[q, 0] << 40)
            fkey[1 + q] = env.params[q, AGGRESSION]
    for w in range(MEMO_W):
        x = key[w]
        h = (h * 1000003 + ((x ^ (x >> 29)) & 0xFFFFFFF)) & 0xFFFFFFFFFF
    for w in range(MEMO_F):
        h = (h * 1000003 + int(fkey[w] * 1000.0)) & 0xFFFFFFFFFF
    return h & (MEMO_SLOTS - 1)


@njit(cache=True)
def recall(env, cell, key, fkey, out):
    """out[:] = the values of the contest in this table slot when its key is this one."""
    env.memo_n[0] += 1
    for w in range(MEMO_W):
        if env.memo_key[cell, w] != key[w]:
            return False
    for w in range(MEMO_F):
        if env.memo_fkey[cell, w] != fkey[w]:
            return False
    out[:] = env.memo_val[cell, :]
    env.memo_n[1] += 1
    return True


@njit(cache=True)
def walked_values(game, env, slot, mask, total, converted, fixed, state, out):
    """The exact walk of the contest (sampled when it is too large): shootout_values_with's work."""
    n_players = game.g[N_PLAYERS]
    out[:] = 0.0
    laws = np.zeros((MAX_SEATS, 4 * 4 + 4))
    tops = np.zeros(MAX_SEATS, np.int64)
    for q in range(n_players):
        if (mask >> q) & 1:
            tops[q] = bang_law(env, game.at[slot, q, HENCH], game.at[slot, q, KILLER], game.at[slot, q, OCC],
                               1 if q == converted else 0, laws[q])
    delta = np.zeros(MAX_SEATS)   # worths paid before the rolls: the Arms power's price
    if converted != NO and game.g[BARON0 + ARMS] != converted:   # the buyer pays the price
        delta[converted] = -env.rp[P_POWER_PRICE] * worth(env, P_VAL_BAG)
    origin = state.copy()
    if walk(game, env, mask, total, laws, tops, fixed, state, delta.copy(), out):
        return
    out[:] = 0.0
    sampled_values(game, env, mask, total, laws, tops, fixed, origin, delta, out)


@njit(cache=True)
def walk(game, env, mask, total, laws, tops, fixed, state, delta, out):
    """The exact walk of shootout_values; False when its buffers fill (too many distinct states).
    Three buffers take turns: the states after the last shooter (done), the states with BANGs
    of the shooter still to fire (cur), and those one BANG later (nxt)."""
    n_players = game.g[N_PLAYERS]
    zero = np.zeros(MAX_SEATS)
    done_buf, cur_buf, nxt_buf = DONE, CUR, NEXT
    done = merge_in(game, done_buf, empty_buffer(game, done_buf), state.copy(), 0, 1.0, zero, 0.0, delta)
    tied = np.zeros(MAX_SEATS, np.int64)
    child = np.zeros((MAX_SEATS, N_F), np.int64)
    for i in range(n_players):
        p = game.g[ORDER0 + i]
        if not (mask >> p) & 1:
            continue
        cur = empty_buffer(game, cur_buf)
        for j in range(done):   # p's roll: each BANG count with its probability
            for b in range(tops[p] + 1):
                if laws[p, b] > 0.0:
                    cur = merge_in(game, cur_buf, cur, game.walk[done_buf, j], b,
                                   game.walk_w[done_buf, j] * laws[p, b], game.walk_acc[done_buf, j], laws[p, b], zero)
                    if cur < 0:
                        return False
        done = empty_buffer(game, done_buf)
        while cur > 0:   # one BANG of p's at a time
            nxt = empty_buffer(game, nxt_buf)
            for j in range(cur):
                state[:n_players, :] = game.walk[cur_buf, j, :n_players, :]
                weight, left = game.walk_w[cur_buf, j], game.walk_left[cur_buf, j]
                k = targets_of(game, env, state, fixed, p, tied) if left > 0 else 0
                if k == 0:
                    done = merge_in(game, done_buf, done, state, 0, weight, game.walk_acc[cur_buf, j], 1.0, zero)
                    if done < 0:
                        return False
                    continue
                for t in range(k):
                    child[:n_players, :] = state[:n_players, :]
                    delta[:] = 0.0
                    apply_hit(env, child, delta, fixed, tied[t], p)
                    nxt = merge_in(game, nxt_buf, nxt, child, left - 1, weight / k, game.walk_acc[cur_buf, j],
                                   1.0 / k, delta)
                    if nxt < 0:
                        return False
            cur_buf, nxt_buf = nxt_buf, cur_buf   # the next BANG's states become the current ones
            cur = nxt
    second = env.rp[P_SECOND_ROUND] != 0
    for j in range(done):
        leaf(game, mask, game.walk[done_buf, j], game.walk_acc[done_buf, j], game.walk_w[done_buf, j], total,
             second, out)
    return True


@njit(cache=True)
def sampled_values(game, env, mask, total, laws, tops, fixed, origin, paid, out):
    """The same shoot-out sampled SAMPLES times when the exact walk has more than WALK_CAP
    distinct states at a step (five large crews on one card): the same rolls, aims (ties drawn)
    and hits, from numba's generator seeded by the contest, so the values stay a function of the
    position (standard error about 1/sqrt(SAMPLES) of a shoot-out's spread)."""
    n_players = game.g[N_PLAYERS]
    seed = mask
    for q in range(n_players):
        for f in range(N_F):
            seed = (seed * 1000003 + origin[q, f] + 7 * f) % 2147483647
    np.random.seed(seed)
    second = env.rp[P_SECOND_ROUND] != 0
    tied = np.zeros(MAX_SEATS, np.int64)
    acc = np.zeros(MAX_SEATS)
    for _ in range(SAMPLES):
        state = origin.copy()
        acc[:] = paid
        for i in range(n_players):
            p = game.g[ORDER0 + i]
            if not (mask >> p) & 1:
                continue
            u, b = np.random.random(), 0
            while b < tops[p] and u >= laws[p, b]:
                u -= laws[p, b]
                b += 1
            for _ in range(b):
                k = targets_of(game, env, state, fixed, p, tied)
                if k == 0:
                    break
                apply_hit(env, state, acc, fixed, tied[np.random.randint(k)], p)
        leaf(game, mask, state, acc / SAMPLES, 1.0 / SAMPLES, total, second, out)
