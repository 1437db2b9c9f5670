"""The standing instructions (ORDERS.md, "Standing instructions"): the keys the rules take
and what each value may be (STANDING_KEYS), their checks in any phase's orders
(STANDING_CHECKS, `check`), the phases whose orders file carries them, and what is offered
in every purchase and action template: what each may be, what applies when it is not set,
and what setting it saves (OFFER)."""

from __future__ import annotations

from typing import Any

from pbem.game import GameData, Orders, Problem, State
from pbem.kit import standing as standing_kit

from . import battle, decisions, famine, play, turn
from .board import MAJORS, board

STANDING_KEYS: dict[str, Any] = {
    # 10.8.1: Lenin in Moscow lets the Reds add or subtract 2 from their initiative roll
    "lenin_initiative": turn.LENIN_CHOICES,
    # 8.4 when attacked: retreat before combat where the rules allow it
    "retreat_before_combat": {"never": 0, "always": 1},
    # 8.4, 8.7: zones to retreat to, in order of preference
    "retreat_to": list,
    # 8.6: units (ids) or types (inf, cav, tank, air) to take losses first
    "loss_order": list,
    # 8.3: how many rounds an invasion is fought before the attacker stops
    "invasion_rounds": int,
    # 8.7: retreat by choice after a round when outnumbered (default never)
    "voluntary_retreat": {"never": 0, "when_outnumbered": 1},
    # 10.82: how many Red infantry units Stalin's commissars drive on (0, 1 or 2)
    "stalin_commissars": {0: 0, 1: 1, 2: 2},
    # 5.5: units (ids or types) to supply first when a zone cannot feed them all
    "supply_order": list,
    # 5.6: units (ids or types) to lose a step first when maintenance cannot be paid
    "unpaid_order": list,
    # 14.2: battle cards (ids) to play when a battle you defend begins
    "battle_cards": list,
    # 14.2: pbem plays at the start of its phase every card that needs no choice
    "play_cards": {"never": 0, "auto": 1},
    # 10.2: leaders (ids) who do not lead your units when you are attacked (no 10.4 test)
    "leaders_stay_out": list,
    # 14.4, 14.73, 14.74: discard in the card phase every card you can never play
    "discard_dead": bool,
    # 14.2: cards to play at a moment of another's action phase (checked in play.py)
    "play_when": dict,
    # 13.54: once eliminated, play on with Poland as a major faction when the rules allow
    "play_poland": bool,
    # 8.92: out of your phase, search the enemy fleets that sail where yours lie
    "naval_search": {"never": 0, "always": 1},
    # 19.2: the zones struck by famine the Reds try to save, in order, one rail point each
    "famine_relief": list,
}


def name_takes_standing(phase: str) -> bool:
    """The phases whose orders file carries standing instructions (the bot sets them)."""
    return phase in ("purchase", "action")


def _standing_check(key: str, spec: Any) -> standing_kit.Check:
    """The check of one instruction of STANDING_KEYS (pbem.kit.standing); `ask` asks by mail
    where the instruction may (rules/decisions.py)."""
    choices = None if spec in (dict, list, bool, int) else standing_kit.one_of(list(spec), key)

    def test(data: GameData, state: State, faction: str, value: Any) -> str | standing_kit.Placed | None:
        if decisions.standing_ok(key, value) or spec is dict:
            return None  # a structured instruction its own module checks
        if spec is list:
            ok = isinstance(value, list) and all(isinstance(v, str) for v in value)
            return None if ok else f"{key} is a list of names"
        if spec is bool:
            return None if isinstance(value, bool) else f"{key} is true or false"
        if spec is int:
            ok = not isinstance(value, bool) and isinstance(value, int) and 1 <= value <= battle.MAX_ROUNDS
            return None if ok else f"{key} is a number of rounds, 1 to {battle.MAX_ROUNDS}"
        assert choices is not None
        return choices(data, state, faction, value)
    return test


STANDING_CHECKS = {key: _standing_check(key, spec) for key, spec in STANDING_KEYS.items()}


def check(data: GameData, state: State, faction: str, orders: Orders) -> list[Problem]:
    """The standing instructions an orders file of any phase may carry: each value by its
    check (STANDING_CHECKS), the famine's relief (19.2), the cards' moments (14.2) and the
    places to retreat to (8.4) by their modules'."""
    standing = orders.get("standing")
    problems: list[Problem] = []
    standing_kit.check(data, state, faction, standing, STANDING_CHECKS, problems)
    if not isinstance(standing, dict):
        standing = {}  # none, or not a mapping (said)
    problems += famine.check_standing(data, standing)
    problems += play.check_play_when(data, standing)
    # 8.4 a sea in retreat_to: a retreat by sea
    decisions.check_retreat_places(board(data), standing.get("retreat_to"),
                                   ("standing", "retreat_to"), problems)
    return problems


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
