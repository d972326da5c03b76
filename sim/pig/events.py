"""Event codes of the Pig game log. The engine writes `[turn, code, a, b, c, d, e, f]` rows when a
game is recorded; `sim.pig.narrate` turns them into words."""

# EV_SETUP a: players, b: goal. EV_TURN a: round, b: seat to move. EV_ROLL a: seat, b: face,
# c: turn total after it. EV_BUST a: seat, b: turn total lost. EV_HOLD a: seat, b: banked, c: score.
# EV_WIN a: seat, b: score. EV_CAP a: round. EV_RANK a: seat, b: rank, c: score.
EV_SETUP, EV_TURN, EV_ROLL, EV_BUST, EV_HOLD, EV_WIN, EV_CAP, EV_RANK = range(8)
