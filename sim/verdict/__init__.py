"""A verdict about the game, not a lineup: every game-level balance measure across the skill
ladder (mirrors: every seat the same rung) and player counts, read by stated rules into
"holds" (over the rungs named), "changes with skill", "only at weak play" or "rungs differ"
(sim.verdict.rules; docs/reports.md), with the exploitability of the equilibrium rung by the
search rung and the meta-game of the game's shipped population (sim.verdict.metagame: which
styles survive at this ruleset). Pure pandas over the runner's tables and sim.meta.

    from sim.verdict import study, write
    v = study("nyk", players=(3, 4), rungs=("random", "simple", "tuned"), budget=60, seed=0)
    v.verdicts, v.measures, v.exploit, v.metagame
"""

from sim.verdict.compare import compare, summary
from sim.verdict.output import read, write
from sim.verdict.rules import CHANGES, CLASSES, DIFFER, HOLDS, UNDETERMINED, WEAK, classify
from sim.verdict.study import Verdict, VerdictError, rungs_of, study

__all__ = ["study", "write", "read", "compare", "summary", "classify", "Verdict", "VerdictError",
           "rungs_of", "CLASSES", "HOLDS", "CHANGES", "WEAK", "DIFFER", "UNDETERMINED"]
