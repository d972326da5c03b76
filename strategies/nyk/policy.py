"""The New York Kings players behind the engine's decision interface (jitted).

Three families, chosen per seat by `env.kinds`:
- `RANDOM`: uniform over the legal options;
- `SIMPLE`: a plain, mission-minded player that makes the engine testable on its own;
- `PARAM`: the heuristic player driven by the named knobs of `strategies.nyk.params` (the presets
  are points of that space), judging fights with the exact odds of `sim.nyk.fights` and of the dice
  on the table, recruits with the exact recruitment odds. Each judging function reads seat p's
  knobs in place (`env.params[p, K_...]`): handed down as an array, they cost every call seven
  machine words and two calls of numba's reference counter.

Any seat may also be restricted (`env.restrict`, bits R_*): the restricted options are never
taken, whatever the family. A policy sees the game as a player at the table would: it reads
hidden facts only through the seat's view (`sim.nyk.view`): its own hand, money and secret
destinations, never another player's hand or secret destination, no deck order, and the others'
fortunes only as the `view.fortunes` ruling lets a player know them (the information-set test
re-deals all of these and checks that no decision changes).
"""

import numpy as np
from numba import njit

from sim.nyk.fights import LOSE, WIN
from sim.nyk.decisions import (
    CTX_CREW, CTX_DECISION, CTX_GROUP, CTX_MINE, CTX_MODE, CTX_OPPONENT, CTX_OTHER_CREW, CTX_STAGE, CTX_STEPS,
    CTX_THEIRS, CTX_WINDOW, CTX_DISTRICT, CTX_POT, D_ACTION, D_BID, D_CUSTODY, D_DEAL, D_DEAL_ACCEPT, D_DISCARD,
    D_FOLD, D_HELI, D_HESITATE, D_LOSE, D_MOVE, D_OFFER, D_PLACE, D_POLICE, ANY_OFFER,
    D_REACT, D_RESIST, D_STEP, D_WHOM, MODE_HELI, MODE_NORMAL, MODE_SUBWAY, OP_ACCEPT, OP_ACCOMPLISH,
    OP_BID, OP_CHAR, OP_DROP, OP_JOURNEY, OP_PART, OP_PLAY, OP_POLICE, OP_PROVOKE, OP_RECRUIT,
    OP_STEP, WIN_CARD_PLAYED, WIN_INTIMIDATION, WIN_RESOURCES,
)
from sim.nyk.env import N_SCRATCH, RP_N_DISTRICTS, RP_PERIPH, RP_STATION, RP_R_KIND, RP_R_PARAMS
from sim.nyk.view import recruit_targets, seen_dest, seen_standing
from sim.nyk.ways import may_ride_subway, passes_police
from sim.nyk.state import (
    ACTED, ALIVE, CELL, END_REVEALED, EXTRA_STEPS, FIRST, HAND0, HAND_KINDS, HAND_N, HENCHMEN_MASK, LAST_TURN, LOC,
    M_ACCEPT, M_CREW, M_HOLDER, M_REWARD, M_RISK,
    M_SECRET, M_STATE, MISSION, MONEY, MOVED, MS_HELD, N_AFFRANCHI, N_CHARS, N_MISSIONS, N_PLAYERS,
    N_POLICE, NO, OWNER, PERIPH0, POLICE0, POLICE_STEPS0, RECRUITED, ROSTER, ROW0, S_POLICY0, START, STEPS, SUIT,
    TURN, VALUE, W_CONTROLLED, W_CUSTODY, WHERE,
    carries_risk, count_bits,
    count_henchmen, crew_code_of, group_at, in_mask, lowest_bit, police_at,
)
from sim.rng import below_of
from sim.nyk.hands import table_key
from sim.nyk.compiled import (
    E_BANK_INCOME, E_CANCEL_ELIMINATION, E_DISCARD_HENCHMAN, E_DRAW_CARDS, E_EXTRA_MOVE, E_MISSION_BONUS,
    E_POACH_HENCHMAN, E_POLICE_MOVE, E_POLICE_PLACE, E_RECRUIT, E_RELEASE_CUSTODY, E_STEAL_MONEY,
    E_BLOCK_INTERROGATION, MAX_PARAMS, P_HELIPORT_COST, P_HENCHMEN_MAX, P_MISSION_ROW,
    P_BONUS_STEPS_PER_CARD, P_MOVE_STEPS, P_POLICE_MOVE_STEPS, P_SUBWAY_STEPS,
    P_RECRUIT_FROM_CUSTODY, P_RECRUIT_MAX_OFFER, P_RECRUIT_MIN_OFFER, P_RECRUIT_OFFER_STEP,
    P_POLICE_QUESTIONED, P_RECRUIT_PER_TURN, P_RESIST_DICE, QUESTIONED_ALL,
)
from strategies.nyk.learned import learned_pick
from strategies.nyk.params import (
    K_ACCEPT_MIN, K_AFFRANCHI_CARE, K_AVOID_POLICE, K_BID, K_CANCEL_CARDS, K_CARD_EVENTS, K_CARD_MOVES,
    K_CREW2_COST, K_FAMILY, K_FOLD_BELOW, K_HELI_MIN_DIST, K_HESITATE_PAY, K_MISSION_WEIGHT, K_POLICE_BLOCK,
    K_POLICE_CLEAR, K_PROVOKE_EDGE, K_RECRUIT_DRIVE, K_RECRUIT_MIN_P, K_RESERVE, K_RESIST_MIN, K_RISK_COST,
    K_SECRET_COST, K_SUBWAY, K_TRAVEL_COST, FAMILIES, R_MIN_BID, R_NO_CARD_MOVES, R_NO_POLICE, R_NO_PROVOKE,
    R_NO_RECRUIT, R_NO_RISKY, R_NO_SUBWAY_HELI,
)

RANDOM, SIMPLE, PARAM, LEARNED = (FAMILIES.index(f) for f in ("random", "simple", "param", "learned"))
HAND_SCALE = 7**5  # strengths of one category span this many (sim.nyk.hands)
NEVER = -1e18
SECRET_TRIP = 4  # districts a secret destination is assumed to lie from its accept address
ANYWHERE = -2  # place_gain: the best district
UNKNOWN = -3  # remembered_goal: not asked yet
EVEN_ODDS = 0.5  # the affranchi alone fights on only at better odds: a lost or tied fight ends the game (NYK-A5)
STEP_WORTH = 5000.0  # best_step: a step closer to the goal
CHECK_COST = 1000.0  # a step onto a police district off the goal: a check stops the journey (NYK-M2)
ROUTE_BLOCK_COST = 5000.0  # a car driven onto one's own crew's way: the step it loses (NYK-M2)
OPEN_ROAD_BONUS = 500.0  # a car-free step whose way on is car-free too, over one as close (below CHECK_COST)
POLICE_FIRST = 1e9  # best_move: a car worth moving goes before every journey and card (NYK-M5)
ARMED_JOURNEY = 3000.0  # a played Fast Car goes to a journey whose goal lies beyond the ordinary steps (NYK-C5)


@njit(cache=True, inline="always")  # inlined into `decide` and the view check: one call level less per decision
def choose(game, env, p, opts, n, ctx):
    """Seat p's policy picks one of the n options; the decision kind is ctx[CTX_DECISION]."""
    kind = env.kinds[p]
    decision = ctx[CTX_DECISION]
    r = env.restrict[p]
    if kind == RANDOM:
        return below_of(game.rng, S_POLICY0 + p, n) if r == 0 else random_allowed(game, p, decision, opts, n, r)
    if kind == PARAM or kind == LEARNED:
        k = heuristic(game, env, p, decision, opts, n, ctx)
        if kind == LEARNED:  # the learned logit over the options, the heuristic's pick one feature
            k = learned_pick(game, env, p, decision, opts, n, k)
    else:
        k = simple(game, env, p, decision, opts, n, ctx)
    if r != 0 and not allowed(game, decision, opts, n, k, r):
        k = first_allowed(game, decision, opts, n, r)
    return k


# --- restrictions ---------------------------------------------------------------------------------

@njit(cache=True)
def allowed(game, decision, opts, n, i, r):
    """Whether option i survives the restrictions r (the safe option 0 always does, except a
    bid above the minimum)."""
    op = opts[i, 0]
    if decision == D_ACTION:
        if op == OP_PROVOKE:
            return r & R_NO_PROVOKE == 0
        if op == OP_RECRUIT or (op == OP_PLAY and opts[i, 2] == E_POACH_HENCHMAN):  # NYK-A8
            return r & R_NO_RECRUIT == 0
        if op == OP_ACCEPT and r & R_NO_RISKY:
            return game.ms[game.g[ROW0 + opts[i, 1]], M_RISK] == 0
    elif decision == D_STEP:
        if op == OP_POLICE:
            return r & R_NO_POLICE == 0
        return not (op == OP_STEP and opts[i, 2] != NO and r & R_NO_CARD_MOVES)
    elif decision == D_DEAL:  # NYK-E2: buying a police move is controlling the police
        return op != OP_POLICE or r & R_NO_POLICE == 0
    elif decision == D_CUSTODY:  # a card discarded for a custody step (NYK-P6)
        return not (op == OP_CHAR and r & R_NO_CARD_MOVES)
    elif decision == D_BID and r & R_MIN_BID:
        return opts[i, 1] == smallest_bid(opts, n)
    elif decision == D_MOVE:
        if op == OP_POLICE or (op == OP_PLAY and (opts[i, 2] == E_POLICE_MOVE or opts[i, 2] == E_POLICE_PLACE)):
            return r & R_NO_POLICE == 0
        if op == OP_JOURNEY and opts[i, 3] != MODE_NORMAL:
            return r & R_NO_SUBWAY_HELI == 0
    return True


@njit(cache=True, inline="always")
def permitted(game, decision, opts, n, i, r):
    """`allowed`, without its call when the seat has no restriction (most seats, at most options)."""
    return r == 0 or allowed(game, decision, opts, n, i, r)


@njit(cache=True)
def smallest_bid(opts, n):
    low = opts[0, 1]
    for i in range(n):
        low = min(low, opts[i, 1])
    return low


@njit(cache=True)
def first_allowed(game, decision, opts, n, r):
    for i in range(n):
        if allowed(game, decision, opts, n, i, r):
            return i
    return 0


@njit(cache=True)
def random_allowed(game, p, decision, opts, n, r):
    m = 0
    for i in range(n):
        m += allowed(game, decision, opts, n, i, r)
    pick = below_of(game.rng, S_POLICY0 + p, m)
    for i in range(n):
        if allowed(game, decision, opts, n, i, r):
            if pick == 0:
                return i
            pick -= 1
    return 0


# --- the heuristic player -------------------------------------------------------------------------

# `heuristic` is a call of its own, not inlined into `choose`: numba zeroes the slots of every array
# variable of a function at its entry, and inlined it made `choose` clear some seventy slots at every
# decision, whichever family decided. `simple` holds few: inlined, its decisions save the call, which
# passed the option table and context word by word and counted their references
@njit(cache=True)
def heuristic(game, env, p, decision, opts, n, ctx):
    if decision == D_ACTION:
        return best_action(game, env, p, opts, n)
    if decision == D_STEP:
        return best_step(game, env, p, opts, n, ctx[CTX_GROUP], passes_checks(env, ctx))
    if decision == D_MOVE:
        return best_move(game, env, p, opts, n)
    if decision == D_BID:
        return bid(env, p, opts, n)
    if decision == D_HELI:
        return nearest_to(env, goal_of_group(game, env, p, ctx[CTX_GROUP]), opts, n)
    if decision == D_FOLD:
        p_win = win_chance(env, ctx[CTX_CREW], ctx[CTX_OTHER_CREW], dice_to_come(ctx[CTX_STAGE]))
        return 1 if p_win < fold_below(game, env, p, ctx) else 0
    if decision == D_RESIST:
        if n < 2:
            return 0
        extra = env.rp[P_RESIST_DICE]
        need = env.params[p, K_RESIST_MIN]
        if alone_on(game, p, ctx[CTX_DISTRICT]):  # NYK-P5: a lost resist costs the affranchi (NYK-A5)
            need = max(need, EVEN_ODDS)
        return 1 if win_chance(env, ctx[CTX_CREW], ctx[CTX_OTHER_CREW], extra) >= need else 0
    if decision == D_LOSE:
        return whom_to_lose(game, opts, n)
    if decision == D_HESITATE:
        if last_turn(game):  # NYK-E1: a henchman bought now cannot earn its price back
            return 0
        price = ctx[CTX_THEIRS]
        pay = game.pl[p, MONEY] - price >= (1.0 - env.params[p, K_HESITATE_PAY]) * env.params[p, K_RESERVE]
        return n - 1 if pay else 0
    if decision == D_REACT:
        return react(game, env, p, n, ctx)
    if decision == D_WHOM:
        return richest_rival(game, env, p, opts, n)
    if decision == D_CUSTODY:
        if n > 1 and env.params[p, K_CARD_MOVES] >= 0.5 and game.pl[p, HAND_N] >= 2:
            return closest_to_exit(game, opts, n)
        return 0
    if decision == D_DISCARD:
        return least_useful_card(env, opts, n)
    if decision == D_POLICE:
        return best_destination(game, env, p, opts, n)
    if decision == D_PLACE:
        return best_place(game, env, p, opts, n)
    if decision == D_OFFER:
        return best_offer(game, env, p, opts, n)
    if decision == D_DEAL:
        return buy_police_move(game, env, p, opts, n, ctx[CTX_POT])
    if decision == D_DEAL_ACCEPT:  # take the money unless the move costs it more than the price
        gain = police_gain(game, env, p, ctx[CTX_MINE], ctx[CTX_DISTRICT])
        return 1 if gain + ctx[CTX_POT] >= 0 else 0
    return 0


@njit(cache=True)
def buy_police_move(game, env, p, opts, n, price):
    """NYK-E2: the police step worth more to p than its price, if any."""
    best, pick = float(price), 0
    watched, crews = watched_missions(game, p), crews_at_risk(game)
    for i in range(1, n):
        gain = car_step_gain(game, env, p, opts[i, 1], opts[i, 2], watched, crews)
        if gain > best and permitted(game, D_DEAL, opts, n, i, env.restrict[p]):
            best, pick = gain, i
    return pick


@njit(cache=True)
def bid(env, p, opts, n):
    """NYK-T1: the bid closest to the wanted share of the largest possible one."""
    top = 0
    for i in range(n):
        if opts[i, 0] == OP_BID:
            top = max(top, opts[i, 1])
    target = env.params[p, K_BID] * top
    best, pick = 1e18, 0
    for i in range(n):
        gap = abs(opts[i, 1] - target)
        if gap < best:
            best, pick = gap, i
    return pick


# --- judging fights with exact odds ----------------------------------------------------------------

@njit(cache=True)
def win_chance(env, mine, theirs, dice):
    """Exact chance that hand `mine` beats hand `theirs` (packed counts) once each side rolls
    `dice` more dice: every multiset of the dice, weighted by its orderings. The weights are
    whole numbers (orderings), so the sums are kept in integers, exact in any order (below 2**53,
    as a float sum of them is too): the total weight of the pairs is the square of the weights' sum."""
    dice = min(dice, env.mcount.shape[0] - 1)
    m = env.mcount[dice]
    their = np.empty(m, dtype=np.int32)  # their strengths looked up once, not once per pair
    for j in range(m):
        their[j] = env.table[table_key(theirs + env.msets[dice, j])]
    win = 0
    total = 0
    for i in range(m):
        s = env.table[table_key(mine + env.msets[dice, i])]
        beaten = 0  # the weight of their outcomes that this one beats
        for j in range(m):
            if s > their[j]:
                beaten += np.int64(env.mweights[dice, j])
        w = np.int64(env.mweights[dice, i])
        win += w * beaten
        total += w
    return np.float64(win) / np.float64(total * total)


@njit(cache=True)
def dice_to_come(stage):
    return 3 - stage  # NYK-A4: one die more at each of the two stages after intimidation


@njit(cache=True)
def fold_below(game, env, p, ctx):
    """The winning chance under which p folds: its knob, and at least even odds when its
    affranchi fights alone (a lost or tied fusillade kills it and ends p's game, NYK-A5)."""
    need = env.params[p, K_FOLD_BELOW]
    if need < EVEN_ODDS and fighting_alone(game, p, ctx):
        return EVEN_ODDS
    return need


@njit(cache=True)
def fighting_alone(game, p, ctx):
    """Whether p's side of the fight is its affranchi alone (the engine tells the fight's
    district, NYK-A4)."""
    return alone_on(game, p, ctx[CTX_DISTRICT])


@njit(cache=True)
def alone_on(game, p, d):
    """p's only character on d is its affranchi (character p)."""
    return group_at(game, p, d) == np.int64(1) << np.int64(p)


@njit(cache=True)
def last_turn(game):
    """NYK-T5: the end card is out and this turn is the last; after it fortune alone wins (NYK-E1)."""
    return game.g[END_REVEALED] != 0 and game.g[TURN] >= game.g[LAST_TURN]


@njit(cache=True)
def crew_edge(env, a, b):
    """P(win) - P(lose) of crew code a against crew code b (sim.nyk.fights)."""
    return env.fight[a, b, WIN] - env.fight[a, b, LOSE]


# --- missions and goals ------------------------------------------------------------------------------

@njit(cache=True)
def cars_near(game, env, d, radius):
    n = 0
    for i in range(N_POLICE):
        car = game.g[POLICE0 + i]
        if car >= 0 and env.dist[car, d] <= radius:
            n += 1
    return n


@njit(cache=True)
def mission_value(game, env, p, m, here):
    """What a mission on the row is worth to a crew standing on `here` (dollars)."""
    accept, dest = game.ms[m, M_ACCEPT], seen_dest(game, NO, m)  # a row card: public
    trip = env.dist[here, accept] + (SECRET_TRIP if dest == NO else env.dist[accept, dest])
    v = env.params[p, K_MISSION_WEIGHT] * game.ms[m, M_REWARD] - env.params[p, K_TRAVEL_COST] * trip
    if game.ms[m, M_CREW] == 2:
        v -= env.params[p, K_CREW2_COST]
    if game.ms[m, M_SECRET]:
        v -= env.params[p, K_SECRET_COST]
    if game.ms[m, M_RISK]:
        v -= env.params[p, K_RISK_COST] * (1.0 if dest == NO else cars_near(game, env, dest, 2))
    return v


@njit(cache=True)
def may_recruit(game, env, p):
    return (env.params[p, K_RECRUIT_DRIVE] > 0 and env.restrict[p] & R_NO_RECRUIT == 0 and not last_turn(game)
            and count_henchmen(game, p) < env.rp[P_HENCHMEN_MAX]
            and game.pl[p, MONEY] >= env.params[p, K_RESERVE] + env.rp[P_RECRUIT_OFFER_STEP])


@njit(cache=True)
def goal_of(game, env, p, c):
    """Where character c is heading: its job's destination; else the accept address of the best
    job on the row; for the affranchi, a peripheral district to recruit on if that is worth more."""
    here = game.ch[c, LOC]
    m = game.ch[c, MISSION]
    if m != NO:
        dest = seen_dest(game, p, m)  # its own job: p knows even a secret destination
        return dest if dest != NO else here
    best_v, goal = env.params[p, K_ACCEPT_MIN], here
    no_risky = env.restrict[p] & R_NO_RISKY
    # then a mission is worth at most its weighted reward
    costs = (env.params[p, K_TRAVEL_COST] >= 0.0 and env.params[p, K_CREW2_COST] >= 0.0
             and env.params[p, K_SECRET_COST] >= 0.0 and env.params[p, K_RISK_COST] >= 0.0)
    for s in range(env.rp[P_MISSION_ROW]):
        r = game.g[ROW0 + s]
        if r == NO or (no_risky and game.ms[r, M_RISK]):
            continue
        if costs and env.params[p, K_MISSION_WEIGHT] * game.ms[r, M_REWARD] <= best_v:
            continue  # its value, that reward less costs, cannot beat the best so far
        v = mission_value(game, env, p, r, here)
        if v > best_v:
            best_v, goal = v, game.ms[r, M_ACCEPT]
    if c == p and may_recruit(game, env, p):
        family = largest_suits(game, p)
        for slot in range(4):
            h = game.g[PERIPH0 + slot]
            if h == NO:
                continue
            d = env.rp[RP_PERIPH + slot]
            v = henchman_worth_in(game, env, p, h, family) - env.params[p, K_TRAVEL_COST] * env.dist[here, d]
            if v > best_v:
                best_v, goal = v, d
    return goal


# memo[c]: character c's goal; memo[MEMO_WATCHED]: the watched missions; memo[MEMO_CREWS]: the
# districts of the crews at risk
MEMO_WATCHED, MEMO_CREWS, MEMO_ROUTE = N_CHARS, N_CHARS + 1, N_CHARS + 2
N_MEMO = N_CHARS + 3
assert N_MEMO <= N_SCRATCH


@njit(cache=True)
def decision_memo(env):
    """What a decision finds once and its options share (UNKNOWN until asked), in the env's
    scratch (a fresh array a decision made the policy's calls count references to it)."""
    memo = env.scratch[:N_MEMO]
    memo[:] = UNKNOWN
    return memo


@njit(cache=True)
def remembered_goal(game, env, p, c, memo):
    """goal_of, computed once per decision: `memo[c]` holds it once asked (UNKNOWN before)."""
    if memo[c] == UNKNOWN:
        memo[c] = goal_of(game, env, p, c)
    return memo[c]


@njit(cache=True)
def remembered_watch(game, p, memo):
    """watched_missions, found once per decision."""
    if memo[MEMO_WATCHED] == UNKNOWN:
        memo[MEMO_WATCHED] = watched_missions(game, p)
    return memo[MEMO_WATCHED]


@njit(cache=True)
def remembered_crews(game, memo):
    """crews_at_risk, found once per decision."""
    if memo[MEMO_CREWS] == UNKNOWN:
        memo[MEMO_CREWS] = crews_at_risk(game)
    return memo[MEMO_CREWS]


@njit(cache=True)
def remembered_route(game, env, p, memo):
    """own_route, found once per decision."""
    if memo[MEMO_ROUTE] == UNKNOWN:
        memo[MEMO_ROUTE] = own_route(game, env, p)
    return memo[MEMO_ROUTE]


@njit(cache=True)
def goal_of_group(game, env, p, group):
    return goal_of(game, env, p, lowest_bit(group)) if group else NO


@njit(cache=True)
def nearest_to(env, goal, opts, n):
    best, pick = 1 << 30, 0
    for i in range(n):
        if opts[i, 0] == OP_STEP and goal != NO and env.dist[opts[i, 1], goal] < best:
            best, pick = env.dist[opts[i, 1], goal], i
    return pick


# --- movement ----------------------------------------------------------------------------------------

@njit(cache=True)
def best_move(game, env, p, opts, n):
    """NYK-M1..M7: police first (as first player: a car worth moving goes before any crew sets
    out, so the goals and roads the crews and the Fast Car are judged by are the board after it,
    not one the player's own cars change under a journey), then each crew toward its goal. The
    journey options are listed before the movement cards, so a card that lengthens the journey to
    come (Fast Car) is judged against the best journey already scored."""
    best, pick = 0.0, 0
    best_journey = 0.0
    memo = decision_memo(env)  # each journey option asks its group's goal, each car the watched jobs
    for i in range(n):
        op = opts[i, 0]
        score = 0.0
        if op == OP_POLICE:
            score = car_worth(game, env, p, opts[i, 1], memo, 0.0)
            if score > 0.0:
                score += POLICE_FIRST
        elif op == OP_JOURNEY:
            score = journey_gain(game, env, p, opts[i, 1], opts[i, 2], opts[i, 3], memo)
        elif op == OP_PLAY:
            score = movement_card_gain(game, env, p, opts[i, 2], opts[i, 3], memo, best_journey)
        if score > best and permitted(game, D_MOVE, opts, n, i, env.restrict[p]):
            best, pick = score, i
        if op == OP_JOURNEY and score > best_journey and permitted(game, D_MOVE, opts, n, i, env.restrict[p]):
            best_journey = score
    return pick


@njit(cache=True)
def police_gain(game, env, p, car, to):
    """Moving a car: toward rivals' at-risk destinations (public ones), away from its own."""
    return car_step_gain(game, env, p, car, to, watched_missions(game, p), crews_at_risk(game))


@njit(cache=True)
def watched_missions(game, p):
    """The held at-risk missions whose destination p sees (bitmask; a rival's secret destination
    is hidden): the only ones a police move changes for p, found once per decision."""
    mask = np.int64(0)
    for m in range(N_MISSIONS):
        if game.ms[m, M_STATE] == MS_HELD and game.ms[m, M_RISK] and seen_dest(game, p, m) != NO:
            mask |= np.int64(1) << np.int64(m)
    return mask


@njit(cache=True)
def crews_at_risk(game):
    """The districts (bits) where a character holding an at-risk mission stands: a car arriving
    anywhere else questions nobody (NYK-P4). Found once per decision, for all its cars' steps."""
    mask = np.int64(0)
    for c in range(N_CHARS):
        m = game.ch[c, MISSION]
        if m != NO and game.ch[c, WHERE] == W_CONTROLLED and game.ms[m, M_RISK]:
            mask |= np.int64(1) << game.ch[c, LOC]
    return mask


@njit(cache=True)
def car_step_gain(game, env, p, car, to, watched, crews):
    """police_gain over the `watched` missions (summed in mission order, as one scan would), the
    crews at risk standing on the districts `crews` (crews_at_risk)."""
    here = game.g[POLICE0 + car]
    gain = 0.0
    rest = watched
    while rest:
        m = lowest_bit(rest)
        rest &= rest - 1
        dest = seen_dest(game, p, m)
        holder = game.ms[m, M_HOLDER]
        if holder == p:
            gain += env.params[p, K_POLICE_CLEAR] * 3000.0 * (env.dist[to, dest] - env.dist[here, dest])
        else:
            gain += env.params[p, K_POLICE_BLOCK] * 3000.0 * (env.dist[here, dest] - env.dist[to, dest])
    return gain + arrival_gain(game, env, p, to, crews)


@njit(cache=True)
def arrival_gain(game, env, p, to, crews):
    """A car arriving on `to` questions an at-risk crew there (NYK-P4), the mover choosing whom
    among several players: onto one's own alone it is a blunder that risks the mission (the whole
    reward counted: an arrest also puts the crew in custody). With a rival's there too, the mover
    questions the rival, and the step is judged by the destinations alone, unless every crew there
    is questioned (`police.questioned = all`). The crews at risk stand on the districts `crews`
    (crews_at_risk): elsewhere the scan below finds no reward, -(0.0)."""
    if not (crews >> to) & 1:
        return -0.0
    if env.rp[P_POLICE_QUESTIONED] != QUESTIONED_ALL:
        for q in range(game.g[N_PLAYERS]):
            if q != p and game.pl[q, ALIVE] and reward_at_risk(game, q, to) > 0.0:
                return 0.0
    return -reward_at_risk(game, p, to)


@njit(cache=True)
def reward_at_risk(game, q, d):
    """The rewards of q's held at-risk missions whose crew stands on d (each mission once)."""
    total, seen = 0.0, np.int64(0)
    rest = group_at(game, q, d)
    while rest:
        c = lowest_bit(rest)
        rest &= rest - 1
        m = game.ch[c, MISSION]
        if m != NO and game.ms[m, M_RISK] and not (seen >> np.int64(m)) & 1:
            seen |= np.int64(1) << np.int64(m)
            total += game.ms[m, M_REWARD]
    return total


@njit(cache=True)
def car_worth(game, env, p, car, memo, floor):
    """car_gain where the moves and steps take only a worth above `floor` (at least 0): 0.0 when
    no step of the car can reach above it (`car_gain_bound`), without weighing its steps."""
    watched = remembered_watch(game, p, memo)
    if car_gain_bound(game, env, p, watched) <= floor:
        return 0.0
    return car_gain(game, env, p, car, watched, remembered_crews(game, memo), remembered_route(game, env, p, memo))


@njit(cache=True)
def car_gain_bound(game, env, p, watched):
    """At least car_gain for any car: a step changes a car's distance to a district by at most one
    (both ends of a connection lie in one component of the board, and `dist` counts connections),
    and `arrival_gain` is never positive. Summed in car_step_gain's order from the same products,
    so rounding cannot lift a step's worth above the bound."""
    bound = 0.0
    rest = watched
    while rest:
        m = lowest_bit(rest)
        rest &= rest - 1
        knob = K_POLICE_CLEAR if game.ms[m, M_HOLDER] == p else K_POLICE_BLOCK
        bound += abs(env.params[p, knob] * 3000.0)
    return bound


@njit(cache=True)
def car_gain(game, env, p, car, watched, crews, route):
    """What moving `car` one step is worth at best (its destination is picked next)."""
    here = game.g[POLICE0 + car]
    best = NEVER
    for j in range(env.nbr[here, 0]):
        best = max(best, car_step_worth(game, env, p, car, env.nbr[here, 1 + j], watched, crews, route))
    return best


@njit(cache=True)
def car_step_worth(game, env, p, car, to, watched, crews, route):
    """car_step_gain, less what a car on p's own crews' way costs them (`own_route`, NYK-M2)."""
    gain = car_step_gain(game, env, p, car, to, watched, crews)
    return gain - ROUTE_BLOCK_COST if (route >> to) & 1 else gain


@njit(cache=True)
def best_destination(game, env, p, opts, n):
    """The chosen car's step of highest worth (NYK-M5), off its own crews' way this turn."""
    best, pick = NEVER, 0
    watched, crews = watched_missions(game, p), crews_at_risk(game)
    route = own_route(game, env, p)
    for i in range(n):
        score = car_step_worth(game, env, p, opts[i, 1], opts[i, 2], watched, crews, route)
        if score > best:
            best, pick = score, i
    return pick


@njit(cache=True)
def own_route(game, env, p):
    """The districts (bits) p's characters yet to move this turn would walk through on a shortest
    way to their goals within their steps: a car driven there stops them (NYK-M2), the goal
    itself only a crew at risk (NYK-P4); and the district where one stands that came there this
    turn (a journey under way): a car driven onto it stops it there (NYK-M2; on the district it
    started from, it leaves freely, NYK-M3)."""
    return route_but(game, env, p, np.int64(0))


@njit(cache=True)
def route_but(game, env, p, left_out):
    """`own_route` of p's characters but those `left_out` (bits)."""
    mask = np.int64(0)
    reach = env.rp[P_MOVE_STEPS] + game.pl[p, EXTRA_STEPS]
    todo = game.pl[p, ROSTER] & ~left_out
    while todo:
        c = lowest_bit(todo)
        todo &= todo - 1
        if game.ch[c, WHERE] != W_CONTROLLED or game.ch[c, MOVED]:
            continue
        here, goal = game.ch[c, LOC], goal_of(game, env, p, c)
        risky = carries_risk(game, np.int64(1) << np.int64(c))
        if here != goal and (game.ch[c, STEPS] > 0 or game.ch[c, START] != here):
            mask |= np.int64(1) << np.int64(here)
        for x in range(env.rp[RP_N_DISTRICTS]):
            if 0 < env.dist[here, x] <= reach and on_the_way(env, here, x, goal) and check_stops(x, goal, risky):
                mask |= np.int64(1) << np.int64(x)
    return mask


@njit(cache=True)
def journey_gain(game, env, p, d, group, mode, memo):
    """Worth of setting out: single characters, or a group heading one way (a job's whole crew,
    or characters sharing a goal: one card pays a bonus step for all, NYK-M4/M8), toward their goal."""
    size = count_bits(group)
    goal = group_goal(game, env, p, group, memo)
    if size > 1 and not one_way(game, env, p, group, goal, memo):
        return 0.0
    if goal == d:
        return 0.0
    far = env.dist[d, goal]
    score = 5000.0 + 500.0 * size
    armed = game.pl[p, EXTRA_STEPS] > 0
    risky = carries_risk(game, group)
    if armed and mode == MODE_NORMAL and beyond_reach(game, env, p, d, goal, risky, memo) and (
            size == 1 or sets_out_together(game, env, p, group, d, goal, risky, memo)):
        score += ARMED_JOURNEY  # NYK-C5: the Fast Car played goes to a journey that uses its steps
    if mode == MODE_SUBWAY:
        if armed and beyond_the_ride(game, env, d, goal, risky):
            score += ARMED_JOURNEY  # NYK-C5, M6: its steps go on from where the ride ends
        return score + 2000.0 if takes_the_subway(env, p, far) else 0.0
    if mode == MODE_HELI:
        fare = env.rp[P_HELIPORT_COST] * size
        rich = game.pl[p, MONEY] - fare >= env.params[p, K_RESERVE]
        return score + 3000.0 if far >= env.params[p, K_HELI_MIN_DIST] and rich else 0.0
    return score


@njit(cache=True)
def sets_out_together(game, env, p, group, here, goal, risky, memo):
    """The group's own road is open as far as the Fast Car's steps, not only its lead's: a first
    step that keeps every member's goal on its way (as `best_step` walks,
    `keeps_everyone_on_the_way`) goes onto a district without a car (NYK-M2), from where a
    shortest way toward the goal goes on without a check (the cars where p drives them: `cars_once_driven`)."""
    cars = cars_once_driven(game, env, p, here, goal, risky, memo)
    for j in range(env.nbr[here, 0]):
        nb = env.nbr[here, 1 + j]
        if (env.dist[nb, goal] < env.dist[here, goal] and not (cars >> nb) & 1
                and keeps_everyone_on_the_way(game, env, p, group, here, nb, goal, memo)
                and open_road(game, env, nb, goal, env.rp[P_MOVE_STEPS], risky, cars)):
            return True
    return False


@njit(cache=True)
def group_goal(game, env, p, group, memo):
    """A group's goal: its member's farthest from where it stands (the lowest id among equals),
    so that the others' lie on its way and each is dropped at its own (NYK-M4); a group whose
    first member heads nearer would otherwise split and pay twice for the steps they share (M8).
    Where some member's goal lies off that way, the group parts (`parting_lead`)."""
    here = game.ch[lowest_bit(group), LOC]
    goal, far = NO, -1
    rest = group
    while rest:
        c = lowest_bit(rest)
        rest &= rest - 1
        own = remembered_goal(game, env, p, c, memo)
        if env.dist[here, own] > far:
            goal, far = own, env.dist[here, own]
    rest = group
    while rest:
        c = lowest_bit(rest)
        rest &= rest - 1
        if not on_the_way(env, here, remembered_goal(game, env, p, c, memo), goal):
            return parting_lead(game, env, p, group, memo)
    return goal


@njit(cache=True)
def parting_lead(game, env, p, group, memo):
    """The goal of a group whose ways part (NYK-M4: the others dropped where theirs leaves it):
    a goal the cards in hand can reach this turn before one beyond them, a job's destination
    before another goal, then the farthest (the lowest id among equals)."""
    here = game.ch[lowest_bit(group), LOC]
    reach = journey_reach(game, env, p)
    goal, best = NO, -1
    rest = group
    while rest:
        c = lowest_bit(rest)
        rest &= rest - 1
        own = remembered_goal(game, env, p, c, memo)
        rank = (4 * env.rp[RP_N_DISTRICTS] * (env.dist[here, own] <= reach)
                + 2 * env.rp[RP_N_DISTRICTS] * (game.ch[c, MISSION] != NO) + env.dist[here, own])
        if rank > best:
            goal, best = own, rank
    return goal


@njit(cache=True)
def journey_reach(game, env, p):
    """Districts one journey can go this turn: the ordinary steps, a played Fast Car's, and a
    bonus step for each card in hand it pays steps with (NYK-M1, C5, M8)."""
    return (env.rp[P_MOVE_STEPS] + game.pl[p, EXTRA_STEPS]
            + env.rp[P_BONUS_STEPS_PER_CARD] * payable_cards(game, env, p))


@njit(cache=True)
def one_way(game, env, p, group, goal, memo):
    """Whether `group` may travel as one: a job's whole crew, or characters whose goals lie on the
    way to `goal` (group_goal: the farthest of theirs) or who, setting out alone after it, could
    go no farther than where their way leaves it (`parts_no_farther`), none carrying a job at risk
    (travelling beside one would share its interrogation, NYK-P4): one card pays their shared
    bonus steps (NYK-M4/M8), each is dropped at its own goal or where its way parts."""
    first = lowest_bit(group)
    m = game.ch[first, MISSION]
    if m != NO and count_bits(group) == game.ms[m, M_CREW] and same_job(game, group, m):
        return True
    if carries_risk(game, group):
        return False
    here = game.ch[first, LOC]
    rest = group
    while rest:
        c = lowest_bit(rest)
        rest &= rest - 1
        own = remembered_goal(game, env, p, c, memo)
        if own == here:
            return False
        if not on_the_way(env, here, own, goal) and not parts_no_farther(game, env, p, here, own, goal):
            return False
    return True


@njit(cache=True)
def parts_no_farther(game, env, p, here, own, goal):
    """A character bound for `own`, setting out alone after the journey to `goal` has paid its
    cards, could go no farther (the cards it pays with, a check ahead) than the district where its
    way leaves that journey's (NYK-M8: travelling with it, it gets there without paying for the
    shared steps again)."""
    free, bonus = env.rp[P_MOVE_STEPS], env.rp[P_BONUS_STEPS_PER_CARD]
    lead_paid = max(0, env.dist[here, goal] - free - game.pl[p, EXTRA_STEPS])
    cards_left = max(0, payable_cards(game, env, p) - (lead_paid + bonus - 1) // bonus) if bonus > 0 else 0
    alone = car_free_steps(game, env, here, own, min(env.dist[here, own], free + bonus * cards_left))
    return alone <= shared_way(env, here, own, goal)


@njit(cache=True)
def payable_cards(game, env, p):
    """Cards in hand the player pays a step with: any but a Juicy Job (`best_step`, NYK-C5: it
    goes only for the step that finishes its job)."""
    n = 0
    for i in range(game.pl[p, HAND_N]):
        n += env.rp[RP_R_KIND + game.pl[p, HAND0 + i]] != E_MISSION_BONUS
    return n


@njit(cache=True)
def car_free_steps(game, env, here, own, steps):
    """How far, up to `steps`, a shortest route from `here` toward `own` goes before a police
    district (NYK-M2: `best_step` does not walk into a check)."""
    frontier, cars = np.int64(1) << np.int64(here), car_districts(game, np.int64(0))
    for k in range(steps):
        frontier = car_free_frontier(env, frontier, own, cars)
        if frontier == 0:
            return k
    return steps


@njit(cache=True)
def car_free_frontier(env, frontier, goal, cars):
    """The districts (bits) one step from those of `frontier` closer to `goal` without a police
    car, the cars standing on the districts `cars` (bits) (NYK-M2): the next districts of the
    shortest routes that meet no check."""
    reached = np.int64(0)
    rest = frontier
    while rest:
        d = lowest_bit(rest)
        rest &= rest - 1
        for j in range(env.nbr[d, 0]):
            nb = env.nbr[d, 1 + j]
            if env.dist[nb, goal] < env.dist[d, goal] and not (cars >> nb) & 1:
                reached |= np.int64(1) << np.int64(nb)
    return reached


@njit(cache=True)
def car_districts(game, gone):
    """The districts (bits) where a police car stands, but the cars `gone` (bits)."""
    mask = np.int64(0)
    for k in range(N_POLICE):
        d = game.g[POLICE0 + k]
        if d >= 0 and not (gone >> k) & 1:
            mask |= np.int64(1) << np.int64(d)
    return mask


@njit(cache=True)
def shared_way(env, here, a, b):
    """How far shortest routes from `here` to `a` and to `b` go together: the farthest district
    on the way to both."""
    far = 0
    for x in range(env.rp[RP_N_DISTRICTS]):
        if on_the_way(env, here, x, a) and on_the_way(env, here, x, b):
            far = max(far, env.dist[here, x])
    return far


@njit(cache=True)
def on_the_way(env, here, stop, goal):
    """`stop` lies on a shortest route from `here` to `goal`."""
    return env.dist[here, stop] + env.dist[stop, goal] == env.dist[here, goal]


@njit(cache=True)
def keeps_everyone_on_the_way(game, env, p, group, here, to, goal, memo):
    """A step of `group` from `here` to `to` leaves every member's goal on its way to `goal` (a
    member already at its goal is dropped first: `best_step`), or, for a member whose way parts
    from the group's (`parts_no_farther`), brings it closer to its own."""
    rest = group
    while rest:
        c = lowest_bit(rest)
        rest &= rest - 1
        own = remembered_goal(game, env, p, c, memo)
        if on_the_way(env, here, own, goal):
            if not on_the_way(env, to, own, goal):
                return False
        elif not on_the_way(env, here, to, own):
            return False
    return True


@njit(cache=True)
def parted_here(env, here, own, goal):
    """A member bound for `own` is where its way leaves the group's to `goal` (NYK-M4: dropped
    here, it saves the group none of its steps and is carried no farther off its own way)."""
    return own == here or (not on_the_way(env, here, own, goal) and shared_way(env, here, own, goal) == 0)


@njit(cache=True)
def same_job(game, group, m):
    rest = group
    while rest:
        c = lowest_bit(rest)
        rest &= rest - 1
        if game.ch[c, MISSION] != m:
            return False
    return True


@njit(cache=True)
def movement_card_gain(game, env, p, kind, target, memo, best_journey):
    if kind == E_RELEASE_CUSTODY:
        return 4000.0 * env.params[p, K_CARD_EVENTS]
    if kind == E_POLICE_PLACE:  # worth the best district it can go to (picked next)
        return place_gain(game, env, p, ANYWHERE)
    if kind == E_EXTRA_MOVE:  # played just before the journey it lengthens, when a goal lies beyond it
        if best_journey > 0.0 and far_goal(game, env, p, memo):
            return best_journey + 1.0 + 1000.0 * env.params[p, K_CARD_EVENTS]
        return 0.0
    if kind == E_POLICE_MOVE:  # the car's best first step, when it helps (the steps come next)
        gain = car_worth(game, env, p, target, memo, 0.0)
        return max(gain, 0.0) * env.params[p, K_CARD_EVENTS]
    return 0.0


@njit(cache=True)
def place_gain(game, env, p, d):
    """A car placed on d (from BROADWAY; ANYWHERE: its best district): worth it on a rival's
    public at-risk destination."""
    for m in range(N_MISSIONS):
        if game.ms[m, M_STATE] != MS_HELD or not game.ms[m, M_RISK] or game.ms[m, M_HOLDER] == p:
            continue
        dest = seen_dest(game, p, m)
        if dest != NO and (dest == d or (d == ANYWHERE and dest != env.rp[RP_STATION])):
            return 6000.0 * env.params[p, K_POLICE_BLOCK]
    return 0.0


@njit(cache=True)
def best_place(game, env, p, opts, n):
    best, pick = 0.0, 0
    for i in range(n):
        score = place_gain(game, env, p, opts[i, 1])
        if score > best:
            best, pick = score, i
    return pick


@njit(cache=True)
def far_goal(game, env, p, memo):
    """Whether an unmoved character's goal lies beyond the ordinary steps, on an open road (or one
    its player opens, driving the cars off it: `cars_driven_off`)."""
    todo = game.pl[p, ROSTER]
    while todo:
        c = lowest_bit(todo)
        todo &= todo - 1
        if game.ch[c, WHERE] == W_CONTROLLED and game.ch[c, MOVED] == 0:
            here, goal = game.ch[c, LOC], remembered_goal(game, env, p, c, memo)
            risky = carries_risk(game, np.int64(1) << np.int64(c))
            if beyond_reach(game, env, p, here, goal, risky, memo):
                return True
            if rides_the_subway(game, env, p, c, here, goal) and beyond_the_ride(game, env, here, goal, risky):
                return True
    return False


@njit(cache=True)
def takes_the_subway(env, p, far):
    """`journey_gain` rides the subway to a goal `far` districts away beyond the ordinary steps."""
    return far > env.rp[P_MOVE_STEPS] and env.params[p, K_SUBWAY] >= 0.5


@njit(cache=True)
def rides_the_subway(game, env, p, c, here, goal):
    """Character c may ride the subway from `here` this turn (NYK-M6, `may_ride_subway`) and its
    player takes the ride there."""
    return (env.restrict[p] & R_NO_SUBWAY_HELI == 0 and may_ride_subway(game, env, np.int64(1) << np.int64(c), here)
            and takes_the_subway(env, p, env.dist[here, goal]))


@njit(cache=True)
def beyond_the_ride(game, env, here, goal, risky):
    """The goal lies beyond a subway ride from `here` and the Fast Car's steps go on from where it
    ends (NYK-C5, M6, M8): past a check only where the ride or the steps beyond it are checked
    (`subway.ignores_police`, `subway.card_steps`), a shortest way free of one that far."""
    ride = env.rp[P_SUBWAY_STEPS]
    if env.dist[here, goal] <= ride:
        return False
    cars = car_districts(game, np.int64(0))
    if not passes_police(env, MODE_SUBWAY, True):
        return open_road(game, env, here, goal, ride + 1, risky, cars)
    if passes_police(env, MODE_SUBWAY, False):
        return True
    for x in range(env.rp[RP_N_DISTRICTS]):
        if env.dist[here, x] == ride and on_the_way(env, here, x, goal) and open_road(
                game, env, x, goal, 1, risky, cars):
            return True
    return False


@njit(cache=True)
def beyond_reach(game, env, p, here, goal, risky, memo):
    """The goal lies beyond the ordinary steps and a step beyond them can be free: a shortest
    route goes that far without a check (NYK-M2: a check stops the journey, and the Fast Car's
    steps with it), the cars standing where p drives them first (`cars_once_driven`, weighed only
    for a goal that far)."""
    steps = env.rp[P_MOVE_STEPS]
    if env.dist[here, goal] <= steps:
        return False
    return open_road(game, env, here, goal, steps + 1, risky, cars_once_driven(game, env, p, here, goal, risky, memo))


@njit(cache=True)
def cars_once_driven(game, env, p, here, goal, risky, memo):
    """The districts (bits) holding a police car once p drove the cars it will off the way from
    `here` to `goal` (`cars_driven_off`): where they stood but those, and where they go."""
    gone, parked = cars_driven_off(game, env, p, here, goal, risky, memo)
    return car_districts(game, gone) | parked


@njit(cache=True)
def cars_driven_off(game, env, p, here, goal, risky, memo):
    """The police cars (bits) standing on the way from `here` to `goal` that p, the first player,
    will drive off this turn (NYK-M5), and the districts (bits) they go to: a car it may still
    move whose best step is worth more than the step into its check, as `best_step` weighs them
    once the crew stands beside the car (`car_worth` against the step's score). The step's worth
    is `car_step_worth` over the way of p's other characters (`route_but` the crew standing
    here): whether the district it goes to blocks the crew is for `open_road` to tell, with the
    car standing there. A car driven onto `here` itself is no check: the crew has not set out,
    and leaves freely (NYK-M3)."""
    gone, parked = np.int64(0), np.int64(0)
    if game.g[FIRST] != p:
        return gone, parked
    watched, crews = remembered_watch(game, p, memo), remembered_crews(game, memo)
    route = np.int64(-1)  # found for the first car on the way (a route is a set of districts, never negative)
    floor = max(0.0, STEP_WORTH - check_cost(env, p, risky))
    for k in range(N_POLICE):
        d = game.g[POLICE0 + k]
        if d < 0 or game.g[POLICE_STEPS0 + k] >= env.rp[P_POLICE_MOVE_STEPS] or not on_the_way(env, here, d, goal):
            continue
        if route < 0:
            route = route_but(game, env, p, unmoved_at(game, p, here))
        best, dest = NEVER, NO
        for j in range(env.nbr[d, 0]):
            to = env.nbr[d, 1 + j]
            worth = car_step_worth(game, env, p, k, to, watched, crews, route)
            if worth > best:
                best, dest = worth, to
        if best > floor:
            gone |= np.int64(1) << np.int64(k)
            if dest != here:
                parked |= np.int64(1) << np.int64(dest)
    return gone, parked


@njit(cache=True)
def unmoved_at(game, p, d):
    """p's characters (bits) standing on d (`group_at`) that have not moved this turn."""
    mask = np.int64(0)
    rest = group_at(game, p, d)
    while rest:
        c = lowest_bit(rest)
        rest &= rest - 1
        if game.ch[c, MOVED] == 0:
            mask |= np.int64(1) << np.int64(c)
    return mask


@njit(cache=True)
def check_stops(to, goal, risky):
    """A police check on `to` costs a journey bound for `goal` (NYK-M2: it stops the journey short
    of the goal; on the goal itself, it questions a crew at risk, NYK-P4). A crew not at risk
    ends its journey on its goal anyway."""
    return risky or to != goal


@njit(cache=True)
def check_cost(env, p, risky):
    """What `best_step` takes off a step into a police check (NYK-M2: it stops the journey; a crew
    at risk is questioned there too, NYK-P4), where it stops the journey (`check_stops`)."""
    return 20000.0 if risky else CHECK_COST + 6000.0 * env.params[p, K_AVOID_POLICE]


@njit(cache=True)
def open_road(game, env, here, goal, steps, risky, cars):
    """Whether some shortest route from `here` goes `steps` districts toward `goal` (or reaches it)
    without entering a police district on the way (nor the goal's, for a crew at risk: it would
    be questioned there, NYK-P4), the police cars standing on the districts `cars` (bits). Every
    district of the frontier lies as far from the goal, so the goal is the next step once that
    distance is one."""
    frontier = np.int64(1) << np.int64(here)
    for k in range(steps):
        if env.dist[here, goal] - k == 1:
            return not (risky and (cars >> goal) & 1)  # `check_stops` on the goal
        frontier = car_free_frontier(env, frontier, goal, cars)
        if frontier == 0:
            return False
    return True


@njit(cache=True)
def passes_checks(env, ctx):
    """The journey's next step enters a police district without a check (`passes_police`:
    NYK-M6, M8), a subway ride's steps counted in the decision's context."""
    return passes_police(env, ctx[CTX_MODE], ctx[CTX_STEPS] < env.rp[P_SUBWAY_STEPS])


@njit(cache=True)
def best_step(game, env, p, opts, n, group, unchecked=False):
    """One step of a journey (NYK-M1, M2, M8) of the characters `group`: closer to the goal,
    around the police (but on a ride that passes them unchecked: `passes_checks`)."""
    second = min(1, n - 1)
    if opts[second, 0] == OP_POLICE and opts[second, 2] != NO:  # a police-move card's steps
        return best_police_step(game, env, p, opts, n)
    here = game.ch[lowest_bit(group), LOC] if group else NO
    memo = decision_memo(env)
    goal = group_goal(game, env, p, group, memo) if group else NO
    risky = carries_risk(game, group)
    best, pick = 0.0, 0
    for i in range(n):
        op = opts[i, 0]
        score = 0.0
        if op == OP_DROP:
            if parted_here(env, here, remembered_goal(game, env, p, opts[i, 1], memo), goal):
                score = 9000.0
        elif op == OP_POLICE:  # NYK-M5: the first player moving a car in the middle of a journey
            score = car_worth(game, env, p, opts[i, 1], memo, best)
        elif op == OP_STEP and goal != NO:
            to = opts[i, 1]
            closer = env.dist[here, goal] - env.dist[to, goal]
            if closer <= 0:
                continue
            if group & (group - 1) and not keeps_everyone_on_the_way(game, env, p, group, here, to, goal, memo):
                continue  # a member would be carried past its goal
            score = STEP_WORTH * closer
            if police_at(game, to) > 0 and not unchecked and check_stops(to, goal, risky):
                score -= check_cost(env, p, risky)  # a check stops the journey: a car-free step as close wins
            elif open_ahead(game, env, to, goal, risky):
                score += OPEN_ROAD_BONUS  # NYK-M2: of car-free steps as close, one whose way on is free too
            if opts[i, 2] != NO:  # NYK-M8: a card spent as a bonus move
                if only_juicy_jobs(game, env, p) and not finishes_job(game, p, group, to):
                    continue  # NYK-C5: a Juicy Job is worth more on the job than a step short of it
                if paid_before(game, env, p, group, here, to):
                    continue  # NYK-M8: a card paid this step for an earlier journey that could have carried it
                score -= 1000.0 + 6000.0 * (1.0 - env.params[p, K_CARD_MOVES])
        if score > best and permitted(game, D_STEP, opts, n, i, env.restrict[p]):
            best, pick = score, i
    return pick


@njit(cache=True)
def paid_before(game, env, p, group, here, to):
    """The step from `here` to `to` retraces, past the ordinary steps, the way of an earlier journey
    of p this turn from the district `group` set out from (a character of p that went a shortest
    way through `to` from there), neither carrying a job at risk: that journey paid a card for the
    step (NYK-M8) and could have carried the group (NYK-M4). A goal can change within the movement
    (a car driven off a job's destination, NYK-M5), so the group was no group then; it does not pay
    the same step again."""
    if carries_risk(game, group):
        return False
    start = game.ch[lowest_bit(group), START]
    if env.dist[start, to] <= env.rp[P_MOVE_STEPS] or env.dist[start, to] != env.dist[start, here] + 1:
        return False
    rest = game.pl[p, ROSTER] & ~group
    while rest:
        c = lowest_bit(rest)
        rest &= rest - 1
        there = game.ch[c, LOC]
        if (game.ch[c, WHERE] == W_CONTROLLED and game.ch[c, START] == start and game.ch[c, STEPS] > 0
                and game.ch[c, STEPS] == env.dist[start, there] and on_the_way(env, start, to, there)
                and not carries_risk(game, np.int64(1) << np.int64(c))):
            return True
    return False


@njit(cache=True)
def open_ahead(game, env, to, goal, risky):
    """From `to`, a shortest route toward `goal` goes on without a check for as far as a journey
    with a Fast Car still could (NYK-M2, C5): a greedy step that leaves only police ahead stops
    the journey and wastes the steps left. A crew at risk whose goal holds a car goes no farther
    than next to it (NYK-P4: questioned there), so its road ends there: a way that gets that far
    beats one that stops sooner."""
    near = env.dist[to, goal] - (risky and police_at(game, goal) > 0)
    ahead = min(near, env.rp[P_MOVE_STEPS] + 1)
    return ahead <= 0 or open_road(game, env, to, goal, ahead, risky, car_districts(game, np.int64(0)))


@njit(cache=True)
def only_juicy_jobs(game, env, p):
    """Every card in p's hand is a mission bonus (Juicy Job): a step would cost one of them
    (`least_useful_card` throws any other card first)."""
    return game.pl[p, HAND_KINDS] == np.int64(1) << np.int64(E_MISSION_BONUS)


@njit(cache=True)
def finishes_job(game, p, group, to):
    """A member of p's `group` holds a job whose destination is `to`."""
    rest = group
    while rest:
        c = lowest_bit(rest)
        rest &= rest - 1
        m = game.ch[c, MISSION]
        if m != NO and seen_dest(game, p, m) == to:
            return True
    return False


@njit(cache=True)
def best_police_step(game, env, p, opts, n):
    best, pick = 0.0, 0
    watched, crews = watched_missions(game, p), crews_at_risk(game)
    route = own_route(game, env, p)
    for i in range(n):
        if opts[i, 0] == OP_POLICE:
            score = car_step_worth(game, env, p, opts[i, 1], opts[i, 2], watched, crews, route)
            if score > best:
                best, pick = score, i
    return pick


# --- actions -----------------------------------------------------------------------------------------

@njit(cache=True)
def best_action(game, env, p, opts, n):
    """NYK-A1..A8 and own-turn cards: the option of highest worth, if any is worth anything."""
    best, pick = 0.0, 0
    r = env.restrict[p]
    for i in range(n):
        if not permitted(game, D_ACTION, opts, n, i, r):
            continue
        if opts[i, 0] == OP_PROVOKE and not first_spender(game, p, opts[i, 1], opts[i, 3]):
            continue  # the same fight as an earlier option's, of the same worth: it cannot be better
        score = action_worth(game, env, p, opts[i, 0], opts[i, 1], opts[i, 2], opts[i, 3])
        if score > best:
            best, pick = score, i
    return pick


@njit(cache=True)
def first_spender(game, p, d, c):
    """Whether c is the first of p's characters on d that can still act: the engine lists a
    provocation (NYK-A4) once per such character, theirs first, and its worth (the fight of all
    the characters on d, `provoke_worth`) is the same whoever spends the action."""
    rest = group_at(game, p, d)
    while rest:
        first = lowest_bit(rest)
        rest &= rest - 1
        if game.ch[first, ACTED] == 0:
            return first == c
    return True


@njit(cache=True)
def action_worth(game, env, p, op, a, b, c):
    if op == OP_ACCOMPLISH:
        return 100000.0 + game.ms[a, M_REWARD]
    if op == OP_ACCEPT:
        m = game.g[ROW0 + a]
        v = mission_value(game, env, p, m, game.ms[m, M_ACCEPT])
        return 50000.0 + v if v >= env.params[p, K_ACCEPT_MIN] else 0.0
    if op == OP_PROVOKE:
        return provoke_worth(game, env, p, a, b)
    if op == OP_RECRUIT:
        return recruit_worth(game, env, p, a, b, c)
    if op == OP_PLAY:
        return card_worth(game, env, p, a, b, c)
    if op == OP_PART:
        return part_worth(game, env, p, a)
    return 0.0


@njit(cache=True)
def part_worth(game, env, p, c):
    """NYK-A7: part with henchman c to free a stand when every stand is taken, the turn's
    recruitment is still to come, and a henchman within reach is worth clearly more than c, the
    least worth of p's free henchmen."""
    where = game.ch[p, WHERE]  # the affranchi recruits from the board or, by ruling, custody
    free = where == W_CONTROLLED or (where == W_CUSTODY and env.rp[P_RECRUIT_FROM_CUSTODY])
    if (not free or count_henchmen(game, p) < env.rp[P_HENCHMEN_MAX] or env.params[p, K_RECRUIT_DRIVE] <= 0
            or env.restrict[p] & R_NO_RECRUIT or game.pl[p, RECRUITED] >= env.rp[P_RECRUIT_PER_TURN]):
        return 0.0
    family = largest_suits(game, p)
    keep = henchman_worth_in(game, env, p, c, family)
    rest = game.pl[p, ROSTER] & HENCHMEN_MASK
    while rest:
        o = lowest_bit(rest)
        rest &= rest - 1
        if (o != c and game.ch[o, WHERE] == W_CONTROLLED and game.ch[o, MISSION] == NO
                and henchman_worth_in(game, env, p, o, family) < keep):
            return 0.0  # part with the least worth first
    targets = recruit_targets(game, env, p)
    best = 0.0
    for h in range(N_AFFRANCHI, N_CHARS):
        if (targets >> h) & 1:
            best = max(best, recruit_worth(game, env, p, h, ANY_OFFER, NO) - 10000.0)
    best = max(best, best_poach(game, env, p))
    gain = best - keep
    return 15000.0 + gain if gain > 1000.0 else 0.0


@njit(cache=True)
def best_poach(game, env, p):
    """What the best henchman a poach card in p's hand could take (NYK-A8) is worth, net of its
    price: the rivals' free henchmen up to the card's rank."""
    best = 0.0
    for i in range(game.pl[p, HAND_N]):
        card = game.pl[p, HAND0 + i]
        if env.rp[RP_R_KIND + card] != E_POACH_HENCHMAN:
            continue
        top = env.rp[RP_R_PARAMS + MAX_PARAMS * card + 1]
        for h in range(N_AFFRANCHI, N_CHARS):
            q = game.ch[h, OWNER]
            if (q != NO and q != p and game.ch[h, WHERE] == W_CONTROLLED
                    and game.ch[h, MISSION] == NO and game.ch[h, VALUE] <= top):
                best = max(best, card_worth(game, env, p, card, E_POACH_HENCHMAN, h))
    return best


@njit(cache=True)
def provoke_worth(game, env, p, d, q):
    """NYK-A4: provoke when the exact fusillade edge clears the wanted margin, more so when the
    affranchi stands in the fight (its death ends the game, NYK-A5)."""
    mine = group_at(game, p, d)
    need = env.params[p, K_PROVOKE_EDGE]
    if in_mask(mine, p):
        need += env.params[p, K_AFFRANCHI_CARE]
    if need >= 1.0:  # no edge is enough: the odds need not be looked up
        return 0.0
    theirs = group_at(game, q, d)
    edge = crew_edge(env, crew_code_of(game, mine), crew_code_of(game, theirs))
    if edge < need:
        return 0.0
    job = 0.0
    rest = theirs
    while rest:
        c = lowest_bit(rest)
        rest &= rest - 1
        if game.ch[c, MISSION] != NO:
            job = 5000.0
    return 20000.0 + 20000.0 * (edge - need) + job


@njit(cache=True)
def recruit_odds(value, dice, pay_hesitation):
    """NYK-A6: the best of `dice` dice above the value recruits; equal hesitates."""
    fails_up_to = value if pay_hesitation else value + 1  # only the power that is used
    return 1.0 - (fails_up_to / 6.0) ** dice


@njit(cache=True)
def henchman_worth(game, env, p, h):
    """A henchman's worth: its value in fights and ties, more if it grows the suit family."""
    return henchman_worth_in(game, env, p, h, largest_suits(game, p))


@njit(cache=True)
def henchman_worth_in(game, env, p, h, family):
    """henchman_worth, with p's largest suits (`largest_suits`) found once by a caller that weighs
    several henchmen."""
    worth = 6000.0 + 1500.0 * game.ch[h, VALUE]
    if (family >> game.ch[h, SUIT]) & 1:  # h's suit is (one of) p's largest (every henchman has a suit)
        worth += 4000.0 * env.params[p, K_FAMILY]
    return worth * (0.5 + env.params[p, K_RECRUIT_DRIVE])


@njit(cache=True)
def largest_suits(game, p):
    """The suits (bits) in which p has the most henchmen on the board: recruiting one of them
    raises the resource draw (NYK-T2)."""
    n0 = n1 = n2 = n3 = 0  # henchmen on the board per suit, in one pass: no array on this hot path
    todo = game.pl[p, ROSTER] & HENCHMEN_MASK
    while todo:
        c = lowest_bit(todo)
        todo &= todo - 1
        if game.ch[c, WHERE] == W_CONTROLLED:
            s = game.ch[c, SUIT]
            n0 += s == 0
            n1 += s == 1
            n2 += s == 2
            n3 += s == 3
    top = max(max(n0, n1), max(n2, n3))
    return int(n0 == top) | int(n1 == top) << 1 | int(n2 == top) << 2 | int(n3 == top) << 3


@njit(cache=True)
def recruit_worth(game, env, p, h, offer, card):
    """What trying h is worth; for ANY_OFFER, at the best offer (which is chosen next)."""
    worth = henchman_worth(game, env, p, h)
    if offer == ANY_OFFER:
        offer = best_offer_amount(game, env, p, h, card, worth)
    return offer_worth_of(game, env, p, h, offer, card, worth)


@njit(cache=True)
def offer_worth_of(game, env, p, h, offer, card, worth):
    """What offering `offer` for h is worth, h being worth `worth` (henchman_worth) to p."""
    if game.pl[p, MONEY] - offer < env.params[p, K_RESERVE] or env.params[p, K_RECRUIT_DRIVE] <= 0:
        return 0.0
    if last_turn(game):  # NYK-E1: fortune alone wins; the henchman cannot earn its price back
        return 0.0
    dice = offer // env.rp[P_RECRUIT_OFFER_STEP]
    if card != NO:  # NYK-A8: a recruiting card adds dice and lowers the price
        dice += env.rp[RP_R_PARAMS + MAX_PARAMS * card + 0]
        offer = max(offer - env.rp[RP_R_PARAMS + MAX_PARAMS * card + 1], 0)
    chance = recruit_odds(game.ch[h, VALUE], dice, env.params[p, K_HESITATE_PAY] >= 0.5)
    if chance < env.params[p, K_RECRUIT_MIN_P]:
        return 0.0
    return 10000.0 + chance * worth - offer


@njit(cache=True)
def best_offer_amount(game, env, p, h, card, worth):
    lo, hi, step = env.rp[P_RECRUIT_MIN_OFFER], env.rp[P_RECRUIT_MAX_OFFER], env.rp[P_RECRUIT_OFFER_STEP]
    best, pick = NEVER, lo
    offer = lo
    while offer <= hi and offer <= game.pl[p, MONEY]:
        if game.pl[p, MONEY] - offer < env.params[p, K_RESERVE] and best >= 0.0:
            break  # this offer and every larger one would break the reserve: worth 0, not better
        score = offer_worth_of(game, env, p, h, offer, card, worth)
        if score > best:
            best, pick = score, offer
        offer += step
    return pick


@njit(cache=True)
def best_offer(game, env, p, opts, n):
    """NYK-A6: the offer of highest worth for the chosen henchman."""
    best, pick = NEVER, 0
    worth, of = 0.0, NO  # the options list one henchman's offers: its worth found once
    for i in range(n):
        if opts[i, 1] != of:
            worth, of = henchman_worth(game, env, p, opts[i, 1]), opts[i, 1]
        score = offer_worth_of(game, env, p, opts[i, 1], opts[i, 2], opts[i, 3], worth)
        if score > best:
            best, pick = score, i
    return pick


@njit(cache=True)
def card_worth(game, env, p, card, kind, target):
    eager = 12000.0 * env.params[p, K_CARD_EVENTS] - 4000.0
    if kind == E_BANK_INCOME or kind == E_DRAW_CARDS or kind == E_STEAL_MONEY:
        return eager
    if kind == E_RECRUIT:
        return 0.0  # listed with offers as OP_RECRUIT rows
    if kind == E_POACH_HENCHMAN:
        price = env.rp[RP_R_PARAMS + MAX_PARAMS * card + 0]
        if game.pl[p, MONEY] - price < env.params[p, K_RESERVE] or env.restrict[p] & R_NO_RECRUIT or last_turn(game):
            return 0.0
        return henchman_worth(game, env, p, target) - price
    if kind == E_DISCARD_HENCHMAN:
        return eager + 1000.0 * game.ch[target, VALUE]
    return 0.0


# --- answers outside the own turn's flow ---------------------------------------------------------------

@njit(cache=True)
def whom_to_lose(game, opts, n):
    """NYK-A4/P5: never the affranchi while another can go; else the least worth."""
    best, pick = 1 << 30, 0
    for i in range(n):
        c = opts[i, 1]
        worth = game.ch[c, VALUE] + (3 if game.ch[c, MISSION] != NO else 0)
        if c < N_AFFRANCHI:
            worth += 100
        if worth < best:
            best, pick = worth, i
    return pick


@njit(cache=True)
def react(game, env, p, n, ctx):
    """Cards answering a window: cancel a rival's card when that rival is near the lead; income at
    the resources phase if eager; the fight, police and mission cards always."""
    window = ctx[CTX_WINDOW]
    if window == WIN_CARD_PLAYED:  # how rich the rival looks, as far as p can know (NYK-S2)
        q = ctx[CTX_OPPONENT]
        top = 0
        for s in range(game.g[N_PLAYERS]):
            if game.pl[s, ALIVE]:
                top = max(top, seen_standing(game, env, p, s))
        return n - 1 if seen_standing(game, env, p, q) >= (1.0 - env.params[p, K_CANCEL_CARDS]) * top else 0
    if window == WIN_RESOURCES:
        return n - 1 if env.params[p, K_CARD_EVENTS] > 1.0 / 3.0 else 0
    if window == WIN_INTIMIDATION:  # a re-roll only helps a hand with a die that pairs nothing
        return n - 1 if lone_die(ctx[CTX_CREW], ctx[CTX_OTHER_CREW]) else 0
    return n - 1  # each further card of the window is offered in turn: it plays them all


@njit(cache=True)
def lone_die(hand, dice):
    """Whether a die of `dice` shows a value found once in `hand` (packed counts)."""
    for rank in range(6):
        if (dice >> (4 * rank)) & 15 == 1 and (hand >> (4 * rank)) & 15 == 1:
            return True
    return False


@njit(cache=True)
def closest_to_exit(game, opts, n):
    """NYK-P6: a custody card for the affranchi's cell first, else the cell nearest the exit."""
    best, pick = 1 << 30, 1
    for i in range(1, n):
        c = opts[i, 1]
        if c == NO:
            return i
        score = game.ch[c, CELL] - (100 if c < N_AFFRANCHI else 0)
        if score < best:
            best, pick = score, i
    return pick


@njit(cache=True)
def richest_rival(game, env, p, opts, n):
    """NYK-P4: the police question the rival that looks richest to p (NYK-S2: as p can know)."""
    best, pick = -1, 0
    for i in range(n):
        q = opts[i, 1]
        if q != p and seen_standing(game, env, p, q) > best:
            best, pick = seen_standing(game, env, p, q), i
    return pick


@njit(cache=True)
def least_useful_card(env, opts, n):
    """Hand limit: the card to discard. A next-job bonus is kept last (NYK-C5), then the money
    cards, then protection (cancel an elimination, block an interrogation); every other card,
    fight cards included, goes first (keeping fight cards as protection measured +0.3 points
    [-0.4, +1.1] for one learned seat: docs/learned.md)."""
    best, pick = 99, 0
    for i in range(n):
        kind = env.rp[RP_R_KIND + opts[i, 1]]
        keep = 1
        if kind == E_MISSION_BONUS:  # a bonus on the next job accomplished (NYK-C5): the last to go
            keep = 4
        elif kind == E_BANK_INCOME or kind == E_STEAL_MONEY:
            keep = 3
        elif kind == E_CANCEL_ELIMINATION or kind == E_BLOCK_INTERROGATION:
            keep = 2
        if keep < best:
            best, pick = keep, i
    return pick


# --- `simple`: the engine's own plain player ---------------------------------------------------------

@njit(cache=True, inline="always")  # inlined into `simple`, itself inlined into `decide`
def target_of(game, env, c):
    """Where a character is heading: its mission's destination, else the nearest accept address
    of a mission on the row."""
    dist = env.dist
    m = game.ch[c, MISSION]
    here = game.ch[c, LOC]
    if m != NO:
        return seen_dest(game, game.ch[c, OWNER], m)
    best, best_d = here, 1 << 20
    for s in range(env.rp[P_MISSION_ROW]):
        r = game.g[ROW0 + s]
        if r == NO:
            continue
        d = game.ms[r, M_ACCEPT]
        if dist[here, d] < best_d:
            best, best_d = d, dist[here, d]
    return best


@njit(cache=True)
def first_in(mask):
    return lowest_bit(mask) if mask else NO


@njit(cache=True, inline="always")  # inlined into `decide`: no call, no counted option table and context
def simple(game, env, p, decision, opts, n, ctx):
    dist = env.dist
    if decision == D_BID:
        # bid the least, now and then a little more to take the police
        if below_of(game.rng, S_POLICY0 + p, 4) == 0:
            return below_of(game.rng, S_POLICY0 + p, n)
        best, k = 1 << 40, 0
        for i in range(n):
            if opts[i, 0] == OP_BID and opts[i, 1] < best:
                best, k = opts[i, 1], i
        return k
    if decision == D_MOVE:
        for i in range(n):
            if opts[i, 0] == OP_JOURNEY and opts[i, 3] == MODE_NORMAL and count_bits(opts[i, 2]) == 1:
                c = first_in(opts[i, 2])
                if target_of(game, env, c) != game.ch[c, LOC]:
                    return i
        for i in range(n):
            if opts[i, 0] == OP_POLICE and below_of(game.rng, S_POLICY0 + p, 4) == 0:
                return i
        return 0
    if decision == D_STEP:
        c = first_in(ctx[CTX_GROUP])
        if c == NO:
            return 0
        goal = target_of(game, env, c)
        here = game.ch[c, LOC]
        best, k = dist[here, goal], 0
        risky = game.ch[c, MISSION] != NO and game.ms[game.ch[c, MISSION], M_RISK]
        for i in range(n):
            if opts[i, 0] == OP_STEP and opts[i, 2] == NO:
                d = opts[i, 1]
                if risky and police_at(game, d) > 0:
                    continue
                if dist[d, goal] < best:
                    best, k = dist[d, goal], i
        return k
    if decision == D_ACTION:
        return simple_action(game, env, p, opts, n)
    if decision == D_REACT:
        if ctx[CTX_WINDOW] == WIN_CARD_PLAYED:
            return below_of(game.rng, S_POLICY0 + p, n)
        return n - 1
    if decision == D_POLICE:
        return harmless_step(game, env, p, opts, n)
    if (decision == D_FOLD or decision == D_RESIST or decision == D_LOSE or decision == D_HESITATE
            or decision == D_DEAL or decision == D_DEAL_ACCEPT or decision == D_OFFER or decision == D_HELI):
        return simple_rare(game, env, p, decision, opts, n, ctx)
    return below_of(game.rng, S_POLICY0 + p, n)


@njit(cache=True)  # a call of its own: inlined, each of its calls cost `decide` two stack slots cleared at entry
def simple_rare(game, env, p, decision, opts, n, ctx):
    """`simple`'s decisions of a few a game (fights, resisting, deals, offers, the helicopter)."""
    if decision == D_HELI:
        goal = target_of(game, env, first_in(ctx[CTX_GROUP]))
        for i in range(n):
            if opts[i, 1] == goal:
                return i
        return 0
    if decision == D_FOLD:
        if fighting_alone(game, p, ctx):  # NYK-A5: the game itself is at stake
            odds = win_chance(env, ctx[CTX_CREW], ctx[CTX_OTHER_CREW], dice_to_come(ctx[CTX_STAGE]))
            return 1 if odds < EVEN_ODDS else 0
        return 1 if ctx[CTX_THEIRS] // HAND_SCALE > ctx[CTX_MINE] // HAND_SCALE else 0
    if decision == D_RESIST:
        if alone_on(game, p, ctx[CTX_DISTRICT]):  # NYK-P5/A5: a lost resist costs the affranchi
            odds = win_chance(env, ctx[CTX_CREW], ctx[CTX_OTHER_CREW], env.rp[P_RESIST_DICE])
            return 1 if n > 1 and odds >= EVEN_ODDS else 0
        return 1 if below_of(game.rng, S_POLICY0 + p, 2) == 0 else 0
    if decision == D_LOSE:
        best, k = 99, 0
        for i in range(n):
            if opts[i, 0] == OP_CHAR and game.ch[opts[i, 1], VALUE] < best:
                best, k = game.ch[opts[i, 1], VALUE], i
        return k
    if decision == D_HESITATE:
        return n - 1 if game.pl[p, MONEY] >= ctx[CTX_THEIRS] + 4000 and not last_turn(game) else 0
    if decision == D_DEAL:  # pay to get a car off its own at-risk destination
        for i in range(1, n):
            if opts[i, 0] == OP_POLICE and own_risky_destination(game, p, game.g[POLICE0 + opts[i, 1]]):
                return i
        return 0
    if decision == D_DEAL_ACCEPT:  # the money, unless the car would question its own crew (NYK-P4)
        return 0 if arrival_gain(game, env, p, ctx[CTX_DISTRICT], crews_at_risk(game)) < 0.0 else n - 1
    if decision == D_OFFER:
        wanted = simple_offer(game, env, p, opts[0, 1])
        for i in range(n):
            if opts[i, 2] == wanted:
                return i
    return below_of(game.rng, S_POLICY0 + p, n)


@njit(cache=True)
def harmless_step(game, env, p, opts, n):
    """A car's step drawn at random, but not onto p's own at-risk crew when another step is
    harmless (NYK-P4): one draw, as a plain random pick takes."""
    harmless = 0
    crews = crews_at_risk(game)
    for i in range(n):
        harmless += arrival_gain(game, env, p, opts[i, 2], crews) == 0.0
    if harmless == 0 or harmless == n:
        return below_of(game.rng, S_POLICY0 + p, n)
    pick = below_of(game.rng, S_POLICY0 + p, harmless)
    for i in range(n):
        if arrival_gain(game, env, p, opts[i, 2], crews) == 0.0:
            if pick == 0:
                return i
            pick -= 1
    return 0


@njit(cache=True)
def simple_offer(game, env, p, h):
    """`simple` offers $1,000 per point of value plus $2,000, when it keeps $6,000 after it."""
    wanted = 1000 * (game.ch[h, VALUE] + 2)
    lo, hi, step = env.rp[P_RECRUIT_MIN_OFFER], env.rp[P_RECRUIT_MAX_OFFER], env.rp[P_RECRUIT_OFFER_STEP]
    if lo <= wanted <= hi and (wanted - lo) % step == 0 and game.pl[p, MONEY] >= wanted + 6000:
        return wanted
    return NO


@njit(cache=True)
def own_risky_destination(game, p, d):
    for m in range(N_MISSIONS):
        if (game.ms[m, M_STATE] == MS_HELD and game.ms[m, M_HOLDER] == p and game.ms[m, M_RISK]
                and seen_dest(game, p, m) == d):
            return True
    return False


@njit(cache=True, inline="always")  # inlined into `simple`, itself inlined into `decide`
def simple_action(game, env, p, opts, n):
    best, k = 0, 0
    for i in range(n):
        op = opts[i, 0]
        score = 0
        if op == OP_ACCOMPLISH:
            score = 100000 + game.ms[opts[i, 1], M_REWARD]
        elif op == OP_ACCEPT:
            m = game.g[ROW0 + opts[i, 1]]
            score = 50000 + game.ms[m, M_REWARD] - 1000 * game.ms[m, M_CREW]
            dest = seen_dest(game, p, m)
            if game.ms[m, M_RISK] and dest != NO and police_at(game, dest):
                score -= 5000
        elif op == OP_RECRUIT:
            if opts[i, 3] == NO and simple_offer(game, env, p, opts[i, 1]) != NO and not last_turn(game):
                score = 20000
        elif op == OP_PLAY and (opts[i, 2] == E_STEAL_MONEY or opts[i, 2] == E_BANK_INCOME
                                or opts[i, 2] == E_DRAW_CARDS):
            score = 10000  # money and cards: always worth playing
        elif op == OP_PROVOKE:
            if below_of(game.rng, S_POLICY0 + p, 10) == 0 and game.pl[p, MONEY] >= 6000:
                score = 5000
        if score > best:
            best, k = score, i
    return k
