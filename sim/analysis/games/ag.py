"""American Gangsters sections of a run's report: how games end, the informer, the FBI track, the
titles held, locations and negotiation, and the other mechanics.

Every function takes the run's tables (and, where rules matter, the manifest's effective rules)
and returns a DataFrame; rates carry 95% Wilson intervals, means 95% normal intervals over seats.
Counters a run does not have are skipped.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from sim.analysis import economy, figures
from sim.analysis.report import count, percent
from sim.analysis.stats import mean_interval, wilson

# the counters that count a player's own choices (not outcomes), read by sim.analysis.findings: a
# mechanic is "used" when its counter is above zero
CHOICES = {"trades_up": "buying renown", "trades_down_bags": "selling renown for bags",
           "trades_down_henchman": "giving renown for a henchman", "offers_made": "proposing splits",
           "hospital_recruits": "recruiting at the hospital", "heals": "healing the boss",
           "rerolls": "the boss's re-roll", "power_uses": "Barons' powers", "powers_sold": "selling a power",
           "auctions_won": "winning auctions", "roulette_pulls": "the roulette", "duel_shots": "duels"}


ENDINGS = {"parrain": "a mafia family reached the Parrain's renown (AG-G1)",
           "informer": "the informer revealed itself (AG-G2)",
           "all_won": "every location card was won (AG-E1)",
           "cap": "the turn cap (a safety net)"}
RATES = {c: percent for c in ("share", "rate", "lo", "hi")} | {"count": count, "out_of": count}
TITLES = ("barons", "caids")
PLAY = ("locations_tried", "locations_succeeded", "cards_won", "renown_from_locations", "tokens_won",
        "offers_made", "offers_refused", "agreements", "shootouts", "bangs_fired", "wounds", "boss_deaths")
ACTIVITY = ("trades_up", "trades_down_bags", "trades_down_henchman", "bosses_unplaced", "dice_placed",
            "rerolls", "bags_from_locations", "occasional_gained", "henchmen_lost", "killers_lost",
            "hospital_recruits", "heals", "recruit_spent", "bags_stolen", "power_uses", "powers_sold",
            "auction_spent", "auctions_won", "roulette_pulls", "roulette_wins", "duel_shots")


def rule_values(manifest: dict) -> dict:
    return dict(manifest.get("ruleset", {}).get("content", {}).get("values", {}))


def _rate_row(label, k: int, n: int) -> dict:
    lo, hi = wilson(k, n)
    return {"group": str(label), "count": k, "out_of": n, "rate": k / n if n else np.nan, "lo": lo, "hi": hi}


def endings(games: pd.DataFrame) -> pd.DataFrame:
    """How games ended (ended_by) and how first place was decided (decided_by), with intervals."""
    rows = []
    for column in ("ended_by", "decided_by"):
        if column not in games:
            continue
        counts = games[column].value_counts()
        for value, k in counts.items():
            row = _rate_row(value, int(k), len(games))
            row["what"] = column
            row["meaning"] = ENDINGS.get(str(value), "") if column == "ended_by" else ""
            rows.append(row)
    return pd.DataFrame(rows)[["what", "group", "meaning", "count", "out_of", "rate", "lo", "hi"]]


def informer(games: pd.DataFrame, seats: pd.DataFrame) -> pd.DataFrame:
    """How often the informer is dealt and wins (AG-C6, G2): overall, and by the strategy that
    held it, beside each strategy's win rate as a mafia family."""
    rows = [dict(_rate_row("dealt (games with an informer)", int((games.informer_seat >= 0).sum()),
                           len(games)), role="informer")]
    dealt = seats[seats.informer.astype(bool)]
    rows.append(dict(_rate_row("informer wins (all strategies)", int(dealt.won.sum()), len(dealt)),
                     role="informer"))
    for name, g in dealt.groupby("strategy", observed=True):
        rows.append(dict(_rate_row(f"{name} as informer", int(g.won.sum()), len(g)), role="informer"))
    for name, g in seats[~seats.informer.astype(bool)].groupby("strategy", observed=True):
        rows.append(dict(_rate_row(f"{name} as mafia", int(g.won.sum()), len(g)), role="mafia"))
    return pd.DataFrame(rows)[["role", "group", "count", "out_of", "rate", "lo", "hi"]]


def fbi_track(games: pd.DataFrame, informer_space: int | None) -> pd.DataFrame:
    """The FBI pawn at the end and at its peak (means with intervals), and how often it reached
    the informer's space."""
    rows = []
    for column in ("fbi", "fbi_peak"):
        mean, lo, hi, n = mean_interval(games[column])
        rows.append({"measure": f"{column} (mean)", "value": mean, "lo": lo, "hi": hi, "games": n})
    if informer_space is not None:
        k = int((games.fbi_peak >= informer_space).sum())
        lo, hi = wilson(k, len(games))
        rows.append({"measure": f"games where the pawn reached {informer_space} (share)",
                     "value": k / len(games), "lo": lo, "hi": hi, "games": len(games)})
    return pd.DataFrame(rows)


def fbi_by_strategy(seats: pd.DataFrame) -> pd.DataFrame:
    """FBI steps each family caused up and down, by strategy and role (the informer pushes)."""
    frame = seats[["strategy", "fbi_raised", "fbi_lowered"]].assign(
        role=np.where(seats.informer.astype(bool), "informer", "mafia"))
    table = frame.groupby(["strategy", "role"], observed=True)[["fbi_raised", "fbi_lowered"]].mean()
    return table.reset_index()


def titles(seats: pd.DataFrame) -> pd.DataFrame:
    """Titles held at the end (AG-C4) and turns ended holding them, per seat, by strategy."""
    rows = []
    counters = [c for c in ("barons", "caids", "baron_turns", "caid_turns") if c in seats]
    frame = seats[["strategy", *counters]].assign(titles=seats.barons + seats.caids)
    for name, g in list(frame.groupby("strategy", observed=True)) + [("all", frame)]:
        row = {"strategy": str(name)}
        for column in ("barons", "caids", "titles", "baron_turns", "caid_turns"):
            if column in g:
                mean, lo, hi, _ = mean_interval(g[column])
                row[column], row[f"{column}_lo"], row[f"{column}_hi"] = mean, lo, hi
        rows.append(row)
    return pd.DataFrame(rows)


def play(seats: pd.DataFrame) -> pd.DataFrame:
    """Locations, bargaining and shoot-outs per seat (AG-T4, AG-N), by strategy, with the share of
    tried locations that succeeded and of offers answered with a refusal."""
    table = economy.per_seat_means(seats, economy.money_columns(seats, PLAY))
    if {"locations_tried", "locations_succeeded"} <= set(table):
        table["success_rate"] = table.locations_succeeded / table.locations_tried
    return table.reset_index()


def bargaining(seats: pd.DataFrame) -> pd.DataFrame:
    """AG-N, by strategy and overall: contested successes (shared with other families) per seat,
    the share of them that ended in a shoot-out (Wilson interval over contested successes, a
    shoot-out counted for each family in it), and the family's worth got from those cards beside
    its shoot-out value (the disagreement point), both as shares of the cards' worth (ratio of
    sums), with the side payments in bags."""
    needed = {"contested", "shootouts", "bargain_threat", "bargain_got", "bargain_total"}
    if not needed <= set(seats.columns):
        return pd.DataFrame()
    rows = []
    for name, g in list(seats.groupby("strategy", observed=True)) + [("all", seats)]:
        contested = int(g.contested.sum())
        fights = int(np.minimum(g.shootouts, g.contested).sum())
        lo, hi = wilson(fights, contested)
        total = float(g.bargain_total.sum())
        rows.append({"strategy": str(name), "contested": g.contested.mean(),
                     "shootout_share": fights / contested if contested else np.nan,
                     "lo": lo, "hi": hi,
                     "got_share": g.bargain_got.sum() / total if total else np.nan,
                     "threat_share": g.bargain_threat.sum() / total if total else np.nan,
                     "side_bags_paid": g.side_bags_paid.mean() if "side_bags_paid" in g else np.nan,
                     "side_bags_received": g.side_bags_received.mean() if "side_bags_received" in g else np.nan})
    return pd.DataFrame(rows)


def activity(seats: pd.DataFrame) -> pd.DataFrame:
    """Mean per seat of the other counters, by strategy and overall."""
    return economy.per_seat_means(seats, economy.money_columns(seats, ACTIVITY)).reset_index()


# --- the sections ------------------------------------------------------------------------------------

def add_sections(report, run) -> None:
    """The American Gangsters sections: endings, the informer, the FBI track, titles, then play."""
    games, seats, manifest = run.games, run.seats, run.manifest
    values = rule_values(manifest)
    report.heading("How games end (AG-G1, G2, E1)")
    report.text("A game ends at the end of a turn when the informer has both its renown (with the titles' "
                "provisional points) and the FBI pawn at its space, when a mafia family reaches the "
                "Parrain's renown, or when every location card has been won; the turn cap is a safety "
                "net that normal play should not reach. `decided_by` says how first place was settled.")
    table = endings(games)
    report.table(table, "End conditions and how first place was decided", name="ag-endings", formats=RATES)
    ended = table[table.what == "ended_by"]
    fig, (ax,) = figures.figure()
    figures.bars(ax, ended.group, ended.rate, ended.lo, ended.hi, title="How games end", ylabel="games")
    report.figure(fig, "ag-endings", "End conditions reached, with 95% Wilson intervals")

    report.heading("The informer (AG-C6, G2)")
    report.text("Each family draws a profile; with fewer players than profile cards the informer may be "
                "out of the game. Win rates of the families that held it, by strategy, beside the same "
                "strategies as mafia families.")
    report.table(informer(games, seats), "The informer: dealt, and wins", name="ag-informer", formats=RATES)

    report.heading("The FBI track", level=3)
    space = values.get("fbi.informer")
    report.table(fbi_track(games, space), "The FBI pawn at the end and at its peak", name="ag-fbi",
                 formats={"value": _two, "lo": _two, "hi": _two, "games": count})
    counts = games.fbi.value_counts().sort_index()
    fig, (ax,) = figures.figure()
    figures.histogram(ax, counts.index, counts.values, title="FBI pawn at the end", xlabel="FBI space")
    report.figure(fig, "ag-fbi", "The FBI track at the end of the games")
    report.table(fbi_by_strategy(seats), "FBI steps caused per seat, by strategy and role",
                 name="ag-fbi-by-strategy", formats={"fbi_raised": _two, "fbi_lowered": _two})

    report.heading("Titles held (AG-C4, T5)")
    report.text("Barons (one per traffic, +1 provisional renown) and Caids (one per district, +2) at the end "
                "of the game, and the turns each seat ended holding them; means per seat with 95% intervals.")
    held = titles(seats)
    report.table(held, "Titles per seat by strategy", name="ag-titles",
                 formats={c: _two for c in held.columns if c != "strategy"})

    report.heading("Locations, negotiation and shoot-outs (AG-T4, AG-N)")
    report.text("Per seat: locations tried and reached, cards kept, offers made and refused under the "
                "bargaining rule, agreements, shoot-outs, BANGs fired, wounds and boss deaths.")
    table = play(seats)
    report.table(table, "Play per seat by strategy", name="ag-play",
                 formats={c: _two for c in table.columns if c != "strategy"})
    table = bargaining(seats)
    if not table.empty:
        report.heading("Bargaining against the threat (AG-N1..N3)", level=3)
        report.text(f"The bargaining model: `negotiation.model = {values.get('negotiation.model', 'offer')}`. "
                    "Contested successes per seat, the share of them that ended in a shoot-out (95% "
                    "Wilson interval), and what the families got from those cards beside their exact "
                    "shoot-out values, both as shares of the cards' worth at the rule's worths "
                    "(`negotiation.value_*`); side payments in bags per seat.")
        report.table(table, "Bargaining per seat by strategy", name="ag-bargaining",
                     formats={"contested": _two, "shootout_share": percent, "lo": percent, "hi": percent,
                              "got_share": percent, "threat_share": percent, "side_bags_paid": _two,
                              "side_bags_received": _two})
    table = activity(seats)
    report.table(table, "Mean per seat of the other counters", name="ag-activity",
                 formats={c: _two for c in table.columns if c != "strategy"})


def _two(value) -> str:
    return "" if value is None or value != value else f"{float(value):.2f}"
