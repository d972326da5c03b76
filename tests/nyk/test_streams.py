"""Common random numbers in the engine: every source of luck draws from its own stream (sim.rng,
keyed by run seed, game id and source), so a decision taken otherwise moves only its own
sources' later draws, and the other seats meet the same dice."""

import numpy as np
import pytest
from scenario import BROOKLYN, HARLEM, SOHO, BROADWAY, Table, mission_ids

from sim import rng
from sim.nyk import state as S
from sim.nyk.events import EV_RECRUIT

LOOXY, FURYO = 8, 7  # Q of spades, J of spades
SEED, GAME = 1, 0    # Table's defaults


def recruit_events(t):
    rows = t.game.events[:t.g[S.N_EVENTS]]
    return [tuple(int(x) for x in r[2:6]) for r in rows if r[1] == EV_RECRUIT]


def interrogation_then_recruitment(resist):
    """Seat 0's carrier is interrogated and resists or not (NYK-P5: 2 more dice each side); then
    seat 1 offers $3,000 for a henchman (NYK-A6: 3 dice)."""
    t = Table(n_players=3)
    t.g[S.RECORD] = 1
    t.at(0, SOHO)
    t.hench(LOOXY, 0, SOHO)
    t.hold(mission_ids(crew=1, risk=1)[0], [LOOXY], HARLEM)
    t.police(SOHO, BROADWAY)
    t.steer((2, resist), (2, 0), seat=0)  # resist or not; if the fight is lost, lose a character
    t.interrogate(0, SOHO)
    assert t.pl[0, S.C_INTERROGATIONS] == 1 and t.pl[0, S.C_RESISTS] == resist
    t.peripheral(0, FURYO)
    t.at(1, BROOKLYN)
    t.begin(1)
    t.recruit(1, FURYO, 3000)
    return t


def test_a_seat_resisting_or_not_leaves_the_next_seats_dice_unchanged():
    calm, fighting = interrogation_then_recruitment(0), interrogation_then_recruitment(1)
    # seat 0 and the police rolled two more dice each in one game ...
    for source in (S.S_DICE0 + 0, S.S_POLICE):
        assert not np.array_equal(calm.game.rng[source], fighting.game.rng[source])
    # ... and seat 1's recruitment met the same dice in both
    assert recruit_events(calm) == recruit_events(fighting)
    assert np.array_equal(calm.game.rng[S.S_DICE0 + 1], fighting.game.rng[S.S_DICE0 + 1])
    for source in range(S.N_STREAMS):  # seat 0's policy may have chosen its loss, or not
        if source not in (S.S_DICE0 + 0, S.S_POLICE, S.S_POLICY0 + 0):
            assert np.array_equal(calm.game.rng[source], fighting.game.rng[source]), source


@pytest.mark.parametrize("resist", [0, 1])
def test_a_seats_dice_are_its_own_stream_of_seed_game_and_source(resist):
    t = interrogation_then_recruitment(resist)
    own = rng.source_stream(SEED, GAME, S.S_DICE0 + 1)  # setup rolls no seat's dice
    best = max(int(rng.roll_die(own)) for _ in range(3))
    assert recruit_events(t) == [(1, FURYO, 3000, best)]
    assert np.array_equal(t.game.rng[S.S_DICE0 + 1], own)


def test_every_source_is_seeded_apart_at_setup():
    t = Table(n_players=4)
    untouched = [S.S_POLICE, S.S_FIRST, S.S_FINAL] + [S.S_DICE0 + p for p in range(S.MAX_SEATS)]
    for source in untouched:
        assert np.array_equal(t.game.rng[source], rng.source_stream(SEED, GAME, source))
    assert len({tuple(r) for r in t.game.rng.tolist()}) == S.N_STREAMS
