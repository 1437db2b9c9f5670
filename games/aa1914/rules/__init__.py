"""Axis & Allies 1914 for pbem: the powers' turns in order, round after round.

One orders file is one power's whole turn (most powers are played by different people, so a
turn is one mail round trip; the phase table: rules/phases.py). What is refereed so far: the
economy of a turn (purchase, mobilization, income: rules/economy.py), movement
(rules/movement.py), land battles (rules/combat.py), the turn order with the USA joining the
war in round 4, the victory pairs (rules/turns.py), and the Russian revolution with the
armistice house rule (rules/revolution.py) or the civil-war house rule (rules/civil_war.py),
the campaign option `revolution`; README.md lists what is not yet. The position (set up by
rules/campaign.py):

    turn       the round, from 1
    phase      "turn" (a power's turn) or "over"
    power      whose turn it is
    order      the powers in turn order (the civil war inserts the Soviets after the USA)
    at_war     the powers at war (all but the USA until its round-4 turn)
    treasury   IPC by power
    control    who controls each land territory (a power, or "neutral")
    contested  territories where both sides stand (they produce nothing, no one holds them)
    standing   each power's standing instructions (its loss orders; when its ships withdraw
               from a sea battle and whether its submarines submerge; Germany's answer to
               the armistice; where its units retreat at the civil war's revolution)
    units      by place, owner and type: counts
    options    the campaign's options (revolution: none, armistice or civil_war;
               soviets_player: the Central power whose player takes on the Soviets)
    revolution where the revolution stands (rules/revolution.py)
"""

from __future__ import annotations

from typing import Any

from pbem.game import Event, GameData, Orders, Rng, State
from pbem.kit.phases import TableGame

from . import boxes as boxes_
from . import (
    campaign,
    civil_war,
    combat,
    corrections,
    economy,
    movement,
    naval,
    order_of_battle,
    revolution,
    turns,
)
from . import headlines as headlines_
from . import phases as phases_
from . import position as position_
from . import report as report_
from . import standing as standing_
from . import view as view_
from .events import EVENTS

EVENTS.register(economy.APPLY, movement.APPLY, combat.APPLY, naval.APPLY, revolution.APPLY,
                civil_war.APPLY, corrections.APPLY, turns.APPLY, standing_.APPLY)
EVENTS.describes(economy.DESCRIBE, movement.DESCRIBE, combat.DESCRIBE, naval.DESCRIBE,
                 revolution.DESCRIBE, civil_war.DESCRIBE, corrections.DESCRIBE, turns.DESCRIBE,
                 standing_.DESCRIBE)


class AxisAndAllies1914(TableGame):
    phases = phases_.PHASES
    id = "aa1914"
    name = "Axis & Allies 1914"

    def describe(self, data: GameData) -> dict[str, Any]:
        return campaign.describe(data, self.id)

    def seating(self, data: GameData, state: State) -> dict[str, str | None]:
        """The Soviet power, once the civil war brings it in, to the Central power whose
        player takes it on (the option `soviets_player`)."""
        return civil_war.seating(data, state)

    def check_data(self, data: GameData) -> list[str]:
        return campaign.check_data(data)

    def setup(self, data: GameData, options: dict[str, Any], rng: Rng) -> State:
        return campaign.setup(data, options)

    def apply(self, data: GameData, state: State, event: Event) -> State:
        return EVENTS.apply(data, state, event)

    def view(self, data: GameData, state: State, who: str) -> dict[str, Any]:
        return view_.view(data, state)

    def report(self, data: GameData, view: dict[str, Any], before: dict[str, Any] | None,
               who: str, style: dict[str, Any], secrets: list[dict[str, Any]]) -> dict[str, Any]:
        """The map of the HTML report and where it opens (rules/report.py), the position and
        the changes in short (rules/position.py) and, for a power, its order of battle
        (rules/order_of_battle.py); pbem's defaults for the rest."""
        return {**report_.report(data, view, who), "position": position_.position(data, view),
                "changes": position_.changes(before, view),
                "own": order_of_battle.own(data, view, who)}

    def template(self, data: GameData, state: State, faction: str, rng: Rng) -> Orders:
        """Nothing bought or moved, but the attack the rules oblige the power to make this
        round (Austria-Hungary's on Serbia in round 1), as an absent player makes it
        (rules/phases.py `opening`): a template sent back as it is stays legal."""
        return {"orders": phases_.opening(data, state, faction)}

    def orders_sections(self, data: GameData, state: State, faction: str) -> list[tuple[str, list[int] | None]]:
        """ORDERS.md's examples of a power's turn file: buy, move, attack, mobilize
        (pbem.game.order_forms)."""
        return phases_.orders_sections(state)

    def standing_offer(self, data: GameData, state: State, faction: str) -> list[dict[str, Any]]:
        """The standing instructions of ORDERS.md the power may set, with their values in
        force, in a power's turn (the armistice's and the evacuation only with their option)."""
        return standing_.offer(data, state, faction)

    def headlines(self, data: GameData, events: list[Event]) -> list[str]:
        """What the turn's summary says of a step: battles on land and at sea and how they
        ended, territories captured or liberated, capitals taken, the USA entering, the
        revolution's steps, the end (rules/headlines.py)."""
        return headlines_.headlines(data, events)

    def boxes(self, data: GameData, state: State, events: list[Event]) -> list[dict[str, Any]]:
        """Each land and sea battle of a step as a box: the forces, every die with what it
        hits on and why, the hits and the losses (rules/boxes.py)."""
        return boxes_.boxes(data, state, events, lambda s, e: self.apply(data, s, e))

    def todo(self, data: GameData, state: State, faction: str) -> list[str]:
        """What the power's turn file must still cover: the war's opening attack, the
        armistice's deadline, where its purchase may be mobilized (rules/headlines.py)."""
        return headlines_.todo(data, state, faction)

    def summary(self, data: GameData, event: Event) -> str:
        return EVENTS.describe(data, event) or str(event["type"])


GAME = AxisAndAllies1914()
