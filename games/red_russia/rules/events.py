"""Red Russia's common events (units placed, moved, reduced; control, sieges, retreats, the
turn's record): how each applies to the state (pure, no I/O, no randomness) and how it is
told (DESCRIBE). They are folded into the state by rules/fold.py, with the other modules'
events.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pbem.game import Event, State
from pbem.kit.corrections import fields
from pbem.kit.events import Describe, Ruled, Told
from pbem.names import counted

from . import battle, naval
from .board import MAJORS, MINORS, WHITES, Board
from .common import REVAL, home_of, side

STOPPED = 99  # half movement points: a unit that entered enemy units may not move on (7.3)


def _unit(state: State, pid: Any) -> dict[str, Any]:
    if pid not in state["units"]:
        raise KeyError(f"no unit or leader {pid!r}")
    unit: dict[str, Any] = state["units"][pid]
    return unit


def _place(b: Board, place: Any) -> str:
    if place not in b.zones and place not in b.seas and place not in b.boxes and place != "Caspian Sea":
        raise ValueError(f"no zone, sea or box {place!r}")
    return str(place)


def _faction(value: Any, *, minors: bool = True, none: bool = False) -> Any:
    known = (*MAJORS, *(MINORS if minors else ()), "allies")
    if value is None and none:
        return None
    if value not in known:
        raise ValueError(f"no faction {value!r}")
    return value


def _placed(b: Board, s: State, e: Event) -> None:
    zone = _place(b, e["zone"])
    for pid in e["units"]:
        _unit(s, pid).update(status="map", zone=zone)
        _unit(s, pid).pop("place", None)
        _unit(s, pid).pop("by", None)


def step_loss(s: State, pid: Any) -> None:
    """A step loss: full strength flips to reduced, reduced is eliminated (5.5, 5.6, 8.6)."""
    unit = _unit(s, pid)
    if unit["type"] == "leader":
        raise ValueError(f"{pid} is a leader; leaders have no steps")
    if unit["status"] != "map":
        raise ValueError(f"{pid} is not on the map")
    if unit["reduced"]:
        unit.update(status="eliminated", zone=None, reduced=False)
        _ashore(s, pid)
    else:
        unit["reduced"] = True


def _reduced(b: Board, s: State, e: Event) -> None:
    step_loss(s, e["unit"])


def _moved(b: Board, s: State, e: Event) -> None:
    path = [_place(b, p) for p in e["path"]]
    if len(path) >= 2 and path[-1] in b.zones:  # 8.4, 8.5 care how the enemy came in
        if path[-2] in b.boxes:  # 7.8 a retreat may take them back into their box
            s.setdefault("entered", {}).setdefault(path[-1], []).append(
                {"faction": e["faction"], "from": path[-2], "kind": "box", "units": list(e["units"])})
        else:
            kind = b.routes.get(path[-2], {}).get(path[-1], "sea")
            s.setdefault("entered", {}).setdefault(path[-1], []).append(
                {"faction": e["faction"], "from": path[-2], "kind": kind})
    for pid in e["units"]:
        unit = _unit(s, pid)
        unit["zone"] = path[-1]
        _ashore(s, pid)  # 8.4 units at sea land with a move
        spent = STOPPED if e.get("stopped") else s["moved"].get(pid, 0) + int(e["cost"])
        s["moved"][pid] = spent
    if e.get("treasure"):
        s["treasure"]["zone"] = path[-1]
    if e.get("rail"):
        s["rail_used"][e["faction"]] = s["rail_used"].get(e["faction"], 0) + int(e["rail"])
    for fleet in e.get("fleets", []):
        s["moved"][fleet] = STOPPED  # 7.5 a transporting fleet stays at sea this phase
        s.setdefault("transport", {}).setdefault(fleet, []).extend(e["units"])


def _tank_breakdown(b: Board, s: State, e: Event) -> None:
    if e["roll"] == 6:  # 8.91
        _reduced(b, s, {"unit": e["unit"]})


def _phase(b: Board, s: State, e: Event) -> None:
    _check_phase(s, e)
    s.pop("battle_cards", None)  # a battle card lasts the phase it is played in
    if e["turn"] != s["turn"]:
        s["moved"] = {}
        s["rail_used"] = {}
        s.pop("rail_bonus", None)  # 7.6 a card's extra rail movements last one turn
        s["transport"] = {}
    if e["phase"] == "purchase":
        s["turn_events"] = []  # a new turn: 17.5 counts this turn's events only
    s["turn"] = int(e["turn"])
    s["phase"] = str(e["phase"])
    s["actor"] = e.get("actor")
    if e.get("actor") is not None or e["phase"] != "action":
        s["moved"] = {}
        s["transport"] = {}
        s["entered"] = {}


# phases the rules enter by their own events alone: a battle's questions (`asked`, 8.4) and
# the end of the game (`game_over`, 16.x)
NOT_BY_PHASE = ("decision", "over")


def _check_phase(s: State, e: Event) -> None:
    """A `phase` event as a correction may give it: a turn, a phase the rules enter by this
    event, and in the action phase the faction whose it is (4.5)."""
    if isinstance(e["turn"], bool) or not isinstance(e["turn"], int) or e["turn"] < 0:
        raise ValueError(f"turn: expected a turn 0 or more, not {e['turn']!r}")
    if e["phase"] in NOT_BY_PHASE:
        raise ValueError(f"phase: {e['phase']} is entered only by the rules (a battle's question, "
                         "the end of the game): move the game to another phase")
    actor = e.get("actor")
    if e["phase"] == "action" and (actor not in MAJORS or actor in s["defeated"]):
        live = [f for f in MAJORS if f not in s["defeated"]]
        raise ValueError(f"actor: the action phase is a faction's (4.5): give actor: one of "
                         f"{', '.join(live)}, not {actor!r}")


def _retreat(b: Board, s: State, e: Event) -> None:
    """8.4, 8.7: retreating costs no movement (7.1). By sea (8.4, `by: sea`) the land units
    and leaders go aboard `fleet` and stay at sea with it (state `aboard`) until they land;
    a piece retreating anywhere else is no longer aboard (a fleet's cargo lands with it)."""
    dest = _place(b, e["to"])
    carrier = e.get("fleet") if e.get("by") == "sea" else None
    if carrier is not None and (dest not in b.seas or carrier not in e["units"]
                                or _unit(s, carrier)["type"] != "fleet"):
        raise ValueError(f"a retreat by sea goes to a sea with its fleet, not {carrier!r} to {dest!r}")
    for pid in e["units"]:
        _unit(s, pid)["zone"] = dest
        if carrier is not None and pid != carrier:
            s.setdefault("aboard", {})[pid] = carrier
        else:
            _ashore(s, pid)


def _ashore(s: State, pid: Any) -> None:
    """8.4: a piece that lands, retreats to land or is eliminated is no longer aboard."""
    if pid in (s.get("aboard") or {}):
        del s["aboard"][pid]


def _eliminated(b: Board, s: State, e: Event) -> None:
    _unit(s, e["unit"]).update(status="eliminated", zone=None, reduced=False)
    _ashore(s, e["unit"])


def _attack(b: Board, s: State, e: Event) -> None:
    """8.3 the money is spent whatever happens next (8.4)."""
    faction = _faction(e["attacker"], minors=False)
    if s["money"][faction] < int(e["spend"]):
        raise ValueError(f"{faction} cannot pay {e['spend']} (6.4)")
    s["money"][faction] -= int(e["spend"])


def _leader_loss(b: Board, s: State, e: Event) -> None:
    """10.4 wounded: to the box of unused leaders; killed: out of the game."""
    if e["result"] == "wounded":
        _unit(s, e["leader"]).update(status="unused", zone=None)
    elif e["result"] == "killed":
        _unit(s, e["leader"]).update(status="dead", zone=None)


def _leader_capture(b: Board, s: State, e: Event) -> None:
    """10.5 captured leaders are shot; those who escape rejoin the nearest friendly zone."""
    if e["result"] == "captured" or e.get("to") is None:
        _unit(s, e["leader"]).update(status="dead", zone=None)
    else:
        _unit(s, e["leader"])["zone"] = _place(b, e["to"])


def _lenin_killed(b: Board, s: State, e: Event) -> None:
    """10.8.1: the Reds lose two dice of manpower and money (never below zero, 6.4); the
    White factions that killed him have his victory point (counted by turn.victory_points)."""
    s["manpower"]["red"] = max(0, s["manpower"]["red"] - int(e["manpower"]))
    s["money"]["red"] = max(0, s["money"]["red"] - int(e["money"]))
    by = [str(f) for f in e.get("by") or []]
    if not set(by) <= set(WHITES):
        raise ValueError(f"Lenin's victory point goes to White factions only, not {by}")
    s.setdefault("flags", {})["lenin_killed_by"] = by


def _trotsky_distracted(b: Board, s: State, e: Event) -> None:
    """10.83: Trotsky's value is 2 in the combats and sieges of the rest of this Red turn."""
    if e["with"] not in ("stalin", "lenin"):
        raise ValueError(f"10.83 names Stalin and Lenin, not {e['with']!r}")
    s.setdefault("flags", {})["trotsky_distracted"] = s["turn"]


def _siege(b: Board, s: State, e: Event) -> None:
    """9.2 the rounds are paid in advance."""
    faction = _faction(e["faction"], minors=False)
    if s["money"][faction] < int(e["cost"]):
        raise ValueError(f"{faction} cannot pay {e['cost']} (6.4)")
    s["money"][faction] -= int(e["cost"])
    s.setdefault("siege", {}).setdefault(e["zone"], {"faction": faction, "hits": 0})


def _siege_hits(b: Board, s: State, e: Event) -> None:
    """9.2 the hits stay from round to round and turn to turn while the besieger stays."""
    s.setdefault("siege", {}).setdefault(e["zone"], {"faction": e["faction"], "hits": 0})
    s["siege"][e["zone"]]["hits"] += int(e["hits"])


def _siege_lifted(b: Board, s: State, e: Event) -> None:
    s.get("siege", {}).pop(e["zone"], None)  # 9.5, 9.6 the fortification is restored


def _blockade(b: Board, s: State, e: Event) -> None:
    """8.92 the fleets blockade the port until they leave, are destroyed or lift it."""
    if not (b.zones.get(e["port"]) or {}).get("ports"):
        raise ValueError(f"{e['port']!r} is not a port")
    for fid in e["fleets"]:
        if _unit(s, fid)["type"] != "fleet":
            raise ValueError(f"{fid} is not a fleet")
        s.setdefault("blockade", {})[fid] = e["port"]


def _blockade_lifted(b: Board, s: State, e: Event) -> None:
    for fid in e["fleets"]:  # 8.92
        s.get("blockade", {}).pop(fid, None)


def _take(s: State, e: Event) -> None:
    s["control"][e["zone"]] = _faction(e["faction"], none=True)
    if e["zone"] == REVAL and e["faction"] == "baltic" and e.get("from") == "north":
        s.setdefault("flags", {})["reval_baltic"] = True  # 13.2 the Reds took it once


def _control(b: Board, s: State, e: Event) -> None:
    """9.2 the besieger takes the zone; 9.6 its fortification is restored."""
    if e["zone"] not in b.zones:
        raise ValueError(f"no zone {e['zone']!r}")
    _take(s, e)
    s.get("siege", {}).pop(e["zone"], None)
    placer = (s.get("partisans") or {}).get(e["zone"])
    if placer is not None and e["faction"] is not None and side(placer) == side(e["faction"]):
        del s["partisans"][e["zone"]]  # 15.2 the side that raised them took the zone


def _initiative(b: Board, s: State, e: Event) -> None:
    s["initiative"] = [_faction(f, minors=False) for f in e["order"]]


def _standing(b: Board, s: State, e: Event) -> None:
    s["standing"][_faction(e["faction"])] = dict(e["standing"])


def _defeated(b: Board, s: State, e: Event) -> None:
    """16.2: the defeated faction's pieces leave; its zones revert to their home owner."""
    faction = _faction(e["faction"], minors=False)
    for unit in s["units"].values():
        if unit["faction"] == faction and unit["status"] == "map":
            unit.update(status="eliminated", zone=None)
    for zone, owner in s["control"].items():
        if owner == faction:
            home = home_of(b, s, zone)
            s["control"][zone] = None if home == faction else home
    s["defeated"] = sorted({*s["defeated"], faction})


def _game_over(b: Board, s: State, e: Event) -> None:
    s["over"] = True
    s["result"] = dict(e["result"])
    s["phase"] = "over"
    s["actor"] = None


def _victory_points(b: Board, s: State, e: Event) -> None:
    s["vp"] = {_faction(f, minors=False): int(v) for f, v in e["vp"].items()}


# referee adjustments (pbem adjust): direct corrections, each checked (a field not known is
# refused: a misspelt one would otherwise change nothing, silently)
def _set_control(b: Board, s: State, e: Event) -> None:
    fields(e, {"zone", "faction"})
    if e["zone"] not in b.zones:
        raise ValueError(f"no zone {e['zone']!r}")
    _take(s, e)


def _set_unit(b: Board, s: State, e: Event) -> None:
    fields(e, {"unit"}, frozenset({"zone", "status", "reduced"}))
    unit = _unit(s, e["unit"])
    if "zone" in e:
        unit["zone"] = None if e["zone"] is None else _place(b, e["zone"])
    if "status" in e:
        if e["status"] not in ("map", "pool", "unused", "eliminated", "removed", "dead", "card",
                               "bought", "gone"):
            raise ValueError(f"unknown status {e['status']!r}")
        unit["status"] = e["status"]
    if "reduced" in e:
        unit["reduced"] = bool(e["reduced"])


def _set_resources(b: Board, s: State, e: Event) -> None:
    """Money and manpower (6.4: never below zero). The victory points are no track to set:
    the victory phase counts them from the map (16.1)."""
    fields(e, {"faction"}, frozenset(RESOURCES))
    faction = _faction(e["faction"], minors=False)
    for key in RESOURCES:
        if key in e:
            value = e[key]
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"{key}: expected a whole number, not {value!r}")
            if value < 0:  # 6.4
                raise ValueError(f"{key} cannot be below zero (6.4)")
            s[key][faction] = value


RESOURCES = ("money", "manpower")  # what set_resources sets


APPLY: dict[str, Callable[[Board, State, Event], None]] = {
    "placed": _placed,
    "reduced": _reduced,
    "moved": _moved,
    "tank_breakdown": _tank_breakdown,
    "phase": _phase,
    "initiative": _initiative,
    "standing": _standing,
    "defeated": _defeated,
    "game_over": _game_over,
    "victory_points": _victory_points,
    "retreat": _retreat,
    "siege": _siege,
    "siege_hits": _siege_hits,
    "siege_lifted": _siege_lifted,
    "blockade": _blockade,
    "blockade_lifted": _blockade_lifted,
    "control": _control,
    "eliminated": _eliminated,
    "attack": _attack,
    "leader_loss": _leader_loss,
    "leader_capture": _leader_capture,
    "lenin_killed": _lenin_killed,
    "trotsky_distracted": _trotsky_distracted,
    "set_control": _set_control,
    "set_unit": _set_unit,
    "set_resources": _set_resources,
}


def _told_reduced(b: Board, e: Event) -> str:
    last = ": its last step, eliminated" if e.get("eliminated") else ""
    if e["by"] == "combat":
        return f"{e['unit']} loses {'its last step: eliminated' if last else 'a step'} (8.6)"
    return f"{e['by']} reduced {e['unit']}{last}"


def _told_attack(b: Board, e: Event) -> str:
    if e["level"] == battle.AIR_ALONE:
        return f"{e['attacker']} attacks {e['zone']}: only aircraft there, no combat and nothing paid (8.93)"
    return (f"{e['attacker']} attacks {e['zone']} ({', '.join(e['defenders']) or 'nobody left'}): "
            f"{e['level']}, {e['spend']} money revealed (8.3)")


def _told_combat_round(b: Board, e: Event) -> str:
    parts = []
    for which, name in (("atk", "attacker"), ("def", "defender")):
        rolls = "; ".join(f"{g['what']} {' '.join(map(str, g['values']))} (hit on {g['hit']}+)"
                          for g in e["dice"][which])
        parts.append(f"{name} {rolls or 'no dice'} = {counted(int(e['hits'][which]), 'hit')}")
    return f"{e['zone']} round {e['round']}: " + " | ".join(parts)


def _told_retreat(b: Board, e: Event) -> str:
    if e.get("by") == "sea":
        return naval.sea_retreat(e)
    return f"{e['faction']} {', '.join(e['units'])} retreat from {e['zone']} to {e['to']} ({e['when']})"


def _told_leader_loss(b: Board, e: Event) -> str:
    fate = f", then {e['fate']}" if e.get("fate") else ""
    return (f"leader {e['leader']}: {e['dice'][0]}+{e['dice'][1]} + {counted(int(e['steps']), 'step')} lost"
            f"{fate}: {e['result']} (10.4)")


def _told_leader_capture(b: Board, e: Event) -> str:
    level = int(b.leaders[e["leader"]]["level"])
    total = sum(int(d) for d in e["dice"]) + level
    fate = ("captured and killed" if e["result"] == "captured" else
            f"escaped to {e['to']}" if e.get("to") else "escaped, with no friendly zone to go to: killed")
    return (f"leader {e['leader']} alone with the enemy in {e['zone']}: {e['dice'][0]}+{e['dice'][1]} "
            f"+ level {level} = {total}, {'over' if total > 10 else 'not over'} 10: {fate} (10.5)")


def _told_battle_over(b: Board, e: Event) -> str:
    held = ("both sides stay" if e["attacker_left"] and e["defender_left"] else
            "the attacker holds the field" if e["attacker_left"] else
            "the defender holds" if e["defender_left"] else "nobody is left")
    return f"battle of {e['zone']} over: {held}"


def _told_control(b: Board, e: Event) -> str:
    return f"{e['zone']} passes from {e['from'] or 'neutral'} to {e['faction']} ({e['why']})"


def _told_note(b: Board, e: Event) -> str:
    return f"{e['zone']}: {e['text']}" if e.get("zone") else str(e["text"])


def _told_trotsky_distracted(b: Board, e: Event) -> str:
    return (f"Trotsky was in {e['zone']} with {e['with'].capitalize()} during the Red turn: his "
            "leadership value is 2 in its combats and sieges (10.83)")


def _told_lenin_killed(b: Board, e: Event) -> str:
    point = f"; his victory point goes to {' and '.join(e['by'])}" if e.get("by") else ""
    return (f"Lenin is dead: the Reds lose {e['manpower']} manpower and {e['money']} money"
            f"{point} (10.8.1)")


def _told_moved(b: Board, e: Event) -> str:
    how = " by rail" if e.get("rail") else ""
    stop = " (stopped by enemy units)" if e.get("stopped") else ""
    if e.get("why"):  # 8.92 a transport turned back at sea
        stop = f" ({e['why']})"
    return f"{e['faction']} moved {', '.join(e['units'])}{how}: {' -> '.join(e['path'])}{stop}"


def _told_tank_breakdown(b: Board, e: Event) -> str:
    result = "breaks down, loses a step" if e["roll"] == 6 else "runs"
    return f"tank {e['unit']} entering {e['zone']}: rolled {e['roll']} ({e['label']}), {result}"


def _told_initiative_roll(b: Board, e: Event) -> str:
    mod = f" {e['modifier']:+d}" if e["modifier"] else ""
    again = " (re-roll of a tie)" if e.get("reroll") else ""
    return f"initiative: {e['faction']} rolled {e['dice'][0]}+{e['dice'][1]}{mod} = {e['total']}{again}"


def _told_initiative(b: Board, e: Event) -> str:
    return "initiative order: " + ", ".join(e["order"])


def _told_phase(b: Board, e: Event) -> str:
    actor = f" ({e['actor']})" if e.get("actor") else ""
    return f"turn {e['turn']}: {e['phase']}{actor}"


def _told_standing(b: Board, e: Event) -> str:
    def shown(value: Any) -> str:
        if isinstance(value, bool):
            return "yes" if value else "no"
        return ", ".join(map(str, value)) if isinstance(value, list) else str(value)

    told = "; ".join(f"{k.replace('_', ' ')} {shown(v)}" for k, v in sorted(e["standing"].items()))
    return f"{e['faction']} standing instructions: {told}"


def _told_victory_points(b: Board, e: Event) -> str:
    return "victory points: " + ", ".join(f"{f} {v:+d}" for f, v in e["vp"].items())


def _told_game_over(b: Board, e: Event) -> str:
    return f"game over: {', '.join(e['result']['winners']) or 'nobody'} won ({e['result']['reason']})"


# how each event applied here is told in the log and the reports
DESCRIBE: dict[str, Describe[Board]] = {
    "placed": Told("{faction} placed {units} in {zone}"),
    "reduced": Ruled(_told_reduced, "8.6"),
    "attack": _told_attack,
    "combat_round": _told_combat_round,
    "retreat": _told_retreat,
    "eliminated": Told("{unit} is eliminated in {zone}: {why}"),
    "leader_loss": Ruled(_told_leader_loss, "10.4"),
    "leader_capture": Ruled(_told_leader_capture, "10.5"),
    "battle_over": _told_battle_over,
    "siege": Told("{faction} besieges {zone} for {rounds} round(s), {cost} money; fortification "
                  "{fort}", "9.2"),
    "siege_hits": Told("siege of {zone}: {hits} hit(s) on the fortification"),
    "siege_lifted": Told("siege of {zone} lifted: {why}"),
    "control": _told_control,
    "note": _told_note,
    "air_alone": Told("aircraft {unit} caught alone in {zone} retreats, rolled {roll}", "8.93"),
    "trotsky_distracted": Ruled(_told_trotsky_distracted, "10.83"),
    "lenin_killed": Ruled(_told_lenin_killed, "10.8.1"),
    "moved": _told_moved,
    "tank_breakdown": _told_tank_breakdown,
    "initiative_roll": _told_initiative_roll,
    "initiative": _told_initiative,
    "phase": _told_phase,
    "standing": _told_standing,
    "victory_points": _told_victory_points,
    "defeated": Told("{faction} has no corps left on the map: automatic defeat", "16.2"),
    "game_over": _told_game_over,
}
