"""The map and the powers as the rules read them: map.yaml, units.yaml and game.yaml's
dormant powers, looked up by id.

A place is a land territory id or a sea zone id ("sz01".."sz30"). Units stand as
`state["units"][place][owner][type] = count`, the shape of units.yaml's `start`; `neutral`
owns the defenders of neutral territories.
"""

from __future__ import annotations

from typing import Any

from pbem.game import GameData, Problem, State
from pbem.names import counted, suggest

Path_ = tuple[str | int, ...]

NEUTRAL = "neutral"
SIDES = ("central", "allies")


def powers(data: GameData) -> list[dict[str, Any]]:
    """Every power, the eight of map.yaml in their turn order, then the dormant ones."""
    return [*data["map"]["powers"], *data["game"].get("dormant_powers", [])]


def power(data: GameData, pid: str) -> dict[str, Any]:
    for p in powers(data):
        if p["id"] == pid:
            return p
    raise KeyError(pid)


def side(data: GameData, pid: str) -> str | None:
    """The power's side (central, allies), None for a neutral."""
    return next((p["side"] for p in powers(data) if p["id"] == pid), None)


def is_sea(place: str) -> bool:
    return place.startswith("sz")


def places(data: GameData) -> dict[str, dict[str, Any]]:
    """Every territory and sea zone by id."""
    return {**data["map"]["territories"], **data["map"]["sea_zones"]}


def adjacent(data: GameData, place: str) -> list[str]:
    return list(places(data)[place]["adjacent"])


def unit_types(data: GameData) -> dict[str, dict[str, Any]]:
    return dict(data["units"]["unit_types"])


def domain(data: GameData, unit: str) -> str:
    """land, sea or air."""
    return str(data["units"]["unit_types"][unit]["domain"])


def original_owner(data: GameData, territory: str) -> str:
    return str(data["map"]["territories"][territory]["owner"])


def controls(state: State, power_id: str, territory: str) -> bool:
    return bool(state["control"].get(territory) == power_id)


def contested(state: State, territory: str) -> bool:
    return territory in state["contested"]


def out_of_war(state: State, pid: str) -> bool:
    """The power the armistice took out of the war (the revolution house rule,
    rules/revolution.py): it takes no turns, and no battle is fought against its units."""
    rev = state.get("revolution") or {}
    return bool(rev.get("status") == "armistice" and rev.get("power") == pid)


def civil_war(state: State) -> bool:
    """The civil war has begun (the civil-war house rule, rules/civil_war.py)."""
    return bool((state.get("revolution") or {}).get("status") == "civil_war")


def own_territory(data: GameData, state: State, pid: str, territory: str) -> bool:
    """The power's own territory, where its factory or port mobilizes: an original one, or
    for the civil war's Soviet power those its control markers were placed on (step 5;
    Moscow's factory, Karelia's port: a ruling)."""
    rev = state.get("revolution") or {}
    return original_owner(data, territory) == pid or (
        civil_war(state) and pid == rev.get("soviets") and territory in rev.get("homes", []))


def without_capital(data: GameData, state: State, pid: str) -> bool:
    """In the civil war, Imperial Russia while it does not hold its capital, Moscow,
    uncontested: it mobilizes nothing (research's civil-war point 7, a ruling)."""
    rev = state.get("revolution") or {}
    if not civil_war(state) or pid != rev.get("power"):
        return False
    capital = power(data, pid)["capital"]
    return state["control"].get(capital) != pid or contested(state, capital)


def minefield(data: GameData, state: State, zone: str) -> str | None:
    """The power whose minefield lies in the sea zone (map.yaml `mined`, `mines_owner`), or
    None. The armistice removes the minefields of the power it takes out of the war, with its
    ships (a ruling: TripleA models them as that power's sea units)."""
    spec = data["map"]["sea_zones"].get(zone, {})
    owner = spec.get("mines_owner")
    if not spec.get("mined") or owner is None or out_of_war(state, str(owner)):
        return None
    return str(owner)


def stack(state: State, place: str, owner: str) -> dict[str, int]:
    """The owner's units in a place, by type (empty: none)."""
    return dict(state["units"].get(place, {}).get(owner, {}))


def name(data: GameData, place: str) -> str:
    """A place's printed name."""
    return str(places(data)[place]["name"])


def a(unit: str) -> str:
    """The unit with its article: "an infantry", "a cruiser"."""
    return f"{'an' if unit[0] in 'aeiou' else 'a'} {unit}"


def plural(unit: str) -> str:
    """"infantry" and "artillery" are their own plurals; "cruisers", "tanks"."""
    return unit if unit in ("infantry", "artillery") else unit + "s"


def units_text(units: dict[str, int]) -> str:
    """{infantry: 2, cruiser: 1} as "2 infantry, 1 cruiser"."""
    return ", ".join(counted(n, u, plural(u)) for u, n in units.items())


def read_counts(value: Any, where: Path_, known: list[str], what: str,
                problems: list[Problem]) -> dict[str, int]:
    """{TYPE: COUNT} read from orders, each problem added to `problems` at its place."""
    if not isinstance(value, dict) or not value:
        problems.append(Problem(where, f"expected {what} as {{TYPE: COUNT}}, e.g. {{infantry: 2}}"))
        return {}
    out: dict[str, int] = {}
    for unit, n in value.items():
        if unit not in known:
            problems.append(Problem((*where, unit), f"{unit!r} is not a unit type you may "
                                    f"{what} now{suggest(str(unit), known)} ({', '.join(known)})"))
        elif isinstance(n, bool) or not isinstance(n, int) or n < 1:
            problems.append(Problem((*where, unit), f"expected a whole number of at least 1, not {n!r}"))
        else:
            out[unit] = out.get(unit, 0) + n
    return out


def check(data: GameData) -> list[str]:
    """What the schemas cannot say of the data the rules read: every id named is known."""
    problems: list[str] = []
    known = set(places(data))
    ids = [p["id"] for p in data["map"]["powers"]]
    for d in data["game"].get("dormant_powers", []):
        if d["id"] in ids:
            problems.append(f"game.yaml: dormant_powers: {d['id']} is a power of map.yaml already")
        if d["capital"] not in data["map"]["territories"]:
            problems.append(f"game.yaml: dormant_powers: {d['id']}: capital {d['capital']!r} "
                            "is not a territory of map.yaml")
        if d["after"] not in ids:
            problems.append(f"game.yaml: dormant_powers: {d['id']}: after {d['after']!r} is not "
                            f"a power of map.yaml ({', '.join(ids)})")
        ids.append(d["id"])
    for place, owners in (data["units"].get("start") or {}).items():
        if place not in known:
            problems.append(f"units.yaml: start: {place!r} is not a territory or sea zone of map.yaml")
            continue
        for owner, units in owners.items():
            if owner not in ids and owner != NEUTRAL:
                problems.append(f"units.yaml: start: {place}: {owner!r} is not a power")
            for unit in units:
                if unit not in data["units"]["unit_types"]:
                    problems.append(f"units.yaml: start: {place}: {owner}: {unit!r} is not a unit type")
    for canal in data["map"].get("canals") or []:
        a, b = canal["between"]
        if a not in known or b not in known or b not in places(data)[a]["adjacent"]:
            problems.append(f"map.yaml: canals: {canal['name']}: {a} and {b} are not two sea "
                            "zones next to each other")
        if canal["land"] not in data["map"]["territories"]:
            problems.append(f"map.yaml: canals: {canal['name']}: {canal['land']!r} is not a territory")
    for tid, t in data["map"]["territories"].items():
        for other in t["adjacent"]:
            if other not in known:
                problems.append(f"map.yaml: territories: {tid}: adjacent {other!r} is not known")
    return problems
