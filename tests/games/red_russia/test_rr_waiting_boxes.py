"""Red Russia: movement between the waiting boxes and the map (7.8), one case a clause.
Each test's name starts with the rule it checks.

The landing of these tests: the Siberians, who may take two allied units in hand this
turn (13.61), bring the American allied-inf-03 (3-2, reduced 2-1) out of the Japan box to
Vladivostok, a port of the Sea of Japan (fort 3 in map.yaml), whose neighbours are Chita and
Khabarovsk. The Reds hold all three unless a case says otherwise.
"""

from __future__ import annotations

from typing import Any

import pytest
from position import GAME, data, messages, orders, position, problems, resolve_exact, standing

RED_COAST = {"Vladivostok": "red", "Chita": "red", "Khabarovsk": "red"}


def landing(pieces: dict[str, str], *, control: dict[str, str | None] | None = None,
            actor: str = "siberian") -> dict[str, Any]:
    state = position(pieces, actor=actor, control={**RED_COAST, **(control or {})})
    state["allied_control"] = {"siberian": 2, "south": 2, "north": 2}
    state["standing"] = standing()
    return state


def move(units: list[str], to: str, **more: Any) -> dict[str, Any]:
    return {"move": {"units": units, "to": to, **more}}


def moved(state: dict[str, Any], body: dict[str, Any]) -> dict[str, Any]:
    events, _after, _rng = resolve_exact(state, body, [])
    (event,) = [e for e in events if e["type"] == "moved"]
    return event


# ---------------------------------------------------------------------------------------
# 7.8 "Units in the Siberian, Black, Baltic or White Sea boxes may disembark at any port
# adjacent to these zones, even if the zone in question is not friendly."


def test_7_8_a_unit_in_the_japan_box_lands_at_vladivostok_held_by_the_enemy() -> None:
    state = landing({"allied-inf-03": "Japan box"})
    event = moved(state, orders(move(["allied-inf-03"], "Vladivostok")))
    # one movement point (2 halves), as a naval transport's landing (7.5); no enemy units there
    assert event == {"type": "moved", "faction": "siberian", "units": ["allied-inf-03"],
                     "path": ["Japan box", "Vladivostok"], "cost": 2, "stopped": False}


@pytest.mark.parametrize("port", ["Odessa", "Sevastopol", "Novorossiysk", "Batumi"])
def test_7_8_the_black_sea_box_lands_at_every_port_of_the_black_sea(port: str) -> None:
    state = landing({"allied-inf-04": "Black Sea box"}, actor="south", control={port: "red"})
    assert moved(state, orders(move(["allied-inf-04"], port)))["path"] == ["Black Sea box", port]


def test_7_8_a_sea_box_does_not_land_away_from_its_sea() -> None:
    state = landing({"allied-inf-04": "Black Sea box"}, actor="south")
    assert messages(state, "south", orders(move(["allied-inf-04"], "Kiev"))) == [
        "units in the Black Sea box land in Odessa or Sevastopol or Novorossiysk or Batumi; Kiev is "
        "not one (7.8); to go further, name the landing zone in via"]
    assert messages(state, "south", orders(move(["allied-inf-04"], "Reval"))) == [
        "units in the Black Sea box land in Odessa or Sevastopol or Novorossiysk or Batumi; Reval is "
        "not one (7.8); to go further, name the landing zone in via"]


# 7.8 "Units in Persian waiting box no. 1 must disembark at Erevan. Units in Persian waiting
# box no. 2 must disembark at Merv."

@pytest.mark.parametrize(("box", "port", "not_there"), [
    ("Persia box 1", "Erevan", "Merv"),
    ("Persia box 2", "Merv", "Erevan"),
])
def test_7_8_each_persian_box_lands_in_its_one_zone(box: str, port: str, not_there: str) -> None:
    state = landing({"allied-inf-01": box}, actor="south")
    assert moved(state, orders(move(["allied-inf-01"], port)))["path"] == [box, port]
    assert messages(state, "south", orders(move(["allied-inf-01"], not_there))) == [
        f"units in the {box} land in {port}; {not_there} is not one (7.8); to go further, "
        "name the landing zone in via"]


# 7.8 "This does not require the use of a friendly fleet or rail movement."

def test_7_8_no_fleet_is_needed_and_none_is_used() -> None:
    state = landing({"allied-inf-03": "Japan box", "allied-fleet-01": "Sea of Japan"})
    event = moved(state, orders(move(["allied-inf-03"], "Vladivostok")))
    assert "fleets" not in event
    state = landing({"allied-inf-03": "Japan box", "red-fleet-01": "Baltic Sea"})
    assert moved(state, orders(move(["allied-inf-03"], "Vladivostok")))["cost"] == 2


def test_7_8_a_landing_is_not_a_rail_move() -> None:
    state = landing({"allied-inf-03": "Japan box"})
    assert messages(state, "siberian", orders(move(["allied-inf-03"], "Vladivostok", rail=True))) == [
        "a landing from a waiting box needs no rail and cannot be a rail move (7.8)"]


def test_7_8_the_landing_costs_one_movement_point_so_a_unit_alone_stops_there() -> None:
    state = landing({"allied-inf-03": "Japan box"}, control={"Vladivostok": "siberian",
                                                            "Khabarovsk": "siberian"})
    assert messages(state, "siberian", orders(move(["allied-inf-03"], "Khabarovsk",
                                                  via=["Vladivostok"]))) == [
        "this path costs 1.5 movement points; allied-inf-03 has 1 left (7.1, 7.2)"]


def test_7_8_with_a_leader_the_landed_stack_goes_on_over_land() -> None:
    # 10.3 a leader gives two movement points: the landing (1) and a friendly zone (1/2)
    state = landing({"allied-inf-03": "Japan box", "maynard": "Japan box"},
                    control={"Vladivostok": "siberian", "Khabarovsk": "siberian"})
    event = moved(state, orders(move(["allied-inf-03", "maynard"], "Khabarovsk", via=["Vladivostok"])))
    assert (event["path"], event["cost"]) == (["Japan box", "Vladivostok", "Khabarovsk"], 3)


def test_7_8_once_landed_the_move_goes_on_over_land_only() -> None:
    state = landing({"allied-inf-03": "Japan box", "maynard": "Japan box"})
    assert messages(state, "siberian", orders(move(["allied-inf-03", "maynard"], "Chita",
                                                  via=["Vladivostok", "Sea of Japan"]))) == [
        "once landed, the move goes on over land (7.8)"]


def test_7_3_with_7_8_enemy_units_where_they_land_stop_them() -> None:
    state = landing({"allied-inf-03": "Japan box", "maynard": "Japan box", "red-inf-01": "Vladivostok"})
    body = orders(move(["allied-inf-03", "maynard"], "Vladivostok"))
    assert moved(state, body)["stopped"] is True
    assert messages(state, "siberian", orders(move(["allied-inf-03", "maynard"], "Khabarovsk",
                                                  via=["Vladivostok"]))) == [
        "the units must stop in Vladivostok: enemy units are there (7.3)"]


def test_11_0_with_7_8_no_landing_where_the_central_powers_stand_on_turns_1_2() -> None:
    state = landing({"allied-inf-04": "Black Sea box"}, actor="south")
    state["turn"] = 1
    assert messages(state, "south", orders(move(["allied-inf-04"], "Odessa"))) == [
        "Odessa is occupied by the Central Powers on turns 1-2 (11.0)"]


def test_13_61_with_7_8_a_white_faction_lands_only_the_allies_it_has_in_hand() -> None:
    state = landing({"allied-inf-03": "Japan box"})
    state["allied_control"] = {"siberian": 0}
    (message,) = messages(state, "siberian", orders(move(["allied-inf-03"], "Vladivostok")))
    assert message.startswith("allied-inf-03 is an allied unit: siberian may use 0 allied unit(s)")


def test_7_43_with_7_8_a_fleet_comes_out_of_its_box_into_its_sea_or_the_box_s_port() -> None:
    state = landing({"allied-fleet-01": "Japan box"})
    assert moved(state, orders(move(["allied-fleet-01"], "Sea of Japan")))["path"] == [
        "Japan box", "Sea of Japan"]
    assert moved(state, orders(move(["allied-fleet-01"], "Vladivostok")))["path"] == [
        "Japan box", "Vladivostok"]
    state = landing({"allied-fleet-02": "Black Sea box"}, actor="south")
    assert messages(state, "south", orders(move(["allied-fleet-02"], "Baltic Sea"))) == [
        "allied-fleet-02 comes out of the Black Sea box into the Black Sea or Odessa or Sevastopol "
        "or Novorossiysk or Batumi (7.8, 7.43)"]


# 7.8 "This is the only way for a unit to return to a waiting box."

def test_7_8_no_unit_moves_into_a_waiting_box() -> None:
    state = landing({"allied-inf-03": "Vladivostok"}, control={"Vladivostok": "siberian"})
    assert messages(state, "siberian", orders(move(["allied-inf-03"], "Japan box"))) == [
        "units go back into a waiting box only by retreating into the one they landed from, "
        "in the battle they landed into (7.8)"]
    state = landing({"allied-fleet-01": "Sea of Japan"})
    (message,) = messages(state, "siberian", orders(move(["allied-fleet-01"], "Japan box")))
    assert message.startswith("allied-fleet-01 belongs to the Sea of Japan: it may go only between")


# ---------------------------------------------------------------------------------------
# 7.8 "If the initial movement leads to a battle or siege result and the unit is forced to
# retreat, it may return to the waiting box it came from (and to no other)."
#
# The battle: allied-inf-03 lands at Vladivostok and attacks red-inf-01 there (a battle of
# allied units alone, two rounds paid, 12.41). Dice: the attacker's 3, then the Reds' 5 for
# red-inf-01 (5-2) and 3 for the fortification; two 6s of the Reds' (its defence, 8.6) reduce
# allied-inf-03, which must retreat (8.7).

ONE_HIT = [1, 1, 1] + [6, 6] + [1] * 6


def landed_and_hit(control: dict[str, str | None] | None = None) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    state = landing({"allied-inf-03": "Japan box", "red-inf-01": "Vladivostok"}, control=control)
    body = orders(move(["allied-inf-03"], "Vladivostok"), {"attack": {"zone": "Vladivostok"}})
    events, after, _rng = resolve_exact(state, body, ONE_HIT)
    return events, after


def test_7_8_a_unit_forced_to_retreat_from_where_it_landed_goes_back_into_its_box() -> None:
    events, after = landed_and_hit()  # Chita and Khabarovsk are Red: no land zone to go to
    assert [e for e in events if e["type"] == "retreat"] == [
        {"type": "retreat", "zone": "Vladivostok", "faction": "allies", "units": ["allied-inf-03"],
         "to": "Japan box", "when": "after a round"}]
    assert after["units"]["allied-inf-03"]["zone"] == "Japan box"
    assert after["units"]["allied-inf-03"]["reduced"] is True


def test_7_8_a_friendly_land_zone_comes_before_the_box_unless_the_box_is_preferred() -> None:
    events, _after = landed_and_hit({"Khabarovsk": "siberian"})
    assert [e["to"] for e in events if e["type"] == "retreat"] == ["Khabarovsk"]
    state = landing({"allied-inf-03": "Japan box", "red-inf-01": "Vladivostok"},
                    control={"Khabarovsk": "siberian"})
    state["standing"] = standing({"siberian": {"retreat_to": ["Japan box", "Khabarovsk"]}})
    body = orders(move(["allied-inf-03"], "Vladivostok"), {"attack": {"zone": "Vladivostok"}})
    events, _after, _rng = resolve_exact(state, body, ONE_HIT)
    assert [e["to"] for e in events if e["type"] == "retreat"] == ["Japan box"]


def test_7_8_a_unit_that_came_overland_has_no_box_to_go_to_and_is_eliminated() -> None:
    # allied-inf-03 walks in from Khabarovsk (Red, like Chita): no zone takes its retreat
    state = landing({"allied-inf-03": "Khabarovsk", "red-inf-01": "Vladivostok"})
    body = orders(move(["allied-inf-03"], "Vladivostok"), {"attack": {"zone": "Vladivostok"}})
    events, after, _rng = resolve_exact(state, body, ONE_HIT)
    assert [e for e in events if e["type"] in ("retreat", "eliminated")] == [
        {"type": "eliminated", "unit": "allied-inf-03", "zone": "Vladivostok", "why": "no retreat (8.7)"}]
    assert after["units"]["allied-inf-03"]["status"] == "eliminated"


def test_7_8_only_the_box_they_came_from() -> None:
    # the South's landing at Odessa (Red, like Kherson and Vinnitsa) prefers two other boxes
    state = landing({"allied-inf-04": "Black Sea box", "red-inf-01": "Odessa"}, actor="south",
                    control={"Odessa": "red", "Kherson": "red", "Vinnitsa": "red"})
    state["standing"] = standing({"south": {"retreat_to": ["Japan box", "Baltic box"]}})
    body = orders(move(["allied-inf-04"], "Odessa"), {"attack": {"zone": "Odessa"}})
    # Odessa: fort 2 in map.yaml, so the Reds roll 5 + 2
    events, after, _rng = resolve_exact(state, body, [1, 1, 1] + [6, 6] + [1] * 5)
    assert [e["to"] for e in events if e["type"] == "retreat"] == ["Black Sea box"]


@pytest.mark.parametrize(("khabarovsk", "goes_to"), [("red", []), ("siberian", ["Khabarovsk"])])
def test_7_8_a_voluntary_retreat_is_not_forced_and_does_not_take_the_box(khabarovsk: str,
                                                                        goes_to: list[str]) -> None:
    # outnumbered by red-inf-01 and red-inf-02, allied-inf-03 retreats by choice
    # after a round by the Siberians' standing instruction (they have it in hand, 13.61),
    # to a friendly zone (8.7 under the restrictions of 8.4), never to the box it came from
    state = landing({"allied-inf-03": "Japan box", "red-inf-01": "Vladivostok", "red-inf-02": "Vladivostok"},
                    control={"Khabarovsk": khabarovsk})
    state["standing"] = standing({"siberian": {"voluntary_retreat": "when_outnumbered",
                                               "retreat_to": ["Japan box", "Khabarovsk"]}})
    body = orders(move(["allied-inf-03"], "Vladivostok"), {"attack": {"zone": "Vladivostok"}})
    # no hits either way: 3 dice against 5 + 5 + 3 a round, for the two rounds paid (12.41)
    rounds = 1 if goes_to else 2
    events, after, _rng = resolve_exact(state, body, [1] * 16 * rounds)
    assert [e["to"] for e in events if e["type"] == "retreat"] == goes_to
    assert after["units"]["allied-inf-03"]["zone"] == (goes_to or ["Vladivostok"])[0]


def test_7_8_the_way_back_lasts_the_phase_of_the_landing_only() -> None:
    state = landing({"allied-inf-03": "Japan box"})
    event = moved(state, orders(move(["allied-inf-03"], "Vladivostok")))
    later = GAME.apply(data(), state, event)
    assert later["entered"]["Vladivostok"] == [{"faction": "siberian", "from": "Japan box", "kind": "box",
                                               "units": ["allied-inf-03"]}]
    nxt = GAME.apply(data(), later, {"type": "phase", "turn": 3, "phase": "action", "actor": "south"})
    assert nxt["entered"] == {}


# ---------------------------------------------------------------------------------------
# 8.5 "If the attacker enters the combat zone from a difficult or very difficult route this
# turn, add one to the result of each die rolled by the defender": a landing is no route.

def test_8_5_with_7_8_a_landing_from_a_box_gives_the_defender_no_plus_one() -> None:
    state = landing({"allied-inf-03": "Japan box", "red-inf-01": "Vladivostok"})
    body = orders(move(["allied-inf-03"], "Vladivostok"), {"attack": {"zone": "Vladivostok"}})
    # the Reds roll 5s in the first round: with a +1 they would be hits
    events, after, _rng = resolve_exact(state, body, [1, 1, 1] + [5] * 8 + [1, 1, 1] + [1] * 8)
    (first, second) = [e for e in events if e["type"] == "combat_round"]
    assert first["hits"] == {"atk": 0, "def": 0} and second["hits"] == {"atk": 0, "def": 0}
    assert after["units"]["allied-inf-03"]["reduced"] is False


# ---------------------------------------------------------------------------------------
# where each refusal points in the orders file (the line the player is shown)

@pytest.mark.parametrize(("pieces", "arg", "where", "message"), [
    ({"allied-inf-03": "Japan box"}, {"to": "Vladivostok", "rail": True}, ("rail",),
     "a landing from a waiting box needs no rail and cannot be a rail move (7.8)"),
    ({"allied-inf-03": "Japan box"}, {"to": "Chita"}, ("to",),
     "units in the Japan box land in Vladivostok; Chita is not one (7.8); to go further, name the "
     "landing zone in via"),
    ({"allied-inf-03": "Japan box", "maynard": "Japan box"}, {"to": "Khabarovsk", "via": ["Chita"]},
     ("via", 0), "units in the Japan box land in Vladivostok; Chita is not one (7.8); to go further, "
     "name the landing zone in via"),
    # not a land zone: nothing to say about going further
    ({"allied-inf-03": "Japan box"}, {"to": "Sea of Japan"}, ("to",),
     "units in the Japan box land in Vladivostok; Sea of Japan is not one (7.8)"),
    ({"allied-inf-03": "Japan box", "maynard": "Japan box"}, {"to": "Sea of Japan", "via": ["Vladivostok"]},
     ("via",), "once landed, the move goes on over land (7.8)"),
    ({"allied-inf-03": "Vladivostok"}, {"to": "Japan box"}, ("to",),
     "units go back into a waiting box only by retreating into the one they landed from, in the "
     "battle they landed into (7.8)"),
    ({"allied-fleet-01": "Japan box"}, {"to": "Baltic Sea"}, ("to",),
     "allied-fleet-01 comes out of the Japan box into the Sea of Japan or Vladivostok (7.8, 7.43)"),
])
def test_7_8_each_refusal_names_the_part_of_the_order_it_is_about(
        pieces: dict[str, str], arg: dict[str, Any], where: tuple[Any, ...], message: str) -> None:
    state = landing(pieces, control={"Vladivostok": "siberian"})
    units = [p for p in pieces]
    found = problems(state, "siberian", orders({"move": {"units": units, **arg}}))
    assert [(p.path, p.message) for p in found] == [(("orders", 0, "move", *where), message)]


def test_11_0_with_7_8_the_closed_landing_is_named_in_via_when_the_move_goes_on() -> None:
    state = landing({"allied-inf-04": "Black Sea box", "d-esperey": "Black Sea box"}, actor="south")
    state["turn"] = 1
    found = problems(state, "south", orders(move(["allied-inf-04", "d-esperey"], "Kherson", via=["Odessa"])))
    assert [(p.path, p.message) for p in found] == [
        (("orders", 0, "move", "via", 0), "Odessa is occupied by the Central Powers on turns 1-2 (11.0)")]
