"""The New York Kings engine: every rule of the checklist as jitted step functions on a `Game`.

Read top to bottom it follows the rulebook: setup (NYK-S), the turn (NYK-T1..T5) with its
corruption bid, resource draw, characters' movements (NYK-M, P) and actions (NYK-A), the end of the
turn, and the end of the game (NYK-E). Every choice goes through `decisions.choose` with the legal
options listed by the engine, so a strategy can never make an illegal move.

`env` (sim.nyk.env.Env) bundles what does not change during a game: the rules vector `rp`, the
board, the hand strength table of the NYK-H4 ruling, and each seat's policy.
"""

import numpy as np
from numba import njit

from sim.hands import add_value, table_key
from sim.nyk.decisions import (
    CTX_CREW, CTX_DECISION, CTX_DISTRICT, CTX_GROUP, CTX_MINE, CTX_MODE, CTX_OPPONENT, CTX_OTHER_CREW, CTX_POT,
    CTX_STAGE, CTX_STEPS, CTX_THEIRS, CTX_WINDOW, D_ACTION, D_BID, D_CUSTODY, D_DISCARD, D_FOLD,
    D_HELI, D_HESITATE, D_LOSE, D_MOVE, D_OFFER, D_PLACE, D_POLICE, ANY_CARD, ANY_OFFER, D_REACT, D_RESIST, D_STEP,
    D_WHOM, D_DEAL, D_DEAL_ACCEPT, MAX_OPTS, MODE_HELI,
    MODE_NORMAL, MODE_SUBWAY, OP_ACCEPT, OP_ACCOMPLISH, OP_BID, OP_CARD, OP_CHAR, OP_DROP,
    OP_END, OP_JOURNEY, OP_NO, OP_PART, OP_PICKUP, OP_PLAY, OP_PLAYER, OP_POLICE, OP_PROVOKE,
    OP_RECRUIT, OP_STEP, OP_STOP, OP_YES, WIN_ACCOMPLISHED, WIN_ACTIONS, WIN_CARD_PLAYED,
    WIN_FUSILLADE, WIN_INTERROGATED, WIN_INTIMIDATION, WIN_LOSING, WIN_MOVEMENT, WIN_RESOURCES,
    WIN_TURN_START, WIN_WON_FIGHT,
)
from sim.nyk.env import (
    RP_BILLS, RP_H_SUIT, RP_H_VALUE, RP_HELIPORT, RP_M_CREW, RP_M_REWARD, RP_M_RISK, RP_M_SECRET,
    RP_N_BILLS, RP_N_CARDS, RP_N_DISTRICTS, RP_N_TILES, RP_PERIPH, RP_R_KIND, RP_R_PARAMS,
    RP_R_TIMING, RP_R_WINDOW, RP_STATION, RP_SUBWAY, RP_TILES, RP_WIN_KINDS,
)
from sim.nyk.view import CHECK_VIEW, recruit_targets, redeal
from sim.nyk.script import forward_choice
from sim.nyk.state import FW_MODE, FW_POLICY
from sim.nyk.events import (
    EV_ACCEPT, EV_ACCOMPLISH, EV_AFFRANCHI_DIES, EV_ARREST, EV_BID, EV_CANCELLED, EV_CARD,
    EV_CARD_MOVE, EV_CHECK, EV_CUSTODY_STEP, EV_DISCARD, EV_DRAW, EV_END_CARD, EV_ESCAPE,
    EV_EXPIRE, EV_FIRST, EV_FOLD, EV_FUSILLADE, EV_GAME_END, EV_HELI, EV_INTERROGATION, EV_JOURNEY,
    EV_LOSE, EV_MISSION_LOST, EV_NO_TILE, EV_PART, EV_POLICE_BACK, EV_POLICE_MOVE, EV_PROVOKE,
    EV_RANK, EV_RECRUIT, EV_RECRUIT_RESULT, EV_RELEASED, EV_RESHUFFLE, EV_RESIST, EV_REVEAL,
    EV_SETUP, EV_STAGE, EV_STEP, EV_TURN, EV_DEAL,
)
from sim.nyk.state import (
    DECISIONS,
    EXTRA_STEPS, HAND_KINDS, HENCHMEN_MASK, ROSTER, carries_risk, count_henchmen, crew_code_of, group_at, lowest_bit,
    set_owner, C_AFFRANCHI_LOST, C_DEALS,
    C_DRAWN_BY_KIND, C_PLAYED_BY_KIND,
    C_DONE_BY_VALUE, C_FAVOURITE, C_FAVOURITE_WON, C_FUSILLADES, C_OFFERED_BY_VALUE, C_RAISED, C_TRIED_BY_VALUE,
    ACTED, ACTIVE, POLICE_CHECK, ALIVE, BROKEN, ALL_SUITS, BAG0, BAG_N, BANK, BANK_FAILURES, BY_FORTUNE, BY_HENCHMEN,
    BY_LAST_STANDING, BY_RANDOM, BY_SHARED, BY_VALUES, C_ACCEPTED_1, C_ACCEPTED_2,
    C_ACCEPTED_RISKY, C_ARRESTS, C_BIDS_PAID, C_CARD_INCOME, C_CARDS_AS_MOVES, C_CARDS_DISCARDED,
    C_CARDS_DRAWN, C_CARDS_PLAYED, C_CHARS_LOST, C_CUSTODY_TURNS, C_DONE_1, C_DONE_2, C_DONE_RISKY,
    C_FIGHTS_LOST, C_FIGHTS_TIED, C_FIGHTS_WON, C_FOLDS, C_HELI, C_HELI_SPENT, C_INTERROGATIONS,
    C_MISSION_INCOME, C_MISSIONS_LOST, C_PARTED, C_POLICE_MOVES, C_POTS_LOST, C_POTS_WON,
    C_PROVOKED, C_PROVOKED_BY, C_RECRUIT_SPENT, C_RECRUITS_DONE, C_RECRUITS_HESITATED,
    C_RECRUITS_TRIED, C_RESISTS, C_RESISTS_WON, C_SUBWAY, C_TIMES_FIRST, CAP_HIT, CELL, CHECK,
    DECIDED_BY, END_CARD, END_CARD_POS, END_REVEALED, FIRST, FORCED0, FORCED_N, FORCED_POS,
    GAME_OVER, H_DECK0, H_DECK_N, H_DISC0, H_DISC_N, HAND0, HAND_N, ILLEGAL, LAST_TURN, LOC,
    M_ACCEPT, M_CREW, M_DECK0, M_DECK_POS, M_DEST, M_HOLDER, M_REWARD, M_RISK, M_SECRET, M_SLOT,
    M_STATE, MAX_EVENTS, MAX_TURNS, MISSION, MONEY, MONEY_TOTAL, MOVED, MS_DECK, MS_DONE, MS_HELD,
    MS_OUT, MS_ROW, N_AFFRANCHI, N_CHARS, N_EVENTS, N_HENCHMEN, N_MISSIONS, N_PLAYERS, N_POLICE,
    NO, OWNER, PC_OFF, PC_RETURNING, PERIPH0, POLICE0, POLICE_STEPS0, POT, R_DECK0, R_DECK_N,
    R_DISC0, R_DISC_N, RANK, RECORD, RECRUITED, ROW0, START, STEPS, STOPPED, SUIT, TURN,
    TURNS_PLAYED, VALUE, W_CONTROLLED, W_CUSTODY, W_DEAD, W_DECK, W_DISCARD, W_PERIPHERAL, WHERE,
    WINNER, ZEROS, VIEW_MISMATCH, GAME_DTYPE, count_bits, in_mask, police_at,
)
from sim.nyk.state import (  # the sources of luck, one stream each (sim.rng)
    S_BAG, S_DICE0, S_FINAL, S_FIRST, S_HENCHMEN, S_MISSIONS, S_POLICE, S_RESOURCES, S_SETUP,
)
from sim.fights import LOSE, WIN
from sim.rng import below_of, roll_die_of, seed_streams
from strategies.nyk.policy import choose
from sim.rules.compiled import (
    CREW_ACTIONS_EACH, E_BANK_INCOME, E_DISCARD_HENCHMAN, E_DRAW_CARDS, E_EXTRA_MOVE,
    E_MISSION_BONUS, E_POACH_HENCHMAN, E_POLICE_MOVE, E_POLICE_PLACE, E_POLICE_REMOVE, E_RECRUIT,
    E_RELEASE_CUSTODY, E_STEAL_MONEY, MAX_PARAMS, P_BANK_BUNDLES_1000, P_BANK_BUNDLES_2000,
    P_BANK_BUNDLES_5000, P_BANK_FINITE, P_BONUS_STEPS_PER_CARD, P_CREW_ACTIONS, P_CUSTODY_CELLS,
    P_DEALS_ENABLED, P_DEALS_POLICE_MOVE_PRICE,
    P_CUSTODY_STEPS, P_END_CARD_AMONG_LAST, P_FOLD_PENALTY, P_FUSILLADE_RAISE, P_HAND_LIMIT,
    P_HELIPORT_AT_RISK_ALLOWED, P_HELIPORT_COST, P_HENCHMEN_MAX, P_INTERROGATION_DICE,
    P_INTIMIDATION_DICE, P_LAST_TURNS, P_MISSION_ROW, P_MOVE_STEPS, P_POLICE_CAR_VALUE,
    P_POLICE_CARS_PER_RESHUFFLE, P_POLICE_MAX_CARS, P_POLICE_MOVE_STEPS, P_POLICE_START_CARS,
    P_PROVOCATION_ACTION, P_RAISE, P_RECRUIT_HESITATION_EXTRA, P_RECRUIT_MAX_OFFER,
    P_RECRUIT_MIN_OFFER, P_RECRUIT_OFFER_STEP, P_RECRUIT_PER_TURN, P_RESIST_DICE, P_STAKE,
    P_START_DISTRICT, P_SUBWAY_AT_RISK_ALLOWED, P_SUBWAY_IGNORES_POLICE, P_SUBWAY_STEPS, P_TIE_POT,
    P_TIEBREAK_LAST, PROVOKE_ACTION_ONE, START_RANDOM, AFFRANCHI_RANK, T_OPPONENT, T_OTHER, T_OWN, TIE_POT_RETURN,
    TIEBREAK_RANDOM, P_RESHUFFLE, P_RECRUIT_FROM_CUSTODY, P_ACT_ON_JOINING, P_CUSTODY_CARD_STEPS,
    P_RELEASE_FROZEN, P_POLICE_RETURN_AT, P_EMPTY_BAG, P_LAST_STANDING, RESHUFFLE_EMPTY,
    CUSTODY_CARD_ALL, CUSTODY_CARD_ONE, RETURN_BEFORE_BID, EMPTY_BAG_HOLD,
)

ONE = np.int64(1)
# NYK-C5: a black-icon card plays in a common phase or in these fight windows
FIGHT_WINDOWS = sum(1 << w for w in (WIN_INTIMIDATION, WIN_FUSILLADE, WIN_LOSING, WIN_WON_FIGHT))
# windows where one card that takes effect settles the matter (an interrogation blocked, a
# character saved): no second card is offered
SETTLED_BY_ONE = (1 << WIN_INTERROGATED) | (1 << WIN_LOSING)
CANCELLED = -3  # offer_card: the card was played and an opponent's card cancelled it


# --- little tools --------------------------------------------------------------------------------

@njit(cache=True)
def log(g, events, code, a=0, b=0, c=0, d=0, e=0, f=0):
    """Append an event row when the game is recorded (`mobsim play`). Takes the two arrays it
    writes, not the whole game, so its many call signatures compile cheaply."""
    if g[RECORD] == 0:
        return
    n = g[N_EVENTS]
    if n >= MAX_EVENTS:
        return
    row = events[n]
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


@njit(cache=True)
def ask(game, env, p, opts, n, ctx):
    """The decision interface: seat p picks one of the n legal options the engine listed, for
    the decision kind in ctx[CTX_DECISION] (set by the caller: kept out of the arguments, a
    constant there would make numba compile `ask` once per decision kind)."""
    if n <= 1:
        return 0
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
    redeal(shadow, env, p, game.g[DECISIONS])
    shadow.g[CHECK] = 0
    saved = game.rng.copy()  # the decision on the game itself leaves its generator as it was
    k = choose_once(game, env, p, opts, n, ctx)
    game.rng[:] = saved
    if choose_once(shadow, env, p, opts, n, ctx) != k:
        game.g[VIEW_MISMATCH] += 1


@njit(cache=True)
def choose_once(game, env, p, opts, n, ctx):
    """The policy as a call of its own (in `ask` it is inlined), for the check's two uses."""
    return choose(game, env, p, opts, n, ctx)


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


# --- money (NYK-S2, NYK-C3) -------------------------------------------------------------------

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


# --- setup (NYK-S1..S9) ------------------------------------------------------------------------

@njit(cache=True)
def setup(game, env, n_players, key, game_id):
    seed_streams(key, game_id, game.rng)
    g = game.g
    g[N_PLAYERS] = n_players
    g[FIRST] = 0
    # NYK-S2: the bank holds every valued bundle; it makes change at any time.
    g[BANK] = (1000 * env.rp[P_BANK_BUNDLES_1000] + 2000 * env.rp[P_BANK_BUNDLES_2000]
               + 5000 * env.rp[P_BANK_BUNDLES_5000])
    start = env.rp[P_START_DISTRICT]
    for p in range(n_players):
        game.pl[p, ALIVE] = 1
        for i in range(env.rp[RP_N_BILLS]):
            b = env.rp[RP_BILLS + i]
            if b == 0:
                game.pl[p, ZEROS] += 1
            else:
                game.pl[p, MONEY] += b
                g[BANK] -= b
    g[MONEY_TOTAL] = g[BANK] + game.pl[:, MONEY].sum()
    # NYK-S1: one affranchi each; start district by ruling (BROADWAY, a district, or random).
    for c in range(N_CHARS):
        game.ch[c, OWNER] = NO
        game.ch[c, LOC] = NO
        game.ch[c, MISSION] = NO
        if c < N_AFFRANCHI:
            game.ch[c, VALUE] = AFFRANCHI_RANK
            game.ch[c, SUIT] = ALL_SUITS
            game.ch[c, WHERE] = W_DEAD if c >= n_players else W_CONTROLLED
        else:
            game.ch[c, VALUE] = env.rp[RP_H_VALUE + c - N_AFFRANCHI]
            game.ch[c, SUIT] = env.rp[RP_H_SUIT + c - N_AFFRANCHI]
            game.ch[c, WHERE] = W_DECK
    for p in range(n_players):
        set_owner(game, p, p)
        game.ch[p, LOC] = (below_of(game.rng, S_SETUP, env.rp[RP_N_DISTRICTS]) if start == START_RANDOM else start)
    # NYK-S3: shuffle the henchmen; reveal four at BROOKLYN, UNION CITY, BRONX, QUEENS.
    for h in range(N_HENCHMEN):
        game.g[H_DECK0 + h] = N_AFFRANCHI + h
    g[H_DECK_N] = N_HENCHMEN
    shuffle(game, H_DECK0, N_HENCHMEN, S_HENCHMEN)
    for slot in range(4):
        refill_peripheral(game, env, slot)
    # NYK-S4/S5: the end card uniformly among the last `end_card_among_last` cards.
    for m in range(N_MISSIONS):
        game.g[M_DECK0 + m] = m
        game.ms[m, M_STATE] = MS_DECK
        game.ms[m, M_CREW] = env.rp[RP_M_CREW + m]
        game.ms[m, M_RISK] = env.rp[RP_M_RISK + m]
        game.ms[m, M_SECRET] = env.rp[RP_M_SECRET + m]
        game.ms[m, M_REWARD] = env.rp[RP_M_REWARD + m]
    for m in range(N_MISSIONS + 1):
        game.ms[m, M_SLOT] = NO
        game.ms[m, M_ACCEPT] = NO
        game.ms[m, M_DEST] = NO
        game.ms[m, M_HOLDER] = NO
    game.ms[END_CARD, M_STATE] = MS_DECK
    shuffle(game, M_DECK0, N_MISSIONS, S_MISSIONS)
    last = min(env.rp[P_END_CARD_AMONG_LAST], N_MISSIONS + 1)
    pos = N_MISSIONS + 1 - last + below_of(game.rng, S_MISSIONS, last)
    for i in range(N_MISSIONS, pos, -1):
        game.g[M_DECK0 + i] = game.g[M_DECK0 + i - 1]
    game.g[M_DECK0 + pos] = END_CARD
    g[END_CARD_POS] = pos
    g[M_DECK_POS] = 0
    # NYK-S6: the address tiles in the bag.
    g[BAG_N] = env.rp[RP_N_TILES]
    for i in range(env.rp[RP_N_TILES]):
        game.g[BAG0 + i] = env.rp[RP_TILES + i]
    # NYK-S7: reveal the mission row with its tiles, the first card on space 1 (each reveal
    # enters on space 1 and pushes the others right, so the row is read back in drawing order).
    row_n = env.rp[P_MISSION_ROW]
    for _ in range(row_n):
        reveal_mission(game, env)
    for s in range(row_n // 2):
        a, b = game.g[ROW0 + s], game.g[ROW0 + row_n - 1 - s]
        game.g[ROW0 + s], game.g[ROW0 + row_n - 1 - s] = b, a
    for s in range(row_n):
        if game.g[ROW0 + s] != NO:
            game.ms[game.g[ROW0 + s], M_SLOT] = s
    # NYK-S8: shuffle the resources.
    n_cards = env.rp[RP_N_CARDS]
    for i in range(n_cards):
        game.g[R_DECK0 + i] = i
    g[R_DECK_N] = n_cards
    shuffle(game, R_DECK0, n_cards, S_RESOURCES)
    # NYK-S9: police cars at BROADWAY.
    for k in range(min(env.rp[P_POLICE_START_CARS], N_POLICE)):
        game.g[POLICE0 + k] = env.rp[RP_STATION]
    log(game.g, game.events, EV_SETUP, n_players, pos)


@njit(cache=True)
def refill_peripheral(game, env, slot):
    """NYK-A6: a henchman card replaces a recruited one at once; reshuffle the discard if needed."""
    if game.g[H_DECK_N] == 0 and game.g[H_DISC_N] > 0:
        for i in range(game.g[H_DISC_N]):
            game.g[H_DECK0 + i] = game.g[H_DISC0 + i]
            game.ch[game.g[H_DISC0 + i], WHERE] = W_DECK
        game.g[H_DECK_N] = game.g[H_DISC_N]
        game.g[H_DISC_N] = 0
        shuffle(game, H_DECK0, game.g[H_DECK_N], S_HENCHMEN)
    if game.g[H_DECK_N] == 0:
        game.g[PERIPH0 + slot] = NO  # no henchmen left in New York tonight
        return
    game.g[H_DECK_N] -= 1
    c = game.g[H_DECK0 + game.g[H_DECK_N]]
    game.g[PERIPH0 + slot] = c
    game.ch[c, WHERE] = W_PERIPHERAL
    game.ch[c, LOC] = env.rp[RP_PERIPH + slot]


@njit(cache=True)
def discard_henchman_card(game, c):
    set_owner(game, c, NO)
    game.ch[c, LOC] = NO
    game.ch[c, CELL] = 0
    game.ch[c, WHERE] = W_DISCARD
    game.g[H_DISC0 + game.g[H_DISC_N]] = c
    game.g[H_DISC_N] += 1


# --- missions (NYK-C4, S7, T4, T5, A1, A2) -----------------------------------------------------

@njit(cache=True)
def draw_tile(game):
    n = game.g[BAG_N]
    if n == 0:
        return NO
    i = below_of(game.rng, S_BAG, n)
    d = game.g[BAG0 + i]
    game.g[BAG0 + i] = game.g[BAG0 + n - 1]
    game.g[BAG_N] = n - 1
    return d


@njit(cache=True)
def return_tile(game, d):
    if d != NO:
        game.g[BAG0 + game.g[BAG_N]] = d
        game.g[BAG_N] += 1


@njit(cache=True)
def reveal_mission(game, env):
    """Put the next mission on space 1, shifting the others right (NYK-T4, A1 refill).

    Returns False once the end card has shown (NYK-T5: no more missions are revealed), or when
    no card could be put out. Ruling `missions.empty_bag`: a card whose address tiles cannot be
    drawn (the bag is empty) is discarded for the next one, or held on the deck.
    """
    row_n = env.rp[P_MISSION_ROW]
    while True:
        if game.g[END_REVEALED] or game.g[M_DECK_POS] > N_MISSIONS:
            return False
        m = game.g[M_DECK0 + game.g[M_DECK_POS]]
        game.g[M_DECK_POS] += 1
        if m == END_CARD:
            game.g[END_REVEALED] = 1
            game.g[LAST_TURN] = game.g[TURN] + env.rp[P_LAST_TURNS]
            game.ms[END_CARD, M_STATE] = MS_DONE
            log(game.g, game.events, EV_END_CARD, game.g[LAST_TURN])
            return False
        accept = draw_tile(game)
        dest = NO
        if accept != NO and not game.ms[m, M_SECRET]:
            dest = draw_tile(game)
            if dest == NO:
                return_tile(game, accept)
                accept = NO
        if accept == NO and env.rp[P_EMPTY_BAG] == EMPTY_BAG_HOLD:
            game.g[M_DECK_POS] -= 1  # ruling NYK-T4 "hold": it waits on the deck for its tiles
            return False
        if accept == NO:
            game.ms[m, M_STATE] = MS_OUT
            log(game.g, game.events, EV_NO_TILE, m)
            continue
        gap = 0  # the first empty space: the cards before it shift right by one
        while gap < row_n - 1 and game.g[ROW0 + gap] != NO:
            gap += 1
        for s in range(gap, 0, -1):
            game.g[ROW0 + s] = game.g[ROW0 + s - 1]
            game.ms[game.g[ROW0 + s], M_SLOT] = s
        game.g[ROW0 + 0] = m
        game.ms[m, M_STATE] = MS_ROW
        game.ms[m, M_SLOT] = 0
        game.ms[m, M_ACCEPT] = accept
        game.ms[m, M_DEST] = dest
        log(game.g, game.events, EV_REVEAL, m, accept, dest)
        return True


@njit(cache=True)
def take_from_row(game, env, slot):
    """Remove the mission at `slot` and close the gap toward space 1 (NYK-A1)."""
    m = game.g[ROW0 + slot]
    for s in range(slot, 0, -1):
        game.g[ROW0 + s] = game.g[ROW0 + s - 1]
        if game.g[ROW0 + s] != NO:
            game.ms[game.g[ROW0 + s], M_SLOT] = s
    game.g[ROW0 + 0] = NO
    game.ms[m, M_SLOT] = NO
    return m


@njit(cache=True)
def mission_out(game, m):
    """A mission leaves the game: its tiles go back to the bag."""
    return_tile(game, game.ms[m, M_ACCEPT])
    return_tile(game, game.ms[m, M_DEST])
    game.ms[m, M_ACCEPT] = NO
    game.ms[m, M_DEST] = NO
    game.ms[m, M_STATE] = MS_OUT
    game.ms[m, M_HOLDER] = NO


@njit(cache=True)
def holders(game, m):
    mask = np.int64(0)
    for c in range(N_CHARS):
        if game.ch[c, MISSION] == m:
            mask |= ONE << c
    return mask


@njit(cache=True)
def leave_mission(game, c):
    """Character c stops holding its mission (death, custody). A mission left with no holder
    ends (NYK-A2); a crew-2 mission keeps its survivor, who needs a new associate."""
    m = game.ch[c, MISSION]
    if m == NO:
        return
    game.ch[c, MISSION] = NO
    if holders(game, m) == 0:
        p = game.ms[m, M_HOLDER]
        mission_out(game, m)
        game.pl[p, C_MISSIONS_LOST] += 1
        log(game.g, game.events, EV_MISSION_LOST, p, m)


@njit(cache=True)
def end_of_turn_missions(game, env):
    """NYK-T4: the mission on the last space leaves the game; a new one comes on space 1."""
    last = env.rp[P_MISSION_ROW] - 1
    m = game.g[ROW0 + last]
    if m != NO:
        game.g[ROW0 + last] = NO
        game.ms[m, M_SLOT] = NO
        mission_out(game, m)
        log(game.g, game.events, EV_EXPIRE, m)
    if not reveal_mission(game, env):
        for s in range(last, 0, -1):  # no new card: the others still shift toward the end
            game.g[ROW0 + s] = game.g[ROW0 + s - 1]
            if game.g[ROW0 + s] != NO:
                game.ms[game.g[ROW0 + s], M_SLOT] = s
        game.g[ROW0 + 0] = NO


# --- resources (NYK-T2, C5, M8) ----------------------------------------------------------------

@njit(cache=True)
def add_police_car(game, env):
    """NYK-P1: one more police car at BROADWAY, up to the cars in the box. Whether it finds an
    at-risk crew there is checked by the phase that drew the card (`police_check`)."""
    cap = min(env.rp[P_POLICE_MAX_CARS], N_POLICE)
    in_play = 0
    for k in range(N_POLICE):
        if game.g[POLICE0 + k] != PC_OFF:
            in_play += 1
    for k in range(N_POLICE):
        if game.g[POLICE0 + k] == PC_OFF and in_play < cap:
            game.g[POLICE0 + k] = env.rp[RP_STATION]
            game.g[POLICE_CHECK] = 1
            return


@njit(cache=True)
def police_check(game, env):
    """A car added at BROADWAY interrogates there like any arriving car (NYK-P4)."""
    if game.g[POLICE_CHECK]:
        game.g[POLICE_CHECK] = 0
        police_arrived(game, env, env.rp[RP_STATION], game.g[FIRST])


@njit(cache=True)
def reshuffle_resources(game, env):
    """NYK-T2: the discard becomes the new pile, and one more police car comes (NYK-P1)."""
    n = game.g[R_DISC_N]
    if n == 0:
        return
    for i in range(n):
        game.g[R_DECK0 + i] = game.g[R_DISC0 + i]
    game.g[R_DECK_N] = n
    game.g[R_DISC_N] = 0
    shuffle(game, R_DECK0, n, S_RESOURCES)
    log(game.g, game.events, EV_RESHUFFLE, n)
    for _ in range(env.rp[P_POLICE_CARS_PER_RESHUFFLE]):
        add_police_car(game, env)


@njit(cache=True)
def draw_card(game, env, p):
    """Draw one resource. Ruling `resources.reshuffle`: the pile is rebuilt as soon as it is
    empty (or only at the next draw); an empty pile with an empty discard draws nothing."""
    if game.g[R_DECK_N] == 0:
        reshuffle_resources(game, env)
        if game.g[R_DECK_N] == 0:
            return False
    game.g[R_DECK_N] -= 1
    card = game.g[R_DECK0 + game.g[R_DECK_N]]
    game.pl[p, HAND0 + game.pl[p, HAND_N]] = card
    game.pl[p, HAND_N] += 1
    game.pl[p, HAND_KINDS] |= ONE << env.rp[RP_R_KIND + card]
    game.pl[p, C_CARDS_DRAWN] += 1
    game.pl[p, C_DRAWN_BY_KIND + env.rp[RP_R_KIND + card]] += 1
    if game.g[R_DECK_N] == 0 and env.rp[P_RESHUFFLE] == RESHUFFLE_EMPTY:
        reshuffle_resources(game, env)
    return True


@njit(cache=True)
def discard_card(game, env, p, card):
    n = game.pl[p, HAND_N]
    for i in range(n):
        if game.pl[p, HAND0 + i] == card:
            game.pl[p, HAND0 + i] = game.pl[p, HAND0 + n - 1]
            game.pl[p, HAND_N] = n - 1
            game.g[R_DISC0 + game.g[R_DISC_N]] = card
            game.g[R_DISC_N] += 1
            game.pl[p, HAND_KINDS] = kinds_in_hand(game, env, p)
            return


@njit(cache=True)
def kinds_in_hand(game, env, p):
    kinds = np.int64(0)
    for i in range(game.pl[p, HAND_N]):
        kinds |= ONE << env.rp[RP_R_KIND + game.pl[p, HAND0 + i]]
    return kinds


@njit(cache=True)
def draw_count(game, p):
    """NYK-T2/P7: the largest number of p's characters in one suit, the affranchi in every suit,
    characters in custody left out."""
    best = 0
    affranchi = 1 if (game.pl[p, ALIVE] and game.ch[p, WHERE] == W_CONTROLLED) else 0
    for suit in range(4):  # no array: this runs for every player every turn
        n = affranchi
        todo = game.pl[p, ROSTER] & HENCHMEN_MASK
        while todo:
            c = lowest_bit(todo)
            todo &= todo - 1
            n += game.ch[c, WHERE] == W_CONTROLLED and game.ch[c, SUIT] == suit
        best = max(best, n)
    return best


@njit(cache=True)
def enforce_hand_limit(game, env, p, opts, ctx):
    limit = env.rp[P_HAND_LIMIT]
    while game.pl[p, HAND_N] > limit:
        n = 0
        for i in range(game.pl[p, HAND_N]):
            n = put(opts, n, OP_CARD, game.pl[p, HAND0 + i])
        ctx[CTX_DECISION] = D_DISCARD
        k = ask(game, env, p, opts, n, ctx)
        discard_card(game, env, p, opts[k, 1])
        game.pl[p, C_CARDS_DISCARDED] += 1
        log(game.g, game.events, EV_DISCARD, p, opts[k, 1])


@njit(cache=True)
def resources_phase(game, env, order, n_order, opts, ctx):
    for i in range(n_order):
        p = order[i]
        drawn = 0
        for _ in range(draw_count(game, p)):
            if draw_card(game, env, p):
                drawn += 1
        log(game.g, game.events, EV_DRAW, p, drawn)
        enforce_hand_limit(game, env, p, opts, ctx)
        police_check(game, env)
    for i in range(n_order):
        react(game, env, order[i], WIN_RESOURCES, NO, opts, ctx)
        police_check(game, env)


# --- resource events (NYK-C5) -----------------------------------------------------------------

@njit(cache=True)
def playable(game, env, p, card, window):
    """NYK-C5: a card plays only at the moment it states (its `window` in the content file), and
    when its icon allows: blue on its owner's turn, red on an opponent's, black in a common phase
    (no player's turn) or a fight."""
    if env.rp[RP_R_WINDOW + card] != window:
        return False
    timing = env.rp[RP_R_TIMING + card]
    active = game.g[ACTIVE]
    if timing == T_OWN:
        return active == p
    if timing == T_OPPONENT:
        return active != p and active != NO
    return timing == T_OTHER and (active == NO or (FIGHT_WINDOWS >> window) & 1 == 1)


@njit(cache=True)
def has_card_for(game, env, p, window):
    """Whether p holds a card it may play in `window` now."""
    if env.rp[RP_WIN_KINDS + window] & game.pl[p, HAND_KINDS] == 0:
        return False
    for i in range(game.pl[p, HAND_N]):
        if playable(game, env, p, game.pl[p, HAND0 + i], window):
            return True
    return False


@njit(cache=True)
def cancelled_by_informer(game, env, p, card, opts, ctx):
    """NYK-C5: the others, in turn, may answer a card just played for its event with a card of
    the `card_played` window (cancel_card, e.g. Informer). The answering card is not answered in
    turn (the deck holds one)."""
    n_players = game.g[N_PLAYERS]
    for i in range(1, n_players):
        q = (p + i) % n_players
        if not game.pl[q, ALIVE] or not has_card_for(game, env, q, WIN_CARD_PLAYED):
            continue
        ctx[CTX_WINDOW] = WIN_CARD_PLAYED
        ctx[CTX_OPPONENT] = p
        ctx[CTX_MINE] = env.rp[RP_R_KIND + card]
        n = put(opts, 0, OP_END)
        for j in range(game.pl[q, HAND_N]):
            answer = game.pl[q, HAND0 + j]
            if playable(game, env, q, answer, WIN_CARD_PLAYED):
                n = put(opts, n, OP_PLAY, answer, env.rp[RP_R_KIND + answer])
        ctx[CTX_DECISION] = D_REACT
        k = ask(game, env, q, opts, n, ctx)
        if k > 0:
            answer = opts[k, 1]
            discard_card(game, env, q, answer)
            game.pl[q, C_CARDS_PLAYED] += 1
            game.pl[q, C_PLAYED_BY_KIND + env.rp[RP_R_KIND + answer]] += 1
            log(game.g, game.events, EV_CANCELLED, q, answer, p, card)
            return True
    return False


@njit(cache=True)
def spend_event(game, env, p, card, opts, ctx):
    """Discard a card played for its event; False if an opponent cancelled it."""
    discard_card(game, env, p, card)
    game.pl[p, C_CARDS_PLAYED] += 1
    game.pl[p, C_PLAYED_BY_KIND + env.rp[RP_R_KIND + card]] += 1
    log(game.g, game.events, EV_CARD, p, card, env.rp[RP_R_KIND + card])
    return not cancelled_by_informer(game, env, p, card, opts, ctx)


@njit(cache=True)
def offer_card(game, env, p, window, subject, opts, ctx):
    """NYK-C5: offer p one more card for `window` (or none). Returns the card played, CANCELLED
    when an opponent's card cancelled it, or NO when p plays none. Called in a loop: a player
    may play as many cards as it wishes, one after another, each answerable."""
    if env.rp[RP_WIN_KINDS + window] & game.pl[p, HAND_KINDS] == 0:
        return NO
    n = put(opts, 0, OP_END)
    for i in range(game.pl[p, HAND_N]):
        card = game.pl[p, HAND0 + i]
        if playable(game, env, p, card, window):
            n = put(opts, n, OP_PLAY, card, env.rp[RP_R_KIND + card])
    if n == 1:
        return NO
    ctx[CTX_WINDOW] = window
    ctx[CTX_DECISION] = D_REACT
    k = ask(game, env, p, opts, n, ctx)
    if k == 0:
        return NO
    card = opts[k, 1]
    if not spend_event(game, env, p, card, opts, ctx):
        return CANCELLED
    return card


@njit(cache=True)
def react(game, env, p, window, subject, opts, ctx):
    """NYK-C5: p plays cards for `window` one after another (resources phase, a mission just
    accomplished, an opponent's turn start, an interrogation, a loss) and each takes effect
    unless cancelled. Returns how many took effect; an interrogation blocked or a character saved
    needs one."""
    done = 0
    while True:
        if window == WIN_TURN_START and police_at(game, subject) == 0:
            return done
        card = offer_card(game, env, p, window, subject, opts, ctx)
        if card == NO:
            return done
        if card == CANCELLED:
            continue
        done += 1
        kind = env.rp[RP_R_KIND + card]
        amount = env.rp[RP_R_PARAMS + MAX_PARAMS * card + 0]
        if kind == E_BANK_INCOME:
            game.pl[p, C_CARD_INCOME] += bank_pays(game, env, p, amount)
        elif kind == E_DRAW_CARDS:
            for _ in range(amount):
                draw_card(game, env, p)
            enforce_hand_limit(game, env, p, opts, ctx)
        elif kind == E_MISSION_BONUS:
            paid = bank_pays(game, env, p, amount)
            game.pl[p, C_CARD_INCOME] += paid
            game.pl[p, C_MISSION_INCOME] += paid
        elif kind == E_POLICE_REMOVE:
            for _ in range(amount):
                remove_one_car(game, env, subject)
        if (SETTLED_BY_ONE >> window) & 1:
            return done


@njit(cache=True)
def remove_one_car(game, env, d):
    """A police car on district d goes back to BROADWAY (Payoff)."""
    for k in range(N_POLICE):
        if game.g[POLICE0 + k] == d and d != env.rp[RP_STATION]:
            game.g[POLICE0 + k] = env.rp[RP_STATION]
            log(game.g, game.events, EV_POLICE_BACK, k, d)
            return


# --- characters leaving play (NYK-A4, A5, P4, P5) --------------------------------------------------

@njit(cache=True)
def eliminate(game, env, c):
    """A character dies. An affranchi's death puts its player out at once (NYK-A5)."""
    p = game.ch[c, OWNER]
    leave_mission(game, c)
    game.pl[p, C_CHARS_LOST] += 1
    log(game.g, game.events, EV_LOSE, p, c)
    if c < N_AFFRANCHI:
        game.ch[c, WHERE] = W_DEAD
        game.ch[c, LOC] = NO
        game.pl[p, C_AFFRANCHI_LOST] += 1
        player_out(game, env, p)
    else:
        game.ch[c, WHERE] = W_DEAD
        set_owner(game, c, NO)
        game.ch[c, LOC] = NO


@njit(cache=True)
def player_out(game, env, p):
    """NYK-A5: bills, resources and henchmen of a dead affranchi's player are discarded."""
    game.pl[p, ALIVE] = 0
    game.g[BANK] += game.pl[p, MONEY]
    game.pl[p, MONEY] = 0
    while game.pl[p, HAND_N] > 0:
        discard_card(game, env, p, game.pl[p, HAND0 + 0])
    todo = game.pl[p, ROSTER] & HENCHMEN_MASK
    while todo:
        c = lowest_bit(todo)
        todo &= todo - 1
        if (game.ch[c, WHERE] == W_CONTROLLED
                                       or game.ch[c, WHERE] == W_CUSTODY):
            leave_mission(game, c)
            discard_henchman_card(game, c)
    log(game.g, game.events, EV_AFFRANCHI_DIES, p)


@njit(cache=True)
def to_custody(game, env, c):
    """NYK-P4: into the last custody cell; a lone holder's mission ends (NYK-A2)."""
    leave_mission(game, c)
    game.ch[c, WHERE] = W_CUSTODY
    game.ch[c, LOC] = NO
    game.ch[c, CELL] = env.rp[P_CUSTODY_CELLS]
    game.ch[c, MOVED] = 1


@njit(cache=True)
def choose_loss(game, env, p, group, opts, ctx):
    """The victim chooses which of its characters in `group` is lost (NYK-A4, P5)."""
    n = 0
    rest = group
    while rest:
        c = lowest_bit(rest)
        rest &= rest - 1
        n = put(opts, n, OP_CHAR, c)
    if n == 0:
        return NO
    ctx[CTX_DECISION] = D_LOSE
    return opts[ask(game, env, p, opts, n, ctx), 1]


# --- police (NYK-M2, M5, P1..P7) -----------------------------------------------------------------

@njit(cache=True)
def crew_packed(game, group):
    packed = np.int64(0)
    rest = group
    while rest:
        c = lowest_bit(rest)
        rest &= rest - 1
        packed = add_value(packed, game.ch[c, VALUE])
    return packed


@njit(cache=True)
def roll_n(game, src, packed, n):
    for _ in range(n):
        packed = add_value(packed, die(game, src))
    return packed


@njit(cache=True)
def police_arrived(game, env, d, mover):
    """NYK-P4: police on a district with at-risk carriers interrogate one player there, chosen
    by the police mover when several could be."""
    if police_at(game, d) == 0:
        return
    opts, ctx = game.opts2, game.ctx2  # own scratch: called in the middle of moves
    n = 0
    for p in range(game.g[N_PLAYERS]):
        if game.pl[p, ALIVE] and carries_risk(game, group_at(game, p, d)):
            n = put(opts, n, OP_PLAYER, p)
    if n == 0:
        return
    ctx[CTX_DISTRICT] = d
    ctx[CTX_DECISION] = D_WHOM
    victim = opts[ask(game, env, mover, opts, n, ctx), 1]
    interrogate(game, env, victim, d)


@njit(cache=True)
def interrogate(game, env, p, d):
    """NYK-P4: 3 dice + the crew against 3 dice + a J per car; the crew must be strictly stronger.
    NYK-P5: with its affranchi present the crew may resist with a 4th and 5th die each."""
    opts, ctx = game.opts2, game.ctx2  # own scratch: called in the middle of moves
    group = group_at(game, p, d)
    cars = police_at(game, d)
    game.pl[p, C_INTERROGATIONS] += 1
    if react(game, env, p, WIN_INTERROGATED, d, opts, ctx) > 0:  # e.g. Alibi
        log(game.g, game.events, EV_INTERROGATION, p, d, cars, -1, -1)
        return
    police = np.int64(0)
    for _ in range(cars):
        police = add_value(police, env.rp[P_POLICE_CAR_VALUE])
    n_dice = env.rp[P_INTERROGATION_DICE]
    crew = roll_n(game, S_DICE0 + p, crew_packed(game, group), n_dice)
    police = roll_n(game, S_POLICE, police, n_dice)
    mine, theirs = env.table[table_key(crew)], env.table[table_key(police)]
    log(game.g, game.events, EV_INTERROGATION, p, d, cars, mine, theirs)
    if mine > theirs:
        log(game.g, game.events, EV_ESCAPE, p, d)
        return
    lost = NO
    if in_mask(group, p):
        ctx[CTX_MINE], ctx[CTX_THEIRS], ctx[CTX_DISTRICT] = mine, theirs, d
        ctx[CTX_CREW] = crew
        ctx[CTX_OTHER_CREW] = police
        ctx[CTX_STAGE] = cars
        n = put(opts, 0, OP_NO)
        n = put(opts, n, OP_YES)
        ctx[CTX_DECISION] = D_RESIST
        if ask(game, env, p, opts, n, ctx) == 1:
            game.pl[p, C_RESISTS] += 1
            extra = env.rp[P_RESIST_DICE]
            crew = roll_n(game, S_DICE0 + p, crew, extra)
            police = roll_n(game, S_POLICE, police, extra)
            mine, theirs = env.table[table_key(crew)], env.table[table_key(police)]
            log(game.g, game.events, EV_RESIST, p, d, mine, theirs)
            if mine > theirs:
                game.pl[p, C_RESISTS_WON] += 1
                for k in range(N_POLICE):
                    if game.g[POLICE0 + k] == d:
                        game.g[POLICE0 + k] = PC_RETURNING
                return
            lost = choose_loss(game, env, p, group, opts, ctx)
    arrest(game, env, p, group, lost)


@njit(cache=True)
def arrest(game, env, p, group, lost):
    """The at-risk mission is discarded; `lost` (if any) dies, the others go to the last cell."""
    game.pl[p, C_ARRESTS] += 1
    rest = group
    while rest:
        c = lowest_bit(rest)
        rest &= rest - 1
        m = game.ch[c, MISSION]
        if m != NO and game.ms[m, M_RISK]:
            for h in range(N_CHARS):
                if game.ch[h, MISSION] == m:
                    game.ch[h, MISSION] = NO
            mission_out(game, m)
            game.pl[p, C_MISSIONS_LOST] += 1
    rest = group
    while rest:
        c = lowest_bit(rest)
        rest &= rest - 1
        if c != lost:
            to_custody(game, env, c)
    log(game.g, game.events, EV_ARREST, p, group, lost)  # logged once the crew is in custody
    if lost != NO:
        eliminate(game, env, lost)


@njit(cache=True)
def return_police(game, env):
    """NYK-P5: cars removed by a resisting crew come back at BROADWAY at the start of the next
    turn, put there by its first player (ruling `police.return_at`: after the bid, or before)."""
    for k in range(N_POLICE):
        if game.g[POLICE0 + k] == PC_RETURNING:
            game.g[POLICE0 + k] = env.rp[RP_STATION]
            police_arrived(game, env, env.rp[RP_STATION], game.g[FIRST])


@njit(cache=True)
def move_police(game, env, k, dest, mover):
    game.g[POLICE0 + k] = dest
    game.g[POLICE_STEPS0 + k] += 1
    game.pl[mover, C_POLICE_MOVES] += 1
    log(game.g, game.events, EV_POLICE_MOVE, mover, k, dest)
    police_arrived(game, env, dest, mover)


# --- movement (NYK-M1..M8, P6) -----------------------------------------------------------------

@njit(cache=True)
def custody_phase(game, env, p, opts, ctx):
    """NYK-P6: p's characters in custody move one cell toward the exit; each discarded card buys
    one more cell, by ruling `custody.card_steps` for the characters of one cell (moving
    together, as a bonus move does, NYK-M8), for every character in custody, or for one."""
    steps = env.rp[P_CUSTODY_STEPS]
    todo = game.pl[p, ROSTER]
    while todo:
        c = lowest_bit(todo)
        todo &= todo - 1
        if game.ch[c, WHERE] == W_CUSTODY:
            game.pl[p, C_CUSTODY_TURNS] += 1
            for _ in range(steps):
                custody_step(game, env, c)
    mode = env.rp[P_CUSTODY_CARD_STEPS]
    while game.pl[p, HAND_N] > 0:
        n = put(opts, 0, OP_END)
        cells = 0  # the cells already listed (bit per cell)
        todo = game.pl[p, ROSTER]
        while todo:
            c = lowest_bit(todo)
            todo &= todo - 1
            if game.ch[c, WHERE] != W_CUSTODY:
                continue
            if mode == CUSTODY_CARD_ALL:
                n = put(opts, n, OP_CHAR, NO)
                break
            if mode == CUSTODY_CARD_ONE or not in_mask(cells, game.ch[c, CELL]):
                n = put(opts, n, OP_CHAR, c)
                cells |= ONE << game.ch[c, CELL]
        if n == 1:
            return
        ctx[CTX_DECISION] = D_CUSTODY
        k = ask(game, env, p, opts, n, ctx)
        if k == 0:
            return
        target = opts[k, 1]
        card = pay_with_card(game, env, p, ctx)
        discard_card(game, env, p, card)
        game.pl[p, C_CARDS_AS_MOVES] += 1
        cell = game.ch[target, CELL] if target != NO else 0
        todo = game.pl[p, ROSTER]
        while todo:
            c = lowest_bit(todo)
            todo &= todo - 1
            if game.ch[c, WHERE] == W_CUSTODY and (
                    mode == CUSTODY_CARD_ALL or c == target
                    or (mode != CUSTODY_CARD_ONE and game.ch[c, CELL] == cell)):
                custody_step(game, env, c)


@njit(cache=True)
def custody_step(game, env, c):
    if game.ch[c, WHERE] != W_CUSTODY:
        return
    if game.ch[c, CELL] > 1:
        game.ch[c, CELL] -= 1
        log(game.g, game.events, EV_CUSTODY_STEP, game.ch[c, OWNER], c, game.ch[c, CELL])
        return
    release(game, env, c)


@njit(cache=True)
def release(game, env, c):
    """Leaving cell 1, a character is back at BROADWAY. Ruling `custody.release_frozen`: that is
    its movement this turn, or it moves on from BROADWAY like a character that started there."""
    game.ch[c, WHERE] = W_CONTROLLED
    game.ch[c, CELL] = 0
    game.ch[c, LOC] = env.rp[RP_STATION]
    frozen = env.rp[P_RELEASE_FROZEN] == 1
    game.ch[c, MOVED] = 1 if frozen else 0
    game.ch[c, STOPPED] = 1 if frozen else 0
    game.ch[c, STEPS] = 0
    game.ch[c, START] = env.rp[RP_STATION]
    log(game.g, game.events, EV_RELEASED, game.ch[c, OWNER], c)


@njit(cache=True)
def unmoved_at(game, p, d):
    mask = np.int64(0)
    todo = game.pl[p, ROSTER]
    while todo:
        c = lowest_bit(todo)
        todo &= todo - 1
        if game.ch[c, WHERE] == W_CONTROLLED and game.ch[c, LOC] == d and game.ch[c, MOVED] == 0:
            mask |= ONE << c
    return mask


@njit(cache=True)
def list_journeys(game, env, p, opts, n, police_steps_left):
    """NYK-M1/M4/M6/M7: any group of p's unmoved characters on one district may set out, on
    foot, by subway from GRAND CENTRAL, or by helicopter from FINANCIAL."""
    done = np.int64(0)
    todo = game.pl[p, ROSTER]
    while todo:
        c = lowest_bit(todo)
        todo &= todo - 1
        if in_mask(done, c) or game.ch[c, WHERE] != W_CONTROLLED:
            continue
        if game.ch[c, MOVED]:
            continue
        d = game.ch[c, LOC]
        here = unmoved_at(game, p, d)
        done |= here
        # every non-empty subset of the characters here, as one travelling group
        sub = here
        while sub:
            n = put(opts, n, OP_JOURNEY, d, sub, MODE_NORMAL)
            if d == env.rp[RP_SUBWAY] and all_started_at(game, sub, d) and (
                    env.rp[P_SUBWAY_AT_RISK_ALLOWED] or not carries_risk(game, sub)):
                n = put(opts, n, OP_JOURNEY, d, sub, MODE_SUBWAY)
            if d == env.rp[RP_HELIPORT] and all_started_at(game, sub, d) and (
                    env.rp[P_HELIPORT_AT_RISK_ALLOWED] or not carries_risk(game, sub)) and (
                    game.pl[p, MONEY] >= env.rp[P_HELIPORT_COST] * count_bits(sub)):
                n = put(opts, n, OP_JOURNEY, d, sub, MODE_HELI)
            sub = (sub - 1) & here
    if police_steps_left:
        n = list_police_cars(game, env, opts, n)
    return n


@njit(cache=True)
def all_started_at(game, group, d):
    rest = group
    while rest:
        c = lowest_bit(rest)
        rest &= rest - 1
        if game.ch[c, START] != d:
            return False
    return True


@njit(cache=True)
def may_move_car(game, env, k):
    """NYK-M5: each car up to `police.move_steps` connected districts this turn."""
    d = game.g[POLICE0 + k]
    return d >= 0 and game.g[POLICE_STEPS0 + k] < env.rp[P_POLICE_MOVE_STEPS]


@njit(cache=True)
def list_police_moves(game, env, opts, n):
    """Every single step of a car that may still move, as (car, destination) options."""
    for k in range(N_POLICE):
        if may_move_car(game, env, k):
            n = list_car_steps(env, k, game.g[POLICE0 + k], opts, n)
    return n


@njit(cache=True)
def list_car_steps(env, k, d, opts, n):
    for j in range(env.nbr[d, 0]):
        n = put(opts, n, OP_POLICE, k, env.nbr[d, 1 + j])
    return n


@njit(cache=True)
def list_police_cars(game, env, opts, n):
    """The cars the first player may move now, one option each (the destination comes next,
    see `drive`: listing every step of every car at every move would dwarf the other options)."""
    for k in range(N_POLICE):
        if may_move_car(game, env, k):
            n = put(opts, n, OP_POLICE, k, NO)
    return n


@njit(cache=True)
def drive(game, env, p, k, ctx):
    """NYK-M5: p moves car k one step, to the neighbour it picks."""
    opts = game.opts2
    n = list_car_steps(env, k, game.g[POLICE0 + k], opts, 0)
    ctx[CTX_DECISION] = D_POLICE
    move_police(game, env, k, opts[ask(game, env, p, opts, n, ctx), 2], p)


@njit(cache=True)
def movement_phase(game, env, p, opts, ctx):
    custody_phase(game, env, p, opts, ctx)
    mover = p == game.g[FIRST]
    if mover and env.rp[P_DEALS_ENABLED]:
        police_deals(game, env, p, opts, ctx)
    while True:
        n = put(opts, 0, OP_END)
        n = list_journeys(game, env, p, opts, n, mover)
        n = list_movement_cards(game, env, p, opts, n)
        n = list_partings(game, p, opts, n)
        ctx[CTX_DECISION] = D_MOVE
        k = ask(game, env, p, opts, n, ctx)
        op = opts[k, 0]
        if op == OP_END:
            break
        if op == OP_POLICE:
            drive(game, env, p, opts[k, 1], ctx)
        elif op == OP_JOURNEY:
            journey(game, env, p, opts[k, 1], opts[k, 2], opts[k, 3], opts, ctx)
        elif op == OP_PLAY:
            movement_card(game, env, p, opts[k, 1], opts[k, 2], opts[k, 3], opts, ctx)
        elif op == OP_PART:
            part_with(game, p, opts[k, 1])
    # a character that did not set out has still had its movement; unused extra steps lapse
    game.pl[p, EXTRA_STEPS] = 0
    todo = game.pl[p, ROSTER]
    while todo:
        c = lowest_bit(todo)
        todo &= todo - 1
        game.ch[c, MOVED] = 1


@njit(cache=True)
def police_deals(game, env, first, opts, ctx):
    """NYK-E2 (optional deal model): before the first player moves, each other player in turn may
    offer to buy one police step at the set price; the first player takes the money and makes the
    move, or refuses. A bought step counts against the car's steps this turn (NYK-M5)."""
    price = env.rp[P_DEALS_POLICE_MOVE_PRICE]
    n_players = game.g[N_PLAYERS]
    for i in range(1, n_players):
        q = (first + i) % n_players
        if not game.pl[q, ALIVE] or game.pl[q, MONEY] < price:
            continue
        n = list_police_moves(game, env, opts, put(opts, 0, OP_NO))
        if n == 1:
            return
        ctx[CTX_OPPONENT], ctx[CTX_POT] = first, price
        ctx[CTX_DECISION] = D_DEAL
        k = ask(game, env, q, opts, n, ctx)
        if k == 0:
            continue
        car, dest = opts[k, 1], opts[k, 2]
        ctx[CTX_OPPONENT], ctx[CTX_MINE], ctx[CTX_DISTRICT] = q, car, dest
        n = put(opts, put(opts, 0, OP_NO), OP_YES)
        ctx[CTX_DECISION] = D_DEAL_ACCEPT
        if ask(game, env, first, opts, n, ctx) == 1:
            player_pays_player(game, q, first, price)
            game.pl[q, C_DEALS] += 1
            game.pl[first, C_DEALS] += 1
            log(game.g, game.events, EV_DEAL, q, first, price, car, dest)
            move_police(game, env, car, dest, first)


@njit(cache=True)
def list_movement_cards(game, env, p, opts, n):
    """Cards of the movement window (NYK-C5): police moves and placements, extra moves, custody."""
    if game.pl[p, HAND_KINDS] & env.rp[RP_WIN_KINDS + WIN_MOVEMENT] == 0:
        return n
    for i in range(game.pl[p, HAND_N]):
        card = game.pl[p, HAND0 + i]
        if not playable(game, env, p, card, WIN_MOVEMENT):
            continue
        kind = env.rp[RP_R_KIND + card]
        if kind == E_POLICE_MOVE:
            for k in range(N_POLICE):
                if game.g[POLICE0 + k] >= 0:
                    n = put(opts, n, OP_PLAY, card, kind, k)
        elif kind == E_POLICE_PLACE and police_at(game, env.rp[RP_STATION]) > 0:
            n = put(opts, n, OP_PLAY, card, kind, NO)  # where: asked once played (`place_car`)
        elif kind == E_EXTRA_MOVE:
            n = put(opts, n, OP_PLAY, card, kind, NO)
        elif kind == E_RELEASE_CUSTODY:
            todo = game.pl[p, ROSTER]
            while todo:
                c = lowest_bit(todo)
                todo &= todo - 1
                if game.ch[c, WHERE] == W_CUSTODY:
                    n = put(opts, n, OP_PLAY, card, kind)
                    break
    return n


@njit(cache=True)
def movement_card(game, env, p, card, kind, target, opts, ctx):
    if not spend_event(game, env, p, card, opts, ctx):
        return
    if kind == E_POLICE_MOVE:
        steps = env.rp[RP_R_PARAMS + MAX_PARAMS * card + 1]
        for _ in range(steps):
            d = game.g[POLICE0 + target]
            if d < 0:
                break
            n = list_car_steps(env, target, d, opts, put(opts, 0, OP_STOP))
            ctx[CTX_DECISION] = D_STEP
            k = ask(game, env, p, opts, n, ctx)
            if k == 0:
                break
            game.g[POLICE0 + target] = opts[k, 2]
            game.pl[p, C_POLICE_MOVES] += 1
            log(game.g, game.events, EV_POLICE_MOVE, p, target, opts[k, 2])
            police_arrived(game, env, opts[k, 2], p)
    elif kind == E_EXTRA_MOVE:  # e.g. Fast Car: the next journey goes `steps` districts further
        game.pl[p, EXTRA_STEPS] += env.rp[RP_R_PARAMS + MAX_PARAMS * card + 0]
    elif kind == E_POLICE_PLACE:
        place_car(game, env, p, opts, ctx)
    elif kind == E_RELEASE_CUSTODY:
        todo = game.pl[p, ROSTER]
        while todo:
            c = lowest_bit(todo)
            todo &= todo - 1
            if game.ch[c, WHERE] == W_CUSTODY:
                for _ in range(env.rp[RP_R_PARAMS + MAX_PARAMS * card + 0]):
                    custody_step(game, env, c)


@njit(cache=True)
def place_car(game, env, p, opts, ctx):
    """A police_place card (NYK-C5): a car waiting at the station goes to any other district."""
    station = env.rp[RP_STATION]
    n = 0
    for d in range(env.rp[RP_N_DISTRICTS]):
        if d != station:
            n = put(opts, n, OP_STEP, d, NO)
    ctx[CTX_DECISION] = D_PLACE
    target = opts[ask(game, env, p, opts, n, ctx), 1]
    for k in range(N_POLICE):
        if game.g[POLICE0 + k] == station:
            game.g[POLICE0 + k] = target
            log(game.g, game.events, EV_POLICE_MOVE, p, k, target)
            police_arrived(game, env, target, p)
            break


@njit(cache=True)
def journey(game, env, p, d, group, mode, opts, ctx):
    """One group's movement, step by step, picking up and dropping characters on the way.

    A normal step is allowed while every member has moved fewer than `move.steps` districts and
    none met a police check (NYK-M1, M2); otherwise only a discarded card moves it on (M8, P2).
    """
    limit = env.rp[P_MOVE_STEPS]
    ignore_police = False
    log(game.g, game.events, EV_JOURNEY, p, d, group, mode)
    if mode == MODE_SUBWAY:
        limit = env.rp[P_SUBWAY_STEPS]
        ignore_police = env.rp[P_SUBWAY_IGNORES_POLICE] == 1
        game.pl[p, C_SUBWAY] += 1
    elif mode == MODE_HELI:
        d = helicopter(game, env, p, group, opts, ctx)
        limit = 0
    steps = 0  # steps of this ride (the special moves count their own)
    bonus = env.rp[P_BONUS_STEPS_PER_CARD]  # NYK-M8: districts one discarded card buys
    credit = 0  # districts still paid for by the last card
    extra = game.pl[p, EXTRA_STEPS]  # an extra_move card played for this journey (NYK-C5)
    game.pl[p, EXTRA_STEPS] = 0
    while group:
        group &= group_at(game, p, d)  # NYK-P4: an arrest (on landing, a step, a police move) takes members off
        if not group:
            break
        ctx[CTX_DISTRICT], ctx[CTX_GROUP], ctx[CTX_STEPS], ctx[CTX_MODE] = d, group, steps, mode
        stopped = any_stopped(game, group)
        normal = steps < limit and not stopped
        if mode == MODE_NORMAL:
            normal = normal and max_steps(game, group) < limit
        free = extra > 0 and not stopped  # like a normal step, it does not pass a check (NYK-P2)
        n = put(opts, 0, OP_STOP)
        paid = bonus > 0 and game.pl[p, HAND_N] > 0
        for j in range(env.nbr[d, 0]):
            nb = env.nbr[d, 1 + j]
            if normal or credit > 0 or free:
                n = put(opts, n, OP_STEP, nb, NO)
            if paid:  # which card pays is asked once the step is chosen (`pay_with_card`)
                n = put(opts, n, OP_STEP, nb, ANY_CARD)
        if count_bits(group) > 1:
            for c in range(N_CHARS):
                if in_mask(group, c):
                    n = put(opts, n, OP_DROP, c)
        if mode == MODE_NORMAL:
            pick = unmoved_at(game, p, d) & ~group
            for c in range(N_CHARS):
                if in_mask(pick, c):
                    n = put(opts, n, OP_PICKUP, c)
        if p == game.g[FIRST]:  # NYK-M5: the first player moves the police at any time of its moves
            n = list_police_cars(game, env, opts, n)
        ctx[CTX_DECISION] = D_STEP
        k = ask(game, env, p, opts, n, ctx)
        op = opts[k, 0]
        if op == OP_STOP:
            break
        if op == OP_DROP:
            game.ch[opts[k, 1], MOVED] = 1
            group &= ~(ONE << opts[k, 1])
            continue
        if op == OP_PICKUP:
            group |= ONE << opts[k, 1]
            continue
        if op == OP_POLICE:
            drive(game, env, p, opts[k, 1], ctx)
            if police_at(game, d) > 0 and not ignore_police:  # a car driven onto the group: a check
                for c in range(N_CHARS):
                    if in_mask(group, c):
                        game.ch[c, STOPPED] = 1
            continue
        to, card = opts[k, 1], opts[k, 2]
        if card != NO:  # NYK-M8: one discarded card moves the whole group `bonus` districts more
            card = pay_with_card(game, env, p, ctx)
            discard_card(game, env, p, card)
            game.pl[p, C_CARDS_AS_MOVES] += 1
            log(game.g, game.events, EV_CARD_MOVE, p, card)
            credit = bonus - 1
        elif not normal and credit > 0:
            credit -= 1
        elif not normal:
            extra -= 1
        d = to
        steps += 1
        rest = group
        while rest:
            c = lowest_bit(rest)
            rest &= rest - 1
            game.ch[c, LOC] = d
            game.ch[c, STEPS] += 1
        log(game.g, game.events, EV_STEP, p, d, group)
        if not ignore_police and police_at(game, d) > 0:
            credit = 0  # NYK-P2: only a new card goes on past this check
            arrive_at_police(game, env, p, d, group)
    rest = group
    while rest:
        c = lowest_bit(rest)
        rest &= rest - 1
        game.ch[c, MOVED] = 1


@njit(cache=True)
def pay_with_card(game, env, p, ctx):
    """NYK-M8: the card p discards for a bonus move, any card of its hand."""
    opts = game.opts2
    n = 0
    for i in range(game.pl[p, HAND_N]):
        n = put(opts, n, OP_CARD, game.pl[p, HAND0 + i])
    ctx[CTX_DECISION] = D_DISCARD
    return opts[ask(game, env, p, opts, n, ctx), 1]


@njit(cache=True)
def arrive_at_police(game, env, p, d, group):
    """NYK-M2: entering a police district stops the group (a check); an at-risk mission there
    means an interrogation, the first player rolling for the police (NYK-P4)."""
    rest = group
    while rest:
        c = lowest_bit(rest)
        rest &= rest - 1
        game.ch[c, STOPPED] = 1
    log(game.g, game.events, EV_CHECK, p, d)
    if carries_risk(game, group_at(game, p, d)):
        interrogate(game, env, p, d)


@njit(cache=True)
def any_stopped(game, group):
    rest = group
    while rest:
        c = lowest_bit(rest)
        rest &= rest - 1
        if game.ch[c, STOPPED]:
            return True
    return False


@njit(cache=True)
def max_steps(game, group):
    m = 0
    rest = group
    while rest:
        c = lowest_bit(rest)
        rest &= rest - 1
        m = max(m, game.ch[c, STEPS])
    return m


@njit(cache=True)
def helicopter(game, env, p, group, opts, ctx):
    """NYK-M7: $1,000 a character, then anywhere on the board."""
    cost = env.rp[P_HELIPORT_COST] * count_bits(group)
    pay_into(game, p, cost, BANK)
    game.pl[p, C_HELI] += 1
    game.pl[p, C_HELI_SPENT] += cost
    n = 0
    for d in range(env.rp[RP_N_DISTRICTS]):
        n = put(opts, n, OP_STEP, d, NO)
    ctx[CTX_DECISION] = D_HELI
    d = opts[ask(game, env, p, opts, n, ctx), 1]
    rest = group
    while rest:
        c = lowest_bit(rest)
        rest &= rest - 1
        game.ch[c, LOC] = d
    log(game.g, game.events, EV_HELI, p, d, group, cost)
    if police_at(game, d) > 0:
        arrive_at_police(game, env, p, d, group)
    return d


# --- actions (NYK-A0..A8) ----------------------------------------------------------------------

@njit(cache=True)
def free_crew(game, p, d):
    """p's characters on d with their action unspent and no mission."""
    mask = np.int64(0)
    todo = game.pl[p, ROSTER]
    while todo:
        c = lowest_bit(todo)
        todo &= todo - 1
        if (game.ch[c, WHERE] == W_CONTROLLED and game.ch[c, LOC] == d and game.ch[c, ACTED] == 0
                and game.ch[c, MISSION] == NO):
            mask |= ONE << c
    return mask


@njit(cache=True)
def spent_any(game, crew):
    """Whether a member of `crew` has spent its action this turn (NYK-A0)."""
    rest = crew
    while rest:
        c = lowest_bit(rest)
        rest &= rest - 1
        if game.ch[c, ACTED]:
            return True
    return False


@njit(cache=True)
def subsets_of_size(mask, k, opts, n, op, a):
    """Every subset of `mask` with k members, as options (op, a, subset)."""
    sub = mask
    while sub:
        if count_bits(sub) == k:
            n = put(opts, n, op, a, sub)
        sub = (sub - 1) & mask
    return n


@njit(cache=True)
def list_actions(game, env, p, opts):
    n = put(opts, 0, OP_END)
    # NYK-A1 accept: enough free characters on the ACCEPT address; not at risk under police (A3)
    for s in range(env.rp[P_MISSION_ROW]):
        m = game.g[ROW0 + s]
        if m == NO:
            continue
        d = game.ms[m, M_ACCEPT]
        if game.ms[m, M_RISK] and police_at(game, d) > 0:
            continue
        n = subsets_of_size(free_crew(game, p, d), game.ms[m, M_CREW], opts, n, OP_ACCEPT, s)
    # NYK-A2 accomplish: the crew on the destination, a lost associate replaced by a free one
    for m in range(N_MISSIONS):
        if game.ms[m, M_STATE] != MS_HELD or game.ms[m, M_HOLDER] != p:
            continue
        d = game.ms[m, M_DEST]
        if game.ms[m, M_RISK] and police_at(game, d) > 0:
            continue
        crew = holders(game, m)
        present = crew & group_at(game, p, d)
        if present != crew or spent_any(game, crew):  # NYK-A0: one action per character
            continue
        need = game.ms[m, M_CREW] - count_bits(present)
        if need <= 0:
            n = put(opts, n, OP_ACCOMPLISH, m, present)
        else:
            free = free_crew(game, p, d)
            sub = free
            while sub:
                if count_bits(sub) == need:
                    n = put(opts, n, OP_ACCOMPLISH, m, present | sub)
                sub = (sub - 1) & free
    # NYK-A3/A4 provoke: an opponent's characters on a district where one of p's can still act
    todo = game.pl[p, ROSTER]
    while todo:
        c = lowest_bit(todo)
        todo &= todo - 1
        if game.ch[c, WHERE] != W_CONTROLLED or game.ch[c, ACTED]:
            continue
        d = game.ch[c, LOC]
        for q in range(game.g[N_PLAYERS]):
            if q != p and game.pl[q, ALIVE] and group_at(game, q, d):
                n = put(opts, n, OP_PROVOKE, d, q, c)
    n = list_recruits(game, env, p, opts, n)
    n = list_action_cards(game, env, p, opts, n)
    return list_partings(game, p, opts, n)


@njit(cache=True)
def list_partings(game, p, opts, n):
    """NYK-A7: p may part with a henchman at any moment of its turn (offered with every move
    and every action), unless it is in custody or holds a mission."""
    todo = game.pl[p, ROSTER] & HENCHMEN_MASK
    while todo:
        c = lowest_bit(todo)
        todo &= todo - 1
        if game.ch[c, WHERE] == W_CONTROLLED and game.ch[c, MISSION] == NO:
            n = put(opts, n, OP_PART, c)
    return n


@njit(cache=True)
def actions_phase(game, env, p, opts, ctx):
    while game.pl[p, ALIVE]:
        n = list_actions(game, env, p, opts)
        ctx[CTX_DECISION] = D_ACTION
        k = ask(game, env, p, opts, n, ctx)
        op, a, b, c = opts[k, 0], opts[k, 1], opts[k, 2], opts[k, 3]
        if op == OP_END:
            break
        if op == OP_ACCEPT:
            accept(game, env, p, a, b)
        elif op == OP_ACCOMPLISH:
            accomplish(game, env, p, a, b, opts, ctx)
        elif op == OP_PROVOKE:
            provoke(game, env, p, a, b, c, opts, ctx)
        elif op == OP_RECRUIT:
            recruit(game, env, p, a, b, c, opts, ctx)
        elif op == OP_PLAY:
            action_card(game, env, p, a, b, c, opts, ctx)
        elif op == OP_PART:
            part_with(game, p, a)


@njit(cache=True)
def spend_actions(game, env, crew):
    """Ruling NYK-A1: each crew member spends its action (or only one, by option)."""
    each = env.rp[P_CREW_ACTIONS] == CREW_ACTIONS_EACH
    rest = crew
    while rest:
        c = lowest_bit(rest)
        rest &= rest - 1
        game.ch[c, ACTED] = 1
        if not each:
            return


@njit(cache=True)
def accept(game, env, p, slot, crew):
    """NYK-A1: take the card; a "?" destination is drawn now, secretly; refill the row at once."""
    m = take_from_row(game, env, slot)
    game.ms[m, M_STATE] = MS_HELD
    game.ms[m, M_HOLDER] = p
    if game.ms[m, M_SECRET]:
        game.ms[m, M_DEST] = draw_tile(game)
        if game.ms[m, M_DEST] == NO:  # ruling: no tile left, the job falls through
            mission_out(game, m)
            reveal_mission(game, env)
            return
    rest = crew
    while rest:
        c = lowest_bit(rest)
        rest &= rest - 1
        game.ch[c, MISSION] = m
    spend_actions(game, env, crew)
    if game.ms[m, M_CREW] == 1:
        game.pl[p, C_ACCEPTED_1] += 1
    else:
        game.pl[p, C_ACCEPTED_2] += 1
    if game.ms[m, M_RISK]:
        game.pl[p, C_ACCEPTED_RISKY] += 1
    log(game.g, game.events, EV_ACCEPT, p, m, crew, game.ms[m, M_ACCEPT], game.ms[m, M_DEST])
    reveal_mission(game, env)


@njit(cache=True)
def accomplish(game, env, p, m, crew, opts, ctx):
    """NYK-A2: reveal, discard, tiles back to the bag, the reward from the bank."""
    for c in range(N_CHARS):
        if game.ch[c, MISSION] == m:
            game.ch[c, MISSION] = NO
    spend_actions(game, env, crew)
    d = game.ms[m, M_DEST]
    mission_out(game, m)
    game.ms[m, M_STATE] = MS_DONE
    paid = bank_pays(game, env, p, game.ms[m, M_REWARD])
    game.pl[p, C_MISSION_INCOME] += paid
    if game.ms[m, M_CREW] == 1:
        game.pl[p, C_DONE_1] += 1
    else:
        game.pl[p, C_DONE_2] += 1
    if game.ms[m, M_RISK]:
        game.pl[p, C_DONE_RISKY] += 1
    log(game.g, game.events, EV_ACCOMPLISH, p, m, crew, d, paid)
    react(game, env, p, WIN_ACCOMPLISHED, m, opts, ctx)  # e.g. Juicy Job, as many as p wishes


@njit(cache=True)
def part_with(game, p, c):
    """NYK-A7: a henchman card is discarded, freeing a stand."""
    discard_henchman_card(game, c)
    game.pl[p, C_PARTED] += 1
    log(game.g, game.events, EV_PART, p, c)


# --- provocation (NYK-A4, A5) --------------------------------------------------------------------

@njit(cache=True)
def provoke(game, env, p, d, q, spender, opts, ctx):
    """NYK-A4: all characters of both camps on d fight; stakes, three stages, folds."""
    if env.rp[P_PROVOCATION_ACTION] == PROVOKE_ACTION_ONE:
        game.ch[spender, ACTED] = 1
    else:
        todo = game.pl[p, ROSTER]
        while todo:
            c = lowest_bit(todo)
            todo &= todo - 1
            if game.ch[c, LOC] == d and game.ch[c, WHERE] == W_CONTROLLED:
                game.ch[c, ACTED] = 1
    game.pl[p, C_PROVOKED] += 1
    game.pl[q, C_PROVOKED_BY] += 1
    mine, theirs = group_at(game, p, d), group_at(game, q, d)
    crew_p, crew_q = crew_packed(game, mine), crew_packed(game, theirs)
    favourite = favourite_of(game, env, p, q, mine, theirs)
    log(game.g, game.events, EV_PROVOKE, p, q, d, mine, theirs)
    stake = env.rp[P_STAKE]
    put_p, put_q = pay_into(game, p, stake, POT), pay_into(game, q, stake, POT)
    dice_p = roll_n(game, S_DICE0 + p, np.int64(0), env.rp[P_INTIMIDATION_DICE])
    dice_q = roll_n(game, S_DICE0 + q, np.int64(0), env.rp[P_INTIMIDATION_DICE])
    dice_p = reroll_window(game, env, p, crew_p, dice_p, opts, ctx)
    dice_q = reroll_window(game, env, q, crew_q, dice_q, opts, ctx)
    for stage in range(1, 3):
        sp = env.table[table_key(crew_p + dice_p)]
        sq = env.table[table_key(crew_q + dice_q)]
        log(game.g, game.events, EV_STAGE, stage, sp, sq, game.g[POT])
        folder = fold_round(game, env, p, q, sp, sq, stage, crew_p + dice_p, crew_q + dice_q,
                            opts, ctx)
        if folder != NO:
            winner = q if folder == p else p
            pay_into(game, folder, env.rp[P_FOLD_PENALTY], POT)
            game.pl[folder, C_FOLDS] += 1
            settle_pot(game, winner, folder)
            log(game.g, game.events, EV_FOLD, folder, stage)
            return
        raise_ = env.rp[P_RAISE] if stage == 1 else env.rp[P_FUSILLADE_RAISE]
        counter = C_RAISED if stage == 1 else C_FUSILLADES  # the stage both sides went on to
        game.pl[p, counter] += 1
        game.pl[q, counter] += 1
        put_p += pay_into(game, p, raise_, POT)
        put_q += pay_into(game, q, raise_, POT)
        extra_p = fusillade_window(game, env, p, opts, ctx) if stage == 2 else 0
        extra_q = fusillade_window(game, env, q, opts, ctx) if stage == 2 else 0
        dice_p = roll_n(game, S_DICE0 + p, dice_p, 1 + extra_p)
        dice_q = roll_n(game, S_DICE0 + q, dice_q, 1 + extra_q)
    sp = env.table[table_key(crew_p + dice_p)]
    sq = env.table[table_key(crew_q + dice_q)]
    log(game.g, game.events, EV_FUSILLADE, p, q, sp, sq, game.g[POT])
    if favourite != NO:
        game.pl[favourite, C_FAVOURITE] += 1
    if sp != sq:
        winner, loser = (p, q) if sp > sq else (q, p)
        if winner == favourite:
            game.pl[winner, C_FAVOURITE_WON] += 1
        game.pl[winner, C_FIGHTS_WON] += 1
        game.pl[loser, C_FIGHTS_LOST] += 1
        settle_pot(game, winner, loser)
        lose_characters(game, env, loser, d, 1, opts, ctx)
        press_the_win(game, env, winner, loser, d, opts, ctx)
        return
    # a tie: each side loses a character of its choice; the pot is not shared (ruling: bank)
    game.pl[p, C_FIGHTS_TIED] += 1
    game.pl[q, C_FIGHTS_TIED] += 1
    if env.rp[P_TIE_POT] == TIE_POT_RETURN:
        game.pl[p, MONEY] += put_p
        game.pl[q, MONEY] += put_q
        game.g[POT] -= put_p + put_q
    game.g[BANK] += game.g[POT]
    game.g[POT] = 0
    lose_characters(game, env, p, d, 1, opts, ctx)
    lose_characters(game, env, q, d, 1, opts, ctx)


@njit(cache=True)
def press_the_win(game, env, winner, loser, d, opts, ctx):
    """The won_fight window: each extra_elimination card (e.g. Fusillade), one after another,
    costs the beaten side more characters present, of its choice."""
    while game.pl[loser, ALIVE] and group_at(game, loser, d):
        card = offer_card(game, env, winner, WIN_WON_FIGHT, loser, opts, ctx)
        if card == NO:
            return
        if card != CANCELLED:
            lose_characters(game, env, loser, d, env.rp[RP_R_PARAMS + MAX_PARAMS * card + 0],
                            opts, ctx)


@njit(cache=True)
def favourite_of(game, env, p, q, mine, theirs):
    """The side with the better exact fusillade odds (sim.fights), or NO when even."""
    a, b = crew_code_of(game, mine), crew_code_of(game, theirs)
    win, lose = env.fight[a, b, WIN], env.fight[a, b, LOSE]
    return p if win > lose else (q if lose > win else NO)


@njit(cache=True)
def settle_pot(game, winner, loser):
    game.pl[winner, C_POTS_WON] += 1
    game.pl[loser, C_POTS_LOST] += 1
    game.pl[winner, MONEY] += game.g[POT]
    game.g[POT] = 0


@njit(cache=True)
def fold_round(game, env, p, q, sp, sq, stage, hand_p, hand_q, opts, ctx):
    """The weaker hand may fold first (the provoked on equal strength), then the other."""
    first, second = (q, p) if sq <= sp else (p, q)
    for who in (first, second):
        other = q if who == p else p
        ctx[CTX_STAGE] = stage
        ctx[CTX_MINE] = sp if who == p else sq
        ctx[CTX_THEIRS] = sq if who == p else sp
        ctx[CTX_CREW] = hand_p if who == p else hand_q
        ctx[CTX_OTHER_CREW] = hand_q if who == p else hand_p
        ctx[CTX_OPPONENT] = other
        ctx[CTX_POT] = game.g[POT]
        n = put(opts, 0, OP_NO)
        n = put(opts, n, OP_YES)
        ctx[CTX_DECISION] = D_FOLD
        if ask(game, env, who, opts, n, ctx) == 1:
            return who
    return NO


@njit(cache=True)
def reroll_window(game, env, p, crew, dice, opts, ctx):
    """fight_reroll (e.g. Strike Face) at intimidation, card after card: roll again up to N dice,
    the owner re-rolling the dice that pair with nothing, lowest first."""
    while game.pl[p, ALIVE]:
        ctx[CTX_CREW] = crew + dice
        ctx[CTX_OTHER_CREW] = dice
        card = offer_card(game, env, p, WIN_INTIMIDATION, NO, opts, ctx)
        if card == NO:
            break
        if card == CANCELLED:
            continue
        allowed = env.rp[RP_R_PARAMS + MAX_PARAMS * card + 0]
        hand = crew + dice
        for rank in range(6):
            count_dice = (dice >> (4 * rank)) & 15
            if (hand >> (4 * rank)) & 15 == 1 and count_dice == 1 and allowed > 0:
                dice -= ONE << (4 * rank)
                dice = add_value(dice, die(game, S_DICE0 + p))
                allowed -= 1
    return dice


@njit(cache=True)
def fusillade_window(game, env, p, opts, ctx):
    """fight_bonus_die (e.g. Machine Gun), card after card: more dice at the fusillade, the best
    five count."""
    extra = 0
    while True:
        card = offer_card(game, env, p, WIN_FUSILLADE, NO, opts, ctx)
        if card == NO:
            return extra
        if card != CANCELLED:
            extra += env.rp[RP_R_PARAMS + MAX_PARAMS * card + 0]


@njit(cache=True)
def lose_characters(game, env, p, d, count, opts, ctx):
    """The victim chooses whom it loses among its characters present; cancel_elimination
    (e.g. Bullet Proof) saves one."""
    for _ in range(count):
        if not game.pl[p, ALIVE]:
            return
        group = group_at(game, p, d)
        if group == 0:
            return
        if react(game, env, p, WIN_LOSING, NO, opts, ctx) > 0:  # e.g. Bullet Proof
            continue
        eliminate(game, env, choose_loss(game, env, p, group, opts, ctx))


# --- recruitment (NYK-A6, A7, A8) ----------------------------------------------------------------

@njit(cache=True)
def may_recruit_now(game, env, p):
    """NYK-A6/A8: the turn's one recruitment (`recruit.per_turn`), whether by the affranchi's
    action or by a card that recruits or takes a henchman; the affranchi on the board or, by the
    ruling `recruit.from_custody` (NYK-P7: no other limitation), in custody; a free stand (A7)."""
    where = game.ch[p, WHERE]
    if where != W_CONTROLLED and not (where == W_CUSTODY and env.rp[P_RECRUIT_FROM_CUSTODY]):
        return False
    return (game.pl[p, RECRUITED] < env.rp[P_RECRUIT_PER_TURN]
            and count_henchmen(game, p) < env.rp[P_HENCHMEN_MAX])


@njit(cache=True)
def list_recruits(game, env, p, opts, n):
    if not may_recruit_now(game, env, p):
        return n
    targets = recruit_targets(game, env, p)
    for h in range(N_AFFRANCHI, N_CHARS):
        if in_mask(targets, h):
            n = list_offers(game, env, p, h, NO, opts, n)
    return n


@njit(cache=True)
def list_offers(game, env, p, h, card, opts, n):
    """A recruit attempt on h, if p can make the smallest offer; the offer is chosen next."""
    lo = env.rp[P_RECRUIT_MIN_OFFER]
    if lo <= env.rp[P_RECRUIT_MAX_OFFER] and lo <= game.pl[p, MONEY]:
        n = put(opts, n, OP_RECRUIT, h, ANY_OFFER, card)
    return n


@njit(cache=True)
def choose_offer(game, env, p, h, card, opts, ctx):
    """NYK-A6: p offers from `recruit.min_offer` to `max_offer` by `offer_step`, up to its money."""
    lo, hi, step = env.rp[P_RECRUIT_MIN_OFFER], env.rp[P_RECRUIT_MAX_OFFER], env.rp[P_RECRUIT_OFFER_STEP]
    n = 0
    offer = lo
    while offer <= hi and offer <= game.pl[p, MONEY]:
        n = put(opts, n, OP_RECRUIT, h, offer, card)
        offer += step
    ctx[CTX_DECISION] = D_OFFER
    return opts[ask(game, env, p, opts, n, ctx), 2]


@njit(cache=True)
def recruit(game, env, p, h, offer, card, opts, ctx):
    """NYK-A6: one die per $1,000 offered; a die above the value recruits, else a die equal makes
    it hesitate (pay $1,000 more or give up), else refusal. The attempt is the turn's recruit."""
    if offer == ANY_OFFER:
        offer = choose_offer(game, env, p, h, card, opts, ctx)
    game.pl[p, RECRUITED] += 1
    game.pl[p, C_RECRUITS_TRIED] += 1
    bonus = 0
    if card != NO:  # NYK-A8: a card that recruits is the turn's recruit action
        if not spend_event(game, env, p, card, opts, ctx):
            return
        bonus = env.rp[RP_R_PARAMS + MAX_PARAMS * card + 0]
        offer = max(offer - env.rp[RP_R_PARAMS + MAX_PARAMS * card + 1], 0)
    value = game.ch[h, VALUE]
    game.pl[p, C_TRIED_BY_VALUE + value] += 1
    game.pl[p, C_OFFERED_BY_VALUE + value] += offer
    best = -1
    for _ in range(offer // env.rp[P_RECRUIT_OFFER_STEP] + bonus):
        best = max(best, die(game, S_DICE0 + p))
    log(game.g, game.events, EV_RECRUIT, p, h, offer, best)
    price = offer
    if best < value:
        log(game.g, game.events, EV_RECRUIT_RESULT, p, h, 0, 0)
        return
    if best == value:
        game.pl[p, C_RECRUITS_HESITATED] += 1
        price = offer + env.rp[P_RECRUIT_HESITATION_EXTRA]
        ctx[CTX_MINE], ctx[CTX_THEIRS] = h, price
        n = put(opts, 0, OP_NO)
        if game.pl[p, MONEY] >= price:
            n = put(opts, n, OP_YES)
        ctx[CTX_DECISION] = D_HESITATE
        if ask(game, env, p, opts, n, ctx) == 0:
            log(game.g, game.events, EV_RECRUIT_RESULT, p, h, 1, 0)
            return
    pay_into(game, p, price, BANK)
    game.pl[p, C_RECRUIT_SPENT] += price
    game.pl[p, C_RECRUITS_DONE] += 1
    game.pl[p, C_DONE_BY_VALUE + value] += 1
    take_henchman(game, env, p, h)
    log(game.g, game.events, EV_RECRUIT_RESULT, p, h, 2, price)


@njit(cache=True)
def take_henchman(game, env, p, h):
    """The henchman starts where it was recruited; a new card replaces it there at once."""
    for slot in range(4):
        if game.g[PERIPH0 + slot] == h:
            game.ch[h, LOC] = env.rp[RP_PERIPH + slot]
            refill_peripheral(game, env, slot)
            break
    set_owner(game, h, p)
    game.ch[h, WHERE] = W_CONTROLLED
    game.ch[h, START] = game.ch[h, LOC]
    joins(game, env, h)


@njit(cache=True)
def joins(game, env, h):
    """A henchman recruited or taken this turn: it has no move left (it joins after the
    movements); by the ruling `henchmen.act_on_joining` it may act this turn or not."""
    game.ch[h, MOVED] = 1
    game.ch[h, ACTED] = 0 if env.rp[P_ACT_ON_JOINING] else 1


# --- own-turn action cards (NYK-C5) ---------------------------------------------------------------

@njit(cache=True)
def list_action_cards(game, env, p, opts, n):
    """Cards of the actions window (NYK-C5)."""
    if game.pl[p, HAND_KINDS] & env.rp[RP_WIN_KINDS + WIN_ACTIONS] == 0:
        return n
    recruit_now = may_recruit_now(game, env, p)  # NYK-A8: a card that recruits is the recruit
    for i in range(game.pl[p, HAND_N]):
        card = game.pl[p, HAND0 + i]
        if not playable(game, env, p, card, WIN_ACTIONS):
            continue
        kind = env.rp[RP_R_KIND + card]
        if kind == E_STEAL_MONEY:
            for q in range(game.g[N_PLAYERS]):
                if q != p and game.pl[q, ALIVE] and shares_district(game, p, q):
                    n = put(opts, n, OP_PLAY, card, kind, q)
        elif kind == E_BANK_INCOME or kind == E_DRAW_CARDS:
            n = put(opts, n, OP_PLAY, card, kind, NO)
        elif kind == E_RECRUIT:
            if recruit_now:
                for slot in range(4):
                    if game.g[PERIPH0 + slot] != NO:
                        n = list_offers(game, env, p, game.g[PERIPH0 + slot], card, opts, n)
        elif kind == E_POACH_HENCHMAN or kind == E_DISCARD_HENCHMAN:
            if kind == E_POACH_HENCHMAN and (not recruit_now
                                             or game.pl[p, MONEY] < env.rp[RP_R_PARAMS + MAX_PARAMS * card + 0]):
                continue
            top = env.rp[RP_R_PARAMS + MAX_PARAMS * card + 1 if kind == E_POACH_HENCHMAN else 0]
            for c in range(N_AFFRANCHI, N_CHARS):
                q = game.ch[c, OWNER]
                if (q != NO and q != p and game.ch[c, WHERE] == W_CONTROLLED
                        and game.ch[c, MISSION] == NO and game.ch[c, VALUE] <= top):
                    n = put(opts, n, OP_PLAY, card, kind, c)
    return n


@njit(cache=True)
def shares_district(game, p, q):
    todo = game.pl[p, ROSTER]
    while todo:
        c = lowest_bit(todo)
        todo &= todo - 1
        if game.ch[c, WHERE] == W_CONTROLLED:
            if group_at(game, q, game.ch[c, LOC]):
                return True
    return False


@njit(cache=True)
def action_card(game, env, p, card, kind, target, opts, ctx):
    if kind == E_POACH_HENCHMAN:  # NYK-A8: played, even if cancelled, it is the turn's recruit
        game.pl[p, RECRUITED] += 1
    if not spend_event(game, env, p, card, opts, ctx):
        return
    amount = env.rp[RP_R_PARAMS + MAX_PARAMS * card + 0]
    if kind == E_STEAL_MONEY:
        game.pl[p, C_CARD_INCOME] += player_pays_player(game, target, p, amount)
    elif kind == E_BANK_INCOME:
        game.pl[p, C_CARD_INCOME] += bank_pays(game, env, p, amount)
    elif kind == E_DRAW_CARDS:
        for _ in range(amount):
            draw_card(game, env, p)
        enforce_hand_limit(game, env, p, opts, ctx)
        police_check(game, env)
    elif kind == E_POACH_HENCHMAN:
        q = game.ch[target, OWNER]
        player_pays_player(game, p, q, amount)
        set_owner(game, target, p)
        joins(game, env, target)
    elif kind == E_DISCARD_HENCHMAN:
        discard_henchman_card(game, target)


# --- the turn (NYK-T1..T5) ---------------------------------------------------------------------

@njit(cache=True)
def corruption(game, env, opts, ctx):
    """NYK-T1: two bills face down, revealed together; the largest sum takes the first player
    card (ties at random); valued bills go to the bank, $0 bills are kept."""
    n_players = game.g[N_PLAYERS]
    bids = game.bids[:n_players]  # in the record: see GAME_DTYPE
    bids[:] = -1
    for p in range(n_players):
        if not game.pl[p, ALIVE]:
            continue
        n = list_bids(game, env, p, opts)
        ctx[CTX_DECISION] = D_BID
        k = ask(game, env, p, opts, n, ctx)
        bids[p] = opts[k, 1]
        log(game.g, game.events, EV_BID, p, opts[k, 1], opts[k, 2])
    best = bids.max()
    n_best = 0
    for p in range(n_players):
        if bids[p] == best:
            n_best += 1
    pick = below_of(game.rng, S_FIRST, n_best)
    for p in range(n_players):
        if bids[p] == best:
            if pick == 0:
                game.g[FIRST] = p
            pick -= 1
    for p in range(n_players):
        if bids[p] > 0:
            pay_into(game, p, bids[p], BANK)
            game.pl[p, C_BIDS_PAID] += bids[p]
    game.pl[game.g[FIRST], C_TIMES_FIRST] += 1
    log(game.g, game.events, EV_FIRST, game.g[FIRST], best, n_best)


@njit(cache=True)
def list_bids(game, env, p, opts):
    """Every multiset of `corruption.bills` bills among $0/$1,000/$2,000/$5,000 that p can put
    down: no more $0 bills than it holds, valued bills up to its money (the bank gives change)."""
    n = 0
    for i in range(env.n_bids):
        amount, zeros = env.bids[i, 0], env.bids[i, 1]
        if zeros <= game.pl[p, ZEROS] and amount <= game.pl[p, MONEY]:
            n = put(opts, n, OP_BID, amount, zeros)
    return n


@njit(cache=True)
def start_player_turn(game, env, p, opts, ctx):
    game.g[ACTIVE] = p
    game.pl[p, RECRUITED] = 0
    todo = game.pl[p, ROSTER]
    while todo:
        c = lowest_bit(todo)
        todo &= todo - 1
        game.ch[c, STEPS] = 0
        game.ch[c, STOPPED] = 0
        game.ch[c, MOVED] = 0
        game.ch[c, ACTED] = 0
        game.ch[c, START] = game.ch[c, LOC]  # NYK-M3, M6, M7: where the turn started
    # the opponents' cards of the turn_start window (e.g. Payoff, a car off their districts)
    n_players = game.g[N_PLAYERS]
    for i in range(1, n_players):
        q = (p + i) % n_players
        if game.pl[q, ALIVE] and has_card_for(game, env, q, WIN_TURN_START):
            todo = game.pl[q, ROSTER]
            while todo:
                c = lowest_bit(todo)
                todo &= todo - 1
                if game.ch[c, WHERE] == W_CONTROLLED:
                    d = game.ch[c, LOC]
                    if police_at(game, d) and d != env.rp[RP_STATION]:
                        react(game, env, q, WIN_TURN_START, d, opts, ctx)


@njit(cache=True)
def checkpoint(game, env):
    """Check mode: the invariants after every phase; the first broken one is kept."""
    if game.g[CHECK] and game.g[BROKEN] == 0:
        game.g[BROKEN] = invariants(game, env)


@njit(cache=True)
def open_turn(game, env, opts, ctx):
    """The start of a turn: the corruption bid (NYK-T1), and the cars a resisting crew removed
    back at BROADWAY (NYK-P5), by ruling after the bid, put there by the new first player (who
    then chooses whom they question), or before it."""
    game.g[ACTIVE] = NO
    for k in range(N_POLICE):
        game.g[POLICE_STEPS0 + k] = 0
    before_bid = env.rp[P_POLICE_RETURN_AT] == RETURN_BEFORE_BID
    if before_bid:
        return_police(game, env)
    corruption(game, env, opts, ctx)
    if not before_bid:
        return_police(game, env)


@njit(cache=True)
def play_turn(game, env, opts, ctx):
    order = game.order
    open_turn(game, env, opts, ctx)
    checkpoint(game, env)
    n_order = seat_order(game, game.g[FIRST], order)
    resources_phase(game, env, order, n_order, opts, ctx)
    checkpoint(game, env)
    for i in range(n_order):
        p = order[i]
        if not game.pl[p, ALIVE]:
            continue
        start_player_turn(game, env, p, opts, ctx)
        movement_phase(game, env, p, opts, ctx)
        checkpoint(game, env)
        if game.pl[p, ALIVE]:
            actions_phase(game, env, p, opts, ctx)
            checkpoint(game, env)
        if game_decided(game, env):
            break
    game.g[ACTIVE] = NO
    end_of_turn_missions(game, env)
    checkpoint(game, env)


@njit(cache=True)
def play(game, env, n_players, key, game_id, record, check):
    """Play one whole game (NYK-S, T, E). Returns 0, or an invariant code in check mode. The
    forward model (sim.nyk.forward) plays with the very same pieces, a turn at a time."""
    begin_game(game, env, n_players, key, game_id, record, check)
    while True:
        begin_turn(game)
        play_turn(game, env, game.opts, game.ctx)
        code = end_turn(game, env)
        if code > 0:
            return code
        if code == 0:
            break
    end_game(game, env)
    return 0


@njit(cache=True)
def begin_game(game, env, n_players, key, game_id, record, check):
    game.g[RECORD] = record
    game.g[CHECK] = check
    setup(game, env, n_players, key, game_id)
    record_fortunes(game, 0)


@njit(cache=True)
def begin_turn(game):
    game.g[TURN] += 1
    log(game.g, game.events, EV_TURN, game.g[TURN])


@njit(cache=True)
def end_turn(game, env):
    """After a turn: -1 to play another, 0 when the game ends, an invariant code in check mode."""
    record_fortunes(game, game.g[TURN])
    if game.g[CHECK]:
        broken = game.g[BROKEN] if game.g[BROKEN] else invariants(game, env)
        if broken:
            return broken
    if game_decided(game, env):
        return 0
    if game.g[END_REVEALED] and game.g[TURN] >= game.g[LAST_TURN]:
        return 0
    if game.g[TURN] >= MAX_TURNS:
        game.g[CAP_HIT] = 1
        return 0
    return -1


@njit(cache=True)
def end_game(game, env):
    game.g[TURNS_PLAYED] = game.g[TURN]
    final_ranking(game, env)
    game.g[GAME_OVER] = 1


@njit(cache=True)
def game_decided(game, env):
    """Ruling `end.last_standing` (NYK-A5): the game ends at once when one player is left (or
    the survivor plays on to the end card); with nobody left it ends anyway."""
    alive = alive_players(game)
    return alive == 0 or (alive == 1 and env.rp[P_LAST_STANDING] == 1)


@njit(cache=True)
def record_fortunes(game, turn):
    for p in range(game.g[N_PLAYERS]):
        game.fortune[turn, p] = game.pl[p, MONEY]


# --- the end (NYK-E1) --------------------------------------------------------------------------

@njit(cache=True)
def tiebreak_key(game, p, level):
    """Level 0: fortune; 1: number of henchmen; 2: henchmen values from the highest down."""
    if level == 0:
        return game.pl[p, MONEY]
    if level == 1:
        return count_henchmen(game, p)
    values = np.zeros(6, dtype=np.int64)
    todo = game.pl[p, ROSTER] & HENCHMEN_MASK
    while todo:
        c = lowest_bit(todo)
        todo &= todo - 1
        if (game.ch[c, WHERE] == W_CONTROLLED or game.ch[c, WHERE] == W_CUSTODY):
            values[game.ch[c, VALUE]] += 1
    key = np.int64(0)
    for r in range(5, -1, -1):  # sorted values, highest first, compared lexicographically
        for _ in range(values[r]):
            key = key * 7 + r + 1
    for _ in range(5 - values.sum()):
        key = key * 7
    return key


@njit(cache=True)
def beats(game, p, q):
    """The first tie-break level where p and q differ: +level+1 if p wins there, -(...) if q."""
    for level in range(3):
        a, b = tiebreak_key(game, p, level), tiebreak_key(game, q, level)
        if a != b:
            return level + 1 if a > b else -(level + 1)
    return 0


@njit(cache=True)
def final_ranking(game, env):
    """NYK-E1: largest fortune; ties by most henchmen, then their values; then the ruling's last
    tie-break (a random draw, recorded as such). Players out of the game rank last."""
    n_players = game.g[N_PLAYERS]
    order = np.arange(n_players)
    lots = np.zeros(n_players, dtype=np.int64)
    for p in range(n_players):
        lots[p] = below_of(game.rng, S_FINAL, 1 << 30)
    # insertion sort, best first: alive, then tie-break levels, then the lot
    for i in range(1, n_players):
        j = i
        while j > 0 and ranks_before(game, order[j], order[j - 1], lots):
            order[j], order[j - 1] = order[j - 1], order[j]
            j -= 1
    for i in range(n_players):
        game.pl[order[i], RANK] = i + 1
        log(game.g, game.events, EV_RANK, order[i], i + 1, game.pl[order[i], MONEY])
    winner = order[0]
    game.g[WINNER] = winner
    if alive_players(game) == 1:
        game.g[DECIDED_BY] = BY_LAST_STANDING
    elif n_players > 1:
        second = order[1]
        level = abs(beats(game, winner, second)) if game.pl[second, ALIVE] else 1
        if level == 0:
            shared = env.rp[P_TIEBREAK_LAST] != TIEBREAK_RANDOM
            game.g[DECIDED_BY] = BY_SHARED if shared else BY_RANDOM
            if shared:
                game.pl[second, RANK] = 1
        else:
            game.g[DECIDED_BY] = (BY_FORTUNE, BY_HENCHMEN, BY_VALUES)[level - 1]
    log(game.g, game.events, EV_GAME_END, winner, game.g[DECIDED_BY])


@njit(cache=True)
def ranks_before(game, p, q, lots):
    if game.pl[p, ALIVE] != game.pl[q, ALIVE]:
        return game.pl[p, ALIVE] > game.pl[q, ALIVE]
    b = beats(game, p, q)
    if b != 0:
        return b > 0
    return lots[p] > lots[q]


# --- invariants (check mode) ---------------------------------------------------------------------

(INV_MONEY, INV_TILES, INV_HENCHMEN, INV_MISSIONS, INV_CARDS, INV_PLACE, INV_LIMIT, INV_HAND, INV_POLICE,
 INV_RECRUITS) = range(1, 11)
INVARIANTS = ("", "money not conserved", "address tiles lost", "henchman cards lost",
              "mission cards lost", "resource cards lost", "character in two places",
              "more than the henchman limit", "hand above the limit", "police cars lost",
              "more recruitments in a turn than allowed")


@njit(cache=True)
def invariants(game, env):
    n_players = game.g[N_PLAYERS]
    money = game.g[BANK] + game.g[POT]
    for p in range(n_players):
        money += game.pl[p, MONEY]
    if money != game.g[MONEY_TOTAL]:
        return INV_MONEY
    tiles = game.g[BAG_N]
    for m in range(N_MISSIONS):
        if game.ms[m, M_STATE] == MS_ROW or game.ms[m, M_STATE] == MS_HELD:
            tiles += (game.ms[m, M_ACCEPT] != NO) + (game.ms[m, M_DEST] != NO)
    if tiles != env.rp[RP_N_TILES]:
        return INV_TILES
    places = game.g[H_DECK_N] + game.g[H_DISC_N]
    for c in range(N_AFFRANCHI, N_CHARS):
        w = game.ch[c, WHERE]
        if w == W_PERIPHERAL or w == W_CONTROLLED or w == W_CUSTODY or w == W_DEAD:
            places += 1
    if places != N_HENCHMEN:
        return INV_HENCHMEN
    in_row = 0
    for s in range(env.rp[P_MISSION_ROW]):
        if game.g[ROW0 + s] != NO:
            in_row += 1
            if game.ms[game.g[ROW0 + s], M_STATE] != MS_ROW:
                return INV_MISSIONS
    listed = 0
    for m in range(N_MISSIONS):
        listed += game.ms[m, M_STATE] == MS_ROW
    if listed != in_row:
        return INV_MISSIONS
    cards = game.g[R_DECK_N] + game.g[R_DISC_N]
    for p in range(n_players):
        cards += game.pl[p, HAND_N]
        if game.pl[p, HAND_N] > env.rp[P_HAND_LIMIT]:
            return INV_HAND
        if game.pl[p, HAND_KINDS] != kinds_in_hand(game, env, p):
            return INV_CARDS
        if count_henchmen(game, p) > env.rp[P_HENCHMEN_MAX]:
            return INV_LIMIT
        if game.pl[p, RECRUITED] > env.rp[P_RECRUIT_PER_TURN]:  # NYK-A8: cards count
            return INV_RECRUITS
    if cards != env.rp[RP_N_CARDS]:
        return INV_CARDS
    for c in range(N_CHARS):
        w = game.ch[c, WHERE]
        on_board = w == W_CONTROLLED or w == W_PERIPHERAL
        if on_board != (game.ch[c, LOC] != NO) or (w == W_CUSTODY) != (game.ch[c, CELL] > 0):
            return INV_PLACE
        if w == W_CONTROLLED and game.ch[c, OWNER] == NO:
            return INV_PLACE
    cars = 0
    for k in range(N_POLICE):
        if game.g[POLICE0 + k] != PC_OFF:
            cars += 1
    if cars < min(env.rp[P_POLICE_START_CARS], N_POLICE) or cars > min(env.rp[P_POLICE_MAX_CARS], N_POLICE):
        return INV_POLICE
    return 0
