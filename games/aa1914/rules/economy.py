"""Purchase, mobilization and income: the economy of a power's turn.

The A&A 1914 rulebook is not among the project's sources; what is refereed here is the turn
as ../shared/research/aa1914.md reports it and the TripleA game file encodes it:

- purchase at the start of the turn, paid from the treasury; tanks from round 4 (the XML's
  lateWarProduction trigger, game.yaml `tanks_from_round`);
- mobilize at the end of the turn: land units and fighters in a territory of the power's
  own with a factory for land units (the capital; Britain also India), ships in a sea zone
  next to one of its own territories with a port (map.yaml `mobilize`), neither contested;
- income after mobilizing: the IPC of every territory the power controls that is not
  contested (the XML's "Contested Territories Produce No Income").

In an orders file (one per power's turn; every item optional)::

    orders:
      - buy: {infantry: 3, artillery: 1}
      - mobilize: {where: london, units: {infantry: 2}}   # the rest to the first place
      - mobilize: {where: india, units: {infantry: 1}}     # that takes each type
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pbem.game import Event, GameData, Problem, State
from pbem.kit.events import Apply, Describe
from pbem.names import counted

from . import board

Path_ = tuple[str | int, ...]


def cost(data: GameData, units: dict[str, int]) -> int:
    types = board.unit_types(data)
    return sum(types[u]["cost"] * n for u, n in units.items())


def buyable(data: GameData, state: State) -> list[str]:
    """The unit types a power may buy this round."""
    early = state["turn"] < data["game"]["tanks_from_round"]
    return [u for u in board.unit_types(data) if not (early and u == "tank")]


def _land_places(data: GameData, state: State, pid: str) -> list[str]:
    """The power's own territories, held and not contested, whose factory mobilizes land
    units (and fighters)."""
    if board.without_capital(data, state, pid):
        return []
    return [t for t, v in data["map"]["territories"].items()
            if "land" in (v.get("mobilize") or []) and board.own_territory(data, state, pid, t)
            and board.controls(state, pid, t) and not board.contested(state, t)]


def _sea_places(data: GameData, state: State, pid: str) -> list[str]:
    """The sea zones next to the power's own held and uncontested territories with a port."""
    if board.without_capital(data, state, pid):
        return []
    ports = [t for t, v in data["map"]["territories"].items()
             if "sea" in (v.get("mobilize") or []) and board.own_territory(data, state, pid, t)
             and board.controls(state, pid, t) and not board.contested(state, t)]
    out: list[str] = []
    for port in ports:
        for place in board.adjacent(data, port):
            if board.is_sea(place) and place not in out:
                out.append(place)
    return out


def mobilize_places(data: GameData, state: State, pid: str, unit: str) -> list[str]:
    """Where a unit of this type bought by the power may be mobilized now, the capital
    (or the capital's own sea zone) first."""
    capital = board.power(data, pid)["capital"]
    if board.domain(data, unit) == "sea":
        found = _sea_places(data, state, pid)
        near = board.adjacent(data, capital)
    else:
        found = _land_places(data, state, pid)
        near = [capital]
    return sorted(found, key=lambda p: (p not in near, found.index(p)))


def read(data: GameData, state: State, pid: str, items: Iterable[tuple[int, str, Any]],
         problems: list[Problem]) -> tuple[dict[str, int], list[tuple[str, dict[str, int]]]]:
    """The purchase and the mobilizations of an orders file's buy and mobilize items
    (index, key, value), checked; problems added to `problems`."""
    bought: dict[str, int] = {}
    placed: list[tuple[int, str, dict[str, int]]] = []
    types = list(board.unit_types(data))
    for i, key, value in items:
        if key == "buy":
            allowed = buyable(data, state)
            if isinstance(value, dict) and "tank" in value and "tank" not in allowed:
                problems.append(Problem(("orders", i, "buy", "tank"), "tanks may be bought from "
                                        f"round {data['game']['tanks_from_round']} on; this is "
                                        f"round {state['turn']}"))
                value = {k: v for k, v in value.items() if k != "tank"}
                if not value:
                    continue
            for unit, n in board.read_counts(value, ("orders", i, "buy"), allowed, "buy", problems).items():
                bought[unit] = bought.get(unit, 0) + n
        elif key == "mobilize":
            if not isinstance(value, dict) or set(value) != {"where", "units"}:
                problems.append(Problem(("orders", i, "mobilize"),
                                        "expected {where: PLACE, units: {TYPE: COUNT}}"))
                continue
            units = board.read_counts(value["units"], ("orders", i, "mobilize", "units"), types, "mobilize",
                            problems)
            placed.append((i, str(value["where"]), units))
    spent = cost(data, bought)
    treasury = state["treasury"][pid]
    if spent > treasury:
        at = next((i for i, k, _ in items if k == "buy"), 0)
        problems.append(Problem(("orders", at, "buy"), f"the purchase costs {spent} IPC and "
                                f"{board.power(data, pid)['name']} has {treasury}"))
    _check_mobilize(data, state, pid, bought, placed, list(items), problems)
    return bought, [(where, units) for _, where, units in placed]


def _check_mobilize(data: GameData, state: State, pid: str, bought: dict[str, int],
                    placed: list[tuple[int, str, dict[str, int]]],
                    items: list[tuple[int, str, Any]], problems: list[Problem]) -> None:
    left = dict(bought)
    for i, where, units in placed:
        for unit, n in units.items():
            ok = mobilize_places(data, state, pid, unit)
            if where not in ok:
                kind = "ships" if board.domain(data, unit) == "sea" else "land units and fighters"
                problems.append(Problem(("orders", i, "mobilize", "where"),
                                        f"{pid} mobilizes {kind} in "
                                        f"{', '.join(ok) or 'no place now'}, not {where!r}"))
            if n > left.get(unit, 0):
                problems.append(Problem(("orders", i, "mobilize", "units", unit),
                                        f"mobilizes {counted(n, unit, board.plural(unit))} but this turn's "
                                        f"purchase leaves {left.get(unit, 0)} to mobilize"))
            left[unit] = left.get(unit, 0) - n
    for unit, n in left.items():
        if n > 0 and not mobilize_places(data, state, pid, unit):
            why = ("the civil war: it mobilizes nothing while it does not hold its capital, "
                   f"{board.name(data, board.power(data, pid)['capital'])}"
                   if board.without_capital(data, state, pid)
                   else "its factory territories are lost or contested")
            problems.append(Problem(("orders", next((i for i, k, _ in items if k == "buy"), 0),
                                     "buy", unit),
                                    f"{pid} has no place to mobilize {board.a(unit)} now ({why})"))


def mobilizations(data: GameData, state: State, pid: str, bought: dict[str, int],
                  placed: list[tuple[str, dict[str, int]]]) -> list[tuple[str, dict[str, int]]]:
    """Where each bought unit goes: the places the orders name, the rest to the first place
    that takes its type."""
    out: dict[str, dict[str, int]] = {}
    left = dict(bought)
    for where, units in placed:
        for unit, n in units.items():
            out.setdefault(where, {})[unit] = out.get(where, {}).get(unit, 0) + n
            left[unit] -= n
    for unit, n in left.items():
        if n > 0:
            where = mobilize_places(data, state, pid, unit)[0]
            out.setdefault(where, {})[unit] = out.get(where, {}).get(unit, 0) + n
    return list(out.items())


def income(data: GameData, state: State, pid: str) -> tuple[int, list[str]]:
    """The IPC the power collects now, and its contested territories, which produce nothing."""
    held = [t for t, owner in state["control"].items() if owner == pid]
    lost = sorted(t for t in held if board.contested(state, t))
    return sum(data["map"]["territories"][t]["ipc"] for t in held if t not in lost), lost


def purchase(data: GameData, pid: str, bought: dict[str, int]) -> list[Event]:
    """The purchase, paid at the start of the turn."""
    if not bought:
        return []
    return [{"type": "bought", "power": pid, "units": dict(sorted(bought.items())),
             "cost": cost(data, bought)}]


def mobilize(data: GameData, state: State, pid: str, bought: dict[str, int],
             placed: list[tuple[str, dict[str, int]]]) -> list[Event]:
    """The purchase mobilized, at the end of the turn."""
    return [{"type": "mobilized", "power": pid, "where": where, "units": dict(sorted(units.items()))}
            for where, units in mobilizations(data, state, pid, bought, placed)]


def collect(data: GameData, state: State, pid: str) -> list[Event]:
    """The income collected, after mobilizing. With the option `capital_income: none`, a power
    whose capital another power holds collects nothing (the A&A rule as its other editions
    print it; our sources are silent: README.md, the rulings)."""
    ipc, contested = income(data, state, pid)
    capital = board.power(data, pid)["capital"]
    if state["options"].get("capital_income", "collect") == "none" \
            and state["control"].get(capital, pid) != pid:
        return [{"type": "income", "power": pid, "ipc": 0, "contested": contested,
                 "capital_lost": capital}]
    return [{"type": "income", "power": pid, "ipc": ipc, "contested": contested}]


def _bought(data: GameData, state: State, event: Event) -> None:
    state["treasury"][event["power"]] -= event["cost"]


def _mobilized(data: GameData, state: State, event: Event) -> None:
    here = state["units"].setdefault(event["where"], {}).setdefault(event["power"], {})
    for unit, n in event["units"].items():
        here[unit] = here.get(unit, 0) + n


def _income(data: GameData, state: State, event: Event) -> None:
    state["treasury"][event["power"]] += event["ipc"]


APPLY: dict[str, Apply[GameData]] = {
    "bought": _bought,
    "mobilized": _mobilized,
    "income": _income,
}


def _told_bought(data: GameData, event: Event) -> str:
    name = board.power(data, event["power"])["name"]
    return f"{name} buys {board.units_text(event['units'])} for {event['cost']} IPC"


def _told_mobilized(data: GameData, event: Event) -> str:
    name = board.power(data, event["power"])["name"]
    return f"{name} mobilizes {board.units_text(event['units'])} in {board.name(data, event['where'])}"


def _told_income(data: GameData, event: Event) -> str:
    name = board.power(data, event["power"])["name"]
    if event.get("capital_lost"):
        return (f"{name} collects nothing: its capital, {board.name(data, event['capital_lost'])}, "
                "is in another power's hands (option capital_income: none)")
    note = (f" (nothing from contested {', '.join(board.name(data, t) for t in event['contested'])})"
            if event["contested"] else "")
    return f"{name} collects {event['ipc']} IPC{note}"


DESCRIBE: dict[str, Describe[GameData]] = {"bought": _told_bought, "mobilized": _told_mobilized,
                                           "income": _told_income}
