"""Ruleset loading, overrides, fingerprints, compile layout, and every validation error."""

import json
import re
import subprocess
import sys
from dataclasses import FrozenInstanceError
from pathlib import Path

import numpy as np
import pytest

from sim.nyk import hands
from sim.nyk import compiled
from sim.rules import Ruleset, RulesetError, options
from sim.rules.nyk.content import EFFECTS
from sim.rules.nyk.content import mission_rewards, start_district

DATA = Path(__file__).resolve().parent.parent / "sim" / "rules" / "nyk"

# The keys other rooms read, with their defaults (issue 3 API contract).
REQUIRED = {
    "players.min": 2, "players.max": 5,
    "start.bills": (5000, 5000, 2000, 2000, 1000, 1000, 0, 0),
    "bank.finite": False, "corruption.bills": 2, "hand.limit": 5, "move.steps": 2,
    "subway.steps": 3, "heliport.cost": 1000, "provocation.stake": 2000,
    "provocation.fold_penalty": 2000, "provocation.raise": 1000, "provocation.tie_pot": "bank",
    "recruit.min_offer": 1000, "recruit.max_offer": 10000, "recruit.offer_step": 1000,
    "recruit.hesitation_extra": 1000, "henchmen.max": 4, "police.start_cars": 2,
    "police.max_cars": 4, "police.car_value": "J", "custody.cells": 3, "missions.row": 3,
    "missions.end_card_among_last": 6, "hands.max_values": 5, "hands.five_of_a_kind": "four",
    "start.district": "BROADWAY", "tiebreak.last": "random", "deals.enabled": False,
    "missions.reward_scale": 1.0, "provocation.stake_scale": 1.0, "recruit.cost_scale": 1.0,
}


@pytest.fixture(scope="module")
def rs():
    return Ruleset.load()


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def content_copy(tmp_path, kind, *replacements):
    """A copy of a default content file with text replacements, used by a ruleset file."""
    text = (DATA / f"{kind}.toml").read_text(encoding="utf-8")
    for old, new in replacements:
        assert old in text, old
        text = text.replace(old, new, 1)
    write(tmp_path, f"{kind}.toml", text)
    return write(tmp_path, "mine.toml", f'[content]\n{kind} = "{kind}.toml"\n')


def error_of(path=None, overrides=None) -> str:
    with pytest.raises(RulesetError) as info:
        Ruleset.load(path, overrides)
    message = str(info.value)
    assert "\n" not in message
    return message


# --- loading and reading ------------------------------------------------------------------------

def test_required_keys_and_defaults(rs):
    for key, value in REQUIRED.items():
        assert rs[key] == value, key
        assert rs.values[key] == value


def test_every_checklist_ruling_is_an_option():
    spec = options()
    rulings = {"missions.crew_actions": "NYK-A1", "provocation.tie_pot": "NYK-A4",
               "provocation.action": "NYK-A4", "start.district": "NYK-S1",
               "bank.finite": "NYK-S2", "hands.five_of_a_kind": "NYK-H4",
               "tiebreak.last": "NYK-E1", "deals.enabled": "NYK-E2"}
    for key, rule in rulings.items():
        assert spec[key].rule == rule and spec[key].source == "ruling", key
    for option in spec.values():
        assert re.fullmatch(r"NYK-[A-Z]\d", option.rule), option.key
        assert option.source in ("rulebook", "ruling", "assumed", "designer") and option.doc
        # a designer's knob says so and lives in the section `seats`, off the list of assumptions
        assert (option.source == "designer") == option.key.startswith("seats.") == \
            option.doc.startswith("Designer's knob"), option.key
        assert not (option.designer and option.assumed), option.key
        # a doc that calls itself a ruling is labelled one, so every listing of assumptions shows it
        assert not option.doc.startswith("Ruling") or option.ruling, option.key
    for key in ("recruit.from_custody", "police.return_at", "resources.reshuffle"):
        assert spec[key].ruling and spec[key].assumed, key


def test_values_are_read_only(rs):
    with pytest.raises(TypeError):
        rs.values["provocation.stake"] = 5000
    with pytest.raises(FrozenInstanceError):
        rs.board = None
    with pytest.raises(FrozenInstanceError):
        rs.missions.cards[0].reward = 1


def test_unknown_key_lookup_suggests(rs):
    with pytest.raises(RulesetError, match='did you mean "provocation.stake"'):
        rs["provocation.stak"]


def test_overrides_and_defaults_changed():
    rs = Ruleset.load(overrides={"provocation.stake": 3000, "missions.reward_scale": 1.2})
    assert rs["provocation.stake"] == 3000
    assert set(rs.defaults_changed()) == {"provocation.stake", "missions.reward_scale"}
    assert Ruleset.load().defaults_changed() == ()
    nested = Ruleset.load(overrides={"provocation": {"stake": 3000}})
    assert nested["provocation.stake"] == 3000


def test_designer_file_holds_only_changes(tmp_path):
    path = write(tmp_path, "mine.toml", "[provocation]\nstake = 3000\ntie_pot = \"return\"\n")
    rs = Ruleset.load(path)
    assert rs["provocation.stake"] == 3000 and rs["provocation.tie_pot"] == "return"
    assert rs["move.steps"] == 2
    # overrides win over the file
    assert Ruleset.load(path, {"provocation.stake": 4000})["provocation.stake"] == 4000


def test_content_replacement_by_path_and_inline(tmp_path):
    path = content_copy(tmp_path, "missions", ("reward = 4000", "reward = 5000"))
    assert Ruleset.load(path).missions[0].reward == 5000
    jobs = ", ".join(f'{{ name = "Job {i}", crew = 1, reward = 6000 }}' for i in range(24))
    inline = write(tmp_path, "inline.toml", f"""
[content.missions]
deck_size = 24
end_card = {{ name = "The End" }}
mission = [{jobs}]
""")
    rs = Ruleset.load(inline, {"missions.end_card_among_last": 2, "missions.row": 1})
    assert [m.name for m in rs.missions] == [f"Job {i}" for i in range(24)]
    assert rs.missions.end_card.name == "The End"


def test_values_normalized(rs):
    rs2 = Ruleset.load(overrides={"police.car_value": "q", "start.district": "union city",
                                  "provocation.stake": 3000.0, "missions.reward_scale": 2})
    assert rs2["police.car_value"] == "Q" and rs2["start.district"] == "UNION CITY"
    assert rs2["provocation.stake"] == 3000 and isinstance(rs2["provocation.stake"], int)
    assert rs2["missions.reward_scale"] == 2.0
    assert start_district(Ruleset.load(overrides={"start.district": "Random"})) == -1
    assert start_district(rs) == rs.board.index("BROADWAY")


# --- money and knobs ----------------------------------------------------------------------------

def test_money_knobs_round_to_thousands():
    rs = Ruleset.load(overrides={"provocation.stake_scale": 1.25, "recruit.cost_scale": 1.5,
                                 "missions.reward_scale": 1.2})
    assert rs.money("provocation.stake") == 3000      # 2,500 rounds half up
    assert rs.money("provocation.raise") == 1000      # 1,250
    assert rs.money("recruit.max_offer") == 15000
    assert rs.money("recruit.offer_step") == 2000     # 1,500 rounds half up
    assert rs.money("heliport.cost") == 1000          # no knob
    rewards = mission_rewards(rs)
    assert rewards.dtype == np.int64 and (rewards % 1000 == 0).all()
    base = mission_rewards(Ruleset.load())
    assert rewards.tolist() == [int(r * 1.2 / 1000 + 0.5) * 1000 for r in base]
    with pytest.raises(RulesetError):
        rs.money("move.steps")


def test_default_money_is_the_printed_money(rs):
    for key, option in options().items():
        if option.type == "money":
            assert rs.money(key) == rs[key]
    assert mission_rewards(rs).tolist() == [m.reward for m in rs.missions]


# --- fingerprints -------------------------------------------------------------------------------

def test_fingerprint_stable_and_sensitive(rs, tmp_path):
    assert re.fullmatch(r"[0-9a-f]{64}", rs.fingerprint)
    assert Ruleset.load().fingerprint == rs.fingerprint
    a = Ruleset.load(overrides={"provocation.stake": 3000, "move.steps": 3})
    b = Ruleset.load(overrides={"move.steps": 3, "provocation.stake": 3000})
    assert a.fingerprint == b.fingerprint != rs.fingerprint
    path = write(tmp_path, "mine.toml", "[move]\nsteps = 3\n[provocation]\nstake = 3000\n")
    assert Ruleset.load(path).fingerprint == a.fingerprint
    # setting a default explicitly changes nothing
    assert Ruleset.load(overrides={"move.steps": 2}).fingerprint == rs.fingerprint
    # content counts too
    changed = content_copy(tmp_path, "missions", ("reward = 4000", "reward = 5000"))
    assert Ruleset.load(changed).fingerprint != rs.fingerprint
    assert a == b and hash(a) == hash(b) and a != rs


def test_fingerprint_same_in_another_process(rs):
    code = "from sim.rules import Ruleset; print(Ruleset.load().fingerprint)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={"PYTHONHASHSEED": "123", "PATH": "/usr/bin:/bin"})
    assert out.stdout.strip() == rs.fingerprint


def test_to_dict_is_json(rs):
    data = json.loads(json.dumps(rs.to_dict()))
    assert data["values"]["start.bills"] == list(REQUIRED["start.bills"])
    assert set(data) == {"game", "values", "board", "characters", "missions", "resources"}


def test_assumed(rs):
    assumed = rs.assumed
    assert "provocation.tie_pot" in assumed["values"] and "move.steps" not in assumed["values"]
    assert assumed["board"] is True
    assert len(assumed["henchmen"]) == 10 and "Looxy" not in assumed["henchmen"]
    assert len(assumed["missions"]) == 24
    assert "Juicy Job" not in assumed["resources"] and "Machine Gun" in assumed["resources"]


# --- compile ------------------------------------------------------------------------------------

def test_compile_layout(rs):
    c = compiled.compile_ruleset(rs)
    n = len(rs.board)
    assert c.n_districts == n == 24
    assert c.adjacency.dtype == np.int8 and (c.adjacency == c.adjacency.T).all()
    assert c.adjacency.sum() == 2 * len(rs.board.edges) and not c.adjacency.diagonal().any()
    for i in range(n):
        row = c.neighbours[i]
        assert row[: c.degree[i]].tolist() == list(rs.board.neighbours(i))
        assert (row[c.degree[i]:] == -1).all()
        assert c.distance[i, i] == 0
    assert (c.distance[c.adjacency == 1] == 1).all() and (c.distance >= 0).all()
    assert c.tile.sum() == 19 and c.peripheral.sum() == 4
    assert c.tile_districts.tolist() == [i for i in range(n) if c.tile[i]]
    assert c.band[c.police_station] == compiled.BAND_NONE
    names = rs.board.names
    assert names[c.police_station] == "BROADWAY" and names[c.subway] == "GRAND CENTRAL"
    assert names[c.heliport] == "FINANCIAL"
    assert [names[i] for i in c.peripheral_districts] == ["BROOKLYN", "UNION CITY", "BRONX",
                                                          "QUEENS"]   # NYK-S3 order
    assert c.henchman_value.tolist().count(4) == 4 and c.henchman_suit.max() == 3
    assert c.n_affranchi == 5
    assert c.mission_reward.tolist() == mission_rewards(rs).tolist()
    assert len(c.resource_kind) == len(c.resource_timing) == len(c.resource_params) == 32
    assert c.resource_params.shape[1] == compiled.MAX_PARAMS
    assert c.start_bills.tolist() == list(REQUIRED["start.bills"])
    assert c.params.dtype == np.int64 and len(c.params) == compiled.N_PARAMS


def test_params_cover_every_scalar_option(rs):
    scalar = {k for k, o in options().items() if o.type != "money_list"}
    assert set(compiled.PARAM_KEYS.values()) == scalar
    assert sorted(compiled.PARAM_KEYS) == list(range(compiled.N_PARAMS))
    p = compiled.compile_ruleset(rs).params
    assert p[compiled.P_STAKE] == 2000 and p[compiled.P_FOLD_PENALTY] == 2000
    assert p[compiled.P_RAISE] == 1000 and p[compiled.P_FUSILLADE_RAISE] == 1000
    assert p[compiled.P_POLICE_CAR_VALUE] == 2            # J
    assert p[compiled.P_START_DISTRICT] == rs.board.index("BROADWAY")
    assert p[compiled.P_REWARD_SCALE_MILLI] == 1000
    assert p[compiled.P_TIE_POT] == compiled.TIE_POT_BANK
    assert p[compiled.P_FIVE_OF_A_KIND] == hands.ruling_index("four") == compiled.FIVE_AS_FOUR


def test_encoded_rulings_follow_the_choices():
    spec = options()
    assert spec["provocation.tie_pot"].choices.index("return") == compiled.TIE_POT_RETURN
    assert spec["provocation.action"].choices.index("all") == compiled.PROVOKE_ACTION_ALL
    assert spec["missions.crew_actions"].choices.index("one") == compiled.CREW_ACTIONS_ONE
    assert spec["tiebreak.last"].choices.index("shared") == compiled.TIEBREAK_SHARED
    assert spec["hands.five_of_a_kind"].choices == hands.RULINGS
    for i, kind in enumerate(EFFECTS):
        assert getattr(compiled, "E_" + kind.upper()) == i


def test_compile_follows_overrides():
    rs = Ruleset.load(overrides={"provocation.stake_scale": 1.5, "start.district": "random",
                                 "provocation.tie_pot": "return", "hands.five_of_a_kind": "top",
                                 "missions.reward_scale": 2.0})
    c = compiled.compile_ruleset(rs)
    assert c.params[compiled.P_STAKE] == 3000 and c.params[compiled.P_RAISE] == 2000
    assert c.params[compiled.P_START_DISTRICT] == compiled.START_RANDOM
    assert c.params[compiled.P_TIE_POT] == compiled.TIE_POT_RETURN
    assert c.params[compiled.P_FIVE_OF_A_KIND] == compiled.FIVE_TOP
    assert c.params[compiled.P_STAKE_SCALE_MILLI] == 1500
    assert c.mission_reward.tolist() == [2 * m.reward for m in rs.missions]


# --- validation: one line naming file, key, bad value and what is allowed ---------------------

def test_unknown_key_did_you_mean(tmp_path):
    path = write(tmp_path, "mine.toml", "[provocation]\nstkae = 3000\n")
    message = error_of(path)
    assert str(path) in message and "provocation.stkae" in message
    assert 'did you mean "provocation.stake"' in message


def test_unknown_override_key():
    assert 'did you mean "move.steps"' in error_of(overrides={"move.step": 3})


def test_wrong_type(tmp_path):
    path = write(tmp_path, "mine.toml", '[provocation]\nstake = "lots"\n')
    message = error_of(path)
    assert str(path) in message and "provocation.stake" in message and '"lots"' in message
    assert "allowed: whole thousands" in message
    assert "true or false" in error_of(overrides={"deals.enabled": 1})
    assert "is not a number" in error_of(overrides={"missions.reward_scale": "big"})


def test_out_of_range(tmp_path):
    path = write(tmp_path, "mine.toml", "[move]\nsteps = 99\n")
    message = error_of(path)
    assert "move.steps = 99 is out of range" in message and "from 0 to 6" in message
    assert "out of range" in error_of(overrides={"recruit.cost_scale": 0.1})


def test_bad_choice_names_the_choices():
    message = error_of(overrides={"provocation.tie_pot": "split"})
    assert '"split"' in message and '"bank", "return"' in message


def test_money_not_whole_thousands():
    message = error_of(overrides={"provocation.stake": 2500})
    assert "2500 is not a whole number of thousands" in message


def test_cross_checks():
    assert "players.min" in error_of(overrides={"players.min": 4, "players.max": 3})
    assert "police.start_cars" in error_of(overrides={"police.start_cars": 5})
    assert 'did you mean "CHELSEA"' in error_of(overrides={"start.district": "CHELSAE"})
    assert "multiple" in error_of(overrides={"recruit.offer_step": 3000})


def test_malformed_toml_names_file_and_line(tmp_path):
    path = write(tmp_path, "mine.toml", "[provocation]\nstake = 3000\nraise = = 1\n")
    message = error_of(path)
    assert str(path) in message and "malformed TOML" in message and "line 3" in message


def test_missing_file(tmp_path):
    assert "no such ruleset file" in error_of(tmp_path / "nope.toml")


def test_unknown_content_kind(tmp_path):
    path = write(tmp_path, "mine.toml", '[content]\nmisions = "x.toml"\n')
    assert 'did you mean "missions"' in error_of(path)


def test_board_disconnected(tmp_path):  # NYK-C1: a connected board
    path = content_copy(tmp_path, "board",
                        ('"WASHINGTON HEIGHTS" = ["BRONX"]', '"WASHINGTON HEIGHTS" = []'),
                        ('"HARLEM" = ["WASHINGTON HEIGHTS", "BRONX"]', '"HARLEM" = ["BRONX"]'),
                        ('"MORNINGSIDE HEIGHTS" = ["HARLEM", "WASHINGTON HEIGHTS"]',
                         '"MORNINGSIDE HEIGHTS" = ["HARLEM"]'))
    message = error_of(path)
    assert "board.toml" in message and "disconnected" in message
    assert "WASHINGTON HEIGHTS" in message


def test_board_tile_count(tmp_path):  # NYK-C1, NYK-S6
    path = content_copy(tmp_path, "board", ("tiles = 19", "tiles = 18"))
    message = error_of(path)
    assert "tiles = 18" in message and "19 districts have a tile" in message


def test_board_missing_special(tmp_path):  # NYK-M6
    path = content_copy(tmp_path, "board", ('special = "subway"', ""))
    message = error_of(path)
    assert "board.toml" in message and "'subway' is missing" in message


def test_board_duplicate_district(tmp_path):
    path = content_copy(tmp_path, "board", ('name = "TRIBECA"', 'name = "SOHO"'))
    assert "duplicate district 'SOHO'" in error_of(path)


def test_board_unknown_connection(tmp_path):
    path = content_copy(tmp_path, "board", ('"TRIBECA" = ["CHINATOWN", "SOHO"]',
                                            '"TRIBECA" = ["CHINATWN", "SOHO"]'))
    assert 'did you mean "CHINATOWN"' in error_of(path)


def test_board_bad_band(tmp_path):
    path = content_copy(tmp_path, "board", ('band = "grey"', 'band = "gray"'))
    message = error_of(path)
    assert "'gray'" in message and "white, grey, black" in message


def test_henchmen_count(tmp_path):  # NYK-C2: 20 henchmen
    path = content_copy(tmp_path, "characters", ("henchmen_count = 20", "henchmen_count = 21"))
    assert "henchmen_count = 21 but the deck has 20" in error_of(path)


def test_duplicate_henchman_name(tmp_path):
    path = content_copy(tmp_path, "characters", ('name = "Eddy"', 'name = "Charlie"'))
    assert "duplicate character name 'Charlie'" in error_of(path)


def test_duplicate_henchman_card(tmp_path):
    path = content_copy(tmp_path, "characters", ('suit = "hearts"\nvalue = "10"',
                                                 'suit = "hearts"\nvalue = "9"'))
    assert "duplicate henchman card '9 of hearts'" in error_of(path)


def test_mission_deck_count(tmp_path):  # NYK-C4: 24 missions
    path = content_copy(tmp_path, "missions", ("deck_size = 24", "deck_size = 25"))
    message = error_of(path)
    assert "missions.toml" in message and "deck_size = 25 but the deck has 24" in message


def test_mission_reward_not_thousands(tmp_path):  # NYK-C4
    path = content_copy(tmp_path, "missions", ("reward = 4000", "reward = 4500"))
    message = error_of(path)
    assert "Fell Off a Truck" in message and "reward = 4500 is not a whole number of thousands" \
        in message


def test_mission_bad_crew_and_key(tmp_path):
    path = content_copy(tmp_path, "missions", ("crew = 1", "crew = 3"))
    assert "crew = 3" in error_of(path) and "1 or 2" in error_of(path)
    path = content_copy(tmp_path, "missions", ("at_risk = false", "at_rsk = false"))
    assert 'did you mean "at_risk"' in error_of(path)


def test_duplicate_mission_name(tmp_path):
    path = content_copy(tmp_path, "missions", ('name = "Collect the Rent"',
                                               'name = "Fell Off a Truck"'))
    assert "duplicate mission name" in error_of(path)


def test_resource_deck_count(tmp_path):  # NYK-C5: 32 resources
    path = content_copy(tmp_path, "resources", ("count = 3", "count = 4"))
    message = error_of(path)
    assert "resources.toml" in message and "add up to 33" in message


def test_resource_unknown_effect_and_param(tmp_path):  # NYK-C5 fixed vocabulary
    path = content_copy(tmp_path, "resources", ('effect = "mission_bonus"',
                                                'effect = "mission_bonu"'))
    assert 'did you mean "mission_bonus"' in error_of(path)
    path = content_copy(tmp_path, "resources", ("params = { amount = 3000 }",
                                                "params = { amont = 3000 }"))
    assert 'did you mean "amount"' in error_of(path)
    path = content_copy(tmp_path, "resources", ("params = { amount = 3000 }",
                                                "params = { amount = 3500 }"))
    assert "not a whole number of thousands" in error_of(path)


def test_resource_duplicate_name_and_timing(tmp_path):
    path = content_copy(tmp_path, "resources", ('name = "Shakedown"', 'name = "Juicy Job"'))
    assert "duplicate card name 'Juicy Job'" in error_of(path)
    path = content_copy(tmp_path, "resources", ('timing = "own"', 'timing = "mine"'))
    assert "own, opponent, other" in error_of(path)


def test_unknown_game():
    with pytest.raises(RulesetError, match="unknown game"):
        Ruleset.load(game="monopoly")


# --- documentation ------------------------------------------------------------------------------

def test_docs_page_is_generated_text():
    from sim.rules import docs

    assert docs.DOC_PATH.read_text(encoding="utf-8") == docs.generate(), \
        "docs/ruleset.md is out of date: run python -m sim.rules.docs"
    text = docs.generate()
    for key, option in options().items():
        assert f"| `{key}` |" in text and option.rule in text
