"""What to look at first: each finding rule against tables whose answer is known by construction,
the games worth watching, and the report that opens with them (anchors, menu, replay pages)."""

import json
import re

import numpy as np
import pandas as pd
import pytest

import sim
from sim.analysis import findings as F
from sim.analysis.run_report import report_run
from sim.analysis.watch import worth_watching
from sim.runner import store


def pairs_table(rows):
    return pd.DataFrame(rows, columns=["a", "b", "diff", "lo", "hi", "p_holm", "significant"])


def test_a_strategy_beating_all_others_by_the_margin_dominates():
    pairs = pairs_table([("A", "B", 0.10, 0.07, 0.13, 1e-6, True), ("A", "C", -0.08, -0.11, -0.05, 1e-5, True),
                         ("B", "C", 0.01, -0.02, 0.04, 0.5, False)])
    # C - A = +0.08 -> C beats A; A beats B: nobody beats every other strategy
    assert F.dominant_strategy(pairs) == []
    pairs = pairs_table([("A", "B", 0.10, 0.07, 0.13, 1e-6, True), ("C", "A", -0.08, -0.11, -0.05, 1e-5, True),
                         ("B", "C", 0.01, -0.02, 0.04, 0.5, False)])
    found = F.dominant_strategy(pairs)
    assert [f.title.split()[0] for f in found] == ["A"]
    assert "+8.0 pts" in found[0].evidence and found[0].section == "Strategy against strategy"


def test_a_significant_difference_below_the_margin_is_not_dominance():
    pairs = pairs_table([("A", "B", 0.04, 0.03, 0.05, 1e-9, True)])
    assert F.dominant_strategy(pairs, margin=0.05) == []
    assert len(F.dominant_strategy(pairs, margin=0.03)) == 1
    insignificant = pairs_table([("A", "B", 0.20, -0.01, 0.41, 0.06, False)])
    assert F.dominant_strategy(insignificant) == []


def test_seat_advantage_follows_the_permutation_p_value():
    test = {"gap": 0.06, "null_median": 0.01, "null_95": 0.02, "p_value": 0.001}
    assert F.seat_advantage(test)[0].section == "Is the seat gap more than noise?"
    assert F.seat_advantage({**test, "p_value": 0.2}) == []
    assert F.seat_advantage(None) == []


def seats_table(uses: dict, n=120):
    """Seats of strategies given as {name: {counter: value for every seat}}."""
    frames = []
    for name, counters in uses.items():
        frames.append(pd.DataFrame({"strategy": [name] * n, **{k: [v] * n for k, v in counters.items()}}))
    return pd.concat(frames, ignore_index=True)


def test_mechanics_never_used_by_one_strategy_or_by_any_deliberate_one():
    seats = seats_table({"tuned": {"bids_paid": 0, "henchmen_parted": 0, "deals": 1},
                         "runner": {"bids_paid": 3, "henchmen_parted": 0, "deals": 0},
                         "random": {"bids_paid": 2, "henchmen_parted": 1, "deals": 1}})
    titles = sorted(f.title for f in F.unused_mechanics(seats, "nyk"))
    assert titles == ["no strategy uses parting with a henchman",
                      "runner never uses paying for police moves",
                      "tuned never uses bidding for the first player card"]
    parted = [f for f in F.unused_mechanics(seats, "nyk") if "parting" in f.title][0]
    assert "only random ever does" in parted.evidence


def test_mechanics_are_not_judged_on_too_few_seats():
    seats = seats_table({"tuned": {"bids_paid": 0}, "runner": {"bids_paid": 3}}, n=F.MIN_SEATS - 1)
    assert F.unused_mechanics(seats, "nyk") == []


def test_game_length_against_a_target_and_the_cap():
    games = pd.DataFrame({"turns": [8] * 30 + [12] * 60 + [15] * 10, "cap_hit": [False] * 99 + [True]})
    found = F.game_length(games, (10, 14))
    assert [f.title.split(":")[0] for f in found] == ["games run too short"]   # 30% short, 10% long
    assert "30 of 100 games" in found[0].evidence
    assert F.game_length(games, None) == []                                   # 1% capped: not above 1%
    capped = games.assign(cap_hit=[False] * 95 + [True] * 5)
    assert "never end by the rules" in F.game_length(capped, None)[0].title


def test_runaway_leaders_need_the_lower_bound_above_half():
    n = 400
    turns = np.full(n, 12)
    early = np.r_[np.ones(260, int), np.full(n - 260, 10)]          # 65% led from turn 1
    games = pd.DataFrame({"turns": turns, "winner_led_from": early, "winner_deficit_mid": -1})
    assert F.runaway_leaders(games)[0].rule == "runaway leader"
    even = games.assign(winner_led_from=np.r_[np.ones(205, int), np.full(n - 205, 10)])   # 51%
    assert F.runaway_leaders(even) == []


def kingmaking_tables(flipped: int, n: int = 100):
    """n three-turn games of three seats, each exposed to kingmaking before its last turn (seat 2
    cannot catch up, seats 0 and 1 are within one turn's gain); the leader loses in `flipped`."""
    path = np.array([[0, 0, 0], [3, 2, 0], [6, 4, 0], [6, 7, 0]])
    turns = pd.DataFrame([{"game_id": g, "turn": t, "seat": s, "fortune": path[t, s]}
                          for g in range(n) for t in range(4) for s in range(3)])
    games = pd.DataFrame({"game_id": range(n), "turns": 3, "winner_seat": [1] * flipped + [0] * (n - flipped)})
    return turns, games


def test_kingmaking_is_judged_only_with_the_per_turn_table():
    turns, games = kingmaking_tables(30)
    assert F.kingmaking(games, None) == [] and any("kingmaking" in m for m in F.measured(games, None))
    assert not any("kingmaking" in m for m in F.measured(games, turns))
    assert "30%" in F.kingmaking(games, turns)[0].title
    few_turns, few_games = kingmaking_tables(12)
    assert F.kingmaking(few_games, few_turns) == []  # lower bound below 10%


def test_target_length_parsing():
    assert F.parse_target("10:14") == (10, 14)
    for bad in ("10", "14:10", "a:b", "0:3"):
        with pytest.raises(ValueError, match="target length"):
            F.parse_target(bad)


def test_worth_watching_picks_the_closest_the_longest_and_a_comeback():
    games = pd.DataFrame({"game_id": [0, 1, 2, 3, 4], "turns": [10, 14, 9, 14, 11],
                          "winner_seat": [0, 1, 2, 3, 0], "margin": [5000, 2000, 0, 9000, 1000],
                          "winner_deficit_mid": [-3000, 4000, -1, 2000, 12000]})
    picks = worth_watching(games).set_index("why")["game_id"]
    assert picks["the closest game"] == 4        # 0 is a shared first place, not won outright
    assert picks["the longest game"] == 1        # 14 turns, the lower id of the tie
    assert picks["a comeback"] == 4
    behind_never = games.assign(winner_deficit_mid=-1)
    assert "a comeback" not in set(worth_watching(behind_never)["why"])


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    root = tmp_path_factory.mktemp("findings")
    run = sim.run(players=3, strategies="simple,random,simple", games=150, seed=4, workers=1,
                  out=root / "run")
    index = report_run(run, root / "report", replays=True, target_turns=(30, 40))
    return run, index


def test_report_opens_with_findings_whose_links_land_on_sections(report):
    _, index = report
    text = index.read_text(encoding="utf-8")
    headings = [m.start() for m in re.finditer(r"<h2 ", text)]
    assert text.find('<h2 id="s-what-to-look-at-first"') == headings[0]     # the first section
    ids = set(re.findall(r'id="([^"]+)"', text))
    anchors = re.findall(r'href="#([^"]+)"', text)
    assert anchors and set(anchors) <= ids                               # every link lands
    assert '<nav class="menu">' in text and 'href="#s-who-wins"' in text
    assert "games run too short" in text                                # 3-player games last < 30 turns


def test_games_worth_watching_have_their_replay_pages(report):
    run, index = report
    text = index.read_text(encoding="utf-8")
    pages = re.findall(r'href="(replays/game-(\d+)\.html)"', text)
    assert len(pages) >= 2
    for rel, game_id in pages:
        page = (index.parent / rel).read_text(encoding="utf-8")
        data = json.loads(re.search(r'id="replay-data">(.*?)</script>', page, re.S).group(1))
        row = run.games[run.games["game_id"] == int(game_id)].iloc[0]
        assert (data["game_id"], data["turns"], data["winner"]) == (int(game_id), row["turns"], row["winner_seat"])


def test_an_american_gangsters_report_opens_the_same_way(tmp_path):
    run = sim.run(game="ag", players=3, strategies="racketeer,warlord,balanced", games=120, seed=6, workers=1,
                  out=tmp_path / "run")
    index = report_run(run, tmp_path / "report", replays=True)
    text = index.read_text(encoding="utf-8")
    assert set(re.findall(r'href="#([^"]+)"', text)) <= set(re.findall(r'id="([^"]+)"', text))
    pages = re.findall(r'href="(replays/game-\d+\.html)"', text)
    assert pages and all((index.parent / p).stat().st_size > 1000 for p in pages)
    used = pd.read_csv(index.parent / "tables" / "mechanics-used.csv").set_index("mechanic")
    seats = run.seats
    for name in used.columns:
        mine = seats[seats["strategy"].astype(str) == name]
        assert used.loc["offers_made", name] == pytest.approx((mine["offers_made"] > 0).mean())


def test_a_game_that_cannot_be_replayed_leaves_the_report_whole(tmp_path):
    sim.run(game="ag", players=3, strategies="simple", games=30, seed=1, workers=1, out=tmp_path / "run")
    manifest = tmp_path / "run" / "manifest.json"
    data = json.loads(manifest.read_text())
    data["ruleset"]["fingerprint"] = "0" * 64          # as if its content files were not the shipped ones
    store.write_manifest(manifest.parent, data)
    index = report_run(sim.load(tmp_path / "run"), tmp_path / "report", replays=True)
    text = index.read_text(encoding="utf-8")
    assert "Replay pages not written" in text and "mobsim replay" in text
    assert not (tmp_path / "report" / "replays").exists()
