"""What the battles ask of the board: the units, leaders and fleets in a place, who commands
them, standing instructions, dice groups and losses (8.2-8.6), forts (9.1), fleets at sea
and passages by sea (7.5, 8.4, 8.92). Shared by land, siege and naval combat."""

from __future__ import annotations

from typing import Any

from pbem.game import Event, Rng, State
from pbem.kit import graph, pools

from . import minors
from .board import MAJORS, MINORS, WHITES, Board
from .common import (
    allegiance,
    commander,
    enemies,
    friendly_zone,
)
from .fold import Folding


def units_at(state: State, zone: str, owners: set[str] | None = None) -> list[str]:
    return sorted(pid for pid, p in state["units"].items()
                  if p["status"] == "map" and p["zone"] == zone and p["type"] != "leader"
                  and (owners is None or p["faction"] in owners))


def leaders_at(state: State, zone: str, owners: set[str] | None) -> list[str]:
    """The leaders on the map in `zone`, of `owners` (None: everybody's)."""
    return sorted(pid for pid, p in state["units"].items()
                  if p["status"] == "map" and p["zone"] == zone and p["type"] == "leader"
                  and (owners is None or p["faction"] in owners))


def commanded(state: State, zone: str, faction: str, leaders: bool = False) -> list[str]:
    """The pieces in `zone` that `faction` gives orders to: its own, an activated minor's it
    controls (12.11, 12.12) and the allied units it has taken in hand (13.63)."""
    return sorted(pid for pid, p in state["units"].items()
                  if p["status"] == "map" and p["zone"] == zone and (p["type"] == "leader") == leaders
                  and commander(state, pid) == faction)


def standing_of(state: State, standing: dict[str, dict[str, Any]], faction: str,
                pieces: list[str] | tuple[str, ...] = ()) -> dict[str, Any]:
    """The standing instructions that answer for a faction's units (`pieces`): a minor's are
    its controller's (12.12); the Allies' are those of the White faction that has them all
    in hand this turn (13.61, 13.63); a neutral minor and the Allies on their own never
    retreat by choice and take losses by the rule of 8.6."""
    if faction in MINORS:
        boss = allegiance(state, faction)
        return standing.get(boss, {}) if boss in MAJORS else {}
    if faction == "allies":
        holders = {commander(state, p) for p in pieces}
        holder = holders.pop() if len(holders) == 1 else None
        return standing.get(holder, {}) if holder in MAJORS else {}
    return standing.get(faction, {})


def roll_groups(rng: Rng, label: str, groups: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], int]:
    """Each group's dice (`count` of them, hitting on `hit` or more: 8.5, 8.6), numbered on
    from one group to the next under `label`: the groups as rolled, and the hits in all."""
    rolled: list[dict[str, Any]] = []
    hits = rolled_so_far = 0
    for group in groups:
        values = pools.roll(rng, label, group["count"], first=rolled_so_far + 1)
        rolled_so_far += group["count"]
        got = pools.hits_at_or_over(values, group["hit"])
        hits += got
        rolled.append({**group, "values": values, "hits": got})
    return rolled, hits


def allocate(hits: int, units: list[tuple[str, int, bool]], order: list[str],
             reduced_defence: Any) -> list[str]:
    """8.6: losses go to whole steps, leaving as few hits unallocated as possible; every
    unit loses a step before any loses a second. Among equally good choices the player's
    loss_order (unit ids or types first) decides, then the weaker units.

    Returns the units that lose a step, a unit twice when it is eliminated.
    """
    out: list[str] = []
    alive = list(units)
    while hits > 0 and alive:
        best = _best_subset(hits, [(u, d) for u, d, _ in alive], order)
        if not best:
            break
        out += best
        hits -= sum(d for u, d, _ in alive if u in best)
        if len(best) < len(alive):
            break  # 8.6: a second step only once every unit has lost one
        # every unit lost a step: the full ones are now reduced, the reduced ones are gone
        alive = [(u, reduced_defence(u), True) for u, _, was_reduced in alive if not was_reduced]
    return out


def _best_subset(hits: int, units: list[tuple[str, int]], order: list[str]) -> list[str]:
    """The units whose defences add up to the most hits without exceeding them (8.6);
    ties broken by the loss order. A small knapsack over the hit count."""
    def rank(pid: str) -> int:
        for i, key in enumerate(order):
            if key == pid or pid.split("-")[1:2] == [key]:
                return i
        return len(order)

    ranked = sorted(units, key=lambda ud: (rank(ud[0]), ud[0]))
    best: dict[int, list[int]] = {0: []}
    for i, (_, defence) in enumerate(ranked):
        for total, chosen in sorted(best.items(), reverse=True):
            t = total + defence
            if t <= hits and (t not in best or _better([*chosen, i], best[t])):
                best[t] = [*chosen, i]
    top = max(best)
    return [ranked[i][0] for i in best[top]]


def _better(a: list[int], b: list[int]) -> bool:
    return sorted(a) < sorted(b)


def nearest_friendly(b: Board, state: State, start: str, faction: str) -> str | None:
    """The nearest zone the faction controls, by routes, ties by name."""
    return graph.nearest(start, lambda here: sorted(b.routes.get(here, {})),
                         lambda there: state["control"].get(there) == faction)


def joined(b: Board, state: State, faction: str, spec: dict[str, Any], rng: Rng, *,
           siege: bool) -> tuple[list[Event], State]:
    """Before a battle or siege: the allied units taken in hand for it (13.61) and the
    minors it brings into play (12.1, 13.1-13.5, 13.52)."""
    log = Folding(b, state)
    if spec.get("allies"):
        log.emit({"type": "allies_taken", "faction": faction, "units": list(spec["allies"])})
    minors.activations(b, log.state, faction, spec["zone"], rng, siege=siege, emit=log.emit)
    return log.events, log.state


# ---------------------------------------------------------------------------------------
# forts (9.1) and fleets (7.5, 8.4, 8.92)


def fort_now(b: Board, state: State, zone: str) -> int:
    """The fortification left after the hits of a siege in progress (9.2)."""
    siege = state.get("siege", {}).get(zone)
    return max(0, int(b.zones[zone]["fort"]) - (int(siege["hits"]) if siege else 0))


def siege_cost(b: Board) -> int:
    return int(b.game["siege"]["cost_per_round"])


def fleets_at(state: State, sea: str) -> list[str]:
    """The fleets on the map at sea in `sea` (fleets in its ports are not at sea)."""
    return sorted(pid for pid, p in state["units"].items()
                  if p["status"] == "map" and p["zone"] == sea and p["type"] == "fleet")


def enemy_fleets_at(state: State, sea: str, faction: str) -> list[str]:
    return [f for f in fleets_at(state, sea) if enemies(state, faction, state["units"][f]["faction"])]


def blockaders(b: Board, state: State, port: str, faction: str) -> list[str]:
    """8.92: the fleets that blockade `port` against `faction`: fleets of its enemies whose
    blockade of the port was declared and which still lie at sea next to it."""
    seas = (b.zones.get(port) or {}).get("ports") or []
    out = []
    for fid, blockaded in sorted(state.get("blockade", {}).items()):
        fleet = state["units"].get(fid)
        if (blockaded == port and fleet is not None and fleet["status"] == "map"
                and fleet["zone"] in seas and enemies(state, faction, fleet["faction"])):
            out.append(fid)
    return out


def stale_blockades(b: Board, state: State) -> list[Event]:
    """8.92: a blockade lasts until its fleet leaves the sea next to the port or is destroyed;
    the blockades whose fleet is gone (a step lost to upkeep, a card, a retreat) end."""
    out: list[Event] = []
    for fid, port in sorted(state.get("blockade", {}).items()):
        fleet = state["units"].get(fid)
        seas = (b.zones.get(port) or {}).get("ports") or []
        if fleet is None or fleet["status"] != "map":
            out.append({"type": "blockade_lifted", "port": port, "fleets": [fid],
                        "why": "the fleet is destroyed"})
        elif fleet["zone"] not in seas:
            out.append({"type": "blockade_lifted", "port": port, "fleets": [fid],
                        "why": f"the fleet left for {fleet['zone']}"})
    return out


def steps(state: State, pid: str) -> int:
    """Steps a counter has left: two at full strength, one reduced (5.5, 8.6)."""
    return 1 if state["units"][pid]["reduced"] else 2


def sea_passage(
    b: Board, state: State, zone: str, faction: str, sea: str, units: list[str],
) -> tuple[list[tuple[str, str]], str]:
    """8.4 a retreat by sea from `zone` into `sea`: the (fleet, unit) pairs that may go, or
    ([], why not). Only from a port of that sea not blockaded by an enemy fleet (8.4,
    8.92); only with a fleet of the faction's own in the zone (8.4; the faction's own, as
    for 7.5 transport); infantry only: cavalry, aircraft and tanks may not (8.4); one unit
    a fleet (7.5), with no more steps than the fleet (8.92: a full-strength unit needs a
    full-strength fleet; pbem does not sacrifice a step to board). The most units that can
    go, the strongest first: full-strength units take the full-strength fleets."""
    if sea not in ((b.zones.get(zone) or {}).get("ports") or []):
        return [], f"{zone} is not a port of the {sea} (8.4, 7.43)"
    blockers = blockaders(b, state, zone, faction)
    if blockers:
        return [], f"{zone} is blockaded by {', '.join(blockers)} (8.4, 8.92)"
    fleets = sorted((f for f in units_at(state, zone, {faction})
                     if state["units"][f]["type"] == "fleet" and b.counters[f]["sea"] == sea),
                    key=lambda f: (-steps(state, f), f))
    if not fleets:
        return [], f"no {faction} fleet of the {sea} is in {zone} to carry them (8.4)"
    infantry = sorted((u for u in units if state["units"][u]["type"] == "inf"),
                      key=lambda u: (-steps(state, u), -int(b.counters[u]["full"][0]), u))
    if not infantry:
        return [], ("cavalry, aircraft and tanks may not retreat by sea (8.4)" if units
                    else "there is no land unit to carry (8.4)")
    pairs: list[tuple[str, str]] = []
    left = list(infantry)
    for fleet in fleets:  # full fleets first, each taking the strongest unit it can carry
        unit = next((u for u in left if steps(state, u) <= steps(state, fleet)), None)
        if unit is not None:
            pairs.append((fleet, unit))
            left.remove(unit)
    if not pairs:
        return [], ("a unit may not board a fleet that has fewer steps than it has: "
                    f"{', '.join(fleets)} lost a step and {', '.join(infantry)} did not (8.92)")
    return pairs, ""


def aboard(b: Board, state: State, fleet: str) -> list[str]:
    """8.4: the land units and leaders at sea aboard `fleet`, since they retreated by sea
    with it (state `aboard`, {piece: fleet}); they stay with it until they land (7.5)."""
    where = state["units"][fleet]
    return sorted(pid for pid, fid in (state.get("aboard") or {}).items()
                  if fid == fleet and state["units"][pid]["status"] == "map"
                  and where["status"] == "map" and state["units"][pid]["zone"] == where["zone"]
                  and where["zone"] in b.seas)


def stranded(b: Board, state: State) -> list[Event]:
    """8.4, 8.92: land units and leaders at sea whose fleet is gone (sunk, or off the sea for
    any other reason: upkeep, a card, the referee) are lost; by sea no unit moves without a
    fleet to carry it (8.4)."""
    out: list[Event] = []
    for pid, fid in sorted((state.get("aboard") or {}).items()):
        unit = state["units"][pid]
        if unit["status"] != "map" or unit["zone"] not in b.seas:
            continue  # landed or lost already
        fleet = state["units"].get(fid)
        if fleet is None or fleet["status"] != "map" or fleet["zone"] != unit["zone"]:
            out.append({"type": "eliminated", "unit": pid, "zone": unit["zone"],
                        "why": f"lost at sea with its fleet {fid}, which is gone (8.4, 8.92)"})
    return out


def friendly_port(state: State, zone: str, faction: str) -> bool:
    """A port a fleet may retreat into: its faction's; for the Allies a White one (18.1)."""
    if faction == "allies":
        return state["control"].get(zone) in WHITES
    return friendly_zone(state, zone, faction)
