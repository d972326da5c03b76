"""Where the search departs from `distilled` at the steps of a journey (docs/learned.md, "Where the
search's edge over `distilled` lies"): the expert of the distillation (Sequential Halving, 200
playouts by `distilled` cut at the turn's end, the guard at z >= 2) labels every decision of one
seat a game in games of `distilled` against itself; of the step decisions, how often it departs
from `distilled`'s option, and how often it stops (the step's option 0, OP_STOP) where
`distilled` steps on.

    python docs/examples/search-by-kind/step-departures.py 24 11
"""

import sys

from sim.league.distill import label_games
from sim.league.games import knobs
from sim.nyk.decisions import D_STEP
from sim.search.nyk_distill import L_EXPERT, L_KIND, L_OWN

STOP = 0   # a step decision lists stopping first (sim.nyk.chapters.movement)


def step_departures(games: int, seed: int, first_id: int = 5000) -> dict:
    labels = label_games(knobs("nyk").resolve("distilled"), games, seed, first_id=first_id)
    steps = labels.rows[labels.rows[:, L_KIND] == D_STEP]
    departs = steps[:, L_EXPERT] != steps[:, L_OWN]
    stops = departs & (steps[:, L_EXPERT] == STOP)
    return {"games": games, "seed": seed, "decisions": len(labels.rows), "steps": len(steps),
            "departures": int(departs.sum()), "departure_share": round(float(departs.mean()), 3),
            "stops_where_it_steps_on": int(stops.sum())}


if __name__ == "__main__":
    try:
        games, seed = (int(a) for a in sys.argv[1:3])
        if not (games > 0 and seed >= 0 and len(sys.argv) == 3):
            raise ValueError
    except ValueError:
        sys.exit("usage: step-departures.py GAMES SEED (a positive number of games, a seed of 0 or more)")
    print(step_departures(games, seed))
