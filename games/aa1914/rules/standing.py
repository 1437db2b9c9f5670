"""The standing instructions offered in the template of a power's turn (ORDERS.md, "Standing
instructions"): what each may be, what applies when it is not set, and what setting it
decides without a question by mail. The checks of the values are in rules/__init__.py
(STANDING, `_check_standing`); the rules that read them in combat.py (`loss_order`),
naval.py (`sea_losses`, `withdrawal`, `submerges`), revolution.py (the armistice's offer)
and civil_war.py (steps 1 and 2). Rule numbers are SOURCES.md's, or the house rule's."""

from __future__ import annotations

from typing import Any

from pbem.game import GameData, State

from . import board, civil_war, revolution

PHASES = ("turn",)  # a power's turn: the one orders file, which records them

# key: (values, default when not set, rule, what setting it decides), in ORDERS.md's order
OFFER: dict[str, tuple[str, str, str, str]] = {
    "losses": ("[infantry, artillery, tank, fighter], in any order",
               "infantry, artillery, tank, fighter; the last infantry kept", "SOURCES.md 3.1, 3.3",
               "which of your land units and fighters are lost first in a land battle"),
    "sea_losses": ("[battleship, submarine, cruiser, damaged_battleship, transport], in any order",
                   "battleship (a sound one damaged), submarine, cruiser, damaged_battleship, transport",
                   "SOURCES.md 6.5, 6.6", "which of your ships take hits first in a sea battle"),
    "sea_withdraw": ("never | {after_round: N, when_outnumbered: true} (either or both)",
                     "never: they fight to the end", "SOURCES.md 6.1",
                     "when your attacking ships break off a sea battle, to the zone they came from"),
    "submerge": ("true | false", "false: they fight to the end", "SOURCES.md 6.4",
                 "your defending submarines leave a battle once they are your side's last "
                 "warships there"),
    "armistice": ("accept | reject", "accept", "armistice house rule, the offer",
                  "your answer for the Central Powers when the armistice is offered "
                  "(revolution: armistice)"),
    civil_war.STANDING: ("{PLACE: a land territory next to it}", "the refuge next to it where "
                         "your side has most units", "civil war, steps 1 and 2",
                         "where your units there go at the revolution (revolution: civil_war)"),
}


def _armistice(data: GameData, state: State, pid: str) -> bool:
    """The power that answers the offer, in a campaign playing the armistice, while it has
    not been offered (revolution.check_standing refuses it otherwise)."""
    decider = revolution.settings(data)["armistice"]["decided_by"]
    return (revolution.chosen(state) == revolution.ARMISTICE and pid == decider
            and (state.get("revolution") or {}).get("status") == "waiting")


def _evacuation(data: GameData, state: State, pid: str) -> list[str]:
    """The places the power's units leave at the revolution, in a campaign playing the civil
    war, until it takes place (civil_war.check_standing refuses it otherwise); [] if none."""
    side = board.side(data, pid)
    if revolution.chosen(state) != civil_war.CIVIL_WAR or civil_war.begun(state) or side is None:
        return []
    return list(civil_war.settings(data)["evacuate"][side])


def offer(data: GameData, state: State, pid: str) -> list[dict[str, Any]]:
    """Every instruction the power may set, with its value in force (None: not set)."""
    own = state.get("standing", {}).get(pid, {})
    places = _evacuation(data, state, pid)
    out = []
    for key, (values, default, rule, saves) in OFFER.items():
        if key == "armistice" and not _armistice(data, state, pid):
            continue
        if key == civil_war.STANDING:
            if not places:
                continue
            values = values.replace("PLACE", " | ".join(places))
        out.append({"key": key, "value": own.get(key), "values": values, "default": default,
                    "rule": rule, "saves": saves})
    return out
