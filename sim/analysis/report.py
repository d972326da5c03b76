"""A small writer of report directories: `index.md` and `index.html`, readable offline.

    report = Report("Odds study", {"mobsim version": "0.1.0", "command": "mobsim demo"})
    report.heading("Recruitment")
    report.text("One die per $1,000 offered ...")
    report.table(frame, "Success probability", formats={"success": percent})
    report.figure(fig, "recruitment", "Success by value and offer")
    index_html = report.write("reports/demo")

The directory gets `index.md` (GitHub-style markdown, figures linked), `index.html` (one file
with the figures embedded as data URIs and the tables as HTML tables, no scripts, no network), the
figures as `figures/<name>.png` and every table at full precision as `tables/<name>.csv`. Only the
standard library, pandas (for the CSVs) and matplotlib (for the figures) are used.
"""

import base64
import html
import io
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd


def percent(value) -> str:
    return "" if _missing(value) else f"{100 * float(value):.1f}%"


def dollars(value) -> str:
    if _missing(value):
        return ""
    amount = float(value)
    return f"-${-amount:,.0f}" if amount < 0 else f"${amount:,.0f}"


def count(value) -> str:
    return "" if _missing(value) else f"{float(value):,.0f}"


def number(value) -> str:
    """Whole numbers with thousands separators, others to 3 significant digits."""
    if _missing(value):
        return ""
    x = float(value)
    if x.is_integer() or abs(x) >= 100:
        return f"{x:,.0f}"
    return f"{x:.3g}"


def signed_dollars(value) -> str:
    return "" if _missing(value) else f"{float(value):+,.0f}"


def _missing(value) -> bool:
    return value is None or (isinstance(value, float) and value != value)


def _plain(value) -> str:
    if _missing(value):
        return ""
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value)


@dataclass
class _Table:
    name: str
    caption: str
    frame: pd.DataFrame
    formats: Mapping[str, Callable]
    shown: pd.DataFrame | None = None

    def cells(self) -> tuple[list[str], list[list[str]]]:
        frame = self.frame if self.shown is None else self.shown
        index_names = [n for n in frame.index.names if n is not None]
        if index_names:
            frame = frame.reset_index()
        header = [str(c) for c in frame.columns]
        rows = [[self.formats.get(col, _plain)(v)
                 for col, v in zip(frame.columns, row, strict=True)]
                for row in frame.itertuples(index=False, name=None)]
        return header, rows


@dataclass
class _Figure:
    name: str
    caption: str
    png: bytes


@dataclass
class Report:
    """Blocks (headings, paragraphs, tables, figures) in order, written by `write`."""

    title: str
    meta: Mapping[str, str] = field(default_factory=dict)
    blocks: list = field(default_factory=list)

    def heading(self, text: str, level: int = 2) -> str:
        """A heading; returns its anchor (`index.html#anchor`), which the side menu links."""
        self.blocks.append(("heading", level, text))
        return self.anchor(text)

    def anchor(self, text: str) -> str:
        """The anchor of the first heading titled `text` (or the one it will have)."""
        return "s-" + _slug(text)

    def links(self, items):
        """A list of (text, href) items: href an anchor (`#s-...`), a file next to the page, or
        None for plain text."""
        self.blocks.append(("links", [(str(t), h) for t, h in items]))

    def text(self, paragraph: str):
        self.blocks.append(("text", paragraph))

    def summary(self, paragraph: str):
        """The page's answer in plain words: the page opens with it, the run's details (the meta
        table) below it, and at a narrow width it comes before the side menu."""
        self.blocks.append(("summary", paragraph))

    def _meta_at(self) -> int:
        """Where the meta table goes: after the first summary, else before every block."""
        return next((i + 1 for i, (kind, *_) in enumerate(self.blocks) if kind == "summary"), 0)

    def table(self, frame: pd.DataFrame, caption: str, name: str | None = None,
              formats: Mapping[str, Callable] | None = None, shown: pd.DataFrame | None = None):
        """A table: `frame` goes to tables/<name>.csv at full precision; the page shows `shown`
        when given (e.g. numbers already written with their units), else `frame` with `formats`."""
        name = _slug(name or caption)
        self.blocks.append(("table", _Table(name, caption, frame, dict(formats or {}), shown)))

    def figure(self, fig, name: str, caption: str, dpi: int = 110):
        """A matplotlib figure (closed after rendering) or PNG bytes."""
        if isinstance(fig, bytes):
            png = fig
        else:
            import matplotlib.pyplot as plt

            buffer = io.BytesIO()
            fig.savefig(buffer, format="png", dpi=dpi, bbox_inches="tight")
            plt.close(fig)
            png = buffer.getvalue()
        self.blocks.append(("figure", _Figure(_slug(name), caption, png)))

    # --- output ---------------------------------------------------------------------------------

    def write(self, out_dir) -> Path:
        """Write the directory; returns the path of index.html."""
        out = Path(out_dir)
        (out / "figures").mkdir(parents=True, exist_ok=True)
        (out / "tables").mkdir(parents=True, exist_ok=True)
        for kind, *rest in self.blocks:
            if kind == "figure":
                (out / "figures" / f"{rest[0].name}.png").write_bytes(rest[0].png)
            elif kind == "table":
                table = rest[0]
                keep_index = any(n is not None for n in table.frame.index.names)
                table.frame.to_csv(out / "tables" / f"{table.name}.csv", index=keep_index)
        (out / "index.md").write_text(self.markdown(), encoding="utf-8")
        index_html = out / "index.html"
        index_html.write_text(self.html(), encoding="utf-8")
        return index_html

    def markdown(self) -> str:
        lines = [f"# {self.title}"]
        meta = ["", *(f"- **{key}**: `{value}`" for key, value in self.meta.items())]
        for i, (kind, *rest) in enumerate(self.blocks):
            if i == self._meta_at():
                lines += meta
            lines.append("")
            if kind == "heading":
                lines.append(f"{'#' * rest[0]} {rest[1]}")
            elif kind in ("text", "summary"):
                lines.append(rest[0])
            elif kind == "links":
                lines += [f"- {t}" + (f" ([see]({h}))" if h else "") for t, h in rest[0]]
            elif kind == "figure":
                fig = rest[0]
                lines.append(f"![{fig.caption}](figures/{fig.name}.png)")
                lines += ["", f"*{fig.caption}*"]
            elif kind == "table":
                table = rest[0]
                header, rows = table.cells()
                lines += [f"**{table.caption}** ([csv](tables/{table.name}.csv))", ""]
                lines.append("| " + " | ".join(_md_cell(h) for h in header) + " |")
                lines.append("|" + "|".join("---" for _ in header) + "|")
                lines += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in rows]
        if self._meta_at() >= len(self.blocks):
            lines += meta
        return "\n".join(lines) + "\n"

    def html(self) -> str:
        e = html.escape
        parts = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
                 f"<title>{e(self.title)}</title>", f"<style>{_CSS}</style>", "</head>", "<body>",
                 _menu(self.blocks), '<div class="page">', f"<h1>{e(self.title)}</h1>"]
        meta = []
        if self.meta:
            meta.append('<table class="meta">')
            meta += [f"<tr><th>{e(str(k))}</th><td><code>{e(str(v))}</code></td></tr>"
                     for k, v in self.meta.items()]
            meta.append("</table>")
        for i, (kind, *rest) in enumerate(self.blocks):
            if i == self._meta_at():
                parts += meta
            if kind == "heading":
                level = min(max(rest[0], 1), 6)
                parts.append(f'<h{level} id="{self.anchor(rest[1])}">{e(rest[1])}</h{level}>')
            elif kind == "text":
                parts.append(f"<p>{e(rest[0])}</p>")
            elif kind == "summary":
                parts.append(f'<p class="summary">{e(rest[0])}</p>')
            elif kind == "links":
                parts.append('<ul class="links">' + "".join(
                    f'<li>{e(t)}' + (f' <a href="{e(h)}">see</a>' if h else "") + "</li>"
                    for t, h in rest[0]) + "</ul>")
            elif kind == "figure":
                fig = rest[0]
                data = base64.b64encode(fig.png).decode("ascii")
                parts.append(f'<figure id="fig-{fig.name}"><img alt="{e(fig.caption)}" '
                             f'src="data:image/png;base64,{data}"><figcaption>{e(fig.caption)}'
                             "</figcaption></figure>")
            elif kind == "table":
                table = rest[0]
                header, rows = table.cells()
                parts.append(f'<table class="data" id="table-{table.name}">')
                parts.append(f"<caption>{e(table.caption)} "
                             f'(<a href="tables/{table.name}.csv">csv</a>)</caption>')
                parts.append("<thead><tr>" + "".join(f"<th>{e(h)}</th>" for h in header)
                             + "</tr></thead>")
                parts.append("<tbody>")
                parts += ["<tr>" + "".join(f"<td>{e(c)}</td>" for c in row) + "</tr>"
                          for row in rows]
                parts.append("</tbody></table>")
        if self._meta_at() >= len(self.blocks):   # a page of no blocks, or ending on its summary
            parts += meta
        parts += ["</div>", "</body>", "</html>"]
        return "\n".join(parts) + "\n"


def _menu(blocks) -> str:
    """The side menu: a link to every section (level 2) and subsection (level 3) heading."""
    items = []
    for kind, *rest in blocks:
        if kind == "heading" and rest[0] in (2, 3):
            level, text = rest
            items.append(f'<li class="l{level}"><a href="#s-{_slug(text)}">{html.escape(text)}</a></li>')
    return '<nav class="menu"><ul>' + "".join(items) + "</ul></nav>" if items else ""


def _md_cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "item"


_CSS = """
body { font-family: system-ui, sans-serif; max-width: 70em; margin: 2em auto; padding: 0 1em;
       color: #222; line-height: 1.45; }
table { border-collapse: collapse; margin: 1em 0; }
table.data, table.meta { display: block; max-width: 100%; overflow-x: auto; }  /* a wide table scrolls, not the page */
p, li, figcaption, caption, code { overflow-wrap: break-word; }
p.summary { font-size: 1.1em; }
.page { min-width: 0; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.6em; text-align: right; }
th { background: #f2f2f2; }
table.meta th, table.meta td { text-align: left; }
caption { caption-side: top; text-align: left; font-weight: bold; padding-bottom: 0.3em; }
figure { margin: 1.5em 0; }
figure img { max-width: 100%; }
figcaption { font-style: italic; color: #555; }
code { font-size: 0.95em; }
nav.menu { position: fixed; top: 0; left: 0; bottom: 0; width: 15em; overflow-y: auto; padding: 1em 0.8em;
           background: #f6f6f3; border-right: 1px solid #ddd; font-size: 0.85em; line-height: 1.3; }
nav.menu ul { list-style: none; margin: 0; padding: 0; }
nav.menu li { margin: 0.25em 0; }
nav.menu li.l3 { padding-left: 1em; font-size: 0.95em; }
nav.menu a { color: #234; text-decoration: none; }
nav.menu a:hover { text-decoration: underline; }
@media (min-width: 70em) { body { padding-left: 16em; } }
@media (max-width: 70em) {  /* narrow: the page first, its menu after it */
  body { display: flex; flex-direction: column; }
  nav.menu { position: static; width: auto; border: none; order: 1; margin-top: 2em; } }
ul.links li { margin: 0.3em 0; }
""".strip()
