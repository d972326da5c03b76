"""Many American Gangsters games in one jitted call, summarised as integer tables.

`play_games` plays games `first_id .. first_id + n - 1` of a run (each game's dice from
(run key, game id) alone, so any split into batches and processes gives the same games) and
fills three integer arrays the runner turns into tables:

- `games[i, G_*]`: one row per game (turns, winner, how the game ended and was decided, ...);
- `seats[i, s, S_*]`: one row per game and seat (score, rank, profile, titles, every counter);
- `turns[i, t, s]`: each seat's score at the end of each turn (only if asked for).
"""

from numba import njit

from sim.ag.engine import play
from sim.ag.readers import score, titles
from sim.ag.env import seat_lineup
from sim.ag.state import (
    BOSS_DEATHS, CAP_HIT, COUNTERS, CTR0, DECIDED_BY, ENDED_BY, END_INFORMER, EVENTS_PLAYED, FBI,
    FBI_PEAK, ILLEGAL, INFORMER, IS_INFORMER, LC_STATE, LS_WON, N_CARDS, N_PLAYERS, RANK, RENOWN,
    SHOOTOUTS, TURNS_PLAYED, WINNER, bag_count, bag_value, clear_game,
)

GAME_COLUMNS = ("n_players", "turns", "winner_seat", "decided_by", "cap_hit", "lead_changes",
                "winner_led_from", "winner_deficit_mid", "margin", "ended_by", "informer_seat",
                "informer_won", "fbi", "fbi_peak", "cards_won", "shootouts", "boss_deaths",
                "events", "illegal_decisions", "invariant")
(G_N_PLAYERS, G_TURNS, G_WINNER, G_DECIDED_BY, G_CAP_HIT, G_LEAD_CHANGES, G_WINNER_LED_FROM,
 G_WINNER_DEFICIT_MID, G_MARGIN, G_ENDED_BY, G_INFORMER_SEAT, G_INFORMER_WON, G_FBI, G_FBI_PEAK,
 G_CARDS_WON, G_SHOOTOUTS, G_BOSS_DEATHS, G_EVENTS, G_ILLEGAL, G_INVARIANT) = range(len(GAME_COLUMNS))

SEAT_COLUMNS = ("strategy", "fortune", "rank", "won", "informer", "renown", "barons", "caids",
                "bags", "bag_value") + COUNTERS
(S_STRATEGY, S_FORTUNE, S_RANK, S_WON, S_INFORMER, S_RENOWN, S_BARONS, S_CAIDS, S_BAGS,
 S_BAG_VALUE) = range(10)
S_COUNTERS = 10


@njit(cache=True)
def leader(scores, n_players, previous):
    """The seat with the highest score; on a tie the previous leader keeps the lead."""
    best = -1
    for p in range(n_players):
        if best < 0 or scores[p] > scores[best]:
            best = p
    if previous >= 0 and scores[previous] == scores[best]:
        return previous
    return best


@njit(cache=True)
def summarise_game(game, env, out):
    """Per-game figures: lead changes (by score, renown with provisional points), when the winner
    took the lead for good, its deficit at mid-game, the margin, how the game ended."""
    n = game.g[N_PLAYERS]
    turns = game.g[TURNS_PLAYED]
    winner = game.g[WINNER]
    out[G_N_PLAYERS] = n
    out[G_TURNS] = turns
    out[G_WINNER] = winner
    out[G_DECIDED_BY] = game.g[DECIDED_BY]
    out[G_CAP_HIT] = game.g[CAP_HIT]
    out[G_ENDED_BY] = game.g[ENDED_BY]
    out[G_INFORMER_SEAT] = game.g[INFORMER]
    out[G_INFORMER_WON] = 1 if game.g[ENDED_BY] == END_INFORMER else 0
    out[G_FBI] = game.g[FBI]
    out[G_FBI_PEAK] = game.g[FBI_PEAK]
    won = 0
    for c in range(game.g[N_CARDS]):
        won += game.lc[c, LC_STATE] == LS_WON
    out[G_CARDS_WON] = won
    out[G_SHOOTOUTS] = game.g[SHOOTOUTS]
    out[G_BOSS_DEATHS] = game.g[BOSS_DEATHS]
    out[G_EVENTS] = game.g[EVENTS_PLAYED]
    out[G_ILLEGAL] = game.g[ILLEGAL]
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
    best_other, runner_up = -(1 << 40), -(1 << 40)
    for p in range(n):
        if p != winner:
            best_other = max(best_other, game.fortune[mid, p])
            runner_up = max(runner_up, score(game, env, p))
    out[G_WINNER_DEFICIT_MID] = best_other - game.fortune[mid, winner]
    out[G_MARGIN] = score(game, env, winner) - runner_up if n > 1 else 0


@njit(cache=True)
def summarise_seats(game, env, lineup, out):
    for p in range(game.g[N_PLAYERS]):
        row = out[p]
        barons, caids = titles(game, p)
        row[S_STRATEGY] = lineup[p]
        row[S_FORTUNE] = score(game, env, p)
        row[S_RANK] = game.pl[p, RANK]
        row[S_WON] = 1 if game.pl[p, RANK] == 1 else 0
        row[S_INFORMER] = game.pl[p, IS_INFORMER]
        row[S_RENOWN] = game.pl[p, RENOWN]
        row[S_BARONS] = barons
        row[S_CAIDS] = caids
        row[S_BAGS] = bag_count(game, p)
        row[S_BAG_VALUE] = bag_value(game, p)
        for k in range(len(COUNTERS)):
            row[S_COUNTERS + k] = game.pl[p, CTR0 + k]


@njit(cache=True)
def play_games(game_arr, env_arr, kinds, lineups, params, n_players, key, first_id, n, check,
               games, seats, turns, record_turns):
    """Play n games on one thread, in the game record `game_arr[0]` under the env `env_arr[0]`
    (1-element arrays owned by the caller: a record is a bare pointer, so its array must outlive
    the loop). Game i uses seating `lineups[(first_id + i) % len(lineups)]`, whose entries index
    the strategies (`kinds[j]`, `params[j]`). A game depends on (key, game id) alone."""
    game, env = game_arr[0], env_arr[0]
    n_lineups = lineups.shape[0]
    for i in range(n):
        game_id = first_id + i
        lineup = lineups[game_id % n_lineups]
        seat_lineup(env, lineup, kinds, params, n_players)
        clear_game(game)
        games[i, G_INVARIANT] = play(game, env, n_players, key, game_id, 0, check)
        summarise_game(game, env, games[i])
        summarise_seats(game, env, lineup, seats[i])
        if record_turns:
            for t in range(turns.shape[1]):
                for p in range(n_players):
                    turns[i, t, p] = game.fortune[t, p] if t <= game.g[TURNS_PLAYED] else -1
