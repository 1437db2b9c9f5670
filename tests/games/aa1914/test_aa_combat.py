"""Axis & Allies 1914's land battles as rule tables (games/aa1914/rules/combat.py): dice fed
on both sides of every value (a 2 against a 2 hits, a 3 against a 2 misses), one case per
clause: artillery support, air battle and supremacy, the tank's cancelled hits, the loss
order keeping the last infantry, several defending powers, capture, contest, liberation, a
capital's treasury, aligned and true neutrals, the USA attacked. In-process, without git.
"""

from __future__ import annotations

import importlib
from typing import Any, TypeVar

import pytest
from aa_play import play
from fixed_rng import FixedRng

from pbem.dice import KeyedRng
from pbem.game import GameData, State, get_game, load_data

T = TypeVar("T")
GAME = get_game("aa1914")
combat = importlib.import_module("pbem_game_aa1914.combat")


def data() -> GameData:
    return load_data("aa1914")


Dice = FixedRng


def position(power: str, units: dict[str, dict[str, dict[str, int]]], **changes: Any) -> State:
    """Round 2 (round 1 owes Austria-Hungary's attack on Serbia), `power`'s turn, only `units`."""
    state = GAME.setup(data(), {}, KeyedRng(b"\x02" * 32))
    state.update(power=power, units=units, turn=2)
    state.update(changes)
    return state


def move(frm: str, to: str, units: dict[str, int]) -> dict[str, Any]:
    return {"move": {"from": frm, "to": to, "units": units}}


def of(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


# ---------------------------------------------------------------------------------------
# the values units fire at


def test_sources_2_4_each_attacking_artillery_raises_one_infantry_or_tank_and_no_more() -> None:
    force = {"germany": {"infantry": 2, "artillery": 1, "tank": 2}}
    assert combat.values(data(), force, True, False) == [
        ("infantry", 3), ("infantry", 2), ("artillery", 3), ("tank", 2), ("tank", 2)]
    force = {"germany": {"infantry": 1, "artillery": 2, "tank": 2}}
    assert combat.values(data(), force, True, False) == [
        ("infantry", 3), ("artillery", 3), ("artillery", 3), ("tank", 3), ("tank", 2)]


def test_sources_2_4_defenders_fire_at_their_defence_and_artillery_raise_nobody() -> None:
    force = {"france": {"infantry": 1, "artillery": 1, "tank": 1, "fighter": 1}}
    assert combat.values(data(), force, False, False) == [
        ("infantry", 3), ("artillery", 3), ("tank", 1), ("fighter", 2)]


@pytest.mark.parametrize("attacking", [True, False])
def test_sources_2_2_air_supremacy_raises_artillery_by_one_attacking_or_defending(
        attacking: bool) -> None:
    force = {"france": {"artillery": 2}}
    assert combat.values(data(), force, attacking, True) == [("artillery", 4), ("artillery", 4)]


# ---------------------------------------------------------------------------------------
# losses


@pytest.mark.parametrize(("hits", "lost"), [
    (1, {"infantry": 1}),
    (2, {"infantry": 1, "artillery": 1}),  # the last infantry waits
    (3, {"infantry": 1, "artillery": 1, "tank": 1}),
    (4, {"infantry": 2, "artillery": 1, "tank": 1}),
    (9, {"infantry": 2, "artillery": 1, "tank": 1}),
])
def test_sources_3_3_losses_follow_the_order_and_the_last_infantry_goes_last(
        hits: int, lost: dict[str, int]) -> None:
    force = {"germany": {"infantry": 2, "artillery": 1, "tank": 1}}
    assert combat.take_losses(force, hits, combat.LOSS_ORDER) == {"germany": lost}


def test_sources_3_1_a_standing_loss_order_comes_first() -> None:
    force = {"germany": {"infantry": 3, "artillery": 1, "fighter": 1}}
    order = ["fighter", "artillery", "infantry", "tank"]
    assert combat.take_losses(force, 2, order) == {"germany": {"fighter": 1, "artillery": 1}}
    s = position("germany", {})
    s["standing"]["germany"] = {"losses": ["fighter"]}
    assert combat.loss_order(s, "germany") == ["fighter", "infantry", "artillery", "tank"]
    assert combat.loss_order(s, "france") == list(combat.LOSS_ORDER)


def test_ruling_several_powers_lose_from_the_largest_stack_first() -> None:
    force = {"france": {"infantry": 1}, "britain": {"infantry": 3}}
    assert combat.take_losses(force, 2, combat.LOSS_ORDER) == {"britain": {"infantry": 2}}
    assert combat.take_losses(force, 3, combat.LOSS_ORDER) == {"britain": {"infantry": 2},
                                                               "france": {"infantry": 1}}


# ---------------------------------------------------------------------------------------
# battles


def test_sources_4_1_a_battle_at_the_thresholds_takes_the_territory() -> None:
    s = position("austria_hungary", {
        "tyrolia": {"austria_hungary": {"infantry": 2, "artillery": 1, "tank": 1}},
        "venice": {"italy": {"infantry": 2}}}, turn=4)
    # attacker: raised infantry 3, infantry 2, artillery 3, tank 2 -> dice 3, 3, 3, 3: 2 hits
    # defender: infantry 3, 3 -> dice 3, 4: 1 hit, cancelled by the tank
    events, after = play(s, Dice(3, 3, 3, 3, 3, 4),
                         move("tyrolia", "venice", {"infantry": 2, "artillery": 1, "tank": 1}))
    battle = of(events, "battle")[0]
    assert battle["fire"] == {"attacker": [["infantry", 3, 3], ["infantry", 2, 3], ["artillery", 3, 3],
                                           ["tank", 2, 3]],
                              "defender": [["infantry", 3, 3], ["infantry", 3, 4]]}
    assert battle["hits"] == {"attacker": 2, "defender": 1, "cancelled": 1}
    assert battle["losses"] == {"italy": {"infantry": 2}}
    assert of(events, "control") == [{"type": "control", "where": "venice", "power": "austria_hungary",
                                      "contested": False, "taken_from": "italy"}]
    assert after["control"]["venice"] == "austria_hungary" and "venice" not in after["contested"]
    assert after["units"]["venice"] == {"italy": {}, "austria_hungary": {
        "infantry": 2, "artillery": 1, "tank": 1}}
    assert GAME.summary(data(), battle) == (
        "Austria-Hungary attacks Venice: 2 hits against 1 (1 cancelled by tanks); Italy loses 2 infantry")
    assert GAME.summary(data(), of(events, "control")[0]) == "Austria-Hungary takes Venice"


def test_sources_4_2_a_battle_both_survive_leaves_the_territory_contested_and_paying_nothing() -> None:
    s = position("austria_hungary", {"tyrolia": {"austria_hungary": {"infantry": 2}},
                                     "venice": {"italy": {"infantry": 2}}})
    # attacker 2, 2 -> dice 2, 3: 1 hit; defender 3, 3 -> dice 4, 4: none
    events, after = play(s, Dice(2, 3, 4, 4), move("tyrolia", "venice", {"infantry": 2}))
    assert of(events, "battle")[0]["losses"] == {"italy": {"infantry": 1}}
    assert of(events, "control")[0] == {"type": "control", "where": "venice", "power": "italy",
                                        "contested": True}
    assert after["contested"] == ["venice"] and after["control"]["venice"] == "italy"
    assert GAME.summary(data(), of(events, "control")[0]) == "Venice is contested"


def test_sources_4_3_an_attacker_wiped_out_leaves_the_territory_to_its_holder() -> None:
    s = position("austria_hungary", {"tyrolia": {"austria_hungary": {"infantry": 1}},
                                     "venice": {"italy": {"infantry": 1}}})
    events, after = play(s, Dice(6, 3), move("tyrolia", "venice", {"infantry": 1}))
    assert of(events, "control")[0]["contested"] is False
    assert after["control"]["venice"] == "italy" and after["contested"] == []


def test_sources_4_1_an_empty_enemy_territory_is_taken_without_a_battle_or_a_die() -> None:
    # no unit defends Venice: no battle event and no die (the attacker's artillery, tank and
    # fighter would roll in a battle); the moving land units take it
    s = position("austria_hungary", {
        "tyrolia": {"austria_hungary": {"infantry": 1, "artillery": 1, "tank": 1}},
        "venice": {"italy": {}}}, turn=4)
    rng = Dice()
    events, after = play(s, rng, move("tyrolia", "venice", {"infantry": 1, "artillery": 1, "tank": 1}))
    assert rng.labels == [] and of(events, "battle") == []
    assert of(events, "control") == [{"type": "control", "where": "venice", "power": "austria_hungary",
                                      "contested": False, "taken_from": "italy"}]
    assert after["control"]["venice"] == "austria_hungary"
    # one Italian infantry there: the battle is fought, every die rolled
    s["units"]["venice"] = {"italy": {"infantry": 1}}
    rng = Dice(6, 6, 6, 6)
    events, _ = play(s, rng, move("tyrolia", "venice", {"infantry": 1, "artillery": 1, "tank": 1}))
    assert len(of(events, "battle")) == 1 and len(rng.labels) == 4


def test_sources_2_1_the_air_battle_goes_on_until_one_side_has_no_fighters_then_supremacy() -> None:
    s = position("austria_hungary", {
        "tyrolia": {"austria_hungary": {"infantry": 1, "artillery": 1, "fighter": 1}},
        "venice": {"italy": {"infantry": 1, "fighter": 1}}})
    # air round 1: 3 against 3, no hits; round 2: 2 hits, 5 misses: Italy's fighter falls
    # land: infantry raised 3, artillery 3 + 1 = 4, fighter 2 -> dice 4, 4, 2: artillery and fighter hit
    # defender: infantry 3 -> die 1: a hit, no tank to cancel it
    events, after = play(s, Dice(3, 3, 2, 5, 4, 4, 2, 1),
                         move("tyrolia", "venice", {"infantry": 1, "artillery": 1, "fighter": 1}))
    battle = of(events, "battle")[0]
    assert battle["air"] == [{"attacker": [3], "defender": [3], "hits": [0, 0]},
                             {"attacker": [2], "defender": [5], "hits": [1, 0]}]
    assert battle["supremacy"] == "attacker"
    assert battle["fire"]["attacker"] == [["infantry", 3, 4], ["artillery", 4, 4], ["fighter", 2, 2]]
    # Austria-Hungary's one hit takes its artillery: its last infantry goes last
    assert battle["losses"] == {"italy": {"fighter": 1, "infantry": 1}, "austria_hungary": {"artillery": 1}}
    assert after["control"]["venice"] == "austria_hungary"
    assert "after 2 rounds of air battle" in GAME.summary(data(), battle)


def test_sources_2_2_the_defenders_fighters_alone_give_them_supremacy() -> None:
    s = position("austria_hungary", {"tyrolia": {"austria_hungary": {"infantry": 1}},
                                     "venice": {"italy": {"artillery": 1, "fighter": 1}}})
    events, _ = play(s, Dice(6, 4, 6), move("tyrolia", "venice", {"infantry": 1}))
    battle = of(events, "battle")[0]
    assert battle["air"] == [] and battle["supremacy"] == "defender"
    assert battle["fire"]["defender"] == [["artillery", 4, 4], ["fighter", 2, 6]]


def test_sources_4_7_a_capital_taken_hands_its_treasury_to_the_taker() -> None:
    s = position("germany", {"picardy": {"germany": {"infantry": 2}}, "paris": {"france": {"infantry": 1}}})
    events, after = play(s, Dice(1, 6, 6), move("picardy", "paris", {"infantry": 2}))
    assert of(events, "capital_taken") == [{"type": "capital_taken", "where": "paris", "power": "germany",
                                            "from": "france", "ipc": 24}]
    assert after["treasury"]["france"] == 0
    income = of(events, "income")[0]["ipc"]
    assert after["treasury"]["germany"] == 35 + 24 + income
    assert income == 35 + data()["map"]["territories"]["paris"]["ipc"]  # Paris pays its taker


def test_sources_4_6_an_allys_own_territory_goes_back_to_it_while_it_holds_its_capital() -> None:
    s = position("britain", {"sz08": {}, "belgium": {"britain": {"infantry": 1}},
                             "picardy": {"germany": {"infantry": 1}}})
    s["control"].update(picardy="germany", belgium="britain")
    events, after = play(s, Dice(1, 6), move("belgium", "picardy", {"infantry": 1}))
    assert of(events, "control")[0]["power"] == "france"
    assert after["control"]["picardy"] == "france"
    s["control"]["paris"] = "germany"  # France has lost its capital: Britain keeps it
    events, after = play(s, Dice(1, 6), move("belgium", "picardy", {"infantry": 1}))
    assert after["control"]["picardy"] == "britain"


def test_sources_5_5_an_aligned_neutral_entered_by_the_other_side_defends_as_its_patrons() -> None:
    s = position("austria_hungary", {"budapest": {"austria_hungary": {"infantry": 3}},
                                     "serbia": {"neutral": {"infantry": 3, "artillery": 1}}})
    joined = combat.neutral_entry(data(), s, "austria_hungary", "serbia")
    assert joined == [{"type": "neutral_joins", "where": "serbia", "power": "russia"}]
    assert GAME.summary(data(), joined[0]) == "Serbia joins Russia, its units with it"


def test_sources_5_5_a_neutral_entered_by_its_patrons_side_joins_without_a_battle() -> None:
    s = position("russia", {"romania": {"russia": {"infantry": 2}},
                            "bulgaria": {"neutral": {"infantry": 1, "artillery": 1}}})
    bulgaria = data()["map"]["territories"]["bulgaria"]
    assert bulgaria["joins"] == "ottomans"
    s2 = position("ottomans", {"constantinople": {"ottomans": {"infantry": 2}},
                               "bulgaria": {"neutral": {"infantry": 1, "artillery": 1}}})
    events, after = play(s2, Dice(), move("constantinople", "bulgaria", {"infantry": 2}))
    assert [e["type"] for e in events if e["type"] in ("neutral_joins", "battle")] == ["neutral_joins"]
    assert after["control"]["bulgaria"] == "ottomans"
    assert after["units"]["bulgaria"] == {"ottomans": {"infantry": 3, "artillery": 1}}
    assert s["control"]["bulgaria"] == "neutral"


def test_sources_5_6_a_true_neutrals_units_defend_as_neutrals() -> None:
    s = position("austria_hungary", {"tyrolia": {"austria_hungary": {"infantry": 2}},
                                     "switzerland": {"neutral": {"infantry": 1}}})
    events, after = play(s, Dice(2, 6, 6), move("tyrolia", "switzerland", {"infantry": 2}))
    assert of(events, "neutral_joins") == []
    assert of(events, "battle")[0]["losses"] == {"neutral": {"infantry": 1}}
    assert after["control"]["switzerland"] == "austria_hungary"


def test_sources_8_1_the_usa_attacked_before_round_4_enters_the_war() -> None:
    s = position("germany", {"canada": {"germany": {"infantry": 1}},
                             "united_states_of_america": {"usa": {"infantry": 1}}})
    s["control"]["canada"] = "germany"
    events, after = play(s, Dice(6, 6), move("canada", "united_states_of_america", {"infantry": 1}))
    assert events.index({"type": "at_war", "power": "usa"}) < events.index(of(events, "battle")[0])
    assert "usa" in after["at_war"]


# ---------------------------------------------------------------------------------------
# attacking again in a contested territory; standing instructions


def contested() -> State:
    s = position("france", {"lorraine": {"france": {"infantry": 2}, "germany": {"infantry": 1}}},
                 contested=["lorraine"])
    return s


def test_sources_1_3_an_attack_in_a_contested_territory_is_a_choice() -> None:
    events, after = play(contested(), Dice())
    assert of(events, "battle") == []
    events, after = play(contested(), Dice(2, 6, 6), {"attack": {"where": "lorraine"}})
    assert of(events, "battle")[0]["losses"] == {"germany": {"infantry": 1}}
    assert after["control"]["lorraine"] == "france" and after["contested"] == []


@pytest.mark.parametrize(("value", "message"), [
    ({"where": "burgundy"}, "Burgundy is not a contested territory where france's units stand: a "
                            "battle is fought where land units move into hostile territory"),
    ({"where": "lorrain"}, "expected {where: TERRITORY}, a contested territory where your units "
                           "stand; did you mean 'lorraine'?"),
    ("lorraine", "expected {where: TERRITORY}, a contested territory where your units stand"),
])
def test_sources_1_3_an_attack_order_names_a_contested_territory_with_ones_units(
        value: Any, message: str) -> None:
    found = GAME.validate(data(), contested(), "france", {"orders": [{"attack": value}]})
    assert [p.message for p in found] == [message]


def test_sources_3_1_the_standing_loss_order_is_kept_and_used() -> None:
    s = contested()
    s["units"]["lorraine"]["france"] = {"infantry": 2, "artillery": 1}
    s["units"]["lorraine"]["germany"] = {"infantry": 2}
    # France: artillery 3, infantry raised 3, infantry 2 -> 6, 6, 6; Germany: 3, 3 -> 1, 6: one hit
    events, after = play(s, Dice(6, 6, 6, 1, 6), {"attack": {"where": "lorraine"}},
                         standing={"losses": ["artillery", "infantry"]})
    assert events[0] == {"type": "standing", "power": "france",
                         "standing": {"losses": ["artillery", "infantry"]}}
    assert GAME.summary(data(), events[0]) == (
        "France loses units in this order: artillery, infantry; at sea: battleship, submarine, "
        "cruiser, damaged_battleship, transport")
    assert of(events, "battle")[0]["losses"] == {"france": {"artillery": 1}}
    assert after["standing"]["france"] == {"losses": ["artillery", "infantry"]}


@pytest.mark.parametrize("standing", [{"losses": ["infantry", "infantry"]}, {"losses": ["cavalry"]},
                                      {"retreat": "never"}, ["infantry"]])
def test_standing_instructions_are_checked(standing: Any) -> None:
    found = GAME.validate(data(), contested(), "france", {"orders": [], "standing": standing})
    assert len(found) == 1 and found[0].path[0] == "standing"


# ---------------------------------------------------------------------------------------
# what the battle records, and the edges of each clause


def test_every_die_is_rolled_under_a_label_anyone_can_recompute() -> None:
    s = position("austria_hungary", {"tyrolia": {"austria_hungary": {"infantry": 2, "fighter": 1}},
                                     "venice": {"italy": {"infantry": 1, "fighter": 1}}})
    dice = Dice(6, 6, 6, 1, 6, 6, 6, 6)
    events, _ = play(s, dice, move("tyrolia", "venice", {"infantry": 2, "fighter": 1}))
    at = "r2:austria_hungary:venice"
    assert dice.labels == [f"{at}:air1:attacker:d1", f"{at}:air1:defender:d1",
                           f"{at}:air2:attacker:d1", f"{at}:air2:defender:d1",
                           f"{at}:attacker:d1", f"{at}:attacker:d2", f"{at}:defender:d1",
                           f"{at}:defender:d2"]
    battle = of(events, "battle")[0]
    # air round 2: the defender's 1 takes the attacker's fighter: the defender's supremacy
    assert battle["air"][1] == {"attacker": [6], "defender": [1], "hits": [0, 1]}
    assert battle["supremacy"] == "defender"
    assert battle["attackers"] == {"austria_hungary": {"infantry": 2, "fighter": 1}}
    assert battle["defenders"] == {"italy": {"infantry": 1, "fighter": 1}}


def test_sources_2_2_without_fighters_on_either_side_nobody_has_supremacy() -> None:
    s = position("austria_hungary", {"tyrolia": {"austria_hungary": {"infantry": 1}},
                                     "venice": {"italy": {"artillery": 1}}})
    events, _ = play(s, Dice(6, 6), move("tyrolia", "venice", {"infantry": 1}))
    battle = of(events, "battle")[0]
    assert battle["supremacy"] is None and battle["fire"]["defender"] == [["artillery", 3, 6]]


def test_sources_4_1_an_attacker_left_with_fighters_alone_takes_nothing() -> None:
    s = position("austria_hungary", {"tyrolia": {"austria_hungary": {"artillery": 1, "fighter": 1}},
                                     "venice": {"italy": {"infantry": 1}}})
    # artillery at 4 (air supremacy) rolls 1, the fighter 6; Italy's infantry 3 takes the artillery
    events, after = play(s, Dice(1, 6, 3), move("tyrolia", "venice", {"artillery": 1, "fighter": 1}))
    assert of(events, "battle")[0]["losses"] == {"italy": {"infantry": 1},
                                                 "austria_hungary": {"artillery": 1}}
    assert of(events, "control") == [{"type": "control", "where": "venice", "power": "italy",
                                      "contested": False}]
    assert after["control"]["venice"] == "italy"
    assert GAME.summary(data(), of(events, "control")[0]) == "Venice stays with Italy"


def test_sources_4_7_a_capital_with_an_empty_treasury_hands_over_nothing() -> None:
    s = position("germany", {"picardy": {"germany": {"infantry": 1}}, "paris": {"france": {"infantry": 1}}})
    s["treasury"]["france"] = 0
    events, _ = play(s, Dice(1, 6), move("picardy", "paris", {"infantry": 1}))
    assert of(events, "capital_taken") == []
    s["treasury"]["france"] = 1
    events, _ = play(s, Dice(1, 6), move("picardy", "paris", {"infantry": 1}))
    assert GAME.summary(data(), of(events, "capital_taken")[0]) == (
        "Germany takes 1 IPC from France's treasury with its capital")


def test_ruling_defenders_of_several_powers_lose_by_the_larger_ones_standing_order() -> None:
    s = position("germany", {"lorraine": {"germany": {"infantry": 2}},
                             "burgundy": {"france": {"infantry": 1, "artillery": 1},
                                          "britain": {"infantry": 3, "artillery": 2}}})
    s["standing"]["britain"] = {"losses": ["artillery"]}
    s["standing"]["france"] = {"losses": ["infantry"]}
    # Germany: 1, 6 -> one hit; the defence: 6s
    events, _ = play(s, Dice(1, 6, 6, 6, 6, 6, 6, 6, 6), move("lorraine", "burgundy", {"infantry": 2}))
    assert of(events, "battle")[0]["losses"] == {"britain": {"artillery": 1}}


def test_a_battle_that_takes_units_that_are_not_there_is_refused() -> None:
    s = position("austria_hungary", {"venice": {"italy": {"infantry": 1}}})
    with pytest.raises(ValueError, match="venice has fewer than 2 infantry of italy"):
        GAME.apply(data(), s, {"type": "battle", "power": "austria_hungary", "where": "venice",
                               "losses": {"italy": {"infantry": 2}}})


def test_one_hit_is_told_as_one_hit() -> None:
    s = position("austria_hungary", {"tyrolia": {"austria_hungary": {"infantry": 1}},
                                     "venice": {"italy": {"infantry": 2}}})
    events, _ = play(s, Dice(1, 6, 6), move("tyrolia", "venice", {"infantry": 1}))
    assert GAME.summary(data(), of(events, "battle")[0]) == (
        "Austria-Hungary attacks Venice: 1 hit against 0; Italy loses 1 infantry")
