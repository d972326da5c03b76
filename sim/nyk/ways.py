"""The subway's rules that both the engine (sim.nyk.chapters.movement) and the players
(strategies.nyk.policy) read, written once: who may ride (NYK-M6) and which of a ride's steps
pass the police without a check (NYK-M6, M8, P2)."""

from numba import njit

from sim.nyk.compiled import (
    P_SUBWAY_AT_RISK_ALLOWED, P_SUBWAY_CARD_STEPS, P_SUBWAY_IGNORES_POLICE, SUBWAY_CARD_STEPS_CHECKED,
)
from sim.nyk.decisions import MODE_SUBWAY
from sim.nyk.env import RP_SUBWAY
from sim.nyk.state import START, carries_risk, lowest_bit


@njit(cache=True)
def all_started_at(game, group, d):
    """Every member of `group` began its turn on district d."""
    rest = group
    while rest:
        c = lowest_bit(rest)
        rest &= rest - 1
        if game.ch[c, START] != d:
            return False
    return True


@njit(cache=True)
def may_ride_subway(game, env, group, d):
    """NYK-M6: a group rides from the station on d only if every member began its turn there,
    with no job at risk unless the ruleset allows it."""
    return d == env.rp[RP_SUBWAY] and all_started_at(game, group, d) and (
        env.rp[P_SUBWAY_AT_RISK_ALLOWED] != 0 or not carries_risk(game, group))


@njit(cache=True)
def passes_police(env, mode, within_ride):
    """A step enters a police district without a check: a subway ride under
    `subway.ignores_police` (NYK-M6), within its own steps or, unless `subway.card_steps` checks
    them, the steps bought beyond it (NYK-M8, P2)."""
    return mode == MODE_SUBWAY and env.rp[P_SUBWAY_IGNORES_POLICE] == 1 and (
        within_ride or env.rp[P_SUBWAY_CARD_STEPS] != SUBWAY_CARD_STEPS_CHECKED)
