"""Analysis room: studies that turn runs and the kernel's numbers into tables, figures and reports.

    sim.analysis.report_run(run, out_dir)   the balance report of a run (index.html, index.md)
    sim.analysis.headline                   headline metrics with intervals; comparing two runs
    sim.analysis.fairness                   win rates, seat advantage, seat test, pairwise tests, ratings,
                                            head-to-head cycles, neighbours, power
    sim.analysis.quality                    length, endings, closeness, first player; runaway leader,
                                            comebacks, the first player out, kingmaking exposure
    sim.analysis.extremes                   gaps and maxima: bias-corrected, with intervals that cover
    sim.analysis.economy                    fortunes by strategy and over turns
    sim.analysis.games.<game>               a game's own sections (games.nyk)
    sim.analysis.stats                      intervals, bootstrap, Holm, power, Bradley-Terry
    sim.analysis.report                     a reusable writer of report directories
    sim.analysis.odds_study                 exact odds of recruitment, interrogation and provocation
"""


def __getattr__(name):
    """`report_run`, `build_report` and `compare` on first use (they import matplotlib lazily)."""
    if name in ("report_run", "build_report"):
        from sim.analysis import run_report

        return getattr(run_report, name)
    if name in ("compare", "game_values", "paired_difference"):  # sim.analysis.headline is the module
        import importlib

        return getattr(importlib.import_module("sim.analysis.headline"), name)
    raise AttributeError(f"module 'sim.analysis' has no attribute {name!r}")
