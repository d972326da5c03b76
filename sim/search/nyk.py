"""A New York Kings player that searches: single-observer information-set MCTS, jitted end to end.

The search is a driver of the forward model (sim.nyk.forward): the engine never calls it, so the
jitted call graph stays acyclic (numba issue 6061). At each of the seat's searched decisions:

- every iteration determinizes the root from the seat's view with a new key (the hidden cards,
  decks, secret destinations and every stream of luck the seat cannot predict are re-dealt,
  sim.nyk.script.determinize_now), as IS-MCTS does (Cowling, Powley & Whitehouse 2012; OpenSpiel's
  `is_mcts` is the anchor);
- it descends the seat's own tree with UCB, halting the replay only at the seat's next searched
  decisions (the other seats and chance are open-loop, as in TAG and Ludii). A node's children are
  named by the option's row, since the options met at a node vary across determinizations; UCB
  uses availability counts (how often an option was on offer) in place of the parent's visits;
- it expands one option and plays the game out with the playout policies: the rollout preset in
  every seat (`opponents = rollout`) or the game's actual strategies (`actual`), the switch made
  at the determinization (FW_SWAP), so the part of the turn before the root replays as it was;
- it backs up the seat's result: 1 for a win, 1/k for a win shared by k, else 0 (or, with
  `reward = "rank"`, (n - rank) / (n - 1)).

The option chosen is the root child visited most. Decisions of kinds not searched, and decisions
with a single option, are the rollout preset's (the seat's env policy). The other root,
`halving` (Sequential Halving on common worlds, `halving`), may cut its playouts at a turn's start
and take the leaf model's value there (knob `horizon`, sim.search.nyk_leaf).
"""

import numpy as np
from numba import njit, types

from sim.nyk.batch import summarise_game, summarise_seats
from sim.nyk.chapters.base import choose_late as policy_choice
from sim.nyk.forward import HALTED, OVER, TRUNCATED, advance, apply_choice, apply_for, copy_record, start
from sim.nyk.env import ENV_DTYPE, N_POLICY_PARAMS, make_env, seat_lineup
from sim.nyk.state import (
    DECISIONS as G_DECISIONS, ALL_KINDS, FW_DET_AT, GAME_DTYPE, FW_POLICY, FW_DET_KEY, FW_DET_SEAT, FW_HALT,
    FW_KINDS0, FW_NOPTS, FW_POS, FW_SEAT, FW_SWAP, MAX_SEATS, MAX_TURNS, N_PLAYERS, RANK, TURNS_PLAYED,
)
from sim.rng import splitmix64
from sim.search.halving import (
    N_ST, ST_COUNT, VERIFY_WORLD0, decision_key, halving_choice, halving_rounds, keep_better_half, option_hash,
    paired_z, tally_world, world_key, worlds_this_round,
)
from sim.search.nyk_leaf import LEAF_SHAPE, N_FEATURES, leaf_value
from sim.shared.late import late, record
from sim.shared.search import (
    ROOT_HALVING, SK_ACTUAL, SK_EXPLORATION, SK_GUARD, SK_HORIZON, SK_ITERATIONS, SK_KINDS, SK_ON, SK_RANK, SK_ROOT,
    SK_VERIFY,
)
from strategies import SEARCH_ROOTS

# node fields of the tree (float64 rows: visits and values are sums)
(T_PARENT, T_HASH, T_CHILD, T_NEXT, T_VISITS, T_VALUE, T_AVAIL) = range(7)
N_T = 7


@njit(cache=True)
def find_child(tree, node, h):
    c = np.int64(tree[node, T_CHILD])
    while c >= 0:
        if tree[c, T_HASH] == h:
            return c
        c = np.int64(tree[c, T_NEXT])
    return -1


@njit(cache=True)
def add_child(tree, n_nodes, node, h):
    tree[n_nodes, T_PARENT] = node
    tree[n_nodes, T_HASH] = h
    tree[n_nodes, T_CHILD] = -1
    tree[n_nodes, T_NEXT] = tree[node, T_CHILD]
    tree[n_nodes, T_VISITS] = 0.0
    tree[n_nodes, T_VALUE] = 0.0
    tree[n_nodes, T_AVAIL] = 0.0
    tree[node, T_CHILD] = n_nodes
    return n_nodes


@njit(cache=True)
def seat_value(game, seat, by_rank):
    """The seat's result: 1 for a win, 1/k for a win shared by k (NYK-E1 `shared`), else 0; or,
    `by_rank`, (n - rank) / (n - 1): 1 first, 0 last (a shaping that credits second places)."""
    n = game.g[N_PLAYERS]
    if by_rank:
        return (n - game.pl[seat, RANK]) / max(n - 1, 1)
    if game.pl[seat, RANK] != 1:
        return 0.0
    k = 0
    for q in range(n):
        k += game.pl[q, RANK] == 1
    return 1.0 / k


@njit(cache=True)
def descend(tree, n_nodes, path, it_snap, it_work, env, seat, exploration, coin):
    """One iteration below the determinized root (halted in `it_work`): select with UCB while
    every option on offer has a node, expand one that has none, play out. Returns (nodes used,
    path length); the path holds the nodes whose statistics the result updates."""
    node, depth = 0, 0
    r = HALTED
    while r == HALTED:
        n = it_work.fw[FW_NOPTS]
        opts = it_work.fw_opts
        fresh, n_fresh = -1, 0
        for j in range(n):
            c = find_child(tree, node, option_hash(opts, j))
            if c < 0:
                n_fresh += 1
                coin[0], _ = splitmix64(coin[0])
                if coin[0] % np.uint64(n_fresh) == 0:  # reservoir: a new option drawn uniformly
                    fresh = j
            else:
                tree[c, T_AVAIL] += 1.0
        if fresh >= 0 and n_nodes < tree.shape[0]:
            c = add_child(tree, n_nodes, node, option_hash(opts, fresh))
            n_nodes += 1
            depth += 1
            path[depth] = c
            it_snap.fw[FW_HALT] = 0  # the playout: nobody halts any more
            r = apply_choice(it_snap, it_work, env, fresh)
            break
        best, best_j, best_c = -1.0, -1, -1
        for j in range(n):
            c = find_child(tree, node, option_hash(opts, j))
            if c < 0:
                continue
            visits = tree[c, T_VISITS]
            score = (tree[c, T_VALUE] / visits + exploration * np.sqrt(np.log(tree[c, T_AVAIL]) / visits)
                     if visits > 0 else 1e9)
            if score > best:
                best, best_j, best_c = score, j, c
        if best_j < 0:  # the tree is full and nothing here has a node: play out
            it_snap.fw[FW_HALT] = 0
            r = apply_choice(it_snap, it_work, env, 0)
            break
        depth += 1
        path[depth] = best_c
        node = best_c
        r = apply_choice(it_snap, it_work, env, best_j)
    if r != OVER:
        return n_nodes, -1
    return n_nodes, depth


@njit(cache=True)
def prepare_root(root_snap, root_work, env, senv, base, seat, kinds, actual):
    """`base`: the root's snapshot set to determinize at the root from `seat`'s view and to halt
    at its next searched decision; `senv` the playouts' policies (`actual`: the game's own)."""
    copy_record(root_snap, base)
    base.fw[FW_HALT] = np.int64(1) << np.int64(seat)
    base.fw[FW_KINDS0 + seat] = kinds
    base.fw[FW_DET_AT] = root_work.fw[FW_POS]
    base.fw[FW_DET_SEAT] = seat
    base.fw[FW_SWAP] = 0 if actual else 1
    senv.kinds[:] = env.kinds
    senv.params[:, :] = env.params
    senv.restrict[:] = env.restrict
    if not actual:  # playouts: the seat's own rollout preset in every seat
        base.fw_kinds[0, :] = env.kinds
        base.fw_params[0, :, :] = env.params
        base.fw_restrict[0, :] = env.restrict
        for q in range(MAX_SEATS):
            base.fw_kinds[1, q] = env.kinds[seat]
            base.fw_params[1, q, :] = env.params[seat]
            base.fw_restrict[1, q] = env.restrict[seat]


@njit(cache=True)
def search(root_snap, root_work, env, senv, base, it_snap, it_work, seat, iterations, exploration,
           kinds, actual, by_rank, key):
    """The option IS-MCTS picks at the root (the real game halted at seat's decision in
    root_snap/root_work), playing its iterations under `senv` (a copy of `env` it may change).
    `base`, `it_snap`, `it_work`: scratch records. Returns (option index, iterations played)."""
    prepare_root(root_snap, root_work, env, senv, base, seat, kinds, actual)
    tree = np.zeros((iterations + 1, N_T))
    tree[0, T_CHILD] = -1
    n_nodes = 1
    path = np.zeros(iterations + 2, dtype=np.int64)
    coin = np.zeros(1, dtype=np.uint64)
    coin[0] = np.uint64(key) ^ np.uint64(0xA0761D6478BD642F)
    done = 0
    for it in range(iterations):
        copy_record(base, it_snap)
        it_snap.fw[FW_DET_KEY] = world_key(key, it)
        if advance(it_snap, it_work, senv) != HALTED or it_work.fw[FW_SEAT] != seat:
            return -1, done  # the determinized root is not the seat's decision: leave it to the policy
        n_nodes, depth = descend(tree, n_nodes, path, it_snap, it_work, senv, seat, exploration, coin)
        if depth < 0:
            return -1, done
        v = seat_value(it_work, seat, by_rank)
        for i in range(1, depth + 1):
            tree[path[i], T_VISITS] += 1.0
            tree[path[i], T_VALUE] += v
        tree[0, T_VISITS] += 1.0
        done += 1
    best, best_j = -1.0, -1
    for j in range(root_work.fw[FW_NOPTS]):
        c = find_child(tree, 0, option_hash(root_work.fw_opts, j))
        if c >= 0 and tree[c, T_VISITS] > best:
            best, best_j = tree[c, T_VISITS], j
    return best_j, done


@njit(cache=True)
def default_option(root_work, env, seat):
    """The option the seat's rollout preset takes at the root (its policy coins left as they
    were: the real decision is taken afterwards)."""
    saved = root_work.rng.copy()
    k = policy_choice(root_work, env, seat, root_work.fw_opts, root_work.fw[FW_NOPTS], root_work.fw_ctx)
    root_work.rng[:] = saved
    return k


@njit(cache=True)
def playout_value(base, it_snap, it_work, senv, seat, w_key, h, by_rank, horizon, leaf, x):
    """The seat's result in world `w_key` when it takes the root option named `h` and every
    decision after it is the playout policies'; NaN if that world does not offer the option.
    With `horizon` >= 0 the playout stops at the start of the turn `horizon` turns after the
    decision's own, and the leaf model (`leaf`, sim.search.nyk_leaf) values the board there."""
    copy_record(base, it_snap)
    it_snap.fw[FW_DET_KEY] = w_key
    if advance(it_snap, it_work, senv) != HALTED or it_work.fw[FW_SEAT] != seat:
        return np.nan
    for j in range(it_work.fw[FW_NOPTS]):
        if option_hash(it_work.fw_opts, j) == h:
            it_snap.fw[FW_HALT] = 0
            r = apply_for(it_snap, it_work, senv, j, horizon + 1 if horizon >= 0 else MAX_TURNS + 1)
            if r == TRUNCATED:
                return leaf_value(it_work, seat, leaf, x)
            if r != OVER:
                return np.nan
            return seat_value(it_work, seat, by_rank)
    return np.nan


@njit(cache=True)
def halving(root_snap, root_work, env, senv, base, it_snap, it_work, seat, budget, kinds, actual,
            by_rank, key, guard, horizon, leaf, verify):
    """`halving_counts` without the counts: (option, playouts)."""
    k, spent, _ = halving_counts_late(root_snap, root_work, env, senv, base, it_snap, it_work, seat, budget, kinds,
                                      actual, by_rank, key, guard, horizon, leaf, verify)
    return k, spent


@njit(cache=True)
def halving_counts(root_snap, root_work, env, senv, base, it_snap, it_work, seat, budget, kinds, actual,
                   by_rank, key, guard, horizon, leaf, verify):
    """The root option chosen by Sequential Halving over determinized playouts (sim.search.halving):
    each round plays every option left in the same sampled worlds (common random numbers: the
    streams are keyed by source, so the options differ only by what the choice changes), then
    keeps the better half; the rollout preset's own option stays unless another's paired
    advantage reaches a z of `guard`; `horizon`, `leaf`: playouts cut short (`playout_value`).
    With `verify` > 0 an option that beats the rollout's on cut-short playouts must beat it again
    in `verify` fresh worlds played to the end (`verified`): the leaf model screens, the game's
    own result decides. Returns (option, playouts, the playouts each option got: the halving's
    visit counts)."""
    n = root_work.fw[FW_NOPTS]
    prepare_root(root_snap, root_work, env, senv, base, seat, kinds, actual)
    d = default_option(root_work, env, seat)
    h = np.empty(n, dtype=np.int64)
    for j in range(n):
        h[j] = option_hash(root_work.fw_opts, j)
    alive = np.ones(n, dtype=np.bool_)
    stats = np.zeros((N_ST, n))
    value = np.empty(n)
    x = np.empty(N_FEATURES)
    rounds = halving_rounds(n)
    w, spent, left = 0, 0, budget
    for r in range(rounds):
        for _ in range(worlds_this_round(alive, rounds, r, left)):
            w_key = world_key(key, w)
            w += 1
            for j in range(n):
                value[j] = (playout_value(base, it_snap, it_work, senv, seat, w_key, h[j], by_rank, horizon, leaf, x)
                            if alive[j] else np.nan)
            spent += tally_world(stats, value, alive, d)
        left = max(budget - spent, 0)
        keep_better_half(alive, stats, d)
    k = halving_choice(alive, stats, d, guard)
    if k != d and verify > 0 and horizon >= 0:
        ok, played = verified(base, it_snap, it_work, senv, seat, h[k], h[d], verify, by_rank, key, guard, leaf, x)
        spent += played
        if not ok:
            k = d
    return k, spent, stats[ST_COUNT].copy()


@njit(cache=True)
def verified(base, it_snap, it_work, senv, seat, h_k, h_d, worlds, by_rank, key, guard, leaf, x):
    """Whether the option named h_k beats the one named h_d with a paired z of `guard` over
    `worlds` worlds apart from the halving's, both played to the end. Returns (yes, playouts)."""
    s, s2, pairs, played = 0.0, 0.0, 0, 0
    for w in range(worlds):
        w_key = world_key(key, VERIFY_WORLD0 + w)
        a = playout_value(base, it_snap, it_work, senv, seat, w_key, h_k, by_rank, -1, leaf, x)
        b = playout_value(base, it_snap, it_work, senv, seat, w_key, h_d, by_rank, -1, leaf, x)
        played += 2
        if not (np.isnan(a) or np.isnan(b)):
            s += a - b
            s2 += (a - b) * (a - b)
            pairs += 1
    return paired_z(s, s2, pairs) >= guard, played


@njit(cache=True)
def play_searched(snap, work, env, senv, base, it_snap, it_work, n_players, key, game_id, knobs, leaf,
                  max_searched=1 << 62):
    """One game in which the seats with knobs[p, SK_ON] search their decisions (knobs: one row
    per seat, sim.shared.search.knob_rows), the others play their policies (`leaf`: the leaf
    model, sim.search.nyk_leaf, for seats with a horizon). Returns
    (options chosen by search, iterations played), or (-1, 0) if the engine failed; stops after
    `max_searched` searched decisions."""
    halt = 0
    kinds = np.full(MAX_SEATS, ALL_KINDS, dtype=np.int64)
    for p in range(n_players):
        if knobs[p, SK_ON] != 0:
            halt |= 1 << p
            kinds[p] = np.int64(knobs[p, SK_KINDS])
    r = start(snap, work, env, n_players, key, game_id, 0, halt, kinds)
    searched, spent = 0, 0
    while r == HALTED:
        p = work.fw[FW_SEAT]
        dkey = decision_key(key, game_id, work.g[G_DECISIONS], p)
        if knobs[p, SK_ROOT] == ROOT_HALVING:
            k, done = halving(snap, work, env, senv, base, it_snap, it_work, p, np.int64(knobs[p, SK_ITERATIONS]),
                              kinds[p], knobs[p, SK_ACTUAL] != 0, knobs[p, SK_RANK] != 0, dkey, knobs[p, SK_GUARD],
                              np.int64(knobs[p, SK_HORIZON]), leaf, np.int64(knobs[p, SK_VERIFY]))
        else:
            k, done = search(snap, work, env, senv, base, it_snap, it_work, p, np.int64(knobs[p, SK_ITERATIONS]),
                             knobs[p, SK_EXPLORATION], kinds[p], knobs[p, SK_ACTUAL] != 0,
                             knobs[p, SK_RANK] != 0, dkey)
        spent += done
        if k < 0:
            r = apply_choice(snap, work, env, FW_POLICY)
        else:
            searched += 1
            r = apply_choice(snap, work, env, k)
        if searched >= max_searched:  # the bench: a fixed number of searched decisions
            return searched, spent
    if r != OVER:
        return -1, 0
    return searched, spent


@njit(cache=True)
def search_games(recs, env_arr, kinds, lineups, params, restrict, knobs, leaf, n_players, key, first_id, n,
                 games, seats, turns, record_turns):
    """`sim.nyk.batch.play_games` for lineups with search players: the same games and seat rows
    (`knobs`: sim.nyk.game.search_knobs of the strategies). `recs`: five scratch game records.
    Returns the iterations played, or -1 if the engine failed."""
    env, senv = env_arr[0], env_arr[1]
    n_lineups = lineups.shape[0]
    seat_knobs = np.zeros((MAX_SEATS, knobs.shape[1]))
    spent = 0
    for i in range(n):
        game_id = first_id + i
        lineup = lineups[game_id % n_lineups]
        seat_lineup(env, lineup, kinds, params, restrict, n_players)
        for p in range(n_players):
            seat_knobs[p, :] = knobs[lineup[p]]
        searched, done = play_searched(recs[0], recs[1], env, senv, recs[2], recs[3], recs[4], n_players,
                                       key, game_id, seat_knobs, leaf)
        if searched < 0:
            return -1
        spent += done
        summarise_game(recs[1], games[i])
        summarise_seats(recs[1], lineup, seats[i])
        if record_turns:
            for t in range(turns.shape[1]):
                for p in range(n_players):
                    turns[i, t, p] = recs[1].fortune[t, p] if t <= recs[1].g[TURNS_PLAYED] else -1
    return spent


# --- the Python face ------------------------------------------------------------------------------

def play_many(seed: int, n_games: int, players: int, lineup, ruleset, first_id: int = 0,
              check: bool = False, record_turns: bool = False):
    """`sim.nyk.game.play_many` for a lineup with search players."""
    from sim import rng
    from sim.nyk import batch, state
    from sim.nyk.game import check_players, with_tables
    from sim.shared.play import empty_tables, label_slots

    if check:
        raise ValueError("games with a search player are played without check mode")
    check_players(ruleset, players)
    env = with_tables(make_env(ruleset, np.zeros(MAX_SEATS, np.int64), np.zeros((MAX_SEATS, N_POLICY_PARAMS))),
                      lineup)   # a learned seat's (or rollout's) weights
    envs = np.array([env, env]).view(np.recarray)
    games, seats, turns = empty_tables(batch, state, n_games, players, record_turns)
    recs = np.zeros(5, state.GAME_DTYPE).view(np.recarray)
    spent = search_games(recs, envs, lineup.kinds, lineup.seatings_for(seed, first_id, n_games), lineup.params,
                         lineup.restrict, lineup.search, leaf_for(lineup.search), players, rng.run_key(seed),
                         first_id, n_games, games, seats, turns, record_turns)
    if spent < 0:
        raise RuntimeError("the engine raised an error in a game with a search player")
    label_slots(batch, lineup, seats)
    return games, seats, turns


def leaf_for(knobs) -> np.ndarray:
    """The leaf model the searching seats of a lineup need (`knobs`: its knob rows)."""
    return leaf_model(knobs is not None and bool((knobs[:, SK_HORIZON] >= 0).any()))


def leaf_model(needed: bool) -> np.ndarray:
    """The shipped leaf model (sim.search.nyk_leaf) when `needed`, else zeros of its shape."""
    from sim.search.nyk_leaf import load_model

    return load_model() if needed else np.zeros(LEAF_SHAPE)


def choose(fw, seat: int, iterations: int = 200, exploration: float = 0.7, key: int = 0,
           actual: bool = False, by_rank: bool = False, root: str = "uct", guard: float = 2.0,
           horizon: int = -1, verify: int = 0) -> int | None:
    """The option IS-MCTS (`root = "uct"`) or Sequential Halving (`"halving"`, `iterations`
    playouts in all) picks for `seat` at the pending decision of a forward state
    (sim.nyk.forward.Forward), playouts by the seat's own policy (and the others' with `actual`),
    cut short after `horizon` turns (halving only; -1: played to the end) and a change of the
    rollout's option checked in `verify` worlds played out; None when the determinized root is
    not that seat's decision."""
    from sim.nyk import state

    d = fw.decision()
    if d is None or d.seat != seat:
        raise ValueError(f"seat {seat} is not at a decision here: search where fw.decision().seat == {seat}")
    if iterations < 1:
        raise ValueError(f"iterations = {iterations}: give at least 1")
    recs = np.zeros(3, state.GAME_DTYPE).view(np.recarray)
    senv = fw.env.copy()
    if root not in SEARCH_ROOTS:
        raise ValueError(f"root = {root!r}: choose {' or '.join(SEARCH_ROOTS)}")
    if horizon >= 0 and (root != "halving" or by_rank):
        raise ValueError(f"horizon = {horizon}: a leaf is valued by a win chance, for root = 'halving' and "
                         f"by_rank = False only (or horizon = -1)")
    kinds, key = fw.snap[0].fw[FW_KINDS0 + seat], int(key) & (2**62 - 1)
    if root == "halving":
        k, _ = halving(fw.snap[0], fw.work[0], fw.env[0], senv[0], recs[0], recs[1], recs[2], seat, iterations,
                       kinds, bool(actual), bool(by_rank), key, float(guard), int(horizon),
                       leaf_model(horizon >= 0), int(verify))
    else:
        k, _ = search(fw.snap[0], fw.work[0], fw.env[0], senv[0], recs[0], recs[1], recs[2], seat, iterations,
                      float(exploration), kinds, bool(actual), bool(by_rank), key)
    return None if k < 0 else int(k)


# Sequential Halving, compiled once and called by symbol (sim.shared.late) from the search's game
# loop and from each labelling loop of expert iteration, which would each compile it again.
_G, _E, _I = record(GAME_DTYPE), record(ENV_DTYPE), types.int64
halving_counts_late = late(halving_counts, (_G, _G, _E, _E, _G, _G, _G, _I, _I, _I, types.boolean, types.boolean, _I,
                                            types.float64, _I, types.Array(types.float64, 3, "C"), _I))
