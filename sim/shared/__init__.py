"""What every game shares, in a room below the games and above the rules.

    sim.shared.adapter   the adapter protocol the runner plays a game through, and the one
                         implementation both games use (a lineup of strategies -> tables)
    sim.shared.play      the batch driver of both games' `play_many` and the players check
    sim.shared.narrate   a recorded game's event rows told as sentences, or as JSON dicts
    sim.shared.columns   compact table columns: integers in the smallest type, never wrapped
    sim.shared.frozen    a Ruleset carried across processes (pickled as plain dicts)

Nothing here knows a game: a game's package (`sim/<game>/adapter.py`) gives its names, its
column types and its Python entry points (`sim.<game>.game`).
"""
