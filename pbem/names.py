"""Forgiving name matching: case, spaces, hyphens and known aliases; near misses suggested."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable


def fold(name: str) -> str:
    """The comparison form of a name: lower case, letters and digits only."""
    return re.sub(r"[^0-9a-z]+", "", name.casefold().replace("ё", "е"))


class NameIndex:
    """Canonical names plus aliases, looked up forgivingly."""

    def __init__(self, names: Iterable[str], aliases: dict[str, list[str]] | None = None) -> None:
        self.names = sorted(names)
        self._index: dict[str, str] = {}
        for name in self.names:
            self._index[fold(name)] = name
        for name, more in (aliases or {}).items():
            for alias in more:
                self._index.setdefault(fold(alias), name)

    def get(self, text: object) -> str | None:
        if not isinstance(text, str):
            return None
        return self._index.get(fold(text))

    def suggest(self, text: object) -> str:
        return suggest(str(text), self.names, extra=list(self._index), resolve=self._index)

    def __contains__(self, text: object) -> bool:
        return self.get(text) is not None


def suggest(
    text: str,
    choices: Iterable[str],
    *,
    extra: list[str] | None = None,
    resolve: dict[str, str] | None = None,
) -> str:
    """'; did you mean X?' for a near miss, or ''."""
    choices = list(choices)
    folded = {fold(c): c for c in choices}
    pool = list(folded) + [e for e in (extra or []) if e not in folded]
    close = difflib.get_close_matches(fold(text), pool, n=1, cutoff=0.7)
    if not close:
        return ""
    best = folded.get(close[0]) or (resolve or {}).get(close[0], close[0])
    return f"; did you mean {best!r}?"


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """`n` and the noun agreeing with it, for reports: "1 hit", "2 hits", "0 hits"."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"
