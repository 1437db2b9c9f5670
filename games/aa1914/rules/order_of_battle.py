"""A power's order of battle in its own report (Game.report's "own" part): its treasury and
income, every unit it has by territory and sea zone with its values and cost (units.yaml,
SOURCES.md 0) and its damaged battleships (6.5), the territories that pay its income (4.2:
a contested one pays nothing), what it may buy this round and at what cost, and where what it
buys is mobilized (4.8; the todo's own words, rules/headlines.py `mobilization`).

A&A 1914 hides nothing, so this is the public position seen from one power: it is read from
the reader's view only (AxisAndAllies1914.view), whose names are turned back into ids the
way the map does (rules/report.py `Board`). A purchase is paid as the power's turn begins and
mobilized as it ends, by the same orders file, so no unit ever waits between two reports."""

from __future__ import annotations

from typing import Any

from pbem.game import GameData, State

from . import board, civil_war, economy, revolution
from .combat import AIR_HIT
from .headlines import mobilization
from .report import Board

# what each flag of units.yaml lets a unit do, as combat.py and naval.py referee it
# (SOURCES.md's numbers)
SPECIALS: tuple[tuple[str, str], ...] = (
    ("attack_free_hit", "cancels one of the defender's hits when attacking (2.6)"),
    ("bombard", "bombards once at its attack in an amphibious assault (7.3)"),
    ("capacity", "carries {capacity} land units (7.1); lost last, and all when unescorted (6.6)"),
)
# what combat.py does by a type's name rather than by a flag
BY_NAME = {"infantry": "the last to be lost while other units stand (3.3)",
           "artillery": "coastal defence: one shot at its defence at units landing (7.4)"}


def own(data: GameData, view: dict[str, Any], who: str) -> dict[str, Any] | None:
    """The order of battle of the power `who`, or None for the public, the referee and a
    power not in the game (the Soviets before the civil war brings them in)."""
    state = view_position(data, view)
    if who not in state["order"]:
        return None
    names = {r["power"]: r for r in view.get("powers") or []}
    row = names[board.power(data, who)["name"]]
    types = board.unit_types(data)
    ipc = state["treasury"][who]
    income, contested = economy.income(data, state, who)
    lines = [f"Treasury {ipc} IPC; income {income} IPC, collected after mobilizing"
             + (f" (nothing from contested {', '.join(board.name(data, t) for t in contested)}, 4.2)"
                if contested else "")
             + ("" if row["at war"] else "; not at war yet (8.1)") + "."]
    goes = mobilization(data, state, who)
    lines.append("What you buy is paid as your turn begins and mobilized as it ends (4.8): "
                 + (f"{goes}." if goes is not None else "nowhere now, so buy nothing."))
    buyable = economy.buyable(data, state)
    if "tank" in types and "tank" not in buyable:
        lines.append(f"Tanks may be bought from round {data['game']['tanks_from_round']} (10.2).")
    tables = [{"title": "Units (SOURCES.md 0: a die at or under the value hits)",
               "columns": ["Where", "Type", "Number", "Attack", "Defence", "Move", "Cost", "State"],
               "rows": _units(data, state, who)},
              {"title": "To buy (SOURCES.md 0)",
               "columns": ["Type", "Cost", "Attack", "Defence", "Move", f"At most ({ipc} IPC)", "Special"],
               "rows": [[u, types[u]["cost"], types[u]["attack"], types[u]["defence"], types[u]["move"],
                         ipc // int(types[u]["cost"]), _special(data, u)] for u in buyable]},
              {"title": "Territories held (4.2: contested ones pay nothing)",
               "columns": ["Territory", "IPC", "Notes"],
               "rows": _territories(data, state, who)}]
    return {"lines": lines, "tables": tables}


def view_position(data: GameData, view: dict[str, Any]) -> State:
    """The position a view shows, by ids, as the rules' functions read it: the round, whose
    turn, the powers in play with their treasuries, control, contested territories, units,
    damaged battleships, and the civil war once the Soviets are in play (the only part of the
    revolution where a power mobilizes: board.own_territory, board.without_capital)."""
    now = Board.of(data, view)
    ids = {p["name"]: p["id"] for p in board.powers(data)}
    rows = view.get("powers") or []
    order = [ids[r["power"]] for r in rows]
    rev: dict[str, Any] = {}
    war = (data["game"].get("revolution") or {}).get("civil_war")
    if war is not None and war["soviets"] in order:  # only the civil war brings them in
        rev = {"status": civil_war.CIVIL_WAR, "power": revolution.settings(data)["power"],
               "soviets": war["soviets"],
               # the territories of the Soviet control markers, as the `civil_war` event sets them
               "homes": [t for t in civil_war.settings(data)["soviet_units"] if not board.is_sea(t)]}
    return {"turn": int(view.get("round") or 1), "phase": "turn",
            "power": ids.get(str(view.get("turn of")), ""), "order": order,
            "treasury": {ids[r["power"]]: int(r["IPC"]) for r in rows},
            "control": dict(now.control), "contested": sorted(now.contested),
            "units": {p: {o: dict(u) for o, u in owners.items()} for p, owners in now.units.items()},
            "damaged": {z: dict(o) for z, o in now.damaged.items()}, "revolution": rev}


def _units(data: GameData, state: State, who: str) -> list[list[Any]]:
    """A row per place and type of the power's units: land first, by name, then the sea zones."""
    types = board.unit_types(data)
    out: list[list[Any]] = []
    places = sorted((p for p, owners in state["units"].items() if any(owners.get(who, {}).values())),
                    key=lambda p: (board.is_sea(p), board.name(data, p) if not board.is_sea(p) else p))
    for place in places:
        for unit, n in state["units"][place][who].items():
            if not n:
                continue
            spec = types[unit]
            notes = []
            hurt = int(state["damaged"].get(place, {}).get(who, 0)) if unit == "battleship" else 0
            if hurt:
                notes.append(f"{hurt} damaged: one more hit sinks it, repaired free next to a port "
                             "of yours (6.5, 4.8)")
            if place in state["contested"]:
                notes.append("contested (4.2)")
            out.append([board.name(data, place), unit, n, spec["attack"], spec["defence"], spec["move"],
                        spec["cost"], "; ".join(notes)])
    return out


def _special(data: GameData, unit: str) -> str:
    """What a type does beyond firing at its value, from its units.yaml flags."""
    spec = board.unit_types(data)[unit]
    told = []
    supports = spec.get("supports")
    if supports:
        whom = " or ".join(supports["units"])
        sides = " and ".join("attacking" if s == "attack" else "defending" for s in supports["sides"])
        if supports["each"] == "all":
            told.append(f"with no enemy fighter left, all {whom} of its side +{supports['bonus']} "
                        f"{sides} (air supremacy 2.2)")
        else:
            told.append(f"+{supports['bonus']} to {supports['each']} {whom} {sides} (2.4)")
    if unit in BY_NAME:
        told.append(BY_NAME[unit])
    if unit == "fighter":
        told.insert(0, f"fights the enemy fighters first, at {AIR_HIT} (2.1)")
    if int(spec.get("hits", 1)) > 1:
        told.append(f"takes {spec['hits']} hits: the first damages it (6.5)")
    for flag, text in SPECIALS:
        if spec.get(flag):
            told.append(text.format(**spec))
    if spec.get("first_strike") is False:
        told.append("no first strike; may submerge defending (6.4)")
    return "; ".join(told)


def _territories(data: GameData, state: State, who: str) -> list[list[Any]]:
    """The power's territories by name, with their IPC and what each is to it."""
    territories = data["map"]["territories"]
    capital = board.power(data, who)["capital"]
    out = []
    for t in sorted((t for t, o in state["control"].items() if o == who), key=lambda t: board.name(data, t)):
        notes = ["capital"] if t == capital else []
        made = territories[t].get("mobilize") or []
        mine = board.own_territory(data, state, who, t)  # only one's own mobilizes (4.8)
        if "land" in made:
            notes.append("factory" if mine else "factory (not yours to mobilize in)")
        if "sea" in made:
            notes.append("port" if mine else "port (not yours to mobilize in)")
        if t in state["contested"]:
            notes.append("contested: no income (4.2)")
        out.append([board.name(data, t), territories[t]["ipc"], ", ".join(notes)])
    return out
