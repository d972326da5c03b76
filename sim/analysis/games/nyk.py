"""New York Kings sections of a run's report: where the money comes from and goes, and the
mechanics (missions, provocations, police, recruitment, deaths, police cars).

Every function takes the run's tables (and, where rules matter, the manifest's ruleset content)
and returns a DataFrame. Counters a run does not have are skipped: the sections use what exists.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from sim import hands, odds
from sim.analysis import economy, figures
from sim.analysis.report import count, dollars, percent
from sim.analysis.stats import mean_interval, wilson
from sim.analysis.tables import seat_columns

INCOME = {"mission_income": "missions (rewards and Juicy Job bonuses)",
          "card_income": "resource cards (bank income, steals, Juicy Job bonuses)"}
SPENDING = {"bids_paid": "bids for the turn order", "recruit_spent": "recruitment",
            "heli_spent": "helicopter journeys"}
OTHER = "other (by difference: pots, fold penalties, opponents' cards; minus the Juicy Job bonuses counted twice above)"
FLOW_LABELS = {"mission_income": "missions", "card_income": "cards", "bids_paid": "bids", "recruit_spent":
               "recruitment", "heli_spent": "helicopter", "other_net": "other (net)"}
HENCHMAN_VALUES = ("9", "10", "J", "Q", "K")
READS_OWN_COLUMNS = True  # add_sections reads its seat columns itself (sim.analysis.tables)
RATES = {c: percent for c in ("rate", "lo", "hi", "share", "win_rate", "observed", "exact_accept",
                              "exact_success", "completion")} | {"count": count, "out_of": count}


# --- rules read from the manifest ------------------------------------------------------------------

def _thousands(amount: float) -> int:
    """Round half up to whole $1,000, as the ruleset's scale knobs do."""
    return int(math.floor(amount / 1000 + 0.5 + 1e-9)) * 1000


def rule_values(manifest: dict) -> dict:
    return dict(manifest.get("ruleset", {}).get("content", {}).get("values", {}))


def start_money(manifest: dict) -> int | None:
    bills = rule_values(manifest).get("start.bills")
    return int(sum(bills)) if bills is not None else None


def recruit_terms(manifest: dict) -> odds.RecruitTerms | None:
    """The run's recruitment amounts (after recruit.cost_scale), from its manifest."""
    v = rule_values(manifest)
    keys = ("recruit.min_offer", "recruit.max_offer", "recruit.offer_step", "recruit.hesitation_extra")
    if not all(k in v for k in keys):
        return None
    scale = v.get("recruit.cost_scale", 1.0)
    return odds.RecruitTerms(*(_thousands(v[k] * scale) for k in keys))


def mission_deck(manifest: dict) -> pd.DataFrame:
    """The run's mission cards: crew, at_risk and reward after missions.reward_scale."""
    content = manifest.get("ruleset", {}).get("content", {})
    cards = content.get("missions", {}).get("missions", [])
    scale = rule_values(manifest).get("missions.reward_scale", 1.0)
    return pd.DataFrame([{"crew": int(c["crew"]), "at_risk": bool(c["at_risk"]),
                          "reward": _thousands(c["reward"] * scale)} for c in cards],
                        columns=["crew", "at_risk", "reward"])


# --- economy ---------------------------------------------------------------------------------------

def money_flows(seats: pd.DataFrame, start: int | None) -> pd.DataFrame:
    """Mean dollars per seat of every income and spending counter, and the rest by difference,
    for each strategy and over all seats, with 95% intervals over games (long form)."""
    income = economy.money_columns(seats, INCOME)
    spending = economy.money_columns(seats, SPENDING)
    frame = seats[["game_id", "strategy", "fortune", *income, *spending]].copy()  # not every counter
    columns = {c: ("income", INCOME[c]) for c in income} | {c: ("spending", SPENDING[c]) for c in spending}
    if start is not None:
        frame["other_net"] = (frame["fortune"] - start - frame[income].sum(axis=1)
                              + frame[spending].sum(axis=1))
        columns["other_net"] = ("net", OTHER)
    frame["all"] = "all"
    rows = []
    for column, (kind, label) in columns.items():
        for by in ("strategy", "all"):
            table = economy.by_game_mean(frame, column, by).rename(columns={by: "strategy"})
            table.insert(0, "flow", label)
            table.insert(1, "kind", kind)
            table.insert(2, "column", column)
            rows.append(table)
    return pd.concat(rows, ignore_index=True)


# --- missions --------------------------------------------------------------------------------------

MISSION_KINDS = (("1", "crew of 1", "crew == 1"), ("2", "crew of 2", "crew == 2"),
                 ("risky", "at risk (either crew)", "at_risk"))


def missions(seats: pd.DataFrame, deck: pd.DataFrame | None = None, by: str | None = None) -> pd.DataFrame:
    """Uptake and completion by mission kind (NYK-C4: crew size and risk): missions accepted and
    accomplished per seat and game, completion = accomplished / accepted (Wilson), and the
    rewards of that kind in the deck."""
    counters = [c for s, _, _ in MISSION_KINDS for c in (f"missions_accepted_{s}", f"missions_done_{s}") if c in seats]
    groups = [("all", seats)] if by is None else list(seats[[by, *counters]].groupby(by, observed=True))
    rows = []
    for key, group in groups:
        for suffix, label, query in MISSION_KINDS:
            acc, done = f"missions_accepted_{suffix}", f"missions_done_{suffix}"
            if acc not in group or done not in group:
                continue
            k, n = int(group[done].sum()), int(group[acc].sum())
            lo, hi = wilson(k, n)
            row = {"group": key, "kind": label, "accepted_per_seat": group[acc].mean(),
                   "done_per_seat": group[done].mean(), "accepted": n, "done": k,
                   "completion": k / n if n else np.nan, "lo": lo, "hi": hi}
            if deck is not None and len(deck):
                cards = deck.query(query)
                row |= {"deck_cards": len(cards), "reward_min": cards["reward"].min(),
                        "reward_mean": cards["reward"].mean(), "reward_max": cards["reward"].max()}
            rows.append(row)
    return pd.DataFrame(rows)


# --- provocations ----------------------------------------------------------------------------------

PROVOCATION_COUNTERS = ("provocations_made", "provocations_received", "folds", "fights_won", "fights_lost",
                        "fights_tied", "pots_won", "pots_lost", "provocations_raised", "fights_as_favourite",
                        "fights_won_as_favourite", "fusillades")


def _grouped(seats: pd.DataFrame, columns) -> pd.DataFrame:
    """The strategy and those of `columns` the run has, with an `all` column to group every seat
    by: a copy of a few columns, not of the whole seat table."""
    keep = ["strategy"] + [c for c in columns if c in seats]
    return seats[keep].assign(all="all")


def provocations(seats: pd.DataFrame) -> pd.DataFrame:
    """NYK-A4 by strategy and overall: how provocations end (a fold before the fusillade or the
    fusillade itself), who wins fights and pots, and the favourite's win rate when recorded."""
    frame = _grouped(seats, PROVOCATION_COUNTERS)
    rows = []
    for by in ("strategy", "all"):
        for key, g in frame.groupby(by, observed=True, sort=False):
            made, received = int(g["provocations_made"].sum()), int(g["provocations_received"].sum())
            involved = made + received
            rows += [_rate(key, "folds / provocations it was part of", g["folds"].sum(), involved),
                     _rate(key, "fights won / decided fights", g["fights_won"].sum(),
                           g["fights_won"].sum() + g["fights_lost"].sum()),
                     _rate(key, "fights tied / fights", g["fights_tied"].sum(),
                           g["fights_won"].sum() + g["fights_lost"].sum() + g["fights_tied"].sum()),
                     _rate(key, "pots won / pots settled", g["pots_won"].sum(),
                           g["pots_won"].sum() + g["pots_lost"].sum())]
            if "provocations_raised" in g:
                rows.append(_rate(key, "went past the intimidation / provocations it was part of",
                                  g["provocations_raised"].sum(), involved))
            if "fights_as_favourite" in g and "fights_won_as_favourite" in g:
                rows.append(_rate(key, "fights won as the stronger hand / fights as favourite",
                                  g["fights_won_as_favourite"].sum(), g["fights_as_favourite"].sum()))
    return pd.DataFrame(rows)


def provocation_stages(seats: pd.DataFrame) -> pd.DataFrame:
    """Where the run's provocations ended (NYK-A4), as shares of all provocations: with the stage
    counters, folded at the intimidation (stage 1), folded after the raise (stage 2) or fought in
    the fusillade; without them, folded (either stage) or fought. Seat counters of both sides
    (provocations_raised, fusillades) count each provocation twice; fights_won pairs with
    fights_lost and a tie counts both sides."""
    made = int(seats["provocations_made"].sum())
    if "provocations_raised" in seats and "fusillades" in seats:
        raised, fought = int(seats["provocations_raised"].sum()) // 2, int(seats["fusillades"].sum()) // 2
        rows = [_rate("all", "folded at the intimidation (stage 1)", made - raised, made),
                _rate("all", "folded after the raise (stage 2)", raised - fought, made),
                _rate("all", "fought in the fusillade", fought, made)]
    else:
        fought = int(seats["fights_won"].sum() + seats["fights_tied"].sum() // 2)
        rows = [_rate("all", "folded (either stage)", made - fought, made),
                _rate("all", "fought in the fusillade", fought, made)]
    return pd.DataFrame(rows)


def _rate(group, measure: str, k, n) -> dict:
    k, n = float(k), float(n)
    lo, hi = wilson(k, n)
    return {"group": group, "measure": measure, "count": k, "out_of": n,
            "rate": k / n if n else np.nan, "lo": lo if n else np.nan, "hi": hi if n else np.nan}


# --- police ----------------------------------------------------------------------------------------

def police(seats: pd.DataFrame) -> pd.DataFrame:
    """NYK-P4/P5 by strategy and overall: arrests per interrogation, resistances won, with the
    interrogations, custody turns and police moves per seat."""
    frame = _grouped(seats, ("arrests", "interrogations", "resists_won", "resists"))
    rows = []
    for by in ("strategy", "all"):
        for key, g in frame.groupby(by, observed=True, sort=False):
            row = _rate(key, "arrests / interrogations", g["arrests"].sum(), g["interrogations"].sum())
            rows.append(row | {"per_seat": g["interrogations"].mean()})
            rows.append(_rate(key, "resistances won / resistances", g["resists_won"].sum(), g["resists"].sum())
                        | {"per_seat": g["resists"].mean()})
    return pd.DataFrame(rows)


def police_cars(games: pd.DataFrame) -> pd.DataFrame | None:
    """Police cars on the board at the end of games, by game length (when recorded)."""
    if "police_cars_end" not in games:
        return None
    rows = []
    for turns, g in games.groupby("turns"):
        mean, lo, hi, n = mean_interval(g["police_cars_end"])
        rows.append({"turns": int(turns), "games": n, "cars_mean": mean, "lo": lo, "hi": hi})
    return pd.DataFrame(rows)


# --- recruitment -----------------------------------------------------------------------------------

def recruits(seats: pd.DataFrame) -> pd.DataFrame:
    """NYK-A6 by strategy and overall: attempts per seat, success (Wilson), hesitations, and the
    mean price of a successful recruitment."""
    frame = _grouped(seats, ("recruits_tried", "recruits_done", "recruits_hesitated", "recruit_spent"))
    rows = []
    for by in ("strategy", "all"):
        for key, g in frame.groupby(by, observed=True, sort=False):
            tried, done = g["recruits_tried"].sum(), g["recruits_done"].sum()
            rows.append(_rate(key, "recruited / attempts", done, tried)
                        | {"attempts_per_seat": g["recruits_tried"].mean(),
                           "hesitations": int(g["recruits_hesitated"].sum()),
                           "mean_price": g["recruit_spent"].sum() / done if done else np.nan})
    return pd.DataFrame(rows)


def recruits_by_value(seats: pd.DataFrame, terms: odds.RecruitTerms) -> pd.DataFrame | None:
    """Observed success by henchman value against the exact odds (sim.odds) at the observed mean
    offer (linear between the two nearest legal offers): `exact_accept` (a die above the value),
    `exact_success` (also paying every hesitation). A policy that sometimes declines to pay a
    hesitation lands between the two. None when the run lacks the per-value counters."""
    needed = [f"recruits_{k}_{v}" for v in HENCHMAN_VALUES for k in ("tried", "done")]
    if terms is None or not all(c in seats for c in needed):
        return None
    rows = []
    for v in HENCHMAN_VALUES:
        tried, done = int(seats[f"recruits_tried_{v}"].sum()), int(seats[f"recruits_done_{v}"].sum())
        offered = f"recruit_offered_{v}"
        mean_offer = seats[offered].sum() / tried if offered in seats and tried else np.nan
        lo, hi = wilson(done, tried)
        accept, success = _odds_at(hands.parse_value(v), mean_offer, terms)
        rows.append({"value": v, "attempts": tried, "recruited": done,
                     "observed": done / tried if tried else np.nan, "lo": lo, "hi": hi,
                     "mean_offer": mean_offer, "exact_accept": accept, "exact_success": success})
    return pd.DataFrame(rows)


def _odds_at(value: int, offer: float, terms: odds.RecruitTerms) -> tuple[float, float]:
    offers = terms.offers()
    if not np.isfinite(offer) or offer < offers[0] - 1e-9 or offer > offers[-1] + 1e-9:
        return np.nan, np.nan
    grid = np.array(offers, dtype=float)
    acc = [float(odds.recruit_odds(value, o, terms, pay_hesitation=False)["success"]) for o in offers]
    suc = [float(odds.recruit_odds(value, o, terms, pay_hesitation=True)["success"]) for o in offers]
    return float(np.interp(offer, grid, acc)), float(np.interp(offer, grid, suc))


# --- deaths and other activity -----------------------------------------------------------------------

def deaths(seats: pd.DataFrame) -> pd.DataFrame:
    """Seats whose affranchi died (alive == False at the end), by strategy (Wilson), with the
    characters lost per seat."""
    frame = _grouped(seats, ("alive", "characters_lost", "affranchi_lost"))
    rows = []
    for by in ("strategy", "all"):
        for key, g in frame.groupby(by, observed=True, sort=False):
            dead = int((~g["alive"].astype(bool)).sum())
            row = _rate(key, "affranchi dead at the end / seats", dead, len(g))
            row["characters_lost_per_seat"] = g["characters_lost"].mean() if "characters_lost" in g else np.nan
            if "affranchi_lost" in g:
                row["affranchi_lost_per_seat"] = g["affranchi_lost"].mean()
            rows.append(row)
    return pd.DataFrame(rows)


ACTIVITY = ("cards_drawn", "cards_played", "cards_as_moves", "cards_discarded_limit", "subway_rides",
            "heli_rides", "police_moves", "custody_turns", "henchmen_parted", "deals")


def activity(seats: pd.DataFrame) -> pd.DataFrame:
    """Mean per seat of the other counters, by strategy and overall."""
    columns = economy.money_columns(seats, ACTIVITY)
    return economy.per_seat_means(seats, columns)


def cards_by_kind(seats: pd.DataFrame) -> pd.DataFrame | None:
    """Resource cards drawn and played per seat for each effect kind in play, overall and (played)
    by strategy; None for a run without the per-kind counters."""
    kinds = [c.removeprefix("cards_drawn_") for c in seats.columns if c.startswith("cards_drawn_")]
    if not kinds:
        return None
    played = [f"cards_played_{kind}" for kind in kinds]
    by = list(seats[["strategy", *played]].groupby("strategy", observed=True, sort=False))
    rows = []
    for kind in kinds:
        drawn, played = seats[f"cards_drawn_{kind}"], seats[f"cards_played_{kind}"]
        if drawn.sum() == 0 and played.sum() == 0:
            continue  # not in this deck
        row = {"effect": kind, "drawn_per_seat": drawn.mean(), "played_per_seat": played.mean()}
        for name, g in by:
            row[f"played:{name}"] = g[f"cards_played_{kind}"].mean()
        rows.append(row)
    return pd.DataFrame(rows)


# --- the sections ------------------------------------------------------------------------------------

def add_sections(report, run) -> None:
    """The New York Kings sections: economy, then the mechanics. Each reads only the seat columns
    it needs (a run of millions of games never holds every counter at once)."""
    games, manifest = run.games, run.manifest

    def seats(*columns):
        return seat_columns(run, ("strategy",) + columns)

    _economy_section(report, seats("game_id", "fortune", *INCOME, *SPENDING), manifest)
    report.heading("Mechanics")
    _missions_section(report, seats(*(f"missions_{k}_{s}" for k in ("accepted", "done")
                                      for s, _, _ in MISSION_KINDS)), manifest)
    _provocations_section(report, seats(*PROVOCATION_COUNTERS))
    _police_section(report, seats("arrests", "interrogations", "resists_won", "resists"), games)
    _recruit_section(report, seats("recruits_tried", "recruits_done", "recruits_hesitated", "recruit_spent",
                                   *(f"{k}_{v}" for k in ("recruits_tried", "recruits_done", "recruit_offered")
                                     for v in HENCHMAN_VALUES)), manifest)
    _deaths_section(report, seats("alive", "characters_lost", "affranchi_lost"))
    report.heading("Other activity per seat", level=3)
    report.table(activity(seats(*ACTIVITY)), "Mean per seat of the other counters", name="activity",
                 formats={c: _two for c in ACTIVITY})
    kinds = cards_by_kind(seat_columns(run, lambda c: c == "strategy" or c.startswith(("cards_drawn_",
                                                                                         "cards_played_"))))
    if kinds is not None:
        report.table(kinds, "Resource cards drawn and played per seat, by effect", name="cards",
                     formats={c: _two for c in kinds.columns if c != "effect"})


def _two(value) -> str:
    return "" if value is None or value != value else f"{float(value):.2f}"


def _economy_section(report, seats, manifest):
    start = start_money(manifest)
    flows = money_flows(seats, start)
    report.heading("Economy: where the money comes from and where it goes")
    opening = f"Every seat starts with ${start:,}. " if start is not None else ""
    report.text(opening + "Means per seat over the run, with 95% intervals over games. Income: mission rewards "
                "(with Juicy Job bonuses) and resource cards; spending: bids for the turn order, "
                "recruitment and helicopter journeys. The last line is what the counters do not "
                "record separately (provocation pots and fold penalties, money taken by opponents' "
                "cards), found by difference from the final fortune.")
    report.figure(_flows_figure(flows), "money-flows", "Mean money in and out per seat, by strategy")
    report.table(flows, "Money flows per seat: mean (95% interval)", name="money-flows", shown=_flows_shown(flows))


def _flows_shown(flows: pd.DataFrame) -> pd.DataFrame:
    """One row per flow, one column per strategy: mean (interval)."""
    cells = flows.assign(cell=[f"{dollars(r.mean)} ({dollars(r.lo)} to {dollars(r.hi)})"
                               for r in flows.itertuples()])
    table = cells.pivot(index="flow", columns="strategy", values="cell")
    table = table.reindex(index=list(dict.fromkeys(flows["flow"])), columns=list(dict.fromkeys(flows["strategy"])))
    table.columns.name = None
    return table.reset_index()


def _flows_figure(flows: pd.DataFrame):
    fig, (ax,) = figures.figure(width=8, height=3.8)
    table = flows[flows["strategy"] != "all"].pivot(index="strategy", columns="column", values="mean")
    names = list(dict.fromkeys(flows.loc[flows["strategy"] != "all", "strategy"]))
    table = table.reindex(index=names, columns=list(dict.fromkeys(flows["column"])))
    x = np.arange(len(table))
    up, down = np.zeros(len(table)), np.zeros(len(table))
    for i, column in enumerate(table.columns):
        values = table[column].to_numpy(float)
        if column in SPENDING:
            values = -values
        bottom = np.where(values >= 0, up, down)
        ax.bar(x, values, bottom=bottom, color=figures.color(i), label=FLOW_LABELS.get(column, column))
        up, down = up + np.clip(values, 0, None), down + np.clip(values, None, 0)
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xticks(x, [str(n) for n in table.index])
    ax.set_ylabel("dollars per seat (spending below 0)")
    ax.set_title("Money in and out per seat")
    ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.0, 0.5))
    return fig


def _missions_section(report, seats, manifest):
    deck = mission_deck(manifest)
    overall = missions(seats, deck)
    if overall.empty:
        return
    report.heading("Missions (NYK-C4): uptake and completion by crew size and risk", level=3)
    report.text("Completion is missions accomplished over missions accepted (a mission still under "
                "way when the game ends counts as not accomplished). The deck columns give that "
                "kind's cards and rewards (after missions.reward_scale), the reward bands the "
                "income comes from.")
    report.table(overall, "Missions by kind", name="missions",
                 formats={"completion": percent, "lo": percent, "hi": percent, "reward_min": dollars,
                          "reward_mean": dollars, "reward_max": dollars,
                          "accepted_per_seat": _two, "done_per_seat": _two})
    by = missions(seats, None, by="strategy")
    fig, (ax,) = figures.figure(width=8)
    kinds = list(dict.fromkeys(by["kind"]))
    series = {}
    for name, part in by.groupby("group", sort=False):
        part = part.set_index("kind").reindex(kinds)
        series[name] = (part["completion"], part["lo"], part["hi"])
    figures.grouped_bars(ax, kinds, series, "Mission completion by kind and strategy", "accomplished / accepted")
    report.figure(fig, "missions", "Mission completion with 95% Wilson intervals")
    report.table(by, "Missions by kind and strategy", name="missions-by-strategy",
                 formats={"completion": percent, "lo": percent, "hi": percent,
                          "accepted_per_seat": _two, "done_per_seat": _two})


def _provocations_section(report, seats):
    if "provocations_made" not in seats:
        return
    report.heading("Provocations (NYK-A4)", level=3)
    report.text("A provocation ends with a fold at the intimidation (stage 1), a fold after the raise "
                "(stage 2), or in the fusillade. Shares over all provocations of the run; then, by strategy, "
                "the share of the provocations it took part in (made or received) that it folded or took "
                "past the intimidation, its fights and pots won, and how often the stronger hand (the "
                "better exact odds, sim.fights) won its fusillades.")
    report.table(provocation_stages(seats), "How provocations end", name="provocation-stages",
                 formats=RATES)
    table = provocations(seats)
    report.table(table, "Provocations by strategy", name="provocations", formats=RATES)
    fig, (ax,) = figures.figure(width=8)
    shown = table[table["group"] != "all"]
    groups = list(dict.fromkeys(shown["group"]))
    series = {}
    for measure, part in shown.groupby("measure", sort=False):
        part = part.set_index("group").reindex(groups)
        series[measure] = (part["rate"], part["lo"], part["hi"])
    figures.grouped_bars(ax, groups, series, "Provocations by strategy", "share")
    report.figure(fig, "provocations", "Provocation outcomes by strategy with 95% Wilson intervals")


def _police_section(report, seats, games):
    if "interrogations" not in seats:
        return
    report.heading("Police: interrogations and arrests (NYK-P4, NYK-P5)", level=3)
    table = police(seats)
    report.table(table, "Arrests and resistances", name="police",
                 formats=RATES | {"per_seat": _two})
    cars = police_cars(games)
    if cars is not None:
        report.text("Police cars in play at the end of the game (NYK-P3: reshuffles add them), by the game's "
                    "length; the figure shows the lengths with at least 30 games.")
        fig, (ax,) = figures.figure(width=7)
        common = cars[cars["games"] >= 30]  # a few very short or long games would only add noise
        figures.points(ax, common["turns"], common["cars_mean"], common["lo"], common["hi"],
                       "Police cars at the end by game length", "turns", "cars", percent=False)
        report.figure(fig, "police-cars", "Police cars at the end of the game (mean, 95% interval)")
        report.table(cars, "Police cars at the end of the game", name="police-cars")


def _recruit_section(report, seats, manifest):
    if "recruits_tried" not in seats:
        return
    report.heading("Recruitment (NYK-A6)", level=3)
    report.table(recruits(seats), "Recruitment by strategy", name="recruits",
                 formats=RATES | {"mean_price": dollars, "attempts_per_seat": _two})
    by_value = recruits_by_value(seats, recruit_terms(manifest))
    if by_value is None:
        report.text("This run has no per-value recruitment counters, so observed success cannot be "
                    "set against the exact odds of each henchman value.")
        return
    report.text("Observed success by henchman value against the exact odds at the mean offer made "
                "(sim.odds): between exact_accept (a die above the value) and exact_success (every "
                "hesitation paid), depending on how often hesitations are paid. The exact odds at the mean "
                "offer differ a little from the mean of the odds over the offers actually made, and an "
                "attempt helped by a recruitment card rolls extra dice (NYK-A8), above these odds.")
    report.table(by_value, "Recruitment by henchman value against the exact odds", name="recruits-by-value",
                 formats=RATES | {"mean_offer": dollars})
    fig, (ax,) = figures.figure(width=7)
    x = np.arange(len(by_value))
    figures.points(ax, x, by_value["observed"], by_value["lo"], by_value["hi"], label="observed")
    ax.plot(x, by_value["exact_accept"], "v--", color="grey", label="exact, a die above")
    ax.plot(x, by_value["exact_success"], "^--", color="black", label="exact, hesitations paid")
    ax.set_xticks(x, by_value["value"])
    figures.finish(ax, "Recruitment success by henchman value", "success", True)
    ax.legend(fontsize=8)
    report.figure(fig, "recruits-by-value", "Observed recruitment success against the exact odds")


def _deaths_section(report, seats):
    if "alive" not in seats:
        return
    report.heading("Affranchi deaths", level=3)
    report.table(deaths(seats), "Seats whose affranchi died", name="deaths",
                 formats=RATES | {"characters_lost_per_seat": _two, "affranchi_lost_per_seat": _two})
