"""The verdict's plain-language summary (sim.verdict.plain): at most six sentences, each
claim held to the verdict table it is generated from."""

import re

from sim.verdict import fairness
from sim.verdict.plain import MAX_SENTENCES, claims, summary
from sim.verdict.study import measure_table, verdict_table
from tests.test_verdict import RUNGS, synthetic


def table(advantage, turns, games=6000):
    frames = synthetic(advantage=advantage, turns_mean=turns, games=games)
    return verdict_table(measure_table(frames, RUNGS), RUNGS, precision=0.02,
                         targets={fairness.TURNS: (10, 12)})


def test_every_sentence_rests_on_rows_of_the_table_and_says_what_they_say():
    v = table(advantage=[0.06] * 5, turns=[14, 13.5, 13, 13, 13])
    said = claims(v)
    assert 1 <= len(said) <= MAX_SENTENCES
    unfair = v[v["measure"].str.startswith("seat ") & (v["target"] == fairness.OUTSIDE)]
    sentence, rows = said[0]
    assert sentence.startswith("Unfair seats") and set(rows.index) == set(unfair.index)
    for r in rows.itertuples():   # each unfair seat named with its own reading from the table
        assert r.target_text in sentence
    length = next(s for s, _ in said if s.startswith("Game length"))
    row = v[v["measure"] == fairness.TURNS].iloc[0]
    assert row["target"] == fairness.OUTSIDE and row["target_text"] in length and "too long" in length
    skill = next(s for s, _ in said if s.startswith("Across skill"))
    holds, total = map(int, re.search(r"(\d+) of (\d+) readings hold", skill).groups())
    assert total == len(v) and holds == int((v["verdict"] == "holds").sum())


def test_a_fair_game_says_so_and_nothing_else_about_seats():
    text = summary(table(advantage=[0.0] * 5, turns=[11] * 5, games=20000))
    assert "Unfair" not in text and "Game length is on target" in text
    assert len(re.findall(r"[.!?](?:\s|$)", text)) <= MAX_SENTENCES
