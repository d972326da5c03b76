"""The one error of the rules room: a bad ruleset, described in one line."""

import difflib


class RulesetError(ValueError):
    """A ruleset that cannot be used: names the file, the key, the bad value and what is allowed."""

    def __init__(self, message: str):
        super().__init__(" ".join(str(message).split()))


def did_you_mean(word: str, candidates) -> str:
    """' (did you mean "x"?)' for the closest candidate, or '' when nothing is close."""
    close = difflib.get_close_matches(str(word), [str(c) for c in candidates], n=1, cutoff=0.6)
    return f' (did you mean "{close[0]}"?)' if close else ""


def unknown(where: str, what: str, word: str, candidates) -> RulesetError:
    hint = did_you_mean(word, candidates)
    if not hint:
        shown = ", ".join(sorted(map(str, candidates))[:8])
        hint = f" (known: {shown}{', ...' if len(candidates) > 8 else ''})"
    return RulesetError(f"{where}: unknown {what} {word!r}{hint}")
