"""A game's event types in one table, each with the function that applies it to the state
and the one that tells it in a line of the log and the reports.

Each rules module of a game keeps the apply functions of its own events in a mapping
(`APPLY = {"moved": _moved, ...}`), and their descriptions in another (`DESCRIBE`); the
game's composition root registers every module's mappings in the game's one table when the
game is loaded. A rules module that must fold the
whole game's events (a combat that goes on from the state its last blow left) reaches the
table, which imports no rules module, and never the composition root: the rules stay free of
import cycles, and the root lists its modules and nothing else.

Most descriptions are one sentence of the event's fields and the rule behind it: those are
declared, not written, as a `Told` (a template and the rule's number), so that the table says
of each such event type the rule it implements; a description that must choose its words is a
function, declared with its rule as `Ruled(function, "8.6")`.

An event type named twice is refused when registered; an event of a type no module applies
is refused when applied, naming it, so that a hand-written correction of a type the game does
not have fails with a message instead of being recorded.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Generic, TypeVar

from pbem.game import Event, State, clone
from pbem.kit.fold import Fold
from pbem.names import suggest

C = TypeVar("C")
# one event type's apply: the game's context (its data, or its board), a copy of the state
# to change in place, the event
Apply = Callable[[C, State, Event], None]
# one event type's line for the log and the reports, from the game's context and the event
# (None: this one has nothing to tell beyond its fields)
Describe = Callable[[C, Event], str | None]


class Told:
    """An event's line declared as a template of its fields, with the rule it implements:
    `Told("{minor} builds {units} in {zone}", "12.42")` tells
    `Poland builds inf-3, cav-1 in Warsaw (12.42)`. A field holding a list is told as its
    items joined by ", "; the rule, when there is one, closes the line in brackets."""

    def __init__(self, template: str, rule: str | None = None) -> None:
        # a field the template names must be a plain name: what it names is checked at once
        for _text, field, spec, conversion in string.Formatter().parse(template):
            if field is not None and (not field.isidentifier() or spec or conversion):
                raise ValueError(f"Told: {{{field}}} is not a plain field name in {template!r}")
        self.template = template
        self.rule = rule

    def __call__(self, context: object, event: Event) -> str:
        text = self.template.format_map(_Fields(event))
        return text if self.rule is None else f"{text} ({self.rule})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Told) and (self.template, self.rule) == (other.template, other.rule)

    def __hash__(self) -> int:
        return hash((self.template, self.rule))

    def __repr__(self) -> str:
        return f"Told({self.template!r}, {self.rule!r})"


class Ruled:
    """An event's line written as a function (one that must choose its words), with the rule
    it implements declared beside it; the line itself is the function's, which names the
    rule in its own words."""

    def __init__(self, tell: Describe[Any], rule: str) -> None:
        self.tell = tell
        self.rule = rule

    def __call__(self, context: Any, event: Event) -> str | None:
        return self.tell(context, event)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Ruled) and self.rule == other.rule and _same(self.tell, other.tell)

    def __hash__(self) -> int:
        return hash(self.rule)

    def __repr__(self) -> str:
        return f"Ruled({getattr(self.tell, '__qualname__', self.tell)!r}, {self.rule!r})"


class _Fields(dict[str, Any]):
    def __init__(self, event: Event) -> None:
        super().__init__(event)

    def __getitem__(self, key: str) -> Any:
        value = super().__getitem__(key)
        return ", ".join(str(v) for v in value) if isinstance(value, list) else value


def recorded(context: object, state: State, event: Event) -> None:
    """The apply of an event that only records (a die, a line of explanation): it changes
    nothing."""


class EventTable(Generic[C]):
    """Every event type of one game; `record_only` names types that change nothing (a die
    recorded, a line of explanation)."""

    def __init__(self, game: str, record_only: Iterable[str] = ()) -> None:
        self.game = game
        self.record_only = frozenset(record_only)
        self.table: dict[str, Apply[C]] = {}
        self.told: dict[str, Describe[C]] = {}

    def register(self, *tables: Mapping[str, Apply[C]]) -> None:
        """Add rules modules' mappings; a type two modules name is refused."""
        for table in tables:
            for kind, apply_one in table.items():
                if kind in self.record_only or not _same(self.table.get(kind, apply_one), apply_one):
                    raise ValueError(f"{self.game}: two apply functions for the event type {kind!r}")
                self.table[kind] = apply_one

    def describes(self, *tables: Mapping[str, Describe[C]]) -> None:
        """Add rules modules' descriptions of their events; a type told twice is refused."""
        for table in tables:
            for kind, tell in table.items():
                if not _same(self.told.get(kind, tell), tell):
                    raise ValueError(f"{self.game}: two descriptions of the event type {kind!r}")
                self.told[kind] = tell

    def describe(self, context: C, event: Event) -> str | None:
        """The event's line, or None for a type no module describes (or one with nothing to
        tell beyond its fields)."""
        tell = self.told.get(str(event.get("type")))
        return None if tell is None else tell(context, event)

    def rules(self) -> dict[str, str]:
        """The rule each event type declares with its description (a `Told` with a rule, or a
        function declared `Ruled`)."""
        return {kind: tell.rule for kind, tell in sorted(self.told.items())
                if isinstance(tell, (Told, Ruled)) and tell.rule is not None}

    def knows(self, kind: object) -> bool:
        return kind in self.table or kind in self.record_only

    def check(self, event: Event) -> None:
        """Refuse an event of a type no module applies."""
        kind = event.get("type")
        if not self.knows(kind):
            known = sorted({*self.table, *self.record_only})
            raise ValueError(f"{self.game} has no event {kind!r}{suggest(str(kind), known)}")

    def apply(self, context: C, state: State, event: Event) -> State:
        """The state after one event, in a copy (`state` is left as it is)."""
        self.check(event)
        if event["type"] in self.record_only:
            return state
        new: State = clone(state)
        self.table[event["type"]](context, new, event)
        return new

    def apply_in_place(self, context: C, state: State, event: Event) -> None:
        """One event applied to `state` itself (a copy its caller owns)."""
        self.check(event)
        if event["type"] not in self.record_only:
            self.table[event["type"]](context, state, event)

    def apply_all(self, context: C, state: State, events: list[Event]) -> State:
        """The state after every event of a step: one copy of the state for them all, not one
        per event. Neither `state` nor `events` is changed: the events are copied too, so that
        what an event puts into the state is never the log's own object."""
        new: State = clone(state)
        for event in clone(events):
            self.apply_in_place(context, new, event)
        return new

    def fold(self, context: C, state: State) -> Fold:
        """A rule's events gathered and folded one by one by this table (pbem.kit.fold)."""
        return Fold(lambda s, e: self.apply(context, s, e), state)


def _same(a: Callable[..., object], b: Callable[..., object]) -> bool:
    """One function, or the same one made again (a game's rules loaded again from another
    folder define it anew: same module, name and first line): the newer replaces it. Any
    other callable (a partial, an object) is the same only as itself."""
    if isinstance(a, (Told, Ruled)) or isinstance(b, (Told, Ruled)):
        return a == b
    if a is b:
        return True
    code_a, code_b = getattr(a, "__code__", None), getattr(b, "__code__", None)
    if code_a is None or code_b is None:
        return False
    return ((a.__module__, a.__qualname__, code_a.co_firstlineno)
            == (b.__module__, b.__qualname__, code_b.co_firstlineno))
