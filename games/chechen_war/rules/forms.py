"""What a side's orders form shows (pbem.game.order_forms): the template, the bot's file
without what the side must choose himself, and the sections of ORDERS.md whose examples
it shows in each segment (ORDERS_SECTIONS, SIDE_SECTIONS), with the End of Turn orders a
file may give ahead (ahead.py)."""

from __future__ import annotations

from pbem.game import GameData, Orders, Rng, State

from . import ahead
from .board import CHECHEN, RUSSIAN
from .phases import PHASES

# ORDERS.md's sections (their headings' start) and yaml blocks each segment's file takes
ORDERS_SECTIONS: dict[str, list[tuple[str, list[int] | None]]] = {
    "setup-russian": [("Set-up", [0])], "setup-chechen": [("Set-up", [1])],
    "russian-movement": [("Movement", [0, 2])],
    "chechen-movement": [("Movement", [1, 3]), ("Combat", [2])],
    "chechen-ambush": [("Ambushes", None)],
    "russian-combat": [("Combat", [0])], "chechen-supports": [("Combat", [1])],
    "chechen-combat": [("Combat", [2])], "russian-supports": [("Combat", [3])],
    "end-of-turn": [("End of the turn", None)],  # each side's own block: SIDE_SECTIONS
}
# the segments whose section of ORDERS.md shows each side its own block, by side
SIDE_SECTIONS: dict[str, dict[str, list[tuple[str, list[int] | None]]]] = {
    "end-of-turn": {RUSSIAN: [("End of the turn", [0])], CHECHEN: [("End of the turn", [1])]},
}


def template(data: GameData, state: State, faction: str, rng: Rng) -> Orders:
    """The bot's file, but no attack and no End of Turn order: the Chechen's movement
    file places his recruits (13.3: they must be) and attacks nothing he did not choose."""
    bot = ahead.without(PHASES.bot(data, state, faction, rng))
    if state.get("phase") == "chechen-movement":
        return {"orders": [o for o in bot["orders"] if "attack" not in o]}
    return bot


def orders_sections(data: GameData, state: State, faction: str) -> list[tuple[str, list[int] | None]]:
    """The sections of ORDERS.md whose examples the side's orders template shows in
    this segment (pbem.game.order_forms): with the End of Turn orders a file may give
    ahead (ahead.py)."""
    phase = str(state.get("phase"))
    own = SIDE_SECTIONS.get(phase, {}).get(faction) or ORDERS_SECTIONS.get(phase, [])
    if ahead.on(state) and phase in ahead.PHASES.get(faction, ()):  # its End of Turn orders
        return [*own, ("End of the turn", [2 if faction == RUSSIAN else 3])]
    return own
