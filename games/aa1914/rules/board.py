"""The map and the powers as the rules read them: map.yaml, units.yaml and game.yaml's
dormant powers, looked up by id.

A place is a land territory id or a sea zone id ("sz01".."sz30"). Units stand as
`state["units"][place][owner][type] = count`, the shape of units.yaml's `start`; `neutral`
owns the defenders of neutral territories.
"""

from __future__ import annotations

from typing import Any

from pbem.game import GameData, State

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


def stack(state: State, place: str, owner: str) -> dict[str, int]:
    """The owner's units in a place, by type (empty: none)."""
    return dict(state["units"].get(place, {}).get(owner, {}))


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
    for tid, t in data["map"]["territories"].items():
        for other in t["adjacent"]:
            if other not in known:
                problems.append(f"map.yaml: territories: {tid}: adjacent {other!r} is not known")
    return problems
