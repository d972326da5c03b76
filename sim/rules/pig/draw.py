"""Pig's "board" as a picture a designer checks at a glance (PIG-2, PIG-5): the die's faces (the
bust face marked) and the race to the goal, with the chance of a bust per roll and the turn total
a hold-at-N player banks on average."""

from pathlib import Path


def expected_bank(hold_at: int, faces: int) -> float:
    """Mean points a turn banks holding at `hold_at` (turn totals up to the goal ignored)."""
    reach = [0.0] * (hold_at + faces + 1)
    reach[0] = 1.0
    banked = 0.0
    for k in range(hold_at + faces + 1):
        if k >= hold_at:
            banked += reach[k] * k
            continue
        for face in range(2, faces + 1):
            reach[k + face] += reach[k] / faces
    return banked


def draw_board(ruleset, path) -> Path:
    """Draw Pig's die and race track of `ruleset` to `path` (PNG, SVG or PDF by the suffix)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    goal, faces = int(ruleset["goal"]), int(ruleset["die.faces"])
    fig, ax = plt.subplots(figsize=(10, 3.2), dpi=110)
    ax.set_axis_off()
    ax.set_xlim(-goal * 0.01, goal * 1.05)
    ax.set_ylim(-2.5, 3)
    step = goal * 0.7 / faces     # the faces side by side over the first 70% of the track
    for f in range(faces):
        x = f * step
        colour = "#f4c7c3" if f == 0 else "#fff8e1"
        ax.add_patch(plt.Rectangle((x, 1.2), step * 0.6, 1.4, facecolor=colour, edgecolor="#886"))
        ax.text(x + step * 0.3, 1.9, str(f + 1), ha="center", va="center", fontsize=12, weight="bold")
    ax.text(0, 2.8, f"The die: faces 1 to {faces}; a 1 busts the turn (chance {1 / faces:.1%} a roll)", fontsize=9)
    ax.plot([0, goal], [0, 0], color="#555", linewidth=3)
    for v in range(0, goal + 1, max(goal // 10, 1)):
        ax.plot([v, v], [-0.2, 0.2], color="#555")
        ax.text(v, -0.6, str(v), ha="center", fontsize=8)
    ax.text(goal, 0.4, f"goal {goal}", ha="center", color="#b00", fontsize=9, weight="bold")
    banks = ", ".join(f"hold at {n}: {expected_bank(n, faces):.1f}" for n in (10, 20, 25))
    ax.text(0, -1.6, f"Mean points a turn banks ({banks}); rules PIG-2, PIG-5 (sim/rules/pig/rules.md)", fontsize=8)
    ax.set_title(f"Pig: race to {goal} with a {faces}-faced die", fontsize=10)
    path = Path(path)
    fig.savefig(path, bbox_inches="tight")
    plt.close(fig)
    return path
