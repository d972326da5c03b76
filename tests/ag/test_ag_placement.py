"""AG-T3 with AG-N1..N3: a family weighs a location by what it can expect to keep of the card
from the bargain (the exact shoot-out values as disagreement points, sim.ag.bargain), not by a
share of the threat; hand-worked values of the casino between a killer and a henchman."""

from fractions import Fraction as F

import pytest
from ag_scenario import PARAMETRIC, Table, card_id

from sim.ag import bargain as B
from sim.ag import state as S
from sim.ag.chapters import placement as E
from strategies.ag import policy as P

CASINO = 6.0   # 1 renown (3) + the gambling token (1.5) + the card (1.5), at the rule's worths


def casino(overrides=None, killer_family=0):
    t = Table(2, kind=PARAMETRIC, overrides=overrides)
    t.show(card_id("casino"))
    t.put(1, killer_family, killer=1)
    t.put(1, 1 - killer_family, hench=1)
    return t


def test_ag_n1_expected_share_is_the_nash_split_worked_by_hand():
    """Shoot-out values (3, 2/3); Nash targets (25/6, 11/6) of 6: shares 25/36 and 11/36."""
    t = casino()
    card = card_id("casino")
    assert B.card_worth(t.game, t.env, card) == pytest.approx(CASINO)
    assert B.expected_share(t.game, t.env, 1, card, 0, 0.0, False) == pytest.approx(float(F(25, 36)))
    assert B.expected_share(t.game, t.env, 1, card, 1, 0.0, False) == pytest.approx(float(F(11, 36)))


def test_ag_n1_a_bluff_pays_while_it_leaves_a_surplus_and_a_fight_follows_when_not():
    """Seat 1 claims 2/3 + 0.1 * 6 = 19/15: surplus 6 - 3 - 19/15 = 26/15, target 19/15 + 13/15 =
    32/15; claiming 2/3 + 0.9 * 6 leaves none: it gets its shoot-out value 2/3."""
    t = casino()
    card = card_id("casino")
    assert B.expected_share(t.game, t.env, 1, card, 1, 0.1, False) * CASINO == pytest.approx(32 / 15)
    assert B.expected_share(t.game, t.env, 1, card, 1, 0.9, False) * CASINO == pytest.approx(2 / 3)


def test_ag_n1_alone_a_family_keeps_the_whole_card_and_absent_nothing():
    t = Table(2, kind=PARAMETRIC)
    t.show(card_id("casino"))
    t.put(1, 0, hench=1)
    card = card_id("casino")
    assert B.expected_share(t.game, t.env, 1, card, 0, 0.0, False) == 1.0
    assert B.expected_share(t.game, t.env, 1, card, 1, 0.0, False) == 0.0


def test_ag_t3_placement_weighs_a_card_by_its_bargaining_value():
    """The henchman's family (seat 1, `simple`: bluff 0.05) values the casino at the chance of
    success times its Nash share, claiming 2/3 + 0.3 against 3: (2/3 + 0.3 + (6 - 3 - 2/3 - 0.3) / 2)
    / 6 of the card's worth to it, plus the FBI step and its appetite for the killer's
    threat; under the first offer model it is its threat share cut by the conflict discount."""
    nash = (2 / 3 + 0.3 + (6 - 3 - 2 / 3 - 0.3) / 2) / 6
    for model, share in (("nash", nash), ("offer", (1 / 3) / (1 / 3 + 2 / 3) * (1 - P.CONFLICT))):
        t = casino({"negotiation.model": model})
        game, env = t.game, t.env
        P.goods_of_cards(game, env, 1)
        card = card_id("casino")
        chance = env.success[1, 1, 0, 0, env.rp[P.RP_C_TARGET + card]]
        fbi = env.rp[P.RP_C_FBI + card] * P.fbi_worth(game, env, 1)
        crowd = (env.params[1, P.AGGRESSION] - 0.5) * (2 / 3)
        expected = chance * (share * game.goods[1] + fbi) + crowd
        assert P.location_worth(game, env, 1, 1, P.fbi_worth(game, env, 1)) == pytest.approx(expected)


def test_ag_t3_weighing_a_placement_leaves_the_table_as_it_was():
    """The policy puts the crew it weighs on the table for the while and takes it back: after a
    placement only the placed piece has moved."""
    t = casino()
    t.ctx[:] = 0
    t.ctx[P.CTX_REST_H] = 2
    for piece in (S.HENCH, S.KILLER, S.BOSS):
        before = t.at.copy()
        slot = E.place_piece(t.game, t.env, 0, piece, True, t.opts, t.ctx)
        if slot >= 0:
            before[slot, 0, piece] += 1
        assert (t.at == before).all()


def test_ag_n2_foresight_picks_the_forecast_placement_reads():
    """The foresight knob's three levels under negotiation.threat = shootout, three families on the
    casino (a killer; a henchman; a boss on its last life with a henchman and 10 bags): below 1/3
    the threat share cut by the conflict discount (the first model's judgement); between, the Nash
    split over the fixed-aim values; from 2/3 the split over the rule's own values, the walk's,
    which differ here (the aim at the richer boss, its spoils)."""
    t = Table(3, kind=PARAMETRIC, overrides={"negotiation.threat": "shootout"})
    card = card_id("casino")
    t.show(card)
    t.put(1, 0, killer=1)
    t.put(1, 1, hench=1)
    t.put(1, 2, boss=1, hench=1)
    t.pl[2, S.WOUNDS] = 1
    t.set_bags(2, 10)
    t.env.params[:, P.BLUFF] = 0.0
    shares = {}
    for level in (0.0, 0.5, 1.0):
        t.env.params[:, P.FORESIGHT] = level
        h, k, o, b, total, mine, others, families, _ = P.tally(t.game, t.env, 1, 1)
        shares[level] = P.share_on(t.game, t.env, 1, 1, total, mine, families)
    threat = 1 / 3 / (2 / 3 + 1 / 3 + 1 / 3)
    assert shares[0.0] == pytest.approx(threat * (1 - 2 * P.CONFLICT))
    assert shares[0.5] == pytest.approx(B.expected_share(t.game, t.env, 1, card, 1, 0.0, False))
    assert shares[1.0] == pytest.approx(B.expected_share(t.game, t.env, 1, card, 1, 0.0, True))
    assert abs(shares[1.0] - shares[0.5]) > 1e-3
