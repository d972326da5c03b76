"""The American Gangsters ruleset: options, content files (AG-C7, AG-K2, AG-V), checks, the
generated docs page, and designer files replacing content."""

import pickle

import pytest

from sim.rules import Ruleset, RulesetError, options
from sim.rules.ag.content import DISTRICTS, TRAFFICS
from sim.shared.frozen import freeze_ruleset, thaw_ruleset


@pytest.fixture(scope="module")
def rs():
    return Ruleset.load(game="ag")


def test_every_option_names_an_ag_rule_and_a_source():
    for key, option in options("ag").items():
        assert option.rule.startswith("AG-"), key
        assert option.source in ("rulebook", "ruling", "assumed", "designer")
        # a designer's knob says so and lives in the section `seats`, off the list of assumptions
        assert (option.source == "designer") == key.startswith("seats.") == \
            option.doc.startswith("Designer's knob"), key


def test_ag_c7_forty_location_cards_ten_kinds_in_each_district(rs):
    cards = rs.content["locations"]
    assert len(cards) == 40 and cards.assumed
    assert cards.districts == DISTRICTS
    for d in DISTRICTS:
        assert sorted(c.kind for c in cards if c.district == d) == sorted(cards.kinds)
    # the targets printed on the scanned sheet
    targets = {c.kind: c.target for c in cards if c.district == "Brooklyn"}
    assert targets == {"post_office": 2, "pickpocket": 4, "bakery": 3, "grocery": 1, "gun_shop": 3,
                       "armoured_van": 6, "bank": 6, "casino": 2, "racket": 8, "police_station": 3}
    assert {c.fbi for c in cards if c.kind == "police_station"} == {-1}   # FBI -1 (AG-C7)


def test_ag_c3_every_traffic_is_on_the_cards_within_its_token_supply(rs):
    cards = rs.content["locations"]
    for t in TRAFFICS:
        assert 0 < sum(c.traffic == t for c in cards) <= rs["traffic.tokens"]


def test_ag_k2_cost_tracks_start_at_one_bag(rs):
    tracks = rs.content["tracks"]
    assert tracks.henchman.prices[0] == 1 and tracks.killer.prices[0] == 1
    assert tracks.assumed


def test_ag_c9_ten_event_cards_two_optional(rs):
    events = rs.content["events"]
    assert len(events) == 10
    assert [e.effect for e in events if e.optional] == ["roulette", "duels"]
    assert len(events.deck(optional=False)) == 8 and len(events.deck(optional=True)) == 10
    assert not events.cards[1].assumed and events.cards[0].assumed   # Roulette text is the rules'


def test_assumed_lists_options_and_content(rs):
    assumed = rs.assumed
    assert "negotiation.share" in assumed["values"] and "renown.parrain" not in assumed["values"]
    assert "bank" in assumed["locations"] and "auction" in assumed["events"]
    assert "roulette" not in assumed["events"]


def test_overrides_and_fingerprints(rs):
    other = Ruleset.load(game="ag", overrides={"negotiation.share": "equal"})
    assert other.fingerprint != rs.fingerprint and other.defaults_changed() == ("negotiation.share",)
    assert Ruleset.load(game="ag") == rs
    assert Ruleset.load().fingerprint != rs.fingerprint     # New York Kings untouched


def test_ruleset_travels_to_workers(rs):
    again = thaw_ruleset(Ruleset, pickle.loads(pickle.dumps(freeze_ruleset(rs))))
    assert again.fingerprint == rs.fingerprint and again.content["events"] == rs.content["events"]


@pytest.mark.parametrize("overrides,words", [
    ({"negotiation.share": "fair"}, '"threat", "equal"'),
    ({"players.max": 5, "profiles.cards": 4}, "more than the profile cards"),
    ({"dice.occasional_clics": 4, "dice.occasional_fbi": 3}, "more than 6 faces"),
    ({"bags.start": 8}, "more than the 35 bags"),
    ({"fbi.informer": 12}, "beyond the last square of the renown ladder"),
    ({"renown.start": 10}, "not below the Parrain's renown"),              # AG-G1: found by the contract
    ({"renown.parrian": 9}, 'did you mean "renown.parrain"'),
])
def test_bad_values_are_refused_in_one_line(overrides, words):
    with pytest.raises(RulesetError, match=words.replace("(", r"\(")) as err:
        Ruleset.load(game="ag", overrides=overrides)
    assert "\n" not in str(err.value)


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_designer_file_replaces_location_content_and_overrides_one_card(tmp_path):
    write(tmp_path, "my_locations.toml", """
assumed = false
source = "a designer's deck"
districts = ["Brooklyn", "Queens"]
[[kind]]
name = "bank"
target = 5
renown = 2
bags = 3
traffic = ""
occasional = 0
fbi = 1
[[override]]
kind = "bank"
district = "Queens"
target = 7
traffic = "arms"
""")
    path = write(tmp_path, "mine.toml", '[content]\nlocations = "my_locations.toml"\n[renown]\nparrain = 7\n')
    rs = Ruleset.load(path, game="ag")
    cards = rs.content["locations"].cards
    assert [(c.district, c.target, c.traffic) for c in cards] == [("Brooklyn", 5, None), ("Queens", 7, "arms")]
    assert rs["renown.parrain"] == 7 and rs.assumed["locations"] == ()


@pytest.mark.parametrize("body,words", [
    ('districts = ["Brooklyn"]\n[[kind]]\nname = "x"\ntarget = 0\nrenown = 0\nbags = 0\ntraffic = ""\n'
     'occasional = 0\nfbi = 0\n', "target = 0 is not allowed"),
    ('districts = ["Brooklyn"]\n[[kind]]\nname = "x"\ntarget = 1\nrenown = 0\nbags = 0\ntraffic = "guns"\n'
     'occasional = 0\nfbi = 0\n', "unknown traffic 'guns'"),
    ('districts = ["Brooklyn"]\n[[kind]]\nname = "x"\ntarget = 1\nrenown = 0\nbags = 0\ntraffic = ""\n'
     'occasional = 0\n', "missing key 'fbi'"),
    ('districts = ["Brooklyn"]\n[[kind]]\nname = "x"\ntarget = 1\nrenown = 0\nbags = 0\ntraffic = ""\n'
     'occasional = 0\nfbi = 0\n[[override]]\nkind = "x"\ndistrict = "Harlem"\n', "unknown district 'Harlem'"),
])
def test_bad_location_files_are_refused_in_one_line(tmp_path, body, words):
    path = write(tmp_path, "mine.toml", "[content.locations]\n" + body.replace("[[kind]]", "[[content.locations.kind]]")
                 .replace("[[override]]", "[[content.locations.override]]"))
    with pytest.raises(RulesetError, match=words) as err:
        Ruleset.load(path, game="ag")
    assert "\n" not in str(err.value)


def test_bad_event_and_track_files(tmp_path):
    path = write(tmp_path, "ev.toml", '[content.events]\n[[content.events.event]]\nname = "x"\n'
                 'effect = "fbi"\nparams = { step = 1 }\n')
    with pytest.raises(RulesetError, match="unknown key 'step'"):
        Ruleset.load(path, game="ag")
    path = write(tmp_path, "tr.toml", '[content.tracks]\nhenchman = { prices = [1, 2], fbi_steps = [5] }\n'
                 'killer = { prices = [1] }\n')
    with pytest.raises(RulesetError, match="fbi step = 5 is not allowed"):
        Ruleset.load(path, game="ag")
    path = write(tmp_path, "k.toml", '[content]\nboard = "x.toml"\n')
    with pytest.raises(RulesetError, match="unknown content kind 'board'"):
        Ruleset.load(path, game="ag")


def test_docs_page_is_generated_text():
    from sim.rules import docs

    text = docs.generate("ag")
    assert docs.doc_path("ag").read_text(encoding="utf-8") == text, \
        "docs/ruleset-ag.md is out of date: run python -m sim.rules.docs"
    for key, option in options("ag").items():
        assert f"| `{key}` |" in text and option.rule in text
    assert "| racket | Racket | Bronx | 8 |" in text
