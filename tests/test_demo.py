"""`mobsim demo`: the odds-study report is written, its figures are PNGs, its tables are exact."""

import re

import pandas as pd
import pytest
from click.testing import CliRunner

from sim import __version__
from sim.nyk import hands, odds
from sim.analysis import odds_study
from sim.analysis.report import Report
from sim.cli import main
from sim.rules import Ruleset

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
RS = Ruleset.load()
TABLE = hands.table(RS["hands.five_of_a_kind"])


DEMO_GAMES = 400


@pytest.fixture(scope="module")
def report_dir(tmp_path_factory):
    root = tmp_path_factory.mktemp("demo")
    out, run_dir = root / "report", root / "run"
    args = ["demo", "--out", str(out), "--run-dir", str(run_dir), "--games", str(DEMO_GAMES), "--workers", "1"]
    result = CliRunner().invoke(main, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert str(out / "index.html") in result.output
    return out


def test_demo_is_a_balance_study_then_the_odds(report_dir):
    import sim
    from sim.cli.demo import DEMO_STRATEGIES

    text = (report_dir / "index.md").read_text(encoding="utf-8")
    assert text.index("## Who wins") < text.index("## Mechanics") < text.index("Exact odds of the dice contests")
    run = sim.load(report_dir.parent / "run")  # the games stay in the run directory
    assert run.complete and len(run.games) == DEMO_GAMES and run.turns is not None
    by_strategy = pd.read_csv(report_dir / "tables" / "win-rate-by-strategy.csv")
    assert set(by_strategy["strategy"]) == set(DEMO_STRATEGIES.split(","))
    assert by_strategy["seats"].sum() == DEMO_GAMES * len(DEMO_STRATEGIES.split(","))
    assert by_strategy["wins"].sum() == run.seats["won"].sum()
    assert (report_dir / "tables" / "headline.csv").exists() and (report_dir / "tables" / "money-flows.csv").exists()


def test_demo_clears_its_run_directory_only(tmp_path):
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "thesis.txt").write_text("keep me")
    result = CliRunner().invoke(main, ["demo", "--out", str(tmp_path / "r"), "--run-dir", str(tmp_path / "mine"),
                                       "--games", "8", "--workers", "1"])
    assert result.exit_code == 2 and "not a mobsim run" in result.stderr
    assert (tmp_path / "mine" / "thesis.txt").read_text() == "keep me"


def test_report_files_and_metadata(report_dir):
    html = (report_dir / "index.html").read_text(encoding="utf-8")
    md = (report_dir / "index.md").read_text(encoding="utf-8")
    for text in (html, md):
        assert __version__ in text
        assert RS.fingerprint in text
        assert f"mobsim demo --out {report_dir}" in text and f"--games {DEMO_GAMES}" in text
    assert "<table" in html and "data:image/png;base64," in html
    assert "http://" not in html and "https://" not in html and "<script" not in html
    assert re.search(r"^\| value \| \$1,000 \|", md, re.MULTILINE)


def test_figures_are_non_empty_pngs(report_dir):
    figures = sorted((report_dir / "figures").glob("*.png"))
    names = {f.stem for f in figures}
    assert {"recruitment", "interrogation", "provocation-wins", "provocation-money",
            "provocation-outcomes"} <= names
    md = (report_dir / "index.md").read_text(encoding="utf-8")
    for figure in figures:
        data = figure.read_bytes()
        assert data.startswith(PNG_MAGIC) and len(data) > 5000
        assert f"figures/{figure.name}" in md


def test_recruitment_table_equals_exact_odds(report_dir):
    frame = pd.read_csv(report_dir / "tables" / "recruitment.csv", dtype={"value": str})
    terms = odds.RecruitTerms.from_ruleset(RS)
    assert len(frame) == 5 * len(terms.offers())
    for row in frame.itertuples():
        exact = odds.recruit_odds(hands.parse_value(row.value), row.offer, terms)
        for key in ("accept", "hesitate", "refuse", "success", "expected_cost"):
            assert getattr(row, key) == pytest.approx(float(exact[key]), rel=1e-12, abs=1e-15)
    success = pd.read_csv(report_dir / "tables" / "recruitment-success.csv", index_col=0)
    assert success.loc["Q", "$3,000"] == pytest.approx(7 / 8)


def test_interrogation_table_equals_exact_odds(report_dir):
    frame = pd.read_csv(report_dir / "tables" / "interrogation.csv")
    assert set(frame["crew"]) == set(odds_study.INTERROGATION_CREWS)
    assert sorted(set(frame["police"])) == [1, 2, 3, 4]
    for row in frame.itertuples():
        crew = hands.parse_values(row.crew)
        plain = odds.interrogation_odds(crew, row.police, hands.parse_value("J"), TABLE)
        assert row.escape == pytest.approx(float(plain["escape"]), rel=1e-12)
        if "A" in row.crew.split(","):
            res = odds.interrogation_odds(crew, row.police, hands.parse_value("J"), TABLE, True)
            assert row.resist_won == pytest.approx(float(res["resist_won"]), rel=1e-12)
            assert row.resist_lost == pytest.approx(float(res["resist_lost"]), rel=1e-12)
            assert row.free_if_resisting == pytest.approx(
                float(res["escape"] + res["resist_won"]), rel=1e-12)
        else:
            assert pd.isna(row.resist_won) and pd.isna(row.free_if_resisting)


@pytest.mark.parametrize("name, folds", [("provocation-folds", True),
                                         ("provocation-no-folds", False)])
def test_provocation_tables_equal_the_solved_game(report_dir, name, folds):
    frame = pd.read_csv(report_dir / "tables" / f"{name}.csv")
    n = len(odds_study.PROVOCATION_CREWS)
    assert len(frame) == n * n
    stakes = odds.Stakes.from_ruleset(RS)
    for row in frame.sample(8, random_state=1).itertuples():
        provoker, provoked = hands.parse_values(row.provoker), hands.parse_values(row.provoked)
        exact = odds.solve_provocation(provoker, provoked, stakes, TABLE,
                                       odds_study.CHARACTER_VALUE, folds=folds).summary()
        for key in odds_study.PROVOCATION_RATES + odds_study.PROVOCATION_MONEY:
            assert getattr(row, key) == pytest.approx(exact[key], rel=1e-12, abs=1e-12), key
        if not folds:
            fight = odds.fight_odds(provoker, provoked, TABLE)
            assert row.provoker_wins == pytest.approx(float(fight["provoker_wins"]), rel=1e-12)
            assert row.tie == pytest.approx(float(fight["tie"]), rel=1e-12)
            assert row.provoker_folds == 0 and row.provoked_folds == 0
    rates = frame[list(("provoker_wins", "tie", "provoked_wins"))].sum(axis=1)
    assert rates.to_numpy() == pytest.approx(1.0)


def test_html_tables_show_the_same_numbers(report_dir):
    html = (report_dir / "index.html").read_text(encoding="utf-8")
    section = html[html.index('id="table-recruitment-success"'):]
    section = section[:section.index("</table>")]
    q_row = re.search(r"<tr><td>Q</td>(.*?)</tr>", section).group(1)
    cells = re.findall(r"<td>([^<]*)</td>", q_row)
    assert cells[:3] == ["50.0%", "75.0%", "87.5%"]


def test_report_writer_escapes_and_writes_markdown(tmp_path):
    report = Report("T <1>", {"command": "x | y"})
    report.heading("Part")
    report.text("a & b")
    report.table(pd.DataFrame({"a|b": [1.5, None], "c": ["<x>", "y"]}), "Tab", formats={})
    index = report.write(tmp_path)
    html = index.read_text()
    assert "T &lt;1&gt;" in html and "a &amp; b" in html and "&lt;x&gt;" in html
    md = (tmp_path / "index.md").read_text()
    assert "| a\\|b | c |" in md and "| 1.5 | <x> |" in md
    assert (tmp_path / "tables" / "tab.csv").exists()


def test_demo_opens_with_the_verdict_then_the_advice_and_links_the_lineup_study(report_dir):
    import json

    from sim.cli.demo import DEMO_VERDICT_GAMES, _verdict_games

    md = (report_dir / "index.md").read_text(encoding="utf-8")
    headings = re.findall(r"^## (.+)$", md, re.MULTILINE)
    assert headings[0].startswith("Verdict") and headings[1].startswith("Which change would fix it")
    assert headings[2].startswith("The lineup study")
    first = md[:md.index("## " + headings[2])]
    assert "figures/verdict.png" in first and "| measure |" in first and "fixed plan" in first
    assert "(#s-the-lineup-study" in first and "advise/index.html" in first
    verdict = pd.read_csv(report_dir / "verdict" / "verdict.csv")
    assert {"seat 1 advantage", "game length (turns)"} <= set(verdict["measure"])
    # games, not seconds: every heuristic cell plays the plan's fixed count, the search none
    plan = pd.read_csv(report_dir / "verdict" / "plan.csv")
    cells = plan[plan["rung"].isin(["random", "simple", "balanced", "tuned", "meta:equilibrium", "distilled"])]
    count = _verdict_games(None, DEMO_GAMES)
    assert len(cells) == 12 and (cells["games"] == count).all() and count < DEMO_VERDICT_GAMES
    assert (plan.loc[plan["rung"].str.startswith("search"), "games"] == 0).all()
    advice = json.loads((report_dir / "advise" / "advice.json").read_text())
    assert advice["meta"]["rungs"] == ["tuned"] and all("proposals" in p for p in advice["problems"])


@pytest.mark.parametrize("width", [1400, 800])
def test_the_demo_page_fits_its_window_and_opens_with_its_summary(report_dir, width):
    """The browser's reading of tests/test_browser.py on this file's demo: one demo built for both."""
    from sim.replay.browser import find_chromium

    if find_chromium() is None:
        pytest.skip("no Chromium on this machine: browser tests skipped (Debian: apt-get install chromium)")
    from tests.test_browser import check_fits

    check_fits(report_dir / "index.html", "demo", width)
