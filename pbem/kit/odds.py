"""An odds-ratio combat results table: odds, column shifts, clamping, and the die lookup.

The odds are attack strength to defence strength with the fractions dropped in the
defender's favour: 7 against 2 is 3.5:1, fought at 3:1; 3 against 7 is 1:2.33, fought at
1:3. More generally the odds fall in the table's column with the greatest ratio not above
the true one, so tables with columns such as "3:2" work the same way.

A column shift moves along the table: "right" toward better odds for the attacker, "left"
toward the defender. Shifts of both sides are netted (two left and one right is one left),
and each is kept with its reason so a report can list them. Odds beyond the table, and
shifts that would run off it, stop at its first or last column: the odds are placed on the
table first, then shifted. A game whose rules say otherwise adjusts before calling.

The columns and the results are the game's data, passed in; none are written here. Columns
are strings "A:D": YAML 1.1 reads an unquoted 3:1 as the base-60 number 181, so a column
that is a number is refused with a message that says to quote it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal, TypeVar

T = TypeVar("T")

_COLUMN = re.compile(r"([1-9][0-9]*):([1-9][0-9]*)")


@dataclass(frozen=True)
class Shift:
    """Column shifts from one cause: `count` columns toward `direction`, and why."""

    direction: Literal["left", "right"]
    count: int
    reason: str

    def __post_init__(self) -> None:
        if self.direction not in ("left", "right") or self.count < 1:
            raise ValueError(f"a shift is 1 or more columns left or right, not "
                             f"{self.count} {self.direction!r} ({self.reason})")


@dataclass(frozen=True)
class Odds:
    """How a combat's column was found: the strengths, the column of their odds (on the
    table), the shifts with their reasons, their net (+ right, - left), the final column."""

    attack: int
    defence: int
    base: str
    shifts: tuple[Shift, ...]
    net: int
    column: str


def rounded(attack: int, defence: int) -> str:
    """The odds as "N:1" or "1:N", fractions dropped in the defender's favour (7, 2 -> "3:1";
    3, 7 -> "1:3"), before any table is consulted."""
    _check_strengths(attack, defence)
    if attack >= defence:
        return f"{attack // defence}:1"
    return f"1:{-(-defence // attack)}"


def net(shifts: Sequence[Shift]) -> int:
    """The shifts netted: right counts up, left down ("subtract the lower number of shifts
    from the higher"; equal numbers cancel)."""
    return sum(s.count if s.direction == "right" else -s.count for s in shifts)


def resolve(attack: int, defence: int, columns: Sequence[str],
            shifts: Sequence[Shift] = ()) -> Odds:
    """The column a combat is fought on: the odds placed on the table (`columns`, worst
    for the attacker first), then moved by the net of `shifts`, never past either end."""
    _check_strengths(attack, defence)
    ratios = _ratios(columns)
    true = Fraction(attack, defence)
    base = max((i for i, ratio in enumerate(ratios) if ratio <= true), default=0)
    moved = net(shifts)
    final = min(max(base + moved, 0), len(columns) - 1)
    return Odds(attack, defence, columns[base], tuple(shifts), moved, columns[final])


def lookup(table: Mapping[str, Sequence[T]], column: str, roll: int, *, first: int = 1) -> T:
    """The result in `table[column]` for a die `roll`, the results listed for rolls
    `first`, `first` + 1, ... (a d6 column is six results). ValueError outside them."""
    if column not in table:
        raise ValueError(f"the table has no column {column!r}")
    results = table[column]
    if not first <= roll < first + len(results):
        raise ValueError(f"a roll of {roll} is not on the table "
                         f"({first}-{first + len(results) - 1})")
    return results[roll - first]


def _check_strengths(attack: int, defence: int) -> None:
    # Zero strengths have no odds; a game with zero-strength units rules on them itself.
    if attack < 1 or defence < 1:
        raise ValueError(f"odds need strengths of 1 or more, not {attack} against {defence}")


def _ratios(columns: Sequence[str]) -> list[Fraction]:
    if not columns:
        raise ValueError("a table needs at least one column")
    ratios = []
    for column in columns:
        if not isinstance(column, str):
            raise ValueError(f"odds column {column!r} ({type(column).__name__}) is not a "
                             f'string: columns must be quoted strings "A:D" such as "3:1" '
                             f"(YAML reads an unquoted 3:1 as the number 181)")
        match = _COLUMN.fullmatch(column)
        if match is None:
            raise ValueError(f'odds column {column!r} is not "A:D" with A and D whole '
                             f'numbers from 1, such as "3:1"')
        ratios.append(Fraction(int(match[1]), int(match[2])))
    if any(a >= b for a, b in zip(ratios, ratios[1:], strict=False)):
        raise ValueError(f"odds columns must rise from left to right: {list(columns)}")
    return ratios
