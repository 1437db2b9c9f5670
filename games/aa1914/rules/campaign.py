"""An Axis & Allies 1914 campaign before its first turn: the game as pbem describes it (the
powers with their sides, the dormant ones marked; the campaign's options; the phases), its
data checked beyond the schemas (the map, the revolution's and the civil war's settings, the
report's layout, each option's default one of its choices), and the opening position with
the options chosen (Game.describe, check_data and setup)."""

from __future__ import annotations

from typing import Any

from pbem.game import GameData, State, clone

from . import board, civil_war, report, revolution
from .phases import PHASES
from .turns import USA


def options(data: GameData) -> list[dict[str, Any]]:
    """The campaign's options (game.yaml `options`): each one's id, default, help and choices."""
    return [{"id": k, "default": v["default"], "help": v["help"],
             **({"choices": list(v["choices"])} if "choices" in v else {})}
            for k, v in data["game"].get("options", {}).items()]


def describe(data: GameData, game_id: str) -> dict[str, Any]:
    g = data["game"]
    return {
        "id": game_id,
        "name": g["name"],
        "factions": [{"id": p["id"], "name": p["name"], "side": p["side"]}
                     | ({"dormant": True} if p in g.get("dormant_powers", []) else {})
                     for p in board.powers(data)],
        "options": options(data),
        "phases": list(PHASES.phases),
    }


def check_data(data: GameData) -> list[str]:
    problems = (board.check(data) + revolution.check_data(data) + civil_war.check_data(data)
                + report.check_layout(data))
    for k, v in data["game"].get("options", {}).items():
        if "choices" in v and v["default"] not in v["choices"]:
            problems.append(f"game.yaml: options: {k}: default {v['default']!r} is not one "
                            f"of its choices ({', '.join(map(str, v['choices']))})")
    return problems


def setup(data: GameData, given: dict[str, Any]) -> State:
    chosen = {o["id"]: given.get(o["id"], o["default"]) for o in options(data)}
    order = [p["id"] for p in data["map"]["powers"]]
    control = {t: v["owner"] for t, v in data["map"]["territories"].items()
               if not v.get("impassable")}
    return {
        "turn": 1, "phase": "turn", "power": order[0], "order": order,
        "at_war": [p for p in order if p != USA],
        "treasury": {p["id"]: p["start_ipc"] for p in data["map"]["powers"]},
        "control": control, "contested": [], "standing": {}, "damaged": {},
        "units": clone(data["units"].get("start") or {}),
        "options": chosen, "revolution": revolution.start(data),
        "over": False, "result": None,
    }
