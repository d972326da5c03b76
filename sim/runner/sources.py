"""The files a study's strategies are read from, with their checksums: a run and a meta-game record
them and refuse to resume after one changed (the missing batches would be played by another player)."""

from pathlib import Path


def strategy_files(game: str, names) -> dict[str, str]:
    """{file: checksum} of every file the strategies `names` of `game` are read from: each preset,
    mixture and mixture component, a search player's rollout preset, and the leaf model (weights)
    a search reads. A study records it and refuses to resume across a change (as a changed ruleset)."""
    from sim.runner.store import file_checksum

    root = Path(__file__).resolve().parents[2]
    files = {}
    for path in sorted({Path(p).resolve() for name in dict.fromkeys(names) for p in _sources(game, str(name))}):
        key = str(path.relative_to(root)) if path.is_relative_to(root) else str(path)  # a clone moved keeps its keys
        try:
            files[key] = file_checksum(path)
        except OSError:
            files[key] = "unreadable"
    return files


def _sources(game: str, spec: str) -> list[str]:
    import strategies
    from strategies import mixture

    if mixture.is_mixture(spec):
        mix = mixture.load(spec, game)
        return [mix.source] + [p for c in mix.components for p in _sources(game, c)]
    strategy = strategies.load(spec, game)
    found = [strategy.source] if strategy.source else []
    if strategy.family == strategies.SEARCH:
        rollout = strategy.search.get("rollout")
        if isinstance(rollout, str):
            found += _sources(game, rollout)
        found += [str(p) for p in _leaf_models(game)]
    return found


def _leaf_models(game: str) -> list[Path]:
    import importlib

    try:
        return [importlib.import_module(f"sim.search.{game}_leaf").MODEL_PATH]
    except (ImportError, AttributeError):
        return []
