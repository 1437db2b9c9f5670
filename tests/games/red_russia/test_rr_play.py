"""Playing event cards (14.2, 14.6-14.74): a rule table with every card of the deck, and
the play rules themselves. The deck is RECONSTRUCTED (cards.yaml): these tests hold the
engine to what each card's structured effect says."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from position import GAME, FixedRng, OpenSecrets, data, messages, orders, position
from position import standing as standing_

cards = importlib.import_module("pbem_game_red_russia.cards")
play = importlib.import_module("pbem_game_red_russia.play")
movement = importlib.import_module("pbem_game_red_russia.movement")
board = importlib.import_module("pbem_game_red_russia.board")

DECK = data()["cards"]["cards"]
EXPECTED = {  # what each kind of effect leaves in the log (14.6)
    "money": {"card_resources"}, "manpower": {"card_resources"}, "ori": {"ori_change"},
    "flag": {"flag_set"}, "add_units": {"units_in", "note"}, "remove_units": {"units_out"},
    "tank": {"units_in"}, "leader": {"leader_in", "note"}, "replace_leader": {"units_out", "leader_in"},
    "rail": {"rail_bonus"}, "minor": {"minor_status"}, "infighting": {"infighting"},
    "coup_de_main": {"control", "note"}, "cossack_raid": {"raids", "note"},
    "combat": {"battle_card", "note"}, "wound_leader": {"leader_wounded", "note"},
    "partisans": {"partisans_placed", "note"}, "famine": {"famine", "famine_relief", "note"},
}
YEAR_TURN = {1918: 3, 1919: 4, 1920: 8, 1921: 12}  # 1918: Winter, once minors may enter play (12.1)


def test_every_card_is_played_by_the_engine_or_put_to_the_referee() -> None:
    for card in DECK:
        for effect in card["effect"]:
            assert (effect["do"] in play.AUTOMATED or effect["do"] in play.TO_REFEREE
                    or effect["do"] == "referee"), f"{card['id']}: {effect['do']} is neither"
    automated = [c["id"] for c in DECK if all(e["do"] in play.AUTOMATED for e in c["effect"])]
    assert len(automated) == 54  # Famine (19.2) too, with its campaign option: famine.py
    assert "famine" not in play.TO_REFEREE


def holding(card_id: str, *, turn: int | None = None, options: dict[str, Any] | None = None,
            ) -> tuple[dict[str, Any], str]:
    """A position in a year the card is playable, its first possible player holding it."""
    card = next(c for c in DECK if c["id"] == card_id)
    faction = (card.get("playable_by") or ["red"])[0]
    years = card.get("years") or [1919]
    state = position({"red-inf-01": "Moscow", "south-inf-01": "Ekaterinodar", "siberian-inf-01": "Omsk",
                      "north-inf-01": "Archangel", "denikin": "Ekaterinodar"},
                     turn=turn or YEAR_TURN[years[0]], options=options)
    state["standing"] = standing_()
    state["cards"]["hands"][faction] = [OpenSecrets().seal("card", "c1", faction, 1, card_id)]
    return state, faction


def played(state: dict[str, Any], faction: str, card_id: str, **args: Any) -> list[dict[str, Any]]:
    plays = [{"holder": faction, "faction": faction, "card": card_id, "target": args.get("target"),
              "zone": args.get("zone")}]
    card = next(c for c in DECK if c["id"] == card_id)
    segment = card["phase"] if card["phase"] != "any" else "purchase"
    return play.play_segment(data(), state, plays, segment, OpenSecrets(), FixedRng(*[3] * 10))


def fold(state: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any]:
    for e in events:
        state = GAME.apply(data(), state, e)
    return state


@pytest.mark.parametrize("card_id", [c["id"] for c in DECK])
def test_14_6_each_card_when_played(card_id: str) -> None:
    """Every card: it is opened and leaves the hand, goes out of the game or to the
    discards (14.72), and its effects leave the events of their kind."""
    state, faction = holding(card_id, options={"czech_legion": True, "railways": True, "famine": True})
    card = next(c for c in DECK if c["id"] == card_id)
    events = played(state, faction, card_id, target="red" if faction != "red" else "south")
    assert events[0]["type"] == "card_played" and events[0]["card"] == card_id
    kinds = {e["type"] for e in events[1:]}
    for effect in card["effect"]:
        if effect["do"] in EXPECTED:
            assert kinds & EXPECTED[effect["do"]], f"{card_id}: {effect['do']} left {kinds}"
        else:
            assert "referee_decides" in kinds
    after = fold(state, events)
    assert after["cards"]["hands"][faction] == []
    assert card_id in after["cards"]["removed" if card["remove"] else "discard"]


@pytest.mark.parametrize(("card_id", "faction", "turn", "message"), [
    ("kolchak-coup", "red", 1, "kolchak-coup is playable by siberian only (14.73)"),
    ("land-decree", "red", 4, "land-decree is playable in 1918 only, not 1919 (14.74)"),
    ("railway-commissariat", "red", 1, "railway-commissariat is a card of the action phase"),
    ("typhus", "red", 1, "typhus names a faction: target:"),
    ("no-such-card", "red", 1, "no card 'no-such-card'"),
])
def test_14_73_14_74_plays_are_checked(card_id: str, faction: str, turn: int, message: str) -> None:
    state = position({}, turn=turn)
    state["phase"] = "purchase"
    found = messages(state, faction, orders({"play": {"card": card_id}}))
    assert any(message in m for m in found), found


def test_14_2_a_card_not_held_is_not_played() -> None:
    state, _ = holding("tank")
    events = played(state, "south", "latvian-riflemen")
    assert events == [{"type": "note", "zone": "", "text": "south does not hold latvian-riflemen: not played (14.1)"}]


def test_14_71_a_card_to_play_at_once_is_played_by_pbem_at_the_start_of_its_phase() -> None:
    state, faction = holding("left-sr-uprising")  # political, 1918, immediate
    events = play.play_segment(data(), state, [], "purchase", OpenSecrets(), FixedRng())
    assert events == []  # not its phase
    events = play.play_segment(data(), state, [], "political", OpenSecrets(), FixedRng(1, 1))
    assert events[0]["type"] == "card_played" and events[0]["immediate"]
    assert events[1]["type"] == "infighting" and events[1]["faction"] == "red"


def test_14_71_an_immediate_card_that_can_never_be_played_is_dead_weight() -> None:
    state = position({}, turn=4)  # 1919: Left SR uprising was 1918 only
    assert cards.dead_weight(data(), state, "red", "left-sr-uprising")


def test_15_4_the_tank_card_puts_the_faction_s_tank_in_its_pool() -> None:
    state, faction = holding("tank")
    after = fold(state, played(state, faction, "tank"))
    tanks = [u for u, p in after["units"].items() if p["faction"] == faction and p["type"] == "tank"]
    assert tanks and all(after["units"][u]["status"] == "pool" for u in tanks)


def test_19_3_czech_legion_formed_adds_the_two_set_aside_units_and_six_money() -> None:
    state, _ = holding("czech-legion-formed", options={"czech_legion": True})
    waiting = [u for u, p in state["units"].items()  # set aside at set-up (19.3)
               if p["faction"] == "siberian" and p["status"] == "removed" and p["type"] == "inf"]
    money = state["money"]["siberian"]
    after = fold(state, played(state, "siberian", "czech-legion-formed"))
    assert len(waiting) == 2 and all(after["units"][u]["status"] == "pool" for u in waiting)
    assert after["money"]["siberian"] == money + 6


def test_10_93_semenov_corruption_halves_two_dice_of_money_but_under_kolchak() -> None:
    state, _ = holding("semenov-corruption")
    state["cards"]["hands"]["siberian"] = state["cards"]["hands"].pop("red")
    money = state["money"]["siberian"]
    events = played(state, "siberian", "semenov-corruption")
    change = next(e for e in events if e["type"] == "card_resources")
    assert change["dice"] == [3, 3] and change["money"] == -3  # (3 + 3) // 2, lost
    assert fold(state, events)["money"]["siberian"] == money - 3
    state["flags"] = {"kolchak_coup": True}  # 10.93: then the loss is not halved
    events = played(state, "siberian", "semenov-corruption")
    change = next(e for e in events if e["type"] == "card_resources")
    assert change["dice"] == [3, 3] and change["money"] == -6


def test_7_6_a_rail_card_adds_movements_for_this_turn_only() -> None:
    state, _ = holding("railway-commissariat")
    b = board.board(data())
    before = movement.rail_capacity(b, state, "red")
    after = fold(state, played(state, "red", "railway-commissariat"))
    assert movement.rail_capacity(b, after, "red") == before + 2
    next_turn = GAME.apply(data(), after, {"type": "phase", "turn": after["turn"] + 1, "phase": "purchase"})
    assert movement.rail_capacity(b, next_turn, "red") == before


def test_10_6_a_new_leader_goes_to_a_zone_the_faction_controls() -> None:
    state, _ = holding("yudenich-offensive")
    events = played(state, "north", "yudenich-offensive", zone="Archangel")
    arrive = next(e for e in events if e["type"] == "leader_in")
    assert arrive["leader"] == "yudenich" and arrive["zone"] == "Archangel"
    assert fold(state, events)["units"]["yudenich"]["status"] == "map"


def test_10_6_a_random_new_leader_is_never_one_a_card_names() -> None:
    state, _ = holding("officers-rally")
    events = played(state, "siberian", "officers-rally")
    arrive = next(e for e in events if e["type"] in ("leader_in", "note"))
    assert arrive.get("leader") not in play.reserved(data())


def test_10_92_wrangel_takes_over_in_denikins_zone() -> None:
    state, _ = holding("wrangel-takes-over")
    state["units"]["denikin"].update(status="map", zone="Ekaterinodar")
    after = fold(state, played(state, "south", "wrangel-takes-over"))
    assert after["units"]["denikin"]["status"] == "gone"
    assert (after["units"]["wrangel"]["status"], after["units"]["wrangel"]["zone"]) == ("map", "Ekaterinodar")
    assert after["flags"]["wrangel_takes_over"]


def test_14_2_play_cards_auto_plays_only_cards_that_need_no_choice() -> None:
    state, _ = holding("british-supplies")  # purchase, south, 1919: money, automated
    state["cards"]["hands"]["south"].append(OpenSecrets().seal("card", "c2", "south", 1, "armoured-trains"))
    assert "armoured-trains" not in [c for c in play.reserved(data())]
    state["standing"]["south"]["play_cards"] = "auto"
    events = play.play_segment(data(), state, [], "purchase", OpenSecrets(), FixedRng(*[3] * 4))
    assert [e["card"] for e in events if e["type"] == "card_played"] == ["british-supplies"]
    events = play.play_segment(data(), state, [], "action", OpenSecrets(), FixedRng())
    assert events == []  # Armoured trains needs a battle named: never played for the player


def test_14_2_the_purchase_file_plays_at_the_start_of_each_phase() -> None:
    """A whole purchase resolution: the political card is played at the start of 4.3,
    after the purchases of 4.2."""
    state, _ = holding("land-decree")
    state.update(phase="purchase")
    body = orders({"play": {"card": "land-decree"}})
    assert messages(state, "red", body) == []
    events = GAME.resolve(data(), state, {"red": body}, FixedRng(*[3] * 40), OpenSecrets())
    kinds = [e["type"] if e["type"] != "segment" else e["rule"] for e in events]
    assert kinds.index("4.3") < kinds.index("card_played") < kinds.index("ori_change")


@pytest.mark.parametrize(("lenin", "roll", "result"), [
    ("Moscow", 2, "none"), ("Moscow", 3, "money"), ("Moscow", 5, "ori"), ("Moscow", 6, "both"),
    ("Tver", 2, "money"), ("Tver", 4, "ori"), ("Tver", 5, "both"),  # 10.8.1: +1 without Lenin
])
def test_10_8_1_the_infighting_roll(lenin: str, roll: int, result: str) -> None:
    state, _ = holding("left-sr-uprising")
    state["units"]["lenin"].update(status="map", zone=lenin)
    events = play.play_segment(data(), state, [], "political", OpenSecrets(), FixedRng(roll, 4))
    fight = next(e for e in events if e["type"] == "infighting")
    assert fight["result"] == result
    kinds = [e["type"] for e in events]
    assert ("card_resources" in kinds) == (result in ("money", "both"))
    assert ("ori_change" in kinds) == (result in ("ori", "both"))


def coup(pieces: dict[str, str], zone: str, control: dict[str, Any]) -> list[dict[str, Any]]:
    state = position(pieces, control=control)
    state["standing"] = standing_()
    state["cards"]["hands"]["red"] = [OpenSecrets().seal("card", "c1", "red", 1, "coup-de-main")]
    return played(state, "red", "coup-de-main", zone=zone)


def test_9_0_coup_de_main_takes_a_zone_without_a_siege() -> None:
    events = coup({"red-inf-01": "Tver"}, "Tver", {"Tver": "south"})
    assert events[-1] == {"type": "control", "zone": "Tver", "from": "south", "faction": "red",
                          "why": "Coup de main (9.0)"}


@pytest.mark.parametrize(("pieces", "control", "why"), [
    ({"red-inf-01": "Tver", "south-inf-01": "Tver"}, {"Tver": "south"}, "enemy land units are in Tver"),
    ({"red-inf-01": "Moscow"}, {"Tver": "south"}, "red has no land unit in Tver"),
    ({"red-inf-01": "Tver"}, {"Tver": "red"}, "Tver is not an enemy or neutral zone"),
])
def test_9_0_coup_de_main_fails(pieces: dict[str, str], control: dict[str, Any], why: str) -> None:
    events = coup(pieces, "Tver", control)
    assert events[-1]["type"] == "note" and why in events[-1]["text"]


def test_9_0_coup_de_main_needs_a_zone_and_comes_after_the_moves() -> None:
    state = position({"red-inf-01": "Moscow"}, control={"Tver": "south"})
    state["standing"] = standing_()
    assert any("needs the zone" in m for m in messages(state, "red", orders({"play": {"card": "coup-de-main"}})))
    state["cards"]["hands"]["red"] = [OpenSecrets().seal("card", "c1", "red", 1, "coup-de-main")]
    body = orders({"move": {"units": ["red-inf-01"], "to": "Tver"}},
                  {"play": {"card": "coup-de-main", "zone": "Tver"}})
    assert messages(state, "red", body) == []
    events = GAME.resolve(data(), state, {"red": body}, FixedRng(), OpenSecrets())
    kinds = [e["type"] for e in events]
    assert kinds.index("moved") < kinds.index("card_played") < kinds.index("control")


def test_15_3_cossack_raid_takes_the_richest_red_zones_in_reach_until_the_victory_phase() -> None:
    state, _ = holding("cossack-raid")
    state["cards"]["hands"]["siberian"] = state["cards"]["hands"].pop("siberian", []) or \
        [OpenSecrets().seal("card", "c1", "siberian", 1, "cossack-raid")]
    b = board.board(data())
    events = played(state, "siberian", "cossack-raid")
    raid = next(e for e in events if e["type"] == "raids")
    assert len(raid["zones"]) == 2 and all(state["control"][z] == "red" for z in raid["zones"])
    turn_rules = importlib.import_module("pbem_game_red_russia.turn")
    before = turn_rules.victory_points(b, state)["red"]
    after = fold(state, events)
    raided = sum(int(b.zones[z]["money"]) for z in raid["zones"])
    assert turn_rules.victory_points(b, after)["red"] == before - raided
    economy = importlib.import_module("pbem_game_red_russia.economy")
    assert economy.zone_yield(b, after, "red", raid["zones"][0])[2] == "Cossack raid (15.3)"
    after.update(phase="victory")
    found = GAME.resolve(data(), after, {}, FixedRng(), OpenSecrets())
    kinds = [e["type"] for e in found]
    assert kinds.index("victory_points") + 1 == kinds.index("raids_over")
    assert "raids" not in fold(after, found)


def rail_hub() -> str:
    b = board.board(data())
    return next(z for z in sorted(b.zones) if int(b.zones[z].get("rail", 0)) and b.zones[z]["territory"] == "greater_russia"
                and not b.zones[z].get("iron_cross"))


def test_14_6_armoured_trains_add_two_dice_in_the_first_round_at_a_railway_hub() -> None:
    hub = rail_hub()
    state = position({"red-inf-01": hub, "red-inf-02": hub, "south-inf-01": hub}, control={hub: "south"})
    state["standing"] = standing_()
    state["cards"]["hands"]["red"] = [OpenSecrets().seal("card", "c1", "red", 1, "armoured-trains")]
    body = orders({"attack": {"zone": hub}}, {"play": {"card": "armoured-trains", "zone": hub}})
    body["secret"] = {"spend": {hub: 3}}
    assert messages(state, "red", body) == []
    events = GAME.resolve(data(), state, {"red": body}, FixedRng(*[1] * 80), OpenSecrets())
    rounds = [e for e in events if e["type"] == "combat_round"]
    assert [g["what"] for g in rounds[0]["dice"]["atk"]] == ["units", "armoured-trains"]
    assert rounds[0]["dice"]["atk"][1]["count"] == 2
    assert "armoured-trains" not in [g["what"] for g in rounds[1]["dice"]["atk"]]  # one round


def test_14_2_a_defender_plays_stubborn_defence_by_standing_instruction() -> None:
    state = position({"red-inf-01": "Tver", "red-inf-02": "Tver", "south-inf-01": "Tver"},
                     control={"Tver": "south", "Moscow": "south"})
    state["standing"] = standing_({"south": {"battle_cards": ["stubborn-defence"]}})
    state["cards"]["hands"]["south"] = [OpenSecrets().seal("card", "c1", "south", 1, "stubborn-defence")]
    body = orders({"attack": {"zone": "Tver"}})
    body["secret"] = {"spend": {"Tver": 1}}
    # the Reds hit twice, the South misses: south-inf-01 is reduced and would retreat
    events = GAME.resolve(data(), state, {"red": body}, FixedRng(6, 6, *[1] * 60),
                          OpenSecrets())
    kinds = [e["type"] for e in events]
    assert kinds.index("card_played") < kinds.index("combat_round") < kinds.index("battle_card_used")
    after = fold(state, events)
    assert after["units"]["south-inf-01"]["zone"] == "Tver" and after["units"]["south-inf-01"]["reduced"]
    assert not [e for e in events if e["type"] == "retreat"]


def test_9_3_storming_of_perekop_silences_the_fortification() -> None:
    state = position({"red-inf-01": "Tver", "red-inf-02": "Tver"}, turn=8, control={"Tver": "south"})
    state["standing"] = standing_()
    state["cards"]["hands"]["red"] = [OpenSecrets().seal("card", "c1", "red", 1, "storming-of-perekop")]
    body = orders({"siege": {"zone": "Tver", "rounds": 1}},
                  {"play": {"card": "storming-of-perekop", "zone": "Tver"}})
    assert messages(state, "red", body) == []
    events = GAME.resolve(data(), state, {"red": body}, FixedRng(*[1] * 40), OpenSecrets())
    siege = next(e for e in events if e["type"] == "combat_round")
    assert siege["dice"]["def"] == []


def test_10_4_the_attempt_on_lenin_wounds_him() -> None:
    state, _ = holding("attempt-on-lenin")
    state["units"]["lenin"].update(status="map", zone="Moscow")
    events = played(state, "siberian", "attempt-on-lenin")
    assert events[-1]["type"] == "leader_wounded"
    after = fold(state, events)
    assert after["units"]["lenin"]["status"] == "unused"
    assert after["money"]["red"] == state["money"]["red"]  # 10.8.1: no loss while only wounded


def partisans_by(card_id: str, faction: str, zone: str | None = None,
                 placed: dict[str, str] | None = None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    state, _ = holding(card_id)
    state["cards"]["hands"] = {faction: [OpenSecrets().seal("card", "c1", faction, 1, card_id)]}
    if placed:
        state["partisans"] = dict(placed)
    return state, played(state, faction, card_id, zone=zone)


def test_15_2_the_reds_raise_partisans_in_the_richest_white_zone_or_the_one_named() -> None:
    b = board.board(data())
    state, events = partisans_by("siberian-partisans", "red")
    placed = next(e for e in events if e["type"] == "partisans_placed")
    whites = [z for z, o in state["control"].items() if o in ("siberian", "south", "north") and z in b.zones]
    assert placed["zone"] in whites
    assert int(b.zones[placed["zone"]]["money"]) == max(int(b.zones[z]["money"]) for z in whites)
    _state, events = partisans_by("siberian-partisans", "red", zone="Omsk")
    assert next(e for e in events if e["type"] == "partisans_placed")["zone"] == "Omsk"
    _state, events = partisans_by("siberian-partisans", "red", zone="Moscow")  # a Red zone: not there
    assert next(e for e in events if e["type"] == "partisans_placed")["zone"] != "Moscow"


def test_15_2_with_every_counter_in_play_one_moves() -> None:
    four = {"Kursk": "siberian", "Orel": "south", "Tula": "south", "Tver": "north"}
    state, events = partisans_by("siberian-partisans", "red", zone="Omsk", placed=four)
    placed = next(e for e in events if e["type"] == "partisans_placed")
    assert placed["from"] == "Kursk"
    after = fold(state, events)
    assert len(after["partisans"]) == 4 and "Kursk" not in after["partisans"] and after["partisans"]["Omsk"] == "red"


def test_15_2_partisans_cost_their_zone_a_point_of_money_and_manpower() -> None:
    economy = importlib.import_module("pbem_game_red_russia.economy")
    b = board.board(data())
    state = position({}, control={"Omsk": "siberian"})
    before = economy.zone_yield(b, state, "siberian", "Omsk")
    state["partisans"] = {"Omsk": "red"}
    after = economy.zone_yield(b, state, "siberian", "Omsk")
    assert (after[0], after[1]) == (max(0, before[0] - 1), max(0, before[1] - 1))
    state["partisans"] = {"Omsk": "south"}  # friendly partisans take nothing
    assert economy.zone_yield(b, state, "siberian", "Omsk") == before


def test_15_2_partisans_go_when_their_side_takes_the_zone() -> None:
    state = position({}, control={"Omsk": "siberian"})
    state["partisans"] = {"Omsk": "red"}
    kept = GAME.apply(data(), state, {"type": "control", "zone": "Omsk", "from": "siberian",
                                      "faction": "south", "why": "test"})
    assert kept["partisans"] == {"Omsk": "red"}
    gone = GAME.apply(data(), state, {"type": "control", "zone": "Omsk", "from": "siberian",
                                      "faction": "red", "why": "9.2"})
    assert gone["partisans"] == {}


def test_15_2_a_lone_partisan_is_fought_to_the_end_for_one_money() -> None:
    state = position({"siberian-inf-01": "Omsk"}, control={"Omsk": "siberian"})
    state["standing"] = standing_()
    state["partisans"] = {"Omsk": "red"}
    state.update(actor="siberian")
    body = orders({"attack": {"zone": "Omsk"}})
    body["secret"] = {"spend": {"Omsk": 5}}
    assert messages(state, "siberian", body) == []
    money = state["money"]["siberian"]
    # round 1: the Siberians miss (all ones) and so do the partisans; round 2: sixes
    n = board.board(data()).counters["siberian-inf-01"]["full"][0]
    dice = [1] * n + [1, 1] + [6] * n + [1, 1]
    events = GAME.resolve(data(), state, {"siberian": body}, FixedRng(*dice), OpenSecrets())
    rounds = [e for e in events if e["type"] == "combat_round"]
    assert len(rounds) == 2 and rounds[0]["dice"]["def"][0]["what"] == "partisans"
    after = fold(state, events)
    assert "Omsk" not in after["partisans"] and after["money"]["siberian"] == money - 1
    attack = next(e for e in events if e["type"] == "attack")
    assert (attack["spend"], attack["level"]) == (1, "probe")


def test_14_2_a_coup_de_main_after_the_battles_by_standing_instruction() -> None:
    # the Reds clear Tver (South's) in battle; their play_when takes it without a siege (9.0)
    state = position({"red-inf-01": "Tver", "red-inf-02": "Tver", "south-inf-01": "Tver"},
                     control={"Tver": "south"})
    state["standing"] = standing_({"red": {"play_when": [
        {"card": "coup-de-main", "when": "after_battles", "zone": "Tver"}]}})
    state["cards"]["hands"]["red"] = [OpenSecrets().seal("card", "c1", "red", 1, "coup-de-main")]
    body = orders({"attack": {"zone": "Tver"}})
    body["secret"] = {"spend": {"Tver": 3}}
    assert messages(state, "red", body) == []
    events = GAME.resolve(data(), state, {"red": body}, FixedRng(*[6] * 10, *[1] * 60), OpenSecrets())
    kinds = [e["type"] for e in events]
    assert kinds.index("battle_over") < kinds.index("card_played")
    assert fold(state, events)["control"]["Tver"] == "red"


def test_14_2_a_coup_de_main_that_would_do_nothing_stays_in_the_hand() -> None:
    state = position({"red-inf-01": "Tver", "south-inf-01": "Tver"}, control={"Tver": "south"})
    state["standing"] = standing_({"red": {"play_when": [
        {"card": "coup-de-main", "when": "after_battles", "zone": "Tver"}]}})
    state["cards"]["hands"]["red"] = [OpenSecrets().seal("card", "c1", "red", 1, "coup-de-main")]
    body = orders({"attack": {"zone": "Tver"}})
    body["secret"] = {"spend": {"Tver": 1}}
    events = GAME.resolve(data(), state, {"red": body}, FixedRng(*[1] * 60), OpenSecrets())
    assert not [e for e in events if e["type"] == "card_played"]  # the South still holds Tver


def test_14_2_a_cossack_raid_at_the_start_of_the_reds_action_phase() -> None:
    state = position({"red-inf-01": "Moscow", "south-inf-01": "Rostov"}, turn=5, actor="red",
                     control={"Rostov": "south", "Voronezh": "red"})
    state["standing"] = standing_({"south": {"play_when": [
        {"card": "cossack-raid", "when": "phase_start", "of": "red", "zone": "Voronezh"}]}})
    state["cards"]["hands"]["south"] = [OpenSecrets().seal("card", "c1", "south", 1, "cossack-raid")]
    events = GAME.resolve(data(), state, {"red": orders()}, FixedRng(*[1] * 20), OpenSecrets())
    raid = next(e for e in events if e["type"] == "raids")
    assert raid["faction"] == "south" and "Voronezh" in raid["zones"]
    # not in another faction's phase
    state["standing"]["south"]["play_when"][0]["of"] = "siberian"
    events = GAME.resolve(data(), state, {"red": orders()}, FixedRng(*[1] * 20), OpenSecrets())
    assert not [e for e in events if e["type"] == "raids"]


@pytest.mark.parametrize(("entry", "expected"), [
    ({"card": "tank", "when": "phase_start"}, "only action-phase cards"),
    ({"card": "coup-de-main", "when": "later", "zone": "Tver"}, "when is one of"),
    ({"card": "coup-de-main", "when": "after_moves"}, "needs a zone"),
    ({"card": "coup-de-main", "when": "after_moves", "zone": "Tverr"}, "unknown zone"),
    ({"card": "coup-de-mian", "when": "after_moves", "zone": "Tver"}, "unknown card"),
])
def test_14_2_play_when_is_checked(entry: dict[str, Any], expected: str) -> None:
    state = position({"red-inf-01": "Moscow"})
    got = messages(state, "red", orders(standing={"play_when": [entry]}))
    assert any(expected in m for m in got), got


@pytest.mark.parametrize(("turn", "played_now"), [(2, False), (3, True)])
def test_14_2_pbem_plays_no_card_for_a_player_that_would_do_nothing(turn: int, played_now: bool) -> None:
    """README ruling 63: `play_cards: auto` keeps a card whose every effect is void now (a
    minor faction before the third turn, 12.1) in the hand, and plays it once it acts."""
    state, faction = holding("ukrainian-directorate", turn=turn)
    assert faction == "siberian"
    state["standing"][faction]["play_cards"] = "auto"
    events = play.play_segment(data(), state, [], "political", OpenSecrets(), FixedRng(*[3] * 10))
    assert [e["card"] for e in events if e["type"] == "card_played"] == (
        ["ukrainian-directorate"] if played_now else [])
    if played_now:
        assert any(e["type"] == "minor_status" and e["minor"] == "ukraine" for e in events)
    else:
        assert fold(state, events)["cards"]["hands"][faction] == state["cards"]["hands"][faction]
