"""Red Russia: The Russian Civil War 1918-1921, refereed by pbem.

Rules: ../shared/rules/red-russia-rules.txt; each function names the rule it implements.
This is the composition root: it registers every rules module's events in the game's one
event table (rules/fold.py) and builds the game (RedRussia, GAME) from its modules. The
phases are one table (rules/phases.py, PHASE_TABLE): set-up (3.0, 20.x), purchase and
politics (4.1-4.3), initiative (4.4), each faction's action phase with its battles (4.5, 7.x,
8.x), the victory phase (4.6, 16.x) and winter (4.7-4.9); the standing instructions every
orders file may carry are rules/standing.py's.
"""

from __future__ import annotations

from typing import Any

from pbem.game import Event, GameData, Orders, Problem, Rng, Secrets, State
from pbem.kit.phases import TableGame

from . import board as board_
from . import boxes as boxes_
from . import (
    cards,
    corrections,
    decisions,
    economy,
    events,
    famine,
    fold,
    minors,
    naval,
    order_of_battle,
    play,
    politics,
    setup,
    turn,
    wasted,
)
from . import headlines as headlines_
from . import phases as phases_
from . import report as report_
from . import standing as standing_
from .fold import apply as apply_event
from .fold import apply_all as apply_events

# the composition root: every rules module's events, in one table (rules/fold.py)
fold.EVENTS.register(events.APPLY, economy.APPLY, politics.APPLY, cards.APPLY, decisions.APPLY,
                     play.APPLY, minors.APPLY, famine.APPLY, corrections.APPLY)
play.VOID.append(wasted.void_card)  # pbem plays no void card for a player (ruling 63)
fold.EVENTS.describes(events.DESCRIBE, economy.DESCRIBE, politics.DESCRIBE, cards.DESCRIBE,
                      decisions.DESCRIBE, play.DESCRIBE, naval.DESCRIBE, minors.DESCRIBE,
                      famine.DESCRIBE, corrections.DESCRIBE)


class RedRussia(TableGame):
    """The Game protocol: phase, bot and default_orders from its phase table (TableGame),
    validate and resolve the table's after what every phase shares (the standing
    instructions), the rest its own. A faction that sent nothing has its set-up choices made
    for it (they cannot be skipped), and in the action phase its units hold (the table's
    default_orders)."""

    phases = phases_.PHASE_TABLE
    id = "red_russia"
    name = "Red Russia: The Russian Civil War 1918-1921"

    def describe(self, data: GameData) -> dict[str, Any]:
        return {"id": self.id, **phases_.describe(data)}

    def check_data(self, data: GameData) -> list[str]:
        return (board_.check(data) + economy.check(data) + politics.check_tables(data)
                + cards.check(data) + famine.check(data) + setup.check_options(data))

    def setup(self, data: GameData, options: dict[str, Any], rng: Rng) -> State:
        return phases_.starting_state(data, options, rng)

    def validate(self, data: GameData, state: State, faction: str, orders: Orders) -> list[Problem]:
        return standing_.check(data, state, faction, orders) + super().validate(data, state, faction, orders)

    def warnings(self, data: GameData, state: State, faction: str, orders: Orders) -> list[Problem]:
        """Legal orders that will do nothing or waste something (rules/wasted.py): a card
        whose effect cannot happen when it is played (12.1, 13.54, 9.0...), a move to the
        zone its units are in (7.1)."""
        return wasted.warnings(data, state, faction, orders)

    def resolve(self, data: GameData, state: State, orders: dict[str, Orders], rng: Rng,
                secrets: Secrets | None = None) -> list[Event]:
        events = turn.standing_events(state, orders)
        return events + super().resolve(data, apply_events(data, state, events), orders, rng, secrets)

    def apply(self, data: GameData, state: State, event: Event) -> State:
        return apply_event(data, state, event)

    def apply_all(self, data: GameData, state: State, events: list[Event]) -> State:
        return apply_events(data, state, events)

    def view(self, data: GameData, state: State, who: str) -> dict[str, Any]:
        """What `who` may see (rules/report.py)."""
        return report_.view_of(state, who)

    def report(self, data: GameData, view: dict[str, Any], before: dict[str, Any] | None,
               who: str, style: dict[str, Any], secrets: list[dict[str, Any]]) -> dict[str, Any]:
        """The position tables, changes, map and hand of a report (rules/report.py), and
        the reader's order of battle (rules/order_of_battle.py)."""
        return {**report_.report(data, view, before, who, style, secrets),
                "own": order_of_battle.own(data, view, who)}

    def template(self, data: GameData, state: State, faction: str, rng: Rng) -> Orders:
        """The bot's legal orders as an example, less what a player must choose alone
        (rules/phases.py)."""
        return phases_.template(state, faction, self.bot(data, state, faction, rng))

    def orders_sections(self, data: GameData, state: State, faction: str) -> list[tuple[str, list[int] | None]]:
        """The sections of ORDERS.md whose examples the faction's orders template shows now
        (pbem.game.order_forms)."""
        return phases_.ORDERS_SECTIONS.get(str(state.get("phase")), [])

    def standing_offer(self, data: GameData, state: State, faction: str) -> list[dict[str, Any]]:
        """The standing instructions of ORDERS.md with their values in force, in the
        phases whose orders file takes them (purchase, action)."""
        return standing_.offer(state, faction) if standing_.name_takes_standing(state["phase"]) else []

    def boxes(self, data: GameData, state: State, events: list[Event]) -> list[dict[str, Any]]:
        """Each battle of a step as a box: the forces, each round's dice and why they hit
        (rules/boxes.py)."""
        return boxes_.boxes(data, state, events)

    def headlines(self, data: GameData, events: list[Event]) -> list[str]:
        """What the turn's summary says of a step: battles and their ends, zones taken,
        leaders lost, minors activated, cards played (rules/headlines.py)."""
        return headlines_.headlines(data, events)

    def todo(self, data: GameData, state: State, faction: str) -> list[str]:
        """The pieces to place at set-up (3.0, 20.5) and the units arriving now (5.2), each
        with the zones it may go to (rules/phases.py)."""
        return phases_.todo(data, state, faction)

    def correct(self, data: GameData, state: State, event: Event,
                secrets: Secrets | None) -> list[Event]:
        """A card taken out of a hand or put into one by correction, opened or sealed as
        the card phase does (rules/corrections.py); any other correction as it is."""
        return corrections.correct(data, state, event, secrets)

    def summary(self, data: GameData, event: Event) -> str:
        return fold.describe_event(data, event)


GAME = RedRussia()
