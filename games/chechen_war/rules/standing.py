"""The Russian's standing instructions, offered in the templates of his movement, combat and
supports files (ORDERS.md, "Movement"): what each may be, what applies when it is not set,
and what setting it decides for him in the Chechen's segments. The checks of the values are
in rules/__init__.py (STANDING, `_check_standing`); the rules that read them in ambush.py
(`_standing_order`, `step_losses`, `_retreat_hex`) and combat.py (10.11's losses)."""

from __future__ import annotations

from typing import Any

from pbem.game import Event, GameData, State
from pbem.kit.events import Apply

from .board import RUSSIAN

# the Russian's files that check and record them (rules/__init__.py: `_check_moves`,
# `_check_attacks`, `_check_russian_defence`, and `_standing` in their resolve)
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
    """Every instruction the side may set, with its value in force (None: not set); the
    Chechen has none."""
    if side != RUSSIAN:
        return []
    own = state.get("standing", {}).get(RUSSIAN, {})
    return [{"key": key, "value": own.get(key), "values": values, "default": default,
             "rule": rule, "saves": saves}
            for key, (values, default, rule, saves) in OFFER.items()]


def _standing(data: GameData, state: State, event: Event) -> None:
    state.setdefault("standing", {})[event["side"]] = dict(event["standing"])


APPLY: dict[str, Apply[GameData]] = {"standing": _standing}
