"""Strategies: presets as data, specs with restrictions, legal play, and what restrictions take away."""

import numpy as np
import pytest

import strategies
from sim.nyk import batch
from sim.nyk.env import make_env
from sim.nyk.game import Lineup, play_many
from sim.rules import Ruleset
from sim.rules.nyk.content import EFFECTS
from sim.nyk.compiled import compile_ruleset
from strategies.nyk import params as knobs
from strategies.nyk.policy import win_chance

PRESETS = ("random", "simple", "runner", "enforcer", "networker", "cautious", "corrupter", "balanced")
RULES = Ruleset.load()
COL = {name: i for i, name in enumerate(batch.SEAT_COLUMNS)}


def test_the_required_presets_ship_and_load_within_bounds():
    assert set(PRESETS) <= set(strategies.available())
    for name in strategies.available():
        s = strategies.load(name)
        assert s.doc and s.family in knobs.FAMILIES
        for p, value in zip(knobs.PARAMS, s.params, strict=True):
            assert p.lo <= value <= p.hi, (name, p.name)


def test_knobs_are_named_documented_and_their_defaults_in_range():
    assert len(set(knobs.NAMES)) == len(knobs.PARAMS)
    for p in knobs.PARAMS:
        assert p.doc and p.lo < p.hi and p.lo <= p.default <= p.hi


def test_a_spec_names_a_preset_a_file_and_restrictions(tmp_path):
    s = strategies.load("enforcer+no-provoke+min-bid")
    assert s.restrictions == ("no-provoke", "min-bid")
    assert s.restrict_bits() == knobs.R_NO_PROVOKE | knobs.R_MIN_BID
    path = tmp_path / "bold.toml"
    path.write_text('doc = "bold"\n[params]\nprovoke_edge = -0.2\n')
    bold = strategies.load(str(path))
    assert bold.knobs()["provoke_edge"] == -0.2 and bold.knobs()["bid"] == knobs.DEFAULTS[knobs.K_BID]


@pytest.mark.parametrize("spec, words", [
    ("runer", "did you mean 'runner'"),
    ("runner+no-provok", "did you mean 'no-provoke'"),
    ("nowhere/x.toml", "not found"),
])
def test_bad_specs_are_one_line_errors(spec, words):
    with pytest.raises(strategies.StrategyError, match=words) as err:
        strategies.load(spec)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("text, words", [
    ("[params]\nprovok_edge = 0.1\n", "unknown parameter 'provok_edge'.*did you mean 'provoke_edge'"),
    ("[params]\nbid = 3.0\n", r"bid = 3.0 is outside \[0, 1\]"),
    ('family = "genius"\n', "family 'genius'"),
    ("[params\n", "not a readable TOML"),
])
def test_bad_preset_files_are_one_line_errors(tmp_path, text, words):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(strategies.StrategyError, match=words):
        strategies.load(str(path))


def play(specs, n, seed=5, players=4):
    games, seats, _ = play_many(seed, n, players, Lineup.of(specs, players), RULES, check=True)
    return games, seats


def assert_legal(games):
    assert (games[:, batch.G_INVARIANT] == 0).all()
    assert (games[:, batch.G_ILLEGAL] == 0).all()
    assert (games[:, batch.G_CAP_HIT] == 0).all()


@pytest.mark.parametrize("lineup", [PRESETS[:4], PRESETS[4:], ("balanced",) * 5, ("enforcer", "cautious")])
def test_every_preset_plays_legal_games(lineup):
    games, _ = play(list(lineup), 1000, players=len(lineup))
    assert_legal(games)


def test_cards_drawn_and_played_by_kind_add_up_to_the_totals():
    """The per-kind card counters (one column per effect of sim/rules/nyk/content.py) split the
    totals exactly, and every kind of the deck is drawn and played in 1,000 games."""
    games, seats = play(["random", "balanced", "random", "balanced"], 1000)
    assert_legal(games)
    for what in ("drawn", "played"):
        by_kind = {e: seats[:, :, COL[f"cards_{what}_{e}"]] for e in EFFECTS}
        assert (sum(by_kind.values()) == seats[:, :, COL[f"cards_{what}"]]).all()
        in_deck = {list(EFFECTS)[k] for k in compile_ruleset(RULES).resource_kind}
        assert {e for e, n in by_kind.items() if n.sum() > 0} == in_deck, what
    heuristic = seats[:, :, COL["strategy"]] % 2 == 1  # the balanced seats
    for kind in ("extra_move", "police_move", "police_place", "recruit", "steal_money"):
        assert seats[:, :, COL[f"cards_played_{kind}"]][heuristic].sum() > 0, kind


# restriction -> counters that must stay at zero for the restricted seat
TAKEN_AWAY = {
    "no-provoke": ("provocations_made",),
    "no-recruit": ("recruits_tried",),
    "no-risky-missions": ("missions_accepted_risky",),
    "no-cards-as-moves": ("cards_as_moves",),
    "min-bid": ("bids_paid",),
    "no-police-control": ("police_moves",),
    "no-subway-heli": ("subway_rides", "heli_rides"),
}


@pytest.mark.parametrize("restriction", sorted(TAKEN_AWAY))
@pytest.mark.parametrize("base", ["random", "balanced"])
def test_a_restriction_takes_its_mechanic_away_and_only_from_its_seat(restriction, base):
    games, seats = play([f"{base}+{restriction}", base, base, base], 500)
    assert_legal(games)
    restricted = seats[:, :, COL["strategy"]] == 0
    for counter in TAKEN_AWAY[restriction]:
        used = seats[:, :, COL[counter]]
        assert used[restricted].sum() == 0, counter
    free_use = sum(seats[:, :, COL[c]][~restricted].sum() for c in TAKEN_AWAY[restriction])
    assert free_use > 0  # the unrestricted seats do use the mechanic: the test can fail


def test_random_seats_win_about_one_in_n_with_seats_rotated():
    games, seats = play(["random"] * 4, 4000, seed=9)
    won = seats[:, :, COL["won"]]
    slot = seats[:, :, COL["strategy"]]
    shared = games[:, batch.G_DECIDED_BY] == 4  # a shared win gives two winners
    expected = (1 + shared.mean()) / 4
    for j in range(4):
        rate = won[slot == j].mean()
        se = np.sqrt(expected * (1 - expected) / len(games))
        assert abs(rate - expected) < 4 * se, (j, rate)


@pytest.mark.parametrize("dice, mine, theirs", [(0, [5, 2, 2], [4, 4, 1]), (1, [3, 3], [3, 3]),
                                                 (2, [5, 2, 2], [4, 4, 1]), (3, [5], [1, 1])])
def test_win_chance_matches_brute_force_over_ordered_dice(dice, mine, theirs):
    """Exact, ties not counted as wins (equal hands: the even case), for each number of dice."""
    from itertools import product

    from sim.nyk import hands

    env = make_env(RULES, [0] * 5, np.zeros((5, 4)))
    mine, theirs = hands.pack(np.array(mine)), hands.pack(np.array(theirs))
    table = hands.table()
    wins = total = 0
    for a in product(range(6), repeat=dice):
        sa = table[hands.table_key(mine + hands.pack(np.array(a, dtype=np.int64)))]
        for b in product(range(6), repeat=dice):
            total += 1
            wins += sa > table[hands.table_key(theirs + hands.pack(np.array(b, dtype=np.int64)))]
    assert win_chance(env, mine, theirs, dice) == pytest.approx(wins / total, abs=1e-12)


@pytest.mark.parametrize("pay", [True, False])
def test_the_players_recruit_odds_are_the_kernels_exact_ones(pay):
    from sim.nyk.odds import RecruitTerms, recruit_odds as exact
    from strategies.nyk.policy import recruit_odds

    terms = RecruitTerms(1000, 8000, 1000, 1000)
    for value in range(5):
        for dice in range(1, 9):
            expected = float(exact(value, 1000 * dice, terms, pay)["success"])
            assert recruit_odds(value, dice, pay) == pytest.approx(expected, abs=1e-12)
