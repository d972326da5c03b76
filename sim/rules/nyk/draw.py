"""The board as a picture a designer checks at a glance (NYK-C1): bands, specials, rivers, links."""

from pathlib import Path

BAND_COLOURS = {"white": "#f7f7f2", "grey": "#b9b9b9", "black": "#3a3a3a", None: "#e8dcc0"}
TEXT_COLOURS = {"white": "#222222", "grey": "#111111", "black": "#ffffff", None: "#222222"}
SPECIAL_MARKS = {"police": ("#1f4fbf", "POLICE"), "subway": ("#2e8b57", "SUBWAY"),
                 "heliport": ("#d2691e", "HELIPORT")}


def draw_board(ruleset, path) -> Path:
    """Draw `ruleset.board` to `path` (PNG, or any format matplotlib knows by the suffix)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch, Polygon

    board = ruleset.board
    xs = [d.x for d in board.districts]
    ys = [d.y for d in board.districts]
    span_x, span_y = max(xs) - min(xs) + 4, max(ys) - min(ys) + 4
    scale = 12 / max(span_x, span_y)
    fig, ax = plt.subplots(figsize=(span_x * scale + 1, span_y * scale + 1), dpi=110)
    ax.set_facecolor("#dcecf7")

    for name, points in board.parks:
        ax.add_patch(Polygon(points, closed=True, facecolor="#9fd19a", edgecolor="#5a9a55",
                             zorder=1))
        cx = sum(p[0] for p in points) / len(points)
        cy = sum(p[1] for p in points) / len(points)
        ax.text(cx, cy, name, ha="center", va="center", rotation=90, fontsize=9,
                color="#2f5e2b", style="italic", zorder=2)
    for name, points in board.rivers:
        ax.plot([p[0] for p in points], [p[1] for p in points], color="#3b8fd6", linewidth=7,
                alpha=0.6, solid_capstyle="round", zorder=1)
        mx, my = points[len(points) // 2]
        ax.text(mx, my, name, ha="center", va="center", fontsize=8, color="#134a7c",
                style="italic", rotation=90 if name != "Harlem River" else -50, zorder=2,
                bbox={"facecolor": "#dcecf7", "edgecolor": "none", "pad": 1, "alpha": 0.8})

    for a, b in board.edges:
        da, db = board.districts[a], board.districts[b]
        across = da.peripheral or db.peripheral
        ax.plot([da.x, db.x], [da.y, db.y], color="#8a6d3b" if across else "#555555",
                linestyle="--" if across else "-", linewidth=1.6, zorder=3)

    for d in board.districts:
        shape = "s" if d.peripheral else "o"
        edge = SPECIAL_MARKS[d.special][0] if d.special else "#333333"
        ax.scatter([d.x], [d.y], s=2300 if not d.peripheral else 2000, marker=shape,
                   facecolor=BAND_COLOURS[d.band], edgecolor=edge,
                   linewidth=4 if d.special else 1.5, zorder=4)
        label = d.name.replace(" ", "\n") if len(d.name) > 9 else d.name
        ax.text(d.x, d.y, label, ha="center", va="center", fontsize=5.6, fontweight="bold",
                color=TEXT_COLOURS[d.band], zorder=5)
        if d.special:
            colour, word = SPECIAL_MARKS[d.special]
            ax.text(d.x, d.y - 1.1, word, ha="center", va="center", fontsize=7, color="white",
                    fontweight="bold", zorder=6,
                    bbox={"facecolor": colour, "edgecolor": "none", "pad": 1.5})
    for order, name in enumerate(board.peripheral_order, 1):
        d = board.districts[board.index(name)]
        ax.text(d.x, d.y + 1.0, f"henchman {order}", ha="center", va="center", fontsize=7,
                color="#5b4312", zorder=6)

    handles = [Patch(facecolor=BAND_COLOURS[b], edgecolor="#333333", label=f"{b} tile ({where})")
               for b, where in (("white", "Lower"), ("grey", "Midtown"), ("black", "Upper"))]
    handles.append(Patch(facecolor=BAND_COLOURS[None], edgecolor="#333333", label="no tile"))
    handles += [Line2D([], [], color="#555555", label="connection"),
                Line2D([], [], color="#8a6d3b", linestyle="--", label="across a river")]
    ax.legend(handles=handles, loc="lower left", fontsize=7, framealpha=0.9)
    tiles = sum(d.has_tile for d in board.districts)
    note = " (assumed map)" if board.assumed else ""
    ax.set_title(f"{ruleset.game.upper()} board: {len(board)} districts, {tiles} tiles, "
                 f"{len(board.edges)} connections{note}", fontsize=10)
    ax.set_xlim(min(xs) - 2, max(xs) + 2)
    ax.set_ylim(min(ys) - 2, max(ys) + 2)
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_yticks([])
    fig.tight_layout()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)
    return path
