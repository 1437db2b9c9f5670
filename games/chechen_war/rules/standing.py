"""The Russian's standing instructions, offered in the templates of his movement, combat and
supports files (ORDERS.md, "Movement"): what each may be, what applies when it is not set,
and what setting it decides for him in the Chechen's segments; the checks of the values
(CHECKS, pbem.kit.standing), which `check` makes of every file that records them, and the
`standing` event such a file records (`record`); the rules that read them are in ambush.py
(`_standing_order`, `step_losses`, `_retreat_hex`) and combat.py (10.11's losses)."""

from __future__ import annotations

from typing import Any

from pbem.game import Event, GameData, Orders, Problem, State
from pbem.kit import standing as standing_kit
from pbem.kit.events import Apply, Describe
from pbem.kit.standing import Check, Placed

from .board import RUSSIAN, board, hex_in, units

# the Russian's files that check and record them (rules/phases.py: `_russian_checks` of
# the movement, attacks and supports, and `record` in their resolve)
PHASES = ("russian-movement", "russian-combat", "russian-supports")

# key: (values, default when not set, rule, what setting it decides), in ORDERS.md's order
OFFER: dict[str, tuple[str, str, str, str]] = {
    "retreat_first": ("[your unit ids, in order]", "the weakest retreat first", "14.3",
                      "which of your units retreat when an ambush makes some retreat"),
    "step_losses": ("[your unit ids, in order]",
                    "a full-strength two-step unit is reduced, the strongest; else the weakest "
                    "is lost", "14.3, 10.11",
                    "which of your units lose steps first, in ambushes and in combat"),
    "retreat_to": ('["CCRR" hexes, in order]',
                   "an adjacent hex with room, out of Chechen zones of control, then the "
                   "farthest from the ambush", "14.3",
                   "where your ambushed units retreat: the first of these next to them with room"),
}


def offer(state: State, side: str) -> list[dict[str, Any]]:
    """Every instruction the side may set, with its value in force (None: not set), in the
    segments whose file records them (PHASES); the Chechen has none."""
    if state["phase"] not in PHASES or side != RUSSIAN:
        return []
    own = state.get("standing", {}).get(RUSSIAN, {})
    return [{"key": key, "value": own.get(key), "values": values, "default": default,
             "rule": rule, "saves": saves}
            for key, (values, default, rule, saves) in OFFER.items()]


def record(state: State, orders: Orders) -> list[Event]:
    """The `standing` event of a Russian file that gives instructions: those in force with
    the file's over them (null drops one); none for a file that gives none."""
    given = orders.get("standing") or {}
    now = {k: v for k, v in {**state.get("standing", {}).get(RUSSIAN, {}), **given}.items()
           if v is not None}  # null drops one
    return [{"type": "standing", "side": RUSSIAN, "standing": now}] if given else []


def _standing(data: GameData, state: State, event: Event) -> None:
    state.setdefault("standing", {})[event["side"]] = dict(event["standing"])


def _told_standing(data: GameData, event: Event) -> str:
    return "the Russian's standing instructions: " + "; ".join(
        f"{k}: {', '.join(v)}" for k, v in event["standing"].items())


APPLY: dict[str, Apply[GameData]] = {"standing": _standing}
DESCRIBE: dict[str, Describe[GameData]] = {"standing": _told_standing}


def _units_in_order(data: GameData, state: State, faction: str, value: Any) -> str | None:
    if isinstance(value, list) and all(u in units(data) and units(data)[u]["side"] == RUSSIAN for u in value):
        return None
    return "expected a list of your units' ids, in order"


def _hexes_in_order(data: GameData, state: State, faction: str, value: Any) -> str | Placed | None:
    if not isinstance(value, list):
        return 'expected a list of hexes, "CCRR", in order'
    b = board(data)
    for k, hex_id in enumerate(value):
        found: list[Problem] = []
        if hex_in(b, hex_id, (k,), found) is None:
            return found[0].path, found[0].message
    return None


# each instruction's check (pbem.kit.standing): units in order, and the hexes his ambushed
# units retreat into, in order of preference
CHECKS: dict[str, Check] = {"retreat_first": _units_in_order, "step_losses": _units_in_order,
                            "retreat_to": _hexes_in_order}


def check(data: GameData, state: State, given: Any, problems: list[Problem]) -> None:
    """What is wrong in the instructions a Russian file gives (CHECKS, pbem.kit.standing)."""
    standing_kit.check(data, state, RUSSIAN, given, CHECKS, problems)
