"""The search player (sim.search.nyk): its presets, legal and reproducible games through the runner,
and the option it picks where brute force knows the best one."""

import numpy as np
import pytest

import strategies
from sim.nyk import state as S
from sim.nyk.batch import GAME_COLUMNS, SEAT_COLUMNS
from sim.nyk.decisions import DECISIONS
from sim.nyk.forward import Forward
from sim.nyk.game import Lineup
from sim.shared.search import (
    ROOT_HALVING, SK_GUARD, SK_HORIZON, SK_ITERATIONS, SK_KINDS, SK_ON, SK_ROOT, SK_VERIFY,
)
from sim.rules import Ruleset
from sim.runner import run
from sim.search import halving
from sim.search import nyk as search

COL = {name: i for i, name in enumerate(SEAT_COLUMNS)}


def preset(tmp_path, name="quick", **knobs):
    lines = ['doc = "a small search"', 'family = "search"', "[search]"]
    lines += [f"{k} = {v!r}".replace("'", '"') for k, v in knobs.items()]
    path = tmp_path / f"{name}.toml"
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def test_the_search_preset_loads_with_its_knobs():
    s = strategies.load("search-200")
    assert s.family == "search" and s.search["iterations"] == 200 and s.search["rollout"] == "tuned"
    assert s.search["root"] == "halving" and s.search["kinds"] == ("action",)
    assert s.params == strategies.load("tuned").params  # unsearched decisions: the rollout's
    assert "search-200" in strategies.available(searchers=True)
    assert "search-200" not in strategies.available()  # batch-only listings keep their speed
    row = Lineup.of(["search-200", "tuned", "tuned", "tuned"], 4).search[0]
    assert row[SK_ON] == 1 and row[SK_ITERATIONS] == 200 and row[SK_KINDS] == 1 << DECISIONS.index("action")
    assert row[SK_ROOT] == ROOT_HALVING and row[SK_GUARD] == 2.0


def test_the_leaf_presets_cut_their_playouts_at_the_end_of_the_turn():
    for name, kinds in (("search-leaf", ("action", "bid")), ("search-leaf-all", DECISIONS)):
        s = strategies.load(name)
        assert s.search["horizon"] == 0 and s.search["root"] == "halving" and s.search["kinds"] == kinds
        row = Lineup.of([name, "tuned"], 2).search[0]
        assert row[SK_HORIZON] == 0 and row[SK_VERIFY] == 0


@pytest.mark.parametrize("text, words", [
    ("iterations = 0", r"search.iterations = 0 is outside \[1, 100000\]"),
    ('rollout = "search-200"', "is itself a search player"),
    ('rollout = "balance"', "did you mean 'balanced'"),
    ('kinds = ["move", "fly"]', "search.kinds"),
    ('opponents = "all"', "choose rollout or actual"),
    ("depth = 3", "unknown search knob 'depth'"),
    ('root = "tree"', "search.root = 'tree': choose uct or halving"),
    ("guard = 11", r"search.guard = 11 is outside \[0, 10\]"),
])
def test_bad_search_knobs_are_one_line_errors(tmp_path, text, words):
    path = tmp_path / "bad.toml"
    path.write_text(f'doc = "x"\nfamily = "search"\n[search]\n{text}\n')
    with pytest.raises(strategies.StrategyError, match=words) as err:
        strategies.load(str(path))
    assert "\n" not in str(err.value)


def test_search_games_are_legal_and_reproducible(tmp_path):
    quick = preset(tmp_path, iterations=6, kinds=["action", "move", "bid"])
    lineup = Lineup.of([quick, "balanced", "tuned", "random"], 4)
    rs = Ruleset.load()
    first = search.play_many(3, 4, 4, lineup, rs)
    again = search.play_many(3, 4, 4, lineup, rs)
    other = search.play_many(4, 4, 4, lineup, rs)
    np.testing.assert_array_equal(first[1], again[1])
    assert not np.array_equal(first[1], other[1])
    games, seats = first[0], first[1]
    assert (games[:, GAME_COLUMNS.index("illegal_decisions")] == 0).all()
    assert (games[:, GAME_COLUMNS.index("turns")] > 5).all()
    assert (seats[:, :, COL["won"]].sum(axis=1) >= 1).all()
    # the search seat rotates round the table with the lineup, as in any batch
    assert sorted(seats[:, :, COL["strategy"]].argmin(axis=1).tolist()) == [0, 1, 2, 3]


def test_a_lineup_with_a_search_seat_plays_through_the_runner(tmp_path):
    quick = preset(tmp_path, iterations=4, kinds=["action"])
    result = run(players=4, strategies=(quick, "tuned", "tuned", "tuned"), games=4, seed=2, workers=1,
                 progress=False, record_turns=True)
    seats = result.seats
    assert len(result.games) == 4 and (result.games.illegal_decisions == 0).all()
    assert set(seats.strategy.astype(str)) == {quick, "tuned"}
    assert len(result.turns) > 4 * 4 * 5


def test_paired_z_is_the_one_sample_t_of_the_differences():
    rng = np.random.default_rng(3)
    x = rng.normal(0.1, 1.0, 50)
    expected = x.mean() / (x.std(ddof=1) / np.sqrt(len(x)))
    assert halving.paired_z(x.sum(), (x * x).sum(), len(x)) == pytest.approx(expected, rel=1e-9)
    assert halving.paired_z(1.0, 1.0, 1) == 0.0            # one pair says nothing
    assert halving.paired_z(3.0, 3.0, 3) == np.inf          # always better, no spread
    assert halving.paired_z(0.0, 0.0, 3) == 0.0


def test_sequential_halving_keeps_the_better_half_and_the_protected_option():
    stats = np.zeros((halving.N_ST, 6))
    stats[halving.ST_TOTAL] = [1.0, 5.0, 3.0, 4.0, 0.5, 2.0]
    stats[halving.ST_COUNT] = 10.0
    alive = np.ones(6, dtype=np.bool_)
    halving.keep_better_half(alive, stats, 4)  # option 4, the worst, is the rollout's own
    assert alive.tolist() == [False, True, True, True, True, False]
    halving.keep_better_half(alive, stats, 4)
    assert alive.tolist() == [False, True, False, True, True, False]


def brute_force_value(fw, seat, w_key, option):
    """The seat's result when world `w_key` is dealt, it takes `option`, and every later decision
    is the strategies' own: played decision by decision through the Python forward model."""
    world = fw.determinize(seat, w_key)
    world.apply(option)
    while not world.over:
        world.apply_policy()
    ranks = world.game.pl[: world.players, S.RANK]
    return 1.0 / (ranks == 1).sum() if ranks[seat] == 1 else 0.0


def reference_halving(value, n, default, budget, guard):
    """Sequential Halving written plainly over `value(world, option)`, the twin of
    sim.search.nyk.halving: the same worlds each round, the default kept, the paired guard."""
    alive, total, count = [True] * n, [0.0] * n, [0] * n
    diffs = [[] for _ in range(n)]
    rounds = int(np.ceil(np.log2(n)))
    w, spent = 0, 0
    for r in range(rounds):
        per = max((budget - spent) // (sum(alive) * (rounds - r)), 1)
        for _ in range(per):
            v = {j: value(w, j) for j in range(n) if alive[j]}
            w += 1
            for j, x in v.items():
                total[j] += x
                count[j] += 1
                spent += 1
                if j != default:
                    diffs[j].append(x - v[default])
        means = [total[j] / count[j] if alive[j] else -np.inf for j in range(n)]
        order = sorted(range(n), key=lambda j: -means[j])  # stable, as mergesort
        keep = set(order[: (sum(alive) + 1) // 2]) | {default}
        alive = [alive[j] and j in keep for j in range(n)]
    best = max((j for j in range(n) if alive[j]), key=lambda j: (total[j] / count[j], -j))
    d = np.array(diffs[best])
    if best != default:
        z = 0.0 if len(d) < 2 else (np.inf if d.std(ddof=1) == 0 and d.mean() > 0 else
                                    0.0 if d.std(ddof=1) == 0 else d.mean() / (d.std(ddof=1) / np.sqrt(len(d))))
        if z < guard:
            best = default
    return best


# guards off the values a paired z of a few 0/1 outcomes hits exactly (there, the two sums compare rounding)
@pytest.mark.parametrize("game_id, guard", [(3, 0.0), (3, 2.0), (8, 1.05), (8, 10.0)])
def test_halving_picks_what_brute_force_over_the_same_worlds_picks(game_id, guard):
    fw = Forward.new(None, ["tuned"] * 4, seed=11, game_id=game_id, stop=[0], kinds=["action"])
    while not 3 <= len(fw.decision().options) <= 6 or fw.game.g[S.TURN] < 4:
        fw.apply_policy()
    n, key, budget = len(fw.decision().options), 977, 40
    default = search.default_option(fw.work[0], fw.env[0], 0)
    after_policy = fw.copy()
    after_policy.apply_policy()
    after_default = fw.copy()
    after_default.apply(default)
    assert np.array_equal(after_policy.game.pl, after_default.game.pl)  # the rollout's own option
    memo = {}

    def value(w, j):
        if (w, j) not in memo:
            memo[w, j] = brute_force_value(fw, 0, halving.world_key(key, w), j)
        return memo[w, j]

    expected = reference_halving(value, n, default, budget, guard)
    assert search.choose(fw, 0, iterations=budget, key=key, actual=True, root="halving", guard=guard) == expected
    played = {j: [v for (w, k), v in memo.items() if k == j] for j in range(n)}
    assert np.mean(played[expected]) >= np.mean(played[default])  # the rollout's option survives every round



def test_a_search_lineup_is_played_in_small_tasks_that_share_out():
    from sim.league.match import BLOCK, SEARCH_BLOCK, match_tasks, resolve

    searched = [resolve(s) for s in ("search-800", "tuned", "tuned", "tuned")]
    batch = [resolve("tuned")] * 4
    tasks, owners = match_tasks([searched, batch], 40, 1, (None, (), "nyk"))
    sizes = [t[-1] for t, k in zip(tasks, owners, strict=True) if k == 0]
    assert sizes == [SEARCH_BLOCK] * (40 // SEARCH_BLOCK) and sum(sizes) == 40
    assert [t[-1] for t, k in zip(tasks, owners, strict=True) if k == 1] == [min(BLOCK, 40)]
    starts = [t[-2] for t, k in zip(tasks, owners, strict=True) if k == 0]
    assert starts == list(range(0, 40, SEARCH_BLOCK))  # the same game ids, whatever the block
