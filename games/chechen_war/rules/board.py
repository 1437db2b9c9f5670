"""The map and the counters as the rules read them: map.yaml's grid, terrain, regions and
names, units.yaml's units, tables.yaml's stacking limits.

map.yaml keeps terrain and regions as one string a column, one character a row (its header
says how); `Board` reads them once into a hex by hex table.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from pbem.game import GameData, Problem
from pbem.kit.fold import Fold
from pbem.kit.hexes import Grid, Hexside
from pbem.kit.orders import order_items

from .events import EVENTS

RUSSIAN, CHECHEN = "russian", "chechen"


@dataclass(frozen=True)
class Board:
    grid: Grid
    terrain: dict[str, str]    # hex id: clear, rough, mountain, town, city
    region: dict[str, str]     # hex id: chechnya, dagestan, ingushetia, north_ossetia, ...
    names: dict[str, str]
    cities: tuple[str, ...]    # 3.2: the five Chechen cities
    rivers: frozenset[Hexside] = field(default_factory=frozenset)
    roads: frozenset[Hexside] = field(default_factory=frozenset)     # 8.6: connected road hexsides
    bridges: frozenset[Hexside] = field(default_factory=frozenset)   # 8.7

    def label(self, hex_id: str) -> str:
        """"1324 (Groznyi)", or the id alone."""
        name = self.names.get(hex_id)
        return f"{hex_id} ({name})" if name else hex_id


def _cells(grid: Grid, columns: dict[str, str], legend: dict[str, str], what: str) -> dict[str, str]:
    out: dict[str, str] = {}
    first, last = grid.rows
    for col, line in columns.items():
        if len(line) != last - first + 1:
            raise ValueError(f"map.yaml: {what}: column {col} has {len(line)} rows, not "
                             f"{last - first + 1}")
        for k, char in enumerate(line):
            if char not in legend:
                raise ValueError(f"map.yaml: {what}: column {col}, row {first + k}: {char!r} is "
                                 f"not in the legend ({', '.join(legend)})")
            out[grid.hex_id(int(col), first + k)] = legend[char]
    return out


_BOARDS: dict[int, tuple[GameData, Board]] = {}  # by id of the data, kept with it


def board(data: GameData) -> Board:
    """The board of a game's data, read once for each data object (load_data keeps one per
    game and set of overrides)."""
    kept = _BOARDS.get(id(data))
    if kept is not None and kept[0] is data:
        return kept[1]
    m = data["map"]
    g = m["grid"]
    grid = Grid(even_columns_shifted=g["even_columns_shifted"], columns=(g["columns"][0], g["columns"][1]),
                rows=(g["rows"][0], g["rows"][1]))
    rivers = frozenset(grid.hexside(a, b) for reach in m.get("rivers", {}).values()
                       for a, b in reach["hexsides"])
    roads = frozenset(grid.hexside(a, b) for road in m.get("roads", {}).values()
                      for a, b in zip(road["hexes"], road["hexes"][1:], strict=False))
    bridges = frozenset(grid.hexside(a, b) for a, b in m.get("bridges") or [])
    made = Board(grid, _cells(grid, m["terrain"], m["legend"]["terrain"], "terrain"),
                 _cells(grid, m["regions"], m["legend"]["regions"], "regions"),
                 dict(m.get("names") or {}), tuple(m.get("chechen_cities") or ()), rivers, roads,
                 bridges)
    _BOARDS[id(data)] = (data, made)
    return made


def units(data: GameData) -> dict[str, dict[str, Any]]:
    return dict(data["units"]["units"])


def at_start(data: GameData) -> list[str]:
    """The Russian units that start on the map (4.1: those without the circled R)."""
    return [u for u, v in units(data).items() if v["side"] == RUSSIAN and v.get("arrival") == "at_start"]


def chechen(data: GameData, nationality: str) -> list[str]:
    """The Chechen regulars (chechen_regular) or militia (chechen_militia), by id."""
    return sorted(u for u, v in units(data).items()
                  if v["side"] == CHECHEN and v["nationality"] == nationality)


def stacking(data: GameData, b: Board, hex_id: str) -> int:
    """7.0: the units a hex may hold, by its terrain (the TEC)."""
    return int(data["tables"]["terrain"][b.terrain[hex_id]]["stacking"])


def hex_in(b: Board, value: Any, where: tuple[str | int, ...], problems: list[Problem]) -> str | None:
    """A hex id read from orders: a quoted four-digit id on the map, else a problem at `where`."""
    try:
        b.grid.offset(value)
    except ValueError as exc:
        problems.append(Problem(where, str(exc)))
        return None
    return str(value)


def bodies(orders: dict[str, Any], key: str, required: set[str], optional: set[str], shape: str,
           problems: list[Problem], others: tuple[str, ...] = ()
           ) -> Iterator[tuple[int, tuple[str | int, ...], dict[str, Any]]]:
    """The orders of one kind, `{key: {...}}` with the `required` fields and any `optional`
    ones, as (index, path, body); an item of one of the `others` kinds (any other kind, with
    "*": a file whose first reader tells what it takes) is left to its own reader; any other
    kind is named (pbem.kit.orders), and a body of other fields is a problem telling the
    `shape`."""
    for i, _kind, body in order_items(orders, (key,), problems, others):
        if not isinstance(body, dict) or not required <= set(body) \
                or not set(body) <= required | optional:
            problems.append(Problem(("orders", i), f"an order is {shape}"))
            continue
        yield i, ("orders", i, key), body


def ceasefire_turn(state: dict[str, Any]) -> bool:
    """This turn is the ceasefire turn the Russian declared (15.1-15.2)."""
    return bool((state.get("ceasefire") or {}).get("turn") == state["turn"])


def folding(data: GameData, state: dict[str, Any]) -> Fold:
    """A rule's events gathered and folded one by one by the game's own apply (pbem.kit.fold)."""
    return EVENTS.fold(data, state)
