"""Red Russia's leaders as rule tables, each clause a case that fails when the rule is broken:
10.5 the capture of a leader alone in a zone that enemy units enter (both sides of the
threshold; no roll for a leader whose side is not the mover's enemy), 10.7 a minor faction's
leader commanding only his own units and as many as his value, 9.1 with 13.63 a fleet joining
a siege, an Allied fleet the besieger has taken in hand included."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from position import data, messages, orders, position, resolve_exact, standing

State = dict[str, Any]


def move(units: list[str], frm: str, to: str) -> dict[str, Any]:
    return {"move": {"units": units, "from": frm, "to": to}}


def entered(s: State, dice: list[int]) -> list[dict[str, Any]]:
    s["standing"] = standing()
    events, _after, rng = resolve_exact(s, orders(move(["red-inf-01"], "Moscow", "Tula")), dice)
    return [e for e in events if e["type"] == "leader_capture"]


# 10.5 "Leaders who are alone in a zone that one or more enemy units enter may also be
# captured ... rolls two dice and adds the leader's value ... greater than 10, the leader
# manages to escape ... 10 or less, the leader is captured and killed."

@pytest.mark.parametrize(("dice", "result"), [([6, 3], "escaped"), ([5, 3], "captured"),
                                              ([6, 6], "escaped"), ([1, 1], "captured")])
def test_10_5_a_lone_enemy_leader_rolls_two_dice_plus_his_level(dice: list[int], result: str) -> None:
    """Denikin (level 2) alone in Tula when the Reds come in: 6+3+2 = 11 > 10 escapes, 5+3+2 =
    10 is captured."""
    s = position({"red-inf-01": "Moscow", "denikin": "Tula"})
    found = entered(s, dice)
    assert [(e["leader"], e["dice"], e["result"]) for e in found] == [("denikin", dice, result)]


def test_10_5_a_lone_leader_of_the_movers_own_side_rolls_nothing() -> None:
    """Makhno alone in Tula while the Reds command the anarchists: not their enemy, no roll
    (resolve_exact fails on any die left unasked or asked for)."""
    s = position({"red-inf-01": "Moscow", "makhno": "Tula"})
    s["minors"]["anarchists"] = {"status": "active", "controller": "red", "until": None}
    assert entered(s, []) == []


def test_10_5_passing_through_the_zone_of_a_lone_leader_of_the_movers_side_rolls_nothing() -> None:
    """The Reds pass through Tula, where Makhno stands alone, on to Orel: no Red unit stays
    with him, and still he is not their enemy: no roll."""
    s = position({"red-inf-01": "Moscow", "makhno": "Tula"})
    s["minors"]["anarchists"] = {"status": "active", "controller": "red", "until": None}
    s["standing"] = standing()
    body = orders({"move": {"units": ["red-inf-01"], "to": "Orel", "via": ["Tula"]}})
    events, after, _rng = resolve_exact(s, body, [])
    assert [e for e in events if e["type"] == "leader_capture"] == []
    assert after["units"]["red-inf-01"]["zone"] == "Orel"


def test_10_5_passing_through_the_zone_of_a_lone_enemy_leader_tests_him() -> None:
    s = position({"red-inf-01": "Moscow", "denikin": "Tula"})
    s["standing"] = standing()
    body = orders({"move": {"units": ["red-inf-01"], "to": "Orel", "via": ["Tula"]}})
    events, _after, _rng = resolve_exact(s, body, [4, 4])
    assert [(e["leader"], e["result"]) for e in events if e["type"] == "leader_capture"] == [
        ("denikin", "captured")]  # 4+4+2 = 10


def test_10_5_the_same_leader_commanded_by_a_white_faction_is_the_reds_enemy() -> None:
    s = position({"red-inf-01": "Moscow", "makhno": "Tula"})
    s["minors"]["anarchists"] = {"status": "active", "controller": "south", "until": None}
    found = entered(s, [1, 2])
    assert [(e["leader"], e["result"]) for e in found] == [("makhno", "captured")]  # 1+2+1


# 10.7 "a leader of a minor faction may not command units other than his own. ... Makhno has
# a leadership value of 1. He can therefore command both an anarchist unit and a red unit,
# but cannot command two red units."

def test_10_7_makhno_moves_one_anarchist_and_one_red_unit() -> None:
    s = position({"makhno": "Kharkov", "anarchists-cav-01": "Kharkov", "red-inf-01": "Kharkov"})
    s["minors"]["anarchists"] = {"status": "active", "controller": "red", "until": None}
    s["standing"] = standing()
    assert messages(s, "red", orders(move(["makhno", "anarchists-cav-01", "red-inf-01"],
                                          "Kharkov", "Poltava"))) == []


def test_10_7_makhno_never_commands_two_red_units() -> None:
    s = position({"makhno": "Kharkov", "red-inf-01": "Kharkov", "red-inf-02": "Kharkov"})
    s["minors"]["anarchists"] = {"status": "active", "controller": "red", "until": None}
    s["standing"] = standing()
    found = messages(s, "red", orders(move(["makhno", "red-inf-01", "red-inf-02"], "Kharkov", "Poltava")))
    assert found and "10.7" in found[0], found


# 9.1 "A fleet may take part in a siege as long as a friendly land unit is engaged"; 13.63
# an Allied unit taken in hand is used "like the forces of any minor faction".

siege = importlib.import_module("pbem_game_red_russia.siege")
board_ = importlib.import_module("pbem_game_red_russia.board")


def besieged(s: State, faction: str, zone: str) -> list[dict[str, Any]]:
    found: list[Any] = []
    out = siege.check_sieges(board_.board(data()), s, faction, [(0, {"zone": zone, "rounds": 1})],
                             99, found)
    assert found == [], found
    return out


def test_9_1_a_fleet_in_port_joins_its_sides_siege() -> None:
    s = position({"south-inf-01": "Odessa", "south-fleet-01": "Odessa"}, actor="south",
                 control={"Odessa": "red"})
    assert besieged(s, "south", "Odessa")[0]["units"] == ["south-inf-01", "south-fleet-01"]


def test_9_1_13_63_an_allied_fleet_taken_in_hand_joins_too_and_one_not_taken_does_not() -> None:
    s = position({"south-inf-01": "Odessa", "allied-fleet-02": "Odessa"}, actor="south",
                 control={"Odessa": "red"})
    assert besieged(s, "south", "Odessa")[0]["units"] == ["south-inf-01"]
    s["allied_used"] = {"south": ["allied-fleet-02"]}
    assert besieged(s, "south", "Odessa")[0]["units"] == ["south-inf-01", "allied-fleet-02"]
    # taken in hand by another White faction: not South's to use
    s["allied_used"] = {"north": ["allied-fleet-02"]}
    assert besieged(s, "south", "Odessa")[0]["units"] == ["south-inf-01"]
