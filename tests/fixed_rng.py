"""Dice and secrets for rule tables: dice come up as given, in order, and keep the labels
asked; sealed values are kept in plain view."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from pbem.crypto import sealed

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


class OpenSecrets(sealed._Secrets):
    """The referee's secrets in plain view, for rule tables: a sealed node made here keeps
    its value beside it (no encryption), and shuffles use a fixed hidden key."""

    def __init__(self) -> None:
        super().__init__("test")

    def _value(self, node: dict[str, Any]) -> Any:
        return node.get("value", sealed.HIDDEN)

    def _hidden_key(self) -> bytes | None:
        return b"\x07" * 32


class KeyedSecrets(OpenSecrets):
    """OpenSecrets under a hidden key of the test's choosing: shuffles as the referee's own
    would draw them with that key (a playout, a test over many keys)."""

    def __init__(self, key: bytes) -> None:
        super().__init__()
        self.key = key

    def _hidden_key(self) -> bytes | None:
        return self.key
