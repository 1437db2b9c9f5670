"""Chechen leaders on the map (11.0, 11.3): where they may be, and their return to the Chechen
Leader Underground Box.

- 11.0: "Chechen leaders may only exist in the Chechen Leader Underground Box, or in a hex
  with Chechen units." A leader whose hex has no Chechen unit left (its units moved away,
  retreated or advanced; a stack wiped out is 11.4's, in rules/combat.py) goes back to the
  box at once, at the end of the step that left him alone (a ruling: leaders cannot move,
  11.0, so the box is the only place the rule leaves him).
- 11.3: "Any Chechen leader(s) that are on the map may be voluntarily removed by the Chechen
  player during his own Movement Segment and returned to the Chechen Leader Underground Box."
  In the Chechen's movement file::

      orders:
        - underground: [ch_basayev]

  Removed leaders may be placed again in the Chechen Combat Segment that follows (11.2).
"""

from __future__ import annotations

from typing import Any

from pbem.game import Event, GameData, Problem, State
from pbem.kit.events import Apply, Describe
from pbem.names import suggest

UNDERGROUND = "underground"
EVENT = "leaders_underground"
SHAPE = "{underground: [LEADER, ...]}: leaders on the map back to the Underground Box (11.3)"


def on_map(state: State) -> dict[str, str]:
    """The leaders on the map, by the hex each stands in."""
    boxes = {"underground", "next_turn", "eliminated"}
    return {x: str(where) for x, where in sorted(state["leaders"].items()) if where not in boxes}


def read(data: GameData, state: State, orders: dict[str, Any], problems: list[Problem]) -> list[Event]:
    """The Chechen's `underground` orders (11.3), checked: each a leader on the map, once."""
    named: list[str] = []
    there = on_map(state)
    for i, item in enumerate(orders.get("orders") or []):
        if not (isinstance(item, dict) and set(item) == {"underground"}):
            continue
        at = ("orders", i, "underground")
        value = item["underground"]
        if not isinstance(value, list) or not value:
            problems.append(Problem(at, f"expected {SHAPE}"))
            continue
        for k, leader in enumerate(value):
            if not isinstance(leader, str) or leader not in state["leaders"]:
                problems.append(Problem((*at, k), f"{leader!r} is not a Chechen leader"
                                        f"{suggest(str(leader), sorted(state['leaders']))}"))
            elif leader not in there:
                problems.append(Problem((*at, k), f"{leader} is not on the map (he is "
                                        f"{_place(state['leaders'][leader])}): only a leader on "
                                        "the map returns to the Underground Box (11.3)"))
            elif leader in named:
                problems.append(Problem((*at, k), f"{leader} is named twice"))
            else:
                named.append(leader)
    return [{"type": EVENT, "leaders": named, "rule": "11.3"}] if named else []


def _place(where: str) -> str:
    return {"underground": "in the Underground Box", "next_turn": "in the next Game Turn Box",
            "eliminated": "eliminated"}.get(where, where)


def stranded(state: State) -> Event | None:
    """11.0: the leaders left in a hex with no Chechen unit, sent back to the box."""
    held = {t["hex"] for t in state["tokens"].values()}
    alone = [x for x, where in on_map(state).items() if where not in held]
    return {"type": EVENT, "leaders": alone, "rule": "11.0"} if alone else None


def _underground(data: GameData, state: State, event: Event) -> None:
    for leader in event["leaders"]:
        state["leaders"][leader] = UNDERGROUND


APPLY: dict[str, Apply[GameData]] = {EVENT: _underground}


def _told_underground(data: GameData, event: Event) -> str:
    names = ", ".join(data["units"]["leaders"][x]["name"] for x in event["leaders"])
    why = ("removed by the Chechen (11.3)" if event["rule"] == "11.3"
           else "no Chechen unit is left in his hex (11.0)")
    return f"{names} back to the Chechen Leader Underground Box: {why}"


DESCRIBE: dict[str, Describe[GameData]] = {EVENT: _told_underground}

