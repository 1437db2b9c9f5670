"""Red Russia's economy as rule tables: purchase (4.2, 5.2-5.4, 6.4, 15.1), winter
attrition (5.5), maintenance (5.6) and collection (6.2-6.6, 13.3).

Each case's name starts with the rule it tests (rulebook: ../shared/rules/red-russia-rules.txt).
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any

import pytest
from position import FixedRng, board_rules, data, position

from pbem.game import GameData, State, clone
from pbem.yamlio import read_trusted

economy = importlib.import_module("pbem_game_red_russia.economy")
fold_rules = importlib.import_module("pbem_game_red_russia.fold")


@cache
def econ() -> GameData:
    """The game data with economy.yaml, whether or not game.yaml names it yet.

    (load_data's overrides patch files already loaded, so an override of game.yaml's
    data_files does not load economy.yaml: it is read here.)"""
    base = data()
    if "economy" in base.files:
        return base
    return GameData(base.game_id, base.folder,
                    {**base.files, "economy": read_trusted(base.folder / "economy.yaml")})


def apply_all(state: State, events: list[dict[str, Any]]) -> State:
    b = board_rules.board(econ())
    for e in events:
        new = clone(state)
        economy.APPLY[e["type"]](b, new, e)
        state = new
    return state


def purchase(state: State, faction: str, *items: dict[str, Any]) -> list[dict[str, Any]] | str:
    body = {"orders": list(items)}
    problems = economy.validate_purchase(econ(), state, faction, body)
    if problems:
        return "; ".join(p.message for p in problems)
    return economy.resolve_purchase(econ(), state, {faction: body})  # type: ignore[no-any-return]


def with_money(state: State, faction: str, money: int, manpower: int) -> State:
    state["money"][faction] = money
    state["manpower"][faction] = manpower
    return state


def bought(state: State, pid: str, arrives: int) -> State:
    state["units"][pid].update(status="bought", zone=None, arrives=arrives)
    return state


# ---------------------------------------------------------------------------------------
# the cost table


def test_economy_yaml_is_complete() -> None:
    assert economy.check(econ()) == []
    assert economy.costs(econ())["inf"]["money"] == 3  # 5.3


def test_6_4_the_5_3_worked_example() -> None:
    """5.3: the Red player buys an infantry unit in spring: money -3, manpower -5, and the
    unit waits on the autumn space."""
    state = with_money(position({}, turn=4), "red", 30, 40)
    turns = econ()["game"]["turns"]
    assert turns[state["turn"] - 1].startswith("Spring")
    events = purchase(state, "red", {"buy": {"type": "inf", "count": 1}})
    assert isinstance(events, list) and len(events) == 1
    e = events[0]
    assert (e["type"], e["faction"], e["money"], e["manpower"]) == ("bought", "red", 3, 5)
    assert turns[e["arrives"] - 1].startswith("Autumn")
    after = apply_all(state, events)
    assert (after["money"]["red"], after["manpower"]["red"]) == (27, 35)
    unit = after["units"][e["units"][0]]
    assert (unit["status"], unit["arrives"], unit["type"]) == ("bought", 6, "inf")
    assert state["money"]["red"] == 30  # the input is not mutated


# ---------------------------------------------------------------------------------------
# the purchase phase: (name, faction, pieces ({id: place}, all reduced), turn, {unit: status},
# (money, manpower), orders, expected: a list of (event type, units) or an error fragment)

PURCHASES: list[tuple[str, str, dict[str, str], int, dict[str, str], tuple[int, int],
                      list[dict[str, Any]], Any]] = [
    ("5.3 the strongest counter of the type is taken",
     "red", {}, 4, {}, (30, 40), [{"buy": {"type": "cav", "count": 2}}],
     [("bought", ["red-cav-02", "red-cav-03"])]),
    ("5.3 a named counter may be bought",
     "red", {}, 4, {}, (30, 40), [{"buy": {"units": ["red-inf-17"]}}], [("bought", ["red-inf-17"])]),
    ("5.3 eliminated units may be rebuilt",
     "red", {}, 4, {"red-inf-05": "eliminated"}, (30, 40), [{"buy": {"units": ["red-inf-05"]}}],
     [("bought", ["red-inf-05"])]),
    ("5.3 fleets once destroyed cannot be rebuilt",
     "red", {}, 4, {"red-fleet-01": "eliminated"}, (30, 40), [{"buy": {"type": "fleet"}}],
     "cannot be rebuilt (5.3)"),
    ("5.3 a destroyed fleet named cannot be rebuilt",
     "red", {}, 4, {"red-fleet-01": "eliminated"}, (30, 40), [{"buy": {"units": ["red-fleet-01"]}}],
     "cannot be rebuilt (5.3)"),
    ("5.3 units on the map are not in the pool",
     "red", {"red-inf-09": "Moscow"}, 4, {}, (30, 40), [{"buy": {"units": ["red-inf-09"]}}],
     "is on the map"),
    ("5.3 20.4's removed units enter only by card",
     "red", {}, 4, {}, (30, 40), [{"buy": {"units": ["red-inf-01"]}}], "event card (20.4)"),
    ("20.4 a counter set aside for an event card enters only by it",
     "south", {}, 4, {"south-cav-01": "card"}, (30, 40), [{"buy": {"units": ["south-cav-01"]}}],
     "south-cav-01 is set aside for the event card that brings it (20.4)"),
    ("5.3 no more counters than the pool holds",
     "red", {}, 4, {}, (300, 400), [{"buy": {"type": "cav", "count": 7}}],
     "only 6 cav counter(s) left"),
    ("5.3 a unit must arrive before the game ends",
     "red", {}, 11, {}, (30, 40), [{"buy": {"type": "inf"}}], "after the last turn (12)"),
    ("5.3 a counter is bought once",
     "red", {}, 4, {}, (30, 40), [{"buy": {"units": ["red-inf-17"]}}, {"buy": {"units": ["red-inf-17"]}}],
     "bought twice"),
    ("15.4 tanks may not be bought before the Tank card",
     "red", {}, 4, {}, (30, 40), [{"buy": {"type": "tank"}}], "\"Tank\" card (15.4)"),
    ("15.4 after the Tank card tanks may be bought",
     "red", {}, 4, {"red-tank-01": "pool"}, (30, 40), [{"buy": {"type": "tank"}}],
     [("bought", ["red-tank-01"])]),
    ("20.4 the Reds may not build aircraft before Summer 1919",
     "red", {}, 4, {}, (30, 40), [{"buy": {"type": "air"}}], "before Summer 1919 (20.4)"),
    ("20.4 the Reds may build aircraft from Summer 1919",
     "red", {}, 5, {}, (30, 40), [{"buy": {"type": "air"}}], [("bought", ["red-air-01"])]),
    ("20.4 the Whites may build aircraft earlier",
     "south", {}, 4, {}, (30, 40), [{"buy": {"type": "air"}}], [("bought", ["south-air-01"])]),
    ("6.4 an unaffordable purchase is rejected with the shortfall",
     "red", {}, 4, {}, (5, 7), [{"buy": {"type": "inf", "count": 2}}],
     "costs 6 money and 10 manpower; red has 5 money and 7 manpower: 1 money and 3 manpower short"),
    ("6.4 buys and repairs are paid together",
     "red", {"red-inf-02": "Moscow"}, 4, {}, (4, 6),
     [{"buy": {"type": "inf"}}, {"repair": {"units": ["red-inf-02"]}}],
     "costs 4 money and 7 manpower; red has 4 money and 6 manpower: 1 manpower short"),
    ("6.4 exactly enough is enough",
     "red", {"red-inf-02": "Moscow"}, 4, {}, (4, 7),
     [{"buy": {"type": "inf"}}, {"repair": {"units": ["red-inf-02"]}}],
     [("bought", ["red-inf-03"]), ("repaired", ["red-inf-02"])]),
    ("5.4 a reduced unit on the map is repaired",
     "red", {"red-inf-02": "Moscow"}, 4, {}, (30, 40), [{"repair": {"units": ["red-inf-02"]}}],
     [("repaired", ["red-inf-02"])]),
    ("5.4 a fleet at sea cannot be repaired",
     "red", {"red-fleet-01": "Baltic Sea"}, 4, {}, (30, 40), [{"repair": {"units": ["red-fleet-01"]}}],
     "fleets are repaired only in a port (5.4)"),
    ("5.4 a fleet in a port is repaired",
     "red", {"red-fleet-01": "Petrograd"}, 4, {}, (30, 40), [{"repair": {"units": ["red-fleet-01"]}}],
     [("repaired", ["red-fleet-01"])]),
    ("5.4 only one's own units are repaired",
     "red", {"south-inf-01": "Novorossiysk"}, 4, {}, (30, 40), [{"repair": {"units": ["south-inf-01"]}}],
     "not a unit of red"),
]


@pytest.mark.parametrize("name,faction,pieces,turn,statuses,means,items,expected", PURCHASES,
                         ids=[c[0] for c in PURCHASES])
def test_purchase(name: str, faction: str, pieces: dict[str, str], turn: int, statuses: dict[str, str],
                  means: tuple[int, int], items: list[dict[str, Any]], expected: Any) -> None:
    state = with_money(position(pieces, turn=turn, reduced=list(pieces)), faction, *means)
    for pid, status in statuses.items():
        state["units"][pid]["status"] = status
    result = purchase(state, faction, *items)
    if isinstance(expected, str):
        assert isinstance(result, str) and expected in result, result
        return
    assert isinstance(result, list), result
    assert [(e["type"], e["units"]) for e in result] == expected
    after = apply_all(state, result)
    spent = sum(e["money"] for e in result), sum(e["manpower"] for e in result)
    assert (after["money"][faction], after["manpower"][faction]) == (means[0] - spent[0], means[1] - spent[1])
    for e in result:
        for pid in e["units"]:
            unit = after["units"][pid]
            if e["type"] == "repaired":
                assert unit["reduced"] is False and unit["status"] == "map"
            else:
                assert unit["status"] == "bought" and unit["arrives"] > turn


def test_5_4_a_unit_at_full_strength_is_not_repaired() -> None:
    state = position({"red-inf-02": "Moscow"}, turn=4)
    assert "at full strength" in str(purchase(state, "red", {"repair": {"units": ["red-inf-02"]}}))


def test_5_4_repair_costs_come_from_the_table() -> None:
    state = with_money(position({"red-inf-02": "Moscow", "red-cav-02": "Moscow"}, turn=4,
                                reduced=["red-inf-02", "red-cav-02"]), "red", 30, 40)
    result = purchase(state, "red", {"repair": {"units": ["red-inf-02", "red-cav-02"]}})
    table = economy.costs(econ())
    assert isinstance(result, list)
    assert result[0]["money"] == table["inf"]["repair"]["money"] + table["cav"]["repair"]["money"]
    assert result[0]["manpower"] == table["inf"]["repair"]["manpower"] + table["cav"]["repair"]["manpower"]


# ---------------------------------------------------------------------------------------
# arrivals (4.2, 5.2)

ARRIVALS: list[tuple[str, int, dict[str, int], dict[str, str | None], list[dict[str, Any]], Any]] = [
    ("5.2 arrivals are placed in a zone the faction controls",
     4, {"red-inf-09": 4, "red-cav-04": 4}, {},
     [{"place": {"zone": "Moscow", "units": ["red-inf-09"]}},
      {"place": {"zone": "Tula", "units": ["red-cav-04"]}}],
     [("Moscow", ["red-inf-09"]), ("Tula", ["red-cav-04"])]),
    ("5.2 arrivals may not go to a zone the faction does not control",
     4, {"red-inf-09": 4}, {}, [{"place": {"zone": "Omsk", "units": ["red-inf-09"]}}],
     "red does not control it (5.2)"),
    ("5.2 every arrival must be placed",
     4, {"red-inf-09": 4, "red-cav-04": 4}, {}, [{"place": {"zone": "Moscow", "units": ["red-inf-09"]}}],
     "still to place (5.2): red-cav-04"),
    ("5.2 units arriving later cannot be placed yet",
     4, {"red-inf-09": 6}, {}, [{"place": {"zone": "Moscow", "units": ["red-inf-09"]}}],
     "arrives on turn 6"),
    ("5.2 an arrival with nowhere to go waits",
     4, {"red-fleet-01": 4}, {"Petrograd": "south"}, [], []),
    ("7.43 a fleet arrives in a port of its own sea",
     4, {"red-fleet-01": 4}, {}, [{"place": {"zone": "Moscow", "units": ["red-fleet-01"]}}],
     "port of the Baltic Sea"),
    ("7.43 a fleet arrives in a friendly port",
     4, {"red-fleet-01": 4}, {}, [{"place": {"zone": "Petrograd", "units": ["red-fleet-01"]}}],
     [("Petrograd", ["red-fleet-01"])]),
    ("11.0 arrivals do not go to iron-cross zones on turns 1-2",
     2, {"red-inf-09": 2}, {"Kharkov": "red"}, [{"place": {"zone": "Kharkov", "units": ["red-inf-09"]}}],
     "Central Powers"),
    ("11.0 iron-cross zones take arrivals from turn 3",
     3, {"red-inf-09": 3}, {"Kharkov": "red"}, [{"place": {"zone": "Kharkov", "units": ["red-inf-09"]}}],
     [("Kharkov", ["red-inf-09"])]),
]


@pytest.mark.parametrize("name,turn,waiting,control,items,expected", ARRIVALS,
                         ids=[c[0] for c in ARRIVALS])
def test_arrivals(name: str, turn: int, waiting: dict[str, int], control: dict[str, str | None],
                  items: list[dict[str, Any]], expected: Any) -> None:
    state = position({}, turn=turn, control=control)
    for pid, arrives in waiting.items():
        bought(state, pid, arrives)
    result = purchase(state, "red", *items)
    if isinstance(expected, str):
        assert isinstance(result, str) and expected in result, result
        return
    assert isinstance(result, list), result
    assert [(e["zone"], e["units"]) for e in result if e["type"] == "arrived"] == expected
    after = apply_all(state, result)
    for zone, ids in expected:
        for pid in ids:
            assert after["units"][pid]["status"] == "map" and after["units"][pid]["zone"] == zone
            assert "arrives" not in after["units"][pid]


def test_5_3_bought_then_arrives_on_its_turn() -> None:
    """4.2: a unit bought in spring is placed in the purchase phase of autumn."""
    state = with_money(position({}, turn=4), "red", 30, 40)
    result = purchase(state, "red", {"buy": {"type": "inf"}})
    assert isinstance(result, list)
    state = apply_all(state, result)
    pid = result[0]["units"][0]
    state["turn"] = 5
    assert economy.arrivals(state, "red") == []
    state["turn"] = 6
    assert economy.arrivals(state, "red") == [pid]
    placed = purchase(state, "red", {"place": {"zone": "Moscow", "units": [pid]}})
    assert isinstance(placed, list)
    assert apply_all(state, placed)["units"][pid]["zone"] == "Moscow"


# ---------------------------------------------------------------------------------------
# the Tsarist gold (15.1)


def test_15_1_the_treasure_pays_5_then_3_then_is_gone() -> None:
    state = with_money(position({"treasure": "Kazan"}, turn=4), "red", 0, 40)
    result = purchase(state, "red", {"treasure": True}, {"buy": {"type": "inf"}})
    assert isinstance(result, list)
    assert [e["type"] for e in result] == ["treasure_used", "bought"]
    state = apply_all(state, result)
    assert state["money"]["red"] == 2 and state["treasure"]["used"] == 1
    assert "used this turn" in str(purchase(state, "red", {"treasure": True}))
    state["turn"] = 5
    result = purchase(state, "red", {"treasure": True})
    assert isinstance(result, list) and result[0]["money"] == 3
    state = apply_all(state, result)
    assert state["money"]["red"] == 5 and state["treasure"]["zone"] is None
    state["turn"] = 6
    assert "it is spent (15.1)" in str(purchase(state, "red", {"treasure": True}))


def test_15_1_only_the_owner_uses_the_treasure() -> None:
    state = position({"treasure": "Kazan"}, turn=4)
    assert "south does not hold it" in str(purchase(state, "south", {"treasure": True}))


def test_12_42_minors_buy_nothing_by_orders() -> None:
    state = position({}, turn=4)
    assert "12.42" in str(purchase(state, "ukraine", {"buy": {"type": "inf"}}))


# ---------------------------------------------------------------------------------------
# winter attrition (5.5): (name, pieces, control, standing, expected units losing a step)

ATTRITION: list[tuple[str, dict[str, str], dict[str, str | None], dict[str, Any], list[str]]] = [
    ("5.5 enemy units up to the zone's money value are supplied",
     {"south-inf-01": "Orel", "south-inf-02": "Orel"}, {}, {}, []),
    ("5.5 enemy units above the money value ALL lose a step",
     {"south-inf-01": "Orel", "south-inf-02": "Orel", "south-cav-01": "Orel"}, {}, {},
     ["south-cav-01", "south-inf-01", "south-inf-02"]),
    ("5.5 friendly units up to twice the money value are supplied",
     {"red-inf-02": "Orel", "red-inf-09": "Orel", "red-inf-17": "Orel", "red-inf-18": "Orel"},
     {}, {}, []),
    ("5.5 friendly units above twice the money value: the strongest are supplied",
     {"red-inf-17": "Orel", "red-inf-02": "Orel", "red-inf-09": "Orel", "red-inf-18": "Orel",
      "red-inf-19": "Orel"}, {}, {}, ["red-inf-19"]),
    ("5.5 the supply order chooses who is supplied",
     {"red-inf-17": "Orel", "red-inf-02": "Orel", "red-inf-09": "Orel", "red-inf-18": "Orel",
      "red-inf-19": "Orel"}, {}, {"red": {"supply_order": ["red-inf-19", "red-inf-18"]}},
     ["red-inf-17"]),
    ("5.5 the supply order may name types",
     {"red-inf-02": "Orel", "red-inf-09": "Orel", "red-inf-17": "Orel", "red-inf-18": "Orel",
      "red-cav-08": "Orel"}, {}, {"red": {"supply_order": ["cav"]}}, ["red-inf-18"]),
    ("5.5 fleets in ports count, leaders do not",
     {"red-fleet-01": "Vyborg", "red-inf-02": "Vyborg", "red-inf-09": "Vyborg", "budyonny": "Vyborg"},
     {"Vyborg": "red"}, {}, ["red-fleet-01"]),  # the weakest is left unsupplied
    ("5.5 fleets at sea do not count",
     {"red-fleet-01": "Baltic Sea", "red-inf-02": "Vyborg", "red-inf-09": "Vyborg"},
     {"Vyborg": "red"}, {}, []),
    ("5.5 another White faction's zone is not the faction's own",
     {"south-inf-01": "Ufa", "south-inf-02": "Ufa", "south-inf-03": "Ufa"}, {}, {},
     ["south-inf-01", "south-inf-02", "south-inf-03"]),
    ("5.5 each faction is counted on its own",
     {"south-inf-01": "Orel", "south-inf-02": "Orel", "siberian-inf-01": "Orel",
      "siberian-inf-02": "Orel"}, {}, {}, []),
    ("5.5 a zone worth nothing feeds no enemy",
     {"red-inf-02": "Tyumen"}, {}, {}, ["red-inf-02"]),
    ("12.4 minor factions never suffer attrition",
     {"ukraine-inf-01": "Orel", "ukraine-cav-01": "Orel", "anarchists-cav-01": "Orel"}, {}, {}, []),
]


@pytest.mark.parametrize("name,pieces,control,standing,expected", ATTRITION,
                         ids=[c[0] for c in ATTRITION])
def test_winter_attrition(name: str, pieces: dict[str, str], control: dict[str, str | None],
                          standing: dict[str, Any], expected: list[str]) -> None:
    state = position(pieces, turn=3, control=control)
    state["standing"] = standing
    rng = FixedRng()
    events = economy.winter_attrition(econ(), state, rng)
    assert sorted(e["unit"] for e in events) == sorted(expected)
    assert rng.labels == []  # no dice
    after = apply_all(state, events)
    for pid in expected:
        assert after["units"][pid]["reduced"] is True


def test_5_5_a_reduced_unit_is_eliminated_by_attrition() -> None:
    state = position({"red-inf-02": "Tyumen"}, turn=3, reduced=["red-inf-02"])
    events = economy.winter_attrition(econ(), state, FixedRng())
    assert [e.get("eliminated") for e in events] == [True]  # the reports say so
    after = apply_all(state, events)
    assert after["units"]["red-inf-02"]["status"] == "eliminated"
    full = position({"red-inf-02": "Tyumen"}, turn=3)
    assert [e.get("eliminated") for e in economy.winter_attrition(econ(), full, FixedRng())] == [None]


def test_5_6_an_unpaid_reduced_unit_is_eliminated_and_the_event_says_so() -> None:
    pieces = {"red-inf-02": "Moscow", "red-inf-09": "Tula"}
    state = with_money(position(pieces, turn=3, reduced=["red-inf-09"]), "red", 0, 0)
    events = [e for e in economy.maintenance(econ(), state) if e["type"] == "unmaintained"]
    assert {e["unit"]: e.get("eliminated") for e in events} == {"red-inf-02": None, "red-inf-09": True}


# ---------------------------------------------------------------------------------------
# maintenance (5.6)


def test_5_6_one_money_and_one_manpower_per_unit() -> None:
    state = with_money(position({"red-inf-02": "Moscow", "red-fleet-01": "Baltic Sea",
                                 "lenin": "Moscow", "treasure": "Moscow"}, turn=3), "red", 10, 10)
    events = [e for e in economy.maintenance(econ(), state) if e["faction"] == "red"]
    assert events == [{"type": "maintenance", "faction": "red", "units": 2, "paid": 2,
                       "money": 2, "manpower": 2}]
    after = apply_all(state, events)
    assert (after["money"]["red"], after["manpower"]["red"]) == (8, 8)


MAINTENANCE: list[tuple[str, tuple[int, int], dict[str, Any], list[str]]] = [
    ("5.6 what cannot be paid loses a step, weakest first", (2, 9), {}, ["red-inf-17", "red-inf-09"]),
    ("5.6 manpower running out first limits the units paid", (9, 3), {}, ["red-inf-17"]),
    ("5.6 the unpaid order chooses", (3, 3), {"red": {"unpaid_order": ["cav"]}}, ["red-cav-01"]),
    ("5.6 with nothing, every unit loses a step", (0, 5), {},
     ["red-cav-01", "red-inf-02", "red-inf-09", "red-inf-17"]),
]


@pytest.mark.parametrize("name,means,standing,expected", MAINTENANCE, ids=[c[0] for c in MAINTENANCE])
def test_maintenance_shortfall(name: str, means: tuple[int, int], standing: dict[str, Any],
                               expected: list[str]) -> None:
    pieces = {"red-inf-02": "Moscow", "red-inf-09": "Tula", "red-inf-17": "Orel", "red-cav-01": "Tver"}
    state = with_money(position(pieces, turn=3), "red", *means)
    state["standing"] = standing
    events = [e for e in economy.maintenance(econ(), state) if e["faction"] == "red"]
    assert sorted(e["unit"] for e in events if e["type"] == "unmaintained") == sorted(expected)
    paid = 4 - len(expected)
    after = apply_all(state, events)
    assert (after["money"]["red"], after["manpower"]["red"]) == (means[0] - paid, means[1] - paid)
    assert min(after["money"]["red"], after["manpower"]["red"]) >= 0  # 6.4


def test_12_4_minors_pay_no_maintenance() -> None:
    state = position({"ukraine-inf-01": "Kiev", "allied-fleet-02": "Black Sea"}, turn=3)
    assert economy.maintenance(econ(), state) == []


# ---------------------------------------------------------------------------------------
# collection (6.2-6.6, 13.3)


def collected(state: State, faction: str) -> dict[str, Any]:
    events = economy.collection(econ(), state)
    (event,) = [e for e in events if e["faction"] == faction]
    return event


def gain(faction: str, zone: str, pieces: dict[str, str] | None = None) -> tuple[int, int]:
    """What controlling `zone` adds to `faction`'s collection."""
    without = position(pieces or {}, turn=3, control={zone: None})
    with_ = position(pieces or {}, turn=3, control={zone: faction})
    a, b = collected(without, faction), collected(with_, faction)
    return b["money"] - a["money"], b["manpower"] - a["manpower"]


def test_6_2_the_reds_collect_their_home_zones() -> None:
    zones = econ()["map"]["zones"]
    state = position({}, turn=3)
    e = collected(state, "red")
    assert e["money"] == 55  # 16.0 the Reds' starting zones
    assert e["manpower"] == sum(z["manpower"] for z in zones.values() if z.get("home") == "red")
    after = apply_all(state, [e])
    assert after["money"]["red"] == state["money"]["red"] + 55


COLLECTION: list[tuple[str, str, str, dict[str, str], tuple[int, int]]] = [
    ("6.2 a controlled zone yields its money and manpower", "red", "Orel", {}, (2, 2)),
    ("6.3 a zone where enemy infantry outnumber the friendly yields nothing", "red", "Orel",
     {"south-inf-01": "Orel", "south-cav-01": "Orel", "red-inf-02": "Orel"}, (0, 0)),
    ("6.3 equal numbers still yield", "red", "Orel",
     {"south-inf-01": "Orel", "red-inf-02": "Orel"}, (2, 2)),
    ("6.3 fleets, tanks and aircraft are ignored", "red", "Orel",
     {"south-tank-01": "Orel", "south-air-01": "Orel"}, (2, 2)),
    ("6.3 other White factions' units count as friendly", "south", "Orel",
     {"red-inf-02": "Orel", "south-inf-01": "Orel", "siberian-inf-01": "Orel",
      "red-inf-09": "Orel"}, (2, 1)),
    ("6.5 the Reds in a White home zone collect one manpower less", "red", "Samara", {}, (2, 1)),
    ("6.5 the Reds in a minor's home zone collect one manpower less", "red", "Kiev", {}, (3, 2)),
    ("6.5 a White faction in a Red home zone collects one manpower less", "south", "Orel", {}, (2, 1)),
    ("6.5 never below zero", "red", "Kem", {}, (1, 0)),
    ("6.6 never below zero either", "south", "Chelyabinsk", {}, (0, 0)),
    ("6.6 a White faction in another White faction's home zone: one less of each",
     "south", "Omsk", {}, (1, 1)),
    ("6.5 a neutral zone carries no penalty", "red", "Kharkov", {}, (3, 3)),
    ("13.3 Finnish zones yield one manpower less, on top of 6.5", "red", "Helsinki", {}, (3, 0)),
]


@pytest.mark.parametrize("name,faction,zone,pieces,expected", COLLECTION, ids=[c[0] for c in COLLECTION])
def test_collection(name: str, faction: str, zone: str, pieces: dict[str, str],
                    expected: tuple[int, int]) -> None:
    assert gain(faction, zone, pieces) == expected


def test_6_3_outnumbered_zones_are_listed() -> None:
    state = position({"south-inf-01": "Orel"}, turn=3)
    e = collected(state, "red")
    assert e["outnumbered"] == ["Orel"] and e["money"] == 53


def test_12_4_minor_zones_yield_nothing_to_anyone() -> None:
    state = position({}, turn=3)
    assert all(e["faction"] in ("red", "siberian", "south", "north")
               for e in economy.collection(econ(), state))


# ---------------------------------------------------------------------------------------
# events, descriptions, the bot


def test_apply_rejects_bad_events() -> None:
    state = position({"red-inf-02": "Moscow"}, turn=4)
    b = board_rules.board(econ())
    with pytest.raises(KeyError):
        economy.APPLY["arrived"](b, clone(state),
                                 {"type": "arrived", "faction": "red", "zone": "Moscow", "units": ["nobody"]})
    with pytest.raises(ValueError):
        economy.APPLY["arrived"](b, clone(state),
                                 {"type": "arrived", "faction": "red", "zone": "Atlantis", "units": []})
    with pytest.raises(ValueError):  # 6.4
        economy.APPLY["bought"](b, with_money(clone(state), "red", 1, 40),
                                {"type": "bought", "faction": "red", "units": ["red-inf-03"],
                                 "arrives": 6, "money": 3, "manpower": 5})
    with pytest.raises(ValueError):
        economy.APPLY["repaired"](b, clone(state),
                                  {"type": "repaired", "faction": "red", "units": ["red-inf-02"],
                                   "money": 1, "manpower": 2})
    with pytest.raises(ValueError):
        economy.APPLY["collected"](b, clone(state),
                                   {"type": "collected", "faction": "ukraine", "money": 1, "manpower": 1})
    with pytest.raises(KeyError):
        economy.APPLY["attrition"](b, clone(state), {"type": "attrition", "unit": "ghost"})


def test_describe_every_event_type() -> None:
    state = with_money(position({"red-inf-02": "Moscow", "red-inf-17": "Tyumen", "treasure": "Kazan"},
                                turn=4, reduced=["red-inf-02"]), "red", 30, 40)
    bought(state, "red-inf-09", 4)
    events = purchase(state, "red", {"place": {"zone": "Moscow", "units": ["red-inf-09"]}},
                      {"treasure": True}, {"buy": {"type": "inf"}},
                      {"repair": {"units": ["red-inf-02"]}})
    assert isinstance(events, list)
    state["money"]["red"] = 0
    events += economy.winter_attrition(econ(), state, FixedRng())
    events += economy.maintenance(econ(), state)
    events += economy.collection(econ(), state)
    kinds = {e["type"] for e in events}
    assert kinds == set(economy.APPLY)
    assert set(economy.DESCRIBE) == kinds  # each told by its module (the event table)
    for e in events:
        line = fold_rules.describe_event(econ(), e)
        assert line and not line.startswith(f"{e['type']}:"), e


@pytest.mark.parametrize("turn", [1, 4, 7, 11])
def test_bot_purchase_is_legal(turn: int) -> None:
    pieces = {"red-inf-02": "Moscow", "red-fleet-01": "Baltic Sea", "red-cav-01": "Tula"}
    state = position(pieces, turn=turn, reduced=["red-inf-02", "red-fleet-01", "red-cav-01"])
    bought(state, "red-inf-09", turn)
    for faction in ("red", "siberian", "south", "north"):
        body = economy.bot_purchase(econ(), state, faction, FixedRng())
        assert economy.validate_purchase(econ(), state, faction, body) == [], (faction, body)
    red = economy.bot_purchase(econ(), state, "red", FixedRng())
    events = economy.resolve_purchase(econ(), state, {"red": red})
    assert "arrived" in {e["type"] for e in events}
    apply_all(state, events)


def test_13_54_the_faction_playing_poland_repairs_and_buys_polish_units_by_name() -> None:
    """13.54: Poland's units count as the faction's own that plays Poland as a major faction
    (common.belongs: buying, upkeep, victory); the bot repaired them, the check refused it."""
    state = with_money(position({"poland-inf-01": "Warsaw"}, turn=5, reduced=["poland-inf-01"]),
                       "south", 30, 40)
    state["flags"]["poland_major"] = "south"
    result = purchase(state, "south", {"repair": {"units": ["poland-inf-01"]}})
    assert isinstance(result, list) and result[0]["type"] == "repaired"
    assert result[0]["units"] == ["poland-inf-01"]
    after = apply_all(state, result)
    assert after["units"]["poland-inf-01"]["reduced"] is False
    assert after["money"]["south"] == 30 - result[0]["money"]
    assert purchase(state, "north", {"repair": {"units": ["poland-inf-01"]}}) == (
        "poland-inf-01 is not a unit of north")
    pool = with_money(position({}, turn=5), "south", 30, 40)
    pool["flags"]["poland_major"] = "south"
    result = purchase(pool, "south", {"buy": {"units": ["poland-inf-02"]}})
    assert isinstance(result, list) and result[0]["units"] == ["poland-inf-02"], result
    assert apply_all(pool, result)["units"]["poland-inf-02"]["status"] == "bought"
    pool["flags"]["poland_major"] = False
    assert purchase(pool, "south", {"buy": {"units": ["poland-inf-02"]}}) == (
        "poland-inf-02 is not a unit of south")


# ---------------------------------------------------------------------------------------
# 13.2 "If the Red player conquers Reval, that zone ceases to be a home territory for the
# North/Asia faction until the end of the game and becomes a zone under Baltic control."
# Reval: 3 money, 2 manpower, North/Asia's home zone on the map.


@pytest.mark.parametrize(("holder", "taken_once", "yields"), [
    ("north", False, (3, 2)),  # its own home zone: all of it
    ("north", True, (3, 1)),  # 6.5 retaken after 13.2: a minor's home zone, -1 manpower
    ("south", False, (2, 1)),  # 6.6 another White faction's home zone: -1 and -1
    ("south", True, (3, 1)),  # 6.5 a minor's home zone now: -1 manpower only
    ("red", False, (3, 1)),  # 6.5 a zone of the other side
    ("red", True, (3, 1)),  # 6.5 a minor's home zone
])
def test_13_2_reval_taken_by_the_reds_is_no_longer_north_asias_home_for_income(
        holder: str, taken_once: bool, yields: tuple[int, int]) -> None:
    state = position({}, control={"Reval": holder})
    if taken_once:
        state["flags"]["reval_baltic"] = True
    b = board_rules.board(econ())
    assert economy.zone_yield(b, state, holder, "Reval") == (*yields, None)


@pytest.mark.parametrize(("taken_once", "reverts_to"), [(False, None), (True, "baltic")])
def test_13_2_16_2_north_asia_defeated_leaves_reval_to_its_home_owner(taken_once: bool,
                                                                       reverts_to: str | None) -> None:
    # 16.2: a defeated faction's zones revert to their home owner; its own home zones to nobody
    events_ = importlib.import_module("pbem_game_red_russia.events")
    state = position({}, control={"Reval": "north", "Brest-Litovsk": "north"})
    if taken_once:
        state["flags"]["reval_baltic"] = True
    after = clone(state)
    events_.APPLY["defeated"](board_rules.board(econ()), after, {"type": "defeated", "faction": "north"})
    assert after["control"]["Reval"] == reverts_to
    # a zone that is nobody's home goes to nobody
    assert after["control"]["Brest-Litovsk"] is None
