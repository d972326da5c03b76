"""The New York Kings rules as jitted step functions, one module per chapter of the rulebook
(listed in `sim.nyk.engine`, which plays them turn by turn)."""
