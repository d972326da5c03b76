"""What the league needs to know of each game: its knob box, its strategies, its preset files and
how a block of games is played. The matches, the knob search and PSRO are written once against
this adapter (`knobs(game)`), so both games share them.

Both games' knobs, presets and preset files come from the one strategy loader (`strategies`):
the box is each knob's range in `strategies/<game>/params.py` (a study knob, `searched=False`,
held at its default), the presets are those of `strategies/<game>/presets/`, and a tuned preset
is written in the one preset format (doc, family, [params], [provenance]). What differs is the
family a knob vector plays (`param` in New York Kings, `parametric` in American Gangsters) and
the adapter that plays a block of games (the runner's, sim.shared.adapter).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from sim.rooms import DEFAULT_GAME
from sim.shared.game import find

def toml_value(value) -> str:
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{toml_value(str(k))} = {toml_value(v)}" for k, v in value.items()) + "}"
    return repr(value)


@dataclass(frozen=True)
class Knobs:
    """A game's knob box and strategies, as the matches and the knob search use them."""

    game: str
    names: tuple[str, ...]
    lo: np.ndarray
    hi: np.ndarray
    opponents: tuple[str, ...]        # the presets a tuned player must beat
    population: tuple[str, ...]       # PSRO's starting population

    @property
    def free(self) -> np.ndarray:
        """The knobs the search moves: a study knob's box is a point, and it is held there."""
        return self.hi > self.lo

    def to_knobs(self, unit: np.ndarray) -> tuple[float, ...]:
        """Every knob's value from the unit coordinates of the free ones."""
        values = self.lo.astype(np.float64)
        values[self.free] += np.asarray(unit, dtype=np.float64) * (self.hi - self.lo)[self.free]
        return tuple(float(v) for v in values)

    def to_unit(self, values) -> np.ndarray:
        """The free knobs' unit coordinates (the space the search draws in)."""
        free = self.free
        return (np.asarray(values, dtype=np.float64)[free] - self.lo[free]) / (self.hi - self.lo)[free]

    def resolve(self, spec):
        """A loaded strategy or mixture from a spec; loaded ones pass through."""
        from strategies import mixture

        if isinstance(spec, mixture.Mixture) or not isinstance(spec, str):
            return spec
        if mixture.is_mixture(spec):
            return mixture.load(spec, self.game)
        return self.load(spec)

    def load(self, spec: str):
        import strategies

        return strategies.load(spec, self.game)

    def strategy(self, name: str, values) -> object:
        """The strategy playing the knob vector `values` (the game's default family)."""
        import strategies

        family = strategies.space(self.game).DEFAULT_FAMILY
        return strategies.Strategy(name, family, tuple(float(v) for v in values), game=self.game)

    def params_of(self, spec) -> tuple[float, ...]:
        return tuple(self.resolve(spec).params)

    def preset_toml(self, name: str, params: dict, doc: str, provenance: dict) -> str:
        import strategies

        doc = doc or "Tuned by the cross-entropy method against the preset population."
        lines = [f"doc = {toml_value(doc)}", f"family = {toml_value(strategies.space(self.game).DEFAULT_FAMILY)}",
                 "", "[params]"]
        lines += [f"{key} = {value!r}" for key, value in params.items()]  # exact: the measured player
        lines += ["", "[provenance]"]
        lines += [f"{key} = {toml_value(value)}" for key, value in provenance.items()]
        return "\n".join(lines) + "\n"

    def play_block(self, chosen, players: int, rules: tuple, seed: int, first_id: int, n: int) -> np.ndarray:
        """Wins per lineup slot over games first_id .. first_id + n - 1, seats rotated: the game's
        adapter plays them, as it plays a run's (a searching seat through its forward model)."""
        return self.game_wins(chosen, players, rules, seed, first_id, n).sum(axis=0)

    def game_wins(self, chosen, players: int, rules: tuple, seed: int, first_id: int, n: int) -> np.ndarray:
        """`play_block` game by game: wins of each lineup slot (n, len(chosen))."""
        adapter = find(self.game).adapter
        lineup = adapter.entry_points().Lineup.of_strategies(list(chosen), players, rotate=True)  # in-memory too
        _, seats, _ = adapter.games_of(lineup)(seed, n, players, lineup, ruleset(*rules), first_id=first_id)
        columns = adapter.batch().SEAT_COLUMNS
        slot, won = seats[:, :, columns.index("strategy")], seats[:, :, columns.index("won")]
        return np.stack([(won * (slot == j)).sum(axis=1) for j in range(len(chosen))], axis=1).astype(np.int64)

    def preset_dir(self):
        """Where the game's shipped presets live."""
        import strategies

        return strategies.preset_dir(self.game)


@cache
def ruleset(path, overrides: tuple, game: str = DEFAULT_GAME):
    from sim.rules import Ruleset

    return Ruleset.load(path, dict(overrides) or None, game=game)


@cache
def knobs(game: str = DEFAULT_GAME) -> Knobs:
    """The league's view of `game`: its knob box, the opponents a tuned player must beat and the
    meta-game's starting population (the game's description, sim.shared.game)."""
    described = find(game)
    return Knobs(game, *_box(game), described.opponents, described.population)


def _box(game: str) -> tuple[tuple[str, ...], np.ndarray, np.ndarray]:
    """A game's knob names and ranges (strategies/<game>/params.py)."""
    import strategies

    params = strategies.space(game).PARAMS
    return (tuple(p.name for p in params), np.array([p.lo if p.searched else p.default for p in params]),
            np.array([p.hi if p.searched else p.default for p in params]))
