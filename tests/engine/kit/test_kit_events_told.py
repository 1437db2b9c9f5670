"""kit.events.Told: an event's line declared as a template of its fields and the rule it
implements, and the table that says which rule each event type declares."""

from __future__ import annotations

import functools
from collections.abc import Callable

import pytest

from pbem.kit.events import EventTable, Ruled, Told


def test_a_template_tells_the_fields_and_closes_with_the_rule() -> None:
    told = Told("{minor} builds {units} in {zone}", "12.42")
    event = {"type": "minor_built", "minor": "Poland", "units": ["inf-3", "cav-1"], "zone": "Warsaw"}
    assert told(None, event) == "Poland builds inf-3, cav-1 in Warsaw (12.42)"


def test_without_a_rule_the_line_ends_with_the_template() -> None:
    assert Told("turn {turn} begins")(None, {"turn": 3}) == "turn 3 begins"


def test_a_field_is_told_as_an_f_string_would_tell_it() -> None:
    event = {"n": 0, "none": None, "flag": True, "empty": []}
    assert Told("{n} {none} {flag} [{empty}]")(None, event) == "0 None True []"


def test_a_field_the_event_lacks_is_an_error_naming_it() -> None:
    with pytest.raises(KeyError, match="zone"):
        Told("in {zone}")(None, {"unit": "x"})


@pytest.mark.parametrize("template", ["{e[zone]}", "{zone!r}", "{roll:+d}", "{a.b}", "{}"])
def test_only_plain_field_names_are_declared(template: str) -> None:
    with pytest.raises(ValueError, match="plain field name"):
        Told(template)


def test_braces_doubled_are_told_as_braces() -> None:
    assert Told("{{a}} {b}")(None, {"b": 1}) == "{a} 1"


def test_two_alike_declarations_are_one_and_the_table_takes_them_again() -> None:
    assert Told("x {a}", "1.1") == Told("x {a}", "1.1")
    assert Told("x {a}", "1.1") != Told("x {a}", "1.2") and Told("x {a}") != Told("y {a}")
    assert hash(Told("x {a}", "1.1")) == hash(Told("x {a}", "1.1"))
    table: EventTable[None] = EventTable("Test")
    table.describes({"seen": Told("x {a}", "1.1")}, {"seen": Told("x {a}", "1.1")})
    with pytest.raises(ValueError, match="two descriptions of the event type 'seen'"):
        table.describes({"seen": Told("x {a}", "1.2")})


def test_the_table_lists_each_event_types_declared_rule() -> None:
    table: EventTable[None] = EventTable("Test")

    def by_hand(context: None, event: dict[str, object]) -> str:
        return "told by a function (7.1)"

    table.describes({"b": Told("b", "2.1"), "a": Told("a", "1.1, 1.2"), "c": Told("c"),
                     "d": by_hand})
    assert table.rules() == {"a": "1.1, 1.2", "b": "2.1"}
    assert list(table.rules()) == ["a", "b"]
    assert table.describe(None, {"type": "a"}) == "a (1.1, 1.2)"
    assert repr(Told("a", "1.1")) == "Told('a', '1.1')"


def test_a_description_written_as_a_function_declares_its_rule_beside_it() -> None:
    def told(context: None, event: dict[str, object]) -> str:
        return f"leader {event['leader']} lost (10.4)"

    table: EventTable[None] = EventTable("Test")
    table.describes({"leader_loss": Ruled(told, "10.4"), "plain": told})
    assert table.describe(None, {"type": "leader_loss", "leader": "kolchak"}) == "leader kolchak lost (10.4)"
    assert table.rules() == {"leader_loss": "10.4"}  # a function alone declares none
    table.describes({"leader_loss": Ruled(told, "10.4")})  # the same again: one
    with pytest.raises(ValueError, match="two descriptions of the event type 'leader_loss'"):
        table.describes({"leader_loss": Ruled(told, "10.5")})
    assert Ruled(told, "10.4") != Told("x", "10.4") and "10.4" in repr(Ruled(told, "10.4"))


def _made_in(module: str) -> Callable[[None, dict[str, object]], str]:
    """The same function's source, defined anew in a module of this name."""
    space: dict[str, object] = {"__name__": module}
    exec("def told(context, event):\n    return 'x'\n", space)  # noqa: S102
    return space["told"]  # type: ignore[return-value]


def test_a_function_made_again_is_the_same_but_not_from_another_module_nor_a_partial() -> None:
    table: EventTable[None] = EventTable("Test")
    table.describes({"seen": _made_in("rules_a")}, {"seen": _made_in("rules_a")})  # loaded again
    with pytest.raises(ValueError, match="two descriptions of the event type 'seen'"):
        table.describes({"seen": _made_in("rules_b")})
    first, second = functools.partial(print, 1), functools.partial(print, 2)
    table.describes({"part": first}, {"part": first})  # the very same object: one
    with pytest.raises(ValueError, match="two descriptions of the event type 'part'"):
        table.describes({"part": second})


def test_a_ruled_function_is_given_the_context_and_hashes_alike() -> None:
    def told(context: str, event: dict[str, object]) -> str:
        return f"{context}: {event['n']}"

    assert Ruled(told, "1.1")("board", {"n": 3}) == "board: 3"
    assert hash(Ruled(told, "1.1")) == hash(Ruled(told, "1.1"))
    assert len({Ruled(told, "1.1"), Ruled(told, "1.1"), Told("x", "1.1")}) == 2
