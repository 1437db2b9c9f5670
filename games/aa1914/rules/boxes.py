"""Battles as boxes in an Axis & Allies 1914 report (Game.boxes): for each land and sea battle
of a step, who attacked whom where, each side's units with the value they fire at, then
every die by unit type with the number it hits on and why, the hits and the losses.

A land battle is one `battle` event (rules/combat.py), which records every die with its unit
and value: the coastal defence and the bombardment of an amphibious assault (SOURCES.md 7.4,
7.3), the rounds of the air battle (2.1), then the one round (2.5) with the artillery's
support (2.4) and air supremacy (2.2) in the values, the hits the attacking tanks cancel
(2.6), and the losses of both sides. The territory's fate (`control`, `capital_taken`) stays
below the table as the log tells it.

A sea battle is one `sea_battle` event (rules/naval.py) that records each round's dice and
hits, but not which ship rolled which die: the box replays the battle from the position
before it (the step's events folded from the state before the step) with naval.py's own
fleets, fire and loss order, so each die gets its ship, and each round what it sank or
damaged (6.5); the submarines that submerge (6.4), the attacker's withdrawal (6.1) and the
unescorted transports lost (6.6) end it. Public events only: A&A hides nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pbem.game import Event, GameData, State

from . import board, combat, naval
from .headlines import _called, _who
from .report import ABBREVIATIONS

Fleet = dict[str, dict[str, int]]
Fire = list[tuple[str, int, int]]  # (unit, hits at or under, the die)
BATTLES = ("battle", "sea_battle")
OUTCOME = ("control", "capital_taken")  # what follows a land battle: its end, told by the log


def boxes(data: GameData, state: State, events: list[Event],
          apply: Callable[[State, Event], State]) -> list[dict[str, Any]]:
    """A box for each battle among a step's events; `state` is the position before the step,
    `apply` folds one event into a position (Game.apply)."""
    last_sea = max((i for i, e in enumerate(events) if e.get("type") == "sea_battle"), default=-1)
    if not any(e.get("type") in BATTLES for e in events):
        return []
    out: list[dict[str, Any]] = []
    work = state
    for i, e in enumerate(events):
        kind = e.get("type")
        if kind == "battle":
            last = i
            while (last + 1 < len(events) and events[last + 1].get("type") in OUTCOME
                   and events[last + 1].get("where") == e["where"]):
                last += 1
            out.append(_land(data, e, i, last))
        elif kind == "sea_battle":
            out.append(_sea(data, work, e, i))
        if i < last_sea:  # the position each sea battle begins in
            work = apply(work, e)
    return out


# the types in units.yaml's order, a damaged battleship (naval.py's fleets) after the sound ones
ORDER = [k for u in ABBREVIATIONS for k in ([u, "damaged_battleship"] if u == "battleship" else [u])]


def in_order(units: dict[str, int]) -> dict[str, int]:
    return {u: n for u, n in sorted(units.items(), key=lambda un: (
        ORDER.index(un[0]) if un[0] in ORDER else len(ORDER), un[0])) if n}


# ---------------------------------------------------------------------------------------
# the text of dice


def _hits_on(value: int) -> str:
    return "1" if value == 1 else f"1-{value}"


def _counted(n: int) -> str:
    return f"{n} hit{'' if n == 1 else 's'}"


def _dice(label: str, value: int, why: str, dice: list[int]) -> str:
    """One group of dice: 'infantry hit on 1-3 (attack 2, +1 artillery support 2.4): 3 5 = 1 hit'."""
    hits = sum(1 for d in dice if d <= value)
    return (f"{label} hit on {_hits_on(value)} ({why}): {' '.join(map(str, dice))} = "
            f"{_counted(hits)}")


def _groups(fire: Fire) -> list[tuple[str, int, list[int]]]:
    """Consecutive dice of the same unit and value, as one group each."""
    out: list[tuple[str, int, list[int]]] = []
    for unit, value, die in fire:
        if out and out[-1][0] == unit and out[-1][1] == value:
            out[-1][2].append(die)
        else:
            out.append((unit, value, [die]))
    return out


def _force(data: GameData, force: Fleet, key: str, several: bool) -> str:
    """A side's units with the value each fires at ('3 infantry at 2, 1 artillery at 3'), by
    owner when the side is of several powers."""
    types = board.unit_types(data)
    told = []
    for owner, units in force.items():
        parts = []
        for unit, n in in_order(units).items():
            kind = "battleship" if unit == "damaged_battleship" else unit
            value = int(types[kind][key])
            parts.append(board.units_text({kind: n})
                         + (" (damaged)" if unit == "damaged_battleship" else "")
                         + (f" at {value}" if value else " (no dice)"))
        if parts:
            told.append((f"{_called(data, owner)}: " if several else "") + ", ".join(parts))
    return "; ".join(told) or "none"


def _lost(data: GameData, losses: Fleet, several: bool) -> str:
    told = [(f"{_called(data, o)}: " if several else "") + board.units_text(in_order(u))
            for o, u in losses.items() if any(u.values())]
    return "; ".join(told) or "none"


# ---------------------------------------------------------------------------------------
# a land battle (rules/combat.py)


def _why_land(data: GameData, unit: str, value: int, attacking: bool) -> str:
    """Why a unit fires at `value` in the land round: its attack or defence (SOURCES.md 0),
    one more for an infantry or tank an attacking artillery supports (2.4) or for artillery
    with air supremacy (2.2) (combat.values); fighters fire too after the air battle (2.3)."""
    key = "attack" if attacking else "defence"
    base = int(board.unit_types(data)[unit][key])
    reasons = [f"{key} {base}"]
    if value > base:
        reasons.append(f"+{value - base} air supremacy 2.2" if unit == "artillery"
                       else f"+{value - base} artillery support 2.4")
    if unit == "fighter":
        reasons.append("after the air battle 2.3")
    return ", ".join(reasons)


def _land(data: GameData, e: Event, first: int, last: int) -> dict[str, Any]:
    attacker = str(e["power"])
    defenders = {o: u for o, u in e["defenders"].items() if any(u.values())}
    types = board.unit_types(data)
    where = board.name(data, e["where"])
    several = len(defenders) > 1
    title = (f"Battle of {where}: {_called(data, attacker)} attacks {_who(data, defenders)}"
             + (" from the sea" if "coastal" in e else ""))
    rows: list[list[str]] = [["Units", _force(data, e["attackers"], "attack", False),
                              _force(data, defenders, "defence", several)]]
    if "coastal" in e:
        guns = int(types["artillery"]["defence"])
        shots = list(e["coastal"]["dice"])
        rows.append(["Coastal defence (7.4)",
                     f"lost before landing: {board.units_text(e['coastal']['lost']) or 'none'}",
                     _dice("artillery", guns, f"defence {guns}, one shot each at the units landing",
                           shots) if shots else "no artillery"])
        gun = int(types["battleship"]["attack"])
        rows.append(["Bombardment (7.3)",
                     _dice("battleship", gun, f"attack {gun}, one for each unit landed",
                           list(e["bombard"]))
                     if e["bombard"] else "no battleship", ""])
    for k, air in enumerate(e["air"], 1):
        rows.append([f"Air battle {k} (2.1)",
                     _dice("fighter", combat.AIR_HIT, "fighters at fighters", list(air["attacker"])),
                     _dice("fighter", combat.AIR_HIT, "fighters at fighters", list(air["defender"]))])
    if e.get("supremacy"):
        side = e["supremacy"]
        rows.append(["Air supremacy (2.2)", "artillery +1" if side == "attacker" else "",
                     "artillery +1" if side == "defender" else ""])
    fire = {side: [(str(u), int(v), int(r)) for u, v, r in e["fire"][side]]
            for side in ("attacker", "defender")}
    rows.append(["Round (2.5)"] + [
        "; ".join(_dice(u, v, _why_land(data, u, v, side == "attacker"), dice)
                  for u, v, dice in _groups(fire[side])) or "no dice"
        for side in ("attacker", "defender")])
    hits = e["hits"]
    rows.append(["Hits",
                 str(hits["attacker"]) + (" (with the bombardment's)" if e.get("bombard") else ""),
                 str(hits["defender"]) + (f", {hits['cancelled']} cancelled by the attacking tanks "
                                          "(2.6)" if hits["cancelled"] else "")])
    losses = e["losses"]
    rows.append(["Losses (3.3)", _lost(data, {attacker: losses.get(attacker, {})}, False),
                 _lost(data, {o: u for o, u in losses.items() if o != attacker}, several)])
    return {"first": first, "last": last, "told": [first], "title": title,
            "columns": ["", f"{_called(data, attacker)} (attacker)",
                        f"{_who(data, defenders)} (defender)"],
            "rows": rows}


# ---------------------------------------------------------------------------------------
# a sea battle (rules/naval.py), replayed for which ship rolled which die


def _fire(data: GameData, fleet: Fleet, attacking: bool, dice: list[int]) -> Fire | None:
    """Each die of a round with the ship that rolled it (naval.py's own order), or None when
    the dice do not match the fleet (a position the replay cannot follow)."""
    shots = naval._fire(data, fleet, attacking)
    if len(shots) != len(dice):
        return None
    return [(u, v, d) for (u, v), d in zip(shots, dice, strict=True)]


def _sea_dice(data: GameData, fire: Fire | None, dice: list[int], attacking: bool) -> str:
    key = "attack" if attacking else "defence"
    if fire is None:
        return " ".join(map(str, dice)) or "no dice"
    told = []
    for unit, value, group in _groups(fire):
        name = "battleship (damaged)" if unit == "damaged_battleship" else unit
        why = f"{key} {value}" + ("; a damaged battleship fights on 6.8"
                                  if unit == "damaged_battleship" else "")
        told.append(_dice(name, value, why, group))
    return "; ".join(told) or "no dice"


def _took(data: GameData, before: Fleet, after: Fleet, several: bool) -> str:
    """What a side lost in a round (naval.take_hits): a sound battleship hit is damaged, a
    damaged one hit sinks (6.5), any other ship hit sinks."""
    told = []
    for owner, units in before.items():
        now = after.get(owner, {})
        newly = units.get("battleship", 0) - now.get("battleship", 0)
        sunk = {u: units.get(u, 0) - now.get(u, 0) for u in units
                if u not in ("battleship", "damaged_battleship")}
        sunk["battleship"] = units.get("damaged_battleship", 0) + newly - now.get("damaged_battleship", 0)
        parts = [f"{newly} battleship{'s' if newly != 1 else ''} damaged"] if newly else []
        if any(sunk.values()):
            parts.append(board.units_text({u: n for u, n in sunk.items() if n}) + " sunk")
        if parts:
            told.append((f"{_called(data, owner)}: " if several else "") + ", ".join(parts))
    return "; ".join(told) or "nothing"


def _sea(data: GameData, state: State, e: Event, at: int) -> dict[str, Any]:
    pid, zone = str(e["power"]), str(e["where"])
    mine = board.side(data, pid)
    here = state["units"].get(zone, {})
    a = naval._fleet(state, zone, [pid])
    d = naval._fleet(state, zone, [o for o in here if board.side(data, o) != mine])
    several = len(d) > 1
    title = f"Sea battle in {board.name(data, zone)}: {_called(data, pid)} attacks {_who(data, e['defenders'])}"
    rows: list[list[str]] = [["Ships", _force(data, a, "attack", False), _force(data, d, "defence", several)]]
    under: dict[str, int] = {}
    for k, fought in enumerate(e["rounds"], 1):
        if k > 1:
            going = naval._submerging(state, d)
            if going:
                d = {o: {u: n for u, n in units.items() if not (u == "submarine" and o in going)}
                     for o, units in d.items()}
                for o, n in going.items():
                    under[o] = under.get(o, 0) + n
                rows.append([f"Round {k}: submerged (6.4)", "", _lost(data, {
                    o: {"submarine": n} for o, n in going.items()}, several)])
        fa = _fire(data, a, True, list(fought["attacker"]))
        fd = _fire(data, d, False, list(fought["defender"]))
        ha, hd = fought["hits"]
        rows.append([f"Round {k}", _sea_dice(data, fa, list(fought["attacker"]), True)
                     + f" (total {_counted(ha)})",
                     _sea_dice(data, fd, list(fought["defender"]), False) + f" (total {_counted(hd)})"])
        a2 = naval.take_hits(a, hd, naval.sea_losses(state, pid))
        d2 = naval.take_hits(d, ha, naval._order(state, d))
        rows.append([f"Round {k}: lost (6.5)", _took(data, a, a2, False), _took(data, d, d2, several)])
        a, d = a2, d2
    late = {o: n - under.get(o, 0) for o, n in (e.get("submerged") or {}).items() if n > under.get(o, 0)}
    if late:
        rows.append([f"After round {len(e['rounds'])}: submerged (6.4)", "",
                     _lost(data, {o: {"submarine": n} for o, n in late.items()}, several)])
        d = {o: {u: n for u, n in units.items() if not (u == "submarine" and o in late)}
             for o, units in d.items()}
    if not e.get("withdrew"):
        for side, fleet, other in ((1, a, d), (2, d, a)):
            alone = {o: units.get("transport", 0) for o, units in fleet.items() if units.get("transport")}
            if alone and not naval._armed(fleet) and naval._armed(other):
                cells = ["Unescorted transports (6.6)", "", ""]
                cells[side] = _lost(data, {o: {"transport": n} for o, n in alone.items()},
                                    side == 2 and several) + " lost"
                rows.append(cells)
    sunk = e["sunk"]
    rows.append(["Sunk", _lost(data, {pid: sunk.get(pid, {})}, False),
                 _lost(data, {o: u for o, u in sunk.items() if o != pid}, several)])
    damaged = dict(e.get("damaged") or {})
    w = e.get("withdrew")
    if w:
        damaged[pid] = damaged.get(pid, 0) + int(w.get("damaged", 0))
    if any(damaged.values()):
        rows.append(["Damaged battleships (6.5)",
                     _lost(data, {pid: {"battleship": damaged.get(pid, 0)}}, False),
                     _lost(data, {o: {"battleship": n} for o, n in damaged.items() if o != pid and n},
                           several)])
    if w:
        rows.append(["Withdrew (6.1)", f"{board.units_text(w['units'])} to {board.name(data, w['to'])} "
                     f"({w['why']})", ""])
    return {"first": at, "last": at, "told": [at], "title": title,
            "columns": ["", f"{_called(data, pid)} (attacker)", f"{_who(data, e['defenders'])} (defender)"],
            "rows": rows}
