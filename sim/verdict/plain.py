"""The verdict's first screen in plain words: at most six sentences, each generated from the
verdict table itself (the same rows the page shows below it), so that no sentence can say what
the table does not. `claims` returns what each sentence rests on, for the test that holds them
to the table."""

from __future__ import annotations

import pandas as pd

from sim.verdict import fairness, rules

MAX_SENTENCES = 6
SHOWN = 3   # the most rows a sentence names


def _rows(verdicts: pd.DataFrame, measure_test, state: str) -> pd.DataFrame:
    if "target" not in verdicts:
        return verdicts.iloc[0:0]
    mask = verdicts["measure"].map(measure_test) & (verdicts["target"].fillna("") == state)
    return verdicts[mask]


def _is_seat(measure: str) -> bool:
    return rules.family(measure) == "seat advantage"


def _named(rows: pd.DataFrame) -> str:
    parts = [f"{r.measure.replace(' advantage', '')} at {r.players} players: {r.target_text}"
             for r in rows.head(SHOWN).itertuples()]
    more = f"; and {len(rows) - SHOWN} more" if len(rows) > SHOWN else ""
    return "; ".join(parts) + more


def claims(verdicts: pd.DataFrame) -> list[tuple[str, pd.DataFrame]]:
    """(sentence, the rows it rests on), in the order the page says them."""
    out = []
    unfair = _rows(verdicts, _is_seat, fairness.OUTSIDE)
    unsure = _rows(verdicts, _is_seat, fairness.UNSURE)
    fair = _rows(verdicts, _is_seat, fairness.WITHIN)
    counts = lambda rows: ", ".join(str(n) for n in sorted(set(rows["players"])))   # noqa: E731
    if len(unfair):
        out.append((f"Unfair seats with good players: {_named(unfair)}.", unfair))
    if len(fair) and not len(unfair) and not len(unsure):
        out.append((f"Every seat is fair with good players at {counts(fair)} players "
                     f"({fair['target_band'].iloc[0]}).", fair))
    elif len(fair):
        out.append((f"Fair with good players: {len(fair)} of {len(fair) + len(unfair) + len(unsure)} "
                     f"seat readings.", fair))
    if len(unsure):
        need = int(unsure["target_games"].max())
        about = "at least" if unsure["target_text"].str.contains("need at least").any() else "about"
        readings = "seat reading" if len(unsure) == 1 else "seat readings"
        out.append((f"Cannot tell yet for {len(unsure)} {readings} (at {counts(unsure)} players): "
                     f"{about} {need:,} games a cell would decide them.", unsure))
    length = verdicts[verdicts["measure"] == fairness.TURNS] if "target" in verdicts else verdicts.iloc[0:0]
    length = length[length["target"].fillna("") != ""]
    if len(length):
        off = length[length["target"] != fairness.WITHIN]
        text = ("Game length is on target at every player count." if off.empty else
                "Game length: "
                + "; ".join(f"{r.players} players {r.target_text}" for r in off.head(SHOWN).itertuples())
                + ".")
        out.append((text, length if off.empty else off))
    changes = verdicts[verdicts["verdict"] == rules.CHANGES]
    holds = verdicts[verdicts["verdict"] == rules.HOLDS]
    if len(verdicts):
        changing = "; ".join(f"{r.measure} at {r.players} players ({r.direction})"
                             for r in changes.head(SHOWN).itertuples())
        out.append((f"Across skill, {len(holds)} of {len(verdicts)} readings hold and {len(changes)} change "
                    f"with skill" + (f": {changing}" if changing else "") + ".", pd.concat([holds, changes])))
    return out[:MAX_SENTENCES]


def summary(verdicts: pd.DataFrame) -> str:
    """The plain-language summary (at most six sentences)."""
    return " ".join(sentence for sentence, _ in claims(verdicts))
