"""A learned player's weights file, the same for every game: an .npz of `weights` (decision kinds x
features, float64) and `features` (their names, checked on reading), named by its preset's
`[table]` with its sha256 (docs/learned.md). Each game's learned module holds one `WeightsFile`
of its decision kinds and feature names."""

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class WeightsFile:
    kinds: int                   # decision kinds of the game
    features: tuple[str, ...]    # the option features' names, in the weights' column order
    game: str                    # the game's name, for `mobsim strategies learn --game`
    title: str                   # and as a page writes it

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
        """env.learned for a lineup's tables (strategies.lineup.Lineup.tables): the one learned
        weights file among them, zeros when none; ValueError when two differ."""
        files = sorted({t["file"] for t in tables if t})
        if len(files) > 1:
            raise ValueError(f"a lineup holds at most one learned player's weights, got {len(files)} files: "
                             f"seat one learned preset (or several seats of it)")
        return self.read(files[0]) if files else np.zeros((self.kinds, len(self.features)))
