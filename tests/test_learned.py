"""The learned New York Kings player (strategies.nyk.learned, sim.league.learn, sim.search.nyk_learn):
zero weights but the heuristic's pick play the base preset's games exactly; the engine's pick is
the fit's `picks` at the same states; the fit recovers a known logit; a tiny training writes a
preset that loads with its checksum; bad input is one line."""

import dataclasses

import numpy as np
import pytest
from click.testing import CliRunner

import strategies
from sim.cli import main
from sim.league import learn as L
from sim.league.match import match
from sim.nyk.decisions import CTX_DECISION, DECISIONS
from sim.nyk.env import LEARNED_SLOT
from sim.nyk.forward import Forward
from sim.nyk.state import FW_NOPTS
from sim.search.nyk_learn import heuristic_pick
from strategies.nyk.learned import F_BASE, F_LAST, FEATURES, N_FEATURES, features, write_weights
from strategies.nyk.policy import choose as policy_choice

RULES = (None, (), "nyk")


def learned_preset(folder, weights, base="distilled", name="mine"):
    """A learned preset over `base`'s knobs with these weights, written to `folder`."""
    path = folder / f"{name}.npz"
    write_weights(path, weights)
    result = L.LearnResult(weights, base, strategies.load(base).knobs(), [], {"made_by": "the test"})
    preset = folder / f"{name}.toml"
    preset.write_text(L.preset_text(result, name, path.name, strategies.file_sha256(path)))
    return preset


def test_the_heuristics_pick_alone_plays_the_base_presets_games(tmp_path):
    preset = str(learned_preset(tmp_path, L.start_weights()))
    assert strategies.load(preset).family == "learned"
    a = match([preset, "tuned", preset, "balanced"], games=40, seed=4, workers=1)
    b = match(["distilled", "tuned", "distilled", "balanced"], games=40, seed=4, workers=1)
    assert a.wins == b.wins


def test_other_weights_change_the_games(tmp_path):
    w = L.start_weights()
    w[:, F_LAST] = 2.0   # the last option always
    preset = str(learned_preset(tmp_path, w))
    a = match([preset, "tuned", "tuned", "tuned"], games=40, seed=4, workers=1)
    b = match(["distilled", "tuned", "tuned", "tuned"], games=40, seed=4, workers=1)
    assert a.wins != b.wins


def test_two_learned_players_at_one_table_each_play_their_own_weights(tmp_path):
    """Each learned seat reads its own preset's weights set (env.learned[k], k in its knobs'
    LEARNED_SLOT column): a heuristic-only learned preset beside another learned preset plays
    `distilled`'s games exactly, and the other plays its own weights, not the first's."""
    w = L.start_weights()
    w[:, F_LAST] = 2.0
    heuristic = str(learned_preset(tmp_path, L.start_weights(), name="heuristic"))
    other = str(learned_preset(tmp_path, w, name="other"))
    both = match([heuristic, other, "tuned", "tuned"], games=40, seed=4, workers=1)
    assert both.wins == match(["distilled", other, "tuned", "tuned"], games=40, seed=4, workers=1).wins
    assert both.wins != match(["distilled", "distilled", "tuned", "tuned"], games=40, seed=4, workers=1).wins


def test_more_learned_files_than_the_engine_holds_is_one_line():
    from strategies.nyk.learned import WEIGHTS, weights_of

    with pytest.raises(ValueError, match=f"at most {WEIGHTS.slots} learned players' weights files, got 9"):
        weights_of(tuple({"file": f"w{k}.npz"} for k in range(9)))


def test_the_engines_pick_is_the_fits_pick_at_the_same_state(tmp_path):
    """At each decision of a seat, the jitted policy (family learned) takes the option the
    training's `picks` computes from the same features, for random weights."""
    rng = np.random.default_rng(0)
    w = rng.normal(size=(len(DECISIONS), N_FEATURES))
    preset = str(learned_preset(tmp_path, w))
    fw = Forward.new(None, [preset, "tuned", "tuned", "tuned"], seed=2, game_id=0, stop=[0])
    checked = 0
    x = np.empty(N_FEATURES)
    while not fw.over and checked < 60:
        work, env = fw.work.copy(), fw.env.copy()
        n, seat = int(work[0].fw[FW_NOPTS]), fw.decision().seat
        saved = work[0].rng.copy()
        engine = policy_choice(work[0], env[0], seat, work[0].fw_opts, n, work[0].fw_ctx)
        work[0].rng[:] = saved
        base = heuristic_pick(work[0], env[0], seat)
        rows = np.zeros((n, N_FEATURES))
        for j in range(n):
            features(work[0], env[0], seat, work[0].fw_opts, n, base, j, x)
            rows[j] = x
        kind = int(work[0].fw_ctx[CTX_DECISION])
        data = L.Data(np.array([[0, kind, n, base, 0, 0]]), rows, np.zeros(n), np.zeros(1, bool))
        assert L.picks(data, env[0].learned[int(env[0].params[seat, LEARNED_SLOT])])[0] == engine   # the seat's set
        checked += 1
        fw.apply_policy()
    assert checked >= 20


def test_the_fit_recovers_a_known_logit():
    """Decisions drawn from a known conditional logit: the fitted weights come back close."""
    rng = np.random.default_rng(1)
    truth = np.array([1.5, -1.0, 0.5])
    xs, owner, t = [], [], []
    for d in range(3000):
        n = int(rng.integers(2, 6))
        x = rng.normal(size=(n, 3))
        p = np.exp(x @ truth)
        p /= p.sum()
        xs.append(x)
        owner += [d] * n
        t.append(np.eye(n)[rng.choice(n, p=p)])
    w = L.fit_kind(np.concatenate(xs), np.concatenate(t), np.array(owner), 3000, np.zeros(3), l2=0.0)
    assert w == pytest.approx(truth, abs=0.15)


def test_a_tiny_training_writes_a_preset_that_loads_and_bad_input_is_one_line(tmp_path):
    result = L.learn(seed=1, iterations=1, games=4, workers=1, knobs={"budget": 8})
    assert result.weights.shape == (len(DECISIONS), N_FEATURES) and np.isfinite(result.weights).all()
    row = result.iterations[0]
    assert row["decisions"] > 0 and 0 <= row["held_out_after"] <= 1
    assert result.weights[:, F_BASE].min() > 0   # the heuristic's pick stays the strongest pull
    preset = learned_preset(tmp_path, result.weights)
    s = strategies.load(str(preset))
    assert s.family == "learned" and s.table["sha256"] == strategies.file_sha256(tmp_path / "mine.npz")
    (tmp_path / "mine.npz").write_bytes(b"changed")
    with pytest.raises(strategies.StrategyError, match="does not match its sha256"):
        strategies.load(str(preset))
    runner = CliRunner()
    bad = runner.invoke(main, ["strategies", "learn", "--game", "pig", "--out", str(tmp_path / "x.toml")])
    assert bad.exit_code == 2 and "New York Kings and American Gangsters only" in bad.output
    bad = runner.invoke(main, ["strategies", "learn", "--base", "random", "--out", str(tmp_path / "x.toml")])
    assert bad.exit_code == 2 and "not a knob preset" in bad.output
    assert len(FEATURES) == N_FEATURES


def test_a_replay_builds_the_learned_seats_env_as_the_run_does(tmp_path):
    """The replay's env carries the learned weights, as play_one's does (else a learned seat replays
    another game)."""
    from sim.nyk.game import play_one
    from sim.replay import example_spec
    from sim.replay.record import _env, _lineup_and_seating
    from sim.rules.ruleset import Ruleset

    w = L.start_weights()
    w[:, F_LAST] = 2.0
    preset = str(learned_preset(tmp_path, w))
    spec = dataclasses.replace(example_spec("nyk"), strategies=(preset, "tuned", "tuned", "tuned"), players=4)
    rs = Ruleset.load()
    lineup, seating = _lineup_and_seating(spec)
    played = play_one(spec.seed, spec.players, list(spec.strategies), rs, game_id=spec.game_id)
    assert np.array_equal(_env(spec, rs, lineup, seating).learned, played.env.learned)
    assert np.abs(played.env.learned).sum() > 0


def test_learned_training_a_departure_a_second_search_does_not_repeat_is_labelled_the_apprentices_pick():
    # docs/learned.md, the training: the confirmed labels (sim.search.halving.confirmed)
    from sim.search import nyk_learn as nl

    args = (strategies.load("distilled"), L.start_weights("nyk"), 4, 3, 4, RULES)
    knobs = {"budget": 8, "guard": 0.5}   # a noisy search: many departures, few repeated
    once = L.label_games(*args, knobs=knobs, confirm=False)
    twice = L.label_games(*args, knobs=knobs, confirm=True)
    cols = [nl.R_GAME, nl.R_KIND, nl.R_OPTIONS, nl.R_BASE, nl.R_FIRST]
    assert (once.decisions[:, cols] == twice.decisions[:, cols]).all()   # the same states
    first, kept = once.decisions[:, nl.R_EXPERT], twice.decisions[:, nl.R_EXPERT]
    own = once.decisions[:, nl.R_BASE]   # the start weights' apprentice: the heuristic's pick
    departed = first != own
    assert (kept[~departed] == own[~departed]).all() and ((kept == first) | (kept == own)).all()
    assert (departed & (kept == own)).any()
    assert (twice.visits >= once.visits).all()
