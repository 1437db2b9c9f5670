"""Chechen War 1994-1996 for pbem (../shared/rules/chechen-war-rules.txt).

Refereed: the set-up (4.0-4.4: rules/setup.py), the Russian's placement and the Chechen's
face-down tokens with their identities drawn and sealed; each turn's Russian Movement Segment
(8.0: rules/movement.py) with the reinforcements' arrival (13.2-13.3: rules/arrival.py), the
Chechen Ambush Segment with the gunship threat (14.0: rules/ambush.py), both combat segments
with their supports (10.0: rules/combat.py), the Chechen Movement Segment, the End of Turn
Phase (12.0, 6.0, 15.0, 13.0: rules/endturn.py) and victory (3.1, 3.2); README.md lists each
part and what is not yet. This module is the composition root: it registers the modules'
events and builds the game of them; the segments' table, what each file is checked by and
does, is rules/phases.py; the position as set up, rules/setup.py (`start`).
The position:

    turn, phase   the game turn (0 during set-up) and the segment
    options       the campaign's options (setup: variable or historical)
    russians      the Russian units on the map: {id: {hex, reduced}} (public: 10.6)
    tokens        the Chechen units on the map, face down: {t01: {hex, unit}}, `unit` a
                  node sealed to the Chechen and the referee (4.2.2, 10.6)
    cup           how many Chechen units are in the cup (which ones is hidden)
    morale, casualties, collateral   the General Data Track (4.4)
    leaders       where each Chechen leader is (4.2.2: all underground)
    supports      each side's support markers available, by kind (4.2.1, 4.2.2); used_supports
                  those in the used boxes (10.9)
    attacks       the Russian's attacks declared and not fought yet, each marker's kind sealed
    groznyi_attacked   whether the Russian has attacked Groznyi (10.10)
    cup_known     the eliminated Chechen units back in the cup (public: they were revealed)
    leaders_lost  Chechen leaders eliminated this turn (6.2)
    recruits      each side's recruitment box (13.1): Russian unit ids; the Chechen's units
                  sealed to him, in the order drawn
    ceasefire     {declared, turn}: the ceasefire declared once a game and its turn (15.1)
    kidnapped     whether the Chechen has kidnapped civilians (6.3: once a game)
    event         this turn's random event (12.0), for the reinforcement roll's modifier
    tokens_made   how many tokens have been numbered (the next is t25, say)
"""

from __future__ import annotations

from typing import Any

from pbem.game import Event, GameData, Orders, Phase, Rng, Secrets, State
from pbem.kit.phases import TableGame

from . import (
    ahead,
    ambush,
    arrival,
    combat,
    corrections,
    endturn,
    forms,
    leaders,
    movement,
    setup,
)
from . import boxes as boxes_
from . import headlines as headlines_
from . import phases as phases_
from . import report as report_
from . import standing as standing_
from . import view as view_
from .events import EVENTS

EVENTS.register(setup.APPLY, movement.APPLY, ambush.APPLY, combat.APPLY, endturn.APPLY, arrival.APPLY,
                leaders.APPLY, corrections.APPLY, ahead.APPLY, standing_.APPLY, phases_.APPLY)
EVENTS.describes(setup.DESCRIBE, movement.DESCRIBE, ambush.DESCRIBE, combat.DESCRIBE, endturn.DESCRIBE,
                 arrival.DESCRIBE, leaders.DESCRIBE, corrections.DESCRIBE, ahead.DESCRIBE,
                 standing_.DESCRIBE, phases_.DESCRIBE)


class ChechenWar(TableGame):
    phases = phases_.PHASES
    id = "chechen_war"
    name = "Chechen War 1994-1996"

    def phase(self, data: GameData, state: State) -> Phase:
        """The table's phase; the secret part of a file without End of Turn orders where the
        campaign asks for them in their own file (rules/phases.py)."""
        return phases_.phase(data, state)
    # validate sees the sealed values the checker's key opens (pbem/orders.py): 8.2's
    # militia-only moves depend on which face-down units are militia
    sees_sealed = True

    def resolve(self, data: GameData, state: State, orders: dict[str, Orders], rng: Rng,
                secrets: Secrets | None = None) -> list[Event]:
        """The segment's events, then (11.0) any leader left in a hex with no Chechen unit
        back to the Underground Box, before the step moves on to the next segment
        (rules/phases.py)."""
        return phases_.resolve(data, state, orders, rng, secrets)

    def correct(self, data: GameData, state: State, event: Event,
                secrets: Secrets | None) -> list[Event]:
        """A correction as recorded (README "Corrections": reveal_token, hide_token)."""
        return corrections.correct(data, state, event, secrets)

    def describe(self, data: GameData) -> dict[str, Any]:
        return view_.describe(data, self.id)

    def check_data(self, data: GameData) -> list[str]:
        return setup.check_data(data)

    def setup(self, data: GameData, options: dict[str, Any], rng: Rng) -> State:
        return setup.start(data, options)

    def apply(self, data: GameData, state: State, event: Event) -> State:
        return EVENTS.apply(data, state, event)

    def view(self, data: GameData, state: State, who: str) -> dict[str, Any]:
        return view_.view(data, state, who)

    def report(self, data: GameData, view: dict[str, Any], before: dict[str, Any] | None,
               who: str, style: dict[str, Any], secrets: list[dict[str, Any]]) -> dict[str, Any]:
        """The map, the Chechen's own units as his key opens them, and the reader's order
        of battle (rules/report.py, rules/order_of_battle.py)."""
        return dict(report_.report(data, view, who, secrets))

    def template(self, data: GameData, state: State, faction: str, rng: Rng) -> Orders:
        """The bot's file, but no attack and no End of Turn order: the Chechen's movement
        file places his recruits (13.3: they must be) and attacks nothing he did not choose
        (rules/forms.py)."""
        return forms.template(data, state, faction, rng)

    def orders_sections(self, data: GameData, state: State, faction: str) -> list[tuple[str, list[int] | None]]:
        """The sections of ORDERS.md whose examples the side's orders template shows in
        this segment (pbem.game.order_forms): with the End of Turn orders a file may give
        ahead (ahead.py; rules/forms.py)."""
        return forms.orders_sections(data, state, faction)

    def standing_offer(self, data: GameData, state: State, faction: str) -> list[dict[str, Any]]:
        """The Russian's standing instructions (ORDERS.md, "Movement") with their values in
        force, in the segments whose file records them (movement, combat, supports)."""
        return standing_.offer(state, faction)

    def headlines(self, data: GameData, events: list[Event]) -> list[str]:
        """What the turn's summary says of a step: ambushes and combats with their results,
        hexes taken, leaders lost, morale, the random event, the ceasefire, reinforcements
        (counts only for the Chechen's), the end (rules/headlines.py)."""
        return headlines_.headlines(data, events)

    def boxes(self, data: GameData, state: State, events: list[Event]) -> list[dict[str, Any]]:
        """Each combat and each ambush of a step as a table: the forces, supports, leaders,
        shifts and modifiers with their rules, every die and its result (rules/boxes.py)."""
        return boxes_.boxes(data, state, events)

    def todo(self, data: GameData, state: State, faction: str) -> list[str]:
        """The units to set up and where (4.2.1, 4.3.1; the Chechen's tokens as counts,
        4.2.2), the reinforcements to place now (13.2, 13.3), the attacks a supports file
        answers (10.9): rules/headlines.py."""
        return headlines_.todo(data, state, faction)

    def summary(self, data: GameData, event: Event) -> str:
        return EVENTS.describe(data, event) or str(event["type"])


GAME = ChechenWar()
