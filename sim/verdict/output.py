"""A verdict study on disk: verdict.csv, verdict.json, measures.csv, plan.csv, exploit.csv,
metagame.csv, styles.csv and style_measures.csv (style variants), per_game.parquet (for paired
comparisons) and verdict.png; and back."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pandas as pd

from sim.shared.game import find
from sim.verdict.figure import draw
from sim.verdict.study import Verdict, VerdictError

FILES = ("verdict.csv", "verdict.json", "measures.csv", "plan.csv", "per_game.parquet", "verdict.png")


def _clean(value):
    if isinstance(value, float) and math.isnan(value):
        return None
    if hasattr(value, "item"):
        return _clean(value.item())
    return value


def _records(frame: pd.DataFrame) -> list[dict]:
    return [{k: _clean(v) for k, v in row.items()} for row in frame.to_dict("records")]


def write(v: Verdict, out) -> Path:
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    v.verdicts.to_csv(out / "verdict.csv", index=False)
    v.measures.to_csv(out / "measures.csv", index=False)
    v.plan.to_csv(out / "plan.csv", index=False)
    v.exploit.to_csv(out / "exploit.csv", index=False)
    v.metagame.to_csv(out / "metagame.csv", index=False)
    v.styles.to_csv(out / "styles.csv", index=False)
    v.style_measures.to_csv(out / "style_measures.csv", index=False)
    v.per_game.to_parquet(out / "per_game.parquet", index=False)
    doc = {"meta": v.meta, "verdicts": _records(v.verdicts), "exploit": _records(v.exploit),
           "metagame": _records(v.metagame), "plan": _records(v.plan)}
    (out / "verdict.json").write_text(json.dumps(doc, indent=1, default=str) + "\n")
    title = f"{v.meta.get('game', '')}: measures over skill (95% intervals)"
    draw(v.measures, v.meta["rungs"], out / "verdict.png", title)
    page(v).write(out)
    return out


def page(v: Verdict, title: str | None = None):
    """The verdict as a report page (index.html, index.md, figures/, tables/)."""
    from sim import __version__
    from sim.analysis.report import Report
    from sim.verdict.page import add_blocks

    m = v.meta
    report = Report(title or f"mobsim verdict: {find(m['game']).title}",
                    meta={k: str(x) for k, x in {"game": m["game"], "ruleset fingerprint": m.get("fingerprint"),
                                                 "mobsim version": __version__, "command": m.get("command")}.items()
                          if x is not None})
    add_blocks(report, v)
    return report


def read(path) -> Verdict:
    root = Path(path)
    if not (root / "verdict.json").is_file() or not (root / "per_game.parquet").is_file():
        raise VerdictError(f"{root}: not a verdict directory (no verdict.json and per_game.parquet): "
                           f"give a directory `mobsim verdict --out` wrote")
    doc = json.loads((root / "verdict.json").read_text())
    return Verdict(pd.read_csv(root / "measures.csv"), pd.read_csv(root / "verdict.csv"),
                   pd.read_parquet(root / "per_game.parquet"), pd.read_csv(root / "plan.csv"),
                   _optional(root / "exploit.csv"), doc["meta"], _optional(root / "metagame.csv"),
                   _optional(root / "styles.csv"), _optional(root / "style_measures.csv"))


def _optional(path: Path) -> pd.DataFrame:
    """A table that may be empty (no search rung, no meta-game) or absent (an older verdict)."""
    return pd.read_csv(path) if path.is_file() and path.stat().st_size > 1 else pd.DataFrame()
