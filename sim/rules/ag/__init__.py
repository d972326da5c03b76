"""American Gangsters data files (TOML): rules, location cards, cost tracks, events; `HOOK` loads
them into a Ruleset (sim.rules.ruleset.ContentHook)."""

from sim.rules.ag.content import (
    DOC_EXAMPLE, assumed, cross_check, doc_lines, parse_events, parse_locations,
    parse_tracks,
)
from sim.rules.ruleset import ContentHook

HOOK = ContentHook(
    kinds=("locations", "tracks", "events"),
    parsers={"locations": parse_locations, "tracks": parse_tracks, "events": parse_events},
    cross_check=cross_check, assumed=assumed, doc_lines=doc_lines,
    doc_example=DOC_EXAMPLE,
)
