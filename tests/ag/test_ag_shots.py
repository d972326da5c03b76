"""AG-N1..N3, AG-N2, AG-K4, AG-B3: the bargaining model's disagreement point is the shoot-out the
engine plays and its sequel. Sampled contests of 2 to 5 families are fought many times by the
engine's own `shootout` and `after_shootout` (parametric players with their own bluffs and title
claims, dice from the game's streams); each family's mean outcome in bags (pieces lost, wounds, a
boss's death and its spoils, the Arms power's price, what it takes of the card in the second
hourglass) must match the model's values within 4.5 standard errors. The model is the bargain's
`threat_values` under negotiation.threat = "shootout" (the exact walk, sim.ag.shots); the default
"fixed_aim" model is held to its fractions in tests/ag/test_ag_nash.py."""

import numpy as np
import pytest

from sim.ag import bargain as B
from sim.ag import shots
from sim.ag import state as S
from sim.ag.chapters import negotiation, shootout
from sim.ag.env import (
    MEMO_F, MEMO_W, P_WOUNDS_TO_DIE, P_VAL_BAG, P_VAL_CARD, P_VAL_OCC, P_VAL_RENOWN, P_VAL_TOKEN, P_VAL_WOUND,
    make_env,
)
from sim.ag.game import Lineup, play_many
from sim.ag.readers import recruit_price
from strategies.ag.params import INDEX
from strategies.ag.policy import DEFAULTS, PARAMETRIC
from sim.rules import Ruleset
from tests.ag.ag_scenario import Table, card_id

TRIALS = 1500
Z = 4.5
# the model values the second hourglass at the worths the survivors agree on; the engine makes them
# up of whole units and bags of side payments (AG-N1), which may miss them by a fraction of a bag
UNITS = 0.2
FIELDS = ("g", "pl", "at", "bags", "lc", "dice")
WALK = {"negotiation.threat": "shootout"}   # AG-N2: the model these tests hold against the engine
WALK_RULES = Ruleset.load(game="ag", overrides=WALK)


def worths(env):
    return {k: env.rp[k] / 1000.0 for k in (P_VAL_BAG, P_VAL_CARD, P_VAL_OCC, P_VAL_RENOWN, P_VAL_TOKEN,
                                            P_VAL_WOUND)}


def holdings(t, q, slot):
    """What a shoot-out and its sequel can change of family q: bags, renown, cards, tokens,
    members, the occasional dice on the slot, wounds not fatal (wounds taken less deaths), the
    occasional henchmen gained from the card."""
    pl = t.pl
    return np.array([t.bags[q, 0] + t.bags[q, 1], pl[q, S.RENOWN], pl[q, S.WON0:S.WON0 + 4].sum(),
                     pl[q, S.TOK0:S.TOK0 + 4].sum(), pl[q, S.HENCHMEN], pl[q, S.KILLERS],
                     t.at[slot, q, S.OCC], pl[q, S.C_WOUNDS] - pl[q, S.C_BOSS_DEATHS], pl[q, S.OCC_NEW]],
                    dtype=float)


def realised(t, before, after):
    """The change of a family's holdings, in bags at the bargaining worths."""
    w = worths(t.env)
    bag = w[P_VAL_BAG]
    price_h = recruit_price(t.game, t.env, S.HENCH)
    price_k = recruit_price(t.game, t.env, S.KILLER)
    d = after - before
    return (d[0] * bag + d[1] * w[P_VAL_RENOWN] + d[2] * w[P_VAL_CARD] + d[3] * w[P_VAL_TOKEN]
            + d[4] * price_h * bag + d[5] * price_k * bag + (d[6] + d[8]) * w[P_VAL_OCC] - d[7] * w[P_VAL_WOUND])


def sampled_table(n, rng):
    """n families on the racket, each with a random crew, wounds, bags, cards and tokens; random
    aggression, bluff and care for titles (a politician claims more on a card that wins it a
    title, sim.ag.claims); the Arms Baron a random seat (or nobody)."""
    params = np.tile(DEFAULTS, (S.MAX_SEATS, 1))
    params[:, INDEX["aggression"]] = rng.choice([0.2, 0.5, 0.9], S.MAX_SEATS)
    params[:, INDEX["bluff"]] = rng.choice([0.0, 0.05, 0.2, 0.4], S.MAX_SEATS)
    params[:, INDEX["title_weight"]] = rng.choice([0.7, 2.0], S.MAX_SEATS)
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


def engine_means(t, mask, trials):
    """Each family's mean outcome (and its standard error) of the engine's shoot-out on slot 1
    and the sequel the engine plays (AG-N3: the one left takes all, survivors bargain again)."""
    saved = {f: getattr(t.game, f).copy() for f in FIELDS}
    n = t.g[S.N_PLAYERS]
    card = int(t.g[S.SHOW0 + 1])
    outcomes = np.zeros((trials, n))
    for i in range(trials):
        for f in FIELDS:
            getattr(t.game, f)[...] = saved[f]
        before = [holdings(t, q, 1) for q in range(n)]
        shootout.shootout(t.game, t.env, 1, mask, t.opts, t.ctx)
        negotiation.after_shootout(t.game, t.env, 1, card, mask, np.zeros(S.MAX_SEATS), t.opts, t.ctx)
        for q in range(n):
            outcomes[i, q] = realised(t, before[q], holdings(t, q, 1))
    for f in FIELDS:
        getattr(t.game, f)[...] = saved[f]
    return outcomes.mean(axis=0), outcomes.std(axis=0, ddof=1) / np.sqrt(trials)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_ag_n2_model_holds_against_the_engine_shootout(n):
    """AG-N1..N3 with AG-K4 spoils and AG-B3 conversion: 3 sampled contests of n families, the
    model against the engine's shoot-out and its sequel (the second hourglass split by the
    survivors' claims; the card lost when they claim more than it)."""
    rng = np.random.default_rng(100 + n)
    for _ in range(3):
        t = sampled_table(n, rng)
        mask = (1 << n) - 1
        total = shots.card_worth(t.game, t.env, int(t.g[S.SHOW0 + 1]))
        model = np.zeros(S.MAX_SEATS)
        B.threat_values(t.game, t.env, 1, mask, total, model)
        mean, se = engine_means(t, mask, TRIALS)
        for q in range(n):
            assert abs(mean[q] - model[q]) <= Z * se[q] + UNITS, (n, q, mean, se, model[:n])


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
    B.threat_values(t.game, t.env, 1, 0b111, shots.card_worth(t.game, t.env, card_id("bakery")), model)
    assert model[1] == pytest.approx(model[2], abs=1e-12) and model[1] < 2.0
    mean, se = engine_means(t, 0b111, 2000)
    assert np.all(np.abs(mean - model[:3]) <= Z * se)
    assert abs(mean[1] - mean[2]) <= Z * np.hypot(se[1], se[2])


def test_ag_k4_the_successor_is_the_member_left_when_the_boss_dies():
    """AG-K4 ruling in the model: the member who takes a dead boss's place is asked at the death,
    as the engine asks it. Seat 0's only henchman is on the card beside its wounded boss, its
    killer at home; the henchman goes first, so when the boss dies the killer takes its place
    (its price is lost, nothing more leaves the card). Asked at the start of the shoot-out, the
    successor would be the henchman already lost."""
    t = Table(2, kind=PARAMETRIC, overrides=WALK)
    t.show(card_id("racket"))
    t.put(1, 0, boss=1, hench=1)
    t.put(1, 1, killer=2, hench=2)
    t.pl[0, S.HENCHMEN], t.pl[0, S.KILLERS] = 1, 1
    t.pl[1, S.HENCHMEN], t.pl[1, S.KILLERS] = 2, 2
    t.pl[0, S.WOUNDS] = t.env.rp[P_WOUNDS_TO_DIE] - 1
    t.set_bags(0, 4)
    t.g[S.K_COST_POS] += 3   # a killer dearer than a henchman: the two successors cost differently
    assert recruit_price(t.game, t.env, S.KILLER) >= recruit_price(t.game, t.env, S.HENCH) + 1
    model = np.zeros(S.MAX_SEATS)
    B.threat_values(t.game, t.env, 1, 0b11, shots.card_worth(t.game, t.env, card_id("racket")), model)
    mean, se = engine_means(t, 0b11, 4000)
    assert np.all(np.abs(mean - model[:2]) <= Z * se), (mean, se, model[:2])


# --- the table of walked contests (env.memo_*): a value read back is the walk's own ---------------

def values(t, mask, total):
    out = np.zeros(S.MAX_SEATS)
    shots.shootout_values(t.game, t.env, 1, mask, total, out)
    return out


def fresh_values(t, mask, total):
    """The contest's values in an env whose table is empty: the walk itself."""
    warm = t.env
    t.env = make_env(WALK_RULES, [PARAMETRIC] * S.MAX_SEATS, warm.params.copy())
    try:
        return values(t, mask, total)
    finally:
        t.env = warm


def perturbations(t, n):
    """Every input the walk reads, changed one at a time (each a function of the table)."""
    yield lambda: t.set_bags(0, int(t.bags[0, 0] + t.bags[0, 1]) + 3)
    yield lambda: t.pl.__setitem__((n - 1, S.RENOWN), t.pl[n - 1, S.RENOWN] + 1)
    yield lambda: t.pl.__setitem__((0, S.WOUNDS), 1 - t.pl[0, S.WOUNDS])
    yield lambda: t.win_card(card_id("grocery", "Bronx"), n - 1)
    yield lambda: t.token(0, S.GAMBLING)
    yield lambda: t.env.params.__setitem__((0, INDEX["aggression"]), t.env.params[0, INDEX["aggression"]] + 0.3)
    yield lambda: t.put(1, n - 1, hench=1)
    yield lambda: t.g.__setitem__(S.BARON0 + S.ARMS, (t.g[S.BARON0 + S.ARMS] + 2) % (n + 1) - 1)
    yield lambda: t.g.__setitem__(S.H_COST_POS, t.g[S.H_COST_POS] + 1)
    yield lambda: t.g.__setitem__(S.K_COST_POS, t.g[S.K_COST_POS] + 1)
    yield lambda: t.g.__setitem__(S.ORDER0, t.g[S.ORDER0 + 1]) or t.g.__setitem__(S.ORDER0 + 1, 0)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_ag_n2_a_remembered_contest_is_the_walked_one(n):
    """The walk's table remembers each contest it walked under its whole key: read back, the
    values are the walk's to the bit; change any input the walk reads (a family's bags, renown,
    wounds, cards, tokens, aggression, pieces, the Arms Baron, a recruit price, the shooting
    order) and the table gives the new contest's walk, never the old value."""
    rng = np.random.default_rng(200 + n)
    mask, total = (1 << n) - 1, 7.5
    for _ in range(3):
        t = sampled_table(n, rng)
        first = values(t, mask, total)
        looked, found = t.env.memo_n
        again = values(t, mask, total)
        assert np.array_equal(first, again) and np.array_equal(first, fresh_values(t, mask, total))
        assert t.env.memo_n[1] == found + 1 and t.env.memo_n[0] == looked + 1
        for change in perturbations(t, n):
            change()
            assert np.array_equal(values(t, mask, total), fresh_values(t, mask, total))
        assert np.array_equal(values(t, mask, total + 1.5), fresh_values(t, mask, total + 1.5))


def test_ag_n2_a_contests_key_in_the_record_has_the_tables_width():
    """The key a contest is looked up by is built in the game record (walk_key, walk_fkey): as
    wide as the table's keys (env.memo_key, memo_fkey)."""
    assert S.GAME_DTYPE["walk_key"].shape == (MEMO_W,)
    assert S.GAME_DTYPE["walk_fkey"].shape == (MEMO_F,)


def test_ag_n2_games_with_the_table_warm_are_the_games_played_cold():
    """A batch's env keeps its table from game to game; each game played alone starts with an
    empty one: the same games, table for table."""
    lineup = Lineup.of(["warlord", "racketeer", "politician", "balanced"], 4)
    games, seats, _ = play_many(3, 24, 4, lineup, WALK_RULES)
    alone = [play_many(3, 1, 4, lineup, WALK_RULES, first_id=i) for i in range(24)]
    assert np.array_equal(games, np.concatenate([a[0] for a in alone]))
    assert np.array_equal(seats, np.concatenate([a[1] for a in alone]))
