"""New York Kings' part of the generated docs/ruleset.md and of `mobsim rules show`."""

from sim.rules.nyk import content as limits
from sim.rules.nyk.content import EFFECTS, TIMINGS, WINDOWS, mission_rewards

DOC_EXAMPLE = ("[provocation]", "stake = 3000", "", "[missions]", "reward_scale = 1.2", "", "[content]",
               'missions = "my_missions.toml"   # same layout as sim/rules/nyk/missions.toml')


def _escape(text: str) -> str:
    return text.replace("|", "\\|")


def _engine_limits() -> list[str]:
    """What replacement content must fit (the engine's fixed sizes; `rules check` enforces it)."""
    params = ", ".join(f"{k} {v}" for k, v in limits.ENGINE_MAX_PARAM.items())
    least = " and ".join(limits.ENGINE_MIN_PARAM)
    return [
        "Replacement content must fit the engine (`mobsim rules check` refuses what does not): "
        f"exactly {limits.ENGINE_MISSIONS} missions, {limits.ENGINE_RESOURCE_CARDS} resource cards and "
        f"{limits.ENGINE_HENCHMEN} henchmen; at most {limits.ENGINE_MAX_AFFRANCHI} affranchi, "
        f"{limits.ENGINE_MAX_DISTRICTS} districts of at most {limits.ENGINE_MAX_NEIGHBOURS} neighbours, "
        f"{limits.ENGINE_MAX_TILES} address tiles, exactly {limits.ENGINE_PERIPHERAL} peripheral districts, "
        f"{limits.ENGINE_MAX_BILLS} starting bills; mission rewards up to ${limits.ENGINE_MAX_REWARD:,}, card "
        f"amounts up to ${limits.ENGINE_MAX_CARD_AMOUNT:,}, other card parameters up to: {params} ({least} "
        "at least 1). "
        "A ruleset file is at most 1 MB.",
    ]


def doc_lines(rs) -> list[str]:
    """The content section of docs/ruleset.md."""
    board = rs.board
    lines = [
        "## Content",
        "",
        "Default data files: `sim/rules/nyk/board.toml`, `characters.toml`, `missions.toml`,",
        "`resources.toml`. Entries marked *assumed* are not given by the rulebook.",
        "",
        *_engine_limits(),
        "",
        f"### Board (NYK-C1){' (assumed map)' if board.assumed else ''}",
        "",
        f"{len(board)} districts, {board.tiles} address tiles, {len(board.edges)} connections.",
        "",
        "| district | band | tile | special | neighbours |",
        "|---|---|---|---|---|",
    ]
    for i, d in enumerate(board.districts):
        kind = "peripheral" if d.peripheral else (d.band or "none")
        near = ", ".join(board.districts[j].name for j in board.neighbours(i))
        lines.append(f"| {d.name} | {kind} | {'yes' if d.has_tile else 'no'} | "
                     f"{d.special or ''} | {near} |")
    lines += ["", "### Characters (NYK-C2)", "",
              "Affranchi (value A, every suit): "
              + ", ".join(a.name for a in rs.characters.affranchi) + ".", "",
              "| henchman | suit | value | source |", "|---|---|---|---|"]
    for h in rs.characters.henchmen:
        lines.append(f"| {h.name} | {h.suit} | {h.label} | "
                     f"{'assumed' if h.assumed else 'rulebook'} |")
    lines += ["", "### Missions (NYK-C4)", "",
              f"{len(rs.missions)} cards + the end card \"{rs.missions.end_card.name}\".", "",
              "| mission | crew | at risk | ? | reward | source |", "|---|---|---|---|---|---|"]
    for m in rs.missions:
        lines.append(f"| {m.name} | {m.crew} | {'yes' if m.at_risk else ''} | "
                     f"{'?' if m.secret else ''} | ${m.reward:,} | "
                     f"{'assumed' if m.assumed else 'rulebook'} |")
    lines += ["", "### Resources (NYK-C5)", "",
              f"{rs.resources.size} cards. Timings: " + ", ".join(TIMINGS)
              + " (blue, red, black icons). Window: the moment a card is played at, one of "
              + ", ".join(WINDOWS) + "; a card plays only there, when its icon allows, and a"
              " player may play several one after another, each answerable.", "",
              "| card | count | timing | window | effect | params | text | source |",
              "|---|---|---|---|---|---|---|---|"]
    for c in rs.resources:
        params = ", ".join(f"{k}={v:,}" for k, v in c.params)
        lines.append(f"| {c.name} | {c.count} | {c.timing} | {c.window} | `{c.effect}` | {params} | "
                     f"{_escape(c.text)} | {'assumed' if c.assumed else 'rulebook'} |")
    lines += ["", "Effect vocabulary (kind: parameters): "
              + "; ".join(f"`{k}`: {', '.join(v)}" for k, v in EFFECTS.items()) + ". A `count` of N on "
              "`block_interrogation`, `cancel_elimination` and `cancel_card` cancels the event the card "
              "answers and the next N - 1 of the same game turn without a card; `police_move` moves up to "
              "`cars` different cars, `steps` districts each.", ""]
    return lines


def summary(rs) -> list[str]:
    """The content lines of `mobsim rules show`."""
    board, missions, resources = rs.board, rs.missions, rs.resources
    rewards = mission_rewards(rs)
    assumed = rs.assumed
    return [
        f"board       {len(board)} districts, {board.tiles} tiles, {len(board.edges)} "
        f"connections{' (assumed)' if board.assumed else ''}",
        f"characters  {len(rs.characters.affranchi)} affranchi, "
        f"{len(rs.characters.henchmen)} henchmen ({len(assumed['henchmen'])} assumed)",
        f"missions    {len(missions)} + end card, rewards "
        f"${rewards.min():,}-${rewards.max():,} ({len(assumed['missions'])} assumed)",
        f"resources   {resources.size} cards, {len(resources.cards)} kinds "
        f"({len(assumed['resources'])} assumed)",
        f"assumed     {', '.join(assumed['values'])}",
    ]
