"""The replay page: one HTML file, its steps as inline JSON, its board drawn by a small inline script.

The page works offline (no server, no network): `file://.../replay.html#step=N` opens it at step
N, the slider and the buttons walk the game event by event, decision by decision or turn by turn
(each step: the state after one event of the engine's log, with its narration line), and the
side panel lists the fights and police interrogations (NYK) or the location rolls and
shoot-outs (AG) with their dice. Every drawn piece carries its data as attributes (`data-char`,
`data-district`, `data-money`...), so a test reads the board a browser shows.
"""

import html
import json
from pathlib import Path

ASSETS = Path(__file__).parent / "assets"

SEAT_COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e")

SHELL = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>%(title)s</title>
<style>%(style)s</style>
</head>
<body data-step="0">
<header><h1>%(title)s</h1><div class="sub">%(subtitle)s</div></header>
<div id="controls">
<button id="first" title="first step">|&#x25C0;</button>
<button id="prev-turn" title="previous turn">&#x25C0; turn</button>
<button id="prev-decision" title="previous decision">&#x25C0; decision</button>
<button id="prev" title="previous step (left arrow)">&#x25C0;</button>
<input id="slider" type="range" min="0" max="0" value="0" aria-label="step">
<button id="next" title="next step (right arrow)">&#x25B6;</button>
<button id="next-decision" title="next decision">decision &#x25B6;</button>
<button id="next-turn" title="next turn">turn &#x25B6;</button>
<button id="last" title="last step">&#x25B6;|</button>
<button id="play">&#x25B6; play</button>
<span id="where"></span>
</div>
<div id="narration"></div>
<main>
<svg id="board" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="board"></svg>
<div id="info"></div>
<div id="panel"><h2>%(panel_title)s</h2><div id="panel-list"></div></div>
</main>
<pre id="errors"></pre>
<script type="application/json" id="replay-data">%(data)s</script>
<script>%(common)s</script>
<script>%(render)s</script>
</body>
</html>
"""


def script_json(data) -> str:
    """JSON that is safe inside a <script> element (no closing tag, no HTML comment)."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return text.replace("</", "<\\/").replace("<!--", "<\\!--")


def deltas(snapshots: list[dict]) -> list[dict]:
    """Each state as the keys that changed since the previous one (the first one whole)."""
    out, previous = [], {}
    for snap in snapshots:
        out.append({k: v for k, v in snap.items() if previous.get(k) != v})
        previous = snap
    return out


def asset(name: str) -> str:
    """A file of assets/: the page's style sheet and scripts, inlined into every page."""
    return (ASSETS / name).read_text(encoding="utf-8")


def page(title: str, subtitle: str, panel_title: str, data: dict, game: str) -> str:
    """The whole page; `game`'s script (assets/<game>.js) draws its board and panels."""
    data = dict(data, colours=list(SEAT_COLOURS))
    return SHELL % {"title": html.escape(title), "subtitle": html.escape(subtitle),
                    "panel_title": html.escape(panel_title), "style": asset("replay.css"),
                    "data": script_json(data), "common": asset("replay.js"),
                    "render": asset(f"{game}.js")}
