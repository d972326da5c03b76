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
and the aiming that follows is deterministic but for ties, so a walk over the shooters in turn
order is exact: from each state the last shooters left, the shooter's BANGs are fired one after
the other (the state after f BANGs is where every roll of exactly f ends; a tie splits the path),
and equal states are merged, their probabilities added (a state is one word a family, so merging
is cheap). Each leaf adds the pieces lost and the spoils of a boss's death (half the
dead boss's bags, a card and a token to its killer, by boss_death.to) to the card's part, the
sequel the engine plays (`sequel_table`, AG-N3): a family left alone takes the card; several
survivors bargain once more, each stating its claim (its bluff and title claims, sim.ag.claims)
over a shoot-out value of 0 (failing now loses the card), and the Nash split gives each its claim
plus an equal part of what the claims leave; claims adding up to more than the card lose it for
all; none left: it is lost. The alternating and offer models' second hourglass is valued by the
same Nash split of the claims. FBI jokers move the FBI pawn, which the bargaining worths do not
count.
"""

import numpy as np

from sim.shared.codes import codes
from numba import njit, types

from sim.ag.env import (
    ENV_DTYPE, DEATH_TO_KILLER, P_BARON_POINTS, P_CAID_POINTS, P_DEATH_RENOWN, P_DEATH_ROUNDING, P_DEATH_TO, P_POWERS,
    P_POWER_PRICE, P_SECOND_ROUND, P_SUCCESSOR, P_VAL_BAG, P_VAL_CARD, P_VAL_OCC, P_VAL_RENOWN, P_VAL_TOKEN,
    P_VAL_WOUND, P_WOUNDS_TO_DIE, ROUND_UP, SUCCESSOR_HENCHMAN, MEMO_F, MEMO_SLOTS, MEMO_W,
)
from sim.ag.claims import stated_level
from sim.ag.decisions import BLUFF_LEVELS
from sim.ag.readers import bang_chance, card_items, recruit_price, titles
from sim.ag.state import (
    GAME_DTYPE, ARMS, ARMS_USED, BARON0, BOSS, CHAIN_DEPTH, HENCH, HENCHMEN, KILLER, KILLERS, MAX_SEATS, MAX_SLOTS, NO,
    N_DISTRICTS, N_PLAYERS, N_TRAFFICS, OCC, ORDER0, RENOWN, SF_WITH, SF_WITHOUT, SHOW0, TOK0, WALK_CAP, WALK_TERMS,
    WON0, WOUNDS, bag_count,
)
from sim.shared.late import late, record
from strategies.ag.params import INDEX

AGGRESSION = INDEX["aggression"]
BAG_RESERVE = INDEX["bag_reserve"]
TIE = 1e-12
# a family's state in the walk, one word a family: each field's lowest bit and its mask (wide enough
# for every count a game reaches: pieces on a card, lives, bags, cards, tokens, renown)
F_OCC, F_HENCH, F_KILLER, F_BOSS, F_LIVES, F_BAGS, F_CARDS, F_TOKENS, F_RENOWN = range(9)
N_F = 9
SHIFT = (0, 4, 8, 12, 13, 16, 28, 34, 40)
MASK = (15, 15, 15, 1, 7, 4095, 63, 63, 1023)
SAMPLES = 400   # shoot-outs sampled when the exact walk is too large (sampled_values)
# what the walk keeps of each family for the whole shoot-out (fixed_terms): title points, its
# henchmen and killers, the recruit prices, whether all its henchmen (killers) are placed with
# none on a later slot, and how many it has on the card at the start
(X_TITLE, X_COUNT_H, X_COUNT_K, X_PRICE_H, X_PRICE_K, X_LAST_H, X_LAST_K, X_START_H, X_START_K) = range(9)
N_X = WALK_TERMS
DONE, AFTER = codes(2)   # the walk's buffers (game.walk): states after the last shooter, after this one


@njit(cache=True)
def worth(env, key):
    return env.rp[key] / 1000.0


@njit(cache=True)
def field(word, f):
    """Field f of a family's word in the walk."""
    return (word >> SHIFT[f]) & MASK[f]


@njit(cache=True)
def plus(word, f, amount):
    """A family's word with `amount` added to its field f (the field stays within its mask). Words,
    not the walk's arrays, go to the small steps: an array passed counts references at each call."""
    return word + (amount << SHIFT[f])


@njit(cache=True)
def worths_of(env):
    """The bargaining worths (negotiation.value_*) the shoot-out reads, in bags: a bag, an
    occasional die, a wound, a renown level, a card, a token. Worked out once a walk: the same
    quotients, not one division at every hit."""
    return (worth(env, P_VAL_BAG), worth(env, P_VAL_OCC), worth(env, P_VAL_WOUND), worth(env, P_VAL_RENOWN),
            worth(env, P_VAL_CARD), worth(env, P_VAL_TOKEN))


@njit(cache=True)
def chances_of(env):
    """The chance of a BANG of a henchman's, a killer's and an occasional die (bang_chance)."""
    return bang_chance(env, HENCH), bang_chance(env, KILLER), bang_chance(env, OCC)


@njit(cache=True)
def aim_worth(env, shooter, threat_q, score_q, wounded_boss_q):
    """AG-N2: how much `shooter` wants to hit a family with this threat (expected BANGs on the
    card now), score and, on the card, a wounded boss (or not)."""
    return aim_of(env.params[shooter, AGGRESSION], threat_q, score_q, wounded_boss_q)


@njit(cache=True, inline="always")
def aim_of(a, threat_q, score_q, wounded_boss_q):
    """aim_worth of a shooter of aggression a."""
    return threat_q + aim_score(a, score_q) + (a if wounded_boss_q else 0.0)


@njit(cache=True, inline="always")
def aim_score(a, score_q):
    """What a family's score adds to its aim worth for a shooter of aggression a."""
    return a * score_q / 3.0


@njit(cache=True)
def cheapest_piece(vals, occ, hench, killer, boss, lives, price_h, price_k, death_cost):
    """AG-N2: the piece a victim with these members on the card gives up: the cheapest at the
    bargaining worths (vals, worths_of), ties in the order occasional, henchman, killer, boss."""
    bag, v_occ, v_wound = vals[0], vals[1], vals[2]
    best, piece = 1e18, -1
    if occ > 0:
        best, piece = v_occ, OCC
    if hench > 0 and price_h * bag < best - TIE:
        best, piece = price_h * bag, HENCH
    if killer > 0 and price_k * bag < best - TIE:
        best, piece = price_k * bag, KILLER
    if boss > 0:
        cost = v_wound if lives > 1 else death_cost
        if cost < best - TIE:
            piece = BOSS
    return piece


@njit(cache=True)
def death_terms(env, vals, bags, cards, tokens, renown_worth, member_cost):
    """AG-K4: (what a boss's death costs its family, what its killer takes), in bags (vals:
    worths_of)."""
    half = (bags + 1) // 2 if env.rp[P_DEATH_ROUNDING] == ROUND_UP else bags // 2
    spoils = half * vals[0]
    if cards > 0:
        spoils += vals[4]
    if tokens > 0:
        spoils += vals[5]
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
    return death_terms(env, worths_of(env), bag_count(game, q), cards, tokens, renown, member)[0]


@njit(cache=True)
def hit_choice(game, env, slot, q):
    """The engine's victim q on the slot: the piece it gives up (cheapest_piece)."""
    lives = env.rp[P_WOUNDS_TO_DIE] - game.pl[q, WOUNDS]
    return cheapest_piece(worths_of(env), game.at[slot, q, OCC], game.at[slot, q, HENCH], game.at[slot, q, KILLER],
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
    with_it, without = game.settle_f[SF_WITH], game.settle_f[SF_WITHOUT]   # written whole
    shootout_values_late(game, env, slot, mask, total, q, with_it)
    shootout_values_late(game, env, slot, mask, total, NO, without)
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
    """state[q]: family q's word at the start of the shoot-out (0 for the families not in it)."""
    for q in range(game.g[N_PLAYERS]):
        state[q] = 0
        if not (mask >> q) & 1:
            continue
        cards, tokens = 0, 0
        for d in range(N_DISTRICTS):
            cards += game.pl[q, WON0 + d]
        for t in range(N_TRAFFICS):
            tokens += game.pl[q, TOK0 + t]
        state[q] = ((game.at[slot, q, OCC] << SHIFT[F_OCC]) | (game.at[slot, q, HENCH] << SHIFT[F_HENCH])
                    | (game.at[slot, q, KILLER] << SHIFT[F_KILLER]) | (game.at[slot, q, BOSS] << SHIFT[F_BOSS])
                    | ((env.rp[P_WOUNDS_TO_DIE] - game.pl[q, WOUNDS]) << SHIFT[F_LIVES])
                    | (bag_count(game, q) << SHIFT[F_BAGS]) | (cards << SHIFT[F_CARDS])
                    | (tokens << SHIFT[F_TOKENS]) | (game.pl[q, RENOWN] << SHIFT[F_RENOWN]))


@njit(cache=True)
def on_card(w):
    """The pieces on the card of a family with this word."""
    return (w & 15) + ((w >> 4) & 15) + ((w >> 8) & 15) + ((w >> 12) & 1)


@njit(cache=True)
def fixed_terms(game, env, slot, mask, fixed):
    """fixed[q, X_*]: what the walk keeps of family q for the whole shoot-out (the X_* columns)."""
    for q in range(game.g[N_PLAYERS]):
        if (mask >> q) & 1:
            barons, caids = titles(game, q)
            fixed[q, X_TITLE] = env.rp[P_BARON_POINTS] * barons + env.rp[P_CAID_POINTS] * caids
            fixed[q, X_COUNT_H], fixed[q, X_COUNT_K] = game.pl[q, HENCHMEN], game.pl[q, KILLERS]
            fixed[q, X_LAST_H] = 1 if successor_from_slot(game, q, slot, HENCH) else 0
            fixed[q, X_LAST_K] = 1 if successor_from_slot(game, q, slot, KILLER) else 0
            fixed[q, X_START_H], fixed[q, X_START_K] = game.at[slot, q, HENCH], game.at[slot, q, KILLER]
    for q in range(MAX_SEATS):
        fixed[q, X_PRICE_H] = recruit_price(game, env, HENCH)
        fixed[q, X_PRICE_K] = recruit_price(game, env, KILLER)


# The steps of a shooter's chain are inlined into it (numba's inline="always"), and the chain into the
# walk: a call passing the walk's arrays counts references to each at entry and exit, a third of what
# a chain's step costs (and a chain, some 15 a contest, takes a dozen arrays).
@njit(cache=True, inline="always")
def successor_now(env, w, fixed, q):
    """AG-K4 ruling, at a boss's death in the walk (family q's word w): the kind of member that
    takes its place (HENCH, KILLER or -1) and whether it is taken off this card, as the engine
    asks them then (successor_kind, successor_from_slot): its members less those lost on the
    card so far; losses there leave "all placed, none later" as it was."""
    if env.rp[P_SUCCESSOR] != SUCCESSOR_HENCHMAN:
        return -1, False
    if fixed[q, X_COUNT_H] - (fixed[q, X_START_H] - field(w, F_HENCH)) > 0:
        return HENCH, fixed[q, X_LAST_H] == 1 and field(w, F_HENCH) > 0
    if fixed[q, X_COUNT_K] - (fixed[q, X_START_K] - field(w, F_KILLER)) > 0:
        return KILLER, fixed[q, X_LAST_K] == 1 and field(w, F_KILLER) > 0
    return -1, False


@njit(cache=True, inline="always")
def apply_hit(env, vals, state, acc, fixed, q, shooter):
    """The victim q gives up its cheapest piece; acc[.] takes the worths lost and won (vals:
    worths_of). The boss's death is priced only when it is the boss's last life (cheapest_piece
    reads it then)."""
    bag = vals[0]
    price_h, price_k = fixed[q, X_PRICE_H], fixed[q, X_PRICE_K]
    w = state[q]
    cost, spoils, kind, from_card = 0.0, 0.0, -1, False
    if field(w, F_BOSS) > 0 and field(w, F_LIVES) <= 1:
        kind, from_card = successor_now(env, w, fixed, q)
        member = 0.0
        if kind == HENCH:
            member = price_h * bag
        elif kind == KILLER:
            member = price_k * bag
        renown = min(env.rp[P_DEATH_RENOWN], field(w, F_RENOWN)) * vals[3]
        cost, spoils = death_terms(env, vals, field(w, F_BAGS), field(w, F_CARDS), field(w, F_TOKENS), renown,
                                   member)
    piece = cheapest_piece(vals, field(w, F_OCC), field(w, F_HENCH), field(w, F_KILLER), field(w, F_BOSS),
                           field(w, F_LIVES), price_h, price_k, cost)
    if piece == OCC:
        state[q] = plus(state[q], F_OCC, -1)
        acc[q] -= vals[1]
    elif piece == HENCH:
        state[q] = plus(state[q], F_HENCH, -1)
        acc[q] -= price_h * bag
    elif piece == KILLER:
        state[q] = plus(state[q], F_KILLER, -1)
        acc[q] -= price_k * bag
    elif field(w, F_LIVES) > 1:
        state[q] = plus(state[q], F_LIVES, -1)
        acc[q] -= vals[2]
    else:
        boss_dies(env, state, acc, q, shooter, cost, spoils, kind, from_card)


@njit(cache=True, inline="always")
def boss_dies(env, state, acc, q, shooter, cost, spoils, successor, from_card):
    w = state[q]
    bags, renown = field(w, F_BAGS), field(w, F_RENOWN)
    half = (bags + 1) // 2 if env.rp[P_DEATH_ROUNDING] == ROUND_UP else bags // 2
    acc[q] -= cost
    state[q] = plus(state[q], F_BOSS, -1)
    state[q] = plus(state[q], F_LIVES, env.rp[P_WOUNDS_TO_DIE] - field(w, F_LIVES))
    state[q] = plus(state[q], F_BAGS, -half)
    state[q] = plus(state[q], F_RENOWN, max(0, renown - env.rp[P_DEATH_RENOWN]) - renown)
    had_card, had_token = field(w, F_CARDS) > 0, field(w, F_TOKENS) > 0
    state[q] = plus(state[q], F_CARDS, -1 if had_card else 0)
    state[q] = plus(state[q], F_TOKENS, -1 if had_token else 0)
    if from_card:   # the member that takes the boss's place leaves this card
        state[q] = plus(state[q], F_HENCH if successor == HENCH else F_KILLER, -1)
    if env.rp[P_DEATH_TO] == DEATH_TO_KILLER:
        acc[shooter] += spoils
        state[shooter] = plus(state[shooter], F_BAGS, half)
        state[shooter] = plus(state[shooter], F_CARDS, 1 if had_card else 0)
        state[shooter] = plus(state[shooter], F_TOKENS, 1 if had_token else 0)


@njit(cache=True)
def forget_aims(game):
    """A new shooter: what no family's score adds to its aim worth is known (targets_of)."""
    for q in range(MAX_SEATS):
        game.walk_aim_w[q] = -1


@njit(cache=True, inline="always")
def targets_of(game, env, state, fixed, shooter, tied, chances, a):
    """tied[0 .. k-1]: the families the shooter's next BANG may go to (the best by aim_worth,
    all of them on an exact tie; chances: chances_of, a: the shooter's aggression); returns k (0:
    nobody left on the card to shoot). What a family's score adds (aim_score, a division) is kept
    with its renown (game.walk_aim_*, cleared by forget_aims for each shooter) and read back while
    its renown is the same, as it is until its boss dies: the same value, worked out once."""
    bh, bk, bo = chances
    to_die = env.rp[P_WOUNDS_TO_DIE]
    best, k = -1e18, 0
    for q in range(game.g[N_PLAYERS]):
        if q == shooter or on_card(state[q]) == 0:
            continue
        w = state[q]
        renown = field(w, F_RENOWN)
        if game.walk_aim_w[q] != renown:
            game.walk_aim_w[q], game.walk_aim_v[q] = renown, aim_score(a, renown + fixed[q, X_TITLE])
        threat_q = field(w, F_HENCH) * bh + field(w, F_KILLER) * bk + field(w, F_OCC) * bo
        wounded = field(w, F_BOSS) > 0 and field(w, F_LIVES) < to_die
        value = threat_q + game.walk_aim_v[q] + (a if wounded else 0.0)   # aim_of, its score's part kept
        if value > best + TIE:
            best, k = value, 0
        if value > best - TIE:
            tied[k] = q
            k += 1
    return k


@njit(cache=True)
def claim_levels(game, env, slot, mask):
    """The claim levels the families of `mask` would state on the slot's card, 3 bits a seat
    (sim.ag.claims.stated_level): part of a contest's key, and what sequel_table reads."""
    card = game.g[SHOW0 + slot]
    levels = 0
    for q in range(game.g[N_PLAYERS]):
        if (mask >> q) & 1:
            levels |= stated_level(game, env, q, card) << (3 * q)
    return levels


@njit(cache=True)
def sequel_part(game, levels, survivors, q, total, second):
    """What family q takes of the card when the shoot-out leaves the families of `survivors` on it
    (the module doc, AG-N3): alone, the card; several, its claim (levels, claim_levels) plus an
    equal part of what the claims leave, when the second round is played (`second`) and the claims
    leave something; else nothing."""
    count, claimed = 0, 0.0
    for j in range(game.g[N_PLAYERS]):
        if (survivors >> j) & 1:
            count += 1
            claimed += BLUFF_LEVELS[(levels >> (3 * j)) & 7] * total
    if count == 1:
        return total
    if not second or claimed > total + 1e-9:
        return 0.0
    return BLUFF_LEVELS[(levels >> (3 * q)) & 7] * total + (total - claimed) / count


@njit(cache=True)
def sequel_table(game, env, mask, total, levels, table):
    """table[s, q] = sequel_part for every set s of survivors within `mask` and q in it (the walk
    reads it at every leaf)."""
    second = env.rp[P_SECOND_ROUND] != 0
    table[:, :] = 0.0
    s = mask
    while s > 0:   # every non-empty subset of mask
        for q in range(game.g[N_PLAYERS]):
            if (s >> q) & 1:
                table[s, q] = sequel_part(game, levels, s, q, total, second)
        s = (s - 1) & mask


@njit(cache=True, inline="always")
def leaf(game, mask, state, wacc, weight, sequel, out):
    """A leaf of the walk: every family's worths, and its part of the card by who is left on it
    (sequel_table)."""
    survivors = 0
    for q in range(game.g[N_PLAYERS]):
        if (mask >> q) & 1 and on_card(state[q]) > 0:
            survivors |= 1 << q
    for q in range(game.g[N_PLAYERS]):
        if (mask >> q) & 1:
            out[q] += weight * sequel[survivors, q] + wacc[q]


@njit(cache=True)
def state_hash(state, n):
    h = 1
    for q in range(n):
        h = (h * 1000003 + (state[q] ^ (state[q] >> 29))) & 0xFFFFFFFFFFFF
    return fold(h)


@njit(cache=True)
def fold(h):
    """A hash's high bits folded onto its low ones, which pick the table's cell: the low bits of a
    sum of products by an odd number depend on the low bits of its terms alone."""
    return h ^ (h >> 17) ^ (h >> 31)


@njit(cache=True, inline="always")
def same_state(game, buf, j, state, n):
    for q in range(n):
        if game.walk[buf, j, q] != state[q]:
            return False
    return True


@njit(cache=True)
def empty_buffer(game, buf):
    """Empty a buffer of the walk: a new stamp makes every cell of its hash table stale, so no
    table is cleared between the walk's steps."""
    game.walk_stamp[buf] += 1
    return 0


@njit(cache=True, inline="always")
def merge_in(game, buf, size, state, weight, wacc, scale, delta):
    """Add a state of the walk to buffer `buf` (game.walk*), merged with an equal one (found by
    its hash): its probability, and its probability-weighted worths wacc * scale + weight *
    delta. Returns the buffer's new size, -1 when it is full."""
    n = game.g[N_PLAYERS]
    cells = 2 * WALK_CAP
    stamp = game.walk_stamp[buf] << 16
    cell = state_hash(state, n) % cells
    while game.walk_slot[buf, cell] > stamp:
        j = game.walk_slot[buf, cell] - stamp - 1
        if same_state(game, buf, j, state, n):
            game.walk_w[buf, j] += weight
            for q in range(n):
                game.walk_acc[buf, j, q] += wacc[q] * scale + weight * delta[q]
            return size
        cell = (cell + 1) % cells
    if size == WALK_CAP:
        return -1   # full: the caller samples the shoot-out instead (sampled_values)
    game.walk_slot[buf, cell] = stamp + size + 1
    for q in range(n):   # word by word: a slice copy calls a helper that counts both arrays' references
        game.walk[buf, size, q] = state[q]
    game.walk_w[buf, size] = weight
    for q in range(n):
        game.walk_acc[buf, size, q] = wacc[q] * scale + weight * delta[q]
    return size + 1


@njit(cache=True)
def shootout_values(game, env, slot, mask, total, out):
    """out[q]: family q's exact expected outcome, in bags, of the shoot-out the engine would play
    on the slot between the families of `mask` over a card worth `total` (see the module doc);
    0 for the families not in it. The walk goes shooter by shooter in turn order and BANG by BANG;
    equal states reached by different paths are merged, their probabilities added and their worths
    carried probability-weighted (the values are linear)."""
    shootout_values_late(game, env, slot, mask, total, arms_user(game, env, slot, mask), out)


@njit(cache=True)
def shootout_values_with(game, env, slot, mask, total, converted, out):
    """shootout_values with the Arms power's user given (`converted`, or NO). A contest already
    walked under this env is read back from its table (`recall`): the same key, the same value."""
    fixed = game.walk_fixed
    fixed[:, :] = 0
    fixed_terms(game, env, slot, mask, fixed)
    state = game.walk_start
    start_state(game, env, slot, mask, state)
    key, fkey = game.walk_key, game.walk_fkey
    key[:], fkey[:] = 0, 0.0
    levels = claim_levels(game, env, slot, mask)
    cell = walk_key(game, env, mask, total, converted, levels, state, fixed, key, fkey)
    if recall(env, cell, key, fkey, out):
        return
    sequel = game.walk_sequel
    sequel_table(game, env, mask, total, levels, sequel)
    values = game.walk_out
    walked_values(game, env, slot, mask, converted)
    out[:] = values
    env.memo_key[cell, :] = key
    env.memo_fkey[cell, :] = fkey
    env.memo_val[cell, :] = values


@njit(cache=True)
def walk_key(game, env, mask, total, converted, levels, state, fixed, key, fkey):
    """key, fkey: everything the walk reads of a contest: who is on the card and the shooting
    order; each family's pieces there, lives, bags, cards, tokens, renown, title points,
    successor and aggression (aim_worth); the Arms power's user and whether it pays; the claims
    of the second hourglass (claim_levels); the recruit prices and the card's worth. Returns the
    contest's slot in the table."""
    n = game.g[N_PLAYERS]
    order = 0
    for i in range(n):
        order = order * 8 + game.g[ORDER0 + i]
    pays = 1 if converted != NO and game.g[BARON0 + ARMS] != converted else 0
    key[0] = mask | (n << 8) | (order << 12)   # never 0: an empty slot matches nothing
    key[1] = (converted + 1) | (pays << 8) | (levels << 16)
    key[2] = fixed[0, X_PRICE_H] | (fixed[0, X_PRICE_K] << 20)
    fkey[0] = total
    h = 0
    for q in range(n):
        if (mask >> q) & 1:
            key[3 + 2 * q] = state[q]
            key[4 + 2 * q] = (fixed[q, X_TITLE] | (fixed[q, X_COUNT_H] << 24) | (fixed[q, X_COUNT_K] << 32)
                              | (fixed[q, X_LAST_H] << 40) | (fixed[q, X_LAST_K] << 41))
            fkey[1 + q] = env.params[q, AGGRESSION]
    for w in range(MEMO_W):
        x = key[w]
        h = (h * 1000003 + ((x ^ (x >> 29)) & 0xFFFFFFF)) & 0xFFFFFFFFFF
    for w in range(MEMO_F):
        h = (h * 1000003 + int(fkey[w] * 1000.0)) & 0xFFFFFFFFFF
    return fold(h) & (MEMO_SLOTS - 1)


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
def walked_values(game, env, slot, mask, converted):
    """game.walk_out: the exact walk of the contest (sampled when it is too large), from the terms
    kept, the start and the sequel table shootout_values_with put in the record."""
    fixed, state, sequel, out = game.walk_fixed, game.walk_start, game.walk_sequel, game.walk_out
    n_players = game.g[N_PLAYERS]
    out[:] = 0.0
    laws = game.walk_laws
    laws[:, :] = 0.0
    tops = game.walk_tops
    tops[:] = 0
    for q in range(n_players):
        if (mask >> q) & 1:
            tops[q] = bang_law(env, game.at[slot, q, HENCH], game.at[slot, q, KILLER], game.at[slot, q, OCC],
                               1 if q == converted else 0, laws[q])
    delta = game.walk_paid[0]   # worths paid before the rolls: the Arms power's price
    delta[:] = 0.0
    if converted != NO and game.g[BARON0 + ARMS] != converted:   # the buyer pays the price
        delta[converted] = -env.rp[P_POWER_PRICE] * worth(env, P_VAL_BAG)
    if walk(game, env, mask):   # the walk reads all the above from the record (game.walk_*)
        return
    out[:] = 0.0
    sampled_values(game, env, mask, sequel, laws, tops, fixed, state, delta, out)


@njit(cache=True)
def walk(game, env, mask):
    """The exact walk of shootout_values; False when its buffers fill (too many distinct states).
    Two buffers take turns: the states after the last shooter (done) and after this one (after).
    From each done state the shooter's BANGs are fired one after the other (`fire_chain`): the
    state after f BANGs is where every roll of exactly f ends, so one chain serves all its rolls.
    It reads its terms from the record (walked_values' laws, most BANGs, worths paid and values,
    shootout_values_with's terms kept, start and sequel table): an array passed to it would be
    counted at each chain (the chain is inlined, its arguments are not), one taken from the record
    is not."""
    sequel, laws, tops, fixed = game.walk_sequel, game.walk_laws, game.walk_tops, game.walk_fixed
    state, delta, out = game.walk_start, game.walk_paid[0], game.walk_out
    n_players = game.g[N_PLAYERS]
    zero = game.walk_paid[1]
    zero[:] = 0.0
    done_buf, after_buf = DONE, AFTER
    done = merge_in(game, done_buf, empty_buffer(game, done_buf), state, 1.0, zero, 0.0, delta)
    tail = game.walk_tail
    tail[:] = 0.0
    stack, stack_f, stack_m, stack_d, tied = game.chain, game.chain_f, game.chain_m, game.chain_d, game.chain_tied
    last = -1
    for i in range(n_players):
        if (mask >> game.g[ORDER0 + i]) & 1:
            last = i
    vals, chances = worths_of(env), chances_of(env)
    for i in range(last + 1):
        p = game.g[ORDER0 + i]
        if not (mask >> p) & 1:
            continue
        forget_aims(game)
        tail[tops[p] + 1] = 0.0
        for b in range(tops[p], -1, -1):   # tail[f]: P(at least f BANGs)
            tail[b] = tail[b + 1] + laws[p, b]
        after = empty_buffer(game, after_buf)
        for j in range(done):
            after = fire_chain(game, env, p, laws[p], tail, tops[p], fixed, done_buf, j, after_buf, after,
                               stack, stack_f, stack_m, stack_d, tied, i == last, mask, sequel, out, vals,
                               chances)
            if after < 0:
                return False
        done_buf, after_buf = after_buf, done_buf
        done = after
    return True


@njit(cache=True, inline="always")
def fire_chain(game, env, p, law, tail, top, fixed, done_buf, j, after_buf, after, stack, stack_f, stack_m,
               stack_d, tied, last, mask, sequel, out, vals, chances):
    """Shooter p's roll from done state j: depth first over the BANGs fired one by one (an aim
    tie splits the path equally between the tied targets), each state after f BANGs merged into
    the `after` buffer with the chance the roll is exactly f (at least f when nobody is left to
    shoot); after the `last` shooter it is a leaf of the walk, added to `out` at once (vals:
    worths_of, chances: chances_of). Returns the buffer's new size, -1 when it (or the stack) is
    full."""
    n = game.g[N_PLAYERS]
    a = env.params[p, AGGRESSION]
    weight, wacc = game.walk_w[done_buf, j], game.walk_acc[done_buf, j]
    ended = game.walk_ended
    ended[:] = 0.0
    for q in range(n):   # word by word, as merge_in copies
        stack[0, q] = game.walk[done_buf, j, q]
    stack_f[0], stack_m[0] = 0, 1.0
    stack_d[0, :] = 0.0
    depth = 1
    while depth > 0:
        depth -= 1
        f, m = stack_f[depth], stack_m[depth]
        k = targets_of(game, env, stack[depth], fixed, p, tied, chances, a) if f < top else 0
        chance = law[f] if k > 0 else tail[f]
        if chance > 0.0 and last:
            for q in range(n):
                ended[q] = wacc[q] * m * chance + weight * m * chance * stack_d[depth, q]
            leaf(game, mask, stack[depth], ended, weight * m * chance, sequel, out)
        elif chance > 0.0:
            after = merge_in(game, after_buf, after, stack[depth], weight * m * chance, wacc, m * chance,
                             stack_d[depth])
            if after < 0:
                return -1
        if k == 0:
            continue
        if depth + k > CHAIN_DEPTH:
            return -1
        for t in range(k - 1, -1, -1):   # the children overwrite the popped entry: copy it to the last first
            c = depth + t
            if t > 0:
                for q in range(MAX_SEATS):
                    stack[c, q] = stack[depth, q]
                    stack_d[c, q] = stack_d[depth, q]
        share = m / k if k > 1 else m   # m / 1 is m
        for t in range(k):
            c = depth + t
            stack_f[c], stack_m[c] = f + 1, share
            apply_hit(env, vals, stack[c], stack_d[c], fixed, tied[t], p)
        depth += k
    return after


@njit(cache=True)
def sampled_values(game, env, mask, sequel, laws, tops, fixed, origin, paid, out):
    """The same shoot-out sampled SAMPLES times when the exact walk has more than WALK_CAP
    distinct states at a step (five large crews on one card): the same rolls, aims (ties drawn)
    and hits, from numba's generator seeded by the contest, so the values stay a function of the
    position (standard error about 1/sqrt(SAMPLES) of a shoot-out's spread)."""
    n_players = game.g[N_PLAYERS]
    seed = mask
    for q in range(n_players):
        for f in range(N_F):
            seed = (seed * 1000003 + field(origin[q], f) + 7 * f) % 2147483647
    np.random.seed(seed)
    tied = np.zeros(MAX_SEATS, np.int64)
    acc = np.zeros(MAX_SEATS)
    vals, chances = worths_of(env), chances_of(env)
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
            forget_aims(game)
            for _ in range(b):
                k = targets_of(game, env, state, fixed, p, tied, chances, env.params[p, AGGRESSION])
                if k == 0:
                    break
                apply_hit(env, vals, state, acc, fixed, tied[np.random.randint(k)], p)
        leaf(game, mask, state, acc / SAMPLES, 1.0 / SAMPLES, sequel, out)


# The walk compiled once and called by symbol (sim.shared.late): its callers, the threat models of
# the rules' negotiation and of the players' placement and the Arms power's price, each linked a
# copy of it into their code, re-optimised at each level of the bargain above them.
shootout_values_late = late(shootout_values_with, (record(GAME_DTYPE), record(ENV_DTYPE), types.int64, types.int64,
                                                  types.float64, types.int64, types.float64[::1]))
