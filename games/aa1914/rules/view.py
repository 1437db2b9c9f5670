"""The view of an Axis & Allies 1914 position (Game.view), the same for every reader (A&A
hides nothing): the round and whose turn it is, each power's side, war, treasury, income and
number of territories, the contested territories, who holds each territory, the minefields,
the damaged battleships, the revolution and every place's units by owner, all by their
names. The reports are drawn from it (rules/report.py, position.py, order_of_battle.py)."""

from __future__ import annotations

from typing import Any

from pbem.game import GameData, State

from . import board, civil_war, economy, revolution


def view(data: GameData, state: State) -> dict[str, Any]:
    names = {p["id"]: p["name"] for p in board.powers(data)}
    held: dict[str, list[str]] = {}
    for t, owner in state["control"].items():
        held.setdefault(owner, []).append(t)
    return {
        "round": state["turn"],
        "turn of": names.get(state["power"], state["power"]),
        "powers": [{"power": names[p], "side": board.side(data, p),
                    "at war": p in state["at_war"], "IPC": state["treasury"][p],
                    "income": economy.income(data, state, p)[0],
                    "territories": len(held.get(p, []))} for p in state["order"]],
        "contested": [board.places(data)[t]["name"] for t in state["contested"]],
        # who holds each territory, and what lies at sea (the report's map draws them)
        "control": {board.name(data, t): names.get(o, o) for t, o in state["control"].items()},
        "minefields": {board.name(data, z): names[owner] for z in data["map"]["sea_zones"]
                       if (owner := board.minefield(data, state, z)) is not None},
        "damaged battleships": {board.name(data, z): {names.get(o, o): n for o, n in owners.items()}
                                for z, owners in sorted(state.get("damaged", {}).items())
                                if any(owners.values())},
        "revolution": (civil_war.view(data, state)
                       if revolution.chosen(state) == civil_war.CIVIL_WAR
                       else revolution.view(data, state)),
        "units": {board.places(data)[place]["name"]: {names.get(o, o): dict(u)
                                                      for o, u in owners.items() if u}
                  for place, owners in sorted(state["units"].items()) if any(owners.values())},
    }
