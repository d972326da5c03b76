"""The odds study: exact odds of every dice contest of New York Kings, as tables and figures.

    from sim.analysis import odds_study
    study = odds_study.run(Ruleset.load())
    study.recruitment, study.interrogation, study.provocation   # long-form DataFrames
    odds_study.write_report(study, "reports/demo", command="mobsim demo --out reports/demo")

Every number comes from `sim.nyk.odds` (enumeration and backward induction, never sampling):
(a) recruitment (NYK-A6) by henchman value x offer; (b) interrogation (NYK-P4) and resisting it
(NYK-P5) by crew x police cars; (c) provocation (NYK-A4) by provoking crew x provoked crew, with the
subgame-perfect folds and with nobody folding.
"""

from dataclasses import dataclass

import numpy as np
import pandas as pd

from sim import __version__
from sim.nyk import hands, odds
from sim.analysis.report import Report, dollars, percent, signed_dollars

INTERROGATION_CREWS = ("A", "K", "A,9", "A,Q", "A,K", "K,K", "A,K,K", "A,K,Q,J")
PROVOCATION_CREWS = ("K", "A", "A,9", "A,Q", "A,K", "A,K,K", "A,K,K,Q")
CHARACTER_VALUE = 6000  # dollars a side would pay to keep a character (prices a fusillade loss)
AFFRANCHI = hands.RANK_LABELS.index("A")

PROVOCATION_RATES = ("provoker_wins", "tie", "provoked_wins", "provoker_folds", "provoked_folds")
PROVOCATION_MONEY = ("provoker_money", "provoked_money")


def crew_label(ranks) -> str:
    return ",".join(hands.RANK_LABELS[r] for r in ranks)


@dataclass(frozen=True)
class OddsStudy:
    ruleset: object
    character_value: int
    recruitment: pd.DataFrame    # value, offer, dice, outcome probabilities, expected_cost
    interrogation: pd.DataFrame  # crew, police, escape, arrest, resist_*, free_if_resisting
    provocation: pd.DataFrame    # provoker, provoked, folds, rates, money, characters lost


def run(rs, interrogation_crews=INTERROGATION_CREWS, provocation_crews=PROVOCATION_CREWS,
        character_value: int = CHARACTER_VALUE) -> OddsStudy:
    return OddsStudy(rs, character_value, recruitment(rs), interrogation(rs, interrogation_crews),
                     provocation(rs, provocation_crews, character_value))


# --- (a) recruitment --------------------------------------------------------------------------

def recruitment(rs, pay_hesitation: bool = True) -> pd.DataFrame:
    """One row per henchman value (9..K) x offer: outcome probabilities and expected cost."""
    terms = odds.RecruitTerms.from_ruleset(rs)
    rows = []
    for value in range(AFFRANCHI):  # henchmen are 9..K
        for offer in terms.offers():
            got = odds.recruit_odds(value, offer, terms, pay_hesitation)
            rows.append({"value": hands.RANK_LABELS[value], "offer": offer, "dice": got["dice"],
                         **{k: float(got[k]) for k in ("accept", "hesitate", "refuse", "success",
                                                       "expected_cost")}})
    return pd.DataFrame(rows)


# --- (b) interrogation ------------------------------------------------------------------------

def interrogation(rs, crews=INTERROGATION_CREWS) -> pd.DataFrame:
    """One row per crew x police cars (1..max): escape without resisting and, for crews with their
    affranchi, the outcomes when an arrested crew resists (NaN for crews that may not resist)."""
    table = hands.table(rs["hands.five_of_a_kind"], rs["hands.two_pairs"])
    car = hands.parse_value(rs["police.car_value"])
    rows = []
    for crew in crews:
        ranks = hands.parse_values(crew)
        for police in range(1, rs["police.max_cars"] + 1):
            plain = odds.interrogation_odds(ranks, police, car, table)
            row = {"crew": crew_label(ranks), "police": police, "escape": float(plain["escape"]),
                   "arrest": float(plain["arrest"]), "resist_won": np.nan, "resist_lost": np.nan,
                   "free_if_resisting": np.nan}
            if AFFRANCHI in ranks:  # NYK-P5: only with the affranchi present
                res = odds.interrogation_odds(ranks, police, car, table, resist=True)
                row.update(resist_won=float(res["resist_won"]),
                           resist_lost=float(res["resist_lost"]),
                           free_if_resisting=float(res["escape"] + res["resist_won"]))
            rows.append(row)
    return pd.DataFrame(rows)


# --- (c) provocation --------------------------------------------------------------------------

def provocation(rs, crews=PROVOCATION_CREWS,
                character_value: int = CHARACTER_VALUE) -> pd.DataFrame:
    """One row per provoking crew x provoked crew x (subgame-perfect folds | nobody folds)."""
    table = hands.table(rs["hands.five_of_a_kind"], rs["hands.two_pairs"])
    stakes = odds.Stakes.from_ruleset(rs)
    parsed = [hands.parse_values(c) for c in crews]
    rows = []
    for folds in (True, False):
        for provoker in parsed:
            for provoked in parsed:
                s = odds.solve_provocation(provoker, provoked, stakes, table, character_value,
                                           folds=folds).summary()
                rows.append({"provoker": crew_label(provoker), "provoked": crew_label(provoked),
                             "folds": folds, **{k: s[k] for k in PROVOCATION_RATES},
                             **{k: s[k] for k in PROVOCATION_MONEY},
                             "provoker_characters_lost": s["provoker_characters_lost"],
                             "provoked_characters_lost": s["provoked_characters_lost"]})
    return pd.DataFrame(rows)


# --- figures ----------------------------------------------------------------------------------

def _heatmap(ax, grid: pd.DataFrame, title: str, fmt=percent, vmin=0.0, vmax=1.0, cmap="viridis"):
    data = grid.to_numpy(dtype=float)
    image = ax.imshow(data, cmap=cmap, vmin=vmin, vmax=vmax, aspect="auto")
    ax.set_xticks(range(grid.shape[1]), [str(c) for c in grid.columns])
    ax.set_yticks(range(grid.shape[0]), [str(i) for i in grid.index])
    ax.set_xlabel(str(grid.columns.name or ""))
    ax.set_ylabel(str(grid.index.name or ""))
    ax.set_title(title)
    for (i, j), v in np.ndenumerate(data):
        if np.isnan(v):
            continue
        red, green, blue, _ = image.cmap(image.norm(v))
        dark = 0.299 * red + 0.587 * green + 0.114 * blue < 0.5
        ax.text(j, i, fmt(v).replace(".0%", "%"), ha="center", va="center", fontsize=7,
                color="white" if dark else "black")
    return image


def recruitment_figure(frame: pd.DataFrame):
    import matplotlib.pyplot as plt

    grid = frame.pivot(index="value", columns="offer", values="success")
    grid = grid.loc[[v for v in hands.RANK_LABELS if v in grid.index]]
    grid.columns = [f"${o // 1000}k" for o in grid.columns]
    grid.columns.name, grid.index.name = "offer", "henchman value"
    fig, ax = plt.subplots(figsize=(9, 3.6))
    image = _heatmap(ax, grid, "Recruitment success (accepts, or hesitates and is paid the extra)")
    fig.colorbar(image, ax=ax, fraction=0.03)
    return fig


def interrogation_figure(frame: pd.DataFrame):
    import matplotlib.pyplot as plt

    order = list(dict.fromkeys(frame["crew"]))
    fig, axes = plt.subplots(1, 2, figsize=(10, 0.45 * len(order) + 1.8), sharey=True)
    for ax, column, title in ((axes[0], "escape", "Escape, not resisting (NYK-P4)"),
                              (axes[1], "free_if_resisting", "Free when resisting (NYK-P5)")):
        grid = frame.pivot(index="crew", columns="police", values=column).loc[order]
        grid.columns.name, grid.index.name = "police cars", "crew"
        image = _heatmap(ax, grid, title, cmap="magma")
    axes[1].set_ylabel("")
    fig.colorbar(image, ax=axes, fraction=0.03)
    return fig


def provocation_figures(frame: pd.DataFrame) -> dict:
    """Heat maps of the provoker's win rate and expected money, and bars of the outcome mix."""
    import matplotlib.pyplot as plt

    order = list(dict.fromkeys(frame["provoker"]))
    figures = {}
    fig, axes = plt.subplots(1, 2, figsize=(12, 0.5 * len(order) + 1.8), sharey=True)
    for ax, folds, title in ((axes[0], True, "Provoker wins, subgame-perfect folds"),
                             (axes[1], False, "Provoker wins, nobody folds")):
        grid = _provocation_grid(frame, folds, "provoker_wins", order)
        image = _heatmap(ax, grid, title, cmap="coolwarm")
    axes[1].set_ylabel("")
    fig.colorbar(image, ax=axes, fraction=0.03)
    figures["provocation-wins"] = fig

    fig, axes = plt.subplots(1, 2, figsize=(12, 0.5 * len(order) + 1.8), sharey=True)
    limit = float(frame["provoker_money"].abs().max()) or 1.0
    for ax, folds, title in ((axes[0], True, "Provoker's expected money, folds"),
                             (axes[1], False, "Provoker's expected money, no folds")):
        grid = _provocation_grid(frame, folds, "provoker_money", order)
        image = _heatmap(ax, grid, title, fmt=signed_dollars, vmin=-limit, vmax=limit,
                         cmap="coolwarm")
    axes[1].set_ylabel("")
    fig.colorbar(image, ax=axes, fraction=0.03)
    figures["provocation-money"] = fig

    folded = frame[frame["folds"]].reset_index(drop=True)
    labels = [f"{a} vs {b}" for a, b in zip(folded["provoker"], folded["provoked"], strict=True)]
    parts = [("provoker wins at the fusillade", folded["provoker_wins"] - folded["provoked_folds"],
              "#2166ac"),
             ("provoked folds", folded["provoked_folds"], "#92c5de"),
             ("tie", folded["tie"], "#bbbbbb"),
             ("provoker folds", folded["provoker_folds"], "#f4a582"),
             ("provoked wins at the fusillade", folded["provoked_wins"] - folded["provoker_folds"],
              "#b2182b")]
    fig, ax = plt.subplots(figsize=(12, 0.22 * len(labels) + 1.5))
    left = np.zeros(len(labels))
    for name, values, colour in parts:
        ax.barh(range(len(labels)), values, left=left, color=colour, label=name)
        left += values.to_numpy()
    ax.set_yticks(range(len(labels)), labels, fontsize=7)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("probability")
    ax.set_title("How provocations end with subgame-perfect folds (provoker vs provoked)")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.06), ncol=5, fontsize=8)
    figures["provocation-outcomes"] = fig
    return figures


def _provocation_grid(frame, folds: bool, column: str, order) -> pd.DataFrame:
    sub = frame[frame["folds"] == folds]
    grid = sub.pivot(index="provoker", columns="provoked", values=column).loc[order, order]
    grid.index.name, grid.columns.name = "provoker", "provoked"
    return grid


# --- report -----------------------------------------------------------------------------------

def build_report(study: OddsStudy, command: str) -> Report:
    rs = study.ruleset
    terms = odds.RecruitTerms.from_ruleset(rs)
    stakes = odds.Stakes.from_ruleset(rs)
    changed = (", ".join(f"{k}={rs[k]!r}" for k in rs.defaults_changed())
               or "none (the game's defaults)")
    report = Report("mobsim odds study: New York Kings", {
        "mobsim version": __version__, "command": command, "ruleset fingerprint": rs.fingerprint,
        "options changed": changed})
    report.heading("Exact odds of the dice contests")
    report.text("Exact odds of the game's dice contests, computed by enumeration of every roll "
                "and backward induction (nothing here is sampled). Every table is also in "
                "tables/*.csv at full precision.")

    report.heading("Recruitment (NYK-A6)")
    report.text(f"The affranchi offers ${terms.min_offer:,} to ${terms.max_offer:,} and rolls "
                f"one die per ${terms.step:,}: any die above the henchman's value recruits; "
                "otherwise any die equal makes it hesitate (here the player pays "
                f"${terms.hesitation_extra:,} more and recruits); otherwise it refuses and the "
                "money is kept.")
    report.figure(recruitment_figure(study.recruitment), "recruitment",
                  "Recruitment success probability by henchman value and offer")
    report.table(study.recruitment.pivot(index="value", columns="offer", values="success")
                 .loc[[v for v in hands.RANK_LABELS if v in set(study.recruitment["value"])]]
                 .rename(columns=lambda o: f"${o:,}"),
                 "Recruitment success by value and offer", name="recruitment-success",
                 formats={f"${o:,}": percent for o in terms.offers()})
    report.table(study.recruitment, "Recruitment outcomes (all values and offers)",
                 name="recruitment", formats={
                     **{k: percent for k in ("accept", "hesitate", "refuse", "success")},
                     "expected_cost": dollars, "offer": dollars})

    report.heading("Interrogation (NYK-P4) and resisting (NYK-P5)")
    report.text("The crew rolls 3 dice plus its characters' values, the police 3 dice plus a J "
                "per car; the crew escapes only when strictly stronger. A crew with its affranchi "
                "may resist an arrest: both sides roll a 4th and 5th die, and a tie goes to the "
                "police. 'free_if_resisting' is escaping outright or winning the resistance; a "
                "lost resistance costs one character and sends the others to custody. Blank "
                "cells: a crew without its affranchi may not resist.")
    report.figure(interrogation_figure(study.interrogation), "interrogation",
                  "Probability the crew stays free, by crew and police cars present")
    report.table(study.interrogation, "Interrogation outcomes by crew and police cars",
                 name="interrogation", formats={k: percent for k in (
                     "escape", "arrest", "resist_won", "resist_lost", "free_if_resisting")})

    report.heading("Provocation (NYK-A4)")
    report.text(f"Each side stakes ${stakes.stake:,}, adds ${stakes.raise_:,} for the artillery "
                "(4th die) and again for the fusillade (5th die); a side that folds pays "
                f"${stakes.fold_penalty:,} more and the other takes the pot. Folds follow the "
                "subgame-perfect policy (backward induction, weaker hand decides first), each side "
                f"valuing a lost character at ${study.character_value:,}. A tied pot goes "
                f"{'back to each side' if stakes.tie_pot_returned else 'to the bank'}. "
                "Win rates include the opponent folding; money is each side's expected net "
                "dollars.")
    figs = provocation_figures(study.provocation)
    report.figure(figs["provocation-wins"], "provocation-wins",
                  "Provoker's win rate by crews, with and without folds")
    report.figure(figs["provocation-money"], "provocation-money",
                  "Provoker's expected net money by crews, with and without folds")
    report.figure(figs["provocation-outcomes"], "provocation-outcomes",
                  "Outcome mix of each matchup with subgame-perfect folds")
    formats = {**{k: percent for k in PROVOCATION_RATES},
               **{k: signed_dollars for k in PROVOCATION_MONEY},
               "provoker_characters_lost": "{:.3f}".format,
               "provoked_characters_lost": "{:.3f}".format}
    for folds, title, name in (
            (True, "Provocation with subgame-perfect folds", "provocation-folds"),
            (False, "Provocation, nobody folds", "provocation-no-folds")):
        sub = study.provocation[study.provocation["folds"] == folds].drop(columns="folds")
        report.table(sub.reset_index(drop=True), title, name=name, formats=formats)
    return report


def write_report(study: OddsStudy, out_dir, command: str = "mobsim demo"):
    """Write the study's report directory; returns the path of its index.html."""
    return build_report(study, command).write(out_dir)
