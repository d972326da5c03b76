"""A learned player's weights file, the same for every game: an .npz of `weights` (decision kinds x
features, float64) and `features` (their names, checked on reading), named by its preset's
`[table]` with its sha256 (docs/learned.md). Each game's learned module holds one `WeightsFile`
of its decision kinds and feature names.

A lineup may seat several learned players: their distinct files, in the order the lineup's pool
first names them (`files_of`), are the sets of the env's weights (`of`), and each learned entry's
knobs name its own set in the engine's `LEARNED_SLOT` column (strategies.lineup.Lineup), as Pig's
table players name their tables."""

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class WeightsFile:
    kinds: int                   # decision kinds of the game
    features: tuple[str, ...]    # the option features' names, in the weights' column order
    game: str                    # the game's name, for `mobsim strategies learn --game`
    title: str                   # and as a page writes it
    slots: int                   # weights files the engine holds a game (env.learned's sets)

    def read(self, path) -> np.ndarray:
        """The weights of a learned player's file; ValueError in one line when the file does not fit."""
        again = f"write it again with `mobsim strategies learn --game {self.game}`"
        try:
            with np.load(path) as data:
                weights = np.asarray(data["weights"], dtype=np.float64)
                names = tuple(str(s) for s in data["features"])
        except (OSError, KeyError, ValueError) as err:
            raise ValueError(f"{path}: not a learned player's weights file ({' '.join(str(err).split())}): "
                             f"{again}") from None
        if weights.shape != (self.kinds, len(self.features)) or names != self.features \
                or not np.isfinite(weights).all():
            raise ValueError(f"{path}: not weights of the {self.title} learned player ({self.kinds} decision kinds x "
                             f"{len(self.features)} features {', '.join(self.features[:3])}, ...): {again}")
        return weights

    def write(self, path, weights: np.ndarray) -> None:
        with open(path, "wb") as out:   # a file object: np.savez_compressed adds no suffix
            np.savez_compressed(out, weights=np.asarray(weights, dtype=np.float64), features=np.array(self.features))

    def of(self, tables) -> np.ndarray:
        """env.learned for a lineup's tables (strategies.lineup.Lineup.tables): each learned
        weights file among them (`files_of`'s order) a set, zeros past them; ValueError (one line)
        for more files than the engine holds."""
        files = files_of(tables)
        if len(files) > self.slots:
            raise ValueError(f"a lineup holds at most {self.slots} learned players' weights files, got {len(files)}: "
                             f"seat fewer learned presets")
        sets = np.zeros((self.slots, self.kinds, len(self.features)))
        for k, path in enumerate(files):
            sets[k] = self.read(path)
        return sets


def files_of(tables) -> list[str]:
    """The distinct files of a lineup's tables, in the order its pool first names them: the index
    of an entry's file here is the table (a learned player's weights set, Pig's policy table) it
    reads, named in its knobs' `table_slot` column (strategies.lineup.Lineup). Here, not in the
    lineup's module, so that the engines, which read this module, do not read the lineup's."""
    return list(dict.fromkeys(t["file"] for t in tables if t))
