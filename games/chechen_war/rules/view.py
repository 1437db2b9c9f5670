"""What the game shows: of itself (`describe`: its factions, options and segments) and of a
position to one reader (`view`: the map's units, the General Data Track, the leaders, the
markers and boxes, and what only the Russian or the Chechen may see of his own)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from pbem.game import GameData, State

from . import order_of_battle
from .board import CHECHEN, RUSSIAN, board, units
from .phases import PHASES


def describe(data: GameData, game_id: str) -> dict[str, Any]:
    g = data["game"]
    return {"id": game_id, "name": g["name"],
            "factions": [{"id": f["id"], "name": f["name"]} for f in g["factions"]],
            "options": [{"id": k, "default": v["default"], "help": v["help"],
                         **({"choices": list(v["choices"])} if "choices" in v else {})}
                        for k, v in g.get("options", {}).items()],
            "phases": list(PHASES.phases)}


def view(data: GameData, state: State, who: str) -> dict[str, Any]:
    b = board(data)
    stacks: dict[str, list[str]] = {}
    for unit, where in sorted(state["russians"].items()):  # public (10.6), with values (2.8)
        told = order_of_battle.counter(data, unit, bool(where.get("reduced")))
        stacks.setdefault(b.label(where["hex"]), []).append(told)
    places = {"underground": "underground", "next_turn": "back next turn", "eliminated": "eliminated"}
    leaders = {data["units"]["leaders"][x]["name"]: places.get(where, b.label(where) if where in b.terrain
                                                              else str(where))
               for x, where in sorted(state["leaders"].items())}
    markers = "; ".join(f"{side}: " + (", ".join(f"{k} {n}" for k, n in sorted(state["supports"][side].items())
                                                  if int(n)) or "none")
                        for side in (RUSSIAN, CHECHEN))
    hidden = Counter(b.label(t["hex"]) for t in state["tokens"].values() if not t.get("revealed"))
    shown: dict[str, list[str]] = {}
    for _token, spec in sorted(state["tokens"].items()):
        if spec.get("revealed"):  # 10.6: face up once attacked (a ruling: until eliminated)
            shown.setdefault(b.label(spec["hex"]), []).append(units(data)[spec["unit"]]["name"])
    return {
        "turn": state["turn"], "segment": PHASES.phase(data, state).title,
        "Russian morale": state["morale"], "Russian casualties": state["casualties"],
        "collateral damage": state["collateral"],
        "Russian units": {h: ", ".join(us) for h, us in sorted(stacks.items())},
        "Chechen units (face down)": dict(sorted(hidden.items())),
        "Chechen units revealed": {h: ", ".join(us) for h, us in sorted(shown.items())},
        "Chechen units in the cup": state["cup"],
        "Chechen leaders": leaders,
        "support markers available": markers,
        "Russian recruitment box": ", ".join(units(data)[u]["name"] for u in state["recruits"][RUSSIAN])
        or "empty",
        "Chechen recruitment box (face down)": len(state["recruits"][CHECHEN]),
        "ceasefire turn": state["ceasefire"]["turn"] or "none declared",
        **({"your reinforcement pool (13.1)": ", ".join(
            f"{units(data)[u]['name']} ({units(data)[u]['cf']}-{units(data)[u]['mf']})"
            for u in state["pool"]) or "empty"} if who in (RUSSIAN, "referee") else {}),
        # the Chechen's tokens, those face up with the unit the combat revealed (10.6)
        **({"your tokens": {t: b.label(v["hex"]) + (f", face up: {units(data)[v['unit']]['name']}"
                                                    if v.get("revealed") else "")
                            for t, v in sorted(state["tokens"].items())},
            "your recruitment box": [n["id"] if isinstance(n, dict) else str(n)
                                     for n in state["recruits"][CHECHEN]]}
           if who in (CHECHEN, "referee") else {}),
    }
