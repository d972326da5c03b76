"""The runner's adapter for New York Kings (sim.shared.adapter.GameAdapter).

Tables (docs/results-schema.md): games (game_id, n_players, turns, winner_seat, decided_by,
cap_hit, end_card_pos, lead changes, margin, police cars...) and seats (game_id, seat, strategy,
slot, fortune, rank, won, alive, henchmen and every mechanic counter). Imports stay light here
(the runner's registry imports this module): the engine loads when a plan is made or played.
"""

from sim.shared.adapter import LineupAdapter

# money in dollars needs 32 bits; counts of things fit 16; seats, ranks and flags 8 or 1
_INT8 = {"n_players", "winner_seat", "seat", "slot", "rank", "henchmen", "police_cars_end"}
_BOOL = {"won", "alive", "cap_hit"}
_INT32 = {"game_id", "fortune", "margin", "winner_deficit_mid", "henchman_values",
          "illegal_decisions"}
_INT16 = {"turns", "end_card_pos", "lead_changes", "winner_led_from", "bank_failures",
          "invariant", "turn"}


def nyk_dtype(name: str, counters=()) -> str:
    if name in _BOOL:
        return "bool"
    if name in _INT8:
        return "int8"
    if name in _INT32 or name.endswith(("_income", "_spent", "_paid")) or name.startswith("recruit_offered_"):
        return "int32"
    if name in _INT16 or name in counters:
        return "int16"
    return "int32"  # a column this table does not know yet: wide enough for money


class Nyk(LineupAdapter):
    name = "nyk"
    title = "New York Kings"

    def entry_points(self):
        from sim.nyk import game

        return game

    def games_of(self, lineup):
        """A lineup with a searching seat plays through the forward model (sim.search.nyk)."""
        if lineup.search is not None:
            from sim.search.nyk import play_many

            return play_many
        return super().games_of(lineup)

    def batch(self):
        from sim.nyk import batch

        return batch

    def categories(self, column: str) -> tuple[str, ...]:
        from sim.nyk import state

        return state.DECIDED

    def dtype(self, column: str) -> str:
        from sim.nyk import state

        return nyk_dtype(column, state.COUNTERS)

    def describe_lineup(self, lineup) -> dict:
        return {"restrictions": [int(bits) for bits in lineup.restrict]}


ADAPTER = Nyk()
