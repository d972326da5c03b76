"""A leaf evaluation for the New York Kings search: each seat's chance to win, read off the board
at the start of a turn.

The model is a conditional logit (McFadden 1974): seat p wins with probability
exp(b . x_p) / sum_q exp(b . x_q), where x_p are the seat's FEATURES and b is one vector per
player count and PHASE (how many mission cards are left before the end card, NYK-S4/S5). It is
fitted by maximum likelihood (`fit`, Newton's method with a small ridge) to the turns of games
the rollout preset played against itself (`collect`), and shipped in `strategies/nyk/leaf.toml`
with the command that fitted it (`mobsim strategies leaf`).

The search (sim.search.nyk, knob `horizon`) stops a playout `horizon` turns after the decision's
own turn and takes this value in place of the rest of the game: a truncated rollout with a
learned value function, as in AlphaGo's leaf evaluation (Silver et al. 2016) and the
Monte Carlo tree search literature's "implicit minimax backups" (Lanctot et al. 2014). The value
is smooth where a finished playout is 0 or 1, so two options' paired difference in one world is
less noisy, and the playout is shorter. The shipped model is fitted under the default rules; a
study of other rules uses it as it is (a guide the halving's guard tests, never a legality), or
fits its own with `mobsim strategies leaf --out` in place of the shipped file.
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path

import numpy as np
from numba import njit

from sim.nyk.forward import OVER, TRUNCATED, advance_for, begin
from sim.nyk.env import N_POLICY_PARAMS, make_env, seat_lineup
from sim.nyk.state import (
    ALIVE, ALL_KINDS, END_CARD_POS, END_REVEALED, HAND_N, MAX_SEATS, MAX_TURNS, MONEY, MS_HELD, M_DECK_POS,
    M_HOLDER, M_REWARD, M_STATE, N_CHARS, N_MISSIONS, N_PLAYERS, OWNER, RANK, VALUE, WHERE, W_CONTROLLED, W_CUSTODY,
)

FEATURES = ("money", "crew", "crew_value", "custody", "missions_held", "rewards_held", "hand", "out")
N_FEATURES = len(FEATURES)
MONEY_UNIT = 10_000  # dollars per unit of the money features (keeps the coefficients near 1)
# phases by mission cards left before the end card: revealed, 1-2, 3-5, 6-9, 10 and more
PHASE_EDGES = (1, 3, 6, 10)
PHASES = ("end revealed", "1-2 cards", "3-5 cards", "6-9 cards", "10+ cards")
N_PHASES = len(PHASES)


@njit(cache=True)
def phase_of(game):
    """The phase of a board: 0 once the end card is out, else by the cards left before it."""
    if game.g[END_REVEALED]:
        return 0
    left = game.g[END_CARD_POS] - game.g[M_DECK_POS]
    f = 1
    for edge in PHASE_EDGES[1:]:
        if left >= edge:
            f += 1
    return f


@njit(cache=True)
def seat_features(game, p, out):
    """FEATURES of seat p into `out`."""
    out[:] = 0.0
    out[0] = game.pl[p, MONEY] / MONEY_UNIT
    for c in range(N_CHARS):
        if game.ch[c, OWNER] != p:
            continue
        if game.ch[c, WHERE] == W_CONTROLLED:
            out[1] += 1.0
            out[2] += game.ch[c, VALUE]
        elif game.ch[c, WHERE] == W_CUSTODY:
            out[3] += 1.0
    for m in range(N_MISSIONS):
        if game.ms[m, M_STATE] == MS_HELD and game.ms[m, M_HOLDER] == p:
            out[4] += 1.0
            out[5] += game.ms[m, M_REWARD] / MONEY_UNIT
    out[6] = game.pl[p, HAND_N]
    out[7] = 1.0 - (game.pl[p, ALIVE] != 0)


@njit(cache=True)
def leaf_value(game, seat, coef, x):
    """The model's chance that `seat` wins from this board (`coef`: LEAF_SHAPE; `x`: scratch of
    N_FEATURES)."""
    n = game.g[N_PLAYERS]
    b = coef[n, phase_of(game)]
    top = -np.inf
    scores = np.empty(n)
    for p in range(n):
        seat_features(game, p, x)
        s = 0.0
        for f in range(N_FEATURES):
            s += b[f] * x[f]
        scores[p] = s
        top = max(top, s)
    total = 0.0
    for p in range(n):
        scores[p] = np.exp(scores[p] - top)
        total += scores[p]
    return scores[seat] / total


LEAF_SHAPE = (MAX_SEATS + 1, N_PHASES, N_FEATURES)  # coefficients by player count, phase, feature


# --- the records a model is fitted to --------------------------------------------------------------

@njit(cache=True)
def collect(snap_arr, work_arr, env_arr, kinds, lineups, params, restrict, n_players, key, first_id, n,
            x, phase, won):
    """Play games `first_id ..` with the lineups' policies, one turn at a time through the forward
    model; at the start of every turn write each seat's features (x[row, p]) and the phase, and
    when the game ends each row's result (won[row, p]: 1, 1/k for a win shared by k, else 0).
    Returns the rows written, or -1 if the engine failed."""
    snap, work, env = snap_arr[0], work_arr[0], env_arr[0]
    every = np.full(MAX_SEATS, ALL_KINDS, dtype=np.int64)
    row = 0
    for i in range(n):
        game_id = first_id + i
        lineup = lineups[game_id % lineups.shape[0]]
        seat_lineup(env, lineup, kinds, params, restrict, n_players)
        begin(snap, env, n_players, key, game_id, 0, 0, every)
        first = row
        r = TRUNCATED
        while r == TRUNCATED:
            if row >= x.shape[0]:
                return -1
            for p in range(n_players):
                seat_features(snap, p, x[row, p])
            phase[row] = phase_of(snap)
            row += 1
            r = advance_for(snap, work, env, 1)
        if r != OVER:
            return -1
        k = 0
        for p in range(n_players):
            k += work.pl[p, RANK] == 1
        for j in range(first, row):
            for p in range(n_players):
                won[j, p] = (work.pl[p, RANK] == 1) / k
    return row


def collect_games(players: int, games: int, seed: int, strategy: str = "tuned", ruleset=None, first_id: int = 0):
    """(x, phase, won) of `games` games of `players` seats of `strategy`, game ids first_id ..."""
    from sim import rng
    from sim.nyk import state
    from sim.nyk.game import Lineup
    from sim.rules.ruleset import Ruleset

    ruleset = Ruleset.load() if ruleset is None else ruleset
    lineup = Lineup.of([strategy] * players, players)
    env = make_env(ruleset, np.zeros(MAX_SEATS, np.int64), np.zeros((MAX_SEATS, N_POLICY_PARAMS)))
    envs = np.array([env]).view(np.recarray)
    recs = np.zeros(2, state.GAME_DTYPE).view(np.recarray)
    rows = games * (MAX_TURNS + 1)
    x = np.zeros((rows, players, N_FEATURES))
    phase = np.zeros(rows, dtype=np.int64)
    won = np.zeros((rows, players))
    n = collect(recs[0:1], recs[1:2], envs, lineup.kinds, lineup.seatings_for(seed, first_id, games), lineup.params,
                lineup.restrict, players, rng.run_key(seed), first_id, games, x, phase, won)
    if n < 0:
        raise RuntimeError("the engine raised an error while collecting the leaf model's games")
    return x[:n], phase[:n], won[:n]


# --- the fit: a conditional logit by Newton's method ----------------------------------------------

def choice_probabilities(x: np.ndarray, b: np.ndarray) -> np.ndarray:
    """P(seat p wins) for each row of x (rows, seats, features) under coefficients b."""
    s = x @ b
    s -= s.max(axis=1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=1, keepdims=True)


def fit(x: np.ndarray, won: np.ndarray, ridge: float = 1e-3, steps: int = 50) -> np.ndarray:
    """Maximum-likelihood coefficients of the conditional logit of `won` (rows, seats; each row
    sums to 1) on x (rows, seats, features), with an L2 penalty `ridge` per row of data."""
    rows, _, k = x.shape
    b = np.zeros(k)
    for _ in range(steps):
        p = choice_probabilities(x, b)
        xbar = np.einsum("rs,rsk->rk", p, x)
        grad = np.einsum("rs,rsk->k", won - p, x) - ridge * rows * b
        centred = x - xbar[:, None, :]
        hess = np.einsum("rs,rsk,rsl->kl", p, centred, centred) + ridge * rows * np.eye(k)
        step = np.linalg.solve(hess, grad)
        b += step
        if np.abs(step).max() < 1e-9:
            break
    return b


def log_loss(x: np.ndarray, won: np.ndarray, b: np.ndarray) -> float:
    """Mean cross-entropy of the winner under b, in nats per row (log n for a coin over n seats)."""
    p = choice_probabilities(x, b)
    return float(-(won * np.log(np.clip(p, 1e-300, None))).sum(axis=1).mean())


# --- the shipped model ----------------------------------------------------------------------------

MODEL_PATH = Path(__file__).resolve().parents[2] / "strategies" / "nyk" / "leaf.toml"
REFIT = "fit it again with `mobsim strategies leaf`"


class LeafModelError(ValueError):
    """The leaf model file cannot be read as a model of this engine's features."""


def load_model(path=None) -> np.ndarray:
    """The coefficients of the model file (LEAF_SHAPE; player counts it has no fit for are zeros:
    every seat even); LeafModelError (one line) if the file is not a model of FEATURES and PHASES."""
    path = Path(path or MODEL_PATH)
    return _load(str(path), path.stat().st_mtime_ns if path.is_file() else 0).copy()


@cache
def _load(path: str, _stamp: int) -> np.ndarray:
    try:
        data = tomllib.loads(Path(path).read_text())
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as err:
        raise LeafModelError(f"{path}: not a readable leaf model ({' '.join(str(err).split())}): {REFIT}") from None
    for key, expected in (("features", FEATURES), ("phases", PHASES)):
        given = data.get(key)
        if not isinstance(given, list) or tuple(given) != expected:
            raise LeafModelError(f"{path}: {key} = {given!r}, but the engine's are {list(expected)}: {REFIT}")
    coef = np.zeros(LEAF_SHAPE)
    for players, fitted in dict(data.get("players", {})).items():
        b = np.asarray(fitted.get("coef", []), dtype=float) if isinstance(fitted, dict) else np.zeros(0)
        if not players.isdigit() or not 2 <= int(players) <= MAX_SEATS or b.shape != LEAF_SHAPE[1:] \
                or not np.isfinite(b).all():
            raise LeafModelError(f"{path}: players.{players} is not a {N_PHASES} x {N_FEATURES} table of finite "
                                 f"coefficients for 2 to {MAX_SEATS} players: {REFIT}")
        coef[int(players)] = b
    return coef
