"""Helpers shared by Red Russia's phases: reading orders forgivingly, sides, friendliness."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from pbem.game import Problem, State
from pbem.kit.orders import check_keys

from .board import MINORS, WHITES, Board

Path_ = tuple[str | int, ...]


def side(faction: str) -> str:
    return "white" if faction in WHITES else faction


NEUTRAL = "neutral"
REVAL = "Reval"  # 13.2


def last_step(state: State, pid: str) -> dict[str, bool]:
    """What a step-loss event adds when the unit is already reduced, so that the reports
    can say it: its step loss eliminates it (5.5, 5.6, 8.6)."""
    return {"eliminated": True} if state["units"][pid].get("reduced") else {}


def home_of(b: Board, state: State, zone: str) -> str | None:
    """Whose home zone `zone` is (map.yaml's `home`), for income (6.5, 6.6) and the zones
    a defeated faction leaves (16.2): 13.2 "If the Red player conquers Reval, that zone
    ceases to be a home territory for the North/Asia faction until the end of the game and
    becomes a zone under Baltic control"."""
    if zone == REVAL and (state.get("flags") or {}).get("reval_baltic"):
        return "baltic"
    home = b.zones[zone].get("home")
    return None if home is None else str(home)


def minor_state(state: State, minor: str) -> dict[str, Any]:
    found = (state.get("minors") or {}).get(minor)
    return dict(found) if found else {"status": "neutral", "controller": None, "until": None}


def minor_controller(state: State, minor: str) -> str | None:
    """Who commands a minor now: limited control lasts its one turn only (12.11)."""
    m = minor_state(state, minor)
    if m["status"] == "neutral":
        return None
    if m["status"] == "limited" and m.get("until") is not None and int(m["until"]) < state["turn"]:
        return None
    return None if m["controller"] is None else str(m["controller"])


def allegiance(state: State, faction: str | None) -> str:
    """The major faction whose side a faction fights on: itself for a major, the Allies'
    own "allies" (13.6, 18.1: with the Whites), a minor's controller (12.11, 12.12), and
    NEUTRAL for a minor nobody commands (12.2)."""
    if faction is None:
        return NEUTRAL
    if faction in MINORS:
        return minor_controller(state, faction) or NEUTRAL
    return faction


def poland_major(state: State) -> str | None:
    """13.54: the eliminated major faction whose player now plays Poland, or None."""
    found = (state.get("flags") or {}).get("poland_major")
    return str(found) if isinstance(found, str) else None


def belongs(state: State, owner: str, faction: str) -> bool:
    """Pieces of `owner` count as `faction`'s own, for buying, upkeep and victory: its own,
    and Poland's when that faction plays Poland as a major faction (13.54). A minor's units
    under a major's control are not (12.4)."""
    return owner == faction or (owner == "poland" and poland_major(state) == faction)


def commander(state: State, pid: str) -> str | None:
    """The major faction that gives a piece its orders: its own faction; the controller
    of an activated minor (12.11, 12.12); the White faction that called the Allies this
    turn for an allied unit it has taken in hand (13.61, 13.63, `allied_used`)."""
    faction = str(state["units"][pid]["faction"])
    if faction in MINORS:
        return minor_controller(state, faction)
    if faction == "allies":
        for major, used in (state.get("allied_used") or {}).items():
            if pid in used:
                return str(major)
        return None
    return faction


def friendly_zone(state: State, zone: str, faction: str) -> bool:
    """7.2: a zone a faction controls; White-controlled zones are friendly to every White
    and to the Allies' units (13.6, 18.1; where they retreat, 8.7); a zone of an activated
    minor is friendly to its controller's side (12.12, 12.5)."""
    owner = state["control"].get(zone)
    if owner == faction:
        return True
    mine, theirs = allegiance(state, faction), allegiance(state, owner)
    if NEUTRAL in (mine, theirs):
        return False
    white = {*WHITES, "allies"}  # 13.6, 18.1: the Allies side with the Whites
    return mine == theirs or (mine in white and theirs in white)


def enemies(state: State, faction: str, other: str) -> bool:
    """Whose units stop a move and pin those they meet (7.3).

    White factions are not enemies of one another (18.1); an activated minor fights on its
    controller's side (12.12); every other faction, neutral minors included, is.
    """
    if other == faction:
        return False
    a, b = allegiance(state, faction), allegiance(state, other)
    if NEUTRAL in (a, b):
        return True
    if a == b:
        return False
    if "allies" in (a, b):  # 13.6, 18.1: the Allies side with the Whites
        return "red" in (a, b)
    return not (a in WHITES and b in WHITES)


def pieces_at(state: State, place: str) -> list[str]:
    return sorted(pid for pid, p in state["units"].items()
                  if p["status"] == "map" and p["zone"] == place)


def enemy_units_at(state: State, place: str, faction: str) -> list[str]:
    return [pid for pid in pieces_at(state, place)
            if state["units"][pid]["type"] != "leader"
            and enemies(state, faction, state["units"][pid]["faction"])]


def defenders_of(state: State, zone: str, attacker: str) -> set[str]:
    """The factions whose units (not leaders) in `zone` are the attacker's enemies."""
    return {state["units"][u]["faction"] for u in enemy_units_at(state, zone, attacker)}


def rail_capacity(b: Board, state: State, faction: str) -> int:
    """7.6, 19.1: rail movements a faction has this turn (movement, and the famine's
    relief, 19.2)."""
    if state["options"].get("railways"):  # 19.1: one unit per rail dot of the zones held
        held = sum(int(z.get("rail", 0)) for n, z in b.zones.items() if state["control"].get(n) == faction)
    else:
        held = int(b.game["movement"]["rail_moves"].get(faction, 0))
    return held + int((state.get("rail_bonus") or {}).get(faction, 0))  # 7.6 event cards


def landed_from(state: State, zone: str, units: list[str]) -> str | None:
    """7.8: the waiting box every one of `units` landed from in `zone` this phase, or None
    (the phase's `entered` records name the units of a landing from a box)."""
    came: dict[str, set[str]] = {}
    for e in (state.get("entered") or {}).get(zone, []):
        if e.get("kind") == "box":
            came.setdefault(str(e["from"]), set()).update(e.get("units") or [])
    return next((box for box, pids in sorted(came.items()) if units and set(units) <= pids), None)


def iron_cross_closed(b: Board, state: State, zone: str) -> bool:
    """11.0: iron-cross zones are out of play on turns 1 and 2."""
    return bool(b.zones.get(zone, {}).get("iron_cross")) and state["turn"] <= 2


def piece_id(b: Board, state: State, text: Any, path: Path_, problems: list[Problem]) -> str | None:
    """A counter or leader named in orders, matched forgivingly."""
    pid = b.pieces.get(text)
    if pid is None or (pid not in state["units"] and pid != "treasure"):
        problems.append(Problem(path, f"unknown unit or leader {text!r}{b.pieces.suggest(text)}"))
        return None
    return pid


def place_name(b: Board, text: Any, path: Path_, problems: list[Problem]) -> str | None:
    name = b.places.get(text)
    if name is None:
        problems.append(Problem(path, f"unknown zone {text!r}{b.places.suggest(text)}"))
    return name


def id_list(arg: Any) -> list[Any]:
    """A single name or a list of names."""
    if arg is None:
        return []
    return list(arg) if isinstance(arg, list) else [arg]


def pieces(
    b: Board, state: State, names: Any, path: Path_, problems: list[Problem]
) -> Iterator[tuple[str, Path_]]:
    """Each counter or leader that orders name (one name, or a list of them), with its place
    in the file; a name that is no piece is told as a problem and passed over."""
    for j, text in enumerate(id_list(names)):
        at = (*path, j)
        pid = piece_id(b, state, text, at, problems)
        if pid is not None:
            yield pid, at


def label_part(name: str) -> str:
    """A zone or piece name as it appears in dice labels: lower case, no spaces."""
    return "".join(ch if ch.isalnum() else "-" for ch in name.lower()).strip("-")


def place_order(
    b: Board, state: State, arg: Any, path: Path_, waiting: set[str], placed: set[str],
    problems: list[Problem], *, not_waiting: Callable[[str], str],
    refused: Callable[[str, str], str | None],
) -> tuple[str | None, list[str]]:
    """A `place: {zone, units}` order (3.0 set-up, 5.2 arrivals): units that are waiting to
    be placed, each once, each in a zone it may go to. `not_waiting(pid)` says why a unit is
    not waiting; `refused(pid, zone)` says why it may not go there, or None.
    Returns the zone and the units accepted; adds every problem."""
    if not check_keys(arg, path, ("zone", "units"), (), problems):
        return None, []
    zone = place_name(b, arg["zone"], (*path, "zone"), problems)
    ids = []
    for pid, upath in pieces(b, state, arg["units"], (*path, "units"), problems):
        if pid not in waiting:
            problems.append(Problem(upath, f"{pid} {not_waiting(pid)}"))
            continue
        if pid in placed:
            problems.append(Problem(upath, f"{pid} is placed twice"))
            continue
        placed.add(pid)
        if zone is not None:
            why = refused(pid, zone)
            if why is not None:
                problems.append(Problem(upath, why))
                continue
        ids.append(pid)
    return zone, ids
