"""Red Russia: what the battles ask of the board (forces.py), one case per clause: the fleets
that blockade a port (8.92) and the units aboard a fleet at sea (8.4, 7.5)."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from position import data, position

forces = importlib.import_module("pbem_game_red_russia.forces")
board = importlib.import_module("pbem_game_red_russia.board")


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
    assert forces.blockaders(board.board(data()), state, "Petrograd", faction) == found


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
    assert forces.aboard(board.board(data()), state, "red-fleet-01") == found
