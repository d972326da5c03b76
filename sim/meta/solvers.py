"""Solvers of a symmetric N-player meta-game given by its heuristic payoff table.

A heuristic payoff table (Walsh et al. 2002; Tuyls et al. 2018; OpenSpiel's `egt` tools) lists
every profile of a symmetric game, the multiset of strategies at the table (counts summing to N
players), and each present strategy's mean payoff there. From it:

- `expected_payoffs`: the payoff of each strategy when the N-1 other seats are drawn
  independently from a population mixture x (multinomial weighting of the profiles);
- `nash`: symmetric Nash equilibria found by replicator dynamics from several starts, each with
  its regret (the most any strategy gains over the mixture's own payoff; 0 at an equilibrium);
- `alpharank`: alpha-Rank (Omidshafiei et al. 2019), the stationary distribution of the Markov
  chain over monomorphic populations of finite size m, where a single mutant takes over with
  the Fermi fixation probability at ranking intensity alpha; with its response graph;
- `cycles`: the intransitive cycles of that response graph.

Everything is numpy over small tables (a few hundred profiles), the replicator's steps jitted:
the games are the costly part.
"""

from __future__ import annotations

import functools
import itertools
import math
from dataclasses import dataclass, field

import numpy as np
from numba import njit

UNRANKED_TOL = 1e-9  # log pi closer than this to another is not ordered (rounding)
SUPPORT_WEIGHT = 0.05  # a strategy with at least this weight is in a mixture's support


def profiles(n_strategies: int, players: int) -> np.ndarray:
    """Every multiset of `players` strategies as a row of counts, in a fixed (lexicographic) order."""
    rows = []
    for combo in itertools.combinations_with_replacement(range(n_strategies), players):
        rows.append(np.bincount(combo, minlength=n_strategies))
    return np.array(rows, dtype=np.int64).reshape(-1, n_strategies)


@dataclass
class PayoffTable:
    """`counts[p, k]`: seats of strategy k in profile p; `payoffs[p, k]`: its mean payoff there
    (NaN where absent); `se[p, k]` its standard error (optional)."""

    strategies: tuple[str, ...]
    counts: np.ndarray
    payoffs: np.ndarray
    se: np.ndarray | None = None
    _cache: dict = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self):
        self.counts = np.asarray(self.counts, dtype=np.int64)
        self.payoffs = np.asarray(self.payoffs, dtype=np.float64)
        sums = self.counts.sum(axis=1)
        if self.counts.shape != self.payoffs.shape or self.counts.shape[1] != len(self.strategies):
            raise ValueError("counts and payoffs need one row per profile and one column per strategy")
        if len(set(sums)) != 1:
            raise ValueError("every profile must seat the same number of players")
        present = self.counts > 0
        if np.isnan(self.payoffs[present]).any():
            raise ValueError("a strategy present in a profile has no payoff there")
        self._row = {tuple(c): i for i, c in enumerate(self.counts)}
        if len(self._row) != len(self.counts):
            raise ValueError("a profile appears twice in the table")

    @property
    def players(self) -> int:
        return int(self.counts[0].sum())

    @property
    def n(self) -> int:
        return len(self.strategies)

    def payoff(self, counts, k: int) -> float:
        """The payoff of strategy k in the profile with these counts."""
        try:
            return float(self.payoffs[self._row[tuple(int(c) for c in counts)], k])
        except KeyError:
            raise ValueError(f"profile {tuple(counts)} is not in the table") from None

    def complete(self) -> bool:
        return len(self.counts) == math.comb(self.n + self.players - 1, self.players)

    def _terms(self):
        """Every (strategy k, profile holding k) pair: the other seats' counts, their multinomial
        coefficient, and a matrix sending the pair's weight to k's payoff there."""
        if "terms" not in self._cache:
            ks, rows = np.nonzero(self.counts.T > 0)
            others = self.counts[rows].copy()
            others[np.arange(len(rows)), ks] -= 1
            fact = np.array([math.factorial(i) for i in range(self.players + 1)], dtype=np.float64)
            coef = fact[self.players - 1] / np.prod(fact[others], axis=1)
            spread = np.zeros((len(rows), self.n))
            spread[np.arange(len(rows)), ks] = self.payoffs[rows, ks]
            self._cache["terms"] = (others, coef, spread)
            self._cache["term_payoffs"] = (ks.astype(np.int64), self.payoffs[rows, ks])
        return self._cache["terms"]

    def _term_payoffs(self):
        """Each term of `_terms`: its strategy k and k's payoff in its profile (the nonzero of its row
        of the spreading matrix), for the jitted replicator."""
        self._terms()
        return self._cache["term_payoffs"]


def expected_payoffs(table: PayoffTable, x) -> np.ndarray:
    """f[k]: strategy k's expected payoff when the other N-1 seats are drawn i.i.d. from mixture x
    (a vector, or one mixture per row); the profile weights are multinomial."""
    x = np.asarray(x, dtype=np.float64)
    one = x.ndim == 1
    X = np.atleast_2d(x)
    if X.shape[1] != table.n:
        raise ValueError(f"a mixture needs {table.n} weights, got {X.shape[1]}")
    others, coef, spread = table._terms()
    # prod_k x_k^{m_k} as exp(sum_k m_k log x_k); an absent strategy (x_k = 0) gets log 1e-300,
    # so a profile needing it weighs nothing (and 0^0 stays 1)
    logs = np.log(np.maximum(X, 1e-300))
    weights = coef[None, :] * np.exp(logs @ others.T)
    f = weights @ spread
    return f[0] if one else f


def regrets(table: PayoffTable, x) -> np.ndarray:
    """What each pure strategy gains over the mixture's own payoff against the population x."""
    f = expected_payoffs(table, x)
    return f - np.sum(np.asarray(x) * f, axis=-1, keepdims=True)


def regret(table: PayoffTable, x) -> float:
    """The mixture's regret (NashConv of a symmetric profile): max over strategies of the gain
    from deviating alone; 0 exactly at a symmetric Nash equilibrium."""
    return float(np.max(regrets(table, x)))


# --- replicator dynamics ----------------------------------------------------------------------------

@dataclass
class Equilibrium:
    mixture: np.ndarray
    regret: float
    payoff: float          # the mixture's payoff against itself
    starts: int            # how many starts ended here (the size of its basin, roughly)

    def support(self, strategies, weight: float = SUPPORT_WEIGHT) -> list[str]:
        order = np.argsort(-self.mixture)
        return [strategies[i] for i in order if self.mixture[i] >= weight]

    def as_dict(self, strategies) -> dict:
        return {"mixture": {s: round(float(w), 6) for s, w in zip(strategies, self.mixture, strict=True)},
                "regret": self.regret, "payoff": self.payoff, "starts": self.starts,
                "support": self.support(strategies)}


def starting_points(n: int, random_starts: int = 8, seed: int = 0) -> np.ndarray:
    """The centre, one start leaning on each strategy, and random interior points."""
    rng = np.random.default_rng(seed)
    lean = np.full((n, n), 0.3 / max(n - 1, 1)) + np.eye(n) * (0.7 - 0.3 / max(n - 1, 1))
    if n == 1:
        lean = np.ones((1, 1))
    points = [np.full((1, n), 1.0 / n), lean, rng.dirichlet(np.ones(n), size=random_starts)]
    return np.vstack(points)


def replicator(table: PayoffTable, starts: np.ndarray, steps: int = 3000, step: float | None = None):
    """Discrete replicator dynamics x_k <- x_k exp(eta (f_k(x) - x.f(x))), every start at once.
    Returns (end points, time averages over the second half): the average settles on the
    equilibrium that cyclic dynamics (rock-paper-scissors) orbit around. The steps are jitted
    (`_replicate`): a bootstrap solves a table a hundred times, a few thousand steps each, and
    numpy's calls on arrays this small cost some forty times the arithmetic."""
    spread = np.nanmax(table.payoffs) - np.nanmin(table.payoffs)
    eta = step if step is not None else 1.0 / max(spread, 1e-12)
    others, coef, _ = table._terms()
    ks, pay = table._term_payoffs()
    X = np.array(starts, dtype=np.float64).reshape(-1, table.n)
    return _replicate(others, coef, ks, pay, X, float(eta), int(steps))


@njit(cache=True)
def _replicate(others, coef, ks, pay, X, eta, steps):
    """replicator's steps: X (starts x strategies) moved in place; (X, average over the second
    half). The payoffs f are expected_payoffs' (term i adds coef_i prod_k x_k^others_ik times
    its payoff to strategy ks[i]), the powers from a table of each weight's small powers."""
    rows, n = X.shape
    top = 1
    for i in range(others.shape[0]):
        for k in range(n):
            top = max(top, others[i, k])
    half = steps // 2
    avg = np.zeros_like(X)
    power, f = np.empty((n, top + 1)), np.empty(n)
    for t in range(steps):
        for r in range(rows):
            for k in range(n):
                x = max(X[r, k], 1e-300)   # an absent strategy weighs 1e-300, as in expected_payoffs
                power[k, 0] = 1.0
                for m in range(1, top + 1):
                    power[k, m] = power[k, m - 1] * x
                f[k] = 0.0
            for i in range(len(ks)):
                w = coef[i]
                for k in range(n):
                    w *= power[k, others[i, k]]
                f[ks[i]] += w * pay[i]
            mean = 0.0
            for k in range(n):
                mean += X[r, k] * f[k]
            total = 0.0
            for k in range(n):
                X[r, k] *= np.exp(min(max(eta * (f[k] - mean), -50.0), 50.0))
                total += X[r, k]
            for k in range(n):
                X[r, k] = max(X[r, k] / total, 1e-300)
                if t >= half:
                    avg[r, k] += X[r, k]
    return X, avg / max(steps - half, 1)


def nash(table: PayoffTable, random_starts: int = 8, steps: int = 3000, seed: int = 0,
         merge: float = 0.02, starts: np.ndarray | None = None) -> list[Equilibrium]:
    """Symmetric equilibria from replicator dynamics started at several points: for each start the
    end point or the time average, whichever has the lower regret; starts that end within `merge`
    (L1) of each other are one equilibrium. Sorted by regret, then by how many starts found it.
    `starts` replaces the default starting points (`starting_points`)."""
    if starts is None:
        starts = starting_points(table.n, random_starts, seed)
    ends, avgs = replicator(table, starts, steps)
    found: list[Equilibrium] = []
    for end, avg in zip(ends, avgs, strict=True):
        r_end, r_avg = regret(table, end), regret(table, avg)
        x = end if r_end <= r_avg else avg
        x = _tidy(x)
        for eq in found:
            if np.abs(eq.mixture - x).sum() < merge:
                eq.starts += 1
                break
        else:
            f = expected_payoffs(table, x)
            found.append(Equilibrium(x, regret(table, x), float(x @ f), 1))
    return sorted(found, key=lambda e: (round(e.regret, 6), -e.starts))


def _tidy(x: np.ndarray, floor: float = 1e-6) -> np.ndarray:
    """Weights below `floor` are the dynamics' slow approach to the boundary: set them to 0."""
    x = np.where(x < floor, 0.0, x)
    return x / x.sum()


def entropy(x) -> float:
    x = np.asarray(x, dtype=np.float64)
    x = x[x > 0]
    return float(-(x * np.log(x)).sum())


# --- alpha-Rank -------------------------------------------------------------------------------------

@dataclass
class AlphaRank:
    pi: np.ndarray             # stationary distribution over monomorphic populations
    rho: np.ndarray            # rho[s, r]: fixation probability of one r mutant among m playing s
    alpha: float
    m: int
    log_pi: np.ndarray | None = None  # log pi, solved in log space (masses far below 1e-16 kept)
    log_rho: np.ndarray | None = None  # log rho (the fixations that underflow to 0 in rho)

    def _logs(self) -> np.ndarray:
        if self.log_pi is not None:
            return self.log_pi
        with np.errstate(divide="ignore"):
            return np.log(self.pi)

    def ranking(self, strategies) -> list[str]:
        """Strategies by log pi, highest first (ties in strategy order: see `unranked`)."""
        return [strategies[i] for i in np.argsort(-self._logs(), kind="stable")]

    def unranked(self, strategies, tol: float = UNRANKED_TOL) -> list[str]:
        """The strategies the ranking cannot order: log pi not finite, or within `tol` of another's."""
        logs = self._logs()
        out = []
        for i, v in enumerate(logs):
            others = np.delete(logs, i)
            if not np.isfinite(v) or (np.isfinite(others) & (np.abs(others - v) <= tol)).any():
                out.append(strategies[i])
        return out

    def beats(self) -> np.ndarray:
        """beats[r, s]: r invades s more readily than s invades r (the response graph)."""
        return self.rho.T > self.rho + 1e-12

    def as_dict(self, strategies) -> dict:
        logs = self._logs()
        return {"alpha": self.alpha, "population": self.m,
                "pi": {s: float(p) for s, p in zip(strategies, self.pi, strict=True)},
                "log_pi": {s: (float(v) if np.isfinite(v) else None) for s, v in zip(strategies, logs, strict=True)},
                "ranking": self.ranking(strategies), "unranked": self.unranked(strategies)}


def invasion_fitness(table: PayoffTable, s: int, r: int, m: int) -> tuple[np.ndarray, np.ndarray]:
    """Fitness of a mutant r and of a resident s when k = 1..m-1 of the m individuals play r and
    each plays N-1 opponents drawn without replacement from the other m-1 (hypergeometric)."""
    N = table.players
    w_r, w_s = _hyper_weights(m, N)
    u_r = np.array([table.payoff(_two(table.n, r, j + 1, s, N - 1 - j), r) for j in range(N)])
    u_s = np.array([table.payoff(_two(table.n, r, j, s, N - j), s) for j in range(N)])
    return w_r @ u_r, w_s @ u_s


@functools.cache
def _hyper_weights(m: int, N: int) -> tuple[np.ndarray, np.ndarray]:
    """[k-1, j]: the chance that j of a mutant's (resp. a resident's) N-1 opponents are mutants
    when k of the m individuals are."""
    w_r = np.array([[_hyper(j, k - 1, m - k, N - 1) for j in range(N)] for k in range(1, m)])
    w_s = np.array([[_hyper(j, k, m - k - 1, N - 1) for j in range(N)] for k in range(1, m)])
    return w_r, w_s


def _hyper(j: int, good: int, bad: int, draws: int) -> float:
    if j > good or draws - j > bad or j < 0 or draws - j < 0:
        return 0.0
    return math.comb(good, j) * math.comb(bad, draws - j) / math.comb(good + bad, draws)


def _two(n: int, r: int, count_r: int, s: int, count_s: int) -> np.ndarray:
    counts = np.zeros(n, dtype=np.int64)
    counts[r] += count_r
    counts[s] += count_s
    return counts


def log_fixation(delta: np.ndarray, alpha: float) -> float:
    """log of the Fermi-process fixation probability of one mutant, from the fitness gaps
    f_r(k) - f_s(k): -log(sum_l prod_{k<=l} exp(-alpha delta_k)) (l = 0: the empty product)."""
    logs = np.concatenate([[0.0], np.cumsum(-alpha * np.asarray(delta, dtype=np.float64))])
    top = logs.max()
    return float(-(top + np.log(np.exp(logs - top).sum())))


def fixation(delta: np.ndarray, alpha: float) -> float:
    """Fermi-process fixation probability of one mutant, from the fitness gaps f_r(k) - f_s(k):
    1 / (1 + sum_l prod_{k<=l} exp(-alpha delta_k)), in log space (alpha may be large)."""
    return float(np.exp(log_fixation(delta, alpha)))


def alpharank(table: PayoffTable, alpha: float = 50.0, m: int = 50) -> AlphaRank:
    """alpha-Rank of a symmetric N-player game (single population of size m >= N). pi is solved
    in log space (`stationary_log`), so a ranking below the top is by log pi, not by masses
    rounded to zero; what log pi cannot order is `AlphaRank.unranked`."""
    n, N = table.n, table.players
    if m < N:
        raise ValueError(f"the population ({m}) must hold at least one table ({N} players)")
    log_rho = np.full((n, n), -np.inf)
    for s in range(n):
        for r in range(n):
            if r != s:
                f_r, f_s = invasion_fitness(table, s, r, m)
                log_rho[s, r] = log_fixation(f_r - f_s, alpha)
    eta = 1.0 / max(n - 1, 1)
    log_pi = stationary_log(np.log(eta) + log_rho) if n > 1 else np.zeros(1)
    pi = np.exp(log_pi)
    return AlphaRank(pi / pi.sum(), np.exp(log_rho), float(alpha), int(m), log_pi, log_rho)


def stationary_log(log_rates: np.ndarray) -> np.ndarray:
    """log pi of the chain whose off-diagonal transition probabilities are exp(log_rates) (the
    diagonal is ignored: each row's stay is what its moves leave), normalised to sum(pi) = 1.
    Grassmann-Taksar-Heyman state reduction, done on logs: it only adds, multiplies and divides
    positive numbers, so every mass keeps its relative precision however small (1e-300 beside 1),
    where a linear solve rounds masses below ~1e-16 of the largest to noise. A state the chain
    cannot leave towards the states reduced before it (a reducible chain) gets NaN."""
    L = np.array(log_rates, dtype=np.float64)
    n = len(L)
    with np.errstate(invalid="ignore", divide="ignore"):
        for k in range(n - 1, 0, -1):
            out = _logsumexp(L[k, :k])
            L[:k, k] -= out
            L[:k, :k] = np.logaddexp(L[:k, :k], L[:k, k][:, None] + L[k, :k][None, :])
        logs = np.full(n, -np.inf)
        logs[0] = 0.0
        for k in range(1, n):
            logs[k] = _logsumexp(logs[:k] + L[:k, k])
        return logs - _logsumexp(logs)


def _logsumexp(x: np.ndarray) -> float:
    x = np.asarray(x, dtype=np.float64)
    if len(x) == 0 or not np.isfinite(x).any():
        return -np.inf if not np.isnan(x).any() else np.nan
    top = np.max(x[np.isfinite(x)])
    return float(top + np.log(np.exp(x - top).sum()))


def _stationary(C: np.ndarray) -> np.ndarray:
    """pi with pi C = pi and sum(pi) = 1 (least squares: exact when the chain is irreducible);
    linear space, kept to check the log-space solve against."""
    n = len(C)
    A = np.vstack([(C - np.eye(n)).T, np.ones((1, n))])
    b = np.zeros(n + 1)
    b[-1] = 1.0
    pi = np.linalg.lstsq(A, b, rcond=None)[0]
    pi = np.clip(pi, 0.0, None)
    return pi / pi.sum()


# --- cycles -----------------------------------------------------------------------------------------

def cycles(beats: np.ndarray, max_length: int = 4) -> list[list[int]]:
    """Simple directed cycles a -> b -> ... -> a of the response graph (beats[b, a]: b beats a)
    up to `max_length`, each once, starting at its smallest member."""
    n = len(beats)
    found = []

    def walk(path):
        last = path[-1]
        for nxt in range(path[0], n):
            if not beats[nxt, last]:
                continue
            if nxt == path[0] and len(path) >= 3:
                found.append(list(path))
            elif nxt not in path and nxt > path[0] and len(path) < max_length:
                walk(path + [nxt])

    for start in range(n):
        walk([start])
    return sorted(found, key=lambda c: (len(c), c))
