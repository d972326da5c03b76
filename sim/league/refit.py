"""The strong players fitted again to the rules under study (`mobsim strategies refit`, `--refit`).

The shipped strong presets (a game's good rungs: sim.shared.game.Game.good_rungs) were fitted to
the default rules. A rule change judged with them is judged with players who have not adapted.
`refit` fits each again under the studied rules, warm-started from the shipped one, within a
budget stated in games:

- a knob preset (New York Kings' `tuned` and `distilled`, American Gangsters' `balanced` and
  `warlord`, Pig's `simple`): the league's cross-entropy search (sim.league.tune) started from
  the shipped knobs, against its provenance's opponents (the game's opponents when it names
  none). `distilled` is re-fitted by the same tune, not by a distill round: a distill round
  labels its games with the search (about a second a game), the tune plays heuristic games
  (milliseconds), so a budget in games buys hundreds of times more evidence through the tune;
  the refit `distilled` is then the distilled knobs moved to win under the new rules, no longer
  an imitation of the search;
- a policy table the game can make exactly (Pig's `optimal`: sim.pig.tables.make_optimal): made
  again for the rules, no games;
- a search player (`search-leaf-all`): its rollout replaced by the refit rollout, no games (the
  search plans through the forward model of the studied rules already; its leaf model is kept);
- the equilibrium mixture (`meta:equilibrium`): the meta-game of its population (its
  `<name>-<k>` best responses and the game's base population, a refit preset in place of the
  shipped one) played again under the new rules and solved again, the replicator dynamics
  started from the shipped weights too (the re-solve of an empirical game under changed payoffs,
  as PSRO's meta-solver does each iteration); no new best response is searched;
- a learned player's weights (`learned`, a table family the game cannot make again) and a
  family without knobs: kept as shipped (one learn iteration labels its games with the search,
  beyond any budget this command states).

The budget: with an equilibrium mixture to refit, half goes to its meta-game and the knob
presets share the other half equally; without one they share it all. A tune spends 80% of its
share searching (GENERATIONS generations of POPULATION candidates from a first spread SPREAD,
each against every opponent on common game ids) and 20% measuring its result and the shipped
knobs on the same fresh games: the shipped knobs stay unless the result scores higher (a small
budget makes a noisy search, which can end below its start); a meta-game plays its share over its profiles
(a multiple of the players a profile). A share too small to play MIN_GAMES games a candidate
and opponent (a profile: one game a seat) keeps that player as shipped, and the manifest says
what it would need. Everything is drawn from the seed: the same seed gives the same players
whatever the workers.

OUT holds the refit presets and mixture (each with its provenance: the rules' fingerprint,
overrides, warm start, games spent, seed, command) and `refit.json`, the manifest mapping each
shipped name to what plays it (`specs`) and saying which players were fitted to which rules
(`players_fitted_to`).
"""

from __future__ import annotations

import json
import math
import tomllib
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from sim.league.games import knobs as game_knobs, toml_value
from sim.league.match import Pool, play_lineups, ruleset_key
from sim.provenance import engine_commit
from sim.runner.executor import uses_scheduler
from sim.shared.game import find

MANIFEST = "refit.json"
MIXTURE_SHARE = 0.5    # of the budget, to the equilibrium mixture's meta-game when one is refit
FINAL_SHARE = 0.2      # of a tune's share, to measuring its result on fresh game ids
GENERATIONS, POPULATION, ELITE = 4, 8, 2   # a tune's search (fewer generations when the share is small)
SPREAD = 0.1           # its first generation's spread in the unit box: near the shipped knobs (tune's own: 0.25)
MIN_GAMES = 10         # games a candidate and opponent (and final games an opponent) a tune needs at least
STEP_SEED = 1000       # the k-th player's search draws from seed + STEP_SEED * k


class RefitError(ValueError):
    """Input a refit cannot use (one line: what is wrong and how to fix it)."""


@dataclass
class Refit:
    """One shipped player and what plays it under the studied rules."""

    shipped: str                 # the rung's name ("tuned", "meta:equilibrium")
    method: str                  # knobs, table, search, mixture, kept
    spec: str                    # what plays it: a preset file, "meta:<file>", or the shipped name
    games: int = 0               # games spent fitting it
    warm_start: str = ""         # what the fit started from
    note: str = ""               # why it was kept, or how it was fitted
    file: str = ""               # the file written in OUT ("" when kept)

    @property
    def fitted(self) -> bool:
        return bool(self.file)


@dataclass
class RefitResult:
    game: str
    rules: dict                  # ruleset, overrides, fingerprint, default (bool)
    budget: int
    seed: int
    players: int
    players_refit: list[Refit]
    command: str = ""
    out: str = ""
    checks: list[dict] = field(default_factory=list)   # each refit player against the shipped one

    @property
    def specs(self) -> dict[str, str]:
        """shipped name -> the spec that plays it under the studied rules."""
        return {r.shipped: r.spec for r in self.players_refit}

    @property
    def games_spent(self) -> int:
        return sum(r.games for r in self.players_refit)

    def fitted_to(self) -> str:
        """Which players were fitted to which rules, in one sentence."""
        return fitted_sentence(self.players_refit, self.rules, self.budget, self.seed, self.players, self.game)

    def manifest(self) -> dict:
        return {"game": self.game, "rules": self.rules, "budget": self.budget, "seed": self.seed,
                "players": self.players, "command": self.command, "games_spent": self.games_spent,
                "engine_commit": engine_commit(), "players_fitted_to": self.fitted_to(),
                "refit": {r.shipped: asdict(r) for r in self.players_refit}, "specs": self.specs,
                "checks": self.checks}


def fitted_sentence(players_refit, rules: dict, budget: int, seed: int, players: int, game: str = "nyk") -> str:
    fitted = [r.shipped for r in players_refit if r.fitted]
    kept = [r.shipped for r in players_refit if not r.fitted]
    where = _rules_words(rules)
    if not fitted:
        return (f"The players as shipped ({', '.join(kept)}): fitted to the default rules, none refit to "
                f"{where}.{stale_note(game, kept)}")
    out = (f"Refit to {where} at {players} players (budget {budget:,} games, seed {seed}, warm-started from "
           f"the shipped players): {', '.join(fitted)}.")
    if kept:
        out += f" Kept as shipped (fitted to the default rules): {', '.join(kept)}.{stale_note(game, kept)}"
    return out


def stale_note(game: str, names) -> str:
    """" tuned, meta:equilibrium were fitted to an earlier version of them (fingerprint ...)." for the
    shipped players whose provenance (a mixture: its components') names other default rules than today's."""
    from sim.rules import Ruleset

    today = Ruleset.load(game=game).fingerprint
    stale: dict[str, list[str]] = {}
    for name in names:
        for fingerprint in _fitted_fingerprints(name, game):
            if fingerprint != today:
                stale.setdefault(fingerprint, []).append(name)
    return "".join(f" {', '.join(who)} {'was' if len(who) == 1 else 'were'} fitted to an earlier version of the "
                   f"default rules (fingerprint {fp[:12]})." for fp, who in stale.items())


def _fitted_fingerprints(name: str, game: str) -> set[str]:
    """The rules' fingerprints the shipped player's provenance names (a mixture: its components')."""
    import strategies
    from strategies import mixture

    try:
        specs = mixture.load(name, game).components if mixture.is_mixture(name) else (name,)
        found = {strategies.load(spec, game).provenance.get("ruleset_fingerprint") for spec in specs}
    except (strategies.StrategyError, mixture.MixtureError):
        return set()
    return {f for f in found if isinstance(f, str) and f}


def shipped_sentence(game: str, rules_changed: bool, hint: str = " (add --refit to fit them)", rungs=None) -> str:
    """The page's sentence without --refit: the players (`rungs`, default the game's good rungs)
    are the shipped ones, fitted to the defaults."""
    good = list(rungs or find(game).good_rungs)
    return ("The players as shipped (" + ", ".join(good) + "): fitted to the default rules"
            + (f", not re-fitted to the rules studied here{hint}." if rules_changed else ".") + stale_note(game, good))


def _rules_words(rules: dict) -> str:
    if rules.get("default"):
        return f"the default rules (fingerprint {rules['fingerprint'][:12]})"
    changes = ", ".join(f"{k}={v}" for k, v in (rules.get("overrides") or {}).items())
    parts = [p for p in (f"ruleset {rules['ruleset']}" if rules.get("ruleset") else "", changes) if p]
    return f"the rules {'; '.join(parts) or 'given'} (fingerprint {rules['fingerprint'][:12]})"


def rules_of(game: str, ruleset=None, overrides=None) -> dict:
    """The studied rules as the manifest records them (RefitError on rules that do not load)."""
    from sim.rules import Ruleset

    try:
        studied = Ruleset.load(ruleset, overrides or None, game=game)
    except ValueError as err:
        raise RefitError(" ".join(str(err).split())) from None
    default = Ruleset.load(game=game).fingerprint
    return {"ruleset": None if ruleset is None else str(ruleset), "overrides": dict(overrides or {}),
            "fingerprint": studied.fingerprint, "default": studied.fingerprint == default}


# --- what each shipped player is, and its share of the budget -------------------------------------

def method_of(spec: str, game: str) -> str:
    """How a shipped player is refit: knobs, table, search, mixture or kept (module docstring)."""
    import strategies
    from strategies import mixture

    if mixture.is_mixture(spec):
        return "mixture"
    s = strategies.load(spec, game)
    space = strategies.space(game)
    if s.family == strategies.SEARCH:
        return "search"
    if s.family in getattr(space, "TABLE_FAMILIES", ()):
        return "table" if _exact_table(s, game) else "kept"
    return "knobs" if s.family == space.DEFAULT_FAMILY else "kept"


def _exact_table(strategy, game: str) -> bool:
    """Whether the game makes this table again exactly (a `kind` "optimal" table of sim.<game>.tables)."""
    import importlib.util

    if importlib.util.find_spec(f"sim.{game}.tables") is None:
        return False
    with np.load(strategy.table["file"]) as data:
        return "kind" in data and str(data["kind"]) == "optimal"


def check_rungs(game: str, rungs=None) -> list[str]:
    """The shipped players to refit (default: the game's good rungs), each loadable; RefitError if not."""
    import strategies
    from strategies import mixture

    names = list(rungs) if rungs else list(find(game).good_rungs)
    names = [n.strip() for n in names if n.strip()]
    if not names:
        raise RefitError("no rung to refit: give shipped presets, e.g. --rungs tuned")
    for name in names:
        try:
            mixture.load(name, game) if mixture.is_mixture(name) else strategies.load(name, game)
        except (strategies.StrategyError, mixture.MixtureError) as err:
            raise RefitError(f"rung {name!r}: {' '.join(str(err).split())}") from None
    return names


def shares(methods: dict[str, str], budget: int) -> dict[str, int]:
    """Each player's games of the budget (module docstring: half to a mixture, the rest to the
    knob presets equally; tables, searches and kept players none)."""
    tuned = [n for n, m in methods.items() if m == "knobs"]
    mixed = [n for n, m in methods.items() if m == "mixture"]
    out = {n: 0 for n in methods}
    left = budget
    if mixed:
        part = budget if not tuned else int(budget * MIXTURE_SHARE)
        for n in mixed:
            out[n] = part // len(mixed)
        left = budget - part
    for n in tuned:
        out[n] = left // len(tuned)
    return out


def tune_plan(share: int, opponents: int) -> dict | None:
    """The tune's sizes that fit in `share` games against `opponents` opponents (None: too few);
    the final share measures the tune's result and the shipped knobs on the same fresh games."""
    final = int(share * FINAL_SHARE) // (2 * opponents)
    for generations in range(GENERATIONS, 0, -1):
        games = int(share * (1 - FINAL_SHARE)) // (generations * POPULATION * opponents)
        if games >= MIN_GAMES and final >= MIN_GAMES:
            return {"generations": generations, "population": POPULATION, "elite": ELITE, "games": games,
                    "final_games": final, "spread": SPREAD}
    return None


def tune_needs(opponents: int) -> int:
    """The smallest share a tune can be played in (one generation of MIN_GAMES a candidate)."""
    return math.ceil(max(MIN_GAMES * POPULATION * opponents / (1 - FINAL_SHARE),
                         2 * MIN_GAMES * opponents / FINAL_SHARE))


# --- the refit ---------------------------------------------------------------------------------------

@uses_scheduler
def refit(game: str, ruleset=None, overrides=None, out=None, budget: int = 20_000, seed: int = 0,
          workers: int | None = None, scheduler: str | None = None, rungs=None, players: int | None = None,
          command: str = "", log=None) -> RefitResult:
    """Refit the shipped strong players of `game` (default: its good rungs) under the rules
    (`ruleset` file and `overrides`) into `out` within `budget` games (module docstring)."""
    say = log or (lambda _line: None)
    rules = rules_of(game, ruleset, overrides)
    names = check_rungs(game, rungs)
    players = players or find(game).players
    if players not in find(game).player_range:
        allowed = find(game).player_range
        raise RefitError(f"players {players}: {game} seats {allowed.start} to {allowed.stop - 1}: give --players "
                         f"in that range")
    if budget < 0:
        raise RefitError(f"budget {budget}: give the games the refit may play, 0 or more (e.g. --budget 20000)")
    if budget == 0 and not rules["default"]:
        raise RefitError("budget 0 refits nothing under changed rules: give the games the refit may play "
                         "(e.g. --budget 20000)")
    root = _claim(out)
    methods = {n: method_of(n, game) for n in names}
    if budget == 0:   # the default rules, nothing to play: the shipped players are the fitted ones
        kept = [Refit(n, "kept", n, note="budget 0: the shipped player, fitted to the default rules")
                for n in names]
        return _finish(RefitResult(game, rules, 0, seed, players, kept, command, str(root)), root)
    share = shares(methods, budget)
    done: dict[str, Refit] = {}
    order = sorted(names, key=lambda n: ("knobs", "table", "kept", "search", "mixture").index(methods[n]))
    for k, name in enumerate(order):
        step_seed = seed + STEP_SEED * (k + 1)
        method = methods[name]
        say(f"refit {name} ({method}, {share[name]:,} games)")
        if method == "knobs":
            done[name] = _refit_knobs(name, game, rules, root, share[name], step_seed, players, workers, command)
        elif method == "table":
            done[name] = _refit_table(name, game, ruleset, overrides, root, command)
        elif method == "search":
            done[name] = _refit_search(name, game, root, done, command)
        elif method == "mixture":
            done[name] = _refit_mixture(name, game, rules, ruleset, overrides, root, share[name], step_seed,
                                        players, workers, done, command, say)
        else:
            done[name] = Refit(name, "kept", name, note=_kept_note(name, game))
    result = RefitResult(game, rules, budget, seed, players, [done[n] for n in names], command, str(root))
    return _finish(result, root)


def _claim(out) -> Path:
    """OUT, made and writable (a folder holding a previous refit is written again); RefitError if not."""
    if out is None:
        raise RefitError("give --out DIR for the refit players")
    root = Path(out)
    if root.exists() and not root.is_dir():
        raise RefitError(f"--out {root} is a file: give a directory for the refit players")
    if root.is_dir() and any(root.iterdir()) and not (root / MANIFEST).is_file():
        raise RefitError(f"--out {root} holds files that are not a refit: choose a new or empty directory")
    try:
        root.mkdir(parents=True, exist_ok=True)
        probe = root / ".write-check"
        probe.write_text("")
        probe.unlink()
    except OSError as err:
        raise RefitError(f"cannot write in --out {root}: {err.strerror or err}; choose a writable directory") from None
    return root


def _finish(result: RefitResult, root: Path) -> RefitResult:
    (root / MANIFEST).write_text(json.dumps(result.manifest(), indent=1) + "\n")
    return result


def _kept_note(name: str, game: str) -> str:
    import strategies
    from strategies import mixture

    if not mixture.is_mixture(name) and strategies.load(name, game).table:
        return ("kept as shipped: its weights are learned from search labels (one learn iteration labels "
                "its games with the search, beyond this budget)")
    return "kept as shipped: a family without knobs to fit"


def _provenance(rules: dict, warm: str, spent: int, seed: int, command: str) -> dict:
    return {"refit_of": warm, "warm_start": f"the shipped {warm}", "refit_ruleset": rules["ruleset"] or "default",
            "refit_overrides": rules["overrides"], "refit_fingerprint": rules["fingerprint"],
            "refit_games_spent": spent, "refit_seed": seed, "refit_command": command,
            "refit_engine_commit": engine_commit()}


def _opponents(name: str, game: str) -> list[str]:
    """The opponents the shipped preset was fitted against (its provenance), else the game's."""
    import strategies

    named = strategies.load(name, game).provenance.get("opponents")
    usable = [o for o in (named or []) if not str(o).startswith("meta:runs/")]   # a study's file, not shipped
    return usable or list(game_knobs(game).opponents)


def _refit_knobs(name, game, rules, root, share, seed, players, workers, command) -> Refit:
    from sim.league.tune import tune

    opponents = _opponents(name, game)
    sizes = tune_plan(share, len(opponents))
    if sizes is None:
        return Refit(name, "kept", name, warm_start=name,
                     note=f"kept as shipped: its share ({share:,} games) is below the {tune_needs(len(opponents)):,} "
                          f"a tune against {len(opponents)} opponents needs (raise the budget)")
    result = tune(seed=seed, players=players, opponents=opponents, start=name, ruleset=rules["ruleset"],
                  overrides=rules["overrides"], workers=workers, game=game, **sizes)
    shipped = _shipped_score(name, game, opponents, sizes["final_games"], seed, rules, players, workers)
    spent = result.provenance["games_spent"] + sizes["final_games"] * len(opponents)
    if not result.score > shipped:   # a noisy search can end below its start: the shipped knobs stay
        return Refit(name, "kept", name, spent, name,
                     f"kept as shipped: the tune's result scored {result.score:.3f} against the shipped knobs' "
                     f"{shipped:.3f} on the same {sizes['final_games']} fresh games an opponent under these rules")
    result.provenance |= _provenance(rules, name, spent, seed, command) | {"shipped_score": round(shipped, 4),
                                                                           "refit_score": round(result.score, 4)}
    doc = (f"{name} refit by the cross-entropy method from its shipped knobs to the rules of fingerprint "
           f"{rules['fingerprint'][:12]} ({spent:,} games).")
    path = root / f"{_file_stem(name)}.toml"
    path.write_text(game_knobs(game).preset_toml(path.stem, result.params, doc, result.provenance))
    return Refit(name, "knobs", str(path), spent, name,
                 f"cross-entropy tune from the shipped knobs against {', '.join(opponents)}: "
                 f"{sizes['generations']} generations of {sizes['population']}, {sizes['games']} games a candidate "
                 f"and opponent, {sizes['final_games']} final games an opponent", path.name)


def _shipped_score(name, game, opponents, games, seed, rules, players, workers) -> float:
    """The shipped preset's score (sim.league.tune's: the mean win rate, the worst counted twice)
    on the tune's final game ids: paired with the tune's result."""
    from sim.league.tune import _score_rows, measure

    with Pool(workers) as pool:
        box = game_knobs(game)
        rows = measure(pool, box.resolve(name), [box.resolve(o) for o in opponents], games, seed,
                       ruleset_key(rules["ruleset"], rules["overrides"], game), players)
    return _score_rows(rows)


def _refit_table(name, game, ruleset, overrides, root, command) -> Refit:
    import importlib

    from sim.rules import Ruleset

    tables = importlib.import_module(f"sim.{game}.tables")
    preset, _ = tables.make_optimal(Ruleset.load(ruleset, overrides or None, game=game), root, _file_stem(name))
    return Refit(name, "table", str(preset), 0, name, "the optimal table made again exactly for these rules "
                 "(value iteration, no games)", preset.name)


def _refit_search(name, game, root, done, command) -> Refit:
    """The search preset with its rollout replaced by the rollout's refit (its knobs, its kinds kept)."""
    import strategies

    shipped = strategies.load(name, game)
    rollout = shipped.search["rollout"]
    refit_rollout = done.get(rollout)
    if refit_rollout is None or not refit_rollout.fitted:
        return Refit(name, "kept", name, note=f"kept as shipped: its rollout {rollout} was not refit "
                                              f"(add it to the rungs, or raise the budget)")
    data = tomllib.loads(Path(shipped.source).read_text())
    data["search"]["rollout"] = refit_rollout.spec
    data["doc"] = f"{data.get('doc', '')} Refit: the rollout is {rollout} refit to these rules ({refit_rollout.file})."
    data["provenance"] = dict(data.get("provenance", {})) | {
        "refit_of": name, "refit_rollout": refit_rollout.spec, "refit_command": command,
        "refit_note": "the leaf model is kept as shipped (fitted to the default rules)"}
    path = root / f"{_file_stem(name)}.toml"
    path.write_text(_toml(data))
    return Refit(name, "search", str(path), 0, name, f"the search with {rollout} refit as its rollout (no games; "
                                                     f"the leaf model kept)", path.name)


def _toml(data: dict) -> str:
    """A preset's dict as TOML: its plain keys, then one table per dict."""
    lines = [f"{k} = {toml_value(v)}" for k, v in data.items() if not isinstance(v, dict)]
    for key, table in data.items():
        if isinstance(table, dict):
            lines += ["", f"[{key}]"] + [f"{toml_value(str(k))} = {toml_value(v)}" for k, v in table.items()]
    return "\n".join(lines) + "\n"


def population_of(name: str, game: str, done: dict) -> tuple[list[str], np.ndarray]:
    """The mixture's population (its `<stem>-<k>` presets, its components, the game's base
    population; a refit preset in place of the shipped one) and the shipped weights on it."""
    import glob

    from strategies import mixture

    mix = mixture.load(name, game)
    stem = Path(mix.source).stem
    found = glob.glob(str(game_knobs(game).preset_dir() / f"{glob.escape(stem)}-*.toml"))
    members = sorted(Path(p).stem for p in found)
    shipped = list(dict.fromkeys([*game_knobs(game).population, *members, *mix.components]))
    swap = {n: done[n].spec for n in shipped if n in done and done[n].fitted}
    population = [swap.get(n, n) for n in shipped]
    weights = np.zeros(len(shipped))
    for comp, w in zip(mix.components, mix.weights, strict=True):
        weights[shipped.index(comp)] = w
    return population, weights


def _refit_mixture(name, game, rules, ruleset, overrides, root, share, seed, players, workers, done, command,
                   say) -> Refit:
    from math import comb

    from sim.meta.psro import mixture_toml
    from sim.meta.solvers import expected_payoffs, nash, starting_points
    from sim.meta.table import play_profiles

    population, shipped_weights = population_of(name, game, done)
    profiles = comb(len(population) + players - 1, players)
    per_profile = (share // profiles) // players * players
    if per_profile < players:
        return Refit(name, "kept", name, note=f"kept as shipped: its share ({share:,} games) is below the "
                                              f"{profiles * players:,} its meta-game needs ({profiles:,} profiles of "
                                              f"{len(population)} strategies, one game a seat; raise the budget)")
    stem = _file_stem(name)
    measured = play_profiles(population, players, per_profile, seed, root / f"meta-{stem}", game, ruleset,
                             overrides, workers, force=True, log=say)
    table = measured.table()
    starts = np.vstack([shipped_weights[None, :], starting_points(table.n, seed=seed)])
    eq = nash(table, seed=seed, starts=starts)[0]
    spent = per_profile * profiles
    provenance = _provenance(rules, name, spent, seed, command) | {
        "method": "the meta-game of the population played again under these rules and solved again "
                  "(replicator dynamics, started from the shipped weights too)",
        "population": [Path(p).stem for p in population], "games_per_profile": per_profile,
        "players": players, "regret": round(float(eq.regret), 6),
        "own_payoff": round(float(eq.mixture @ expected_payoffs(table, eq.mixture)), 6)}
    keys = [Path(p).name if Path(p).suffix == ".toml" else p for p in population]   # refit files: beside it
    path = root / f"{stem}.toml"
    path.write_text(mixture_toml(keys, eq.mixture, f"{name} re-solved under the rules of fingerprint "
                                 f"{rules['fingerprint'][:12]}", provenance, game))
    return Refit(name, "mixture", f"meta:{path}", spent, name,
                 f"the meta-game of {len(population)} strategies re-solved ({profiles:,} profiles, {per_profile} "
                 f"games each)", path.name)


def _file_stem(name: str) -> str:
    from strategies import mixture

    base = name[len(mixture.PREFIX):] if mixture.is_mixture(name) else name
    return "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in Path(base).stem)


# --- reading a refit back, and checking it ----------------------------------------------------------

def read(out) -> RefitResult:
    """A refit written earlier (OUT/refit.json); RefitError when OUT holds none."""
    path = Path(out) / MANIFEST
    if not path.is_file():
        raise RefitError(f"{out}: no {MANIFEST}: give a directory `mobsim strategies refit --out` wrote")
    doc = json.loads(path.read_text())
    players_refit = [Refit(**r) for r in doc["refit"].values()]
    return RefitResult(doc["game"], doc["rules"], doc["budget"], doc["seed"], doc["players"], players_refit,
                       doc.get("command", ""), str(out), doc.get("checks", []))


@uses_scheduler
def check_against_shipped(result: RefitResult, games: int, seed: int, workers: int | None = None,
                          scheduler: str | None = None) -> list[dict]:
    """Each refit player in one seat against the shipped one in the others under the studied rules,
    on fresh game ids, with its 95% interval (a search player is not played: seconds a game)."""
    rows = []
    rules = ruleset_key(result.rules["ruleset"], result.rules["overrides"], result.game)
    with Pool(workers, scheduler) as pool:
        for r in result.players_refit:
            if not r.fitted or r.method == "search":
                continue
            m = play_lineups(pool, [[r.spec] + [r.shipped] * (result.players - 1)], games, seed, rules,
                             first_id=1 << 31)[0]
            lo, hi = m.interval(0)
            rows.append({"player": r.shipped, "games": games, "win_rate": m.rate(0), "low": lo, "high": hi,
                         "fair": 1 / result.players})
    result.checks = rows
    if result.out:
        _finish(result, Path(result.out))
    return rows


def players_for(refit_dir, game: str, ruleset=None, overrides=None, lineup: str = "") -> tuple[str, str]:
    """`lineup` (comma-separated specs) with each name a refit in `refit_dir` holds replaced by its
    refit, and the sentence saying which players were fitted to which rules; RefitError when the
    refit is of another game or of other rules than these."""
    result = read(refit_dir)
    studied = rules_of(game, ruleset, overrides)
    if result.game != game:
        raise RefitError(f"{refit_dir} holds {result.game} players, not {game}'s: refit them for --game {game}")
    if result.rules["fingerprint"] != studied["fingerprint"]:
        raise RefitError(f"{refit_dir} holds players refit to {_rules_words(result.rules)}, not to the rules played "
                         f"here (fingerprint {studied['fingerprint'][:12]}): refit them to these rules "
                         f"(mobsim strategies refit with the same --ruleset and --set)")
    specs = result.specs

    def swap(spec: str) -> str:
        head, *restrictions = spec.strip().split("+")
        return "+".join([specs.get(head, head), *restrictions])

    return ",".join(swap(s) for s in lineup.split(",")), result.fitted_to()

