"""The learned player: expert iteration into a conditional logit over option features.

Each iteration the apprentice (family `learned`: at first its weights say "take the heuristic's
pick", so it plays the base preset: New York Kings' `distilled`, American Gangsters'
`equilibrium-1`, the heaviest best response of its shipped equilibrium)
plays games against itself; the expert, the game's Sequential Halving search with the apprentice
as its rollout (New York Kings: `search-leaf-all`'s; American Gangsters: `search-200`'s), labels
every decision of one seat a game (sim.search.nyk_learn.label, sim.search.ag_learn.label), so
the states are the apprentice's own (DAgger). Where the search departs from the apprentice's
option, a second search on other worlds must pick the same option for the departure to be the
label (`confirm`, on by default); else the label is the apprentice's option, and the two
searches' visit counts are summed (sim.search.halving.confirmed). The labels of every iteration
so far are pooled (DAgger's aggregate), and the logit's weights, one row per decision kind, are fitted by scipy's
L-BFGS to the softmax cross-entropy against the search's target at each decision: half the
expert's pick, half the halving's visit distribution (the playouts each option got), with an L2
pull toward the last weights. The fitted weights are the next iteration's apprentice, and so the
search's rollout. The halving root has no prior over options: the learned policy enters the
search as its rollout and as the option the guard defends, not as a prior. The last quarter of
each iteration's games is held out.
Anchors: Anthony, Tian & Barber 2017 (ExIt); Soemers et al. 2019 (Ludii's feature policies).

Against opponents (`learn(opponents=...)`, PSRO's learned oracle, sim.meta.psro) the apprentice
plays one seat a game, rotated by game id, and the others are the opponents, a mixture's seats
drawn from the seed, the game id and the seat as a run draws them (strategies.mixture); the
labelling search then models every seat as seated (`actual` playouts), not as the apprentice.
`warm` starts from a learned preset's weights and knobs instead of the heuristic's pick.

Everything but the labelling is the same for both games: a `Side` names what differs (the
features module, the base family and preset, the expert's knobs, the labelling of a block).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

import importlib

import numpy as np

from sim.league.distill import DEFAULT_KNOBS
from sim.league.games import ruleset as ruleset_of
from sim.league.match import Pool
from sim.runner.executor import uses_scheduler
from strategies.lineup import files_of

BLOCK = 2               # games a labelling task
DECISIONS_A_GAME = 2000  # room for one seat's decisions in a game
OPTIONS_A_GAME = 60_000  # room for their option rows
EXPERT_WEIGHT = 0.5      # the target: this much on the expert's pick, the rest on the visit distribution
L2 = 1e-3                # pull toward the last weights, per decision


@dataclass
class Data:
    """Labelled decisions (sim.search.nyk_learn R_* columns, R_GAME global over the pooled data),
    their option rows' features `x` and visit counts, and which decisions are held out."""

    decisions: np.ndarray
    x: np.ndarray
    visits: np.ndarray
    held: np.ndarray

    @staticmethod
    def empty(n_features: int) -> Data:
        return Data(np.zeros((0, 6), np.int64), np.zeros((0, n_features)), np.zeros(0), np.zeros(0, bool))

    def __add__(self, other: Data) -> Data:
        from sim.search.nyk_learn import R_FIRST

        moved = other.decisions.copy()
        moved[:, R_FIRST] += len(self.x)
        return Data(np.concatenate([self.decisions, moved]), np.concatenate([self.x, other.x]),
                    np.concatenate([self.visits, other.visits]), np.concatenate([self.held, other.held]))


def _seating(lineup_class, base, opponents, players: int, seed: int, game_id: int, max_seats: int):
    """Game `game_id`'s seats with the apprentice (`base`'s knobs) in one and the `opponents` (loaded
    strategies or mixtures, one a seat) in the others, seats rotated by game id and each mixture
    drawn from (seed, game id, seat) as a run draws it (strategies.mixture): (kinds, knobs,
    restriction bits, the apprentice's seat, the lineup's tables: the learned opponents' weights)."""
    lineup = lineup_class.of_strategies([base, *opponents], players, rotate=True)
    row = lineup.seatings_for(seed, game_id, 1)[0]
    kinds, params, restrict = lineup.seated(row, max_seats)
    return np.asarray(kinds).copy(), params, restrict, int(np.flatnonzero(row == 0)[0]), lineup.tables


def _apprentice_seats(lineup_class, max_seats: int, learned: int, base, players: int, seated=None):
    """(kinds, knobs, restriction bits) of the apprentice's seats: `base`'s knobs played by the
    learned family (`learned`) in every seat, or, given `seated` (`_seating`), in its one seat
    against the opponents."""
    if seated is None:
        lineup = lineup_class.of_strategies([base] * players, players, rotate=False)
        kinds, params, restrict = lineup.seated(np.arange(players), max_seats)
        kinds = np.asarray(kinds).copy()
        kinds[:players] = learned
    else:
        kinds, params, restrict, seat, tables = seated
        kinds[seat] = learned
        params[seat, lineup_class.table_slot] = _apprentice_set(tables)
    return kinds, params, restrict


def _apprentice_set(tables) -> int:
    """The apprentice's weights set in env.learned: the one after its learned opponents' files
    (`_seating`'s tables; the first in self-play)."""
    return len(files_of(tables))


def _weight_sets(module, weights: np.ndarray, seated=None) -> np.ndarray:
    """env.learned of the apprentice's games: the learned opponents' sets, then its weights in the
    set `_apprentice_set` names."""
    tables = () if seated is None else seated[4]
    sets = module.weights_of(tables)
    k = _apprentice_set(tables)
    if k >= len(sets):
        raise ValueError(f"the opponents hold {k} learned players' weights files: the engine holds {len(sets)} a game "
                         f"with the apprentice's")
    sets[k] = weights
    return sets


def _nyk_env(base, weights: np.ndarray, players: int, rules: tuple, seated=None):
    """Two env records of the apprentice (the base preset's knobs, the learned family, the
    weights) in every seat, or, given `seated` (`_seating`), in its seat against the opponents."""
    from sim.nyk.env import make_env
    from sim.nyk.game import Lineup
    from sim.nyk.state import MAX_SEATS
    from strategies.nyk import learned
    from strategies.nyk.params import FAMILIES

    kinds, params, restrict = _apprentice_seats(Lineup, MAX_SEATS, FAMILIES.index("learned"), base, players, seated)
    env = make_env(ruleset_of(*rules), kinds, params, restrict)
    env.learned[:] = _weight_sets(learned, weights, seated)
    return np.array([env, env]).view(np.recarray)


def _nyk_label(base, weights, players, rules, seed, ids, seats, knobs, seated=None) -> tuple:
    """The expert's labels of games `ids` at seats `seats` (`seated`: one game's seats against
    opponents, whom the search then models as seated)."""
    from sim import rng
    from sim.nyk import state
    from sim.nyk.state import ALL_KINDS
    from sim.search import nyk_learn as nl
    from sim.search.nyk import leaf_model
    from strategies.nyk.learned import N_FEATURES

    budget, guard, horizon = knobs["budget"], knobs["guard"], knobs["horizon"]
    envs = _nyk_env(base, weights, players, rules, seated)
    recs = np.zeros(5, state.GAME_DTYPE).view(np.recarray)
    decisions = np.zeros((len(ids) * DECISIONS_A_GAME, nl.N_R), dtype=np.int64)
    x = np.zeros((len(ids) * OPTIONS_A_GAME, N_FEATURES))
    visits = np.zeros(len(ids) * OPTIONS_A_GAME)
    n, m = nl.label(recs[0], recs[1], envs[0], envs[1], recs[2], recs[3], recs[4], players, rng.run_key(seed), ids,
                    seats, ALL_KINDS, budget, guard, horizon, leaf_model(horizon >= 0), bool(knobs["confirm"]),
                    seated is not None, decisions, x, visits)
    return _labelled(n, m, decisions, x, visits)


def _labelled(n: int, m: int, decisions, x, visits) -> tuple:
    if n < 0:
        raise RuntimeError("the engine failed while the search labelled the learned player's games" if n == -1 else
                           "a game met more decisions or options than the labelling buffers hold")
    return decisions[:n], x[:m], visits[:m]


def _label_block(task, label, lineup_class, max_seats: int) -> tuple:
    """One block's labels (runs in a worker): decisions (game indices local), features, visits.
    Against opponents each game has its own seating (its mixtures' draws), so its own env."""
    from sim.search.nyk_learn import R_FIRST, R_GAME

    base, weights, players, rules, seed, ids, knobs, opponents = task
    ids = np.asarray(ids, dtype=np.int64)
    if opponents is None:   # self-play: one env for the block
        return label(base, weights, players, rules, seed, ids, ids % players, knobs)
    parts, rows = [], 0
    for i, game_id in enumerate(ids):
        seated = _seating(lineup_class, base, opponents, players, seed, int(game_id), max_seats)
        d, x, v = label(base, weights, players, rules, seed, ids[i:i + 1], np.array([seated[3]]), knobs, seated)
        d = d.copy()
        d[:, R_GAME], d[:, R_FIRST] = i, d[:, R_FIRST] + rows
        rows += len(x)
        parts.append((d, x, v))
    return tuple(np.concatenate([p[k] for p in parts]) for k in range(3))


def _nyk_label_block(task) -> tuple:
    """One New York Kings block's labels (`_label_block`)."""
    from sim.nyk.game import Lineup
    from sim.nyk.state import MAX_SEATS

    return _label_block(task, _nyk_label, Lineup, MAX_SEATS)


def _ag_env(base, weights: np.ndarray, players: int, rules: tuple, seated=None):
    """One env record of the apprentice (the base preset's knobs, the learned family, the
    weights) in every seat, or, given `seated` (`_seating`), in its seat against the opponents;
    as the one-element array the forward model takes."""
    from sim.ag.env import make_env
    from sim.ag.game import Lineup
    from sim.ag.state import MAX_SEATS
    from strategies.ag import learned
    from strategies.ag.params import FAMILIES

    kinds, params, _ = _apprentice_seats(Lineup, MAX_SEATS, FAMILIES.index("learned"), base, players, seated)
    env = make_env(ruleset_of(*rules), kinds, params)
    env.learned[:] = _weight_sets(learned, weights, seated)
    return np.array([env]).view(np.recarray)


def _ag_label(base, weights, players, rules, seed, ids, seats, knobs, seated=None) -> tuple:
    """American Gangsters' `_nyk_label`."""
    from sim import rng
    from sim.ag import state
    from sim.search import ag_learn as al
    from strategies.ag.learned import N_FEATURES

    env_arr = _ag_env(base, weights, players, rules, seated)
    senv_arr = env_arr.copy()
    recs = np.zeros(5, state.GAME_DTYPE).view(np.recarray)
    decisions = np.zeros((len(ids) * DECISIONS_A_GAME, al.N_R), dtype=np.int64)
    x = np.zeros((len(ids) * OPTIONS_A_GAME, N_FEATURES))
    visits = np.zeros(len(ids) * OPTIONS_A_GAME)
    n, m = al.label(recs, env_arr, senv_arr, players, rng.run_key(seed), ids, seats, int(knobs["budget"]),
                    float(knobs["guard"]), bool(knobs["confirm"]), seated is not None, decisions, x, visits)
    return _labelled(n, m, decisions, x, visits)


def _ag_label_block(task) -> tuple:
    """One American Gangsters block's labels (`_label_block`)."""
    from sim.ag.game import Lineup
    from sim.ag.state import MAX_SEATS

    return _label_block(task, _ag_label, Lineup, MAX_SEATS)


@dataclass(frozen=True)
class Side:
    """What the learned player of one game needs of it: its features module (N_FEATURES, F_BASE,
    FEATURES, write_weights), its decision kinds, the heuristic family and default base preset,
    the expert's knobs (search-leaf-all's, search-200's) and the labelling of a block of games."""

    game: str
    features: str
    decisions: str
    base_family: str
    default_base: str
    knobs: dict
    label_block: Callable

    def module(self):
        return importlib.import_module(self.features)

    def n_kinds(self) -> int:
        return len(importlib.import_module(self.decisions).DECISIONS)


SIDES = {
    "nyk": Side("nyk", "strategies.nyk.learned", "sim.nyk.decisions", "param", "distilled", DEFAULT_KNOBS,
                _nyk_label_block),
    "ag": Side("ag", "strategies.ag.learned", "sim.ag.decisions", "parametric", "equilibrium-1",
               {"budget": 200, "guard": 2.0}, _ag_label_block),   # search-200's halving, played to the end
}


def side(game: str) -> Side:
    """The learned player's side of `game`; ValueError (one line) for a game without option features."""
    if game not in SIDES:
        raise ValueError(f"{game}: the learned player has option features for New York Kings and American "
                         f"Gangsters only (docs/learned.md): give --game {' or --game '.join(SIDES)}")
    return SIDES[game]


def label_games(base, weights: np.ndarray, games: int, seed: int, players: int, rules: tuple,
                pool: Pool | None = None, first_id: int = 0, knobs: dict | None = None, game: str = "nyk",
                confirm: bool = True, opponents=None) -> Data:
    """The expert's labels of `games` games of the apprentice against itself, or, given
    `opponents` (loaded strategies or mixtures, one a seat but the apprentice's), in one seat
    against them (ids from `first_id`, one seat a game labelled); the last quarter of the games
    held out. `confirm`: a departure from the apprentice's option is kept only if a second
    search repeats it."""
    from sim.search.nyk_learn import R_FIRST, R_GAME

    this = side(game)
    knobs = {**this.knobs, **(knobs or {}), "confirm": confirm}
    ids = np.arange(first_id, first_id + games, dtype=np.int64)
    blocks = [ids[i:i + BLOCK] for i in range(0, games, BLOCK)]
    opponents = None if opponents is None else tuple(opponents)
    tasks = [(base, weights, players, rules, seed, tuple(int(g) for g in b), knobs, opponents) for b in blocks]
    data = Data.empty(this.module().N_FEATURES)
    for k, (d, x, v) in enumerate((pool or Pool(1)).map(tasks, play=this.label_block)):
        d = d.copy()
        d[:, R_GAME] += first_id + k * BLOCK
        d[:, R_FIRST] += 0
        data = data + Data(d, x, v, d[:, R_GAME] >= first_id + (3 * games) // 4)
    return data


def seat_opponents(opponents, base, players: int, game: str) -> tuple:
    """The opponents of a learning against others, loaded: one spec for every other seat or one a
    seat; ValueError (one line) for a count that does not fit, or a seat the labelling cannot
    hold beside the apprentice (a searching player)."""
    from sim.league.games import knobs as game_knobs
    from sim.shared.game import find

    box = game_knobs(game)
    chosen = [box.resolve(o) for o in opponents]
    if len(chosen) == 1:
        chosen = chosen * (players - 1)
    if len(chosen) != players - 1:
        raise ValueError(f"{len(opponents)} opponents for {players} players: give one for every other seat, "
                         f"or {players - 1}")
    lineup = find(game).adapter.entry_points().Lineup.of_strategies([base, *chosen], players)
    if lineup.search is not None:
        raise ValueError("an opponent searches: the labelling seats players of knobs or mixtures of them")
    return tuple(chosen)


# --- the fit ----------------------------------------------------------------------------------------

def targets(data: Data) -> np.ndarray:
    """Each option row's target probability: EXPERT_WEIGHT on the expert's pick, the rest spread
    as the halving's visits (all on the expert's pick when no option was played out)."""
    from sim.search.nyk_learn import R_EXPERT, R_FIRST, R_OPTIONS

    t = np.zeros(len(data.x))
    for first, n, expert in data.decisions[:, [R_FIRST, R_OPTIONS, R_EXPERT]]:
        v = data.visits[first:first + n]
        t[first + expert] += EXPERT_WEIGHT
        if v.sum() > 0:
            t[first:first + n] += (1 - EXPERT_WEIGHT) * v / v.sum()
        else:
            t[first + expert] += 1 - EXPERT_WEIGHT
    return t


def _segments(data: Data, rows: np.ndarray):
    """The option rows of the chosen decisions, and each one's decision (0..len(rows)-1)."""
    from sim.search.nyk_learn import R_FIRST, R_OPTIONS

    first, n = data.decisions[rows, R_FIRST], data.decisions[rows, R_OPTIONS]
    option_rows = np.concatenate([np.arange(f, f + k) for f, k in zip(first, n, strict=True)]) if len(rows) else \
        np.zeros(0, np.int64)
    owner = np.repeat(np.arange(len(rows)), n)
    return option_rows, owner


def fit_kind(x: np.ndarray, t: np.ndarray, owner: np.ndarray, n_dec: int, w0: np.ndarray,
             l2: float = L2) -> np.ndarray:
    """The weights minimising the mean softmax cross-entropy of the decisions (options' features
    x, targets t, each option's decision `owner`) plus l2/2 |w - w0|^2, by L-BFGS from w0."""
    from scipy.optimize import minimize

    def loss(w):
        s = x @ w
        top = np.full(n_dec, -np.inf)
        np.maximum.at(top, owner, s)
        e = np.exp(s - top[owner])
        z = np.zeros(n_dec)
        np.add.at(z, owner, e)
        p = e / z[owner]
        value = (np.log(z).sum() + top.sum() - t @ s) / n_dec + 0.5 * l2 * ((w - w0) ** 2).sum()
        grad = x.T @ (p - t) / n_dec + l2 * (w - w0)
        return value, grad

    return minimize(loss, w0, jac=True, method="L-BFGS-B", options={"maxiter": 300}).x


def fit(data: Data, w0: np.ndarray, l2: float = L2) -> np.ndarray:
    """Each decision kind's weights fitted on the decisions not held out (module doc)."""
    from sim.search.nyk_learn import R_KIND

    w = w0.copy()
    t = targets(data)
    for kind in range(w0.shape[0]):
        rows = np.flatnonzero((data.decisions[:, R_KIND] == kind) & ~data.held)
        if len(rows) == 0:
            continue
        option_rows, owner = _segments(data, rows)
        w[kind] = fit_kind(data.x[option_rows], t[option_rows], owner, len(rows), w0[kind], l2)
    return w


def picks(data: Data, w: np.ndarray) -> np.ndarray:
    """The option the weights take at each decision (ties: the heuristic's pick), as
    strategies.nyk.learned.learned_pick takes it."""
    from sim.search.nyk_learn import R_BASE, R_FIRST, R_KIND, R_OPTIONS

    out = np.empty(len(data.decisions), np.int64)
    for i, (kind, first, n, base) in enumerate(data.decisions[:, [R_KIND, R_FIRST, R_OPTIONS, R_BASE]]):
        s = data.x[first:first + n] @ w[kind]
        best = s[base]
        out[i] = base if s.max() <= best else int(np.argmax(s))
    return out


def agreement(data: Data, w: np.ndarray) -> tuple[float, float]:
    """The share of decisions at which the weights take the expert's pick: fitted, held out."""
    from sim.search.nyk_learn import R_EXPERT

    same = picks(data, w) == data.decisions[:, R_EXPERT]
    return (float(same[~data.held].mean()) if (~data.held).any() else float("nan"),
            float(same[data.held].mean()) if data.held.any() else float("nan"))


def start_weights(game: str = "nyk") -> np.ndarray:
    """The apprentice at first: the heuristic's pick, nothing else."""
    this = side(game)
    w = np.zeros((this.n_kinds(), this.module().N_FEATURES))
    w[:, this.module().F_BASE] = 1.0
    return w


@dataclass
class LearnResult:
    weights: np.ndarray
    base: str
    params: dict[str, float]
    iterations: list[dict]
    provenance: dict = field(default_factory=dict)


@uses_scheduler
def learn(seed: int = 0, iterations: int = 2, games: int = 100, base: str | None = None, players: int = 4,
          ruleset=None, overrides=None, workers: int | None = None, knobs: dict | None = None,
          log=None, scheduler: str | None = None, game: str = "nyk", confirm: bool = True, opponents=None,
          warm: str | None = None) -> LearnResult:
    """`iterations` of expert iteration from `base` (module doc; None: the game's default base);
    `games` labelled games each; `confirm`: departures kept only where a second search repeats them.
    `opponents` (strategy specs, `meta:FILE` mixtures among them; one for every other seat or one
    a seat): the apprentice plays one seat a game (rotated by game id) against them, drawn as a
    run draws them, and the search models them as seated; None: the apprentice against itself.
    `warm`: a learned preset whose weights the apprentice starts from and whose knobs it keeps
    (instead of `base` and the heuristic's pick)."""
    from sim.league.games import knobs as game_knobs
    from sim.league.match import ruleset_key
    from sim.provenance import engine_commit
    from sim.search.nyk_learn import R_BASE, R_EXPERT

    if games < 4:
        raise ValueError(f"games = {games}: label at least 4 games an iteration (a quarter is held out)")
    this = side(game)
    box = game_knobs(game)
    if warm is None:
        base = base or this.default_base
        base_strategy = box.resolve(base)
        w = start_weights(game)
    else:
        base, base_strategy, w = _warm(warm, game)
    if base_strategy.family != this.base_family:
        raise ValueError(f"base = {base!r} is not a knob preset: give one of the {this.base_family} family "
                         f"(e.g. {this.default_base})")
    rules = ruleset_key(ruleset, overrides, game)
    if opponents is not None:
        opponents = seat_opponents(opponents, base_strategy, players, game)
    data = Data.empty(this.module().N_FEATURES)
    history = []
    with Pool(workers, scheduler) as pool:
        for it in range(iterations):
            new = label_games(base_strategy, w, games, seed, players, rules, pool, first_id=it * games, knobs=knobs,
                              game=game, confirm=confirm, opponents=opponents)
            data = data + new
            before = agreement(new, w)
            w_new = fit(data, w)
            after = agreement(new, w_new)
            row = {"iteration": it + 1, "games": games, "decisions": int(len(new.decisions)),
                   "departures": round(float((new.decisions[:, R_EXPERT] != new.decisions[:, R_BASE]).mean()), 4),
                   "fitted_before": round(before[0], 4), "fitted_after": round(after[0], 4),
                   "held_out_before": round(before[1], 4), "held_out_after": round(after[1], 4)}
            history.append(row)
            if log:
                log(f"iteration {it + 1}/{iterations}: {row['decisions']} decisions, the search departs from the "
                    f"heuristic at {row['departures']:.1%}; agreement held out {before[1]:.2%} -> {after[1]:.2%}")
            w = w_new
    knobs = {**this.knobs, **(knobs or {})}
    provenance = {"game": game,
                  "method": "expert iteration (DAgger): Sequential Halving labels the apprentice's states, "
                            "L-BFGS fits a conditional logit to its picks and visit counts",
                  "seed": seed, "iterations": iterations, "games_per_iteration": games, "base": base,
                  "expert": "halving, " + ", ".join(f"{k} {v}" for k, v in knobs.items()) + ", rollout the apprentice"
                            + ("" if opponents is None else ", the opponents as seated"),
                  "confirm": confirm,
                  "target": f"{EXPERT_WEIGHT} the expert's pick + {1 - EXPERT_WEIGHT} the visit distribution",
                  "l2": L2, "players": players, "ruleset": str(ruleset) if ruleset else "default",
                  "overrides": {k: v for k, v in rules[1]}, "ruleset_fingerprint": ruleset_of(*rules).fingerprint,
                  "date": datetime.now(UTC).strftime("%Y-%m-%d"),
                  "engine_commit": engine_commit(),
                  "held_out_agreement": [h["held_out_after"] for h in history]}
    if opponents is not None:
        provenance |= {"opponents": [o.name for o in opponents], "warm_start": warm or "none"}
    elif warm is not None:
        provenance["warm_start"] = warm
    return LearnResult(w, base, dict(zip(box.names, base_strategy.params, strict=True)), history, provenance)


def _warm(spec: str, game: str) -> tuple:
    """A learned preset to start from: its base's name, its knobs as a knob preset, its weights."""
    from sim.league.games import knobs as game_knobs

    box = game_knobs(game)
    preset = box.load(spec)
    if preset.family != "learned":
        raise ValueError(f"warm = {spec!r} is not a learned preset: give one of the learned family (e.g. learned)")
    name = str(preset.provenance.get("base", spec))
    return name, box.strategy(name, preset.params), side(game).module().read_weights(preset.table["file"])


def preset_text(result: LearnResult, name: str, weights_file: str, sha256: str) -> str:
    """The preset of a learned player: the base's knobs, the weights file with its checksum, the provenance."""
    from sim.league.games import toml_value

    doc = (f"Learned from the search (expert iteration): a conditional logit over option features "
           f"(docs/learned.md) on top of {result.base}'s heuristic, fitted to Sequential Halving's choices "
           f"on the states it reaches.")
    lines = [f"doc = {toml_value(doc)}", 'family = "learned"', "", "[params]"]
    lines += [f"{key} = {value!r}" for key, value in result.params.items()]
    lines += ["", "[table]", f"file = {toml_value(weights_file)}", f"sha256 = {toml_value(sha256)}"]
    lines += ["", "[provenance]"]
    lines += [f"{key} = {toml_value(value)}" for key, value in result.provenance.items()]
    return "\n".join(lines) + "\n"
