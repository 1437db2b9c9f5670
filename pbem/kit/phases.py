"""A game's phases as one table: for each phase, who is awaited, how its orders are
checked, how it resolves, what the bot sends and what an absent faction does.

A game keeps its phase's name in its state's `phase` and the turn in `turn` (and, once it
ends, `over` and `result`); the table does the dispatch that would otherwise be an if-chain
over the phase names in each method of the Game protocol.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pbem.game import Event, GameData, Orders, Phase, Problem, Rng, Secrets, State
from pbem.names import suggest

Awaiting = Callable[[GameData, State], Sequence[str]]
Shown = Callable[[GameData, State, str, str], tuple[str, str]]
Validate = Callable[[GameData, State, str, Orders], list[Problem]]
Resolve = Callable[[GameData, State, dict[str, Orders], Rng, Secrets | None], list[Event]]
Bot = Callable[[GameData, State, str, Rng], Orders]
Idle = Callable[[GameData, State, str], str | None]

# the event a phase's resolution records for each faction it would await but did not ask,
# because it could do nothing legal then (PhaseRules.idle): {type, faction, why}
NOT_ASKED = "not_asked"


def no_orders(name: str) -> list[Problem]:
    """What `check` says of an orders file sent in a phase that takes none."""
    return [Problem(("phase",), f"no orders are taken in phase {name}")]


@dataclass(frozen=True)
class PhaseRules:
    """One phase. Every part but the title is optional: without `awaiting` nobody is
    awaited (pbem resolves it at once), without `validate` it takes no orders, without
    `resolve` it does not resolve, without `bot` the bot sends no orders, and without
    `default_orders` a faction that sent nothing is given the bot's. `shown` may change
    the title and the prompt by the position (whose turn it is, what was asked)."""

    title: str
    prompt: str = ""
    awaiting: Awaiting | None = None
    shown: Shown | None = None
    validate: Validate | None = None
    resolve: Resolve | None = None
    bot: Bot | None = None
    default_orders: Bot | None = None
    keep_secret: bool = False  # its orders' secret parts stay sealed until unseal (Phase)
    # the JSON Schema of its orders' secret part; None: a file with one is refused (Phase)
    secret: Mapping[str, Any] | None = None
    # why a faction `awaiting` names can do nothing legal now (from the public position
    # alone), or None: such a faction is not asked (no mail, no file); the resolution goes
    # on without its orders and records a NOT_ASKED event saying why
    idle: Idle | None = None


class PhaseTable:
    def __init__(self, phases: Mapping[str, PhaseRules]) -> None:
        self.phases = dict(phases)

    def rules(self, state: State) -> tuple[str, PhaseRules]:
        name = str(state["phase"])
        if name not in self.phases:
            raise ValueError(f"unknown phase {name!r}{suggest(name, list(self.phases))} "
                             f"(known: {', '.join(self.phases)})")
        return name, self.phases[name]

    def phase(self, data: GameData, state: State) -> Phase:
        name, rules = self.rules(state)
        title, prompt = rules.title, rules.prompt
        if rules.shown is not None:
            title, prompt = rules.shown(data, state, title, prompt)
        idle = self.idle(data, state)
        awaiting = tuple(f for f in (rules.awaiting(data, state) if rules.awaiting is not None else ())
                         if f not in idle)
        return Phase(name=name, turn=state["turn"], awaiting=awaiting, title=title, prompt=prompt,
                     over=bool(state.get("over")), result=state.get("result"),
                     keep_secret=rules.keep_secret, secret=rules.secret)

    def idle(self, data: GameData, state: State) -> dict[str, str]:
        """The factions the phase would await that can do nothing legal now, with why."""
        rules = self.rules(state)[1]
        if rules.idle is None or rules.awaiting is None:
            return {}
        out: dict[str, str] = {}
        for faction in rules.awaiting(data, state):
            why = rules.idle(data, state, faction)
            if why is not None:
                out[faction] = why
        return out

    def validate(self, data: GameData, state: State, faction: str, orders: Orders) -> list[Problem]:
        name, rules = self.rules(state)
        return rules.validate(data, state, faction, orders) if rules.validate else no_orders(name)

    def resolve(self, data: GameData, state: State, orders: dict[str, Orders], rng: Rng,
                secrets: Secrets | None) -> list[Event]:
        name, rules = self.rules(state)
        if rules.resolve is None:
            raise ValueError(f"phase {name} does not resolve")
        idle = self.idle(data, state)
        asked = {f: o for f, o in orders.items() if f not in idle}
        return [*({"type": NOT_ASKED, "faction": f, "why": why} for f, why in idle.items()),
                *rules.resolve(data, state, asked, rng, secrets)]

    def bot(self, data: GameData, state: State, faction: str, rng: Rng) -> Orders:
        rules = self.rules(state)[1]
        return rules.bot(data, state, faction, rng) if rules.bot else {"orders": []}

    def default_orders(self, data: GameData, state: State, faction: str, rng: Rng) -> Orders:
        rules = self.rules(state)[1]
        if rules.default_orders is not None:
            return rules.default_orders(data, state, faction, rng)
        return self.bot(data, state, faction, rng)


class TableGame:
    """The part of the Game protocol a PhaseTable answers: a game class that sets `phases`
    to its table inherits phase, validate, resolve, bot and default_orders from here, and
    writes only what is its own (setup, apply, view, describe, summary...)."""

    phases: PhaseTable

    def phase(self, data: GameData, state: State) -> Phase:
        return self.phases.phase(data, state)

    def validate(self, data: GameData, state: State, faction: str, orders: Orders) -> list[Problem]:
        return self.phases.validate(data, state, faction, orders)

    def resolve(self, data: GameData, state: State, orders: dict[str, Orders], rng: Rng,
                secrets: Secrets | None = None) -> list[Event]:
        return self.phases.resolve(data, state, orders, rng, secrets)

    def bot(self, data: GameData, state: State, faction: str, rng: Rng) -> Orders:
        return self.phases.bot(data, state, faction, rng)

    def default_orders(self, data: GameData, state: State, faction: str, rng: Rng) -> Orders:
        return self.phases.default_orders(data, state, faction, rng)
