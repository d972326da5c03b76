"""The verdict's meta-game: which styles of the game's shipped population survive at this ruleset
when good players adapt to each other (sim.meta: every profile of the population played on common
random numbers, the Nash equilibrium of the heuristic payoff table with bootstrap regrets, and
alpha-Rank as in OpenSpiel's `alpharank`), one per player count.

A style *survives* when it carries weight in the equilibrium mixture; the table also holds its
regret against that mixture with its bootstrap interval and its alpha-Rank place, so a designer
reads both the static (Nash) and the evolutionary (alpha-Rank) answer."""

from __future__ import annotations

import math
import tempfile
from pathlib import Path

import pandas as pd

from sim.shared.game import find

class MetagameError(ValueError):
    """A meta-game the verdict cannot play, in one line (the study turns it into a VerdictError)."""


BOOTSTRAP = 100      # resamples of the games for the regrets' intervals and the support's stability
SURVIVES = 0.01      # a style with at least this weight in the equilibrium mixture survives


def profile_count(styles: int, players: int) -> int:
    """Multisets of `players` seats from `styles` strategies (the profiles a meta-game plays)."""
    return math.comb(styles + players - 1, players)


def games_per_profile(games: int, players: int) -> int:
    """The games asked, rounded up to a multiple of the player count: the seats rotate inside a
    profile, so each style sits each seat equally often (sim.meta.table)."""
    return -(-games // players) * players


def population(game: str) -> tuple[str, ...]:
    return find(game).population


def play(game: str, players: int, games: int, seed: int, ruleset, overrides, workers: int,
         root: Path | None = None) -> tuple[pd.DataFrame, str]:
    """The meta-game of the game's population at `players`: one row per style (weight, survives,
    regret and its interval, alpha-Rank place and log pi) and the meta-game's one-sentence verdict.
    `root`: where the profiles' runs are kept (a temporary directory when None)."""
    from sim.meta import analysis
    from sim.meta.table import MetaError, play_profiles

    styles = population(game)
    games = games_per_profile(games, players)
    ruleset, overrides = as_file_and_overrides(game, ruleset, overrides)
    with tempfile.TemporaryDirectory() as scratch:
        where = Path(root) if root is not None else Path(scratch)
        kept = (where / "meta-plan.json").is_file()   # a study given again finishes its profiles
        try:
            measured = play_profiles(styles, players, games, seed, where, game, ruleset, overrides,
                                     workers, kept, not kept, None)
        except MetaError as err:   # e.g. a directory that holds something else: one line
            raise MetagameError(f"the meta-game: {err}") from None
        meta = analysis.analyse(measured, BOOTSTRAP, seed=seed)
    return _rows(meta, players), meta["verdict"]


def as_file_and_overrides(game: str, ruleset, overrides):
    """The meta-game's profiles are runs in worker processes, which take rules as a file and
    overrides: a loaded Ruleset (`mobsim demo`'s) becomes the default file with its changed
    values as overrides, checked to give the same rules (the same fingerprint)."""
    from sim.rules import Ruleset

    if not isinstance(ruleset, Ruleset):
        return ruleset, overrides
    changed = {k: list(v) if isinstance(v, tuple) else v
               for k, v in ruleset.values.items() if k in ruleset.defaults_changed()}
    if overrides or Ruleset.load(None, changed, game=game).fingerprint != ruleset.fingerprint:
        raise MetagameError("the meta-game plays its profiles from a ruleset file: give the rules as "
                           "--ruleset FILE (with --set), or --meta-games 0")
    return None, changed


def _rows(meta: dict, players: int) -> pd.DataFrame:
    mixture = meta["equilibrium"]["mixture"]
    ranking = meta["alpharank"]["ranking"]
    unranked = set(meta["alpharank"]["unranked"])
    rows = []
    for s in meta["strategies"]:
        regret = meta["regret_against_equilibrium"][s]
        rows.append({"players": players, "strategy": s, "weight": mixture[s], "survives": mixture[s] >= SURVIVES,
                     "regret": regret["regret"], "regret_lo": regret["low"], "regret_hi": regret["high"],
                     "alpharank_place": None if s in unranked else ranking.index(s) + 1,
                     "alpharank_log_pi": meta["alpharank"]["log_pi"][s],
                     "games_per_profile": meta["games_per_profile"], "profiles": meta["profiles"]})
    return pd.DataFrame(rows)


def sentence(rows: pd.DataFrame, verdict: str) -> str:
    """What the page says of one player count's meta-game."""
    survivors = rows[rows["survives"]].sort_values("weight", ascending=False)
    names = ", ".join(f"{r.strategy} {r.weight:.0%}" for r in survivors.itertuples())
    first = rows.iloc[0]
    return (f"of the shipped population ({', '.join(rows['strategy'])}; {int(first['profiles'])} profiles, "
            f"{int(first['games_per_profile']):,} games each) the styles that survive are {names}. {verdict}")
