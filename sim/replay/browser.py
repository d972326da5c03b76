"""Headless Chromium for pages mobsim writes: the DOM a browser builds, its console, screenshots.

    find_chromium()                      -> path of chromium / chromium-browser / google-chrome, or None
    load(path_or_url) -> Loaded          -> .dom (after the page's scripts ran) and .console lines
    screenshot(path_or_url, png, size)   -> writes a PNG of the page as a browser shows it
    layout(page, width)                  -> how a report page lays out at that width: its scroll
                                            width against the window's, the summary's and the
                                            side menu's top (docs/reports.md, "Reading a page")

`python -m sim.replay.browser shots docs/images` writes the pictures of docs/play-and-replay.md
(a replay of each game and a balance report of each game).
"""

import json
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
         "--no-first-run", "--hide-scrollbars", "--enable-logging=stderr", "--v=0")


class BrowserError(RuntimeError):
    pass


@dataclass
class Loaded:
    dom: str
    console: list[str]   # the page's console messages and uncaught errors, one per line


def find_chromium() -> str | None:
    for name in NAMES:
        path = shutil.which(name)
        if path:
            return path
    return None


def _url(target) -> str:
    text = str(target)
    if "://" in text:
        return text
    path, _, fragment = text.partition("#")
    return Path(path).resolve().as_uri() + (f"#{fragment}" if fragment else "")


def _run(args, timeout) -> subprocess.CompletedProcess:
    exe = find_chromium()
    if exe is None:
        raise BrowserError("no Chromium found: install it (Debian: apt-get install chromium)")
    with tempfile.TemporaryDirectory(prefix="mobsim-chromium-") as profile:
        return subprocess.run([exe, *FLAGS, f"--user-data-dir={profile}", *args],
                              capture_output=True, text=True, timeout=timeout)


def console_lines(stderr: str) -> list[str]:
    """Chromium's log lines that carry the page's console (messages, uncaught errors)."""
    return [line for line in stderr.splitlines() if ":CONSOLE" in line]


def load(target, timeout: float = 120, size: tuple[int, int] | None = None) -> Loaded:
    """Open a page (in a window of `size`, width and height, when given), let its scripts run,
    and return the DOM they built and the console."""
    window = [f"--window-size={size[0]},{size[1]}"] if size else []
    done = _run(["--virtual-time-budget=5000", *window, "--dump-dom", _url(target)], timeout)
    if done.returncode != 0 and not done.stdout:
        raise BrowserError(f"chromium failed on {target}: {done.stderr.strip().splitlines()[-1:]}")
    return Loaded(done.stdout, console_lines(done.stderr))


def screenshot(target, png, size=(1400, 1000), timeout: float = 120) -> Loaded:
    """Write a PNG of the page at `size` (width, height); returns the console seen meanwhile."""
    png = Path(png)
    png.parent.mkdir(parents=True, exist_ok=True)
    done = _run(["--virtual-time-budget=5000", f"--window-size={size[0]},{size[1]}",
                 f"--screenshot={png.resolve()}", _url(target)], timeout)
    if not png.is_file():
        raise BrowserError(f"chromium wrote no screenshot of {target}")
    return Loaded("", console_lines(done.stderr))


# read once the page has laid out: written into an attribute of <html> for --dump-dom to carry out
_LAYOUT = """<script>addEventListener("load", () => {
  const top = (q) => { const el = document.querySelector(q); return el ? el.getBoundingClientRect().top : null; };
  const root = document.scrollingElement;
  document.documentElement.setAttribute("data-layout", JSON.stringify({
    scroll_width: root.scrollWidth, client_width: root.clientWidth, window_height: innerHeight,
    summary_top: top("p.summary"), menu_top: top("nav.menu")}));
});</script>"""


def layout(page, width: int, height: int = 900, timeout: float = 120) -> dict:
    """How a report page (sim.analysis.report) lays out in a window `width` px wide: scroll_width
    and client_width of the page (equal when nothing scrolls sideways), the window's height, and
    the tops of its summary (`p.summary`) and side menu (None when it has none). Measured on a
    copy beside the page (its relative links kept) with a script added."""
    page = Path(page)
    probe = page.with_name(f".{page.stem}.layout.html")
    probe.write_text(page.read_text(encoding="utf-8").replace("</body>", _LAYOUT + "</body>", 1), encoding="utf-8")
    try:
        dom = load(probe, timeout, size=(width, height)).dom
    finally:
        probe.unlink(missing_ok=True)
    found = re.search(r'<html[^>]*data-layout="([^"]*)"', dom)
    if found is None:
        raise BrowserError(f"chromium did not lay out {page}")
    return json.loads(found.group(1).replace("&quot;", '"'))


def _shots(out_dir):
    """The pictures of docs/play-and-replay.md: a replay of each game, and a report of each game
    (played into runs/readme-shots/)."""
    import sim
    from sim.analysis.run_report import report_run
    from sim.replay import GameSpec, write_replay
    from sim.rules import Ruleset
    from sim.shared.game import every

    out = Path(out_dir)
    work = Path("runs") / "readme-shots"
    for game in every():   # each game's showcase lineup
        spec = GameSpec(game.name, 7, 0, 4, game.showcase)
        write_replay(spec, Ruleset.load(game=game.name), work / f"{game.name}.html")
        screenshot(f"{work / f'{game.name}.html'}#step=200", out / f"replay-{game.name}.png", (1400, 960))
        run = sim.run(game=game.name, players=4, strategies=game.showcase, games=1000, seed=1,
                      out=work / f"run-{game.name}", force=True)
        report_run(run, work / f"report-{game.name}", replays=True)
        screenshot(work / f"report-{game.name}" / "index.html", out / f"report-{game.name}.png", (1400, 1300))
    return out


if __name__ == "__main__":
    import sys

    if len(sys.argv) != 3 or sys.argv[1] != "shots":
        sys.exit("usage: python -m sim.replay.browser shots OUT_DIR")
    print(_shots(sys.argv[2]))
