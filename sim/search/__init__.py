"""Players that search: drivers of a game's forward model (sim.nyk.forward), above the engines."""
