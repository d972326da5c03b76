"""The American Gangsters engine: game state as one numpy record (`state`), every rule as jitted step
functions (`engine`), one decision interface (`decisions`) whose policies are in `strategies.ag.policy`,
exact location odds (`odds`), batches of games as integer tables (`batch`), one game in words
(`narrate`), and the runner's adapter (`adapter`)."""


def __getattr__(name):
    """`sim.ag.GAME`, the game's description, loaded on first use: the jitted modules import this
    package, and an edit of the description must not recompile them (sim/_cache.py)."""
    if name == "GAME":
        from sim.ag.description import GAME

        return GAME
    raise AttributeError(f"module 'sim.ag' has no attribute {name!r}")
