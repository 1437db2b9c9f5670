"""Red Russia: the attack orders of an action phase (8.0-8.3, 8.92, 10.x, 18.1) as the rules
check them, one case per clause, each message with the path it points at."""

from __future__ import annotations

import importlib
from typing import Any

from position import data, orders, position, problems

combat = importlib.import_module("pbem_game_red_russia.combat")
board = importlib.import_module("pbem_game_red_russia.board")

PIECES = {"red-inf-01": "Petrograd", "red-fleet-01": "Petrograd", "south-inf-01": "Petrograd",
          "trotsky": "Petrograd", "lenin": "Moscow", "red-inf-02": "Tver",
          "north-inf-01": "Tver", "red-inf-03": "Kazan"}


def state() -> dict[str, Any]:
    out = position(PIECES)
    out["standing"] = {}
    return out


def checked(*attacks: dict[str, Any], spend: dict[str, int] | None = None
            ) -> tuple[list[dict[str, Any]], list[tuple[tuple[str | int, ...], str]]]:
    found: list[Any] = []
    out = combat.check_attacks(board.board(data()), state(), "red",
                               list(enumerate(attacks)), {"spend": spend or {}}, found)
    return out, [(p.path, p.message) for p in found]


def test_8_1_each_attack_is_checked_whatever_the_one_before_it() -> None:
    """Every kind of wrong attack, one after another: each is named, and the good one at the
    end is still checked (its spending is missing)."""
    body = orders({"attack": {"zone": "Tver", "extra": 1}}, {"attack": {"zone": "Atlantis"}},
                  {"attack": {"zone": "Baltic Sea"}}, {"attack": {"zone": "Moscow"}},
                  {"attack": {"zone": "Kazan"}}, {"attack": {"zone": "Tver"}},
                  {"attack": {"zone": "Tver"}}, {"attack": {"zone": "Petrograd"}})
    body["secret"] = {"spend": {"Tver": 1}}
    found = [(p.path, p.message) for p in problems(state(), "red", body)]
    assert found[0] == (("orders", 0, "attack", "extra"),
                        "unknown key 'extra' (expected: zone, units, leaders)")
    assert found[1][0] == ("orders", 1, "attack", "zone") and "Atlantis" in found[1][1]
    assert found[2:] == [
        (("orders", 2, "attack", "zone"), "Baltic Sea is not a land zone: battles are fought in "
         "land zones (8.0, 8.1); units at sea land first (move ... from the sea), fleets at sea "
         "fight with search (8.92)"),
        (("orders", 3, "attack", "zone"), "you have no land units in Moscow to attack with (8.1: "
         "only units in the zone fight)"),
        (("orders", 4, "attack", "zone"), "there are no enemy units in Kazan (White factions "
         "never attack each other, 18.1)"),
        (("orders", 6, "attack", "zone"), "Tver is attacked twice"),
        (("secret", "spend"), "give the money spent on Petrograd under secret: spend: (1 probe, "
         "3 assault, 5 invasion; 8.3)")]


def test_8_92_a_fleet_in_a_port_zone_fights_in_its_land_battle_once() -> None:
    out, found = checked({"zone": "Petrograd"}, spend={"Petrograd": 1})
    assert found == []
    assert out == [{"zone": "Petrograd", "units": ["red-inf-01", "red-fleet-01"],
                    "leaders": ["trotsky"]}]  # and nothing else: no partisans, allies, free


def test_10_a_leader_named_must_be_yours_in_the_zone() -> None:
    out, found = checked({"zone": "Petrograd", "leaders": ["trotsky", "lenin", "nobody"]},
                         spend={"Petrograd": 1})
    assert found == [(("orders", 0, "attack", "leaders", 2), "unknown unit or leader 'nobody'"),
                     (("orders", 0, "attack", "leaders"), "lenin is not your leader in Petrograd")]
    assert out[0]["leaders"] == ["trotsky", "lenin"]
    out, found = checked({"zone": "Petrograd", "leaders": ["trotsky"]}, spend={"Petrograd": 1})
    assert found == [] and out[0]["leaders"] == ["trotsky"]
    out, found = checked({"zone": "Petrograd", "leaders": []}, spend={"Petrograd": 1})
    assert found == [] and out[0]["leaders"] == []  # no leader: none fights
