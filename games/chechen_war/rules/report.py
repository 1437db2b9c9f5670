"""What a Chechen War report shows beyond pbem's common parts: the hex map (terrain, the
borders of the regions, rivers and roads, the Russian stacks named, the Chechen units as
face-down counters, those revealed by an attack named), drawn by pbem.kit.hexmap.

The map shows each reader only what the view gives them: the Russian stacks (public: 10.6)
and, for the Chechen units, how many face-down counters stand in each hex; the Chechen's own
identities are in his report's secrets part, never on a map another player receives.

The reader's order of battle (the "own" part) is rules/order_of_battle.py's: the Chechen's
from his own units as his key opens them (`own_units`), nobody else's from any secret.
"""

from __future__ import annotations

from typing import Any

from pbem.game import GameData
from pbem.kit.hexmap import Badge, Cell, Lines, svg

from . import order_of_battle
from .board import CHECHEN, board, units

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
    # Chechnya's own border, drawn heavy: where the rules that hold "in Chechnya" apply
    chechnya = {side for side in borders if "chechnya" in (b.region[side[0]], b.region[side[1]])}
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
    held = {label[:4] for label in view.get("Russian units", {})}
    cities = ", ".join(f"{b.label(c)[5:].strip('()') or c} {'Russian' if c in held else 'Chechen'}"
                       for c in b.cities)  # 4.5: a city is Chechen unless a Russian unit holds it
    on_map = {name: where for name, where in (view.get("Chechen leaders") or {}).items()
              if where[:4].isdigit()}
    legend = [
        f"Turn {view.get('turn')}: {view.get('segment')}",
        f"Russian morale {view.get('Russian morale')} (0-13; 0 without Groznyi: the Chechen wins, 3.1)"
        f"   casualties this turn {view.get('Russian casualties')}   collateral damage "
        f"{view.get('collateral damage')}",
        f"Chechen cities (3.2, 4.5): {cities}",
        "Chechen leaders on the map: " + (", ".join(f"{n} in {w}" for n, w in sorted(on_map.items()))
                                          or "none"),
        "R: Russian units (named in the report's table of Russian units); ?: Chechen units "
        "face down; C: Chechen units revealed",
        "Heavy red line: the border of Chechnya (the hexes inside it are in Chechnya); dashed "
        "brown: the borders",
        "of the other regions (Dagestan, Ingushetia, North Ossetia, Stavropol, Georgia); blue: "
        "rivers; plain brown: roads; terrain:",
    ]
    keys = [(colour, kind) for kind, colour in TERRAIN.items()]
    return svg(b.grid, cells, Lines(rivers=sorted(b.rivers), borders=sorted(borders - chechnya),
                                    roads=sorted(b.roads), outline=sorted(chechnya)), badges,
               title="Chechen War: the map as printed (north on the left, east at the top)",
               legend=legend, keys=keys)


def own_units(data: GameData, view: dict[str, Any], secrets: list[dict[str, Any]],
              who: str) -> list[dict[str, Any]]:
    """The Chechen's face-down units as his key opens them (sealed `unit` nodes no rule has
    revealed): where each token stands, or its place in the recruitment box, and the unit's
    values. Nobody else's report holds them: the nodes are the reader's own."""
    if who not in (CHECHEN, "referee"):
        return []
    where = {t: w for t, w in (view.get("your tokens") or {}).items()
             if ", face up: " not in str(w)}  # face up: revealed (10.6), no longer a secret
    box = {node: k for k, node in enumerate(view.get("your recruitment box") or [], start=1)}
    out = []
    for s in secrets:
        if s["kind"] != "unit" or s["owner"] != CHECHEN or s["revealed_at"] is not None:
            continue
        if s["id"] not in where and s["id"] not in box:
            continue  # a node the rules replaced (a recruit placed on the map is sealed anew)
        spec = units(data).get(str(s.get("raw")), {})
        out.append({"slot": s["id"] if s["id"] in where else f"recruit {box[s['id']]}",
                    "where": where.get(s["id"], "the recruitment box"), "known": "raw" in s,
                    "id": s.get("raw"), "name": spec.get("name", s.get("raw")), "type": spec.get("type", ""),
                    "cf": spec.get("cf"), "mf": spec.get("mf"),
                    "militia": spec.get("nationality") == "chechen_militia"})
    return sorted(out, key=lambda u: (u["slot"].startswith("recruit"), u["slot"]))


def report(data: GameData, view: dict[str, Any], who: str,
           secrets: list[dict[str, Any]]) -> dict[str, Any]:
    hand = own_units(data, view, secrets, who)
    listed = [s for s in secrets if not (hand and s["kind"] == "unit" and s["owner"] == CHECHEN)]
    return {"map_svg": map_svg(data, view), "hand": hand, "secrets": listed,
            "own": order_of_battle.own(data, view, who, hand)}
