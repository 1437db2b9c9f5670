"""Folding Red Russia's events into its state, one table for every event type.

Each rules module keeps the apply functions of its own events in its `APPLY` table; the
composition root (rules/__init__.py) registers them all in the game's event table
(pbem.kit.events) when the game is loaded, so that no module of the rules imports another
only to reach its events. What this module adds to the kit's table: the turn's record
(TURN_RECORD) kept in the state for the political phase, and each event's line for the log
and the reports (describe_event: the descriptions the root registers, or the event's fields).
Every event is checked as it is applied, so a referee's hand-written adjustment that names
an unknown unit or zone fails with a message instead of corrupting the state.
"""

from __future__ import annotations

from collections.abc import Callable

from pbem.game import Event, GameData, State, clone
from pbem.kit.events import EventTable
from pbem.kit.fold import Fold

from .board import Board, board

Apply = Callable[[Board, State, Event], None]

# events that only record what happened (dice, explanations); they change nothing
RECORD_ONLY = ("initiative_roll", "note", "combat_round", "air_alone", "battle_over", "segment",
               "referee_decides", "infighting",
               "naval_search", "blockade_run", "naval_battle_over")  # 8.92 at sea
# what the political phase judges a turn by (17.5): kept in the state until the turn ends
TURN_RECORD = ("attack", "battle_over", "control", "retreat", "eliminated", "reduced")
# every event type, to its apply function (the composition root registers each module's)
EVENTS: EventTable[Board] = EventTable("Red Russia", record_only=RECORD_ONLY)


def describe_event(data: GameData, e: Event) -> str:
    """An event's line for the log and the reports: its description in the event table, or
    its fields for a type none tells."""
    told = EVENTS.describe(board(data), e)
    if told is not None:
        return told
    kind = e.get("type")
    return f"{kind}: " + ", ".join(f"{k}={v}" for k, v in e.items() if k != "type")


def apply(data: GameData, state: State, event: Event) -> State:
    return apply_with(board(data), state, event)


class Folding(Fold):
    """The kit's fold (pbem.kit.fold) over this game's events, on a board."""

    def __init__(self, b: Board, state: State) -> None:
        super().__init__(lambda s, e: apply_with(b, s, e), state)
        self.b = b


def apply_with(b: Board, state: State, event: Event) -> State:
    """The state after one event, in a copy (`state` is left as it is)."""
    if not _changes(event):
        return state
    new: State = clone(state)
    _apply_in_place(b, new, event)
    return new


def apply_all(data: GameData, state: State, events: list[Event]) -> State:
    """The state after every event of a step: one copy of the state for the whole step, not
    one per event. Neither `state` nor `events` is changed: the events are copied too, so
    that what an event puts into the state is never the log's own object."""
    b = board(data)
    new: State = clone(state)
    for event in clone(events):
        if _changes(event):
            _apply_in_place(b, new, event)
    return new


def _changes(event: Event) -> bool:
    """Whether the event changes the state (an unknown type is refused)."""
    EVENTS.check(event)
    return not (event["type"] in RECORD_ONLY and event["type"] not in TURN_RECORD)


def _apply_in_place(b: Board, state: State, event: Event) -> None:
    if event["type"] in TURN_RECORD:
        state.setdefault("turn_events", []).append(dict(event))
    EVENTS.apply_in_place(b, state, event)
