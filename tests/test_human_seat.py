"""The human seat (sim.shared.forward.play_human, `mobsim play --human`): a person plays one seat from
scripted input to the end of the game, sees that seat's view only, and a bad entry is re-asked
with the reason."""

import itertools
import re

import pytest
from click.testing import CliRunner

from sim.ag import state
from sim.cli import main
from sim.shared.forward import Decision, play_human, read_choice


def _decision(n):
    import numpy as np

    return Decision(0, "trade", np.zeros((n, 5), np.int64), tuple(f"o{i}" for i in range(n)),
                    np.zeros(16, np.int64))


def test_bad_entries_are_asked_again_with_the_reason():
    answers = iter(["", "two", "-1", "3", " 2 "])
    said = []
    assert read_choice(_decision(3), ask=lambda _: next(answers), say=said.append) == 2
    assert said == ["'' is not a number: type the number of an option, 0 to 2.",
                    "'two' is not a number: type the number of an option, 0 to 2.",
                    "-1 is not an option: type a number from 0 to 2.",
                    "3 is not an option: type a number from 0 to 2."]


def _ag(seat):
    from sim.ag.forward import Forward

    return Forward.new(strategies=["balanced", "racketeer", "warlord", "politician"], seed=4,
                       game_id=1, stop=(seat,), record=True)


def test_ag_human_plays_to_the_end_seeing_its_own_view():
    """Always the last option (a bad entry first): the game ends, every prompt is the human's,
    the view names the seat's own profile only."""
    fw = _ag(2)
    prompts, said = [], []
    bad = itertools.chain(["x"], itertools.repeat(None))

    def ask(prompt):
        prompts.append(prompt)
        first = next(bad)
        if first is not None:
            return first
        return prompt.split("-")[1].split(")")[0]   # the highest option number

    result = play_human(fw, 2, ask=ask, say=said.append)
    assert fw.over and result == fw.result()
    assert len(prompts) >= 10
    text = "\n".join(said)
    assert "'x' is not a number" in text
    assert "Your decision (place)" in text and "Game over" in text
    mine = "the INFORMER" if fw.game.g[state.INFORMER] == 2 else "a mafia family"
    assert re.search(rf"You are seat 3 \(\S+\), {mine}\.", text)   # index 2: seat 3 as a person counts
    assert text.count("the INFORMER") == text.count(", the INFORMER.")   # no one else's profile
    assert said[-1].startswith(("You won", "Seat "))


def test_cli_human_seat_ag():
    runner = CliRunner()
    answers = "\n".join(["9999", "zero"] + ["0"] * 2000) + "\n"
    out = runner.invoke(main, ["play", "--game", "ag", "--human", "1", "--seed", "3",
                               "--strategies", "balanced,warlord,racketeer,politician"], input=answers)
    assert out.exit_code == 0, out.output
    assert "9999 is not an option" in out.output and "'zero' is not a number" in out.output
    assert "Your decision" in out.output and "won" in out.output


@pytest.mark.parametrize("args,message", [
    (["--human", "5"], "seat 5 is not at a table of 4: seats are numbered 1 to 4"),
    (["--human", "0"], "seat 0 is not at a table of 4: seats are numbered 1 to 4"),
    (["--human", "0", "--json"], "leave out --json"),
])
def test_cli_human_seat_bad_options(args, message):
    out = CliRunner().invoke(main, ["play", "--game", "ag", *args])
    assert out.exit_code == 2 and message in out.output


def test_cli_input_ending_early_is_an_error():
    out = CliRunner().invoke(main, ["play", "--game", "ag", "--human", "1"], input="0\n0\n")
    assert out.exit_code == 2 and "the input ended before the game did" in out.output   # bad input (docs/cli.md)


def test_nyk_human_plays_to_the_end_seeing_its_own_view():
    """New York Kings: the seat's hand and money, never a rival's hand or a destination drawn
    in secret by another seat (NYK-A1); the end card's place stays hidden."""
    from sim.nyk.forward import Forward

    fw = Forward.new(None, ["balanced", "runner", "enforcer", "networker"], seed=3, stop=(1,),
                     record=True)
    answers = itertools.chain(["?", "99"], itertools.repeat("0"))
    said = []
    result = play_human(fw, 1, ask=lambda _: next(answers), say=said.append)
    text = "\n".join(said)
    assert fw.over and result["winner"] in range(4)
    assert "'?' is not a number" in text and "99 is not an option" in text
    assert "You are seat 2 (runner)" in text and "hand:" in text and "Your decision" in text   # index 1
    assert "the end card is card" not in text
    for line in said:
        if "accepts '" in line and "drawn secretly" in line and not line.lstrip().startswith("seat 2"):
            assert line.endswith("destination drawn secretly.")


def test_cli_human_seat_nyk():
    out = CliRunner().invoke(main, ["play", "--human", "2", "--seed", "5", "--strategies",
                                    "balanced,runner,enforcer,networker"], input="x\n" + "0\n" * 3000)
    assert out.exit_code == 0, out.output
    assert "'x' is not a number" in out.output and "Your decision" in out.output


def test_cli_human_seat_counts_from_one():
    """`--human 1` is the first seat (the one narration and pages call seat 1), not the second."""
    out = CliRunner().invoke(main, ["play", "--human", "1", "--seed", "5", "--players", "2", "--strategies",
                                    "balanced,runner"], input="0\n" * 3000)
    assert out.exit_code == 0, out.output
    assert "You are seat 1 (balanced)" in out.output and "seat 0" not in out.output
    assert "counted from 1" in CliRunner().invoke(main, ["play", "--help"]).output
