"""The attribution of outcomes to sources of luck (sim.analysis.luck), checked on synthetic games
whose attribution is known in closed form, and the setup hook (sim.rng.redraw_key) that draws a
source afresh from the setup on."""

import math

import numpy as np
import pytest

from sim import rng
from sim.analysis import luck
from sim.analysis.luck.games import Outcome
from sim.shared.game import find, names


class SumTable:
    """A game of T turns: each turn every seat adds w_s * N(0, 1) from each source s; the highest
    total wins. A source's draws depend only on (seed, game, source, salt): one stream each."""

    def __init__(self, game, game_id):
        self.game, self.game_id = game, game_id
        self.base = self._play({}, 0)

    def _draws(self, source, salt):
        return np.random.default_rng([self.game.seed, self.game_id, source, salt]).standard_normal(
            (self.game.turns, self.game.players))

    def _play(self, fresh, from_turn):
        total = np.zeros(self.game.players)
        for s, w in enumerate(self.game.weights):
            x = self._draws(s, 0)
            if s in fresh:
                x[from_turn:] = self._draws(s, fresh[s])[from_turn:]
            total += w * x.sum(axis=0)
        ranks = 1 + np.argsort(np.argsort(-total)).astype(float)
        return Outcome(int(np.argmax(total)), total, ranks, self.game.turns)

    def outcome(self, rows, salt, from_turn=0):
        return self._play({int(s): 1 + salt % (1 << 62) for s in rows}, from_turn)


class SumGame:
    name = "sum"

    def __init__(self, weights, players=2, turns=1, seed=3):
        self.weights, self.players, self.turns, self.seed = weights, players, turns, seed

    def groups(self):
        return {f"source {s}": (s,) for s in range(len(self.weights))}

    def seat_dice(self):
        return {}

    def all_rows(self):
        return tuple(range(len(self.weights)))

    def table(self, game_id):
        return SumTable(self, game_id)

    def play_once(self, game_ids):
        for g in game_ids:
            self.table(g)


def _changed(weights, redrawn, turns, from_turn):
    """P(winner changes), two seats: the score gap D and its counterfactual D' are jointly normal
    with correlation rho = 1 - (variance redrawn) / (variance), and P(sign flips) = arccos(rho)/pi."""
    total = sum(w * w for w in weights) * turns
    moved = sum(weights[s] ** 2 for s in redrawn) * (turns - from_turn)
    return math.acos(1 - moved / total) / math.pi


def _row(summary, source, turn=0):
    return summary[(summary.source == source) & (summary.turn == turn)].iloc[0]


def test_the_unpaired_comparison_covers_a_known_difference_as_often_as_it_says():
    """`luck.compare(paired=False)`: two independent samples of winner changes with known rates
    (0.30 and 0.45); the 95% interval of b - a covers the true 0.15 in about 95% of 400 trials."""
    import pandas as pd

    gen = np.random.default_rng(5)

    def rows(p, n):
        return pd.DataFrame({"game_id": np.arange(n), "source": "die", "turn": 0,
                             "changed": (gen.random(n) < p).astype(int)})

    covered = 0
    for _ in range(400):
        t = luck.compare(rows(0.30, 300), rows(0.45, 250), paired=False).iloc[0]
        covered += t.diff_lo <= 0.15 <= t.diff_hi
    assert 0.92 <= covered / 400 <= 0.98


def test_a_weighted_sum_of_two_sources_is_recovered_within_its_interval():
    # seeded: a 95% interval misses its truth once in twenty seeds (seed 3 puts the baseline's
    # 1/2 just below its interval, z = 1.97); a wrong attribution misses on every seed
    game = SumGame(weights=(2.0, 1.0), seed=5)
    out = luck.summarise(luck.attribute(game, range(3000)))
    for source, rows in (("source 0", (0,)), ("source 1", (1,)), (luck.ALL, (0, 1))):
        row = _row(out, source)
        truth = _changed(game.weights, rows, 1, 0)
        assert row.p_lo <= truth <= row.p_hi, (source, truth, row.p_change)
    assert _row(out, luck.ALL).p_lo <= 0.5 <= _row(out, luck.ALL).p_hi
    # the shares: arccos(0.2)/pi / (1/2) and arccos(0.8)/pi / (1/2)
    share0 = _changed(game.weights, (0,), 1, 0) / 0.5
    assert _row(out, "source 0").share_lo <= share0 <= _row(out, "source 0").share_hi


def test_the_mean_score_change_matches_its_closed_form():
    # redrawing source s moves a seat's score by w_s (X - X'), a normal of variance 2 w_s^2:
    # E|.| = 2 w_s / sqrt(pi)
    game = SumGame(weights=(2.0, 1.0), players=3)
    out = luck.summarise(luck.attribute(game, range(2000)))
    for s, w in enumerate(game.weights):
        row = _row(out, f"source {s}")
        assert row.score_change_lo <= 2 * w / math.sqrt(math.pi) <= row.score_change_hi


def test_from_turn_t_on_the_luck_left_shrinks_as_its_closed_form():
    game = SumGame(weights=(1.0, 1.0), turns=10)
    out = luck.summarise(luck.attribute(game, range(2500), turns=(0, 5, 9)))
    for t in (0, 5, 9):
        row = _row(out, luck.ALL, t)
        truth = _changed(game.weights, (0, 1), 10, t)
        assert row.p_lo <= truth <= row.p_hi, (t, truth, row.p_change)
    assert luck.settled_turn(out) == 9  # arccos(0.5)/pi = 1/3 > 1/4; arccos(0.9)/pi = 0.14 <= 1/4


class DieGame(SumGame):
    """Decided by one die (source 0: a uniform seat wins); source 1 draws and changes nothing."""

    def __init__(self, players=4, seed=5):
        super().__init__(weights=(1.0, 0.0), players=players, turns=1, seed=seed)

    def table(self, game_id):
        return DieTable(self, game_id)


class DieTable(SumTable):
    def _play(self, fresh, from_turn):
        salt = fresh.get(0, 0)
        winner = int(np.random.default_rng([self.game.seed, self.game_id, 0, salt]).integers(self.game.players))
        ranks = np.where(np.arange(self.game.players) == winner, 1.0, 2.0)
        return Outcome(winner, (ranks == 1).astype(float), ranks, 1)


def test_a_game_decided_by_one_die_gives_that_die_all_of_the_outcome():
    game = DieGame(players=4)
    out = luck.summarise(luck.attribute(game, range(2000)))
    die, idle = _row(out, "source 0"), _row(out, "source 1")
    assert die.p_lo <= 0.75 <= die.p_hi                  # a fresh die names another seat 3 times in 4
    assert die.share_lo <= 1 <= die.share_hi             # as often as all luck (fresh draws of its own)
    assert idle.p_change == 0 and idle.score_change == 0 and idle.share == 0


def test_a_rule_change_moves_the_attribution_as_its_closed_form():
    # the weights swapped: source 0 drops from arccos(0.2)/pi to arccos(0.8)/pi, the baseline stays
    a = luck.attribute(SumGame(weights=(2.0, 1.0), seed=5), range(3000))
    b = luck.attribute(SumGame(weights=(1.0, 2.0), seed=5), range(3000))
    out = luck.compare(a, b).set_index("source")
    moved = _changed((1.0, 2.0), (0,), 1, 0) - _changed((2.0, 1.0), (0,), 1, 0)
    assert out.loc["source 0", "diff_lo"] <= moved <= out.loc["source 0", "diff_hi"] and moved < -0.2
    assert out.loc[luck.ALL, "diff_lo"] <= 0 <= out.loc[luck.ALL, "diff_hi"]


def test_the_study_reports_its_cost_against_one_play():
    game = SumGame(weights=(1.0, 1.0))
    result = luck.study(game, range(50), turns=(0,))
    assert result["cost"]["counterfactuals_per_game"] == 3   # two sources and the baseline
    assert result["cost"]["multiple"] > 0


# --- the setup hook: a key that draws chosen sources afresh ---------------------------------------

def _streams(key, game_id=7, n=12):
    streams = np.zeros((n, 4), np.uint64)
    rng.seed_streams(key, game_id, streams)
    return streams


def test_a_redraw_key_without_sources_seeds_as_the_run_key():
    assert np.array_equal(_streams(rng.redraw_key(11, (), 99)), _streams(rng.run_key(11)))


def test_a_redraw_key_moves_only_its_sources_rows():
    plain, moved = _streams(rng.run_key(11)), _streams(rng.redraw_key(11, (2, 5), 99))
    same = np.all(plain == moved, axis=1)
    assert not same[2] and not same[5] and same.sum() == len(same) - 2
    assert np.array_equal(moved[5], rng.redrawn_stream(11, 7, 5, 99))   # the Python face agrees
    assert not np.array_equal(_streams(rng.redraw_key(11, (2,), 98))[2], moved[2])  # salts differ


def test_a_source_out_of_the_mask_is_refused():
    with pytest.raises(ValueError, match="source must be in 0..63"):
        rng.redraw_key(1, (64,), 0)


# --- the two games: off the hook the games are the batch's, table for table ------------------------

def _luck(game):
    from sim.analysis.luck.games import luck_of

    return luck_of(game)(None, find(game).showcase, 4, seed=9)   # every game seats four (its showcase)


@pytest.mark.parametrize("game", names())
def test_with_no_source_drawn_afresh_every_game_is_the_batch_game(game):
    lk = _luck(game)
    batch = find(game).part("game")
    games, seats, _ = batch.play_many(9, 8, 4, batch.Lineup.of(lk.strategies, 4), lk.ruleset)
    for gid in range(8):
        table = lk.table(gid)
        for o in (table.base, table.outcome((), salt=123, from_turn=0)):    # the 6-word key, empty mask
            assert o.winner == games[gid, 2] and o.turns == games[gid, 1], (game, gid)
            assert np.array_equal(o.ranks, seats[gid, :, 2]), (game, gid)
        if game == "nyk":
            assert np.array_equal(table.base.scores, seats[gid, :, 1])
        for t in (1, 3):                                                    # replayed from a snapshot
            o = table.outcome((), salt=5, from_turn=t)
            assert o.winner == table.base.winner and np.array_equal(o.scores, table.base.scores), (game, gid, t)


@pytest.mark.parametrize("game", names())
def test_the_groups_cover_every_source_of_the_seated_game_once(game):
    lk = _luck(game)
    rows = [r for g in lk.groups().values() for r in g]
    seated = {base + p for base in (lk.S.S_DICE0, lk.S.S_POLICY0) for p in range(4)}
    assert len(rows) == len(set(rows)) and seated <= set(rows)
    absent = {base + p for base in (lk.S.S_DICE0, lk.S.S_POLICY0) for p in range(4, lk.S.MAX_SEATS)}
    assert set(rows) == set(range(lk.S.N_STREAMS)) - absent


@pytest.mark.parametrize("game", names())
def test_drawing_every_source_afresh_moves_outcomes_and_one_idle_source_moves_none(game):
    lk = _luck(game)
    moved = 0
    for gid in range(6):
        table = lk.table(gid)
        o = table.outcome(lk.all_rows(), salt=77, from_turn=0)
        moved += (o.winner != table.base.winner) or not np.array_equal(o.scores, table.base.scores)
        absent = lk.S.S_POLICY0 + lk.S.MAX_SEATS - 1                          # the coins of a seat not at the table
        idle = table.outcome((absent,), salt=77, from_turn=0)
        assert idle.winner == table.base.winner and np.array_equal(idle.scores, table.base.scores)
    assert moved >= 5


# --- skill against chance ---------------------------------------------------------------------------

def test_the_pair_coin_share_inverts_a_pure_skill_game_with_coin_flips():
    from sim.analysis.luck.skill import pair_coin_share

    players, q = 4, 0.3
    rng_ = np.random.default_rng(1)
    flips = rng_.random(200_000) < q                      # the game handed to a coin flip
    strong_won = np.where(flips, rng_.integers(players, size=flips.size) == 0, True)
    assert pair_coin_share(strong_won.mean(), players) == pytest.approx(q, abs=0.01)
    assert pair_coin_share(1.0, players) == 0 and pair_coin_share(1 / players, players) == 1
    assert pair_coin_share(0.1, players) == 1             # weaker than its fair share: all chance


POPULATION = ["a", "b", "c", "d"]


def _round_robin(winner_of, games, seed, players=3):
    """A synthetic round robin of POPULATION: winner_of(profile array, rng, games) -> members."""
    from sim.analysis.luck.skill import profiles

    rng_ = np.random.default_rng(seed)
    schedule = profiles(POPULATION, players)
    return schedule, [np.eye(len(POPULATION))[winner_of(np.array(p), rng_, games)] for p in schedule]


def _coin_mixture(x):
    """Pure skill (the highest member wins) with a share x of games won by a uniform seat."""
    def winner_of(slots, rng_, games):
        coin = rng_.random(games) < x
        return np.where(coin, slots[rng_.integers(0, len(slots), games)], slots.max())
    return winner_of


def _thurstone(spread):
    """Each seat performs its member's skill (spread x index) plus normal noise; the best wins.
    Not the estimator's model (Plackett-Luce is the Gumbel-noise version)."""
    def winner_of(slots, rng_, games):
        perf = spread * slots[None, :] + rng_.normal(size=(games, len(slots)))
        return slots[perf.argmax(axis=1)]
    return winner_of


def test_plackett_luce_ratings_are_the_maximum_scipy_finds():
    from scipy.optimize import minimize

    from sim.analysis.luck.skill import PRIOR_SD, fit_ratings, seat_counts

    schedule, game_wins = _round_robin(_thurstone(0.5), 40, seed=3)
    seats = seat_counts(schedule, 4)
    wins = np.stack([g.sum(axis=0) for g in game_wins])

    def loss(r):
        logits = np.where(seats > 0, np.log(np.maximum(seats, 1e-300)) + r, -np.inf)
        log_pi = logits - np.logaddexp.reduce(logits, axis=1, keepdims=True)
        return -(wins * np.where(seats > 0, log_pi, 0)).sum() + (r**2).sum() / (2 * PRIOR_SD**2)

    best = minimize(loss, np.zeros(4), method="BFGS", options={"gtol": 1e-9}).x
    assert np.allclose(fit_ratings(seats, wins), best - best.mean(), atol=1e-5)


def test_the_skill_figure_recovers_a_coin_flip_mixture_it_does_not_model():
    """Truth: a pure-skill game with 40% of results handed to a uniform seat (not Plackett-Luce);
    12 round robins of 200 games a profile: the interval covers 0.4 in most, the mean near it."""
    from sim.analysis.luck.skill import skill_figure

    figures = [skill_figure(s, POPULATION, w) for s, w in (_round_robin(_coin_mixture(0.4), 200, seed)
                                                            for seed in range(12))]
    covered = [f["coin_flip_share_lo"] <= 0.4 <= f["coin_flip_share_hi"] for f in figures]
    assert sum(covered) >= 10
    assert np.mean([f["coin_flip_share"] for f in figures]) == pytest.approx(0.4, abs=0.02)
    assert list(figures[0]["ratings"]) == POPULATION and np.all(np.diff(list(figures[0]["ratings"].values())) > 0)


def test_under_a_thurstone_truth_more_skill_spread_reads_as_fewer_coin_flips():
    from sim.analysis.luck.skill import skill_figure

    shares = [skill_figure(s, POPULATION, w) for s, w in (_round_robin(_thurstone(spread), 200, seed=7)
                                                          for spread in (0.0, 0.3, 1.0, 3.0))]
    x = [f["coin_flip_share"] for f in shares]
    assert x[0] >= 0.9 and shares[0]["coin_flip_share_hi"] == 1.0   # equal players: all chance
    assert x[0] > x[1] > x[2] > x[3] and x[3] < 0.1
    sd = [f["rating_sd"] for f in shares]
    assert sd[0] < sd[1] < sd[2] < sd[3]


def test_a_round_robin_of_the_engine_gives_each_game_one_winner_share():
    from sim.analysis.luck.skill import pair_table, play_round_robin
    from sim.rules import Ruleset

    rs = Ruleset.load(None, {}, game="nyk")
    schedule, game_wins = play_round_robin("nyk", ["random", "simple"], 3, 60, 3, rs)
    assert schedule == [(0, 0, 1), (0, 1, 1)]
    for wins in game_wins:
        assert wins.shape == (60, 2) and np.all(wins.sum(axis=1) <= 1 + 1e-12)
    pairs = pair_table("nyk", ["random", "simple"], 3, schedule, game_wins)
    assert pairs.loc[0, "win_share"] == pytest.approx(game_wins[0][:, 1].mean())  # simple among two randoms


# --- the command ------------------------------------------------------------------------------------

def _invoke(*args):
    from click.testing import CliRunner

    from sim.cli import main

    return CliRunner().invoke(main, ["luck", *map(str, args)])


@pytest.mark.parametrize("args, says", [
    (("--turns", "x"), "not a list of turns"),
    (("--turns", "-1"), "turns are 0"),
    (("--strategies", "nope"), "unknown strategy 'nope'"),
    (("--strategies", "search-200"), "search player"),
    (("--players", "7"), "7 players"),
    (("--skill-games", "4", "--rungs", "random"), "at least two rungs"),
    (("--versus", "nope=1"), "--versus: unknown key 'nope'"),
    (("--versus", "nope"), "'nope' is not KEY=VALUE"),
])
def test_bad_input_is_one_line_and_exit_2(args, says):
    result = _invoke(*args)
    assert result.exit_code == 2 and says in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_the_command_prints_the_table_and_writes_the_figure(tmp_path):
    import json

    result = _invoke("--games", 3, "--seed", 2, "--turns", "0,4", "--json", "--out", tmp_path,
                     "--skill-games", 8, "--rungs", "random,simple", "--decisions", 1, "--max-options", 2,
                     "--versus", "start.district=random")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    sources = {row["source"] for row in data["table"]}
    assert luck.ALL in sources and "police dice" in sources and data["games"] == 3
    assert {row["turn"] for row in data["table"]} == {0, 4}
    assert (tmp_path / "luck.png").stat().st_size > 0 and (tmp_path / "luck.csv").exists()
    assert [(r["stronger"], r["weaker"], r["games"]) for r in data["pairs"]] == [("simple", "random", 8)]
    assert data["rating_sd"] >= 0 and 0 <= data["coin_flip_share"] <= 1
    assert data["skill"]["population"] == ["random", "simple"] and data["skill"]["profiles"] == 3
    assert sum(r["decisions"] for r in data["decisions"]["kind"]) > 10 and (tmp_path / "decisions.csv").exists()
    lots = [r for r in data["versus"]["table"] if r["source"].startswith("setup lots")]
    assert [r["p_change_a"] for r in lots] == [0, 0]     # BROADWAY for all: no lot drawn (both turns)


# --- decisions that matter ----------------------------------------------------------------------------

class ToyForward:
    """Decisions one after another, decision i of n[i] options; the winner is the option of the
    decisions in `deciding`, summed, mod 2 (the others are dead)."""

    def __init__(self, n, deciding, taken=()):
        self.n, self.deciding, self.taken = n, deciding, list(taken)

    @property
    def over(self):
        return len(self.taken) == len(self.n)

    def decision(self):
        from types import SimpleNamespace

        return SimpleNamespace(options=np.zeros((self.n[len(self.taken)], 5)), seat=0, kind=f"k{len(self.taken) % 2}")

    def apply_policy(self):
        self.taken.append(0)

    def played_out(self, k):
        choices = self.taken + [k] + [0] * (len(self.n) - len(self.taken) - 1)
        return sum(choices[i] for i in self.deciding) % 2


def test_only_the_deciding_decisions_matter():
    from sim.analysis.luck.decisions import game_decisions

    fw = ToyForward(n=[3, 1, 2, 5, 2, 4], deciding=(0, 3))
    rows = game_decisions(fw, lambda f, k: f.played_out(k), lambda f: len(f.taken), max_options=6)
    assert [(r["turn"], r["matters"]) for r in rows] == [(0, 1), (2, 0), (3, 1), (4, 0), (5, 0)]  # 1 option: skipped


def test_options_tried_spread_over_a_long_list_and_bound_from_below():
    from sim.analysis.luck.decisions import game_decisions, options_tried

    assert options_tried(3, 6) == [0, 1, 2] and options_tried(10, 4) == [0, 3, 6, 9]
    fw = ToyForward(n=[10], deciding=(0,))
    # options 0, 3, 6, 9 all even/odd mixed: found; a world where only option 7 differs is missed
    assert game_decisions(fw, lambda f, k: f.played_out(k), lambda f: 0, max_options=4)[0]["matters"] == 1
    fw = ToyForward(n=[10], deciding=(0,))
    assert game_decisions(fw, lambda f, k: int(k == 7), lambda f: 0, max_options=4)[0]["matters"] == 0


@pytest.mark.parametrize("game", names())
def test_a_decision_matters_as_its_options_played_out_by_hand_say(game):
    from sim.analysis.luck import decisions as D

    lk = _luck(game)
    df = D.decisions(lk, [0], max_options=3, every=25)
    fw = lk.table(0).forward(stop=range(4), every_kind=True)      # the same decisions, by hand
    played_out = D.played_out
    seen, expected = 0, []
    while not fw.over:
        d = fw.decision()
        if len(d.options) > 1:
            if seen % 25 == 0:
                winners = [played_out(fw, k) for k in D.options_tried(len(d.options), 3)]
                expected.append(int(len(set(winners)) > 1))
            seen += 1
        fw.apply_policy()
    assert list(df.matters) == expected and len(expected) >= 3


def test_a_run_directory_gives_its_own_games_and_refuses_what_it_fixes(tmp_path):
    import json

    import sim

    strategies = "runner,enforcer,networker,balanced"
    played = sim.run(game="nyk", players=4, strategies=strategies.split(","), games=6, seed=4,
                     out=tmp_path / "run", workers=1, overrides={"provocation.stake": 3000})
    of_run = _invoke(tmp_path / "run", "--games", 4, "--json")
    assert of_run.exit_code == 0, of_run.output
    given = _invoke("--strategies", strategies, "--seed", 4, "--set", "provocation.stake=3000", "--games", 4, "--json")
    assert json.loads(of_run.stdout)["table"] == json.loads(given.stdout)["table"]
    lk = _luck("nyk")
    lk.strategies, lk.seed = tuple(strategies.split(",")), 4
    lk.ruleset = lk.ruleset.__class__.load(None, {"provocation.stake": 3000}, game="nyk")
    winners = played.games.sort_values("game_id").winner_seat.to_numpy()
    assert [lk.table(g).base.winner for g in range(6)] == list(winners)   # the run's very games
    refused = _invoke(tmp_path / "run", "--seed", 5)
    assert refused.exit_code == 2 and "drop --seed" in refused.stderr
