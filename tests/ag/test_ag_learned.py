"""The learned American Gangsters player (strategies.ag.learned, sim.search.ag_learn, sim.league.learn):
zero weights but the heuristic's pick play the base preset's games exactly; a hand-made weight
moves the pick where it says; the engine's pick is the fit's `picks` at the same states; the
weights file round-trips and a changed file is refused; `learn --game ag` at a tiny size writes
a preset that loads."""

import dataclasses

import numpy as np
import pytest
from click.testing import CliRunner

import strategies
from sim.ag.decisions import CTX_DECISION, D_PLACE, DECISIONS, OP_SLOT
from sim.ag.env import LEARNED_SLOT
from sim.ag.forward import Forward
from sim.ag.state import FW_OPTS_N
from sim.cli import main
from sim.league import learn as L
from sim.league.match import match
from sim.search import ag_learn, nyk_learn
from sim.search.ag_learn import heuristic_pick
from sim.search.halving import confirmed
from strategies.ag.learned import (
    F_BASE, F_HOME, F_LAST, FEATURES, N_FEATURES, N_VALUES, features, read_weights, write_weights,
)
from strategies.ag.policy import LEARNED, choose as policy_choice, option_values


def learned_preset(folder, weights, base="warlord", name="mine"):
    """A learned American Gangsters preset over `base`'s knobs with these weights, written to `folder`."""
    path = folder / f"{name}.npz"
    write_weights(path, weights)
    result = L.LearnResult(weights, base, strategies.load(base, "ag").knobs(), [], {"made_by": "the test"})
    preset = folder / f"{name}.toml"
    preset.write_text(L.preset_text(result, name, path.name, strategies.file_sha256(path)))
    return preset


def test_the_heuristics_pick_alone_plays_the_base_presets_games(tmp_path):
    preset = str(learned_preset(tmp_path, L.start_weights("ag")))
    assert strategies.load(preset, "ag").family == "learned"
    a = match([preset, "balanced", preset, "simple"], games=24, seed=4, workers=1, game="ag")
    b = match(["warlord", "balanced", "warlord", "simple"], games=24, seed=4, workers=1, game="ag")
    assert a.wins == b.wins


def engine_and_fit_picks(preset, kinds_seen, limit=80):
    """At each decision of seat 0 in a few games of the learned preset in every seat: the jitted
    policy's pick, the pick the training's `picks` computes from the same features, the decision
    kind, the options and the heuristic's pick."""
    out = []
    x = np.empty(N_FEATURES)
    for game_id in range(3):
        fw = Forward.new(None, [preset] * 4, seed=2, game_id=game_id, stop=[0])
        while not fw.over and len(out) < limit:
            work, env = fw.work.copy(), fw.env.copy()
            w, seat = work[0], fw.decision().seat
            n, kind = int(w.g[FW_OPTS_N]), int(w.ctx[CTX_DECISION])
            saved = w.rng.copy()
            engine = policy_choice(w, env[0], seat, w.opts, n, w.ctx)
            w.rng[:] = saved
            base = heuristic_pick(w, env[0], seat)
            rows = np.zeros((n, N_FEATURES))
            vals = np.empty((n, N_VALUES))
            option_values(w, env[0], seat, kind, w.opts, n, w.ctx, vals)
            for j in range(n):
                features(w, env[0], seat, kind, w.opts, n, w.ctx, base, j, vals, x)
                rows[j] = x
            data = L.Data(np.array([[0, kind, n, base, 0, 0]]), rows, np.zeros(n), np.zeros(1, bool))
            assert env[0].kinds[seat] == LEARNED
            own = env[0].learned[int(env[0].params[seat, LEARNED_SLOT])]   # the seat's weights set
            out.append((engine, int(L.picks(data, own)[0]), kind, w.opts[:n].copy(), base))
            kinds_seen.add(kind)
            fw.apply_policy()
    return out


def test_the_engines_pick_is_the_fits_pick_at_the_same_state(tmp_path):
    w = np.random.default_rng(0).normal(size=(len(DECISIONS), N_FEATURES))
    kinds = set()
    picks = engine_and_fit_picks(str(learned_preset(tmp_path, w)), kinds)
    assert len(picks) >= 30 and len(kinds) >= 2
    assert all(engine == fit for engine, fit, *_ in picks)


def test_a_hand_made_weight_moves_the_pick_where_it_says(tmp_path):
    """AG-T3: a large weight on `home` at the placement keeps every piece home where the rules let
    it stay (the last option of a placement, OP_SLOT NO); every other kind plays the heuristic."""
    w = L.start_weights("ag")
    w[D_PLACE, F_HOME] = 5.0
    picks = engine_and_fit_picks(str(learned_preset(tmp_path, w)), set())
    homes = [(engine, opts) for engine, _, kind, opts, _ in picks
             if kind == D_PLACE and (opts[:, 0] == OP_SLOT).all() and opts[-1, 1] < 0]
    assert homes and all(engine == len(opts) - 1 for engine, opts in homes)
    assert all(engine == base for engine, _, kind, _, base in picks if kind != D_PLACE)


def test_the_weights_file_round_trips_and_a_changed_file_is_refused(tmp_path):
    w = np.random.default_rng(3).normal(size=(len(DECISIONS), N_FEATURES))
    preset = learned_preset(tmp_path, w)
    assert np.array_equal(read_weights(tmp_path / "mine.npz"), w)
    s = strategies.load(str(preset), "ag")
    assert s.table["sha256"] == strategies.file_sha256(tmp_path / "mine.npz")
    np.savez_compressed(tmp_path / "other.npz", weights=w[:, :3], features=np.array(FEATURES[:3]))
    with pytest.raises(ValueError, match="not weights of the American Gangsters learned player"):
        read_weights(tmp_path / "other.npz")
    (tmp_path / "mine.npz").write_bytes(b"changed")
    with pytest.raises(strategies.StrategyError, match="does not match its sha256"):
        strategies.load(str(preset), "ag")


def test_learn_at_a_tiny_size_writes_a_preset_that_loads(tmp_path, monkeypatch):
    tiny = dataclasses.replace(L.SIDES["ag"], knobs={"budget": 8, "guard": 2.0})
    monkeypatch.setitem(L.SIDES, "ag", tiny)
    out = tmp_path / "learned.toml"
    runner = CliRunner()
    done = runner.invoke(main, ["strategies", "learn", "--game", "ag", "--iterations", "1", "--games", "4",
                                "--seed", "1", "--workers", "1", "--out", str(out)])
    assert done.exit_code == 0, done.output
    s = strategies.load(str(out), "ag")
    assert s.family == "learned" and s.knobs() == strategies.load("equilibrium-1", "ag").knobs()
    assert s.provenance["base"] == "equilibrium-1" and s.provenance["game"] == "ag"
    assert "engine_commit" in s.provenance and len(s.provenance["held_out_agreement"]) == 1
    w = read_weights(tmp_path / "learned.npz")
    assert np.isfinite(w).all() and w[:, F_BASE].min() > 0
    again = runner.invoke(main, ["strategies", "learn", "--game", "ag", "--out", str(out)])
    assert again.exit_code == 2 and "exists" in again.output
    bad = runner.invoke(main, ["strategies", "learn", "--game", "ag", "--base", "random",
                               "--out", str(tmp_path / "x.toml")])
    assert bad.exit_code == 2 and "not a knob preset" in bad.output and "parametric" in bad.output


def test_the_label_rows_are_the_fits_columns():
    assert (ag_learn.R_GAME, ag_learn.R_KIND, ag_learn.R_OPTIONS, ag_learn.R_BASE, ag_learn.R_EXPERT,
            ag_learn.R_FIRST) == (nyk_learn.R_GAME, nyk_learn.R_KIND, nyk_learn.R_OPTIONS, nyk_learn.R_BASE,
                                  nyk_learn.R_EXPERT, nyk_learn.R_FIRST)
    assert len(FEATURES) == N_FEATURES and FEATURES[F_LAST] == "last"


def test_learned_training_a_departure_a_second_search_does_not_repeat_is_labelled_the_apprentices_pick():
    # docs/learned.md, Training: the confirmed labels (sim.search.halving.confirmed)
    counts, again = np.array([1.0, 4.0, 2.0]), np.array([3.0, 1.0, 2.0])
    assert confirmed(1, 0, 2, counts, again) == 2 and counts.tolist() == [4.0, 5.0, 4.0]
    assert confirmed(1, 1, 2, np.zeros(3), np.zeros(3)) == 1
    args = (strategies.load("warlord", "ag"), L.start_weights("ag"), 4, 3, 4, (None, (), "ag"))
    knobs = {"budget": 8, "guard": 0.5}   # a noisy search: many departures, few repeated
    once = L.label_games(*args, knobs=knobs, game="ag", confirm=False)
    twice = L.label_games(*args, knobs=knobs, game="ag", confirm=True)
    cols = [ag_learn.R_GAME, ag_learn.R_KIND, ag_learn.R_OPTIONS, ag_learn.R_BASE, ag_learn.R_FIRST]
    assert (once.decisions[:, cols] == twice.decisions[:, cols]).all()   # the same states
    first, kept = once.decisions[:, ag_learn.R_EXPERT], twice.decisions[:, ag_learn.R_EXPERT]
    own = once.decisions[:, ag_learn.R_BASE]   # the start weights' apprentice: the heuristic's pick
    departed = first != own
    assert (kept[~departed] == own[~departed]).all()
    assert ((kept == first) | (kept == own)).all()
    dropped = departed & (kept == own)
    assert dropped.any() and (departed & (kept == first)).any()
    assert (twice.visits >= once.visits).all() and twice.visits.sum() > once.visits.sum()
    # the loop calls the turn by symbol (sim.shared.late): it links the search, not the rulebook again
    linked = next(iter(ag_learn.label.overloads.values())).library._get_module_for_linking()
    assert not any("chapters" in f.name for f in linked.functions if not f.is_declaration)
    assert any(f.name.startswith("mobsim.late.") and "next_turn" in f.name for f in linked.functions)
