"""The American Gangsters forward model (sim.ag.forward): games driven decision by decision are the
batch's games; a determinized state agrees with the seat's view and varies what it cannot see;
copies are independent; options are validated."""

import numpy as np
import pytest

from sim import rng
from sim.ag import batch, engine, state
from sim.ag.env import N_POLICY_PARAMS, make_env
from sim.ag.forward import Forward, play_games_forward
from sim.ag.game import Lineup, play_many, with_tables
from sim.ag.redeal import visible
from sim.rules import Ruleset
import strategies

PRESETS = strategies.available("ag")
# every preset at some table, and every bargaining model (AG-N1), 2 to 5 players
TABLES = [
    (4, ("balanced", "racketeer", "warlord", "politician"), {}),
    (4, ("informer-aware", "random", "simple", "balanced"), {"negotiation.model": "offer"}),
    (3, ("warlord", "politician", "informer-aware"), {"negotiation.model": "alternating"}),
    (5, ("random", "racketeer", "simple", "balanced", "warlord"), {"boss.reroll": False}),
    (2, ("politician", "homebody"), {}),  # homebody: the study preset whose boss stays home (AG-T3)
    (2, ("learned", "warlord"), {}),      # learned: its weights in the env (sim.ag.game.with_tables)
    (3, ("equilibrium-1", "equilibrium-2", "equilibrium-3"), {}),  # the meta:equilibrium's best responses
]
GAMES = 300


def test_tables_cover_every_preset():
    assert set(PRESETS) <= {name for _, names, _ in TABLES for name in names}


@pytest.mark.parametrize("players,names,sets", TABLES)
def test_forward_games_are_the_batch_games(players, names, sets):
    """Every seat stopped at every decision and answered by its own policy: the same games as the
    batch, column for column (winner, turns, how it ended, every counter of every seat)."""
    rs = Ruleset.load(game="ag", overrides=sets)
    lineup = Lineup.of(names, players)
    games, seats, _ = play_many(11, GAMES, players, lineup, rs, first_id=100)
    f_games, f_seats = np.zeros_like(games), np.zeros_like(seats)
    env = np.array([with_tables(make_env(rs, np.zeros(state.MAX_SEATS, np.int64),
                                         np.zeros((state.MAX_SEATS, N_POLICY_PARAMS))), lineup)]).view(np.recarray)
    snap = np.zeros(1, state.GAME_DTYPE).view(np.recarray)
    work = np.zeros(1, state.GAME_DTYPE).view(np.recarray)
    outgrown = play_games_forward(snap, work, env, lineup.kinds, lineup.seatings_for(11, 100, GAMES),
                                  lineup.params, players, rng.run_key(11), 100, GAMES, f_games, f_seats)
    assert outgrown == 0
    np.testing.assert_array_equal(f_games, games)
    np.testing.assert_array_equal(f_seats, seats)
    assert len(set(games[:, batch.G_WINNER])) == players   # the games are not all alike


def test_python_face_replays_the_recorded_game():
    """apply_policy from Python: the very record play_one makes (events included)."""
    from sim.ag.game import play_one

    names = ["balanced", "racketeer", "warlord", "politician"]
    for game_id in range(3):
        fw = Forward.new(strategies=names, seed=5, game_id=game_id, record=True)
        steps = 0
        while not fw.over:
            d = fw.decision()
            assert len(d) > 1 and len(d.labels) == len(d) and d.seat in range(4)
            fw.apply_policy()
            steps += 1
        played = play_one(5, 4, names, game_id=game_id)
        for field in ("pl", "bags", "lc", "fortune", "events"):
            np.testing.assert_array_equal(getattr(fw.game, field), getattr(played.game, field))
        assert fw.result()["winner"] == played.game.g[state.WINNER]
        assert steps == played.game.g[state.DECISIONS]
        assert 0 < fw.most_script < state.N_FW_SCRIPT


def test_apply_validates_the_option():
    fw = Forward.new(seed=1)
    n = len(fw.decision())
    for bad in (-1, n, 2.0, "1", True, None):
        with pytest.raises(ValueError, match="option"):
            fw.apply(bad)
    fw.apply(n - 1)
    with pytest.raises(ValueError, match="seat 7"):
        fw.determinize(7, 1)


def test_a_choice_from_outside_is_taken():
    """A stopped seat's choice is the option applied: the last placement option keeps the piece
    home, and the record shows it where the policy would have placed it (AG-T3)."""
    fw = Forward.new(seed=2, stop=(0,))
    d = fw.decision()
    while d.kind != "place":
        fw.apply(0)
        d = fw.decision()
    home = [i for i, row in enumerate(d.options) if row[1] == state.NO]
    before = int(fw.game.at[:, 0, :].sum())
    fw.apply(home[0])
    assert int(fw.game.at[:, 0, :].sum()) == before
    assert fw.stop == (0,)


def test_copy_is_independent():
    fw = Forward.new(seed=3)
    for _ in range(10):
        fw.apply_policy()
    twin = fw.copy()
    mark = fw.game.pl.copy()
    while not twin.over:
        twin.apply(len(twin.decision()) - 1)
    np.testing.assert_array_equal(fw.game.pl, mark)
    assert not fw.over
    while not fw.over:
        fw.apply_policy()
    assert twin.result()["turns"] >= 1 and fw.result()["turns"] >= 1


def _states(seed, stops=20):
    """Forward states at several decisions of one game (every kind of pause)."""
    fw = Forward.new(strategies=["balanced", "racketeer", "warlord", "random"], seed=seed)
    out = []
    while not fw.over:
        if len(out) < stops and fw.decision().kind in ("bid", "place", "accept", "shoot", "trade",
                                                          "claim", "hit", "roulette"):
            out.append(fw.copy())
        fw.apply_policy()
    return out


def _same_view(a, b):
    for key, value in a.items():
        np.testing.assert_array_equal(value, b[key], err_msg=key)


def test_determinized_state_agrees_with_the_view_and_varies_the_rest():
    kinds = set()
    for seed in range(4):
        for fw in _states(seed):
            seat = fw.decision().seat
            kinds.add(fw.decision().kind)
            seen = visible(fw.game, seat)
            worlds = [fw.determinize(seat, key) for key in range(6)]
            hidden = set()
            for w in worlds:
                _same_view(seen, visible(w.game, seat))
                assert w.decision().labels == fw.decision().labels
                assert engine.invariants(w.game, w.env[0]) == 0
                g = w.game.g
                hidden.add((w.game.bags[:, 1].tobytes(),
                            g[state.L_DECK0:state.L_DECK0 + g[state.L_DECK_N]].tobytes(),
                            g[state.E_DECK0:state.E_DECK0 + g[state.E_DECK_N]].tobytes(),
                            w.game.rng.tobytes()))
            assert len(hidden) == len(worlds)   # each key deals another world
            again = fw.determinize(seat, 3)
            np.testing.assert_array_equal(again.game.bags, worlds[3].game.bags)
    assert {"bid", "place", "trade"} <= kinds


def test_informer_is_dealt_again_among_the_others():
    """AG-C6: the informer card goes, over keys, to each other family or out of the game (5 cards,
    4 families); never to the viewer, a mafia family. The informer itself keeps its card."""
    fw = _states(0, stops=1)[0]
    informer = int(fw.game.g[state.INFORMER])
    viewer = next(p for p in range(4) if p != informer)
    dealt = {int(fw.determinize(viewer, key).game.g[state.INFORMER]) for key in range(200)}
    assert dealt == {p for p in range(4) if p != viewer} | {state.NO}
    if informer >= 0:
        assert {int(fw.determinize(informer, k).game.g[state.INFORMER]) for k in range(20)} == {informer}


def test_determinized_state_plays_on():
    """A determinization made mid-turn is replayed at its place in the script: the state can be
    stepped, copied and determinized again, to the end of the game."""
    fw = _states(1, stops=3)[2]
    seat = fw.decision().seat
    w = fw.determinize(seat, 9)
    for _ in range(5):
        if w.over:
            break
        w.apply_policy()
    if not w.over:
        w = w.determinize(w.decision().seat, 10)
        seen = visible(w.game, w.decision().seat)
        _same_view(seen, visible(w.copy().game, w.decision().seat))
    while not w.over:
        w.apply_policy()
    assert sorted(w.result()["ranks"])[0] == 1


def test_news_told_chunk_by_chunk_names_the_cards_revealed_before():
    """The human seat's news (Forward.news), told from one decision to the next, is the recorded
    game told at once: a placement told in a later chunk than its card's reveal names that card,
    not the first card of the deck ("Épicerie (Brooklyn)" for the casino); the chunks alone,
    without the rows before them, would not."""
    from sim.ag.narrate import narrate

    names = ["balanced", "racketeer", "warlord", "politician"]
    fw = Forward.new(strategies=names, seed=1, stop=(0,), record=True)
    told, cuts, cursor = [], [0], 0
    while not fw.over and fw.game.g[state.TURN] <= 3:
        lines, cursor = fw.news(0, cursor)
        told += lines
        cuts.append(cursor)
        fw.apply_policy()
    rows = fw.game.events[:cursor]
    assert told == narrate(rows, fw.names)
    alone = [line for a, b in zip(cuts, cuts[1:], strict=False) for line in narrate(rows[a:b], fw.names)]
    assert alone != told


def placement_news(order):
    """Seat 2's news at each of its placement decisions of the first turns (the godfather's seat
    0 and seat 1 place before it in turn 1), and everything told from one decision to the next."""
    ruleset = Ruleset.load(game="ag", overrides={"placement.order": order})
    names = ["balanced", "racketeer", "warlord", "politician"]
    fw = Forward.new(ruleset, strategies=names, seed=3, stop=(2,), record=True)
    told, at_placement, cursor = [], [], 0
    while not fw.over and fw.game.g[state.TURN] <= 2:
        lines, cursor = fw.news(2, cursor)
        told += lines
        if fw.decision().kind == "place":
            at_placement += lines
        fw.apply_policy()
    return fw, told, at_placement, cursor


def test_ag_t3_the_human_seat_is_not_told_earlier_placements_the_board_hides():
    """AG-T3 simultaneous: while seat 2 places, the news tells no other family's placement of the
    turn (the board beside it hides them); once the placement is over they are told in order,
    so the chunks are the whole game told at once. Sequential placement tells them at once."""
    from sim.ag.narrate import narrate

    fw, told, at_placement, cursor = placement_news("simultaneous")
    others = [fw.names.seat(p) + " places" for p in (0, 1, 3)]
    assert not [line for line in at_placement if any(line.strip().startswith(o) for o in others)]
    assert told == narrate(fw.game.events[:cursor], fw.names)
    assert any(line.strip().startswith(o) for line in told for o in others)
    fw, told, at_placement, cursor = placement_news("sequential")
    assert any(line.strip().startswith(o) for line in at_placement for o in others)
