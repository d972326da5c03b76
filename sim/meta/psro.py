"""PSRO (policy-space response oracles, Lanctot et al. 2017) over a game's knob space (New York
Kings or American Gangsters: the knob box of sim.league.games).

Start from a population of strategies (the game's shipped presets); each iteration
1. plays the meta-game of the population (`sim.meta.table`: only the profiles holding a new
   strategy are new games) and solves it for its symmetric equilibrium mixture;
2. searches the knobs for a best response to that mixture with the league's cross-entropy
   search (`sim.league.tune`): one candidate seat against seats that each draw their style
   from the mixture every game, on common random numbers; or, with the learned oracle
   (`oracle="learned"`), learns one by expert iteration (`sim.league.learn`, ExIt, Anthony et al.
   2017) warm-started from the shipped learned player: the apprentice in one seat a game, the
   others drawn from the mixture, the labelling search modelling them as seated; it is written
   as a learned preset (`presets/psro-<k>.toml` and its weights `psro-<k>.npz`);
3. measures the best response on fresh game ids: its win rate minus the mixture's own payoff
   against itself is the mixture's **exploitability** (with a 95% interval);
4. adds the best response to the population when it gains significantly (the interval above
   the mixture's own payoff), and goes on.

With `exploit_games`, the game's exploiter (`sim.league.strength.exploitability`: New York Kings'
search-leaf-all, American Gangsters' search-200) reads each iteration's mixture after its
meta-game, and the study stops when it gains less than 2 points over fair. Learned best
responses sit beside each other and the apprentice (each seat reads its own weights set, up to
the engine's N_LEARNED_SLOTS files a game). `psro.json`'s last row says what stopped the study.

The study directory holds `meta/` (the meta-game's profile runs), `presets/psro-<k>.toml` (each
best response in its game's preset format, with its provenance), `mixtures/iteration-<k>.toml`, the final `mixture.toml`
(usable as a strategy: `--strategies meta:<dir>`), `psro.json` (every iteration) and the final
population's meta-game report (`meta.json`, `index.html`: the mixture's bootstrap stability).
"""

from __future__ import annotations

import glob
import json
import re
import time
from pathlib import Path

import numpy as np

from sim.rooms import DEFAULT_GAME
from sim.provenance import engine_commit
from sim.meta.solvers import expected_payoffs, nash
from sim.meta.table import MetaError, play_profiles
from sim.runner.executor import uses_scheduler
from sim.league.strength import EQUILIBRIUM_BAND

POPULATION = ("runner", "enforcer", "networker", "cautious", "corrupter", "balanced", "tuned")  # NYK's
SEARCH = {"generations": 4, "population": 8, "elite": 2, "games": 400, "final_games": 2000}


def mixture_toml(strategies, weights, doc: str, provenance: dict, game: str = "nyk") -> str:
    """A mixture file (strategies.mixture) of `game` giving each strategy its weight (zero weights
    left out)."""
    from sim.league.games import toml_value as _toml_value

    lines = [f"doc = {_toml_value(doc)}", f"game = {_toml_value(game)}", "", "[weights]"]
    lines += [f"{_toml_value(s)} = {float(w)!r}" for s, w in zip(strategies, weights, strict=True) if w > 0]
    lines += ["", "[provenance]"]
    lines += [f"{k} = {_toml_value(v)}" for k, v in provenance.items()]
    return "\n".join(lines) + "\n"


ORACLES = ("knobs", "learned")
LEARN = {"iterations": 1, "games": 24, "warm": "learned"}   # the learned oracle's expert iteration


@uses_scheduler
def psro(population=None, iterations: int = 3, players: int = 4, games_per_profile: int = 80,
         seed: int = 0, out=None, ruleset=None, overrides=None, workers: int | None = None,
         search: dict | None = None, resume: bool = False, force: bool = False, command: str = "",
         log=None, bootstrap: int = 200, game: str = "nyk", scheduler: str | None = None,
         oracle: str = "knobs", learn: dict | None = None, exploit_games: int = 0) -> dict:
    """Grow `population` (default: `game`'s presets) by best responses for `iterations`
    iterations; see the module docstring. `oracle`: the knob search (`search`) or expert
    iteration against the mixture (`learn`: LEARN's keys, and `knobs`, the expert's); with
    `exploit_games`, the game's exploiter reads each mixture and the study stops when it gains
    less than EQUILIBRIUM_BAND over fair."""
    from sim.league.games import knobs
    from sim.league.tune import tune as knob_search

    if oracle not in ORACLES:
        raise ValueError(f"oracle = {oracle!r}: choose {' or '.join(ORACLES)}")
    if population is None:
        population = knobs(game).population

    search = {**SEARCH, **(search or {})}
    learn = {**LEARN, **(learn or {})}
    from sim.runner.store import STUDY, RunError, claim

    root = Path(out)
    if root.exists() and any(p.name != STUDY for p in root.iterdir()) and not (resume or force):
        raise MetaError(f"{root} is not empty: add --resume to go on with the study in it, or "
                        f"--force to replace it")
    if force and root.exists():
        import shutil

        if not (root / "psro.json").is_file() and not (root / "meta").is_dir():
            raise MetaError(f"{root} holds files that are not a PSRO study: choose another --out")
        shutil.rmtree(root)
    try:
        claim(root, "psro")
    except RunError as err:
        raise MetaError(str(err), usage=err.usage) from None
    (root / "presets").mkdir(parents=True, exist_ok=True)
    (root / "mixtures").mkdir(exist_ok=True)
    started = time.perf_counter()
    pop = list(population)
    history = []
    say = log or (lambda line: None)
    stopped = f"the {iterations} iterations asked for were run"
    for it in range(iterations + 1):
        measured = play_profiles(pop, players, games_per_profile, seed, root / "meta", game, ruleset,
                                 overrides, workers, resume=it > 0 or resume, force=False)
        table = measured.table()
        eq = nash(table, seed=seed)[0]
        x = eq.mixture
        own = float(x @ expected_payoffs(table, x))
        mix_path = root / "mixtures" / f"iteration-{it}.toml"
        mix_path.write_text(mixture_toml(pop, x, f"PSRO iteration {it}: the equilibrium of "
                                         f"{len(pop)} strategies", {"iteration": it}, game))
        row = {"iteration": it, "population": list(pop), "mixture": dict(zip(pop, map(float, x), strict=True)),
               "meta_regret": eq.regret, "own_payoff": own,
               "games_meta": int(games_per_profile * len(measured.counts))}
        if exploit_games:
            row["exploiter"] = exploiter_reading(mix_path, exploit_games, seed, players, ruleset, overrides,
                                                 workers, game, scheduler)
            say(f"iteration {it}: {row['exploiter']['label']} against the mixture "
                f"({row['exploiter']['games']} games)")
        if it == iterations:
            history.append(row)
            break
        if exploit_games and not row["exploiter"]["exploitability"] >= EQUILIBRIUM_BAND:
            stopped = (f"the exploiter ({row['exploiter']['searcher']}) gains less than "
                       f"{100 * EQUILIBRIUM_BAND:.0f} points over fair against the mixture of iteration {it}")
            history.append(row)
            break
        start = pop[int(np.argmax(expected_payoffs(table, x)))]
        say(f"iteration {it}: equilibrium " + ", ".join(f"{Path(s).stem} {100 * w:.0f}%"
                                                        for s, w in zip(pop, x, strict=True) if w >= 0.01)
            + (f"; searching a best response from {Path(start).stem}" if oracle == "knobs" else
               f"; learning a best response from {learn['warm']} against it"))
        br_seed = seed + 1000 * (it + 1)
        name = root / "presets" / f"psro-{it + 1}.toml"
        if oracle == "knobs":
            br = knob_search(seed=br_seed, players=players, opponents=[f"meta:{mix_path}"],
                             start=start, ruleset=ruleset, overrides=overrides, workers=workers, game=game,
                             **search)
            final, spent = br.final[0], int(sum(h["games"] for h in br.history) + br.final[0]["games"])
        else:
            final, spent = learned_response(name, mix_path, it, br_seed, players, ruleset, overrides, workers,
                                            game, scheduler, learn, search["final_games"])
            row["best_response"] = str(name.resolve())
        gains = judge(row, final, own, spent)
        say(f"iteration {it}: best response wins {100 * final['win_rate']:.1f}% against the mixture "
            f"(own payoff {100 * own:.1f}%): exploitability {100 * row['exploitability']:+.1f} pts "
            f"[{100 * row['exploitability_low']:+.1f}, {100 * row['exploitability_high']:+.1f}]")
        history.append(row)
        if not gains:
            stopped = (f"iteration {it}: the best response's interval does not clear the mixture's own payoff "
                       f"(it gains nothing significant)")
            break
        if oracle == "knobs":
            br.provenance |= {"psro_iteration": it + 1, "against": str(mix_path), "engine_commit": engine_commit()}
            name.write_text(br.toml(f"PSRO best response {it + 1}: the knob search against the equilibrium "
                                    f"mixture of iteration {it}", name.stem))
        pop.append(str(name.resolve()))
    final_row = history[-1]
    final_row["stopped"] = stopped
    provenance = {"command": command, "engine_commit": engine_commit(), "game": game, "seed": seed,
                  "iterations": len(history) - 1, "games_per_profile": games_per_profile,
                  "games_total": int(sum(r.get("games_search", 0) for r in history)
                                     + history[-1]["games_meta"]),
                  "seconds": round(time.perf_counter() - started, 1)}
    if oracle != "knobs":
        provenance["oracle"] = oracle
    (root / "mixture.toml").write_text(mixture_toml(
        final_row["population"], list(final_row["mixture"].values()),
        "The equilibrium mixture of the population grown by PSRO", provenance, game))
    from sim.meta import analysis, report

    meta = analysis.analyse(measured, bootstrap, seed=seed)  # the final population's meta-game
    meta["game"] = game
    report.write(measured, meta, root, command, provenance)
    result = {"history": history, "mixture": final_row["mixture"], "provenance": provenance,
              "search": search, "players": players, "game": game, "stability": meta["bootstrap"],
              "verdict": meta["verdict"]}
    if oracle != "knobs":
        result |= {"oracle": oracle, "learn": learn}
    if exploit_games:
        result["exploit_games"] = exploit_games
    (root / "psro.json").write_text(json.dumps(result, indent=2) + "\n")
    return result


def judge(row: dict, final: dict, own: float, spent: int) -> bool:
    """Fill `row` with a best response's measurement against the mixture (`final`: a row of
    sim.league.tune.measure) and the games it cost; True when it gains (its interval above the
    mixture's own payoff), whichever oracle found it."""
    row |= {"best_response_win_rate": final["win_rate"], "exploitability": final["win_rate"] - own,
            "exploitability_low": final["low"] - own, "exploitability_high": final["high"] - own,
            "games_search": spent}
    row["added"] = bool(final["low"] > own)
    return row["added"]


def learned_response(name: Path, mix_path: Path, it: int, seed: int, players: int, ruleset, overrides, workers,
                     game: str, scheduler, learn: dict, final_games: int) -> tuple[dict, int]:
    """The learned oracle: expert iteration (sim.league.learn) of an apprentice warm-started from
    `learn["warm"]`, one seat a game against the mixture of `mix_path`, written as the learned
    preset `name` (its weights beside it), then measured against the mixture on fresh game ids
    as the knob oracle's best response is (sim.league.tune.measure, the same seed): (that row,
    the games it cost)."""
    from sim.league.games import knobs
    from sim.league.learn import learn as expert_iteration, preset_text, side
    from sim.league.match import Pool, ruleset_key
    from sim.league.tune import measure
    from strategies import file_sha256

    against = f"meta:{mix_path}"
    result = expert_iteration(seed=seed, iterations=learn["iterations"], games=learn["games"], players=players,
                              ruleset=ruleset, overrides=overrides, workers=workers, scheduler=scheduler, game=game,
                              knobs=learn.get("knobs"), opponents=[against], warm=learn["warm"])
    weights = name.with_suffix(".npz")
    side(game).module().write_weights(weights, result.weights)
    result.provenance |= {"psro_iteration": it + 1, "against": str(mix_path), "engine_commit": engine_commit()}
    name.write_text(preset_text(result, name.stem, weights.name, file_sha256(weights)))
    box = knobs(game)
    with Pool(workers) as pool:
        final = measure(pool, box.load(str(name)), [box.resolve(against)], final_games, seed,
                        ruleset_key(ruleset, overrides, game), players)[0]
    return final, int(learn["iterations"] * learn["games"] + final["games"])


def exploiter_reading(mix_path: Path, games: int, seed: int, players: int, ruleset, overrides, workers,
                      game: str, scheduler) -> dict:
    """The game's exploiter in one seat against the mixture in the others (sim.league.strength,
    `mobsim strategies strength meta:FILE --exploit`): its row (gain over fair, interval, label)."""
    from sim.league.strength import exploitability

    return exploitability(f"meta:{mix_path}", games=games, game=game, seed=seed, players=players,
                          ruleset=ruleset, overrides=overrides, workers=workers, scheduler=scheduler).row()


_PLAIN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")


def check_ship_name(name: str, game: str = "nyk", force: bool = False) -> None:
    """A ship name is a plain name (letters, digits, - and _; it becomes file names inside the
    presets and mixtures folders, never a path), and shipping it replaces no file there unless
    `force`; MetaError otherwise."""
    if not _PLAIN.fullmatch(name or ""):   # fullmatch: `$` alone lets a trailing newline through
        raise MetaError(f"--ship {name!r} is not a plain name: use letters, digits, - and _ (at most "
                        f"64, e.g. --ship equilibrium2); it names files in the shipped presets and mixtures")
    if force:
        return
    taken = [p for p in _ship_targets(name, game) if p.exists()]
    if taken:
        raise MetaError(f"--ship {name}: {taken[0]} is already shipped: choose another name, or add "
                        f"--force to replace it")


def _ship_targets(name: str, game: str) -> list[Path]:
    """The files shipping `name` could replace: the mixture and any preset `name-<k>`."""
    from sim.league.games import knobs
    from strategies import mixture

    return [mixture.mixture_dir(game) / f"{name}.toml",
            *sorted(knobs(game).preset_dir().glob(f"{glob.escape(name)}-*.toml"))]


def _with_table(path: Path, target: Path) -> str:
    """The text of preset `path` shipped as `target`: a learned player's weights (its [table]
    file, the learned oracle's) copied beside it as `target`'s .npz, which its [table] then names."""
    import shutil
    import tomllib

    text = path.read_text()
    table = tomllib.loads(text).get("table")
    if not table:
        return text
    shutil.copyfile(path.parent / table["file"], target.with_suffix(".npz"))
    from sim.league.games import toml_value

    return text.replace(f"file = {toml_value(table['file'])}", f"file = {toml_value(target.stem + '.npz')}")


def ship(result: dict, name: str = "equilibrium", force: bool = False) -> dict[str, Path]:
    """Copy a PSRO study's best responses into the game's shipped presets (`<name>-<k>.toml`) and
    its final mixture into `strategies/<game>/mixtures/<name>.toml`, naming the presets; returns
    the files. A name that is not plain, or one already shipped (without `force`), is refused; with
    `force`, presets `<name>-<k>` an earlier study shipped and this one does not are removed."""
    from sim.league.games import knobs
    from strategies import mixture

    game = result.get("game", DEFAULT_GAME)
    check_ship_name(name, game, force)
    presets = knobs(game).preset_dir()
    renamed, written = [], {}
    for spec in result["history"][-1]["population"]:
        path = Path(spec)
        if path.suffix == ".toml" and path.is_file():
            target = presets / f"{name}-{path.stem.split('-')[-1]}.toml"
            target.write_text(_with_table(path, target))   # a preset's name is its file's
            written[target.stem] = target
            renamed.append(target.stem)
        else:
            renamed.append(spec)
    for stale in [*presets.glob(f"{glob.escape(name)}-*.toml"), *presets.glob(f"{glob.escape(name)}-*.npz")]:
        if stale.stem not in written:   # a member of an earlier study under this name (replaced with force)
            stale.unlink()
    mix = mixture.mixture_dir(game)
    mix.mkdir(parents=True, exist_ok=True)
    target = mix / f"{name}.toml"
    target.write_text(mixture_toml(renamed, list(result["mixture"].values()),
                                   f"The {game.upper()} equilibrium mixture grown by PSRO from the shipped presets "
                                   f"(`mobsim strategies psro`); its best responses ship as {name}-<k>",
                                   result["provenance"] | {"exploitability_per_iteration": [
                                       round(r["exploitability"], 4) for r in result["history"]
                                       if "exploitability" in r]}, game))
    written[name] = target
    return written
