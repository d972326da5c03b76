"""Python entry points of the New York Kings engine: one game told in full, or many summarised.

    play_one(seed=7, players=4)            -> a finished `Played` game (arrays, env, ruleset)
    result(played)                         -> the JSON-able result of one game
    play_many(seed, n_games, players, ...) -> integer arrays of games, seats and turns
"""

from dataclasses import dataclass, field

import numpy as np

from sim import rng, seating
from sim.nyk import batch, engine, state
import strategies
from strategies import mixture
from sim.nyk.env import N_POLICY_PARAMS, make_env
from sim.rules import Ruleset



@dataclass(frozen=True)
class Lineup:
    """The strategies of a study and how they sit: `seatings[r, seat]` indexes `names`; each
    strategy's policy family (`kinds`), knobs (`params`) and restriction bits (`restrict`)."""

    names: tuple[str, ...]
    kinds: np.ndarray
    params: np.ndarray
    restrict: np.ndarray
    seatings: np.ndarray
    pools: dict = field(default_factory=dict)   # mixture slots (strategies.mixture.expand)
    owner: np.ndarray | None = None
    search: np.ndarray | None = None  # per strategy, the search knobs (sim.search.nyk), if any searches

    def seatings_for(self, seed: int, first_id: int, n: int) -> np.ndarray:
        """The seatings the engine indexes for these games (each game's own draw of mixtures)."""
        if not self.pools:
            return self.seatings
        return mixture.seatings_for(self.seatings, self.pools, seed, first_id, n)

    @classmethod
    def of(cls, specs, players: int, rotate: bool = True) -> "Lineup":
        """`specs`: one strategy spec per seat, or one for every seat (see `strategies`)."""
        names = tuple(specs) if specs else ("simple",) * players
        if len(names) == 1:
            names = names * players
        if len(names) != players:
            raise ValueError(f"{len(names)} strategies for {players} players: give one per seat "
                             f"or a single one for every seat")
        return cls.of_strategies([mixture.load(n, "nyk") if mixture.is_mixture(n) else strategies.load(n, "nyk")
                                  for n in names], players, rotate)

    @classmethod
    def of_strategies(cls, chosen, players: int, rotate: bool = True) -> "Lineup":
        """The same from loaded `strategies.Strategy` objects (e.g. a candidate being tuned)."""
        if len(chosen) != players:
            raise ValueError(f"{len(chosen)} strategies for {players} players")
        names = tuple(s.name for s in chosen)
        pool, pools, owner = mixture.expand(chosen, lambda spec: strategies.load(spec, "nyk"))
        kinds = np.array([s.kind("nyk") for s in pool], dtype=np.int64)
        params = np.zeros((len(pool), N_POLICY_PARAMS), dtype=np.float64)
        for i, s in enumerate(pool):
            params[i, : len(s.params)] = s.params
        restrict = np.array([s.restrict_bits("nyk") for s in pool], dtype=np.int64)
        seatings = seating.table(players, rotate)  # rotate: True, False or a mode of sim.seating
        search = None
        if any(s.family == strategies.SEARCH for s in pool):
            search = search_knobs(pool)
        return cls(names, kinds, params, restrict, seatings, pools, owner, search)


# each strategy's search knobs as the jitted search player reads them (sim.search.nyk)
(SK_ON, SK_ITERATIONS, SK_EXPLORATION, SK_KINDS, SK_ACTUAL, SK_RANK, SK_ROOT, SK_GUARD) = range(8)
ROOT_HALVING = 1  # SK_ROOT: 0 the IS-MCTS tree (UCT), 1 Sequential Halving at the root


def search_knobs(pool) -> np.ndarray:
    """One row per strategy: whether it searches, then its knobs (strategies.SEARCH_KNOBS)."""
    from sim.nyk.decisions import DECISIONS

    rows = np.zeros((len(pool), 8), dtype=np.float64)
    for i, s in enumerate(pool):
        if s.family == strategies.SEARCH:
            k = s.search
            rows[i] = (1, k["iterations"], k["exploration"], sum(1 << DECISIONS.index(name) for name in k["kinds"]),
                       k["opponents"] == "actual", k["reward"] == "rank", k["root"] == "halving", k["guard"])
    return rows


@dataclass
class Played:
    seed: int
    game_id: int
    ruleset: Ruleset
    lineup: Lineup
    seating: np.ndarray
    env: np.record
    game: state.Game
    invariant: int


def play_one(seed: int, players: int = 4, strategies=None, ruleset: Ruleset | None = None,
             game_id: int = 0, record: bool = True, check: bool = False) -> Played:
    """Play game `game_id` of run `seed`, recording every event (the same engine as batches)."""
    rs = ruleset or Ruleset.load()
    check_players(rs, players)
    lineup = Lineup.of(strategies, players)
    rows = lineup.seatings_for(seed, game_id, 1)
    seating = rows[game_id % len(rows)]
    kinds = np.zeros(state.MAX_SEATS, dtype=np.int64)
    params = np.zeros((state.MAX_SEATS, N_POLICY_PARAMS), dtype=np.float64)
    restrict = np.zeros(state.MAX_SEATS, dtype=np.int64)
    kinds[:players] = lineup.kinds[seating]
    params[:players] = lineup.params[seating]
    restrict[:players] = lineup.restrict[seating]
    env = make_env(rs, kinds, params, restrict)
    game = state.new_game()
    code = engine.play(game, env, players, rng.run_key(seed), game_id, int(record), int(check))
    if lineup.owner is not None:  # a seat's strategy is its lineup slot, whatever a mixture drew
        seating = lineup.owner[seating]
    return Played(seed, game_id, rs, lineup, seating, env, game, int(code))


def check_players(rs: Ruleset, players: int):
    lo, hi = rs["players.min"], rs["players.max"]
    if not lo <= players <= hi:
        raise ValueError(f"{players} players: New York Kings is for {lo} to {hi}")


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
    env = make_env(ruleset, np.zeros(state.MAX_SEATS, np.int64),
                   np.zeros((state.MAX_SEATS, N_POLICY_PARAMS)))
    games = np.zeros((n_games, len(batch.GAME_COLUMNS)), dtype=np.int64)
    seats = np.zeros((n_games, players, len(batch.SEAT_COLUMNS)), dtype=np.int64)
    turns = np.zeros((n_games if record_turns else 0, state.MAX_TURNS + 1, players), dtype=np.int64)
    game_arr = np.zeros(1, state.GAME_DTYPE).view(np.recarray)  # attribute access without JIT too
    env_arr = np.array([env]).view(np.recarray)
    batch.play_games(game_arr, env_arr, lineup.kinds, lineup.seatings_for(seed, first_id, n_games),
                     lineup.params, lineup.restrict, players, rng.run_key(seed), first_id, n_games,
                     int(check), games, seats, turns, record_turns)
    if lineup.owner is not None:  # a seat's strategy is its lineup slot, whatever a mixture drew
        column = seats[:, :, batch.SEAT_COLUMNS.index("strategy")]
        column[:] = lineup.owner[column]
    return games, seats, turns
