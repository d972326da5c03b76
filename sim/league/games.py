"""What the league needs to know of each game: its knob box, its strategies, its preset files and
how a block of games is played. The matches, the knob search and PSRO are written once against
this adapter (`knobs(game)`), so both games share them.

- New York Kings: the `param` family (strategies/nyk/params.py carries each knob's range), the
  presets of strategies/nyk/presets/, preset files with a [provenance] table.
- American Gangsters: the `parametric` policy (strategies.ag.policy PARAM_NAMES and DEFAULTS, 16 knobs),
  the presets of strategies/ag/ (sim.ag.strategies). The policy has no ranges of its own: AG_BOX
  below is the search box, wide enough to hold the defaults and every shipped preset (a test
  checks it) and bounded where the policy reads a knob as a share or a probability. AG preset
  files take only name, policy, doc and [params], so the provenance is written as comments.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

# the AG search box: (lo, hi) per knob of strategies.ag.policy.PARAM_NAMES
AG_BOX = {
    "val_renown": (0.0, 6.0),         # worth of a renown level (in bags)
    "val_bag": (0.0, 3.0),
    "val_token": (0.0, 4.0),
    "val_card": (0.0, 4.0),
    "val_occasional": (0.0, 3.0),
    "val_fbi_mafia": (-2.0, 0.0),     # an FBI step hurts a mafia family
    "val_fbi_informer": (0.0, 3.0),   # 0: the informer plays as mafia
    "greed": (0.0, 1.0),              # share of the levels asked in a bargain (AG-N)
    "accept": (0.0, 1.0),             # the bar an offer must reach (AG-N)
    "aggression": (0.0, 1.0),
    "min_chance": (0.0, 1.0),         # a success probability
    "bag_reserve": (0.0, 4.0),        # bags kept back
    "title_weight": (0.0, 2.0),
    "heal": (0.0, 1.0),
    "nerve": (0.0, 1.0),              # the probability of pulling the trigger (Russian roulette)
    "bid_fraction": (0.0, 1.0),       # share of the prize's worth bid in an auction (AG-V1)
    "patience": (0.0, 1.0),           # share of the next offer's gain given up for nothing (AG-N)
    "bluff": (0.0, 0.4),              # claim above the shoot-out value, as a share of the card (AG-N)
    "boss_home": (0.0, 0.0),          # a study knob (AG-T3: home never pays): held at 0
}


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

    def to_knobs(self, unit: np.ndarray) -> tuple[float, ...]:
        return tuple(float(lo + u * (hi - lo)) for lo, hi, u in zip(self.lo, self.hi, unit, strict=True))

    def to_unit(self, values) -> np.ndarray:
        # a knob whose box is a point (a study knob) is held there: its unit coordinate is 0
        return np.array([(v - lo) / (hi - lo) if hi > lo else 0.0
                         for lo, hi, v in zip(self.lo, self.hi, values, strict=True)])

    def resolve(self, spec):
        """A loaded strategy or mixture from a spec; loaded ones pass through."""
        from strategies import mixture

        if isinstance(spec, mixture.Mixture) or not isinstance(spec, str):
            return spec
        if mixture.is_mixture(spec):
            return mixture.load(spec, self.game)
        return self.load(spec)

    def load(self, spec: str):
        raise NotImplementedError

    def strategy(self, name: str, values) -> object:
        """The strategy playing the knob vector `values`."""
        raise NotImplementedError

    def params_of(self, spec) -> tuple[float, ...]:
        return tuple(self.resolve(spec).params)

    def preset_toml(self, name: str, params: dict, doc: str, provenance: dict) -> str:
        raise NotImplementedError

    def play_block(self, chosen, players: int, rules: tuple, seed: int, first_id: int, n: int) -> np.ndarray:
        """Wins per lineup slot over games first_id .. first_id + n - 1, seats rotated."""
        raise NotImplementedError

    def preset_dir(self):
        """Where the game's shipped presets live."""
        raise NotImplementedError

    def renamed(self, text: str, name: str) -> str:
        """A preset file's text shipped under `name` (the file name is the preset's name)."""
        return text


@cache
def ruleset(path, overrides: tuple, game: str = "nyk"):
    from sim.rules import Ruleset

    return Ruleset.load(path, dict(overrides) or None, game=game)


def _wins(seats: np.ndarray, strategy_col: int, won_col: int, slots: int) -> np.ndarray:
    slot, won = seats[:, :, strategy_col], seats[:, :, won_col]
    return np.array([won[slot == j].sum() for j in range(slots)], dtype=np.int64)


class NykKnobs(Knobs):
    def load(self, spec: str):
        import strategies

        return strategies.load(spec)

    def strategy(self, name, values):
        import strategies

        return strategies.Strategy(name, "param", tuple(values))

    def preset_toml(self, name, params, doc, provenance):
        lines = [f'doc = "{doc or "Tuned by the cross-entropy method against the preset population."}"',
                 'family = "param"', "", "[params]"]
        lines += [f"{key} = {value!r}" for key, value in params.items()]  # exact: the measured player
        lines += ["", "[provenance]"]
        lines += [f"{key} = {toml_value(value)}" for key, value in provenance.items()]
        return "\n".join(lines) + "\n"

    def play_block(self, chosen, players, rules, seed, first_id, n):
        from sim.nyk import batch
        from sim.nyk.game import Lineup, play_many

        lineup = Lineup.of_strategies(list(chosen), players, rotate=True)
        if lineup.search is not None:  # a seat searches: its games go through the forward model
            from sim.search.nyk import play_many
        _, seats, _ = play_many(seed, n, players, lineup, ruleset(*rules), first_id=first_id)
        return _wins(seats, batch.SEAT_COLUMNS.index("strategy"), batch.S_WON, len(chosen))

    def preset_dir(self):
        import strategies

        return strategies.preset_dir("nyk")


class AgKnobs(Knobs):
    def load(self, spec: str):
        from sim.ag.strategies import strategy

        return strategy(spec)

    def strategy(self, name, values):
        from strategies.ag.policy import PARAMETRIC
        from sim.ag.strategies import Strategy

        return Strategy(name, PARAMETRIC, tuple(float(v) for v in values), "")

    def preset_toml(self, name, params, doc, provenance):
        lines = ["# American Gangsters strategy preset (policy: parametric), made by the knob search."]
        lines += [f"# provenance.{key} = {toml_value(value)}" for key, value in provenance.items()]
        lines += [f"name = {toml_value(name)}", 'policy = "parametric"',
                  f"doc = {toml_value(doc or 'Tuned by the cross-entropy method against the presets.')}",
                  "", "[params]"]
        lines += [f"{key} = {value!r}" for key, value in params.items()]
        return "\n".join(lines) + "\n"

    def play_block(self, chosen, players, rules, seed, first_id, n):
        from sim import seating
        from sim.ag import batch
        from sim.ag.game import Lineup, play_many
        from strategies import mixture

        pool, pools, owner = mixture.expand(list(chosen), self.load)   # in-memory candidates too
        kinds = np.array([s.kind for s in pool], dtype=np.int64)
        params = np.array([s.params for s in pool], dtype=np.float64).reshape(len(pool), len(self.names))
        lineup = Lineup(tuple(s.name for s in chosen), kinds, params, seating.table(players, True),
                        pools, owner)
        _, seats, _ = play_many(seed, n, players, lineup, ruleset(*rules), first_id=first_id)
        return _wins(seats, batch.S_STRATEGY, batch.S_WON, len(chosen))

    def preset_dir(self):
        from sim.ag.strategies import PRESETS_DIR

        return PRESETS_DIR

    def renamed(self, text, name):
        """AG checks that a shipped preset's `name` is its file name."""
        import re

        return re.sub(r"(?m)^name = .*$", f"name = {toml_value(name)}", text, count=1)


@cache
def knobs(game: str = "nyk") -> Knobs:
    """The adapter of `game` ("nyk" or "ag")."""
    if game == "nyk":
        from strategies.nyk import params

        return NykKnobs("nyk", tuple(p.name for p in params.PARAMS),
                        np.array([p.lo for p in params.PARAMS]), np.array([p.hi for p in params.PARAMS]),
                        ("random", "simple", "runner", "enforcer", "networker", "cautious", "corrupter",
                         "balanced"),
                        ("runner", "enforcer", "networker", "cautious", "corrupter", "balanced", "tuned"))
    if game == "ag":
        from strategies.ag.policy import PARAM_NAMES

        missing = set(PARAM_NAMES) ^ set(AG_BOX)
        if missing:
            raise ValueError(f"the AG search box and strategies.ag.policy.PARAM_NAMES differ on {sorted(missing)}")
        return AgKnobs("ag", tuple(PARAM_NAMES), np.array([AG_BOX[k][0] for k in PARAM_NAMES]),
                       np.array([AG_BOX[k][1] for k in PARAM_NAMES]),
                       ("random", "simple", "racketeer", "warlord", "politician", "informer-aware", "balanced"),
                       ("racketeer", "warlord", "politician", "informer-aware", "balanced"))
    raise ValueError(f"unknown game {game!r}: choose nyk or ag")
