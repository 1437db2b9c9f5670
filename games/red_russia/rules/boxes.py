"""Battles, sieges and the winter as boxes in a Red Russia report (Game.boxes): who fought (each unit
with its counter values, leaders with their levels, the fortification the defender adds:
8.5, 10.2), each round's dice by group with what each hits on and why (8.5, 8.91, 8.93,
10.82, 10.83, 14.6), and the hits; a siege's besiegers against the fortification that
fires back, and the hits the fortification has taken (9.2-9.5, 13.3); the winter's
attrition, maintenance and collection a faction a row (4.7-4.9); the losses,
retreats and the end of the battle stay below the table as the log tells them. Built from
the step's events folded from the state before the step, so it says nothing the log does
not."""

from __future__ import annotations

import textwrap
from typing import Any

from pbem.game import Event, GameData, State

from .board import HARD_ROUTES, Board, board
from .fold import EVENTS, apply_with
from .forces import fort_now, leaders_at, units_at
from .headlines import names


def _units(b: Board, state: State, ids: list[str]) -> str:
    told = []
    for u in ids:
        c, reduced = b.counters[u], bool(state["units"][u]["reduced"])
        values = c["reduced"] if reduced else c["full"]
        told.append(f"{u} {values[0]}-{values[1]}" + (" (reduced)" if reduced else ""))
    return ", ".join(told) or "none"


def _leaders(b: Board, ids: list[str]) -> str:
    return ", ".join(f"{lid} (level {b.leaders[lid]['level']})" for lid in ids) or "none"


def _why(group: dict[str, Any], side: str, r: int, defended_after_route: bool,
         finnish: bool = False) -> str:
    """Why a group of dice hits on its number (8.5's +1, tanks, aircraft, Trotsky, cards)."""
    what, hit = str(group["what"]), int(group["hit"])
    reasons = []
    if what == "tanks" and r == 1:
        reasons.append("tanks 8.91")
    if what == "aircraft":
        reasons.append("first fire 8.93")
    if what == "Trotsky":
        reasons.append("10.83")
    if what == "Stalin's commissars":
        reasons.append("doubled 10.82")
    if what == "fortification" and hit < 6 and finnish:
        reasons.append("Finnish 13.3")
    if what not in ("units", "leaders", "tanks", "aircraft", "Trotsky", "Stalin's commissars",
                    "fortification"):
        reasons.append("battle card 14.6")
    if side == "def" and defended_after_route and r == 1 and what != "Trotsky":
        reasons.append(f"+1 after a difficult route {'9.3' if what == 'fortification' else '8.5'}")
    because = f" ({', '.join(reasons)})" if reasons else ""
    values = " ".join(str(v) for v in group.get("values") or [])
    hits = int(group.get("hits") or 0)
    return f"{what} {hit}+{because}: {values} = {hits} hit{'' if hits == 1 else 's'}"


def _siege(b: Board, state: State, called: dict[str, str], events: list[Event],
           i: int) -> dict[str, Any]:
    """The box of the siege whose `siege` event is events[i] (9.2-9.5), `state` the state
    before it: it runs while the events are of its zone or its pieces (their losses,
    retreats, leaders' fates, the zone taken or the siege lifted)."""
    e = events[i]
    zone, attacker = str(e["zone"]), str(e["faction"])
    pieces = set(units_at(state, zone))
    held = set(state["units"][u]["faction"] for u in pieces)
    leaders = leaders_at(state, zone, held | {attacker})
    pieces |= set(leaders)
    holder = state["control"].get(zone)
    fort, standing = int(b.zones[zone]["fort"]), fort_now(b, state, zone)
    name = called.get(attacker, attacker)
    held_by = called.get(str(holder), str(holder)) if holder else "neutral"
    cost = f", {e['cost']} money" if e.get("cost") else ""
    taken = f"; {fort - standing} hit{'' if fort - standing == 1 else 's'} on it before" \
        if standing < fort else ""
    box: dict[str, Any] = {
        "first": i, "last": i, "told": [i],
        "title": f"Siege of {zone} ({held_by}, fortification {fort}): {name}, "
                 f"{e['rounds']} round{'' if e['rounds'] == 1 else 's'} paid{cost}",
        "columns": ["", f"{name} (besieger)", f"Fortification of {zone}"],
        "rows": [["Units", _units(b, state, units_at(state, zone)), ""],
                 ["Leaders", _leaders(b, leaders), ""],
                 ["Fortification", "", f"{fort} (9.2){taken}"]]}
    finnish = holder == "finland"
    difficult = any(x.get("faction") == attacker and x.get("kind") in HARD_ROUTES
                    for x in state.get("entered", {}).get(zone, []))
    hits_so_far = fort - standing
    for j in range(i + 1, len(events)):
        x = events[j]
        kind = x.get("type")
        if kind in ("siege", "attack") or not (
                x.get("zone") == zone or x.get("unit") in pieces or x.get("leader") in pieces
                or kind == "lenin_killed"):
            break
        box["last"] = j
        if kind == "combat_round" and x.get("siege"):
            r = int(x.get("round") or 0)
            dice = x.get("dice") or {}
            box["rows"].append([f"Round {r}"] + [
                "; ".join(_why(g, side, r, difficult, finnish) for g in dice.get(side) or [])
                or "no dice" for side in ("atk", "def")])
            box["told"].append(j)
        elif kind == "siege_hits" and box["rows"][-1][0].startswith("Round"):
            hits_so_far += int(x.get("hits") or 0)  # 9.2 the hits add up, round after round
            box["rows"][-1][1] += f"; {hits_so_far} of {fort} on the fortification (9.2)"
            box["told"].append(j)
    return box


WINTER = ("attrition", "maintenance", "unmaintained", "collected")
WIDTH = 40  # a cell's text is wrapped to this width, over rows of its own


def _short(faction: str, units: list[str]) -> str:
    """Units named without their faction's prefix, in a row that names the faction."""
    return ", ".join(u[len(faction) + 1:] if u.startswith(f"{faction}-") else u for u in units)


def _winter(called: dict[str, str], events: list[Event], first: int) -> dict[str, Any]:
    """The winter's attrition (4.7, 5.5), maintenance (4.8, 5.6) and collection (4.9, 6.3)
    as one table, a faction a row, from the events[first:] of those kinds."""
    told = [i for i in range(first, len(events)) if events[i].get("type") in WINTER
            or (events[i].get("type") == "segment" and str(events[i].get("rule")) in ("4.7", "4.8", "4.9"))]
    order: list[str] = []
    cells: dict[str, dict[str, list[str]]] = {}
    for i in told:
        e = events[i]
        if e.get("type") == "segment":
            continue
        faction = str(e["faction"])
        if faction not in cells:
            order.append(faction)
            cells[faction] = {"attrition": [], "lost": [], "dead": [], "paid": [], "collected": []}
        c = cells[faction]
        kind = e["type"]
        if kind == "attrition":
            where = f"{e['zone']} ({e['count']} units, limit {e['limit']}{'' if e['zone_of'] == 'own' else ', not its own'}):"
            unit = _short(faction, [str(e["unit"])]) + (" (eliminated)" if e.get("eliminated") else "")
            if c["attrition"] and c["attrition"][-1].startswith(where):
                c["attrition"][-1] += f", {unit}"
            else:
                c["attrition"].append(f"{where} {unit}")
        elif kind == "maintenance":
            c["paid"].append(f"{e['paid']} of {e['units']} units ({e['money']} money, {e['manpower']} manpower)")
        elif kind == "unmaintained":
            c["dead" if e.get("eliminated") else "lost"].append(str(e["unit"]))
        elif kind == "collected":
            idle = f"; nothing from {', '.join(e['outnumbered'])}" if e.get("outnumbered") else ""
            c["collected"].append(f"{e['money']} money, {e['manpower']} manpower from {e['zones']} zones{idle}")
    rows: list[list[str]] = []
    for faction in order:
        c = cells[faction]
        paid = "; ".join(c["paid"])
        if c["lost"]:
            paid += f"; a step lost: {_short(faction, c['lost'])}"
        if c["dead"]:
            paid += f"; eliminated: {_short(faction, c['dead'])}"
        columns = [textwrap.wrap(text, WIDTH) or ["-"] for text in
                   ("; ".join(c["attrition"]) or "none", paid, "; ".join(c["collected"]))]
        for k in range(max(len(col) for col in columns)):
            rows.append([called.get(faction, faction) if k == 0 else ""]
                        + [col[k] if k < len(col) else "" for col in columns])
    return {"first": told[0], "last": told[-1], "told": told, "rows": rows,
            "title": "Winter: attrition, maintenance, money and manpower (4.7-4.9)",
            "columns": ["", "Attrition (5.5)", "Maintained (5.6)", "Collected (6.3)"]}


def boxes(data: GameData, state: State, events: list[Event]) -> list[dict[str, Any]]:
    """A box for each battle among a step's events, from its `attack` to its `battle_over`,
    and for each siege, from its `siege` to the last event of its zone and pieces."""
    called = names(data)
    winter = next((i for i, e in enumerate(events) if e.get("type") == "segment"
                   and str(e.get("rule")) == "4.7"), None)
    if winter is not None:
        return [_winter(called, events, winter)]
    if not any(e.get("type") in ("attack", "siege") for e in events):
        return []  # no battle in the step (the set-up's, a purchase...): nothing to fold
    b = board(data)
    out: list[dict[str, Any]] = []
    work = state
    open_: dict[str, Any] | None = None
    for i, e in enumerate(events):
        kind = e.get("type")
        if kind == "attack" and e.get("rounds"):
            zone = str(e["zone"])
            defenders = set(map(str, e.get("defenders") or []))
            present = units_at(work, zone)
            mine = [u for u in present if work["units"][u]["faction"] not in defenders]
            theirs = [u for u in present if work["units"][u]["faction"] in defenders]
            owner = work["control"].get(zone)
            fort = fort_now(b, work, zone) if owner in defenders else 0
            attacker = called.get(str(e["attacker"]), str(e["attacker"]))
            defending = " and ".join(called.get(d, d) for d in sorted(defenders)) or "nobody"
            rows = [["Units", _units(b, work, mine), _units(b, work, theirs)],
                    ["Leaders", _leaders(b, leaders_at(work, zone, {str(e["attacker"])})),
                     _leaders(b, leaders_at(work, zone, defenders))]]
            if fort:
                rows.append(["Fortification", "", f"{fort} (8.5)"])
            spend = f", {e['spend']} money" if e.get("spend") else ""
            open_ = {"first": i, "told": [i], "columns": ["", f"{attacker} (attacker)", defending],
                     "rows": rows,
                     "title": f"Battle of {zone}: {attacker} attack {defending} "
                              f"({e.get('level')}, up to {e['rounds']} "
                              f"round{'' if e['rounds'] == 1 else 's'}{spend})"}
            entered = work.get("entered", {}).get(zone, [])
            open_["difficult"] = any(x.get("faction") == e["attacker"] and x.get("kind") in HARD_ROUTES
                                     for x in entered)
        elif open_ is not None and kind == "combat_round" and not e.get("siege"):
            r = int(e.get("round") or 0)
            dice = e.get("dice") or {}
            open_["rows"].append([f"Round {r}"] + [
                "; ".join(_why(g, side, r, open_["difficult"]) for g in dice.get(side) or []) or "no dice"
                for side in ("atk", "def")])
            open_["told"].append(i)
        elif kind == "siege" and open_ is None:
            out.append(_siege(b, work, called, events, i))
        elif open_ is not None and kind == "battle_over":
            open_["last"] = i
            del open_["difficult"]
            out.append(open_)
            open_ = None
        if EVENTS.knows(kind):  # an event of the engine's own is not the game's
            work = apply_with(b, work, e)
    return out
