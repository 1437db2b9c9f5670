"""The Russian Movement Segment (8.0): land movement and helicopter movement, with the costs
of the TEC, roads and bridges, the minimum move, zones of control and stacking.

A Russian movement file (every order optional)::

    orders:
      - move: {units: [ru_131_mech_bde, ru_74_mech_bde], path: ["0731", "0831", "0930"]}
      - helicopter: {unit: ru_76_airborne, to: "1325"}

`path` starts at the hex where the units stand (7.3: a stack moves together only if it
starts together) and names each hex entered, in order.

What is refereed, rule by rule:
- 8.1, 8.4-8.7: each hex entered costs its terrain's MF (tables.yaml `terrain`), plus a river
  hexside's unless a road crosses it (a bridge, 8.7); along a connected road, one MF a hex
  (8.6); a stack moves at its slowest unit's MF (7.5); each unit moves once a segment;
- 8.3: a unit may always move one hex, whatever it costs;
- 7.0: no unit enters a hex holding enemy units;
- 9.1, 9.2: every Chechen unit, face down or not, has a zone of control in the six hexes
  around it, across rivers too; a unit entering an enemy ZOC stops; a unit that starts in an
  enemy ZOC may leave it, and may move one hex straight into another enemy ZOC hex and stop;
- 7.1: no hex holds more units than its terrain stacks at the end of the segment (a ruling:
  the file is refused, instead of the excess being eliminated, 7.1's penalty, which no
  player would choose);
- 8.8: up to four heliborne units a turn move by helicopter, each alone, to any hex not
  holding enemy units (in an enemy ZOC or not), and not by land in the same segment.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from pbem.game import Event, GameData, Problem, Rng, State
from pbem.kit.events import Apply, Describe, Ruled
from pbem.names import suggest

from .board import CHECHEN, RUSSIAN, Board, board, ceasefire_turn, hex_in, stacking, units

Path_ = tuple[str | int, ...]


def cost(data: GameData, b: Board, here: str, there: str) -> int:
    """The MF to move from `here` into the adjacent `there` (8.4-8.7)."""
    side = b.grid.hexside(here, there)
    if side in b.roads:  # 8.6: road movement; a road crossing a river is a bridge (8.7)
        return int(data["tables"]["road"]["mf"])
    mf = int(data["tables"]["terrain"][b.terrain[there]]["mf"])
    if side in b.rivers and side not in b.bridges:
        mf += int(data["tables"]["hexsides"]["river"]["mf"])
    return mf


def chechen_zoc(b: Board, state: State) -> set[str]:
    """9.1: the hexes around every Chechen unit on the map (leaders have none)."""
    return b.grid.zoc(t["hex"] for t in state["tokens"].values())


def russian_zoc(b: Board, state: State) -> set[str]:
    """9.1: the hexes around every Russian unit on the map."""
    return b.grid.zoc(u["hex"] for u in state["russians"].values())


def pieces(state: State, side: str) -> dict[str, dict[str, Any]]:
    """A side's units on the map by id: the Russian units, or the Chechen's tokens."""
    return dict(state["russians"] if side == RUSSIAN else state["tokens"])


def identity(state: State, side: str, piece: str) -> str | None:
    """The unit a piece is: a Russian unit is itself; a Chechen token's unit only when the
    reader's key opened it (pbem.crypto.sealed.substitute), else None."""
    if side == RUSSIAN:
        return piece
    unit = state["tokens"][piece].get("unit")
    return unit if isinstance(unit, str) else None


def mf_of(data: GameData, state: State, unit: str, side: str = RUSSIAN) -> int | None:
    """A piece's MF (a reduced unit's, 2.8), or None for a face-down unit the reader cannot see."""
    known = identity(state, side, unit)
    if known is None:
        return None
    spec = units(data)[known]
    if side == RUSSIAN and state["russians"][unit].get("reduced") and "reduced" in spec:
        return int(spec["reduced"]["mf"])
    return int(spec["mf"])


def read(data: GameData, state: State, orders: dict[str, Any], problems: list[Problem],
         side: str = RUSSIAN) -> list[Event]:
    """The moves of a side's movement file, checked in order; each problem added to
    `problems`, each legal move an event."""
    b = board(data)
    mine = pieces(state, side)
    enemy = {p["hex"] for p in pieces(state, CHECHEN if side == RUSSIAN else RUSSIAN).values()}
    zoc = chechen_zoc(b, state) if side == RUSSIAN else russian_zoc(b, state)
    where = {u: v["hex"] for u, v in mine.items()}
    moved: set[str] = set()
    flown = 0
    events: list[Event] = []
    for i, item in enumerate(orders.get("orders") or []):
        at: Path_ = ("orders", i)
        kind = next(iter(item), None) if isinstance(item, dict) and len(item) == 1 else None
        found = len(problems)
        if kind == "gunship" and side == RUSSIAN:
            continue  # 14.2: read by rules/ambush.py, against where the units end
        if kind == "arrive":
            continue  # 13.2, 13.3: read by rules/arrival.py before the moves
        if kind == "underground" and side == CHECHEN:
            continue  # 11.3: read by rules/leaders.py
        if kind == "attack" and side == CHECHEN:
            continue  # 10.0: his attacks, in the same file, read by rules/combat.py after the moves
        if kind == "move":
            event = _land(data, b, state, side, item["move"], (*at, "move"), where, moved, enemy,
                          zoc, problems)
        elif kind == "helicopter" and side == RUSSIAN:
            event = _helicopter(data, b, state, item["helicopter"], (*at, "helicopter"), where,
                                moved, enemy, flown, problems)
            flown += event is not None and len(problems) == found
        else:
            problems.append(Problem(at, "an order is {move: {units: [...], path: [...]}}" + (
                ', {helicopter: {unit: UNIT, to: "CCRR"}} or {gunship: "CCRR"}'
                if side == RUSSIAN else ", {underground: [LEADER, ...]} (11.3) or {attack: {target: "
                '"CCRR", units: [t01, ...]}} (10.0)')))
            continue
        if event is not None and len(problems) == found:
            for unit in event["units"]:
                where[unit] = event["path"][-1]
                moved.add(unit)
            events.append(event)
    per_hex = Counter(where.values())
    for hex_id, n in sorted(per_hex.items()):
        if n > stacking(data, b, hex_id) and any(where[u] != mine[u]["hex"]
                                                 for u in where if where[u] == hex_id):
            problems.append(Problem(("orders",), f"{b.label(hex_id)} holds {n} units at the end "
                                    f"of the segment; its terrain ({b.terrain[hex_id]}) stacks "
                                    f"{stacking(data, b, hex_id)} (7.1)"))
    return events


def ends(state: State, events: list[Event]) -> dict[str, str]:
    """Where each Russian unit stands after the segment's moves."""
    where = {u: v["hex"] for u, v in state["russians"].items()}
    for event in events:
        for unit in event["units"]:
            where[unit] = event["path"][-1]
    return where


def _units(data: GameData, state: State, side: str, value: Any, at: Path_, moved: set[str],
           problems: list[Problem]) -> list[str]:
    mine = pieces(state, side)
    known = sorted(mine)
    what = "a Russian unit" if side == RUSSIAN else "one of your units (t01, t02, ...)"
    if not isinstance(value, list) or not value:
        problems.append(Problem(at, "expected a list of your units on the map"))
        return []
    out = []
    for k, unit in enumerate(value):
        if unit not in mine:
            problems.append(Problem((*at, k), f"{unit!r} is not {what} on the map"
                                    f"{suggest(str(unit), known)}"))
        elif unit in moved or unit in out:
            problems.append(Problem((*at, k), f"{unit} moves once a segment (8.1)"))
        else:
            out.append(unit)
    return out if len(out) == len(value) else []


def _land(data: GameData, b: Board, state: State, side: str, body: Any, at: Path_,
          where: dict[str, str], moved: set[str], enemy: set[str], zoc: set[str],
          problems: list[Problem]) -> Event | None:
    if not isinstance(body, dict) or set(body) != {"units", "path"} or not isinstance(body["path"], list) \
            or len(body["path"]) < 2:
        problems.append(Problem(at, 'expected {units: [UNIT, ...], path: ["CCRR", ...]}, the path '
                                "from the hex the units stand in through each hex entered"))
        return None
    group = _units(data, state, side, body["units"], (*at, "units"), moved, problems)
    path = [hex_in(b, h, (*at, "path", k), problems) for k, h in enumerate(body["path"])]
    if not group or None in path:
        return None
    steps: list[str] = [h for h in path if h is not None]
    start = steps[0]
    off = [u for u in group if where[u] != start]
    if off:
        problems.append(Problem((*at, "path", 0), f"{', '.join(off)} {'is' if len(off) == 1 else 'are'} "
                                f"not in {b.label(start)}: a stack moves together only from the "
                                "hex it starts in (7.3)"))
        return None
    spent = 0
    legs: list[str] = []  # what each hex entered costs, for the message below
    for k, (here, there) in enumerate(zip(steps, steps[1:], strict=False), start=1):
        if not b.grid.adjacent(here, there):
            problems.append(Problem((*at, "path", k), f"{there} is not next to {here}"))
            return None
        if there in enemy:
            problems.append(Problem((*at, "path", k), f"{b.label(there)} holds enemy units: no "
                                    "unit enters it (7.0)"))
            return None
        if there in zoc and ceasefire_turn(state):
            problems.append(Problem((*at, "path", k), f"{b.label(there)} is in an enemy zone of "
                                    "control: no unit enters one in the ceasefire turn (15.2)"))
            return None
        spent += cost(data, b, here, there)
        legs.append(f"{there} {cost(data, b, here, there)}")
        last = k == len(steps) - 1
        if there in zoc and not last:  # 9.2; from a ZOC into a ZOC: this same one hex
            problems.append(Problem((*at, "path", k), f"{b.label(there)} is in an enemy zone of "
                                    "control: a unit entering it stops there (9.2)"))
            return None
        if side == CHECHEN and not _may_enter(data, b, state, group, there, (*at, "path", k), problems):
            return None
    known = {u: mf_of(data, state, u, side) for u in group}
    seen = {u: m for u, m in known.items() if m is not None}  # a face-down unit the reader sees
    if seen and spent > min(seen.values()) and len(steps) > 2:  # 8.3: one hex always
        slowest = min(seen, key=lambda u: seen[u])
        problems.append(Problem((*at, "path"), f"the move costs {spent} MF ({', '.join(legs)}) and "
                                f"{slowest} has {seen[slowest]} (8.1, 8.4-8.7; one hex may always be "
                                "entered, 8.3)"))
        return None
    return {"type": "moved", "side": side, "units": sorted(group), "path": steps, "mf": spent}


def _may_enter(data: GameData, b: Board, state: State, group: list[str], there: str,
               at: Path_, problems: list[Problem]) -> bool:
    """8.2: Chechen units do not leave Chechnya, but militia may enter Dagestan and
    Ingushetia. Which tokens are militia is sealed: the rule is checked where the reader's key
    opens them (the referee's at apply, the Chechen's at `pbem check --key`; the public audit
    cannot, and `audit --final` can after unseal)."""
    region = b.region[there]
    if region == "chechnya":
        return True
    if region not in ("dagestan", "ingushetia"):
        problems.append(Problem(at, f"{b.label(there)} is outside Chechnya: Chechen units stay in "
                                "Chechnya (8.2)"))
        return False
    regulars = [u for u in group if identity(state, CHECHEN, u) is not None
                and units(data)[str(identity(state, CHECHEN, u))]["nationality"] != "chechen_militia"]
    if regulars:
        problems.append(Problem(at, f"{', '.join(regulars)} {'is' if len(regulars) == 1 else 'are'} "
                                f"not militia: only militia enter {region.title()} (8.2)"))
        return False
    return True


def _helicopter(data: GameData, b: Board, state: State, body: Any, at: Path_, where: dict[str, str],
                moved: set[str], enemy: set[str], flown: int, problems: list[Problem]) -> Event | None:
    if not isinstance(body, dict) or set(body) != {"unit", "to"}:
        problems.append(Problem(at, 'expected {unit: UNIT, to: "CCRR"}: one unit a helicopter move (8.8)'))
        return None
    group = _units(data, state, RUSSIAN, [body["unit"]], (*at, "unit"), moved, problems)
    to = hex_in(b, body["to"], (*at, "to"), problems)
    if not group or to is None:
        return None
    unit = group[0]
    limit = int(data["tables"]["movement"]["helicopter_units_per_turn"]) - int(state.get("flown", 0))
    if not units(data)[unit].get("heliborne"):
        problems.append(Problem((*at, "unit"), f"{unit} is not heliborne: special ops, naval "
                                "infantry and parachute infantry move by helicopter (8.8)"))
    elif flown >= limit:
        problems.append(Problem(at, f"four heliborne units a turn move by helicopter (8.8); "
                                f"{limit} may this turn"))
    elif to in enemy:
        problems.append(Problem((*at, "to"), f"{b.label(to)} holds enemy units: a helicopter "
                                "move ends anywhere else (8.8)"))
    elif ceasefire_turn(state) and to in chechen_zoc(b, state):
        problems.append(Problem((*at, "to"), f"{b.label(to)} is in an enemy zone of control: no "
                                "unit enters one in the ceasefire turn (15.2)"))
    else:
        return {"type": "moved", "side": "russian", "units": [unit], "path": [where[unit], to],
                "helicopter": True}
    return None


def bot(data: GameData, state: State, rng: Rng) -> dict[str, Any]:
    """Each unit, one at a time, one hex toward a random neighbour where the rules let it go
    (or staying put)."""
    b = board(data)
    chosen: list[dict[str, Any]] = []
    for unit in sorted(state["russians"]):
        here = state["russians"][unit]["hex"]
        to = rng.choice(f"bot:move:t{state['turn']}:{unit}", [None, *b.grid.neighbours(here)])
        if to is None:
            continue
        trial = [*chosen, {"move": {"units": [unit], "path": [here, to]}}]
        found: list[Problem] = []
        read(data, state, {"orders": trial}, found)
        if not found:
            chosen = trial
    return {"orders": chosen}


def _moved(data: GameData, state: State, event: Event) -> None:
    mine = state["russians"] if event["side"] == RUSSIAN else state["tokens"]
    for unit in event["units"]:
        if mine[unit]["hex"] != event["path"][0]:
            raise ValueError(f"{unit} is not in {event['path'][0]}")
        mine[unit]["hex"] = event["path"][-1]
    if event.get("helicopter"):
        state["flown"] = int(state.get("flown", 0)) + 1


APPLY: dict[str, Apply[GameData]] = {"moved": _moved}


def _told_moved(data: GameData, event: Event) -> str:
    b = board(data)
    if event["side"] == CHECHEN:  # face down: no identity in the public log
        count = len(event["units"])
        return (f"the Chechen moves {count} face-down unit{'s' if count != 1 else ''} from "
                f"{b.label(event['path'][0])} to {b.label(event['path'][-1])}")
    names = ", ".join(units(data)[u]["name"] for u in event["units"])
    if event.get("helicopter"):
        return f"{names} flies by helicopter from {b.label(event['path'][0])} to {b.label(event['path'][-1])} (8.8)"
    return (f"{names} {'moves' if len(event['units']) == 1 else 'move'} from "
            f"{b.label(event['path'][0])} to {b.label(event['path'][-1])} ({event['mf']} MF)")


DESCRIBE: dict[str, Describe[GameData]] = {"moved": Ruled(_told_moved, "8.8")}
