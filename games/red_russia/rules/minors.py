"""Minor factions and the Western Allies in the hands of the major factions (12.x, 13.1-13.5,
13.6x): who may order their units, how far they may go, what their battles cost, how they
come into play when attacked, conquest and liberation, and their own repairs and builds.

Orders: a major faction names the units of a minor it controls, or of the Allies it called,
in its own `move`, `attack` and `siege` orders, as if they were its own (12.12):

    - move: {units: [finland-inf-01, mannerheim], to: Vyborg}
    - siege: {zone: Petrozavodsk, rounds: 2, liberate: true}   # 12.3 give a minor's zone back

Allied units (13.61 "move") are taken in hand by naming them: the first units named in the
turn, up to the number the table gave, are the faction's for the turn (`allies_taken`).

State kept here (absent keys read as empty):
  allied_used    {faction: [allied unit]}   13.61, 13.63 taken in hand this turn
  minors[m]      {..., zones, conquered}    12.11 zones held at a limited activation;
                                            12.3 conquered until liberated
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from pbem.game import Event, Rng, State
from pbem.kit.events import Describe, Ruled, Told

from .board import MAJORS, MINORS, WHITES, Board
from .common import allegiance, commander, label_part, minor_controller, minor_state, poland_major

LIMITED_UNITS, LIMITED_LEADERS = 2, 1  # 12.11 two units plus one leader
HOME_REACH = {"ukraine": 1, "baltic": 1, "finland": 2}  # 13.1, 13.2, 13.3 zones from home
POLAND_LIMITED_REACH = 1  # 13.56 under limited control before 1920
POLAND_FULL_TURN = 9  # 13.51 Summer 1920
ALLIED_REACH = 2  # 13.63 consecutive zones outside the sponsor's control
FREE_ROUNDS = 2  # 12.41 a force of minors alone has paid two rounds
POLAND_MAJOR_AFTER = 6  # 13.54 "after turn six"
POLAND_MONEY, POLAND_MANPOWER = 12, 6  # 13.54
REPAIRS = {"poland": 2}  # 12.42 per purchase phase, the others 1
BUILDS = {"poland": 2}  # 12.42 per spring turn, the others 1


# ---------------------------------------------------------------------------------------
# who gives the orders (12.11, 12.12, 13.61, 13.63)


def allied_room(state: State, faction: str) -> int:
    """13.61 "move": allied units the faction may still take in hand this turn."""
    granted = int((state.get("allied_control") or {}).get(faction, 0))
    return granted - len((state.get("allied_used") or {}).get(faction, []))


def command_problem(state: State, faction: str, pid: str, taking: int = 0) -> str | None:
    """Why `faction` may not order `pid`, or None. `taking` counts allied units already
    taken in hand by the order being checked."""
    piece = state["units"][pid]
    owner = str(piece["faction"])
    if owner == faction or commander(state, pid) == faction:
        return None
    if owner in MINORS:
        m = minor_state(state, owner)
        status = "neutral" if minor_controller(state, owner) is None else f"{m['status']} under {m['controller']}"
        return f"{pid} belongs to {owner} ({status}); {faction} does not command it (12.1)"
    if owner == "allies":
        if faction not in WHITES:
            return f"{pid} is an allied unit: only a White faction uses the Allies (13.61)"
        if commander(state, pid) is not None:
            return f"{pid} is in {commander(state, pid)}'s hands this turn (13.63)"
        room = allied_room(state, faction) - taking
        if room <= 0:
            granted = int((state.get("allied_control") or {}).get(faction, 0))
            return (f"{pid} is an allied unit: {faction} may use {granted} allied unit(s) this "
                    "turn, from the foreign intervention table, and has no more to take (13.61)")
        return None
    return f"{pid} belongs to {owner}, not {faction}"


def new_allies(state: State, faction: str, pids: list[str]) -> list[str]:
    """The allied units among `pids` that `faction` takes in hand now."""
    return [p for p in pids if state["units"][p]["faction"] == "allies" and commander(state, p) is None
            and faction in WHITES]


def limited_problem(state: State, pieces: list[str]) -> str | None:
    """12.11: under limited control a minor moves two units and one leader a turn."""
    for minor in sorted({state["units"][p]["faction"] for p in pieces} & set(MINORS)):
        if minor_state(state, minor)["status"] != "limited":
            continue
        moving = {p for p in [*state["moved"], *pieces]
                  if p in state["units"] and state["units"][p]["faction"] == minor}
        leaders = sum(1 for p in moving if state["units"][p]["type"] == "leader")
        if len(moving) - leaders > LIMITED_UNITS or leaders > LIMITED_LEADERS:
            return (f"{minor} is under limited control: it moves at most {LIMITED_UNITS} units "
                    f"and {LIMITED_LEADERS} leader a turn (12.11)")
    return None


# ---------------------------------------------------------------------------------------
# how far they go (12.6, 12.11, 13.1-13.3, 13.56, 13.63)


def homes(b: Board, minor: str) -> list[str]:
    return sorted(z for z, v in b.zones.items() if v.get("home") == minor)


def home_ground(b: Board, state: State, minor: str) -> list[str]:
    """13.1-13.3 "their home territories" are those still under their control; a minor that
    holds none counts them all (so a conquered minor's units are not all stranded)."""
    held = [z for z in homes(b, minor) if state["control"].get(z) == minor]
    if minor == "poland" and (state.get("flags") or {}).get("curzon"):
        held += [str(z) for z in b.game.get("curzon_zones") or []]  # 13.56 claimed after Curzon
    return held or homes(b, minor)


def distances(b: Board, sources: list[str]) -> dict[str, int]:
    """Zones counted along land routes from the nearest of `sources`."""
    far = {z: 0 for z in sources}
    queue = deque(sources)
    while queue:
        here = queue.popleft()
        for there in b.routes.get(here, {}):
            if there in b.zones and there not in far:
                far[there] = far[here] + 1
                queue.append(there)
    return far


def reach_problem(b: Board, state: State, sponsor: str, pid: str, route: list[str]) -> str | None:
    """Why `pid` may not follow `route` (its start first), or None."""
    owner = str(state["units"][pid]["faction"])
    land = [z for z in route[1:] if z in b.zones]
    if owner == "allies":
        if state["units"][pid]["type"] == "fleet":
            return None  # 13.63 ships are not limited
        run = 0
        for zone in land:  # 13.63 two consecutive zones outside the sponsor's control
            run = 0 if state["control"].get(zone) == sponsor else run + 1
            if run > ALLIED_REACH:
                return (f"{pid} may not go more than {ALLIED_REACH} zones in a row outside "
                        f"{sponsor}'s control (13.63): {zone}")
        return None
    if owner not in MINORS:
        return None
    m = minor_state(state, owner)
    if m["status"] == "limited":  # 12.11 its own zones, or those it held when activated
        allowed = {z for z, o in state["control"].items() if o == owner} | set(m.get("zones") or [])
        for zone in land:
            if zone not in allowed:
                return (f"{pid}: {owner} is under limited control and moves only within its own "
                        f"zones and those it held when activated (12.11); not {zone}")
    if owner == "poland":
        if m["status"] == "active":
            return None  # 13.56 a fully activated Poland goes anywhere
        if state["turn"] < POLAND_FULL_TURN:
            reach: int | None = POLAND_LIMITED_REACH
        else:
            reach = None
    else:
        reach = HOME_REACH.get(owner)
    if reach is not None:
        far = distances(b, home_ground(b, state, owner))
        for zone in land:
            if far.get(zone, reach + 1) > reach:
                return (f"{pid} may not go more than {reach} zone(s) from {owner}'s home zones "
                        f"({_rule(owner)}): {zone}")
    territory = {b.territory(z) for z in homes(b, owner)}
    for zone in land:  # 12.6 never beyond the major territory it comes from
        if b.territory(zone) not in territory:
            return f"{pid} may not leave {owner}'s own major territory (12.6): {zone}"
    return None


def _rule(minor: str) -> str:
    return {"ukraine": "13.1", "baltic": "13.2", "finland": "13.3", "poland": "13.56"}.get(minor, "12.6")


def own_ground_only(state: State, faction: str) -> bool:
    """12.11, 13.1-13.3: these units end a retreat in a zone their minor controls or die."""
    if faction not in MINORS:
        return False
    return faction in HOME_REACH or minor_state(state, faction)["status"] == "limited"


# ---------------------------------------------------------------------------------------
# battles (12.1, 12.41, 13.1-13.5)


def free_force(state: State, units: list[str]) -> bool:
    """12.41: a force of minor units alone is presumed to have paid two rounds; the Allies
    "move and attack under the conditions of 12.4" (13.61), so a force of allied units
    alone is treated the same."""
    free = (*[m for m in MINORS if not (m == "poland" and poland_major(state))], "allies")  # 13.54 pays
    return bool(units) and all(state["units"][u]["faction"] in free for u in units)


def joins(b: Board, state: State, attacker: str, minor: str, rng: Rng, label: str) -> Event | None:
    """12.1, 13.1-13.5: a neutral minor attacked or besieged by a major faction joins the
    other side, fully activated (12.12), commanded by:
      - the Reds, when a White faction attacked it (13.5);
      - when the Reds attacked: Poland the White faction with the most victory points (13.5),
        Makhno the White faction whose nearest unit is furthest from Gulai Polye, then the
        fewest points, then by lot (13.4), Finland (13.3), and Ukraine and the Baltic States
        (RECONSTRUCTED, the rulebook names no faction) the White faction with the fewest points.
    Poland before Summer 1920 is only under limited control unless "On to Berlin!" was
    played (13.51, 13.52), and always so without Pilsudski (13.55)."""
    if minor not in MINORS or allegiance(state, minor) != "neutral" or attacker not in MAJORS:
        return None
    if state["turn"] < 3:
        return None  # 12.1 no minor enters play before turn 3
    flags = state.get("flags") or {}
    if minor == "poland" and flags.get("poland_major"):
        return None
    if attacker in WHITES:
        controller = "red"
    else:
        whites = [f for f in WHITES if f not in (state.get("defeated") or [])]
        if not whites:
            return None
        vp = state.get("vp") or {}
        if minor == "poland":
            controller = max(whites, key=lambda f: (int(vp.get(f, 0)), -WHITES.index(f)))
        elif minor == "anarchists":
            controller = _makhno(b, state, whites, rng, label)
        else:
            controller = min(whites, key=lambda f: (int(vp.get(f, 0)), WHITES.index(f)))
    status = "active"
    why = f"{attacker} attacked it: it joins {controller} (12.1, {_rule_of_joining(minor)})"
    if minor == "poland":
        alive = (state["units"].get("pilsudski") or {}).get("status") not in ("dead", "removed")
        if not alive:
            status, why = "limited", why + "; without Pilsudski only under limited control (13.55)"
        elif state["turn"] < POLAND_FULL_TURN and not flags.get("on_to_berlin"):
            status, why = "limited", why + "; before 1920 only under limited control (13.51)"
        elif attacker == "red" and flags.get("on_to_berlin"):
            why += "; fully activated after On to Berlin! (13.52)"
    event: Event = {"type": "minor_status", "minor": minor, "faction": attacker, "roll": None,
                    "status": status, "controller": controller, "why": why}
    if status == "limited":
        event["until"] = state["turn"]
    return event


def _rule_of_joining(minor: str) -> str:
    return {"poland": "13.5", "anarchists": "13.4", "finland": "13.3", "baltic": "13.2",
            "ukraine": "13.1"}[minor]


def _makhno(b: Board, state: State, whites: list[str], rng: Rng, label: str) -> str:
    """13.4: the White faction whose nearest unit is furthest from Gulai Polye."""
    far = distances(b, homes(b, "anarchists"))
    vp = state.get("vp") or {}

    def nearest(f: str) -> int:
        found = [far[p["zone"]] for p in state["units"].values()
                 if p["faction"] == f and p["status"] == "map" and p["zone"] in far]
        return min(found) if found else len(far) + 1

    best = max(nearest(f) for f in whites)
    tied = [f for f in whites if nearest(f) == best]
    fewest = min(int(vp.get(f, 0)) for f in tied)
    tied = [f for f in tied if int(vp.get(f, 0)) == fewest]
    return tied[0] if len(tied) == 1 else rng.choice(f"{label}:makhno", tied)


def attacked_minors(state: State, zone: str, attacker: str, owner: str | None = None) -> list[str]:
    """The neutral minors an attack on (or siege of) `zone` touches: those with units there,
    and the zone's owner when it is besieged (12.1)."""
    found = {str(p["faction"]) for p in state["units"].values()
             if p["status"] == "map" and p["zone"] == zone and p["faction"] in MINORS}
    if owner in MINORS:
        found.add(owner)
    return sorted(m for m in found if allegiance(state, m) == "neutral")


def activations(b: Board, state: State, attacker: str, zone: str, rng: Rng, *, siege: bool,
                emit: Callable[[Event], None]) -> None:
    """12.1, 13.1-13.5, 13.52: the minors an attack or siege brings into play, and Poland
    when Greater Poland is in force and Ukraine is attacked by another faction."""
    # 13.2 besieging Reval, a North/Asia zone given to the Baltic States, does not rouse them
    owner = state["control"].get(zone) if siege and zone != "Reval" else None
    label = f"minor:t{state['turn']}:{attacker}:{label_part(zone)}"
    touched = attacked_minors(state, zone, attacker, owner)
    for minor in touched:
        event = joins(b, state, attacker, minor, rng, label)
        if event is not None:
            emit(event)
    ukrainian = "ukraine" in touched or state["control"].get(zone) == "ukraine" or any(
        p["faction"] == "ukraine" and p["zone"] == zone and p["status"] == "map" for p in state["units"].values())
    event = greater_poland(state, attacker) if ukrainian and "poland" not in touched else None
    if event is not None:
        emit(event)


def greater_poland(state: State, major: str) -> Event | None:
    """13.52: after Greater Poland, a major faction other than the card's player that
    attacks a Ukrainian unit or enters Ukrainian territory brings Poland in, fully
    activated, against it; not once Poland and Ukraine are conquered."""
    played_by = (state.get("flags") or {}).get("greater_poland")
    if not played_by or played_by == major or major not in MAJORS or allegiance(state, "poland") != "neutral" \
            or (_conquered(state, "poland") and _conquered(state, "ukraine")):
        return None
    vp = state.get("vp") or {}
    whites = [w for w in WHITES if w != major and w not in (state.get("defeated") or [])]
    if major in WHITES:
        controller = "red"
    elif played_by in whites:
        controller = str(played_by)
    elif whites:
        controller = max(whites, key=lambda f: (int(vp.get(f, 0)), -WHITES.index(f)))
    else:
        return None
    return {"type": "minor_status", "minor": "poland", "faction": major, "roll": None,
            "status": "active", "controller": controller,
            "why": f"{major} went against Ukraine after Greater Poland: Poland joins {controller} (13.52)"}


def _conquered(state: State, minor: str) -> bool:
    return bool(minor_state(state, minor).get("conquered"))


# ---------------------------------------------------------------------------------------
# 12.3 conquest and liberation, 12.42 repairs and new units


def conquest(b: Board, state: State) -> list[Event]:
    """12.3 at the end of a turn: a minor whose home zones are all held by major factions is
    conquered; one that has any of them back is liberated."""
    out: list[Event] = []
    for minor in MINORS:
        zones = homes(b, minor)
        if not zones:
            continue
        taken = all(state["control"].get(z) in MAJORS for z in zones)
        if taken and not _conquered(state, minor):
            out.append({"type": "minor_conquered", "minor": minor, "conquered": True})
        elif not taken and _conquered(state, minor):
            out.append({"type": "minor_conquered", "minor": minor, "conquered": False})
    return out


def upkeep(b: Board, state: State, spring: bool) -> list[Event]:
    """12.42 at each purchase phase: each minor not conquered (12.3) repairs one reduced
    unit (Poland two), the strongest first; in spring it also builds one new unit (Poland
    two) from its spare counters, placed in a home zone it controls (a zone with its own
    units first, then by name). Poland played as a major faction buys like one (13.54)."""
    out: list[Event] = []
    for minor in MINORS:
        if _conquered(state, minor) or (minor == "poland" and (state.get("flags") or {}).get("poland_major")):
            continue
        reduced = sorted((pid for pid, p in state["units"].items()
                          if p["faction"] == minor and p["status"] == "map" and p["reduced"]
                          and p["type"] != "leader"),
                         key=lambda pid: (-int(b.counters[pid]["full"][0]), pid))
        for pid in reduced[:REPAIRS.get(minor, 1)]:
            out.append({"type": "minor_repaired", "minor": minor, "unit": pid})
        if not spring:
            continue
        held = [z for z in homes(b, minor) if state["control"].get(z) == minor]
        if not held:
            continue
        occupied = {p["zone"] for p in state["units"].values() if p["faction"] == minor and p["status"] == "map"}
        where = sorted(held, key=lambda z: (z not in occupied, z))[0]
        spares = sorted(pid for pid, p in state["units"].items()
                        if p["faction"] == minor and p["type"] != "leader"
                        and p["status"] in ("pool", "eliminated"))
        built = spares[:BUILDS.get(minor, 1)]
        if built:
            out.append({"type": "minor_built", "minor": minor, "units": built, "zone": where})
    return out


# ---------------------------------------------------------------------------------------
# 13.54 Poland as a major faction


def polish_comeback(b: Board, state: State) -> list[Event]:
    """13.54, in the victory phase: the player of an eliminated White faction who asked for
    it (standing `play_poland: true`) plays on with Poland as a major faction after turn
    six, if Poland is not the Reds' ally (otherwise when it is neutral again). Once a game."""
    if "poland_major" in (state.get("flags") or {}) or state["turn"] <= POLAND_MAJOR_AFTER:
        return []
    if allegiance(state, "poland") == "red":
        return []
    for faction in sorted(state.get("defeated") or []):
        if faction in WHITES and (state.get("standing") or {}).get(faction, {}).get("play_poland"):
            return [{"type": "poland_major", "faction": faction, "money": POLAND_MONEY,
                     "manpower": POLAND_MANPOWER,
                     "zones": sorted(z for z, o in state["control"].items() if o == "poland")}]
    return []


# ---------------------------------------------------------------------------------------
# events


def _allies_taken(b: Board, s: State, e: Event) -> None:
    """13.61, 13.63: allied units in the faction's hands until the next political phase."""
    faction = str(e["faction"])
    if faction not in WHITES:
        raise ValueError(f"only a White faction uses the Allies, not {faction!r}")
    used = s.setdefault("allied_used", {}).setdefault(faction, [])
    for pid in e["units"]:
        if s["units"][pid]["faction"] != "allies":
            raise ValueError(f"{pid} is not an allied unit")
        used.append(pid)
    if len(used) > int((s.get("allied_control") or {}).get(faction, 0)):
        raise ValueError(f"{faction} takes more allied units than the table gave (13.61)")


def _minor_conquered(b: Board, s: State, e: Event) -> None:
    minor = str(e["minor"])
    if minor not in MINORS:
        raise ValueError(f"no minor faction {minor!r}")
    entry = s.setdefault("minors", {}).setdefault(minor, minor_state(s, minor))
    entry["conquered"] = bool(e["conquered"])


def _minor_repaired(b: Board, s: State, e: Event) -> None:
    unit = s["units"][e["unit"]]
    if unit["faction"] != e["minor"] or not unit["reduced"] or unit["status"] != "map":
        raise ValueError(f"{e['unit']} is not a reduced unit of {e['minor']} on the map")
    unit["reduced"] = False


def _minor_built(b: Board, s: State, e: Event) -> None:
    if b.zones.get(e["zone"]) is None:
        raise ValueError(f"no zone {e['zone']!r}")
    for pid in e["units"]:
        unit = s["units"][pid]
        if unit["faction"] != e["minor"] or unit["status"] not in ("pool", "eliminated"):
            raise ValueError(f"{pid} is not a spare unit of {e['minor']}")
        unit.update(status="map", zone=e["zone"], reduced=False)


def _poland_major(b: Board, s: State, e: Event) -> None:
    """13.54: the faction's control markers stand for Poland's; money 12, manpower 6; the
    ORI stays at zero; the table no longer touches Poland."""
    faction = str(e["faction"])
    if faction not in WHITES or faction not in (s.get("defeated") or []):
        raise ValueError(f"only an eliminated White faction plays Poland (13.54), not {faction!r}")
    s.setdefault("flags", {})["poland_major"] = faction
    s["defeated"] = [f for f in s["defeated"] if f != faction]
    s.setdefault("minors", {})["poland"] = {"status": "active", "controller": faction, "until": None}
    for zone in e["zones"]:
        s["control"][zone] = faction
    s["money"][faction] = int(e["money"])
    s["manpower"][faction] = int(e["manpower"])
    s.setdefault("ori", {})[faction] = 0


def _poland_major_over(b: Board, s: State, e: Event) -> None:
    """13.54, 16.2: Poland played as a major faction was eliminated: a neutral minor again."""
    s.setdefault("flags", {})["poland_major"] = False
    s.setdefault("minors", {})["poland"] = {"status": "neutral", "controller": None, "until": None}


APPLY: dict[str, Callable[[Board, State, Event], None]] = {
    "poland_major": _poland_major,
    "poland_major_over": _poland_major_over,
    "allies_taken": _allies_taken,
    "minor_conquered": _minor_conquered,
    "minor_repaired": _minor_repaired,
    "minor_built": _minor_built,
}


def _told_minor_conquered(b: Board, e: Event) -> str:
    return (f"{e['minor']} is conquered: its home zones are held by major factions (12.3)"
            if e["conquered"] else f"{e['minor']} is liberated (12.3)")


DESCRIBE: dict[str, Describe[Board]] = {
    "allies_taken": Told("{faction} takes in hand the allied {units} for this turn", "13.61, 13.63"),
    "minor_conquered": Ruled(_told_minor_conquered, "12.3"),
    "minor_repaired": Told("{minor} repairs {unit}", "12.42"),
    "poland_major": Told("{faction}'s player plays on with Poland as a major faction: 12 money, "
                         "6 manpower, 3 cards, its ORI at 0; it cannot win", "13.54"),
    "poland_major_over": Told("Poland, played by {faction}, is eliminated and neutral again", "13.54, 16.2"),
    "minor_built": Told("{minor} builds {units} in {zone}", "12.42"),
}
