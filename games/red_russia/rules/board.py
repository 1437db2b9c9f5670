"""Red Russia's board: the map, counters and set-up data, checked on load, and lookups."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from pbem.game import GameData
from pbem.names import NameIndex

MAJORS = ("red", "siberian", "south", "north")
WHITES = ("siberian", "south", "north")
MINORS = ("anarchists", "baltic", "finland", "poland", "ukraine")
ROUTE_KINDS = ("easy", "difficult", "very_difficult")
HARD_ROUTES = ("difficult", "very_difficult")  # 8.5, 9.3 the defender's +1 in the first round
UNIT_TYPES = ("inf", "cav", "tank", "air", "fleet")
CORPS = ("inf", "cav", "tank")  # 16.2: a faction with none of these on the map is defeated


@dataclass
class Board:
    """Read-only views of a game's data, built once per GameData."""

    data: GameData
    problems: list[str] = field(default_factory=list)

    @cached_property
    def zones(self) -> dict[str, dict[str, Any]]:
        return dict(self.data["map"].get("zones") or {})

    @cached_property
    def seas(self) -> list[str]:
        return list(self.data["map"].get("seas") or {})

    @cached_property
    def boxes(self) -> dict[str, dict[str, Any]]:
        return dict(self.data["map"].get("boxes") or {})

    @cached_property
    def caspian(self) -> set[str]:
        return set(self.data["map"].get("caspian_ports") or [])

    @cached_property
    def routes(self) -> dict[str, dict[str, str]]:
        """zone -> neighbour -> route kind."""
        out: dict[str, dict[str, str]] = {z: {} for z in self.zones}
        for route in self.data["map"].get("routes") or []:
            a, b, kind = route
            out.setdefault(a, {})[b] = kind
            out.setdefault(b, {})[a] = kind
        return out

    @cached_property
    def ports(self) -> dict[str, list[str]]:
        """sea -> its port zones."""
        out: dict[str, list[str]] = {s: [] for s in self.seas}
        for name, zone in self.zones.items():
            for sea in zone.get("ports") or []:
                out.setdefault(sea, []).append(name)
        return out

    @cached_property
    def places(self) -> NameIndex:
        """Every place a unit can be: zones, seas and boxes, with aliases."""
        aliases = {n: list(z.get("aliases") or []) for n, z in self.zones.items()}
        aliases["Caspian Sea"] = ["Caspian"]
        # the Caspian is no sea area (2.1) but names the 7.7 crossing between its ports
        return NameIndex([*self.zones, *self.seas, *self.boxes, "Caspian Sea"], aliases)

    @cached_property
    def counters(self) -> dict[str, dict[str, Any]]:
        out: dict[str, dict[str, Any]] = {}
        for faction, items in (self.data["units"].get("counters") or {}).items():
            for item in items or []:
                out[item["id"]] = {**item, "faction": faction}
        return out

    @cached_property
    def leaders(self) -> dict[str, dict[str, Any]]:
        return {item["id"]: dict(item) for item in self.data["units"].get("leaders") or []}

    @cached_property
    def pieces(self) -> NameIndex:
        """Counters and leaders by id, leaders also by name."""
        aliases = {lid: [leader["name"]] for lid, leader in self.leaders.items()}
        return NameIndex([*self.counters, *self.leaders, "treasure"], aliases)

    @property
    def game(self) -> dict[str, Any]:
        return dict(self.data["game"])

    def faction_name(self, faction: str) -> str:
        for f in self.game["factions"]:
            if f["id"] == faction:
                return str(f["name"])
        minor = self.game.get("minors", {}).get(faction)
        return str(minor["name"]) if minor else faction

    def territory(self, zone: str) -> str | None:
        z = self.zones.get(zone)
        return str(z["territory"]) if z else None



def board(data: GameData) -> Board:
    cached = getattr(data, "_red_russia_board", None)
    if cached is None:
        cached = Board(data)
        data._red_russia_board = cached  # type: ignore[attr-defined]
    return cached


# ---------------------------------------------------------------------------------------
# data checks: each problem names the file and the key


def check(data: GameData) -> list[str]:
    problems: list[str] = []
    b = Board(data)
    m = data["map"]
    territories = set(m.get("territories") or {})
    owners = set(MAJORS) | set(MINORS)

    def bad(where: str, what: str) -> None:
        problems.append(f"map.yaml: {where}: {what}")

    for name, z in b.zones.items():
        where = f"zones.{name}"
        if not isinstance(z, dict):
            bad(where, "expected a mapping of the zone's values")
            continue
        if z.get("territory") not in territories:
            bad(f"{where}.territory", f"expected one of {sorted(territories)}, got {z.get('territory')!r}")
        for key in ("fort", "money", "manpower"):
            value = z.get(key)
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 9:
                bad(f"{where}.{key}", f"expected a whole number 0-9, got {value!r}")
        if "home" in z and z["home"] not in owners:
            bad(f"{where}.home", f"expected one of {sorted(owners)}, got {z['home']!r}")
        for sea in z.get("ports") or []:
            if sea not in b.seas:
                bad(f"{where}.ports", f"unknown sea {sea!r} (seas: {', '.join(b.seas)})")
        xy = z.get("xy")
        if not (isinstance(xy, list) and len(xy) == 2 and all(isinstance(v, int) for v in xy)):
            bad(f"{where}.xy", f"expected [x, y] whole numbers, got {xy!r}")
    seen: set[frozenset[str]] = set()
    for i, route in enumerate(m.get("routes") or []):
        where = f"routes[{i}]"
        if not (isinstance(route, list) and len(route) == 3):
            bad(where, f"expected [ZONE, ZONE, KIND], got {route!r}")
            continue
        a, c, kind = route
        for end in (a, c):
            if end not in b.zones:
                bad(where, f"unknown zone {end!r}{b.places.suggest(end)}")
        if kind not in ROUTE_KINDS:
            bad(where, f"route kind must be one of {', '.join(ROUTE_KINDS)}, got {kind!r}")
        pair = frozenset((a, c))
        if len(pair) == 1:
            bad(where, f"a route from {a} to itself")
        if pair in seen:
            bad(where, f"the route {a} - {c} is listed twice")
        seen.add(pair)
        if a in b.zones and c in b.zones:
            crossing = b.zones[a].get("territory") != b.zones[c].get("territory")
            if crossing and kind != "very_difficult":  # 7.7
                bad(where, f"{a} - {c} crosses a territory border, so it must be very_difficult")
            if not crossing and kind == "very_difficult":
                bad(where, f"{a} - {c} is inside one territory; very_difficult routes cross borders (7.7)")
    for name in b.caspian:
        if name not in b.zones:
            bad("caspian_ports", f"unknown zone {name!r}{b.places.suggest(name)}")
    for box, spec in b.boxes.items():
        for name in (spec or {}).get("disembark") or []:
            if name not in b.zones:
                bad(f"boxes.{box}.disembark", f"unknown zone {name!r}{b.places.suggest(name)}")
    # 16.0: home zones' money adds up to each faction's victory base
    for f in data["game"]["factions"]:
        total = sum(z["money"] for z in b.zones.values()
                    if isinstance(z, dict) and z.get("home") == f["id"] and isinstance(z.get("money"), int))
        if total != f["vp_base"]:
            bad("zones", f"home zones of {f['id']} are worth {total} money; 16.0 says {f['vp_base']} "
                         "(game.yaml factions.vp_base)")
    problems += _check_units(b)
    return problems


def _check_units(b: Board) -> list[str]:
    problems: list[str] = []
    units = b.data["units"]
    owners = set(MAJORS) | set(MINORS) | {"allies"}
    ids: set[str] = set()
    for faction, items in (units.get("counters") or {}).items():
        if faction not in owners:
            problems.append(f"units.yaml: counters.{faction}: unknown faction")
        for i, item in enumerate(items or []):
            where = f"units.yaml: counters.{faction}[{i}]"
            uid = item.get("id")
            if uid in ids:
                problems.append(f"{where}.id: {uid!r} is used twice")
            ids.add(uid)
            if item.get("type") not in UNIT_TYPES:
                problems.append(f"{where}.type: expected one of {', '.join(UNIT_TYPES)}")
            for key in ("full", "reduced"):
                v = item.get(key)
                if not (isinstance(v, list) and len(v) == 2 and all(isinstance(x, int) for x in v)):
                    problems.append(f"{where}.{key}: expected [attack, defence]")
            if item.get("type") == "fleet" and item.get("sea") not in b.seas:
                problems.append(f"{where}.sea: a fleet names its sea, one of {', '.join(b.seas)}")
    for i, leader in enumerate(units.get("leaders") or []):
        where = f"units.yaml: leaders[{i}]"
        if leader.get("faction") not in owners:
            problems.append(f"{where}.faction: unknown faction {leader.get('faction')!r}")
        if not isinstance(leader.get("level"), int) or not 0 <= leader["level"] <= 3:
            problems.append(f"{where}.level: expected 0-3 (10.1)")
        if leader.get("id") in ids:
            problems.append(f"{where}.id: {leader.get('id')!r} is used twice")
        ids.add(leader.get("id"))
    setup = b.game.get("setup", {})
    for faction in MAJORS:
        for i, spec in enumerate(setup.get(faction, {}).get("leaders", [])):
            if "id" in spec and spec["id"] not in b.leaders:
                problems.append(f"game.yaml: setup.{faction}.leaders[{i}]: unknown leader {spec['id']!r}")
    return problems
