"""What a Chechen War report shows beyond pbem's common parts: the hex map (terrain, the
borders of the regions, rivers and roads, the Russian stacks named, the Chechen units as
face-down counters, those revealed by an attack named), drawn by pbem.kit.hexmap.

The map shows each reader only what the view gives them: the Russian stacks (public: 10.6)
and, for the Chechen units, how many face-down counters stand in each hex; the Chechen's own
identities are in his report's secrets part, never on a map another player receives.
"""

from __future__ import annotations

from typing import Any

from pbem.game import GameData
from pbem.kit.hexmap import Badge, Cell, Lines, svg

from .board import board

TERRAIN = {"clear": "#eef0d8", "rough": "#d9cfa3", "mountain": "#b8a27a", "town": "#e6b8a2",
           "city": "#d98f7a"}
RUSSIA, CHECHNYA = "#2f5fa8", "#2e7d32"


def map_svg(data: GameData, view: dict[str, Any]) -> str:
    b = board(data)
    cells = {h: Cell(TERRAIN.get(t, "#ffffff"), b.names.get(h, ""),
                     f"{t}, {b.region[h].replace('_', ' ').title()}")
             for h, t in b.terrain.items()}
    borders = {b.grid.hexside(h, n) for h in b.terrain for n in b.grid.neighbours(h)
               if b.region[h] != b.region[n]}
    badges: dict[str, list[Badge]] = {}
    for label, names in view.get("Russian units", {}).items():
        hex_id = label[:4]
        count = len(str(names).split(", "))
        badges.setdefault(hex_id, []).append(Badge(f"{count} R", RUSSIA, f"Russian: {names}"))
    for label, count in view.get("Chechen units (face down)", {}).items():
        hex_id = label[:4]
        badges.setdefault(hex_id, []).append(
            Badge(f"{count} ?", CHECHNYA, f"{count} Chechen unit{'s' if count != 1 else ''}, face down"))
    for label, names in view.get("Chechen units revealed", {}).items():
        hex_id = label[:4]
        count = len(str(names).split(", "))
        badges.setdefault(hex_id, []).append(Badge(f"{count} C", CHECHNYA, f"Chechen: {names}"))
    return svg(b.grid, cells, Lines(rivers=sorted(b.rivers), borders=sorted(borders),
                                    roads=sorted(b.roads)), badges,
               title="Chechen War: the map as printed (north on the left, east at the top)")


def report(data: GameData, view: dict[str, Any], who: str,
           secrets: list[dict[str, Any]]) -> dict[str, Any]:
    return {"map_svg": map_svg(data, view)}
