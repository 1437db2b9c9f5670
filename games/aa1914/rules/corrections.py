"""The moderator's corrections (`pbem adjust FILE --reason TEXT`, README "Corrections"): each
a validated event, recorded with its reason, replayed by `pbem audit` and told in every report.

    - {type: set_units, where: PLACE, power: POWER, units: {infantry: 2, tank: 0}}
      a power's units in a territory or sea zone: each type given is set to its count (0
      takes them off the board), the others stay as they are
    - {type: set_treasury, power: POWER, ipc: N}     a power's treasury, N >= 0
    - {type: set_control, territory: TERRITORY, power: POWER, contested: false}
      who controls a territory; `contested` (optional) whether it is contested too
    - {type: set_damaged, where: SEA_ZONE, power: POWER, battleships: N}
      how many of the power's battleships there are damaged (at most as many as are there;
      set_units taking battleships away leaves no more damaged than remain)
    - {type: next, power: POWER, turn: N}            the game moved to POWER's turn of round N
    - {type: at_war, power: POWER}                   a power enters the war (the USA early)

A mistake is refused with what was expected; nothing is recorded then.
"""

from __future__ import annotations

from typing import Any

from pbem.game import Event, GameData, State
from pbem.kit.corrections import count, fields
from pbem.kit.events import Apply, Describe
from pbem.names import suggest

from . import board

KINDS = ("set_units", "set_treasury", "set_control", "set_damaged")


def _power(data: GameData, value: Any) -> str:
    known = [p["id"] for p in board.powers(data)]
    if value not in known:
        raise ValueError(f"power: {value!r} is not a power of the game{suggest(str(value), known)} "
                         f"(powers: {', '.join(known)})")
    return str(value)






def _place(data: GameData, value: Any) -> str:
    places = board.places(data)
    if value not in places:
        raise ValueError(f"where: {value!r} is no territory or sea zone{suggest(str(value), sorted(places))}")
    return str(value)


def _damaged(state: State, where: str, power: str, battleships: int) -> None:
    """`battleships` of the power's in `where` damaged (none: the entry goes)."""
    here = {o: n for o, n in state.setdefault("damaged", {}).get(where, {}).items() if o != power}
    if battleships:
        here[power] = battleships
    if here:
        state["damaged"][where] = here
    else:
        state["damaged"].pop(where, None)


def _playing(data: GameData, state: State, value: Any) -> str:
    """A power in the game's turn order now (a dormant one, such as the Soviets before the
    civil war, enters by the rules alone)."""
    power = _power(data, value)
    if power not in state["order"]:
        raise ValueError(f"power: {power} is not in the game now (it enters by the rules alone)")
    return power


def check_at_war(data: GameData, state: State, event: Event) -> None:
    """The game's own `at_war` event, as a correction gives it: a power in the game, not at
    war yet."""
    power = _playing(data, state, event.get("power"))
    if power in state["at_war"]:
        raise ValueError(f"power: {power} is at war already")


def check_next(data: GameData, state: State, event: Event) -> None:
    """The game's own `next` event, as a correction gives it: a power in the game, a round >= 1."""
    _playing(data, state, event.get("power"))
    if isinstance(event.get("turn"), bool) or not isinstance(event.get("turn"), int) or event["turn"] < 1:
        raise ValueError(f"turn: expected a round 1 or more, not {event.get('turn')!r}")


def _apply(data: GameData, state: State, event: Event) -> None:
    """Fold a correction into `state` (a copy the caller owns)."""
    kind = event["type"]
    if kind == "set_units":
        fields(event, {"where", "power", "units"})
        where = _place(data, event["where"])
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
        damaged = state.get("damaged", {}).get(where, {}).get(power, 0)
        if damaged > here.get("battleship", 0):  # no more damaged than there are
            _damaged(state, where, power, here.get("battleship", 0))
        if not here:
            del state["units"][where][power]
    elif kind == "set_damaged":
        fields(event, {"where", "power", "battleships"})
        where = _place(data, event["where"])
        power = _power(data, event["power"])
        wanted = count(event["battleships"], "battleships")
        there = state["units"].get(where, {}).get(power, {}).get("battleship", 0)
        if wanted > there:
            raise ValueError(f"battleships: {board.power(data, power)['name']} has {there} "
                             f"battleship(s) in {board.name(data, where)}, not {wanted}")
        _damaged(state, where, power, wanted)
    elif kind == "set_treasury":
        fields(event, {"power", "ipc"})
        state["treasury"][_power(data, event["power"])] = count(event["ipc"], "ipc")
    else:
        fields(event, {"territory", "power"}, frozenset({"contested"}))
        territory = event["territory"]
        if territory not in state["control"]:
            raise ValueError(f"territory: {territory!r} is no land territory"
                             f"{suggest(str(territory), sorted(state['control']))}")
        state["control"][territory] = _power(data, event["power"])
        if "contested" in event:
            if not isinstance(event["contested"], bool):
                raise ValueError(f"contested: expected true or false, not {event['contested']!r}")
            others = [t for t in state["contested"] if t != territory]
            state["contested"] = sorted([*others, territory]) if event["contested"] else others


APPLY: dict[str, Apply[GameData]] = dict.fromkeys(KINDS, _apply)


def _told(data: GameData, event: Event) -> str:
    kind = event["type"]
    if kind == "set_units":
        power = board.power(data, event["power"])["name"]
        told = ", ".join(f"{n} {u}" for u, n in event["units"].items())
        return f"correction: {power}'s units in {board.name(data, event['where'])} set to {told}"
    if kind == "set_treasury":
        return f"correction: {board.power(data, event['power'])['name']}'s treasury set to {event['ipc']} IPC"
    if kind == "set_damaged":
        return (f"correction: {board.power(data, event['power'])['name']}'s damaged battleships in "
                f"{board.name(data, event['where'])} set to {event['battleships']}")
    contested = ("" if "contested" not in event
                 else ", contested" if event["contested"] else ", not contested")
    return (f"correction: {board.name(data, event['territory'])} now controlled by "
            f"{board.power(data, event['power'])['name']}{contested}")


DESCRIBE: dict[str, Describe[GameData]] = dict.fromkeys(KINDS, _told)
