"""Pig's rules (rules.md, rules.toml): no content files, only options; `HOOK` plugs them into a
Ruleset (sim.rules.ruleset.ContentHook)."""

from sim.rules.errors import RulesetError
from sim.rules.ruleset import ContentHook


def cross_check(values: dict, origin: dict, content: dict) -> None:
    """PIG-1: the player range is a range and holds the default table."""
    lo, hi, usual = values["players.min"], values["players.max"], values["players.usual"]
    if not lo <= usual <= hi:
        where = origin.get("players.usual", origin.get("players.min", origin.get("players.max", "rules.toml")))
        raise RulesetError(f"{where}: players.usual = {usual} is outside players.min .. players.max "
                           f"(allowed: {lo} to {hi})")


HOOK = ContentHook(
    kinds=(), parsers={}, cross_check=cross_check, assumed=lambda rs: {},
    doc_lines=lambda rs: ["## Content", "", "Pig has no content files: every rule is an option above "
                          "(rules in `sim/rules/pig/rules.md`)."],
    doc_example=("goal = 50", "", "[die]", "faces = 8"),
)
