"""Wounds and death (rules: characters): a boss wounded, a boss's death and what its killer
takes, members used up, cards given.

Rule ids: AG-K4.
"""

from numba import njit

from sim.ag.chapters.base import add_renown, ask, log, move_bags, put
from sim.ag.decisions import CTX_DECISION, D_GIVE_CAID, D_GIVE_CARD, D_GIVE_TOKEN, OP_DISTRICT, OP_TRAFFIC
from sim.ag.env import (
    DEATH_TO_KILLER, P_DEATH_QUARTIER, P_DEATH_RENOWN, P_DEATH_ROUNDING, P_DEATH_TO, P_SUCCESSOR, P_WOUNDS_TO_DIE,
    QUARTIER_CAID, ROUND_UP, RP_C_DISTRICT, SUCCESSOR_HENCHMAN,
)
from sim.ag.events import EV_BOSS_DIES, EV_TITLE
from sim.ag.state import (
    BANK_ROW, BOSS_DEATHS, CAID0, C_BOSSES_KILLED, C_BOSS_DEATHS, C_HENCH_LOST, C_KILLERS_LOST, C_WOUNDS, HENCH,
    HENCHMEN, KILLER, KILLERS, LC_OWNER, LC_STATE, LS_DISCARD, LS_WON, L_DISC0, L_DISC_N, MAX_SLOTS, NO, N_CARDS,
    N_DISTRICTS, N_TRAFFICS, SUPPLY0, TOK0, WON0, WOUNDS, bag_count,
)


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
