"""Red Russia set-up (3.0, 20.x), initiative (4.4), victory (4.6, 16.x) and the game data."""

from __future__ import annotations

import importlib
from collections import Counter
from typing import Any

import pytest
from position import (
    GAME,
    FixedRng,
    OpenSecrets,
    board_rules,
    data,
    messages,
    orders,
    position,
    setup_rules,
)

from pbem.dice import KeyedRng
from pbem.errors import DataError
from pbem.game import load_data

GAME_TURN = importlib.import_module("pbem_game_red_russia.turn")


def fresh(options: dict[str, Any] | None = None, key: bytes = b"\x02" * 32) -> dict[str, Any]:
    return GAME.setup(data(), options or {}, KeyedRng(key))


def drawn(state: dict[str, Any], faction: str) -> Counter[tuple[str, str]]:
    return Counter((p["type"], p["place"].get("region", "-")) for p in state["units"].values()
                   if p["status"] == "setup" and p.get("by") == faction and p["faction"] == faction)


def test_20_1_to_20_4_starting_forces_are_drawn_by_type_and_territory() -> None:
    state = fresh()
    assert drawn(state, "north") == Counter({("cav", "central_asia"): 2, ("inf", "central_asia"): 2,
                                             ("inf", "greater_russia"): 3,
                                             ("leader", "central_asia"): 1})
    assert drawn(state, "siberian") == Counter({("cav", "siberia"): 1, ("inf", "siberia"): 2,
                                                ("air", "greater_russia"): 1, ("cav", "greater_russia"): 1,
                                                ("inf", "greater_russia"): 4, ("leader", "home"): 2})
    assert drawn(state, "south") == Counter({("cav", "greater_russia"): 3, ("inf", "greater_russia"): 5,
                                             ("leader", "greater_russia"): 2})
    assert drawn(state, "red") == Counter({("cav", "central_asia"): 1, ("inf", "central_asia"): 2,
                                           ("cav", "greater_russia"): 3, ("inf", "greater_russia"): 11,
                                           ("cav", "siberia"): 1, ("inf", "siberia"): 1,
                                           ("leader", "greater_russia"): 2, ("leader", "home"): 3})


def test_20_4_the_reds_set_aside_five_counters_before_drawing() -> None:
    state = fresh()
    b = data()["units"]["counters"]["red"]
    full = {c["id"]: (c["type"], tuple(c["full"])) for c in b}
    removed = Counter(full[u] for u, p in state["units"].items() if p["status"] == "removed")
    assert removed == Counter({("inf", (5, 2)): 1, ("inf", (4, 2)): 2, ("cav", (5, 2)): 1,
                               ("cav", (4, 2)): 1})


def test_20_3_wrangel_is_never_drawn_and_denikin_always_is() -> None:
    for k in range(20):
        state = fresh(key=bytes([k]) * 32)
        assert state["units"]["wrangel"]["status"] == "unused"
        assert state["units"]["denikin"]["status"] == "setup"


def test_19_3_the_czech_legion_option_removes_two_4_2_siberian_infantry() -> None:
    state = fresh({"czech_legion": True})
    counts = drawn(state, "siberian")
    assert counts[("inf", "siberia")] == 1 and counts[("inf", "greater_russia")] == 3
    removed = [u for u, p in state["units"].items() if p["faction"] == "siberian" and p["status"] == "removed"]
    assert len(removed) == 2


def test_3_0_allied_units_are_drawn_five_two_one_and_fixed_fleets_placed() -> None:
    state = fresh()
    allied = Counter(p.get("by") for p in state["units"].values()
                     if p["status"] == "setup" and p["faction"] == "allies")
    # eight drawn (3.0: North 5, Siberian 2, South 1; Maynard among them, 20.5) plus the
    # Sea of Japan fleet, whose place among three the Siberians choose
    assert allied == Counter({"north": 5, "siberian": 3, "south": 1})
    fixed = sorted(p["zone"] for p in state["units"].values()
                   if p["faction"] == "allies" and p["status"] == "map")
    assert fixed == ["Baltic box", "Black Sea box"]


def test_3_0_the_whites_never_place_in_iron_cross_zones_nor_north_in_reval() -> None:
    state = fresh()
    b = board_rules.board(data())
    zones = data()["map"]["zones"]
    for pid, p in state["units"].items():
        if p["status"] == "setup" and p["faction"] in ("north", "siberian", "south", "red"):
            allowed = setup_rules.allowed_places(b, state, pid)
            assert allowed, pid
            assert not any(zones[z].get("iron_cross") for z in allowed), pid
            if p["faction"] == "north":
                assert "Reval" not in allowed


def test_3_0_placement_reports_missing_misplaced_and_doubled_units() -> None:
    state = fresh()
    mine = sorted(u for u, p in state["units"].items() if p.get("by") == "south")
    body = orders({"place": {"zone": "Moscow", "units": [mine[0]]}},
                  {"place": {"zone": "Novorossiysk", "units": [mine[1], mine[1]]}})
    found = messages(state, "south", body)
    assert any(f"{mine[0]} cannot be placed in Moscow" in m for m in found)
    assert any("placed twice" in m for m in found)
    assert any(m.startswith("still to place:") for m in found)


def test_3_0_bot_placement_is_legal_and_complete() -> None:
    state = fresh()
    rng = KeyedRng(b"\x03" * 32)
    for faction in ("north", "siberian", "south"):
        assert messages(state, faction, GAME.bot(data(), state, faction, rng)) == []


def test_3_0_the_drawn_white_reduces_the_first_red_unit_the_reds_left_full() -> None:
    state = position({"red-inf-01": "Moscow", "red-inf-02": "Moscow", "south-inf-01": "Rostov",
                      "siberian-inf-01": "Omsk", "north-inf-01": "Archangel"})
    state.update(turn=0, phase="setup-reduce", actor=None, white_reducer="south")
    body = {f: orders({"reduce": f"{f}-inf-01"}) for f in ("red", "siberian", "north")}
    body["south"] = orders({"reduce": "south-inf-01"}, {"reduce_red": ["red-inf-01", "red-inf-02"]})
    for faction, b in body.items():
        assert messages(state, faction, b) == [], faction
    events = GAME.resolve(data(), state, body, FixedRng(), OpenSecrets())
    reduced = [(e["unit"], e["by"]) for e in events if e["type"] == "reduced"]
    assert ("red-inf-01", "red") in reduced and ("red-inf-02", "south") in reduced


def test_3_0_the_drawn_white_must_give_a_list_of_red_units() -> None:
    state = position({"red-inf-01": "Moscow", "south-inf-01": "Rostov"})
    state.update(turn=0, phase="setup-reduce", actor=None, white_reducer="south")
    found = messages(state, "south", orders({"reduce": "south-inf-01"}))
    assert any("reduce_red" in m for m in found)


def test_3_0_the_reds_reduce_one_unit_of_each_white_faction() -> None:
    state = position({"south-inf-01": "Rostov", "siberian-inf-01": "Omsk", "north-inf-01": "Archangel",
                      "south-inf-02": "Rostov"})
    state.update(turn=0, phase="setup-reduce-red", actor=None)
    good = orders({"reduce": ["south-inf-01", "siberian-inf-01", "north-inf-01"]})
    assert messages(state, "red", good) == []
    bad = orders({"reduce": ["south-inf-01", "south-inf-02", "north-inf-01"]})
    assert any("one unit of each White faction" in m for m in messages(state, "red", bad))


# ---------------------------------------------------------------------------------------
# 4.4 initiative


def initiative(state: dict[str, Any], *dice: int) -> list[str]:
    state.update(phase="initiative", actor=None)
    events = GAME.resolve(data(), state, {}, FixedRng(*dice), OpenSecrets())
    return next(e["order"] for e in events if e["type"] == "initiative")


def test_4_4_highest_roll_goes_first() -> None:
    state = position({"lenin": "Kazan"})
    # red 2+3, siberian 6+6, south 1+1, north 4+4
    assert initiative(state, 2, 3, 6, 6, 1, 1, 4, 4) == ["siberian", "north", "red", "south"]


def test_10_8_1_lenin_in_moscow_adds_two_to_the_red_roll_when_asked() -> None:
    state = position({"lenin": "Moscow"})
    state["standing"]["red"] = {"lenin_initiative": "+2"}
    assert initiative(state, 5, 5, 6, 5, 1, 1, 2, 2)[0] == "red"  # 12 beats 11


def test_10_8_1_lenin_outside_moscow_gives_no_modifier() -> None:
    state = position({"lenin": "Kazan"})
    state["standing"]["red"] = {"lenin_initiative": "+2"}
    assert initiative(state, 5, 5, 6, 5, 1, 1, 2, 2)[0] == "siberian"


def test_4_4_ties_are_rerolled_without_the_lenin_modifier() -> None:
    state = position({"lenin": "Moscow"})
    state["standing"]["red"] = {"lenin_initiative": "+2"}
    # red 3+3+2 = 8, siberian 4+4 = 8: tie; south 1+1, north 1+2; re-roll red 1+1, siberian 2+2
    order = initiative(state, 3, 3, 4, 4, 1, 1, 1, 2, 1, 1, 2, 2)
    assert order == ["siberian", "red", "north", "south"]


def test_10_8_1_a_bad_lenin_choice_is_an_error() -> None:
    state = position({"red-inf-01": "Moscow"})
    found = messages(state, "red", orders(standing={"lenin_initiative": "+3"}))
    assert any("lenin_initiative is one of" in m for m in found)


# ---------------------------------------------------------------------------------------
# 16.x victory


def victory(state: dict[str, Any]) -> list[dict[str, Any]]:
    state.update(phase="victory", actor=None)
    return GAME.resolve(data(), state, {}, FixedRng(), OpenSecrets())


CORPS = {"red-inf-01": "Moscow", "siberian-inf-01": "Omsk", "south-inf-01": "Rostov",
         "north-inf-01": "Archangel"}


def test_16_0_victory_points_are_money_held_minus_the_base_plus_specials() -> None:
    state = position({**CORPS, "lenin": "Moscow", "treasure": "Kazan"})
    vp = next(e["vp"] for e in victory(state) if e["type"] == "victory_points")
    # 10.8.1 Lenin alive +1, 15.1 whole treasure +2
    assert vp == {"red": 3, "siberian": 0, "south": 0, "north": 0}


def test_16_0_the_reds_count_warsaw_double() -> None:
    state = position({**CORPS, "lenin": "Moscow"}, control={"Warsaw": "red"})
    warsaw = data()["map"]["zones"]["Warsaw"]["money"]
    vp = next(e["vp"] for e in victory(state) if e["type"] == "victory_points")
    assert vp["red"] == 1 + 2 + 2 * warsaw  # Lenin, the treasure at Kazan, Warsaw twice


def test_16_2_a_faction_without_corps_is_defeated() -> None:
    pieces = {k: v for k, v in CORPS.items() if not k.startswith("north")}
    events = victory(position(pieces))
    assert {"type": "defeated", "faction": "north"} in events


def test_16_1_at_the_end_the_closest_to_its_level_wins_and_red_wins_ties() -> None:
    state = position(CORPS, turn=12)
    events = victory(state)
    over = next(e for e in events if e["type"] == "game_over")
    levels = data()["game"]["victory"]["automatic"]
    vp = over["result"]["vp"]
    distance = {f: levels[f] - vp[f] for f in vp}
    best = min(distance.values())
    expected = ["red"] if distance["red"] == best else sorted(f for f in vp if distance[f] == best)
    assert over["result"]["winners"] == expected


def test_4_6_before_the_last_turn_the_next_turn_begins_with_its_purchase_phase() -> None:
    events = victory(position(CORPS, turn=4))
    assert events[-1] == {"type": "phase", "turn": 5, "phase": "purchase"}


def test_4_7_in_winter_the_victory_phase_leads_to_the_winter_phases() -> None:
    events = victory(position(CORPS, turn=3))
    assert events[-1] == {"type": "phase", "turn": 3, "phase": "winter"}
    state = position(CORPS, turn=3)
    state.update(phase="winter", actor=None)
    found = GAME.resolve(data(), state, {}, FixedRng(), OpenSecrets())
    kinds = [e["type"] for e in found]
    assert "maintenance" in kinds and "collected" in kinds
    assert found[-1] == {"type": "phase", "turn": 4, "phase": "purchase"}


# ---------------------------------------------------------------------------------------
# the data


def test_16_0_home_zones_add_up_to_the_victory_bases() -> None:
    zones = data()["map"]["zones"]
    totals = Counter()
    for z in zones.values():
        if z.get("home"):
            totals[z["home"]] += z["money"]
    assert {f: totals[f] for f in ("north", "siberian", "south", "red")} == {
        "north": 18, "siberian": 20, "south": 16, "red": 55}


def test_the_map_has_the_size_the_issue_asks_and_named_zones() -> None:
    zones = data()["map"]["zones"]
    assert 60 <= len(zones) <= 125
    for name in ("Moscow", "Petrograd", "Kazan", "Orel", "Omsk", "Archangel", "Murmansk", "Reval",
                 "Warsaw", "Poznan", "Gulai Polye", "Batumi", "Erevan", "Merv", "Vladivostok"):
        assert name in zones
    assert zones["Orel"]["money"] == 2 and zones["Orel"]["manpower"] == 2  # 6.1


def test_overrides_correct_a_value() -> None:
    changed = load_data("red_russia", {"map": {"zones": {"Orel": {"manpower": 3}}}})
    assert changed["map"]["zones"]["Orel"]["manpower"] == 3
    assert load_data("red_russia")["map"]["zones"]["Orel"]["manpower"] == 2


def test_bad_overrides_name_the_file_and_key() -> None:
    with pytest.raises(DataError) as caught:
        load_data("red_russia", {"map": {"zones": {"Orel": {"money": "lots"}}}})
    # the value is the override's: named where it is written (pbem.datacheck)
    assert any("campaign.yaml: overrides.map.zones.Orel.money" in line for line in caught.value.details)
    with pytest.raises(DataError) as caught:
        load_data("red_russia", {"map": {"routes": [["Moscow", "Atlantis", "easy"]]}})
    assert any("routes[0]" in line and "Atlantis" in line for line in caught.value.details)
    with pytest.raises(DataError) as caught:
        load_data("red_russia", {"maps": {}})
    assert "overrides.maps" in caught.value.message


def test_7_7_routes_across_territories_must_be_very_difficult() -> None:
    with pytest.raises(DataError) as caught:
        load_data("red_russia", {"map": {"routes": [["Perm", "Ekaterinburg", "easy"]]}})
    assert any("must be very_difficult" in line for line in caught.value.details)


def test_16_1_the_rulebook_example_a_player_of_two_factions_averages_their_distances() -> None:
    # "The North/Asia faction is 5 points from victory and the Siberian faction is 2 points
    # from victory. The player is therefore considered to be 3.5 points from automatic victory."
    levels = data()["game"]["victory"]["automatic"]
    vp = {"north": levels["north"] - 5, "siberian": levels["siberian"] - 2,
          "red": levels["red"] - 4, "south": levels["south"] - 3}
    event = GAME_TURN._final(vp, levels, ["red", "siberian", "south", "north"],
                             [["red"], ["north", "siberian"], ["south"]])
    assert event["result"]["distance"]["north+siberian"] == "7/2"
    assert event["result"]["winners"] == ["south"]  # 3 is closer than 3.5 and 4


def test_16_0_a_player_of_several_factions_needs_every_level() -> None:
    state = position(CORPS, turn=5, options={"seating": [["red"], ["north", "siberian", "south"]]})
    levels = data()["game"]["victory"]["automatic"]
    zones = data()["map"]["zones"]
    # give the North enough zones to pass its level alone: no automatic victory for the player
    rich = sorted((z for z, v in zones.items() if not v.get("iron_cross") and state["control"][z] == "red"),
                  key=lambda z: -zones[z]["money"])
    taken = 0
    for z in rich:
        if taken > levels["north"]:
            break
        state["control"][z] = "north"
        taken += zones[z]["money"]
    events = victory(state)
    assert not any(e["type"] == "game_over" for e in events)
