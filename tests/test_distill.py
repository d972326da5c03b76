"""The player distilled from the search (sim.league.distill, sim.search.nyk_distill): the labels
against the search run at the same states through the forward model's Python face, every
candidate's picks against the policy asked directly, the cross-entropy fit against an expert
whose knobs are known, and the command's preset and one-line errors."""

import numpy as np
import pytest
from click.testing import CliRunner

import strategies
from sim import rng
from sim.cli import main
from sim.league import distill as D
from sim.nyk.decisions import DECISIONS
from sim.nyk.forward import Forward
from sim.nyk.state import ALL_KINDS, DECISIONS as G_DECISIONS, FW_NOPTS, GAME_DTYPE
from sim.search import nyk_distill as nd
from sim.search.halving import decision_key
from sim.search.nyk import halving, leaf_model
from strategies.nyk.policy import choose as policy_choice

SEED, GAMES = 3, 2
RULES = (None, (), "nyk")


@pytest.fixture(scope="module")
def tuned():
    return strategies.load("tuned")


@pytest.fixture(scope="module")
def labels(tuned):
    return D.label_games(tuned, GAMES, SEED, 4, RULES)


def walk(game_id, seat):
    """The forward states of the labelled seat's decisions in a mirror of `tuned`, in order."""
    fw = Forward.new(None, ["tuned"] * 4, seed=SEED, game_id=game_id, stop=[seat])
    while not fw.over:
        yield fw
        fw.apply_policy()


def test_labels_are_the_search_at_each_decision_the_apprentice_meets(labels):
    """Each row: the decision met through the Python face (kind, options), the search's option
    there (the same halving, keyed as a searching seat's), the apprentice's own option."""
    rows = iter(labels.rows)
    recs = np.zeros(3, GAME_DTYPE).view(np.recarray)
    for i, (game_id, seat) in enumerate(zip(labels.game_ids, labels.seats, strict=True)):
        for fw in walk(int(game_id), int(seat)):
            row = next(rows)
            d = fw.decision()
            assert (row[nd.L_GAME], DECISIONS[row[nd.L_KIND]], row[nd.L_OPTIONS]) == (i, d.kind, len(d.options))
            key = decision_key(rng.run_key(SEED), int(game_id), fw.work[0].g[G_DECISIONS], int(seat))
            senv = fw.env.copy()
            k, _ = halving(fw.snap[0], fw.work[0], fw.env[0], senv[0], recs[0], recs[1], recs[2], int(seat),
                           D.DEFAULT_KNOBS["budget"], ALL_KINDS, False, False, key, D.DEFAULT_KNOBS["guard"],
                           D.DEFAULT_KNOBS["horizon"], leaf_model(True), 0)
            assert row[nd.L_EXPERT] == k
            assert row[nd.L_OWN] == policy_pick(fw, int(seat), fw.env[0].params[seat])
    assert next(rows, None) is None
    assert 0 < labels.departures.mean() < 1  # the search keeps the apprentice's option at most decisions


def test_the_labelling_loop_calls_the_turn_and_the_policy_by_symbol(labels):
    """The loop links neither the rulebook, the policy nor the search's halving again: it calls
    them by symbol (sim.shared.late), so it compiles in seconds, not in the engine's minute and a
    half and the search's twenty seconds."""
    linked = next(iter(nd.label.overloads.values())).library._get_module_for_linking()
    defined = [f.name for f in linked.functions if not f.is_declaration]
    assert not any("chapters" in name or "policy" in name or "halving_counts" in name for name in defined)
    late = [f.name for f in linked.functions if f.is_declaration and f.name.startswith("mobsim.late.")]
    assert all(any(piece in name for name in late) for piece in ("play_turn", "choose", "halving_counts"))


def policy_pick(fw, seat, params):
    """The option a knob vector's policy takes at the pending decision (on a copy of the record)."""
    work, env = fw.work.copy(), fw.env.copy()
    env[0].params[seat, :len(params)] = params
    return policy_choice(work[0], env[0], seat, work[0].fw_opts, work[0].fw[FW_NOPTS], work[0].fw_ctx)


def test_candidate_picks_are_the_policy_asked_at_each_labelled_state(labels, tuned):
    balanced = strategies.load("balanced")
    picks = D.candidate_picks(tuned, labels, np.array([tuned.params, balanced.params]))
    np.testing.assert_array_equal(picks[0], labels.rows[:, nd.L_OWN])
    expected = [policy_pick(fw, int(seat), balanced.params)
                for game_id, seat in zip(labels.game_ids, labels.seats, strict=True)
                for fw in walk(int(game_id), int(seat))]
    np.testing.assert_array_equal(picks[1], expected)
    assert (picks[1] != picks[0]).any()


def test_labels_of_other_games_are_refused(labels, tuned):
    other = D.Labels(labels.game_ids + 1, (labels.game_ids + 1) % 4, labels.rows, SEED, 4, RULES)
    with pytest.raises(RuntimeError, match="label them again"):
        D.candidate_picks(tuned, other, np.array([tuned.params]))


def test_the_fit_moves_the_knobs_toward_an_expert_it_can_imitate(labels, tuned):
    """An expert whose choices are another knob vector's (balanced): the fitted knobs agree with
    it more than the start does, on the fitted games and the held-out ones."""
    balanced = strategies.load("balanced")
    rows = labels.rows.copy()
    rows[:, nd.L_EXPERT] = D.candidate_picks(tuned, labels, np.array([balanced.params]))[0]
    synthetic = D.Labels(labels.game_ids, labels.seats, rows, SEED, 4, RULES)
    _, report = D.fit_knobs(tuned, synthetic, seed=0, generations=4, population=12, elite=4, spread=0.25)
    assert report["fitted_after"] > report["fitted_before"]
    assert report["held_out_after"] > report["held_out_before"]


def test_distill_command_writes_a_knob_preset_with_its_provenance(tmp_path):
    out = tmp_path / "mine.toml"
    r = CliRunner().invoke(main, ["strategies", "distill", "--rounds", "1", "--games", "4", "--generations", "1",
                                  "--population", "3", "--elite", "2", "--players", "3", "--workers", "1",
                                  "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert "held out" in r.output and f"saved {out}" in r.output
    s = strategies.load(str(out))
    assert s.family == "param" and len(s.params) == len(strategies.load("tuned").params)
    assert s.provenance["rounds"] == 1 and s.provenance["players"] == 3
    assert s.provenance["command"].startswith("mobsim strategies distill")


@pytest.mark.parametrize("args, message", [
    (["--elite", "8", "--population", "8"], "--elite"),
    (["--start", "search-leaf"], "--start"),
    (["--games", "2"], "--games"),
])
def test_distill_command_refuses_bad_input_in_one_line(args, message, tmp_path):
    r = CliRunner().invoke(main, ["strategies", "distill", *args, "--out", str(tmp_path / "x.toml")])
    assert r.exit_code == 2 and message in r.output
    assert not (tmp_path / "x.toml").exists()


def test_distill_command_keeps_shipped_presets_without_force():
    r = CliRunner().invoke(main, ["strategies", "distill", "--games", "4"])
    assert r.exit_code == 2 and "--force" in r.output


def test_the_step_departures_example_counts_the_labelled_steps(doc_example):
    """docs/examples/search-by-kind/step-departures.py (quoted in docs/learned.md): its counts are
    those of the labels' step rows, a stop where `distilled` steps on among the departures."""
    got = doc_example("search-by-kind/step-departures.py").step_departures(1, 11)
    rows = D.label_games(strategies.load("distilled", "nyk"), 1, 11, first_id=5000).rows
    steps = rows[rows[:, nd.L_KIND] == DECISIONS.index("step")]
    departs = steps[:, nd.L_EXPERT] != steps[:, nd.L_OWN]
    assert got["decisions"] == len(rows) and got["steps"] == len(steps) > 0
    assert got["departures"] == departs.sum() and 0 <= got["stops_where_it_steps_on"] <= got["departures"]
