"""AG-T3: "le parrain retourne le sablier, tous les joueurs posent leurs personnages": placement
is simultaneous. Under placement.order = "simultaneous" a family placing sees none of the pieces
the earlier families placed this turn; under "sequential" it sees them all; either way every piece
is on the board once placement is over, and the batch game is the game driven decision by
decision."""

import numpy as np
import pytest

from sim.ag import state as S
from sim.ag.decisions import CTX_DECISION, D_PLACE
from sim.ag.events import EV_PLACE
from sim.ag.forward import Forward
from sim.rules import Ruleset
from ag_scenario import many

LINEUP = ["warlord", "racketeer", "politician", "balanced"]


def rules(order):
    return Ruleset.load(game="ag", overrides={"placement.order": order})


def placed_this_turn(fw, seat):
    """Pieces `seat` placed so far this turn by the event log (EV_PLACE rows since the turn began)."""
    game = fw.work[0]
    rows = game.events[: game.g[S.N_EVENTS]]
    turn_rows = np.nonzero(rows[:, 1] == EV_PLACE)[0]
    return sum(1 for r in turn_rows if rows[r, 0] == game.g[S.TURN] and rows[r, 2] == seat)


def first_placement_of(order, seat, seed):
    """The forward state at `seat`'s first placement decision of turn 1 (seat 0 places first)."""
    fw = Forward.new(ruleset=rules(order), strategies=LINEUP, seed=seed, stop=(seat,), record=True)
    while fw.decision().ctx[CTX_DECISION] != D_PLACE:
        fw.apply_policy()
    return fw


@pytest.mark.parametrize("order", ["simultaneous", "sequential"])
def test_ag_t3_a_placing_family_sees_the_earlier_pieces_only_when_sequential(order):
    """AG-T3: at seat 2's first placement, seats 0 and 1 have placed their pieces (the event log
    says so); the board seat 2 decides on shows them under sequential, none under simultaneous."""
    for seed in range(1, 6):
        fw = first_placement_of(order, 2, seed)
        game = fw.work[0]
        assert game.g[S.GODFATHER] == 0
        for q in (0, 1):
            on_board = int(game.at[:, q, :].sum())
            placed = placed_this_turn(fw, q)
            assert placed > 0
            assert on_board == (placed if order == "sequential" else 0), (seed, q, on_board, placed)


def test_ag_t3_simultaneous_placement_puts_every_piece_back_and_keeps_the_invariants():
    """AG-T3: 200 games in check mode (bags, pieces, dice and wounds conserved after every
    phase) under simultaneous placement break no invariant, and the two orders play other games."""
    games, seats = many(LINEUP, 200, seed=3, overrides={"placement.order": "simultaneous"}, check=True)
    from sim.ag.batch import G_INVARIANT
    assert np.all(games[:, G_INVARIANT] == 0)
    other, _ = many(LINEUP, 200, seed=3, overrides={"placement.order": "sequential"}, check=True)
    assert np.all(other[:, G_INVARIANT] == 0)
    assert not np.array_equal(games, other)


def test_ag_t3_the_families_place_at_once_by_default():
    """AG-T3 as the French reads it ("tous les joueurs posent leurs personnages"): the default
    order is simultaneous, and a default game is the simultaneous game."""
    assert Ruleset.load(game="ag")["placement.order"] == "simultaneous"
    lineup = ["simple"] * 4
    default = many(lineup, 20)
    at_once = many(lineup, 20, overrides={"placement.order": "simultaneous"})
    in_turn = many(lineup, 20, overrides={"placement.order": "sequential"})
    assert np.array_equal(default[1], at_once[1]) and not np.array_equal(default[1], in_turn[1])
