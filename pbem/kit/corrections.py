"""What a moderator's correction event (`pbem adjust`) is checked for before a game applies
it: the fields it takes, and whole numbers where a count is wanted. Each raises ValueError
with what was expected, which `pbem adjust` shows at the event's line."""

from __future__ import annotations

from typing import Any


def fields(event: dict[str, Any], required: set[str], optional: frozenset[str] = frozenset()) -> None:
    """The event holds `required` and nothing beyond `optional` (and its `type`)."""
    extra = sorted(set(event) - required - optional - {"type"})
    missing = sorted(required - set(event))
    if extra or missing:
        shape = ", ".join([*sorted(required), *(f"{k} (optional)" for k in sorted(optional))])
        raise ValueError(f"{event['type']} takes {shape}"
                         + (f"; unknown: {', '.join(extra)}" if extra else "")
                         + (f"; missing: {', '.join(missing)}" if missing else ""))


def count(value: Any, what: str) -> int:
    """A whole number 0 or more (not true/false)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{what}: expected a whole number 0 or more, not {value!r}")
    return value
