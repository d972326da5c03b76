"""What every shipped preset of every game keeps (in the manner of Axelrod's `TestPlayer`, which
every strategy's test inherits): it loads, it plays only legal decisions and keeps the game's
invariants at every table size, it is reproducible, it beats uniform random play, and it is the
style its file states (`[persona]`: the seat counters it has most, or least, of its game's
styles, its population, seated in rotation). A preset added as a file is held to all of it with no test to write.
"""

from functools import cache
from pathlib import Path

import numpy as np
import pytest

import strategies
from sim.analysis.stats import wilson
from sim.league.games import knobs
from sim.rules import Ruleset
from sim.shared.game import every, find

PRESETS = [(g.name, name) for g in every() for name in strategies.available(g.name)]
STYLE_GAMES = 3500          # games of the styles' ring (a persona's claims are measured there)
SEED = 17


def _play(game, names, n, players=4, seed=SEED, check=False):
    entry = game.part("game")
    lineup = entry.Lineup.of(list(names), players)
    return entry.play_many(seed, n, players, lineup, Ruleset.load(game=game.name), check=check)[:2], lineup


def _column(game, table, name):
    return getattr(game.part("batch"), f"{table}_COLUMNS").index(name)


def styles(name: str) -> list[str]:
    """The styles a persona is measured among: the game's population (its description)."""
    return list(find(name).population)


@cache
def style_means(name: str) -> dict[str, np.ndarray]:
    """Each style's mean of every seat column over its seats: the styles in a ring, each table of
    four the next four of the ring (seats rotated), so every style meets every other."""
    game, ring = find(name), styles(name)
    seated = {s: [] for s in ring}
    for k in range(len(ring)):
        names = [ring[(k + j) % len(ring)] for j in range(4)]
        (_, seats), _ = _play(game, names, STYLE_GAMES // len(ring), seed=SEED + k)
        flat = seats.reshape(-1, seats.shape[-1])
        slot = flat[:, _column(game, "SEAT", "strategy")]
        for i, s in enumerate(names):
            seated[s].append(flat[slot == i])
    return {s: np.concatenate(rows).mean(axis=0) for s, rows in seated.items()}


@pytest.mark.parametrize("game_name,name", PRESETS)
class TestPreset:
    def test_it_loads_with_a_doc_and_known_persona_counters(self, game_name, name):
        preset = strategies.load(name, game_name)
        assert preset.doc and preset.game == game_name
        columns = find(game_name).part("batch").SEAT_COLUMNS
        for key, counters in preset.persona.items():
            unknown = [c for c in counters if c not in columns]
            assert not unknown, f"{name}: persona.{key} names no seat counter: {unknown}"

    def test_it_plays_legally_and_keeps_the_invariants_at_every_table_size(self, game_name, name):
        game = find(game_name)
        for players in game.player_range:   # the preset among `simple` seats, seats rotated
            (games, _), _ = _play(game, [name] + ["simple"] * (players - 1), 8, players=players, check=True)
            assert games[:, _column(game, "GAME", "illegal_decisions")].sum() == 0
            assert games[:, _column(game, "GAME", "invariant")].max() == 0
            assert games[:, _column(game, "GAME", "cap_hit")].sum() == 0

    def test_it_is_reproducible_from_the_seed(self, game_name, name):
        game = find(game_name)
        (first, seats), _ = _play(game, [name, "simple", name, "simple"], 20)
        (again, seats_again), _ = _play(game, [name, "simple", name, "simple"], 20)
        assert first.tobytes() == again.tobytes() and seats.tobytes() == seats_again.tobytes()
        assert strategies.load(name, game_name) == strategies.load(name, game_name)

    def test_it_beats_uniform_random_play(self, game_name, name):
        if name == "random":
            pytest.skip("uniform random play is the yardstick")
        game = find(game_name)
        (_, seats), _ = _play(game, [name, "random", "random", "random"], 400)
        slot = seats[:, :, _column(game, "SEAT", "strategy")]
        won = seats[:, :, _column(game, "SEAT", "won")]
        k = int(won[slot == 0].sum())
        low, _ = wilson(k, len(seats))
        assert low > 0.25, f"{name} wins {k} of {len(seats)} games against three random seats"

    def test_it_is_the_style_its_file_states(self, game_name, name):
        preset = strategies.load(name, game_name)
        if not preset.persona:
            pytest.skip(f"{name} states no persona")
        assert name in styles(game_name), f"{name} states a persona but is not among its game's styles"
        columns = find(game_name).part("batch").SEAT_COLUMNS
        means = style_means(game_name)
        for key, pick in (("most", max), ("least", min)):
            for counter in preset.persona.get(key, ()):
                j = columns.index(counter)
                values = {s: float(m[j]) for s, m in means.items()}
                assert pick(values, key=values.get) == name, \
                    f"{name} is not the style with the {key} {counter}: {values}"


EXAMPLES = Path(__file__).resolve().parent.parent / "docs/examples"
# the search presets the docs measure, and the playouts each folder's searches use: docs/learned.md's
# search by kind of decision over `distilled`'s, docs/architecture.md's table of what each search
# method bought over `tuned`'s (as the shipped search-800 and search-leaf)
SEARCH_PRESETS = [(path, rollout) for folder, rollout in (("search-by-kind", "distilled"), ("search-variants", "tuned"))
                  for path in sorted((EXAMPLES / folder).glob("*.toml"))]


@pytest.mark.parametrize("path,rollout", SEARCH_PRESETS, ids=lambda p: getattr(p, "name", p))
def test_the_search_presets_the_docs_measure_load(path, rollout):
    """The docs' tables of searches are commands on these files: each loads as a New York Kings
    search over its folder's playouts, with the kinds it names."""
    strategy = strategies.load(str(path), "nyk")
    assert strategy.family == "search" and strategy.search["rollout"] == rollout
    assert strategy.search["kinds"] and set(strategy.search["kinds"]) <= set(find("nyk").part("decisions").DECISIONS)


def test_the_distillation_control_draws_tuned_moved_at_random(tmp_path, doc_example):
    """docs/examples/distill-control/draw.py writes presets that load, at the knobs of `tuned` moved
    by the spread (some knob moved, every one within its range), the same from its seed."""
    draw = doc_example("distill-control/draw.py")
    first, again = draw.draw(tmp_path / "a", 2), draw.draw(tmp_path / "b", 2)
    assert [p.read_text() for p in first] == [p.read_text() for p in again]
    tuned = np.array(strategies.load("tuned", "nyk").params)
    box = knobs("nyk")
    for path in first:
        params = np.array(strategies.load(str(path), "nyk").params)
        assert not np.allclose(params, tuned)
        assert (params >= box.lo - 1e-9).all() and (params <= box.hi + 1e-9).all()
