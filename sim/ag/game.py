"""Python entry points of the American Gangsters engine: one game told in full, or many summarised.

    play_one(seed=3, players=4)             -> a finished `Played` game (arrays, env, ruleset)
    result(played)                          -> the JSON-able result of one game
    play_many(seed, n_games, players, ...)  -> integer arrays of games, seats and turns
"""

import numpy as np

from sim import rng
from sim.ag import batch, engine, state
from sim.ag.decisions import DECISIONS
from sim.ag.env import LEARNED_SLOT, N_POLICY_PARAMS, make_env
from sim.ag.readers import score, titles
from sim.rules import Ruleset
from sim.shared import play
from sim.shared.play import Played
from strategies.ag.learned import weights_of
from strategies.lineup import Lineup as BaseLineup


class Lineup(BaseLineup):
    """The strategies of an American Gangsters study and how they sit (strategies.lineup.Lineup)."""

    game = "ag"
    width = N_POLICY_PARAMS
    table_slot = LEARNED_SLOT
    decisions = DECISIONS


def load_default() -> Ruleset:
    return Ruleset.load(game="ag")


def with_tables(env, lineup: Lineup):
    """`env` holding the data files the lineup's presets carry (the learned player's weights):
    every path that builds an env for a lineup (a batch, one game, a replay, a search) goes through here."""
    env.learned[:] = weights_of(lineup.tables)
    return env


def check_players(rs: Ruleset, players: int):
    play.check_players(rs, players, "American Gangsters")


def play_one(seed: int, players: int = 4, strategies=None, ruleset: Ruleset | None = None,
             game_id: int = 0, record: bool = True, check: bool = False) -> Played:
    """Play game `game_id` of run `seed`, recording every event (the same engine as batches)."""
    rs = ruleset or load_default()
    check_players(rs, players)
    lineup = Lineup.of(strategies, players)
    rows = lineup.seatings_for(seed, game_id, 1)
    seating = rows[game_id % len(rows)]
    kinds, params, _ = lineup.seated(seating, state.MAX_SEATS)   # no restrictions in this game
    env = with_tables(make_env(rs, kinds, params), lineup)
    game = state.new_game()
    code = engine.play(game, env, players, rng.run_key(seed), game_id, int(record), int(check))
    return Played(seed, game_id, rs, lineup, lineup.slots(seating), env, game, int(code))


def result(played: Played) -> dict:
    """The result of one game: who won and how, each family's score, titles and counters."""
    game, env = played.game, played.env
    g, pl = game.g, game.pl
    n = int(g[state.N_PLAYERS])
    seats = []
    for p in range(n):
        barons, caids = titles(game, p)
        seats.append({
            "seat": p,
            "strategy": played.lineup.names[played.seating[p]],
            "score": int(score(game, env, p)),
            "renown": int(pl[p, state.RENOWN]),
            "barons": int(barons), "caids": int(caids),
            "informer": bool(pl[p, state.IS_INFORMER]),
            "bags": int(state.bag_count(game, p)), "bag_value": int(state.bag_value(game, p)),
            "rank": int(pl[p, state.RANK]),
            "counters": {name: int(pl[p, state.CTR0 + i]) for i, name in enumerate(state.COUNTERS)},
        })
    return {
        "game": "ag", "seed": played.seed, "game_id": played.game_id, "players": n,
        "turns": int(g[state.TURNS_PLAYED]), "winner": int(g[state.WINNER]),
        "ended_by": state.ENDED[g[state.ENDED_BY]], "decided_by": state.DECIDED[g[state.DECIDED_BY]],
        "cap_hit": bool(g[state.CAP_HIT]), "fbi": int(g[state.FBI]),
        "informer_seat": int(g[state.INFORMER]),
        "ruleset_fingerprint": played.ruleset.fingerprint, "seats": seats,
        "scores": game.fortune[: int(g[state.TURNS_PLAYED]) + 1, :n].tolist(),
    }


def play_many(seed: int, n_games: int, players: int, lineup: Lineup, ruleset: Ruleset,
              first_id: int = 0, check: bool = False, record_turns: bool = False):
    """Games first_id .. first_id + n_games - 1 of run `seed`: (games, seats, turns) arrays."""
    check_players(ruleset, players)
    env = with_tables(make_env(ruleset, np.zeros(state.MAX_SEATS, np.int64),
                               np.zeros((state.MAX_SEATS, N_POLICY_PARAMS))), lineup)
    return play.play_many(batch, state, env, lineup, (lineup.params,), seed, n_games, players, first_id, check,
                          record_turns)


def mechanics_seen(seed: int, n_games: int, players: int = 4, strategies=None,
                   ruleset: Ruleset | None = None) -> dict:
    """How often the rarely used mechanics happen in recorded games: the target-8 racket won
    (AG-C7), a renown level sold for bags (AG-T1), a boss kept home (AG-T3), a game ended because
    every location card was won (AG-E1), the informer's win (AG-G2), the Arms power bought and
    used (AG-B3), a boss's re-roll refused (AG-T4), a shoot-out and a card lost after it for want
    of a second agreement (AG-N2, N3); with the number of games."""
    from sim.ag import events
    from sim.ag.decisions import POWER_ARMS

    rs = ruleset or load_default()
    cards = rs.content["locations"]
    hardest = max(c.target for c in cards)
    seen = {"games": n_games, f"target_{hardest}_successes": 0, "renown_sold_for_bags": 0,
            "bosses_kept_home": 0, "ended_all_won": 0, "informer_wins": 0, "arms_power_bought": 0,
            "arms_power_used": 0, "rerolls_declined": 0, "shootouts": 0, "cards_lost_after_shootout": 0}
    for game_id in range(n_games):
        played = play_one(seed, players, strategies, rs, game_id)
        g = played.game.g
        shown = {}
        for row in played.game.events[: g[state.N_EVENTS]]:
            code, a, b, c = int(row[1]), int(row[2]), int(row[3]), int(row[4])
            if code == events.EV_REVEAL:
                shown[a] = b
            elif code == events.EV_SUCCESS and cards.cards[shown[a]].target == hardest:
                seen[f"target_{hardest}_successes"] += 1
            elif code == events.EV_POWER_SOLD and c == POWER_ARMS:
                seen["arms_power_bought"] += 1
            elif code == events.EV_ARMS:
                seen["arms_power_used"] += 1
            elif code == events.EV_SHOOTOUT:
                seen["shootouts"] += 1
            elif code == events.EV_DISCARDED:
                seen["cards_lost_after_shootout"] += 1
        pl = played.game.pl
        seen["renown_sold_for_bags"] += int(pl[:players, state.C_TRADES_DOWN_BAGS].sum())
        seen["bosses_kept_home"] += int(pl[:players, state.C_UNPLACED].sum())
        seen["rerolls_declined"] += int(pl[:players, state.C_REROLLS_DECLINED].sum())
        seen["ended_all_won"] += int(g[state.ENDED_BY] == state.END_ALL_WON)
        seen["informer_wins"] += int(g[state.ENDED_BY] == state.END_INFORMER)
    return seen
