"""New York Kings as the rooms above the engines see it (sim.shared.game.Game)."""

from sim.shared.game import RESTRICTIONS, SEARCH, Game

GAME = Game(
    name="nyk", title="New York Kings", capabilities=frozenset({RESTRICTIONS, SEARCH}), score_unit="$",
    first_seat="first in turn 1's bidding",
    ladder=("random", "simple", "balanced", "tuned"), top_rungs=("meta:equilibrium", "distilled", "search-leaf-all"),
    reference="meta:equilibrium", exploiter="search-leaf-all",
    showcase=("runner", "enforcer", "networker", "tuned"),
    opponents=("random", "simple", "runner", "enforcer", "networker", "cautious", "corrupter", "balanced"),
    population=("runner", "enforcer", "networker", "cautious", "corrupter", "balanced", "tuned"),
    metrics=("affranchi_deaths",),
    example=(5, 2, 3, ("balanced", "simple", "enforcer+no-provoke")),  # dice contests, a restricted seat
    doc="The primary game: rulebook ../shared/rules/new-york-kings-rulebook.txt, rules NYK-*.",
)
