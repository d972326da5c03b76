"""The contract every game keeps, held once over every game found (sim.shared.game), in the manner
of OpenSpiel's api_test over its registered games and pgx's `api_test(env)`:

- the engine is one piece of code: with the JIT disabled it plays the very same games;
- a run is reproducible from its seed however its games are split into batches;
- the forward model driven by the seats' own strategies is the batch game, result for result;
- a forward state's copy is independent, a determinized state keeps what its seat sees and plays
  on to an end, and bad options, seats and moments are refused in one line;
- random valid rulesets (every option drawn in its declared range) keep the invariants and end
  (`make fuzz` draws many more of them).
"""

import json
import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import strategies as presets
from sim.rules import Ruleset, RulesetError, options
from sim.shared.game import RESTRICTIONS, every, find, names

GAMES = names()
MOST_PLAYERS = max(g.player_range.stop for g in every()) - 1   # the largest table of any game


def lineup(game) -> list[str]:
    """Every policy family of the game at one table: random, simple, two of its showcase styles
    and, where the game has them, a restricted seat."""
    seats = ["random", "simple", *game.showcase[:2]]
    if game.has(RESTRICTIONS):
        seats[1] = f"simple+{next(iter(presets.space(game.name).RESTRICTIONS))}"
    return seats


def batch(game, seed: int, n: int, first_id: int = 0, ruleset=None, check: bool = False, players: int = 4):
    entry = game.part("game")
    rs = ruleset or Ruleset.load(game=game.name)
    seats_of = (lineup(game) * 2)[:players]   # the lineup's styles, repeated at a larger table
    games, seats, _ = entry.play_many(seed, n, players, entry.Lineup.of(seats_of, players), rs,
                                      first_id=first_id, check=check)
    return games, seats


def column(game, table: str, name: str) -> int:
    return getattr(game.part("batch"), f"{table}_COLUMNS").index(name)


def table(game) -> int:
    """The forward model's table: four seats, or the game's largest below that."""
    return min(4, game.player_range.stop - 1)


def forward(game, game_id: int = 0, **kw):
    players = table(game)
    return game.part("forward").Forward.new(None, lineup(game)[:players], players=players, seed=3,
                                            game_id=game_id, **kw)


def halted(game, decisions: int = 25):
    """A state some way into the game, every seat deciding from outside."""
    fw = forward(game)
    for _ in range(decisions):
        if fw.over:
            break
        fw.apply_policy()
    assert not fw.over
    return fw


@pytest.fixture(params=GAMES)
def game(request):
    return find(request.param)


def test_every_game_declares_itself_and_its_parts():
    assert [g.name for g in every()] == list(GAMES) and GAMES[0] == "nyk"
    for g in every():
        assert g.title and g.ladder[0] == "random" and len(g.showcase) == 4
        assert g.adapter.name == g.name and g.adapter.title == g.title
        for role in ("game", "batch", "state", "narrate", "forward", "env", "engine"):
            assert g.part(role).__name__ == f"sim.{g.name}.{role}"
        for name in ("random", "simple", *g.ladder, *g.showcase, *g.opponents, *g.population):
            presets.load(name, g.name)   # every game ships `random` and `simple` (the rooms' defaults)
        assert g.players in g.player_range and g.score_unit and g.first_seat and g.plain_decisions


def test_each_game_s_plain_endings_are_its_own_and_no_tie_break_of_another():
    """The report counts a tie-break by every game's plain endings at once (sim.analysis.headline):
    each game's are among its `decided_by` labels, and none is another game's tie-break."""
    plain = {label for g in every() for label in g.plain_decisions}
    for g in every():
        labels = set(g.adapter.categories("decided_by"))
        assert set(g.plain_decisions) <= labels and not (plain - set(g.plain_decisions)) & labels, g.name


def test_a_game_that_is_not_there_is_named_with_the_ones_that_are():
    with pytest.raises(ValueError, match=f"unknown game 'chess': choose among {', '.join(GAMES)}$"):
        find("chess")


# --- the engine ----------------------------------------------------------------------------------

PLAIN = """
import json, sys, warnings
warnings.simplefilter("ignore")
sys.path.insert(0, {tests!r})
from test_game_contract import batch
from sim.shared.game import find
games, seats = batch(find({name!r}), 11, 1, check=True)
print(json.dumps([games.tolist(), seats.tolist()]))
"""


def test_jitted_and_plain_python_engines_play_identical_games(game):
    games, seats = batch(game, 11, 1, check=True)
    script = PLAIN.format(tests=os.path.dirname(__file__), name=game.name)
    out = subprocess.run([sys.executable, "-c", script], env=dict(os.environ, NUMBA_DISABLE_JIT="1"),
                         capture_output=True, text=True, check=True, timeout=900)
    plain_games, plain_seats = json.loads(out.stdout.strip().splitlines()[-1])
    assert games.tolist() == plain_games and seats.tolist() == plain_seats


def test_a_run_split_anyhow_plays_the_same_games(game):
    whole = batch(game, 5, 7)
    parts = [batch(game, 5, n, first_id=first) for first, n in ((0, 3), (3, 1), (4, 3))]
    for k in range(2):
        np.testing.assert_array_equal(whole[k], np.concatenate([p[k] for p in parts]))
    assert len({row.tobytes() for row in whole[1]}) > 1   # and the games differ from each other


def test_invariants_hold_and_every_game_ends_at_every_table_size(game):
    assert game.players in game.player_range and game.player_range.start >= 2
    for players in game.player_range:
        games, _ = batch(game, 2, 6, check=True, players=players)
        assert games[:, column(game, "GAME", "invariant")].max() == 0
        assert games[:, column(game, "GAME", "cap_hit")].sum() == 0
        assert games[:, column(game, "GAME", "illegal_decisions")].sum() == 0
        winners = games[:, column(game, "GAME", "winner_seat")]
        assert ((winners >= -1) & (winners < players)).all()


# --- the forward model ---------------------------------------------------------------------------

@pytest.mark.parametrize("game_id", [0, 1])
def test_the_forward_model_driven_by_the_strategies_is_the_batch_game(game, game_id):
    fw = forward(game, game_id)
    while not fw.over:
        fw.apply_policy()
    players = table(game)
    played = game.part("game").result(game.part("game").play_one(3, players, lineup(game)[:players],
                                                                 game_id=game_id))
    got = fw.result()
    assert (got["winner"], got["turns"]) == (played["winner"], played["turns"])
    assert got["ranks"] == [s["rank"] for s in played["seats"]]
    assert fw.decision() is None


def test_a_copy_is_independent_and_steps_the_same(game):
    fw = halted(game)
    before = fw.game.copy()
    twin = fw.copy()
    while not twin.over:
        twin.apply(len(twin.decision().options) - 1)
    assert fw.game.tobytes() == before.tobytes()       # the original did not move
    again = fw.copy()
    while not again.over:
        again.apply(len(again.decision().options) - 1)
    assert again.result() == twin.result()


def test_outcome_after_an_option_plays_to_the_end_and_leaves_the_state(game):
    fw = halted(game)
    before = fw.game.copy()
    played = fw.outcome_after(0)
    assert played.over and not fw.over and fw.game.tobytes() == before.tobytes()
    by_hand = fw.copy()
    by_hand.stop = ()
    by_hand.apply(0)
    assert played.result() == by_hand.result()


def test_a_determinized_state_keeps_its_seats_view_and_plays_on(game):
    fw = halted(game)
    seat = fw.decision().seat
    seen = fw.view(seat)
    worlds = [fw.determinize(seat, key) for key in range(4)]
    for w in worlds:
        assert w.view(seat) == seen and w.decision().seat == seat
    w = worlds[0]
    while not w.over:
        w.apply_policy()
    assert sorted(w.result()["ranks"])[0] == 1


def test_bad_options_seats_and_moments_are_refused_in_one_line(game):
    fw = halted(game)
    n = len(fw.decision().options)
    for bad in (-1, n, 1.5, True, "0", None):
        with pytest.raises(ValueError, match="option"):
            fw.apply(bad)
    for bad_seat in (-1, table(game), 9):
        with pytest.raises(ValueError, match=f"seat {bad_seat} is not at this table"):
            fw.determinize(bad_seat, 1)
    with pytest.raises(ValueError, match=f"seat {table(game) + 1} is not at this table"):
        forward(game, stop=(table(game) + 1,))
    with pytest.raises(ValueError, match="not over"):
        fw.result()
    while not fw.over:
        fw.apply_policy()
    with pytest.raises(ValueError, match="game is over"):
        fw.apply(0)
    with pytest.raises(ValueError, match="game is over"):
        fw.apply_policy()


def test_the_default_state_halts_every_seat_and_records_nothing(game):
    fw = forward(game)
    assert fw.stop == tuple(range(table(game))) and fw.players == table(game) and fw.turn >= 0
    assert int(fw.game.g[game.part("state").N_EVENTS]) == 0
    told = forward(game, stop=(0,), record=True)
    assert told.stop == (0,) and told.decision().seat == 0
    lines, cursor = told.news(0)
    assert lines and cursor > 0 and told.view(0)


# --- random rulesets -----------------------------------------------------------------------------

def _value(option):
    """A hypothesis strategy for one option: any value its declaration allows."""
    if option.choices:
        return st.sampled_from(option.choices)
    if option.type == "bool":
        return st.booleans()
    lo = option.min if option.min is not None else 0
    hi = option.max if option.max is not None else lo + 10
    if option.type == "money":
        return st.integers(int(lo) // 1000, int(min(hi, lo + 20_000)) // 1000).map(lambda k: 1000 * k)
    if option.type == "int":
        return st.integers(int(lo), int(min(hi, lo + 40)))
    if option.type == "float":
        return st.floats(float(lo), float(min(hi, lo + 5)), allow_nan=False).map(lambda x: round(x, 2))
    return st.just(option.default)


@st.composite
def random_ruleset(draw, name: str):
    """A ruleset of random values of random options, each in its declared range; combinations
    the ruleset refuses (its cross checks) are not drawn."""
    spec = {k: o for k, o in options(name).items() if o.type in ("bool", "int", "float", "money") or o.choices}
    chosen = draw(st.sets(st.sampled_from(sorted(spec)), max_size=12))
    overrides = {key: draw(_value(spec[key])) for key in sorted(chosen)}
    try:
        return overrides, Ruleset.load(None, overrides, game=name)
    except RulesetError:
        assume(False)


@pytest.mark.parametrize("name", GAMES)
@settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])  # examples: conftest
@given(data=st.data(), seed=st.integers(0, 2**32 - 1), players=st.integers(2, MOST_PLAYERS))
def test_random_rulesets_keep_the_invariants_and_end(name, data, seed, players):
    game = find(name)
    overrides, rs = data.draw(random_ruleset(name))
    try:
        game.part("game").check_players(rs, players)
    except ValueError:
        assume(False)
    games, _ = batch(game, seed, 2, ruleset=rs, check=True, players=players)
    replay = f"replay: batch(find({name!r}), {seed}, 2, ruleset=Ruleset.load(None, {overrides!r}, game={name!r}))"
    assert games[:, column(game, "GAME", "invariant")].max() == 0, replay
    assert games[:, column(game, "GAME", "illegal_decisions")].sum() == 0, replay
