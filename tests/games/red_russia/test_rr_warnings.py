"""Red Russia: legal orders that will do nothing, which `pbem check` warns of (rules/wasted.py).

A rule table: a position, a legal orders file, the exact warnings. Each card case is also
played, to hold the warning to what resolution does (the same condition functions), on
both sides of each threshold: warned, the card leaves only notes; not warned, it acts.
"""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from position import GAME, FixedRng, OpenSecrets, data, messages, orders, position
from position import standing as standing_

play = importlib.import_module("pbem_game_red_russia.play")

DECK = {c["id"]: c for c in data()["cards"]["cards"]}
WASTED = "; played now, the card is spent for nothing"


def warnings(state: dict[str, Any], faction: str, body: dict[str, Any]) -> list[tuple[Any, str]]:
    """The warnings on a file the rules accept (asserted: pbem asks only then)."""
    assert messages(state, faction, body) == []
    return [(p.path, p.message) for p in GAME.warnings(data(), state, faction, body)]


def purchase(turn: int, pieces: dict[str, str] | None = None) -> dict[str, Any]:
    """The purchase phase of `turn` (4.1-4.3: the file that plays the cards of the card,
    purchase, political and initiative phases)."""
    state = position(pieces or {"south-inf-01": "Ekaterinodar", "red-inf-02": "Moscow"}, turn=turn)
    state["phase"] = "purchase"
    state["standing"] = standing_()
    return state


def resolved(state: dict[str, Any], faction: str, card_id: str, **args: Any) -> list[dict[str, Any]]:
    """The card played from `faction`'s hand at the start of its phase: the events after
    `card_played`."""
    state["cards"]["hands"][faction] = [OpenSecrets().seal("card", "c1", faction, 1, card_id)]
    card = DECK[card_id]
    segment = card["phase"] if card["phase"] != "any" else "purchase"
    plays = [{"holder": faction, "faction": faction, "card": card_id, "target": args.get("target"),
              "zone": args.get("zone")}]
    events = play.play_segment(data(), state, plays, segment, OpenSecrets(), FixedRng(*[3] * 10))
    assert events[0]["type"] == "card_played"
    return events[1:]


# ---------------------------------------------------------------------------------------
# 12.1 the testers' case: minor factions by card before the third turn


MINOR_CARDS = ("ukrainian-directorate", "estonian-war-of-independence")


@pytest.mark.parametrize("card_id", MINOR_CARDS)
def test_12_1_a_minor_card_before_the_third_turn_is_warned_and_does_nothing(card_id: str) -> None:
    state = purchase(2)
    assert warnings(state, "south", orders({"play": {"card": card_id}})) == [
        (("orders", 0, "play", "card"), f"{card_id} will have no effect: no minor faction enters "
         f"play before the third turn (12.1){WASTED}")]
    assert resolved(state, "south", card_id) == [
        {"type": "note", "zone": "", "text": f"{card_id} (14.6): no effect, no minor faction "
         "enters play before the third turn (12.1)"}]


@pytest.mark.parametrize("card_id", MINOR_CARDS)
def test_12_1_in_the_third_turn_the_same_card_is_not_warned_and_acts(card_id: str) -> None:
    state = purchase(3)
    assert warnings(state, "south", orders({"play": {"card": card_id}})) == []
    events = resolved(state, "south", card_id)
    assert [e["type"] for e in events] == ["minor_status"] and events[0]["controller"] == "south"


def test_12_1_both_cards_of_the_issue_in_one_file_each_at_its_line() -> None:
    body = orders(*({"play": {"card": c}} for c in MINOR_CARDS))
    assert [path for path, _ in warnings(purchase(2), "north", body)] == [
        ("orders", 0, "play", "card"), ("orders", 1, "play", "card")]


def test_12_1_a_card_that_makes_a_minor_neutral_acts_before_the_third_turn() -> None:
    """Petliura's pogroms (1919) would do; in 1918 Curzon (1919+) cannot be played: a
    neutral status is no entry into play, so the minor rule is no reason to warn."""
    state = purchase(2)
    assert play.minor_refused(state, {"do": "minor", "minor": "ukraine", "status": "neutral"}) is None
    assert play.minor_refused(state, {"do": "minor", "minor": "ukraine", "status": "limited"}) == (
        "no minor faction enters play before the third turn (12.1)")


def test_13_54_poland_played_as_a_major_faction_takes_no_minor_card() -> None:
    state = purchase(8)  # 1920, the Kiev offensive's year
    state["flags"]["poland_major"] = "north"
    body = orders({"play": {"card": "kiev-offensive"}})
    assert warnings(state, "south", body) == [
        (("orders", 0, "play", "card"), "kiev-offensive will have no effect: Poland is played as "
         f"a major faction (13.54){WASTED}")]
    assert [e["type"] for e in resolved(state, "south", "kiev-offensive")] == ["note"]
    state["flags"]["poland_major"] = False  # 13.54 Poland eliminated again: a minor once more
    assert warnings(state, "south", body) == []


# ---------------------------------------------------------------------------------------
# other cards whose effect is void when they are played


def test_10_93_semenov_corruption_after_the_kolchak_coup_is_no_waste() -> None:
    # "if the Siberian player is targeted by the Semenov corruption card while Kolchak is
    # named supreme ruler, the money loss roll is not halved" (10.93): the card still acts
    state = purchase(4)
    body = orders({"play": {"card": "semenov-corruption"}})
    assert warnings(state, "red", body) == []
    state["flags"]["kolchak_coup"] = "siberian"
    assert warnings(state, "red", body) == []
    assert "card_resources" in [e["type"] for e in resolved(state, "red", "semenov-corruption")]


def test_10_4_an_attempt_on_a_dead_lenin() -> None:
    """Lenin dead never comes back; wounded (unused) he may, by a new-leader card played
    before this initiative card (10.6): no warning then."""
    state = purchase(2, {"lenin": "Moscow", "south-inf-01": "Ekaterinodar"})
    body = orders({"play": {"card": "attempt-on-lenin"}})
    assert warnings(state, "south", body) == []
    state["units"]["lenin"].update(status="unused", zone=None)
    assert warnings(state, "south", body) == []
    state["units"]["lenin"].update(status="dead", zone=None)
    assert warnings(state, "south", body) == [
        (("orders", 0, "play", "card"), "attempt-on-lenin will have no effect: lenin is dead, not "
         f"on the map (10.4){WASTED}")]
    assert [e["type"] for e in resolved(state, "south", "attempt-on-lenin")] == ["note"]


def test_10_6_a_named_leader_already_on_the_map() -> None:
    state = purchase(4, {"north-inf-01": "Archangel"})
    body = orders({"play": {"card": "yudenich-offensive"}})
    assert state["units"]["yudenich"]["status"] == "unused"
    assert warnings(state, "north", body) == []
    state["units"]["yudenich"].update(status="map", zone="Archangel")
    assert warnings(state, "north", body) == [
        (("orders", 0, "play", "card"), "yudenich-offensive will have no effect: yudenich is not "
         f"among the unused leaders (10.6){WASTED}")]
    assert [e["type"] for e in resolved(state, "north", "yudenich-offensive")] == ["note"]


def test_10_6_no_unused_leader_to_draw() -> None:
    state = purchase(4)
    body = orders({"play": {"card": "officers-rally"}})
    assert warnings(state, "south", body) == []
    for uid in play.unused_leaders(data(), state, "south"):
        state["units"][uid].update(status="dead")
    assert warnings(state, "south", body) == [
        (("orders", 0, "play", "card"), "officers-rally will have no effect: south has no unused "
         f"leader (10.6){WASTED}")]
    assert [e["type"] for e in resolved(state, "south", "officers-rally")] == ["note"]


def test_10_6_the_reds_new_leader_is_not_warned_while_a_card_may_wound_lenin() -> None:
    """Attempt on Lenin's life sends him to the unused leaders (10.4): the Red commanders'
    card may find him there, so an empty box now is no certainty."""
    state = purchase(4)
    for uid in play.unused_leaders(data(), state, "red"):
        state["units"][uid].update(status="dead")
    assert warnings(state, "red", orders({"play": {"card": "red-commanders"}})) == []


def test_15_4_the_tank_card_with_no_tank_waiting() -> None:
    state = purchase(4)
    body = orders({"play": {"card": "tank"}})
    assert warnings(state, "south", body) == []
    for uid in play.waiting_tanks(data(), state, "south"):
        state["units"][uid]["status"] = "pool"
    assert warnings(state, "south", body) == [
        (("orders", 0, "play", "card"), "tank will have no effect: south has no tank waiting for "
         f"the card (15.4){WASTED}")]
    assert [e["type"] for e in resolved(state, "south", "tank")] == ["note"]


def test_20_4_no_counter_set_aside_for_the_card() -> None:
    state = purchase(2)
    body = orders({"play": {"card": "latvian-riflemen"}})
    assert warnings(state, "red", body) == []
    spec = DECK["latvian-riflemen"]["effect"][0]["units"]
    for uid in play.set_aside(data(), state, "red", spec):
        state["units"][uid]["status"] = "gone"
    assert warnings(state, "red", body) == [
        (("orders", 0, "play", "card"), "latvian-riflemen will have no effect: no counter of red "
         f"is set aside for this card (20.4){WASTED}")]
    assert [e["type"] for e in resolved(state, "red", "latvian-riflemen")] == ["note"]


def test_a_card_that_still_does_something_is_not_warned() -> None:
    """The Czech Legion's money comes without its counters (19.3)."""
    state = purchase(1, {"siberian-inf-01": "Omsk"})
    spec = DECK["czech-legion-formed"]["effect"][0]["units"]
    for uid in play.set_aside(data(), state, "siberian", spec):
        state["units"][uid]["status"] = "gone"
    state["options"]["czech_legion"] = True
    assert warnings(state, "siberian", orders({"play": {"card": "czech-legion-formed"}})) == []


# ---------------------------------------------------------------------------------------
# the action phase: moves, and the cards played once they are made


ACTION = {"red-inf-01": "Moscow", "red-inf-02": "Moscow", "trotsky": "Moscow"}
TULA = {"Moscow": "red", "Tula": "south", "Orel": "south"}


def action(pieces: dict[str, str] | None = None, actor: str = "red",
           control: dict[str, str | None] | None = None) -> dict[str, Any]:
    state = position({**ACTION, **(pieces or {})}, actor=actor, control=control or TULA)
    state["standing"] = standing_()
    return state


def test_7_1_a_move_to_where_the_units_are() -> None:
    body = orders({"move": {"units": ["red-inf-01"], "to": "Moscow"}},
                  {"move": {"units": ["red-inf-02"], "to": "Moskva", "rail": True}},
                  {"move": {"units": ["trotsky"], "to": "Tula"}})
    assert warnings(action(), "red", body) == [
        (("orders", 0, "move", "to"), "this move ends where it began: its units are in Moscow "
         "already, so they do not move (7.1)"),
        (("orders", 1, "move", "to"), "this move ends where it began: its units are in Moskva "
         "already, so they do not move (7.1); it would use a rail movement too (7.6)")]


def test_7_1_a_move_that_goes_out_and_comes_back_is_not_warned() -> None:
    """It passes a zone (10.5: a lone enemy leader there may be caught on the way)."""
    body = orders({"move": {"units": ["red-inf-01", "trotsky"], "to": "Moscow", "via": ["Ryazan"]}})
    assert warnings(action(control={"Moscow": "red", "Ryazan": "red"}), "red", body) == []


def test_7_1_a_move_back_to_where_an_earlier_order_took_the_units_from() -> None:
    body = orders({"move": {"units": ["trotsky"], "to": "Ryazan"}},
                  {"move": {"units": ["trotsky"], "to": "Ryazan"}})
    assert warnings(action(control={"Moscow": "red", "Ryazan": "red"}), "red", body) == [
        (("orders", 1, "move", "to"), "this move ends where it began: its units are in Ryazan "
         "already, so they do not move (7.1)")]


def test_9_0_a_coup_de_main_on_the_players_own_zone() -> None:
    body = orders({"play": {"card": "coup-de-main", "zone": "Moscow"}})
    assert warnings(action(), "red", body) == [
        (("orders", 0, "play", "card"), "coup-de-main will have no effect: Moscow is not an enemy "
         f"or neutral zone (9.0){WASTED}")]


def test_9_0_a_coup_de_main_where_no_unit_of_the_player_will_be() -> None:
    body = orders({"play": {"card": "coup-de-main", "zone": "Tula"}})
    assert warnings(action(), "red", body) == [
        (("orders", 0, "play", "card"), "coup-de-main will have no effect: red has no land unit in "
         f"Tula (9.0){WASTED}")]


def test_9_0_a_coup_de_main_after_the_moves_that_reach_its_zone_is_not_warned() -> None:
    body = orders({"move": {"units": ["red-inf-01"], "to": "Tula"}},
                  {"play": {"card": "coup-de-main", "zone": "Tula"}})
    assert warnings(action(), "red", body) == []


def test_9_0_a_zone_a_move_only_passes_may_still_hold_the_units_after_the_dice() -> None:
    """8.92 a transport met at sea turns back to a port on its path: no certainty, no
    warning (here the path runs on through Tula to Orel)."""
    body = orders({"move": {"units": ["red-inf-01", "trotsky"], "to": "Orel", "via": ["Tula"]}},
                  {"play": {"card": "coup-de-main", "zone": "Tula"}})
    assert warnings(action(), "red", body) == []


def test_9_0_a_coup_de_main_where_enemy_land_units_stay() -> None:
    body = orders({"move": {"units": ["red-inf-01"], "to": "Tula"}},
                  {"play": {"card": "coup-de-main", "zone": "Tula"}})
    assert warnings(action({"south-inf-01": "Tula"}), "red", body) == [
        (("orders", 1, "play", "card"), "coup-de-main will have no effect: enemy land units are in "
         f"Tula (9.0){WASTED}")]
    # 8.93 an aircraft alone retreats from the force that enters: the coup may yet succeed
    assert warnings(action({"south-air-01": "Tula"}), "red", body) == []


def test_2_1_armoured_trains_on_a_zone_without_a_railway_hub() -> None:
    body = orders({"move": {"units": ["red-inf-01"], "to": "Tula"}},
                  {"attack": {"zone": "Tula"}},
                  {"play": {"card": "armoured-trains", "zone": "Tula"}})
    body["secret"] = {"spend": {"Tula": 1}}
    assert warnings(action({"south-inf-01": "Tula"}), "red", body) == [
        (("orders", 2, "play", "card"), "armoured-trains will have no effect: no railway hub in "
         f"Tula (2.1){WASTED}")]


def test_14_6_a_battle_card_where_the_file_fights_no_battle() -> None:
    state = action({"south-inf-01": "Moscow"})
    body = orders({"play": {"card": "stubborn-defence", "zone": "Tula"}},
                  {"attack": {"zone": "Moscow"}})
    body["secret"] = {"spend": {"Moscow": 1}}
    assert warnings(state, "red", body) == [
        (("orders", 0, "play", "card"), "stubborn-defence will have no effect: these orders neither "
         "attack nor besiege Tula, and a battle card lasts only the action phase it is played in "
         f"(14.6){WASTED}")]
    body["orders"][0]["play"]["zone"] = "Moscow"
    assert warnings(state, "red", body) == []


def test_15_3_a_cossack_raid_with_no_red_zone_in_reach() -> None:
    state = action({"south-inf-01": "Ekaterinodar"}, actor="south")
    body = orders({"play": {"card": "cossack-raid"}})
    assert warnings(state, "south", body) == []
    state["control"] = {z: None if owner == "red" else owner for z, owner in state["control"].items()}
    assert warnings(state, "south", body) == [
        (("orders", 0, "play", "card"), "cossack-raid will have no effect: no Red zone within "
         f"reach (15.3){WASTED}")]
    assert [e["type"] for e in resolved(state, "south", "cossack-raid")] == ["note"]


# ---------------------------------------------------------------------------------------
# check and resolution never disagree


@pytest.mark.parametrize("turn", [1, 2, 3, 4, 8])
def test_a_warned_card_never_does_anything_when_played(turn: int) -> None:
    """Every card of the purchase file, in a bare position of each year: when one is
    warned of, playing it leaves nothing but notes."""
    warned = 0
    for card_id, spec in DECK.items():
        if spec["phase"] == "action" or spec["immediate"]:
            continue
        faction = (spec.get("playable_by") or ["red"])[0]
        state = purchase(turn, {"red-inf-02": "Moscow", "south-inf-01": "Ekaterinodar",
                                "siberian-inf-01": "Omsk", "north-inf-01": "Archangel"})
        state["options"].update(czech_legion=True, railways=True, famine=True)
        target = {"target": "red" if faction != "red" else "south"}
        body = orders({"play": {"card": card_id, **target}})
        if messages(state, faction, body):
            continue  # not playable now (14.73, 14.74): refused, not warned
        if warnings(state, faction, body):
            warned += 1
            assert {e["type"] for e in resolved(state, faction, card_id, **target)} == {"note"}, card_id
    assert warned >= (2 if turn < 3 else 0)
