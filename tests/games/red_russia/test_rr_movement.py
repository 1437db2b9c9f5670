"""Red Russia movement (movement.py) as rule tables: a position, orders, the expected paths
or error; then the exact outcome of each case - the path and message of a refusal, the events
of a move, the dice asked - and the bot's moves. Each test's name starts with the rule it
checks (rulebook: ../shared/rules/red-russia-rules.txt).
"""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from position import (
    GAME,
    FixedRng,
    OpenSecrets,
    SixSided,
    data,
    messages,
    orders,
    position,
    problems,
    resolve_exact,
)
from position import standing as standing_

movement = importlib.import_module("pbem_game_red_russia.movement")

Events = list[dict[str, Any]]
MOVE = ("orders", 0, "move")


def move(units: Any, to: str, **more: Any) -> dict[str, Any]:
    return {"move": {"units": units, "to": to, **more}}


def refused(state: dict[str, Any], *items: dict[str, Any]) -> list[tuple[tuple[Any, ...], str]]:
    return [(p.path, p.message) for p in problems(state, state["actor"], orders(*items))]


def run(state: dict[str, Any], body: dict[str, Any], dice: list[int]) -> tuple[Events, dict[str, Any], FixedRng]:
    return resolve_exact(state, body, dice)


def moved_paths(state: dict[str, Any], faction: str, body: dict[str, Any]) -> list[list[str]]:
    events = GAME.resolve(data(), state, {faction: body}, FixedRng(), OpenSecrets())
    return [e["path"] for e in events if e["type"] == "moved"]


# (name, pieces, control changes, faction, orders, expected: list of paths or an error fragment)
CASES: list[tuple[str, dict[str, str], dict[str, Any], str, list[dict[str, Any]], Any]] = [
    ("7.2 infantry enters two friendly zones",
     {"red-inf-01": "Moscow"}, {}, "red",
     [move(["red-inf-01"], "Petrograd")], [["Moscow", "Tver", "Petrograd"]]),
    ("7.2 infantry cannot enter three friendly zones",
     {"red-inf-01": "Moscow"}, {}, "red",
     [move(["red-inf-01"], "Vologda", via=["Tver", "Petrograd"])], "costs 1.5 movement points"),
    ("7.2 infantry enters one enemy zone for a whole point",
     {"red-inf-01": "Tsaritsyn"}, {}, "red",
     [move(["red-inf-01"], "Novocherkassk")], [["Tsaritsyn", "Novocherkassk"]]),
    ("7.2 infantry cannot go on after an enemy zone",
     {"red-inf-01": "Tsaritsyn"}, {}, "red",
     [move(["red-inf-01"], "Rostov", via=["Novocherkassk"])], "costs 2 movement points"),
    ("7.42 cavalry pays half a point even in enemy zones",
     {"red-cav-01": "Tsaritsyn"}, {}, "red",
     [move(["red-cav-01"], "Rostov", via=["Novocherkassk"])], [["Tsaritsyn", "Novocherkassk", "Rostov"]]),
    ("7.42 cavalry pays a whole point on a difficult route",
     {"red-cav-01": "Tsaritsyn"}, {}, "red",
     [move(["red-cav-01"], "Uralsk", via=["Astrakhan"])], "costs 2 movement points"),
    ("7.7 very difficult routes cost a whole point even for cavalry in friendly zones",
     {"red-cav-01": "Vyatka"}, {"Ekaterinburg": "red"}, "red",
     [move(["red-cav-01"], "Ekaterinburg", via=["Perm"])], "costs 1.5 movement points"),
    ("7.7 a very difficult route can be crossed with a whole point",
     {"red-inf-01": "Perm"}, {}, "red",
     [move(["red-inf-01"], "Ekaterinburg")], [["Perm", "Ekaterinburg"]]),
    ("10.3 a leader gives his units two movement points",
     {"red-inf-01": "Moscow", "budyonny": "Moscow"}, {}, "red",
     [move(["red-inf-01", "budyonny"], "Vologda", via=["Tver", "Petrograd"])],
     [["Moscow", "Tver", "Petrograd", "Vologda"]]),
    ("10.1 a leader of level 1 commands two units",
     {"red-inf-01": "Moscow", "red-inf-02": "Moscow", "red-inf-03": "Moscow", "budyonny": "Moscow"},
     {}, "red", [move(["red-inf-01", "red-inf-02", "red-inf-03", "budyonny"], "Tver")],
     "can command at most 2 units"),
    ("10.8.1 Lenin commands three units in a move",
     {"red-inf-01": "Moscow", "red-inf-02": "Moscow", "red-inf-03": "Moscow", "lenin": "Moscow"},
     {}, "red", [move(["red-inf-01", "red-inf-02", "red-inf-03", "lenin"], "Petrograd", via=["Tver"])],
     [["Moscow", "Tver", "Petrograd"]]),
    ("10.83 Trotsky moves three points",
     {"red-inf-01": "Moscow", "trotsky": "Moscow"}, {}, "red",
     [move(["red-inf-01", "trotsky"], "Novocherkassk", via=["Ryazan", "Tambov", "Voronezh"])],
     [["Moscow", "Ryazan", "Tambov", "Voronezh", "Novocherkassk"]]),
    ("10.83 Trotsky may not use cavalry movement",
     {"red-cav-01": "Tsaritsyn", "trotsky": "Tsaritsyn"}, {}, "red",
     [move(["red-cav-01", "trotsky"], "Novorossiysk", via=["Novocherkassk", "Rostov", "Ekaterinodar"])],
     "costs 4 movement points"),
    ("10.3 a leader moving only with cavalry moves as cavalry",
     {"red-cav-01": "Tsaritsyn", "budyonny": "Tsaritsyn"}, {}, "red",
     [move(["red-cav-01", "budyonny"], "Ekaterinodar", via=["Novocherkassk", "Rostov"])],
     [["Tsaritsyn", "Novocherkassk", "Rostov", "Ekaterinodar"]]),
    ("10.3 units of one move start together",
     {"red-inf-01": "Moscow", "red-inf-02": "Tula"}, {}, "red",
     [move(["red-inf-01", "red-inf-02"], "Orel")], "must start together"),
    ("7.3 entering enemy units ends the move",
     {"red-inf-01": "Moscow", "budyonny": "Moscow", "south-inf-01": "Tver"}, {}, "red",
     [move(["red-inf-01", "budyonny"], "Petrograd", via=["Tver"])], "must stop in Tver"),
    ("7.3 units with enemy units in their zone may not move",
     {"red-inf-01": "Tver", "south-inf-01": "Tver"}, {}, "red",
     [move(["red-inf-01"], "Moscow")], "may not move except to retreat"),
    ("7.3 the cheapest path avoids passing through enemy units",
     {"red-inf-01": "Moscow", "budyonny": "Moscow", "south-inf-01": "Tver"}, {}, "red",
     [move(["red-inf-01", "budyonny"], "Petrograd")], [["Moscow", "Yaroslavl", "Vologda", "Petrograd"]]),
    ("7.3 a move may end in a zone with enemy units",
     {"red-inf-01": "Moscow", "south-inf-01": "Tver"}, {}, "red",
     [move(["red-inf-01"], "Tver")], [["Moscow", "Tver"]]),
    ("11.0 iron-cross zones are out of play on turns 1-2",
     {"red-inf-01": "Kursk"}, {}, "red",
     [move(["red-inf-01"], "Kharkov")], "occupied by the Central Powers"),
    ("18.1 White factions may pass through each other's units",
     {"south-cav-01": "Samara", "siberian-inf-01": "Ufa", "denikin": "Samara"}, {}, "south",
     [move(["south-cav-01", "denikin"], "Chelyabinsk", via=["Ufa"])], [["Samara", "Ufa", "Chelyabinsk"]]),
    ("18.1 White factions may not stop with each other's units",
     {"south-inf-01": "Samara", "siberian-inf-01": "Ufa"}, {}, "south",
     [move(["south-inf-01"], "Ufa")], "not stop with siberian units"),
    ("18.1 White-controlled zones are friendly to every White faction",
     {"south-inf-01": "Samara"}, {}, "south",
     [move(["south-inf-01"], "Orenburg", via=["Ufa"])], [["Samara", "Ufa", "Orenburg"]]),
    ("7.43 a fleet goes from its port to its sea",
     {"red-fleet-01": "Petrograd"}, {}, "red",
     [move(["red-fleet-01"], "Baltic Sea")], [["Petrograd", "Baltic Sea"]]),
    ("7.43 a fleet never leaves its own sea",
     {"red-fleet-01": "Petrograd"}, {}, "red",
     [move(["red-fleet-01"], "Black Sea")], "belongs to the Baltic Sea"),
    ("7.43 fleets move without land units",
     {"red-fleet-01": "Petrograd", "red-inf-01": "Petrograd"}, {}, "red",
     [move(["red-fleet-01", "red-inf-01"], "Baltic Sea")], "fleets move on their own"),
    ("7.5 naval transport between friendly ports costs one point",
     {"south-fleet-01": "Black Sea", "south-inf-01": "Novorossiysk", "denikin": "Novorossiysk"},
     {"Odessa": "south"}, "south",
     [move(["south-inf-01", "denikin"], "Odessa", via=["Black Sea"])],
     [["Novorossiysk", "Black Sea", "Odessa"]]),
    ("7.5 a fleet carries one unit and one leader",
     {"south-fleet-01": "Black Sea", "south-inf-01": "Novorossiysk", "south-inf-02": "Novorossiysk"},
     {"Odessa": "south"}, "south",
     [move(["south-inf-01", "south-inf-02"], "Odessa", via=["Black Sea"])], "one unit and one leader"),
    ("7.5 naval transport needs a friendly fleet at sea",
     {"south-inf-01": "Novorossiysk"}, {"Odessa": "south"}, "south",
     [move(["south-inf-01"], "Odessa", via=["Black Sea"])], "fleet at sea in the Black Sea"),
    ("7.5 naval transport lands only in a friendly port",
     {"south-fleet-01": "Black Sea", "south-inf-01": "Novorossiysk"}, {}, "south",
     [move(["south-inf-01"], "Odessa", via=["Black Sea"])], "Odessa is not friendly"),
    ("7.7 the Black Sea crossing to Batumi may use a fleet in port",
     {"south-fleet-01": "Novorossiysk", "south-inf-01": "Novorossiysk"}, {"Batumi": "south"}, "south",
     [move(["south-inf-01"], "Batumi", via=["Black Sea"])], [["Novorossiysk", "Black Sea", "Batumi"]]),
    ("7.7 the Caspian crossing needs no fleet",
     {"red-inf-01": "Astrakhan"}, {"Baku": "red"}, "red",
     [move(["red-inf-01"], "Baku", via=["Caspian Sea"])], [["Astrakhan", "Caspian Sea", "Baku"]]),
    ("7.7 the Caspian crossing links Caspian ports only",
     {"red-inf-01": "Tsaritsyn"}, {"Baku": "red"}, "red",
     [move(["red-inf-01"], "Baku", via=["Caspian Sea"])], "links its ports only"),
    ("7.6 rail adds a movement point for the Reds",
     {"red-inf-01": "Moscow"}, {}, "red",
     [move(["red-inf-01"], "Vologda", via=["Tver", "Petrograd"], rail=True)],
     [["Moscow", "Tver", "Petrograd", "Vologda"]]),
    ("7.6 rail runs only through friendly zones",
     {"red-inf-01": "Tsaritsyn"}, {}, "red",
     [move(["red-inf-01"], "Rostov", via=["Novocherkassk"], rail=True)], "only runs through friendly zones"),
    ("7.6 the Reds have one rail movement a turn without optional rule 19.1",
     {"red-inf-01": "Moscow", "red-inf-02": "Tula"}, {}, "red",
     [move(["red-inf-01"], "Petrograd", rail=True), move(["red-inf-02"], "Bryansk", via=["Orel"], rail=True)],
     "rail movement(s) left"),
    ("7.6 White factions have no rail movement without event cards",
     {"south-inf-01": "Rostov"}, {}, "south",
     [move(["south-inf-01"], "Novocherkassk", rail=True)], "south has 0 rail"),
    ("19.1 with railways each rail dot held moves one unit",
     {"red-inf-01": "Moscow", "red-inf-02": "Moscow"}, {}, "red",
     [move(["red-inf-01", "red-inf-02"], "Petrograd", rail=True)], [["Moscow", "Tver", "Petrograd"]]),
    ("10.82 Stalin may not end his move with Trotsky",
     {"stalin": "Moscow", "trotsky": "Tver"}, {}, "red",
     [move(["stalin"], "Tver")], "Stalin may not end his move in the same zone as Trotsky"),
    ("15.1 the treasure moves with a unit",
     {"red-inf-01": "Kazan", "treasure": "Kazan"}, {}, "red",
     [move(["red-inf-01", "treasure"], "Simbirsk")], [["Kazan", "Simbirsk"]]),
    ("15.1 the treasure cannot move alone",
     {"treasure": "Kazan"}, {}, "red",
     [move(["treasure"], "Simbirsk")], "only with a unit that is not an aircraft"),
    ("7.1 a unit's movement points are spent across orders",
     {"red-inf-01": "Moscow"}, {}, "red",
     [move(["red-inf-01"], "Tver"), move(["red-inf-01"], "Petrograd"), move(["red-inf-01"], "Vologda")],
     "have 0 left"),
    ("7.0 a unit of another faction cannot be moved",
     {"south-inf-01": "Rostov"}, {}, "red",
     [move(["south-inf-01"], "Novocherkassk")], "belongs to south"),
    ("7.0 unknown zones are reported with the nearest name",
     {"red-inf-01": "Moscow"}, {}, "red",
     [move(["red-inf-01"], "Moskow")], "did you mean 'Moscow'"),
    ("7.0 place names are matched forgivingly, aliases included",
     {"red-inf-01": "Tver"}, {}, "red",
     [move(["red-inf-01"], "saint petersburg")], [["Tver", "Petrograd"]]),
]


@pytest.mark.parametrize(("name", "pieces", "control", "faction", "items", "expected"), CASES,
                         ids=[c[0] for c in CASES])
def test_movement(name: str, pieces: dict[str, str], control: dict[str, Any], faction: str,
                  items: list[dict[str, Any]], expected: Any) -> None:
    turn = 1 if name.startswith("11.0") else 3
    options = {"railways": True} if name.startswith("19.1") else {}
    state = position(pieces, actor=faction, control=control, turn=turn, options=options)
    body = orders(*items)
    found = messages(state, faction, body)
    if isinstance(expected, str):
        assert any(expected in m for m in found), found
    else:
        assert found == []
        assert moved_paths(state, faction, body) == expected


def test_7_3_a_stopped_unit_spends_all_its_points() -> None:
    state = position({"red-inf-01": "Moscow", "red-cav-01": "Moscow", "budyonny": "Moscow",
                      "south-inf-01": "Tver"})
    body = orders(move(["red-cav-01", "budyonny"], "Tver"), move(["red-cav-01", "budyonny"], "Petrograd"))
    assert any("may not move except to retreat" in m for m in messages(state, "red", body))


def test_8_91_a_tank_entering_an_enemy_zone_breaks_down_on_a_six() -> None:
    state = position({"red-tank-01": "Tsaritsyn"})
    state["units"]["red-tank-01"]["status"] = "map"
    body = orders(move(["red-tank-01"], "Novocherkassk"))
    rng = FixedRng(6)
    events = GAME.resolve(data(), state, {"red": body}, rng, OpenSecrets())
    breakdown = [e for e in events if e["type"] == "tank_breakdown"]
    assert breakdown == [{"type": "tank_breakdown", "unit": "red-tank-01", "zone": "Novocherkassk",
                          "label": rng.labels[0], "roll": 6}]
    assert rng.labels == ["tank:t3:red:o0:red-tank-01:novocherkassk"]
    after = state
    for e in events:
        after = GAME.apply(data(), after, e)
    assert after["units"]["red-tank-01"]["reduced"] is True


def test_8_91_a_tank_in_friendly_zones_rolls_nothing() -> None:
    state = position({"red-tank-01": "Moscow"})
    rng = FixedRng()
    GAME.resolve(data(), state, {"red": orders(move(["red-tank-01"], "Tver"))}, rng, OpenSecrets())
    assert rng.labels == []


def test_7_0_every_problem_of_a_file_is_reported() -> None:
    state = position({"red-inf-01": "Moscow"})
    body = orders(move(["red-inf-99"], "Tver"), move(["red-inf-01"], "Nowhere"), {"march": {}})
    found = messages(state, "red", body)
    assert len(found) == 3, found


# ---------------------------------------------------------------------------------------
# 7.1-7.3, 10.1, 10.3 a move refused: the exact path and message


def test_7_1_a_move_order_with_an_unknown_key_no_unit_or_an_unknown_place() -> None:
    state = position({"red-inf-01": "Moscow", "red-inf-02": "Tver"})
    assert refused(state, move(["red-inf-01"], "Tver", frm="Moscow")) == [
        ((*MOVE, "frm"), "unknown key 'frm'; did you mean 'from'? (expected: units, to, from, via, rail)")]
    assert refused(state, move([], "Tver")) == [((*MOVE, "units"), "name at least one unit or leader")]
    assert refused(state, move(["red-inf-01"], "Nowhere")) == [((*MOVE, "to"), "unknown zone 'Nowhere'")]
    assert refused(state, move(["red-inf-01"], "Tver", via=["Nowhere"])) == [
        ((*MOVE, "via", 0), "unknown zone 'Nowhere'")]
    assert refused(state, move(["red-inf-01"], "Tver", rail="yes")) == [((*MOVE, "rail"), "rail is true or false")]
    assert refused(state, move(["red-inf-01"], "Tver", **{"from": "Kazan"})) == [
        ((*MOVE, "from"), "the units are in Moscow, not Kazan")]
    assert refused(state, move(["red-inf-01"], "Tver", **{"from": "Moscow"})) == []


def test_10_3_the_pieces_of_a_move_are_named_once_are_ones_own_on_the_map_and_start_together() -> None:
    state = position({"red-inf-01": "Moscow", "red-inf-02": "Tver", "south-inf-01": "Tula"})
    assert refused(state, move(["red-inf-01", "red-inf-02"], "Vladimir")) == [
        ((*MOVE, "units"), "the units of one move must start together (10.3); they are in Moscow, Tver")]
    assert refused(state, move(["red-inf-01", "red-inf-01"], "Tver")) == [
        ((*MOVE, "units", 1), "red-inf-01 is named twice")]
    assert refused(state, move(["nobody"], "Tver")) == [((*MOVE, "units", 0), "unknown unit or leader 'nobody'")]
    assert refused(state, move(["south-inf-01"], "Tver")) == [
        ((*MOVE, "units", 0), "south-inf-01 belongs to south, not red")]
    assert refused(state, move(["red-inf-03"], "Tver")) == [((*MOVE, "units", 0), "red-inf-03 is not on the map")]
    # one piece given as a plain name: the path is the units key itself
    assert refused(state, move("red-inf-03", "Tver")) == [((*MOVE, "units"), "red-inf-03 is not on the map")]


def test_15_1_the_treasure_moves_only_with_a_unit_that_is_not_an_aircraft() -> None:
    state = position({"red-inf-01": "Moscow", "red-air-01": "Moscow", "treasure": "Moscow"})
    assert refused(state, move(["treasure"], "Tver")) == [
        ((*MOVE, "units"), "the treasure moves only with a unit that is not an aircraft (15.1)")]
    assert refused(state, move(["treasure", "red-air-01"], "Tver")) == [
        ((*MOVE, "units"), "the treasure moves only with a unit that is not an aircraft (15.1)")]
    events, after, _ = run(state, orders(move(["treasure", "red-inf-01"], "Tver")), [])
    assert events == [{"type": "moved", "faction": "red", "units": ["red-inf-01"], "path": ["Moscow", "Tver"],
                       "cost": 1, "stopped": False, "treasure": True}]
    assert after["treasure"]["zone"] == "Tver"
    theirs = position({"south-inf-01": "Moscow", "treasure": "Moscow"}, actor="south")
    assert refused(theirs, move(["treasure", "south-inf-01"], "Tver")) == [
        ((*MOVE, "units", 0), "the treasure is not yours to move")]


def test_7_3_units_sharing_a_zone_with_enemy_units_do_not_move() -> None:
    state = position({"red-inf-01": "Tula", "south-inf-01": "Tula"})
    assert refused(state, move(["red-inf-01"], "Moscow")) == [
        (MOVE, "the units in Tula share the zone with enemy units and may not move except to retreat (7.3)")]


def test_7_1_a_zone_out_of_reach_is_explained() -> None:
    state = position({"red-inf-01": "Moscow"}, control={"Tula": "south", "Orel": "south"})
    assert refused(state, move(["red-inf-01"], "Omsk")) == [
        ((*MOVE, "to"), "Omsk cannot be reached from Moscow this phase; name the way with 'via' or move "
                        "fewer zones (7.1: 1 movement point, 2 with a leader)")]
    assert refused(state, move(["red-inf-01"], "Kazan", via=["Tver"])) == [
        ((*MOVE, "to"), "there is no route from Tver to Kazan")]
    assert refused(state, move(["red-inf-01"], "Orel", via=["Tula"])) == [
        ((*MOVE, "to"), "this path costs 2 movement points; red-inf-01 has 1 left (7.1, 7.2)")]
    state["moved"] = {"red-inf-01": 1}  # half a movement point spent
    assert refused(state, move(["red-inf-01"], "Tula")) == [
        ((*MOVE, "to"), "Tula cannot be reached from Moscow this phase: entering it costs 1 movement "
                        "points and these units have 0.5 left (7.1, 7.2)")]
    assert refused(state, move(["red-inf-01"], "Tver")) == []


def test_7_3_a_move_stops_in_a_zone_with_enemy_units() -> None:
    state = position({"red-inf-01": "Moscow", "trotsky": "Moscow", "south-inf-01": "Tula"})
    assert refused(state, move(["red-inf-01", "trotsky"], "Orel", via=["Tula"])) == [
        ((*MOVE, "to"), "the units must stop in Tula: enemy units are there (7.3)")]


def test_7_5_land_units_do_not_end_a_move_at_sea() -> None:
    state = position({"red-inf-01": "Petrograd", "red-fleet-01": "Baltic Sea"})
    assert refused(state, move(["red-inf-01"], "Baltic Sea")) == [
        ((*MOVE, "to"), "land units cannot end their move at sea; name the port they land in after the "
                        "sea (7.5)")]


def test_11_0_an_iron_cross_zone_is_closed_on_turns_1_and_2() -> None:
    state = position({"red-inf-01": "Pskov"}, turn=2)
    assert refused(state, move(["red-inf-01"], "Riga")) == [
        ((*MOVE, "to"), "Riga cannot be reached from Pskov this phase: Riga is occupied by the Central "
                        "Powers on turns 1-2 (11.0)")]
    assert refused(state, move(["red-inf-01"], "Vitebsk", via=["Riga"])) == [
        ((*MOVE, "via", 0), "Riga is occupied by the Central Powers on turns 1-2 (11.0)")]


def test_10_1_a_leader_commands_his_level_plus_one_units() -> None:
    pieces = {"red-inf-01": "Moscow", "red-inf-02": "Moscow", "red-inf-03": "Moscow", "budyonny": "Moscow"}
    state = position(pieces)
    assert refused(state, move(["red-inf-01", "red-inf-02", "red-inf-03", "budyonny"], "Tver")) == [
        ((*MOVE, "units"), "Budyonny can command at most 2 units (10.1); this stack has 3")]
    assert refused(state, move(["red-inf-01", "red-inf-02", "budyonny"], "Tver")) == []


def test_10_82_10_83_stalin_and_trotsky_never_end_a_move_together() -> None:
    state = position({"stalin": "Moscow", "trotsky": "Tver", "red-inf-01": "Moscow"})
    assert refused(state, move(["stalin", "red-inf-01"], "Tver")) == [
        ((*MOVE, "to"), "Stalin may not end his move in the same zone as Trotsky (10.82)")]
    state = position({"trotsky": "Moscow", "stalin": "Tver", "red-inf-01": "Moscow"})
    assert refused(state, move(["trotsky", "red-inf-01"], "Tver")) == [
        ((*MOVE, "to"), "Trotsky may not end his move in the same zone as Stalin (10.83)")]


def test_18_1_a_white_faction_does_not_stop_with_another_white_factions_units() -> None:
    state = position({"south-inf-01": "Samara", "siberian-inf-01": "Ufa"}, actor="siberian",
                     control={"Samara": "siberian"})
    assert refused(state, move(["siberian-inf-01"], "Samara")) == [
        ((*MOVE, "to"), "White factions may pass through but not stop with south units in Samara (18.1)")]


# ---------------------------------------------------------------------------------------
# 7.6 rail


def test_7_6_rail_runs_through_friendly_zones_free_of_enemy_units_within_the_rail_moves() -> None:
    state = position({"red-inf-01": "Moscow", "red-inf-02": "Moscow"})
    assert refused(state, move(["red-inf-01"], "Tver", rail=True)) == []
    events, after, _ = run(state, orders(move(["red-inf-01", "red-inf-02"], "Tver", rail=True)), [])
    # 7.6 without 19.1 a rail movement carries the stack (red has one a turn)
    assert events == [{"type": "moved", "faction": "red", "units": ["red-inf-01", "red-inf-02"],
                       "path": ["Moscow", "Tver"], "cost": 1, "stopped": False, "rail": 1}]
    assert after["rail_used"]["red"] == 1
    state["rail_used"] = {"red": after["rail_used"]["red"]}
    assert refused(state, move(["red-inf-01"], "Tver", rail=True)) == [
        ((*MOVE, "rail"), "red has 0 rail movement(s) left this turn; this needs 1 (7.6, 19.1)")]
    siberia = position({"siberian-inf-01": "Omsk"}, actor="siberian")
    assert refused(siberia, move(["siberian-inf-01"], "Tyumen", rail=True))[-1] == (
        (*MOVE, "rail"), "siberian has 0 rail movement(s) left this turn; this needs 1 (7.6, 19.1)")
    state = position({"red-inf-01": "Moscow", "trotsky": "Moscow"}, control={"Tula": "south"})
    assert refused(state, move(["red-inf-01", "trotsky"], "Orel", via=["Tula"], rail=True)) == [
        ((*MOVE, "via", 0), "rail movement only runs through friendly zones (7.6); Tula is not one")]
    state = position({"red-inf-01": "Moscow", "trotsky": "Moscow", "south-inf-01": "Tver"})
    assert refused(state, move(["red-inf-01", "trotsky"], "Novgorod", via=["Tver"], rail=True)) == [
        ((*MOVE, "via", 0), "rail movement may not enter Tver, where there are enemy units (7.6)")]


# ---------------------------------------------------------------------------------------
# 7.43 fleets, 7.5 naval transport, 7.7 the Black Sea crossing and the Caspian


def test_7_43_a_fleet_moves_alone_one_step_between_its_sea_and_its_ports() -> None:
    state = position({"red-fleet-01": "Petrograd", "red-inf-01": "Petrograd", "trotsky": "Petrograd"})
    assert refused(state, move(["red-fleet-01", "red-inf-01"], "Baltic Sea")) == [
        ((*MOVE, "units"), "fleets move on their own, without land units or leaders (land units go by "
                           "naval transport, 7.5)")]
    assert refused(state, move(["red-fleet-01", "trotsky"], "Baltic Sea")) == [
        ((*MOVE, "units"), "fleets move on their own, without land units or leaders (land units go by "
                           "naval transport, 7.5)")]
    assert refused(state, move(["red-fleet-01"], "Baltic Sea", via=["Reval"])) == [
        ((*MOVE, "via"), "a fleet moves one step: from its sea to a port or from a port to its sea (7.43)")]
    wrong = ((*MOVE, "to"), "red-fleet-01 belongs to the Baltic Sea: it may go only between the Baltic Sea "
                            "and its ports (Helsinki, Petrograd, Reval, Riga, Vyborg) (7.43)")
    assert refused(state, move(["red-fleet-01"], "Black Sea")) == [wrong]
    assert refused(state, move(["red-fleet-01"], "Tver")) == [wrong]
    assert refused(position({"red-fleet-01": "Baltic Sea"}), move(["red-fleet-01"], "Odessa")) == [wrong]
    state["moved"] = {"red-fleet-01": 2}
    assert refused(state, move(["red-fleet-01"], "Baltic Sea")) == [
        ((*MOVE, "units"), "red-fleet-01 has already moved or transported this phase")]


def test_11_0_8_4_a_fleet_does_not_enter_an_iron_cross_port_early_nor_sail_with_cargo_at_sea() -> None:
    assert refused(position({"red-fleet-01": "Baltic Sea"}, turn=2), move(["red-fleet-01"], "Reval")) == [
        ((*MOVE, "to"), "Reval is occupied by the Central Powers on turns 1-2 (11.0)")]
    state = position({"red-fleet-01": "Baltic Sea", "red-inf-01": "Baltic Sea"})
    state["aboard"] = {"red-inf-01": "red-fleet-01"}
    assert refused(state, move(["red-fleet-01"], "Petrograd")) == [
        ((*MOVE, "units"), "red-fleet-01 carries red-inf-01 at sea (8.4): land them first (move: {units: "
                           "[red-inf-01], from: Baltic Sea, to: PORT}); the fleet may sail once they are "
                           "ashore, in a later phase (7.5)")]


def test_7_43_a_fleet_entering_a_port_with_enemy_units_stops_there() -> None:
    state = position({"red-fleet-01": "Baltic Sea", "north-inf-01": "Reval"})
    state["standing"] = standing_()
    events, _, _ = run(state, orders(move(["red-fleet-01"], "Reval")), [])
    assert events == [{"type": "moved", "faction": "red", "units": ["red-fleet-01"], "path": ["Baltic Sea", "Reval"],
                       "cost": 2, "stopped": True}]


def test_8_92_a_blockading_fleet_that_sails_into_a_port_ends_its_blockade() -> None:
    state = position({"allied-fleet-03": "Baltic Sea"}, actor="north", control={"Reval": "north"})
    state["standing"] = standing_()
    state["blockade"] = {"allied-fleet-03": "Petrograd"}
    state["allied_control"] = {"north": 1}
    events, after, _ = run(state, orders(move(["allied-fleet-03"], "Reval")), [])
    assert events == [
        {"type": "allies_taken", "faction": "north", "units": ["allied-fleet-03"]},
        {"type": "moved", "faction": "north", "units": ["allied-fleet-03"], "path": ["Baltic Sea", "Reval"],
         "cost": 2, "stopped": False},
        {"type": "blockade_lifted", "port": "Petrograd", "fleets": ["allied-fleet-03"],
         "why": "the fleet sailed to Reval"},
    ]
    assert after["blockade"] == {}


def test_8_92_a_fleet_putting_to_sea_is_searched_by_an_opponent_who_always_searches() -> None:
    state = position({"red-fleet-01": "Petrograd", "allied-fleet-03": "Baltic Sea"})
    state["standing"] = standing_({"allies": {"naval_search": "always"}})
    events, _, rng = run(state, orders(move(["red-fleet-01"], "Baltic Sea")), [3, 4] + [1] * 6)
    assert events[:2] == [
        {"type": "moved", "faction": "red", "units": ["red-fleet-01"], "path": ["Petrograd", "Baltic Sea"],
         "cost": 2, "stopped": False},
        {"type": "naval_search", "zone": "Baltic Sea", "faction": "allies", "phasing": False,
         "fleets": ["allied-fleet-03"], "targets": ["red-fleet-01"], "dice": [3, 4], "contact": True},
    ]
    assert rng.labels[:2] == ["naval:baltic-sea:t3:allies:on-red:o0:search:d1",
                              "naval:baltic-sea:t3:allies:on-red:o0:search:d2"]
    assert [e["type"] for e in events[2:]] == ["combat_round", "naval_battle_over"]


TRANSPORT = {"red-fleet-01": "Baltic Sea", "red-inf-01": "Petrograd"}


def test_7_5_a_naval_transport_carries_one_unit_between_friendly_ports_of_the_fleets_sea() -> None:
    via = ("orders", 0, "move", "via", 0)
    state = position(TRANSPORT, control={"Reval": "red"})
    state["standing"] = standing_()
    events, _, _ = run(state, orders(move(["red-inf-01"], "Reval", via=["Baltic Sea"])), [])
    assert events == [{"type": "moved", "faction": "red", "units": ["red-inf-01"],
                       "path": ["Petrograd", "Baltic Sea", "Reval"], "cost": 2, "stopped": False,
                       "fleets": ["red-fleet-01"]}]
    assert refused(state, move(["red-inf-01"], "Reval", via=["Baltic Sea"], rail=True)) == [
        (via, "a move by sea cannot also be a rail move")]
    two = position({**TRANSPORT, "red-inf-02": "Petrograd"}, control={"Reval": "red"})
    assert refused(two, move(["red-inf-01", "red-inf-02"], "Reval", via=["Baltic Sea"])) == [
        (via, "a naval transport carries one unit and one leader (7.5)")]
    leaders = position({**TRANSPORT, "trotsky": "Petrograd", "stalin": "Petrograd"}, control={"Reval": "red"})
    assert refused(leaders, move(["red-inf-01", "trotsky", "stalin"], "Reval", via=["Baltic Sea"])) == [
        (via, "a naval transport carries one unit and one leader (7.5)")]
    assert refused(position(TRANSPORT, control={"Reval": "north"}),
                   move(["red-inf-01"], "Reval", via=["Baltic Sea"])) == [
        (via, "naval transport runs between friendly ports (7.5); Reval is not friendly")]
    assert refused(position(TRANSPORT, control={"Odessa": "red"}),
                   move(["red-inf-01"], "Odessa", via=["Baltic Sea"])) == [
        (via, "Petrograd and Odessa must both be ports of the Baltic Sea; its ports are Helsinki, Petrograd, "
              "Reval, Riga, Vyborg (7.5)")]
    nofleet = position({"red-inf-01": "Petrograd"}, control={"Reval": "red"})
    busy = position(TRANSPORT, control={"Reval": "red"})
    busy["moved"] = {"red-fleet-01": 2}
    for state in (nofleet, busy):
        assert refused(state, move(["red-inf-01"], "Reval", via=["Baltic Sea"])) == [
            (via, "no red fleet at sea in the Baltic Sea is free to carry them this phase (7.5)")]


def test_7_3_7_5_a_transport_lands_in_a_friendly_port_with_enemy_units_and_stops_there() -> None:
    # 7.5 a friendly port to land in; 7.3 enemy units there stop the move (it is not refused);
    # going on beyond that port is refused, at the leg after it
    state = position({**TRANSPORT, "north-inf-01": "Reval"}, control={"Reval": "red"})
    state["standing"] = standing_()
    events, _, _ = run(state, orders(move(["red-inf-01"], "Reval", via=["Baltic Sea"])), [])
    assert events == [{"type": "moved", "faction": "red", "units": ["red-inf-01"],
                       "path": ["Petrograd", "Baltic Sea", "Reval"], "cost": 2, "stopped": True,
                       "fleets": ["red-fleet-01"]}]
    assert refused(state, move(["red-inf-01"], "Pskov",
                               via=["Baltic Sea", "Reval"])) == [
        (("orders", 0, "move", "to"), "the units must stop in Reval: enemy units are there (7.3)")]


def test_7_7_the_caspian_crossing_needs_no_fleet_between_its_ports_only() -> None:
    state = position({"red-inf-01": "Astrakhan"}, control={"Astrakhan": "red", "Baku": "red", "Tsaritsyn": "red"})
    state["standing"] = standing_()
    events, _, _ = run(state, orders(move(["red-inf-01"], "Baku", via=["Caspian Sea"])), [])
    assert events == [{"type": "moved", "faction": "red", "units": ["red-inf-01"],
                       "path": ["Astrakhan", "Caspian Sea", "Baku"], "cost": 2, "stopped": False}]
    assert refused(state, move(["red-inf-01"], "Astrakhan", via=["Tsaritsyn", "Caspian Sea"])) == [
        (("orders", 0, "move", "via", 1), "the Caspian crossing links its ports only: Astrakhan, Baku, "
                                          "Krasnovodsk, Petrovsk (7.7)")]


def test_7_7_to_batumi_the_fleet_may_lie_in_a_black_sea_port() -> None:
    # 7.7: crossing to another territory (Transcaucasia) the fleet may be in one of the four
    # ports; within one territory (Novorossiysk to Sevastopol) it must be at sea
    pieces = {"south-inf-01": "Novorossiysk", "south-fleet-01": "Odessa"}
    state = position(pieces, actor="south", control={"Batumi": "south", "Novorossiysk": "south",
                                                     "Sevastopol": "south"})
    assert refused(state, move(["south-inf-01"], "Batumi", via=["Black Sea"])) == []
    assert refused(state, move(["south-inf-01"], "Sevastopol", via=["Black Sea"])) == [
        (("orders", 0, "move", "via", 0), "no south fleet at sea in the Black Sea is free to carry them "
                                          "this phase (7.5)")]


def test_8_92_a_transport_met_at_sea_turns_back_and_moves_no_more() -> None:
    # the Allies always search: contact (3+4), one round of naval combat, no damage; Red's
    # unit, Trotsky and the treasure turn back to Petrograd
    pieces = {**TRANSPORT, "trotsky": "Petrograd", "treasure": "Petrograd", "allied-fleet-03": "Baltic Sea"}
    state = position(pieces, control={"Reval": "red"})
    state["standing"] = standing_({"allies": {"naval_search": "always"}})
    body = orders(move(["red-inf-01", "trotsky", "treasure"], "Reval", via=["Baltic Sea"]))
    events, after, _ = run(state, body, [3, 4] + [1] * 6)
    assert events[-2:] == [
        {"type": "note", "zone": "Baltic Sea", "text": "the transport was met at sea: red-inf-01, trotsky "
                                                       "turn(s) back to Petrograd (8.92)"},
        {"type": "moved", "faction": "red", "units": ["red-inf-01", "trotsky"], "path": ["Petrograd"],
         "cost": 2, "stopped": True, "treasure": True, "fleets": ["red-fleet-01"],
         "why": "turned back at sea, no more movement this phase (8.92)"},
    ]
    assert after["units"]["red-inf-01"]["zone"] == "Petrograd" and after["treasure"]["zone"] == "Petrograd"
    # no contact (3+3): the move goes on
    events, after, _ = run(state, body, [3, 3])
    assert events[-1] == {"type": "moved", "faction": "red", "units": ["red-inf-01", "trotsky"],
                          "path": ["Petrograd", "Baltic Sea", "Reval"], "cost": 2, "stopped": False,
                          "treasure": True, "fleets": ["red-fleet-01"]}
    assert after["treasure"]["zone"] == "Reval"


def test_8_92_15_1_a_transport_whose_unit_is_lost_at_sea_leaves_the_treasure_behind() -> None:
    # two hits reduce the fleet; its reduced cargo shares the damage and is eliminated (8.92);
    # Trotsky turns back alone, without the treasure, which never left Petrograd (15.1)
    pieces = {**TRANSPORT, "trotsky": "Petrograd", "treasure": "Petrograd", "allied-fleet-03": "Baltic Sea"}
    state = position(pieces, control={"Reval": "red"}, reduced=("red-inf-01",))
    state["standing"] = standing_({"allies": {"naval_search": "always"}})
    body = orders(move(["red-inf-01", "trotsky", "treasure"], "Reval", via=["Baltic Sea"]))
    events, after, _ = run(state, body, [3, 4] + [6, 6, 1] + [1, 1, 1])
    assert events[-2:] == [
        {"type": "note", "zone": "Baltic Sea", "text": "the transport was met at sea: trotsky turn(s) back "
                                                       "to Petrograd (8.92)"},
        {"type": "moved", "faction": "red", "units": ["trotsky"], "path": ["Petrograd"], "cost": 2,
         "stopped": True, "fleets": ["red-fleet-01"],
         "why": "turned back at sea, no more movement this phase (8.92)"},
    ]
    assert after["units"]["red-inf-01"]["status"] == "eliminated"
    assert after["treasure"]["zone"] == "Petrograd"


# ---------------------------------------------------------------------------------------
# the bot's moves (movement.bot: "stacks step to a neighbouring zone; fleets at sea seek out
# weaker enemy fleets (8.92)"), with the dice it asks for


class Script:
    """Dice and choices as given, recording what was asked (label, sides or the items)."""

    def __init__(self, rolls: list[int], choices: list[int]) -> None:
        self.rolls, self.choices = list(rolls), list(choices)
        self.asked: list[tuple[str, Any]] = []

    def roll(self, label: str, sides: int = 6) -> int:
        self.asked.append((label, sides))
        return self.rolls.pop(0)

    def choice(self, label: str, items: list[Any]) -> Any:
        self.asked.append((label, list(items)))
        return items[self.choices.pop(0)]

    def shuffle(self, label: str, items: list[Any]) -> list[Any]:
        return list(items)


def bot(state: dict[str, Any], rolls: list[int], choices: list[int]) -> tuple[list[dict[str, Any]], Script]:
    rng = Script(rolls, choices)
    out = movement.bot(data(), state, state["actor"], rng)
    assert rng.rolls == [] and rng.choices == []
    return out, rng


def test_bot_a_stack_holds_on_a_one_in_three_else_some_of_its_units_step_to_a_neighbour() -> None:
    # Kazan's stack rolls 1: it holds. Moscow's rolls 2: it goes to the 5th neighbour (Tver),
    # one of its two units (a d2 of 1); leaders and fleets are not moved by the bot
    state = position({"red-inf-01": "Moscow", "red-inf-02": "Moscow", "red-cav-01": "Kazan",
                      "trotsky": "Moscow", "red-fleet-01": "Petrograd"})
    orders_, rng = bot(state, [1, 2, 1], [4])
    assert orders_ == [{"move": {"units": ["red-inf-01"], "from": "Moscow", "to": "Tver"}}]
    assert rng.asked == [("bot:move:red:kazan", 3), ("bot:move:red:moscow", 3),
                         ("bot:dest:red:moscow", ["Nizhny Novgorod", "Ryazan", "Smolensk", "Tula", "Tver",
                                                  "Yaroslavl"]),
                         ("bot:count:red:moscow", 2)]
    both, _ = bot(state, [1, 2, 2], [4])
    assert both == [{"move": {"units": ["red-inf-01", "red-inf-02"], "from": "Moscow", "to": "Tver"}}]


def test_11_0_the_bot_never_steps_into_an_iron_cross_zone_on_turns_1_and_2() -> None:
    orders_, rng = bot(position({"red-inf-01": "Pskov"}, turn=2), [2], [0])
    assert orders_ == [{"move": {"units": ["red-inf-01"], "from": "Pskov", "to": "Novgorod"}}]
    assert rng.asked == [("bot:move:red:pskov", 3), ("bot:dest:red:pskov", ["Novgorod", "Petrograd", "Vitebsk"])]


def test_7_3_the_bot_gives_no_order_to_a_stack_that_may_not_move() -> None:
    orders_, _ = bot(position({"red-inf-01": "Tula", "south-inf-01": "Tula"}), [2], [0])
    assert orders_ == []


def test_8_4_8_92_the_bot_lands_units_at_sea_in_the_first_friendly_port_and_an_equal_fleet_searches() -> None:
    state = position({"red-fleet-01": "Baltic Sea", "red-inf-01": "Baltic Sea", "allied-fleet-03": "Baltic Sea"})
    state["aboard"] = {"red-inf-01": "red-fleet-01"}
    orders_, rng = bot(state, [], [])
    # Helsinki (Finnish) is not friendly: Petrograd is the first port that takes them
    assert orders_ == [{"move": {"units": ["red-inf-01"], "from": "Baltic Sea", "to": "Petrograd"}},
                       {"search": {"zone": "Baltic Sea"}}]
    assert rng.asked == []


def test_8_92_the_bots_weaker_fleet_does_not_search() -> None:
    weaker = position({"red-fleet-01": "Baltic Sea", "allied-fleet-03": "Baltic Sea"}, reduced=("red-fleet-01",))
    assert bot(weaker, [], [])[0] == []
    stronger = position({"red-fleet-01": "Baltic Sea", "allied-fleet-03": "Baltic Sea"}, reduced=("allied-fleet-03",))
    assert bot(stronger, [], [])[0] == [{"search": {"zone": "Baltic Sea"}}]
    alone = position({"red-fleet-01": "Baltic Sea"})
    assert bot(alone, [], [])[0] == []


def test_7_6_a_rail_move_into_an_enemy_zone_is_refused_for_7_6_not_for_its_cost() -> None:
    # 7.6 "rail movement only runs through friendly zones": the explanation says so (it
    # used to say the step cost 1 movement point with 2 left, a contradiction)
    state = position({"red-inf-01": "Moscow"}, control={"Tula": "south"})
    assert refused(state, move(["red-inf-01"], "Tula", rail=True)) == [
        ((*MOVE, "to"), "Tula cannot be reached from Moscow this phase by rail: rail movement only runs "
                        "through friendly zones (7.6); Tula is not one")]
    state = position({"red-inf-01": "Moscow", "south-inf-01": "Tver"})
    assert refused(state, move(["red-inf-01"], "Tver", rail=True)) == [
        ((*MOVE, "to"), "Tver cannot be reached from Moscow this phase by rail: rail movement may not "
                        "enter Tver, where there are enemy units (7.6)")]
    # without rail the same step is open (7.2: two half points, the unit has two)
    assert refused(state, move(["red-inf-01"], "Tver")) == []


# ---------------------------------------------------------------------------------------
# 8.4 units at sea since a retreat by sea land in a friendly port of that sea


def at_sea(**more: Any) -> dict[str, Any]:
    state = position({"red-fleet-01": "Baltic Sea", "red-inf-01": "Baltic Sea", "trotsky": "Baltic Sea"}, **more)
    state["aboard"] = {"red-inf-01": "red-fleet-01", "trotsky": "red-fleet-01"}
    return state


def test_8_4_units_at_sea_land_in_a_friendly_open_port_of_their_sea() -> None:
    to = (*MOVE, "to")
    assert refused(at_sea(), move(["red-inf-01"], "Petrograd")) == []
    assert refused(at_sea(), move(["red-inf-01"], "Petrograd", rail=True)) == [
        ((*MOVE, "rail"), "a landing from the sea cannot also be a rail move")]
    assert refused(at_sea(), move(["red-inf-01"], "Tver")) == [
        (to, "units at sea in the Baltic Sea land in one of its ports (Helsinki, Petrograd, Reval, Riga, Vyborg); "
             "Tver is not one (8.4, 7.5); to go further, name the port in via")]
    assert refused(at_sea(), move(["red-inf-01"], "Black Sea")) == [
        (to, "units at sea in the Baltic Sea land in one of its ports (Helsinki, Petrograd, Reval, Riga, Vyborg); "
             "Black Sea is not one (8.4, 7.5)")]
    assert refused(at_sea(), move(["red-inf-01"], "Reval")) == [
        (to, "units land in a friendly port (7.5); Reval is not friendly to red")]
    assert refused(at_sea(turn=2, control={"Reval": "red"}), move(["red-inf-01"], "Reval")) == [
        (to, "Reval is occupied by the Central Powers on turns 1-2 (11.0)")]
    # a port named in via is where they land; the error is then at via 0
    assert refused(at_sea(), move(["red-inf-01", "trotsky"], "Novgorod", via=["Tver"])) == [
        ((*MOVE, "via", 0), "units at sea in the Baltic Sea land in one of its ports (Helsinki, Petrograd, "
                            "Reval, Riga, Vyborg); Tver is not one (8.4, 7.5); to go further, name the port in via")]
    assert refused(at_sea(control={"Reval": "red"}),
                   move(["red-inf-01", "trotsky"], "Petrograd", via=["Reval", "Baltic Sea"])) == [
        ((*MOVE, "via"), "once landed, the move goes on over land (8.4, 7.5)")]
    alone = at_sea()
    alone["aboard"] = {"trotsky": "red-fleet-01"}
    assert refused(alone, move(["red-inf-01"], "Petrograd")) == [
        ((*MOVE, "units"), "red-inf-01 is in the Baltic Sea aboard no fleet (8.4)")]


def test_8_4_7_5_a_landing_costs_one_movement_point_and_a_leader_takes_them_on() -> None:
    state = at_sea()
    state["standing"] = standing_()
    events, after, _ = run(state, orders(move(["red-inf-01", "trotsky"], "Novgorod", via=["Petrograd"])), [])
    assert events == [{"type": "moved", "faction": "red", "units": ["red-inf-01", "trotsky"],
                       "path": ["Baltic Sea", "Petrograd", "Novgorod"], "cost": 3, "stopped": False,
                       "fleets": ["red-fleet-01"]}]
    assert after["units"]["red-inf-01"]["zone"] == "Novgorod"
    # without a leader the landing is the whole move (7.1: one movement point)
    assert refused(at_sea(), move(["red-inf-01"], "Novgorod", via=["Petrograd"])) == [
        ((*MOVE, "to"), "this path costs 1.5 movement points; red-inf-01 has 1 left (7.1, 7.2)")]


def test_19_1_7_6_rail_movements_are_one_a_rail_dot_held_plus_the_cards_bonus() -> None:
    b = importlib.import_module("pbem_game_red_russia.board").board(data())
    railways = position({}, options={"railways": True})
    # Vologda, Petrograd, Moscow (2), Orel, Voronezh, Tsaritsyn, Tashkent; South: Rostov;
    # Siberia: Samara, Ekaterinburg, Chelyabinsk, Omsk, Irkutsk
    assert [movement.rail_capacity(b, railways, f) for f in ("red", "south", "siberian", "north")] == [8, 1, 5, 0]
    plain = position({})
    assert [movement.rail_capacity(b, plain, f) for f in ("red", "south")] == [1, 0]  # game.yaml rail_moves
    plain["rail_bonus"] = {"red": 2, "south": 1}
    assert [movement.rail_capacity(b, plain, f) for f in ("red", "south", "siberian")] == [3, 1, 0]
    # 19.1 with railways a rail move uses one rail movement per unit
    state = position({"red-inf-01": "Moscow", "red-inf-02": "Moscow", "trotsky": "Moscow"}, options={"railways": True})
    state["standing"] = standing_()
    events, after, _ = run(state, orders(move(["red-inf-01", "red-inf-02", "trotsky"], "Tver", rail=True)), [])
    assert events[0]["rail"] == 2 and after["rail_used"]["red"] == 2


# ---------------------------------------------------------------------------------------
# the dice change the position: a later order they made impossible is noted, not refused


def test_8_91_a_tank_lost_to_a_breakdown_leaves_its_next_move_undone_with_a_note() -> None:
    # 8.91 a reduced tank entering an enemy zone breaks down on a 6: it is eliminated, and
    # the second move of the stack (legal when the orders were checked) is noted
    state = position({"red-tank-01": "Tsaritsyn", "trotsky": "Tsaritsyn"}, reduced=("red-tank-01",))
    state["standing"] = standing_()
    body = orders(move(["red-tank-01", "trotsky"], "Novocherkassk"), move(["red-tank-01", "trotsky"], "Rostov"))
    first = {"type": "moved", "faction": "red", "units": ["red-tank-01", "trotsky"],
             "path": ["Tsaritsyn", "Novocherkassk"], "cost": 2, "stopped": False}
    events, _, rng = run(state, body, [6])
    assert events == [
        first,
        {"type": "tank_breakdown", "unit": "red-tank-01", "zone": "Novocherkassk",
         "label": "tank:t3:red:o0:red-tank-01:novocherkassk", "roll": 6},
        {"type": "note", "zone": "Rostov", "text": "move (order 2) is not carried out after this phase's dice: "
                                                   "red-tank-01 is not on the map"},
    ]
    # a 5: no breakdown, both moves are made, each with its die
    events, _, rng = run(state, body, [5, 5])
    assert events == [
        first,
        {"type": "tank_breakdown", "unit": "red-tank-01", "zone": "Novocherkassk",
         "label": "tank:t3:red:o0:red-tank-01:novocherkassk", "roll": 5},
        {"type": "moved", "faction": "red", "units": ["red-tank-01", "trotsky"], "path": ["Novocherkassk", "Rostov"],
         "cost": 2, "stopped": False},
        {"type": "tank_breakdown", "unit": "red-tank-01", "zone": "Rostov",
         "label": "tank:t3:red:o1:red-tank-01:rostov", "roll": 5},
    ]
    assert rng.labels == ["tank:t3:red:o0:red-tank-01:novocherkassk", "tank:t3:red:o1:red-tank-01:rostov"]


def test_8_92_a_fleet_driven_back_by_a_blockade_leaves_its_search_undone_with_a_note() -> None:
    # 8.92 leaving blockaded Petrograd is a fight to a decision: two British hits, the Red
    # fleet is reduced and goes back to Petrograd; its search of the Baltic cannot be made
    state = position({"red-fleet-01": "Petrograd", "allied-fleet-03": "Baltic Sea"})
    state["standing"] = standing_()
    state["blockade"] = {"allied-fleet-03": "Petrograd"}
    body = orders(move(["red-fleet-01"], "Baltic Sea"), {"search": {"zone": "Baltic Sea"}})
    events, after, rng = run(state, body, [1, 1, 1] + [6, 6, 1])
    assert events[0] == {"type": "moved", "faction": "red", "units": ["red-fleet-01"],
                         "path": ["Petrograd", "Baltic Sea"], "cost": 2, "stopped": False}
    assert events[1]["type"] == "blockade_run" and events[-2]["type"] == "naval_battle_over"
    assert events[-1] == {"type": "note", "zone": "Baltic Sea", "text": "search (order 2) is not carried out "
                          "after this phase's dice: you have no fleet at sea in the Baltic Sea to search with (8.92)"}
    assert rng.labels[0] == "naval:baltic-sea:t3:red:o0:blockade:atk:r1:d1"
    assert after["units"]["red-fleet-01"]["zone"] == "Petrograd" and after["units"]["red-fleet-01"]["reduced"]


# ---------------------------------------------------------------------------------------
# 7.1, 10.1, 10.3, 12.11, 18.1 a move refused: each problem at its own key, none hidden by another


def test_10_3_every_bad_name_in_a_move_is_reported_not_only_the_first() -> None:
    """10.3: each piece named is checked; one refusal does not hide the next."""
    state = position({"red-inf-01": "Moscow", "south-inf-01": "Moscow"})
    units = ("units",)
    assert refused(state, move(["nobody", "south-inf-01", "red-inf-03", "red-inf-01", "red-inf-01", "red-inf-04"],
                               "Tver")) == [
        ((*MOVE, *units, 0), "unknown unit or leader 'nobody'"),
        ((*MOVE, *units, 1), "south-inf-01 belongs to south, not red"),
        ((*MOVE, *units, 2), "red-inf-03 is not on the map"),
        ((*MOVE, *units, 4), "red-inf-01 is named twice"),
        ((*MOVE, *units, 5), "red-inf-04 is not on the map"),
    ]


def test_12_11_a_minor_under_limited_control_is_refused_at_the_units_key() -> None:
    """12.11: under limited control a minor moves two units and one leader a turn."""
    state = position({"finland-inf-02": "Vyborg", "finland-inf-03": "Vyborg", "finland-inf-04": "Vyborg"},
                     actor="south", turn=5)
    state["minors"] = {"finland": {"status": "limited", "controller": "south", "until": 5,
                                   "zones": ["Helsinki", "Vyborg"]}}
    assert refused(state, move(["finland-inf-02", "finland-inf-03", "finland-inf-04"], "Helsinki")) == [
        ((*MOVE, "units"), "finland is under limited control: it moves at most 2 units and 1 leader a turn (12.11)")]
    assert refused(state, move(["finland-inf-02", "finland-inf-03"], "Helsinki")) == []


def test_7_1_an_unknown_from_zone_is_refused_at_the_from_key() -> None:
    """7.1: `from` names a zone; an unknown one is reported where it was written."""
    state = position({"red-inf-01": "Moscow"})
    assert refused(state, move(["red-inf-01"], "Tver", **{"from": "Nowhere"})) == [
        ((*MOVE, "from"), "unknown zone 'Nowhere'")]


def test_10_1_two_leaders_add_up_what_they_command() -> None:
    """10.1: a stack's leaders command the sum of their level plus one."""
    pieces = {f"red-inf-0{n}": "Moscow" for n in range(1, 6)}
    state = position({**pieces, "budyonny": "Moscow", "vatsetis": "Moscow"})
    five = [*pieces, "budyonny", "vatsetis"]
    assert refused(state, move(five, "Tver")) == [
        ((*MOVE, "units"), "Budyonny, Vatsetis can command at most 4 units (10.1); this stack has 5")]
    assert refused(state, move([*five[1:]], "Tver")) == []


def test_10_3_a_leader_other_than_trotsky_gives_two_movement_points() -> None:
    """10.3: a stack with a leader moves 2 movement points (Trotsky 3, 10.83)."""
    state = position({"red-inf-01": "Moscow", "budyonny": "Moscow"},
                     control={"Tver": "south", "Novgorod": "south", "Pskov": "south"})
    assert refused(state, move(["red-inf-01", "budyonny"], "Pskov", via=["Tver", "Novgorod"])) == [
        ((*MOVE, "to"), "this path costs 3 movement points; red-inf-01 has 2 left (7.1, 7.2)")]
    assert refused(state, move(["red-inf-01", "budyonny"], "Novgorod", via=["Tver"])) == []


def test_18_1_the_refusal_names_every_other_white_faction_there() -> None:
    """18.1: White factions may pass through but not stop with another White's units."""
    state = position({"south-inf-01": "Samara", "north-inf-01": "Samara", "siberian-inf-01": "Ufa"},
                     actor="siberian", control={"Samara": "siberian"})
    assert refused(state, move(["siberian-inf-01"], "Samara")) == [
        ((*MOVE, "to"), "White factions may pass through but not stop with north, south units in Samara (18.1)")]


# ---------------------------------------------------------------------------------------
# 7.1, 7.2, 7.42, 7.6 what a move costs and what is left


def test_7_1_7_2_a_given_path_counts_the_points_already_spent() -> None:
    """7.1, 7.2: a unit that has spent its movement point goes no further this phase."""
    state = position({"red-inf-01": "Moscow"})
    state["moved"] = {"red-inf-01": 2}
    assert refused(state, move(["red-inf-01"], "Novgorod", via=["Tver"])) == [
        ((*MOVE, "to"), "this path costs 1 movement points; red-inf-01 has 0 left (7.1, 7.2)")]


def test_7_2_what_is_left_is_that_of_the_piece_that_has_moved_most() -> None:
    """7.2: entering a friendly zone costs half a point; the stack has what its most-moved piece has left."""
    state = position({"red-inf-01": "Moscow", "trotsky": "Moscow"})
    state["moved"] = {"red-inf-01": 6}  # Trotsky has not moved
    assert refused(state, move(["red-inf-01", "trotsky"], "Tver")) == [
        ((*MOVE, "to"), "Tver cannot be reached from Moscow this phase: entering it costs 0.5 movement points "
                        "and these units have 0 left (7.1, 7.2)")]


def test_7_42_cavalry_pays_a_full_point_on_a_difficult_route() -> None:
    """7.42: cavalry moves 2 zones, but a difficult route costs it a whole point."""
    state = position({"red-cav-01": "Tver"})
    state["moved"] = {"red-cav-01": 1}
    assert refused(state, move(["red-cav-01"], "Novgorod")) == [
        ((*MOVE, "to"), "Novgorod cannot be reached from Tver this phase: entering it costs 1 movement points "
                        "and these units have 0.5 left (7.1, 7.2)")]
    assert refused(state, move(["red-cav-01"], "Moscow")) == []


def test_7_6_rail_adds_one_movement_point_not_more() -> None:
    """7.6: rail movement adds one movement point."""
    state = position({"red-inf-01": "Moscow"})
    state["moved"] = {"red-inf-01": 4}
    assert refused(state, move(["red-inf-01"], "Tver", rail=True)) == [
        ((*MOVE, "to"), "Tver cannot be reached from Moscow this phase by rail: entering it costs 0.5 movement "
                        "points and these units have 0 left (7.1, 7.2)")]
    state["moved"] = {"red-inf-01": 3}
    assert refused(state, move(["red-inf-01"], "Tver", rail=True)) == []


def test_7_6_rail_may_enter_a_zone_with_the_factions_own_units() -> None:
    """7.6: only enemy units close a zone to rail movement."""
    state = position({"red-inf-01": "Moscow", "red-inf-02": "Tver"})
    assert refused(state, move(["red-inf-01"], "Tver", rail=True)) == []


def test_19_1_with_railways_a_rail_move_needs_one_rail_movement_a_unit() -> None:
    """19.1: with the railways option each unit moved by rail uses one rail movement."""
    state = position({"red-inf-01": "Moscow", "red-inf-02": "Moscow"}, options={"railways": True})
    state["rail_used"] = {"red": 7}  # of 8
    assert refused(state, move(["red-inf-01", "red-inf-02"], "Tver", rail=True)) == [
        ((*MOVE, "rail"), "red has 1 rail movement(s) left this turn; this needs 2 (7.6, 19.1)")]
    assert refused(state, move(["red-inf-01"], "Tver", rail=True)) == []


def test_7_3_the_cheapest_path_passes_through_the_factions_own_units() -> None:
    """7.3: only enemy units stop a move; the cheapest path goes through friendly stacks."""
    state = position({"red-inf-01": "Moscow", "trotsky": "Moscow", "red-inf-02": "Tver"})
    state["standing"] = standing_()
    events, _, _ = run(state, orders(move(["red-inf-01", "trotsky"], "Novgorod")), [])
    assert events == [{"type": "moved", "faction": "red", "units": ["red-inf-01", "trotsky"],
                       "path": ["Moscow", "Tver", "Novgorod"], "cost": 2, "stopped": False}]


def test_7_1_a_move_to_the_zone_the_units_are_in_costs_nothing_and_stops_nothing() -> None:
    """7.1: a path of no step costs no movement point."""
    state = position({"red-inf-01": "Moscow"})
    state["standing"] = standing_()
    events, _, _ = run(state, orders(move(["red-inf-01"], "Moscow")), [])
    assert events == [{"type": "moved", "faction": "red", "units": ["red-inf-01"], "path": ["Moscow"],
                       "cost": 0, "stopped": False}]


# ---------------------------------------------------------------------------------------
# 7.43, 7.5, 7.7, 8.4 at sea: who stops where, what is carried, what is refused


def test_7_43_a_fleet_entering_a_port_held_by_its_own_units_does_not_stop() -> None:
    """7.43, 7.3: only enemy units stop a fleet that enters a port."""
    state = position({"red-fleet-01": "Baltic Sea", "red-inf-01": "Petrograd"})
    state["standing"] = standing_()
    events, _, _ = run(state, orders(move(["red-fleet-01"], "Petrograd")), [])
    assert events == [{"type": "moved", "faction": "red", "units": ["red-fleet-01"],
                       "path": ["Baltic Sea", "Petrograd"], "cost": 2, "stopped": False}]


def test_8_4_a_fleet_with_a_unit_and_a_leader_aboard_names_both_to_land() -> None:
    """8.4, 7.5: a fleet carrying units at sea stays there until they land."""
    state = at_sea()
    assert refused(state, move(["red-fleet-01"], "Petrograd")) == [
        ((*MOVE, "units"), "red-fleet-01 carries red-inf-01, trotsky at sea (8.4): land them first (move: {units: "
                           "[red-inf-01, trotsky], from: Baltic Sea, to: PORT}); the fleet may sail once they are "
                           "ashore, in a later phase (7.5)")]


def test_8_4_7_3_units_landing_stop_only_where_enemy_units_are() -> None:
    """8.4, 7.3: a landing in a port with enemy units stops there; with its own units it does not."""
    own = at_sea()
    own["units"]["red-inf-02"].update(status="map", zone="Petrograd")
    own["standing"] = standing_()
    events, _, _ = run(own, orders(move(["red-inf-01"], "Petrograd")), [])
    assert events == [{"type": "moved", "faction": "red", "units": ["red-inf-01"],
                       "path": ["Baltic Sea", "Petrograd"], "cost": 2, "stopped": False,
                       "fleets": ["red-fleet-01"]}]
    enemy = at_sea()
    enemy["units"]["north-inf-01"].update(status="map", zone="Petrograd")
    enemy["standing"] = standing_()
    events, _, _ = run(enemy, orders(move(["red-inf-01"], "Petrograd")), [])
    assert events == [{"type": "moved", "faction": "red", "units": ["red-inf-01"],
                       "path": ["Baltic Sea", "Petrograd"], "cost": 2, "stopped": True,
                       "fleets": ["red-fleet-01"]}]
    assert refused(enemy, move(["red-inf-01", "trotsky"], "Novgorod", via=["Petrograd"])) == [
        ((*MOVE, "to"), "the units must stop in Petrograd: enemy units are there (7.3)")]


def test_8_4_a_landing_is_not_searched_at_sea() -> None:
    """8.4: units landing from the sea sail nowhere: no opponent searches them."""
    state = at_sea()
    state["units"]["allied-fleet-03"].update(status="map", zone="Baltic Sea")
    state["standing"] = standing_({"allies": {"naval_search": "always"}})
    events, _, rng = run(state, orders(move(["red-inf-01"], "Petrograd")), [])
    assert [e["type"] for e in events] == ["moved"] and rng.labels == []


def test_7_5_7_3_a_transport_landing_among_its_own_units_does_not_stop() -> None:
    """7.5, 7.3: only enemy units in the landing port stop a transport there."""
    own = position({**TRANSPORT, "red-inf-02": "Reval"}, control={"Reval": "red"})
    own["standing"] = standing_()
    events, _, _ = run(own, orders(move(["red-inf-01"], "Reval", via=["Baltic Sea"])), [])
    assert events == [{"type": "moved", "faction": "red", "units": ["red-inf-01"],
                       "path": ["Petrograd", "Baltic Sea", "Reval"], "cost": 2, "stopped": False,
                       "fleets": ["red-fleet-01"]}]


def test_7_5_10_3_a_transported_leader_goes_on_over_land_and_pays_for_it() -> None:
    """7.5, 10.3: after the landing a leader and his unit may go on; every step is counted."""
    state = position({**TRANSPORT, "trotsky": "Petrograd"}, control={"Reval": "red", "Pskov": "red"})
    state["standing"] = standing_()
    events, _, _ = run(state, orders(move(["red-inf-01", "trotsky"], "Pskov", via=["Baltic Sea", "Reval"])), [])
    assert events == [{"type": "moved", "faction": "red", "units": ["red-inf-01", "trotsky"],
                       "path": ["Petrograd", "Baltic Sea", "Reval", "Pskov"], "cost": 3, "stopped": False,
                       "fleets": ["red-fleet-01"]}]


TWO_LEGS = ["Baltic Sea", "Reval", "Baltic Sea"]


def test_7_5_8_92_a_move_with_two_sea_legs_is_costed_and_searched_leg_by_leg() -> None:
    """7.5: each sea leg costs one movement point; 8.92 the opponent searches each leg."""
    state = position({**TRANSPORT, "trotsky": "Petrograd", "allied-fleet-03": "Baltic Sea"},
                     control={"Reval": "red", "Riga": "red"})
    state["standing"] = standing_({"allies": {"naval_search": "always"}})
    body = orders(move(["red-inf-01", "trotsky"], "Riga", via=TWO_LEGS))
    # no contact on either leg (3+3): the move is made, each leg searched under its own label
    events, _, rng = run(state, body, [3, 3, 3, 3])
    assert events[-1] == {"type": "moved", "faction": "red", "units": ["red-inf-01", "trotsky"],
                          "path": ["Petrograd", *TWO_LEGS, "Riga"], "cost": 4, "stopped": False,
                          "fleets": ["red-fleet-01", "red-fleet-01"]}
    assert rng.labels == ["naval:baltic-sea:t3:allies:on-red:o0:search:d1",
                          "naval:baltic-sea:t3:allies:on-red:o0:search:d2",
                          "naval:baltic-sea:t3:allies:on-red:o0-1:search:d1",
                          "naval:baltic-sea:t3:allies:on-red:o0-1:search:d2"]
    # contact on the first leg (3+4), a round without hits: they turn back with the first fleet only
    events, _, _ = run(state, body, [3, 4] + [1] * 6)
    assert events[-1] == {"type": "moved", "faction": "red", "units": ["red-inf-01", "trotsky"],
                          "path": ["Petrograd"], "cost": 4, "stopped": True, "fleets": ["red-fleet-01"],
                          "why": "turned back at sea, no more movement this phase (8.92)"}


def test_8_92_a_transport_whose_only_unit_is_lost_at_sea_turns_nobody_back() -> None:
    """8.92: the unit a fleet carries shares its damage; with it lost nobody turns back."""
    state = position(TRANSPORT, control={"Reval": "red"}, reduced=("red-inf-01",))
    state["units"]["allied-fleet-03"].update(status="map", zone="Baltic Sea")
    state["standing"] = standing_({"allies": {"naval_search": "always"}})
    events, after, _ = run(state, orders(move(["red-inf-01"], "Reval", via=["Baltic Sea"])), [3, 4, 6, 6, 1, 1, 1, 1])
    assert events[-1] == {"type": "note", "zone": "Baltic Sea",
                          "text": "the transport was met at sea: nobody turn(s) back to Petrograd (8.92)"}
    assert after["units"]["red-inf-01"]["status"] == "eliminated"


def test_8_92_a_leader_whose_unit_is_lost_at_sea_turns_back_alone() -> None:
    """8.92: the leader of a transport whose unit is lost turns back to the port he left."""
    state = position({**TRANSPORT, "trotsky": "Petrograd", "allied-fleet-03": "Baltic Sea"},
                     control={"Reval": "red"}, reduced=("red-inf-01",))
    state["standing"] = standing_({"allies": {"naval_search": "always"}})
    body = orders(move(["red-inf-01", "trotsky"], "Reval", via=["Baltic Sea"]))
    events, _, _ = run(state, body, [3, 4, 6, 6, 1, 1, 1, 1])
    assert events[-1] == {"type": "moved", "faction": "red", "units": ["trotsky"], "path": ["Petrograd"],
                          "cost": 2, "stopped": True, "fleets": ["red-fleet-01"],
                          "why": "turned back at sea, no more movement this phase (8.92)"}


def test_8_92_a_friends_blockade_does_not_stop_a_fleet_entering_the_port() -> None:
    """8.92: only a port blockaded by an enemy fleet is a fight to enter."""
    state = position({"south-fleet-01": "Black Sea", "allied-fleet-02": "Black Sea"}, actor="south",
                     control={"Odessa": "red"})
    state["standing"] = standing_()
    state["blockade"] = {"allied-fleet-02": "Odessa"}
    events, _, rng = run(state, orders(move(["south-fleet-01"], "Odessa")), [])
    assert events == [{"type": "moved", "faction": "south", "units": ["south-fleet-01"],
                       "path": ["Black Sea", "Odessa"], "cost": 2, "stopped": False}]
    assert rng.labels == []


def test_8_92_a_fleet_leaving_a_blockaded_port_runs_the_blockade_in_its_own_name() -> None:
    """8.92: leaving a port blockaded against it, the fleet fights the blockaders."""
    state = position({"red-fleet-01": "Petrograd", "allied-fleet-03": "Baltic Sea"})
    state["standing"] = standing_()
    state["blockade"] = {"allied-fleet-03": "Petrograd"}
    events, _, _ = run(state, orders(move(["red-fleet-01"], "Baltic Sea")), [1, 1, 1, 6, 6, 1])
    assert events[1] == {"type": "blockade_run", "zone": "Baltic Sea", "port": "Petrograd", "faction": "red",
                         "fleets": ["red-fleet-01"], "blockaders": ["allied-fleet-03"], "way": "leaving"}


# ---------------------------------------------------------------------------------------
# 8.91 tanks, 8.92 searches, 13.52, 13.63 and the order of the orders in movement.plan


def planned(state: dict[str, Any], body: dict[str, Any], dice: list[int]) -> tuple[Events, list[Any], SixSided]:
    """movement.plan with these dice (all used), as the action phase resolves the moves."""
    rng = SixSided(*dice)
    events, found = movement.plan(data(), state, state["actor"], body, rng)
    assert rng.values == [], f"dice left over: {rng.values}"
    return events, [(p.path, p.message) for p in found], rng


def test_8_91_a_tank_behind_another_unit_rolls_its_one_six_sided_die() -> None:
    """8.91: each tank entering a neutral or enemy zone rolls a die; it breaks down on a 6."""
    state = position({"red-inf-01": "Tsaritsyn", "red-tank-01": "Tsaritsyn"})
    events, found, rng = planned(state, orders(move(["red-inf-01", "red-tank-01"], "Novocherkassk")), [5])
    assert found == []
    assert events[-1] == {"type": "tank_breakdown", "unit": "red-tank-01", "zone": "Novocherkassk",
                          "label": "tank:t3:red:o0:red-tank-01:novocherkassk", "roll": 5}
    assert rng.sides == [6]


def test_8_91_8_92_without_dice_having_changed_anything_a_bad_order_is_refused() -> None:
    """8.91, 8.92: only an order the phase's dice made impossible is noted instead of refused."""
    bad = move(["red-inf-03"], "Tver")
    refusal = [(("orders", 1, "move", "units", 0), "red-inf-03 is not on the map")]
    # a land move without dice, a fleet entering a port, a tank that does not break down (a 5)
    state = position({"red-inf-01": "Moscow", "red-fleet-01": "Baltic Sea", "red-tank-01": "Tsaritsyn"})
    for first, dice in ((move(["red-inf-01"], "Tver"), []), (move(["red-fleet-01"], "Petrograd"), []),
                        (move(["red-tank-01"], "Novocherkassk"), [5])):
        events, found, _ = planned(state, orders(first, bad), dice)
        assert found == refusal and events[-1]["type"] in ("moved", "tank_breakdown")
    assert planned(state, orders(bad), [])[:2] == ([], [(("orders", 0, "move", "units", 0),
                                                         "red-inf-03 is not on the map")])


def test_8_91_an_order_the_dice_made_impossible_is_noted_where_it_was_to_happen() -> None:
    """8.91: after a breakdown the orders it made impossible are noted, each at its place."""
    state = position({"red-tank-01": "Tsaritsyn"}, reduced=("red-tank-01",))
    body = orders(move(["red-tank-01"], "Novocherkassk"), {"search": "Baltic Sea"},
                  {"blockade": {"port": "Reval"}})
    events, found, _ = planned(state, body, [6])
    assert found == []
    assert events[-2:] == [
        {"type": "note", "zone": "", "text": "search (order 2) is not carried out after this phase's dice: "
                                             "expected a mapping with zone"},
        {"type": "note", "zone": "Reval", "text": "blockade (order 3) is not carried out after this phase's "
                                                  "dice: you have no fleet at sea in the Baltic Sea, adjacent to "
                                                  "Reval, to blockade it (8.92)"},
    ]


def test_8_92_a_search_that_makes_contact_leaves_a_later_blockade_undone_with_a_note() -> None:
    """8.92: the phasing player's search; its fleet, damaged, retreats; its blockade is noted."""
    state = position({"red-fleet-01": "Baltic Sea", "allied-fleet-03": "Baltic Sea"})
    state["standing"] = standing_()
    body = orders({"search": {"zone": "Baltic Sea"}}, {"blockade": {"port": "Reval"}})
    events, after, rng = run(state, body, [3, 4] + [1, 1, 1] + [6, 6, 1])
    assert events[0] == {"type": "naval_search", "zone": "Baltic Sea", "faction": "red", "phasing": True,
                         "fleets": ["red-fleet-01"], "targets": ["allied-fleet-03"], "dice": [3, 4],
                         "contact": True}
    assert events[-1] == {"type": "note", "zone": "Reval", "text": "blockade (order 2) is not carried out after "
                          "this phase's dice: you have no fleet at sea in the Baltic Sea, adjacent to Reval, "
                          "to blockade it (8.92)"}
    assert after["units"]["red-fleet-01"]["zone"] == "Petrograd" and after.get("blockade", {}) == {}
    assert rng.labels[:2] == ["naval:baltic-sea:t3:red:o0:search:d1", "naval:baltic-sea:t3:red:o0:search:d2"]
    # no contact (3+3): the blockade is declared
    events, after, _ = run(state, body, [3, 3])
    assert events[-1] == {"type": "blockade", "faction": "red", "port": "Reval", "sea": "Baltic Sea",
                          "fleets": ["red-fleet-01"]}
    assert after["blockade"] == {"red-fleet-01": "Reval"}


def test_14_2_play_orders_are_left_to_the_cards() -> None:
    """14.2: a card played in the action phase is no order movement.plan refuses."""
    state = position({"red-inf-01": "Moscow"})
    assert planned(state, orders({"play": {"card": "anything"}}, move(["red-inf-01"], "Tver")), [])[1] == []


def test_13_52_greater_poland_answers_only_a_move_into_ukraine() -> None:
    """13.52: after Greater Poland a major entering Ukrainian territory brings Poland in."""
    state = position({"red-inf-01": "Moscow", "red-inf-02": "Chernigov"})
    state["standing"] = standing_()
    state["flags"] = {"greater_poland": "south"}
    events, _, _ = run(state, orders(move(["red-inf-01"], "Tver")), [])
    assert [e["type"] for e in events] == ["moved"]
    events, _, _ = run(state, orders(move(["red-inf-02"], "Kiev")), [])
    assert events[0] == {"type": "minor_status", "minor": "poland", "faction": "red", "roll": None,
                         "status": "active", "controller": "south",
                         "why": "red went against Ukraine after Greater Poland: Poland joins south (13.52)"}


def test_13_63_allied_units_go_as_far_as_they_like_inside_the_sponsors_control() -> None:
    """13.63: allied units may not go more than two zones in a row outside the sponsor's control."""
    pieces = {"allied-inf-01": "Archangel", "miller": "Archangel"}
    inside = position(pieces, actor="north", control={"Onega": "north", "Kem": "north", "Murmansk": "north"})
    inside["allied_control"] = {"north": 1}
    assert refused(inside, move(["allied-inf-01", "miller"], "Murmansk", via=["Onega", "Kem"])) == []
    outside = position(pieces, actor="north", control={"Onega": "south", "Kem": "south", "Murmansk": "south"})
    outside["allied_control"] = {"north": 1}
    assert refused(outside, move(["allied-inf-01", "miller"], "Murmansk", via=["Onega", "Kem"])) == [
        ((*MOVE, "to"), "allied-inf-01 may not go more than 2 zones in a row outside north's control (13.63): "
                        "Murmansk")]


# ---------------------------------------------------------------------------------------
# the bot's moves, zone by zone


def test_7_3_a_bot_stack_refused_does_not_stop_the_next_zones_stack() -> None:
    """7.3: Tula's stack may not move; Tver's still does."""
    state = position({"red-inf-01": "Tula", "south-inf-01": "Tula", "red-inf-02": "Tver"})
    orders_, rng = bot(state, [2, 2], [0, 0])
    assert orders_ == [{"move": {"units": ["red-inf-02"], "from": "Tver", "to": "Moscow"}}]
    assert [a[0] for a in rng.asked] == ["bot:move:red:tula", "bot:dest:red:tula", "bot:move:red:tver",
                                         "bot:dest:red:tver"]


def test_10_3_the_bot_moves_no_leader_alone_and_no_fleet_in_port() -> None:
    """10.3: the bot moves stacks of units: a leader alone asks no die, a fleet is not counted."""
    alone, rng = bot(position({"trotsky": "Kazan"}), [], [])
    assert alone == [] and rng.asked == []
    orders_, rng = bot(position({"red-inf-01": "Petrograd", "red-fleet-01": "Petrograd"}), [2], [0])
    assert orders_ == [{"move": {"units": ["red-inf-01"], "from": "Petrograd", "to": "Novgorod"}}]
    assert [a[0] for a in rng.asked] == ["bot:move:red:petrograd", "bot:dest:red:petrograd"]


def test_11_0_a_bot_stack_with_no_open_neighbour_does_not_stop_the_next_zones_stack() -> None:
    """11.0: around Poznan every zone is closed on turns 1-2; Samara's stack still moves."""
    state = position({"poland-inf-01": "Poznan", "siberian-inf-01": "Samara"}, actor="siberian", turn=2)
    state["minors"] = {"poland": {"status": "active", "controller": "siberian", "until": None}}
    orders_, rng = bot(state, [2, 2], [0])
    assert [a[0] for a in rng.asked] == ["bot:move:siberian:poznan", "bot:move:siberian:samara",
                                         "bot:dest:siberian:samara"]
    assert [o["move"]["from"] for o in orders_] == ["Samara"]


def test_13_61_allied_units_beyond_those_granted_do_not_stop_the_bots_next_zones_stack() -> None:
    """13.61: one allied unit granted; once taken at Archangel the one at Murmansk is not the bot's."""
    state = position({"allied-inf-01": "Archangel", "allied-inf-02": "Murmansk", "north-inf-01": "Onega"},
                     actor="north")
    state["allied_control"] = {"north": 1}
    orders_, rng = bot(state, [2, 2, 2], [2, 0])
    assert orders_ == [{"move": {"units": ["allied-inf-01"], "from": "Archangel", "to": "Vologda"}},
                       {"move": {"units": ["north-inf-01"], "from": "Onega", "to": "Archangel"}}]
    assert [a[0] for a in rng.asked] == ["bot:move:north:archangel", "bot:dest:north:archangel",
                                         "bot:move:north:murmansk", "bot:move:north:onega",
                                         "bot:dest:north:onega"]


def test_7_7_no_crossing_to_batumi_while_an_enemy_fleet_is_in_the_black_sea() -> None:
    """7.7: the Batumi crossing needs a Black Sea free of enemy fleets."""
    via = ("orders", 0, "move", "via", 0)
    control: dict[str, str | None] = {"Novorossiysk": "red", "Batumi": "red"}
    state = position({"red-inf-01": "Novorossiysk", "south-fleet-01": "Black Sea"}, control=control)
    assert refused(state, move(["red-inf-01"], "Batumi", via=["Black Sea"])) == [
        (via, "no crossing to Batumi while an enemy fleet is in the Black Sea (7.7)")]
    # the enemy fleet in port, not at sea: the crossing fails only for want of a Red fleet
    state = position({"red-inf-01": "Novorossiysk", "south-fleet-01": "Sevastopol"}, control=control)
    assert refused(state, move(["red-inf-01"], "Batumi", via=["Black Sea"])) == [
        (via, "no red fleet at sea in the Black Sea is free to carry them this phase (7.5)")]


# 10.7 "a leader of a minor faction may not command units other than his own. For example,
# the Red player controls the anarchist faction. Makhno has a leadership value of 1. He can
# therefore command both an anarchist unit and a red unit, but cannot command two red units."
MAKHNO_LIMIT = ("(10.1; 10.7: Makhno only his own faction's units, and one other unit with them); "
                "this stack has")


def makhno_with(*units: str) -> dict[str, Any]:
    state = position({"makhno": "Gulai Polye", **{u: "Gulai Polye" for u in units}})
    state["minors"]["anarchists"] = {"status": "active", "controller": "red", "until": None}
    return state


@pytest.mark.parametrize(("units", "message"), [
    (["anarchists-cav-01", "red-cav-01"], None),  # the rule's example: one of each
    (["anarchists-cav-01", "anarchists-cav-02"], None),  # his own two
    (["anarchists-cav-01"], None),
    (["red-cav-01", "red-cav-02"], f"Makhno can command at most 0 units {MAKHNO_LIMIT} 2"),  # "cannot"
    (["red-cav-01"], f"Makhno can command at most 0 units {MAKHNO_LIMIT} 1"),  # none of his own
    (["anarchists-cav-01", "anarchists-cav-02", "red-cav-01"],
     f"Makhno can command at most 2 units {MAKHNO_LIMIT} 3"),  # 10.1 still two in all
    (["anarchists-cav-01", "red-cav-01", "red-cav-02"],
     f"Makhno can command at most 2 units {MAKHNO_LIMIT} 3"),  # one Red unit, not two
    (["anarchists-cav-01", "anarchists-cav-02", "anarchists-cav-03"],
     f"Makhno can command at most 2 units {MAKHNO_LIMIT} 3"),  # his value, even of his own
])
def test_10_7_makhno_commands_his_own_units_and_one_red_unit_with_them(units: list[str],
                                                                        message: str | None) -> None:
    state = makhno_with(*units)
    found = refused(state, move([*units, "makhno"], "Ekaterinoslav"))
    assert found == ([] if message is None else [((*MOVE, "units"), message)])


def test_10_7_another_leader_commands_the_units_makhno_may_not() -> None:
    # Budyonny (1) takes the second Red unit: Makhno the anarchist and one Red unit
    units = ["anarchists-cav-01", "red-cav-01", "red-cav-02"]
    state = makhno_with(*units, "budyonny")
    assert refused(state, move([*units, "makhno", "budyonny"], "Ekaterinoslav")) == []
    # without an anarchist unit Makhno commands none: Budyonny's two, of three
    units = ["red-cav-01", "red-cav-02", "red-cav-03"]
    state = makhno_with(*units, "budyonny")
    assert refused(state, move([*units, "makhno", "budyonny"], "Ekaterinoslav")) == [
        ((*MOVE, "units"), "Makhno, Budyonny can command at most 2 units (10.1; 10.7: Makhno only his own "
                           "faction's units, and one other unit with them); this stack has 3")]


def test_10_8_1_lenin_commands_three_units_whatever_his_combat_value() -> None:
    # 10.8.1 "Lenin may still command 3 units as part of a troop movement"
    units = ["red-inf-01", "red-inf-02", "red-inf-03", "red-inf-04"]
    state = position({"lenin": "Moscow", **{u: "Moscow" for u in units}})
    assert refused(state, move([*units[:3], "lenin"], "Tver")) == []
    assert refused(state, move([*units, "lenin"], "Tver")) == [
        ((*MOVE, "units"), "Lenin can command at most 3 units (10.1); this stack has 4")]
