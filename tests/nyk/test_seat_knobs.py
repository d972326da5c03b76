"""The designer's per-seat knobs of New York Kings (ruleset section `seats`): defaults that change
no game, and each knob acting where it says (seats.money at setup, seats.turn1_ties on the first
player card of turn 1)."""

import numpy as np

from sim.nyk import events as E
from sim.nyk import state as S
from sim.nyk.chapters.setup import setup
from sim.nyk.env import make_env
from sim.nyk.game import Lineup, play_one
from sim.rng import run_key
from sim.rules import Ruleset
from sim.shared.narrate import recorded

PLAYERS = 4


def money_after_setup(rs) -> np.ndarray:
    lineup = Lineup.of(["random"], PLAYERS)
    env = make_env(rs, *lineup.seated(lineup.seatings_for(0, 0, 1)[0], S.MAX_SEATS))
    game = S.new_game()
    setup(game, env, PLAYERS, run_key(0), 0)
    return game.pl[:PLAYERS, S.MONEY].copy(), int(game.g[S.BANK])


def test_seats_money_pays_each_seat_from_the_bank_at_setup():
    base, bank = money_after_setup(Ruleset.load())
    paid, bank_after = money_after_setup(Ruleset.load(overrides={"seats.money": [0, 1000, 2000, 3000, 9000]}))
    assert list(paid - base) == [0, 1000, 2000, 3000]      # seat 5 is not at a 4-player table
    assert bank - bank_after == 6000


def turn1_first(rs, game_id):
    """(first player of turn 1, the seats tied on the highest bid) of one recorded game."""
    rows = recorded(play_one(3, PLAYERS, ["random"], rs, game_id).game, S.N_EVENTS)
    bids = {int(r[2]): int(r[3]) for r in rows if r[0] == 1 and r[1] == E.EV_BID}
    first = next(int(r[2]) for r in rows if r[0] == 1 and r[1] == E.EV_FIRST)
    best = max(bids.values())
    return first, sorted(p for p, b in bids.items() if b == best)


def test_turn1_ties_gives_the_first_player_card_to_the_named_end_of_the_tie():
    lots, first_seat, last_seat = (Ruleset.load(overrides={"seats.turn1_ties": v})
                                   for v in ("lots", "first_seat", "last_seat"))
    tied_games = 0
    for game_id in range(40):
        first, tied = turn1_first(lots, game_id)
        if len(tied) < 2:
            continue
        tied_games += 1
        assert turn1_first(first_seat, game_id) == (tied[0], tied)   # the same bids: only the pick moves
        assert turn1_first(last_seat, game_id) == (tied[-1], tied)
    assert tied_games >= 3


def test_the_defaults_change_no_game():
    a = play_one(5, PLAYERS, ["random"], Ruleset.load(), 2)
    zeros = Ruleset.load(overrides={"seats.money": [0] * 5, "seats.turn1_ties": "lots"})
    b = play_one(5, PLAYERS, ["random"], zeros, 2)
    assert np.array_equal(recorded(a.game, S.N_EVENTS), recorded(b.game, S.N_EVENTS))
