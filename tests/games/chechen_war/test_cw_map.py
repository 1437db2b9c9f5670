"""The Chechen War's reconstructed hex map, games/chechen_war/map.yaml, against its schema, the
hexes and worked examples of the rulebook (../shared/rules/chechen-war-rules.txt) and the
reconstruction's own rulings (games/chechen_war/README.md).

Fast and in-process: the file is read with pbem's own loader and checked with jsonschema.
Every adjacency, hexside and zone of control is the hex kit's (pbem.kit.hexes), on the grid the
map itself declares; nothing here computes a neighbour by itself.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from functools import cache
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from pbem import yamlio
from pbem.kit.hexes import Grid, Hexside

GAME_DIR = Path(__file__).resolve().parents[3] / "games" / "chechen_war"
MAP = GAME_DIR / "map.yaml"

TERRAIN = {".": "clear", "r": "rough", "m": "mountain", "t": "town", "*": "city"}
REGIONS = {"c": "chechnya", "d": "dagestan", "i": "ingushetia", "o": "north_ossetia",
           "s": "stavropol", "g": "georgia"}
SETTLED = {"town", "city"}
HEX_ID = re.compile(r"[0-9]{4}")

# 14.2's example: (what the text says, Chechen hex, Russian hex); each pair must be adjacent
# (an ambush is against a hex in the ambusher's ZOC, 9.3; a support hex is adjacent, 14.1).
AMBUSH_14_2 = [
    ("1426 ambushes the 503rd in 1525", "1426", "1525"),
    ("1325 ambushes the two units in 1326", "1325", "1326"),
    ("1426 supports that ambush", "1426", "1326"),
    ("1226 ambushes the 33rd, retreated into 1227", "1226", "1227"),
    ("1126 supports that ambush", "1126", "1227"),
    ("1226 'supported the initial ambush' of 1326", "1226", "1326"),
]
RETREAT_14_2 = ("1326", "1227")  # "He chooses to retreat the 33rd ... into hex 1227": one hex


@cache
def load() -> dict[str, Any]:
    data: dict[str, Any] = yamlio.read_trusted(MAP)
    return data


@cache
def schema() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        (GAME_DIR / "schemas" / "map.schema.json").read_text(encoding="utf-8"))
    return data


def errors(data: Any) -> list[str]:
    return [e.message for e in Draft202012Validator(schema()).iter_errors(data)]


@cache
def grid() -> Grid:
    g = load()["grid"]
    return Grid(even_columns_shifted=g["even_columns_shifted"], columns=tuple(g["columns"]),
                rows=tuple(g["rows"]))


@cache
def hexes() -> dict[str, tuple[str, str]]:
    """Every hex of the map: id -> (terrain, region), read from the column strings."""
    m = load()
    first_row = m["grid"]["rows"][0]
    found = {}
    for column, terrain in m["terrain"].items():
        for k, (t, r) in enumerate(zip(terrain, m["regions"][column], strict=True)):
            found[f"{column}{first_row + k:02d}"] = (TERRAIN[t], REGIONS[r])
    return found


def terrain(hex_id: str) -> str:
    return hexes()[hex_id][0]


def region(hex_id: str) -> str:
    return hexes()[hex_id][1]


def river_sides() -> dict[Hexside, str]:
    """Every river hexside -> the reach it belongs to."""
    return {(a, b): reach for reach, river in load()["rivers"].items()
            for a, b in river["hexsides"]}


def road_steps() -> set[Hexside]:
    return {grid().hexside(a, b) for road in load()["roads"].values()
            for a, b in pairwise(road["hexes"])}


def share_a_corner(s: Hexside, t: Hexside) -> bool:
    """Whether two hexsides meet at a corner: they share one hex, and their two other hexes
    are adjacent (the three hexes meet at that corner)."""
    common = set(s) & set(t)
    if len(common) != 1:
        return False
    (a,) = set(s) - common
    (b,) = set(t) - common
    return grid().adjacent(a, b)


def all_hex_ids(m: dict[str, Any]) -> list[Any]:
    """Every hex id the file names outside the column strings."""
    ids: list[Any] = [*m["names"], *m["chechen_cities"]]
    ids += [h for river in m["rivers"].values() for side in river["hexsides"] for h in side]
    ids += [h for road in m["roads"].values() for h in road["hexes"]]
    ids += [h for side in m["bridges"] for h in side]
    return ids


# ---------------------------------------------------------------------------------------
# the file, its schema and its grid

def test_file_matches_its_schema() -> None:
    Draft202012Validator.check_schema(schema())
    assert errors(load()) == []


def test_a_registered_game_that_the_demo_does_not_play() -> None:
    # a folder with game.yaml and rules/ is a game pbem lists; `pbem demo` plays the one
    # game.yaml marks demo: true (Red Russia's examples/ hold orders for its seeded set-up)
    assert (GAME_DIR / "rules" / "__init__.py").exists()
    assert yamlio.read_trusted(GAME_DIR / "game.yaml")["demo"] is False


def test_header_says_reconstructed_and_how_to_override() -> None:
    head = MAP.read_text(encoding="utf-8").split("\n\ngrid:")[0]
    assert "RECONSTRUCTED" in head and "overrides:" in head
    assert "about 5 kilometers" in head and "11 km" in head  # the scale ruling


def test_the_grid_is_the_parity_14_2_needs() -> None:
    # the research's finding, checked on the map's own grid: every 14.2 adjacency holds with
    # the even columns shifted up, and three of them fail the other way round
    assert load()["grid"]["even_columns_shifted"] == "up"
    other = Grid(even_columns_shifted="down", columns=grid().columns, rows=grid().rows)
    pairs = [*((a, b) for _, a, b in AMBUSH_14_2), RETREAT_14_2]
    assert all(grid().adjacent(a, b) for a, b in pairs)
    assert sum(not other.adjacent(a, b) for a, b in pairs) == 3


def test_every_hex_has_one_terrain_and_one_region() -> None:
    m = load()
    (c0, c1), (r0, r1) = m["grid"]["columns"], m["grid"]["rows"]
    columns = [f"{c:02d}" for c in range(c0, c1 + 1)]
    assert list(m["terrain"]) == columns and list(m["regions"]) == columns
    for column in columns:
        assert len(m["terrain"][column]) == r1 - r0 + 1, f"terrain {column}"
        assert len(m["regions"][column]) == r1 - r0 + 1, f"regions {column}"
    assert len(hexes()) == (c1 - c0 + 1) * (r1 - r0 + 1)
    for hex_id in hexes():  # each a hex of the grid, and the grid has no other
        grid().offset(hex_id)
    assert m["legend"] == {"terrain": TERRAIN, "regions": REGIONS}


def test_every_hex_id_is_a_quoted_four_digit_string_on_the_map() -> None:
    ids = all_hex_ids(load())
    assert len(ids) > 100
    for hex_id in ids:
        assert isinstance(hex_id, str) and HEX_ID.fullmatch(hex_id), repr(hex_id)
        assert hex_id in hexes(), f"{hex_id} is off the map"
        grid().offset(hex_id)  # the kit agrees


def test_the_scale_ruling() -> None:
    assert load()["hex_km"] == 11  # fitted to the four set-up towns, against 2.9's 5 km


# ---------------------------------------------------------------------------------------
# the hexes the rules name

@pytest.mark.parametrize(("hex_id", "name", "where", "rule"), [
    ("0731", "Mozdok", "north_ossetia", "4.2.1, 4.3.1 Northern group"),
    ("1632", "Vladikavkaz", "north_ossetia", "4.2.1, 4.3.1 West group"),
    ("0617", "Pervomaiskoye", "dagestan", "4.2.1, 4.3.1 North-Eastern group, not in Chechnya"),
    ("1418", "Khasav-Yurt", "dagestan", "4.3.1 Eastern group, not in Chechnya"),
])
def test_set_up_towns_where_the_rules_put_them(hex_id: str, name: str, where: str,
                                                rule: str) -> None:
    assert load()["names"][hex_id] == name, rule
    assert terrain(hex_id) in SETTLED, rule  # 4.2.1 "the following towns and cities"
    assert region(hex_id) == where, rule


@pytest.mark.parametrize("hex_id", ["0617", "1418"])
def test_the_not_in_chechnya_bans_bite(hex_id: str) -> None:
    # 4.3.1: "On or adjacent to ... They cannot be placed in Chechnya territory": the town is
    # outside Chechnya, and a Chechen hex is next to it, or the ban would say nothing
    around = grid().within(hex_id, 1)
    assert region(hex_id) != "chechnya"
    assert any(region(h) == "chechnya" for h in around)
    assert sum(region(h) != "chechnya" for h in around) >= 3  # room for the group


def test_14_2_ambush_example() -> None:
    for what, chechen, russian in AMBUSH_14_2:
        assert grid().adjacent(chechen, russian), what
        assert russian in grid().zoc({chechen}), what  # 9.3: ambush into a Chechen ZOC
        assert region(chechen) == "chechnya", what  # 8.2: Chechen units stay in Chechnya
    assert grid().adjacent(*RETREAT_14_2)
    # 14.3 d): "Since the Chechen unit is in a clear hex, he subtracts one" (1426), "because
    # his unit is in a clear hex" (1325), "minus one because ... in a town hex" (1226)
    assert terrain("1426") == "clear"
    assert terrain("1325") == "clear"
    assert terrain("1226") == "town"
    assert region("1525") == "chechnya" and terrain("1525") == "city"  # Urus-Martan


def test_9_1_example_2_zocs_into_1129_and_1230() -> None:
    # the only hexes next to both 1129 and 1230 are 1229 and 1130: the two units stand there,
    # two hexes apart, and each projects a ZOC into both
    g = grid()
    assert set(g.neighbours("1129")) & set(g.neighbours("1230")) == {"1229", "1130"}
    for unit in ("1229", "1130"):
        assert {"1129", "1230"} <= g.zoc({unit})
    assert g.distance("1229", "1130") == 2


def test_9_1_example_1_zoc_across_a_river_hexside() -> None:
    # the 74th Mechanized Brigade (Northern group: on or adjacent to Mozdok, 4.3.1) "projects
    # a ZOC in all marked hexes (including those hexes on the opposite side of the river
    # hexside)": Mozdok lies on the Terek, and its ZOC reaches across it
    across = [b if a == "0731" else a for a, b in river_sides() if "0731" in (a, b)]
    assert across and all(river_sides()[grid().hexside("0731", h)] == "terek" for h in across)
    assert set(across) <= grid().zoc({"0731"})
    assert len(grid().zoc({"0731"})) == 6


def test_groznyi_is_one_city_hex() -> None:
    # 10.10 "the Groznyi city hex"; 3.1 and 6.2 ask whether Groznyi is occupied
    named = [h for h, name in load()["names"].items() if name == "Groznyi"]
    assert named == ["1324"] and terrain("1324") == "city" and region("1324") == "chechnya"


# ---------------------------------------------------------------------------------------
# the five cities, towns and regions

def test_the_five_chechen_cities() -> None:
    cities = load()["chechen_cities"]
    assert len(set(cities)) == 5 and "1324" in cities
    for hex_id in cities:
        assert region(hex_id) == "chechnya" and terrain(hex_id) == "city", hex_id
        assert hex_id in load()["names"], hex_id
    # 4.5 "Chechen city hexes": exactly these five
    assert {h for h, (t, r) in hexes().items() if t == "city" and r == "chechnya"} == set(cities)
    assert [load()["names"][h] for h in cities] == [
        "Groznyi", "Gudermes", "Argun", "Shali", "Urus-Martan"]  # RECONSTRUCTED (README.md)


def test_names_only_on_towns_and_cities_and_every_city_named() -> None:
    names = load()["names"]
    for hex_id, name in names.items():
        assert terrain(hex_id) in SETTLED, f"{hex_id} {name} is {terrain(hex_id)}"
    assert len(set(names.values())) == len(names)
    assert all(h in names for h, (t, _) in hexes().items() if t == "city")


def test_room_for_the_historical_set_up() -> None:
    # 4.3.2: eight Chechen regulars "in any city or town hex within Chechnya": eight such
    # hexes, whatever the stacking limit of the (unknown) TEC
    settled = [h for h, (t, r) in hexes().items() if t in SETTLED and r == "chechnya"]
    assert len(settled) >= 8


@pytest.mark.parametrize("where", ["dagestan", "ingushetia"])
def test_towns_to_raid(where: str) -> None:
    # 6.3 and 8.2: militia raid towns in Dagestan and Ingushetia, which touch Chechnya
    assert any(t == "town" and r == where for t, r in hexes().values())
    assert any(region(n) == "chechnya" for h, (_, r) in hexes().items() if r == where
               for n in grid().neighbours(h))


@pytest.mark.parametrize("where", sorted(REGIONS.values()))
def test_each_region_is_in_one_piece(where: str) -> None:
    members = {h for h, (_, r) in hexes().items() if r == where}
    assert members
    start = min(members)
    seen, todo = {start}, [start]
    while todo:
        for n in grid().neighbours(todo.pop()):
            if n in members and n not in seen:
                seen.add(n)
                todo.append(n)
    assert seen == members, sorted(members - seen)


@pytest.mark.parametrize("where", sorted(set(REGIONS.values()) - {"chechnya"}))
def test_chechnya_borders_each_neighbour(where: str) -> None:
    # 10.1's example has Chechen units next to a Russian unit in Stavropol; 4.2.1 speaks of
    # Georgian territory; the real republic touches all five
    assert any(region(n) == where for h, (_, r) in hexes().items() if r == "chechnya"
               for n in grid().neighbours(h))


# ---------------------------------------------------------------------------------------
# rivers, roads, bridges

@pytest.mark.parametrize("reach", ["terek_upper", "terek", "sunzha", "argun"])
def test_a_river_is_a_chain_of_hexsides(reach: str) -> None:
    sides = load()["rivers"][reach]["hexsides"]
    for a, b in sides:
        assert grid().adjacent(a, b), (a, b)
        assert (a, b) == grid().hexside(a, b), f"{a}-{b}: lower id first"
    for s, t in pairwise(sides):
        assert share_a_corner(tuple(s), tuple(t)), (s, t)


def test_no_hexside_is_in_two_rivers() -> None:
    every = [tuple(s) for river in load()["rivers"].values() for s in river["hexsides"]]
    assert len(every) == len(set(every))


def test_the_rivers_meet_where_they_join() -> None:
    rivers = load()["rivers"]

    def joins(tributary: str, main: str) -> bool:
        mouth = tuple(rivers[tributary]["hexsides"][-1])
        return any(share_a_corner(mouth, tuple(s)) for s in rivers[main]["hexsides"])

    assert joins("sunzha", "terek")  # by Braguny
    assert joins("argun", "sunzha")  # at Argun


def test_a_road_is_a_path_of_adjacent_hexes() -> None:
    for name, road in load()["roads"].items():
        for a, b in pairwise(road["hexes"]):
            assert grid().adjacent(a, b), f"{name}: {a}-{b}"


def test_the_set_up_towns_and_cities_are_on_roads() -> None:
    on_roads = {h for road in load()["roads"].values() for h in road["hexes"]}
    assert {"0731", "1632", "0617", "1418", *load()["chechen_cities"]} <= on_roads


def test_bridges_are_exactly_the_roads_crossing_rivers() -> None:
    # 8.7: "A river hexside that is crossed by a road line is called a bridged hexside"
    bridges = [tuple(b) for b in load()["bridges"]]
    for a, b in bridges:
        assert (a, b) == grid().hexside(a, b), f"{a}-{b}: lower id first"
    assert set(bridges) == road_steps() & set(river_sides())
    assert all(b in river_sides() and b in road_steps() for b in bridges)
    assert ("1323", "1324") in bridges  # the M29 over the Argun between Groznyi and Argun


# ---------------------------------------------------------------------------------------
# what the schema refuses

def _first_terek_side(d: dict[str, Any]) -> list[Any]:
    side: list[Any] = d["rivers"]["terek"]["hexsides"][0]
    return side


@pytest.mark.parametrize(("change", "expected"), [
    # an unquoted 0731 is the octal number 473 once YAML has read it
    (lambda d: d["names"].update({473: d["names"].pop("0731")}), "473 is not of type 'string'"),
    (lambda d: d["chechen_cities"].__setitem__(0, 1324), "1324 is not of type 'string'"),
    (lambda d: _first_terek_side(d).__setitem__(0, 476), "476 is not of type 'string'"),
    (lambda d: d["roads"]["m29"]["hexes"].__setitem__(0, 1334), "1334 is not of type 'string'"),
    (lambda d: d["bridges"].__setitem__(0, [462, "0817"]), "462 is not of type 'string'"),
    (lambda d: d["names"].update({"731": d["names"].pop("0731")}), "'731' does not match"),
    (lambda d: d["terrain"].update({7: d["terrain"].pop("07")}), "7 is not of type 'string'"),
    # an unknown terrain or region (the text has no forest; Kabardino-Balkaria is not a region)
    (lambda d: d["terrain"].update({"07": "f" + d["terrain"]["07"][1:]}), "does not match"),
    (lambda d: d["legend"]["terrain"].update({"f": "forest"}), "was expected"),
    (lambda d: d["regions"].update({"07": "k" + d["regions"]["07"][1:]}), "does not match"),
    (lambda d: d["grid"].update(even_columns_shifted="left"), "'left' is not one of"),
    (lambda d: d.update(forest={"1226": True}), "Additional properties"),
    (lambda d: d["rivers"]["terek"].pop("name"), "'name' is a required property"),
    (lambda d: d["chechen_cities"].pop(), "is too short"),
])
def test_schema_refuses(change: Callable[[dict[str, Any]], object], expected: str) -> None:
    data = copy.deepcopy(load())
    change(data)
    found = errors(data)
    assert found, "the schema took it"
    assert any(expected in e for e in found), found


def test_schema_refuses_an_unquoted_hex_id_in_the_file() -> None:
    # what a moderator's typo does: `0731: Mozdok` instead of `"0731": Mozdok`
    text = MAP.read_text(encoding="utf-8")
    assert text.count('"0731": Mozdok') == 1
    data = yamlio.load_trusted(text.replace('"0731": Mozdok', "0731: Mozdok"))
    assert 473 in data["names"]
    assert any("473 is not of type 'string'" in e for e in errors(data))
