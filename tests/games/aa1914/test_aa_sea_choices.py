"""Axis & Allies 1914: the choices in a sea battle, as rule tables (games/aa1914/rules/naval.py):
the attacker's standing `sea_withdraw` (after a given round; when outnumbered, at equal
strength and one below; where the ships go, with their damage; nowhere to go), a defending
power's standing `submerge` (only when its side has nothing but submarines left; the
transports left alone; never the attacker's), and transports carrying land units through an
enemy minefield (a 1 and a 2; the cargo lost, the assault that then does not happen).
Dice on both sides of each value: a submarine hits on a 2 and misses on a 3, a cruiser hits
on a 3 and misses on a 4. In-process, without git."""

from __future__ import annotations

from typing import Any

import pytest
from aa_play import move, of, play, position, refused
from fixed_rng import FixedRng

from pbem.game import GameData, State, get_game, load_data

GAME = get_game("aa1914")
Dice = FixedRng


def data() -> GameData:
    return load_data("aa1914")


def battle(events: list[dict[str, Any]]) -> dict[str, Any]:
    (found,) = of(events, "sea_battle")
    return found


# ---------------------------------------------------------------------------------------
# withdrawing (SOURCES.md 6.1; a ruling): the attacker only, after a whole round, all its
# ships together, to the sea zone its first move into the battle came from, if friendly

DUEL = {"sz09": {"britain": {"cruiser": 2}}, "sz05": {"germany": {"cruiser": 2}}}


@pytest.mark.parametrize("after", [1, 2])
def test_sources_6_1_the_attacker_withdraws_after_the_round_it_names(after: int) -> None:
    # round 1: a 3 hits and a 4 misses on each side; round 2: four 4s miss
    dice = Dice(3, 4, 3, 4, *([4, 4] if after == 2 else []))
    events, state = play(position("britain", DUEL), dice, move("sz09", "sz05", {"cruiser": 2}),
                         standing={"sea_withdraw": {"after_round": after}})
    fought = battle(events)
    assert len(fought["rounds"]) == after
    assert fought["withdrew"] == {"to": "sz09", "why": f"after round {after}", "units": {"cruiser": 1},
                                  "damaged": 0}
    assert fought["sunk"] == {"britain": {"cruiser": 1}, "germany": {"cruiser": 1}}
    assert state["units"]["sz09"] == {"britain": {"cruiser": 1}}
    assert state["units"]["sz05"] == {"germany": {"cruiser": 1}, "britain": {}}
    assert GAME.summary(data(), fought) == (
        f"Britain attacks at SZ 5: {after} round{'s' if after > 1 else ''}; Britain loses 1 cruiser; "
        f"Germany loses 1 cruiser; Britain withdraws 1 cruiser to SZ 9 (after round {after})")


def test_sources_6_1_a_battle_over_before_the_round_named_has_no_withdrawal() -> None:
    # round 1: 3 and 3 sink both German cruisers; their 4s miss
    events, state = play(position("britain", DUEL), Dice(3, 3, 4, 4), move("sz09", "sz05", {"cruiser": 2}),
                         standing={"sea_withdraw": {"after_round": 1}})
    assert "withdrew" not in battle(events)
    assert state["units"]["sz05"] == {"germany": {}, "britain": {"cruiser": 2}}


def test_sources_6_1_without_the_instruction_the_attacker_fights_to_the_end() -> None:
    # round 1: one hit each; round 2: 4, 4 miss; round 3: the British 3 sinks the last German
    events, state = play(position("britain", DUEL), Dice(3, 4, 3, 4, 4, 4, 3, 4),
                         move("sz09", "sz05", {"cruiser": 2}))
    assert "withdrew" not in battle(events) and len(battle(events)["rounds"]) == 3
    assert state["units"]["sz05"]["britain"] == {"cruiser": 1}


@pytest.mark.parametrize(("britain", "germany", "dice", "withdraws"), [
    # a submarine (attack 2) against a cruiser (defence 3): the sub's 3 misses, the cruiser's
    # 4 misses; 2 below 3: it withdraws after round 1
    ({"submarine": 1}, {"cruiser": 1}, [3, 4], True),
    # two submarines against a cruiser: the British 3s miss, the cruiser's 3 sinks one;
    # 2 below 3: it withdraws
    ({"submarine": 2}, {"cruiser": 1}, [3, 3, 3], True),
    # a cruiser and a submarine (5) against a cruiser and a transport (3): never outnumbered;
    # round 1 all miss, round 2 the British cruiser's 3 sinks the German one, the transport
    # left alone is lost
    ({"cruiser": 1, "submarine": 1}, {"cruiser": 1, "transport": 1}, [4, 3, 4, 3, 6, 4], False),
])
def test_sources_6_1_when_outnumbered_the_attacker_withdraws_after_a_round_that_leaves_it_below(
        britain: dict[str, int], germany: dict[str, int], dice: list[int], withdraws: bool) -> None:
    s = position("britain", {"sz09": {"britain": britain}, "sz05": {"germany": germany}})
    events, state = play(s, Dice(*dice), move("sz09", "sz05", britain),
                         standing={"sea_withdraw": {"when_outnumbered": True}})
    fought = battle(events)
    assert ("withdrew" in fought) is withdraws
    if withdraws:
        assert fought["withdrew"]["why"] == "outnumbered: attack 2 against defence 3"
        assert state["units"]["sz09"] == {"britain": {"submarine": 1}}
        assert state["units"]["sz05"] == {"germany": {"cruiser": 1}, "britain": {}}
    else:
        assert state["units"]["sz05"] == {"germany": {}, "britain": britain}


@pytest.mark.parametrize(("german", "dice", "rounds"), [
    # a submarine against a submarine, 2 against 2: it fights on; round 2 the British 2 hits
    # and the German 3 misses
    ({"submarine": 1}, [3, 3, 2, 3], 2),
    # a cruiser against a submarine, 3 against 2: it fights on; round 2 its 3 sinks the sub
    ({"submarine": 1}, [4, 3, 3, 3], 2),
])
def test_sources_6_1_at_equal_or_greater_strength_the_attacker_fights_on(
        german: dict[str, int], dice: list[int], rounds: int) -> None:
    ship = "submarine" if dice[0] == 3 else "cruiser"
    s = position("britain", {"sz09": {"britain": {ship: 1}}, "sz05": {"germany": german}})
    events, state = play(s, Dice(*dice), move("sz09", "sz05", {ship: 1}), {"attack": {"where": "sz05"}},
                         standing={"sea_withdraw": {"when_outnumbered": True}})
    fought = battle(events)
    assert "withdrew" not in fought and len(fought["rounds"]) == rounds
    assert fought["sunk"] == {"germany": {"submarine": 1}}
    assert state["units"]["sz05"] == {"germany": {}, "britain": {ship: 1}}


def test_sources_6_1_a_damaged_battleship_withdraws_with_its_damage() -> None:
    s = position("britain", {"sz09": {"britain": {"battleship": 1}},
                             "sz05": {"germany": {"cruiser": 1, "submarine": 1}}})
    # round 1: the battleship's 5 misses; the German cruiser's 3 damages it, the sub's 3 misses
    events, state = play(s, Dice(5, 3, 3), move("sz09", "sz05", {"battleship": 1}),
                         standing={"sea_withdraw": {"after_round": 1}})
    assert battle(events)["withdrew"] == {"to": "sz09", "why": "after round 1", "units": {"battleship": 1},
                                          "damaged": 1}
    assert battle(events)["damaged"] == {}
    assert state["units"]["sz09"] == {"britain": {"battleship": 1}}
    assert state["damaged"] == {"sz09": {"britain": 1}}


def test_sources_6_1_the_first_friendly_zone_the_ships_came_from_and_none_for_ships_that_did_not_move() -> None:
    s = position("britain", {"sz09": {"britain": {"cruiser": 1}, "germany": {"cruiser": 1}},
                             "sz04": {"britain": {"cruiser": 1}}, "sz05": {"germany": {"battleship": 1}}})
    # the first move came from SZ 9, where a German cruiser stands: the ships go to SZ 4
    # (round 1: 4, 4 miss; the battleship's 5 misses)
    events, state = play(s, Dice(4, 4, 5), move("sz09", "sz05", {"cruiser": 1}),
                         move("sz04", "sz05", {"cruiser": 1}), standing={"sea_withdraw": {"after_round": 1}})
    assert battle(events)["withdrew"]["to"] == "sz04"
    assert state["units"]["sz04"] == {"britain": {"cruiser": 2}}
    # a submarine that was there already has nowhere to go: round 1 its 3 and the cruiser's
    # 4 miss; round 2 its 6 misses, the cruiser's 3 sinks it
    there = position("britain", {"sz05": {"britain": {"submarine": 1}, "germany": {"cruiser": 1}}})
    events, _ = play(there, Dice(3, 4, 6, 3), {"attack": {"where": "sz05"}},
                     standing={"sea_withdraw": {"after_round": 1, "when_outnumbered": True}})
    assert "withdrew" not in battle(events) and battle(events)["sunk"] == {"britain": {"submarine": 1}}


@pytest.mark.parametrize(("value", "ok"), [
    ("never", True), ({"after_round": 2}, True), ({"when_outnumbered": True}, True),
    ({"after_round": 1, "when_outnumbered": False}, True), ({"after_round": 0}, False),
    ({"after_round": True}, False), ({}, False), ({"when": "outnumbered"}, False), ("always", False)])
def test_sources_6_1_the_withdrawal_instruction_is_checked(value: Any, ok: bool) -> None:
    found = refused(position("britain", {}), standing={"sea_withdraw": value})
    assert found == ([] if ok else [
        "when your attacking ships withdraw from a sea battle: never (the default), or {after_round: N} "
        "(a whole number from 1: after that round), {when_outnumbered: true} (after a round that "
        "leaves your ships' total attack below the defenders' total defence), or both"])


# ---------------------------------------------------------------------------------------
# submerging (SOURCES.md 6.4; a ruling): a defending power's submarines, by its standing
# `submerge: true`, as a round after the first begins with nothing but submarines left on
# their side; they stay in the zone, out of the battle


def sub_and_cruiser(submerge: bool) -> State:
    return position("britain", {"sz09": {"britain": {"cruiser": 2}},
                                "sz05": {"germany": {"cruiser": 1, "submarine": 1}}},
                    standing={"germany": {"submerge": submerge, "sea_losses": ["cruiser"]}})


def test_sources_6_4_the_defenders_submarines_submerge_once_they_are_all_that_is_left() -> None:
    # round 1: the British 3 sinks the German cruiser, their 4 misses; the German 4 and 3 miss
    # (the cruiser's die first, then the sub's); round 2 does not begin: the sub submerges
    events, state = play(sub_and_cruiser(True), Dice(3, 4, 4, 3), move("sz09", "sz05", {"cruiser": 2}))
    fought = battle(events)
    assert len(fought["rounds"]) == 1 and fought["submerged"] == {"germany": 1}
    assert fought["sunk"] == {"germany": {"cruiser": 1}}
    assert state["units"]["sz05"] == {"germany": {"submarine": 1}, "britain": {"cruiser": 2}}
    assert GAME.summary(data(), fought) == (
        "Britain attacks at SZ 5: 1 round; Germany loses 1 cruiser; Germany's 1 submarine submerges")


def test_sources_6_4_without_the_instruction_the_submarine_fights_on() -> None:
    # round 2: the British 4 misses and 3 hits; the sub's 3 misses
    events, state = play(sub_and_cruiser(False), Dice(3, 4, 4, 3, 4, 3, 3),
                         move("sz09", "sz05", {"cruiser": 2}))
    fought = battle(events)
    assert len(fought["rounds"]) == 2 and "submerged" not in fought
    assert fought["sunk"] == {"germany": {"cruiser": 1, "submarine": 1}}


def test_sources_6_4_no_submerging_while_a_surface_warship_of_the_side_fights() -> None:
    # round 1: all miss (British 4s; the German cruiser's 4, the sub's 3); round 2 is fought:
    # the British 3, 3 sink both
    events, _ = play(sub_and_cruiser(True), Dice(4, 4, 4, 3, 3, 3, 4, 3),
                     move("sz09", "sz05", {"cruiser": 2}))
    fought = battle(events)
    assert len(fought["rounds"]) == 2 and "submerged" not in fought
    assert fought["sunk"] == {"germany": {"cruiser": 1, "submarine": 1}}


def test_sources_6_4_transports_left_alone_by_submerging_submarines_are_lost() -> None:
    s = position("britain", {"sz09": {"britain": {"cruiser": 1}},
                             "sz05": {"germany": {"submarine": 1, "transport": 1}}},
                 standing={"germany": {"submerge": True}})
    # round 1: the cruiser's 4 misses, the sub's 3 misses; then the sub submerges
    events, state = play(s, Dice(4, 3), move("sz09", "sz05", {"cruiser": 1}), {"attack": {"where": "sz05"}})
    fought = battle(events)
    assert fought["submerged"] == {"germany": 1} and fought["sunk"] == {"germany": {"transport": 1}}
    assert state["units"]["sz05"] == {"germany": {"submarine": 1}, "britain": {"cruiser": 1}}


def test_sources_6_4_the_attackers_submarines_do_not_submerge() -> None:
    s = position("britain", {"sz09": {"britain": {"submarine": 1}}, "sz05": {"germany": {"cruiser": 1}}})
    # round 1: the sub's 3 and the cruiser's 4 miss; round 2: the sub's 3 misses, the cruiser's 3 sinks it
    events, _ = play(s, Dice(3, 4, 3, 3), move("sz09", "sz05", {"submarine": 1}), standing={"submerge": True})
    fought = battle(events)
    assert "submerged" not in fought and fought["sunk"] == {"britain": {"submarine": 1}}


def test_sources_6_4_the_submerge_instruction_is_checked() -> None:
    assert refused(position("britain", {}), standing={"submerge": True}) == []
    assert refused(position("britain", {}), standing={"submerge": "yes"}) == [
        "whether your defending submarines submerge when they are the last warships of your side "
        "in a sea battle: true or false"]


def test_the_log_says_the_sea_instructions() -> None:
    events, _ = play(position("britain", {}), Dice(),
                     standing={"sea_withdraw": {"after_round": 2, "when_outnumbered": True}, "submerge": True})
    assert GAME.summary(data(), of(events, "standing")[0]).endswith(
        "at sea: battleship, submarine, cruiser, damaged_battleship, transport; its attacking ships "
        "withdraw after round 2 or when outnumbered; its defending submarines submerge")


# ---------------------------------------------------------------------------------------
# transports carrying land units through an enemy minefield (SOURCES.md 6.7: one die each, a
# 1 sinks it, its cargo lost; a ruling: the cargo loaded by the power's loss order, the first
# transports full)

ARMY = {"london": {"britain": {"infantry": 3, "artillery": 1}}, "sz09": {"britain": {"transport": 2}}}


@pytest.mark.parametrize(("dice", "lost", "landed"), [
    ((2, 2), {}, {"infantry": 3, "artillery": 1}),
    ((1, 2), {"infantry": 2}, {"infantry": 1, "artillery": 1}),   # the first: two infantry
    ((2, 1), {"infantry": 1, "artillery": 1}, {"infantry": 2}),   # the second: the rest
    ((1, 1), {"infantry": 3, "artillery": 1}, {}),
])
def test_sources_6_7_each_transport_rolls_in_an_enemy_minefield_and_its_cargo_goes_down_with_it(
        dice: tuple[int, int], lost: dict[str, int], landed: dict[str, int]) -> None:
    s = position("britain", dict(ARMY))
    s["control"]["norway"] = "britain"
    events, state = play(s, Dice(*dice), move("london", "norway", {"infantry": 3, "artillery": 1},
                                              ["sz09", "sz10"]))
    (mines,) = of(events, "mines")  # SZ 9 is where they board: no die there
    sunk = sum(1 for d in dice if d == 1)
    assert mines == {"type": "mines", "power": "britain", "where": "sz10", "moved_to": "sz10",
                     "dice": list(dice), "sunk": {"transport": sunk} if sunk else {}, "damaged": 0,
                     "landed_in": "norway", "cargo_lost": lost}
    assert state["units"]["norway"]["britain"] == landed
    assert state["units"]["sz10"]["britain"] == ({"transport": 2 - sunk} if sunk < 2 else {})
    if sunk == 1:
        assert GAME.summary(data(), mines) == (
            f"Britain's ships cross the minefield of SZ 10: 1 transport sunk with "
            f"{', '.join(f'{n} {u}' for u, n in lost.items())} aboard")


def test_sources_6_7_an_assault_whose_cargo_is_all_lost_is_no_battle() -> None:
    s = position("britain", {**ARMY, "kiel": {"germany": {"infantry": 1}}})
    events, state = play(s, Dice(1), move("london", "kiel", {"infantry": 2}, ["sz09", "sz10"]))
    assert of(events, "battle") == [] and state["control"]["kiel"] == "germany"
    assert state["units"]["kiel"] == {"germany": {"infantry": 1}, "britain": {}}
    # a 2: they land and fight (no coastal artillery; the infantry's 2, 2 hit, the German 6 misses)
    events, state = play(s, Dice(2, 2, 2, 6), move("london", "kiel", {"infantry": 2}, ["sz09", "sz10"]))
    assert len(of(events, "battle")) == 1 and state["control"]["kiel"] == "britain"
