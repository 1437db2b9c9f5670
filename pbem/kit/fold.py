"""Events gathered in order, each folded into the state as it comes."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from pbem.game import Event, State


class Fold:
    """A rule's events and the state they leave: `emit` records an event and applies it at
    once, so the next rule sees what the last one did. `apply(state, event)` returns the
    new state (the game's own apply, its board already bound); the starting state is never
    changed by it."""

    def __init__(self, apply: Callable[[State, Event], State], state: State) -> None:
        self.apply = apply
        self.state = state
        self.events: list[Event] = []

    def emit(self, event: Event) -> None:
        self.events.append(event)
        self.state = self.apply(self.state, event)

    def join(self, events: list[Event], state: State) -> None:
        """Take in what a sub-rule gathered on its own: its events, and the state they left
        (the state it started from being this one's)."""
        self.events += events
        self.state = state

    def take(self, events: Iterable[Event]) -> None:
        """Emit each of `events`, in order."""
        for event in events:
            self.emit(event)
