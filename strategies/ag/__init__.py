"""American Gangsters players: the jitted policies (`policy`: random, parametric, script) and the
presets as TOML (`*.toml`, read by sim.ag.strategies)."""
