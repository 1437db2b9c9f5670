"""pbem.kit.orders: an orders file's list read the same way in every game."""

from __future__ import annotations

from typing import Any

from pbem.game import Problem
from pbem.kit.orders import ANY_OTHER, check_keys, order_items

BODY = {"orders": [{"move": {"to": "Kazan"}}, {"attack": "Ufa"}, {"mvoe": 1}, "move", {"move": 1, "attack": 2},
                   {"retreat": {}}, {"move": {"to": "Perm"}}]}


def read(*kinds: str, others: tuple[str, ...] = (), later: dict[str, str] | None = None
         ) -> tuple[list[tuple[int, str, Any]], list[tuple[tuple[str | int, ...], str]]]:
    problems: list[Problem] = []
    items = list(order_items(BODY, kinds, problems, others, later=later))
    return items, [(p.path, p.message) for p in problems]


def test_each_order_of_the_kinds_read_in_the_files_order() -> None:
    items, problems = read("move", others=("attack",), later={"retreat": "retreat: not yet"})
    assert items == [(0, "move", {"to": "Kazan"}), (6, "move", {"to": "Perm"})]
    forms = "one of {move: ...}, {attack: ...}"
    assert problems == [
        (("orders", 2, "mvoe"), f"unknown order 'mvoe'; did you mean 'move'?; an order is {forms}"),
        (("orders", 3), f"an order is {forms}: a mapping with one key"),
        (("orders", 4), f"an order is {forms}: a mapping with one key"),
        (("orders", 5, "retreat"), "retreat: not yet"),
    ]


def test_another_readers_kinds_are_left_to_it() -> None:
    items, problems = read("attack", others=(ANY_OTHER,))
    assert items == [(1, "attack", "Ufa")] and problems == []
    items, problems = read("attack")
    assert items == [(1, "attack", "Ufa")]
    assert [p for p, _m in problems] == [("orders", 0, "move"), ("orders", 2, "mvoe"), ("orders", 3),
                                          ("orders", 4), ("orders", 5, "retreat"), ("orders", 6, "move")]


def test_an_orders_fields() -> None:
    problems: list[Problem] = []
    assert check_keys({"zone": "Kazan", "units": []}, ("orders", 0, "place"), ("zone", "units"), ("note",), problems)
    assert not check_keys({"zone": "Kazan", "unts": []}, ("orders", 0, "place"), ("zone", "units"), (), problems)
    assert not check_keys("Kazan", ("orders", 1, "place"), ("zone", "units"), (), problems)
    extra: list[Problem] = []
    assert check_keys({"zone": "Kazan", "units": [], "note": 1}, ("orders", 2), ("zone", "units"), (), extra) is False
    assert [p.path for p in extra] == [("orders", 2, "note")]
    assert [(p.path, p.message) for p in problems] == [
        (("orders", 0, "place", "unts"), "unknown key 'unts'; did you mean 'units'? (expected: zone, units)"),
        (("orders", 0, "place"), "missing 'units'"),
        (("orders", 1, "place"), "expected a mapping with zone, units"),
    ]
