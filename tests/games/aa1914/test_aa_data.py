"""Axis & Allies 1914's own data: games/aa1914/map.yaml and units.yaml against their schemas
and against the facts they were written from (the TripleA "World War I 1914" game file and
../shared/research/aa1914.md).

Fast and in-process: the files are read with pbem's own loader and checked with jsonschema.
The expected numbers below were computed once from territories_summary.csv (see each
comment); the test does not read the CSV.
"""

from __future__ import annotations

import copy
import re
from collections import Counter
from pathlib import Path
from typing import Any

import game_files
import pytest
from jsonschema import Draft202012Validator

GAME_DIR = Path(__file__).resolve().parents[3] / "games" / "aa1914"

POWERS = ["austria_hungary", "russia", "germany", "france", "britain", "ottomans", "italy",
          "usa"]  # turn order (research/aa1914.md, the XML's sequence)
CENTRAL = {"austria_hungary", "germany", "ottomans"}
LAND_TYPES = {"infantry", "artillery", "tank", "fighter"}  # stand on land (fighters land there)
SEA_TYPES = {"submarine", "cruiser", "battleship", "transport"}

# Computed once from territories_summary.csv (135 rows: 105 land of which 9 are the
# "Coastal Barrage" pseudo-territories, 30 sea zones), by summing `production` per owner
# over the land rows; each equals the XML's <resourceInitialize> for that power.
IPC_TOTALS = {"austria_hungary": 26, "russia": 25, "germany": 35, "france": 24, "britain": 30,
              "ottomans": 16, "italy": 14, "usa": 20}
LAND_COUNT = 96   # 105 land rows minus the 9 Coastal Barrages
SEA_COUNT = 30
# Computed once from the CSV's initial_units, combat types only, neutrals included.
START_TOTALS = {"infantry": 321, "artillery": 98, "fighter": 2, "submarine": 4, "cruiser": 15,
                "battleship": 9, "transport": 9}

RUSSIA = {"moscow": 6, "poland": 3, "ukraine": 3, "sevastopol": 3, "belarus": 2, "livonia": 2,
          "karelia": 2, "finland": 2, "tatarstan": 1, "kazakhstan": 1}  # research: 25 IPC


def load(name: str) -> Any:
    return game_files.load('aa1914', name)


def schema(name: str) -> dict[str, Any]:
    return game_files.schema('aa1914', name)


def errors(name: str, data: Any) -> list[str]:
    return game_files.errors('aa1914', name, data)


def places() -> dict[str, dict[str, Any]]:
    m = load("map")
    return {**m["territories"], **m["sea_zones"]}


@pytest.mark.parametrize("name", ["map", "units"])
def test_file_loads_and_matches_its_schema(name: str) -> None:
    Draft202012Validator.check_schema(schema(name))
    data = load(name)
    assert isinstance(data, dict)
    assert errors(name, data) == []


def test_a_registered_game_that_the_demo_does_not_play() -> None:
    # a folder with game.yaml and rules/ is a game pbem lists; `pbem demo` plays the one
    # game.yaml marks demo: true, and this game has no sample orders for it
    assert (GAME_DIR / "rules" / "__init__.py").exists()
    assert load("game")["demo"] is False


def test_counts() -> None:
    m = load("map")
    assert len(m["territories"]) == LAND_COUNT
    assert len(m["sea_zones"]) == SEA_COUNT
    assert len(places()) == 126 == 135 - 9
    assert sorted(m["sea_zones"]) == [f"sz{i:02d}" for i in range(1, 31)]
    for sid, zone in m["sea_zones"].items():
        assert zone["name"] == f"SZ {int(sid[2:])}"


def test_ids_are_plain_strings() -> None:
    m = load("map")
    assert not set(m["territories"]) & set(m["sea_zones"])
    for pid, place in places().items():
        assert isinstance(pid, str) and re.fullmatch(r"[a-z][a-z0-9_]*", pid), pid
        assert all(isinstance(a, str) for a in place["adjacent"]), pid
        assert "barrage" not in pid and not any("barrage" in a for a in place["adjacent"])
    for tid, t in m["territories"].items():  # the id is the snake_case of the printed name
        assert tid == re.sub(r"[^a-z0-9]+", "_", t["name"].lower()).strip("_")


def test_adjacency_is_symmetric_known_and_not_reflexive() -> None:
    every = places()
    for pid, place in every.items():
        assert pid not in place["adjacent"], pid
        assert len(set(place["adjacent"])) == len(place["adjacent"]), pid
        for other in place["adjacent"]:
            assert other in every, f"{pid}: unknown neighbour {other}"
            assert pid in every[other]["adjacent"], f"{pid} -> {other} but not back"


def test_sea_zones_touch_only_land_and_sea_ids() -> None:
    m = load("map")
    for zone in m["sea_zones"].values():
        assert zone["adjacent"]
    # every land territory reaches something; an island reaches only the sea
    assert m["territories"]["balearic_islands"]["adjacent"] == ["sz16"]


def test_sources_9_4_powers_in_turn_order_with_sides() -> None:
    powers = load("map")["powers"]
    assert [p["id"] for p in powers] == POWERS
    for p in powers:
        assert p["side"] == ("central" if p["id"] in CENTRAL else "allies"), p["id"]


def test_ipc_totals_per_power() -> None:
    m = load("map")
    totals: Counter[str] = Counter()
    for t in m["territories"].values():
        totals[t["owner"]] += t["ipc"]
    assert {p: totals[p] for p in POWERS} == IPC_TOTALS
    assert {p["id"]: p["start_ipc"] for p in m["powers"]} == IPC_TOTALS


def test_russia_original_territories() -> None:
    terr = load("map")["territories"]
    russian = {tid: t["ipc"] for tid, t in terr.items() if t["owner"] == "russia"}
    assert russian == RUSSIA
    assert sum(russian.values()) == 25


def test_moscow_neighbours() -> None:
    moscow = load("map")["territories"]["moscow"]
    assert moscow["adjacent"] == ["belarus", "karelia", "livonia", "tatarstan", "ukraine"]


def test_one_capital_per_power_owned_by_it() -> None:
    m = load("map")
    capitals = {tid: t for tid, t in m["territories"].items() if t.get("capital")}
    assert len(capitals) == len(POWERS)
    for p in m["powers"]:
        owned = [tid for tid, t in capitals.items() if t["owner"] == p["id"]]
        assert owned == [p["capital"]], p["id"]
        assert capitals[p["capital"]].get("victory_city") is True


def test_sources_9_1_9_2_victory_pairs_name_capitals() -> None:
    m = load("map")
    side = {p["capital"]: p["side"] for p in m["powers"]}
    for winner, pairs in m["victory"].items():
        for pair in pairs:
            assert all(side[c] != winner for c in pair), pair  # enemy capitals only
    assert {t for pair in m["victory"]["allies"] for t in pair} == {
        "berlin", "vienna", "constantinople"}


def test_sources_4_8_mobilization_places() -> None:
    # research: land units and fighters are mobilized in the capital, Britain's also in India
    terr = load("map")["territories"]
    land = {tid for tid, t in terr.items() if "land" in t.get("mobilize", [])}
    assert land == {p["capital"] for p in load("map")["powers"]} | {"india"}
    factories = {tid for tid, t in terr.items() if t.get("factory")}
    assert len(factories) == 16  # the XML's originalFactory
    for tid in factories:
        if "sea" in terr[tid]["mobilize"]:
            assert any(a.startswith("sz") for a in terr[tid]["adjacent"]), tid


def test_sources_5_2_neutrals_and_impassable() -> None:
    terr = load("map")["territories"]
    alignment = Counter(t["neutral"] for t in terr.values() if t["owner"] == "neutral")
    assert alignment == {"true_neutral": 12, "allied": 9, "central": 1}  # the CSV's owners
    joins = {tid: t["joins"] for tid, t in terr.items() if "joins" in t}
    assert {k: v for k, v in joins.items() if k in {
        "portugal", "belgium", "albania", "serbia", "romania", "bulgaria", "arabia"}} == {
        "portugal": "france", "belgium": "france", "albania": "italy", "serbia": "russia",
        "romania": "russia", "bulgaria": "ottomans", "arabia": "britain"}
    assert terr["bulgaria"]["neutral"] == "central"
    assert {tid for tid, t in terr.items() if t.get("impassable")} == {"himalayas", "sahara"}


def test_sources_6_7_mined_sea_zones() -> None:
    zones = load("map")["sea_zones"]
    mined = {sid: z["mines_owner"] for sid, z in zones.items() if z.get("mined")}
    assert len(mined) == 13  # research: 13 sea zones start mined
    assert sorted(s for s, owner in mined.items() if owner == "russia") == [
        "sz06", "sz12", "sz21"]


def test_sources_0_unit_values() -> None:
    types = load("units")["unit_types"]
    table = {k: (v["cost"], v["attack"], v["defence"], v["move"], v["hits"], v["domain"])
             for k, v in types.items()}
    assert table == {  # research/aa1914.md; tank hits and fighter domain per the rulebook
        "infantry": (3, 2, 3, 1, 1, "land"),
        "artillery": (4, 3, 3, 1, 1, "land"),
        "tank": (6, 2, 1, 1, 1, "land"),
        "fighter": (6, 2, 2, 2, 1, "air"),
        "submarine": (6, 2, 2, 2, 1, "sea"),
        "cruiser": (9, 3, 3, 3, 1, "sea"),
        "battleship": (12, 4, 4, 2, 2, "sea"),
        "transport": (6, 0, 0, 2, 1, "sea"),
    }
    assert types["transport"]["capacity"] == 2
    assert types["tank"]["available_from_round"] == 4
    assert [k for k, v in types.items() if "capacity" in v] == ["transport"]
    assert {k for k, v in types.items() if v["domain"] != "sea"} == LAND_TYPES
    assert {k for k, v in types.items() if v["domain"] == "sea"} == SEA_TYPES


def test_start_units_stand_where_they_can() -> None:
    m = load("map")
    terr, zones = m["territories"], m["sea_zones"]
    totals: Counter[str] = Counter()
    for where, owners in load("units")["start"].items():
        assert where in terr or where in zones, where
        for owner, units in owners.items():
            totals.update(units)
            if where in zones:
                assert set(units) <= SEA_TYPES, (where, owner)
                assert owner in POWERS, where
            else:
                assert set(units) <= LAND_TYPES, (where, owner)
                assert not terr[where].get("impassable"), where
                assert terr[where]["owner"] == owner, (where, owner)  # each in its own land
    assert dict(totals) == START_TOTALS


def test_every_power_starts_with_units() -> None:
    owners = {o for by_owner in load("units")["start"].values() for o in by_owner}
    assert owners == {*POWERS, "neutral"}


def _territory(data: dict[str, Any]) -> dict[str, Any]:
    t: dict[str, Any] = data["territories"]["alsace"]
    return t


@pytest.mark.parametrize("name, change, expected", [
    ("map", lambda d: _territory(d).update(ipcs=3), "Additional properties"),
    ("map", lambda d: _territory(d).update(owner="germnay"), "germnay"),
    ("map", lambda d: _territory(d).update(neutral="allied"), "should not be valid"),
    ("map", lambda d: d["territories"]["belgium"].pop("neutral"), "'neutral' is a required"),
    ("map", lambda d: d["sea_zones"]["sz06"].pop("mines_owner"), "'mines_owner' is a dependency"),
    ("map", lambda d: d["sea_zones"].update(sz31=d["sea_zones"].pop("sz30"))
     or d["sea_zones"].update(SZ30={"name": "SZ 30", "adjacent": ["sz01"]}), "SZ30"),
    ("map", lambda d: d["powers"][0].update(side="axis"), "axis"),
    ("units", lambda d: d["unit_types"]["tank"].update(attak=2), "Additional properties"),
    ("units", lambda d: d["unit_types"]["tank"].update(domain="air "), "air "),
    ("units", lambda d: d["start"]["alsace"].update(germans={"infantry": 1}), "germans"),
    ("units", lambda d: d["start"]["alsace"]["germany"].update(infantery=1), "infantery"),
    ("units", lambda d: d["start"]["alsace"]["germany"].update(infantry=0), "minimum"),
])
def test_schema_refuses_a_typo(name: str, change: Any, expected: str) -> None:
    data = copy.deepcopy(load(name))
    change(data)
    found = errors(name, data)
    assert found, "the schema took the typo"
    assert any(expected in e for e in found), found
