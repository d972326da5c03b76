"""Whole games in check mode: the invariants hold for every player count and both policies,
under the default rules and under random valid rulesets (hypothesis)."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scenario import PARAM, RANDOM, SIMPLE, play

from sim.nyk.chapters import invariants
from sim.nyk import state as S


@pytest.mark.parametrize("kind", [RANDOM, SIMPLE, PARAM])
@pytest.mark.parametrize("n_players", [2, 3, 4, 5])
def test_invariants_hold_in_every_game(kind, n_players):
    for game_id in range(40):
        game, code = play(n_players, kind, seed=11, game_id=game_id)
        where = f"play({n_players}, kind={kind}, seed=11, game_id={game_id})"
        assert code == 0, f"{invariants.INVARIANTS[code]}: {where}"
        assert game.g[S.CAP_HIT] == 0, f"turn cap: {where}"
        assert game.g[S.ILLEGAL] == 0 and game.g[S.GAME_OVER] == 1
        assert 1 <= game.g[S.WINNER] + 1 <= n_players
        ranks = sorted(int(r) for r in game.pl[:n_players, S.RANK])
        assert ranks[0] == 1 and ranks[-1] <= n_players


def money(lo, hi):
    return st.integers(lo // 1000, hi // 1000).map(lambda k: 1000 * k)


SCALES = st.sampled_from([0.5, 1.0, 1.5, 2.0, 3.0, 5.0])


@st.composite
def rulesets(draw):
    """Random valid overrides: stakes, rewards, scale knobs, rulings, caps and limits."""
    start_cars = draw(st.integers(0, 4))
    step = draw(st.sampled_from([1000, 2000]))
    min_offer = draw(st.integers(0, 3)) * step
    options = {
        "provocation.stake": money(0, 6000),
        "provocation.fold_penalty": money(0, 6000),
        "provocation.raise": money(0, 4000),
        "provocation.fusillade_raise": money(0, 4000),
        "provocation.stake_scale": SCALES,
        "provocation.intimidation_dice": st.integers(1, 5),
        "provocation.tie_pot": st.sampled_from(["bank", "return"]),
        "provocation.action": st.sampled_from(["one", "all"]),
        "missions.reward_scale": SCALES,
        "missions.crew_actions": st.sampled_from(["each", "one"]),
        "missions.row": st.integers(1, 6),
        "missions.end_card_among_last": st.integers(1, 25),
        "missions.last_turns": st.integers(0, 5),
        "recruit.cost_scale": SCALES,
        "recruit.hesitation_extra": money(0, 3000),
        "recruit.per_turn": st.integers(0, 4),
        "henchmen.max": st.integers(0, 20),
        "hands.five_of_a_kind": st.sampled_from(["four", "top"]),
        "tiebreak.last": st.sampled_from(["random", "shared"]),
        "start.district": st.sampled_from(["BROADWAY", "random", "GRAND CENTRAL", "FINANCIAL",
                                           "BROOKLYN", "SOHO"]),
        "bank.finite": st.booleans(),
        "police.max_cars": st.integers(start_cars, 8),
        "police.cars_per_reshuffle": st.integers(0, 4),
        "police.move_steps": st.integers(0, 6),
        "police.car_value": st.sampled_from(["9", "10", "J", "Q", "K", "A"]),
        "hand.limit": st.integers(1, 32),
        "move.steps": st.integers(0, 6),
        "subway.steps": st.integers(0, 8),
        "subway.ignores_police": st.booleans(),
        "subway.at_risk_allowed": st.booleans(),
        "heliport.cost": money(0, 5000),
        "heliport.at_risk_allowed": st.booleans(),
        "custody.cells": st.integers(1, 6),
        "custody.steps_per_turn": st.integers(0, 6),
        "interrogation.dice": st.integers(1, 5),
        "interrogation.resist_dice": st.integers(0, 4),
        "corruption.bills": st.integers(1, 4),
        "resources.reshuffle": st.sampled_from(["empty", "next_draw"]),
        "recruit.from_custody": st.booleans(),
        "henchmen.act_on_joining": st.booleans(),
        "custody.card_steps": st.sampled_from(["cell", "all", "one"]),
        "custody.release_frozen": st.booleans(),
        "custody.first_step": st.sampled_from(["own_turn", "next_turn"]),
        "police.return_at": st.sampled_from(["first_player", "before_bid"]),
        "missions.empty_bag": st.sampled_from(["discard", "hold"]),
        "end.last_standing": st.booleans(),
        "view.fortunes": st.sampled_from(["hidden", "tracked"]),
    }
    chosen = draw(st.sets(st.sampled_from(sorted(options)), max_size=len(options)))
    overrides = {key: draw(options[key]) for key in sorted(chosen)}
    overrides["police.start_cars"] = start_cars
    if draw(st.booleans()):
        overrides.update({"recruit.offer_step": step, "recruit.min_offer": min_offer,
                          "recruit.max_offer": min_offer + draw(st.integers(0, 8)) * step})
    return overrides


@settings(suppress_health_check=[HealthCheck.too_slow])  # examples: tests/conftest.py profiles
@given(overrides=rulesets(), seed=st.integers(0, 2**32 - 1), n_players=st.integers(2, 5),
       kind=st.sampled_from([RANDOM, SIMPLE, PARAM]))
def test_random_rulesets_keep_the_invariants_and_end(overrides, seed, n_players, kind):
    for game_id in range(2):
        game, code = play(n_players, kind, overrides, seed=seed, game_id=game_id)
        replay = (f"replay: scenario.play({n_players}, kind={kind}, overrides={overrides!r}, "
                  f"seed={seed}, game_id={game_id})")
        assert code == 0, f"{invariants.INVARIANTS[code]}; {replay}"
        assert game.g[S.CAP_HIT] == 0, f"turn cap hit; {replay}"
        assert game.g[S.GAME_OVER] == 1 and game.g[S.ILLEGAL] == 0, replay


def test_the_check_run_seats_every_preset_at_every_table_size_and_finds_nothing(capsys):
    from sim.nyk import checkrun
    from strategies import available
    tables = checkrun.lineups()
    assert {len(t) for t in tables} == {2, 3, 4, 5}
    assert all(set(available()) <= {name for t in tables if len(t) == n for name in t}
               for n in (2, 3, 4, 5))
    assert checkrun.main(["--games", "60", "--seed", "3"]) == 0
    assert "60 games in check mode" in capsys.readouterr().out
