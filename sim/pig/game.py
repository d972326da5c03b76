"""Python entry points of the Pig engine: one game told in full, or many summarised.

    play_one(seed=3, players=2)             -> a finished `Played` game (arrays, env, ruleset)
    result(played)                          -> the JSON-able result of one game
    play_many(seed, n_games, players, ...)  -> integer arrays of games, seats and turns
    tables_of(lineup, ruleset)              -> the lineup's policy tables and its knobs pointing at them
"""

import numpy as np

from sim import rng
from sim.pig import batch, engine, state, tables
from sim.pig.decisions import DECISIONS
from sim.pig.env import N_POLICY_PARAMS, make_env
from sim.rules import Ruleset
from sim.shared import play
from sim.shared.play import Played
from strategies.lineup import Lineup as BaseLineup, files_of
from strategies.pig.params import TABLE_SLOT


class Lineup(BaseLineup):
    """The strategies of a Pig study and how they sit (strategies.lineup.Lineup)."""

    game = "pig"
    width = N_POLICY_PARAMS
    table_slot = TABLE_SLOT
    decisions = DECISIONS


def load_default() -> Ruleset:
    return Ruleset.load(game="pig")


def check_players(rs: Ruleset, players: int):
    play.check_players(rs, players, "Pig")


def tables_of(lineup: Lineup, ruleset: Ruleset) -> tuple[np.ndarray, np.ndarray]:
    """(tables, params): the distinct table files of the lineup's strategies stacked (checked
    against the ruleset, sim.pig.tables.read), and the lineup's knobs, each table-holding entry's
    `table_slot` pointing at its own (strategies.lineup.Lineup sets it)."""
    files = files_of(lineup.tables)
    params = lineup.params.copy()
    if not files:
        return engine.no_tables(), params
    return np.ascontiguousarray(np.stack([tables.read(f, ruleset) for f in files])), params


def play_one(seed: int, players: int = 2, strategies=None, ruleset: Ruleset | None = None,
             game_id: int = 0, record: bool = True, check: bool = False) -> Played:
    """Play game `game_id` of run `seed`, recording every event (the same engine as batches)."""
    rs = ruleset or load_default()
    check_players(rs, players)
    lineup = Lineup.of(strategies, players)
    held, params = tables_of(lineup, rs)
    rows = lineup.seatings_for(seed, game_id, 1)
    seating = rows[game_id % len(rows)]
    env = make_env(rs, *seated(lineup, params, seating))
    game = state.new_game()
    code = engine.play(game, env, held, players, rng.run_key(seed), game_id, int(record), int(check))
    return Played(seed, game_id, rs, lineup, lineup.slots(seating), env, game, int(code), held)


def seated(lineup: Lineup, params: np.ndarray, seating: np.ndarray):
    """Each seat's (kind, knobs) under `seating`, padded to the engine's seats."""
    kinds = np.zeros(state.MAX_SEATS, dtype=np.int64)
    knobs = np.zeros((state.MAX_SEATS, N_POLICY_PARAMS), dtype=np.float64)
    kinds[: len(seating)], knobs[: len(seating)] = lineup.kinds[seating], params[seating]
    return kinds, knobs


def result(played: Played) -> dict:
    """The result of one game: who won and how, each seat's score, rank and counters."""
    game = played.game
    g, pl = game.g, game.pl
    n = int(g[state.N_PLAYERS])
    seats = [{"seat": p, "strategy": played.lineup.names[played.seating[p]], "score": int(pl[p, state.SCORE]),
              "rank": int(pl[p, state.RANK]),
              "counters": {name: int(pl[p, state.CTR0 + i]) for i, name in enumerate(state.COUNTERS)}}
             for p in range(n)]
    return {
        "game": "pig", "seed": played.seed, "game_id": played.game_id, "players": n,
        "turns": int(g[state.TURNS_PLAYED]), "winner": int(g[state.WINNER]),
        "ended_by": state.ENDED[g[state.ENDED_BY]], "decided_by": state.DECIDED[g[state.DECIDED_BY]],
        "cap_hit": bool(g[state.CAP_HIT]), "rolls": int(g[state.ROLLS]),
        "ruleset_fingerprint": played.ruleset.fingerprint, "seats": seats,
        "scores": game.fortune[: int(g[state.TURNS_PLAYED]) + 1, :n].tolist(),
    }


def play_many(seed: int, n_games: int, players: int, lineup: Lineup, ruleset: Ruleset,
              first_id: int = 0, check: bool = False, record_turns: bool = False):
    """Games first_id .. first_id + n_games - 1 of run `seed`: (games, seats, turns) arrays."""
    check_players(ruleset, players)
    held, params = tables_of(lineup, ruleset)
    env = make_env(ruleset, np.zeros(state.MAX_SEATS, np.int64), np.zeros((state.MAX_SEATS, N_POLICY_PARAMS)))
    return play.play_many(batch, state, env, lineup, (params, held), seed, n_games, players, first_id, check,
                          record_turns)
