"""The one decision of Pig (PIG-3): after a roll that is not a 1, roll again or hold. A policy
returns an option index: ROLL (0) or HOLD (1); the engine treats anything else as an illegal
decision (counted) and rolls."""

from sim.shared.codes import codes

(D_ROLL_OR_HOLD,) = codes(1)
DECISIONS = ("roll_or_hold",)
ROLL, HOLD = 0, 1
OPTIONS = ("roll", "hold")
