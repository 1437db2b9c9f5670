"""A faction's order of battle in its own report (Game.report's "own" part): every unit and
leader it has, where, with its counter values and whether reduced; what it may buy from
its pool and at what cost (5.3); what it bought and when each arrives (5.2); its money and
manpower. From the reader's view, so nothing another faction's report would not show."""

from __future__ import annotations

from typing import Any

from pbem.game import GameData

from .board import MAJORS, board
from .economy import costs

STATES = {"map": "on the map", "bought": "bought", "pool": "in the pool",
          "eliminated": "eliminated (may be bought again, 5.3)"}


def own(data: GameData, view: dict[str, Any], who: str) -> dict[str, Any] | None:
    """The order of battle of `who`, or None for the public and the referee."""
    if who not in MAJORS:
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
    tables = [{"title": "On the map", "columns": ["Unit", "Type", "Zone", "Values", ""], "rows": rows}]
    if buyable:
        tables.append({"title": "To buy (5.3) and repair (5.4)",
                       "columns": ["Type", "In the pool", "Costs", "Arrives", "Repair"],
                       "rows": buyable})
    if arriving:
        tables.append({"title": "Bought, arriving (5.2)", "columns": ["Unit", "Type", "On turn"],
                       "rows": arriving})
    return {"lines": [f"Money {money}, manpower {manpower}."], "tables": tables}
