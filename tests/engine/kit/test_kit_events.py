"""pbem.kit.events: a game's one table of event types, the apply of each."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.kit.events import EventTable, recorded


def _moved(context: str, state: dict[str, Any], event: dict[str, Any]) -> None:
    state["where"] = f"{context}:{event['to']}"


def table() -> EventTable[str]:
    events: EventTable[str] = EventTable("Tiny", record_only=["die"])
    events.register({"moved": _moved}, {"noted": recorded})
    return events


def test_an_event_is_applied_to_a_copy_with_the_games_context() -> None:
    before = {"where": "a", "other": [1]}
    after = table().apply("board", before, {"type": "moved", "to": "b"})
    assert after == {"where": "board:b", "other": [1]} and before == {"where": "a", "other": [1]}
    assert after["other"] is not before["other"]


def test_a_recorded_event_changes_nothing() -> None:
    before = {"where": "a"}
    assert table().apply("board", before, {"type": "die", "roll": 3}) is before
    assert table().apply("board", before, {"type": "noted"}) == before


def test_an_unknown_event_type_is_refused_naming_the_game() -> None:
    with pytest.raises(ValueError, match="^Tiny has no event 'flown'$"):
        table().apply("board", {}, {"type": "flown"})
    with pytest.raises(ValueError, match="^Tiny has no event 'moves'; did you mean 'moved'\\?$"):
        table().apply_in_place("board", {}, {"type": "moves"})
    assert table().knows("moved") and table().knows("die") and not table().knows("flown")


def test_a_type_two_modules_name_is_refused_and_the_same_table_twice_is_not() -> None:
    events = table()
    events.register({"moved": _moved})  # the same function again: the root loaded twice
    with pytest.raises(ValueError, match="^Tiny: two apply functions for the event type 'moved'$"):
        events.register({"moved": lambda c, s, e: None})
    with pytest.raises(ValueError, match="'die'"):
        events.register({"die": _moved})


def test_a_steps_events_are_applied_to_one_copy_and_stay_the_logs_own() -> None:
    before = {"where": "a"}
    events = [{"type": "moved", "to": "b"}, {"type": "die"}, {"type": "moved", "to": "c"}]
    after = table().apply_all("board", before, events)
    assert after == {"where": "board:c"} and before == {"where": "a"}
    assert events[0] == {"type": "moved", "to": "b"}
    with pytest.raises(ValueError, match="'nonsense'"):
        table().apply_all("board", before, [*events, {"type": "nonsense"}])


def test_the_fold_applies_each_event_as_it_is_emitted() -> None:
    fold = table().fold("board", {"where": "a"})
    fold.take([{"type": "moved", "to": "b"}, {"type": "die"}, {"type": "moved", "to": "c"}])
    assert fold.state == {"where": "board:c"} and len(fold.events) == 3


def test_each_type_is_told_by_its_one_description() -> None:
    events = table()
    events.describes({"moved": lambda board, e: f"to {e['to']} on the {board}"})
    assert events.describe("board", {"type": "moved", "to": "b"}) == "to b on the board"
    assert events.describe("board", {"type": "die"}) is None  # the game says what else
    with pytest.raises(ValueError, match="^Tiny: two descriptions of the event type 'moved'$"):
        events.describes({"moved": lambda board, e: "again"})


def test_the_rules_loaded_again_register_their_functions_again() -> None:
    """A game's root loaded again from another folder defines its functions anew: the same
    function (module, name and line) replaces the old; another is still refused."""
    source = "def _moved(context, state, event):\n    state['again'] = True\n"
    first: dict[str, Any] = {"__name__": "pbem_game_tiny"}
    again: dict[str, Any] = {"__name__": "pbem_game_tiny"}
    exec(compile(source, "rules.py", "exec"), first)  # noqa: S102 - two loads of one module
    exec(compile(source, "rules.py", "exec"), again)  # noqa: S102
    events: EventTable[str] = EventTable("Tiny")
    events.register({"moved": first["_moved"]})
    events.register({"moved": again["_moved"]})
    assert events.table["moved"] is again["_moved"]
    events.describes({"moved": first["_moved"]})
    events.describes({"moved": again["_moved"]})
    with pytest.raises(ValueError, match="two apply functions"):
        events.register({"moved": _moved})
