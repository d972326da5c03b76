"""Many New York Kings games in one jitted call, summarised as integer tables.

`play_games` plays games `first_id .. first_id + n - 1` of a run (each game's dice from
(run key, game id) alone, so any split into batches and processes gives the same games) and
fills three integer arrays the runner turns into tables:

- `games[i, G_*]`: one row per game (turns, winner, how the win was decided, lead changes...);
- `seats[i, s, S_*]`: one row per game and seat (fortune, rank, every mechanic counter);
- `turns[i, t, s]`: each seat's fortune at the end of each turn (only if asked for).
"""

from numba import njit

from sim.nyk.chapters.end import tiebreak_key
from sim.nyk.engine import play
from sim.nyk.env import seat_lineup
from sim.nyk.state import count_henchmen
from sim.nyk.state import (
    ALIVE, BANK_FAILURES, CAP_HIT, COUNTERS, CTR0, DECIDED_BY, END_CARD_POS, ILLEGAL,
    MONEY, N_PLAYERS, N_POLICE, PC_OFF, POLICE0, RANK, TURNS_PLAYED, WINNER, clear_game,
)

GAME_COLUMNS = ("n_players", "turns", "winner_seat", "decided_by", "cap_hit", "end_card_pos",
                "lead_changes", "winner_led_from", "winner_deficit_mid", "margin",
                "illegal_decisions", "bank_failures", "invariant", "police_cars_end")
(G_N_PLAYERS, G_TURNS, G_WINNER, G_DECIDED_BY, G_CAP_HIT, G_END_CARD_POS, G_LEAD_CHANGES,
 G_WINNER_LED_FROM, G_WINNER_DEFICIT_MID, G_MARGIN, G_ILLEGAL, G_BANK_FAILURES,
 G_INVARIANT, G_POLICE_CARS) = range(len(GAME_COLUMNS))

SEAT_COLUMNS = ("strategy", "fortune", "rank", "won", "alive", "henchmen", "henchman_values") + COUNTERS
(S_STRATEGY, S_FORTUNE, S_RANK, S_WON, S_ALIVE, S_HENCHMEN, S_HENCHMAN_VALUES) = range(7)
S_COUNTERS = 7


@njit(cache=True)
def leader(fortunes, n_players, previous):
    """The seat with the largest fortune; on a tie the previous leader keeps the lead."""
    best = -1
    for p in range(n_players):
        if best < 0 or fortunes[p] > fortunes[best]:
            best = p
    if previous >= 0 and fortunes[previous] == fortunes[best]:
        return previous
    return best


@njit(cache=True)
def summarise_game(game, out):
    """Per-game figures from the fortunes of each turn: lead changes, when the eventual winner
    took the lead for good, its deficit at mid-game, and the margin of victory."""
    n = game.g[N_PLAYERS]
    turns = game.g[TURNS_PLAYED]
    winner = game.g[WINNER]
    out[G_N_PLAYERS] = n
    out[G_TURNS] = turns
    out[G_WINNER] = winner
    out[G_DECIDED_BY] = game.g[DECIDED_BY]
    out[G_CAP_HIT] = game.g[CAP_HIT]
    out[G_END_CARD_POS] = game.g[END_CARD_POS]
    out[G_ILLEGAL] = game.g[ILLEGAL]
    out[G_BANK_FAILURES] = game.g[BANK_FAILURES]
    cars = 0
    for k in range(N_POLICE):
        cars += game.g[POLICE0 + k] != PC_OFF  # in play (on the board or returning)
    out[G_POLICE_CARS] = cars
    changes, lead, led_from = 0, -1, 1
    for t in range(1, turns + 1):
        now = leader(game.fortune[t], n, lead)
        if lead >= 0 and now != lead:
            changes += 1
        if now != winner:
            led_from = t + 1
        lead = now
    out[G_LEAD_CHANGES] = changes
    out[G_WINNER_LED_FROM] = min(led_from, turns)
    mid = max(turns // 2, 1)
    best_other = -(1 << 40)
    runner_up = -(1 << 40)
    for p in range(n):
        if p != winner:
            best_other = max(best_other, game.fortune[mid, p])
            runner_up = max(runner_up, game.pl[p, MONEY])
    out[G_WINNER_DEFICIT_MID] = best_other - game.fortune[mid, winner]
    out[G_MARGIN] = game.pl[winner, MONEY] - runner_up if n > 1 else 0


@njit(cache=True)
def summarise_seats(game, lineup, out):
    for p in range(game.g[N_PLAYERS]):
        row = out[p]
        row[S_STRATEGY] = lineup[p]
        row[S_FORTUNE] = game.pl[p, MONEY]
        row[S_RANK] = game.pl[p, RANK]
        row[S_WON] = 1 if game.pl[p, RANK] == 1 else 0
        row[S_ALIVE] = game.pl[p, ALIVE]
        row[S_HENCHMEN] = count_henchmen(game, p)
        row[S_HENCHMAN_VALUES] = tiebreak_key(game, p, 2)
        for k in range(len(COUNTERS)):
            row[S_COUNTERS + k] = game.pl[p, CTR0 + k]


@njit(cache=True)
def play_games(game_arr, env_arr, kinds, lineups, params, restrict, n_players, key, first_id, n, check,
               games, seats, turns, record_turns):
    """Play n games on one thread, in the game record `game_arr[0]` under the env `env_arr[0]`
    (1-element GAME_DTYPE / ENV_DTYPE arrays owned by the caller: a record is a bare pointer,
    so its array must outlive the loop). Game i uses seating
    `lineups[(first_id + i) % len(lineups)]`, whose entries index the strategies (`kinds[j]` and
    `params[j]`, `restrict[j]`). A game's result depends on its id alone, so processes can share out the games
    of a run in any way (sim.runner)."""
    game, env = game_arr[0], env_arr[0]
    n_lineups = lineups.shape[0]
    for i in range(n):
        game_id = first_id + i
        lineup = lineups[game_id % n_lineups]
        seat_lineup(env, lineup, kinds, params, restrict, n_players)
        clear_game(game)
        games[i, G_INVARIANT] = play(game, env, n_players, key, game_id, 0, check)
        summarise_game(game, games[i])
        summarise_seats(game, lineup, seats[i])
        if record_turns:
            for t in range(turns.shape[1]):
                for p in range(n_players):
                    turns[i, t, p] = game.fortune[t, p] if t <= game.g[TURNS_PLAYED] else -1
