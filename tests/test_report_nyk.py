"""New York Kings report sections on small hand-made tables: the counters a run may add (per-value
recruitment, favourites, police cars) against exact odds and direct counts; the game dispatch."""

import numpy as np
import pandas as pd
import pytest

from sim.nyk import hands, odds
from sim.analysis import games as game_sections
from sim.analysis.games import nyk
from sim.analysis.report import Report
from sim.rules import Ruleset
from sim.rules.nyk.content import mission_rewards

RS = Ruleset.load()
MANIFEST = {"game": "nyk", "ruleset": {"content": RS.to_dict()}}


def test_recruit_terms_and_deck_come_from_the_manifest():
    assert nyk.recruit_terms(MANIFEST) == odds.RecruitTerms.from_ruleset(RS)
    scaled = Ruleset.load(overrides={"recruit.cost_scale": 2.0, "missions.reward_scale": 1.5})
    manifest = {"ruleset": {"content": scaled.to_dict()}}
    assert nyk.recruit_terms(manifest) == odds.RecruitTerms.from_ruleset(scaled)
    assert sorted(nyk.mission_deck(manifest)["reward"]) == sorted(mission_rewards(scaled))
    assert nyk.start_money(MANIFEST) == 16_000


def per_value_seats(offers):
    """Two seats with per-value recruitment counters; offers[v] is the mean offer of value v."""
    row = {}
    for v in nyk.HENCHMAN_VALUES:
        row[f"recruits_tried_{v}"] = 10
        row[f"recruits_done_{v}"] = 7
        row[f"recruit_offered_{v}"] = 10 * offers[v]
    return pd.DataFrame([row, row])


def test_recruits_by_value_against_the_exact_odds():
    """NYK-A6: at an offer on the grid, the exact columns are sim.nyk.odds' own numbers; between two
    offers, the linear interpolation of the two."""
    terms = nyk.recruit_terms(MANIFEST)
    offers = {"9": 1000, "10": 2000, "J": 3000, "Q": 3500, "K": 10_000}
    table = nyk.recruits_by_value(per_value_seats(offers), terms).set_index("value")
    assert (table["attempts"] == 20).all() and (table["observed"] == 0.7).all()
    for v in ("9", "10", "J", "K"):
        rank = hands.parse_value(v)
        exact = odds.recruit_odds(rank, offers[v], terms, pay_hesitation=True)
        accept = odds.recruit_odds(rank, offers[v], terms, pay_hesitation=False)
        assert table.loc[v, "exact_success"] == pytest.approx(float(exact["success"]))
        assert table.loc[v, "exact_accept"] == pytest.approx(float(accept["success"]))
    q = hands.parse_value("Q")
    between = [float(odds.recruit_odds(q, o, terms)["success"]) for o in (3000, 4000)]
    assert table.loc["Q", "exact_success"] == pytest.approx(sum(between) / 2)
    # a Q refuses only when every die is 9, 10 or J (half the faces): 1 - (1/2)^dice, 3 and 4 dice
    assert table.loc["Q", "exact_success"] == pytest.approx(((1 - 1 / 8) + (1 - 1 / 16)) / 2)
    assert (table["exact_accept"] <= table["exact_success"]).all()


def test_recruits_by_value_needs_its_counters():
    assert nyk.recruits_by_value(pd.DataFrame({"recruits_tried": [1]}), nyk.recruit_terms(MANIFEST)) is None
    outside = nyk.recruits_by_value(per_value_seats({v: 2 for v in nyk.HENCHMAN_VALUES}), nyk.recruit_terms(MANIFEST))
    assert outside["exact_success"].isna().all()  # a mean "offer" of $2 is no legal offer: no odds claimed


def test_provocation_stages_with_and_without_the_stage_counters():
    """NYK-A4: 10 provocations; both sides count a raise and a fusillade (6 raised, 4 fought)."""
    seats = pd.DataFrame({"provocations_made": [6, 4], "provocations_raised": [6, 6], "fusillades": [4, 4],
                          "folds": [3, 3], "fights_won": [2, 1], "fights_lost": [1, 2], "fights_tied": [1, 1]})
    stages = nyk.provocation_stages(seats).set_index("measure")["count"]
    assert stages.tolist() == [4, 2, 4] and stages.sum() == 10
    plain = nyk.provocation_stages(seats.drop(columns=["provocations_raised", "fusillades"]))
    assert plain.set_index("measure")["count"].tolist() == [6, 4]  # 3 decided fights + 1 tie


def test_favourites_and_police_cars_when_recorded():
    seats = pd.DataFrame({"strategy": ["a", "b", "a", "b"], "provocations_made": [2, 1, 0, 1],
                          "provocations_received": [1, 1, 1, 1], "folds": [1, 0, 0, 1],
                          "fights_won": [1, 0, 0, 1], "fights_lost": [0, 1, 1, 0], "fights_tied": [0, 0, 0, 0],
                          "pots_won": [1, 1, 0, 1], "pots_lost": [1, 0, 1, 1],
                          "fights_as_favourite": [1, 1, 0, 1], "fights_won_as_favourite": [1, 0, 0, 1]})
    table = nyk.provocations(seats)
    row = table[(table["group"] == "all") & table["measure"].str.contains("favourite")].iloc[0]
    assert (row["count"], row["out_of"]) == (2, 3)
    games = pd.DataFrame({"turns": [10, 10, 12], "police_cars_end": [2, 4, 3]})
    cars = nyk.police_cars(games).set_index("turns")
    assert cars.loc[10, "cars_mean"] == 3 and cars.loc[12, "games"] == 1
    assert nyk.police_cars(games.drop(columns="police_cars_end")) is None


def test_money_flows_with_known_amounts():
    seats = pd.DataFrame({"game_id": [0, 0, 1, 1], "strategy": ["a", "b", "a", "b"],
                          "fortune": [20_000, 10_000, 18_000, 12_000], "mission_income": [8000, 0, 6000, 0],
                          "card_income": [0, 2000, 0, 0], "bids_paid": [3000, 7000, 4000, 3000],
                          "recruit_spent": [0, 1000, 0, 1000], "heli_spent": [0, 0, 0, 0]})
    flows = nyk.money_flows(seats, 16_000)
    other = flows[(flows["column"] == "other_net")].set_index("strategy")["mean"]
    # a: 20,000 - 16,000 - 8,000 + 3,000 = -1,000 and 18,000 - 16,000 - 6,000 + 4,000 = 0;
    # b: 10,000 - 16,000 - 2,000 + 7,000 + 1,000 = 0 and 12,000 - 16,000 + 3,000 + 1,000 = 0
    assert other["a"] == pytest.approx(-500) and other["b"] == 0
    assert other["all"] == pytest.approx((-1000 + 0) / 2 / 2)  # game means -500 and 0


class _Run:
    def __init__(self, game):
        self.manifest = {"game": game}


def test_a_game_without_sections_gets_the_generic_report_only():
    report = Report("t")
    assert game_sections.add_game_sections(report, _Run("no_such_game")) is False
    assert report.blocks == []
    assert game_sections.section_module("nyk") is nyk
    assert game_sections.section_module("../etc") is None


def test_deaths_count_dead_affranchi():
    seats = pd.DataFrame({"strategy": ["a", "a", "b", "b"], "alive": [True, False, False, False],
                          "characters_lost": [0, 2, 1, 1]})
    table = nyk.deaths(seats).set_index("group")
    assert table.loc["a", "count"] == 1 and table.loc["all", "rate"] == 0.75
    assert np.isclose(table.loc["all", "characters_lost_per_seat"], 1.0)


def test_cards_by_kind_are_per_seat_means_of_the_counters():
    seats = pd.DataFrame({
        "strategy": pd.Categorical(["a", "b", "a", "b"]),
        "cards_drawn_steal_money": [2, 0, 1, 1], "cards_played_steal_money": [1, 0, 1, 0],
        "cards_drawn_recruit": [0, 0, 0, 0], "cards_played_recruit": [0, 0, 0, 0],  # not in the deck
    })
    table = nyk.cards_by_kind(seats).set_index("effect")
    assert list(table.index) == ["steal_money"]
    row = table.loc["steal_money"]
    assert row["drawn_per_seat"] == 1.0 and row["played_per_seat"] == 0.5
    assert row["played:a"] == 1.0 and row["played:b"] == 0.0
    assert nyk.cards_by_kind(pd.DataFrame({"strategy": ["a"], "cards_drawn": [1]})) is None
