"""Red Russia die thresholds at their boundaries: every roll that hits (or breaks down,
or makes contact, or kills a leader) is tried with the value just below it and the value
just at it, on both sides of a battle, with the exact hits and losses that follow.

A test of sixes against ones cannot tell "hit on 6" from "hit on 5"; these can. Each
test's name starts with the rule it checks and quotes it (rulebook:
../shared/rules/red-russia-rules.txt).
"""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from position import FixedRng, data, orders, position, resolve_exact
from position import standing as standing_

politics = importlib.import_module("pbem_game_red_russia.politics")

Events = list[dict[str, Any]]


# ---------------------------------------------------------------------------------------
# helpers


def run(state: dict[str, Any], body: dict[str, Any], dice: list[int]) -> tuple[Events, dict[str, Any]]:
    """The actor's orders, checked, resolved with exactly these dice: the events shown and
    the state after them."""
    events, after, _ = resolve_exact(state, body, dice)
    return events, after


def fight(pieces: dict[str, str], zone: str, spend: int, dice: list[int], *, actor: str = "red",
          control: dict[str, Any] | None = None, standing: dict[str, Any] | None = None,
          moves: list[dict[str, Any]] | None = None, reduced: tuple[str, ...] = (),
          ) -> tuple[Events, dict[str, Any]]:
    """`actor` attacks `zone` with everything it has there, spending `spend` (8.3)."""
    state = position(pieces, actor=actor, control=control, reduced=reduced)
    state["standing"] = standing_(standing)
    body = orders(*(moves or []), {"attack": {"zone": zone}})
    body["secret"] = {"spend": {zone: spend}}
    return run(state, body, dice)


def besiege(pieces: dict[str, str], zone: str, rounds: int, dice: list[int], *, actor: str = "red",
            control: dict[str, Any] | None = None, moves: list[dict[str, Any]] | None = None,
            reduced: tuple[str, ...] = ()) -> tuple[Events, dict[str, Any]]:
    state = position(pieces, actor=actor, control=control, reduced=reduced)
    state["standing"] = standing_()
    return run(state, orders(*(moves or []), {"siege": {"zone": zone, "rounds": rounds}}), dice)


def move(units: list[str], to: str) -> dict[str, Any]:
    return {"move": {"units": units, "to": to}}


def kinds(events: Events) -> list[str]:
    return [e["type"] for e in events]


def rounds(events: Events) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == "combat_round"]


def groups(rnd: dict[str, Any], side: str) -> list[tuple[str, int, int, int]]:
    """(what, dice, hit on, hits) of each group of dice a side rolled in a round."""
    return [(g["what"], g["count"], g["hit"], g["hits"]) for g in rnd["dice"][side]]


def losses(events: Events) -> list[str]:
    return [e["unit"] for e in events if e["type"] == "reduced"]


def where(events: Events) -> list[tuple[list[str], str]]:
    return [(e["units"], e["to"]) for e in events if e["type"] == "retreat"]


# ---------------------------------------------------------------------------------------
# 8.5 land combat: sixes hit


def test_8_5_both_sides_hit_on_six_and_not_on_five() -> None:
    # 8.5 "For each result of 6, one damage is inflicted on enemy units."
    # Tver is Red: south-inf-01 (5-2) has no fortification there; a probe is one round
    events, after = fight({"red-inf-01": "Tver", "south-inf-01": "Tver"}, "Tver", 1,
                          [5, 6, 5, 6, 5] + [5, 5, 6, 5, 5], control={"Moscow": "south"})
    (rnd,) = rounds(events)
    assert groups(rnd, "atk") == [("units", 5, 6, 2)]
    assert groups(rnd, "def") == [("units", 5, 6, 1)]
    assert rnd["hits"] == {"atk": 2, "def": 1}
    # 8.6 two hits reduce the defence-2 unit, one hit on the other does nothing; 8.7 the
    # reduced unit retreats
    assert losses(events) == ["south-inf-01"]
    assert where(events) == [(["south-inf-01"], "Moscow")]
    assert after["units"]["south-inf-01"]["reduced"] and not after["units"]["red-inf-01"]["reduced"]
    assert kinds(events) == ["attack", "combat_round", "reduced", "retreat", "battle_over"]


def test_8_5_the_defenders_fortification_dice_hit_on_six_and_not_on_five() -> None:
    # 8.5 "For the defender only: the fortification value (provided he controls the zone)."
    # Rostov is South's, fort 1: 5 + 1 defender dice, all of them hitting on a 6
    events, after = fight({"red-inf-01": "Rostov", "south-inf-01": "Rostov"}, "Rostov", 1,
                          [5, 5, 5, 5, 5] + [5, 6, 5, 5, 5, 6], control={"Kharkov": "red"})
    (rnd,) = rounds(events)
    assert groups(rnd, "atk") == [("units", 5, 6, 0)]
    assert groups(rnd, "def") == [("units", 6, 6, 2)]
    assert losses(events) == ["red-inf-01"] and where(events) == [(["red-inf-01"], "Kharkov")]
    assert not after["units"]["south-inf-01"]["reduced"]


def test_8_5_after_a_difficult_route_the_defender_hits_on_five_in_the_first_round_only() -> None:
    # 8.5 "If the attacker enters the combat zone from a difficult or very difficult route
    # this turn, add one to the result of each die rolled by the defender (so a 5 becomes a
    # 6) in the first combat turn only."
    # red-inf-01 comes from Kazan to Ufa (Siberian, fort 1) by a difficult route; an assault
    # is two rounds. Round 1: the defender's 5 hits, its 4s miss; the attacker's 5s miss.
    # Round 2: the defender's 5s miss again.
    dice = ([5, 5, 5, 5, 6] + [4, 4, 4, 4, 4, 5]
            + [5, 5, 5, 6, 6] + [5, 5, 5, 5, 6, 6])
    events, after = fight({"red-inf-01": "Kazan", "siberian-inf-01": "Ufa"}, "Ufa", 3, dice,
                          moves=[move(["red-inf-01"], "Ufa")])
    first, second = rounds(events)
    assert groups(first, "atk") == [("units", 5, 6, 1)]
    assert groups(first, "def") == [("units", 6, 5, 1)]
    assert groups(second, "atk") == [("units", 5, 6, 2)]
    assert groups(second, "def") == [("units", 6, 6, 2)]
    # round 1: one hit each, no step lost; round 2: two hits each, both units reduced
    assert losses(events) == ["red-inf-01", "siberian-inf-01"]
    assert where(events) == [(["red-inf-01"], "Kazan"), (["siberian-inf-01"], "Chelyabinsk")]
    assert after["units"]["red-inf-01"]["reduced"] and after["units"]["siberian-inf-01"]["reduced"]


def test_8_5_an_easy_route_gives_the_defender_no_plus_one() -> None:
    # 8.5 (as above): only a difficult or very difficult route adds one. Moscow-Tver is easy.
    events, _ = fight({"red-inf-01": "Moscow", "south-inf-01": "Tver"}, "Tver", 1,
                      [1] * 5 + [5, 5, 5, 5, 5], moves=[move(["red-inf-01"], "Tver")])
    (rnd,) = rounds(events)
    assert groups(rnd, "def") == [("units", 5, 6, 0)] and losses(events) == []


# ---------------------------------------------------------------------------------------
# 8.91 tanks


def test_8_91_an_attacking_tank_hits_on_five_in_the_first_round_and_on_six_after() -> None:
    # 8.91 "During the initial combat turn (and siege), the tank hits on a 5 or a 6."
    # red-tank-01 (3-2) and red-inf-01 against two South infantry (10 dice), an assault
    pieces = {"red-tank-01": "Tver", "red-inf-01": "Tver", "south-inf-01": "Tver", "south-inf-02": "Tver"}
    dice = ([4, 4, 5] + [5, 5, 5, 5, 5] + [1] * 10
            + [5, 5, 6] + [5, 5, 5, 5, 6] + [1] * 10)
    events, after = fight(pieces, "Tver", 3, dice, control={"Moscow": "south"})
    first, second = rounds(events)
    assert groups(first, "atk") == [("tanks", 3, 5, 1), ("units", 5, 6, 0)]
    assert groups(second, "atk") == [("tanks", 3, 6, 1), ("units", 5, 6, 1)]
    # round 1: one hit, nothing lost; round 2: two hits, one South unit reduced, retreating
    assert losses(events) == ["south-inf-01"]
    assert where(events) == [(["south-inf-01"], "Moscow")]


def test_8_91_a_defending_tank_hits_on_five_in_the_first_round() -> None:
    # 8.91 "During the initial combat turn (and siege), the tank hits on a 5 or a 6."
    pieces = {"red-inf-01": "Tver", "red-inf-02": "Tver", "south-tank-01": "Tver"}
    events, _ = fight(pieces, "Tver", 1, [1] * 10 + [4, 5, 5], standing={"red": {"retreat_to": ["Moscow"]}})
    (rnd,) = rounds(events)
    assert groups(rnd, "def") == [("tanks", 3, 5, 2)]
    assert losses(events) == ["red-inf-01"] and where(events) == [(["red-inf-01"], "Moscow")]


@pytest.mark.parametrize(("tank_dice", "hits"), [([3, 3, 4], 1), ([3, 3, 3], 0)])
def test_8_91_with_8_5_a_defending_tank_after_a_difficult_route_hits_on_four(tank_dice: list[int],
                                                                             hits: int) -> None:
    # 8.91 "During the initial combat turn (and siege), the tank hits on a 5 or a 6."
    # 8.5 "add one to the result of each die rolled by the defender (so a 5 becomes a 6) in
    # the first combat turn only": a tank's 4 becomes a 5, a hit; its 3 becomes a 4, a miss.
    # red-inf-01 comes from Tver to Novgorod (Red) by a difficult route; south-tank-01 there
    events, _ = fight({"red-inf-01": "Tver", "south-tank-01": "Novgorod"}, "Novgorod", 1,
                      [1] * 5 + tank_dice, moves=[move(["red-inf-01"], "Novgorod")])
    (rnd,) = rounds(events)
    assert groups(rnd, "def") == [("tanks", 3, 4, hits)]
    assert rnd["hits"]["def"] == hits and losses(events) == []


@pytest.mark.parametrize(("roll", "reduced"), [(5, False), (6, True)])
def test_8_91_a_tank_entering_an_enemy_zone_breaks_down_on_six_only(roll: int, reduced: bool) -> None:
    # 8.91 "If during movement (not during a retreat) a tank enters a neutral or
    # enemy-controlled zone, its owner rolls a die. On a result of 6, the tank breaks down
    # and is reduced by one step (or eliminated if already reduced)."
    state = position({"red-tank-01": "Tsaritsyn"})
    events, after = run(state, orders(move(["red-tank-01"], "Novocherkassk")), [roll])
    assert [(e["unit"], e["zone"], e["roll"]) for e in events if e["type"] == "tank_breakdown"] == [
        ("red-tank-01", "Novocherkassk", roll)]
    assert after["units"]["red-tank-01"]["reduced"] is reduced
    assert after["units"]["red-tank-01"]["status"] == "map"


def test_8_91_a_reduced_tank_that_breaks_down_is_eliminated() -> None:
    # 8.91 "(or eliminated if already reduced)"
    state = position({"red-tank-01": "Tsaritsyn"}, reduced=("red-tank-01",))
    _, after = run(state, orders(move(["red-tank-01"], "Novocherkassk")), [6])
    assert after["units"]["red-tank-01"]["status"] != "map"


# ---------------------------------------------------------------------------------------
# 8.93 aircraft


@pytest.mark.parametrize(("roll", "reduced"), [(2, True), (3, False)])
def test_8_93_aircraft_caught_alone_lose_a_step_on_one_or_two(roll: int, reduced: bool) -> None:
    # 8.93 "If an enemy force moves into a zone containing an aircraft without any other
    # type of unit, then the aircraft must retreat immediately and its owner rolls a die.
    # On a result of 1 or 2, the aircraft suffers one step loss."
    events, after = fight({"red-inf-01": "Tver", "south-air-01": "Tver"}, "Tver", 1, [roll],
                          control={"Moscow": "south"})
    assert [e["roll"] for e in events if e["type"] == "air_alone"] == [roll]
    assert losses(events) == (["south-air-01"] if reduced else [])
    assert where(events) == [(["south-air-01"], "Moscow")]
    assert after["units"]["south-air-01"]["reduced"] is reduced
    assert rounds(events) == []


def test_8_93_aircraft_dice_hit_on_six_and_add_to_the_other_hits() -> None:
    # 8.93 "If the number of "hits" generated by an aircraft is not sufficient in itself to
    # cause a loss, they are added to the other "hits" caused by the other friendly units"
    pieces = {"red-air-01": "Tver", "red-inf-01": "Tver", "south-inf-01": "Tver"}
    events, _ = fight(pieces, "Tver", 1, [5, 6] + [5, 5, 5, 5, 6] + [5] * 5, control={"Moscow": "south"})
    (rnd,) = rounds(events)
    assert groups(rnd, "atk") == [("aircraft", 2, 6, 1), ("units", 5, 6, 1)]
    assert groups(rnd, "def") == [("units", 5, 6, 0)]
    assert losses(events) == ["south-inf-01"]


# ---------------------------------------------------------------------------------------
# 10.83 Trotsky, 10.82 Stalin


def test_10_83_trotskys_dice_hit_on_five_in_the_first_round_of_an_attack_then_on_six() -> None:
    # 10.83 "the dice rolled as part of Trotsky's leadership bonus in a land combat (and not
    # a siege) give a hit on a 5 or a 6 for the first combat round (only), for each attack"
    pieces = {"red-inf-01": "Tver", "trotsky": "Tver", "south-inf-01": "Tver", "south-inf-02": "Tver"}
    dice = ([4, 5, 5] + [5, 5, 5, 5, 5] + [1] * 10
            + [5, 5, 5, 5, 5, 5, 5, 6] + [1] * 5 + [1, 1])  # then his loss test: safe
    events, _ = fight(pieces, "Tver", 3, dice, control={"Moscow": "south"})
    first, second = rounds(events)
    assert groups(first, "atk") == [("Trotsky", 3, 5, 2), ("units", 5, 6, 0)]
    assert groups(second, "atk") == [("units", 8, 6, 1)]  # his 3 dice with the units' 5
    assert losses(events) == ["south-inf-01"]
    assert where(events) == [(["south-inf-01"], "Moscow")]


def test_10_83_trotsky_in_defence_hits_on_six() -> None:
    # 10.83 "... for each attack (translator's note: not in defence) in which he is engaged"
    pieces = {"red-inf-01": "Tver", "trotsky": "Tver", "south-inf-01": "Tver", "south-inf-02": "Tver"}
    # the Reds defend Tver (fort 1): 5 + Trotsky's 3 + 1 dice, all hitting on a 6
    events, _ = fight(pieces, "Tver", 1, [1] * 10 + [5] * 8 + [6] + [1, 1], actor="south")
    (rnd,) = rounds(events)
    assert groups(rnd, "def") == [("units", 9, 6, 1)] and losses(events) == []


def test_10_83_with_stalin_trotsky_rolls_two_dice_still_hitting_on_five() -> None:
    # 10.83 "If Trotsky finds himself ... in a zone with Stalin or Lenin, his leadership
    # value is reduced from 3 to 2 ... He nevertheless continues to hit on a 5 or 6 for the
    # first round of each land combat."
    pieces = {"red-inf-01": "Tver", "trotsky": "Tver", "stalin": "Tver", "south-inf-01": "Tver",
              "south-inf-02": "Tver"}
    dice = [4, 5] + [5] * 7 + [1] * 10 + [1, 1] + [1, 1]  # then the two loss tests: safe
    events, _ = fight(pieces, "Tver", 1, dice)
    (rnd,) = rounds(events)
    assert groups(rnd, "atk") == [("Trotsky", 2, 5, 1), ("units", 7, 6, 0)]  # 5 + Stalin's 2


def test_10_83_trotskys_dice_hit_on_six_in_a_siege() -> None:
    # 10.83 "in a land combat (and not a siege)"; 9.2 "For each result of 6, one hit"
    events, after = besiege({"red-inf-01": "Rostov", "trotsky": "Rostov"}, "Rostov", 1,
                            [5] * 8 + [1] + [1, 1])
    (rnd,) = rounds(events)
    assert groups(rnd, "atk") == [("leaders", 3, 6, 0), ("units", 5, 6, 0)]
    assert after["control"]["Rostov"] == "south"


def test_10_82_stalins_commissars_dice_hit_on_six() -> None:
    # 10.82 "Double the number of dice rolled by these units during the first round (only)"
    # - the doubled dice hit as any other, on a 6
    pieces = {"red-inf-01": "Tver", "stalin": "Tver", "south-inf-01": "Tver", "south-inf-02": "Tver"}
    dice = [5, 5, 5, 5, 6] + [5] * 7 + [1] * 10 + [1, 1]
    events, _ = fight(pieces, "Tver", 1, dice, standing={"red": {"stalin_commissars": 1}})
    (rnd,) = rounds(events)
    assert groups(rnd, "atk") == [("Stalin's commissars", 5, 6, 1), ("units", 7, 6, 0)]
    # 10.82 the unit loses its step without retreating; the single hit takes no step (8.6)
    assert losses(events) == ["red-inf-01"] and where(events) == []


# ---------------------------------------------------------------------------------------
# 8.92 fleets


NAVAL = {"red-fleet-01": "Baltic Sea", "allied-fleet-03": "Baltic Sea"}


@pytest.mark.parametrize(("search_dice", "contact"), [([3, 3], False), ([3, 4], True), ([1, 6], True)])
def test_8_92_a_search_makes_contact_on_seven_or_more(search_dice: list[int], contact: bool) -> None:
    # 8.92 "In every case, roll two dice. On a result of 7 or more, there is contact and a
    # single turn of naval combat is played."
    state = position(NAVAL)
    state["standing"] = standing_()
    naval = [1] * 6 if contact else []
    events, _ = run(state, orders({"search": {"zone": "Baltic Sea"}}), search_dice + naval)
    (found,) = [e for e in events if e["type"] == "naval_search"]
    assert found["contact"] is contact and found["dice"] == search_dice
    assert len(rounds(events)) == (1 if contact else 0)


def test_8_92_naval_combat_hits_on_six_and_not_on_five() -> None:
    # 8.92 "...a single turn of naval combat is played"; the dice are those of land combat
    # (8.5 "For each result of 6, one damage"). Both fleets 3-2.
    state = position(NAVAL)
    state["standing"] = standing_()
    events, after = run(state, orders({"search": {"zone": "Baltic Sea"}}),
                        [3, 4] + [5, 6, 6] + [5, 5, 6])
    (rnd,) = rounds(events)
    assert groups(rnd, "atk") == [("fleets", 3, 6, 2)] and groups(rnd, "def") == [("fleets", 3, 6, 1)]
    # 8.92 "If a fleet takes damage during combat it must retreat": the British fleet
    # (2 hits, a step) retreats into a White port of its sea; one hit costs the Reds nothing
    assert losses(events) == ["allied-fleet-03"]
    assert where(events) == [(["allied-fleet-03"], "Reval")]
    assert not after["units"]["red-fleet-01"]["reduced"]


def test_8_92_a_blockade_run_fights_on_while_only_fives_are_rolled() -> None:
    # 8.92 "A fleet that enters or leaves a blockaded port must engage in a naval combat ...
    # and the combat continues until one of the two sides is eliminated or has retreated."
    # Two rounds of fives change nothing; the third round's sixes decide it.
    state = position({"red-fleet-01": "Petrograd", "allied-fleet-03": "Baltic Sea"})
    state["standing"] = standing_()
    state["blockade"] = {"allied-fleet-03": "Petrograd"}
    dice = [5] * 6 + [5] * 6 + [6, 6, 5] + [5, 5, 5]
    events, after = run(state, orders(move(["red-fleet-01"], "Baltic Sea")), dice)
    assert [r["hits"] for r in rounds(events)] == [{"atk": 0, "def": 0}] * 2 + [{"atk": 2, "def": 0}]
    assert losses(events) == ["allied-fleet-03"]
    assert after["units"]["allied-fleet-03"]["reduced"] and not after["units"]["red-fleet-01"]["reduced"]


# ---------------------------------------------------------------------------------------
# 9.2, 9.3 sieges; 13.3 Finland


def test_9_2_besiegers_hit_on_six_and_9_3_the_fortification_fires_back_on_six() -> None:
    # 9.2 "For each result of 6, one hit is obtained. If the total of these hits inflicted
    # during all siege turns is equal to or exceeds the fortification value, the besieger
    # takes control of the zone"; 9.3 "the player who controls the besieged zone rolls a
    # number of dice equal to its fortification value ... For each result of 6, one hit is
    # obtained against the besieging units."
    # Kazan (Red, fort 2) besieged by siberian-inf-01 (5 dice) for two rounds
    dice = [5, 5, 5, 5, 6] + [5, 6] + [5, 5, 5, 5, 6] + [6]
    events, after = besiege({"siberian-inf-01": "Kazan"}, "Kazan", 2, dice, actor="siberian")
    first, second = rounds(events)
    assert groups(first, "atk") == [("units", 5, 6, 1)]
    assert groups(first, "def") == [("fortification", 2, 6, 1)]
    # the hits stay: the reduced fortification (1) rolls one die in round 2 (9.2)
    assert groups(second, "def") == [("fortification", 1, 6, 1)]
    assert [e["hits"] for e in events if e["type"] == "siege_hits"] == [1, 1]
    # 9.3 one hit a round is not enough for a step of a defence-2 unit, and is not kept
    assert losses(events) == []
    assert after["control"]["Kazan"] == "siberian"


def test_9_2_hits_one_short_of_the_fortification_do_not_take_the_zone() -> None:
    # 9.2 "equal to or exceeds the fortification value": one hit on Kazan's 2 is not enough
    events, after = besiege({"siberian-inf-01": "Kazan"}, "Kazan", 1, [5, 5, 5, 5, 6] + [1, 1],
                            actor="siberian")
    assert after["control"]["Kazan"] == "red" and after["siege"]["Kazan"]["hits"] == 1
    assert "control" not in kinds(events)


@pytest.mark.parametrize(("fort_die", "eliminated"), [(4, False), (5, True)])
def test_9_3_after_a_difficult_route_the_fortification_hits_on_five_in_the_first_round(
        fort_die: int, eliminated: bool) -> None:
    # 9.3 "Add 1 to the result of the first round only, if the besiegers enter the zone
    # this turn by a difficult or very difficult route (translator's note: thus the hit is
    # assured with a result of 5 or 6)."
    # a reduced red-inf-01 (3-1) comes from Kazan to Ufa (Siberian, fort 1, difficult route)
    dice = [5, 5, 5] + [fort_die] + ([] if eliminated else [5, 5, 5] + [5])
    events, after = besiege({"red-inf-01": "Kazan"}, "Ufa", 2, dice, moves=[move(["red-inf-01"], "Ufa")],
                            reduced=("red-inf-01",))
    found = rounds(events)
    assert groups(found[0], "def") == [("fortification", 1, 5, int(eliminated))]
    if eliminated:  # one hit on defence 1: the reduced unit is gone, the siege with it
        assert len(found) == 1 and losses(events) == ["red-inf-01"]
        assert after["units"]["red-inf-01"]["status"] != "map"
    else:  # round 2 the fortification hits on a 6 again: its 5 misses
        assert groups(found[1], "def") == [("fortification", 1, 6, 0)]
        assert losses(events) == [] and after["units"]["red-inf-01"]["zone"] == "Ufa"


@pytest.mark.parametrize(("fort_die", "eliminated"), [(4, False), (5, True)])
def test_9_3_without_a_difficult_route_the_fortification_hits_on_six_only(fort_die: int,
                                                                           eliminated: bool) -> None:
    # 9.3 "For each result of 6, one hit is obtained against the besieging units." Rostov
    # (South, fort 1) by a reduced red-inf-01 already there: 5 misses, 6 hits
    roll = fort_die + 1
    events, after = besiege({"red-inf-01": "Rostov"}, "Rostov", 1, [5, 5, 5] + [roll],
                            reduced=("red-inf-01",))
    (rnd,) = rounds(events)
    assert groups(rnd, "def") == [("fortification", 1, 6, int(eliminated))]
    assert losses(events) == (["red-inf-01"] if eliminated else [])


def test_8_91_a_besieging_tank_hits_on_five_in_the_first_siege_round() -> None:
    # 8.91 "During the initial combat turn (and siege), the tank hits on a 5 or a 6."
    # red-tank-01 (3 dice) alone besieges Kazan (fort 2), here held by the Siberians
    dice = [4, 4, 5] + [1, 1] + [5, 5, 6] + [1]
    events, after = besiege({"red-tank-01": "Kazan"}, "Kazan", 2, dice, control={"Kazan": "siberian"})
    first, second = rounds(events)
    assert groups(first, "atk") == [("tanks", 3, 5, 1)]
    assert groups(second, "atk") == [("tanks", 3, 6, 1)]
    assert after["control"]["Kazan"] == "red"


@pytest.mark.parametrize(("fort_dice", "hits"), [([4, 4], 0), ([4, 5], 1)])
def test_13_3_finnish_fortifications_hit_on_five_or_six(fort_dice: list[int], hits: int) -> None:
    # 13.3 "All Finnish fortifications hit on a die roll of 5 or 6 when defending against a
    # siege". Vyborg (Finnish, fort 2) besieged by a reduced red-inf-01 (3-1) from Petrograd
    # by an easy route; Finland joins the Whites (13.3)
    events, after = besiege({"red-inf-01": "Petrograd"}, "Vyborg", 1, [5, 5, 5] + fort_dice,
                            moves=[move(["red-inf-01"], "Vyborg")], reduced=("red-inf-01",))
    (rnd,) = rounds(events)
    assert groups(rnd, "atk") == [("units", 3, 6, 0)]
    assert groups(rnd, "def") == [("fortification", 2, 5, hits)]
    assert losses(events) == ["red-inf-01"] * hits
    assert after["control"]["Vyborg"] == "finland"


@pytest.mark.parametrize(("first_dice", "first_hits"), [([3, 3], 0), ([3, 4], 1)])
def test_13_3_finnish_fortifications_hit_on_four_in_the_first_round_after_a_difficult_route(
        first_dice: list[int], first_hits: int) -> None:
    # 13.3 "(or 4 to 6 in the first round if the attacker comes from difficult terrain)"
    # red-inf-01 (5-2) comes from Petrozavodsk to Vyborg by a difficult route; round 2 the
    # Finnish fortification is back to 5-6: its 4 misses, its 5 hits
    dice = [1] * 5 + first_dice + [1] * 5 + [4, 5]
    events, _ = besiege({"red-inf-01": "Petrozavodsk"}, "Vyborg", 2, dice,
                        moves=[move(["red-inf-01"], "Vyborg")])
    first, second = rounds(events)
    assert groups(first, "def") == [("fortification", 2, 4, first_hits)]
    assert groups(second, "def") == [("fortification", 2, 5, 1)]
    assert losses(events) == []  # at most one hit a round on a defence-2 unit


# ---------------------------------------------------------------------------------------
# 10.4 leader losses, 10.5 capture


LEADER_FIGHT = {"red-inf-01": "Tver", "red-inf-02": "Tver", "budyonny": "Tver", "south-inf-01": "Tver"}


@pytest.mark.parametrize(("leader_dice", "fate", "result", "status"), [
    ([5, 5], None, "safe", "map"),       # 10 + 1 step = 11
    ([6, 5], 3, "wounded", "unused"),    # 11 + 1 step = 12, then 1-3
    ([6, 5], 4, "killed", "dead"),       # 11 + 1 step = 12, then 4-6
])
def test_10_4_a_leader_is_hit_on_twelve_counting_the_steps_lost(leader_dice: list[int], fate: int | None,
                                                               result: str, status: str) -> None:
    # 10.4 "Each player must roll two dice for each leader involved, adding the number of
    # loss steps lost by his side. A result of 12 or more indicates that the leader has been
    # hit. The player concerned must then roll another die. A result of 1 to 3 indicates
    # that the leader is wounded. ... A result of 4 to 6 indicates that the leader is killed."
    # a probe: the Reds (11 dice, Budyonny's 1 included) lose one step to two South sixes
    dice = [1] * 11 + [6, 6, 1, 1, 1] + leader_dice + ([fate] if fate else [])
    events, after = fight(LEADER_FIGHT, "Tver", 1, dice, standing={"red": {"retreat_to": ["Moscow"]}})
    assert losses(events) == ["red-inf-01"]
    (loss,) = [e for e in events if e["type"] == "leader_loss"]
    assert (loss["dice"], loss["steps"], loss["fate"], loss["result"]) == (leader_dice, 1, fate, result)
    assert after["units"]["budyonny"]["status"] == status


@pytest.mark.parametrize(("leader_dice", "result"), [([6, 5], "safe"), ([6, 6], "killed")])
def test_10_4_without_steps_lost_a_leader_is_hit_on_twelve_itself(leader_dice: list[int], result: str) -> None:
    # 10.4 "A result of 12 or more indicates that the leader has been hit." no step lost: 11 is safe
    dice = [1] * 11 + [1] * 5 + leader_dice + ([6] if result == "killed" else [])
    events, _ = fight(LEADER_FIGHT, "Tver", 1, dice)
    (loss,) = [e for e in events if e["type"] == "leader_loss"]
    assert (loss["steps"], loss["result"]) == (0, result)


@pytest.mark.parametrize(("leader_dice", "fate", "result"), [
    ([5, 6], None, "safe"), ([6, 6], 3, "wounded"), ([6, 6], 4, "killed")])
def test_10_4_the_loss_test_after_a_siege(leader_dice: list[int], fate: int | None, result: str) -> None:
    # 10.4 "At the end of each combat or siege in which leaders are involved ... a loss test
    # must be made." Rostov (fort 1) besieged by red-inf-01 and Budyonny (6 dice), no step lost
    dice = [1] * 6 + [1] + leader_dice + ([fate] if fate else [])
    events, after = besiege({"red-inf-01": "Rostov", "budyonny": "Rostov"}, "Rostov", 1, dice)
    (loss,) = [e for e in events if e["type"] == "leader_loss"]
    assert (loss["dice"], loss["steps"], loss["fate"], loss["result"]) == (leader_dice, 0, fate, result)
    assert after["units"]["budyonny"]["status"] == {"safe": "map", "wounded": "unused", "killed": "dead"}[result]


def test_10_4_the_steps_lost_in_a_siege_count_in_the_loss_test() -> None:
    # 10.4 "adding the number of loss steps lost by his side": the fortification's 6
    # eliminates a reduced red-inf-01 (one step), so 6 + 5 + 1 = 12 hits Budyonny
    dice = [1] * 4 + [6] + [6, 5] + [2]
    events, _ = besiege({"red-inf-01": "Rostov", "budyonny": "Rostov"}, "Rostov", 1, dice,
                        reduced=("red-inf-01",))
    (loss,) = [e for e in events if e["type"] == "leader_loss"]
    assert (loss["steps"], loss["result"]) == (1, "wounded")


@pytest.mark.parametrize(("capture_dice", "result"), [([4, 4], "captured"), ([4, 5], "escaped")])
def test_10_5_a_leader_left_alone_escapes_only_above_ten(capture_dice: list[int], result: str) -> None:
    # 10.5 "the player whose leader is concerned rolls two dice and adds the leader's value
    # ... If the result is greater than 10, the leader manages to escape. ... If the
    # modified result is 10 or less, the leader is captured and killed."
    # Denikin (2): 4 + 4 + 2 = 10 captured, 4 + 5 + 2 = 11 escapes
    pieces = {"red-inf-01": "Tver", "red-inf-02": "Tver", "south-inf-01": "Tver", "denikin": "Tver"}
    dice = [6, 6, 6] + [1] * 7 + [1] * 7 + capture_dice
    events, after = fight(pieces, "Tver", 1, dice)
    assert losses(events) == ["south-inf-01", "south-inf-01"]  # three hits: both steps
    (capture,) = [e for e in events if e["type"] == "leader_capture"]
    assert (capture["dice"], capture["result"]) == (capture_dice, result)
    assert (after["units"]["denikin"]["status"] == "dead") is (result == "captured")


# ---------------------------------------------------------------------------------------
# 15.2 partisans


@pytest.mark.parametrize(("partisan_dice", "hits"), [([5, 5], 0), ([5, 6], 1)])
def test_15_2_partisans_hit_on_six_and_fall_to_one_six(partisan_dice: list[int], hits: int) -> None:
    # 15.2 "it ... has an attack strength of 2 and one defence point." "Partisans never
    # attack, but they defend normally." Round 1: the Siberians' fives miss; round 2 one 6
    # destroys the partisans (defence 1)
    state = position({"siberian-inf-02": "Omsk"}, actor="siberian")
    state["standing"] = standing_()
    state["partisans"] = {"Omsk": "red"}
    body = orders({"attack": {"zone": "Omsk"}})
    body["secret"] = {"spend": {"Omsk": 1}}
    dice = [5, 5, 5, 5] + partisan_dice + [5, 5, 5, 6] + [1, 1]
    events, after = run(state, body, dice)
    first, second = rounds(events)
    assert groups(first, "atk") == [("units", 4, 6, 0)]
    assert groups(first, "def") == [("partisans", 2, 6, hits)]
    assert groups(second, "atk") == [("units", 4, 6, 1)]
    assert [e["zone"] for e in events if e["type"] == "partisans_gone"] == ["Omsk"]
    assert "Omsk" not in (after.get("partisans") or {})
    assert losses(events) == []  # one hit does not reduce a defence-2 unit (8.6)


# ---------------------------------------------------------------------------------------
# 17.2 the ORI table, 13.62 foreign intervention, 4.33 minor activation (politics.yaml)


def pstate(**more: Any) -> dict[str, Any]:
    state = position({})
    state.update(turn=5, phase="political", actor=None)
    for key, value in more.items():
        state[key] = value
    return state


@pytest.mark.parametrize(("roll", "change"), [(1, -1), (2, 0), (5, 0), (6, 1)])
def test_17_2_the_ori_table_at_the_edges_of_its_rows(roll: int, change: int) -> None:
    # 17.2 "each player ... rolls a die applying the modifiers ... and consults the ORI
    # table. Any change in ORI level indicated by this die roll must be applied immediately."
    # politics.yaml (RECONSTRUCTED): 1 or less -1, 2-5 nothing, 6 or more +1
    state = pstate(ori={"red": 1, "siberian": 1, "south": 1, "north": 1})
    events = politics.ori_phase(data(), state, FixedRng(roll, 3, 3, 3))
    red = next(e for e in events if e.get("faction") == "red" and e["type"] == "ori_roll")
    assert (red["total"], red["change"], red["level"]) == (roll, change, 1 + change)


@pytest.mark.parametrize(("roll", "spend", "ori", "total", "result", "count"), [
    (1, 0, 0, 0, "remove", 2), (1, 0, 1, 1, "remove", 1), (3, 0, 0, 2, "none", 0),
    (4, 0, 0, 3, "none", 0), (5, 0, 0, 4, "move", 1), (6, 0, 0, 5, "move", 1),
    (6, 0, 1, 6, "move", 2), (5, 5, 0, 7, "move", 2), (6, 5, 0, 8, "add", 1),
    (6, 5, 1, 9, "add", 1), (6, 5, 2, 10, "add", 2)])
def test_13_62_the_intervention_table_at_the_edges_of_its_rows(roll: int, spend: int, ori: int, total: int,
                                                              result: str, count: int) -> None:
    # 13.61 "There are four types of results on the table: Remove ... No effect ... Move ...
    # Add"; politics.yaml (RECONSTRUCTED) rows: <=0, 1, 2-3, 4-5, 6-7, 8-9, >=10. The South
    # rolls, with Wrangel's -1 (10.92), the money's bonus (5 money: +3, 13.61) and its ORI (17.3)
    state = pstate(ori={"red": 0, "siberian": 0, "south": ori, "north": 0})
    state["flags"] = {"wrangel_takes_over": True}
    state["units"]["wrangel"].update(status="map", zone="Rostov")
    body = orders({"intervene": {"spend": spend}})
    assert politics.validate_political(data(), state, "south", body) == []
    events = politics.intervention(data(), state, {"south": body}, FixedRng(roll))
    (rolled,) = [e for e in events if e["type"] == "intervention_roll"]
    assert (rolled["roll"], rolled["total"], rolled["result"], rolled["count"]) == (roll, total, result, count)


@pytest.mark.parametrize(("roll", "ori", "result"), [(4, 0, "none"), (5, 0, "limited"), (6, 0, "limited"),
                                                     (6, 1, "active")])
def test_4_33_the_minor_activation_table_at_the_edges_of_its_rows(roll: int, ori: int, result: str) -> None:
    # 4.33 "the major factions may attempt to change the activation status of the various
    # minor factions by rolling a die and consulting the minor faction activation table";
    # politics.yaml (RECONSTRUCTED): <=1 neutral, 2-4 nothing, 5-6 limited, >=7 active;
    # 17.3 the ORI is added
    pieces = {"finland-inf-01": "Helsinki", "mannerheim": "Helsinki"}
    state = position(pieces)
    state.update(turn=5, phase="political", actor=None)
    state["ori"]["south"] = ori
    body = orders({"activate": {"minor": "finland"}})
    assert politics.validate_political(data(), state, "south", body) == []
    events = politics.minor_activation(data(), state, {"south": body}, FixedRng(roll))
    assert (events[0]["total"], events[0]["result"]) == (roll + ori, result)
