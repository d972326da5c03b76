"""The American Gangsters policies behind the decision interface.

- `random` picks uniformly among the legal options;
- `parametric` is a heuristic family steered by 20 parameters (PARAM_NAMES): how it values renown,
  bags, tokens, cards, occasional henchmen and FBI steps, its greed, acceptance, patience and bluff
  in bargaining (AG-N), its aggression, caution, thrift, interest in titles, care for its boss,
  nerve, bids, and a study knob that keeps the boss home.
  The presets in strategies/ag/presets/*.toml are knob sets of it; `simple` is its defaults;
- `learned` takes the best option of a conditional logit over option features whose first is the
  `parametric` pick (strategies.ag.learned; its weights in env.learned);
- `script` answers the option indices queued in the game record (scenario tests).

A policy sees the game as a player at the table would: its own profile, never another family's.
"""

import numpy as np
from numba import njit

from sim.ag.decisions import (
    BLUFF_LEVELS, CTX_DECISION, CTX_MASK, CTX_NEXT, CTX_OFFER, CTX_PIECE, CTX_POWER, CTX_REST_H, CTX_REST_K,
    CTX_REST_O, CTX_ROUND, CTX_SLOT, CTX_THREAT, CTX_TOTAL, D_ACCEPT, D_BID, D_CLAIM, D_BUY, D_DRUGS,
    D_DUEL, D_GIVE_CARD, D_GIVE_TOKEN, D_HIT, D_HOSPITAL, D_MOVE, D_OFFER, D_PLACE, D_ROULETTE,
    D_REROLL, D_SHOOT, D_STEAL, D_TRADE, N_LEVELS, OP_BUY_RENOWN, OP_HEAL, OP_MOVE, OP_PULL, OP_RECRUIT,
    OP_SEAT, OP_SELL_BAGS, OP_SELL_HENCH, OP_YES, POWER_ARMS,
)
from sim.ag.env import (
    P_BARON_POINTS, P_BUY_BAGS, P_CAID_POINTS, P_HENCHMEN, P_INFORMER_AS_PARRAIN, P_INFORMER_FBI, P_INFORMER_RENOWN,
    P_KILLERS, P_O_FBI, P_PARRAIN, P_POWER_PRICE, P_POWERS, P_REROLL, P_SHARE, P_UNPLACED_BOSS,
    RP_C_DISTRICT, RP_C_FBI, RP_C_TARGET, RP_C_TRAFFIC, SHARE_EQUAL, T_H, T_K, T_O, T_R, MODEL_OFFER,
    MOVE_CARDS, PLACE_SIMULTANEOUS, P_MODEL, P_MOVE_TO, P_PLACEMENT, P_SELL_BAGS,
)
from sim.ag.bargain import expected_share
from sim.ag.claims import claim_bluff, claim_level, title_at_stake
from strategies.ag.belief import CONFLICT, belief, draw_card, planned
from sim.ag.shots import TIE as AIM_TIE, aim_worth, buys_arms, hit_choice
from sim.ag.readers import bang_chance, card_items, recruit_price, score, threat
from sim.ag.state import (
    BARON0, BOSS, CAID0, DRUGS, FBI, GODFATHER, GOODS_KEY, PLAN_GOODS_KEY, HENCH, HENCHMEN, HOSPITAL, IS_INFORMER,
    KILLER, KILLERS, N_PLAYERS, NO, OCC, OCC_READY, OCC_SUPPLY, SCRIPT0, SCRIPT_N,
    SCRIPT_POS, SHOW0, SHOW_N, S_POLICY0, TOK0, TURN, WON0, WOUNDS, bag_count, pieces_at,
)
from sim.rng import below_of
from sim.rules.ag.content import MAX_TARGET
from strategies.ag import params
from strategies.ag.learned import N_VALUES, V_CHANCE, V_HAS, V_SHARE, V_WORTH, learned_pick

RANDOM, PARAMETRIC, LEARNED, SCRIPT = 0, 1, 2, 3
POLICY_KINDS = ("random", "parametric", "learned", "script")

PARAM_NAMES = params.NAMES   # the knobs, their ranges and defaults: strategies.ag.params
(VAL_RENOWN, VAL_BAG, VAL_TOKEN, VAL_CARD, VAL_OCC, VAL_FBI_MAFIA, VAL_FBI_INFORMER, GREED, ACCEPT,
 AGGRESSION, MIN_CHANCE, BAG_RESERVE, TITLE_WEIGHT, HEAL, NERVE, BID_FRACTION, PATIENCE, BLUFF, FORESIGHT,
 BOSS_HOME) = range(20)
# greed: the proposer's shading of its offers (offer and alternating models); accept: the share of
# its fair share a family accepts (offer model); patience: how much of what the next offer would
# give it a family gives up nothing for (alternating model); bluff: what a family adds to its
# shoot-out value when it states its terms, as a fraction of the card's worth (Nash and
# alternating models); bid_fraction: the share of the auction prize's worth it bids (AG-V1);
# foresight: how placement forecasts a bargain (a study knob): below SHARES_BELOW by threat shares,
# from EXACT_FROM by the rule's own disagreement values, between by the fixed-aim values;
# boss_home: the probability that the family keeps its boss home in a turn (AG-T3), whatever it
# would gain elsewhere: a study knob (home never beats the hospital), 0 in every preset
# the `simple` policy: a plain, middle-of-the-road player, dealt the informer it plays as mafia
SHARES_BELOW, EXACT_FROM = 1.0 / 3.0, 2.0 / 3.0   # the foresight knob's three levels
LEAD = 0.5       # worth kept of a card that needs a family still to place to join (it may not)
DEFAULTS = np.array(params.DEFAULTS)


@njit(cache=True)
def choose(game, env, p, opts, n, ctx):
    """Seat p's policy picks one of the n options; the decision kind is ctx[CTX_DECISION]."""
    kind = env.kinds[p]
    if kind == PARAMETRIC:
        return parametric(game, env, p, ctx[CTX_DECISION], opts, n, ctx)
    if kind == LEARNED:  # the learned logit over the options, the heuristic's pick one feature
        base = parametric(game, env, p, ctx[CTX_DECISION], opts, n, ctx)
        if n <= 1:
            return base
        vals = np.empty((n, N_VALUES))
        option_values(game, env, p, ctx[CTX_DECISION], opts, n, ctx, vals)
        return learned_pick(game, env, p, ctx[CTX_DECISION], opts, n, ctx, base, vals)
    if kind == SCRIPT:
        return scripted(game, n)
    return below_of(game.rng, S_POLICY0 + p, n)


@njit(cache=True)
def scripted(game, n):
    """The next queued option index (0 once the script is exhausted)."""
    g = game.g
    if g[SCRIPT_POS] >= g[SCRIPT_N]:
        return 0
    k = g[SCRIPT0 + g[SCRIPT_POS]]
    g[SCRIPT_POS] += 1
    return k


# --- what things are worth to a family ---------------------------------------------------------------

@njit(cache=True)
def fbi_worth(game, env, p):
    """Worth of one FBI step. An informer that plays its role (val_fbi_informer > 0) wants the pawn
    up to its space (AG-G2) and no further, twice as much once its own renown is nearly there; a
    mafia family, or an informer playing as one, fears it more as it nears the informer's space."""
    w = env.params[p]
    if plays_informer(game, env, p):
        if game.g[FBI] >= env.rp[P_INFORMER_FBI]:
            return 0.0
        close = score(game, env, p) + 1 >= env.rp[P_INFORMER_RENOWN]
        return w[VAL_FBI_INFORMER] * (2.0 if close else 1.0)
    return w[VAL_FBI_MAFIA] * (1.0 + game.g[FBI] / max(env.rp[P_INFORMER_FBI], 1))


@njit(cache=True)
def plays_informer(game, env, p):
    """Dealt the informer's profile, minded to play it (val_fbi_informer > 0), and the informer's
    win is no further than the Parrain's (AG-G2 against AG-G1): the renown it still needs for
    the informer's space, or the FBI pawn's steps to it, whichever is more, against the renown
    still needed for the Parrain. A family whose mafia win is nearer plays as mafia, when the
    ruling lets an informer be Parrain at all (end.informer_as_parrain; by default it does not,
    and the informer's own win is its only one)."""
    if game.pl[p, IS_INFORMER] != 1 or env.params[p, VAL_FBI_INFORMER] <= 0.0:
        return False
    if not env.rp[P_INFORMER_AS_PARRAIN]:
        return True
    mine = score(game, env, p)
    informer = max(env.rp[P_INFORMER_RENOWN] - mine, env.rp[P_INFORMER_FBI] - game.g[FBI])
    return informer <= env.rp[P_PARRAIN] - mine


@njit(cache=True)
def goods_worth(game, env, p, card):
    """The card's gains (renown, bags, token, card, occasional) as family p values them, titles
    they would win or defend included (AG-T5)."""
    w = env.params[p]
    r, b, t, c, o = card_items(game, env, card)
    worth = r * w[VAL_RENOWN] + b * w[VAL_BAG] + o * w[VAL_OCC]
    if t:
        traffic = env.rp[RP_C_TRAFFIC + card]
        worth += w[VAL_TOKEN]
        if title_at_stake(game, TOK0, traffic, game.g[BARON0 + traffic], p):
            worth += w[TITLE_WEIGHT] * env.rp[P_BARON_POINTS] * w[VAL_RENOWN]
    district = env.rp[RP_C_DISTRICT + card]
    worth += c * w[VAL_CARD]
    if title_at_stake(game, WON0, district, game.g[CAID0 + district], p):
        worth += w[TITLE_WEIGHT] * env.rp[P_CAID_POINTS] * w[VAL_RENOWN]
    return worth


@njit(cache=True)
def tally(game, env, slot, p):
    """What is on a card slot: dice of each kind, bosses, the total threat (expected BANGs, AG-N),
    p's threat, the other families' threat, how many other families, p's pieces."""
    h, k, o, bosses, families, mine = 0, 0, 0, 0, 0, 0
    total, mine_threat = 0.0, 0.0
    bh, bk, bo = bang_chance(env, HENCH), bang_chance(env, KILLER), bang_chance(env, OCC)
    for q in range(game.g[N_PLAYERS]):
        qh, qk = game.at[slot, q, HENCH], game.at[slot, q, KILLER]
        qo, qb = game.at[slot, q, OCC], game.at[slot, q, BOSS]
        h += qh
        k += qk
        o += qo
        bosses += qb
        t = qh * bh + qk * bk + qo * bo
        total += t
        if q == p:
            mine, mine_threat = qh + qk + qo + qb, t
        elif qh + qk + qo + qb > 0:
            families += 1
    return h, k, o, bosses, total, mine_threat, total - mine_threat, families, mine


@njit(cache=True)
def worth_of(env, p, target, goods, fbi, h, k, o, bosses, share, others, mine):
    """(expected worth to p, chance of success) of a card with this crew on it: the chance (exact
    table of sim.ag.odds) times p's expected share of the gains (`share`, see share_on), plus the
    FBI step, plus p's appetite (aggression above one half) or distaste for the other families'
    threat."""
    rerolls = bosses if env.rp[P_REROLL] else 0
    chance = env.success[min(h, T_H), min(k, T_K), min(o, T_O), min(rerolls, T_R), min(target, MAX_TARGET)]
    if mine == 0:
        return chance * fbi, chance
    crowd = (env.params[p, AGGRESSION] - 0.5) * others
    return chance * (share * goods + fbi) + crowd, chance


@njit(cache=True)
def share_on(game, env, p, slot, total, mine_threat, families):
    """The part of the card on `slot` p expects from the bargain with the pieces now there (AG-N).
    Nash and alternating models: the bargaining value itself (sim.ag.bargain.expected_share: the
    shoot-out values as disagreement points, p claiming with its own bluff), so a card is
    judged by what the family can expect to keep of it. The first offer model, or a family whose
    foresight is below SHARES_BELOW: its fair share of the threat (expected BANGs, or equal), cut
    by CONFLICT for each other family (a bargain may fail)."""
    if env.rp[P_MODEL] != MODEL_OFFER and env.params[p, FORESIGHT] >= SHARES_BELOW:
        if families == 0 and pieces_at(game, slot, p) > 0:
            return 1.0   # alone on the card p takes it all (expected_share's first answer, without its claim)
        return bargained_share(game, env, p, slot, game.g[SHOW0 + slot])
    if env.rp[P_SHARE] == SHARE_EQUAL or total <= 0.0:
        share = 1.0 / (families + 1)
    else:
        share = mine_threat / total
    return share * max(0.0, 1.0 - CONFLICT * families)


@njit(cache=True)
def bargained_share(game, env, p, slot, card):
    """sim.ag.bargain.expected_share as p forecasts it: claiming at the level nearest its bluff,
    by the rule's own shoot-out values when its foresight reaches EXACT_FROM."""
    bluff = BLUFF_LEVELS[claim_level(claim_bluff(game, env, p, card), len(BLUFF_LEVELS))]
    return expected_share(game, env, slot, card, p, bluff, env.params[p, FORESIGHT] >= EXACT_FROM)


@njit(cache=True)
def put_crew(game, slot, q, h, k, o, boss, step):
    """Add (step 1) or take back (step -1) pieces of family q on a slot, to weigh a placement."""
    game.at[slot, q, HENCH] += step * h
    game.at[slot, q, KILLER] += step * k
    game.at[slot, q, OCC] += step * o
    game.at[slot, q, BOSS] += step * boss


@njit(cache=True)
def location_worth(game, env, p, slot, fbi_w):
    """Expected worth to p of a card slot as it stands (game.goods must hold p's worths)."""
    card = game.g[SHOW0 + slot]
    h, k, o, bosses, total, mt, ot, families, mine = tally(game, env, slot, p)
    share = share_on(game, env, p, slot, total, mt, families) if mine else 0.0
    worth, _ = worth_of(env, p, env.rp[RP_C_TARGET + card], game.goods[slot], env.rp[RP_C_FBI + card] * fbi_w,
                        h, k, o, bosses, share, ot, mine)
    return worth


@njit(cache=True)
def hospital_worth(game, env, p, piece):
    """AG-H1, AG-B1: the boss heals a wound or recruits a lost die; the Drugs Baron's lone boss
    takes an occasional henchman. Dice at the hospital do nothing (and spoil the Drugs Baron's)."""
    w = env.params[p]
    if piece != BOSS:
        return -0.01
    worth = 4.0 * w[HEAL] if game.pl[p, WOUNDS] > 0 else 0.0
    bags = bag_count(game, p)
    for kind in (HENCH, KILLER):
        have = game.pl[p, HENCHMEN] if kind == HENCH else game.pl[p, KILLERS]
        most = env.rp[P_HENCHMEN] if kind == HENCH else env.rp[P_KILLERS]
        price = recruit_price(game, env, kind)
        if have < most and bags >= price:
            worth = max(worth, 3.0 + (kind == KILLER) * w[AGGRESSION] - price * w[VAL_BAG])
    if game.g[BARON0 + DRUGS] == p and env.rp[P_POWERS] and game.g[OCC_SUPPLY] > 0 \
            and game.at[HOSPITAL, p, HENCH] + game.at[HOSPITAL, p, KILLER] + game.at[HOSPITAL, p, OCC] == 0:
        worth += w[VAL_OCC]
    return worth


@njit(cache=True)
def place(game, env, p, opts, n, ctx):
    """AG-T3: send this piece where the family's remaining crew (this piece, the pieces still to
    place and the boss, placed last) adds the most expected worth: the chance of success times
    what the family can expect to keep of the card by the bargaining rule (share_on). A card the crew cannot take
    alone may be worth leading a coalition on, when another family may join it (coalition_partner,
    weighted by the chance it does); a card still below `min_chance` counts for half (a miss costs
    nothing but the turn). Placing at once (placement.order simultaneous), the crew's card is the one
    its strategy in the turn's placement game drew (card_plan); the hospital and home stay open."""
    piece = ctx[CTX_PIECE]
    w = env.params[p]
    if piece == BOSS and w[BOSS_HOME] > 0.0 and below_of(game.rng, S_POLICY0 + p, 1000) < int(1000 * w[BOSS_HOME]):
        return n - 1  # AG-T3: the boss kept home (the last option, slot NO)
    plan = card_plan(game, env, p) if env.rp[P_PLACEMENT] == PLACE_SIMULTANEOUS else 0
    vals = np.empty((n, N_VALUES))
    place_values(game, env, p, opts, n, ctx, plan, True, vals)
    best, k = -1e18, 0
    for i in range(n):
        if vals[i, V_WORTH] > best + 1e-12:
            best, k = vals[i, V_WORTH], i
    return k


@njit(cache=True)
def place_values(game, env, p, opts, n, ctx, plan, plan_only, vals):
    """vals[i]: (the expected worth `place` gives option i, the card's chance of success and p's
    bargained share of it with the crew there); `plan`: the card slot the crew's strategy drew
    (0: placing in turn). With `plan_only` the other cards are not valued (worth -1e18), as
    `place` plays; without, each card is valued as if the crew's strategy had drawn it (its
    coalition partner the one the belief expects there)."""
    piece = ctx[CTX_PIECE]
    w = env.params[p]
    add_h = ctx[CTX_REST_H] + (piece == HENCH)
    add_k = ctx[CTX_REST_K] + (piece == KILLER)
    add_o = ctx[CTX_REST_O] + (piece == OCC)
    add_boss = 1 if piece == BOSS or game.pl[p, WOUNDS] == 0 else 0
    bh, bk, bo = bang_chance(env, HENCH), bang_chance(env, KILLER), bang_chance(env, OCC)
    add_t = add_h * bh + add_k * bk + add_o * bo
    adds = add_h + add_k + add_o + add_boss
    fbi_w = fbi_worth(game, env, p)
    partner0, join0 = coalition_partner(game, p, plan)   # once: the same for every card but a plan's others
    if plan:   # p's goods of the cards are its row of the turn's (plan_goods: the same worths)
        plan_goods(game, env)
    else:
        goods_of_cards(game, env, p)
    for i in range(n):
        slot = opts[i, 1]
        vals[i, V_CHANCE], vals[i, V_SHARE] = 0.0, 0.0
        if slot == NO:
            worth = -env.rp[P_UNPLACED_BOSS] * w[VAL_RENOWN] if piece == BOSS else 0.0
        elif slot == HOSPITAL:
            worth = hospital_worth(game, env, p, piece)
        elif plan and slot != plan and plan_only:
            worth = -1e18   # AG-T3 simultaneous: the crew goes to the card its strategy drew (card_plan)
        else:
            card = game.g[SHOW0 + slot]
            target = env.rp[RP_C_TARGET + card]
            goods = game.plan_goods[p, slot] if plan else game.goods[slot]
            fbi = env.rp[RP_C_FBI + card] * fbi_w
            if slot != plan and plan:   # valued as if the strategy had drawn this card
                partner, join = coalition_partner(game, p, slot)
            else:
                partner, join = partner0, join0
            ph, pk, po = 0, 0, 0
            if partner >= 0:
                ph, pk, po = game.pl[partner, HENCHMEN], game.pl[partner, KILLERS], game.pl[partner, OCC_READY]
            pt = ph * bh + pk * bk + po * bo
            h, kk, o, b, total, mt, ot, fam, mine = tally(game, env, slot, p)
            share = share_on(game, env, p, slot, total, mt, fam) if mine else 0.0
            before, _ = worth_of(env, p, target, goods, fbi, h, kk, o, b, share, ot, mine)
            boss = add_boss if game.at[slot, p, BOSS] == 0 else 0
            put_crew(game, slot, p, add_h, add_k, add_o, boss, 1)
            share = share_on(game, env, p, slot, total + add_t, mt + add_t, fam)
            vals[i, V_SHARE] = share
            after, chance = worth_of(env, p, target, goods, fbi, h + add_h, kk + add_k, o + add_o, b + add_boss,
                                     share, ot, mine + adds)
            worth = after - before
            if partner >= 0 and chance < w[MIN_CHANCE]:   # lead a coalition a later family may join
                put_crew(game, slot, partner, ph, pk, po, 1, 1)
                share = share_on(game, env, p, slot, total + add_t + pt, mt + add_t, fam + 1)
                put_crew(game, slot, partner, ph, pk, po, 1, -1)
                led, led_chance = worth_of(env, p, target, goods, fbi, h + add_h + ph, kk + add_k + pk,
                                           o + add_o + po, b + add_boss + 1, share, ot + pt, mine + adds)
                worth = max(worth, join * (led - before))
                chance = max(chance, led_chance)
            put_crew(game, slot, p, add_h, add_k, add_o, boss, -1)
            vals[i, V_CHANCE] = chance
            if piece == BOSS and game.pl[p, WOUNDS] > 0:
                worth -= ot * (1.0 - w[AGGRESSION])
            elif piece != BOSS and chance < w[MIN_CHANCE]:
                worth *= 0.5
            if piece == OCC:
                worth += env.rp[P_O_FBI] / 6.0 * fbi_w   # its FBI joker (AG-C11)
        vals[i, V_WORTH] = worth


@njit(cache=True)
def goods_of_cards(game, env, p):
    """game.goods[slot]: each revealed card's gains as p values them. Nothing they depend on
    (titles, tokens, supplies) changes while a family places its pieces, so they are worked out
    once per family and turn."""
    key = game.g[TURN] * 8 + p + 1
    if game.g[GOODS_KEY] == key:
        return
    game.g[GOODS_KEY] = key
    for slot in range(1, game.g[SHOW_N] + 1):
        game.goods[slot] = goods_worth(game, env, p, game.g[SHOW0 + slot])


@njit(cache=True)
def card_plan(game, env, p):
    """AG-T3 simultaneous: the card slot p's crew goes to this turn, drawn once a turn from its
    strategy in the turn's placement game (strategies.ag.belief), worked out from every family's
    goods of the cards (plan_goods) and p's own worth of an FBI step."""
    slot = planned(game, p)
    if slot:
        return slot
    belief(game, env, plan_goods(game, env)[:], p, fbi_worth(game, env, p))   # a plain array: a test's types
    return draw_card(game, p)


@njit(cache=True)
def plan_goods(game, env):
    """game.plan_goods[q, s]: card slot s's goods to every family q (goods_worth), for the turn's
    placement game. They read the cards, supplies and titles, which no placement changes, and the
    families' profiles: worked out once a turn for all the families that place (the key is reset
    when the cards are revealed and when a search re-deals the profiles)."""
    goods = game.plan_goods
    key = game.g[TURN] + 1
    if game.g[PLAN_GOODS_KEY] == key:
        return goods
    game.g[PLAN_GOODS_KEY] = key
    for q in range(game.g[N_PLAYERS]):
        for s in range(1, game.g[SHOW_N] + 1):
            goods[q, s] = goods_worth(game, env, q, game.g[SHOW0 + s])
    return goods


@njit(cache=True)
def coalition_partner(game, p, plan):
    """(the family that may join p's crew on a card, the chance it does), or (NO, 0). Placing in
    turn (plan 0: placement.order sequential) the family with the most dice among those still to
    place, who will see p's crew (strongest_after, counted at LEAD: it may not join). Placing at
    once (AG-T3 simultaneous; plan: the card slot p's crew goes to) no family sees p's crew, and any
    other may be on the card: the one p's belief (strategies.ag.belief, game.belief: the turn's
    placement strategies p worked out) expects to bring the most dice there, with the chance the
    belief gives it."""
    if not plan:
        return strongest_after(game, p), LEAD
    best, chance, most = NO, 0.0, 0.0
    for q in range(game.g[N_PLAYERS]):
        there = game.belief[q, plan]
        dice = there * (game.pl[q, HENCHMEN] + game.pl[q, KILLERS] + game.pl[q, OCC_READY])
        if q != p and there > 0.0 and dice > most:
            best, chance, most = q, there, dice
    return best, chance


@njit(cache=True)
def strongest_after(game, p):
    """The family with the most dice among those placing after p this turn (turn order from the
    godfather, AG-T3), or NO."""
    n = game.g[N_PLAYERS]
    best, most = NO, 0
    for i in range((game.g[GODFATHER] - p - 1) % n):
        q = (p + 1 + i) % n
        dice = game.pl[q, HENCHMEN] + game.pl[q, KILLERS] + game.pl[q, OCC_READY]
        if dice > most:
            best, most = q, dice
    return best


# --- the parametric policy ------------------------------------------------------------------------------

@njit(cache=True)
def parametric(game, env, p, decision, opts, n, ctx):
    w = env.params[p]
    if decision == D_PLACE:
        return place(game, env, p, opts, n, ctx)
    if decision == D_TRADE:
        return trade(game, env, p, opts, n)
    if decision == D_OFFER:
        return min(offer_level(env, p), n - 1)
    if decision == D_ACCEPT:
        if env.rp[P_MODEL] == MODEL_OFFER:
            return 0 if accepts(game, env, p, ctx) else 1
        return 0 if accepts_terms(env, p, ctx) else 1
    if decision == D_CLAIM:
        return claim_level(claim_bluff(game, env, p, game.g[SHOW0 + ctx[CTX_SLOT]]), n)
    if decision == D_SHOOT:
        return shoot_at(game, env, p, opts, n, ctx)
    if decision == D_HIT:
        return take_hit(game, env, p, opts, n, ctx)
    if decision == D_HOSPITAL:
        return at_hospital(game, env, p, opts, n)
    if decision == D_MOVE:
        return best_move(game, env, p, opts, n)
    if decision == D_BUY:
        rich = bag_count(game, p) >= env.rp[P_POWER_PRICE] + w[BAG_RESERVE]
        if ctx[CTX_POWER] == POWER_ARMS:   # AG-B3: the rule the shoot-out values assume
            return pick(opts, n, OP_YES) if buys_arms(game, env, ctx[CTX_SLOT], ctx[CTX_MASK], p) else 0
        else:   # AG-B4: only when a move is worth more to it than the price
            want = best_move_gain(game, env, p) > env.rp[P_POWER_PRICE] * w[VAL_BAG]
        return pick(opts, n, OP_YES) if want and rich else 0
    if decision == D_STEAL:
        return richest(game, p, opts, n)
    if decision == D_BID:
        return min(bid_level(env, p, ctx), n - 1)
    if decision == D_ROULETTE:
        return roulette_move(game, env, p, opts, n, ctx)
    if decision == D_DUEL:
        return duel_target(game, env, p, opts, n)
    if decision == D_DRUGS:
        return 0 if w[VAL_OCC] + env.rp[P_O_FBI] / 6.0 * fbi_worth(game, env, p) > 0 else 1
    if decision == D_GIVE_CARD:
        return least_title(game, opts, n, p, CAID0, WON0)
    if decision == D_GIVE_TOKEN:
        return least_title(game, opts, n, p, BARON0, TOK0)
    if decision == D_REROLL:
        return 0 if reroll_pays(game, env, p, ctx[CTX_SLOT]) else 1
    return 0   # D_ARMS: yes (option 0): a henchman rolled as a killer costs the Baron nothing


@njit(cache=True)
def offer_level(env, p):
    """AG-N1, the offer model: the greed level a proposer offers at (its `greed` knob)."""
    return int(env.params[p, GREED] * (N_LEVELS - 1) + 0.5)


@njit(cache=True)
def bid_level(env, p, ctx):
    """AG-V1: the bags a family bids, a share of what the prize is worth to it."""
    w = env.params[p]
    prize = ctx[CTX_TOTAL] * w[VAL_RENOWN] / max(w[VAL_BAG], 1e-9)
    return int(w[BID_FRACTION] * prize + 0.5)


@njit(cache=True)
def option_values(game, env, p, decision, opts, n, ctx, vals):
    """The heuristic's own value of each option, where it weighs them (strategies.ag.learned reads
    them as features): vals[i] = (worth, higher better; the card's chance; p's bargained share;
    1 if valued). A placement's expected worth (place_values, every card valued); a shot's aim
    (AG-N2), a theft's bags (AG-B2), a duel's target (AG-V3); a claim, offer or bid level: minus
    its distance from the level the heuristic states. Reads nothing the heuristic does not, and
    draws nothing."""
    vals[:n] = 0.0
    if decision == D_PLACE:
        plan = planned(game, p) if env.rp[P_PLACEMENT] == PLACE_SIMULTANEOUS else 0
        place_values(game, env, p, opts, n, ctx, plan, False, vals)
    elif decision == D_CLAIM:
        bluff = claim_bluff(game, env, p, game.g[SHOW0 + ctx[CTX_SLOT]])
        for i in range(n):
            vals[i, V_WORTH] = -abs(BLUFF_LEVELS[min(opts[i, 1], len(BLUFF_LEVELS) - 1)] - bluff)
    elif decision == D_OFFER or decision == D_BID:
        level = offer_level(env, p) if decision == D_OFFER else bid_level(env, p, ctx)
        for i in range(n):
            vals[i, V_WORTH] = -abs(i - level)
    elif decision == D_SHOOT:
        slot = ctx[CTX_SLOT]
        for i in range(n):
            q = opts[i, 1]
            wounded = game.at[slot, q, BOSS] > 0 and game.pl[q, WOUNDS] > 0
            vals[i, V_WORTH] = aim_worth(env, p, threat(game, env, slot, q), score(game, env, q), wounded)
    elif decision == D_STEAL:
        for i in range(n):
            vals[i, V_WORTH] = bag_count(game, opts[i, 1]) if opts[i, 0] == OP_SEAT else 0.0
    elif decision == D_DUEL:
        for i in range(n):
            vals[i, V_WORTH] = duel_worth(game, env, p, opts[i, 1])
    else:
        return
    vals[:n, V_HAS] = 1.0


@njit(cache=True)
def accepts_terms(env, p, ctx):
    """AG-N, alternating model: accept when the offer is worth at least the family's stated value
    (its claim, CTX_THREAT: the shoot-out value raised by its bluff) plus `patience` times what
    the next offer would add to it, in bags. The last offer is taken at the stated value; a
    greedy proposer's offer below it is refused, and the contest fails (AG-N2) when no proposer
    offers enough."""
    w = env.params[p]
    stated, nxt = ctx[CTX_THREAT] / 1000.0, ctx[CTX_NEXT] / 1000.0
    wait = max(nxt - stated, 0.0) * w[PATIENCE]
    return ctx[CTX_OFFER] / 1000.0 >= stated + wait - 1e-3


@njit(cache=True)
def reroll_pays(game, env, p, slot):
    """AG-T4: the boss's re-roll costs nothing but can only help the card succeed, so a family
    asks for it when the card's success is worth something to it: its bargaining value of the
    card among the families there (sim.ag.bargain.expected_share, negative when the shoot-out
    that may follow costs it more than its part) times the card's goods, plus the FBI step."""
    card = game.g[SHOW0 + slot]
    share = bargained_share(game, env, p, slot, card)
    return share * goods_worth(game, env, p, card) + env.rp[RP_C_FBI + card] * fbi_worth(game, env, p) > 0.0


@njit(cache=True)
def pick(opts, n, op):
    for i in range(n):
        if opts[i, 0] == op:
            return i
    return 0


@njit(cache=True)
def goal(game, env, p):
    """The renown this family plays for: the informer's (AG-G2) or the Parrain's (AG-G1)."""
    return env.rp[P_INFORMER_RENOWN] if plays_informer(game, env, p) else env.rp[P_PARRAIN]


@njit(cache=True)
def trade(game, env, p, opts, n):
    """AG-T1: buy a level when it wins or is worth its bags beyond the reserve; give one up for a
    henchman when the family is down to one die or none and cannot pay the hospital."""
    w = env.params[p]
    bags = bag_count(game, p)
    buy = env.rp[P_BUY_BAGS]
    for i in range(n):
        if opts[i, 0] == OP_BUY_RENOWN:
            closing = score(game, env, p) + 1 >= goal(game, env, p)
            worth_it = w[VAL_RENOWN] >= buy * w[VAL_BAG] and bags - buy >= w[BAG_RESERVE]
            if closing or worth_it:
                return i
    dice = game.pl[p, HENCHMEN] + game.pl[p, KILLERS] + game.pl[p, OCC_READY]
    for i in range(n):
        if opts[i, 0] == OP_SELL_HENCH and dice <= 1 and bags < recruit_price(game, env, HENCH):
            return i
    for i in range(n):
        if opts[i, 0] == OP_SELL_BAGS and sale_pays(game, env, p, bags):
            return i
    return 0


@njit(cache=True)
def sale_pays(game, env, p, bags):
    """AG-T1, selling a level for bags pays when the bags buy back a lost killer at the hospital
    this turn that the family cannot pay for now (its henchmen are all there, so a henchman is no
    use), and the level is not needed to win soon."""
    if game.pl[p, KILLERS] >= env.rp[P_KILLERS] or game.pl[p, HENCHMEN] < env.rp[P_HENCHMEN]:
        return False
    price = recruit_price(game, env, KILLER)
    gain = env.rp[P_SELL_BAGS]
    return bags < price <= bags + gain and score(game, env, p) + 2 < goal(game, env, p)


@njit(cache=True)
def accepts(game, env, p, ctx):
    """AG-N1: accept when the offer is worth at least `accept` times the fair share, both valued
    with this family's own worths; after a shoot-out (AG-N3) refusing loses the card for all, so
    half of that is enough."""
    w = env.params[p]
    card = game.g[SHOW0 + ctx[CTX_SLOT]]
    r, b, t, c, o = card_items(game, env, card)
    worths = (w[VAL_RENOWN], w[VAL_BAG], w[VAL_TOKEN], w[VAL_CARD], w[VAL_OCC])
    units = (r, b, t, c, o)
    offer, whole = 0.0, 0.0
    for item in range(5):
        offer += game.alloc[p, item] * worths[item]
        whole += units[item] * worths[item]
    bar = w[ACCEPT] * (0.5 if ctx[CTX_ROUND] > 1 else 1.0)
    return offer >= bar * game.share[p] * whole - 1e-9


@njit(cache=True)
def shoot_at(game, env, p, opts, n, ctx):
    """AG-N2: the family the shared aiming rule picks (sim.ag.shots.aim_worth: the most dangerous,
    the leader for an aggressive one); an exact tie is drawn from p's stream, not given to a seat."""
    slot = ctx[CTX_SLOT]
    best, k, tied = -1e18, 0, 0
    for i in range(n):
        q = opts[i, 1]
        wounded = game.at[slot, q, BOSS] > 0 and game.pl[q, WOUNDS] > 0
        worth = aim_worth(env, p, threat(game, env, slot, q), score(game, env, q), wounded)
        if worth > best + AIM_TIE:
            best, k, tied = worth, i, 1
        elif worth > best - AIM_TIE:
            tied += 1
    if tied > 1:
        j = below_of(game.rng, S_POLICY0 + p, tied)
        for i in range(n):
            q = opts[i, 1]
            wounded = game.at[slot, q, BOSS] > 0 and game.pl[q, WOUNDS] > 0
            if aim_worth(env, p, threat(game, env, slot, q), score(game, env, q), wounded) > best - AIM_TIE:
                if j == 0:
                    return i
                j -= 1
    return k


@njit(cache=True)
def take_hit(game, env, p, opts, n, ctx):
    """AG-N2: give up the cheapest member at the bargaining worths (sim.ag.shots.hit_choice), the
    rule the bargaining model's shoot-out values assume."""
    piece = hit_choice(game, env, ctx[CTX_SLOT], p)
    for i in range(n):
        if opts[i, 1] == piece:
            return i
    return 0


@njit(cache=True)
def at_hospital(game, env, p, opts, n):
    """AG-H1: heal a wound, else recruit the die most wanted (a killer for the aggressive)."""
    w = env.params[p]
    for i in range(n):
        if opts[i, 0] == OP_HEAL and w[HEAL] >= 0.5:
            return i
    best, k = 0.0, 0
    for i in range(n):
        if opts[i, 0] == OP_RECRUIT:
            worth = 1.0 + (opts[i, 1] == KILLER) * (w[AGGRESSION] - 0.5) * 2.0
            if worth > best:
                best, k = worth, i
    if k == 0:
        return pick(opts, n, OP_HEAL)
    return k


@njit(cache=True)
def best_move(game, env, p, opts, n):
    """AG-B4: the move of a henchman that raises this family's expected worth the most (or none).
    Only moves touching a card where the family has pieces can change its share of anything; a
    move's gain is the change where the die leaves plus the change where it arrives, each worked
    out once per card, family and kind of die (game.moved: 0 not yet, else 1 + the change)."""
    best, k = 0.05, 0
    game.g[GOODS_KEY] = 0   # supplies may have changed since placement (AG-B1): work them out again
    goods_of_cards(game, env, p)
    fbi_w = fbi_worth(game, env, p)
    last = game.g[SHOW_N]
    game.moved[:, : last + 1, :, :] = 0.0
    for i in range(n):
        if opts[i, 0] != OP_MOVE:
            continue
        s, q, piece, t = opts[i, 1], opts[i, 2], opts[i, 3], opts[i, 4]
        if pieces_at(game, s, p) + pieces_at(game, t, p) == 0:
            continue
        j = 0 if piece == HENCH else 1
        gain = 0.0
        for side, slot, step in ((0, s, -1), (1, t, 1)):
            if game.moved[side, slot, q, j] == 0.0:
                before = slot_worth(game, env, p, slot, fbi_w)
                game.at[slot, q, piece] += step
                change = slot_worth(game, env, p, slot, fbi_w) - before
                game.at[slot, q, piece] -= step
                game.moved[side, slot, q, j] = 1.0 + change
            gain += game.moved[side, slot, q, j] - 1.0
        if gain > best:
            best, k = gain, i
    return k


@njit(cache=True)
def best_move_gain(game, env, p):
    """AG-B4: the most a henchman move (any family's, not a killer) would add to p's expected
    worth, for deciding whether the power is worth buying; 0 when no move helps."""
    game.g[GOODS_KEY] = 0
    goods_of_cards(game, env, p)
    fbi_w = fbi_worth(game, env, p)
    last = game.g[SHOW_N]
    first = 1 if env.rp[P_MOVE_TO] == MOVE_CARDS else 0
    best = 0.0
    for s in range(last + 1):
        for q in range(game.g[N_PLAYERS]):
            for piece in (HENCH, OCC):
                if game.at[s, q, piece] == 0:
                    continue
                before_s = slot_worth(game, env, p, s, fbi_w)
                game.at[s, q, piece] -= 1
                leave = slot_worth(game, env, p, s, fbi_w) - before_s
                for t in range(first, last + 1):
                    if t == s or pieces_at(game, s, p) + pieces_at(game, t, p) + (q == p) == 0:
                        continue
                    before_t = slot_worth(game, env, p, t, fbi_w)
                    game.at[t, q, piece] += 1
                    gain = leave + slot_worth(game, env, p, t, fbi_w) - before_t
                    game.at[t, q, piece] -= 1
                    best = max(best, gain)
                game.at[s, q, piece] += 1
    return best


@njit(cache=True)
def slot_worth(game, env, p, slot, fbi_w):
    return 0.0 if slot == HOSPITAL else location_worth(game, env, p, slot, fbi_w)


@njit(cache=True)
def richest(game, p, opts, n):
    """AG-B2: a bag from the family with the most bags. Only OP_SEAT rows name a family (the pass
    row's unused 0 is no seat 0); a tie is drawn from p's stream, not given to the lower seat."""
    best, k, tied = 0, 0, 0
    for i in range(n):
        if opts[i, 0] != OP_SEAT:
            continue
        bags = bag_count(game, opts[i, 1])
        if bags > best:
            best, k, tied = bags, i, 1
        elif bags == best and bags > 0:
            tied += 1
    if tied > 1:
        j = below_of(game.rng, S_POLICY0 + p, tied)
        for i in range(n):
            if opts[i, 0] == OP_SEAT and bag_count(game, opts[i, 1]) == best:
                if j == 0:
                    return i
                j -= 1
    return k


@njit(cache=True)
def roulette_move(game, env, p, opts, n, ctx):
    """AG-V2: pull in the first round (folding then costs renown) unless wounded; later rounds
    pull with probability `nerve` while unwounded."""
    w = env.params[p]
    pull = pick(opts, n, OP_PULL)
    if opts[pull, 0] != OP_PULL:
        return 0
    if game.pl[p, WOUNDS] > 0:
        return pull if w[NERVE] >= 0.9 else 0
    if ctx[CTX_ROUND] == 1:
        return pull
    return pull if below_of(game.rng, S_POLICY0 + p, 1000) < int(1000 * w[NERVE]) else 0


@njit(cache=True)
def duel_target(game, env, p, opts, n):
    """AG-V3: the leader, or a wounded boss a BANG would kill."""
    best, k = -1e18, 0
    for i in range(n):
        worth = duel_worth(game, env, p, opts[i, 1])
        if worth > best:
            best, k = worth, i
    return k


@njit(cache=True)
def duel_worth(game, env, p, q):
    """AG-V3: how much p wants to duel q: its score, and its boss's wounds for the aggressive."""
    return score(game, env, q) + 2.0 * env.params[p, AGGRESSION] * game.pl[q, WOUNDS]


@njit(cache=True)
def least_title(game, opts, n, p, title0, count0):
    """AG-K4: give up a card (token) where it costs no title: not where p holds the title, else
    where p has the most to spare."""
    best, k = -1e18, 0
    for i in range(n):
        x = opts[i, 1]
        worth = game.pl[p, count0 + x] - (100.0 if game.g[title0 + x] == p else 0.0)
        if worth > best:
            best, k = worth, i
    return k
