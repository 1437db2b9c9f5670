"""The standing instructions offered in every purchase and action template (ORDERS.md,
"Standing instructions"): what each may be, what applies when it is not set, and what
setting it saves. The checks of the values are in rules/__init__.py (STANDING_KEYS)."""

from __future__ import annotations

from typing import Any

from pbem.game import State

from .board import MAJORS

# key: (values, default when not set, rule, what setting it saves), in ORDERS.md's order
OFFER: dict[str, tuple[str, str, str, str]] = {
    "lenin_initiative": ('"+2" | "-2" | none | ask', "none: no modifier", "10.8.1",
                         "Reds: used while Lenin is in Moscow; ask costs a mail round trip"),
    "retreat_before_combat": ("never | always | ask", "never: you stand and fight", "8.4",
                              "when you are attacked; ask costs a mail round trip in that phase"),
    "retreat_to": ("[zones in order]", "the nearest friendly zone", "8.4, 8.7",
                   "where your units go when they retreat, instead of pbem's choice"),
    "loss_order": ("[unit ids or inf | cav | tank | air]", "the rule's order", "8.6",
                   "which of your units lose steps first in a battle"),
    "invasion_rounds": ("1 to 20", "4", "8.3", "how many rounds your invasions are fought"),
    "voluntary_retreat": ("never | when_outnumbered", "never", "8.7",
                          "a retreat after a round of battle when outnumbered"),
    "stalin_commissars": ("0 | 1 | 2", "0", "10.82",
                          "Reds: the infantry Stalin's commissars drive on"),
    "supply_order": ("[unit ids or types]", "the rule's order", "5.5",
                     "which units are fed first in winter"),
    "unpaid_order": ("[unit ids or types]", "the rule's order", "5.6",
                     "which units lose a step first when upkeep runs out"),
    "naval_search": ("never | always", "never", "8.92",
                     "search enemy fleets sailing where yours lie, out of your phase"),
    "leaders_stay_out": ("[leader ids]", "every leader leads", "10.2",
                         "leaders who do not lead when you are attacked (no loss test)"),
    "battle_cards": ("[card ids]", "none", "14.2",
                     "cards to play when a battle you defend begins, without a round trip"),
    "play_when": ("[{card, when, of, zone, target}]", "none", "14.2",
                  "cards to play at a moment of another faction's action phase"),
    "play_poland": ("true | false", "false", "13.54",
                    "play on with Poland once your faction is eliminated"),
    "play_cards": ("never | auto", "never", "14.2",
                   "pbem plays your cards that need no choice at the start of their phase"),
    "discard_dead": ("true | false", "false", "14.73, 14.74",
                     "discard in the card phase the cards none of your factions can ever play"),
    "famine_relief": ("[zones in order]", "every zone struck, in game.yaml's order", "19.2",
                      "Reds, with the famine option: the zones to try to save"),
}
REDS_ONLY = ("lenin_initiative", "stalin_commissars", "famine_relief")


def offer(state: State, faction: str) -> list[dict[str, Any]]:
    """Every instruction the faction may set, with its value in force (None: not set)."""
    own = state.get("standing", {}).get(faction, {})
    out = []
    for key, (values, default, rule, saves) in OFFER.items():
        if key in REDS_ONLY and faction != "red" or faction not in MAJORS:
            continue
        if key == "famine_relief" and not state["options"].get("famine"):
            continue
        out.append({"key": key, "value": own.get(key), "values": values, "default": default,
                    "rule": rule, "saves": saves})
    return out
