"""The Pig engine (sim/rules/pig/rules.md, PIG-*): the game state as one numpy record (`state`),
the rules as jitted steps (`engine`), batches of games as integer tables (`batch`), one game in
words (`narrate`), the forward model (`forward`), the exact answers (`exact`) and the runner's
adapter (`adapter`)."""


def __getattr__(name):
    """`sim.pig.GAME`, the game's description, loaded on first use (as sim.ag.GAME: an edit of
    the description must not recompile the jitted modules, sim/_cache.py)."""
    if name == "GAME":
        from sim.pig.description import GAME

        return GAME
    raise AttributeError(f"module 'sim.pig' has no attribute {name!r}")
