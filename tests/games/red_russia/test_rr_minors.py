"""Minor factions and the Western Allies in the majors' hands (12.x, 13.1-13.6) as rule
tables: a position, the orders, the dice, the expected events. Each test's name starts
with the rule it checks."""

from __future__ import annotations

import importlib
from typing import Any

from position import GAME, data, messages, orders, position, resolve_phase
from position import standing as standing_

minors = importlib.import_module("pbem_game_red_russia.minors")
board_rules = importlib.import_module("pbem_game_red_russia.board")

FINNS = {"finland-inf-01": "Helsinki", "finland-inf-02": "Vyborg", "finland-inf-03": "Vyborg",
         "mannerheim": "Vyborg"}


def state_with(pieces: dict[str, str], *, actor: str = "south", turn: int = 5,
               minor: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    state = position(pieces, actor=actor, turn=turn, control=extra.pop("control", None))
    state["standing"] = standing_(extra.pop("standing", None))
    for name, spec in (minor or {}).items():
        state.setdefault("minors", {})[name] = {"controller": None, "until": None, **spec}
    state.update(extra)
    return state


def act(state: dict[str, Any], body: dict[str, Any], dice: list[int]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    return resolve_phase(state, body, dice)


ACTIVE_SOUTH = {"finland": {"status": "active", "controller": "south"}}


def test_12_12_the_controller_moves_an_active_minors_units_as_its_own() -> None:
    state = state_with(FINNS, minor=ACTIVE_SOUTH)
    _, after = act(state, orders({"move": {"units": ["finland-inf-01"], "to": "Vyborg"}}), [])
    assert after["units"]["finland-inf-01"]["zone"] == "Vyborg"


def test_12_1_nobody_orders_a_neutral_minor_nor_another_factions_minor() -> None:
    body = orders({"move": {"units": ["finland-inf-01"], "to": "Vyborg"}})
    assert "12.1" in messages(state_with(FINNS), "south", body)[0]
    assert "12.1" in messages(state_with(FINNS, actor="north", minor=ACTIVE_SOUTH), "north", body)[0]


def test_12_11_limited_control_moves_two_units_and_one_leader() -> None:
    limited = {"finland": {"status": "limited", "controller": "south", "until": 5,
                           "zones": ["Helsinki", "Vyborg"]}}
    pieces = {**FINNS, "finland-inf-04": "Vyborg"}
    state = state_with(pieces, minor=limited)
    two = orders({"move": {"units": ["finland-inf-02", "finland-inf-03", "mannerheim"], "to": "Helsinki"}})
    assert messages(state, "south", two) == []
    three = orders({"move": {"units": ["finland-inf-02", "finland-inf-03", "finland-inf-04", "mannerheim"],
                             "to": "Helsinki"}})
    assert any("12.11" in m for m in messages(state, "south", three))


def test_12_11_limited_control_stays_in_its_own_zones() -> None:
    limited = {"finland": {"status": "limited", "controller": "south", "until": 5,
                           "zones": ["Helsinki", "Vyborg"]}}
    state = state_with(FINNS, minor=limited)
    out = orders({"move": {"units": ["finland-inf-02"], "to": "Petrograd"}})
    assert any("12.11" in m for m in messages(state, "south", out))


def test_13_3_finnish_units_go_no_more_than_two_zones_from_home() -> None:
    state = state_with({"finland-inf-02": "Petrozavodsk"}, minor=ACTIVE_SOUTH,
                       control={"Petrozavodsk": "south", "Kem": "south"})
    assert messages(state, "south", orders({"move": {"units": ["finland-inf-02"], "to": "Kem"}})) == []
    state = state_with({"finland-inf-02": "Tver"}, minor=ACTIVE_SOUTH,
                       control={"Tver": "south", "Smolensk": "south"})
    assert any("13.3" in m for m in messages(state, "south",
                                              orders({"move": {"units": ["finland-inf-02"], "to": "Smolensk"}})))


def test_13_1_ukrainian_units_go_no_more_than_one_zone_from_home() -> None:
    active = {"ukraine": {"status": "active", "controller": "north"}}
    state = state_with({"ukraine-inf-01": "Poltava"}, actor="north", minor=active,
                       control={"Kharkov": "north"})
    assert messages(state, "north", orders({"move": {"units": ["ukraine-inf-01"], "to": "Kharkov"}})) == []
    state = state_with({"ukraine-inf-01": "Kharkov"}, actor="north", minor=active,
                       control={"Kharkov": "north", "Belgorod": "north", "Kursk": "north"})
    far = [z for z in board_rules.board(data()).routes["Kharkov"] if z not in ("Poltava",)
           and z in board_rules.board(data()).zones and minors.distances(
               board_rules.board(data()), minors.homes(board_rules.board(data()), "ukraine"))[z] > 1]
    state["control"].update({z: "north" for z in far})
    out = orders({"move": {"units": ["ukraine-inf-01"], "to": far[0]}})
    assert any("13.1" in m for m in messages(state, "north", out))


def test_13_61_a_white_faction_takes_in_hand_as_many_allied_units_as_the_table_gave() -> None:
    pieces = {"allied-inf-01": "Archangel", "allied-inf-02": "Archangel"}
    state = state_with(pieces, actor="north", allied_control={"north": 1})
    one = orders({"move": {"units": ["allied-inf-01"], "to": "Vologda"}})
    events, after = act(state, one, [])
    assert {"type": "allies_taken", "faction": "north", "units": ["allied-inf-01"]} in events
    assert after["units"]["allied-inf-01"]["zone"] == "Vologda"
    two = orders({"move": {"units": ["allied-inf-01", "allied-inf-02"], "to": "Vologda"}})
    assert any("13.61" in m for m in messages(state, "north", two))
    assert any("13.61" in m for m in messages(state_with(pieces, actor="north"), "north", one))


def test_13_63_allied_units_go_two_zones_at_most_outside_the_sponsors_control() -> None:
    state = state_with({"allied-inf-01": "Archangel", "kolchak": "Archangel"}, actor="north",
                       allied_control={"north": 1},
                       control={"Vologda": "red", "Yaroslavl": "red", "Kotlas": "red"})
    route = minors.reach_problem(board_rules.board(data()), state, "north", "allied-inf-01",
                                 ["Archangel", "Vologda", "Yaroslavl", "Kotlas"])
    assert route is not None and "13.63" in route
    assert minors.reach_problem(board_rules.board(data()), state, "north", "allied-inf-01",
                                ["Archangel", "Vologda", "Yaroslavl"]) is None


def test_12_41_minors_alone_attack_for_two_paid_rounds_and_spend_nothing() -> None:
    pieces = {"finland-inf-02": "Petrograd", "red-inf-01": "Petrograd"}
    state = state_with(pieces, minor=ACTIVE_SOUTH)
    body = orders({"attack": {"zone": "Petrograd"}})
    events, after = act(state, body, [1] * 40)
    attack = next(e for e in events if e["type"] == "attack")
    assert attack["spend"] == 0 and attack["rounds"] == 2
    assert after["money"]["south"] == state["money"]["south"]
    paid = {**body, "secret": {"spend": {"Petrograd": 3}}}
    assert any("12.41" in m for m in messages(state, "south", paid))


def test_13_3_finland_attacked_by_the_reds_joins_the_white_faction_with_fewest_points() -> None:
    pieces = {"finland-inf-02": "Vyborg", "red-inf-01": "Vyborg"}
    state = state_with(pieces, actor="red", vp={"siberian": 5, "south": 2, "north": 4})
    body = {**orders({"attack": {"zone": "Vyborg"}}), "secret": {"spend": {"Vyborg": 1}}}
    events, after = act(state, body, [1] * 20)
    joined = next(e for e in events if e["type"] == "minor_status")
    assert (joined["status"], joined["controller"]) == ("active", "south")
    assert after["minors"]["finland"]["controller"] == "south"
    assert events.index(joined) < next(i for i, e in enumerate(events) if e["type"] == "attack")


def test_13_5_poland_attacked_by_a_white_faction_joins_the_reds() -> None:
    pieces = {"poland-inf-01": "Lublin", "south-inf-01": "Lublin"}
    state = state_with(pieces, actor="south", turn=9)
    body = {**orders({"attack": {"zone": "Lublin"}}), "secret": {"spend": {"Lublin": 1}}}
    events, _ = act(state, body, [1] * 20)
    joined = next(e for e in events if e["type"] == "minor_status")
    assert (joined["status"], joined["controller"]) == ("active", "red")


def test_13_51_13_52_poland_attacked_before_1920_is_limited_unless_on_to_berlin() -> None:
    pieces = {"poland-inf-01": "Lublin", "red-inf-01": "Lublin"}
    vp = {"siberian": 5, "south": 2, "north": 4}
    body = {**orders({"attack": {"zone": "Lublin"}}), "secret": {"spend": {"Lublin": 1}}}
    events, _ = act(state_with(pieces, actor="red", vp=vp), body, [1] * 20)
    joined = next(e for e in events if e["type"] == "minor_status")
    assert (joined["status"], joined["controller"]) == ("limited", "siberian")  # 13.5 most points
    events, _ = act(state_with(pieces, actor="red", vp=vp, flags={"on_to_berlin": "red"}), body, [1] * 20)
    assert next(e for e in events if e["type"] == "minor_status")["status"] == "active"


def test_13_4_makhno_joins_the_white_faction_whose_nearest_unit_is_furthest() -> None:
    pieces = {"anarchists-cav-01": "Gulai Polye", "red-inf-01": "Gulai Polye",
              "south-inf-01": "Rostov", "siberian-inf-01": "Omsk", "north-inf-01": "Archangel"}
    state = state_with(pieces, actor="red")
    body = {**orders({"attack": {"zone": "Gulai Polye"}}), "secret": {"spend": {"Gulai Polye": 1}}}
    events, _ = act(state, body, [1] * 20)
    assert next(e for e in events if e["type"] == "minor_status")["controller"] == "siberian"


def test_13_3_finnish_fortifications_hit_on_five_or_six_against_a_siege() -> None:
    pieces = {"red-inf-01": "Vyborg", "red-inf-02": "Vyborg"}
    state = state_with(pieces, actor="red", minor=ACTIVE_SOUTH)
    body = orders({"siege": {"zone": "Vyborg", "rounds": 1}})
    events, _ = act(state, body, [1] * 30)
    fort = next(e for e in events if e["type"] == "combat_round")["dice"]["def"][0]
    assert fort["hit"] == 5


def test_12_3_a_siege_may_give_a_minors_zone_back_and_liberate_it() -> None:
    pieces = {"red-inf-01": "Kiev", "red-inf-02": "Kiev", "red-inf-03": "Kiev"}
    control = {z: "north" for z in ("Kiev", "Zhitomir", "Vinnitsa", "Poltava")}
    state = state_with(pieces, actor="red", control=control,
                       minor={"ukraine": {"status": "neutral", "conquered": True}})
    state["siege"] = {"Kiev": {"faction": "red", "hits": 1}}
    body = orders({"siege": {"zone": "Kiev", "rounds": 2, "liberate": True}})
    events, after = act(state, body, [6] * 20 + [1] * 20)
    taken = next(e for e in events if e["type"] == "control")
    assert taken["faction"] == "ukraine"
    assert minors.conquest(board_rules.board(data()), after) == [
        {"type": "minor_conquered", "minor": "ukraine", "conquered": False}]


def test_12_3_a_minor_whose_home_zones_are_all_held_by_majors_is_conquered_and_not_repaired() -> None:
    b = board_rules.board(data())
    control = {z: "red" for z in minors.homes(b, "ukraine")}
    state = state_with({"ukraine-inf-01": "Kiev"}, control=control)
    state["units"]["ukraine-inf-01"]["reduced"] = True
    assert minors.conquest(b, state) == [{"type": "minor_conquered", "minor": "ukraine", "conquered": True}]
    state["minors"]["ukraine"]["conquered"] = True
    assert not [e for e in minors.upkeep(b, state, True) if e["minor"] == "ukraine"]


def test_12_42_minors_repair_one_unit_poland_two_and_build_in_spring() -> None:
    b = board_rules.board(data())
    pieces = {"finland-inf-01": "Helsinki", "finland-inf-02": "Helsinki",
              "poland-inf-01": "Warsaw", "poland-inf-02": "Warsaw", "poland-inf-03": "Warsaw"}
    state = state_with(pieces, reduced=None)
    for pid in pieces:
        state["units"][pid]["reduced"] = True
    events = minors.upkeep(b, state, False)
    repaired = [e["unit"] for e in events if e["type"] == "minor_repaired"]
    assert len([u for u in repaired if u.startswith("finland")]) == 1
    assert len([u for u in repaired if u.startswith("poland")]) == 2
    assert not [e for e in events if e["type"] == "minor_built"]
    built = {e["minor"]: e for e in minors.upkeep(b, state, True) if e["type"] == "minor_built"}
    assert len(built["poland"]["units"]) == 2 and len(built["finland"]["units"]) == 1
    assert built["finland"]["zone"] == "Helsinki"


def test_13_2_reval_taken_by_the_reds_goes_to_the_baltic_states_the_first_time() -> None:
    pieces = {"red-inf-01": "Reval", "red-inf-02": "Reval", "red-inf-03": "Reval"}
    state = state_with(pieces, actor="red")
    state["siege"] = {"Reval": {"faction": "red", "hits": 1}}
    body = orders({"siege": {"zone": "Reval", "rounds": 2}})
    events, after = act(state, body, [6] * 20 + [1] * 20)
    assert next(e for e in events if e["type"] == "control")["faction"] == "baltic"
    assert after["flags"]["reval_baltic"] is True
    assert not [e for e in events if e["type"] == "minor_status"]  # 13.2 Reval does not rouse them


def test_13_56_poland_under_limited_control_goes_one_zone_from_home_and_the_curzon_zones() -> None:
    b = board_rules.board(data())
    limited = {"poland": {"status": "limited", "controller": "siberian", "until": 5,
                          "zones": ["Brest-Litovsk", "Warsaw", "Minsk"]}}
    state = state_with({"poland-inf-01": "Brest-Litovsk"}, actor="siberian", minor=limited)
    far = minors.distances(b, minors.homes(b, "poland"))
    assert far["Minsk"] == 2
    route = ["Brest-Litovsk", "Minsk"]
    assert "13.56" in (minors.reach_problem(b, state, "siberian", "poland-inf-01", route) or "")
    state["flags"] = {"curzon": "red"}
    assert minors.reach_problem(b, state, "siberian", "poland-inf-01", route) is None


def major_poland_state(turn: int = 7) -> dict[str, Any]:
    pieces = {"poland-inf-01": "Warsaw", "poland-inf-02": "Lublin", "red-inf-01": "Moscow",
              "siberian-inf-01": "Omsk", "south-inf-01": "Rostov"}
    state = state_with(pieces, actor="red", turn=turn, standing={"north": {"play_poland": True}})
    state["defeated"] = ["north"]
    return state


def test_13_54_an_eliminated_player_who_asked_plays_on_with_poland_after_turn_six() -> None:
    b = board_rules.board(data())
    assert minors.polish_comeback(b, major_poland_state(turn=6)) == []
    (event,) = minors.polish_comeback(b, major_poland_state())
    assert event["faction"] == "north" and "Warsaw" in event["zones"]
    after = GAME.apply(data(), major_poland_state(), event)
    assert after["defeated"] == [] and after["control"]["Warsaw"] == "north"
    assert (after["money"]["north"], after["manpower"]["north"], after["ori"]["north"]) == (12, 6, 0)
    assert messages(after | {"actor": "north"}, "north",
                    orders({"move": {"units": ["poland-inf-01"], "to": "Brest-Litovsk"}})) == []
    unasked = major_poland_state()
    unasked["standing"]["north"] = {}
    assert minors.polish_comeback(b, unasked) == []


def test_13_54_not_while_poland_is_the_reds_ally() -> None:
    state = major_poland_state()
    state["minors"]["poland"] = {"status": "active", "controller": "red", "until": None}
    assert minors.polish_comeback(board_rules.board(data()), state) == []


def test_13_54_poland_as_a_major_pays_for_its_battles_holds_three_cards_and_cannot_win() -> None:
    state = GAME.apply(data(), major_poland_state(), minors.polish_comeback(
        board_rules.board(data()), major_poland_state())[0])
    assert not minors.free_force(state, ["poland-inf-01"])
    politics = importlib.import_module("pbem_game_red_russia.politics")
    assert politics.hand_limit(data(), state, "north", [["red"], ["siberian"], ["south"], ["north"]]) == 3
    play = importlib.import_module("pbem_game_red_russia.play")
    assert "13.54" in (play.playable(data(), state, "siberian", "greater-poland") or "")
    turn = importlib.import_module("pbem_game_red_russia.turn")
    state["vp"] = {}
    events = turn.victory(data(), state)
    assert not any(e["type"] == "defeated" for e in events)  # Poland's units count as its corps
    over = [e for e in events if e["type"] == "game_over"]
    assert not over or "north" not in over[0]["result"].get("winners", [])


def test_13_61_18_1_a_white_faction_sails_an_allied_fleet_taken_in_hand() -> None:
    b = board_rules.board(data())
    port = sorted(b.ports["White Sea"])[0]
    state = state_with({"allied-fleet-04": "White Sea"}, actor="north", allied_control={"north": 1},
                       control={port: "north"})
    events, after = act(state, orders({"move": {"units": ["allied-fleet-04"], "to": port}}), [])
    assert after["units"]["allied-fleet-04"]["zone"] == port
    assert after["allied_used"] == {"north": ["allied-fleet-04"]}
    assert any("13.61" in m for m in messages(state_with({"allied-fleet-04": "White Sea"}, actor="red"), "red",
                                               orders({"move": {"units": ["allied-fleet-04"], "to": port}})))


def test_13_52_after_greater_poland_entering_ukraine_brings_poland_in_against_the_mover() -> None:
    state = state_with({"red-inf-01": "Chernigov", "poland-inf-01": "Warsaw"}, actor="red",
                       control={"Chernigov": "red"}, flags={"greater_poland": "south"})
    events, after = act(state, orders({"move": {"units": ["red-inf-01"], "to": "Kiev"}}), [1] * 10)
    joined = next(e for e in events if e["type"] == "minor_status")
    assert (joined["minor"], joined["status"], joined["controller"]) == ("poland", "active", "south")
    assert after["minors"]["poland"]["controller"] == "south"
    # the card's own player goes in freely; and nothing once Poland and Ukraine are conquered
    state["flags"] = {"greater_poland": "red"}
    assert minors.greater_poland(state, "red") is None
    state["flags"] = {"greater_poland": "south"}
    state["minors"]["poland"]["conquered"] = state["minors"]["ukraine"]["conquered"] = True
    assert minors.greater_poland(state, "red") is None


def test_12_1_a_card_brings_no_minor_into_play_before_the_third_turn() -> None:
    play = importlib.import_module("pbem_game_red_russia.play")
    state = state_with({}, turn=2)
    events = play.effect_events(data(), state, {"card": "estonian-war-of-independence", "faction": "north"},
                                {"do": "minor", "minor": "baltic", "status": "active", "controller": "self"},
                                None, "t")
    assert events[0]["type"] == "note" and "12.1" in events[0]["text"]


def test_13_61_the_allied_units_taken_to_attack_count_across_all_the_attacks() -> None:
    pieces = {"allied-inf-01": "Vologda", "allied-inf-02": "Kotlas", "red-inf-01": "Vologda",
              "red-inf-02": "Kotlas"}
    state = state_with(pieces, actor="north", allied_control={"north": 1})
    one = orders({"attack": {"zone": "Vologda", "units": ["allied-inf-01"]}})
    assert messages(state, "north", one) == []
    both = orders({"attack": {"zone": "Vologda", "units": ["allied-inf-01"]}},
                  {"attack": {"zone": "Kotlas", "units": ["allied-inf-02"]}})
    assert any("13.61" in m for m in messages(state, "north", both))


def test_12_1_13_61_13_63_why_a_faction_may_not_order_a_piece_word_for_word() -> None:
    """The refusal names the minor's standing (12.1), the White faction that holds an
    allied unit this turn (13.63), and the allied units granted (13.61)."""
    state = position({"finland-inf-02": "Helsinki", "allied-fleet-04": "White Sea"}, turn=5)
    problem = minors.command_problem
    assert problem(state, "red", "finland-inf-02") == (
        "finland-inf-02 belongs to finland (neutral); red does not command it (12.1)")
    state["minors"] = {"finland": {"controller": "siberian", "until": None, "status": "active"}}
    assert problem(state, "red", "finland-inf-02") == (
        "finland-inf-02 belongs to finland (active under siberian); red does not command it (12.1)")
    assert problem(state, "siberian", "finland-inf-02") is None
    # limited control lasts its one turn (12.11): after it, neutral again
    state["minors"] = {"finland": {"controller": "siberian", "until": 4, "status": "limited"}}
    assert problem(state, "siberian", "finland-inf-02") == (
        "finland-inf-02 belongs to finland (neutral); siberian does not command it (12.1)")
    assert problem(state, "red", "allied-fleet-04") == (
        "allied-fleet-04 is an allied unit: only a White faction uses the Allies (13.61)")
    state["allied_used"] = {"siberian": ["allied-fleet-04"]}
    assert problem(state, "south", "allied-fleet-04") == (
        "allied-fleet-04 is in siberian's hands this turn (13.63)")
    assert problem(state, "siberian", "allied-fleet-04") is None
    state["allied_used"] = {}
    state.pop("allied_control", None)  # nothing granted from the intervention table
    assert problem(state, "north", "allied-fleet-04") == (
        "allied-fleet-04 is an allied unit: north may use 0 allied unit(s) this turn, from the "
        "foreign intervention table, and has no more to take (13.61)")
    state["allied_control"] = {"north": 1}
    assert problem(state, "north", "allied-fleet-04") is None
    assert problem(state, "north", "allied-fleet-04", taking=1) == (
        "allied-fleet-04 is an allied unit: north may use 1 allied unit(s) this turn, from the "
        "foreign intervention table, and has no more to take (13.61)")


def test_13_63_a_zone_of_the_sponsor_starts_the_count_again_and_fleets_go_anywhere() -> None:
    b = board_rules.board(data())
    state = state_with({"allied-inf-01": "Archangel", "allied-fleet-04": "White Sea"}, actor="north",
                       allied_control={"north": 2},
                       control={"Vologda": "red", "Yaroslavl": "north", "Tver": "red",
                                "Kotlas": "red", "Vyatka": "red"})
    # two outside, the sponsor's, two outside again: never three in a row
    route = ["Archangel", "Vologda", "Kotlas", "Yaroslavl", "Tver", "Vyatka"]
    assert minors.reach_problem(b, state, "north", "allied-inf-01", route) is None
    assert minors.reach_problem(b, state, "north", "allied-inf-01", [*route, "Vologda"]) == (
        "allied-inf-01 may not go more than 2 zones in a row outside north's control (13.63): Vologda")
    # 13.63 limits the allied land units only: a fleet's route through ports is not counted
    assert minors.reach_problem(b, state, "north", "allied-fleet-04", [*route, "Vologda"]) is None


def test_13_56_a_fully_activated_poland_and_poland_from_summer_1920_go_beyond_one_zone() -> None:
    b = board_rules.board(data())
    route = ["Brest-Litovsk", "Minsk"]  # two zones from Poland's home zones
    for status, turn, refused in (("limited", minors.POLAND_FULL_TURN - 1, True),
                                  ("limited", minors.POLAND_FULL_TURN, False),
                                  ("active", minors.POLAND_FULL_TURN - 1, False)):
        poland = {"poland": {"status": status, "controller": "siberian", "until": turn + 1,
                             "zones": ["Brest-Litovsk", "Warsaw", "Minsk"]}}
        state = state_with({"poland-inf-01": "Brest-Litovsk"}, actor="siberian", minor=poland,
                           turn=turn)
        found = minors.reach_problem(b, state, "siberian", "poland-inf-01", route)
        assert (found is not None) is refused, (status, turn, found)
        if refused:
            assert found == ("poland-inf-01 may not go more than 1 zone(s) from poland's home "
                             "zones (13.56): Minsk")

