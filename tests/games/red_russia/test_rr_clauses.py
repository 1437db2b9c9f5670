"""Red Russia rules written as lists, one case per clause: each restriction refused where
the code refuses it (the orders check or the resolution), beside a control case where the
same thing is allowed. Each test's name starts with the rule number and quotes the clause
(rulebook: ../shared/rules/red-russia-rules.txt).

The battle of most 8.4 and 8.7 cases: the South (south-inf-01) attacks the Reds in Tver
(Red, fort 1) with a probe. Tver's routes: Petrograd and Moscow (easy), Novgorod and
Smolensk (difficult). `CLOSED` gives the two easy neighbours to the South, so that the only
way out is the one a case opens.
"""

from __future__ import annotations

from typing import Any

import pytest
from position import messages, orders, position, resolve_exact
from position import standing as standing_

Events = list[dict[str, Any]]
CLOSED = {"Petrograd": "south", "Moscow": "south"}
ALL_CLOSED = {**CLOSED, "Novgorod": "south", "Smolensk": "south"}
AWAY = {"retreat_before_combat": "always"}


def run(state: dict[str, Any], body: dict[str, Any], dice: list[int]) -> tuple[Events, dict[str, Any]]:
    """The actor's orders, checked, resolved with exactly these dice: the events shown and
    the state after them."""
    events, after, _ = resolve_exact(state, body, dice)
    return events, after


def attack(pieces: dict[str, str], zone: str, dice: list[int], *, actor: str = "south",
           control: dict[str, Any] | None = None, standing: dict[str, Any] | None = None,
           moves: list[dict[str, Any]] | None = None, blockade: dict[str, str] | None = None,
           reduced: tuple[str, ...] = (), spend: int = 1) -> tuple[Events, dict[str, Any]]:
    """`actor` attacks `zone` (a probe unless told) after `moves`."""
    state = position(pieces, actor=actor, control=control, reduced=reduced)
    state["standing"] = standing_(standing)
    if blockade:
        state["blockade"] = dict(blockade)
    body = orders(*(moves or []), {"attack": {"zone": zone}})
    body["secret"] = {"spend": {zone: spend}}
    return run(state, body, dice)


def move(units: list[str], to: str, **more: Any) -> dict[str, Any]:
    return {"move": {"units": units, "to": to, **more}}


def retreats(events: Events, when: str | None = None) -> list[tuple[list[str], str]]:
    return [(e["units"], e["to"]) for e in events
            if e["type"] == "retreat" and (when is None or e["when"] == when)]


def notes(events: Events) -> str:
    return " | ".join(e["text"] for e in events if e["type"] == "note")


def fought(events: Events) -> int:
    return sum(1 for e in events if e["type"] == "combat_round")


def eliminated(events: Events) -> list[str]:
    return [e["unit"] for e in events if e["type"] == "eliminated"]


# the probe on Tver when the Reds stay: South 5 dice, Reds 5 + fort 1, all misses
STAY = [1] * 11


# ---------------------------------------------------------------------------------------
# 8.4 retreat before combat: "Units may not make a retreat before combat:"


def test_8_4_1_not_into_an_enemy_zone() -> None:
    # 8.4 "- If they must move into an enemy or neutral minor zone."
    pieces = {"south-inf-01": "Tver", "red-inf-01": "Tver"}
    red = {"red": {**AWAY, "retreat_to": ["Moscow"]}}
    events, after = attack(pieces, "Tver", STAY, control=ALL_CLOSED, standing=red)
    assert retreats(events) == [] and fought(events) == 1
    assert after["units"]["red-inf-01"]["zone"] == "Tver"
    # control: Moscow Red, the same retreat goes there, before any die is rolled
    events, after = attack(pieces, "Tver", [], control={**ALL_CLOSED, "Moscow": "red"}, standing=red)
    assert retreats(events, "before combat") == [(["red-inf-01"], "Moscow")] and fought(events) == 0
    assert after["money"]["south"] == position({})["money"]["south"] - 1  # 8.4 the money is spent


PETROGRAD_CLOSED = {"Petrozavodsk": "north", "Vologda": "north", "Novgorod": "north", "Tver": "north",
                    "Pskov": None, "Reval": "north"}


def test_8_4_1_and_12_1_not_into_a_neutral_minors_zone() -> None:
    # 8.4 "- If they must move into an enemy or neutral minor zone."; 12.1 "Units may not
    # retreat into zones controlled by neutral minor factions, either before or after combat"
    # North attacks the Reds in Petrograd (fort 4); Vyborg is neutral Finland's
    pieces = {"north-inf-01": "Petrograd", "red-inf-01": "Petrograd"}
    red = {"red": {**AWAY, "retreat_to": ["Vyborg"]}}
    events, _ = attack(pieces, "Petrograd", [1] * 13, actor="north", control=PETROGRAD_CLOSED, standing=red)
    assert retreats(events) == [] and fought(events) == 1
    # control: Vyborg held by the Reds
    events, _ = attack(pieces, "Petrograd", [], actor="north",
                       control={**PETROGRAD_CLOSED, "Vyborg": "red"}, standing=red)
    assert retreats(events, "before combat") == [(["red-inf-01"], "Vyborg")]


def test_8_4_2_not_along_a_difficult_route() -> None:
    # 8.4 "- If they must pass through a difficult or very difficult route."
    # Tver-Novgorod is difficult: with the easy ways closed the Reds stay
    pieces = {"south-inf-01": "Tver", "red-inf-01": "Tver"}
    red = {"red": {**AWAY, "retreat_to": ["Novgorod"]}}
    events, _ = attack(pieces, "Tver", STAY, control=CLOSED, standing=red)
    assert retreats(events) == [] and fought(events) == 1
    # control: Petrograd-Novgorod is easy; from Petrograd the same zone is open
    pieces = {"north-inf-01": "Petrograd", "red-inf-01": "Petrograd"}
    events, _ = attack(pieces, "Petrograd", [], actor="north",
                       control={**PETROGRAD_CLOSED, "Novgorod": "red"}, standing=red)
    assert retreats(events, "before combat") == [(["red-inf-01"], "Novgorod")]


def test_8_4_3_not_along_the_route_the_enemy_came_by() -> None:
    # 8.4 "- If they must use the route which is itself used by the enemy to come into the
    # combat zone." south-inf-01 comes from Petrograd (Red); the Reds' only way is back there
    red = {"red": {**AWAY, "retreat_to": ["Petrograd"]}}
    control = {"Moscow": "south"}
    events, after = attack({"south-inf-01": "Petrograd", "red-inf-01": "Tver"}, "Tver", STAY,
                           control=control, standing=red, moves=[move(["south-inf-01"], "Tver")])
    assert retreats(events) == [] and fought(events) == 1
    assert after["units"]["red-inf-01"]["zone"] == "Tver"
    # control: the South was in Tver already, the route to Petrograd is open
    events, _ = attack({"south-inf-01": "Tver", "red-inf-01": "Tver"}, "Tver", [], control=control, standing=red)
    assert retreats(events, "before combat") == [(["red-inf-01"], "Petrograd")]


SEA = {"red": {**AWAY, "retreat_to": ["Baltic Sea"]}}
PORT = {"north-inf-01": "Petrograd", "red-inf-01": "Petrograd", "red-fleet-01": "Petrograd",
        "allied-fleet-03": "Baltic Sea"}
# North 4 dice; the Reds 5 + their fleet's 3 (8.92, a port) + fort 4
PORT_STAY = [1] * 16


def test_8_4_4_not_by_sea_from_a_port_blockaded_by_an_enemy_fleet() -> None:
    # 8.4 "- By sea, starting from a coastal zone blocked by an enemy fleet."
    events, after = attack(PORT, "Petrograd", PORT_STAY, actor="north", control=PETROGRAD_CLOSED,
                           standing=SEA, blockade={"allied-fleet-03": "Petrograd"})
    assert "Petrograd is blockaded by allied-fleet-03 (8.4, 8.92)" in notes(events)
    assert retreats(events) == [] and fought(events) == 1
    assert after["units"]["red-inf-01"]["zone"] == "Petrograd" and not after.get("aboard")
    # control: the same enemy fleet at sea without a blockade does not stop it
    events, after = attack(PORT, "Petrograd", [], actor="north", control=PETROGRAD_CLOSED, standing=SEA)
    assert retreats(events, "before combat") == [(["red-inf-01", "red-fleet-01"], "Baltic Sea")]
    assert after["aboard"] == {"red-inf-01": "red-fleet-01"}


def test_8_4_5_not_by_sea_without_a_friendly_fleet_to_carry_them() -> None:
    # 8.4 "- By sea, if the retreating unit does not have a friendly fleet to transport it."
    # "The defender may also retreat by sea if a friendly fleet is present in the same zone."
    at_sea = {**PORT, "red-fleet-01": "Baltic Sea"}
    events, _ = attack(at_sea, "Petrograd", [1] * 13, actor="north", control=PETROGRAD_CLOSED, standing=SEA)
    assert "no red fleet of the Baltic Sea is in Petrograd to carry them (8.4)" in notes(events)
    assert retreats(events) == [] and fought(events) == 1
    # control: the fleet in the port carries them (as in 8.4.4)
    events, _ = attack(PORT, "Petrograd", [], actor="north", control=PETROGRAD_CLOSED, standing=SEA)
    assert retreats(events, "before combat") == [(["red-inf-01", "red-fleet-01"], "Baltic Sea")]


def test_8_4_5_and_18_1_an_allied_fleet_does_not_carry_a_white_unit() -> None:
    # 18.1 "Allied fleets may ... defend the zone together with those White units if
    # attacked. However, they may not transport those units, even in the case of a retreat."
    # The Reds attack the North in Reval (fort 2) where the British Baltic fleet lies
    pieces = {"red-inf-01": "Reval", "north-inf-01": "Reval", "allied-fleet-03": "Reval"}
    north = {"north": {**AWAY, "retreat_to": ["Baltic Sea"]}}
    events, after = attack(pieces, "Reval", [1] * 5 + [1] * 9, actor="red", standing=north)
    assert "no north fleet of the Baltic Sea is in Reval" in notes(events)
    assert retreats(events) == [] and fought(events) == 1
    assert after["units"]["north-inf-01"]["zone"] == "Reval"


def test_8_4_6_not_into_a_friendly_zone_where_the_enemy_units_are_more() -> None:
    # 8.4 "- To a friendly zone occupied by enemy units, if the number of enemy units is
    # greater than the number of retreating units."
    red = {"red": {**AWAY, "retreat_to": ["Moscow"]}}
    control = {"Petrograd": "south", "Novgorod": "south", "Smolensk": "south"}
    two = {"south-inf-01": "Tver", "red-inf-01": "Tver", "south-inf-02": "Moscow", "south-inf-03": "Moscow"}
    events, _ = attack(two, "Tver", STAY, control=control, standing=red)
    assert retreats(events) == [] and fought(events) == 1
    # control: one enemy unit against one retreating unit is not more: allowed
    one = {k: v for k, v in two.items() if k != "south-inf-03"}
    events, after = attack(one, "Tver", [], control=control, standing=red)
    assert retreats(events, "before combat") == [(["red-inf-01"], "Moscow")]
    assert after["units"]["red-inf-01"]["zone"] == "Moscow"


@pytest.mark.parametrize(("attackers", "defenders", "allowed"), [
    (["south-cav-01"], ["red-inf-01"], False),                    # 1 cavalry against none
    (["south-cav-01"], ["red-inf-01", "red-cav-01"], True),       # as many: allowed
    (["south-cav-01", "south-cav-02"], ["red-cav-01"], True),     # the defence is all cavalry
    (["south-inf-01"], ["red-inf-01"], True),                     # no cavalry at all
])
def test_8_4_7_not_when_the_attacker_has_more_cavalry(attackers: list[str], defenders: list[str],
                                                      allowed: bool) -> None:
    # 8.4 "- If the attacking forces have more cavalry units than the defender. Defending
    # units composed only of cavalry are always considered to have more cavalry units than
    # the attacker."
    pieces = {u: "Tver" for u in attackers + defenders}
    red = {"red": {**AWAY, "retreat_to": ["Moscow"]}}
    dice = [] if allowed else [1] * (5 * len(attackers) + 5 * len(defenders) + 1)
    events, _ = attack(pieces, "Tver", dice, control={"Petrograd": "south"}, standing=red)
    if allowed:
        assert retreats(events, "before combat") == [(sorted(defenders), "Moscow")]
    else:
        assert "red cannot retreat before combat: the attacker has more cavalry (8.4)" in notes(events)
        assert retreats(events) == [] and fought(events) == 1


@pytest.mark.parametrize(("unit", "dice"), [("red-cav-01", 5), ("red-tank-01", 3)])
def test_8_4_8_cavalry_and_tanks_do_not_retreat_by_sea(unit: str, dice: int) -> None:
    # 8.4 "- Cavalry, aircraft and tanks may not retreat by sea."
    pieces = {**PORT, "red-inf-01": "Moscow", unit: "Petrograd"}
    events, after = attack(pieces, "Petrograd", [1] * (4 + dice + 3 + 4), actor="north",
                           control=PETROGRAD_CLOSED, standing=SEA)
    assert "cavalry, aircraft and tanks may not retreat by sea (8.4)" in notes(events)
    assert retreats(events) == [] and after["units"][unit]["zone"] == "Petrograd"
    # control: infantry goes (8.4.4's control)


def test_8_4_8_aircraft_do_not_retreat_by_sea() -> None:
    # 8.4 "- Cavalry, aircraft and tanks may not retreat by sea." The fleet takes the
    # infantry and leaves the aircraft, which then stands alone (8.93: it must retreat, and
    # with every land way shut it is lost)
    pieces = {**PORT, "red-air-01": "Petrograd"}
    events, after = attack(pieces, "Petrograd", [3], actor="north", control=PETROGRAD_CLOSED, standing=SEA)
    assert retreats(events, "before combat") == [(["red-inf-01", "red-fleet-01"], "Baltic Sea")]
    assert after["aboard"] == {"red-inf-01": "red-fleet-01"}
    assert [e["type"] for e in events if e["type"] in ("air_alone", "eliminated")] == ["air_alone", "eliminated"]
    assert after["units"]["red-air-01"]["status"] != "map"


def test_8_4_a_retreat_goes_on_past_a_battle_still_to_come_or_not_at_all() -> None:
    # 8.4 "If the only retreat option is a zone where an attack has been declared but not
    # resolved, the retreating units must continue to retreat to a zone eligible for
    # retreat ... If this is not possible they do not retreat" - the Reds in Tver can only go
    # to Moscow, attacked next; from Moscow every zone is the South's: they stay and fight
    moscow_out = {z: "south" for z in ("Yaroslavl", "Nizhny Novgorod", "Ryazan", "Tula", "Smolensk")}
    # (two South units in Tver: the Moscow Reds may not fall back on it either, 8.4.6)
    pieces = {"south-inf-01": "Tver", "south-inf-03": "Tver", "red-inf-01": "Tver",
              "south-inf-02": "Moscow", "red-inf-02": "Moscow"}
    state = position(pieces, actor="south", control={"Petrograd": "south", **moscow_out})
    state["standing"] = standing_({"red": {**AWAY, "retreat_to": ["Moscow"]}})
    body = orders({"attack": {"zone": "Tver"}}, {"attack": {"zone": "Moscow"}})
    body["secret"] = {"spend": {"Tver": 1, "Moscow": 1}}
    # Tver: 5 + 4 South dice, 5 + 1 Red; Moscow: 5 South, 5 + 3 Red
    events, after = run(state, body, [1] * 15 + [1] * 13)
    assert retreats(events) == [] and fought(events) == 2
    assert after["units"]["red-inf-01"]["zone"] == "Tver"
    # control: Tula open beyond Moscow, the Tver Reds go on through Moscow to Tula
    state["control"]["Tula"] = "red"
    events, after = run(state, body, [])
    assert retreats(events, "before combat") == [(["red-inf-01"], "Tula"), (["red-inf-02"], "Tula")]


# ---------------------------------------------------------------------------------------
# 8.7 retreat after combat
#
# The South's probe on Tver: its two sixes reduce red-inf-01, beside red-inf-02 (5 + 5 + 1
# Red dice, all misses); the reduced unit must retreat.

TWO_REDS = {"south-inf-01": "Tver", "red-inf-01": "Tver", "red-inf-02": "Tver"}
REDUCE_ONE = [6, 6, 1, 1, 1] + [1] * 11


def test_8_7_1_a_reduced_unit_must_retreat() -> None:
    # 8.7 "At the end of each combat turn, each unit that has been reduced must retreat
    # under the same conditions as retreat before combat (8.4)."
    events, after = attack(TWO_REDS, "Tver", REDUCE_ONE, control={"Petrograd": "south"})
    assert retreats(events, "after a round") == [(["red-inf-01"], "Moscow")]
    assert after["units"]["red-inf-01"]["reduced"] and after["units"]["red-inf-02"]["zone"] == "Tver"


def test_8_7_2_a_reduced_unit_may_retreat_along_a_difficult_route() -> None:
    # 8.7 "Units that must pass through a difficult or very difficult route may here
    # retreat, contrary to what is indicated in 8.4 (this is an exception)."
    events, _ = attack(TWO_REDS, "Tver", REDUCE_ONE, control=CLOSED,
                       standing={"red": {"retreat_to": ["Smolensk"]}})
    assert retreats(events, "after a round") == [(["red-inf-01"], "Smolensk")]
    # contrast 8.4: before combat the same way is shut (test_8_4_2)


def test_8_7_3_a_unit_that_cannot_retreat_is_eliminated() -> None:
    # 8.7 "Units forced to retreat that cannot do so are eliminated."
    events, after = attack(TWO_REDS, "Tver", REDUCE_ONE, control=ALL_CLOSED)
    assert retreats(events) == [] and eliminated(events) == ["red-inf-01"]
    assert after["units"]["red-inf-01"]["status"] != "map"
    # control: one zone open (test_8_7_1)


def test_8_7_1_the_enemys_route_stays_shut_after_combat() -> None:
    # 8.7 "under the same conditions as retreat before combat (8.4)": 8.4 "- If they must
    # use the route which is itself used by the enemy to come into the combat zone."
    control = {"Moscow": "south", "Novgorod": "south", "Smolensk": "south"}
    pieces = {**TWO_REDS, "south-inf-01": "Petrograd"}
    events, _ = attack(pieces, "Tver", REDUCE_ONE, control=control, moves=[move(["south-inf-01"], "Tver")])
    assert eliminated(events) == ["red-inf-01"]
    # control: the South did not come that way
    events, _ = attack(TWO_REDS, "Tver", REDUCE_ONE, control=control)
    assert retreats(events, "after a round") == [(["red-inf-01"], "Petrograd")]


def test_8_7_1_not_into_a_zone_where_the_enemy_units_are_more_after_combat() -> None:
    # 8.7 "under the same conditions as retreat before combat (8.4)": 8.4 "- To a friendly
    # zone occupied by enemy units, if the number of enemy units is greater than the number
    # of retreating units."
    control = {"Petrograd": "south", "Novgorod": "south", "Smolensk": "south"}
    crowded = {**TWO_REDS, "south-inf-02": "Moscow", "south-inf-03": "Moscow"}
    events, _ = attack(crowded, "Tver", REDUCE_ONE, control=control)
    assert eliminated(events) == ["red-inf-01"]
    # control: one enemy unit there, one unit retreating
    events, _ = attack({**TWO_REDS, "south-inf-02": "Moscow"}, "Tver", REDUCE_ONE, control=control)
    assert retreats(events, "after a round") == [(["red-inf-01"], "Moscow")]


def test_8_7_1_and_12_1_not_into_a_neutral_minors_zone_after_combat() -> None:
    # 12.1 "Units may not retreat into zones controlled by neutral minor factions, either
    # before or after combat (8.4 and 8.7)." North's two sixes on the Reds in Petrograd
    pieces = {"north-inf-01": "Petrograd", "red-inf-01": "Petrograd", "red-inf-02": "Petrograd"}
    dice = [6, 6, 1, 1] + [1] * 14
    events, _ = attack(pieces, "Petrograd", dice, actor="north", control=PETROGRAD_CLOSED)
    assert eliminated(events) == ["red-inf-01"]
    events, _ = attack(pieces, "Petrograd", dice, actor="north", control={**PETROGRAD_CLOSED, "Vyborg": "red"})
    assert retreats(events, "after a round") == [(["red-inf-01"], "Vyborg")]


OUTNUMBERED = {"south-inf-01": "Tver", "south-inf-02": "Tver", "red-inf-01": "Tver"}
BY_CHOICE = {"red": {"voluntary_retreat": "when_outnumbered"}}


def test_8_7_4_the_defender_may_then_retreat_by_choice_under_the_8_4_restrictions() -> None:
    # 8.7 "After forced retreats and eliminations have been carried out, the defender first,
    # then the attacker second, may voluntarily retreat with the remaining units (under the
    # same restrictions as before)." Only a difficult route is open: no retreat by choice
    events, _ = attack(OUTNUMBERED, "Tver", [1] * 16, control=CLOSED, standing=BY_CHOICE)
    assert retreats(events) == []
    # control: Moscow open by an easy route
    events, after = attack(OUTNUMBERED, "Tver", [1] * 16, control={"Petrograd": "south"}, standing=BY_CHOICE)
    assert retreats(events, "by choice after a round") == [(["red-inf-01"], "Moscow")]
    assert after["units"]["red-inf-01"]["zone"] == "Moscow"


def test_8_7_4_the_attacker_too_may_retreat_by_choice() -> None:
    # 8.7 "... the defender first, then the attacker second, may voluntarily retreat"
    # the Reds attack two South units in Tver with one; their standing says retreat
    pieces = {"red-inf-01": "Tver", "south-inf-01": "Tver", "south-inf-02": "Tver"}
    events, _ = attack(pieces, "Tver", [1] * 15, actor="red", standing=BY_CHOICE)
    assert retreats(events, "by choice after a round") == [(["red-inf-01"], "Moscow")]
    events, _ = attack(pieces, "Tver", [1] * 15, actor="red")
    assert retreats(events) == []
    # pbem's standing `when_outnumbered`: one against one is not outnumbered
    events, _ = attack({"red-inf-01": "Tver", "south-inf-01": "Tver"}, "Tver", [1] * 10, actor="red",
                       standing=BY_CHOICE)
    assert retreats(events) == []


# ---------------------------------------------------------------------------------------
# 9.0, 9.1 who may besiege what


def siege_problems(pieces: dict[str, str], zone: str, *, actor: str = "red", rounds: int = 1,
                   control: dict[str, Any] | None = None, turn: int = 3, money: int | None = None) -> list[str]:
    state = position(pieces, actor=actor, control=control, turn=turn)
    if money is not None:
        state["money"][actor] = money
    return messages(state, actor, orders({"siege": {"zone": zone, "rounds": rounds}}))


def test_9_0_not_a_zone_under_friendly_control() -> None:
    # 9.0 "A player may not besiege a zone under friendly control"
    assert any("yours already" in m for m in siege_problems({"red-inf-01": "Moscow"}, "Moscow"))
    assert siege_problems({"red-inf-01": "Rostov"}, "Rostov") == []


def test_9_0_a_white_faction_not_another_white_factions_zone() -> None:
    # 9.0 "or, in the case of the White factions, a zone belonging to another faction"
    found = siege_problems({"south-inf-01": "Samara"}, "Samara", actor="south")
    assert any("never besiege each other" in m for m in found)
    assert siege_problems({"south-inf-01": "Samara"}, "Samara", actor="south",
                          control={"Samara": "red"}) == []


def test_9_1_only_with_land_units_there_and_a_fleet_not_alone() -> None:
    # 9.1 "a player may declare the siege of a zone containing his armies ... A fleet may
    # take part in a siege as long as a friendly land unit is engaged."
    assert any("no land units" in m for m in siege_problems({"red-inf-01": "Tver"}, "Rostov"))
    found = siege_problems({"south-fleet-01": "Novorossiysk"}, "Novorossiysk", control={"Novorossiysk": "red"},
                           actor="south")
    assert any("no land units" in m for m in found)
    assert siege_problems({"south-fleet-01": "Novorossiysk", "south-inf-01": "Novorossiysk"}, "Novorossiysk",
                          control={"Novorossiysk": "red"}, actor="south") == []


def test_9_1_not_with_enemy_or_neutral_land_units_in_the_zone() -> None:
    # 9.1 "a zone containing his armies and no neutral or enemy land units"
    assert any("enemy or neutral units" in m
               for m in siege_problems({"red-inf-01": "Rostov", "south-inf-01": "Rostov"}, "Rostov"))
    assert any("enemy or neutral units" in m
               for m in siege_problems({"red-inf-01": "Vyborg", "finland-inf-01": "Vyborg"}, "Vyborg"))
    # control: an enemy fleet in the port is no land unit
    assert siege_problems({"red-inf-01": "Reval", "allied-fleet-03": "Reval"}, "Reval") == []


def test_11_0_not_an_iron_cross_zone_on_turns_one_and_two() -> None:
    # 11.0 "During turns one and two ... all zones marked with an iron cross ... are
    # disregarded for the application of game rules. At the start of turn 3 ... these zones
    # return to play."
    assert any("out of play" in m for m in siege_problems({"red-inf-01": "Riga"}, "Riga", turn=2))
    assert siege_problems({"red-inf-01": "Riga"}, "Riga", turn=3) == []


def test_9_2_and_6_4_the_rounds_paid_may_not_exceed_the_money() -> None:
    # 9.2 "The player ... pays for the number of siege turns desired"; 6.4 "A player cannot
    # have his money ... reduced below zero." One money a round (game.yaml): 3 with 3 is
    # allowed, 3 with 2 is not
    assert siege_problems({"red-inf-01": "Rostov"}, "Rostov", rounds=3, money=3) == []
    assert any("(6.4)" in m for m in siege_problems({"red-inf-01": "Rostov"}, "Rostov", rounds=3, money=2))


# ---------------------------------------------------------------------------------------
# 10.x leaders


def test_10_1_a_leader_commands_his_level_plus_one_units() -> None:
    # 10.1 "A leader may command a number of friendly units equal to his leadership level
    # plus one. Thus a leader with a level of "1" could command up to two units."
    pieces = {"red-inf-01": "Moscow", "red-inf-02": "Moscow", "red-inf-03": "Moscow", "budyonny": "Moscow"}
    state = position(pieces)
    two = orders(move(["red-inf-01", "red-inf-02", "budyonny"], "Petrograd", via=["Tver"]))
    three = orders(move(["red-inf-01", "red-inf-02", "red-inf-03", "budyonny"], "Petrograd", via=["Tver"]))
    assert messages(state, "red", two) == []
    assert any("can command at most 2 units (10.1)" in m for m in messages(state, "red", three))


def test_10_4_once_a_leader_is_hit_the_side_stops_rolling() -> None:
    # 10.4 "Once one of his leaders is wounded or killed in a battle, the player stops
    # rolling leader loss dice for that battle (even if he has other leaders in the zone)."
    # Budyonny and Frunze attack with red-inf-01 (5 + 1 + 2 dice) and lose no step
    pieces = {"red-inf-01": "Tver", "budyonny": "Tver", "frunze": "Tver", "south-inf-01": "Tver"}
    base = [1] * 8 + [1] * 5
    events, _ = attack(pieces, "Tver", base + [6, 6, 2], actor="red")
    assert [(e["leader"], e["result"]) for e in events if e["type"] == "leader_loss"] == [("budyonny", "wounded")]
    # control: Budyonny safe, Frunze rolls too
    events, _ = attack(pieces, "Tver", base + [6, 5] + [1, 1], actor="red")
    assert [(e["leader"], e["result"]) for e in events if e["type"] == "leader_loss"] == [
        ("budyonny", "safe"), ("frunze", "safe")]


def test_10_2_a_leader_alone_has_no_combat_strength() -> None:
    # 10.2 "A leader counter alone in a zone has no intrinsic combat strength."
    state = position({"budyonny": "Tver", "south-inf-01": "Tver"})
    body = orders({"attack": {"zone": "Tver"}})
    body["secret"] = {"spend": {"Tver": 1}}
    assert any("no land units in Tver" in m for m in messages(state, "red", body))


@pytest.mark.parametrize(("mover", "there", "rule"), [("stalin", "trotsky", "10.82"), ("trotsky", "stalin", "10.83")])
def test_10_82_10_83_stalin_and_trotsky_never_end_a_move_together(mover: str, there: str, rule: str) -> None:
    # 10.82 "Stalin may not voluntarily end his movement in the same zone as Trotsky."
    # 10.83 "Trotsky may not voluntarily end his movement in the same zone as Stalin."
    state = position({mover: "Moscow", there: "Tver"})
    assert any(f"({rule})" in m for m in messages(state, "red", orders(move([mover], "Tver"))))
    assert messages(state, "red", orders(move([mover], "Tula"))) == []


# ---------------------------------------------------------------------------------------
# 7.x movement


def test_7_6_rail_not_into_a_zone_with_enemy_troops() -> None:
    # 7.6 "Rail movement is only permitted through zones under friendly control. It is not
    # possible to use the rail to enter a zone containing enemy troops."
    state = position({"red-inf-01": "Moscow", "south-inf-01": "Petrograd"})
    found = messages(state, "red", orders(move(["red-inf-01"], "Petrograd", via=["Tver"], rail=True)))
    assert any("may not enter Petrograd, where there are enemy units (7.6)" in m for m in found)
    # control: the same rail move without the enemy there
    state = position({"red-inf-01": "Moscow"})
    assert messages(state, "red", orders(move(["red-inf-01"], "Petrograd", via=["Tver"], rail=True))) == []


BATUMI = {"south-fleet-01": "Black Sea", "south-inf-01": "Novorossiysk"}


def test_7_7_the_batumi_crossing_needs_a_friendly_fleet_at_sea_or_in_one_of_the_four_ports() -> None:
    # 7.7 "Naval transport is permitted between Batumi and the three ports of Greater Russia
    # (Odessa, Sevastopol, Novorossiysk) if a friendly fleet is present in the Black Sea or
    # in one of the four ports, no enemy fleet is in the Black Sea, and the arrival and
    # departure ports are under friendly control."
    body = orders(move(["south-inf-01"], "Batumi", via=["Black Sea"]))
    for fleet_at in ("Black Sea", "Odessa"):
        state = position({"south-fleet-01": fleet_at, "south-inf-01": "Novorossiysk"}, actor="south",
                         control={"Batumi": "south", "Odessa": "south"})
        assert messages(state, "south", body) == [], fleet_at
    state = position({"south-inf-01": "Novorossiysk"}, actor="south", control={"Batumi": "south"})
    assert any("no south fleet" in m for m in messages(state, "south", body))


def test_7_7_the_batumi_crossing_needs_both_ports_friendly() -> None:
    # 7.7 "... and the arrival and departure ports are under friendly control."
    body = orders(move(["south-inf-01"], "Batumi", via=["Black Sea"]))
    state = position(BATUMI, actor="south")  # Batumi is neutral
    assert any("Batumi is not friendly" in m for m in messages(state, "south", body))
    state = position(BATUMI, actor="south", control={"Batumi": "south"})
    assert messages(state, "south", body) == []


def test_7_5_the_fleet_must_start_at_sea() -> None:
    # 7.5 "To transport a unit and/or a leader, the fleet must start at sea and remain there."
    body = orders(move(["south-inf-01"], "Odessa", via=["Black Sea"]))
    state = position({"south-fleet-01": "Novorossiysk", "south-inf-01": "Novorossiysk"}, actor="south",
                     control={"Odessa": "south"})
    assert any("fleet at sea in the Black Sea is free" in m for m in messages(state, "south", body))
    state = position(BATUMI, actor="south", control={"Odessa": "south"})
    assert messages(state, "south", body) == []
