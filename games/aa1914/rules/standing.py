"""A power's standing instructions (ORDERS.md, "Standing instructions"): the check of each
value a turn file may set (STANDING, `check`), the `standing` event that records them and its
line in the log, and those offered in the template of a power's turn: what each may be, what
applies when it is not set, and what setting it decides without a question by mail. The rules
that read them are in combat.py (`loss_order`), naval.py (`sea_losses`, `withdrawal`,
`submerges`), revolution.py (the armistice's offer) and civil_war.py (steps 1 and 2). Rule
numbers are SOURCES.md's, or the house rule's."""

from __future__ import annotations

from typing import Any

from pbem.game import Event, GameData, Problem, State
from pbem.kit import standing as standing_kit
from pbem.kit.events import Apply, Describe

from . import board, civil_war, combat, naval, revolution

PHASES = ("turn",)  # a power's turn: the one orders file, which records them
# the loss orders; withdrawing and submerging at sea (rules/naval.py); the armistice's
# answer; the civil war's retreats (steps 1 and 2)
# each standing instruction a power may give, with its check (pbem.kit.standing)
STANDING: dict[str, standing_kit.Check] = {
    "losses": standing_kit.ordering(combat.LOSS_ORDER, "the order your land units and fighters are "
                                    "lost in, each type once: " + ", ".join(combat.LOSS_ORDER)),
    "sea_losses": standing_kit.ordering(naval.SEA_LOSSES, "the order your ships take hits (battleship: "
                                        "a sound one is damaged) are lost in, each type once: "
                                        + ", ".join(naval.SEA_LOSSES)),
    "sea_withdraw": lambda data, state, pid, value: naval.check_withdrawal(value),
    "submerge": standing_kit.boolean("whether your defending submarines submerge when they are the "
                                     "last warships of your side in a sea battle"),
    "armistice": revolution.check_standing,
    civil_war.STANDING: civil_war.check_standing,
}

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
    """Every instruction the power may set, with its value in force (None: not set); none
    outside a power's turn (PHASES)."""
    if state["phase"] not in PHASES:
        return []
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


def check(data: GameData, state: State, pid: str, standing: Any, problems: list[Problem]) -> None:
    """A turn file's `standing:` part, each value by its check in STANDING (pbem.kit.standing)."""
    standing_kit.check(data, state, pid, standing, STANDING, problems)


def _standing_set(data: GameData, state: State, event: Event) -> None:
    state["standing"][event["power"]] = dict(event["standing"])


def _told_standing(data: GameData, event: Event) -> str:
    losses = ", ".join(event["standing"].get("losses") or combat.LOSS_ORDER)
    at_sea = ", ".join(event["standing"].get("sea_losses") or naval.SEA_LOSSES)
    answer = event["standing"].get("armistice")
    told = f"; it will {answer} an armistice offered" if answer else ""
    away = event["standing"].get(civil_war.STANDING) or {}
    if away:
        told += "; at the revolution its units retreat " + ", ".join(
            f"from {board.name(data, a)} to {board.name(data, b)}" for a, b in away.items())
    at_sea += _sea_standing(event["standing"])
    return (f"{board.power(data, event['power'])['name']} loses units in this order: "
            f"{losses}; at sea: {at_sea}{told}")


def _sea_standing(standing: dict[str, Any]) -> str:
    """A power's standing `sea_withdraw` and `submerge`, as the log says them."""
    rule = standing.get("sea_withdraw")
    told = []
    if isinstance(rule, dict) and rule.get("after_round"):
        told.append(f"after round {rule['after_round']}")
    if isinstance(rule, dict) and rule.get("when_outnumbered"):
        told.append("when outnumbered")
    out = f"; its attacking ships withdraw {' or '.join(told)}" if told else ""
    return out + ("; its defending submarines submerge" if standing.get("submerge") else "")


APPLY: dict[str, Apply[GameData]] = {"standing": _standing_set}
DESCRIBE: dict[str, Describe[GameData]] = {"standing": _told_standing}
