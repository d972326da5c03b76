"""The American Gangsters board as a picture a designer checks at a glance (AG-C1, AG-C7, AG-C8,
AG-G1, AG-G2, AG-K2): the four districts with their location cards as the ruleset's content
defines them (CLIC target and rewards), the hospital, the renown ladder with the win marks and the
FBI pawn, and the two cost tracks. What the content marks as assumed is said so in the caption.
"""

from pathlib import Path

TRAFFIC_COLOURS = {"drugs": "#8e44ad", "arms": "#7f8c8d", "gambling": "#27ae60", "prostitution": "#c0392b",
                   None: "#d5c7a3"}
CARD_FACE = "#fbf6e9"


def card_text(card) -> str:
    """One card's line: target, then what winning it gives (AG-C7)."""
    parts = [f"{card.target} CLIC", f"+{card.renown} renown" if card.renown else ""]
    parts += [f"{card.bags} bag{'s' if card.bags > 1 else ''}" if card.bags else "",
              card.traffic or "", "occasional" if card.occasional else "",
              {1: "FBI +1", -1: "FBI -1"}.get(card.fbi, "")]
    return " · ".join(p for p in parts if p)


def caption(ruleset) -> str:
    """What the picture shows that is assumed (content files and rule options), or that it is not."""
    locations, tracks = ruleset.content["locations"], ruleset.content["tracks"]
    assumed = []
    if locations.assumed:
        assumed.append("location rewards (locations.toml)")
    if tracks.assumed:
        assumed.append("cost-track prices and FBI steps (tracks.toml)")
    drawn = ("renown.start", "renown.parrain", "renown.informer", "fbi.informer", "fbi.start", "fbi.max")
    options = [k for k in drawn if ruleset.option(k).assumed and _shown(ruleset, k)]
    if options:
        assumed.append(", ".join(options))
    return "assumed: " + "; ".join(assumed) if assumed else "nothing drawn here is assumed"


def _shown(ruleset, key: str) -> bool:
    """fbi.start and fbi.max are read only with the FBI pawn on its own track."""
    return not key.startswith("fbi.") or key == "fbi.informer" or ruleset["fbi.track"] == "separate"


def draw_board(ruleset, path) -> Path:
    """Draw the American Gangsters board of `ruleset` to `path` (PNG, SVG or PDF by the suffix)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch

    locations = ruleset.content["locations"]
    kinds, districts = locations.kinds, locations.districts
    width = 4.2 * len(districts)
    fig, ax = plt.subplots(figsize=(max(width, 12), 4.2 + 0.55 * len(kinds)), dpi=110)
    ax.set_axis_off()
    top = len(kinds) + 1.0
    _districts(ax, locations, top)
    _hospital(ax, len(districts), top)
    y = _renown_ladder(ax, ruleset, -1.2)
    _cost_tracks(ax, ruleset.content["tracks"], y - 1.4)

    handles = [Patch(facecolor=CARD_FACE, edgecolor=c, linewidth=3, label=t or "no traffic token")
               for t, c in TRAFFIC_COLOURS.items()]
    ax.legend(handles=handles, loc="upper right", bbox_to_anchor=(1.0, -0.02), ncol=5, fontsize=7,
              frameon=False)
    ax.set_title(f"AG board: {len(districts)} districts, {len(locations)} location cards and the hospital, "
                 f"the renown ladder and the cost tracks", fontsize=10)
    fig.text(0.01, 0.01, caption(ruleset), fontsize=8, color="#8a3b12", style="italic")
    ax.set_xlim(-0.2, len(districts) * 4 + 4.4)
    ax.set_ylim(y - 4.0, top + 1.2)
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
    plt.close(fig)
    return path


def _districts(ax, locations, top: float) -> None:
    """One column per district (AG-C1), its location cards from the easiest target down (AG-C7)."""
    from matplotlib.patches import FancyBboxPatch

    for column, district in enumerate(locations.districts):
        x = column * 4.0
        ax.text(x + 1.9, top, district, ha="center", va="center", fontsize=11, fontweight="bold")
        cards = sorted((c for c in locations.cards if c.district == district), key=lambda c: c.target)
        for row, card in enumerate(cards):
            y = top - 1.0 - row
            ax.add_patch(FancyBboxPatch((x, y - 0.38), 3.8, 0.76, boxstyle="round,pad=0.02",
                                        facecolor=CARD_FACE, edgecolor=TRAFFIC_COLOURS[card.traffic],
                                        linewidth=2.5))
            ax.text(x + 0.1, y + 0.14, card.label, fontsize=7.5, fontweight="bold", va="center")
            ax.text(x + 0.1, y - 0.18, card_text(card), fontsize=6.3, va="center", color="#333333")


def _hospital(ax, columns: int, top: float) -> None:
    """The permanent location (AG-C8, AG-H), resolved first each turn (AG-T4)."""
    from matplotlib.patches import FancyBboxPatch

    x = columns * 4.0 + 0.2
    ax.add_patch(FancyBboxPatch((x, top - 1.38), 3.8, 0.76, boxstyle="round,pad=0.02", facecolor="#eaf4fb",
                                edgecolor="#1f4fbf", linewidth=2.5))
    ax.text(x + 0.1, top - 0.86, "Hospital", fontsize=7.5, fontweight="bold", va="center")
    ax.text(x + 0.1, top - 1.18, "always there · resolved first · heal, recruit", fontsize=6.3, va="center")


def _renown_ladder(ax, ruleset, y: float) -> float:
    """Renown from its start to Parrain (AG-G1), the informer's mark (AG-G2) and where the FBI
    pawn wins it; on the ladder the FBI pawn shares the squares (fbi.track = "ladder")."""
    start, parrain = ruleset["renown.start"], ruleset["renown.parrain"]
    ax.text(0, y + 0.55, "Renown ladder", fontsize=9, fontweight="bold")
    for step in range(start, parrain + 1):
        x = (step - start) * 1.1
        marks = []
        if step == ruleset["renown.informer"]:
            marks.append("informer")
        if step == parrain:
            marks.append("Parrain")
        if ruleset["fbi.track"] == "ladder" and step == ruleset["fbi.informer"]:
            marks.append("FBI wins")
        if ruleset["fbi.track"] == "ladder" and step == start:
            marks.append("FBI start")
        face = "#f5d76e" if marks else "white"
        ax.add_patch(_square(x, y, face))
        ax.text(x + 0.45, y - 0.4, str(step), ha="center", va="center", fontsize=8)
        ax.text(x + 0.45, y - 1.0, "\n".join(marks), ha="center", va="top", fontsize=6.3)
    if ruleset["fbi.track"] == "separate":
        ax.text((parrain - start + 1.5) * 1.1, y - 0.4,
                f"FBI track: {ruleset['fbi.start']} to {ruleset['fbi.max']}, the informer wins at "
                f"{ruleset['fbi.informer']}", fontsize=7, va="center")
    return y - 1.8


def _cost_tracks(ax, tracks, y: float) -> None:
    """The henchman and killer cost tracks (AG-K2): the price on each step; an FBI step moves
    the FBI pawn up."""
    for n, (name, track) in enumerate((("henchman", tracks.henchman), ("killer", tracks.killer))):
        row = y - n * 1.1
        ax.text(0, row - 0.4, f"{name} cost", fontsize=8, va="center", fontweight="bold")
        for step, price in enumerate(track.prices):
            x = 2.0 + step * 1.1
            fbi = step in track.fbi_steps
            ax.add_patch(_square(x, row, "#f4c6c6" if fbi else "white"))
            ax.text(x + 0.45, row - 0.4, f"{price}{' FBI' if fbi else ''}", ha="center", va="center",
                    fontsize=7)
    ax.text(2.0 + 9 * 1.1, y - 0.4, "bags per recruit at the hospital; the pawn moves one step a recruit",
            fontsize=7, va="center")


def _square(x: float, y: float, face: str):
    from matplotlib.patches import Rectangle

    return Rectangle((x, y - 0.85), 0.9, 0.9, facecolor=face, edgecolor="#333333")
