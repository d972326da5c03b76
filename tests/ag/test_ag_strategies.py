"""American Gangsters strategies: the presets of strategies/ag load and each plays to its stated
style, measured over every seating order (a family's neighbours matter: who places just before it);
the bargaining rule (AG-N, modelled) shapes the game."""

import itertools
import math

import numpy as np
import pytest
from ag_scenario import many

from sim.ag import batch as B
import strategies
from strategies.ag.policy import DEFAULTS, PARAM_NAMES, PARAMETRIC, POLICY_KINDS, RANDOM

PRESETS = ("random", "racketeer", "warlord", "politician", "informer-aware", "balanced")


def test_every_preset_loads_with_known_parameters():
    found = {name: strategies.load(name, "ag") for name in strategies.available("ag")}
    assert set(PRESETS) | {"simple"} <= set(found)
    assert found["random"].kind() == RANDOM and found["simple"].params == tuple(DEFAULTS)
    for name in PRESETS[1:]:
        s = found[name]
        assert s.kind() == PARAMETRIC and len(s.params) == len(PARAM_NAMES) and s.doc
        assert s.params != tuple(DEFAULTS), f"{name} is the same as simple"


def test_the_loader_families_are_the_policy_kinds():
    """The family index the loader gives is the kind the jitted policy branches on."""
    for family in strategies.space("ag").FAMILIES:
        s = strategies.Strategy("x", family, tuple(DEFAULTS), game="ag")
        assert POLICY_KINDS[s.kind()] == family


def test_strategy_files_and_bad_names(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text("[params]\ngreed = 1.0\n")
    assert strategies.load(str(path), "ag").params[PARAM_NAMES.index("greed")] == 1.0
    with pytest.raises(strategies.StrategyError, match="unknown strategy 'gangster'"):
        strategies.load("gangster", "ag")
    path.write_text("[params]\ngreedy = 1.0\n")
    with pytest.raises(strategies.StrategyError, match="unknown parameter 'greedy'"):
        strategies.load(str(path), "ag")


def every_order(names, games_per_order, **kw):
    """Seats of every distinct seating order with names[0] first (its neighbours vary),
    concatenated: (names of the seats' strategies, seat rows)."""
    labels, rows = [], []
    for rest in dict.fromkeys(itertools.permutations(names[1:])):
        order = (names[0], *rest)
        _, seats = many(order, games_per_order, seed=9, check=False, **kw)
        flat = seats.reshape(-1, seats.shape[2])
        labels += [order[i] for i in flat[:, B.S_STRATEGY]]
        rows.append(flat)
    return np.array(labels), np.concatenate(rows)


def column(rows, name):
    return rows[:, B.SEAT_COLUMNS.index(name)].astype(float)


@pytest.fixture(scope="module")
def styles():
    return every_order(("racketeer", "warlord", "politician", "balanced"), 1000)


def mean_by(labels, values):
    return {name: values[labels == name].mean() for name in np.unique(labels)}


def test_warlord_fights_the_most(styles):
    labels, rows = styles
    # the shoot-outs it takes part in and the offers it refuses; the BANGs fired also count the
    # Arms power's killer, which a rich family buys when it pays (AG-B3), so they are not its mark
    fights = mean_by(labels, column(rows, "shootouts"))
    refused = mean_by(labels, column(rows, "offers_refused"))
    assert max(fights, key=fights.get) == "warlord" and max(refused, key=refused.get) == "warlord"


def test_racketeer_takes_the_most_bags_from_locations_and_fights_the_least(styles):
    """Its money comes from the cards it is likely to take; the politician, holding the Baron
    titles that steal bags (AG-B2), may end with more in hand."""
    labels, rows = styles
    bags = mean_by(labels, column(rows, "bags_from_locations"))
    fights = mean_by(labels, column(rows, "shootouts"))
    assert max(bags, key=bags.get) == "racketeer" and min(fights, key=fights.get) == "racketeer"


def test_politician_ends_with_the_most_titles_under_the_default_bargaining(styles):
    """AG-T5 under the Nash model (the default): the politician, which insists on the cards that
    win or defend a title (its claim, AG-N), ends with the most Caid and Baron titles and holds
    them for the most turns (a small lead: docs/american-gangsters.md)."""
    labels, rows = styles
    titles = mean_by(labels, column(rows, "barons") + column(rows, "caids"))
    held = mean_by(labels, column(rows, "baron_turns") + column(rows, "caid_turns"))
    assert max(titles, key=titles.get) == "politician" and max(held, key=held.get) == "politician"


@pytest.fixture(scope="module")
def styles_first_model():
    # placed in sequence, as this model was measured: placing at once, the first model's threat
    # shares do not let the politician insist on its cards, and the racketeer ends with the most
    # titles (docs/american-gangsters.md)
    return every_order(("racketeer", "warlord", "politician", "balanced"), 1000,
                       overrides={"negotiation.model": "offer", "placement.order": "sequential"})


def test_politician_ends_with_the_most_titles_under_the_first_model(styles_first_model):
    labels, rows = styles_first_model
    titles = mean_by(labels, column(rows, "barons") + column(rows, "caids"))
    assert max(titles, key=titles.get) == "politician"


def test_random_loses_to_every_preset():
    labels, rows = every_order(("random", "simple", "racketeer", "politician"), 150)
    won = mean_by(labels, column(rows, "won"))
    assert won["random"] < 0.05 and min(won[n] for n in ("simple", "racketeer", "politician")) > 0.15


def test_informer_aware_plays_the_informer_and_wins_more_often_with_it():
    """AG-G2: dealt the informer it pushes the FBI pawn (and spares it), and wins more often than
    `simple`, which plays the informer as a mafia family (some 7 points in 24,000 games,
    docs/american-gangsters.md); as mafia it keeps the pawn down."""
    labels, rows = every_order(("informer-aware", "simple", "simple", "simple"), 4000)
    informer = column(rows, "informer") == 1
    aware, plain = labels == "informer-aware", labels == "simple"
    raised, lowered = column(rows, "fbi_raised"), column(rows, "fbi_lowered")
    assert raised[informer & aware].mean() > raised[informer & plain].mean()
    assert lowered[informer & aware].mean() < lowered[informer & plain].mean()
    assert lowered[~informer & aware].mean() > lowered[~informer & plain].mean()
    won = column(rows, "won")
    mine, theirs = won[informer & aware], won[informer & plain]
    gap = mine.mean() - theirs.mean()
    se = math.sqrt(mine.var() / len(mine) + theirs.var() / len(theirs))
    assert gap - 1.645 * se > 0, (mine.mean(), theirs.mean(), se)   # one-sided, 95 %


def test_ag_n1_the_split_rule_shapes_the_game():
    """First model: equal shares ignore who could win a shoot-out: strong families refuse more and
    fight more."""
    lineup = ("racketeer", "warlord", "politician", "balanced")
    offer = {"negotiation.model": "offer"}
    threat, _ = many(lineup, 1500, seed=4, check=False, overrides=offer)
    equal, _ = many(lineup, 1500, seed=4, check=False, overrides={**offer, "negotiation.share": "equal"})
    s_t, s_e = threat[:, B.G_SHOOTOUTS], equal[:, B.G_SHOOTOUTS]
    se = math.sqrt(s_t.var() / len(s_t) + s_e.var() / len(s_e))
    assert s_e.mean() - s_t.mean() > 4 * se


def test_ag_n1_nash_bargaining_fights_less_than_the_first_model():
    """The Nash split gives each family at least its exact shoot-out value: only bluffs that leave
    no surplus end in a shoot-out, far fewer than refusals of one take-it-or-leave-it offer."""
    lineup = ("racketeer", "warlord", "politician", "balanced")
    nash, _ = many(lineup, 1500, seed=4, check=False)
    offer, _ = many(lineup, 1500, seed=4, check=False, overrides={"negotiation.model": "offer"})
    s_n, s_o = nash[:, B.G_SHOOTOUTS], offer[:, B.G_SHOOTOUTS]
    se = math.sqrt(s_n.var() / len(s_n) + s_o.var() / len(s_o))
    assert s_o.mean() - s_n.mean() > 4 * se
