"""The knobs of the Pig players (strategies.pig.policy).

Three families: `random` (roll or hold at even odds), `hold` (hold once the turn total reaches
`hold_at`, or once holding wins: Neller & Presser's "hold at N"; `hold_at` 20 is `simple`) and
`table` (a policy table held by the preset, strategies.load: `optimal` is the table that
maximises the probability of winning, computed by sim.pig.exact). Every family but `random`
holds as soon as holding reaches the goal (PIG-5).
"""

from strategies.knobs import Param

PARAMS = (
    Param("hold_at", 1.0, 200.0, 20.0, "Family hold: hold once the turn total reaches this (PIG-4)."),
    Param("table_slot", 0.0, 15.0, 0.0,
          "Family table: which of the lineup's tables the seat reads (set by the engine's driver, "
          "sim.pig.game; a preset leaves it alone).", searched=False),
)

NAMES = tuple(p.name for p in PARAMS)
INDEX = {name: i for i, name in enumerate(NAMES)}
DEFAULTS = tuple(p.default for p in PARAMS)
HOLD_AT, TABLE_SLOT = range(len(PARAMS))

RESTRICTIONS: dict[str, int] = {}   # Pig has one decision: no mechanic to take away

FAMILIES = ("random", "hold", "table")  # env.kinds values, in this order (strategies.pig.policy)
K_RANDOM, K_HOLD, K_TABLE = range(len(FAMILIES))
DEFAULT_FAMILY = "hold"
TABLE_FAMILIES = ("table",)   # families that play from a preset's [table] file (strategies.load)
