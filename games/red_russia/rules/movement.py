"""Movement in the action phase (7.x, 10.3, 10.8x, 11.0, 18.1, 8.91, 8.92 at sea).

Costs are counted in half movement points so that no fractions are needed: a unit
without a leader has 2 (one movement point, 7.1), entering a friendly zone costs 1.

An order moves one stack along a path:

    - move: {units: [red-inf-04, trotsky], from: Moscow, to: Kazan, via: [Vladimir]}

Without `via` the cheapest legal land path is taken. A sea or the Caspian in `via` makes
the step a naval transport (7.5, 7.7); a fleet moves between its sea and a port (7.43).
Units at sea since a retreat by sea (8.4) land in a friendly port of that sea:

    - move: {units: [red-inf-04, trotsky], from: Baltic Sea, to: Reval}

Among the moves, in the order they happen, fleets act at sea (8.92, naval.py):

    - search: {zone: Baltic Sea}       # seek out the enemy fleets there: 2d6, contact on 7+
    - blockade: {port: Reval}          # from the sea next to the port
    - lift_blockade: {port: Reval}

A fleet entering or leaving a port blockaded against it fights its way through, and an
opponent whose standing `naval_search` is `always` searches the fleets and transports that
sail where his fleets lie: with contact, the move ends there.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from pbem.game import Event, GameData, Problem, Rng, State
from pbem.kit import graph
from pbem.kit.fold import Fold
from pbem.kit.orders import check_keys, order_items

from . import forces, minors, naval
from .battle import Battle
from .board import MINORS, WHITES, Board, board
from .common import (
    Path_,
    enemy_units_at,
    friendly_zone,
    id_list,
    iron_cross_closed,
    label_part,
    piece_id,
    place_name,
    rail_capacity,
)
from .fold import apply

CASPIAN = "Caspian Sea"
LEADER_MOVE = {"trotsky": 3}  # 10.83 Trotsky moves 3; other leaders 2 (10.3)
COMMAND = {"lenin": 3}  # 10.8.1 Lenin commands 3 units although his combat value is 0 or 2
BLACK_SEA_PORTS_OF_7_7 = ("Odessa", "Sevastopol", "Novorossiysk", "Batumi")


@dataclass
class Stack:
    faction: str
    pieces: list[str]
    units: list[str] = field(default_factory=list)  # counters (not leaders, not the treasure)
    leaders: list[str] = field(default_factory=list)
    treasure: bool = False

    def types(self, state: State) -> set[str]:
        return {state["units"][u]["type"] for u in self.units}


def _cavalry_move(state: State, stack: Stack) -> bool:
    """7.42, 10.3: a stack of cavalry (and its leaders, but not Trotsky) moves as cavalry."""
    return bool(stack.units) and stack.types(state) == {"cav"} and "trotsky" not in stack.leaders


def step_cost(b: Board, state: State, stack: Stack, to: str, kind: str) -> int:
    """Half movement points to enter `to` along a route of `kind`."""
    if kind == "very_difficult":  # 7.7: one full point across a territory border, always
        return 2
    if _cavalry_move(state, stack):  # 7.42
        return 2 if kind == "difficult" else 1
    return 1 if friendly_zone(state, to, stack.faction) else 2  # 7.2


def allowance(b: Board, state: State, stack: Stack, problems: list[Problem], path: Path_) -> int:
    """Half movement points the stack may spend this phase (7.1, 10.1, 10.3, 10.83)."""
    if not stack.leaders:
        return 2
    command = 0
    left = list(stack.units)  # the units no minor's leader takes
    minor_leaders: list[str] = []
    for lid in stack.leaders:
        most = COMMAND.get(lid, b.leaders[lid]["level"] + 1)  # 10.1
        minor = state["units"][lid]["faction"]
        if minor not in MINORS:
            command += most
            continue
        # 10.7 "a leader of a minor faction may not command units other than his own ...
        # Makhno has a leadership value of 1. He can therefore command both an anarchist
        # unit and a red unit, but cannot command two red units": his own first, then one
        # other with them (ruling 60)
        minor_leaders.append(lid)
        own = [u for u in left if state["units"][u]["faction"] == minor][:most]
        left = [u for u in left if u not in own]
        if own and len(own) < most and left:
            left = left[1:]
    if len(left) > command:
        names = ", ".join(b.leaders[lid]["name"] for lid in stack.leaders)
        most = len(stack.units) - len(left) + command
        why = "10.1"
        if minor_leaders:
            why = ("10.1; 10.7: " + ", ".join(b.leaders[lid]["name"] for lid in minor_leaders)
                   + " only his own faction's units, and one other unit with them")
        problems.append(Problem(path, f"{names} can command at most {most} units ({why}); "
                                      f"this stack has {len(stack.units)}"))
    return 2 * max(LEADER_MOVE.get(lid, 2) for lid in stack.leaders)


# ---------------------------------------------------------------------------------------


ORDER_VERBS = ("move", "search", "blockade", "lift_blockade")  # 7.x, 8.92 in the order given


def plan(
    data: GameData, state: State, faction: str, body: dict[str, Any], rng: Rng | None = None,
    idle: list[int] | None = None,
) -> tuple[list[Event], list[Problem]]:
    """Check each move, search and blockade in order against the position it leaves; with
    `rng`, roll for tanks (8.91) and fight at sea (8.92). Once the dice have changed the
    position, an order they made impossible is noted and skipped instead of refused. With
    `idle`, the index of each legal move that goes nowhere (to the zone its units are in,
    by no other) is added to it."""
    b = board(data)
    problems: list[Problem] = []
    fold = Fold(lambda s, e: apply(data, s, e), state)

    for lifted in forces.stale_blockades(b, state):  # 8.92 their fleet has gone
        fold.emit(lifted)
    for lost in forces.stranded(b, fold.state):  # 8.4 units at sea whose fleet has gone
        fold.emit(lost)
    searched: set[str] = set()
    diverged = False
    for i, verb, arg in order_items(body, ORDER_VERBS, problems, others=("attack", "siege", "play")):
        path: Path_ = ("orders", i, verb)
        found: list[Problem] = []
        event: Event | None = None
        spec: dict[str, Any] | None = None
        if verb == "move":
            event = _one_move(b, fold.state, faction, arg, path, found)
        elif verb == "search":
            spec = naval.check_search(b, fold.state, faction, arg, path, searched, found)
        elif verb == "blockade":
            event = naval.check_blockade(b, fold.state, faction, arg, path, found)
        else:
            event = naval.check_lift(b, fold.state, faction, arg, path, found)
        if found:
            if rng is not None and diverged:
                where = next((str(arg[k]) for k in ("zone", "port", "to")
                              if isinstance(arg, dict) and k in arg), "")
                fold.emit({"type": "note", "zone": where, "text": f"{verb} (order {i + 1}) is not carried "
                      f"out after this phase's dice: {found[0].message}"})
            else:
                problems += found
            continue
        if verb == "search":
            if spec is None or rng is None:
                continue
            # 8.92 the player in the phase seeks out the enemy fleet
            label = f"naval:{label_part(spec['zone'])}:t{fold.state['turn']}:{faction}:o{i}"
            more, after, contact = naval.search(b, data, fold.state, faction, spec["zone"], spec["fleets"],
                                                label, rng, phasing=True)
            fold.join(more, after)
            diverged = diverged or contact
            continue
        if event is None:
            continue
        if idle is not None and verb == "move" and len(event["path"]) == 1:
            idle.append(i)
        taken = minors.new_allies(fold.state, faction, list(event.get("units", []))) if verb == "move" else []
        if taken:  # 13.61 the allied units named first are the faction's for the turn
            fold.emit({"type": "allies_taken", "faction": faction, "units": taken})
        ukraine = set(minors.homes(b, "ukraine"))
        poland = minors.greater_poland(fold.state, faction) if set((event.get("path") or [])[1:]) & ukraine else None
        if poland is not None:  # 13.52 entering Ukrainian territory after Greater Poland
            fold.emit(poland)
        if verb != "move" or rng is None:
            fold.emit(event)
            continue
        more, after, changed = _carry_out(b, data, fold.state, event, i, rng)
        fold.join(more, after)
        more, after = _caught_alone(b, data, after, more, i, rng)
        fold.join(more, after)
        diverged = diverged or changed or bool(more)
    return fold.events, problems


def _caught_alone(b: Board, data: GameData, state: State, moved: list[Event], index: int,
                  rng: Rng) -> tuple[list[Event], State]:
    """What an enemy force (a move with a unit: a leader alone is none) does to the enemy
    pieces alone in the zones it enters: 10.5 "Leaders who are alone in a zone that one or
    more enemy units enter may also be captured", in every zone of its path; and 8.93 "If an
    enemy force moves into a zone containing an aircraft without any other type of unit,
    then the aircraft must retreat immediately and its owner rolls a die. On a result of 1
    or 2, the aircraft suffers one step loss", where it ends its move (it stops there, 7.3)."""
    moves = [e for e in moved if e["type"] == "moved"]
    if not moves:
        return [], state
    move = moves[-1]  # as carried out: a transport met at sea turns back (8.92)
    faction, route = move["faction"], move["path"]
    force = [p for p in move["units"] if state["units"][p]["type"] != "leader"
             and state["units"][p]["status"] == "map"]
    events: list[Event] = []
    if not force:
        return events, state
    for zone in dict.fromkeys(route[1:]):
        if zone not in b.zones:
            continue
        caught = Battle(b, data, state, faction, {"zone": zone, "units": force, "leaders": []}, rng)
        caught.label = f"move:{label_part(zone)}:t{state['turn']}:{faction}:o{index}"
        caught.capture_lone_leaders()  # alone as the force comes in: an aircraft is company
        if zone == route[-1]:
            caught.air_alone()
        events += caught.events
        state = caught.state
    return events, state


def _carry_out(
    b: Board, data: GameData, state: State, event: Event, index: int, rng: Rng
) -> tuple[list[Event], State, bool]:
    """A checked move with its dice: a fleet running a blockade fights (8.92), fleets and
    transports sailing where an opponent's fleet lies may be searched (8.92), tanks may break
    down (8.91). Returns the events, the state after them, and whether the dice changed the
    position."""
    fold = Fold(lambda s, e: apply(data, s, e), state)

    faction, route = event["faction"], event["path"]
    tail = f"o{index}"
    if all(state["units"][p]["type"] == "fleet" for p in event["units"]):  # 7.43 a fleet move
        start, dest = route[0], route[-1]
        port, sea = (start, dest) if dest in b.seas else (dest, start)
        fold.emit(event)
        if start in b.seas:
            mine = [f for f in event["units"] if fold.state.get("blockade", {}).get(f)]
            for f in mine:  # 8.92 a blockade lasts until the fleet leaves
                fold.emit({"type": "blockade_lifted", "port": fold.state["blockade"][f], "fleets": [f],
                      "why": f"the fleet sailed to {dest}"})
        if forces.blockaders(b, fold.state, port, faction):
            # 8.92 entering or leaving a blockaded port is a fight, no search needed
            label = f"naval:{label_part(sea)}:t{fold.state['turn']}:{faction}:{tail}:blockade"
            more, after = naval.blockade_run(b, data, fold.state, faction, list(event["units"]), start,
                                             dest, port, label, rng)
            return fold.events + more, after, True
        if dest == sea:  # 8.92 putting to sea where an opponent's fleet lies
            more, after, contact = naval.opponent_searches(b, data, fold.state, faction, sea, tail, rng, {})
            return fold.events + more, after, contact
        return fold.events, fold.state, False
    # 7.5 a naval transport at sea; a landing (8.4, the route starts at sea) sails nowhere
    seas = [(k, z) for k, z in enumerate(route) if z in b.seas and k > 0]
    for j, (k, sea) in enumerate(seas):  # 7.5 a naval transport at sea
        carrier = event["fleets"][j]
        cargo = {carrier: list(event["units"])}
        leg = tail if j == 0 else f"{tail}-{j}"
        more, after, contact = naval.opponent_searches(b, data, fold.state, faction, sea, leg, rng, cargo)
        fold.join(more, after)
        if contact:
            # 8.92 only without contact may the move go on: the units turn back to the port
            # they sailed from, and may not move again this phase
            left = [p for p in event["units"] if fold.state["units"][p]["status"] == "map"]
            fold.emit({"type": "note", "zone": sea, "text": f"the transport was met at sea: "
                  f"{', '.join(left) or 'nobody'} turn(s) back to {route[k - 1]} (8.92)"})
            if left:
                short = {**event, "units": left, "path": route[:k], "stopped": True,
                         "fleets": event["fleets"][: j + 1],
                         "why": "turned back at sea, no more movement this phase (8.92)"}
                if not any(fold.state["units"][p]["type"] not in ("leader", "air") for p in left):
                    short.pop("treasure", None)  # 15.1 it stays where it was without its unit
                fold.emit(short)
            return fold.events, fold.state, True
    fold.emit(event)
    changed = False
    for roll in _tank_rolls(b, state, event, index, rng):  # 8.91
        fold.emit(roll)
        changed = changed or roll["roll"] == 6
    return fold.events, fold.state, changed


def _one_move(
    b: Board, state: State, faction: str, arg: Any, path: Path_, problems: list[Problem]
) -> Event | None:
    if not check_keys(arg, path, ("units", "to"), ("from", "via", "rail"), problems):
        return None
    stack = _stack(b, state, faction, arg["units"], (*path, "units"), problems)
    if stack is None:
        return None
    starts = {state["units"][p]["zone"] for p in stack.pieces}
    if stack.treasure:
        starts.add(state["treasure"]["zone"])
    if len(starts) != 1:
        problems.append(Problem((*path, "units"), "the units of one move must start together "
                                                  f"(10.3); they are in {', '.join(sorted(map(str, starts)))}"))
        return None
    start = str(starts.pop())
    if "from" in arg:
        given = place_name(b, arg["from"], (*path, "from"), problems)
        if given is not None and given != start:
            problems.append(Problem((*path, "from"), f"the units are in {start}, not {given}"))
            return None
    dest = place_name(b, arg["to"], (*path, "to"), problems)
    named = [place_name(b, v, (*path, "via", j), problems) for j, v in enumerate(id_list(arg.get("via")))]
    via = [v for v in named if v is not None]
    if dest is None or len(via) != len(named):
        return None
    rail = arg.get("rail", False)
    if not isinstance(rail, bool):
        problems.append(Problem((*path, "rail"), "rail is true or false"))
        return None
    if enemy_units_at(state, start, faction) and start in b.zones:  # 7.3
        problems.append(Problem(path, f"the units in {start} share the zone with enemy units and "
                                      "may not move except to retreat (7.3)"))
        return None
    limit = allowance(b, state, stack, problems, (*path, "units"))
    if rail:
        limit += 2  # 7.6: rail adds one movement point
    if stack.types(state) == {"fleet"} or "fleet" in stack.types(state):
        return _fleet_move(b, state, stack, start, [*via, dest], path, problems)
    if dest in b.boxes:  # 7.8 "the only way for a unit to return to a waiting box"
        problems.append(Problem((*path, "to"), "units go back into a waiting box only by retreating "
                                               "into the one they landed from, in the battle they "
                                               "landed into (7.8)"))
        return None
    if start in b.seas:  # 8.4 units at sea since a retreat by sea land
        return _landing(b, state, stack, start, [*via, dest], limit, rail, path, problems)
    if start in b.boxes:  # 7.8 units in a waiting box disembark
        return _disembark(b, state, stack, start, [*via, dest], limit, rail, path, problems)
    route: list[str] | None = [start, *via, dest]
    if not via and dest in b.zones:
        route = _cheapest(b, state, stack, start, dest, limit, rail)
        if route is None:
            problems.append(Problem((*path, "to"), f"{dest} cannot be reached from {start} this "
                                                   "phase" + (" by rail" if rail else "")
                                                   + _why_not(b, state, stack, start, dest, limit, rail)))
            return None
    assert route is not None
    return _walk(b, state, stack, route, limit, rail, path, problems)


def _stack(
    b: Board, state: State, faction: str, names: Any, path: Path_, problems: list[Problem]
) -> Stack | None:
    stack = Stack(faction, [])
    items = id_list(names)
    if not items:
        problems.append(Problem(path, "name at least one unit or leader"))
        return None
    for j, text in enumerate(items):
        where = (*path, j) if isinstance(names, list) else path
        pid = piece_id(b, state, text, where, problems)
        if pid is None:
            continue
        if pid == "treasure":  # 15.1 carried by a unit that is not an aircraft
            if state["treasure"]["owner"] != faction or state["treasure"]["zone"] is None:
                problems.append(Problem(where, "the treasure is not yours to move"))
            stack.treasure = True
            continue
        piece = state["units"][pid]
        # 12.11, 12.12 an activated minor's units, 13.61 the Allies taken in hand
        why = minors.command_problem(state, faction, pid,
                                     taking=len(minors.new_allies(state, faction, stack.pieces)))
        if why is not None:
            problems.append(Problem(where, why))
            continue
        if piece["status"] != "map":
            problems.append(Problem(where, f"{pid} is not on the map"))
            continue
        if pid in stack.pieces:
            problems.append(Problem(where, f"{pid} is named twice"))
            continue
        stack.pieces.append(pid)
        (stack.leaders if piece["type"] == "leader" else stack.units).append(pid)
    if stack.treasure and not any(state["units"][u]["type"] != "air" for u in stack.units):
        problems.append(Problem(path, "the treasure moves only with a unit that is not an aircraft (15.1)"))
    why = minors.limited_problem(state, stack.pieces)
    if why is not None:
        problems.append(Problem(path, why))
    if problems:
        return None
    return stack


def _fleet_move(
    b: Board, state: State, stack: Stack, start: str, rest: list[str], path: Path_,
    problems: list[Problem],
) -> Event | None:
    """7.43: a fleet moves between its sea and a port of that sea, one step a phase; from a
    waiting box (7.8) it comes out into its sea or a port of it that the box lands in."""
    if stack.leaders or stack.treasure or stack.types(state) != {"fleet"}:
        problems.append(Problem((*path, "units"), "fleets move on their own, without land units or "
                                                  "leaders (land units go by naval transport, 7.5)"))
        return None
    dest = rest[-1]
    if len(rest) != 1:
        problems.append(Problem((*path, "via"), "a fleet moves one step: from its sea to a port or "
                                                "from a port to its sea (7.43)"))
        return None
    for fid in stack.units:
        sea = b.counters[fid]["sea"]
        ports = b.ports.get(sea, [])
        out_of_box = [z for z in (b.boxes.get(start) or {}).get("disembark") or [] if z in ports]
        if out_of_box:
            if dest != sea and dest not in out_of_box:
                problems.append(Problem((*path, "to"), f"{fid} comes out of the {start} into the {sea} "
                                                       f"or {' or '.join(out_of_box)} (7.8, 7.43)"))
        elif not ((start == sea and dest in ports) or (start in ports and dest == sea)):
            problems.append(Problem((*path, "to"), f"{fid} belongs to the {sea}: it may go only between "
                                                   f"the {sea} and its ports ({', '.join(sorted(ports))}) (7.43)"))
        if state["moved"].get(fid, 0):
            problems.append(Problem((*path, "units"), f"{fid} has already moved or transported this phase"))
        cargo = forces.aboard(b, state, fid)
        if cargo:  # 8.4, 7.5 the fleet stays at sea while it carries them
            problems.append(Problem((*path, "units"), f"{fid} carries {', '.join(cargo)} at sea (8.4): "
                                                      f"land them first (move: {{units: [{', '.join(cargo)}], "
                                                      f"from: {start}, to: PORT}}); the fleet may "
                                                      "sail once they are ashore, in a later phase (7.5)"))
    if dest in b.zones and iron_cross_closed(b, state, dest):
        problems.append(Problem((*path, "to"), f"{dest} is occupied by the Central Powers on turns 1-2 (11.0)"))
    if problems:
        return None
    return {"type": "moved", "faction": stack.faction, "units": stack.pieces, "path": [start, dest],
            "cost": 2, "stopped": bool(dest in b.zones and enemy_units_at(state, dest, stack.faction))}


def _legal_step(
    b: Board, state: State, stack: Stack, here: str, there: str, rail: bool
) -> tuple[str | None, str]:
    """(route kind, '') for a land step that may be taken, or (None, why not)."""
    kind = b.routes.get(here, {}).get(there)
    if kind is None:
        return None, f"there is no route from {here} to {there}"
    if iron_cross_closed(b, state, there):
        return None, f"{there} is occupied by the Central Powers on turns 1-2 (11.0)"
    if rail:
        if not (friendly_zone(state, here, stack.faction) and friendly_zone(state, there, stack.faction)):
            return None, f"rail movement only runs through friendly zones (7.6); {there} is not one"
        if enemy_units_at(state, there, stack.faction):
            return None, f"rail movement may not enter {there}, where there are enemy units (7.6)"
    return kind, ""


def _cheapest(
    b: Board, state: State, stack: Stack, start: str, dest: str, limit: int, rail: bool
) -> list[str] | None:
    """The cheapest path over land routes, not passing through enemy units (7.3); ties by
    name."""
    def links(here: str) -> Iterator[tuple[str, int]]:
        for there in sorted(b.routes.get(here, {})):
            kind, _ = _legal_step(b, state, stack, here, there, rail)
            if kind is not None:
                yield there, step_cost(b, state, stack, there, kind)

    return graph.cheapest_path(start, dest, links, limit=limit,
                               spent=max(state["moved"].get(p, 0) for p in stack.pieces),
                               may_pass=lambda here: not enemy_units_at(state, here, stack.faction))


def _why_not(b: Board, state: State, stack: Stack, start: str, dest: str, limit: int,
             rail: bool) -> str:
    if dest in b.routes.get(start, {}):
        # 7.6 a rail move refused for an enemy zone or enemy units says so, not a cost
        kind, why = _legal_step(b, state, stack, start, dest, rail)
        if kind is None:
            return f": {why}"
        left = max(0, limit - max(state["moved"].get(p, 0) for p in stack.pieces))
        return (f": entering it costs {step_cost(b, state, stack, dest, kind) / 2:g} movement points "
                f"and these units have {left / 2:g} left (7.1, 7.2)")
    return "; name the way with 'via' or move fewer zones (7.1: 1 movement point, 2 with a leader)"


def _walk(
    b: Board, state: State, stack: Stack, route: list[str], limit: int, rail: bool, path: Path_,
    problems: list[Problem], landed: list[str] | None = None,
) -> Event | None:
    """Check a given path step by step and total its cost. With `landed` (the fleets they
    come from; none from a waiting box) the route starts at sea (8.4) or in a box (7.8) with
    a landing, costed as a transport (7.5)."""
    cost = 0
    fleets: list[str] = []
    entered_enemy = False
    first = 1
    if landed is not None:  # 8.4, 7.5 one movement point to land in the port
        cost, fleets, first = 2, list(landed), 2
        entered_enemy = bool(enemy_units_at(state, route[1], stack.faction))
    for k in range(first, len(route)):
        here, there = route[k - 1], route[k]
        where = (*path, "via", k - 1) if k < len(route) - 1 else (*path, "to")
        if here in b.seas or here == CASPIAN:
            continue  # the landing half of a transport step, already counted (and checked
            # for enemy units in the port it lands in, below: they stop it there, 7.3)
        if entered_enemy:
            problems.append(Problem(where, f"the units must stop in {here}: enemy units are there (7.3)"))
            return None
        if there in b.seas or there == CASPIAN:
            if k + 1 >= len(route):
                problems.append(Problem(where, "land units cannot end their move at sea; name the port "
                                               "they land in after the sea (7.5)"))
                return None
            landing = route[k + 1]
            used = _transport(b, state, stack, here, there, landing, rail, where, problems)
            if used is None:
                return None
            fleets += used
            cost += 2  # 7.5: one movement point, even between friendly ports
            entered_enemy = bool(enemy_units_at(state, landing, stack.faction))
            continue
        kind, why = _legal_step(b, state, stack, here, there, rail)
        if kind is None:
            problems.append(Problem(where, why))
            return None
        cost += step_cost(b, state, stack, there, kind)
        entered_enemy = bool(enemy_units_at(state, there, stack.faction))
    for pid in stack.pieces:
        spent = state["moved"].get(pid, 0)
        if spent + cost > limit:
            left = max(0, limit - spent)
            problems.append(Problem((*path, "to"), f"this path costs {cost / 2:g} movement points; "
                                                   f"{pid} has {left / 2:g} left (7.1, 7.2)"))
            return None
    dest = route[-1]
    for pid in stack.pieces:  # 12.6, 12.11, 13.1-13.3, 13.56, 13.63
        too_far = minors.reach_problem(b, state, stack.faction, pid, route)
        if too_far is not None:
            problems.append(Problem((*path, "to"), too_far))
            return None
    _check_end(b, state, stack, dest, (*path, "to"), problems)
    if rail:
        needed = len(stack.units) if state["options"].get("railways") else 1
        used = state["rail_used"].get(stack.faction, 0)
        capacity = rail_capacity(b, state, stack.faction)
        if used + needed > capacity:
            problems.append(Problem((*path, "rail"), f"{stack.faction} has {capacity - used} rail "
                                                     f"movement(s) left this turn; this needs {needed} (7.6, 19.1)"))
    if problems:
        return None
    event: Event = {"type": "moved", "faction": stack.faction, "units": stack.pieces, "path": route,
                    "cost": cost, "stopped": entered_enemy}
    if stack.treasure:
        event["treasure"] = True
    if rail:
        event["rail"] = len(stack.units) if state["options"].get("railways") else 1
    if fleets:
        event["fleets"] = fleets
    return event


def _landing(
    b: Board, state: State, stack: Stack, sea: str, rest: list[str], limit: int, rail: bool,
    path: Path_, problems: list[Problem],
) -> Event | None:
    """8.4: land units and leaders at sea since a retreat by sea land in a friendly port of
    that sea for one movement point, as at the end of a naval transport (7.5); their fleet
    stays at sea and may not move this phase. A leader's movement left takes them on over
    land (the port in `via`, 7.5, 10.3). One landing may bring in the cargo of several fleets."""
    carriers: list[str] = []
    for pid in stack.pieces:
        fid = (state.get("aboard") or {}).get(pid)
        if fid is None or pid not in forces.aboard(b, state, fid):
            problems.append(Problem((*path, "units"), f"{pid} is in the {sea} aboard no fleet (8.4)"))
        elif fid not in carriers:
            carriers.append(fid)
    if rail:
        problems.append(Problem((*path, "rail"), "a landing from the sea cannot also be a rail move"))
    port = rest[0]
    where: Path_ = (*path, "via", 0) if len(rest) > 1 else (*path, "to")
    ports = sorted(b.ports.get(sea, []))
    if port not in ports:
        problems.append(Problem(where, f"units at sea in the {sea} land in one of its ports "
                                       f"({', '.join(ports)}); {port} is not one (8.4, 7.5)"
                                       + ("; to go further, name the port in via" if port in b.zones else "")))
    elif not friendly_zone(state, port, stack.faction):
        problems.append(Problem(where, f"units land in a friendly port (7.5); {port} is not "
                                       f"friendly to {stack.faction}"))
    elif iron_cross_closed(b, state, port):
        problems.append(Problem(where, f"{port} is occupied by the Central Powers on turns 1-2 (11.0)"))
    if any(z in b.seas or z == CASPIAN for z in rest[1:]):
        problems.append(Problem((*path, "via"), "once landed, the move goes on over land (8.4, 7.5)"))
    if problems:
        return None
    return _walk(b, state, stack, [sea, *rest], limit, False, path, problems, landed=carriers)


def _disembark(
    b: Board, state: State, stack: Stack, box: str, rest: list[str], limit: int, rail: bool,
    path: Path_, problems: list[Problem],
) -> Event | None:
    """7.8: units in a waiting box land in a zone the box gives (map.yaml `disembark`: any
    port of the box's sea, friendly or not; Erevan from Persia box 1, Merv from Persia box 2),
    with no fleet and no rail. The landing costs one movement point, as a naval transport's
    does (7.5); a leader's movement left takes them on over land (the landing zone in `via`).
    Enemy units where they land stop them there (7.3)."""
    if rail:
        problems.append(Problem((*path, "rail"), "a landing from a waiting box needs no rail and "
                                                 "cannot be a rail move (7.8)"))
    landing = rest[0]
    where: Path_ = (*path, "via", 0) if len(rest) > 1 else (*path, "to")
    allowed = [str(z) for z in (b.boxes.get(box) or {}).get("disembark") or []]
    if landing not in allowed:
        problems.append(Problem(where, f"units in the {box} land in {' or '.join(allowed)}; "
                                       f"{landing} is not one (7.8)"
                                       + ("; to go further, name the landing zone in via" if landing in b.zones else "")))
    elif iron_cross_closed(b, state, landing):
        problems.append(Problem(where, f"{landing} is occupied by the Central Powers on turns 1-2 (11.0)"))
    if any(z not in b.zones for z in rest[1:]):
        problems.append(Problem((*path, "via"), "once landed, the move goes on over land (7.8)"))
    if problems:
        return None
    return _walk(b, state, stack, [box, *rest], limit, False, path, problems, landed=[])


def _transport(
    b: Board, state: State, stack: Stack, port: str, sea: str, landing: str, rail: bool,
    where: Path_, problems: list[Problem],
) -> list[str] | None:
    """7.5 naval transport, 7.7 the Black Sea crossing to Batumi and the Caspian."""
    faction = stack.faction
    if rail:
        problems.append(Problem(where, "a move by sea cannot also be a rail move"))
        return None
    if len(stack.units) > 1 or len(stack.leaders) > 1:
        problems.append(Problem(where, "a naval transport carries one unit and one leader (7.5)"))
        return None
    for end in (port, landing):
        if not friendly_zone(state, end, faction):
            problems.append(Problem(where, f"naval transport runs between friendly ports (7.5); "
                                           f"{end} is not friendly"))
            return None
    if sea == CASPIAN:  # 7.7: no fleet needed between Caspian ports
        if port not in b.caspian or landing not in b.caspian:
            problems.append(Problem(where, f"the Caspian crossing links its ports only: "
                                           f"{', '.join(sorted(b.caspian))} (7.7)"))
            return None
        return []
    ports = b.ports.get(sea, [])
    if port not in ports or landing not in ports:
        problems.append(Problem(where, f"{port} and {landing} must both be ports of the {sea}; "
                                       f"its ports are {', '.join(sorted(ports))} (7.5)"))
        return None
    # 7.5: the fleet starts the phase at sea, stays there, carries one unit and one leader
    places = [sea]
    crossing = b.territory(port) != b.territory(landing)
    if sea == "Black Sea" and crossing:  # 7.7: the fleet may also lie in one of the four ports
        places += [p for p in BLACK_SEA_PORTS_OF_7_7 if p in b.zones]
        enemy_fleets = [u for u in enemy_units_at(state, sea, faction)
                        if state["units"][u]["type"] == "fleet"]
        if enemy_fleets:
            problems.append(Problem(where, "no crossing to Batumi while an enemy fleet is in the "
                                           "Black Sea (7.7)"))
            return None
    for fid, fleet in sorted(state["units"].items()):
        if (fleet["faction"] == faction and fleet["type"] == "fleet" and fleet["status"] == "map"
                and fleet["zone"] in places and b.counters[fid]["sea"] == sea
                and fid not in state["moved"] and not state.get("transport", {}).get(fid)
                and not forces.aboard(b, state, fid)):  # 8.4 full with the units it carries
            return [fid]
    problems.append(Problem(where, f"no {faction} fleet at sea in the {sea} is free to carry them "
                                   "this phase (7.5)"))
    return None


def _check_end(b: Board, state: State, stack: Stack, dest: str, where: Path_,
               problems: list[Problem]) -> None:
    if stack.faction in WHITES:  # 18.1: no stacking with another White faction's units
        others = sorted({state["units"][p]["faction"] for p in _units_at(state, dest)} & set(WHITES)
                        - {stack.faction})
        if others:
            problems.append(Problem(where, f"White factions may pass through but not stop with "
                                           f"{', '.join(others)} units in {dest} (18.1)"))
    leaders_there = {p for p in _units_at(state, dest, leaders=True)}
    moving = set(stack.leaders)
    for a, c, rule in (("stalin", "trotsky", "10.82"), ("trotsky", "stalin", "10.83")):
        if a in moving and c in leaders_there:
            problems.append(Problem(where, f"{a.title()} may not end his move in the same zone as "
                                           f"{c.title()} ({rule})"))


def _units_at(state: State, place: str, leaders: bool = False) -> list[str]:
    return [pid for pid, p in state["units"].items()
            if p["status"] == "map" and p["zone"] == place and (p["type"] == "leader") == leaders]


def _tank_rolls(b: Board, state: State, event: Event, index: int, rng: Rng) -> list[Event]:
    """8.91: a tank entering a neutral or enemy zone (not in retreat) breaks down on a 6."""
    out: list[Event] = []
    for pid in event["units"]:
        if state["units"][pid]["type"] != "tank":
            continue
        for zone in event["path"][1:]:
            if zone in b.zones and not friendly_zone(state, zone, event["faction"]):
                label = f"tank:t{state['turn']}:{event['faction']}:o{index}:{pid}:{label_part(zone)}"
                roll = rng.roll(label, 6)
                out.append({"type": "tank_breakdown", "unit": pid, "zone": zone, "label": label,
                            "roll": roll})
    return out


# ---------------------------------------------------------------------------------------


def bot(data: GameData, state: State, faction: str, rng: Rng) -> list[dict[str, Any]]:
    """A few sensible moves: stacks step to a neighbouring zone or land from a waiting box
    (7.8); fleets at sea seek out weaker enemy fleets (8.92)."""
    b = board(data)
    orders: list[dict[str, Any]] = []
    work = state
    # its own units, an activated minor's it controls (12.12), the Allies it called (13.61)
    zones = sorted({p["zone"] for pid, p in state["units"].items()
                    if p["status"] == "map" and (p["zone"] in b.zones or p["zone"] in b.boxes)
                    and p["type"] not in ("leader", "fleet")
                    and minors.command_problem(state, faction, pid) is None})
    for zone in zones:
        if rng.roll(f"bot:move:{faction}:{label_part(zone)}", 3) == 1:
            continue  # some stacks hold
        units = [p for p in _units_at(work, zone) if minors.command_problem(work, faction, p) is None
                 and work["units"][p]["type"] != "fleet"]
        if not units:
            continue
        # stacks step anywhere open, enemy units included: the attacks come after the moves
        reach = (b.boxes[zone].get("disembark") or []) if zone in b.boxes else b.routes.get(zone, {})
        neighbours = [n for n in sorted(reach) if not iron_cross_closed(b, work, n)]
        if not neighbours:
            continue
        dest = rng.choice(f"bot:dest:{faction}:{label_part(zone)}", neighbours)
        count = rng.roll(f"bot:count:{faction}:{label_part(zone)}", len(units)) if len(units) > 1 else 1
        take = units[:count]
        order = {"move": {"units": take, "from": zone, "to": dest}}
        events, problems = plan(data, work, faction, {"orders": [order]})
        if problems:
            continue
        orders.append(order)
        for event in events:
            work = apply(data, work, event)
    # 8.4 units at sea since a retreat by sea land in the first friendly port that takes them
    for sea in b.seas:
        for fid in [f for f in forces.fleets_at(work, sea) if work["units"][f]["faction"] == faction]:
            cargo = forces.aboard(b, work, fid)
            for port in sorted(b.ports.get(sea, [])) if cargo else []:
                order = {"move": {"units": cargo, "from": sea, "to": port}}
                events, problems = plan(data, work, faction, {"orders": [order]})
                if not problems:
                    orders.append(order)
                    for event in events:
                        work = apply(data, work, event)
                    break
    # 8.92 seek out an enemy fleet at sea when ours are at least as strong
    for sea in b.seas:
        mine = [f for f in forces.fleets_at(work, sea) if work["units"][f]["faction"] == faction]
        theirs = forces.enemy_fleets_at(work, sea, faction)
        if not mine or not theirs:
            continue
        strength = {f: b.counters[f]["reduced" if work["units"][f]["reduced"] else "full"][0]
                    for f in mine + theirs}
        if sum(strength[f] for f in mine) < sum(strength[f] for f in theirs):
            continue
        trial: list[Problem] = []
        if naval.check_search(b, work, faction, {"zone": sea}, ("orders",), set(), trial) and not trial:
            orders.append({"search": {"zone": sea}})
    return orders
