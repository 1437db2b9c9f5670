"""An orders file's list read the same way in every game: each order is a mapping with one
key, its kind (`{move: {...}}`); a reader takes the kinds it knows, leaves those another
reader of the same file takes, and names everything else at its place, with a suggestion.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from pbem.game import Problem
from pbem.names import suggest

Path_ = tuple[str | int, ...]
ANY_OTHER = "*"  # in `others`: every other kind is another reader's


def order_items(body: Mapping[str, Any], kinds: Sequence[str], problems: list[Problem],
                others: Sequence[str] = (), *, later: Mapping[str, str] | None = None,
                ) -> Iterator[tuple[int, str, Any]]:
    """(index, kind, value) of each order of one of `kinds`, in the file's order. An order
    of one of `others` is left to the reader that takes it (ANY_OTHER: any order not of
    `kinds`); one of `later` is refused with its message (a kind not refereed yet); any
    other is a problem naming the kinds this file takes."""
    every = [k for k in (*kinds, *others) if k != ANY_OTHER]
    forms = "one of " + ", ".join(f"{{{k}: ...}}" for k in every)
    for i, item in enumerate(body.get("orders") or []):
        kind = next(iter(item)) if isinstance(item, dict) and len(item) == 1 else None
        if ANY_OTHER in others and kind not in kinds:
            continue
        if kind is None:
            problems.append(Problem(("orders", i), f"an order is {forms}: a mapping with one key"))
        elif kind in others:
            continue
        elif later is not None and kind in later:
            problems.append(Problem(("orders", i, kind), later[kind]))
        elif kind not in kinds:
            problems.append(Problem(("orders", i, kind), f"unknown order {kind!r}"
                                    f"{suggest(str(kind), every)}; an order is {forms}"))
        else:
            yield i, str(kind), item[kind]


def check_keys(arg: Any, path: Path_, required: Sequence[str], optional: Sequence[str],
               problems: list[Problem]) -> bool:
    """Whether an order's value is a mapping with every `required` key and no key beyond
    `optional` ones; each problem at its place."""
    allowed = [*required, *optional]
    if not isinstance(arg, dict):
        problems.append(Problem(path, f"expected a mapping with {', '.join(required)}"))
        return False
    ok = True
    for key in arg:
        if key not in allowed:
            problems.append(Problem((*path, key), f"unknown key {key!r}{suggest(str(key), allowed)} "
                                    f"(expected: {', '.join(allowed)})"))
            ok = False
    for key in required:
        if key not in arg:
            problems.append(Problem(path, f"missing {key!r}"))
            ok = False
    return ok
