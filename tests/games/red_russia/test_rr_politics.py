"""Red Russia's political phase (4.3) as rule tables: a position, the turn's events or the
orders, the dice, the expected events. Each test's name starts with the rule it checks."""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any

import pytest
from position import GAME, FixedRng, OpenSecrets, data, messages, orders, position
from position import standing as standing_

from pbem.game import GameData, deep_merge, load_data
from pbem.yamlio import read_trusted

politics = importlib.import_module("pbem_game_red_russia.politics")
common = importlib.import_module("pbem_game_red_russia.common")


@cache
def pdata() -> GameData:
    """The game data with politics.yaml, whether or not game.yaml names it yet."""
    base = load_data("red_russia")
    if "politics" in base.files:
        return base
    return GameData(base.game_id, base.folder,
                    {**base.files, "politics": read_trusted(base.folder / "politics.yaml")})


def with_tables(patch: dict[str, Any]) -> GameData:
    """What `overrides: {politics: ...}` in campaign.yaml does to the tables."""
    base = pdata()
    return GameData(base.game_id, base.folder,
                    {**base.files, "politics": deep_merge(base.files["politics"], patch, "politics")})


def pstate(pieces: dict[str, str] | None = None, *, turn: int = 5, ori: dict[str, int] | None = None,
           mods: dict[str, dict[str, int]] | None = None, control: dict[str, Any] | None = None,
           flags: dict[str, Any] | None = None, minors: dict[str, Any] | None = None) -> dict[str, Any]:
    state = position(pieces or {}, turn=turn, control=control)
    state.update(politics.initial_state())
    state["phase"], state["actor"] = "political", None
    state["ori"].update(ori or {})
    state["ori_mods"] = mods or {}
    state["flags"] = flags or {}
    state["minors"].update(minors or {})
    return state


def fold(state: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any]:
    b = politics.board(pdata())
    for e in events:
        state = politics._apply(b, state, e)
    return state


def mods_of(events: list[dict[str, Any]], control: dict[str, Any] | None = None,
            pieces: dict[str, str] | None = None) -> dict[str, dict[str, int]]:
    result: dict[str, dict[str, int]] = politics.ori_modifiers(
        pdata(), pstate(pieces, control=control), events)
    return result


def attack(zone: str, attacker: str, defenders: list[str], level: str, **more: Any) -> dict[str, Any]:
    spend = {"probe": 1, "assault": 3, "invasion": 5}[level]
    return {"type": "attack", "zone": zone, "attacker": attacker, "defenders": defenders,
            "spend": spend, "level": level, "rounds": 2, **more}


def over(zone: str, attacker: str, attacker_left: bool, defender_left: bool) -> dict[str, Any]:
    return {"type": "battle_over", "zone": zone, "attacker": attacker,
            "attacker_left": attacker_left, "defender_left": defender_left}


def control(zone: str, faction: str | None, old: str | None) -> dict[str, Any]:
    return {"type": "control", "zone": zone, "faction": faction, "from": old, "why": "siege (9.2)"}


# ---------------------------------------------------------------------------------------
# 17.5 the table modifiers, 17.4 Moscow


def test_17_5_allied_unit_in_combat_stacked_with_a_white_faction_minus_one_once() -> None:
    events = [attack("Archangel", "red", ["allies", "north"], "probe"), over("Archangel", "red", True, True),
              attack("Murmansk", "red", ["allies", "north"], "probe"), over("Murmansk", "red", True, True)]
    assert mods_of(events)["north"] == {"allied_combat": -1}


def test_17_5_allied_units_defending_alone_cost_nobody() -> None:
    events = [attack("Archangel", "red", ["allies"], "probe"), over("Archangel", "red", True, True)]
    assert all(not m for m in mods_of(events).values())


def test_17_5_allied_units_fighting_on_a_white_attackers_side() -> None:
    named = [attack("Kotlas", "north", ["red"], "probe", units=["north-inf-01", "allied-inf-01"]),
             over("Kotlas", "north", True, True)]
    assert mods_of(named)["north"] == {"allied_combat": -1}
    hurt = [attack("Kotlas", "north", ["red"], "probe"),
            {"type": "reduced", "unit": "allied-inf-01", "by": "combat"}, over("Kotlas", "north", True, True)]
    assert mods_of(hurt)["north"] == {"allied_combat": -1}


def test_17_5_invasion_won_plus_two_lost_minus_two() -> None:
    events = [attack("Tver", "red", ["south"], "invasion"), over("Tver", "red", True, False)]
    assert mods_of(events) == {"red": {"invasion": 2}, "siberian": {}, "south": {"invasion": -2},
                               "north": {}}


def test_17_5_invasion_both_won_and_lost_in_a_turn_gives_nothing() -> None:
    events = [attack("Tver", "red", ["south"], "invasion"), over("Tver", "red", True, False),
              attack("Kazan", "siberian", ["red"], "invasion"), over("Kazan", "siberian", True, False)]
    mods = mods_of(events)
    assert "invasion" not in mods["red"]
    assert mods["south"] == {"invasion": -2} and mods["siberian"] == {"invasion": 2}


def test_17_5_invasion_once_a_turn_even_after_two_wins() -> None:
    events = [attack("Tver", "red", ["south"], "invasion"), over("Tver", "red", True, False),
              attack("Orel", "red", ["south"], "invasion"), over("Orel", "red", True, False)]
    assert mods_of(events)["red"] == {"invasion": 2}


def test_17_5_invasion_the_defender_retreating_before_combat_lost_it() -> None:
    events = [{"type": "retreat", "zone": "Tver", "faction": "south", "units": ["south-inf-01"],
               "to": "Orel", "when": "before combat"},
              attack("Tver", "red", [], "invasion", rounds=0)]
    mods = mods_of(events)
    assert mods["red"] == {"invasion": 2} and mods["south"] == {"invasion": -2}


def test_17_5_invasion_both_sides_still_there_gives_nothing() -> None:
    events = [attack("Tver", "red", ["south"], "invasion"), over("Tver", "red", True, True)]
    assert all(not m for m in mods_of(events).values())


def test_17_5_invasion_both_sides_gone_both_lost() -> None:
    events = [attack("Tver", "red", ["south"], "invasion"), over("Tver", "red", False, False)]
    mods = mods_of(events)
    assert mods["red"] == {"invasion": -2} and mods["south"] == {"invasion": -2}


def test_17_5_assault_won_plus_one_lost_minus_one_and_none_if_both_stay() -> None:
    won = [attack("Tver", "red", ["south"], "assault"), over("Tver", "red", False, True)]
    mods = mods_of(won)
    assert mods["red"] == {"assault": -1} and mods["south"] == {"assault": 1}
    stay = [attack("Tver", "red", ["south"], "assault"), over("Tver", "red", True, True)]
    assert all(not m for m in mods_of(stay).values())


def test_17_5_assault_once_a_turn_and_none_if_won_and_lost() -> None:
    events = [attack("Tver", "red", ["south"], "assault"), over("Tver", "red", True, False),
              attack("Orel", "red", ["south"], "assault"), over("Orel", "red", True, False),
              attack("Kursk", "south", ["red"], "assault"), over("Kursk", "south", True, False)]
    mods = mods_of(events)
    assert "assault" not in mods["red"] and "assault" not in mods["south"]
    two = events[:4]
    assert mods_of(two)["red"] == {"assault": 1}


def test_17_5_a_probe_changes_nothing() -> None:
    events = [attack("Tver", "red", ["south"], "probe"), over("Tver", "red", True, False)]
    assert all(not m for m in mods_of(events).values())


def test_8_93_aircraft_caught_alone_is_no_combat_for_the_ori() -> None:
    events = [attack("Tver", "red", ["south"], "invasion"),
              {"type": "air_alone", "unit": "south-air-01", "zone": "Tver", "roll": 4}]
    assert all(not m for m in mods_of(events).values())


def test_17_5_invasion_read_from_a_real_battle() -> None:
    state = position({"red-inf-01": "Tver", "south-inf-01": "Tver"})
    state["standing"] = standing_({"red": {"invasion_rounds": 4}})
    body = orders({"attack": {"zone": "Tver"}})
    body["secret"] = {"spend": {"Tver": 5}}
    assert messages(state, "red", body) == []

    events = GAME.resolve(data(), state, {"red": body}, FixedRng(*([6] * 5 + [1] * 5)), OpenSecrets())
    after = state
    for e in events:
        after = GAME.apply(data(), after, e)
    mods = politics.ori_modifiers(pdata(), after, events)
    assert mods["red"] == {"invasion": 2} and mods["south"] == {"invasion": -2}


def test_17_5_capture_of_a_zone_not_its_own_plus_one_loss_minus_one() -> None:
    # Tver is a Red home zone: the South captures it (+1); losing a home zone is not the -1
    mods = mods_of([control("Tver", "south", "red")], control={"Tver": "south"})
    assert mods["south"] == {"zones": 1} and mods["red"] == {}
    # Rostov is the South's: the Reds held it and lose it (-1); the South retakes its own (0)
    mods = mods_of([control("Rostov", "south", "red")])
    assert mods["red"] == {"zones": -1} and mods["south"] == {}


def test_17_5_capture_and_loss_in_one_turn_give_nothing() -> None:
    events = [control("Tver", "siberian", "red"), control("Kazan", "red", "siberian")]
    mods = mods_of(events, control={"Tver": "siberian"})
    assert "zones" not in mods["siberian"]
    assert mods["red"] == {}  # recapturing its own Kazan is no capture of a foreign zone


def test_17_5_petrograd_captured_and_kept_plus_three_minus_three() -> None:
    mods = mods_of([control("Petrograd", "north", "red")], control={"Petrograd": "north"})
    assert mods["north"] == {"zones": 1, "petrograd": 3}
    assert mods["red"] == {"petrograd": -3}


def test_17_5_petrograd_retaken_in_the_same_turn_gives_nothing() -> None:
    events = [control("Petrograd", "north", "red"), control("Petrograd", "red", "north")]
    mods = mods_of(events)
    assert "petrograd" not in mods["north"] and "petrograd" not in mods["red"]


def test_17_5_archangel_lost_north_minus_three_even_if_retaken() -> None:
    events = [control("Archangel", "red", "north"), control("Archangel", "north", "red")]
    assert mods_of(events)["north"] == {"archangel": -3}


def test_17_5_the_modifiers_add_up_within_plus_or_minus_three() -> None:
    assert politics.capped_total({"zones": 1, "petrograd": 3, "invasion": 2}) == 3
    assert politics.capped_total({"archangel": -3, "zones": -1, "allied_combat": -1}) == -3
    assert politics.capped_total({"zones": 1, "assault": 1}) == 2
    # the cap in the roll: North with +6 earned rolls 1 + 3 = 4
    state = pstate(mods={"north": {"zones": 1, "petrograd": 3, "invasion": 2}})
    events = politics.ori_phase(pdata(), state, FixedRng(3, 3, 3, 1))
    north = next(e for e in events if e.get("faction") == "north")
    assert north["modifier"] == 3 and north["total"] == 4


def test_17_4_moscow_captured_and_kept_is_a_level_for_each_side() -> None:
    mods = mods_of([control("Moscow", "south", "red")], control={"Moscow": "south"})
    assert mods["south"] == {"zones": 1, "moscow": 1} and mods["red"] == {"moscow": -1}
    assert politics.capped_total({"moscow": 1, "zones": 1}) == 1  # a level, not a die modifier


def test_17_4_moscow_is_applied_before_the_roll() -> None:
    # Reds at level 0 lose Moscow: 0 - 1 stays 0, then a 6 takes them up to 1
    # (applied after the roll it would have been 0 + 1 - 1 = 0)
    state = pstate(mods={"red": {"moscow": -1}, "south": {"moscow": 1}}, ori={"south": 3})
    events = politics.ori_phase(pdata(), state, FixedRng(6, 3, 3, 3))
    red = events[0]
    assert (red["faction"], red["before"], red["moscow"], red["modifier"], red["level"]) == ("red", 0, -1, 0, 1)
    south = next(e for e in events if e.get("faction") == "south")
    assert south["level"] == 3  # 3 + 1 stays 3 (17.1)


def test_17_5_the_turns_modifiers_are_recorded_and_then_used_up() -> None:
    state = pstate(control={"Tver": "south"})
    event = politics.ori_mods_event(pdata(), state, [control("Tver", "south", "red")])
    state = fold(state, [event])
    assert state["ori_mods"]["south"] == {"zones": 1}
    events = politics.ori_phase(pdata(), state, FixedRng(3, 3, 5, 3))
    assert events[-1] == {"type": "ori_mods_cleared"}
    south = next(e for e in events if e.get("faction") == "south")
    assert south["reasons"] == {"zones": 1, "denikin": -1} and south["total"] == 5
    assert fold(state, events)["ori_mods"] == {}


# ---------------------------------------------------------------------------------------
# 17.2 the roll, 10.91, 10.93


@pytest.mark.parametrize(("before", "roll", "change", "after"), [
    (2, 1, -1, 1),   # a low roll loses a level
    (1, 3, 0, 1),    # the middle of the table changes nothing
    (1, 6, 1, 2),    # a 6 gains a level
    (3, 6, 1, 3),    # never above 3 (17.1)
    (0, 1, -1, 0),   # never below 0 (17.1)
])
def test_17_2_the_roll_changes_the_level_within_0_to_3(before: int, roll: int, change: int,
                                                      after: int) -> None:
    state = pstate(ori={"red": before})
    events = politics.ori_phase(pdata(), state, FixedRng(roll, 3, 3, 3))
    red = events[0]
    assert (red["roll"], red["total"], red["change"], red["level"]) == (roll, roll, change, after)
    assert fold(state, events)["ori"]["red"] == after


def test_4_31_the_rolls_are_made_in_initiative_order() -> None:
    state = pstate()
    state["initiative"] = ["north", "red", "south", "siberian"]
    rng = FixedRng(3, 3, 3, 3)
    events = politics.ori_phase(pdata(), state, rng)
    assert [e["faction"] for e in events if e["type"] == "ori_roll"] == ["north", "red", "south", "siberian"]
    assert rng.labels == ["ori:t5:north", "ori:t5:red", "ori:t5:south", "ori:t5:siberian"]


def test_4_31_a_defeated_faction_does_not_roll() -> None:
    state = pstate()
    state["defeated"] = ["north"]
    events = politics.ori_phase(pdata(), state, FixedRng(3, 3, 3))
    assert "north" not in [e.get("faction") for e in events]


def test_10_91_denikin_in_play_takes_one_from_the_south() -> None:
    south = next(e for e in politics.ori_phase(pdata(), pstate(), FixedRng(3, 3, 6, 3))
                 if e.get("faction") == "south")
    assert (south["modifier"], south["change"]) == (-1, 0)
    dead = pstate()
    dead["units"]["denikin"]["status"] = "dead"
    south = next(e for e in politics.ori_phase(pdata(), dead, FixedRng(3, 3, 6, 3))
                 if e.get("faction") == "south")
    assert (south["modifier"], south["change"]) == (0, 1)


def test_10_91_the_cap_is_on_the_17_5_modifiers_denikin_comes_after() -> None:
    state = pstate(mods={"south": {"zones": 1, "invasion": 2, "assault": 1}})
    south = next(e for e in politics.ori_phase(pdata(), state, FixedRng(3, 3, 1, 3))
                 if e.get("faction") == "south")
    assert south["modifier"] == 3 - 1


def test_10_93_kolchak_coup_adds_one_to_the_siberians() -> None:
    def siberian(state: dict[str, Any]) -> dict[str, Any]:
        found: dict[str, Any] = next(e for e in politics.ori_phase(pdata(), state, FixedRng(3, 5, 3, 3))
                                     if e.get("faction") == "siberian")
        return found

    assert siberian(pstate())["change"] == 0
    assert siberian(pstate(flags={"kolchak_coup": True}))["change"] == 1
    gone = pstate(flags={"kolchak_coup": True})
    gone["units"]["kolchak"]["status"] = "dead"  # "until Kolchak is permanently removed"
    assert siberian(gone)["change"] == 0


# ---------------------------------------------------------------------------------------
# 4.32, 13.61-13.63 foreign intervention


def intervene(state: dict[str, Any], faction: str, spend: int, *dice: int) -> list[dict[str, Any]]:
    body = orders({"intervene": {"spend": spend}})
    assert politics.validate_political(pdata(), state, faction, body) == []
    result: list[dict[str, Any]] = politics.intervention(pdata(), state, {faction: body}, FixedRng(*dice))
    return result


ALLIES = {"allied-inf-01": "Murmansk", "allied-inf-02": "Vladivostok", "allied-fleet-02": "Black Sea",
          "allied-fleet-04": "White Sea"}


@pytest.mark.parametrize(("spend", "bonus"), [(0, 0), (1, 1), (3, 2), (5, 3)])
def test_13_61_the_money_spent_is_a_bonus_on_the_die(spend: int, bonus: int) -> None:
    state = pstate(ALLIES)
    events = intervene(state, "north", spend, 2)
    roll = events[0]
    assert roll["spend"] == spend and roll["total"] == 2 + bonus
    assert fold(state, events)["money"]["north"] == state["money"]["north"] - spend


@pytest.mark.parametrize(("roll", "result", "count"), [
    (1, "remove", 1), (2, "none", 0), (3, "none", 0), (4, "move", 1), (5, "move", 1), (6, "move", 2),
])
def test_13_62_the_results_of_a_plain_die(roll: int, result: str, count: int) -> None:
    events = intervene(pstate(ALLIES), "north", 0, roll)
    assert (events[0]["result"], events[0]["count"]) == (result, count)


def test_13_62_remove_takes_the_allied_units_of_the_factions_own_front_first() -> None:
    state = pstate(ALLIES)
    events = intervene(state, "north", 0, 1)
    assert events[1] == {"type": "allies_removed", "faction": "north", "units": ["allied-inf-01"]}
    after = fold(state, events)
    assert after["units"]["allied-inf-01"]["status"] == "removed"


def test_13_63_move_gives_allied_units_for_one_turn() -> None:
    state = pstate(ALLIES)
    events = intervene(state, "north", 0, 6)
    assert events[1] == {"type": "allied_control", "faction": "north", "count": 2, "turn": 5}
    after = fold(state, events)
    assert after["allied_control"] == {"north": 2}
    after["turn"] = 6  # the next political phase: the control ends before any new roll
    later = politics.intervention(pdata(), after, {}, FixedRng())
    assert later == [{"type": "allied_control_cleared"}]
    assert fold(after, later)["allied_control"] == {}


def test_13_62_add_brings_a_unit_from_the_pool_to_the_factions_waiting_box() -> None:
    state = pstate(ALLIES)
    state["units"]["allied-inf-03"]["status"] = "eliminated"
    state["units"]["allied-inf-04"]["status"] = "removed"
    state["units"]["allied-tank-01"]["status"] = "eliminated"  # 15.4 no tanks
    for pid in ("allied-air-01", "allied-fleet-01", "allied-fleet-03"):
        state["units"][pid]["status"] = "eliminated"
    events = intervene(state, "siberian", 5, 5)  # 5 + 3 = 8
    assert events[1] == {"type": "allies_added", "faction": "siberian", "units": ["allied-air-01"],
                         "zone": "Japan box", "money": 0}
    after = fold(state, events)
    assert after["units"]["allied-air-01"]["status"] == "map"
    assert after["units"]["allied-air-01"]["zone"] == "Japan box"


def test_13_62_add_with_an_empty_pool_pays_money_instead() -> None:
    state = pstate(ALLIES)
    for p in state["units"].values():
        if p["faction"] == "allies" and p["status"] == "pool":
            p["status"] = "removed"
    events = intervene(state, "siberian", 5, 6)  # 9: add 1
    assert events[1]["units"] == [] and events[1]["money"] == 2
    after = fold(state, events)
    assert after["money"]["siberian"] == state["money"]["siberian"] - 5 + 2


def test_10_92_wrangel_takes_one_from_the_souths_intervention_rolls() -> None:
    state = pstate({**ALLIES, "wrangel": "Rostov"}, flags={"wrangel_takes_over": True})
    events = intervene(state, "south", 0, 1)
    assert events[0]["reasons"] == {"wrangel": -1} and events[0]["total"] == 0
    assert (events[0]["result"], events[0]["count"]) == ("remove", 2)
    assert events[1]["units"] == ["allied-fleet-02", "allied-inf-01"]  # its Black Sea first


def test_10_93_kolchak_adds_one_to_the_siberians_intervention_rolls() -> None:
    events = intervene(pstate(ALLIES, flags={"kolchak_coup": True}), "siberian", 0, 3)
    assert events[0]["reasons"] == {"kolchak": 1} and events[0]["result"] == "move"


def test_17_3_the_ori_is_added_to_the_intervention_roll() -> None:
    events = intervene(pstate(ALLIES, ori={"north": 2}), "north", 1, 3)
    assert events[0]["reasons"] == {"money": 1, "ori": 2} and events[0]["total"] == 6
    plain = with_tables({"intervention": {"add_ori": False}})
    state = pstate(ALLIES, ori={"north": 2})
    found = politics.intervention(plain, state, {"north": orders({"intervene": {"spend": 1}})},
                                  FixedRng(3))
    assert found[0]["total"] == 4


def test_13_61_orders_once_a_turn_white_factions_only_affordable_levels() -> None:
    state = pstate()
    state["money"]["north"] = 2

    def said(faction: str, *items: dict[str, Any]) -> list[str]:
        return [p.message for p in politics.validate_political(pdata(), state, faction, orders(*items))]

    assert "once a turn" in said("north", {"intervene": {"spend": 1}}, {"intervene": {"spend": 0}})[0]
    assert "White factions" in said("red", {"intervene": {"spend": 0}})[0]
    assert "one of 0, 1, 3, 5" in said("north", {"intervene": {"spend": 2}})[0]
    assert "has 2 money" in said("north", {"intervene": {"spend": 3}})[0]
    assert said("north", {"intervene": {"spend": 1}}) == []
    assert said("north", {"intervene": None}) == []  # free (13.61)
    assert "unknown order" in said("north", {"intervne": {"spend": 1}})[0]


def test_6_4_money_spent_since_the_orders_lowers_the_level() -> None:
    state = pstate(ALLIES)
    state["money"]["north"] = 4
    events = politics.intervention(pdata(), state, {"north": orders({"intervene": {"spend": 5}})},
                                   FixedRng(2))
    assert events[0]["spend"] == 3 and events[0]["asked"] == 5


def test_4_32_the_red_player_never_rolls_for_the_allies() -> None:
    events = politics.intervention(pdata(), pstate(), {"red": orders({"intervene": {"spend": 0}})},
                                   FixedRng())
    assert events == []


# ---------------------------------------------------------------------------------------
# 4.33, 12.1x, 13.5x minor factions

FINNS = {"finland-inf-01": "Helsinki", "finland-inf-02": "Vyborg", "poland-inf-01": "Warsaw",
         "mannerheim": "Helsinki", "pilsudski": "Warsaw"}


def activate(state: dict[str, Any], tries: dict[str, str], *dice: int) -> list[dict[str, Any]]:
    bodies = {f: orders({"activate": {"minor": m}}) for f, m in tries.items()}
    for f, body in bodies.items():
        assert politics.validate_political(pdata(), state, f, body) == []
    result: list[dict[str, Any]] = politics.minor_activation(pdata(), state, bodies, FixedRng(*dice))
    return result


@pytest.mark.parametrize(("roll", "result", "status"), [
    (1, "neutral", "neutral"), (2, "none", "neutral"), (4, "none", "neutral"),
    (5, "limited", "limited"), (6, "limited", "limited"),
])
def test_4_33_the_minor_activation_table_with_a_plain_die(roll: int, result: str, status: str) -> None:
    events = activate(pstate(FINNS), {"south": "finland"}, roll)
    assert (events[0]["result"], events[0]["status"]) == (result, status)


def test_12_12_full_activation_for_a_white_faction() -> None:
    state = pstate(FINNS, ori={"south": 2})
    events = activate(state, {"south": "Finland"}, 5)  # 5 + 2 = 7
    assert (events[0]["status"], events[0]["controller"], events[0]["until"]) == ("active", "south", None)
    assert common.minor_controller(fold(state, events), "finland") == "south"


def test_12_1_no_minor_activation_before_turn_3() -> None:
    state = pstate(FINNS, turn=2)
    body = orders({"activate": {"minor": "finland"}})
    assert "before turn 3" in messages_of(state, "south", body)[0]
    events = politics.minor_activation(pdata(), state, {"south": body}, FixedRng())
    assert events[0]["result"] == "ignored" and events[0]["roll"] is None


def messages_of(state: dict[str, Any], faction: str, body: dict[str, Any]) -> list[str]:
    return [p.message for p in politics.validate_political(pdata(), state, faction, body)]


def test_12_12_the_reds_never_fully_activate_a_minor_by_the_table() -> None:
    events = activate(pstate(FINNS, ori={"red": 3}), {"red": "finland"}, 6)  # 9
    assert (events[0]["result"], events[0]["status"], events[0]["controller"]) == ("active", "limited", "red")
    assert "12.12" in events[0]["why"]


def test_13_5_only_a_white_faction_activates_poland() -> None:
    state = pstate(FINNS)
    assert "13.5" in messages_of(state, "red", orders({"activate": {"minor": "poland"}}))[0]


@pytest.mark.parametrize(("turn", "status"), [(5, "limited"), (8, "limited"), (9, "active")])
def test_13_51_poland_only_under_limited_control_before_summer_1920(turn: int, status: str) -> None:
    events = activate(pstate(FINNS, turn=turn, ori={"siberian": 3}), {"siberian": "poland"}, 6)
    assert events[0]["status"] == status


def test_13_55_without_pilsudski_poland_is_only_under_limited_control() -> None:
    state = pstate(FINNS, turn=10, ori={"siberian": 3})
    state["units"]["pilsudski"]["status"] = "dead"
    assert activate(state, {"siberian": "poland"}, 6)[0]["status"] == "limited"


def test_13_54_poland_played_as_a_major_faction_is_off_the_table() -> None:
    state = pstate(FINNS, flags={"poland_major": True})
    assert "13.54" in messages_of(state, "south", orders({"activate": {"minor": "poland"}}))[0]


def test_12_11_limited_control_lasts_one_turn() -> None:
    state = pstate(FINNS)
    events = activate(state, {"south": "finland"}, 5)
    state = fold(state, events)
    assert state["minors"]["finland"] == {"status": "limited", "controller": "south", "until": 5,
                                          "zones": ["Helsinki", "Vyborg"]}  # where it stood
    assert common.minor_controller(state, "finland") == "south"
    state["turn"] = 6
    assert common.minor_controller(state, "finland") is None
    state["units"]["finland-inf-01"]["zone"] = "Petrograd"  # it went to war
    expired = politics.minor_activation(pdata(), state, {}, FixedRng())
    assert expired[0]["status"] == "neutral" and expired[0]["result"] == "expired"
    assert expired[1] == {"type": "minor_recalled", "minor": "finland", "unit": "finland-inf-01",
                          "from": "Petrograd", "to": "Vyborg"}  # 12.2 the nearest Finnish zone
    assert fold(state, expired)["minors"]["finland"]["status"] == "neutral"


def test_4_33_a_later_result_cancels_an_earlier_one() -> None:
    # initiative red, siberian, south, north: South activates fully, then North's 1 neutralises
    state = pstate(FINNS, ori={"south": 2})
    state["initiative"] = ["south", "north", "red", "siberian"]
    events = activate(state, {"south": "finland", "north": "finland"}, 6, 1)
    assert [e["status"] for e in events] == ["active", "neutral"]
    assert fold(state, events)["minors"]["finland"]["status"] == "neutral"


def test_12_2_back_to_neutral_sends_the_units_home() -> None:
    state = pstate({**FINNS, "finland-inf-02": "Petrograd"},
                   minors={"finland": {"status": "active", "controller": "south", "until": None}})
    events = activate(state, {"red": "finland"}, 1)
    assert events[0]["status"] == "neutral"
    assert events[1]["unit"] == "finland-inf-02" and events[1]["to"] == "Vyborg"
    assert fold(state, events)["units"]["finland-inf-02"]["zone"] == "Vyborg"


def test_12_11_a_limited_result_does_not_undo_the_rollers_own_full_activation() -> None:
    state = pstate(FINNS, minors={"finland": {"status": "active", "controller": "south", "until": None}})
    events = activate(state, {"south": "finland"}, 5)
    assert (events[0]["status"], events[0]["controller"]) == ("active", "south")


def test_10_93_kolchak_takes_one_off_finland_and_the_baltic_states() -> None:
    state = pstate({**FINNS, "baltic-inf-01": "Riga"}, flags={"kolchak_coup": True})
    assert activate(state, {"siberian": "finland"}, 5)[0]["result"] == "none"
    assert activate(state, {"siberian": "baltic states"}, 5)[0]["result"] == "none"
    assert activate(state, {"siberian": "poland"}, 5)[0]["result"] == "limited"


def test_17_3_the_ori_is_added_to_the_activation_roll() -> None:
    events = activate(pstate(FINNS, ori={"north": 1}), {"north": "finland"}, 4)
    assert events[0]["reasons"] == {"ori": 1} and events[0]["result"] == "limited"


def test_12_3_a_minor_with_no_units_left_is_ignored() -> None:
    events = activate(pstate({}), {"south": "finland"})
    assert events[0]["result"] == "ignored" and "12.3" in events[0]["why"]


def test_4_33_activation_orders_are_checked() -> None:
    state = pstate(FINNS)
    assert "unknown minor faction" in messages_of(state, "south", orders({"activate": {"minor": "Narnia"}}))[0]
    assert "did you mean" in messages_of(state, "south", orders({"activate": {"minor": "Finlnd"}}))[0]
    two = orders({"activate": {"minor": "finland"}}, {"activate": {"minor": "ukraine"}})
    assert "activation(s) a turn" in messages_of(state, "south", two)[0]
    assert messages_of(state, "south", orders({"activate": "Mannerheim"})) == []


# ---------------------------------------------------------------------------------------
# 14.3 hand limits

TWO = [["red"], ["siberian", "south", "north"]]
THREE = [["red"], ["siberian"], ["south", "north"]]
FOUR = [["red"], ["siberian"], ["south"], ["north"]]


def test_14_3_the_worked_example_two_players_white_oris_1_2_0_hold_eight() -> None:
    state = pstate(ori={"siberian": 1, "south": 2, "north": 0})
    assert politics.hand_limit(pdata(), state, "south", TWO) == 7 + 1
    assert politics.hand_limit(pdata(), state, "red", TWO) == 6


def test_14_3_the_red_player_with_ori_2_holds_eight() -> None:
    assert politics.hand_limit(pdata(), pstate(ori={"red": 2}), "red", FOUR) == 8


def test_14_3_three_players_south_and_north_hold_six_plus_their_average_ori() -> None:
    state = pstate(ori={"siberian": 2, "south": 2, "north": 1})
    assert politics.hand_limit(pdata(), state, "north", THREE) == 6 + 1  # (2 + 1) / 2 rounded down
    assert politics.hand_limit(pdata(), state, "siberian", THREE) == 5 + 2


def test_14_3_four_players_each_faction_its_own_limit_plus_ori() -> None:
    state = pstate(ori={"north": 1})
    assert [politics.hand_limit(pdata(), state, f, FOUR) for f in ("red", "siberian", "south", "north")] \
        == [6, 5, 5, 5]


# ---------------------------------------------------------------------------------------
# the bot, the log, the data, applying events


@pytest.mark.parametrize("faction", ["red", "siberian", "south", "north"])
def test_4_3_the_bot_writes_legal_orders(faction: str) -> None:
    state = pstate(FINNS)
    body = politics.bot_political(pdata(), state, faction, FixedRng())
    assert politics.validate_political(pdata(), state, faction, body) == []
    assert any("activate" in item for item in body["orders"])


def test_every_event_has_a_line_in_the_log() -> None:
    state = pstate({**ALLIES, **FINNS, "finland-inf-02": "Petrograd"},
                   mods={"red": {"moscow": -1, "zones": -1}}, ori={"south": 3},
                   minors={"finland": {"status": "active", "controller": "south", "until": None}})
    state["allied_control"] = {"north": 1}
    events = [politics.ori_mods_event(pdata(), state, [control("Tver", "south", "red")])]
    events += politics.ori_phase(pdata(), state, FixedRng(1, 6, 3, 3))
    events += politics.intervention(pdata(), state, {f: orders({"intervene": {"spend": 0}})
                                                     for f in ("siberian", "south", "north")},
                                    FixedRng(1, 4, 8))
    events += politics.minor_activation(pdata(), state, {"red": orders({"activate": {"minor": "finland"}})},
                                        FixedRng(1))
    events.append({"type": "ori_change", "faction": "red", "change": 1, "why": "a card"})
    kinds = {e["type"] for e in events}
    assert kinds == set(politics.APPLY)
    assert set(politics.DESCRIBE) == kinds  # each told by its module (the event table)
    for e in events:
        line = GAME.summary(data(), e)
        assert line and "{" not in line and not line.startswith(f"{e['type']}:"), e


def test_the_shipped_tables_are_complete_and_a_gap_is_reported() -> None:
    assert politics.check_tables(pdata()) == []
    gap = with_tables({"ori": {"table": [{"max": 1, "change": -1}, {"min": 3, "change": 1}]}})
    assert any("one above" in p for p in politics.check_tables(gap))
    bad = with_tables({"minors": {"table": [{"result": "maybe"}]}})
    assert any("minors.table[0].result" in p for p in politics.check_tables(bad))


def test_the_tables_can_be_corrected_per_campaign() -> None:
    stricter = with_tables({"ori": {"table": [{"max": 2, "change": -1}, {"min": 3, "max": 5, "change": 0},
                                              {"min": 6, "change": 1}]}})
    events = politics.ori_phase(stricter, pstate(ori={"red": 1}), FixedRng(2, 3, 3, 3))
    assert events[0]["change"] == -1


def test_applying_checks_what_the_events_say() -> None:
    b = politics.board(pdata())
    state = pstate(ori={"red": 1})
    with pytest.raises(ValueError, match="the roll was made at 2"):
        politics._apply(b, state, {"type": "ori_roll", "faction": "red", "before": 2, "moscow": 0,
                                   "change": 0, "level": 2})
    with pytest.raises(ValueError, match="gives 2, not 3"):
        politics._apply(b, state, {"type": "ori_roll", "faction": "red", "before": 1, "moscow": 0,
                                   "change": 1, "level": 3})
    with pytest.raises(ValueError, match="status"):
        politics._apply(b, state, {"type": "minor_status", "minor": "finland", "status": "sleepy"})
    with pytest.raises(ValueError, match="not an allied unit"):
        politics._apply(b, state, {"type": "allies_removed", "faction": "north", "units": ["red-inf-01"]})
    with pytest.raises(ValueError, match="cannot spend"):
        politics._apply(b, state, {"type": "intervention_roll", "faction": "north", "spend": 99})
    assert politics._apply(b, state, {"type": "ori_change", "faction": "red", "change": 5})["ori"]["red"] == 3
