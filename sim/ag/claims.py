"""The claims a family states in the bargain (AG-N1, Nash and alternating models), shared by the
parametric policy, which states them, and the bargaining model, which values the hourglass after a
shoot-out (AG-N3) by the claims the survivors will state there (sim.ag.shots.sequel_table).

A claim is the family's shoot-out value raised by a bluff, a share of the card's worth at one of
BLUFF_LEVELS: its `bluff` knob, raised on a card that wins or defends a title by TITLE_CLAIM per
unit of `title_weight` above 1 (a family that cares for titles above all insists on those cards).
"""

from numba import njit

from sim.ag.decisions import BLUFF_LEVELS
from sim.ag.env import RP_C_DISTRICT, RP_C_TRAFFIC
from sim.ag.readers import card_items
from sim.ag.state import BARON0, CAID0, N_PLAYERS, TOK0, WON0
from strategies.ag.params import FAMILIES, INDEX

PARAMETRIC = FAMILIES.index("parametric")
LEARNED = FAMILIES.index("learned")   # its claims are its heuristic's unless its weights move them
BLUFF, TITLE_WEIGHT = INDEX["bluff"], INDEX["title_weight"]
TITLE_CLAIM = 0.1   # the claim raised per unit of title_weight above 1 on a card that wins a title (AG-N, T5)


@njit(cache=True)
def title_at_stake(game, base, index, holder, p):
    """Would one more card (or token) of this district (or traffic) win p the title (a strict
    majority, AG-T5), or, p holding it, keep a rival who would draw level or pass from taking it?"""
    mine = game.pl[p, base + index]
    for q in range(game.g[N_PLAYERS]):
        if q == p:
            continue
        if holder == p and game.pl[q, base + index] >= mine:
            return True
        if holder != p and game.pl[q, base + index] >= mine + 1:
            return False
    return holder != p


@njit(cache=True)
def wins_title(game, env, p, card):
    """Would this card (or its traffic token) win p a title or keep a rival from taking one (AG-T5)?"""
    district = env.rp[RP_C_DISTRICT + card]
    if title_at_stake(game, WON0, district, game.g[CAID0 + district], p):
        return True
    traffic = env.rp[RP_C_TRAFFIC + card]
    return card_items(game, env, card)[2] == 1 and title_at_stake(game, TOK0, traffic, game.g[BARON0 + traffic], p)


@njit(cache=True)
def claim_bluff(game, env, p, card):
    """AG-N: what p adds to its shoot-out value when it states its terms, as a share of the card
    (the module doc)."""
    w = env.params[p]
    if w[TITLE_WEIGHT] <= 1.0:   # no extra claim whatever the card: spare the title check
        return w[BLUFF]
    return w[BLUFF] + (w[TITLE_WEIGHT] - 1.0) * TITLE_CLAIM if wins_title(game, env, p, card) else w[BLUFF]


@njit(cache=True)
def claim_level(bluff, n):
    """AG-N, Nash model: the claim level closest to the family's bluff."""
    best, k = 1e18, 0
    for i in range(min(n, len(BLUFF_LEVELS))):
        gap = abs(BLUFF_LEVELS[i] - bluff)
        if gap < best - 1e-12:
            best, k = gap, i
    return k


@njit(cache=True)
def stated_level(game, env, p, card):
    """The claim level family p states on this card: the parametric player's (above); any other
    policy is taken to claim its true value (level 0, the scripted answer). The learned player
    (strategies.ag.learned) is read as its heuristic, the parametric player of its knobs."""
    if env.kinds[p] != PARAMETRIC and env.kinds[p] != LEARNED:
        return 0
    return claim_level(claim_bluff(game, env, p, card), len(BLUFF_LEVELS))
