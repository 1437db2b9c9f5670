"""What an Axis & Allies 1914 report says first (AxisAndAllies1914.headlines,
rules/headlines.py): a phrase for each kind of event, each end of a battle on land and at
sea, captures, liberations, capitals, the USA entering, the revolution's steps, the end;
and what the power whose turn it is must still cover (AxisAndAllies1914.todo, shown by
`pbem status`): the war's opening attack, the armistice's deadline, where its purchase may
be mobilized; nothing for the others. In-process, without git."""

from __future__ import annotations

from typing import Any

import pytest
from aa_play import move, play, position
from fixed_rng import FixedRng

from pbem.dice import KeyedRng
from pbem.game import GameData, State, get_game, headlines, load_data, todo

GAME = get_game("aa1914")


def data() -> GameData:
    return load_data("aa1914")


def said(*events: dict[str, Any]) -> list[str]:
    return headlines(GAME, data(), list(events))


# ---------------------------------------------------------------------------------------
# battles on land


def battle(losses: dict[str, dict[str, int]], defenders: dict[str, dict[str, int]] | None = None,
           power: str = "germany", where: str = "belgium") -> dict[str, Any]:
    return {"type": "battle", "power": power, "where": where,
            "attackers": {power: {"infantry": 2, "artillery": 1}},
            "defenders": {"france": {"infantry": 2}} if defenders is None else defenders,
            "air": [], "supremacy": None, "fire": {"attacker": [], "defender": []},
            "hits": {"attacker": 0, "defender": 0, "cancelled": 0}, "losses": losses}


@pytest.mark.parametrize(("losses", "phrase"), [
    ({"france": {"infantry": 2}}, "Germany won the battle of Belgium against France"),
    ({"germany": {"infantry": 2, "artillery": 1}}, "France held Belgium against Germany"),
    ({"germany": {"infantry": 1}, "france": {"infantry": 1}}, "Germany attacked France at Belgium: both sides stay"),
    ({"germany": {"infantry": 2, "artillery": 1}, "france": {"infantry": 2}},
     "the battle of Belgium between Germany and France left nobody there"),
])
def test_each_end_of_a_land_battle(losses: dict[str, dict[str, int]], phrase: str) -> None:
    assert said(battle(losses)) == [phrase]


def test_defenders_of_several_powers_and_neutrals_are_named() -> None:
    both = {"france": {"infantry": 1}, "britain": {"infantry": 1}}
    assert said(battle({"france": {"infantry": 1}, "britain": {"infantry": 1}}, both)) == [
        "Germany won the battle of Belgium against France and Britain"]
    assert said(battle({"germany": {"infantry": 2, "artillery": 1}}, {"neutral": {"infantry": 2}},
                       where="holland")) == ["neutral troops held Holland against Germany"]


def test_a_battle_nobody_defended_is_told_by_its_capture() -> None:
    events = [battle({}, {}), {"type": "control", "where": "belgium", "power": "germany",
                               "contested": False, "taken_from": "france"}]
    assert said(*events) == ["Germany took Belgium from France"]


@pytest.mark.parametrize(("control", "phrase"), [
    ({"power": "germany", "contested": False, "taken_from": "france"}, "Germany took Belgium from France"),
    ({"power": "germany", "contested": False, "taken_from": "neutral"}, "Germany took Belgium"),
    ({"power": "germany", "contested": True}, None),  # the battle says both stay
    ({"power": "france", "contested": False}, None),  # stays with its holder
    ({"power": "britain", "contested": False, "taken_from": "germany"}, "Germany liberated Belgium for Britain"),
])
def test_what_becomes_of_the_territory(control: dict[str, Any], phrase: str | None) -> None:
    # the battle (nobody defended) first: a taker other than its attacker is a liberation
    events = [battle({}, {}), {"type": "control", "where": "belgium", **control}]
    assert said(*events) == ([phrase] if phrase else [])


def test_a_capital_taken_as_resolved() -> None:
    s = position("germany", {"picardy": {"germany": {"infantry": 2}}, "paris": {"france": {"infantry": 1}}})
    events, _ = play(s, FixedRng(1, 6, 6), move("picardy", "paris", {"infantry": 2}))
    assert said(*events) == ["Germany won the battle of Paris against France", "Germany took Paris from France",
                             "Germany took France's capital Paris and its 24 IPC"]


def test_a_liberation_as_resolved() -> None:
    s = position("britain", {"sz08": {}, "belgium": {"britain": {"infantry": 1}},
                             "picardy": {"germany": {"infantry": 1}}})
    s["control"].update(picardy="germany", belgium="britain")
    events, _ = play(s, FixedRng(1, 6), move("belgium", "picardy", {"infantry": 1}))
    assert said(*events) == ["Britain won the battle of Picardy against Germany",
                             "Britain liberated Picardy for France"]


def test_serbia_joins_russia_when_austria_hungary_opens_the_war() -> None:
    s = GAME.setup(data(), {}, KeyedRng(b"\x02" * 32))
    orders = GAME.bot(data(), s, "austria_hungary", FixedRng())
    orders["orders"] = [o for o in orders["orders"] if "move" in o]
    dice = FixedRng(*[1] * 40)
    events = GAME.resolve(data(), s, {"austria_hungary": orders}, dice)
    assert said(*events)[:2] == ["Serbia joined Russia", "Austria-Hungary won the battle of Serbia against Russia"]
    assert said(*events)[2] == "Austria-Hungary took Serbia from Russia"


# ---------------------------------------------------------------------------------------
# at sea


def sea(sunk: dict[str, dict[str, int]], **more: Any) -> dict[str, Any]:
    return {"type": "sea_battle", "power": "britain", "where": "sz08",
            "attackers": {"britain": {"cruiser": 2}}, "defenders": {"germany": {"cruiser": 1, "submarine": 1}},
            "rounds": [], "sunk": sunk, "damaged": {}, **more}


@pytest.mark.parametrize(("sunk", "more", "phrase"), [
    ({"germany": {"cruiser": 1, "submarine": 1}}, {}, "Britain won the sea battle in SZ 8 against Germany"),
    ({"britain": {"cruiser": 2}}, {}, "Germany held SZ 8 against Britain"),
    ({"britain": {"cruiser": 2}, "germany": {"cruiser": 1, "submarine": 1}}, {},
     "the sea battle in SZ 8 between Britain and Germany left no ship afloat"),
    ({"germany": {"cruiser": 1}}, {"withdrew": {"to": "sz07", "why": "after round 1", "units": {"cruiser": 2},
                                                "damaged": 0}},
     "Britain withdrew from the sea battle in SZ 8 against Germany"),
    ({"germany": {"cruiser": 1}}, {"submerged": {"germany": 1}}, "Britain won the sea battle in SZ 8 against Germany"),
    ({"germany": {"cruiser": 1}}, {}, "Britain attacked Germany in SZ 8: both fleets stay"),
])
def test_each_end_of_a_sea_battle(sunk: dict[str, dict[str, int]], more: dict[str, Any], phrase: str) -> None:
    assert said(sea(sunk, **more)) == [phrase]


@pytest.mark.parametrize(("event", "phrase"), [
    ({"sunk": {"cruiser": 1}, "damaged": 0}, "Britain lost 1 cruiser to mines in SZ 6"),
    ({"sunk": {"transport": 1}, "damaged": 0, "landed_in": "prussia", "cargo_lost": {"infantry": 2}},
     "Britain lost 1 transport with 2 infantry aboard to mines in SZ 6"),
    ({"sunk": {}, "damaged": 1}, None),
    ({"sunk": {}, "damaged": 0}, None),
])
def test_ships_lost_to_mines(event: dict[str, Any], phrase: str | None) -> None:
    mines = {"type": "mines", "power": "britain", "where": "sz06", "moved_to": "sz06", "dice": [1], **event}
    assert said(mines) == ([phrase] if phrase else [])


# ---------------------------------------------------------------------------------------
# the rest of the war


@pytest.mark.parametrize(("event", "phrase"), [
    ({"type": "at_war", "power": "usa"}, "USA entered the war"),
    ({"type": "neutral_joins", "where": "serbia", "power": "russia"}, "Serbia joined Russia"),
    ({"type": "revolution_check", "power": "russia", "round": 4, "met": False}, None),
    ({"type": "armistice_offer", "power": "russia", "round": 4, "by": "germany", "answer": "accept",
      "standing": False}, "Germany accepted Soviet Russia's armistice: Russia is out of the war"),
    ({"type": "armistice_offer", "power": "russia", "round": 4, "by": "germany", "answer": "reject",
      "standing": True}, "Germany rejected Soviet Russia's armistice: no revolution"),
    ({"type": "armistice_step", "where": "moscow", "part": "original", "steps": ["2f"], "russian": {},
      "left": {"infantry": 1}}, None),
    ({"type": "armistice_deadline", "power": "britain", "removed": {"sevastopol": {"infantry": 1}}},
     "Britain's units left in Russia removed (armistice)"),
    ({"type": "armistice_deadline", "power": "britain", "removed": {}}, None),
    ({"type": "armistice_closed", "where": "ukraine", "power": "germany"},
     "the Central Powers left Ukraine for good (armistice)"),
    ({"type": "civil_war", "power": "russia", "round": 4, "skipped_income": 20, "kept": 5},
     "revolution in Russia: the civil war begins"),
    ({"type": "soviets_enter", "power": "soviets", "after": "usa", "played_by": "ottomans", "ipc": 9},
     "Soviet Russia entered the war, played by Ottoman Empire's player"),
    ({"type": "civil_war_retreat", "step": "1", "where": "moscow", "power": "russia",
      "units": {"infantry": 2}, "to": "belarus", "how": "default"}, None),
    ({"type": "civil_war_reverted", "power": "russia", "from": {"ukraine": "britain", "serbia": "france"}},
     "Ukraine, Serbia reverted to Russia"),
    ({"type": "over", "result": {"winners": ["germany"], "side": "central", "reason": "central hold Paris"}},
     "the game is over: the Central Powers won"),
    ({"type": "over", "result": {"winners": ["france"], "side": "allies", "reason": "allies hold Berlin"}},
     "the game is over: the Allies won"),
    ({"type": "income", "power": "france", "ipc": 24, "contested": []}, None),
    ({"type": "next", "power": "russia", "turn": 1}, None),
])
def test_each_kind_of_event(event: dict[str, Any], phrase: str | None) -> None:
    assert said(event) == ([phrase] if phrase else [])


def test_civil_war_brest_litovsk_the_cessions_in_one_phrase() -> None:
    treaty = [{"type": "brest_litovsk", "where": t, "was": w, "contested": c, "power": p, "case": k}
              for t, w, c, p, k in (("livonia", "russia", False, "germany", "ceded"),
                                    ("poland", "germany", False, "germany", "held"),
                                    ("ukraine", "russia", True, "austria_hungary", "contested"),
                                    ("finland", "britain", False, "britain", "defended"),
                                    ("belarus", "russia", False, "germany", "ceded"))]
    assert said(*treaty) == ["Brest-Litovsk: Livonia, Belarus ceded to Germany",
                             "Brest-Litovsk: Ukraine ceded to Austria-Hungary"]


def test_nothing_of_note() -> None:
    assert said() == []
    assert said({"type": "bought", "power": "france", "units": {"infantry": 2}, "cost": 6},
                {"type": "mobilized", "power": "france", "where": "paris", "units": {"infantry": 2}},
                {"type": "repaired", "power": "britain", "where": "sz08", "battleships": 1}) == []


# ---------------------------------------------------------------------------------------
# what the power whose turn it is must still cover


def start() -> State:
    return GAME.setup(data(), {}, KeyedRng(b"\x02" * 32))


def test_sources_9_5_austria_hungary_opens_the_war_in_round_1() -> None:
    s = start()
    assert todo(GAME, data(), s, "austria_hungary") == [
        "attack Serbia: move land units into it, the war begins there",
        "mobilize what you buy (26 IPC): land units and fighters in Vienna; ships in SZ 18"]
    s["turn"] = 2
    assert todo(GAME, data(), s, "austria_hungary") == [
        "mobilize what you buy (26 IPC): land units and fighters in Vienna; ships in SZ 18"]
    assert todo(GAME, data(), s, "russia") == []  # not its turn


def test_sources_4_8_where_the_purchase_may_be_mobilized() -> None:
    s = start()
    s.update(power="britain", turn=2)
    assert todo(GAME, data(), s, "britain") == [
        "mobilize what you buy (30 IPC): land units and fighters in one of London, India; ships in one "
        "of SZ 8, SZ 9"]
    s["contested"] = ["london"]  # Wales's port is left
    assert todo(GAME, data(), s, "britain") == [
        "mobilize what you buy (30 IPC): land units and fighters in India; ships in SZ 8"]
    s["control"].update(wales="germany")
    assert todo(GAME, data(), s, "britain") == [
        "mobilize what you buy (30 IPC): land units and fighters in India; no ships (no port held)"]
    s["control"].update(wales="britain", india="germany")
    assert todo(GAME, data(), s, "britain") == [
        "mobilize what you buy (30 IPC): no land units or fighters (no factory held); ships in SZ 8"]
    s["control"].update(wales="germany")
    assert todo(GAME, data(), s, "britain") == [
        "buy nothing: Britain has no factory or port to mobilize in now"]
    s["treasury"]["britain"] = 2  # not an infantry's worth
    assert todo(GAME, data(), s, "britain") == []


def test_ruling_imperial_russia_without_moscow_in_the_civil_war() -> None:
    s = GAME.setup(data(), {"revolution": "civil_war"}, KeyedRng(b"\x02" * 32))
    s.update(power="russia", turn=5)
    s["revolution"].update(status="civil_war", round=4, soviets="soviets", played_by="germany", homes=["moscow"])
    s["control"]["moscow"] = "soviets"
    assert todo(GAME, data(), s, "russia") == ["buy nothing: Russia has no factory or port to mobilize in now"]


def test_armistice_2e_the_allies_units_to_take_out_of_russia() -> None:
    s = GAME.setup(data(), {"revolution": "armistice"}, KeyedRng(b"\x02" * 32))
    s.update(power="france", turn=5, units={"ukraine": {"russia": {"infantry": 1}, "france": {"infantry": 2}},
                                            "sevastopol": {"russia": {"infantry": 1}},
                                            "belarus": {"france": {"infantry": 1}}})
    s["revolution"].update(status="armistice", round=4, must_leave=["france"])
    assert todo(GAME, data(), s, "france")[0] == (
        "move your units out of Ukraine: those still there when your moves end are removed (armistice 2e)")
    s["revolution"]["must_leave"] = []
    assert not any("armistice" in line for line in todo(GAME, data(), s, "france"))


def test_nothing_when_the_game_is_over() -> None:
    s = start()
    s.update(phase="over", over=True)
    assert todo(GAME, data(), s, "austria_hungary") == []
