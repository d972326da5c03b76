"""Whole American Gangsters games in check mode: the invariants (bags, tokens, cards, titles, dice,
wounds, tracks, events) hold after every phase for every player count and policy, under the
default rules and under random valid rulesets (hypothesis); normal play never reaches the cap."""

import pytest
from ag_scenario import PARAMETRIC, RANDOM, many, play
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.ag import batch as B
from sim.ag.chapters import invariants
from sim.ag import state as S


@pytest.mark.parametrize("kind", [RANDOM, PARAMETRIC])
@pytest.mark.parametrize("n_players", [2, 3, 4, 5])
def test_invariants_hold_in_every_game(kind, n_players):
    for game_id in range(25):
        game, code = play(n_players, kind, seed=11, game_id=game_id)
        where = f"play({n_players}, kind={kind}, seed=11, game_id={game_id})"
        assert code == 0, f"{invariants.INVARIANTS[code]}: {where}"
        assert game.g[S.GAME_OVER] == 1 and game.g[S.ILLEGAL] == 0, where
        ranks = sorted(int(r) for r in game.pl[:n_players, S.RANK])
        assert ranks[0] == 1 and ranks[-1] <= n_players and game.pl[game.g[S.WINNER], S.RANK] == 1


@pytest.mark.parametrize("n_players", [2, 3, 4, 5])
def test_ag_e1_normal_play_never_reaches_the_turn_cap(n_players):
    games, _ = many(["simple"] * n_players, 1500, seed=3)
    assert games[:, B.G_INVARIANT].max() == 0
    assert games[:, B.G_CAP_HIT].sum() == 0
    assert games[:, B.G_TURNS].max() < 80


@st.composite
def rulesets(draw):
    """Random valid overrides of counts, faces, tracks, rulings and options."""
    clics = draw(st.integers(0, 6))
    options = {
        "bags.start": st.integers(0, 7),
        "traffic.tokens": st.integers(0, 12),
        "profiles.informer": st.sampled_from(["draw", "always", "never"]),
        "fbi.start": st.integers(0, 5),
        "renown.parrain": st.integers(3, 12),
        "renown.informer": st.integers(2, 9),
        "fbi.informer": st.integers(1, 10),
        "end.informer_as_parrain": st.booleans(),
        "renown.buy_bags": st.integers(0, 5),
        "renown.sell_bags": st.integers(0, 4),
        "titles.powers": st.booleans(),
        "titles.power_price": st.integers(0, 3),
        "crew.henchmen": st.integers(0, 4),
        "crew.killers": st.integers(0, 2),
        "dice.henchman_clics": st.integers(0, 6),
        "dice.killer_clics": st.integers(0, 6),
        "dice.occasional_fbi": st.integers(0, 6 - clics),
        "occasional.dice": st.integers(0, 10),
        "boss.reroll": st.booleans(),
        "boss.wounds_to_die": st.integers(1, 4),
        "locations.extra": st.integers(0, 5),
        "negotiation.share": st.sampled_from(["threat", "equal"]),
        "negotiation.second_round": st.booleans(),
        "negotiation.value_renown": st.sampled_from([0.0, 1.0, 3.0, 8.0]),
        "boss_death.bags_rounding": st.sampled_from(["down", "up"]),
        "boss_death.to": st.sampled_from(["killer", "bank"]),
        "events.optional": st.booleans(),
        "roulette.stake": st.integers(0, 2),
        "bullets.clics": st.integers(0, 8),
        "bullets.bangs": st.integers(1, 4),
        "end.turn_cap": st.integers(1, 40),
        "negotiation.model": st.sampled_from(["nash", "alternating", "offer"]),
        "negotiation.rounds": st.integers(1, 4),
        "negotiation.patience": st.sampled_from([0.0, 0.5, 1.0]),
        "negotiation.value_wound": st.sampled_from([0.0, 1.5, 6.0]),
        "boss_death.quartier": st.sampled_from(["card", "caid"]),
        "boss_death.successor": st.sampled_from(["henchman", "free"]),
        "fbi.track": st.sampled_from(["ladder", "separate"]),
        "roulette.pistol": st.sampled_from(["renown", "extra_renown"]),
        "auction.zero_wins": st.booleans(),
        "hospital.min_bosses": st.integers(1, 3),
        "tracks.cursor": st.sampled_from(["ring", "stop"]),
        "powers.move_to": st.sampled_from(["any_location", "cards"]),
    }
    chosen = draw(st.sets(st.sampled_from(sorted(options)), max_size=len(options)))
    overrides = {key: draw(options[key]) for key in sorted(chosen)}
    overrides["dice.occasional_clics"] = clics
    overrides.setdefault("dice.occasional_fbi", 0)
    overrides["fbi.max"] = max(10, overrides.get("fbi.start", 0), overrides.get("fbi.informer", 6))
    if overrides.get("fbi.track", "ladder") == "ladder":   # AG-G2: the informer's space is on the ladder
        overrides["fbi.informer"] = min(overrides.get("fbi.informer", 6), overrides.get("renown.parrain", 9))
    return overrides


@settings(suppress_health_check=[HealthCheck.too_slow])  # examples: tests/conftest.py profiles
@given(overrides=rulesets(), seed=st.integers(0, 2**32 - 1), n_players=st.integers(2, 5),
       kind=st.sampled_from([RANDOM, PARAMETRIC]))
def test_random_rulesets_keep_the_invariants_and_end(overrides, seed, n_players, kind):
    for game_id in range(2):
        game, code = play(n_players, kind, overrides, seed=seed, game_id=game_id)
        replay = (f"replay: ag_scenario.play({n_players}, kind={kind}, overrides={overrides!r}, "
                  f"seed={seed}, game_id={game_id})")
        assert code == 0, f"{invariants.INVARIANTS[code]}; {replay}"
        assert game.g[S.GAME_OVER] == 1 and game.g[S.ILLEGAL] == 0, replay
        assert game.g[S.TURNS_PLAYED] <= overrides.get("end.turn_cap", 100), replay
