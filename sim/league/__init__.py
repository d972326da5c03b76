"""Tournaments between strategies: head-to-head matches, the skill ladder, and the search for a
strong player (`tuned`).

This room sits above the engines and below the CLI. Matches play games directly through the
engine (`sim.nyk.game.play_many`, `sim.ag.game.play_many`: the per-game adapter of
`sim.league.games`) in a pool of worker processes: every block of games depends on
(seed, game ids, strategies, rules) alone, so results do not depend on the number of workers.
"""

from sim.league.ladder import ladder
from sim.league.match import Match, head_to_head, match
from sim.league.mechanics import mechanic_values
from sim.league.tune import TuneResult, tune

__all__ = ["Match", "match", "head_to_head", "ladder", "mechanic_values", "tune", "TuneResult"]
