"""Red Russia movement as a rule table: a position, orders, the expected events or error.

Each case's name starts with the rule it tests (rulebook: ../shared/rules/red-russia-rules.txt).
"""

from __future__ import annotations

from typing import Any

import pytest
from position import GAME, FixedRng, OpenSecrets, data, messages, orders, position


def move(units: list[str], to: str, **more: Any) -> dict[str, Any]:
    return {"move": {"units": units, "to": to, **more}}


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
