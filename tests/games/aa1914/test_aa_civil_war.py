"""The Russian revolution and the CIVIL WAR house rule as rule tables
(games/aa1914/rules/civil_war.py, ../shared/rules/aa1914-russian-civil-war.txt): the check
logged and the income collected while the trigger is not met; met, the income skipped and
every step of the revolution in one position (the exact position after); the Soviet power
seated and playing after the USA; the treaty of Brest-Litovsk; each ban refused with its
message beside the legal move; Imperial Russia without Moscow; Moscow retaken, the Soviet
bank taken and the Allies' Russian territories reverting, the Soviets still in play; the
victory checks. In-process, without git. The campaign by the command line is the last test.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from aa_play import of, refused
from fixed_rng import FixedRng

from pbem import yamlio
from pbem.campaign import Campaign
from pbem.dice import KeyedRng
from pbem.game import GameData, State, get_game, load_data
from tests.conftest import Result, key_of

GAME = get_game("aa1914")
civil_war = importlib.import_module("pbem_game_aa1914.civil_war")
turns = importlib.import_module("pbem_game_aa1914.turns")
economy = importlib.import_module("pbem_game_aa1914.economy")

Units = dict[str, dict[str, dict[str, int]]]
ORDER = ["austria_hungary", "russia", "germany", "france", "britain", "ottomans", "italy", "usa"]


def data() -> GameData:
    return load_data("aa1914")


def position(units: Units, control: dict[str, str] | None = None, contested: tuple[str, ...] = (),
             turn: int = 4, power: str = "russia", option: str = "civil_war",
             host: str = "germany") -> State:
    """Round `turn`, `power`'s turn, the campaign playing `option`; only `units` on the map."""
    state = GAME.setup(data(), {"revolution": option, "soviets_player": host}, KeyedRng(b"\x02" * 32))
    state.update(power=power, turn=turn, units=units, at_war=list(state["order"]))
    state["control"].update(control or {})
    state["contested"] = sorted(contested)
    return state


def play(state: State, *items: dict[str, Any], standing: dict[str, Any] | None = None,
         dice: tuple[int, ...] = ()) -> tuple[list[dict[str, Any]], State]:
    """The turn of the power whose turn it is, checked and resolved, its events folded."""
    orders: dict[str, Any] = {"orders": list(items)}
    if standing is not None:
        orders["standing"] = standing
    assert GAME.validate(data(), state, state["power"], orders) == []
    rng = FixedRng(*dice)
    events = GAME.resolve(data(), state, {state["power"]: orders}, rng)
    assert rng.values == [], "every die fed was rolled"
    after = state
    for e in events:
        after = GAME.apply(data(), after, e)
    return events, after


def told(events: list[dict[str, Any]], kind: str) -> list[str]:
    return [GAME.summary(data(), e) for e in of(events, kind)]


def move(frm: str, to: str, units: dict[str, int], **via: list[str]) -> dict[str, Any]:
    return {"move": {"from": frm, "to": to, "units": units, **via}}


def here(state: State, place: str) -> dict[str, dict[str, int]]:
    return {o: u for o, u in state["units"].get(place, {}).items() if any(u.values())}


# Every step arises: the trigger met (Germany holds Karelia and Livonia, Austria-Hungary
# Tatarstan: three next to Moscow; the Ottomans Sevastopol: another), Russia's units in
# Moscow with a standing instruction, Britain's fighter without one, Russia's infantry in
# Kazakhstan with nowhere to go, the Central Powers' units in Karelia and Tatarstan, and the
# four cases of Brest-Litovsk (held: Livonia, Ukraine, Sevastopol; contested: Poland;
# defended: Belarus; ceded: Finland).
UNITS: Units = {
    "moscow": {"russia": {"infantry": 2, "artillery": 1}, "britain": {"fighter": 1}},  # 1
    "belarus": {"russia": {"infantry": 3}},
    "ukraine": {"russia": {"infantry": 1}, "austria_hungary": {"infantry": 2}},
    "karelia": {"germany": {"infantry": 1}},                                           # 2
    "tatarstan": {"austria_hungary": {"infantry": 1}},                                 # 2
    "kazakhstan": {"russia": {"infantry": 1}},                                         # 1
    "sevastopol": {"ottomans": {"infantry": 1}},
    "poland": {"russia": {"infantry": 2}, "germany": {"infantry": 2},
               "austria_hungary": {"infantry": 1}},
    "sz12": {"russia": {"battleship": 1}},                                             # 4
}
CONTROL = {"ukraine": "austria_hungary", "livonia": "germany", "karelia": "germany",
           "tatarstan": "austria_hungary", "sevastopol": "ottomans"}
CONTESTED = ("poland", "ukraine")


def revolution(host: str = "germany") -> tuple[list[dict[str, Any]], State]:
    s = position(UNITS, CONTROL, CONTESTED, host=host)
    return play(s, standing={"evacuation": {"moscow": "ukraine"}})


# ---------------------------------------------------------------------------------------
# the option, the check, the income


def test_civil_war_step_3_the_option_and_the_seat_before_the_revolution() -> None:
    s = position(UNITS, CONTROL, CONTESTED, host="ottomans")
    assert s["options"] == {"revolution": "civil_war", "soviets_player": "ottomans",
                            "capital_income": "collect"}
    assert GAME.seating(data(), s) == {}
    assert GAME.view(data(), s, "public")["revolution"] == (
        "civil war: checked at the end of each Russia mobilization from round 4; then Soviet "
        "Russia enters, played by the player of Ottoman Empire")
    assert GAME.phase(data(), s).prompt.endswith(
        "; civil war: checked at the end of each Russia mobilization from round 4; then Soviet "
        "Russia enters, played by the player of Ottoman Empire")
    assert GAME.check_data(data()) == []


def test_civil_war_check_not_met_is_logged_and_the_income_collected() -> None:
    s = position(UNITS, {**CONTROL, "sevastopol": "russia"}, CONTESTED)  # no "other" territory
    events, after = play(s)
    (check,) = of(events, "revolution_check")
    assert (check["met"], check["then"], check["others"]) == (False, "civil_war", [])
    assert told(events, "revolution_check")[0].startswith(
        "the revolution in Russia, checked at the end of its round-4 mobilization: not met.")
    assert of(events, "income") == [{"type": "income", "power": "russia", "ipc": 14,
                                     "contested": ["poland"]}]
    assert not of(events, "civil_war") and after["revolution"]["status"] == "waiting"
    assert after["order"] == ORDER and "soviets" not in after["treasury"]


@pytest.mark.parametrize(("turn", "power", "option", "checked"), [
    (3, "russia", "civil_war", False),  # before round 4
    (4, "russia", "civil_war", True),
    (4, "russia", "none", False),
    (4, "austria_hungary", "civil_war", False),  # only Russia's turn
])
def test_civil_war_check_comes_after_russian_mobilizations_from_round_4(
        turn: int, power: str, option: str, checked: bool) -> None:
    events, after = play(position(UNITS, CONTROL, CONTESTED, turn=turn, power=power, option=option))
    assert len(of(events, "revolution_check")) == int(checked)
    assert (after["revolution"]["status"] == "civil_war") is checked
    assert len(of(events, "income")) == int(not checked)  # the revolution skips the income


def test_the_armistice_campaign_has_no_civil_war() -> None:
    events, after = play(position(UNITS, CONTROL, CONTESTED, option="armistice"))
    assert of(events, "armistice_offer") and not of(events, "civil_war")
    assert "revolution_check" in [e["type"] for e in events]
    assert after["revolution"]["status"] == "armistice" and "soviets" not in after["order"]


# ---------------------------------------------------------------------------------------
# the revolution, every step in one position


def test_civil_war_steps_1_to_6_the_revolution_skips_the_income_and_takes_every_step() -> None:
    events, _ = revolution()
    kinds = [e["type"] for e in events]
    assert kinds == ["standing", "revolution_check", "civil_war", *["civil_war_retreat"] * 5,
                     "civil_war_control", "soviets_enter", *["soviets_placed"] * 4,
                     *["brest_litovsk"] * 6, "next"]
    assert "income" not in kinds and "mobilized" not in kinds
    assert of(events, "civil_war") == [{
        "type": "civil_war", "power": "russia", "round": 4, "skipped_income": 11, "kept": 25,
        "soviets": "soviets", "played_by": "germany", "homes": ["moscow", "karelia", "kazakhstan"]}]
    assert [(e["step"], e["where"], e["power"], e["to"], e["how"])
            for e in of(events, "civil_war_retreat")] == [
        ("1", "moscow", "russia", "ukraine", "standing"),
        ("1", "moscow", "britain", "belarus", "default"),  # more Allied units there than in Ukraine
        ("1", "kazakhstan", "russia", None, "removed"),  # Tatarstan is still Austria-Hungary's
        ("2", "karelia", "germany", "livonia", "default"),
        ("2", "tatarstan", "austria_hungary", "ukraine", "default"),  # more CP units than Sevastopol
    ]
    assert of(events, "civil_war_control") == [{"type": "civil_war_control", "step": "2",
                                                "where": "tatarstan", "power": "russia",
                                                "was": "austria_hungary"}]
    assert [(e["where"], e["was"], e["power"], e["case"], e["contested"])
            for e in of(events, "brest_litovsk")] == [
        ("livonia", "germany", "germany", "held", False),
        ("poland", "russia", "germany", "contested", True),  # Germany: 2 units against 1
        ("belarus", "russia", "russia", "defended", False),
        ("ukraine", "austria_hungary", "austria_hungary", "held", True),
        ("finland", "russia", "germany", "ceded", False),  # game.yaml ceded_to
        ("sevastopol", "ottomans", "ottomans", "held", False),
    ]
    assert events[-1] == {"type": "next", "power": "germany", "turn": 4}
    lines = [GAME.summary(data(), e) for e in events[2:-1]]
    assert lines[0] == ("the revolution in Russia: the civil war begins; Russia collects no "
                        "income this turn (11 IPC skipped) and keeps the 25 IPC in its treasury "
                        "(step 6)")
    assert lines[1:4] == [
        "the revolution (step 1): Russia's units in Moscow (2 infantry, 1 artillery) retreat to "
        "Ukraine by its standing instruction",
        "the revolution (step 1): Britain's units in Moscow (1 fighter) retreat to Belarus (no "
        "standing instruction: the default)",
        "the revolution (step 1): Russia's units in Kazakhstan (1 infantry) have nowhere to "
        "retreat and are removed"]
    assert "the revolution (steps 3 and 5): Soviet Russia enters the war with 9 IPC, played by " \
           "the player of Germany; its turn follows USA's" in lines
    assert "the treaty of Brest-Litovsk: Poland ceded to Germany; still contested, the Imperial " \
           "forces there remain in combat" in lines
    assert "the treaty of Brest-Litovsk: Belarus stays with Russia until taken (Allied forces " \
           "stand there)" in lines
    assert told(events, "civil_war_control") == [
        "the revolution (step 2): the Central Powers' units and control marker are out of "
        "Tatarstan: it is held by Russia, uncontested"]
    assert told(events, "standing") == [
        "Russia loses units in this order: infantry, artillery, tank, fighter; at sea: "
        "battleship, submarine, cruiser, damaged_battleship, transport; at the revolution its "
        "units retreat from Moscow to Ukraine"]


def test_civil_war_steps_1_to_6_the_position_after_the_revolution() -> None:
    _, after = revolution()
    units = {place: here(after, place) for place in after["units"] if here(after, place)}
    assert units == {
        "moscow": {"soviets": {"infantry": 3, "artillery": 1}},
        "belarus": {"russia": {"infantry": 3}, "britain": {"fighter": 1}},
        "ukraine": {"russia": {"infantry": 3, "artillery": 1}, "austria_hungary": {"infantry": 3}},
        "karelia": {"soviets": {"infantry": 3, "artillery": 1}},
        "livonia": {"germany": {"infantry": 1}},
        "kazakhstan": {"soviets": {"infantry": 2}},
        "sevastopol": {"ottomans": {"infantry": 1}},
        "poland": {"russia": {"infantry": 2}, "germany": {"infantry": 2},
                   "austria_hungary": {"infantry": 1}},
        "sz12": {"russia": {"battleship": 1}, "soviets": {"cruiser": 1}},  # no battle, no mines
    }
    places = ["moscow", "karelia", "kazakhstan", "tatarstan", "belarus", "ukraine", "livonia",
              "poland", "finland", "sevastopol"]
    assert {t: after["control"][t] for t in places} == {
        "moscow": "soviets", "karelia": "soviets", "kazakhstan": "soviets", "tatarstan": "russia",
        "belarus": "russia", "ukraine": "austria_hungary", "livonia": "germany",
        "poland": "germany", "finland": "germany", "sevastopol": "ottomans"}
    assert after["contested"] == ["poland", "ukraine"]
    assert after["order"] == [*ORDER, "soviets"]
    assert "soviets" in after["at_war"]
    assert (after["treasury"]["russia"], after["treasury"]["soviets"]) == (25, 9)  # 6, 5
    assert after["revolution"] == {
        "status": "civil_war", "power": "russia", "round": 4, "garrisons": [], "closed": [],
        "must_leave": [], "soviets": "soviets", "played_by": "germany",
        "homes": ["moscow", "karelia", "kazakhstan"]}
    assert GAME.seating(data(), after) == {"soviets": "germany"}
    assert GAME.view(data(), after, "public")["revolution"] == (
        "civil war since round 4: Soviet Russia plays after the USA, played by the player of Germany")
    assert {"power": "Soviet Russia", "side": "central", "at war": True, "IPC": 9, "income": 9,
            "territories": 3} in GAME.view(data(), after, "public")["powers"]


@pytest.mark.parametrize("host", ["germany", "austria_hungary", "ottomans"])
def test_civil_war_step_3_the_soviets_go_to_the_player_the_campaign_names(host: str) -> None:
    events, after = revolution(host)
    assert of(events, "soviets_enter")[0]["played_by"] == host
    assert GAME.seating(data(), after) == {"soviets": host}


@pytest.mark.parametrize(("capital_held", "to", "how"), [
    (True, "vienna", "capital"),
    (False, None, "removed"),  # a ruling: a capital lost, the units are removed
])
def test_civil_war_step_2_sends_units_with_no_retreat_to_their_capital(
        capital_held: bool, to: str | None, how: str) -> None:
    # Austria-Hungary's infantry in Kazakhstan: Tatarstan is Russia's, Moscow evacuated (the
    # trigger met with Belarus German instead of Tatarstan)
    units = {**UNITS, "tatarstan": {}, "belarus": {}, "kazakhstan": {"austria_hungary": {"infantry": 1}}}
    control = {**CONTROL, "tatarstan": "russia", "belarus": "germany", "kazakhstan": "austria_hungary",
               "vienna": "austria_hungary" if capital_held else "russia"}
    events, after = play(position(units, control, CONTESTED))
    (retreat,) = [e for e in of(events, "civil_war_retreat") if e["where"] == "kazakhstan"]
    assert (retreat["to"], retreat["how"]) == (to, how)
    assert here(after, "vienna") == ({"austria_hungary": {"infantry": 1}} if capital_held else {})
    if capital_held:
        assert GAME.summary(data(), retreat) == (
            "the revolution (step 2): Austria-Hungary's units in Kazakhstan (1 infantry) have no "
            "territory next to it to retreat to and go to Vienna, their capital")


def test_civil_war_step_1_a_standing_destination_that_is_no_refuge_then_gives_way_to_the_default() -> None:
    # Russia asks for Belarus, held by Germany when the revolution comes: the default instead
    s = position(UNITS, {**CONTROL, "belarus": "germany"}, CONTESTED)
    s["units"] = {**UNITS, "belarus": {}}
    s["standing"] = {"russia": {"evacuation": {"moscow": "belarus"}}}
    events, _ = play(s)
    first = of(events, "civil_war_retreat")[0]
    assert (first["where"], first["to"], first["how"]) == ("moscow", "ukraine", "default")


# ---------------------------------------------------------------------------------------
# the standing instruction


@pytest.mark.parametrize(("power", "option", "value", "message"), [
    ("russia", "civil_war", {"moscow": "belarus"}, None),
    ("germany", "civil_war", {"tatarstan": "ukraine"}, None),
    ("russia", "civil_war", {"moscow": "karelia"},
     "evacuation: moscow: 'karelia' is not a land territory next to it that is not itself "
     "evacuated (belarus, livonia, tatarstan, ukraine)"),
    ("russia", "civil_war", {"tatarstan": "ukraine"},
     "evacuation: 'tatarstan' is not a territory allies units leave at the revolution "
     "(moscow, karelia, kazakhstan)"),
    ("russia", "civil_war", "belarus",
     "expected evacuation: {TERRITORY: DESTINATION}, where your units there retreat to at the "
     "revolution, from moscow, karelia, kazakhstan"),
    ("russia", "armistice", {"moscow": "belarus"},
     "evacuation is given only in a campaign with the option revolution: civil_war; this one "
     "plays with revolution: armistice"),
])
def test_civil_war_steps_1_2_the_evacuation_instruction(
        power: str, option: str, value: Any, message: str | None) -> None:
    s = position(UNITS, CONTROL, CONTESTED, power=power, option=option, turn=3)
    assert refused(s, standing={"evacuation": value}) == ([message] if message else [])


def test_civil_war_steps_1_2_no_evacuation_instruction_after_the_revolution() -> None:
    _, after = revolution()
    assert refused(after, standing={"evacuation": {"moscow": "belarus"}}) == [
        "the revolution took place in round 4: no more evacuations"]


# ---------------------------------------------------------------------------------------
# afterwards: the turn order, the bans


def test_civil_war_soviet_republic_the_soviets_play_after_the_usa_and_the_round_goes_on() -> None:
    _, after = revolution()
    after.update(power="usa")
    events, s = play(after)
    assert events[-1] == {"type": "next", "power": "soviets", "turn": 4}
    assert GAME.phase(data(), s).title == "Soviet Russia's turn"
    events, s = play(s, {"buy": {"infantry": 3}})
    assert of(events, "mobilized") == [{"type": "mobilized", "power": "soviets", "where": "moscow",
                                        "units": {"infantry": 3}}]
    assert of(events, "income") == [{"type": "income", "power": "soviets", "ipc": 9, "contested": []}]
    assert events[-1] == {"type": "next", "power": "austria_hungary", "turn": 5}
    s.update(power="russia", turn=5)
    events, _ = play(s)  # the revolution only once: no check again, the income collected
    assert not of(events, "revolution_check") and not of(events, "civil_war")
    assert of(events, "income")[0]["ipc"] == 2 + 1  # Belarus and Tatarstan


@pytest.mark.parametrize(("power", "orders", "message"), [
    # the Central Powers recognize the Soviets' claim to Inner Russia
    ("germany", [move("livonia", "karelia", {"infantry": 1})],
     "the civil war: the Central Powers recognize Soviet Russia's claim to Inner Russia and may "
     "not enter Karelia"),
    ("germany", [move("livonia", "belarus", {"infantry": 1})], None),
    ("ottomans", [move("sevastopol", "tatarstan", {"infantry": 1})],
     "the civil war: the Central Powers recognize Soviet Russia's claim to Inner Russia and may "
     "not enter Tatarstan"),
    # the Soviets never enter what the Central Powers control, contest or held at the start
    ("soviets", [move("karelia", "livonia", {"infantry": 1})],
     "the civil war: Soviet units never enter a territory the Central Powers control (Livonia, "
     "held by Germany)"),
    ("soviets", [move("karelia", "finland", {"infantry": 1})],
     "the civil war: Soviet units never enter a territory the Central Powers control (Finland, "
     "held by Germany)"),
    ("soviets", [move("moscow", "belarus", {"infantry": 1})], None),  # Imperial: an attack
    ("soviets", [move("moscow", "tatarstan", {"infantry": 1})], None),
    ("soviets", [move("kazakhstan", "persia", {"infantry": 1})],
     "the civil war: Soviet Russia respects the sovereignty of Persia; its land units may not "
     "enter it"),
    # Soviet ships pass the Central Powers' but do not end their move with them
    ("soviets", [move("sz12", "sz11", {"cruiser": 1})],
     "the civil war: Soviet ships may sail through SZ 11 but not end their move in a sea zone "
     "with Central Powers units"),
    ("soviets", [move("sz12", "sz10", {"cruiser": 1}, via=["sz11"])], None),
    # the Allies fight the Soviets
    ("russia", [move("belarus", "moscow", {"infantry": 1})], None),
])
def test_civil_war_brest_litovsk_the_bans(
        power: str, orders: list[dict[str, Any]], message: str | None) -> None:
    _, after = revolution()
    after["units"]["sz11"] = {"germany": {"cruiser": 1}}
    after["power"] = power
    assert refused(after, *orders) == ([message] if message else [])


def test_civil_war_brest_litovsk_the_soviets_never_enter_a_contested_territory_nor_an_original_central_one() -> None:
    _, after = revolution()
    after["power"] = "soviets"
    # Belarus contested by Germany's units, Russia holding it
    after["units"]["belarus"]["germany"] = {"infantry": 1}
    after["contested"] = sorted([*after["contested"], "belarus"])
    assert refused(after, move("moscow", "belarus", {"infantry": 1})) == [
        "the civil war: Soviet units never enter a territory the Central Powers contest (Belarus)"]
    # Galicia, Austria-Hungary's at the start, held by Russia: still closed to them
    after["units"]["ukraine"]["soviets"] = {"infantry": 1}
    after["control"]["galicia"] = "russia"
    assert refused(after, move("ukraine", "galicia", {"infantry": 1})) == [
        "the civil war: Soviet units never enter a territory originally the Central Powers' "
        "(Galicia, originally Austria-Hungary's)"]


def test_ruling_imperial_russia_mobilizes_nothing_without_moscow() -> None:
    _, after = revolution()
    after.update(power="russia", turn=5)
    assert refused(after, {"buy": {"infantry": 1}}) == [
        "russia has no place to mobilize an infantry now (the civil war: it mobilizes nothing "
        "while it does not hold its capital, Moscow)"]
    after["control"]["moscow"] = "russia"
    after["units"]["moscow"] = {}
    assert refused(after, {"buy": {"infantry": 1}}) == []


# ---------------------------------------------------------------------------------------
# Moscow and the Allies' income; an Imperial victory; the game's victory


def test_civil_war_while_soviets_have_moscow_the_allies_keep_russian_territories_they_take() -> None:
    _, after = revolution()
    after["units"]["belarus"]["britain"] = {"infantry": 2}
    after.update(power="britain")
    # Britain's 2 infantry against Germany's 1 in Livonia: 1 and 1 hit, 6 misses
    events, s = play(after, move("belarus", "livonia", {"infantry": 2}), dice=(1, 1, 6))
    assert s["control"]["livonia"] == "britain" and not of(events, "civil_war_reverted")
    assert of(events, "income")[0]["ipc"] == economy.income(data(), after, "britain")[0] + 2  # Livonia


def test_civil_war_imperial_victory_moscow_retaken_the_soviet_bank_and_the_allies_territories_go_to_imperial_russia() -> None:
    _, after = revolution()
    after["units"]["moscow"] = {"soviets": {"infantry": 1}}
    after["treasury"]["soviets"] = 7
    after["control"].update(livonia="britain", serbia="france")
    after.update(power="russia", turn=5)
    # Russia's 3 infantry from Belarus: 1, 1, 1 hit; the Soviet infantry's 6 misses
    events, s = play(after, move("belarus", "moscow", {"infantry": 3}), dice=(1, 1, 1, 6))
    assert of(events, "control")[-1] == {"type": "control", "where": "moscow", "power": "russia",
                                         "contested": False, "taken_from": "soviets"}
    assert of(events, "capital_taken") == [{"type": "capital_taken", "where": "moscow",
                                            "power": "russia", "from": "soviets", "ipc": 7}]
    assert of(events, "civil_war_reverted") == [{"type": "civil_war_reverted", "power": "russia",
                                                 "from": {"livonia": "britain", "serbia": "france"}}]
    assert told(events, "civil_war_reverted") == [
        "the civil war: Russia holds Moscow; 2 territories revert to it: Livonia (from Britain), "
        "Serbia (from France)"]
    assert (s["control"]["livonia"], s["control"]["serbia"]) == ("russia", "russia")
    assert s["treasury"]["soviets"] == 0 and s["treasury"]["russia"] == 25 + 7 + of(events, "income")[0]["ipc"]
    # "Once Moscow is back in Imperial hands": at once, so Russia's income this very turn
    # counts Moscow, Livonia and Serbia
    types = [e["type"] for e in events]
    assert types.index("civil_war_reverted") < types.index("income")
    assert of(events, "income")[0]["ipc"] == economy.income(data(), s, "russia")[0]
    # the Soviets stay in play: their turn still comes after the USA's
    assert s["order"] == [*ORDER, "soviets"]
    s["power"] = "usa"
    assert play(s)[0][-1] == {"type": "next", "power": "soviets", "turn": 5}
    # and Imperial Russia mobilizes in Moscow again
    s.update(power="russia", turn=6)
    assert refused(s, {"buy": {"infantry": 1}}) == []


def test_ruling_moscow_taken_from_the_soviets_by_another_ally_goes_to_imperial_russia() -> None:
    _, after = revolution()
    after["units"]["moscow"] = {"soviets": {"infantry": 1}}
    after["units"]["belarus"]["britain"] = {"infantry": 1}
    after["treasury"]["soviets"] = 4
    after.update(power="britain")
    after["control"]["livonia"] = "britain"  # taken while the Soviets held Moscow
    events, s = play(after, move("belarus", "moscow", {"infantry": 1}), dice=(1, 6))
    assert s["control"]["moscow"] == "russia"
    assert of(events, "capital_taken")[0]["power"] == "russia" and s["treasury"]["russia"] == 25 + 4
    # Moscow is Imperial again in Britain's own turn: Livonia reverts before Britain collects
    assert s["control"]["livonia"] == "russia"
    assert of(events, "income")[0]["ipc"] == economy.income(data(), s, "britain")[0]
    assert of(events, "income")[0]["ipc"] < economy.income(data(), after, "britain")[0]


def test_civil_war_victory_city_moscow_counts_for_no_central_powers_victory_and_the_allies_are_checked_after_the_soviets() -> None:
    _, after = revolution()
    after["control"].update(paris="germany")
    assert turns.victory(data(), after, "central") is None  # Paris and Soviet Moscow
    after["control"].update(london="germany")
    won = turns.victory(data(), after, "central")
    assert won is not None and "soviets" in won["winners"] and won["reason"] == "central hold Paris and London"
    before = position(UNITS, {**CONTROL, "paris": "germany"}, CONTESTED)
    before["control"]["moscow"] = "germany"
    assert turns.victory(data(), before, "central") is not None  # without the civil war it counts
    # the Allies hold Berlin and Vienna: checked when the Soviets', not the Ottomans', turn ends
    after["control"].update(berlin="britain", vienna="france")
    after["power"] = "ottomans"
    events, s = play(after)
    assert events[-1] == {"type": "next", "power": "italy", "turn": 4}
    s["power"] = "soviets"
    events, _ = play(s)
    assert events[-1]["type"] == "over" and events[-1]["result"]["side"] == "allies"


def test_check_data_names_what_the_civil_war_block_gets_wrong() -> None:
    d = data()
    rev = d["game"]["revolution"]
    broken = GameData(d.game_id, d.folder, {**d.files, "game": {**d["game"], "revolution": {
        **rev, "civil_war": {**rev["civil_war"], "soviets": "reds", "ceded_to": "france",
                             "sovereign": ["narnia"]}}}})
    assert GAME.check_data(broken) == [
        "game.yaml: revolution: civil_war: soviets 'reds' is not a dormant power",
        "game.yaml: revolution: civil_war: ceded_to 'france' is not a Central Powers power of map.yaml",
        "game.yaml: revolution: civil_war: 'narnia' is not a territory or sea zone of map.yaml"]


# ---------------------------------------------------------------------------------------
# seeded random playouts: the revolution in round 1 (the trigger overridden), then the bot


@pytest.mark.parametrize("seed", range(3))
def test_the_bot_plays_the_civil_war_legally(seed: int) -> None:
    d = load_data("aa1914", {"game": {"revolution": {"from_round": 1,
                                                     "trigger": {"adjacent": 0, "others": 0}}}})
    rng = KeyedRng(seed.to_bytes(32, "big"))
    state = GAME.setup(d, {"revolution": "civil_war"}, rng)
    played: list[str] = []
    while state["turn"] <= 4 and not state["over"]:
        pid = state["power"]
        sent = GAME.bot(d, state, pid, rng)
        assert GAME.validate(d, state, pid, sent) == [], sent
        for event in GAME.resolve(d, state, {pid: sent}, rng):
            assert GAME.summary(d, event)
            state = GAME.apply(d, state, event)
        played.append(pid)
        assert all(n >= 0 for n in state["treasury"].values()), state["treasury"]
        assert all(n >= 0 for owners in state["units"].values() for units in owners.values()
                   for n in units.values())
    assert state["revolution"]["status"] == "civil_war" and state["revolution"]["round"] == 1
    assert played[:9] == [*ORDER, "soviets"] and played.count("soviets") == 4
    assert not any(board_side(d, o) == "central" and o != "soviets" and any(u.values())
                   for t in ("moscow", "karelia", "tatarstan", "kazakhstan")
                   for o, u in state["units"].get(t, {}).items())  # Inner Russia stays closed


def board_side(d: GameData, pid: str) -> str | None:
    return next((p["side"] for p in [*d["map"]["powers"], *d["game"]["dormant_powers"]]
                 if p["id"] == pid), None)


# ---------------------------------------------------------------------------------------
# a campaign by the command line

Cli = Callable[..., Result]
SEATS = {"ann": ["austria_hungary", "germany"], "bob": ["russia", "france", "britain"],
         "cat": ["ottomans", "italy", "usa"]}


def ok(r: Result) -> Result:
    assert r.code == 0, r.err + r.out
    return r


def test_a_civil_war_campaign_seats_the_soviets_with_the_player_it_names(pbem: Cli, tmp_path: Path) -> None:
    root, keys = tmp_path / "camp", tmp_path / "keys"
    players = [a for p, powers in SEATS.items()
               for a in ("--player", f"{','.join(powers)}={p.title()} <{p}@aa.invalid>")]
    ok(pbem("new", root, "--game", "aa1914", "--seed", "civil", "--keys-dir", keys, *players,
            "--option", "revolution=civil_war", "--option", "soviets_player=ottomans"))
    out = ok(pbem("-C", root, "status")).out
    assert "soviets enters later in the game: it is seated when it does" in out
    for player, powers in SEATS.items():
        path = tmp_path / f"{player}-salt.yaml"
        ok(pbem("-C", root, "bot", ",".join(powers), "--out", path))
        ok(pbem("-C", root, "sign", path, "--key", key_of(keys, powers[0])))
        ok(pbem("-C", root, "apply", path))
    assert "then Soviet Russia enters, played by the player of Ottoman Empire" in \
        ok(pbem("-C", root, "status")).out

    def turn(power: str, orders: list[Any] | None = None) -> None:
        path = tmp_path / f"{power}-{len(list(tmp_path.glob('*.yaml')))}.yaml"
        ok(pbem("-C", root, "bot", power, "--seed", "1", "--out", path))
        if orders is not None:
            body = yamlio.load_trusted(path.read_text())
            yamlio.write_atomic(path, yamlio.dump({**body, "orders": orders}))
        signer = next(ps[0] for ps in SEATS.values() if power in ps or
                      (power == "soviets" and "ottomans" in ps))
        ok(pbem("-C", root, "sign", path, "--key", key_of(keys, signer)))
        ok(pbem("-C", root, "apply", path))

    turn("austria_hungary")
    # the referee brings the game to Russia's turn of round 4 with the trigger met (the
    # Central Powers hold Karelia, Livonia and Tatarstan, and Poland)
    fix = tmp_path / "fix.yaml"
    yamlio.write_atomic(fix, yamlio.dump([
        *({"type": "control", "where": t, "power": "germany", "contested": False}
          for t in ("karelia", "livonia", "tatarstan", "poland")),
        {"type": "next", "power": "russia", "turn": 4}]))
    ok(pbem("-C", root, "adjust", fix, "--reason", "a test: the revolution's position"))
    turn("russia", [])  # nothing moved: the trigger stays met
    camp = Campaign.open(root)
    (step,) = [e for e in camp.entries() if e.get("seats")]
    assert "soviets enters the game, played by Cat" in step["summary"]
    seat = camp.factions()["soviets"]
    assert {k: seat.get(k) for k in ("player", "email", "ssh")} == \
        {k: camp.factions()["ottomans"].get(k) for k in ("player", "email", "ssh")}
    for power in ORDER[2:]:
        turn(power)
    s = json.loads(ok(pbem("-C", root, "status", "--json")).out)
    assert (s["turn"], s["awaiting"], s["unseated"]) == (4, ["soviets"], [])
    out = ok(pbem("-C", root, "status")).out
    assert "Soviet Russia's turn" in out
    assert "civil war since round 4: Soviet Russia plays after the USA, played by the player of " \
           "Ottoman Empire" in out
    turn("soviets")
    assert json.loads(ok(pbem("-C", root, "status", "--json")).out)["awaiting"] == ["austria_hungary"]
    report = json.loads(ok(pbem("-C", root, "audit", "--json")).out)
    assert report["ok"], report["problems"]
