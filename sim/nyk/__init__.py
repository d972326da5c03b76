"""The New York Kings engine: game state as numpy records (`state`), every rule as jitted chapters
(`chapters/`, `engine`), one decision interface (`decisions`) whose policies are in
`strategies.nyk.policy`, the dice, hands and exact odds of its contests (`hands`, `dice`, `odds`,
`fights`), the compiled ruleset (`compiled`), batches of games as integer tables (`batch`), one game
in words (`narrate`), the forward model (`forward`) and the runner's adapter (`adapter`)."""


def __getattr__(name):
    """`sim.nyk.GAME`, the game's description, loaded on first use: the jitted modules import this
    package, and an edit of the description must not recompile them (sim/_cache.py)."""
    if name == "GAME":
        from sim.nyk.description import GAME

        return GAME
    raise AttributeError(f"module 'sim.nyk' has no attribute {name!r}")
