"""A faction's order of battle in its own report (Game.report's "own" part): every unit and
leader it has, where, with its counter values and whether reduced; at set-up the pieces it
drew and must place, each with the zones it may go to (3.0, 20.5); what it may buy from
its pool and at what cost (5.3); what it bought and when each arrives (5.2); its money and
manpower. From the reader's view, so nothing another faction's report would not show."""

from __future__ import annotations

from typing import Any

from pbem.game import GameData

from .board import MAJORS, Board, board
from .economy import costs
from .setup import allowed_places, to_place

STATES = {"map": "on the map", "bought": "bought", "pool": "in the pool",
          "eliminated": "eliminated (may be bought again, 5.3)"}


def own(data: GameData, view: dict[str, Any], who: str) -> dict[str, Any] | None:
    """The order of battle of `who`, or None for the public and the referee, and in the
    contribution round (pbem.contributions), before anything is set up."""
    if who not in MAJORS or view.get("contribute"):
        return None
    b = board(data)
    units = view.get("units") or {}
    mine = {pid: u for pid, u in units.items() if u.get("faction") == who}
    rows = []
    for pid, u in sorted(mine.items(), key=lambda x: (str(x[1].get("zone") or ""), x[0])):
        if u.get("status") != "map":
            continue
        if u["type"] == "leader":
            rows.append([pid, "leader", u["zone"], f"level {b.leaders[pid]['level']}", ""])
            continue
        counter = b.counters[pid]
        values = counter["reduced"] if u.get("reduced") else counter["full"]
        rows.append([pid, u["type"], u["zone"], f"{values[0]}-{values[1]}",
                     "reduced" if u.get("reduced") else ""])
    table = costs(data)
    pool: dict[str, int] = {}
    for u in mine.values():
        if u["type"] != "leader" and (u.get("status") == "pool" or (
                u.get("status") == "eliminated" and u["type"] != "fleet")):
            pool[u["type"]] = pool.get(u["type"], 0) + 1
    buyable = [[kind, n, f"{table[kind]['money']} money, {table[kind]['manpower']} manpower",
                f"{table[kind].get('delay', 0)} turns later",
                f"{table[kind]['repair']['money']} money, {table[kind]['repair']['manpower']} manpower"]
               for kind, n in sorted(pool.items()) if kind in table]
    arriving = sorted([pid, u["type"], int(u.get("arrives") or 0)] for pid, u in mine.items()
                      if u.get("status") == "bought")
    money, manpower = (view.get("money") or {}).get(who), (view.get("manpower") or {}).get(who)
    tables = [{"title": "On the map", "columns": ["Unit", "Type", "Zone", "Values", ""], "rows": rows}] \
        if rows else []
    drawn = _drawn(b, view, who)
    if drawn:
        tables.insert(0, {"title": "Drawn at set-up, to place (3.0, 20.5)",
                          "columns": ["Piece", "Type", "Values", "May go to"], "rows": drawn})
    if buyable:
        tables.append({"title": "To buy (5.3) and repair (5.4)",
                       "columns": ["Type", "In the pool", "Costs", "Arrives", "Repair"],
                       "rows": buyable})
    if arriving:
        tables.append({"title": "Bought, arriving (5.2)", "columns": ["Unit", "Type", "On turn"],
                       "rows": arriving})
    lines = [f"Money {money}, manpower {manpower}."]
    if not rows:
        lines.append("No unit of yours is on the map yet.")
    return {"lines": lines, "tables": tables}


def _drawn(b: Board, view: dict[str, Any], who: str) -> list[list[Any]]:
    """The pieces `who` drew at set-up and must place now (its own, the minors' and the
    allied units it drew), each with its values and the zones it may go to (3.0, 20.5)."""
    if "units" not in view or "control" not in view:
        return []
    out = []
    for pid in to_place(view, who):
        u = view["units"][pid]
        if u["type"] == "leader":
            values = f"level {b.leaders[pid]['level']}"
        else:
            full = b.counters[pid]["full"]
            values = f"{full[0]}-{full[1]}"
        out.append([pid, u["type"], values, ", ".join(sorted(allowed_places(b, view, pid))) or "no zone open"])
    return out
