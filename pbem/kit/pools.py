"""Dice pools: several dice rolled under one label, and the hits they score.

Die `i` (from 1) of a pool labelled L is rolled under the label `L:d<i>`, so a pool of n
dice is exactly n named dice of the log (docs/fairness.md), recomputable one by one.
"""

from __future__ import annotations

from collections.abc import Sequence

from pbem.dice import Rng


def roll(rng: Rng, label: str, count: int, sides: int = 6, first: int = 1) -> list[int]:
    """`count` dice of `sides` sides, labelled `label:d<first>` ... (`label:d1` ...
    `label:d<count>` by default; `first` numbers on from an earlier pool of the label)."""
    if count < 0:
        raise ValueError(f"a pool of {count} dice")
    return [rng.roll(f"{label}:d{i}", sides) for i in range(first, first + count)]


def hits_at_or_over(values: Sequence[int], need: int) -> int:
    """The dice showing `need` or more ("hit on 5-6" is need 5)."""
    return sum(1 for v in values if v >= need)


def hits_at_or_under(values: Sequence[int], value: int) -> int:
    """The dice showing `value` or less ("hit on a roll of the attack value or less")."""
    return sum(1 for v in values if v <= value)
