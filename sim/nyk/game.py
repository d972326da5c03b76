"""Python entry points of the New York Kings engine: one game told in full, or many summarised.

    play_one(seed=7, players=4)            -> a finished `Played` game (arrays, env, ruleset)
    result(played)                         -> the JSON-able result of one game
    play_many(seed, n_games, players, ...) -> integer arrays of games, seats and turns
"""

import numpy as np

from sim import rng
from sim.nyk import batch, engine, state
from sim.nyk.decisions import DECISIONS
from sim.nyk.env import LEARNED_SLOT, N_POLICY_PARAMS, make_env
from sim.rules import Ruleset
from sim.shared import play
from sim.shared.play import Played
from strategies.lineup import Lineup as BaseLineup
from strategies.nyk.learned import weights_of


class Lineup(BaseLineup):
    """The strategies of a New York Kings study and how they sit (strategies.lineup.Lineup);
    a `search` family player's knobs in `search` (sim.search.nyk)."""

    game = "nyk"
    width = N_POLICY_PARAMS
    table_slot = LEARNED_SLOT
    decisions = DECISIONS


def play_one(seed: int, players: int = 4, strategies=None, ruleset: Ruleset | None = None,
             game_id: int = 0, record: bool = True, check: bool = False) -> Played:
    """Play game `game_id` of run `seed`, recording every event (the same engine as batches)."""
    rs = ruleset or Ruleset.load()
    check_players(rs, players)
    lineup = Lineup.of(strategies, players)
    rows = lineup.seatings_for(seed, game_id, 1)
    seating = rows[game_id % len(rows)]
    env = with_tables(make_env(rs, *lineup.seated(seating, state.MAX_SEATS)), lineup)
    game = state.new_game()
    code = engine.play(game, env, players, rng.run_key(seed), game_id, int(record), int(check))
    return Played(seed, game_id, rs, lineup, lineup.slots(seating), env, game, int(code))


def with_tables(env, lineup: Lineup):
    """`env` holding the data files the lineup's presets carry (the learned player's weights):
    every path that builds an env for a lineup (a batch, one game, a replay) goes through here."""
    env.learned[:] = weights_of(lineup.tables)
    return env


def check_players(rs: Ruleset, players: int):
    play.check_players(rs, players, "New York Kings")


def result(played: Played) -> dict:
    """The result of one game: who won and how, and each seat's fortune and counters."""
    g, pl = played.game.g, played.game.pl
    n = int(g[state.N_PLAYERS])
    seats = []
    for p in range(n):
        seats.append({
            "seat": p,
            "strategy": played.lineup.names[played.seating[p]],
            "fortune": int(pl[p, state.MONEY]),
            "rank": int(pl[p, state.RANK]),
            "alive": bool(pl[p, state.ALIVE]),
            "henchmen": int(state.count_henchmen(played.game, p)),
            "counters": {name: int(pl[p, state.CTR0 + i]) for i, name in enumerate(state.COUNTERS)},
        })
    return {
        "seed": played.seed, "game_id": played.game_id, "players": n,
        "turns": int(g[state.TURNS_PLAYED]), "winner": int(g[state.WINNER]),
        "decided_by": state.DECIDED[g[state.DECIDED_BY]], "cap_hit": bool(g[state.CAP_HIT]),
        "end_card_position": int(g[state.END_CARD_POS]),
        "ruleset_fingerprint": played.ruleset.fingerprint, "seats": seats,
        "fortunes": played.game.fortune[: int(g[state.TURNS_PLAYED]) + 1, :n].tolist(),
    }


def play_many(seed: int, n_games: int, players: int, lineup: Lineup, ruleset: Ruleset,
              first_id: int = 0, check: bool = False, record_turns: bool = False):
    """Games first_id .. first_id + n_games - 1 of run `seed`: (games, seats, turns) arrays."""
    check_players(ruleset, players)
    env = with_tables(make_env(ruleset, np.zeros(state.MAX_SEATS, np.int64),
                               np.zeros((state.MAX_SEATS, N_POLICY_PARAMS))), lineup)
    return play.play_many(batch, state, env, lineup, (lineup.params, lineup.restrict), seed, n_games, players,
                          first_id, check, record_turns)
