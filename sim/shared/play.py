"""The driver every game's entry points share (`sim.<game>.game`): check the table, play a block
of games in one jitted call into integer tables, and label each seat with its lineup slot; one
game told in full is a `Played`.

A game gives its batch module (GAME_COLUMNS, SEAT_COLUMNS, `play_games`), its state module
(GAME_DTYPE, MAX_TURNS), an env record for the ruleset and the lineup's policy arrays in the order
its `play_games` takes them after the seatings.
"""

from dataclasses import dataclass

import numpy as np

from sim import rng


@dataclass
class Played:
    """One finished game of `play_one`: its seed and id, rules, lineup and seating, the env and
    game records, the invariant check's code, and the policy tables a lineup holds (Pig's optimal
    player), if any."""
    seed: int
    game_id: int
    ruleset: object
    lineup: object
    seating: np.ndarray
    env: np.record
    game: np.record
    invariant: int
    tables: np.ndarray | None = None


def check_players(ruleset, players: int, title: str) -> None:
    """ValueError (one line) unless the ruleset's game is for this many players."""
    lo, hi = ruleset["players.min"], ruleset["players.max"]
    if not lo <= players <= hi:
        raise ValueError(f"{players} players: {title} is for {lo} to {hi}")


def play_many(batch, state, env, lineup, policy: tuple, seed: int, n_games: int, players: int,
              first_id: int = 0, check: bool = False, record_turns: bool = False):
    """Games first_id .. first_id + n_games - 1 of run `seed`: (games, seats, turns) arrays."""
    env_arr = np.array([env]).view(np.recarray)
    return play_on(batch, state, env_arr, lineup, policy, seed, n_games, players, first_id, check, record_turns)


def play_on(batch, state, env_arr, lineup, policy: tuple, seed: int, n_games: int, players: int,
            first_id: int = 0, check: bool = False, record_turns: bool = False):
    """play_many on the env record `env_arr` (an array of one) itself, not a copy: what the games
    leave in it (its tables' counters) can be read after."""
    games, seats, turns = empty_tables(batch, state, n_games, players, record_turns)
    game_arr = np.zeros(1, state.GAME_DTYPE).view(np.recarray)  # attribute access without JIT too
    batch.play_games(game_arr, env_arr, lineup.kinds, lineup.seatings_for(seed, first_id, n_games), *policy,
                     players, rng.run_key(seed), first_id, n_games, int(check), games, seats, turns, record_turns)
    label_slots(batch, lineup, seats)
    return games, seats, turns


def empty_tables(batch, state, n_games: int, players: int, record_turns: bool):
    """The (games, seats, turns) integer tables a block of games is played into."""
    games = np.zeros((n_games, len(batch.GAME_COLUMNS)), dtype=np.int64)
    seats = np.zeros((n_games, players, len(batch.SEAT_COLUMNS)), dtype=np.int64)
    turns = np.zeros((n_games if record_turns else 0, state.MAX_TURNS + 1, players), dtype=np.int64)
    return games, seats, turns


def label_slots(batch, lineup, seats) -> None:
    """A seat's strategy is its lineup slot, whatever a mixture drew."""
    column = seats[:, :, batch.SEAT_COLUMNS.index("strategy")]
    column[:] = lineup.slots(column)
