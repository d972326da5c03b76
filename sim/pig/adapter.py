"""The runner's adapter for Pig (sim.shared.adapter.GameAdapter).

The same table shapes as the other games (games: game_id, n_players, turns, winner_seat,
decided_by, cap_hit, lead_changes, winner_led_from, winner_deficit_mid, margin; seats: game_id,
seat, strategy, slot, fortune, rank, won) plus Pig's: how the game ended (`ended_by`: the goal or
the cap), the dice rolled, and per seat its turns, rolls, holds, busts, points banked and lost
and its best turn. A seat's `fortune` is its score; a "turn" of the tables is a round.
"""

from sim.shared.adapter import LineupAdapter

_BOOL = {"won", "cap_hit"}
_INT8 = {"n_players", "winner_seat", "seat", "slot", "rank"}


def pig_dtype(name: str) -> str:
    """Flags bool, seats and ranks int8, every other count int32."""
    if name in _BOOL:
        return "bool"
    if name in _INT8:
        return "int8"
    return "int32"


class Pig(LineupAdapter):
    name = "pig"
    title = "Pig"
    categorical = ("decided_by", "ended_by")

    def entry_points(self):
        from sim.pig import game

        return game

    def batch(self):
        from sim.pig import batch

        return batch

    def categories(self, column: str) -> tuple[str, ...]:
        from sim.pig import state

        return {"decided_by": state.DECIDED, "ended_by": state.ENDED}[column]

    def dtype(self, column: str) -> str:
        return pig_dtype(column)

    def describe_lineup(self, lineup) -> dict:
        from strategies.pig.params import FAMILIES, NAMES

        return {"policies": [FAMILIES[k] for k in lineup.kinds], "parameter_names": list(NAMES),
                "tables": [dict(t) for t in lineup.tables]}


ADAPTER = Pig()
