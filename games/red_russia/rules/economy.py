"""Money and manpower: the purchase phase (4.2, 5.2-5.4, 15.1) and the winter phases,
attrition (4.7, 5.5), maintenance (4.8, 5.6) and collection (4.9, 6.2-6.6, 13.3).

The costs come from ``economy.yaml`` (RECONSTRUCTED: the cost table is printed on the
player aids), read through ``costs(data)``.

A purchase-phase orders file:

    orders:
      - place: {zone: Moscow, units: [red-inf-09]}  # 5.2 units bought earlier, arriving now
      - treasure: true                               # 15.1 dip into the Tsarist gold
      - buy: {type: inf, count: 2}                   # 5.3 the strongest counters of the pool
      - buy: {units: [red-cav-04]}                   #     or named counters
      - repair: {units: [red-inf-03, red-fleet-01]}  # 5.4 flip reduced units back
    standing:
      supply_order: [red-inf-02, cav]   # 5.5 units (ids) or types to supply first in winter
      unpaid_order: [air, red-inf-20]   # 5.6 units or types to go unpaid first in winter

Arrivals of turn T are placed in the purchase phase of turn T (by mail the owner sees
them only then): every arrival that has a zone it may go to must be placed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from pbem.game import Event, GameData, Problem, Rng, State
from pbem.kit.events import Describe, Ruled, Told
from pbem.kit.orders import check_keys, order_items
from pbem.names import counted, suggest

from .board import MAJORS, MINORS, UNIT_TYPES, WHITES, Board, board
from .common import (
    Path_,
    belongs,
    enemies,
    home_of,
    iron_cross_closed,
    last_step,
    pieces,
    place_order,
    poland_major,
    side,
)
from .events import step_loss

PURCHASE_VERBS = ("buy", "repair")
# the purchase-phase orders file also places arrivals (5.2) and may dip into the treasure (15.1)
ORDER_VERBS = ("place", "treasure", *PURCHASE_VERBS)
RED_AIR_FROM = 5  # 20.4: the Reds may not build aircraft before Summer 1919 (turn 5)
TREASURE_DIPS = (5, 3)  # 15.1: 5 money, then 3 the following turn, then it is gone
FOOT_AND_HORSE = ("inf", "cav")  # 6.3: fleets, tanks and aircraft are ignored


# ---------------------------------------------------------------------------------------
# the cost table


def costs(data: GameData) -> dict[str, dict[str, Any]]:
    """economy.yaml `costs`: type -> {money, manpower, delay, repair: {money, manpower}}."""
    if "economy" not in data.files:
        raise ValueError("economy.yaml is not loaded: add `economy` to game.yaml data_files")
    table: dict[str, dict[str, Any]] = dict(data.files["economy"].get("costs") or {})
    return table


def _cost(data: GameData, kind: str, repair: bool = False) -> tuple[int, int]:
    table = costs(data)
    if kind not in table:
        raise ValueError(f"economy.yaml: costs.{kind}: missing (the cost of a {kind} unit)")
    spec = table[kind]["repair"] if repair else table[kind]
    return int(spec["money"]), int(spec["manpower"])


def maintenance_cost(data: GameData) -> tuple[int, int]:
    """5.6: one money and one manpower per unit (economy.yaml `maintenance`)."""
    spec = (data.files.get("economy") or {}).get("maintenance") or {}
    return int(spec.get("money", 1)), int(spec.get("manpower", 1))


def check(data: GameData) -> list[str]:
    """Problems in economy.yaml, each naming the key (for the data checks on load)."""
    problems: list[str] = []
    table = (data.files.get("economy") or {}).get("costs") or {}
    for kind in UNIT_TYPES:
        spec = table.get(kind)
        where = f"economy.yaml: costs.{kind}"
        if not isinstance(spec, dict):
            problems.append(f"{where}: missing")
            continue
        for key, value in (("money", spec.get("money")), ("manpower", spec.get("manpower")),
                           ("delay", spec.get("delay")),
                           ("repair.money", (spec.get("repair") or {}).get("money")),
                           ("repair.manpower", (spec.get("repair") or {}).get("manpower"))):
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                problems.append(f"{where}.{key}: expected a whole number 0 or more, got {value!r}")
        if isinstance(spec.get("delay"), int) and spec["delay"] < 1:
            problems.append(f"{where}.delay: a unit arrives at least one turn later (4.2)")
    return problems


# ---------------------------------------------------------------------------------------
# small helpers


def phase_order(b: Board, state: State) -> list[str]:
    """4.2: the order of set-up on turn 1 (the Whites, then the Reds, 3.0), afterwards the
    initiative order of the previous turn; defeated factions drop out."""
    order = [f for f in state.get("initiative") or [] if f in MAJORS]
    if not order:
        order = [*b.game.get("white_order", WHITES), "red"]
    order += [f for f in MAJORS if f not in order]
    return [f for f in order if f not in state.get("defeated", [])]


def _value(b: Board, state: State, pid: str) -> int:
    """A unit's current strength: attack + defence of the side it shows."""
    side = b.counters[pid]["reduced" if state["units"][pid]["reduced"] else "full"]
    return int(side[0]) + int(side[1])


def _ranked(
    b: Board, state: State, units: Iterable[str], preferred: Any, strongest_first: bool
) -> list[str]:
    """Units matching the standing list (ids or types) first, in its order; then the rest
    by strength (strongest or weakest first), then by id."""
    listed = [str(x) for x in preferred] if isinstance(preferred, list) else []

    def rank(pid: str) -> tuple[int, int, str]:
        kind = state["units"][pid]["type"]
        first = next((i for i, x in enumerate(listed) if x in (pid, kind)), len(listed))
        value = _value(b, state, pid)
        return first, -value if strongest_first else value, pid

    return sorted(units, key=rank)


def _standing(state: State, faction: str, key: str) -> Any:
    return (state.get("standing") or {}).get(faction, {}).get(key)


def _on_map(state: State, faction: str) -> list[str]:
    """A faction's units on the map (leaders and the treasure are not units, 5.6)."""
    return sorted(pid for pid, p in state["units"].items()
                  if belongs(state, p["faction"], faction) and p["status"] == "map" and p["type"] != "leader")


# ---------------------------------------------------------------------------------------
# the purchase phase (4.2)


def arrivals(state: State, faction: str) -> list[str]:
    """4.2, 5.2: units bought earlier whose turn has come."""
    return sorted(pid for pid, p in state["units"].items()
                  if belongs(state, p["faction"], faction) and p["status"] == "bought"
                  and int(p.get("arrives", 0)) <= state["turn"])


def arrival_zones(b: Board, state: State, pid: str) -> list[str]:
    """5.2: zones the owner controls, not iron-cross zones on turns 1-2 (11.0); a fleet
    arrives in a port of its own sea (7.43)."""
    unit = state["units"][pid]
    out = []
    for zone, spec in b.zones.items():
        owner = state["control"].get(zone)
        if owner is None or not belongs(state, unit["faction"], owner) or iron_cross_closed(b, state, zone):
            continue
        if unit["type"] == "fleet" and b.counters[pid].get("sea") not in (spec.get("ports") or []):
            continue
        out.append(zone)
    return sorted(out)


def buyable(state: State, faction: str, kind: str) -> list[str]:
    """5.3: counters of the faction's pool; eliminated units may be rebuilt, fleets never.
    Tanks wait for the "Tank" card (status card, 15.4); 20.4's removed units for theirs."""
    statuses = ("pool",) if kind == "fleet" else ("pool", "eliminated")
    return sorted(pid for pid, p in state["units"].items()
                  if belongs(state, p["faction"], faction) and p["type"] == kind and p["status"] in statuses)


def _strongest(b: Board, units: list[str]) -> list[str]:
    return sorted(units, key=lambda u: (-sum(b.counters[u]["full"]), u))


def _treasure_dip(state: State, faction: str) -> int:
    """15.1: what the treasure yields its owner now (0 if it cannot be used)."""
    t = state.get("treasure") or {}
    used = int(t.get("used", 0))
    if t.get("owner") != faction or t.get("zone") is None or used >= len(TREASURE_DIPS):
        return 0
    if t.get("dipped") == state["turn"]:
        return 0
    return TREASURE_DIPS[used]


def validate_purchase(data: GameData, state: State, faction: str, body: dict[str, Any]) -> list[Problem]:
    return _plan_purchase(data, state, faction, body)[1]


def _plan_purchase(
    data: GameData, state: State, faction: str, body: dict[str, Any]
) -> tuple[list[Event], list[Problem]]:
    b = board(data)
    problems: list[Problem] = []
    if faction not in MAJORS:
        # 12.42: the minors' repairs and building are automatic
        return [], [Problem(("orders",), f"{faction} buys nothing by orders (12.42)")]
    turn = int(state["turn"])
    last = len(b.game["turns"])
    placed_events: list[Event] = []
    other: list[Event] = []
    waiting = set(arrivals(state, faction))
    placed: set[str] = set()
    chosen: set[str] = set()  # counters bought in this file
    repaired: set[str] = set()
    money = manpower = 0
    income = 0
    # the same file carries the political phase's orders (4.3), checked by politics.py
    for i, verb, arg in order_items(body, ORDER_VERBS, problems, others=("intervene", "activate", "discard", "play")):
        path: Path_ = ("orders", i, verb)
        if verb == "place":
            event = _check_place(b, state, faction, arg, path, waiting, placed, problems)
            if event:
                placed_events.append(event)
        elif verb == "treasure":
            if arg is not True:
                problems.append(Problem(path, "write `treasure: true` to use the treasure (15.1)"))
                continue
            dip = _treasure_dip(state, faction)
            if not dip or income:
                t = state.get("treasure") or {}
                why = ("it has been used this turn" if income or t.get("dipped") == turn
                       else "it is spent" if int(t.get("used", 0)) >= len(TREASURE_DIPS)
                       else f"{faction} does not hold it" if t.get("owner") != faction
                       or t.get("zone") is None else "it cannot be used")
                problems.append(Problem(path, f"the treasure cannot be used: {why} (15.1)"))
                continue
            income = dip
            other.append({"type": "treasure_used", "faction": faction, "money": dip,
                          "part": int((state.get("treasure") or {}).get("used", 0)) + 1})
        elif verb == "buy":
            event = _check_buy(data, b, state, faction, arg, path, chosen, problems, last)
            if event:
                money += event["money"]
                manpower += event["manpower"]
                other.append(event)
        else:
            event = _check_repair(data, b, state, faction, arg, path, repaired, problems)
            if event:
                money += event["money"]
                manpower += event["manpower"]
                other.append(event)
    stranded = sorted(pid for pid in waiting - placed if arrival_zones(b, state, pid))
    if stranded:
        problems.append(Problem(("orders",), f"still to place (5.2): {', '.join(stranded)}"))
    # 6.4: the whole purchase must be affordable; the treasure's money counts (15.1)
    have_money = int(state["money"][faction]) + income
    have_manpower = int(state["manpower"][faction])
    short = []
    if money > have_money:
        short.append(f"{money - have_money} money")
    if manpower > have_manpower:
        short.append(f"{manpower - have_manpower} manpower")
    if short:
        treasure = f" (with {income} from the treasure)" if income else ""
        problems.append(Problem(("orders",), (
            f"the purchase costs {money} money and {manpower} manpower; {faction} has "
            f"{have_money} money{treasure} and {have_manpower} manpower: "
            f"{' and '.join(short)} short (6.4)")))
    return placed_events + other, problems


def _check_place(
    b: Board, state: State, faction: str, arg: Any, path: Path_, waiting: set[str],
    placed: set[str], problems: list[Problem],
) -> Event | None:
    """5.2: units arriving this turn go to zones their owner controls."""
    def not_waiting(pid: str) -> str:
        unit = state["units"].get(pid, {})
        return (f"belongs to {unit.get('faction')}" if unit.get("faction") != faction
                else f"arrives on turn {unit['arrives']}" if unit.get("status") == "bought"
                else "is not a unit bought earlier arriving now")

    def refused(pid: str, zone: str) -> str | None:
        if zone in arrival_zones(b, state, pid):
            return None
        why = ("it is occupied by the Central Powers on turns 1-2 (11.0)"
               if iron_cross_closed(b, state, zone) and state["control"].get(zone) == faction
               else f"a fleet arrives in a port of the {b.counters[pid].get('sea')} (7.43)"
               if state["units"][pid]["type"] == "fleet" and state["control"].get(zone) == faction
               else f"{faction} does not control it (5.2)")
        return f"{pid} cannot be placed in {zone}: {why}"

    zone, ids = place_order(b, state, arg, path, waiting, placed, problems,
                            not_waiting=not_waiting, refused=refused)
    if zone is None or not ids:
        return None
    return {"type": "arrived", "faction": faction, "zone": zone, "units": ids}


def _check_buy(
    data: GameData, b: Board, state: State, faction: str, arg: Any, path: Path_,
    chosen: set[str], problems: list[Problem], last: int,
) -> Event | None:
    """5.3: new units from the faction's pool, arriving `delay` turns later."""
    if not check_keys(arg, path, (), ("type", "count", "units"), problems):
        return None
    turn = int(state["turn"])
    picks: list[str] = []
    if "units" in arg:
        if "type" in arg or "count" in arg:
            problems.append(Problem(path, "give either `units` or `type` (and `count`), not both"))
            return None
        for pid, upath in pieces(b, state, arg["units"], (*path, "units"), problems):
            unit = state["units"][pid]
            # 13.54: Poland's units are the faction's own that plays Poland as a major
            if not belongs(state, unit["faction"], faction) or unit["type"] == "leader":
                problems.append(Problem(upath, f"{pid} is not a unit of {faction}"))
                continue
            if pid in chosen:
                problems.append(Problem(upath, f"{pid} is bought twice"))
                continue
            why = _not_buyable(state, faction, unit["type"], pid)
            if why:
                problems.append(Problem(upath, why))
                continue
            picks.append(pid)
            chosen.add(pid)
        kinds = {state["units"][p]["type"] for p in picks}
    else:
        kind = arg.get("type")
        if kind not in UNIT_TYPES:
            problems.append(Problem((*path, "type"), f"unknown unit type {kind!r}"
                                    f"{suggest(str(kind), UNIT_TYPES)} (one of {', '.join(UNIT_TYPES)})"))
            return None
        count = arg.get("count", 1)
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            problems.append(Problem((*path, "count"), f"count is a whole number, 1 or more, not {count!r}"))
            return None
        why = _not_buyable(state, faction, kind, None)
        if why:
            problems.append(Problem(path, why))
            return None
        free = _strongest(b, [u for u in buyable(state, faction, kind) if u not in chosen])
        if len(free) < count:
            problems.append(Problem((*path, "count"), f"only {len(free)} {kind} counter(s) left in "
                                                      f"{faction}'s pool (5.3)"))
            return None
        picks = free[:count]
        chosen.update(picks)
        kinds = {kind}
    if not picks:
        return None
    money = manpower = 0
    arrives = 0
    for pid in picks:
        m, p = _cost(data, state["units"][pid]["type"])
        money, manpower = money + m, manpower + p
        arrives = max(arrives, turn + int(costs(data)[state["units"][pid]["type"]]["delay"]))
    if len(kinds) > 1:
        problems.append(Problem(path, "one `buy` order buys units of one type (they arrive together)"))
        return None
    if arrives > last:
        problems.append(Problem(path, f"a {next(iter(kinds))} bought now would arrive on turn "
                                      f"{arrives}, after the last turn ({last})"))
        return None
    return {"type": "bought", "faction": faction, "units": picks, "arrives": arrives,
            "money": money, "manpower": manpower}


def _not_buyable(state: State, faction: str, kind: str, pid: str | None) -> str | None:
    """Why a unit (or any unit of a type) cannot be bought now, or None."""
    if kind == "air" and faction == "red" and state["turn"] < RED_AIR_FROM:
        return "the Reds may not build aircraft before Summer 1919 (20.4)"
    if pid is None:
        if buyable(state, faction, kind):
            return None
        statuses = {p["status"] for p in state["units"].values()
                    if belongs(state, p["faction"], faction) and p["type"] == kind}
        if kind == "tank" and "card" in statuses:
            return "tanks may be bought only after the \"Tank\" card (15.4)"
        if kind == "fleet" and "eliminated" in statuses:
            return "fleets, once destroyed, cannot be rebuilt (5.3)"
        return f"{faction} has no {kind} counter left in its pool (5.3)"
    status = state["units"][pid]["status"]
    if pid in buyable(state, faction, kind):
        return None
    if status == "card":  # set aside for a card: the Tank (15.4), or the event that brings it
        return (f"{pid} enters only by the \"Tank\" card (15.4)" if kind == "tank" else
                f"{pid} is set aside for the event card that brings it (20.4)")
    if status == "eliminated" and kind == "fleet":
        return f"{pid} is a fleet: once destroyed, it cannot be rebuilt (5.3)"
    if status == "removed":
        return f"{pid} enters only by an event card (20.4)"
    where = {"map": "is on the map", "bought": "is already bought"}.get(status, f"is {status}")
    return f"{pid} {where}, not in the pool (5.3)"


def _check_repair(
    data: GameData, b: Board, state: State, faction: str, arg: Any, path: Path_,
    repaired: set[str], problems: list[Problem],
) -> Event | None:
    """5.4: reduced units on the map flip back; fleets only in a port, not at sea."""
    if not check_keys(arg, path, ("units",), (), problems):
        return None
    ids = []
    money = manpower = 0
    for pid, upath in pieces(b, state, arg["units"], (*path, "units"), problems):
        unit = state["units"][pid]
        if not belongs(state, unit["faction"], faction) or unit["type"] == "leader":  # 13.54
            problems.append(Problem(upath, f"{pid} is not a unit of {faction}"))
        elif unit["status"] != "map":
            problems.append(Problem(upath, f"{pid} is not on the map (5.4)"))
        elif not unit["reduced"]:
            problems.append(Problem(upath, f"{pid} is at full strength"))
        elif pid in repaired:
            problems.append(Problem(upath, f"{pid} is repaired twice"))
        elif unit["type"] == "fleet" and unit["zone"] not in b.zones:
            problems.append(Problem(upath, f"{pid} is at sea in {unit['zone']}: fleets are "
                                           "repaired only in a port (5.4)"))
        else:
            repaired.add(pid)
            ids.append(pid)
            m, p = _cost(data, unit["type"], repair=True)
            money, manpower = money + m, manpower + p
    if not ids:
        return None
    return {"type": "repaired", "faction": faction, "units": ids, "money": money, "manpower": manpower}


def resolve_purchase(data: GameData, state: State, orders: dict[str, Any]) -> list[Event]:
    """4.2: each faction in turn: arrivals placed, the treasure, buys, repairs."""
    b = board(data)
    events: list[Event] = []
    for faction in phase_order(b, state):
        if faction not in orders:
            continue
        found, problems = _plan_purchase(data, state, faction, orders[faction])
        if problems:
            raise ValueError(f"{faction}: {problems[0].message}")
        events += found
    return events


def bot_purchase(data: GameData, state: State, faction: str, rng: Rng) -> dict[str, Any]:
    """Place the arrivals, repair up to two units, buy one infantry or cavalry if money and
    manpower stay above next winter's maintenance."""
    b = board(data)
    turn = state["turn"]
    by_zone: dict[str, list[str]] = {}
    for pid in arrivals(state, faction):
        zones = arrival_zones(b, state, pid)
        if zones:
            by_zone.setdefault(rng.choice(f"bot:arrive:t{turn}:{pid}", zones), []).append(pid)
    orders: list[dict[str, Any]] = [{"place": {"zone": z, "units": ids}} for z, ids in sorted(by_zone.items())]
    upkeep = len(_on_map(state, faction)) + len(arrivals(state, faction)) + 2
    money = int(state["money"][faction]) - upkeep
    manpower = int(state["manpower"][faction]) - upkeep
    fix = []
    for pid in _ranked(b, state, [u for u in _on_map(state, faction) if state["units"][u]["reduced"]
                                  and (state["units"][u]["type"] != "fleet"
                                       or state["units"][u]["zone"] in b.zones)], [], True)[:2]:
        m, p = _cost(data, state["units"][pid]["type"], repair=True)
        if m <= money and p <= manpower:
            fix.append(pid)
            money, manpower = money - m, manpower - p
    if fix:
        orders.append({"repair": {"units": fix}})
    last = len(b.game["turns"])
    for kind in rng.shuffle(f"bot:buy:t{turn}:{faction}", ["inf", "cav"]):
        m, p = _cost(data, kind)
        if (m <= money and p <= manpower and buyable(state, faction, kind)
                and turn + int(costs(data)[kind]["delay"]) <= last):
            orders.append({"buy": {"type": kind, "count": 1}})
            break
    return {"orders": orders}


# ---------------------------------------------------------------------------------------
# winter attrition (4.7, 5.5)


def winter_attrition(data: GameData, state: State, rng: Rng) -> list[Event]:
    """5.5: per land zone and faction, units above the zone's limit lose a step.

    "Enemy units" is read as: units of a faction in a zone that faction does not control
    (an enemy's, another White faction's, a minor's or a neutral zone). Their limit is the
    zone's money value and, above it, they ALL lose a step. Units of the faction that
    controls the zone ("friendly units of the same faction") may number twice the money
    value; above that the owner supplies units by the standing `supply_order` (ids or
    types first), then the strongest; each unsupplied unit loses a step. Each faction is
    counted on its own. Fleets in ports count, fleets at sea do not (land zones only);
    leaders are not units. Minor factions and the Western Allies never suffer attrition
    (12.4, 13.63). No dice: `rng` is unused.
    """
    b = board(data)
    events: list[Event] = []
    for faction in phase_order(b, state):
        by_zone: dict[str, list[str]] = {}
        for pid in _on_map(state, faction):
            zone = state["units"][pid]["zone"]
            if zone in b.zones:
                by_zone.setdefault(zone, []).append(pid)
        for zone, units in sorted(by_zone.items()):
            value = int(b.zones[zone]["money"])
            own = state["control"].get(zone) == faction
            limit = 2 * value if own else value
            if len(units) <= limit:
                continue
            if own:
                order = _ranked(b, state, units, _standing(state, faction, "supply_order"), True)
                hit = order[limit:]
            else:
                hit = sorted(units)
            for pid in hit:
                events.append({"type": "attrition", "faction": faction, "zone": zone, "unit": pid,
                               "count": len(units), "limit": limit,
                               "zone_of": "own" if own else "other", **last_step(state, pid)})
    return events


# ---------------------------------------------------------------------------------------
# maintenance (4.8, 5.6)


def maintenance(data: GameData, state: State) -> list[Event]:
    """5.6: in initiative order each major faction pays for its units on the map.

    A unit is maintained only when both its money and its manpower are paid, so the number
    paid for is the smallest of: units, money // cost, manpower // cost. The rest are not
    maintained and lose a step each, chosen by the standing `unpaid_order` (ids or types),
    then the weakest; the resource that would have lasted longer is not spent on them.
    Units at sea and in waiting boxes are on the map and are paid for. Minor factions and
    the Western Allies pay nothing (12.4); leaders and the treasure are not units.
    """
    b = board(data)
    cost_m, cost_p = maintenance_cost(data)
    events: list[Event] = []
    for faction in phase_order(b, state):
        units = _on_map(state, faction)
        if not units:
            continue
        can = len(units)
        if cost_m:
            can = min(can, int(state["money"][faction]) // cost_m)
        if cost_p:
            can = min(can, int(state["manpower"][faction]) // cost_p)
        events.append({"type": "maintenance", "faction": faction, "units": len(units),
                       "paid": can, "money": can * cost_m, "manpower": can * cost_p})
        unpaid = len(units) - can
        if unpaid:
            order = _ranked(b, state, units, _standing(state, faction, "unpaid_order"), False)
            for pid in order[:unpaid]:
                events.append({"type": "unmaintained", "faction": faction, "unit": pid,
                               "zone": state["units"][pid]["zone"], **last_step(state, pid)})
    return events


# ---------------------------------------------------------------------------------------
# collection (4.9, 6.2-6.6, 13.3)


# zone markers under which a zone yields nothing to anyone: the state's key, and why
NO_YIELD = (("raids", "Cossack raid (15.3)"), ("famine", "famine (19.2)"))


def zone_yield(b: Board, state: State, faction: str, zone: str) -> tuple[int, int, str | None]:
    """(money, manpower, why nothing) a zone the faction controls yields."""
    spec = b.zones[zone]
    if iron_cross_closed(b, state, zone):
        return 0, 0, "out of play (11.0)"
    for marker, why in NO_YIELD:
        if zone in (state.get(marker) or {}):
            return 0, 0, why
    placer = (state.get("partisans") or {}).get(zone)
    hurt = 1 if placer is not None and side(placer) != side(faction) else 0  # 15.2
    # 6.3: enemy infantry and cavalry must not outnumber the friendly ones
    foes = friends = 0
    for p in state["units"].values():
        if p["status"] != "map" or p["zone"] != zone or p["type"] not in FOOT_AND_HORSE:
            continue
        if enemies(state, faction, p["faction"]):
            foes += 1
        else:
            friends += 1
    if foes > friends:
        return 0, 0, f"{foes} enemy against {friends} friendly infantry/cavalry (6.3)"
    money, manpower = int(spec["money"]), int(spec["manpower"])
    home = home_of(b, state, zone)
    if home == "poland" and poland_major(state) == faction:
        home = faction  # 13.54 Poland's zones are the home of the faction that plays it
    if faction == "red" and (home in WHITES or home in MINORS):
        manpower -= 1  # 6.5
    elif faction in WHITES and (home == "red" or home in MINORS):
        manpower -= 1  # 6.5
    elif faction in WHITES and home in WHITES and home != faction:
        money, manpower = money - 1, manpower - 1  # 6.6 a liberator keeping the zone
    if home == "finland":
        manpower -= 1  # 13.3, on top of 6.5
    return max(0, money - hurt), max(0, manpower - hurt), None


def collection(data: GameData, state: State) -> list[Event]:
    """4.9, 6.2: each major faction collects the zones it controls. Zones of minors, even
    allied ones, yield nothing to anyone (12.4, 12.5): they are not controlled by a major."""
    b = board(data)
    events: list[Event] = []
    for faction in phase_order(b, state):
        money = manpower = zones = 0
        idle: list[str] = []
        for zone in sorted(b.zones):
            if state["control"].get(zone) != faction:
                continue
            m, p, why = zone_yield(b, state, faction, zone)
            if why:
                idle.append(zone)
                continue
            money, manpower, zones = money + m, manpower + p, zones + 1
        events.append({"type": "collected", "faction": faction, "money": money,
                       "manpower": manpower, "zones": zones, "outnumbered": idle})
    return events


# ---------------------------------------------------------------------------------------
# applying the events


def _unit(state: State, pid: Any) -> dict[str, Any]:
    if pid not in state["units"]:
        raise KeyError(f"no unit or leader {pid!r}")
    unit: dict[str, Any] = state["units"][pid]
    if unit["type"] == "leader":
        raise ValueError(f"{pid} is a leader, not a unit")
    return unit


def _major(value: Any) -> str:
    if value not in MAJORS:
        raise ValueError(f"no major faction {value!r} (one of {', '.join(MAJORS)})")
    return str(value)


def _amount(e: Event, key: str) -> int:
    value = e.get(key, 0)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{key} must be a whole number 0 or more, not {value!r}")
    return value


def _spend(s: State, faction: str, money: int, manpower: int) -> None:
    """6.4: never below zero."""
    for key, amount in (("money", money), ("manpower", manpower)):
        if s[key][faction] < amount:
            raise ValueError(f"{faction} has {s[key][faction]} {key}, cannot pay {amount} (6.4)")
    s["money"][faction] -= money
    s["manpower"][faction] -= manpower


def _bought(b: Board, s: State, e: Event) -> None:
    faction = _major(e["faction"])
    arrives = int(e["arrives"])
    if not int(s["turn"]) < arrives <= len(b.game["turns"]):
        raise ValueError(f"arrival turn {arrives} is not after turn {s['turn']} within the game")
    for pid in e["units"]:
        unit = _unit(s, pid)
        if not belongs(s, unit["faction"], faction):  # 13.54 Poland's, to its major
            raise ValueError(f"{pid} belongs to {unit['faction']}, not {faction}")
        if unit["status"] not in ("pool", "eliminated") or (
                unit["type"] == "fleet" and unit["status"] == "eliminated"):
            raise ValueError(f"{pid} is {unit['status']}, not in the pool (5.3)")
    _spend(s, faction, _amount(e, "money"), _amount(e, "manpower"))
    for pid in e["units"]:
        s["units"][pid].update(status="bought", zone=None, reduced=False, arrives=arrives)


def _repaired(b: Board, s: State, e: Event) -> None:
    faction = _major(e["faction"])
    for pid in e["units"]:
        unit = _unit(s, pid)
        if not belongs(s, unit["faction"], faction) or unit["status"] != "map" or not unit["reduced"]:
            raise ValueError(f"{pid} is not a reduced {faction} unit on the map (5.4, 13.54)")
        if unit["type"] == "fleet" and unit["zone"] not in b.zones:
            raise ValueError(f"{pid} is at sea: fleets are repaired in a port (5.4)")
    _spend(s, faction, _amount(e, "money"), _amount(e, "manpower"))
    for pid in e["units"]:
        s["units"][pid]["reduced"] = False


def _arrived(b: Board, s: State, e: Event) -> None:
    zone = e["zone"]
    if zone not in b.zones:
        raise ValueError(f"no land zone {zone!r}")
    for pid in e["units"]:
        unit = _unit(s, pid)
        if unit["status"] != "bought":
            raise ValueError(f"{pid} is {unit['status']}, not a bought unit waiting to arrive")
    for pid in e["units"]:
        s["units"][pid].update(status="map", zone=zone)
        s["units"][pid].pop("arrives", None)


def _treasure_used(b: Board, s: State, e: Event) -> None:
    """15.1: 5 money, then 3, then the treasure leaves the game."""
    faction = _major(e["faction"])
    t = s["treasure"]
    if t.get("owner") != faction or t.get("zone") is None:
        raise ValueError(f"{faction} does not hold the treasure")
    t["used"] = int(t.get("used", 0)) + 1
    t["dipped"] = s["turn"]
    s["money"][faction] += _amount(e, "money")
    if t["used"] >= len(TREASURE_DIPS):
        t["zone"] = None


def _attrition(b: Board, s: State, e: Event) -> None:
    step_loss(s, e["unit"])


def _maintenance(b: Board, s: State, e: Event) -> None:
    _spend(s, _major(e["faction"]), _amount(e, "money"), _amount(e, "manpower"))


def _unmaintained(b: Board, s: State, e: Event) -> None:
    step_loss(s, e["unit"])


def _collected(b: Board, s: State, e: Event) -> None:
    faction = _major(e["faction"])
    s["money"][faction] += _amount(e, "money")
    s["manpower"][faction] += _amount(e, "manpower")


APPLY: dict[str, Callable[[Board, State, Event], None]] = {
    "bought": _bought,
    "repaired": _repaired,
    "arrived": _arrived,
    "treasure_used": _treasure_used,
    "attrition": _attrition,
    "maintenance": _maintenance,
    "unmaintained": _unmaintained,
    "collected": _collected,
}


def _loses(e: Event) -> str:
    return "loses its last step: eliminated" if e.get("eliminated") else "loses a step"


def _told_attrition(b: Board, e: Event) -> str:
    whose = "its own zone" if e["zone_of"] == "own" else "a zone it does not control"
    return (f"winter attrition in {e['zone']}: {counted(int(e['count']), e['faction'] + ' unit')} in {whose}, "
            f"limit {e['limit']}: {e['unit']} {_loses(e)} (5.5)")


def _told_maintenance(b: Board, e: Event) -> str:
    unpaid = e["units"] - e["paid"]
    tail = f"; {unpaid} unpaid" if unpaid else ""
    return (f"{e['faction']} maintains {e['paid']} of {counted(int(e['units']), 'unit')} for {e['money']} money "
            f"and {e['manpower']} manpower (5.6){tail}")


def _told_unmaintained(b: Board, e: Event) -> str:
    return f"{e['unit']} ({e['faction']}) is not maintained and {_loses(e)} (5.6)"


def _told_collected(b: Board, e: Event) -> str:
    idle = f"; nothing from {', '.join(e['outnumbered'])}" if e.get("outnumbered") else ""
    return (f"{e['faction']} collects {e['money']} money and {e['manpower']} manpower from "
            f"{counted(int(e['zones']), 'zone')} (6.3){idle}")


DESCRIBE: dict[str, Describe[Board]] = {
    "bought": Told("{faction} bought {units} for {money} money and {manpower} manpower, arriving "
                   "on turn {arrives}", "5.3"),
    "repaired": Told("{faction} repaired {units} for {money} money and {manpower} manpower", "5.4"),
    "arrived": Told("{faction} reinforcements {units} arrive in {zone}", "5.2"),
    "treasure_used": Told("{faction} dips into the Tsarist gold: +{money} money (15.1, part {part})"),
    "attrition": Ruled(_told_attrition, "5.5"),
    "maintenance": Ruled(_told_maintenance, "5.6"),
    "unmaintained": Ruled(_told_unmaintained, "5.6"),
    "collected": Ruled(_told_collected, "6.3"),
}
