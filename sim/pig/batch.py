"""Many Pig games in one jitted call, summarised as integer tables (as sim.ag.batch):

- `games[i, G_*]`: one row per game (rounds, winner, how it ended, lead changes, margin, ...);
- `seats[i, s, S_*]`: one row per game and seat (score, rank, every counter);
- `turns[i, t, s]`: each seat's score at the end of each round (only if asked for).

A game depends on (run key, game id) alone, so any split into batches gives the same games.
"""

from numba import njit

from sim.pig.engine import play
from sim.pig.env import seat_lineup
from sim.pig.state import (
    CAP_HIT, COUNTERS, CTR0, DECIDED_BY, ENDED_BY, ILLEGAL, N_PLAYERS, RANK, ROLLS, SCORE,
    TURNS_PLAYED, WINNER, clear_game,
)

GAME_COLUMNS = ("n_players", "turns", "winner_seat", "decided_by", "cap_hit", "lead_changes",
                "winner_led_from", "winner_deficit_mid", "margin", "ended_by", "rolls",
                "illegal_decisions", "invariant")
(G_N_PLAYERS, G_TURNS, G_WINNER, G_DECIDED_BY, G_CAP_HIT, G_LEAD_CHANGES, G_WINNER_LED_FROM,
 G_WINNER_DEFICIT_MID, G_MARGIN, G_ENDED_BY, G_ROLLS, G_ILLEGAL, G_INVARIANT) = range(len(GAME_COLUMNS))

SEAT_COLUMNS = ("strategy", "fortune", "rank", "won") + COUNTERS
S_STRATEGY, S_FORTUNE, S_RANK, S_WON = range(4)
S_COUNTERS = 4


@njit(cache=True)
def round_leader(row, n, previous):
    """The seat with the highest score after a round; on a tie the previous leader keeps the lead."""
    best = 0
    for p in range(1, n):
        if row[p] > row[best]:
            best = p
    return previous if previous >= 0 and row[previous] == row[best] else best


@njit(cache=True)
def summarise_game(game, out):
    """Rounds, winner, lead changes round by round, when the winner led for good, its deficit at
    mid-game and its margin over the runner-up."""
    g = game.g
    n, turns, winner = g[N_PLAYERS], g[TURNS_PLAYED], g[WINNER]
    out[G_N_PLAYERS], out[G_TURNS], out[G_WINNER] = n, turns, winner
    out[G_DECIDED_BY], out[G_CAP_HIT], out[G_ENDED_BY] = g[DECIDED_BY], g[CAP_HIT], g[ENDED_BY]
    out[G_ROLLS], out[G_ILLEGAL] = g[ROLLS], g[ILLEGAL]
    changes, lead, led_from = 0, -1, 1
    for t in range(1, turns + 1):
        now = round_leader(game.fortune[t], n, lead)
        changes += lead >= 0 and now != lead
        if now != winner:
            led_from = t + 1
        lead = now
    out[G_LEAD_CHANGES] = changes
    out[G_WINNER_LED_FROM] = min(led_from, turns)
    mid = max(turns // 2, 1)
    best_other, runner_up = -(1 << 40), -(1 << 40)
    for p in range(n):
        if p != winner:
            best_other = max(best_other, game.fortune[mid, p])
            runner_up = max(runner_up, game.pl[p, SCORE])
    top = game.pl[winner, SCORE] if winner >= 0 else runner_up
    out[G_WINNER_DEFICIT_MID] = best_other - game.fortune[mid, winner] if winner >= 0 else 0
    out[G_MARGIN] = top - runner_up if winner >= 0 else 0


@njit(cache=True)
def summarise_seats(game, lineup, out):
    for p in range(game.g[N_PLAYERS]):
        row = out[p]
        row[S_STRATEGY] = lineup[p]
        row[S_FORTUNE] = game.pl[p, SCORE]
        row[S_RANK] = game.pl[p, RANK]
        row[S_WON] = 1 if game.pl[p, RANK] == 1 else 0
        for k in range(len(COUNTERS)):
            row[S_COUNTERS + k] = game.pl[p, CTR0 + k]


@njit(cache=True)
def play_games(game_arr, env_arr, kinds, lineups, params, tables, n_players, key, first_id, n, check,
               games, seats, turns, record_turns):
    """Play n games in the record `game_arr[0]` under the env `env_arr[0]` (as sim.ag.batch): game i
    seats `lineups[(first_id + i) % len(lineups)]`, whose entries index the strategies (`kinds[j]`,
    `params[j]`; a table-holding strategy reads `tables[params[j, table_slot]]`)."""
    game, env = game_arr[0], env_arr[0]
    for i in range(n):
        game_id = first_id + i
        lineup = lineups[game_id % lineups.shape[0]]
        seat_lineup(env, lineup, kinds, params, n_players)
        clear_game(game)
        games[i, G_INVARIANT] = play(game, env, tables, n_players, key, game_id, 0, check)
        summarise_game(game, games[i])
        summarise_seats(game, lineup, seats[i])
        if record_turns:
            for t in range(turns.shape[1]):
                for p in range(n_players):
                    turns[i, t, p] = game.fortune[t, p] if t <= game.g[TURNS_PLAYED] else -1
