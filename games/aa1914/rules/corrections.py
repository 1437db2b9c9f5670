"""The moderator's corrections (`pbem adjust FILE --reason TEXT`, README "Corrections"): each
a validated event, recorded with its reason, replayed by `pbem audit` and told in every report.

    - {type: set_units, where: PLACE, power: POWER, units: {infantry: 2, tank: 0}}
      a power's units in a territory or sea zone: each type given is set to its count (0
      takes them off the board), the others stay as they are
    - {type: set_treasury, power: POWER, ipc: N}     a power's treasury, N >= 0
    - {type: set_control, territory: TERRITORY, power: POWER}   who controls a territory
    - {type: next, power: POWER, turn: N}            the game moved to POWER's turn of round N

A mistake is refused with what was expected; nothing is recorded then.
"""

from __future__ import annotations

from typing import Any

from pbem.game import Event, GameData, State
from pbem.kit.corrections import count, fields
from pbem.kit.events import Apply, Describe
from pbem.names import suggest

from . import board

KINDS = ("set_units", "set_treasury", "set_control")


def _power(data: GameData, value: Any) -> str:
    known = [p["id"] for p in board.powers(data)]
    if value not in known:
        raise ValueError(f"power: {value!r} is not a power of the game{suggest(str(value), known)} "
                         f"(powers: {', '.join(known)})")
    return str(value)






def check_next(data: GameData, event: Event) -> None:
    """The game's own `next` event, as a correction gives it: a known power, a round >= 1."""
    _power(data, event.get("power"))
    if isinstance(event.get("turn"), bool) or not isinstance(event.get("turn"), int) or event["turn"] < 1:
        raise ValueError(f"turn: expected a round 1 or more, not {event.get('turn')!r}")


def _apply(data: GameData, state: State, event: Event) -> None:
    """Fold a correction into `state` (a copy the caller owns)."""
    kind = event["type"]
    if kind == "set_units":
        fields(event, {"where", "power", "units"})
        places = board.places(data)
        where = event["where"]
        if where not in places:
            raise ValueError(f"where: {where!r} is no territory or sea zone"
                             f"{suggest(str(where), sorted(places))}")
        power = _power(data, event["power"])
        types = board.unit_types(data)
        units = event["units"]
        if not isinstance(units, dict) or not units:
            raise ValueError("units: expected a mapping of unit types to counts ({infantry: 2})")
        here = state["units"].setdefault(where, {}).setdefault(power, {})
        for unit, n in units.items():
            if unit not in types:
                raise ValueError(f"units: {unit!r} is not a unit type{suggest(str(unit), sorted(types))}")
            domain = board.domain(data, unit)
            if (domain == "sea") != board.is_sea(where):  # ships at sea, land and air units on land
                raise ValueError(f"units: a {unit} cannot stand in {board.name(data, where)}")
            wanted = count(n, f"units: {unit}")
            if wanted:
                here[unit] = wanted
            else:
                here.pop(unit, None)
        if not here:
            del state["units"][where][power]
    elif kind == "set_treasury":
        fields(event, {"power", "ipc"})
        state["treasury"][_power(data, event["power"])] = count(event["ipc"], "ipc")
    else:
        fields(event, {"territory", "power"})
        territory = event["territory"]
        if territory not in state["control"]:
            raise ValueError(f"territory: {territory!r} is no land territory"
                             f"{suggest(str(territory), sorted(state['control']))}")
        state["control"][territory] = _power(data, event["power"])


APPLY: dict[str, Apply[GameData]] = dict.fromkeys(KINDS, _apply)


def _told(data: GameData, event: Event) -> str:
    kind = event["type"]
    if kind == "set_units":
        power = board.power(data, event["power"])["name"]
        told = ", ".join(f"{n} {u}" for u, n in event["units"].items())
        return f"correction: {power}'s units in {board.name(data, event['where'])} set to {told}"
    if kind == "set_treasury":
        return f"correction: {board.power(data, event['power'])['name']}'s treasury set to {event['ipc']} IPC"
    return (f"correction: {board.name(data, event['territory'])} now controlled by "
            f"{board.power(data, event['power'])['name']}")


DESCRIBE: dict[str, Describe[GameData]] = dict.fromkeys(KINDS, _told)
