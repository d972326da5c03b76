"""Ruleset validation knows the engines' capacities: `rules check` and `run` agree on every
ruleset (hand-picked bad ones, and rulesets hypothesis generates), and a file too big or not a
file at all is refused before it is read."""

import json
import os
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.cli import main
from sim.rules import Ruleset, RulesetError
from sim.rules.nyk import content as nyk_content
from sim.rules.ag import content as ag_content
from sim.rules.ruleset import GAMES_DIR, options
from sim.rules.spec import MAX_TOML_BYTES
from sim.runner import RunError, run

NYK = GAMES_DIR / "nyk"


# --- a small TOML writer (the content files are tables, arrays of tables and scalars) ----------

def _value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    return "{ " + ", ".join(f"{json.dumps(k)} = {_value(x)}" for k, x in v.items()) + " }"


def dumps(table: dict, prefix: str = "") -> str:
    lines, nested = [], []
    for key, value in table.items():
        if isinstance(value, dict) and key != "params":
            nested.append((key, value))
        elif isinstance(value, list) and value and all(isinstance(x, dict) for x in value):
            nested.append((key, value))
        else:
            lines.append(f"{json.dumps(key)} = {_value(value)}")
    for key, value in nested:
        name = f"{prefix}.{json.dumps(key)}" if prefix else json.dumps(key)
        if isinstance(value, dict):
            lines += [f"[{name}]", dumps(value, name)]
        else:
            for item in value:
                lines += [f"[[{name}]]", *(f"{json.dumps(k)} = {_value(x)}" for k, x in item.items())]
    return "\n".join(lines) + "\n"


def shipped(kind: str) -> dict:
    return tomllib.loads((NYK / f"{kind}.toml").read_text())


def ruleset_file(folder: Path, values: dict | None = None, **content) -> Path:
    """A designer file in `folder` with these option values and content tables."""
    lines = [f"{json.dumps(k)} = {_value(v)}" for k, v in (values or {}).items()]
    if content:
        lines.append("[content]")
        for kind, table in content.items():
            (folder / f"{kind}.toml").write_text(dumps(table))
            lines.append(f'{kind} = "{kind}.toml"')
    path = folder / "ruleset.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_the_toml_writer_round_trips_the_shipped_content():
    for kind in ("board", "characters", "missions", "resources"):
        assert tomllib.loads(dumps(shipped(kind))) == shipped(kind)


# --- the capacities are the engines' ---------------------------------------------------------------

def test_capacities_are_the_engines():
    from sim.ag import state as ag_state
    from sim.nyk import env, state

    c = nyk_content
    assert c.ENGINE_MISSIONS == state.N_MISSIONS
    assert c.ENGINE_RESOURCE_CARDS == state.N_CARDS == env.RP_R_TIMING - env.RP_R_KIND
    assert c.ENGINE_HENCHMEN == state.N_HENCHMEN == env.RP_H_SUIT - env.RP_H_VALUE
    assert c.ENGINE_MAX_AFFRANCHI == state.N_AFFRANCHI == state.MAX_SEATS
    assert c.ENGINE_MAX_DISTRICTS == env.N_DISTRICTS_MAX
    assert c.ENGINE_MAX_NEIGHBOURS == env.MAX_DEGREE
    assert c.ENGINE_MAX_TILES == state.N_TILES == state.POLICE0 - state.BAG0
    assert c.ENGINE_PERIPHERAL == state.BAG0 - state.PERIPH0 == env.RP_TILES - env.RP_PERIPH
    assert c.ENGINE_MAX_BILLS == env.N_BILLS_MAX
    spec = options("nyk")
    assert spec["players.max"].max <= state.MAX_SEATS
    assert spec["missions.row"].max <= state.MAX_ROW
    assert spec["hand.limit"].max <= state.CTR0 - state.HAND0
    assert spec["henchmen.max"].max <= state.N_HENCHMEN
    assert len(env.bid_sets(spec["corruption.bills"].max)) <= env.MAX_BIDS
    # the most money a game can hold fits the int32 columns of the results
    most = (c.ENGINE_MISSIONS * c.ENGINE_MAX_REWARD * spec["missions.reward_scale"].max
            + state.MAX_TURNS * state.MAX_SEATS * spec["hand.limit"].max * c.ENGINE_MAX_CARD_AMOUNT
            + state.MAX_SEATS * c.ENGINE_MAX_BILLS * spec["start.bills"].max
            + sum(spec[f"bank.bundles_{v}"].max * v for v in (0, 1000, 2000, 5000)))
    assert most < 2**31 - 1
    ag = options("ag")
    assert ag["players.max"].max <= ag_state.MAX_SEATS
    assert ag["end.turn_cap"].max <= ag_state.MAX_TURNS
    assert ag["bullets.clics"].max + ag["bullets.bangs"].max <= ag_state.MAX_BULLETS
    assert ag["locations.extra"].max + ag_state.MAX_SEATS + 1 <= ag_state.MAX_SLOTS
    assert ag_content.MAX_CARDS == ag_state.L_DISC0 - ag_state.L_DECK0


# --- hand-picked bad rulesets: one line from check, the same refusal from run ------------------------

def _more_missions(n):
    raw = shipped("missions")
    cards = [dict(m, name=f"Job {i}") for i, m in enumerate((raw["mission"] * 2)[:n])]
    return {**raw, "mission": cards, "deck_size": n}


def _resources_plus(n):
    raw = shipped("resources")
    raw["card"][0]["count"] += n
    raw["deck_size"] += n
    return raw


def _card_param(name, value):
    raw = shipped("resources")
    card = next(c for c in raw["card"] if name in c.get("params", {}))
    card["params"][name] = value
    return raw


def _henchmen(n):
    raw = shipped("characters")
    raw["henchman"] = raw["henchman"][:n]
    raw["henchmen_count"] = n
    return raw


def _reward(value):
    raw = shipped("missions")
    raw["mission"][0]["reward"] = value
    return raw


def _board_with_tile_districts(n):
    raw = shipped("board")
    for i in range(n):
        raw["district"].append({"name": f"NEW {i}", "band": "white", "tile": True, "x": 0.0, "y": float(i)})
        raw["connections"][f"NEW {i}"] = ["FINANCIAL"]
    raw["tiles"] += n
    return raw


BAD = {
    "17 bills": ({"start": {"bills": [1000] * 17}}, {}, "start.bills .* at most 16"),
    "25 missions": ({}, {"missions": _more_missions(25)}, "25 missions .*exactly 24"),
    "23 missions": ({}, {"missions": _more_missions(23)}, "23 missions .*exactly 24"),
    "33 resource cards": ({}, {"resources": _resources_plus(1)}, "33 resource cards .*exactly 32"),
    "31 resource cards": ({}, {"resources": _resources_plus(-1)}, "31 resource cards"),
    "reward 10**15": ({}, {"missions": _reward(10**15)}, "reward = 1000000000000000 is out of range"),
    "mission = 5": ({}, {"missions": {**shipped("missions"), "mission": 5}}, "mission = 5 .*list of"),
    "19 henchmen": ({}, {"characters": _henchmen(19)}, "19 henchmen .*exactly 20"),
    "100 bonus dice": ({}, {"resources": _card_param("dice", 100)}, "params.dice = 100 is out of range"),
    "a card amount of 10**12": ({}, {"resources": _card_param("amount", 10**12)}, "params.amount"),
    "20 tiles": ({}, {"board": _board_with_tile_districts(1)}, "tiles = 20 .*at most 19"),
    "13 neighbours": ({}, {"board": _board_with_tile_districts(0) | {"connections": {
        **shipped("board")["connections"], "FINANCIAL": [d["name"] for d in shipped("board")["district"][1:14]]}}},
        "13 neighbours"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_check_refuses_what_the_engine_cannot_hold(case, tmp_path):
    values, content, message = BAD[case]
    path = ruleset_file(tmp_path, _flat(values), **content)
    result = CliRunner().invoke(main, ["rules", "check", str(path)])
    assert result.exit_code == 2, result.output
    assert result.output.count("\n") == 1 and result.output.startswith("mobsim: error:")
    import re

    assert re.search(message, result.output), result.output
    with pytest.raises(RunError, match=message):
        run(ruleset=path, games=2, workers=1, progress=False)


def _flat(values: dict, prefix: str = "") -> dict:
    flat = {}
    for k, v in values.items():
        if isinstance(v, dict):
            flat.update(_flat(v, f"{prefix}{k}."))
        else:
            flat[f"{prefix}{k}"] = v
    return flat


def test_files_that_are_not_rulesets_are_refused_before_they_are_read(tmp_path):
    huge = tmp_path / "huge.toml"
    with open(huge, "wb") as f:
        f.truncate(10 * MAX_TOML_BYTES)  # sparse: nothing is written
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)  # opening it would wait for a writer for ever
    for path, message in (("/dev/zero", "not a regular file"), (fifo, "not a regular file"),
                          (huge, "bytes, more than a ruleset file holds")):
        with pytest.raises(RulesetError, match=message):
            Ruleset.load(path)
        result = CliRunner().invoke(main, ["rules", "check", str(path)])
        assert result.exit_code == 2 and message.split(",")[0] in result.output


# --- generated rulesets: check and run agree ----------------------------------------------------------

@st.composite
def rulesets(draw):
    """A designer file's values and content near and beyond the engine's limits."""
    values, content = {}, {}
    if draw(st.booleans()):
        values["start.bills"] = draw(st.lists(st.sampled_from([0, 1000, 5000, 50000]), min_size=1, max_size=20))
    if draw(st.booleans()):
        raw = _more_missions(draw(st.integers(22, 26)))
        raw["mission"][0]["reward"] = draw(st.sampled_from([1000, 12000, 10**6, 10**6 + 1000, 10**15]))
        content["missions"] = raw
    if draw(st.booleans()):
        raw = _resources_plus(draw(st.integers(-1, 1)))
        for card in raw["card"]:
            for name in card.get("params", {}):
                if draw(st.integers(0, 4)) == 0:
                    money = name in ("amount", "cost", "discount")
                    card["params"][name] = draw(st.sampled_from([0, 1000, 10**5, 10**5 + 1000, 10**9]) if money
                                                else st.integers(0, 20))
        content["resources"] = raw
    if draw(st.booleans()):
        content["characters"] = _henchmen(draw(st.integers(19, 20)))
    if draw(st.booleans()):
        raw = _board_with_tile_districts(0)
        for i in range(draw(st.integers(0, 10))):
            tile = draw(st.booleans())
            raw["district"].append({"name": f"NEW {i}", "band": "grey" if tile else "none", "tile": tile,
                                    "x": 1.0, "y": float(i)})
            raw["connections"][f"NEW {i}"] = [draw(st.sampled_from(["SOHO", "FINANCIAL", "HARLEM"]))]
            raw["tiles"] += tile
        content["board"] = raw
    return values, content


@settings(max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(case=rulesets())
def test_check_and_run_agree_on_generated_rulesets(case, tmp_path_factory):
    values, content = case
    path = ruleset_file(tmp_path_factory.mktemp("rs"), values, **content)
    try:
        Ruleset.load(path)
        checked = None
    except RulesetError as err:
        checked = str(err)
    try:
        run(ruleset=path, games=3, workers=1, progress=False)
        ran = None
    except RunError as err:
        ran = str(err)
    assert (checked is None) == (ran is None), (checked, ran)


def test_american_gangsters_rulesets_are_checked_as_run_plays_them(tmp_path):
    (tmp_path / "cap.toml").write_text("[end]\nturn_cap = 151\n")
    locations = tomllib.loads((GAMES_DIR / "ag" / "locations.toml").read_text())
    (tmp_path / "locations.toml").write_text(dumps({**locations, "override": 5}))
    (tmp_path / "override.toml").write_text('[content]\nlocations = "locations.toml"\n')
    for name, message in (("cap.toml", "end.turn_cap = 151 is out of range"),
                          ("override.toml", "override must be a list")):
        result = CliRunner().invoke(main, ["rules", "check", "--game", "ag", str(tmp_path / name)])
        assert result.exit_code == 2 and message in result.output, result.output
        with pytest.raises(RunError, match=message):
            run(game="ag", ruleset=tmp_path / name, games=2, workers=1, progress=False)
    (tmp_path / "fine.toml").write_text("[end]\nturn_cap = 120\n")
    result = CliRunner().invoke(main, ["rules", "check", "--game", "ag", str(tmp_path / "fine.toml")])
    assert result.exit_code == 0 and "changes: end.turn_cap" in result.output
