"""AG-N1..N3, AG-N2, AG-K4, AG-B3: the bargaining model's disagreement point is the shoot-out the
engine plays. Sampled contests of 2 to 5 families are fought many times by the engine's own
`shootout` (parametric players, dice from the game's streams); each family's mean outcome in bags
(pieces lost, wounds, a boss's death and its spoils, the Arms power's price, its part of the card)
must match the model's values within 4.5 standard errors. The model is the bargain's
`threat_values` under negotiation.threat = "shootout" (the exact walk, sim.ag.shots); the default
"fixed_aim" model is held to its fractions in tests/ag/test_ag_nash.py."""

import numpy as np
import pytest

from sim.ag import bargain as B
from sim.ag import state as S
from sim.ag.chapters import shootout
from sim.ag.env import (
    P_SECOND_ROUND, P_VAL_BAG, P_VAL_CARD, P_VAL_OCC, P_VAL_RENOWN, P_VAL_TOKEN, P_VAL_WOUND, make_env,
)
from sim.ag.readers import recruit_price
from strategies.ag.params import INDEX
from strategies.ag.policy import DEFAULTS, PARAMETRIC
from sim.rules import Ruleset
from tests.ag.ag_scenario import Table, card_id

TRIALS = 1500
Z = 4.5
FIELDS = ("g", "pl", "at", "bags", "lc", "dice")
WALK = {"negotiation.threat": "shootout"}   # AG-N2: the model these tests hold against the engine
WALK_RULES = Ruleset.load(game="ag", overrides=WALK)


def worths(env):
    return {k: env.rp[k] / 1000.0 for k in (P_VAL_BAG, P_VAL_CARD, P_VAL_OCC, P_VAL_RENOWN, P_VAL_TOKEN,
                                            P_VAL_WOUND)}


def holdings(t, q, slot):
    """What a shoot-out can change of family q: bags, renown, cards, tokens, members, the
    occasional dice on the slot, wounds not fatal (wounds taken less deaths)."""
    pl = t.pl
    return np.array([t.bags[q, 0] + t.bags[q, 1], pl[q, S.RENOWN], pl[q, S.WON0:S.WON0 + 4].sum(),
                     pl[q, S.TOK0:S.TOK0 + 4].sum(), pl[q, S.HENCHMEN], pl[q, S.KILLERS],
                     t.at[slot, q, S.OCC], pl[q, S.C_WOUNDS] - pl[q, S.C_BOSS_DEATHS]], dtype=float)


def realised(t, q, slot, before, after, total, mask):
    w = worths(t.env)
    bag = w[P_VAL_BAG]
    price_h = recruit_price(t.game, t.env, S.HENCH)
    price_k = recruit_price(t.game, t.env, S.KILLER)
    d = after - before
    value = (d[0] * bag + d[1] * w[P_VAL_RENOWN] + d[2] * w[P_VAL_CARD] + d[3] * w[P_VAL_TOKEN]
             + d[4] * price_h * bag + d[5] * price_k * bag + d[6] * w[P_VAL_OCC] - d[7] * w[P_VAL_WOUND])
    left = [p for p in range(t.g[S.N_PLAYERS]) if (mask >> p) & 1 and S.pieces_at(t.game, slot, p) > 0]
    if q in left and (len(left) == 1 or t.env.rp[P_SECOND_ROUND]):
        value += total / len(left)
    return value


def sampled_table(n, rng):
    """n families on the racket, each with a random crew, wounds, bags, cards and tokens; random
    aggression; the Arms Baron a random seat (or nobody)."""
    params = np.tile(DEFAULTS, (S.MAX_SEATS, 1))
    params[:, INDEX["aggression"]] = rng.choice([0.2, 0.5, 0.9], S.MAX_SEATS)
    t = Table(n, kind=PARAMETRIC, overrides=WALK)
    t.env = make_env(WALK_RULES, [PARAMETRIC] * S.MAX_SEATS, params)
    t.show(card_id("racket"))
    districts = ["Queens", "Manhattan", "Bronx"]
    for q in range(n):
        crew = dict(boss=int(rng.random() < 0.6), hench=int(rng.integers(0, 3)), killer=int(rng.integers(0, 2)),
                    occ=int(rng.random() < 0.3))
        if sum(crew.values()) == 0:
            crew["hench"] = 1
        t.put(1, q, **crew)
        t.pl[q, S.WOUNDS] = int(rng.random() < 0.4)
        t.pl[q, S.RENOWN] = int(rng.integers(0, 4))
        t.set_bags(q, int(rng.integers(0, 6)))
        if rng.random() < 0.5:
            t.win_card(card_id("grocery", districts[q % 3]), q)
        if rng.random() < 0.5:
            t.token(q, S.DRUGS)
    t.g[S.BARON0 + S.ARMS] = int(rng.integers(-1, n))
    return t


def engine_means(t, mask, total, trials):
    saved = {f: getattr(t.game, f).copy() for f in FIELDS}
    n = t.g[S.N_PLAYERS]
    outcomes = np.zeros((trials, n))
    for i in range(trials):
        for f in FIELDS:
            getattr(t.game, f)[...] = saved[f]
        before = [holdings(t, q, 1) for q in range(n)]
        shootout.shootout(t.game, t.env, 1, mask, t.opts, t.ctx)
        for q in range(n):
            outcomes[i, q] = realised(t, q, 1, before[q], holdings(t, q, 1), total, mask)
    for f in FIELDS:
        getattr(t.game, f)[...] = saved[f]
    return outcomes.mean(axis=0), outcomes.std(axis=0, ddof=1) / np.sqrt(trials)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_ag_n2_model_holds_against_the_engine_shootout(n):
    """AG-N1..N3 with AG-K4 spoils and AG-B3 conversion: 3 sampled contests of n families."""
    rng = np.random.default_rng(100 + n)
    for _ in range(3):
        t = sampled_table(n, rng)
        mask = (1 << n) - 1
        total = 7.5
        model = np.zeros(S.MAX_SEATS)
        B.threat_values(t.game, t.env, 1, mask, total, model)
        mean, se = engine_means(t, mask, total, TRIALS)
        for q in range(n):
            assert abs(mean[q] - model[q]) <= Z * se[q] + 1e-9, (n, q, mean, se, model[:n])


def test_ag_n2_an_aim_tie_is_split_not_given_to_the_earlier_seat():
    """AG-N2: the godfather's killers shoot at two bosses alike (seats 1 and 2, no dice, the same
    score): the model splits the tie, so both are worth the same, and the engine's draws hit each
    about as often (the earlier rule aimed every BANG at seat 1)."""
    t = Table(3, kind=PARAMETRIC, overrides=WALK)
    t.show(card_id("bakery"))
    t.put(1, 0, killer=1, hench=2)
    t.put(1, 1, boss=1)
    t.put(1, 2, boss=1)
    model = np.zeros(S.MAX_SEATS)
    B.threat_values(t.game, t.env, 1, 0b111, 6.0, model)
    assert model[1] == pytest.approx(model[2], abs=1e-12) and model[1] < 2.0
    mean, se = engine_means(t, 0b111, 6.0, 2000)
    assert np.all(np.abs(mean - model[:3]) <= Z * se)
    assert abs(mean[1] - mean[2]) <= Z * np.hypot(se[1], se[2])
