"""The American Gangsters rules as jitted step functions, one module per chapter of the rules
(listed in `sim.ag.engine`, which plays them turn by turn)."""
