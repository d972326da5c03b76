"""A Ruleset across processes: its read-only mappings pickled as plain dicts and back."""

from dataclasses import fields
from types import MappingProxyType


def freeze_ruleset(rs) -> dict:
    """A picklable copy of a Ruleset (its read-only mappings as plain dicts)."""
    state = {}
    for f in fields(rs):
        value = getattr(rs, f.name)
        proxy = isinstance(value, MappingProxyType)
        state[f.name] = ("proxy", dict(value)) if proxy else ("", value)
    return state


def thaw_ruleset(cls, state: dict):
    return cls(**{name: MappingProxyType(v) if kind == "proxy" else v
                  for name, (kind, v) in state.items()})
