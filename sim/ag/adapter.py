"""The runner's adapter for American Gangsters (sim.runner.games.GameAdapter).

It produces the same table shapes as New York Kings (games: game_id, n_players, turns,
winner_seat, decided_by, cap_hit, lead_changes, winner_led_from, winner_deficit_mid, margin;
seats: game_id, seat, strategy, slot, fortune, rank, won) plus American Gangsters columns: how
the game ended (`ended_by`), the informer, the FBI track, cards won, shoot-outs, boss deaths, and
per seat the profile, renown, titles, bags and every mechanic counter (docs/results-schema.md).
A seat's `fortune` is the score it is ranked by: renown with the titles' provisional points.
Imports stay light here (sim.runner.games imports this module): the engine and the runner's
helpers load when a plan is made or played.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from sim.seating import mode as seating_mode


@dataclass
class AgPlan:
    players: int
    names: tuple[str, ...]        # strategy of each lineup slot (seat 0..n-1 before rotation)
    rotate: str                   # the seating mode (sim.seating)
    fingerprint: str
    ruleset_state: dict = field(repr=False)


_CACHE: dict = {}  # per process: (fingerprint, names, rotate) -> (ruleset, lineup)

_BOOL = {"won", "cap_hit", "informer", "informer_won"}
_INT8 = {"n_players", "winner_seat", "seat", "slot", "rank", "informer_seat", "fbi", "fbi_peak",
         "barons", "caids", "cards_won"}
_INT32 = {"game_id", "fortune", "margin", "winner_deficit_mid", "illegal_decisions"}


def ag_dtype(name: str) -> str:
    """Fixed dtypes per column: flags bool; seats, ranks, tracks and titles int8; money-like and
    shared result columns int32 (as New York Kings'); every count int16."""
    if name in _BOOL:
        return "bool"
    if name in _INT8:
        return "int8"
    if name in _INT32:
        return "int32"
    return "int16"


class Ag:
    name = "ag"
    title = "American Gangsters"

    def load_ruleset(self, path=None, overrides=None):
        from sim.rules import Ruleset

        return Ruleset.load(path, overrides, game="ag")

    def plan(self, ruleset, players: int, strategies, rotate: bool) -> AgPlan:
        """Check the ruleset, players and strategies (ValueError with a one-line reason)."""
        from sim.ag.game import Lineup, check_players
        from sim.runner.games import freeze_ruleset

        if ruleset.game != "ag":
            raise ValueError(f"the ruleset is New York Kings' ({ruleset.game}), not American Gangsters'")
        check_players(ruleset, players)
        lineup = Lineup.of(tuple(strategies or ()), players, rotate=rotate)
        plan = AgPlan(players, tuple(lineup.names), seating_mode(rotate), ruleset.fingerprint, freeze_ruleset(ruleset))
        _CACHE[(plan.fingerprint, plan.names, plan.rotate)] = (ruleset, lineup)
        return plan

    def _setup(self, plan: AgPlan):
        key = (plan.fingerprint, plan.names, plan.rotate)
        if key not in _CACHE:
            from sim.ag.game import Lineup
            from sim.rules import Ruleset
            from sim.runner.games import thaw_ruleset

            rs = thaw_ruleset(Ruleset, plan.ruleset_state)
            if rs.fingerprint != plan.fingerprint:
                raise RuntimeError("the ruleset changed on its way to a worker "
                                   f"({rs.fingerprint[:12]} != {plan.fingerprint[:12]})")
            _CACHE[key] = (rs, Lineup.of(plan.names, plan.players, rotate=plan.rotate))
        return _CACHE[key]

    def describe(self, plan: AgPlan) -> dict:
        from sim.ag.policy import PARAM_NAMES, POLICY_KINDS

        _, lineup = self._setup(plan)
        return {
            "names": list(plan.names),
            "categories": self.strategy_categories(plan),
            "policies": [POLICY_KINDS[k] for k in lineup.kinds],
            "parameter_names": list(PARAM_NAMES),
            "parameters": [[float(x) for x in row] for row in lineup.params],
            "seatings": lineup.seatings.tolist(),
        }

    @staticmethod
    def strategy_categories(plan: AgPlan) -> list[str]:
        return list(dict.fromkeys(plan.names))

    def warm(self, plan: AgPlan) -> None:
        """Play two games here, so the compiled engine is in the cache before workers start."""
        self.play(plan, 0, 0, 2, False)

    def play(self, plan: AgPlan, seed: int, first_id: int, n: int,
             record_turns: bool) -> dict[str, pd.DataFrame]:
        from sim.ag import batch, state
        from sim.ag.game import play_many
        from sim.runner.games import compact

        rs, lineup = self._setup(plan)
        games, seats, turns = play_many(seed, n, plan.players, lineup, rs, first_id=first_id,
                                        record_turns=record_turns)
        players = plan.players
        ids = np.arange(first_id, first_id + n, dtype=np.int64)
        categorical = {"decided_by": state.DECIDED, "ended_by": state.ENDED}

        g = {"game_id": compact("game_id", ids, "int32")}
        for j, col in enumerate(batch.GAME_COLUMNS):
            if col in categorical:
                g[col] = pd.Categorical.from_codes(games[:, j], categories=list(categorical[col]))
            else:
                g[col] = compact(col, games[:, j], ag_dtype(col))
        tables = {"games": pd.DataFrame(g)}

        flat = seats.reshape(n * players, len(batch.SEAT_COLUMNS))
        cats = self.strategy_categories(plan)
        slot_code = np.array([cats.index(name) for name in plan.names], dtype=np.int64)
        slots = flat[:, batch.S_STRATEGY]
        s = {
            "game_id": compact("game_id", np.repeat(ids, players), "int32"),
            "seat": np.tile(np.arange(players, dtype=np.int8), n),
            "strategy": pd.Categorical.from_codes(slot_code[slots], categories=cats),
            "slot": compact("slot", slots, "int8"),
        }
        for j, col in enumerate(batch.SEAT_COLUMNS):
            if col != "strategy":
                s[col] = compact(col, flat[:, j], ag_dtype(col))
        tables["seats"] = pd.DataFrame(s)

        if record_turns:
            played = games[:, batch.G_TURNS]
            keep = np.arange(turns.shape[1])[None, :, None] <= played[:, None, None]
            i, t, p = np.nonzero(np.broadcast_to(keep, turns.shape))
            tables["turns"] = pd.DataFrame({
                "game_id": compact("game_id", ids[i], "int32"),
                "turn": compact("turn", t, "int16"),
                "seat": compact("seat", p, "int8"),
                "fortune": compact("fortune", turns[i, t, p], "int32"),
            })
        return tables
