"""The runner's adapter for American Gangsters (sim.shared.adapter.GameAdapter).

It produces the same table shapes as New York Kings (games: game_id, n_players, turns,
winner_seat, decided_by, cap_hit, lead_changes, winner_led_from, winner_deficit_mid, margin;
seats: game_id, seat, strategy, slot, fortune, rank, won) plus American Gangsters columns: how
the game ended (`ended_by`), the informer, the FBI track, cards won, shoot-outs, boss deaths, and
per seat the profile, renown, titles, bags and every mechanic counter (docs/results-schema.md).
A seat's `fortune` is the score it is ranked by: renown with the titles' provisional points.
Imports stay light here (the runner's registry imports this module): the engine loads when a
plan is made or played.
"""

from sim.shared.adapter import LineupAdapter

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


class Ag(LineupAdapter):
    name = "ag"
    title = "American Gangsters"
    categorical = ("decided_by", "ended_by")

    def entry_points(self):
        from sim.ag import game

        return game

    def games_of(self, lineup):
        """A lineup with a searching seat plays through the forward model (sim.search.ag)."""
        if lineup.search is not None:
            from sim.search.ag import play_many

            return play_many
        return super().games_of(lineup)

    def batch(self):
        from sim.ag import batch

        return batch

    def categories(self, column: str) -> tuple[str, ...]:
        from sim.ag import state

        return {"decided_by": state.DECIDED, "ended_by": state.ENDED}[column]

    def dtype(self, column: str) -> str:
        return ag_dtype(column)

    def describe_lineup(self, lineup) -> dict:
        from strategies.ag.policy import PARAM_NAMES, POLICY_KINDS

        return {"policies": [POLICY_KINDS[k] for k in lineup.kinds], "parameter_names": list(PARAM_NAMES)}


ADAPTER = Ag()
