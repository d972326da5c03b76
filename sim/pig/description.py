"""Pig as the rooms above the engines see it (sim.shared.game.Game)."""

from sim.shared.game import Game

GAME = Game(
    name="pig", title="Pig", score_unit="pts", first_seat="rolls first",
    plain_decisions=("goal", "score"),   # the goal reached (PIG-5), the highest score at the cap (PIG-6)
    ladder=("random", "hold10", "simple", "optimal"), reference="optimal",
    exploiter="optimal",  # no search player: the exact two-player equilibrium table reads the rungs
    showcase=("optimal", "hold20", "hold25", "hold10"),
    opponents=("random", "hold10", "hold20", "hold25", "optimal"),
    population=("hold10", "hold20", "hold25", "optimal"),
    example=(3, 1, 2, ("optimal", "hold20")),
    doc="The third game, with published answers: Neller & Presser's Pig (sim/rules/pig/rules.md, PIG-*).",
)
