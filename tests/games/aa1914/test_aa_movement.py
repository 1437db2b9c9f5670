"""Axis & Allies 1914's movement as rule tables (games/aa1914/rules/movement.py): one case
per clause, each at its limit and one past it (a move of exactly the unit's reach and one
space more), on positions built from the real map. In-process, without git.
"""

from __future__ import annotations

import importlib
from typing import Any

import pytest

from pbem.dice import KeyedRng
from pbem.game import GameData, Problem, State, get_game, load_data

GAME = get_game("aa1914")
movement = importlib.import_module("pbem_game_aa1914.movement")
NOT_YET = "is not refereed yet (games/aa1914/README.md)"


def data() -> GameData:
    return load_data("aa1914")


def position(power: str, units: dict[str, dict[str, dict[str, int]]] | None = None,
             turn: int = 2, **changes: Any) -> State:
    """Round `turn`, `power`'s turn; with `units`, only those units on the map."""
    state = GAME.setup(data(), {}, KeyedRng(b"\x02" * 32))
    state.update(power=power, turn=turn, **changes)
    if units is not None:
        state["units"] = units
    return state


def move(frm: str, to: str, units: dict[str, int], via: list[str] | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"from": frm, "to": to, "units": units}
    if via is not None:
        body["via"] = via
    return {"move": body}


def problems(state: State, *items: dict[str, Any]) -> list[Problem]:
    return GAME.validate(data(), state, state["power"], {"orders": list(items)})


def messages(state: State, *items: dict[str, Any]) -> list[str]:
    return [p.message for p in problems(state, *items)]


def moved(state: State, *items: dict[str, Any]) -> list[dict[str, Any]]:
    events = GAME.resolve(data(), state, {state["power"]: {"orders": list(items)}},
                          KeyedRng(b"\x03" * 32))
    return [e for e in events if e["type"] == "moved"]


# ---------------------------------------------------------------------------------------
# reach, adjacency, once a turn


def test_sources_0_an_infantry_moves_one_space_into_its_own_territory() -> None:
    s = position("austria_hungary")
    assert messages(s, move("vienna", "bohemia", {"infantry": 2, "artillery": 1})) == []
    events = moved(s, move("vienna", "bohemia", {"infantry": 2, "artillery": 1}))
    assert events == [{"type": "moved", "power": "austria_hungary", "from": "vienna",
                       "to": "bohemia", "via": [], "units": {"artillery": 1, "infantry": 2}}]
    t = GAME.apply(data(), s, events[0])
    assert t["units"]["vienna"]["austria_hungary"] == {"infantry": 10, "artillery": 1}
    assert t["units"]["bohemia"]["austria_hungary"] == {"infantry": 8, "artillery": 3}
    assert GAME.summary(data(), events[0]) == (
        "Austria-Hungary moves 1 artillery, 2 infantry from Vienna to Bohemia")


def test_sources_0_an_infantry_moving_two_spaces_is_refused() -> None:
    s = position("austria_hungary")
    assert messages(s, move("vienna", "galicia", {"infantry": 1}, via=["bohemia"])) == [
        "an infantry moves at most 1 space a turn; this move is 2"]


def test_each_step_is_next_to_the_last() -> None:
    s = position("austria_hungary")
    assert messages(s, move("vienna", "silesia", {"infantry": 1})) == [
        "Silesia is not next to Vienna (next to Vienna: Bohemia, Budapest, Galicia, Trieste, "
        "Tyrolia)"]


def test_sources_1_1_a_unit_moves_once_a_turn_and_no_more_are_moved_than_stand_there() -> None:
    s = position("austria_hungary", {"vienna": {"austria_hungary": {"infantry": 2}},
                                     "bohemia": {"austria_hungary": {"infantry": 1}}})
    assert messages(s, move("vienna", "bohemia", {"infantry": 2})) == []
    assert messages(s, move("vienna", "bohemia", {"infantry": 3})) == [
        "Vienna has 2 infantry of austria_hungary that have not moved this turn; the order moves 3"]
    # two moves of the same units: the second finds none left to move
    assert messages(s, move("vienna", "bohemia", {"infantry": 2}),
                    move("vienna", "galicia", {"infantry": 1})) == [
        "Vienna has 0 infantry of austria_hungary that have not moved this turn; the order moves 1"]
    # units that arrived this turn do not move on: Bohemia's own one may
    assert messages(s, move("vienna", "bohemia", {"infantry": 2}),
                    move("bohemia", "galicia", {"infantry": 1})) == []
    assert messages(s, move("vienna", "bohemia", {"infantry": 2}),
                    move("bohemia", "galicia", {"infantry": 2})) == [
        "Bohemia has 1 infantry of austria_hungary that has not moved this turn; the order moves 2"]


def test_nothing_enters_an_impassable_territory() -> None:
    s = position("britain", {"egypt": {"britain": {"fighter": 1}}}, at_war=["britain"])
    assert messages(s, move("egypt", "sahara", {"fighter": 1})) == ["Sahara is impassable"]


def test_a_move_is_written_as_the_rules_read_it() -> None:
    s = position("austria_hungary")
    shape = ("expected {from: PLACE, to: PLACE, units: {TYPE: COUNT}} and, for a longer move, "
             "via: [PLACE, ...]")
    assert messages(s, {"move": {"from": "vienna", "units": {"infantry": 1}}}) == [shape]
    assert messages(s, {"move": {"from": "vienna", "to": "bohemia", "units": {"infantry": 1},
                                 "by": "rail"}}) == [shape]
    assert messages(s, move("vienna", "bohemia", {"infantry": 1}, via="galicia")) == [  # type: ignore[arg-type]
        "expected a list of the places passed, in order"]
    found = problems(s, move("viena", "bohemia", {"infantry": 1}))
    assert found == [Problem(("orders", 0, "move", "from"),
                             "'viena' is not a territory or sea zone; did you mean 'vienna'?")]
    assert messages(s, move("vienna", "bohemia", {"infantri": 1}))[0].startswith(
        "'infantri' is not a unit type you may move now; did you mean 'infantry'?")


# ---------------------------------------------------------------------------------------
# land, air, sea


def test_sources_7_1_land_units_go_by_sea_only_in_a_move_of_land_units() -> None:
    s = position("britain", {"london": {"britain": {"infantry": 1, "fighter": 1}},
                             "sz09": {"britain": {"transport": 1}}})
    assert messages(s, move("london", "picardy", {"infantry": 1}, via=["sz09"])) == []
    assert messages(s, move("london", "picardy", {"infantry": 1, "fighter": 1}, via=["sz09"])) == [
        "an infantry moves at most 1 space a turn; this move is 2",
        "an infantry moves over land, or by sea as a transport's cargo in a move of land units only"]


@pytest.mark.parametrize(("via", "to", "wanted"), [
    ([], "burgundy", []),
    (["burgundy"], "marseilles", []),  # two spaces: the fighter's reach
    (["burgundy", "marseilles"], "piedmont", ["a fighter moves at most 2 spaces a turn; this move is 3"]),
    (["picardy"], "sz08", ["a fighter ends its move on land: it has nowhere to land in SZ 8"]),
    (["sz09"], "picardy", ["SZ 9 is not next to Paris (next to Paris: Bordeaux, Brest, Burgundy, "
                           "Picardy)"]),
])
def test_sources_10_1_a_fighter_flies_two_spaces_and_lands(
        via: list[str], to: str, wanted: list[str]) -> None:
    s = position("france", {"paris": {"france": {"fighter": 1}}})
    assert messages(s, move("paris", to, {"fighter": 1}, via=via)) == wanted


def test_sources_10_1_a_fighter_flies_over_a_sea_zone_to_land_beyond() -> None:
    s = position("britain", {"london": {"britain": {"fighter": 1}}})
    assert messages(s, move("london", "picardy", {"fighter": 1}, via=["sz09"])) == []


def test_sources_0_ships_move_from_sea_zone_to_sea_zone_within_reach() -> None:
    s = position("britain", {"sz09": {"britain": {"cruiser": 1, "transport": 1}}})
    assert messages(s, move("sz09", "sz04", {"cruiser": 1})) == []
    assert messages(s, move("sz09", "sz03", {"cruiser": 1}, via=["sz04"])) == []
    assert messages(s, move("sz09", "sz03", {"transport": 1}, via=["sz04"])) == []
    assert messages(s, move("sz09", "sz07", {"transport": 1}, via=["sz04", "sz03"])) == [
        "a transport moves at most 2 spaces a turn; this move is 3"]
    assert messages(s, move("sz09", "london", {"cruiser": 1})) == [
        "a cruiser moves from sea zone to sea zone"]


@pytest.mark.parametrize(("enemy", "stopped"), [
    ({"cruiser": 1}, True), ({"battleship": 1}, True),
    ({"submarine": 2}, False), ({"transport": 1}, False),
])
def test_sources_6_2_an_enemy_warship_stops_a_move_a_submarine_or_transport_does_not(
        enemy: dict[str, int], stopped: bool) -> None:
    s = position("britain", {"sz09": {"britain": {"cruiser": 1}}, "sz04": {"germany": enemy}})
    found = messages(s, move("sz09", "sz03", {"cruiser": 1}, via=["sz04"]))
    assert found == ([f"enemy {next(iter(enemy))} in SZ 4 stop a move there"] if stopped else [])


def test_sources_10_3_the_suez_canal_is_passed_only_while_ones_side_holds_egypt() -> None:
    units = {"sz19": {"britain": {"cruiser": 1}}}
    assert messages(position("britain", units), move("sz19", "sz28", {"cruiser": 1})) == []
    held = position("britain", units)
    held["control"]["egypt"] = "france"  # an ally's is one's side's
    assert messages(held, move("sz19", "sz28", {"cruiser": 1})) == []
    lost = position("britain", units)
    lost["control"]["egypt"] = "ottomans"
    assert messages(lost, move("sz19", "sz28", {"cruiser": 1})) == [
        "the Suez Canal is passed only while your side holds Egypt"]


def test_sources_6_7_a_ship_may_enter_any_minefield_it_rolls_for_the_enemys() -> None:
    s = position("britain", {"sz09": {"britain": {"cruiser": 1}}})
    assert messages(s, move("sz09", "sz10", {"cruiser": 1})) == []  # Germany's field: mines roll
    assert messages(s, move("sz09", "sz08", {"cruiser": 1})) == []  # Britain's own


# ---------------------------------------------------------------------------------------
# where a move may end: attacks, contested territories, the USA


@pytest.mark.parametrize(("to", "why"), [
    ("venice", "an enemy's territory"), ("switzerland", "a neutral's, with its defenders"),
])
def test_sources_1_1_a_move_into_enemy_or_neutral_land_is_an_attack(to: str, why: str) -> None:
    s = position("austria_hungary", {"tyrolia": {"austria_hungary": {"infantry": 1}}})
    assert messages(s, move("tyrolia", to, {"infantry": 1})) == [], why


def test_sources_1_1_a_move_into_a_sea_zone_with_enemy_ships_is_an_attack_at_sea() -> None:
    s = position("britain", {"sz09": {"britain": {"cruiser": 1}}, "sz05": {"germany": {"submarine": 1}}})
    assert messages(s, move("sz09", "sz05", {"cruiser": 1})) == []


@pytest.mark.parametrize(("land", "legal"), [(True, True), (False, False)])
def test_sources_10_1_a_fighter_attacks_only_with_land_units_of_its_power(
        land: bool, legal: bool) -> None:
    s = position("austria_hungary", {"tyrolia": {"austria_hungary": {"infantry": 1, "fighter": 1}}})
    items = [move("tyrolia", "venice", {"fighter": 1})]
    if land:
        items.append(move("tyrolia", "venice", {"infantry": 1}))
    assert messages(s, *items) == ([] if legal else [
        "a fighter attacking Venice ends its move there with land units of its power (fighters "
        "alone take nothing)"])


def test_land_units_move_into_an_allys_territory() -> None:
    s = position("britain", {"london": {"britain": {"fighter": 1}}})
    assert messages(s, move("london", "picardy", {"fighter": 1}, via=["sz08"])) == []
    c = position("usa", {"canada": {"usa": {"infantry": 1}}}, turn=4, at_war=["usa"])
    assert messages(c, move("canada", "united_states_of_america", {"infantry": 1})) == []


@pytest.mark.parametrize(("to", "own_there", "holder", "legal"), [
    ("burgundy", False, "france", True),    # a territory the power holds
    ("burgundy", False, "britain", False),  # an ally's, without its own units
    ("burgundy", True, "britain", True),    # an ally's where its own units stand
])
def test_sources_1_6_out_of_a_contested_territory(
        to: str, own_there: bool, holder: str, legal: bool) -> None:
    units = {"lorraine": {"france": {"infantry": 2}, "germany": {"infantry": 1}}}
    if own_there:
        units[to] = {"france": {"artillery": 1}}
    s = position("france", units, contested=["lorraine"])
    s["control"].update(lorraine="france", **{to: holder})
    found = messages(s, move("lorraine", to, {"infantry": 1}))
    assert found == ([] if legal else [
        "out of contested Lorraine an infantry moves only into a territory france holds or "
        "where its own units stand"])


@pytest.mark.parametrize(("turn", "legal"), [(3, False), (4, True)])
def test_sources_8_1_the_usa_moves_nothing_before_it_is_at_war(turn: int, legal: bool) -> None:
    s = position("usa", turn=turn)
    if legal:
        s["at_war"].append("usa")
    found = messages(s, move("united_states_of_america", "canada", {"infantry": 1}))
    assert found == ([] if legal else ["USA moves nothing before it is at war (round 4)"])


def test_moves_come_between_the_purchase_and_the_mobilization() -> None:
    s = position("austria_hungary")
    events = GAME.resolve(data(), s, {"austria_hungary": {"orders": [
        {"buy": {"infantry": 2}}, move("vienna", "bohemia", {"infantry": 12})]}},
        KeyedRng(b"\x03" * 32))
    assert [e["type"] for e in events] == ["bought", "moved", "mobilized", "income", "next"]
    t = s
    for e in events:
        t = GAME.apply(data(), t, e)
    assert t["units"]["vienna"]["austria_hungary"] == {"infantry": 2, "artillery": 2}


def test_apply_refuses_a_move_of_units_that_are_not_there() -> None:
    s = position("austria_hungary", {"vienna": {"austria_hungary": {"infantry": 1}}})
    with pytest.raises(ValueError, match="vienna has 1 infantry of austria_hungary, not 2"):
        GAME.apply(data(), s, {"type": "moved", "power": "austria_hungary", "from": "vienna",
                               "to": "bohemia", "via": [], "units": {"infantry": 2}})


# ---------------------------------------------------------------------------------------
# where each problem points, and problems of several moves together


@pytest.mark.parametrize(("item", "path"), [
    (move("vienna", "galicia", {"infantry": 1}, via=["bohemia"]), ("orders", 1, "move")),
    (move("vienna", "silesia", {"infantry": 1}), ("orders", 1, "move")),
    (move("vienna", "bohemia", {"infantry": 99}), ("orders", 1, "move", "units", "infantry")),
    (move("vienna", "bohemia", {"infantry": 1}, via="x"), ("orders", 1, "move", "via")),  # type: ignore[arg-type]
    (move("vienna", "bohemia", {"infantry": 1}, via=["x"]), ("orders", 1, "move", "via", 0)),
    (move("vienna", "x", {"infantry": 1}), ("orders", 1, "move", "to")),
    (move("vienna", "bohemia", {"x": 1}), ("orders", 1, "move", "units", "x")),
    ({"move": {"to": "x"}}, ("orders", 1, "move")),
    (move("sz18", "trieste", {"cruiser": 1}), ("orders", 1, "move")),
    (move("vienna", "sz18", {"infantry": 1}, via=["trieste"]), ("orders", 1, "move")),
])
def test_each_problem_points_at_its_move_in_the_file(item: dict[str, Any],
                                                      path: tuple[object, ...]) -> None:
    s = position("austria_hungary")
    found = problems(s, {"buy": {"infantry": 1}}, item)
    assert found and {p.path for p in found} == {path}, found


def test_the_problems_of_other_clauses_point_at_their_move() -> None:
    where = ("orders", 0, "move")
    paths = [
        (position("britain", {"egypt": {"britain": {"fighter": 1}}}),
         move("egypt", "sahara", {"fighter": 1})),
        (position("france", {"paris": {"france": {"fighter": 1}}}),
         move("paris", "sz08", {"fighter": 1}, via=["picardy"])),
        (position("britain", {"sz09": {"britain": {"cruiser": 1}}, "sz04": {"germany": {"cruiser": 1}}}),
         move("sz09", "sz03", {"cruiser": 1}, via=["sz04"])),
        (position("usa", turn=3), move("united_states_of_america", "canada", {"infantry": 1})),
    ]
    lost = position("britain", {"sz19": {"britain": {"cruiser": 1}}})
    lost["control"]["egypt"] = "ottomans"
    paths.append((lost, move("sz19", "sz28", {"cruiser": 1})))
    contested = position("france", {"lorraine": {"france": {"infantry": 2}}}, contested=["lorraine"])
    contested["control"]["burgundy"] = "britain"
    paths.append((contested, move("lorraine", "burgundy", {"infantry": 1})))
    for state, item in paths:
        found = problems(state, item)
        assert len(found) == 1 and found[0].path == where, found


def test_one_bad_unit_type_is_the_one_problem_of_its_move() -> None:
    s = position("austria_hungary")
    assert len(messages(s, move("vienna", "silesia", {"infantri": 1, "infantry": 1}))) == 1


def test_a_malformed_move_does_not_hide_the_next_ones_problems() -> None:
    s = position("austria_hungary", {"vienna": {"austria_hungary": {"infantry": 2}}})
    assert messages(s, {"move": {"to": "x"}}, move("vienna", "bohemia", {"infantry": 3})) == [
        "expected {from: PLACE, to: PLACE, units: {TYPE: COUNT}} and, for a longer move, via: "
        "[PLACE, ...]",
        "Vienna has 2 infantry of austria_hungary that have not moved this turn; the order moves 3"]


def test_a_refused_move_takes_no_units_from_the_next() -> None:
    s = position("austria_hungary", {"vienna": {"austria_hungary": {"infantry": 2}}})
    assert messages(s, move("vienna", "bohemia", {"infantry": 3}),
                    move("vienna", "galicia", {"infantry": 2})) == [
        "Vienna has 2 infantry of austria_hungary that have not moved this turn; the order moves 3"]


def test_a_move_by_way_of_a_place_is_recorded_and_told_with_it() -> None:
    s = position("britain", {"london": {"britain": {"fighter": 2}},
                             "picardy": {"britain": {"infantry": 1}}})
    events = moved(s, move("london", "picardy", {"fighter": 2}, via=["sz09"]))
    assert events == [{"type": "moved", "power": "britain", "from": "london", "to": "picardy",
                       "via": ["sz09"], "units": {"fighter": 2}}]
    assert GAME.summary(data(), events[0]) == "Britain moves 2 fighters from London to Picardy by SZ 9"
    t = GAME.apply(data(), s, events[0])
    assert t["units"]["picardy"]["britain"] == {"infantry": 1, "fighter": 2}
    assert t["units"]["london"]["britain"] == {}
    three = move("sz09", "sz03", {"cruiser": 1}, via=["sz04", "sz07"])
    c = position("britain", {"sz09": {"britain": {"cruiser": 1}}})
    assert moved(c, move("sz09", "sz07", {"cruiser": 1}, via=["sz04", "sz03"]))[0]["via"] == [
        "sz04", "sz03"]
    assert messages(c, three) == ["SZ 7 is not next to SZ 4 (next to SZ 4: SZ 3, SZ 5, SZ 8, SZ 9, "
                                  "Scotland)"]


def test_units_that_are_not_there_are_not_moved() -> None:
    s = position("austria_hungary", {"vienna": {"austria_hungary": {"infantry": 2}}})
    assert messages(s, move("vienna", "bohemia", {"artillery": 1})) == [
        "Vienna has 0 artillery of austria_hungary that have not moved this turn; the order moves 1"]
    assert messages(s, move("budapest", "vienna", {"infantry": 1})) == [
        "Budapest has 0 infantry of austria_hungary that have not moved this turn; the order moves 1"]
    with pytest.raises(ValueError, match="vienna has 0 artillery of austria_hungary, not 1"):
        GAME.apply(data(), s, {"type": "moved", "power": "austria_hungary", "from": "vienna",
                               "to": "bohemia", "via": [], "units": {"artillery": 1}})


def test_sources_6_2_ones_own_sides_warships_do_not_stop_a_move_and_every_enemy_type_is_named() -> None:
    s = position("britain", {"sz09": {"britain": {"cruiser": 1}}, "sz04": {"france": {"cruiser": 1}}})
    assert messages(s, move("sz09", "sz03", {"cruiser": 1}, via=["sz04"])) == []
    s["units"]["sz04"] = {"germany": {"cruiser": 1, "battleship": 1}}
    assert messages(s, move("sz09", "sz03", {"cruiser": 1}, via=["sz04"])) == [
        "enemy cruiser, battleship in SZ 4 stop a move there"]


def test_a_move_by_way_of_two_places_is_told_with_both() -> None:
    s = position("britain", {"sz09": {"britain": {"cruiser": 1}}})
    event = moved(s, move("sz09", "sz07", {"cruiser": 1}, via=["sz04", "sz03"]))[0]
    assert GAME.summary(data(), event) == "Britain moves 1 cruiser from SZ 9 to SZ 7 by SZ 4, SZ 3"
