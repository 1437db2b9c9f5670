"""Die tables with modifiers: a roll, each modifier with its reason, the total clamped to the
table's rows, and the row it reads; as a wargame's morale, ambush or reinforcement table is
printed ("roll one die, subtract one if ...; results below 1 are treated as 1").

A table is a mapping from row keys to results, as a game's YAML gives it. A key is a number,
or text naming a range: "2-4" (2 to 4), "6+" (6 or more), "0-" (0 or less); negative
numbers are written as such ("-2--1" is -2 to -1, "-1-" is -1 or less). The rows may not
overlap; a total outside every row reads the nearest row (the clamping most tables print),
and the reading says so. A table may also be a list of rows each with its `min` and `max`
(`row_between`), where a total no row holds is an error.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

T = TypeVar("T")
_RANGE = re.compile(r"^\s*(-?\d+)\s*-\s*(-?\d+)\s*$")
_OPEN = re.compile(r"^\s*(-?\d+)\s*([+-])\s*$")
LOW, HIGH = -(10**9), 10**9  # the ends of an open row


@dataclass(frozen=True)
class Modifier:
    """A die-roll modifier and why it applies ("casualties 3-6 (6.2)")."""

    amount: int
    reason: str

    def __str__(self) -> str:
        return f"{self.amount:+d} ({self.reason})"


@dataclass(frozen=True)
class Reading(Generic[T]):
    """A roll read on a table: the die, the modifiers, the total and the row's result."""

    roll: int
    modifiers: tuple[Modifier, ...]
    total: int  # the modified roll, before clamping
    row: int    # the total as read: inside the table's rows
    result: T

    @property
    def clamped(self) -> bool:
        return self.row != self.total

    def text(self) -> str:
        """'4 -1 (casualties 3-6) +1 (capital held) = 4', with the clamping if any."""
        mods = "".join(f" {m}" for m in self.modifiers if m.amount)
        told = f"{self.roll}{mods} = {self.total}" if mods else str(self.roll)
        return f"{told}, read as {self.row}" if self.clamped else told


def span(key: Any) -> tuple[int, int]:
    """The totals a row key covers, both ends included."""
    if isinstance(key, bool):
        raise ValueError(f"row {key!r}: expected a number or a range such as 2-4, 6+ or 0-")
    if isinstance(key, int):
        return key, key
    text = str(key)
    if re.fullmatch(r"\s*-?\d+\s*", text):
        return int(text), int(text)
    found = _RANGE.match(text)
    if found:
        low, high = int(found[1]), int(found[2])
        if low > high:
            raise ValueError(f"row {key!r}: {low} is more than {high}")
        return low, high
    found = _OPEN.match(text)
    if found:
        return (int(found[1]), HIGH) if found[2] == "+" else (LOW, int(found[1]))
    raise ValueError(f"row {key!r}: expected a number or a range such as 2-4, 6+ or 0-")


def rows(table: Mapping[Any, T]) -> list[tuple[int, int, T]]:
    """The table's rows in order, each (low, high, result); refuses overlaps and gaps."""
    out = sorted((*span(k), v) for k, v in table.items())
    if not out:
        raise ValueError("a table needs at least one row")
    for (_, high, _), (low, _, _) in zip(out, out[1:], strict=False):
        if low <= high:
            raise ValueError(f"rows overlap at {low}")
        if low > high + 1:
            raise ValueError(f"no row for {high + 1}")
    return out


def problems(table: Any, where: str) -> list[str]:
    """What is wrong with a table given as data, each problem naming `where` (for a game's
    check_data)."""
    if not isinstance(table, Mapping):
        return [f"{where}: expected a mapping of rows (numbers or ranges such as 2-4, 6+) to results"]
    try:
        rows(table)
    except ValueError as exc:
        return [f"{where}: {exc}"]
    return []


def read(table: Mapping[Any, T], roll: int, modifiers: Iterable[Modifier] = ()) -> Reading[T]:
    """The row of `table` that `roll` plus `modifiers` reads; a total past either end reads
    the end row."""
    mods = tuple(modifiers)
    total = roll + sum(m.amount for m in mods)
    found = rows(table)
    row = min(max(total, found[0][0]), found[-1][1])
    for low, high, result in found:
        if low <= row <= high:
            return Reading(roll, mods, total, row, result)
    raise AssertionError("rows() leaves no gap")  # pragma: no cover


def row_between(rows: Iterable[Mapping[str, Any]], total: int) -> dict[str, Any]:
    """The first row of a table given as a list of rows, each with `min` and `max` (either
    left out for an open end), whose span holds `total`, as a copy; a total no row covers is
    an error (such a table names every total it takes)."""
    for row in rows:
        low, high = row.get("min"), row.get("max")
        if (low is None or int(low) <= total) and (high is None or total <= int(high)):
            return dict(row)
    raise ValueError(f"no row of the table covers {total}")


def halve_up(n: int) -> int:
    """Half of `n`, fractions rounded up (3 -> 2, -3 -> -1)."""
    return -(-n // 2)
