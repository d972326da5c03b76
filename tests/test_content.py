"""New York Kings content against the rulebook facts (NYK-C1..C6, S3) and the issue's shape."""

from collections import Counter
from pathlib import Path

import pytest

from sim.rules import Ruleset, RulesetError
from sim.rules.nyk.content import EFFECT_WINDOWS, EFFECTS, SUITS, TIMINGS, WINDOW_ICONS, parse_resources

PERIPHERAL = ["BROOKLYN", "UNION CITY", "BRONX", "QUEENS"]


@pytest.fixture(scope="module")
def rs():
    return Ruleset.load()


# --- NYK-C1 board -------------------------------------------------------------------------------

def test_nyk_c1_manhattan_and_tiles(rs):
    board = rs.board
    manhattan = [d for d in board.districts if not d.peripheral]
    assert len(manhattan) == 20 and len(board) == 24
    tiled = [d for d in manhattan if d.has_tile]
    assert len(tiled) == 19 == board.tiles
    (untiled,) = [d for d in manhattan if not d.has_tile]
    assert untiled.name == "BROADWAY" and untiled.special == "police" and untiled.band is None
    bands = Counter(d.band for d in tiled)
    assert set(bands) == {"white", "grey", "black"} and min(bands.values()) >= 5


def test_nyk_c1_bands_run_south_to_north(rs):
    # white (Lower) below grey (Midtown) below black (Upper Manhattan)
    def mean_y(band):
        ys = [d.y for d in rs.board.districts if d.band == band]
        return sum(ys) / len(ys)

    assert mean_y("white") < mean_y("grey") < mean_y("black")


def test_nyk_c1_specials(rs):
    board = rs.board
    assert board.districts[board.special("subway")].name == "GRAND CENTRAL"
    assert board.districts[board.special("heliport")].name == "FINANCIAL"
    assert board.districts[board.special("police")].name == "BROADWAY"
    for kind in ("subway", "heliport"):
        assert board.districts[board.special(kind)].has_tile


def test_nyk_c1_peripheral_districts(rs):
    board = rs.board
    assert list(board.peripheral_order) == PERIPHERAL      # NYK-S3 order
    for name in PERIPHERAL:
        d = board.districts[board.index(name)]
        assert d.peripheral and not d.has_tile and d.band is None and d.special is None
        near = board.neighbours(board.index(name))
        assert near and all(not board.districts[j].peripheral for j in near)


def test_nyk_c1_connected_and_drawable(rs):
    board = rs.board
    distances = board.distances()
    assert all(d >= 0 for row in distances for d in row)
    assert len({(d.x, d.y) for d in board.districts}) == len(board)
    assert all(len(board.neighbours(i)) >= 2 for i in range(len(board)))
    assert {name for name, _ in board.rivers} >= {"Hudson River", "East River"}
    assert [name for name, _ in board.parks] == ["Central Park"]
    assert board.assumed


# --- NYK-C2 characters --------------------------------------------------------------------------

def test_nyk_c2_affranchi(rs):
    names = [a.name for a in rs.characters.affranchi]
    assert names == ["Johnny", "Francky", "Tony", "Lino", "Julia"]
    assert all(a.value == 5 and a.suit is None and not a.assumed for a in rs.characters.affranchi)


def test_nyk_c2_henchmen_suits_and_values(rs):
    henchmen = rs.characters.henchmen
    assert len(henchmen) == 20
    assert {(h.suit, h.value) for h in henchmen} == {(s, v) for s in SUITS for v in range(5)}


def test_nyk_c2_known_names(rs):
    known = {"Looxy": ("spades", "Q"), "The Lord": ("spades", "K"), "Furyo": ("spades", "J"),
             "Charlie": ("hearts", "9"), "Eddy": ("hearts", "10"), "Angelo": ("hearts", "J"),
             "Hard Jack": ("diamonds", "K"), "Diamond": ("diamonds", "Q"),
             "Fat Max": ("clubs", "K"), "El Niño": ("clubs", "9")}
    for name, (suit, label) in known.items():
        h = rs.characters.henchman(name)
        assert (h.suit, h.label, h.assumed) == (suit, label, False), name
    assumed = [h for h in rs.characters.henchmen if h.assumed]
    assert len(assumed) == 10 and not {h.name for h in assumed} & set(known)


# --- NYK-C4 missions ----------------------------------------------------------------------------

def test_nyk_c4_deck(rs):
    missions = list(rs.missions)
    assert len(missions) == 24
    assert rs.missions.end_card.name == "The Five Families meet"
    assert all(m.crew in (1, 2) for m in missions)
    assert all(4000 <= m.reward <= 12000 and m.reward % 1000 == 0 for m in missions)
    assert all(m.assumed for m in missions)
    assert len({m.name for m in missions}) == 24


def test_nyk_c4_riskier_and_bigger_jobs_pay_more(rs):
    def mean(cards):
        cards = list(cards)
        return sum(m.reward for m in cards) / len(cards)

    missions = list(rs.missions)
    assert mean(m for m in missions if m.at_risk) > mean(m for m in missions if not m.at_risk)
    assert mean(m for m in missions if m.crew == 2) > mean(m for m in missions if m.crew == 1)
    for crew in (1, 2):
        same = [m for m in missions if m.crew == crew]
        assert mean(m for m in same if m.at_risk) > mean(m for m in same if not m.at_risk)
    assert {m.crew for m in missions} == {1, 2} and any(m.at_risk for m in missions)


def test_nyk_c4_about_a_fifth_secret(rs):
    secret = sum(m.secret for m in rs.missions)
    assert 4 <= secret <= 6


# --- NYK-C5 resources ---------------------------------------------------------------------------

def test_nyk_c5_deck_of_32(rs):
    deck = rs.resources
    assert deck.size == 32 == len(deck.expanded())
    assert all(c.timing in TIMINGS and c.effect in EFFECTS for c in deck)
    assert {c.timing for c in deck} == set(TIMINGS)
    for card in deck:
        assert [name for name, _ in card.params] == list(EFFECTS[card.effect])


def test_nyk_c5_every_card_states_its_window_one_its_effect_and_icon_allow(rs):
    text = (Path(__file__).parents[1] / "sim/rules/nyk/resources.toml").read_text()
    assert text.count("\nwindow = ") == len(list(rs.resources))  # data, never a default
    for card in rs.resources:
        assert card.window in EFFECT_WINDOWS[card.effect]
        assert card.timing in WINDOW_ICONS[card.window]
    windows = {c.name: c.window for c in rs.resources}
    assert windows["Juicy Job"] == "accomplished" and windows["Protection Racket"] == "resources"
    assert windows["Machine Gun"] == "fusillade" and windows["Strike Face"] == "intimidation"


@pytest.mark.parametrize("change, message", [
    ({"window": "fusillade"}, "cannot resolve effect"),
    ({"window": "soon"}, "is not allowed"),
    ({"timing": "own", "window": "resources"}, "cannot be played in window"),
])
def test_nyk_c5_a_card_window_that_cannot_work_is_refused(change, message):
    card = {"name": "Racket", "count": 32, "timing": "other", "window": "resources",
            "effect": "bank_income", "params": {"amount": 2000}, "text": "Take $2,000."}
    with pytest.raises(RulesetError, match=message):
        parse_resources({"deck_size": 32, "card": [card | change]}, "resources.toml")


def test_nyk_c5_a_card_without_a_window_takes_its_effects_first():
    card = {"name": "Racket", "count": 32, "timing": "other", "effect": "bank_income",
            "params": {"amount": 2000}, "text": "Take $2,000."}
    assert parse_resources({"deck_size": 32, "card": [card]}, "x").cards[0].window == "resources"


def test_nyk_c5_juicy_job_as_printed(rs):
    (juicy,) = [c for c in rs.resources if c.name == "Juicy Job"]
    assert juicy.text == ("ACCOMPLISH MISSION: the mission you have just accomplished pays an "
                          "additional $3,000")
    assert juicy.effect == "mission_bonus" and juicy.param("amount") == 3000
    assert juicy.timing == "own" and not juicy.assumed


def test_nyk_c5_named_cards_present_and_assumed(rs):
    cards = {c.name: c for c in rs.resources}
    for name in ("Machine Gun", "Strike Face", "Bullet Proof", "Fusillade", "Family Business",
                 "Loyalty Price", "Undercover Cop"):
        assert cards[name].assumed, name
    assert cards["Undercover Cop"].effect == "discard_henchman"
    assert all(c.assumed for c in rs.resources if c.name != "Juicy Job")


def test_nyk_a8_a_card_recruits(rs):
    assert any(c.effect == "recruit" for c in rs.resources)


def test_nyk_c5_cards_touch_every_part_of_the_game(rs):
    effects = {c.effect for c in rs.resources}
    assert effects & {"police_move", "police_place", "police_remove"}          # police
    assert effects & {"release_custody", "block_interrogation"}               # custody
    assert "extra_move" in effects                                            # movement
    assert effects & {"fight_bonus_die", "fight_reroll", "cancel_elimination"}  # fights
    assert effects & {"steal_money", "bank_income", "mission_bonus"}          # money


# --- rule constants from the rulebook -----------------------------------------------------------

def test_nyk_s2_starting_money(rs):
    assert sum(rs["start.bills"]) == 16000 and len(rs["start.bills"]) == 8


def test_nyk_c3_bank_bundles(rs):
    counts = [rs[f"bank.bundles_{v}"] for v in (0, 1000, 2000, 5000)]
    assert counts == [10, 25, 25, 30] and sum(counts) == 90
