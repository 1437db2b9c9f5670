"""8.92 fleets at sea: searches, blockades and naval combat; retreats by sea before combat
(8.4).

    - search: {zone: Baltic Sea}                  # your fleets there seek out the enemy's
    - blockade: {port: Reval}                     # your fleets at sea next to it close it
    - lift_blockade: {port: Reval}

Each takes an optional `fleets: [...]` (default: all your fleets at sea there). They are
given among the moves, in the order they happen; movement.plan reads them.
"""

from __future__ import annotations

from typing import Any

from pbem.game import Event, Problem, Rng, State
from pbem.kit.events import Describe, Ruled, Told
from pbem.kit.orders import check_keys

from .battle import Battle
from .board import MAJORS, Board
from .common import (
    Path_,
    enemies,
    friendly_zone,
    id_list,
    iron_cross_closed,
    label_part,
    piece_id,
    pieces,
    place_name,
)
from .forces import (
    aboard,
    blockaders,
    enemy_fleets_at,
    fleets_at,
    friendly_port,
    sea_passage,
    stale_blockades,
    stranded,
    units_at,
)

SEARCH_CONTACT = 7  # 8.92 two dice, contact on 7 or more
NAVAL_MAX_ROUNDS = 100  # a blockade run is fought to a decision; a bound for dice that never hit
NAVAL_ORDER = (*MAJORS, "allies")  # who searches first when several players could


def retreat_before_possible(b: Board, data: Any, state: State, attacker: str,
                            spec: dict[str, Any], faction: str) -> str | None:
    """8.4: whether `faction`, defending the battle of `spec`, has any retreat before combat
    it may make: None if it has, else why not (the rule's words), so that pbem asks the
    question only when the answer can matter."""
    battle = Battle(b, data, state, attacker, spec, rng=None)  # type: ignore[arg-type]
    units = [u for u in units_at(state, battle.zone, {faction}) if state["units"][u]["type"] != "fleet"]
    if not units:
        return None  # leaders alone: 10.5 decides, not 8.4
    cav = sum(1 for u in units if state["units"][u]["type"] == "cav")
    atk_cav = sum(1 for u in battle.side_units("atk") if state["units"][u]["type"] == "cav")
    if atk_cav > cav and cav != len(units):
        return "the attacker has more cavalry (8.4)"
    if battle.retreat_options(faction, units, forced=False):
        return None
    if any(sea_passage(b, state, battle.zone, faction, sea, units)[0] for sea in b.seas):
        return None
    return ("no zone it may retreat to: not along a difficult route, nor the attacker's route, "
            "nor into an enemy zone or one with more enemy units, and no fleet to go by sea (8.4)")


def _own_fleets(
    b: Board, state: State, faction: str, arg: dict[str, Any], path: Path_, seas: list[str],
    where: str, problems: list[Problem],
) -> list[str]:
    """The fleets an order names (`fleets`), each the faction's, at sea in one of `seas`; by
    default all of them. `where` describes the place for messages."""
    if "fleets" not in arg:
        return [f for sea in seas for f in fleets_at(state, sea)
                if state["units"][f]["faction"] == faction]
    out = []
    for pid, at in pieces(b, state, arg["fleets"], (*path, "fleets"), problems):
        if pid == "treasure" or state["units"][pid]["type"] != "fleet":
            problems.append(Problem(at, f"{pid} is not a fleet (8.92)"))
            continue
        fleet = state["units"][pid]
        if fleet["faction"] != faction:
            problems.append(Problem(at, f"{pid} belongs to {fleet['faction']}, not {faction}"))
        elif fleet["status"] != "map" or fleet["zone"] not in seas:
            now = ("off the map" if fleet["status"] != "map" else
                   f"in the {fleet['zone']}" if fleet["zone"] in b.seas else f"in {fleet['zone']}")
            problems.append(Problem(at, f"{pid} is not {where}: it is {now} (8.92)"))
        elif pid in out:
            problems.append(Problem(at, f"{pid} is named twice"))
        else:
            out.append(pid)
    return out


def check_search(
    b: Board, state: State, faction: str, arg: Any, path: Path_, searched: set[str],
    problems: list[Problem],
) -> dict[str, Any] | None:
    """8.92: the player in his phase seeks out the enemy fleets in a sea where his own are;
    one search of a sea a phase (a failed search is free, so it may not be repeated until it
    succeeds). Returns {zone, fleets, targets}."""
    if not check_keys(arg, path, ("zone",), ("fleets",), problems):
        return None
    sea = place_name(b, arg["zone"], (*path, "zone"), problems)
    if sea is None:
        return None
    if sea not in b.seas:
        problems.append(Problem((*path, "zone"), f"{sea} is not a sea zone: fleets search at sea "
                                                 f"({', '.join(b.seas)}) (8.92)"))
        return None
    if sea in searched:
        problems.append(Problem((*path, "zone"), f"the {sea} is searched once a phase (8.92)"))
        return None
    found: list[Problem] = []
    fleets = _own_fleets(b, state, faction, arg, path, [sea], f"at sea in the {sea}", found)
    problems += found
    if found:
        return None
    if not fleets:
        problems.append(Problem((*path, "zone"), f"you have no fleet at sea in the {sea} to "
                                                 "search with (8.92)"))
        return None
    targets = enemy_fleets_at(state, sea, faction)
    if not targets:
        problems.append(Problem((*path, "zone"), f"there is no enemy fleet at sea in the {sea} to "
                                                 "search for (8.92)"))
        return None
    searched.add(sea)
    return {"zone": sea, "fleets": fleets, "targets": targets}


def check_blockade(
    b: Board, state: State, faction: str, arg: Any, path: Path_, problems: list[Problem],
) -> Event | None:
    """8.92: the owner places the fleet next to the port (at sea in the port's sea) and
    declares the blockade; the port is not friendly to him."""
    if not check_keys(arg, path, ("port",), ("fleets",), problems):
        return None
    port = place_name(b, arg["port"], (*path, "port"), problems)
    if port is None:
        return None
    seas = (b.zones.get(port) or {}).get("ports") or []
    if not seas:
        problems.append(Problem((*path, "port"), f"{port} is not a port: a blockade closes a port "
                                                 "(8.92)"))
        return None
    if friendly_zone(state, port, faction):
        problems.append(Problem((*path, "port"), f"{port} is friendly to {faction}: a blockade "
                                                 "closes an enemy or neutral port (8.92)"))
        return None
    found: list[Problem] = []
    sea_names = " or the ".join(seas)
    fleets = _own_fleets(b, state, faction, arg, path, seas,
                         f"adjacent to {port}, at sea in the {sea_names}", found)
    problems += found
    if found:
        return None
    if not fleets:
        problems.append(Problem((*path, "port"), f"you have no fleet at sea in the {sea_names}, "
                                                 f"adjacent to {port}, to blockade it (8.92)"))
        return None
    already = [f for f in fleets if state.get("blockade", {}).get(f) == port]
    if already:
        problems.append(Problem((*path, "port"), f"{', '.join(already)} already blockade(s) {port}"))
        return None
    sea = str(state["units"][fleets[0]]["zone"])
    return {"type": "blockade", "faction": faction, "port": port, "sea": sea, "fleets": fleets}


def check_lift(
    b: Board, state: State, faction: str, arg: Any, path: Path_, problems: list[Problem],
) -> Event | None:
    """8.92: the owner may lift his blockade."""
    if not check_keys(arg, path, ("port",), ("fleets",), problems):
        return None
    port = place_name(b, arg["port"], (*path, "port"), problems)
    if port is None:
        return None
    mine = [f for f, p in sorted(state.get("blockade", {}).items())
            if p == port and state["units"][f]["faction"] == faction]
    if "fleets" in arg:
        named = [piece_id(b, state, t, (*path, "fleets", j), problems)
                 for j, t in enumerate(id_list(arg["fleets"]))]
        for j, pid in enumerate(named):
            if pid is not None and pid not in mine:
                problems.append(Problem((*path, "fleets", j), f"{pid} does not blockade {port}"))
        mine = [pid for pid in named if pid in mine]
    if not mine:
        problems.append(Problem((*path, "port"), f"you have no blockade of {port} to lift"))
        return None
    return {"type": "blockade_lifted", "port": port, "fleets": mine, "why": f"{faction} lifts it"}


class NavalBattle(Battle):
    """8.92 fleets against fleets: a search's single round, or a blockade run fought until one
    side is eliminated or has retreated. The dice and the losses are those of land combat
    (8.5 sixes hit, 8.6 whole steps, the `loss_order`); damaged fleets retreat (8.7) into a
    friendly port of their sea, or where the blockade rule sends them.

    spec: zone (the sea), units (the attacker's fleets), defenders (the other side's fleets),
    where {fleet: place it fights from, default the sea}, back_to {fleet: the only place it
    may retreat to}, cargo {fleet: the pieces it carries}, port (of a blockade run).
    """

    def __init__(self, b: Board, data: Any, state: State, attacker: str, spec: dict[str, Any],
                 rng: Rng, label: str) -> None:
        super().__init__(b, data, state, attacker, {"leaders": [], **spec}, rng)
        self.label = label
        self.where: dict[str, str] = dict(spec.get("where") or {})
        self.back_to: dict[str, str] = dict(spec.get("back_to") or {})
        self.cargo: dict[str, list[str]] = dict(spec.get("cargo") or {})
        for fid in [*spec.get("units", []), *spec.get("defenders", [])]:
            carried = aboard(b, state, fid)  # 8.4 units at sea since a retreat by sea
            if carried:
                self.cargo[fid] = [*self.cargo.get(fid, []), *carried]

    def emit(self, event: Event) -> None:
        super().emit(event)
        if event["type"] == "reduced" and event["unit"] in self.cargo:
            # 8.92 the unit a fleet carries suffers the same damage, eliminated if necessary
            for pid in self.cargo[event["unit"]]:
                piece = self.state["units"][pid]
                if piece["type"] != "leader" and piece["status"] == "map":
                    super().emit({"type": "reduced", "unit": pid,
                                  "by": f"a step lost by its carrier {event['unit']} (8.92)"})
        if event["type"] in ("reduced", "retreat", "eliminated"):
            for lost in stranded(self.b, self.state):  # 8.4 their fleet sank under them
                super().emit(lost)
            for lifted in stale_blockades(self.b, self.state):  # 8.92 its fleet left or sank
                super().emit(lifted)

    def side_units(self, side: str) -> list[str]:
        return [u for u in self.spec["units" if side == "atk" else "defenders"] if self._here(u)]

    def side_leaders(self, side: str) -> list[str]:
        return []  # leaders do not fight at sea

    def _here(self, pid: str) -> bool:
        p = self.state["units"][pid]
        return bool(p["status"] == "map" and p["zone"] == self.where.get(pid, self.zone))

    def fortification(self) -> int:
        return 0

    def dice(self, side: str, r: int, plus_one: bool) -> list[dict[str, Any]]:
        groups = super().dice(side, r, False)  # 8.5 one die per attack point, sixes hit
        for g in groups:
            g["what"] = "fleets"
        return groups

    def loss_order(self, side: str, standing: dict[str, dict[str, Any]]) -> list[str]:
        fleets = self.spec["units" if side == "atk" else "defenders"]
        owners = {self.state["units"][u]["faction"] for u in fleets}
        order: list[str] = []
        for faction in sorted(owners):
            order += [str(x) for x in standing.get(faction, {}).get("loss_order", []) or []]
        return order

    def fleet_retreat(self, pid: str, faction: str, rules: dict[str, Any]) -> str | None:
        """8.92 where a fleet at sea may retreat: a blockade runner only back where it came
        from; any other fleet into a friendly port of its sea, never one blockaded against it
        (entering it would be a fight), by the player's `retreat_to`, then by name."""
        if pid in self.back_to:
            return self.back_to[pid]
        sea = self.b.counters[pid]["sea"]
        options = [p for p in sorted(self.b.ports.get(sea, []))
                   if friendly_port(self.state, p, faction) and not iron_cross_closed(self.b, self.state, p)
                   and not blockaders(self.b, self.state, p, faction)]
        for zone in [self.b.places.get(z) for z in rules.get("retreat_to", []) or []]:
            if zone in options:
                return zone
        return options[0] if options else None

    def retreat_or_die(self, pid: str, faction: str, rules: dict[str, Any]) -> None:
        """8.7: a damaged fleet must retreat; one that cannot is eliminated."""
        dest = self.fleet_retreat(pid, faction, rules)
        here = self.where.get(pid, self.zone)
        if dest is None:
            self.emit({"type": "eliminated", "unit": pid, "zone": here,
                       "why": "no friendly port to retreat to (8.7, 8.92)"})
        else:  # 8.4 the units aboard go with their fleet: they land in the port
            self.emit({"type": "retreat", "zone": here, "faction": faction,
                       "units": [pid, *aboard(self.b, self.state, pid)],
                       "to": dest, "when": "after a round at sea (8.92)"})

    def voluntary_retreats(self, standing: dict[str, dict[str, Any]]) -> None:
        """8.7: the defender, then the attacker, may withdraw when outnumbered (standing
        `voluntary_retreat: when_outnumbered`), to where a forced retreat would go."""
        for _side, faction, own, rules in self.withdrawing(standing):
            for pid in own:
                dest = self.fleet_retreat(pid, faction, rules)
                if dest is not None:
                    self.emit({"type": "retreat", "zone": self.where.get(pid, self.zone),
                               "faction": faction,
                               "units": [pid, *aboard(self.b, self.state, pid)], "to": dest,
                               "when": "by choice after a round at sea (8.92)"})

    def naval_rounds(self, rounds: int | None) -> None:
        """`rounds` rounds, or (None) until one side is eliminated or has retreated (8.92)."""
        standing: dict[str, dict[str, Any]] = dict(self.state.get("standing", {}))
        r = 0
        while self.side_units("atk") and self.side_units("def"):
            r += 1
            if rounds is not None and r > rounds:
                break
            if r > NAVAL_MAX_ROUNDS:  # no decision: the runners turn back
                for pid in self.side_units("atk"):
                    self.emit({"type": "retreat", "zone": self.where.get(pid, self.zone),
                               "faction": self.attacker, "units": [pid],
                               "to": self.back_to.get(pid, self.zone),
                               "when": f"no decision after {NAVAL_MAX_ROUNDS} rounds (8.92)"})
                break
            self.round(r, False, standing)
        over: Event = {"type": "naval_battle_over", "zone": self.zone, "attacker": self.attacker,
                       "attacker_left": self.side_units("atk"),
                       "defender_left": self.side_units("def")}
        if self.spec.get("port"):
            over["port"] = self.spec["port"]
        self.emit(over)


def search(
    b: Board, data: Any, state: State, searcher: str, sea: str, fleets: list[str], label: str,
    rng: Rng, *, phasing: bool, cargo: dict[str, list[str]] | None = None,
) -> tuple[list[Event], State, bool]:
    """8.92: two dice, contact on 7 or more, then a single free round of naval combat between
    the searcher's fleets and every enemy fleet at sea there. Returns (events, state, contact)."""
    targets = enemy_fleets_at(state, sea, searcher)
    a = rng.roll(f"{label}:search:d1", 6)
    c = rng.roll(f"{label}:search:d2", 6)
    contact = a + c >= SEARCH_CONTACT
    battle = NavalBattle(b, data, state, searcher,
                         {"zone": sea, "units": fleets, "defenders": targets, "cargo": cargo or {}},
                         rng, label)
    battle.emit({"type": "naval_search", "zone": sea, "faction": searcher, "phasing": phasing,
                 "fleets": fleets, "targets": targets, "dice": [a, c], "contact": contact})
    if contact:
        battle.naval_rounds(1)
    return battle.events, battle.state, contact


def opponent_searches(
    b: Board, data: Any, state: State, mover: str, sea: str, label_tail: str, rng: Rng,
    cargo: dict[str, list[str]],
) -> tuple[list[Event], State, bool]:
    """8.92: a player who is not in his phase seeks out the mover's fleet sailing in a sea
    where his own fleets lie, when his standing instruction `naval_search` is `always`. The
    players who may, in turn order, until one makes contact. Returns (events, state, contact)."""
    events: list[Event] = []
    owners = {state["units"][f]["faction"] for f in fleets_at(state, sea)}
    ordered = sorted((f for f in owners if f != mover and enemies(state, f, mover)),
                     key=lambda f: (NAVAL_ORDER.index(f) if f in NAVAL_ORDER else len(NAVAL_ORDER), f))
    for faction in ordered:
        if state.get("standing", {}).get(faction, {}).get("naval_search", "never") != "always":
            continue
        fleets = [f for f in fleets_at(state, sea) if state["units"][f]["faction"] == faction]
        label = f"naval:{label_part(sea)}:t{state['turn']}:{faction}:on-{mover}:{label_tail}"
        found, state, contact = search(b, data, state, faction, sea, fleets, label, rng,
                                       phasing=False, cargo=cargo)
        events += found
        if contact:
            return events, state, True
    return events, state, False


def blockade_run(
    b: Board, data: Any, state: State, mover: str, runners: list[str], start: str, dest: str,
    port: str, label: str, rng: Rng,
) -> tuple[list[Event], State]:
    """8.92: fleets that have just left (start = port) or entered (dest = port) a port
    blockaded against them fight the blockaders, no search needed, until one side is
    eliminated or has retreated; a runner that retreats goes back where it came from."""
    sea = dest if start == port else start
    blockers = blockaders(b, state, port, mover)
    battle = NavalBattle(b, data, state, mover,
                         {"zone": sea, "units": runners, "defenders": blockers, "port": port,
                          "where": {f: dest for f in runners}, "back_to": {f: start for f in runners}},
                         rng, label)
    battle.emit({"type": "blockade_run", "zone": sea, "port": port, "faction": mover,
                 "fleets": runners, "blockaders": blockers,
                 "way": "leaving" if start == port else "entering"})
    battle.naval_rounds(None)
    return battle.events, battle.state


def sea_retreat(e: Event) -> str:
    """The line of a retreat by sea (8.4), which the `retreat` event tells (rules/events.py)."""
    carried = ", ".join(u for u in e["units"] if u != e["fleet"])
    return (f"{e['faction']} {carried} retreat(s) by sea with {e['fleet']} from {e['zone']} "
            f"to the {e['to']} ({e['when']}, 8.4)")


def _told_naval_search(b: Board, e: Event) -> str:
    who = "" if e["phasing"] else " (not in its phase)"
    result = "contact: one round of naval combat" if e["contact"] else "no contact"
    return (f"{e['faction']}{who} searches the {e['zone']} with {', '.join(e['fleets'])} for "
            f"{', '.join(e['targets'])}: {e['dice'][0]}+{e['dice'][1]} = {sum(e['dice'])}, "
            f"{result} (8.92)")


def _told_naval_battle_over(b: Board, e: Event) -> str:
    atk = ", ".join(e["attacker_left"]) or "none"
    dfn = ", ".join(e["defender_left"]) or "none"
    return (f"naval combat in the {e['zone']} over: the side of {e['attacker']} keeps {atk}, "
            f"the other side {dfn}")


DESCRIBE: dict[str, Describe[Board]] = {
    "naval_search": Ruled(_told_naval_search, "8.92"),
    "blockade_run": Told("{fleets} {way} blockaded {port} must fight {blockaders} in the {zone} "
                         "to a decision", "8.92"),
    "naval_battle_over": _told_naval_battle_over,
    "blockade": Told("{faction} {fleets} blockade {port} from the {sea}", "8.92"),
    "blockade_lifted": Told("blockade of {port} by {fleets} lifted: {why}", "8.92"),
}
