"""American Gangsters as the rooms above the engines see it (sim.shared.game.Game)."""

from sim.shared.game import SEARCH, Game

GAME = Game(
    name="ag", title="American Gangsters", score_unit="pts", capabilities=frozenset({SEARCH}),
    plain_decisions=("informer", "parrain", "renown"),   # AG-G1, G2; money and shared are the tie-breaks (AG-E1)
    ladder=("random", "simple", "balanced", "warlord"), top_rungs=("meta:equilibrium",),
    reference="warlord", exploiter="search-200",
    showcase=("racketeer", "warlord", "politician", "balanced"),
    opponents=("random", "simple", "racketeer", "warlord", "politician", "informer-aware", "balanced"),
    population=("racketeer", "warlord", "politician", "informer-aware", "balanced"),
    example=(3, 1, 3, ("racketeer", "warlord", "balanced")),
    doc="The second game: the French rules, put back in order in american-gangsters-rules.md (AG-*).",
)
