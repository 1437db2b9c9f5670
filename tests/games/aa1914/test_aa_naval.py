"""Axis & Allies 1914 at sea as rule tables (games/aa1914/rules/naval.py): sea battles to the
end with dice on both sides of each value, battleships' two hits, the loss order with
transports last and unescorted transports lost, minefields (a 1 and a 2), repairs next to a
held port, damaged battleships moving last. In-process, without git."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from aa_play import move, play, position
from fixed_rng import FixedRng

from pbem.game import GameData, get_game, load_data

GAME = get_game("aa1914")
naval = importlib.import_module("pbem_game_aa1914.naval")
Dice = FixedRng


def data() -> GameData:
    return load_data("aa1914")


def of(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


@pytest.mark.parametrize(("hits", "left"), [
    (1, {"battleship": 0, "damaged_battleship": 1, "submarine": 1, "cruiser": 1, "transport": 1}),
    (2, {"battleship": 0, "damaged_battleship": 1, "submarine": 0, "cruiser": 1, "transport": 1}),
    (3, {"battleship": 0, "damaged_battleship": 1, "submarine": 0, "cruiser": 0, "transport": 1}),
    (4, {"battleship": 0, "damaged_battleship": 0, "submarine": 0, "cruiser": 0, "transport": 1}),
    (5, {"battleship": 0, "damaged_battleship": 0, "submarine": 0, "cruiser": 0, "transport": 0}),
])
def test_sources_6_5_6_6_hits_damage_a_battleship_first_and_sink_transports_last(
        hits: int, left: dict[str, int]) -> None:
    fleet = {"germany": {"battleship": 1, "submarine": 1, "cruiser": 1, "transport": 1}}
    assert naval.take_hits(fleet, hits, naval.SEA_LOSSES) == {"germany": left}


def test_sources_6_1_a_sea_battle_goes_on_until_one_side_has_no_warships() -> None:
    s = position("britain", {"sz09": {"britain": {"cruiser": 2}},
                             "sz05": {"germany": {"cruiser": 2, "transport": 1}}})
    # round 1: 3, 4 against 3, 4: one hit each (the transport goes last); round 2: 4 and 4
    # miss; round 3: Britain's 3 sinks the last German cruiser, whose 6 misses: the transport,
    # alone against a warship, is lost
    events, after = play(s, Dice(3, 4, 3, 4, 4, 4, 3, 6), move("sz09", "sz05", {"cruiser": 2}))
    battle = of(events, "sea_battle")[0]
    assert battle["rounds"] == [{"attacker": [3, 4], "defender": [3, 4], "hits": [1, 1]},
                                {"attacker": [4], "defender": [4], "hits": [0, 0]},
                                {"attacker": [3], "defender": [6], "hits": [1, 0]}]
    assert battle["sunk"] == {"britain": {"cruiser": 1}, "germany": {"cruiser": 2, "transport": 1}}
    assert after["units"]["sz05"] == {"germany": {}, "britain": {"cruiser": 1}}
    assert GAME.summary(data(), battle) == (
        "Britain attacks at SZ 5: 3 rounds; Britain loses 1 cruiser; Germany loses 2 cruisers, 1 transport")


def test_sources_6_5_a_battleship_takes_two_hits_and_stays_damaged() -> None:
    s = position("britain", {"sz09": {"britain": {"cruiser": 1}},
                             "sz05": {"germany": {"battleship": 1}}})
    # round 1: 3 hits (the battleship is damaged), its 5 misses; round 2: 6 misses, its 4 sinks the cruiser
    events, after = play(s, Dice(3, 5, 6, 4), move("sz09", "sz05", {"cruiser": 1}))
    battle = of(events, "sea_battle")[0]
    assert battle["damaged"] == {"germany": 1} and battle["sunk"] == {"britain": {"cruiser": 1}}
    assert after["damaged"] == {"sz05": {"germany": 1}}
    assert after["units"]["sz05"]["germany"] == {"battleship": 1}
    s2 = position("britain", {"sz09": {"britain": {"cruiser": 1}}, "sz05": {"germany": {"battleship": 1}}},
                  damaged={"sz05": {"germany": 1}})
    events, after = play(s2, Dice(3, 6), move("sz09", "sz05", {"cruiser": 1}))
    assert of(events, "sea_battle")[0]["sunk"] == {"germany": {"battleship": 1}}
    assert "sz05" not in after["damaged"]


def test_sources_6_2_ships_ending_with_only_submarines_or_transports_fight_only_if_ordered() -> None:
    s = position("britain", {"sz09": {"britain": {"cruiser": 1}}, "sz05": {"germany": {"submarine": 1}}})
    events, _ = play(s, Dice(), move("sz09", "sz05", {"cruiser": 1}))
    assert of(events, "sea_battle") == []
    events, _ = play(s, Dice(3, 2), move("sz09", "sz05", {"cruiser": 1}), {"attack": {"where": "sz05"}})
    assert of(events, "sea_battle")[0]["sunk"] == {"britain": {"cruiser": 1}, "germany": {"submarine": 1}}
    lone = GAME.validate(data(), s, "britain", {"orders": [{"attack": {"where": "sz04"}}]})
    assert [p.message for p in lone] == ["SZ 4 holds no ships of the other side with britain's ships"]


@pytest.mark.parametrize(("die", "sunk"), [(1, {"cruiser": 1}), (2, {})])
def test_sources_6_7_a_ship_crossing_an_enemy_minefield_is_struck_on_a_1(
        die: int, sunk: dict[str, int]) -> None:
    s = position("britain", {"sz09": {"britain": {"cruiser": 1}}})
    events, after = play(s, Dice(die), move("sz09", "sz10", {"cruiser": 1}))
    assert of(events, "mines") == [{"type": "mines", "power": "britain", "where": "sz10", "moved_to": "sz10",
                                    "dice": [die], "sunk": sunk, "damaged": 0}]
    assert after["units"]["sz10"].get("britain", {}).get("cruiser", 0) == 1 - len(sunk)
    told = "cruiser sunk" if sunk else "no ship struck"
    assert GAME.summary(data(), of(events, "mines")[0]).endswith(told)


def test_sources_6_7_a_battleship_struck_by_a_mine_is_damaged_and_ones_own_fields_are_safe() -> None:
    s = position("britain", {"sz09": {"britain": {"battleship": 1}}})
    events, after = play(s, Dice(1), move("sz09", "sz10", {"battleship": 1}))
    assert after["units"]["sz10"]["britain"] == {"battleship": 1}
    assert after["damaged"] == {"sz10": {"britain": 1}}
    assert GAME.summary(data(), of(events, "mines")[0]).endswith("1 battleship damaged")
    again = position("britain", {"sz09": {"britain": {"battleship": 1}}}, damaged={"sz09": {"britain": 1}})
    again["control"]["london"] = again["control"]["picardy"] = "germany"  # no repair on the way
    events, after = play(again, Dice(1), move("sz09", "sz10", {"battleship": 1}))
    assert of(events, "mines")[0]["sunk"] == {"battleship": 1} and "sz10" not in after["damaged"]
    assert after["units"]["sz10"]["britain"] == {}
    events, _ = play(s, Dice(), move("sz09", "sz08", {"battleship": 1}))  # Britain's own field
    assert of(events, "mines") == []


def test_sources_4_8_damaged_battleships_next_to_a_held_port_are_repaired_as_the_turn_begins() -> None:
    s = position("britain", {"sz09": {"britain": {"battleship": 1}}, "sz05": {"britain": {"battleship": 1}}},
                 damaged={"sz09": {"britain": 1}, "sz05": {"britain": 1}})
    events, after = play(s, Dice())
    assert events[0] == {"type": "repaired", "power": "britain", "where": "sz09", "battleships": 1}
    assert after["damaged"] == {"sz05": {"britain": 1}}  # SZ 5 has no British port
    assert GAME.summary(data(), events[0]) == "Britain repairs 1 battleship at SZ 9"


def test_ruling_of_two_battleships_one_damaged_the_sound_one_moves_first() -> None:
    s = position("britain", {"sz09": {"britain": {"battleship": 2}}}, damaged={"sz09": {"britain": 1}})
    s["control"]["london"] = "germany"
    s["control"]["picardy"] = "germany"  # no port to repair at: the damage stays
    events, after = play(s, Dice(), move("sz09", "sz04", {"battleship": 1}))
    assert after["damaged"] == {"sz09": {"britain": 1}}
    events, after = play(s, Dice(), move("sz09", "sz04", {"battleship": 2}))
    assert after["damaged"]["sz04"] == {"britain": 1} and not after["damaged"].get("sz09", {}).get("britain")


def test_standing_sea_losses_are_checked() -> None:
    s = position("britain", {})
    found = GAME.validate(data(), s, "britain", {"orders": [], "standing": {"sea_losses": ["cruiser", "cruiser"]}})
    assert [p.path for p in found] == [("standing", "sea_losses")]


def test_the_battle_records_its_fleets_and_rolls_under_labels_anyone_can_recompute() -> None:
    s = position("britain", {"sz09": {"britain": {"cruiser": 1}},
                             "sz05": {"germany": {"battleship": 1, "cruiser": 1}}},
                 damaged={"sz05": {"germany": 1}}, standing={"germany": {"sea_losses": ["damaged_battleship"]}})
    # Britain's 3 sinks the damaged battleship (Germany's standing order); Germany's cruiser
    # (its dice come first: cruiser, then the battleship) sinks Britain's with a 3
    dice = Dice(3, 3, 6)
    events, after = play(s, dice, move("sz09", "sz05", {"cruiser": 1}))
    battle = of(events, "sea_battle")[0]
    assert dice.labels == ["r2:britain:sz05:sea1:attacker:d1", "r2:britain:sz05:sea1:defender:d1",
                           "r2:britain:sz05:sea1:defender:d2"]
    assert battle["defenders"] == {"germany": {"battleship": 1, "cruiser": 1}}
    assert battle["attackers"] == {"britain": {"cruiser": 1}}
    # the German cruiser is not counted lost
    assert battle["sunk"] == {"britain": {"cruiser": 1}, "germany": {"battleship": 1}}
    assert "sz05" not in after["damaged"]


def test_sources_6_6_transports_alone_on_both_sides_lose_nothing() -> None:
    s = position("britain", {"sz09": {"britain": {"transport": 1}}, "sz05": {"germany": {"transport": 1}}})
    events, after = play(s, Dice(), move("sz09", "sz05", {"transport": 1}), {"attack": {"where": "sz05"}})
    assert of(events, "sea_battle")[0]["sunk"] == {} and of(events, "sea_battle")[0]["rounds"] == []
    assert after["units"]["sz05"] == {"germany": {"transport": 1}, "britain": {"transport": 1}}


def test_ruling_several_defending_powers_take_hits_by_the_larger_ones_order() -> None:
    s = position("germany", {"sz11": {"germany": {"cruiser": 1}},
                             "sz05": {"britain": {"cruiser": 2, "submarine": 1}, "france": {"cruiser": 1}}},
                 standing={"britain": {"sea_losses": ["cruiser"]}, "france": {"sea_losses": ["submarine"]}})
    # Germany's 3 hits; the defence's four 6s miss; round 2: Germany's 6 misses, a 2 sinks it
    events, _ = play(s, Dice(3, 6, 6, 6, 6, 6, 2, 6, 6), move("sz11", "sz05", {"cruiser": 1}, via=["sz10"]))
    assert of(events, "sea_battle")[0]["sunk"] == {"britain": {"cruiser": 1}, "germany": {"cruiser": 1}}
