"""The Chechen War's counters and tables, games/chechen_war/units.yaml and tables.yaml, against
their schemas, the numbers the rulebook prints (../shared/rules/chechen-war-rules.txt: 2.0-2.8,
4.2-4.3, 6, 8.8, 10.9-10.11, 11, 12-15) and its worked examples (10.7, 10.8, 10.10, 10.11,
14.2).

Fast and in-process: the files are read with pbem's own loader and checked with jsonschema;
odds and die tables are read with the rules kit (pbem.kit.odds, pbem.kit.tables), as the
referee will read them. Most values in the files are RECONSTRUCTED (their headers say so);
what is tested here is what the text fixes, and that the reconstruction agrees with it.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import game_files
import pytest
import yaml
from jsonschema import Draft202012Validator

from pbem import yamlio
from pbem.kit.odds import Shift, lookup, resolve, rounded
from pbem.kit.tables import Modifier, halve_up, read, rows

GAME_DIR = Path(__file__).resolve().parents[3] / "games" / "chechen_war"

TERRAINS = {"clear", "rough", "mountain", "town", "city"}
RESULTS = ["AE", "Ax", "-", "Ex", "DE"]  # worst to best for the attacker
AMBUSH_RESULTS = ["none", "retreat", "lose_1_step", "lose_2_steps"]  # worst to best for the Chechen

# 4.3.1, as printed (but "693th", printed so, is the 693rd): the regulars of each group, and
# how many MVD regiments go with them.
GROUPS_4_3_1 = {
    "north": {"131st Mech Brigade", "74th Mech Brigade", "81st Mech Regt", "276th Mech Regt"},
    "north_east": {"255th Mot. Rifle Regt", "33rd Mot. Rifle Regt", "68th Recon Battalion"},
    "west": {"693rd Mot. Rifle Regt", "503rd Mot. Rifle Regt", "76th Airborne Regt"},
    "east": {"129th Mot. Rifle Regt", "106th Airborne Regt", "98th Airborne Regt"},
    "general_reserve": {"245th Mot. Rifle Regt", "324th Rifle Regt"},
}
MVD_4_3_1 = {"north": 4, "north_east": 3, "west": 2, "east": 0, "general_reserve": 0}
TOWNS_4_3_1 = {"north": ("0731", "Mozdok"), "north_east": ("0617", "Pervomaiskoye"),
               "west": ("1632", "Vladikavkaz"), "east": ("1418", "Khasav-Yurt")}


def load(name: str) -> Any:
    return game_files.load('chechen_war', name)


def schema(name: str) -> dict[str, Any]:
    return game_files.schema('chechen_war', name)


def errors(name: str, data: Any) -> list[str]:
    return game_files.errors('chechen_war', name, data)


def units(**where: Any) -> dict[str, dict[str, Any]]:
    """The units whose fields have the given values (a missing field matches None)."""
    every: dict[str, dict[str, Any]] = load("units")["units"]
    return {uid: u for uid, u in every.items()
            if all(u.get(k) == v for k, v in where.items())}


def tables() -> dict[str, Any]:
    data: dict[str, Any] = load("tables")
    return data


def marker(mid: str) -> dict[str, Any]:
    found: dict[str, Any] = load("units")["support_markers"][mid]
    return found


# --- the files ----------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["units", "tables"])
def test_file_loads_and_matches_its_schema(name: str) -> None:
    Draft202012Validator.check_schema(schema(name))
    data = load(name)
    assert isinstance(data, dict)
    assert errors(name, data) == []


def _mappings(node: yaml.Node, path: str) -> Iterator[tuple[str, list[str]]]:
    if isinstance(node, yaml.MappingNode):
        keys = [str(k.value) for k, _ in node.value]
        yield path, keys
        for k, v in node.value:
            yield from _mappings(v, f"{path}.{k.value}")
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            yield from _mappings(item, f"{path}[{i}]")


@pytest.mark.parametrize("name", ["units", "tables"])
def test_no_key_is_given_twice(name: str) -> None:
    # YAML keeps the last of two equal keys without a word: a unit written twice would vanish
    text = (GAME_DIR / f"{name}.yaml").read_text(encoding="utf-8")
    node = yaml.compose(text, Loader=yaml.SafeLoader)
    assert node is not None
    for path, keys in _mappings(node, name):
        twice = [k for k, n in Counter(keys).items() if n > 1]
        assert not twice, f"{path}: {twice}"


def test_every_id_is_unique_and_snake_case() -> None:
    data = load("units")
    ids = [*data["units"], *data["leaders"], *data["support_markers"], *data["markers"]]
    assert len(ids) == len(set(ids))
    assert all(isinstance(i, str) and i.replace("_", "").isalnum() and i == i.lower()
               and i[0].isalpha() for i in ids), ids
    for uid, u in data["units"].items():  # the prefix says the side
        assert uid.startswith({"russian": "ru_", "chechen": "ch_"}[u["side"]]), uid
    assert all(lid.startswith("ch_") for lid in data["leaders"])


# --- the counter sheet and 4.2's counts ---------------------------------------------------------

def test_the_counter_sheet_of_2_0_and_2_1() -> None:
    data = load("units")
    sheet = data["counter_sheet"]
    assert sheet["other_games"] == {"green_beret": 8, "kandahar": 4,
                                    "red_dragon_green_crescent": 17, "dien_bien_phu_errata": 3}
    assert sheet["total"] == 176 == sheet["this_game"] + sum(sheet["other_games"].values())
    counted = (len(data["units"]) + len(data["leaders"])
               + sum(m["count"] for m in data["support_markers"].values())
               + sum(data["markers"].values()))
    assert counted == sheet["this_game"] == 144
    # 2.1 "144 counters, most of them representing combat units"
    assert len(data["units"]) > 144 // 2


def test_russian_counts_of_4_2_1() -> None:
    setup = load("units")["setup"]["russian"]
    regulars = units(side="russian", nationality="regular_army", arrival="at_start")
    mvd = units(side="russian", nationality="police_mvd", arrival="at_start")
    pool = units(side="russian", arrival="reinforcement")
    assert len(regulars) == setup["at_start_regulars"] == 15
    assert len(mvd) == setup["at_start_mvd"] == 9 == sum(MVD_4_3_1.values())
    assert len(pool) == setup["reinforcement_pool"] == 21
    assert len(units(side="russian")) == 15 + 9 + 21
    # "remaining Russian regular, Pro-Russian Chechen, and MVD/VT units": all three classes
    classes = Counter(u["nationality"] for u in pool.values())
    assert set(classes) == {"regular_army", "police_mvd", "pro_russian_chechen"}
    assert any(u.get("label") == "VT" for u in pool.values())
    assert all(u["type"] == "police" for u in mvd.values())


def test_the_r_and_the_pro_russian_chechen_arrival_of_4_1() -> None:
    for uid, u in units(side="russian").items():
        pro = u["nationality"] == "pro_russian_chechen"
        # 2.5: the R marks reinforcements; 4.1: the pro-Russian Chechen forces have none
        assert u["printed_r"] is (u["arrival"] == "reinforcement" and not pro), uid
        # 4.1 "All Pro-Russian Chechen forces appear on turn two or later"
        assert u.get("earliest_turn") == (2 if pro else None), uid
        if pro:
            assert u["arrival"] == "reinforcement", uid


def test_chechen_counts_of_4_2_2() -> None:
    setup = load("units")["setup"]["chechen"]
    regulars = units(side="chechen", nationality="chechen_regular")
    militia = units(side="chechen", nationality="chechen_militia")
    assert len(regulars) == setup["regulars"] == 16
    assert len(militia) == setup["militia"] == 16 == setup["militia_drawn"]
    assert setup["regulars_drawn"] == 8 < len(regulars)  # the other eight stay in the cup
    assert len(units(side="chechen")) == 32
    assert {u["type"] for u in militia.values()} == {"militia"}
    assert "militia" not in {u["type"] for u in regulars.values()}
    assert all(u["steps"] == 1 for u in units(side="chechen").values())  # 2.8
    assert setup["historical_regulars_in"] == ["town", "city"]  # 4.3.2


def test_steps_of_2_8() -> None:
    russian = units(side="russian")
    two = {uid: u for uid, u in russian.items() if u["steps"] == 2}
    assert two, "2.8: some Russian units have a reduced side"
    assert len(two) < len(russian) - len(two), "2.8: most Russian units are one-step"
    for uid, u in two.items():
        assert u["reduced"]["cf"] < u["cf"] and u["reduced"]["mf"] <= u["mf"], uid
    for uid, u in load("units")["units"].items():
        assert ("reduced" in u) is (u["steps"] == 2), uid


def test_heliborne_units_of_8_8() -> None:
    # "heliborne capable units (i.e., special ops, naval infantry and parachute infantry)"
    for uid, u in load("units")["units"].items():
        expected = u["side"] == "russian" and u["type"] in {"special_ops", "naval_infantry",
                                                             "parachute"}
        assert u["heliborne"] is expected, uid
    assert load("tables")["movement"]["helicopter_units_per_turn"] == 4


def test_types_sizes_and_abbreviations_of_2_4_to_2_7() -> None:
    every = load("units")["units"].values()
    assert {u["type"] for u in every} == {"mechanized", "recon", "parachute", "special_ops",
                                          "naval_infantry", "police", "infantry", "militia"}
    assert {u["size"] for u in every if "size" in u} == {"X", "III", "[III]", "II"}
    labels = {u["label"] for u in every if "label" in u}
    assert labels == {"BF", "BSF", "CPF", "CSF", "Indep", "MVD", "VT"}
    naval = {u["label"] for u in every if u["type"] == "naval_infantry"}
    assert naval == {"BF", "BSF", "CPF", "CSF"}  # one naval infantry unit per fleet
    assert [m["label"] for m in load("units")["support_markers"].values()
            if "label" in m] == ["TOS"]


def test_the_units_of_the_text_examples_are_what_they_say() -> None:
    # 10.1 "the 68th Russian Armored Cavalry unit"; 14.2 "503rd Mechanized Regiment",
    # "33rd Mechanized Regiment", "276th Mechanized Regiment"
    every = load("units")["units"]
    assert every["ru_68_recon_bn"]["type"] == "recon"
    for uid in ["ru_503_mr_regt", "ru_33_mr_regt", "ru_276_mech_regt"]:
        assert every[uid]["type"] == "mechanized", uid
    # 14.2: the 33rd "must lose one step" and survives in the example's telling
    assert every["ru_33_mr_regt"]["steps"] >= 1


# --- 4.3.1's historical set-up --------------------------------------------------------------------

def test_historical_groups_of_4_3_1() -> None:
    groups = load("units")["setup"]["groups"]
    assert set(groups) == set(GROUPS_4_3_1)
    for uid, u in units(side="russian").items():
        if "group" in u:
            assert u["group"] in groups, uid
    for gid, names in GROUPS_4_3_1.items():
        regulars = {u["name"] for u in units(group=gid, nationality="regular_army").values()}
        assert regulars == names, gid
        assert len(units(group=gid, nationality="police_mvd")) == MVD_4_3_1[gid], gid
        assert not units(group=gid, nationality="pro_russian_chechen"), gid
    # every at-start unit is in a group, no reinforcement is
    for uid, u in units(side="russian").items():
        assert ("group" in u) is (u["arrival"] == "at_start"), uid


def test_where_the_groups_stand() -> None:
    groups = load("units")["setup"]["groups"]
    for gid, (hex_id, town) in TOWNS_4_3_1.items():
        assert (groups[gid]["hex"], groups[gid]["town"], groups[gid]["place"]) == (
            hex_id, town, "on_or_adjacent"), gid
    # "They cannot be placed in Chechnya territory" (North-East, East); the reserve "Anywhere
    # in Russia outside Chechnya"
    assert {g for g, v in groups.items() if "chechnya" in v["not_in"]} == {
        "north_east", "east", "general_reserve"}
    assert groups["general_reserve"]["place"] == "anywhere"
    variable = load("units")["setup"]["russian"]["variable"]
    assert variable["regulars_on_or_adjacent"] == ["1632", "0731", "0617"]  # 4.2.1
    assert variable["mvd_not_in"] == ["chechnya", "georgia"]


def test_a_group_fits_on_and_around_its_town() -> None:
    # a town and its six neighbours hold a group even where the stacking limit is lowest
    lowest = min(t["stacking"] for t in tables()["terrain"].values())
    largest = max(Counter(u["group"] for u in units(side="russian").values()
                          if "group" in u).values())
    assert largest == 8  # North: four regulars and four MVD regiments
    assert 7 * lowest >= largest


# --- leaders and markers ----------------------------------------------------------------------------

def test_six_leaders_of_11() -> None:
    leaders = load("units")["leaders"]
    assert len(leaders) == load("units")["setup"]["chechen"]["leaders"] == 6  # 11.2
    named = sorted(v["name"] for v in leaders.values() if v["named_in_text"])
    assert len(named) == 2 and "Dudayev" in named[0] and "Basayev" in named[1]  # 11.0
    t = tables()
    for lid, v in leaders.items():
        assert v["combat_shifts"] == t["combat_shifts"]["per_leader"] == 1, lid  # 10.9
        assert v["ambush_drm"] == t["ambush"]["modifiers"]["leader"] == 1, lid  # 14.3 b
    assert t["leaders"] == {"per_combat": 2, "per_ambush": 1, "eliminated_on": [5, 6]}


def test_support_markers_of_2_6_and_10_9() -> None:
    data = load("units")
    markers = data["support_markers"]
    russian = {mid: m for mid, m in markers.items() if m["side"] == "russian"}
    assert sum(m["count"] for m in russian.values()) == data["setup"]["russian"][
        "support_markers"] == 12
    kinds = Counter({m["kind"]: m["count"] for m in russian.values()})
    assert set(kinds) == {"artillery", "tos1", "armor", "airstrike", "gunship"}
    assert len(russian) == len(kinds)  # one entry per kind
    assert kinds["gunship"] == 2  # 14.2 "either or both gunship support markers"
    assert kinds["tos1"] == 1     # 10.9 "the TOS-1 support marker"
    tos = marker("ru_tos1")
    assert tos["use"] == ["attack"] and set(tos["defender_terrain"]) == {"town", "city"}
    assert tos["collateral_die"] == {"rolls": [1], "points": 2}
    armor = marker("ru_armor")
    assert armor["use"] == ["defence"] and armor["defender_terrain"] == ["clear"]
    assert [mid for mid, m in markers.items() if m.get("ambush_threat")] == ["ru_gunship"]
    chechen = {mid: m for mid, m in markers.items() if m["side"] == "chechen"}
    assert [(m["kind"], m["count"]) for m in chechen.values()] == [("artillery", 2)]
    assert data["setup"]["chechen"]["support_markers"] == 2
    assert marker("ch_artillery")["only_in_chechnya"] is True
    assert marker("ch_artillery")["lost_on"] == [6]


def test_other_markers_of_2_6() -> None:
    markers = load("units")["markers"]
    singles = ["game_turn", "russian_morale", "russian_casualties", "collateral_damage",
               "kidnapped_civilians", "ceasefire", "helicopter_move"]
    assert all(markers[m] == 1 for m in singles)
    assert markers["chechen_control"] >= 5 and markers["russian_control"] >= 5  # 5 cities


# --- the Terrain Effects Chart and stacking ---------------------------------------------------------

def test_terrain_effects_chart() -> None:
    t = tables()
    tec = t["terrain"]
    assert set(tec) == TERRAINS
    assert tec["clear"]["mf"] == 1 and tec["clear"]["defender_shifts"] == 0
    assert tec["clear"]["mf"] < tec["rough"]["mf"] < tec["mountain"]["mf"]
    assert tec["city"]["defender_shifts"] == 2  # 10.10 "the normal two shifts"
    assert t["hexsides"]["river"]["mf"] > 0  # 8.4
    assert t["hexsides"]["river"]["defender_shifts"] >= 1  # 10.10 note
    assert t["hexsides"]["bridge"]["negates_river_mf"] is True  # 8.7
    assert t["hexsides"]["border"] == {"mf": 0, "defender_shifts": 0}  # 2.9
    assert t["road"]["mf"] == 1  # 8.6
    assert t["movement"]["minimum_hexes"] == 1  # 8.3


def test_the_terrain_chart_names_the_maps_terrains() -> None:
    path = GAME_DIR / "map.yaml"
    if not path.exists():
        pytest.skip("map.yaml is not written yet")
    legend = yamlio.read_trusted(path)["legend"]["terrain"]
    assert set(legend.values()) == set(tables()["terrain"])


def test_stacking_of_7() -> None:
    t = tables()
    assert t["stacking"]["free"] == ["leaders", "markers"]  # 7.2
    assert t["stacking"]["excess"] == "eliminated_to_pool"  # 7.1
    # 14.2: two Russian units stand in 1326, on the plain
    assert t["terrain"]["clear"]["stacking"] >= 2


# --- the CRT and the combat examples ------------------------------------------------------------------

def test_the_crt_has_a_result_for_every_column_and_die() -> None:
    crt = tables()["crt"]
    assert list(crt["results"]) == crt["columns"]
    for column in crt["columns"]:
        for die in range(1, 7):
            assert lookup(crt["results"], column, die) in RESULTS, (column, die)
    resolve(1, 1, crt["columns"])  # the kit takes the columns: rising, "A:D" strings
    seen = {r for results in crt["results"].values() for r in results}
    assert seen == set(RESULTS)  # every result of 10.11 can happen


def test_the_crt_never_gets_worse_for_the_attacker_with_better_odds_or_die() -> None:
    # a property of the reconstruction, on the Modern War pattern
    crt = tables()["crt"]
    rank = {r: i for i, r in enumerate(RESULTS)}
    grid = [[rank[r] for r in crt["results"][c]] for c in crt["columns"]]
    for column in grid:
        assert column == sorted(column)
    for left, right in zip(grid, grid[1:], strict=False):
        assert all(a <= b for a, b in zip(left, right, strict=True))


def test_10_7_example_three_and_four_against_one_and_one_is_three_to_one() -> None:
    # "two Russian units with combat factors of 3 and 4 attack two Chechen units with combat
    # factors of 1 and 1, the odds are 7:2 or 3.5:1, which rounds down to 3:1"
    assert units(side="russian", cf=3) and units(side="russian", cf=4)
    assert len(units(side="chechen", cf=1)) >= 2
    columns = tables()["crt"]["columns"]
    assert rounded(3 + 4, 1 + 1) == "3:1"
    odds = resolve(3 + 4, 1 + 1, columns)
    assert (odds.base, odds.column) == ("3:1", "3:1")


def test_10_8_equal_shifts_cancel() -> None:
    t = tables()
    columns = t["crt"]["columns"]
    town = Shift("left", t["terrain"]["town"]["defender_shifts"], "defender in a town")
    artillery = Shift("right", marker("ru_artillery")["shifts"], "Russian artillery")
    assert town.count == artillery.count  # one each: the example's case
    odds = resolve(7, 2, columns, [town, artillery])
    assert (odds.net, odds.column) == (0, "3:1")
    # unequal: the difference goes to the side with more (a city's two against one)
    city = Shift("left", t["terrain"]["city"]["defender_shifts"], "defender in a city")
    assert resolve(7, 2, columns, [city, artillery]).column == "2:1"
    # two leaders against two Russian markers cancel too (10.9: two each at most)
    leaders = Shift("left", 2 * t["combat_shifts"]["per_leader"], "two leaders")
    two = Shift("right", 2 * marker("ru_artillery")["shifts"], "two artillery markers")
    assert resolve(7, 2, columns, [leaders, two]).column == "3:1"


def test_10_10_the_first_russian_attack_on_groznyi() -> None:
    t = tables()
    columns = t["crt"]["columns"]
    first = t["combat_shifts"]["groznyi_first_russian_attack"]
    assert first == {"defender_shifts": 1, "russian_support_markers": False}  # 10.9, 10.10
    city = t["terrain"]["city"]["defender_shifts"]
    assert resolve(7, 2, columns, [Shift("left", first["defender_shifts"], "first")]
                   ).column == "2:1"
    assert resolve(7, 2, columns, [Shift("left", city, "Groznyi")]).column == "1:1"


def attacker_losses(result: str, defender_steps: int) -> int | str:
    """The steps the attacker loses for `result` by tables.yaml's effects (none/all/steps)."""
    effect = tables()["crt"]["effects"][result]["attacker"]
    if effect == "defender_steps":
        return defender_steps
    return str(effect)


def exchange(attacker: tuple[int, int], defender: tuple[int, int]) -> tuple[int, int]:
    """Steps lost by (attacker, defender) on an Ex, each side given as (total CF, steps), by
    tables.yaml's exchange rule (10.11)."""
    rule = tables()["crt"]["exchange"]
    assert (rule["weaker"], rule["stronger_loses"]) == ("lower_total_cf", "weaker_steps")
    if attacker[0] == defender[0]:
        weaker = rule["tie"]
    else:
        weaker = "attacker" if attacker[0] < defender[0] else "defender"
    if weaker == "both":
        return attacker[1], defender[1]
    if weaker == "attacker":
        return attacker[1], min(attacker[1], defender[1])
    return min(defender[1], attacker[1]), defender[1]


def test_10_11_ax_example_three_defending_steps_cost_the_attacker_three() -> None:
    # "If the defending units comprise a total of 3 steps, the attacker must lose 3 steps"
    assert attacker_losses("Ax", 3) == 3
    assert attacker_losses("AE", 3) == "all"
    assert attacker_losses("DE", 3) == attacker_losses("-", 3) == "none"
    effects = tables()["crt"]["effects"]
    assert effects["Ax"]["defender"] == "none"
    assert effects["DE"]["advance"] and effects["Ex"]["advance"]  # 10.11, 10.12
    assert not effects["AE"]["advance"] and not effects["Ax"]["advance"]


def test_10_11_ex_the_weaker_side_goes_and_equal_steps_go_both() -> None:
    # two mechanized regiments (CF 4 + 4, 4 steps) against a Chechen stack (CF 3 + 2, 2 steps):
    # the Chechen stack goes, the Russians lose two steps
    assert exchange((8, 4), (5, 2)) == (2, 2)
    # "where both sides are equal in steps, both sides are eliminated"
    assert exchange((4, 2), (3, 2)) == (2, 2)
    # the weaker attacker goes; the defender loses as many steps
    assert exchange((2, 1), (6, 2)) == (1, 1)
    # RULED: equal totals, the attacker counts as the weaker
    assert tables()["crt"]["exchange"]["tie"] == "attacker"
    assert exchange((4, 2), (4, 3)) == (2, 2)


# --- the ambush (14) ------------------------------------------------------------------------------

def ambush_mod(name: str, terrain: str | None = None) -> Modifier:
    mods = tables()["ambush"]["modifiers"]
    amount = mods["terrain"][terrain] if name == "terrain" and terrain else mods[name]
    return Modifier(amount, f"{name} {terrain or ''}".strip())


def test_14_2_the_ambush_example_chain() -> None:
    table = tables()["ambush"]["table"]
    # the gunship on the 276th forbids ambushing it (14.2)
    assert marker("ru_gunship")["ambush_threat"] is True
    # 1426 (clear) ambushes the 503rd: "a result of 3 ... subtracts one ... 2 which is a no effect"
    first = read(table, 3, [ambush_mod("terrain", "clear")])
    assert (first.total, first.result, first.clamped) == (2, "none", False)
    # 1325 (clear) with a leader, supported from 1426: "4 +1 -1 +1 = 5 achieving a Retreat"
    second = read(table, 4, [ambush_mod("terrain", "clear"), ambush_mod("leader"),
                             ambush_mod("support")])
    assert (second.total, second.result, second.clamped) == (5, "retreat", False)
    # "rolls a die with a result of 1 and halves the result ... remains a 1": one unit retreats
    assert tables()["ambush"]["retreat_units"] == "halve_die_up"
    assert halve_up(1) == 1
    # 1226 (a town) ambushes the 33rd in 1227, supported from 1126: "6 ... plus one ... minus
    # one ... Final result remains a 6. The Russian player must lose one step."
    third = read(table, 6, [ambush_mod("support"), ambush_mod("terrain", "town")])
    assert (third.total, third.result, third.clamped) == (6, "lose_1_step", False)


def test_the_ambush_table_keeps_14_2s_points_and_covers_every_modified_roll() -> None:
    ambush = tables()["ambush"]
    found = rows(ambush["table"])  # no gap, no overlap
    assert found
    mods = ambush["modifiers"]
    low = 1 + min(mods["terrain"].values())
    high = 6 + max(mods["terrain"].values()) + mods["leader"] + mods["support"]
    assert (low, high) == (0, 9)
    got = {total: read(ambush["table"], total).result for total in range(low, high + 1)}
    assert (got[2], got[5], got[6]) == ("none", "retreat", "lose_1_step")
    order = [AMBUSH_RESULTS.index(got[t]) for t in range(low, high + 1)]
    assert order == sorted(order)  # a higher roll never helps the Russian
    assert ambush["support_markers"] is False and ambush["support_hexes"] == 1


def test_ambush_modifiers_of_14_3() -> None:
    mods = tables()["ambush"]["modifiers"]
    assert mods["terrain"] == {"rough": 1, "mountain": 1, "clear": -1, "town": -1, "city": 0}
    assert (mods["leader"], mods["support"]) == (1, 1)


# --- morale, kidnapping, ceasefire (6, 15) --------------------------------------------------------

def test_russian_morale_of_6_1_and_6_2() -> None:
    morale = tables()["morale"]
    assert (morale["start"], morale["min"], morale["max"]) == (9, 0, 13)
    rows(morale["table"])
    casualties = morale["modifiers"]["casualties"]
    got = {level: read(casualties, level).result for level in range(0, 12)}
    assert got == {0: 0, 1: 0, 2: 0, 3: -1, 4: -1, 5: -1, 6: -1,
                   7: -2, 8: -2, 9: -2, 10: -2, 11: -2}
    assert morale["modifiers"]["per_leader_eliminated"] == 1
    assert morale["modifiers"]["groznyi_russian_occupied"] == 1
    # the table's results never fall as the modified roll rises
    results = [read(morale["table"], total).result for total in range(-2, 15)]
    assert results == sorted(results)


def test_raids_and_kidnapping_of_6_3() -> None:
    morale = tables()["morale"]
    assert morale["raid"] == -1 and morale["raid_regions"] == ["dagestan", "ingushetia"]
    kidnap = morale["kidnapping"]
    assert kidnap == {"per_game": 1, "levels": "halve_difference_up", "tie": "no_effect"}

    def shift(russian: int, chechen: int) -> int:  # + up, - down (6.3)
        levels = halve_up(abs(russian - chechen))
        return levels if russian > chechen else -levels

    assert (shift(5, 2), shift(1, 6), shift(4, 3), shift(3, 3)) == (2, -3, 1, 0)


def test_ceasefire_of_15() -> None:
    t = tables()
    ceasefire = t["ceasefire"]
    assert ceasefire["per_game"] == 1 and ceasefire["declared_by"] == "russian"
    assert ceasefire["skipped_segments"] == ["chechen_ambush", "russian_combat",
                                             "chechen_combat", "random_events"]
    assert ceasefire["may_enter_ezoc"] is False
    assert ceasefire["russian_morale"] == 3  # 6.2 Exception, 15.2
    assert t["random_events"]["skipped_on_ceasefire_turn"] is True  # 12.0
    chechen = t["reinforcements"]["chechen"]["modifiers"]
    assert [m["drm"] for m in chechen if m["id"] == "ceasefire"] == [2]  # 15.2


# --- random events and reinforcements (12, 13) -----------------------------------------------------

def test_random_events_of_12() -> None:
    table = tables()["random_events"]["table"]
    found = rows(table)
    assert (found[0][0], found[-1][1]) == (1, 6)  # one die, unmodified: every face, no more
    events = [read(table, die).result for die in range(1, 7)]
    infiltration = [e for e in events if e["event"] == "infiltration"]
    assert len(infiltration) == 1 and infiltration[0]["chechen_draws"] == 1  # 12.0 Important
    assert any(e.get("leaders_eliminated") for e in events)  # 11.4
    # the event a Russian reinforcement modifier names exists
    named = {e["event"] for e in events}
    for m in tables()["reinforcements"]["russian"]["modifiers"]:
        if "event" in m["when"]:
            assert m["id"] in named, m


@pytest.mark.parametrize("side", ["russian", "chechen"])
def test_reinforcement_tables_of_13(side: str) -> None:
    r = tables()["reinforcements"][side]
    rows(r["table"])
    counts = [read(r["table"], total).result for total in range(-3, 13)]
    assert counts == sorted(counts) and counts[-1] >= 1
    assert len({m["id"] for m in r["modifiers"]}) == len(r["modifiers"])


def test_the_chechen_table_reads_the_current_turn_by_2_9s_errata() -> None:
    mods = tables()["reinforcements"]["chechen"]["modifiers"]
    assert [m.get("turn") for m in mods[-2:]] == ["current", "current"]
    assert "previous" not in {m.get("turn") for m in mods}
    # 13.1 "The die roll modifier for Chechen leaders applies to the current turn only"
    assert [m["turn"] for m in mods if "leader" in m["id"]] == ["current"]
    # 10.13 "If collateral damage becomes too high, it facilitates Chechen recruiting"
    collateral = next(m for m in mods if m["id"] == "collateral_damage")
    drms = [read(collateral["bands"], level).result for level in range(0, 10)]
    assert drms[0] == 0 and drms == sorted(drms) and drms[-1] > 0
    assert tables()["collateral_damage"]["reset"] == "end_of_turn"  # RULED: 13.1 over 10.13


def test_where_reinforcements_arrive_of_13_2_and_13_3() -> None:
    r = tables()["reinforcements"]
    assert r["russian"]["regions"] == ["stavropol", "dagestan"]
    assert r["russian"]["pro_russian_chechen_also"] == "russian_occupied_city"
    assert r["russian"]["may_flip_instead"] is True
    assert r["chechen"]["regions"] == ["chechnya"]


# --- the schemas refuse typos -----------------------------------------------------------------------

def _unit(d: dict[str, Any], uid: str = "ru_131_mech_bde") -> dict[str, Any]:
    u: dict[str, Any] = d["units"][uid]
    return u


MUTANTS: list[tuple[str, Callable[[dict[str, Any]], Any], str]] = [
    ("units", lambda d: _unit(d).update(cf_=6), "Additional properties"),
    ("units", lambda d: _unit(d).update(side="rusian"), "rusian"),
    ("units", lambda d: _unit(d).update(type="mechanised"), "mechanised"),
    ("units", lambda d: _unit(d).update(size="XX"), "XX"),
    ("units", lambda d: _unit(d).update(cf="6"), "is not of type 'integer'"),
    ("units", lambda d: _unit(d).pop("reduced"), "'reduced' is a required property"),
    ("units", lambda d: _unit(d, "ru_68_recon_bn").update(reduced={"cf": 1, "mf": 8}),
     "should not be valid"),
    ("units", lambda d: _unit(d).pop("group"), "'group' is a required property"),
    ("units", lambda d: _unit(d, "ch_abkhaz_bn").update(steps=2, reduced={"cf": 1, "mf": 5}),
     "1 was expected"),
    ("units", lambda d: _unit(d, "ch_militia_01").update(size="II"), "should not be valid"),
    ("units", lambda d: _unit(d).update(label="Indep."), "Indep."),
    ("units", lambda d: d["leaders"]["ch_dudayev"].update(named=True), "Additional properties"),
    ("units", lambda d: d["support_markers"]["ru_tos1"].update(kind="tos"), "'tos'"),
    ("units", lambda d: d["support_markers"]["ru_armor"].update(use=["defense"]), "'defense'"),
    ("units", lambda d: d["setup"]["groups"]["north"].update(hex=731), "is not of type 'string'"),
    ("units", lambda d: d["markers"].pop("ceasefire"), "'ceasefire' is a required property"),
    ("tables", lambda d: d["terrain"]["town"].update(stack=4), "Additional properties"),
    ("tables", lambda d: d["terrain"].update(forest={"mf": 2, "defender_shifts": 1,
                                                     "stacking": 3}), "Additional properties"),
    ("tables", lambda d: d["crt"]["results"]["3:1"].__setitem__(2, "DR"), "'DR'"),
    ("tables", lambda d: d["crt"]["results"]["3:1"].pop(), "is too short"),
    ("tables", lambda d: d["crt"]["columns"].append(181), "is not of type 'string'"),
    ("tables", lambda d: d["ambush"]["table"].update({"4-5": "retreats"}), "'retreats'"),
    ("tables", lambda d: d["ambush"]["table"].update({"9 +": "lose_2_steps"}), "'9 +'"),
    ("tables", lambda d: d["morale"].update(max=14), "14 is greater than the maximum"),
    ("tables", lambda d: d["random_events"]["table"]["6"].update(draws=1),
     "Additional properties"),
    ("tables", lambda d: d["reinforcements"]["chechen"]["modifiers"][1].update(turn="previus"),
     "'previus'"),
    ("tables", lambda d: d["reinforcements"]["russian"]["modifiers"][0].pop("drm"),
     "is not valid under any of the given schemas"),
]


@pytest.mark.parametrize(("name", "change", "expected"), MUTANTS)
def test_schema_refuses_a_typo(name: str, change: Callable[[dict[str, Any]], Any],
                               expected: str) -> None:
    data = copy.deepcopy(load(name))
    change(data)
    found = errors(name, data)
    assert found, "the schema took the typo"
    assert any(expected in e for e in found), found
