"""`mobsim sensitivity --rulings` (sim.tuning.rulings): every ruling at each of its other values,
on common random numbers, ranked; its files; its bad input."""

import json

import pandas as pd
import pytest
from click.testing import CliRunner

from sim.cli import main
from sim.rules.ruleset import options
from sim.tuning import TuningError
from sim.tuning.rulings import other_values, ruling_keys, rulings_study

# keep the study small: every ruling but two fixed at its default by --set-like overrides
KEPT = ("police.requestion", "provocation.action")


def fixed_but(kept, game="nyk"):
    spec = options(game)
    return {k: spec[k].default for k in ruling_keys(game) if k not in kept}


def test_every_ruling_with_another_value_is_studied_and_labelled():
    keys = ruling_keys("nyk")
    for key in ("provocation.action", "police.questioned", "police.requestion", "subway.card_steps",
                "recruit.from_custody", "police.return_at", "resources.reshuffle"):
        assert key in keys and options("nyk")[key].ruling, key
    assert "provocation.stake" not in keys  # a number, for the numeric sensitivity
    assert other_values(options("nyk")["custody.card_steps"], "cell") == ["all", "one"]
    assert other_values(options("nyk")["recruit.from_custody"], True) == [False]


@pytest.fixture(scope="module")
def study(tmp_path_factory):
    out = tmp_path_factory.mktemp("rulings")
    table = rulings_study(players=3, strategies="simple,balanced,random", games=60, seed=3, workers=1,
                          overrides=fixed_but(KEPT), out=out)
    return table, out


def test_the_study_pairs_each_other_value_with_the_current_rules(study):
    table, _ = study
    assert set(table["param"]) == set(KEPT)
    played = table.drop_duplicates(["param", "value"])
    assert sorted(zip(played.param, played.value, strict=True)) == [("police.requestion", "once"),
                                                                   ("provocation.action", "all")]
    assert (table["direction"] == "=" + table["value"].astype(str)).all()
    assert table["paired"].all()
    # a provocation spending the whole crew's action changes games beyond noise in 60 of them
    moved = table[(table.param == "provocation.action") & (table.metric == "turns")]
    assert moved["lo"].iloc[0] != 0 or moved["hi"].iloc[0] != 0


def test_the_study_writes_its_table_figures_and_page(study):
    table, out = study
    back = pd.read_parquet(out / "rulings.parquet")
    assert len(back) == len(table)
    page = (out / "index.html").read_text(encoding="utf-8")
    assert "Which rulings matter most" in page and "rulings-" in page


def test_a_ruling_fixed_by_the_caller_is_not_varied():
    with pytest.raises(TuningError, match="no ruling left"):
        rulings_study(players=2, strategies="simple", games=5, overrides=fixed_but(()), workers=1)


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_cli_rulings_prints_the_ranking_and_refuses_mixed_modes(tmp_path):
    sets = [x for k, v in fixed_but(("police.requestion",)).items()
            for x in ("--set", f"{k}={json.dumps(v) if isinstance(v, bool) else v}")]
    result = run("sensitivity", "--rulings", "--players", "2", "--strategies", "simple", "--games", "20",
                 "--workers", "1", *sets, "--out", str(tmp_path / "r"))
    assert result.exit_code == 0, result.output
    assert "police.requestion" in result.output and (tmp_path / "r" / "rulings.parquet").is_file()
    bad = run("sensitivity", "--rulings", "--assumed", "--games", "5")
    assert bad.exit_code == 2 and "drop --assumed" in bad.output
    bad = run("sensitivity", "--rulings", "--set", "nosuch.key=1", "--games", "5")
    assert bad.exit_code == 2 and "nosuch.key" in bad.output
