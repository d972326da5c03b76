"""New York Kings data files (TOML): board, characters, missions, resources, rules; `HOOK` loads
them into a Ruleset (sim.rules.ruleset.ContentHook)."""

from sim.rules.nyk.content import (
    assumed, cross_check, parse_board, parse_characters, parse_missions, parse_resources,
)
from sim.rules.nyk.docs import DOC_EXAMPLE, doc_lines, summary
from sim.rules.ruleset import ContentHook

HOOK = ContentHook(
    kinds=("board", "characters", "missions", "resources"),
    parsers={"board": parse_board, "characters": parse_characters,
             "missions": parse_missions, "resources": parse_resources},
    cross_check=cross_check, assumed=assumed, doc_lines=doc_lines,
    doc_example=DOC_EXAMPLE, summary=summary,
)
