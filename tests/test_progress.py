"""The progress bar of the long commands (sim.cli.progress): drawn on a terminal's stderr, never
on a pipe or with --json."""

import io
import sys

from sim.cli.progress import Steps, enabled
from sim.cli.tune import _progress


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_a_bar_is_drawn_on_a_terminal_and_closed_at_the_last_step(monkeypatch):
    screen = Terminal()
    monkeypatch.setattr(sys, "stderr", screen)
    steps = Steps("points", "point")
    for i in range(4):
        steps(i, 3, f"step {i}")
    assert steps.bar is None                      # closed: step 3 of 3 is the end
    assert "points" in screen.getvalue() and "2/3" in screen.getvalue() and "step 2" in screen.getvalue()
    on_point = _progress(as_json=False)
    on_point(0, 2, {"provocation.stake": 3000})
    assert "provocation.stake=3000" in screen.getvalue()


def test_no_bar_on_a_pipe_or_with_json(monkeypatch):
    pipe = io.StringIO()
    monkeypatch.setattr(sys, "stderr", pipe)
    assert not enabled()
    Steps("points")(0, 3, "x")
    monkeypatch.setattr(sys, "stderr", Terminal())
    assert not enabled(as_json=True)
    quiet = Steps("points", as_json=True)
    quiet(0, 3, "x")
    assert quiet.bar is None and pipe.getvalue() == ""
