"""Style apart from skill: a rung played again with one knob moved (`tuned:provoke_edge=0.2`),
its mirror measured on the same game ids as the rung's, and its strength checked by one seat of
the variant among seats of the rung. Per measure, the difference between a variant of similar
strength (its seat's win share within `SIMILAR` of fair) and its rung is read against the
measure's band: "depends on style" when some variant's difference lies beyond the band (its 95%
interval wholly outside [-tol, tol]): a property of the players, not of the game; "same across
styles" when every variant's difference is shown within it (TOST: its 90% interval inside
[-tol, tol]), for the styles tried; else "style not settled" (more games would tell).
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd

from sim.analysis.stats import Z95, wilson

SIMILAR = 0.03          # a variant's seat among the rung's seats wins within 3 points of fair
DEPENDS = "depends on style"
SAME = "same across styles"
UNSETTLED = "style not settled"
Z90 = 1.6448536269514722   # the one-sided 5% point: TOST's 90% interval


def parse_style(text: str) -> tuple[str, str, float]:
    """"tuned:provoke_edge=0.2" -> ("tuned", "provoke_edge", 0.2)."""
    rung, sep, change = text.partition(":")
    knob, eq, value = change.partition("=")
    try:
        number = float(value)
    except ValueError:
        number = math.nan
    if not sep or not eq or not rung.strip() or not knob.strip() or math.isnan(number):
        raise ValueError(f"style {text!r}: write RUNG:KNOB=VALUE, e.g. tuned:provoke_edge=0.2")
    return rung.strip(), knob.strip(), number


def label(rung: str, knob: str, value: float) -> str:
    return f"{rung}:{knob}={value:g}"


def variant_preset(game: str, rung: str, knob: str, value: float, directory) -> str:
    """Write the rung's preset with one knob moved in `directory`; its path (a strategy spec)."""
    import strategies
    from sim.league.games import toml_value

    names = strategies.space(game).NAMES
    if knob not in names:
        raise ValueError(f"style {label(rung, knob, value)!r}: {knob!r} is not a knob of {game} "
                         f"(knobs: {', '.join(names)})")
    base = strategies.load(rung, game)
    params = dict(zip(names, base.params, strict=True)) | {knob: float(value)}
    path = Path(directory) / f"{rung}-{knob}-{value:g}.toml".replace("/", "_").replace(":", "_")
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [f"doc = {toml_value(f'{rung} with {knob} moved to {value:g} (a style variant of the verdict)')}",
             f"family = {toml_value(base.family)}", "", "[params]"]
    lines += [f"{k} = {v!r}" for k, v in params.items()]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def strength(frame: pd.DataFrame, players: int) -> dict:
    """The variant's seat (lineup slot 0, `search_seat`) among the rung's seats: its win share."""
    seat = frame["search_seat"].to_numpy()
    won = frame[[f"won_{s}" for s in range(1, players + 1)]].to_numpy(bool)
    k, g = int(won[np.arange(len(frame)), seat - 1].sum()), len(frame)
    lo, hi = wilson(k, g) if g else (math.nan, math.nan)
    w = k / g if g else math.nan
    return {"win_share": w, "win_lo": lo, "win_hi": hi, "fair": 1 / players,
            "similar": bool(g and abs(w - 1 / players) <= SIMILAR)}


def compare_to_band(base: pd.Series, other: pd.Series, tol: float) -> str:
    """"beyond" (the difference's 95% interval outside [-tol, tol]), "within" (its 90% interval
    inside), else "unsettled"; the two intervals taken as independent (the shared game ids make
    the difference's interval conservative)."""
    d = abs(other["estimate"] - base["estimate"])
    se = math.hypot((base["hi"] - base["lo"]) / (2 * Z95), (other["hi"] - other["lo"]) / (2 * Z95))
    if d - Z95 * se > tol:
        return "beyond"
    return "within" if d + Z90 * se <= tol else "unsettled"


def reading(measures: pd.DataFrame, variants: pd.DataFrame, verdicts: pd.DataFrame) -> pd.DataFrame:
    """Per (measure, players) of `verdicts`: the style reading over the variants of similar
    strength (`variants`: label, rung, players, similar), and which variants moved it."""
    rows = []
    similar = variants[variants["similar"]]
    for v in verdicts.itertuples():
        moved, found = [], set()
        for var in similar[similar["players"] == v.players].itertuples():
            base = measures[(measures["rung"] == var.rung) & (measures["players"] == v.players)
                            & (measures["measure"] == v.measure)]
            other = measures[(measures["rung"] == var.label) & (measures["players"] == v.players)
                             & (measures["measure"] == v.measure)]
            if base.empty or other.empty:
                continue
            got = compare_to_band(base.iloc[0], other.iloc[0], v.tolerance)
            found.add(got)
            if got == "beyond":
                moved.append(var.label)
        style = DEPENDS if moved else SAME if found == {"within"} else UNSETTLED if found else ""
        rows.append({"measure": v.measure, "players": v.players, "style": style, "style_moved_by": ",".join(moved)})
    return pd.DataFrame(rows, columns=["measure", "players", "style", "style_moved_by"])


def sentence(verdicts: pd.DataFrame) -> str:
    """Which measures are the game's and which the players' (for the styles tried)."""
    if "style" not in verdicts or not (verdicts["style"].fillna("") != "").any():
        return ""
    players = sorted(dict.fromkeys(verdicts.loc[verdicts["style"] == DEPENDS, "measure"]))
    game = sorted(set(verdicts.loc[verdicts["style"] == SAME, "measure"]) - set(players))
    open_ = sorted(set(verdicts.loc[verdicts["style"] == UNSETTLED, "measure"]) - set(players) - set(game))
    return (f"Style apart from skill: of the players (a variant of similar strength moves them beyond "
            f"the band): {', '.join(players) or 'none'}; of the game (every variant tried shown within the "
            f"band): {', '.join(game) or 'none'}; not settled: {', '.join(open_) or 'none'}.")

