"""New York Kings sections of a run's report: where the money comes from and goes, and the
mechanics (missions, provocations, police, recruitment, deaths, police cars).

Every function takes the run's tables (and, where rules matter, the manifest's ruleset content)
and returns a DataFrame. Counters a run does not have are skipped: the sections use what exists.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from sim.nyk import hands, odds
from sim.analysis import figures
from sim.analysis.report import count, dollars, percent
from sim.analysis.scan import GameMeans, GroupedMoments, Totals
from sim.analysis.stats import wilson

# the counters that count a player's own choices (not outcomes), read by sim.analysis.findings: a
# mechanic is "used" when its counter is above zero
CHOICES = {"bids_paid": "bidding for the first player card", "cards_played": "playing resource cards",
           "cards_as_moves": "discarding cards for moves", "missions_accepted_1": "one-character missions",
           "missions_accepted_2": "two-character missions", "missions_accepted_risky": "at-risk missions",
           "provocations_made": "provoking", "provocations_raised": "raising a provocation",
           "folds": "folding in a fight", "resists": "resisting the police",
           "recruits_tried": "recruiting henchmen", "subway_rides": "the subway",
           "heli_rides": "the helicopter", "police_moves": "moving police cars",
           "henchmen_parted": "parting with a henchman", "deals": "paying for police moves"}

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
    flows = MoneyFlows(seats.columns, start)
    flows.add(seats)
    return flows.table()


class MoneyFlows:
    """`money_flows` part by part: each game's mean per strategy and over all its seats of every
    flow (`scan.GameMeans`)."""

    def __init__(self, columns, start: int | None):
        self.income = [c for c in INCOME if c in columns]
        self.spending = [c for c in SPENDING if c in columns]
        self.start = start
        self.columns = {c: ("income", INCOME[c]) for c in self.income} | {c: ("spending", SPENDING[c])
                                                                            for c in self.spending}
        if start is not None:
            self.columns["other_net"] = ("net", OTHER)
        self.means = {by: GameMeans(list(self.columns), by) for by in ("strategy", "all")}

    def add(self, seats: pd.DataFrame) -> None:
        frame = seats[["game_id", "strategy", "fortune", *self.income, *self.spending]].copy()  # not every counter
        if self.start is not None:
            frame["other_net"] = (frame["fortune"] - self.start - frame[self.income].sum(axis=1)
                                  + frame[self.spending].sum(axis=1))
        frame["all"] = "all"
        for means in self.means.values():
            means.add(frame)

    def table(self) -> pd.DataFrame:
        rows = []
        for column, (kind, label) in self.columns.items():
            for by in ("strategy", "all"):
                table = self.means[by].table(column).rename(columns={by: "strategy"})
                table.insert(0, "flow", label)
                table.insert(1, "kind", kind)
                table.insert(2, "column", column)
                rows.append(table)
        return pd.concat(rows, ignore_index=True)


# --- missions --------------------------------------------------------------------------------------

MISSION_KINDS = (("1", "crew of 1", "crew == 1"), ("2", "crew of 2", "crew == 2"),
                 ("risky", "at risk (either crew)", "at_risk"))


def missions(seats, deck: pd.DataFrame | None = None, by: str | None = None) -> pd.DataFrame:
    """Uptake and completion by mission kind (NYK-C4: crew size and risk): missions accepted and
    accomplished per seat and game, completion = accomplished / accepted (Wilson), and the
    rewards of that kind in the deck. `seats`: the seat table or its `scan.Totals`."""
    totals = _totals(seats)
    groups = [("all", totals.all())] if by is None else totals.by_strategy(sort=True)
    rows = []
    for key, group in groups:
        for suffix, label, query in MISSION_KINDS:
            acc, done = f"missions_accepted_{suffix}", f"missions_done_{suffix}"
            if acc not in group or done not in group:
                continue
            k, n = int(group.sum(done)), int(group.sum(acc))
            lo, hi = wilson(k, n)
            row = {"group": key, "kind": label, "accepted_per_seat": group.mean(acc),
                   "done_per_seat": group.mean(done), "accepted": n, "done": k,
                   "completion": k / n if n else np.nan, "lo": lo, "hi": hi}
            if deck is not None and len(deck):
                cards = deck.query(query)
                row |= {"deck_cards": len(cards), "reward_min": cards["reward"].min(),
                        "reward_mean": cards["reward"].mean(), "reward_max": cards["reward"].max()}
            rows.append(row)
    return pd.DataFrame(rows)


def _totals(seats) -> Totals:
    """The seat table's column sums by strategy (a `scan.Totals` is taken as it is)."""
    if isinstance(seats, Totals):
        return seats
    if "strategy" not in seats:  # totals over every seat only
        seats = seats.assign(strategy="all")
    numeric = [c for c in seats.columns if c not in ("game_id", "seat", "strategy", "slot")
               and (pd.api.types.is_numeric_dtype(seats[c]) or pd.api.types.is_bool_dtype(seats[c]))]
    return Totals(numeric).add(seats)


# --- provocations ----------------------------------------------------------------------------------

PROVOCATION_COUNTERS = ("provocations_made", "provocations_received", "folds", "fights_won", "fights_lost",
                        "fights_tied", "pots_won", "pots_lost", "provocations_raised", "fights_as_favourite",
                        "fights_won_as_favourite", "fusillades")


def provocations(seats) -> pd.DataFrame:
    """NYK-A4 by strategy and overall: how provocations end (a fold before the fusillade or the
    fusillade itself), who wins fights and pots, and the favourite's win rate when recorded."""
    rows = []
    for key, g in _totals(seats).groups():
        made, received = int(g.sum("provocations_made")), int(g.sum("provocations_received"))
        involved = made + received
        won, lost = g.sum("fights_won"), g.sum("fights_lost")
        rows += [_rate(key, "folds / provocations it was part of", g.sum("folds"), involved),
                 _rate(key, "fights won / decided fights", won, won + lost),
                 _rate(key, "fights tied / fights", g.sum("fights_tied"), won + lost + g.sum("fights_tied")),
                 _rate(key, "pots won / pots settled", g.sum("pots_won"), g.sum("pots_won") + g.sum("pots_lost"))]
        if "provocations_raised" in g:
            rows.append(_rate(key, "went past the intimidation / provocations it was part of",
                              g.sum("provocations_raised"), involved))
        if "fights_as_favourite" in g and "fights_won_as_favourite" in g:
            rows.append(_rate(key, "fights won as the stronger hand / fights as favourite",
                              g.sum("fights_won_as_favourite"), g.sum("fights_as_favourite")))
    return pd.DataFrame(rows)


def provocation_stages(seats) -> pd.DataFrame:
    """Where the run's provocations ended (NYK-A4), as shares of all provocations: with the stage
    counters, folded at the intimidation (stage 1), folded after the raise (stage 2) or fought in
    the fusillade; without them, folded (either stage) or fought. Seat counters of both sides
    (provocations_raised, fusillades) count each provocation twice; fights_won pairs with
    fights_lost and a tie counts both sides."""
    every = _totals(seats).all()
    made = int(every.sum("provocations_made"))
    if "provocations_raised" in every and "fusillades" in every:
        raised, fought = int(every.sum("provocations_raised")) // 2, int(every.sum("fusillades")) // 2
        rows = [_rate("all", "folded at the intimidation (stage 1)", made - raised, made),
                _rate("all", "folded after the raise (stage 2)", raised - fought, made),
                _rate("all", "fought in the fusillade", fought, made)]
    else:
        fought = int(every.sum("fights_won") + int(every.sum("fights_tied")) // 2)
        rows = [_rate("all", "folded (either stage)", made - fought, made),
                _rate("all", "fought in the fusillade", fought, made)]
    return pd.DataFrame(rows)


def _rate(group, measure: str, k, n) -> dict:
    k, n = float(k), float(n)
    lo, hi = wilson(k, n)
    return {"group": group, "measure": measure, "count": k, "out_of": n,
            "rate": k / n if n else np.nan, "lo": lo if n else np.nan, "hi": hi if n else np.nan}


# --- police ----------------------------------------------------------------------------------------

def police(seats) -> pd.DataFrame:
    """NYK-P4/P5 by strategy and overall: arrests per interrogation, resistances won, with the
    interrogations, custody turns and police moves per seat."""
    rows = []
    for key, g in _totals(seats).groups():
        row = _rate(key, "arrests / interrogations", g.sum("arrests"), g.sum("interrogations"))
        rows.append(row | {"per_seat": g.mean("interrogations")})
        rows.append(_rate(key, "resistances won / resistances", g.sum("resists_won"), g.sum("resists"))
                    | {"per_seat": g.mean("resists")})
    return pd.DataFrame(rows)


def police_cars(games: pd.DataFrame) -> pd.DataFrame | None:
    """Police cars on the board at the end of games, by game length (when recorded)."""
    if "police_cars_end" not in games:
        return None
    cars = PoliceCars()
    cars.add(games)
    return cars.table()


class PoliceCars:
    """`police_cars` part by part: the moments of the cars at the end by game length."""

    def __init__(self):
        self.moments = GroupedMoments()

    def add(self, games: pd.DataFrame) -> None:
        if "police_cars_end" in games:
            self.moments.add(games["turns"].to_numpy(), games[["police_cars_end"]].astype(float))

    def table(self) -> pd.DataFrame | None:
        if self.moments.count is None:
            return None
        rows = []
        for turns in sorted(self.moments.count.index):
            mean, lo, hi, n = self.moments.interval(turns, "police_cars_end")
            rows.append({"turns": int(turns), "games": n, "cars_mean": mean, "lo": lo, "hi": hi})
        return pd.DataFrame(rows)


# --- recruitment -----------------------------------------------------------------------------------

def recruits(seats) -> pd.DataFrame:
    """NYK-A6 by strategy and overall: attempts per seat, success (Wilson), hesitations, and the
    mean price of a successful recruitment."""
    rows = []
    for key, g in _totals(seats).groups():
        tried, done = g.sum("recruits_tried"), g.sum("recruits_done")
        rows.append(_rate(key, "recruited / attempts", done, tried)
                    | {"attempts_per_seat": g.mean("recruits_tried"),
                       "hesitations": int(g.sum("recruits_hesitated")),
                       "mean_price": g.sum("recruit_spent") / done if done else np.nan})
    return pd.DataFrame(rows)


def recruits_by_value(seats, terms: odds.RecruitTerms) -> pd.DataFrame | None:
    """Observed success by henchman value against the exact odds (sim.nyk.odds) at the observed mean
    offer (linear between the two nearest legal offers): `exact_accept` (a die above the value),
    `exact_success` (also paying every hesitation). A policy that sometimes declines to pay a
    hesitation lands between the two. None when the run lacks the per-value counters."""
    every = _totals(seats).all()
    needed = [f"recruits_{k}_{v}" for v in HENCHMAN_VALUES for k in ("tried", "done")]
    if terms is None or not all(c in every for c in needed):
        return None
    rows = []
    for v in HENCHMAN_VALUES:
        tried, done = int(every.sum(f"recruits_tried_{v}")), int(every.sum(f"recruits_done_{v}"))
        offered = f"recruit_offered_{v}"
        mean_offer = every.sum(offered) / tried if offered in every and tried else np.nan
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

def deaths(seats) -> pd.DataFrame:
    """Seats whose affranchi died (alive == False at the end), by strategy (Wilson), with the
    characters lost per seat."""
    rows = []
    for key, g in _totals(seats).groups():
        dead = int(g.seats - g.sum("alive"))
        row = _rate(key, "affranchi dead at the end / seats", dead, g.seats)
        row["characters_lost_per_seat"] = g.mean("characters_lost") if "characters_lost" in g else np.nan
        if "affranchi_lost" in g:
            row["affranchi_lost_per_seat"] = g.mean("affranchi_lost")
        rows.append(row)
    return pd.DataFrame(rows)


ACTIVITY = ("cards_drawn", "cards_played", "cards_as_moves", "cards_discarded_limit", "subway_rides",
            "heli_rides", "police_moves", "custody_turns", "henchmen_parted", "deals")


def activity(seats) -> pd.DataFrame:
    """Mean per seat of the other counters, by strategy and overall."""
    totals = _totals(seats)
    columns = [c for c in ACTIVITY if totals.has(c)]
    table = pd.DataFrame([{c: g.mean(c) for c in columns} for _, g in totals.groups(sort=True)],
                         index=pd.Index(totals.names(sort=True) + ["all"], name="strategy"), columns=columns)
    return table.astype(float)


def cards_by_kind(seats) -> pd.DataFrame | None:
    """Resource cards drawn and played per seat for each effect kind in play, overall and (played)
    by strategy; None for a run without the per-kind counters."""
    totals = _totals(seats)
    kinds = [c.removeprefix("cards_drawn_") for c in totals.columns if c.startswith("cards_drawn_")
             and totals.has(c)]
    if not kinds:
        return None
    every = totals.all()
    rows = []
    for kind in kinds:
        drawn, played = f"cards_drawn_{kind}", f"cards_played_{kind}"
        if every.sum(drawn) == 0 and every.sum(played) == 0:
            continue  # not in this deck
        row = {"effect": kind, "drawn_per_seat": every.mean(drawn), "played_per_seat": every.mean(played)}
        for name, g in totals.by_strategy():
            row[f"played:{name}"] = g.mean(played)
        rows.append(row)
    return pd.DataFrame(rows)


# --- the sections ------------------------------------------------------------------------------------

def add_sections(report, run) -> None:
    """The New York Kings sections: economy, then the mechanics, from one pass over the run's
    parts (sums by strategy, per-game means: a run of millions of games is never held whole)."""
    from sim.analysis.tables import run_parts, table_columns

    manifest = run.manifest
    present = table_columns(run, "seats")
    wanted = ["game_id", "strategy", "fortune", *SEAT_COUNTERS]
    counters = [c for c in present if c in wanted or c.startswith(("cards_drawn_", "cards_played_"))]
    _, parts = run_parts(run, ("game_id", "turns", "police_cars_end"), counters)
    totals, flows, cars = None, None, PoliceCars()
    for games, seats in parts:
        if totals is None:
            totals = Totals([c for c in seats.columns if c not in ("game_id", "strategy")])
            flows = MoneyFlows(seats.columns, start_money(manifest))
        totals.add(seats)
        flows.add(seats)
        cars.add(games)
    if totals is None:
        return
    _economy_section(report, flows.table(), manifest)
    report.heading("Mechanics")
    _missions_section(report, totals, manifest)
    _provocations_section(report, totals)
    _police_section(report, totals, cars.table())
    _recruit_section(report, totals, manifest)
    _deaths_section(report, totals)
    report.heading("Other activity per seat", level=3)
    report.table(activity(totals), "Mean per seat of the other counters", name="activity",
                 formats={c: _two for c in ACTIVITY})
    kinds = cards_by_kind(totals)
    if kinds is not None:
        report.table(kinds, "Resource cards drawn and played per seat, by effect", name="cards",
                     formats={c: _two for c in kinds.columns if c != "effect"})


# every seat counter the sections read (with cards_drawn_* and cards_played_*)
SEAT_COUNTERS = (*INCOME, *SPENDING, *(f"missions_{k}_{s}" for k in ("accepted", "done") for s, _, _ in MISSION_KINDS),
                 *PROVOCATION_COUNTERS, "arrests", "interrogations", "resists_won", "resists", "recruits_tried",
                 "recruits_done", "recruits_hesitated", "recruit_spent",
                 *(f"{k}_{v}" for k in ("recruits_tried", "recruits_done", "recruit_offered") for v in HENCHMAN_VALUES),
                 "alive", "characters_lost", "affranchi_lost", *ACTIVITY)


def _two(value) -> str:
    return "" if value is None or value != value else f"{float(value):.2f}"


def _economy_section(report, flows, manifest):
    start = start_money(manifest)
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


def _missions_section(report, totals, manifest):
    deck = mission_deck(manifest)
    overall = missions(totals, deck)
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
    by = missions(totals, None, by="strategy")
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
    if not seats.has("provocations_made"):
        return
    report.heading("Provocations (NYK-A4)", level=3)
    report.text("A provocation ends with a fold at the intimidation (stage 1), a fold after the raise "
                "(stage 2), or in the fusillade. Shares over all provocations of the run; then, by strategy, "
                "the share of the provocations it took part in (made or received) that it folded or took "
                "past the intimidation, its fights and pots won, and how often the stronger hand (the "
                "better exact odds, sim.nyk.fights) won its fusillades.")
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


def _police_section(report, seats, cars):
    if not seats.has("interrogations"):
        return
    report.heading("Police: interrogations and arrests (NYK-P4, NYK-P5)", level=3)
    table = police(seats)
    report.table(table, "Arrests and resistances", name="police",
                 formats=RATES | {"per_seat": _two})
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
    if not seats.has("recruits_tried"):
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
                "(sim.nyk.odds): between exact_accept (a die above the value) and exact_success (every "
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
    if not seats.has("alive"):
        return
    report.heading("Affranchi deaths", level=3)
    report.table(deaths(seats), "Seats whose affranchi died", name="deaths",
                 formats=RATES | {"characters_lost_per_seat": _two, "affranchi_lost_per_seat": _two})
