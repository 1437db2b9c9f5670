"""Movement: the one movement phase of a power's turn (A&A 1914 has no separate
non-combat move; ../shared/research/aa1914.md).

What is refereed here, each rule with its source (the A&A 1914 rulebook is not among the
project's sources):

- every unit moves once a turn, at most its `move` (units.yaml) spaces, each space next to
  the last; nothing enters an impassable territory (map.yaml `impassable`);
- land units move over land; fighters over land and sea but end their move on land (they
  have no carrier; TripleA's notes: "fly over a Sea Zone or enemy-controlled territory");
  ships move by sea, and an enemy warship in a sea zone they pass stops them (the XML's
  "Ignore Sub In Movement" and "Ignore Transport in Movement": submarines and transports
  do not); a canal is passed only while one's side holds its land (XML canalAttachment);
- out of a contested territory, land units move only into a territory the power holds or
  one holding its own units (XML "Allow Movement From Contested To Player Owned" and "To
  Territory With Own Units", the others false);
- the USA moves nothing before it is at war (round 4; the XML's movement restriction);
- after the armistice (the revolution house rule), the places it closes are refused by name
  and the Allies leaving Russia are free of the contested-territory restriction
  (rules/revolution.py `entry` and `frees`); in the civil war, the Central Powers do not
  enter Inner Russia and the Soviets keep out of the Central Powers' territories, Persia and
  Afghanistan (rules/civil_war.py `entry`).

A land move into hostile territory (held by the other side or a neutral, or holding the
other side's units) is an attack, fought in the battle step (rules/combat.py); a fighter
ends such a move only where land units of its power move in or stand. Ships ending their
move with the other side's warships fight a sea battle, and ships crossing the other side's
minefields roll for them (rules/naval.py), transports carrying land units too (their cargo
lost with them). Land units carried by sea name the sea zones in `via` (`_by_sea`). In an orders file::

    orders:
      - move: {from: vienna, to: galicia, units: {infantry: 2, artillery: 1}}
      - move: {from: sz18, via: [sz17], to: sz19, units: {cruiser: 1}}
"""

from __future__ import annotations

from typing import Any

from pbem.game import Event, GameData, Problem, State
from pbem.kit.events import Apply, Describe
from pbem.names import counted, suggest

from . import board, civil_war, combat, revolution

Path_ = tuple[str | int, ...]
SCREENS = ("submarine", "transport")  # enemy ships that do not stop a move (XML "Ignore ... In Movement")


def friendly(data: GameData, state: State, pid: str, territory: str) -> bool:
    """Held by the power's side."""
    return board.side(data, state["control"].get(territory, "")) == board.side(data, pid)


def enemy_units(data: GameData, state: State, pid: str, place: str) -> dict[str, int]:
    """The units of every other side (neutrals' included) in a place, by type."""
    mine = board.side(data, pid)
    out: dict[str, int] = {}
    for owner, units in state["units"].get(place, {}).items():
        if board.side(data, owner) != mine:
            for unit, n in units.items():
                out[unit] = out.get(unit, 0) + n
    return {u: n for u, n in out.items() if n}


def _canal(data: GameData, state: State, pid: str, a: str, b: str) -> str | None:
    """The canal between two sea zones that the power's side does not hold, if any."""
    for canal in data["map"].get("canals") or []:
        if {a, b} == set(canal["between"]) and not friendly(data, state, pid, canal["land"]):
            return str(canal["name"])
    return None


def _place(value: Any, where: Path_, known: dict[str, Any], problems: list[Problem]) -> str | None:
    if isinstance(value, str) and value in known:
        return value
    problems.append(Problem(where, f"{value!r} is not a territory or sea zone"
                            f"{suggest(str(value), list(known))}"))
    return None


def read(data: GameData, state: State, pid: str, items: list[tuple[int, Any]],
         problems: list[Problem]) -> list[Event]:
    """The moves of an orders file's move items (index, value), checked in their order;
    each problem is added to `problems`, each legal move becomes an event."""
    left = {place: dict(owners.get(pid, {})) for place, owners in state["units"].items()}
    events: list[Event] = []
    fighters: list[tuple[Path_, str]] = []
    for i, value in items:
        where: Path_ = ("orders", i, "move")
        if not isinstance(value, dict) or not {"from", "to", "units"} <= set(value) \
                or not set(value) <= {"from", "to", "via", "units"}:
            problems.append(Problem(where, "expected {from: PLACE, to: PLACE, units: {TYPE: COUNT}}"
                                    " and, for a longer move, via: [PLACE, ...]"))
            continue
        found = len(problems)
        event = _move(data, state, pid, value, where, left, problems)
        if event is not None and len(problems) == found:
            for unit, n in event["units"].items():
                left[event["from"]][unit] -= n
            if event.get("transports"):  # the transports that carried them have moved too
                left[event["via"][0]]["transport"] -= event["transports"]
            if "fighter" in event["units"] and combat.hostile(data, state, pid, event["to"]):
                fighters.append((where, event["to"]))
            events.append(event)
    for where, to in fighters:  # a fighter ends its move where its power's land units stand
        land = [e for e in events if e["to"] == to
                and any(board.domain(data, u) == "land" for u in e["units"])]
        stay = any(n for u, n in left.get(to, {}).items() if board.domain(data, u) == "land")
        if not land and not stay:
            problems.append(Problem(where, f"a fighter attacking {board.name(data, to)} ends its "
                                    "move there with land units of its power (fighters alone "
                                    "take nothing)"))
    return events


def _move(data: GameData, state: State, pid: str, value: dict[str, Any], where: Path_,
          left: dict[str, dict[str, int]], problems: list[Problem]) -> Event | None:
    known = board.places(data)
    via = value.get("via") or []
    if not isinstance(via, list):
        problems.append(Problem((*where, "via"), "expected a list of the places passed, in order"))
        return None
    path = [_place(value["from"], (*where, "from"), known, problems),
            *(_place(v, (*where, "via", k), known, problems) for k, v in enumerate(via)),
            _place(value["to"], (*where, "to"), known, problems)]
    if any(p is None for p in path):
        return None
    steps: list[str] = [p for p in path if p is not None]
    found = len(problems)
    units = board.read_counts(value["units"], (*where, "units"), list(board.unit_types(data)),
                              "move", problems)
    if not units or len(problems) > found:
        return None
    start = steps[0]
    if pid not in state["at_war"]:
        problems.append(Problem(where, f"{board.power(data, pid)['name']} moves nothing before it "
                                f"is at war (round {data['game']['usa_at_war_from_round']})"))
        return None
    for unit, n in units.items():
        have = left.get(start, {}).get(unit, 0)
        if n > have:
            problems.append(Problem((*where, "units", unit), f"{board.name(data, start)} has "
                                    f"{counted(have, unit, board.plural(unit))} of {pid} that "
                                    f"{'has' if have == 1 else 'have'} not moved this turn; "
                                    f"the order moves {n}"))
    for a, b in zip(steps, steps[1:], strict=False):
        if b not in board.adjacent(data, a):
            near = ", ".join(sorted(board.name(data, x) for x in board.adjacent(data, a)))
            problems.append(Problem(where, f"{board.name(data, b)} is not next to {board.name(data, a)} "
                                    f"(next to {board.name(data, a)}: {near})"))
            return None
        if known[b].get("impassable"):
            problems.append(Problem(where, f"{board.name(data, b)} is impassable"))
            return None
    banned = revolution.entry(data, state, pid, steps) or civil_war.entry(data, state, pid, steps, units)
    if banned is not None:
        problems.append(Problem(where, banned))
        return None
    by_sea = (not board.is_sea(start) and any(board.is_sea(p) for p in steps[1:-1])
              and all(board.domain(data, u) == "land" for u in units))
    if by_sea:
        return _by_sea(data, state, pid, units, steps, where, left, problems)
    for unit in units:
        _check_domain(data, state, pid, unit, steps, where, problems)
    return {"type": "moved", "power": pid, "from": start, "to": steps[-1],
            "via": steps[1:-1], "units": dict(sorted(units.items()))}


def _by_sea(data: GameData, state: State, pid: str, units: dict[str, int], steps: list[str],
            where: Path_, left: dict[str, dict[str, int]], problems: list[Problem]) -> Event | None:
    """Land units carried by the power's transports: they board in the first sea zone of
    `via` (next to where they stand), sail with the transports along `via`, and land in `to`
    (next to the last sea zone). The transports, not yet moved this turn, move with them;
    each carries `capacity` land units (units.yaml). Landing in hostile territory is an
    amphibious assault, fought as a land battle."""
    sea = steps[1:-1]
    types = board.unit_types(data)
    if not all(board.is_sea(z) for z in sea) or board.is_sea(steps[-1]):
        problems.append(Problem(where, "land units carried by sea go from a territory, by sea zones "
                                "only, to a territory"))
        return None
    capacity = int(types["transport"].get("capacity", 2))
    needed = -(-sum(units.values()) // capacity)
    have = left.get(sea[0], {}).get("transport", 0)
    if needed > have:
        count = sum(units.values())
        problems.append(Problem(where, f"{counted(count, 'land unit')} "
                                f"{'needs' if count == 1 else 'need'} {counted(needed, 'transport')} "
                                f"of {pid} in {board.name(data, sea[0])} that have not moved this "
                                f"turn; there {'is' if have == 1 else 'are'} {have}"))
        return None
    reach = int(types["transport"]["move"])
    if len(sea) - 1 > reach:
        problems.append(Problem(where, f"a transport moves at most {counted(reach, 'space')} a turn; "
                                f"this crossing is {len(sea) - 1}"))
    for zone in sea:
        warships = [u for u in enemy_units(data, state, pid, zone) if u not in SCREENS]
        if warships:
            problems.append(Problem(where, f"enemy {', '.join(warships)} in {board.name(data, zone)}: "
                                    "transports sail only through and unload in zones clear of them"))
            return None
    for a, b in zip(sea, sea[1:], strict=False):
        canal = _canal(data, state, pid, a, b)
        if canal is not None:
            problems.append(Problem(where, f"the {canal} is passed only while your side holds "
                                    f"{board.name(data, _canal_land(data, canal))}"))
    if board.contested(state, steps[0]):
        for unit in units:
            _check_domain(data, state, pid, unit, [steps[0], steps[-1]], where, problems)
    return {"type": "moved", "power": pid, "from": steps[0], "to": steps[-1], "via": sea,
            "units": dict(sorted(units.items())), "transports": needed}


def _check_domain(data: GameData, state: State, pid: str, unit: str, steps: list[str],
                  where: Path_, problems: list[Problem]) -> None:
    kind = board.domain(data, unit)
    reach = board.unit_types(data)[unit]["move"]
    end = steps[-1]
    if len(steps) - 1 > reach:
        problems.append(Problem(where, f"{board.a(unit)} moves at most {counted(reach, 'space')} a turn; "
                                f"this move is {len(steps) - 1}"))
    if kind == "land" and any(board.is_sea(p) for p in steps):
        problems.append(Problem(where, f"{board.a(unit)} moves over land, or by sea as a "
                                "transport's cargo in a move of land units only"))
        return
    if kind == "sea" and not all(board.is_sea(p) for p in steps):
        problems.append(Problem(where, f"{board.a(unit)} moves from sea zone to sea zone"))
        return
    if kind == "air" and board.is_sea(end):
        problems.append(Problem(where, f"{board.a(unit)} ends its move on land: it has nowhere to land "
                                f"in {board.name(data, end)}"))
        return
    if kind == "land" and board.contested(state, steps[0]) \
            and not revolution.frees(data, state, pid, steps[0]):
        here = state["units"].get(end, {}).get(pid)
        if not (board.controls(state, pid, end) or any((here or {}).values())):
            problems.append(Problem(where, f"out of contested {board.name(data, steps[0])} {board.a(unit)} "
                                    f"moves only into a territory {pid} holds or where its own "
                                    "units stand"))
    if kind == "sea":
        for a, b in zip(steps, steps[1:], strict=False):
            canal = _canal(data, state, pid, a, b)
            if canal is not None:
                problems.append(Problem(where, f"the {canal} is passed only while your side holds "
                                        f"{board.name(data, _canal_land(data, canal))}"))
        for p in steps[1:-1]:
            warships = [u for u in enemy_units(data, state, pid, p) if u not in SCREENS]
            if warships:
                problems.append(Problem(where, f"enemy {', '.join(warships)} in {board.name(data, p)} "
                                        "stop a move there"))



def _canal_land(data: GameData, name: str) -> str:
    return str(next(c["land"] for c in data["map"]["canals"] if c["name"] == name))


def _moved(data: GameData, state: State, event: Event) -> None:
    pid = event["power"]
    here = state["units"][event["from"]][pid]
    there = state["units"].setdefault(event["to"], {}).setdefault(pid, {})
    if event.get("transports"):  # land units carried by sea: the transports sail with them
        first, last = event["via"][0], event["via"][-1]
        ships = state["units"][first][pid]
        if ships.get("transport", 0) < event["transports"]:
            raise ValueError(f"{first} has fewer than {event['transports']} transports of {pid}")
        ships["transport"] -= event["transports"]
        state["units"][first][pid] = {u: n for u, n in ships.items() if n}
        dest = state["units"].setdefault(last, {}).setdefault(pid, {})
        dest["transport"] = dest.get("transport", 0) + event["transports"]
    if event["units"].get("battleship"):  # a damaged battleship moves only with the sound ones
        hurt = state.get("damaged", {}).get(event["from"], {}).get(pid, 0)
        going = max(0, event["units"]["battleship"] - (here.get("battleship", 0) - hurt))
        if going:
            state["damaged"][event["from"]][pid] -= going
            dest = state["damaged"].setdefault(event["to"], {})
            dest[pid] = dest.get(pid, 0) + going
            state["damaged"] = {z: {o: n for o, n in owners.items() if n}
                                for z, owners in state["damaged"].items() if any(owners.values())}
    for unit, n in event["units"].items():
        if here.get(unit, 0) < n:
            raise ValueError(f"{event['from']} has {here.get(unit, 0)} {unit} of {pid}, not {n}")
        here[unit] -= n
        there[unit] = there.get(unit, 0) + n
    state["units"][event["from"]][pid] = {u: n for u, n in here.items() if n}


APPLY: dict[str, Apply[GameData]] = {"moved": _moved}


def _told_moved(data: GameData, event: Event) -> str:
    via = (" by " + ", ".join(board.name(data, p) for p in event["via"])) if event["via"] else ""
    if event.get("transports"):
        via += f" on {counted(event['transports'], 'transport')}"
    units = board.units_text(event["units"])
    return (f"{board.power(data, event['power'])['name']} moves {units} from "
            f"{board.name(data, event['from'])} to {board.name(data, event['to'])}{via}")


DESCRIBE: dict[str, Describe[GameData]] = {"moved": _told_moved}


