"""Analysis room: studies that turn the kernel's numbers into tables, figures and reports.

    sim.analysis.report      a reusable writer of report directories (index.md + index.html)
    sim.analysis.odds_study  exact odds of recruitment, interrogation and provocation
"""
