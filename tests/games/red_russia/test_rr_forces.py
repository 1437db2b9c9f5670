"""Red Russia: what the battles ask of the board (forces.py), one case per clause: how hits
are allocated (8.6) and the dice of a side numbered (8.5), the standing instructions of a
minor's units (12.12) and the minors a siege brings in (12.1), the fleets that blockade a
port (8.92), the units aboard a fleet at sea (8.4, 7.5), who may retreat by sea and why not,
and the units at sea whose fleet is gone. Each test's name starts with the rule it checks
(rulebook: ../shared/rules/red-russia-rules.txt).
"""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from position import FixedRng, data, position

forces = importlib.import_module("pbem_game_red_russia.forces")
board = importlib.import_module("pbem_game_red_russia.board")

B = board.board(data())


def blockading(fleet_at: str = "Baltic Sea", port: str = "Petrograd", fid: str = "south-fleet-01",
               status: str = "map") -> dict[str, Any]:
    state = position({"south-fleet-01": fleet_at, "red-inf-01": "Petrograd"})
    state["units"]["south-fleet-01"]["status"] = status
    state["blockade"] = {fid: port}
    return state


@pytest.mark.parametrize(("faction", "state", "found"), [
    ("red", blockading(), ["south-fleet-01"]),                    # an enemy fleet at sea next to it
    ("south", blockading(), []),                                  # one's own fleet
    ("north", blockading(), []),                                  # a White ally's (18.1)
    ("red", blockading(fleet_at="White Sea"), []),                # not at sea next to the port
    ("red", blockading(status="eliminated"), []),                 # destroyed
    ("red", blockading(port="Odessa"), []),                       # it blockades another port
    ("red", blockading(fid="ghost"), []),                         # a fleet the game does not have
])
def test_8_92_the_fleets_that_blockade_a_port(faction: str, state: dict[str, Any],
                                             found: list[str]) -> None:
    assert forces.blockaders(B, state, "Petrograd", faction) == found


def carried(unit_at: str = "Baltic Sea", fleet_at: str = "Baltic Sea", on: str = "red-fleet-01",
            unit_status: str = "map", fleet_status: str = "map") -> dict[str, Any]:
    state = position({"red-inf-01": unit_at, "red-fleet-01": fleet_at})
    state["units"]["red-inf-01"]["status"] = unit_status
    state["units"]["red-fleet-01"]["status"] = fleet_status
    state["aboard"] = {"red-inf-01": on}
    return state


@pytest.mark.parametrize(("state", "found"), [
    (carried(), ["red-inf-01"]),                                  # at sea with its fleet
    (carried(on="allied-fleet-03"), []),                          # aboard another fleet
    (carried(unit_status="eliminated"), []),                      # the unit is gone
    (carried(fleet_status="eliminated"), []),                     # the fleet is gone
    (carried(unit_at="White Sea"), []),                           # not where the fleet is
    (carried(unit_at="Petrograd", fleet_at="Petrograd"), []),     # in port: not at sea
])
def test_8_4_the_units_aboard_a_fleet_at_sea(state: dict[str, Any], found: list[str]) -> None:
    assert forces.aboard(B, state, "red-fleet-01") == found


def on_map(state: dict[str, Any], pieces: dict[str, str], reduced: tuple[str, ...] = ()) -> dict[str, Any]:
    for pid, place in pieces.items():
        state["units"][pid].update(status="map", zone=place, reduced=pid in reduced)
    return state


# ---------------------------------------------------------------------------------------
# 8.6 losses


def test_8_6_among_equal_allocations_without_a_loss_order_the_first_by_id_loses() -> None:
    # two hits: the defence-2 unit "a" or the two defence-1 units "b" and "c" take them all;
    # no loss order: "a", first by id (not the weaker units first)
    assert forces.allocate(2, [("a", 2, False), ("b", 1, True), ("c", 1, True)], [], lambda u: 1) == ["a"]
    assert forces.allocate(2, [("a", 2, False), ("b", 1, True), ("c", 1, True)], ["b", "c"],
                           lambda u: 1) == ["b", "c"]


# ---------------------------------------------------------------------------------------
# 8.5 the dice of a side: one numbering across its groups


def test_8_5_the_dice_of_several_groups_are_numbered_on_from_group_to_group() -> None:
    # 8.5, 8.93 (aircraft first), 8.91 (tanks on 5-6): one label, the dice numbered d1, d2, ... across the groups
    rng = FixedRng(6, 1, 5, 6, 6, 4)
    groups = [{"what": "aircraft", "count": 2, "hit": 6}, {"what": "tanks", "count": 1, "hit": 5},
              {"what": "units", "count": 3, "hit": 6}]
    rolled, hits = forces.roll_groups(rng, "combat:tver:t3:red:atk:r1", groups)
    assert rng.labels == [f"combat:tver:t3:red:atk:r1:d{k}" for k in range(1, 7)]
    assert rolled == [{**groups[0], "values": [6, 1], "hits": 1}, {**groups[1], "values": [5], "hits": 1},
                      {**groups[2], "values": [6, 6, 4], "hits": 2}]
    assert hits == 4


# ---------------------------------------------------------------------------------------
# 12.12 standing instructions of a minor's units


def test_12_12_a_minors_units_answer_to_their_controllers_standing() -> None:
    # 12.12 an activated minor is played by its controller: its units follow his standing
    given = {"south": {"retreat_to": ["Vyborg"]}, "red": {"loss_order": ["cav"]}}
    state = position({}, turn=5)
    state["minors"]["finland"] = {"controller": "south", "until": None, "status": "active"}
    assert forces.standing_of(state, given, "finland") == {"retreat_to": ["Vyborg"]}
    assert forces.standing_of(state, given, "red") == {"loss_order": ["cav"]}
    # a controller that gave no standing instructions: none (not None)
    assert forces.standing_of(state, {"red": {}}, "finland") == {}
    # a neutral minor has none of its own: 8.6 and no retreat by choice
    state["minors"]["finland"] = {"controller": None, "until": None, "status": "neutral"}
    assert forces.standing_of(state, given, "finland") == {}


# ---------------------------------------------------------------------------------------
# 12.1 a siege rouses the owner of the zone, a battle only the minors whose units are there


def test_12_1_a_siege_of_a_neutral_minors_zone_brings_it_in_a_battle_there_does_not() -> None:
    state = on_map(position({}), {"red-inf-01": "Gulai Polye"})
    spec = {"zone": "Gulai Polye", "units": ["red-inf-01"], "leaders": []}
    events, after = forces.joined(B, state, "red", spec, FixedRng(), siege=True)
    assert events == [
        {"type": "minor_status", "minor": "anarchists", "faction": "red", "roll": None, "status": "active",
         "controller": "siberian", "why": "red attacked it: it joins siberian (12.1, 13.4)"}]
    assert after["minors"]["anarchists"]["controller"] == "siberian"
    assert forces.joined(B, state, "red", spec, FixedRng(), siege=False) == ([], state)


# ---------------------------------------------------------------------------------------
# 8.4, 8.92 retreats by sea: who may go, and why not


def test_8_4_the_strongest_infantry_boards_first_full_strength_before_reduced() -> None:
    # 8.4, 7.5 one unit a fleet: the full-strength infantry before the reduced one
    state = on_map(position({}), {"red-fleet-01": "Petrograd", "red-inf-01": "Petrograd",
                                  "red-inf-02": "Petrograd"}, reduced=("red-inf-01",))
    assert forces.sea_passage(B, state, "Petrograd", "red", "Baltic Sea", ["red-inf-01", "red-inf-02"]) == (
        [("red-fleet-01", "red-inf-02")], "")
    # both full: the stronger attack (south-inf-01: 5) before south-inf-03 (4)
    south = on_map(position({}), {"south-fleet-01": "Novorossiysk", "south-inf-01": "Novorossiysk",
                                  "south-inf-03": "Novorossiysk"})
    assert forces.sea_passage(B, south, "Novorossiysk", "south", "Black Sea", ["south-inf-03", "south-inf-01"]) == (
        [("south-fleet-01", "south-inf-01")], "")


def test_8_92_a_reduced_fleet_takes_no_full_strength_unit_and_says_which() -> None:
    # 8.92 "an infantry counter at full strength cannot be transported by a fleet that has lost a step"
    state = on_map(position({}), {"red-fleet-01": "Petrograd", "red-inf-01": "Petrograd",
                                  "red-inf-02": "Petrograd"}, reduced=("red-fleet-01",))
    assert forces.sea_passage(B, state, "Petrograd", "red", "Baltic Sea", ["red-inf-02", "red-inf-01"]) == (
        [], "a unit may not board a fleet that has fewer steps than it has: red-fleet-01 lost a step "
            "and red-inf-01, red-inf-02 did not (8.92)")


def test_8_4_only_infantry_retreats_by_sea_and_only_if_there_is_some() -> None:
    # 8.4 (pbem) cavalry, aircraft and tanks may not retreat by sea; nobody to carry, no passage
    state = on_map(position({}), {"red-fleet-01": "Petrograd", "red-cav-01": "Petrograd"})
    assert forces.sea_passage(B, state, "Petrograd", "red", "Baltic Sea", ["red-cav-01"]) == (
        [], "cavalry, aircraft and tanks may not retreat by sea (8.4)")
    assert forces.sea_passage(B, state, "Petrograd", "red", "Baltic Sea", []) == (
        [], "there is no land unit to carry (8.4)")


def test_8_92_a_port_is_blockaded_only_by_the_enemies_of_the_faction_retreating() -> None:
    # 8.92 "units may no longer retreat towards a friendly fleet at sea from a blockaded port"
    # Odessa (Black Sea): allied-fleet-02 and south-fleet-01 blockade it against the Reds
    state = on_map(position({}), {"red-inf-01": "Odessa", "south-inf-01": "Odessa",
                                  "allied-fleet-02": "Black Sea", "south-fleet-01": "Black Sea"})
    state["blockade"] = {"allied-fleet-02": "Odessa", "south-fleet-01": "Odessa"}
    assert forces.sea_passage(B, state, "Odessa", "red", "Black Sea", ["red-inf-01"]) == (
        [], "Odessa is blockaded by allied-fleet-02, south-fleet-01 (8.4, 8.92)")
    # 18.1 not against the South: its own fleet and the Allies' are friends; it has no fleet in port
    assert forces.sea_passage(B, state, "Odessa", "south", "Black Sea", ["south-inf-01"]) == (
        [], "no south fleet of the Black Sea is in Odessa to carry them (8.4)")


def test_8_92_12_12_a_minors_units_are_blockaded_by_their_controllers_enemies() -> None:
    # 8.92, 12.12 a minor fights on its controller's side: the Red fleet blockades it
    # Finland under the South, in Helsinki blockaded by the Red fleet
    state = on_map(position({}, turn=5), {"finland-inf-02": "Helsinki", "red-fleet-01": "Baltic Sea"})
    state["minors"]["finland"] = {"controller": "south", "until": None, "status": "active"}
    state["blockade"] = {"red-fleet-01": "Helsinki"}
    assert forces.blockaders(B, state, "Helsinki", "finland") == ["red-fleet-01"]
    assert forces.blockaders(B, state, "Helsinki", "red") == []


def test_8_92_a_blockade_ends_when_its_fleet_is_destroyed() -> None:
    # 8.92 a blockade lasts until its fleet leaves the sea next to the port or is destroyed
    state = position({})
    state["blockade"] = {"red-fleet-01": "Reval"}
    state["units"]["red-fleet-01"].update(status="eliminated", zone=None)
    assert forces.stale_blockades(B, state) == [
        {"type": "blockade_lifted", "port": "Reval", "fleets": ["red-fleet-01"], "why": "the fleet is destroyed"}]


# ---------------------------------------------------------------------------------------
# 8.4, 8.92 units at sea without their fleet


def test_8_92_units_at_sea_whose_fleet_is_gone_are_lost_the_others_stay() -> None:
    # 8.4, 8.92 by sea no unit moves without a fleet to carry it
    # red-inf-01 has landed (its entry left behind): skipped; red-inf-02 is in the Baltic Sea
    # while red-fleet-01 is in the White Sea: lost; with the fleet back it stays; with the
    # fleet taken off the map by the referee where it was (status removed): lost
    state = on_map(position({}), {"red-inf-01": "Petrograd", "red-inf-02": "Baltic Sea",
                                  "red-fleet-01": "White Sea"})
    state["aboard"] = {"red-inf-01": "red-fleet-01", "red-inf-02": "red-fleet-01"}
    assert forces.stranded(B, state) == [
        {"type": "eliminated", "unit": "red-inf-02", "zone": "Baltic Sea",
         "why": "lost at sea with its fleet red-fleet-01, which is gone (8.4, 8.92)"}]
    state["units"]["red-fleet-01"].update(zone="Baltic Sea")
    assert forces.stranded(B, state) == []
    state["units"]["red-fleet-01"].update(status="removed")
    assert forces.stranded(B, state) == [
        {"type": "eliminated", "unit": "red-inf-02", "zone": "Baltic Sea",
         "why": "lost at sea with its fleet red-fleet-01, which is gone (8.4, 8.92)"}]
