"""Dice for rule tables: they come up as given, in order, and keep the labels asked."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


class FixedRng:
    """Dice that come up as given, recording the labels asked (for rule tests only); a
    shuffle keeps the order and a choice takes the first item."""

    def __init__(self, *values: int) -> None:
        self.values = list(values)
        self.labels: list[str] = []

    def roll(self, label: str, sides: int = 6) -> int:
        self.labels.append(label)
        return self.values.pop(0)

    def shuffle(self, label: str, items: Sequence[T]) -> list[T]:
        return list(items)

    def choice(self, label: str, items: Sequence[T]) -> T:
        return items[0]
