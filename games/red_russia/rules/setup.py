"""Set-up (3.0, 20.x): random draws of starting forces, placement, the initial reductions.

By mail the one-unit-at-a-time alternation of 3.0 would cost a round trip per counter,
so each phase takes one orders file per faction:

- ``setup-place``: the three White factions place their drawn units and leaders, the
  minors they set up (20.5) and the allied units they drew (3.0), all at once;
- ``setup-place-red``: the Reds place theirs (and Makhno's anarchists), having seen the Whites;
- ``setup-reduce``: every faction turns one of its own units to the reduced side, and the
  White faction drawn at random names Red units in order of preference (the first not
  already reduced by the Reds is reduced);
- ``setup-reduce-red``: the Reds reduce one unit of each White faction.

The options a game is set up with are checked here too (`check_options`, game.yaml).
"""

from __future__ import annotations

import copy
from typing import Any

from pbem.game import Event, GameData, Problem, Rng, State
from pbem.kit.orders import order_items

from .board import MAJORS, MINORS, WHITES, Board, board
from .common import id_list, piece_id, place_order

PLACE_PHASES = {"setup-place": WHITES, "setup-place-red": ("red",)}


def check_options(data: GameData) -> list[str]:
    """game.yaml options: `requires` names other options (19.0: famine needs railways)."""
    options = data["game"].get("options") or {}
    problems = []
    for key, spec in options.items():
        for needed in spec.get("requires") or []:
            if needed not in options or needed == key:
                problems.append(f"game.yaml: options.{key}.requires: {needed!r} is not another option")
    return problems


def _piece(kind: str, faction: str, **more: Any) -> dict[str, Any]:
    return {"faction": faction, "type": kind, "status": "pool", "zone": None, "reduced": False,
            **more}


def setup(data: GameData, options: dict[str, Any], rng: Rng) -> State:
    b = board(data)
    spec = b.game["setup"]
    units: dict[str, dict[str, Any]] = {}
    for uid in sorted(b.counters):
        c = b.counters[uid]
        units[uid] = _piece(c["type"], c["faction"])
        if c["type"] == "tank":  # 5.1, 15.4: tanks enter only by the "Tank" card
            units[uid]["status"] = "card"
    for lid in sorted(b.leaders):
        units[lid] = _piece("leader", b.leaders[lid]["faction"], status="unused")
    state: State = {
        "turn": 0,
        "phase": "setup-place",
        "actor": None,
        "options": dict(options),
        "control": {z: zone.get("home") for z, zone in sorted(b.zones.items())},
        "units": units,
        "money": {f: spec[f]["money"] for f in MAJORS},
        "manpower": {f: spec[f]["manpower"] for f in MAJORS},
        "treasure": {"zone": spec["red"]["treasure"], "owner": "red", "used": 0},
        "initiative": [],
        "standing": {},
        "moved": {},
        "rail_used": {},
        "defeated": [],
        "over": False,
        "result": None,
    }
    for faction in MAJORS:
        _remove(b, state, faction, spec[faction].get("remove", []))
    draws = {f: copy.deepcopy(spec[f].get("draws", [])) for f in MAJORS}
    if options.get("czech_legion"):  # 19.3
        czech = spec["czech_legion"]
        _remove(b, state, czech["faction"], [czech["remove"]])
        for cut in czech["draws_reduced"]:
            for d in draws[czech["faction"]]:
                if d["region"] == cut["region"] and d["type"] == cut["type"]:
                    d["count"] -= 1
                    break
    for faction in MAJORS:
        _draw(b, state, rng, faction, draws[faction])
        for fixed in spec[faction].get("fixed", []):
            uid = next(u for u in sorted(units) if units[u]["faction"] == faction
                       and units[u]["type"] == fixed["type"] and units[u]["status"] == "pool")
            units[uid].update(status="map", zone=fixed["at"])
        _leaders(b, state, rng, faction, spec[faction].get("leaders", []))
    for minor in MINORS:
        placer = b.game["minors"][minor]["set_up_by"]
        for want in spec["minors"][minor]:
            pool = [u for u in sorted(units) if units[u]["faction"] == minor
                    and units[u]["type"] == want["type"] and units[u]["status"] == "pool"]
            for uid in pool[: want["count"]]:
                units[uid].update(status="setup", place={"minor": minor}, by=placer)
        leader = b.game["minors"][minor]["leader"]
        units[leader].update(status="setup", place={"minor": minor}, by=placer)
    _allies(b, state, rng)
    state["white_reducer"] = rng.choice("setup:white-reducer", list(WHITES))
    _set_aside_for_cards(data, b, state, options)  # after every draw: the draws are the rules'
    return state


def _remove(b: Board, state: State, faction: str, removals: list[dict[str, Any]]) -> None:
    """20.4 / 19.3: counters set aside before the draw (they enter by event card)."""
    units = state["units"]
    for r in removals:
        match = [u for u in sorted(units) if units[u]["faction"] == faction
                 and units[u]["type"] == r["type"] and units[u]["status"] == "pool"
                 and b.counters[u]["full"] == r["full"]]
        if len(match) < r["count"]:
            raise ValueError(f"units.yaml has too few {r['full']} {r['type']} counters for {faction}")
        for uid in match[: r["count"]]:
            units[uid]["status"] = "removed"


def _set_aside_for_cards(data: GameData, b: Board, state: State, options: dict[str, Any]) -> None:
    """A card adds to a pool only counters set aside for it (20.4; README ruling 62): every
    counter a card's `add_units` names that 20.4 and 19.3 have not set aside already (status
    removed) waits for its card (status card, as the tanks of 15.4: the Don Cossacks, the
    Izhevsk workers), taken from the pool once the set-up is drawn, so that the draws are
    the rules' own (5.1); when the draw took every such counter, the card has fewer (or
    none). A card out of the deck (3.0 Czech Legion formed without its rule, an option not
    used) sets none aside."""
    from .cards import CZECH_FORMED

    units = state["units"]
    claimed: set[str] = set()
    for card in data["cards"]["cards"]:
        if (card["id"] == CZECH_FORMED and not options.get("czech_legion")) or (
                card.get("option") and not options.get(card["option"])):
            continue
        for effect in card["effect"]:
            faction = effect.get("faction")
            if effect["do"] != "add_units" or faction not in MAJORS:
                continue
            spec = effect["units"]
            fits = [u for u in sorted(units) if u not in claimed and units[u]["faction"] == faction
                    and units[u]["type"] == spec["type"]
                    and ("full" not in spec or list(b.counters[u]["full"]) == list(spec["full"]))]
            # those set aside already (20.4, 19.3) first, then from the pool
            mine = ([u for u in fits if units[u]["status"] == "removed"]
                    + [u for u in fits if units[u]["status"] == "pool"])[: spec["count"]]
            for uid in mine:
                if units[uid]["status"] == "pool":
                    units[uid]["status"] = "card"
            claimed.update(mine)


def _draw(b: Board, state: State, rng: Rng, faction: str, draws: list[dict[str, Any]]) -> None:
    """5.1: starting forces are drawn at random by type from the faction's counters."""
    units = state["units"]
    for kind in sorted({d["type"] for d in draws}):
        pool = [u for u in sorted(units) if units[u]["faction"] == faction
                and units[u]["type"] == kind and units[u]["status"] == "pool"]
        shuffled = rng.shuffle(f"setup:draw:{faction}:{kind}", pool)
        for d in draws:
            if d["type"] != kind:
                continue
            if len(shuffled) < d["count"]:
                raise ValueError(f"units.yaml has too few {kind} counters for {faction}")
            for uid in shuffled[: d["count"]]:
                units[uid].update(status="setup", place={"region": d["region"]}, by=faction)
            shuffled = shuffled[d["count"]:]


def _leaders(b: Board, state: State, rng: Rng, faction: str, specs: list[dict[str, Any]]) -> None:
    units = state["units"]
    named = {s["id"] for s in specs if "id" in s}
    for s in specs:
        if "id" in s:
            units[s["id"]].update(status="setup", place={"region": s["region"]}, by=faction)
            continue
        # units.yaml marks which leaders go into the random draw (start: random); leaders
        # that enter only by card (Wrangel, 10.92) or are spares stay in the unused box.
        pool = [lid for lid in sorted(b.leaders) if b.leaders[lid]["faction"] == faction
                and b.leaders[lid].get("start") == "random" and lid not in named
                and units[lid]["status"] == "unused"]
        for lid in rng.shuffle(f"setup:leaders:{faction}", pool)[: s["random"]]:
            units[lid].update(status="setup", place={"region": s["region"]}, by=faction)


def _allies(b: Board, state: State, rng: Rng) -> None:
    """20.5 and 3.0: fixed allied fleets, then the variable units drawn by the Whites."""
    units = state["units"]
    spec = b.game["setup"]["allies"]
    boxes = list(b.boxes)

    def where(at: list[str]) -> list[str]:
        return [p for a in at for p in (boxes if a == "boxes" else [a])]

    def take(kind: str, **match: Any) -> str:
        for uid in sorted(str(u) for u in units):
            c = b.counters.get(uid, {})
            if (units[uid]["faction"] == "allies" and units[uid]["type"] == kind
                    and units[uid]["status"] in ("pool", "card")
                    and all(c.get(k) == v for k, v in match.items())):
                return uid
        raise ValueError(f"units.yaml has no free allied {kind} {match}")

    for fixed in spec["fixed"]:
        uid = take("fleet", sea=fixed["sea"], full=fixed["full"])
        places = where(fixed["at"])
        if len(places) == 1:
            units[uid].update(status="map", zone=places[0])
        else:
            units[uid].update(status="setup", place={"zones": places}, by=fixed["placed_by"])
    variable: list[tuple[str, list[str]]] = []
    for item in spec["variable"]["units"]:
        for _ in range(item.get("count", 1)):
            extra = {"sea": item["sea"]} if "sea" in item else {}
            variable.append((take(item["type"], **extra), where(item["at"])))
            units[variable[-1][0]]["status"] = "drawing"
    for item in spec["variable"]["leaders"]:
        variable.append((item["id"], where(item["at"])))
    order = rng.shuffle("setup:allies", list(range(len(variable))))
    k = 0
    for faction, count in spec["variable"]["draws"].items():
        for index in order[k: k + count]:
            uid, places = variable[index]
            units[uid].update(status="setup", place={"zones": places}, by=faction)
        k += count


# ---------------------------------------------------------------------------------------


def allowed_places(b: Board, state: State, pid: str) -> list[str]:
    """Where a set-up piece may be placed (3.0, 20.x)."""
    piece = state["units"][pid]
    place = piece.get("place") or {}
    faction = piece["faction"]
    if "zones" in place:
        return list(place["zones"])
    if "minor" in place:  # 20.5: minors deploy in their home zones, iron crosses included
        return [z for z, zone in b.zones.items() if zone.get("home") == place["minor"]]
    forbidden = set(b.game["setup"].get(faction, {}).get("forbidden_zones", []))
    region = place.get("region")
    return [z for z, zone in b.zones.items()
            if state["control"].get(z) == faction and not zone.get("iron_cross")
            and z not in forbidden and (region == "home" or zone["territory"] == region)]


def to_place(state: State, faction: str) -> list[str]:
    return sorted(pid for pid, p in state["units"].items()
                  if p["status"] == "setup" and p.get("by") == faction)


def validate_place(data: GameData, state: State, faction: str, body: dict[str, Any]) -> list[Problem]:
    return _plan_place(data, state, faction, body)[1]


def _plan_place(
    data: GameData, state: State, faction: str, body: dict[str, Any]
) -> tuple[list[Event], list[Problem]]:
    b = board(data)
    problems: list[Problem] = []
    events: list[Event] = []
    needed = set(to_place(state, faction))
    placed: set[str] = set()

    def not_waiting(pid: str) -> str:
        owner = state["units"].get(pid, {}).get("by")
        return f"is placed by {owner}" if owner and owner != faction else "is not waiting to be placed"

    def refused(pid: str, zone: str) -> str | None:
        allowed = allowed_places(b, state, pid)
        if zone in allowed:
            return None
        return f"{pid} cannot be placed in {zone}; allowed: {', '.join(sorted(allowed))}"

    for i, _verb, arg in order_items(body, ("place",), problems):
        zone, ids = place_order(b, state, arg, ("orders", i, "place"), needed, placed, problems,
                                not_waiting=not_waiting, refused=refused)
        if zone is not None and ids:
            events.append({"type": "placed", "faction": faction, "zone": zone, "units": ids})
    missing = sorted(needed - set(placed))
    if missing:
        problems.append(Problem(("orders",), f"still to place: {', '.join(missing)}"))
    return events, problems


def resolve_place(data: GameData, state: State, orders: dict[str, Any]) -> list[Event]:
    events: list[Event] = []
    for faction in sorted(orders):
        found, problems = _plan_place(data, state, faction, orders[faction])
        if problems:
            raise ValueError(f"{faction}: {problems[0].message}")
        events += found
    return events


def bot_place(data: GameData, state: State, faction: str, rng: Rng) -> dict[str, Any]:
    b = board(data)
    by_zone: dict[str, list[str]] = {}
    for pid in to_place(state, faction):
        zone = rng.choice(f"bot:place:{pid}", sorted(allowed_places(b, state, pid)))
        by_zone.setdefault(zone, []).append(pid)
    return {"orders": [{"place": {"zone": z, "units": ids}} for z, ids in sorted(by_zone.items())]}


# ---------------------------------------------------------------------------------------
# the initial reductions (3.0)


def _reducible(state: State, faction: str) -> list[str]:
    return sorted(pid for pid, p in state["units"].items()
                  if p["faction"] == faction and p["status"] == "map"
                  and p["type"] != "leader" and not p["reduced"])


def validate_reduce(data: GameData, state: State, faction: str, body: dict[str, Any]) -> list[Problem]:
    return _plan_reduce(data, state, faction, body)[1]


def _plan_reduce(
    data: GameData, state: State, faction: str, body: dict[str, Any]
) -> tuple[dict[str, Any], list[Problem]]:
    b = board(data)
    problems: list[Problem] = []
    plan: dict[str, Any] = {}
    second = state["phase"] == "setup-reduce-red"
    verbs: tuple[str, ...] = ("reduce",)
    if not second and faction == state.get("white_reducer"):
        verbs = ("reduce", "reduce_red")
    for i, verb, arg in order_items(body, verbs, problems):
        path = ("orders", i, verb)
        ids = [(j, piece_id(b, state, t, (*path, j) if isinstance(arg, list) else path, problems))
               for j, t in enumerate(id_list(arg))]
        if verb in plan:
            problems.append(Problem(path, f"'{verb}' is given twice"))
        plan[verb] = [pid for _, pid in ids if pid]
        for j, pid in ids:
            if pid is None:
                continue
            where = (*path, j) if isinstance(arg, list) else path
            wanted = "red" if verb == "reduce_red" else (None if second else faction)
            owner = state["units"][pid]["faction"]
            if wanted and owner != wanted:
                problems.append(Problem(where, f"{pid} belongs to {owner}; name a unit of {wanted}"))
            elif pid not in _reducible(state, owner):
                problems.append(Problem(where, f"{pid} is not a full-strength unit on the map"))
    if "reduce" not in plan:
        problems.append(Problem(("orders",), "missing 'reduce'"))
    elif second:
        owners = sorted(state["units"][p]["faction"] for p in plan["reduce"])
        if owners != sorted(WHITES):
            problems.append(Problem(("orders",), "name exactly one unit of each White faction: "
                                                 + ", ".join(WHITES)))
    elif len(plan["reduce"]) != 1:
        problems.append(Problem(("orders",), "reduce exactly one of your own units"))
    if "reduce_red" in verbs and len(set(plan.get("reduce_red", []))) < 2:
        problems.append(Problem(("orders",), "as the White faction drawn to reduce a Red unit, "
                                             "list at least two Red units in order of preference "
                                             "under 'reduce_red' (the Reds reduce one first)"))
    return plan, problems


def resolve_reduce(data: GameData, state: State, orders: dict[str, Any]) -> list[Event]:
    events: list[Event] = []
    plans = {}
    for faction in sorted(orders):
        plan, problems = _plan_reduce(data, state, faction, orders[faction])
        if problems:
            raise ValueError(f"{faction}: {problems[0].message}")
        plans[faction] = plan
    done: set[str] = set()
    for faction in [f for f in (*WHITES, "red") if f in plans]:
        for pid in plans[faction]["reduce"]:
            events.append({"type": "reduced", "unit": pid, "by": faction})
            done.add(pid)
    reducer = state.get("white_reducer")
    if state["phase"] == "setup-reduce" and reducer in plans:
        pick = next(p for p in plans[reducer]["reduce_red"] if p not in done)
        events.append({"type": "reduced", "unit": pick, "by": reducer})
    return events


def bot_reduce(data: GameData, state: State, faction: str, rng: Rng) -> dict[str, Any]:
    if state["phase"] == "setup-reduce-red":
        picks = [rng.choice(f"bot:reduce:{w}", _reducible(state, w)) for w in WHITES]
        return {"orders": [{"reduce": picks}]}
    own = rng.choice(f"bot:reduce:{faction}", _reducible(state, faction))
    orders: list[dict[str, Any]] = [{"reduce": own}]
    if faction == state.get("white_reducer"):
        orders.append({"reduce_red": rng.shuffle(f"bot:reduce-red:{faction}",
                                                 _reducible(state, "red"))[:3]})
    return {"orders": orders}
