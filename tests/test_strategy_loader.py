"""The one strategy loader (`strategies`) serves every game alike: every shipped preset of each game
loads inside its knobs' ranges, and a bad spec or preset file gets the same one-line error in
any game."""

import pytest

import strategies
from sim.shared.game import names

GAMES = names()


def knob(game: str):
    """A searched knob of the game's families (the first)."""
    return next(p for p in strategies.space(game).PARAMS if p.searched)


KNOB = {game: knob(game).name for game in GAMES}


def test_each_game_has_the_same_shape():
    assert set(GAMES) <= set(strategies.games())
    for game in GAMES:
        space = strategies.space(game)
        assert space.DEFAULT_FAMILY in space.FAMILIES and space.NAMES == tuple(p.name for p in space.PARAMS)
        assert strategies.preset_dir(game).is_dir() and strategies.available(game)


@pytest.mark.parametrize("game, name", [(g, n) for g in GAMES for n in strategies.available(g, searchers=True)])
def test_each_preset_of_each_game_loads_within_its_knobs(game, name):
    s = strategies.load(name, game)
    space = strategies.space(game)
    assert s.doc and s.game == game and len(s.params) == len(space.PARAMS)
    assert 0 <= s.kind() < len(space.FAMILIES)
    for p, value in zip(space.PARAMS, s.params, strict=True):
        assert p.lo <= value <= p.hi, (name, p.name)


def test_the_defaults_lie_in_their_ranges():
    for game in GAMES:
        for p in strategies.space(game).PARAMS:
            assert p.doc and p.lo < p.hi and p.lo <= p.default <= p.hi, (game, p.name)


def _error(spec, game):
    with pytest.raises(strategies.StrategyError) as err:
        strategies.load(spec, game)
    message = str(err.value)
    assert "\n" not in message
    return message


@pytest.mark.parametrize("game", GAMES)
def test_an_unknown_preset_names_the_choices(game):
    message = _error("simpel", game)
    assert message.startswith("unknown strategy 'simpel': choose among ")
    assert ", ".join(strategies.available(game, searchers=True)) in message
    assert message.endswith("or give a .toml file (did you mean 'simple'?)")


@pytest.mark.parametrize("game", GAMES)
def test_an_unknown_knob_names_the_close_one_or_every_knob(game, tmp_path):
    path = tmp_path / "bad.toml"
    knob = KNOB[game]
    path.write_text(f"[params]\n{knob}x = 0.1\n")
    assert _error(str(path), game) == f"{path}: unknown parameter '{knob}x' (did you mean '{knob}'?)"
    path.write_text("[params]\nzzz = 0.1\n")
    names = ", ".join(strategies.space(game).NAMES)
    assert _error(str(path), game) == f"{path}: unknown parameter 'zzz' (the knobs: {names})"


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("value", ["above", "below", '"high"', "true"])
def test_a_bad_knob_value_names_the_range(game, value, tmp_path):
    path = tmp_path / "bad.toml"
    knob = KNOB[game]
    p = strategies.space(game).PARAMS[strategies.space(game).INDEX[knob]]
    value = {"above": f"{p.hi + 9.0}", "below": f"{p.lo - 9.0}"}.get(value, value)
    path.write_text(f"[params]\n{knob} = {value}\n")
    shown = {'"high"': "'high'", "true": "True"}.get(value, value)
    assert _error(str(path), game) == (f"{path}: {knob} = {shown} is outside [{p.lo:g}, {p.hi:g}]: "
                                      f"give a number in that range")


@pytest.mark.parametrize("game", GAMES)
def test_bad_keys_families_and_files_are_one_line_errors(game, tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('name = "mine"\n')
    assert _error(str(path), game).startswith(f"{path}: unknown key 'name': a preset holds doc, family, params")
    path.write_text('family = "genius"\n')
    families = ", ".join(strategies.space(game).FAMILIES)
    assert _error(str(path), game) == f"{path}: family 'genius' is not one of {families}"
    path.write_text("[params\n")
    assert _error(str(path), game).startswith(f"{path}: not a readable TOML preset")
    assert _error("nowhere/x.toml", game) == "strategy file nowhere/x.toml not found"
    assert _error("simple+no-such", game).startswith("unknown restriction 'no-such' in 'simple+no-such'")


@pytest.mark.parametrize("game", GAMES)
def test_a_persona_is_read_and_a_bad_one_is_a_one_line_error(game, tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text('doc = "mine"\n[persona]\nmost = ["won"]\nleast = ["rank"]\n')
    assert strategies.load(str(path), game).persona == {"most": ("won",), "least": ("rank",)}
    path.write_text('doc = "mine"\npersona = 3\n')
    assert _error(str(path), game) == f"{path}: persona = 3 is not a table: write most = [...] under [persona]"
    path.write_text('doc = "mine"\n[persona]\nmore = ["won"]\n')
    assert _error(str(path), game).startswith(f"{path}: unknown persona key 'more': choose among most, least")
    path.write_text('doc = "mine"\n[persona]\nmost = "won"\n')
    assert _error(str(path), game) == f"{path}: persona.most = 'won' is not a list of counter names"


def test_an_unknown_game_names_the_games():
    assert _error("simple", "chess") == f"no strategies for game 'chess': choose among {', '.join(sorted(GAMES))}"


@pytest.mark.parametrize("game", GAMES)
def test_a_preset_without_a_family_plays_the_default_one(game, tmp_path):
    path = tmp_path / "mine.toml"
    middle = (knob(game).lo + knob(game).hi) / 2
    path.write_text(f'doc = "mine"\n[params]\n{KNOB[game]} = {middle}\n')
    s = strategies.load(str(path), game)
    space = strategies.space(game)
    assert s.family == space.DEFAULT_FAMILY and s.knobs()[KNOB[game]] == middle
    assert all(v == d for n, v, d in zip(space.NAMES, s.params, space.DEFAULTS, strict=True) if n != KNOB[game])
