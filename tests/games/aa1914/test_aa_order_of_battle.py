"""Axis & Allies 1914's order of battle in a power's own report (rules/order_of_battle.py, the
"own" part of Game.report): its treasury and income, its units by place with their values and
cost, damaged battleships and contested territories marked, what it may buy (tanks from round
4) and how many its treasury pays for, where the purchase is mobilized (the todo's own words,
headlines.mobilization, also in the civil war), the territories that pay its income; nothing
for the public, the referee or a power not yet in play. In-process, without git."""

from __future__ import annotations

import importlib
from typing import Any

from aa_play import GAME, position

from pbem.dice import KeyedRng
from pbem.game import GameData, State, load_data

headlines = importlib.import_module("pbem_game_aa1914.headlines")
order_of_battle = importlib.import_module("pbem_game_aa1914.order_of_battle")

UNITS = ["Where", "Type", "Number", "Attack", "Defence", "Move", "Cost", "State"]


def data() -> GameData:
    return load_data("aa1914")


def own(state: State, who: str) -> dict[str, Any] | None:
    """The "own" part of `who`'s report, by the game's report hook, from `who`'s view."""
    told: dict[str, Any] | None = GAME.report(data(), GAME.view(data(), state, who), None, who, {}, [])["own"]
    return told


def britain() -> State:
    s = position("britain", {"london": {"britain": {"infantry": 3, "artillery": 1}},
                             "picardy": {"britain": {"infantry": 1}, "germany": {"infantry": 2}},
                             "sz09": {"britain": {"battleship": 2, "transport": 1}},
                             "sz05": {"germany": {"submarine": 1}}},
                 damaged={"sz09": {"britain": 1}}, contested=["picardy", "wales"])
    s["treasury"]["britain"] = 20
    return s


def test_britains_order_of_battle() -> None:
    told = own(britain(), "britain")
    assert told is not None
    assert told["lines"] == [
        "Treasury 20 IPC; income 27 IPC, collected after mobilizing (nothing from contested Wales, 4.2).",
        "What you buy is paid as your turn begins and mobilized as it ends (4.8): land units and fighters "
        "in one of London, India; ships in one of SZ 8, SZ 9.",
        "Tanks may be bought from round 4 (10.2).",
    ]
    units, buy, held = told["tables"]
    assert units["columns"] == UNITS
    assert units["rows"] == [
        ["London", "infantry", 3, 2, 3, 1, 3, ""],
        ["London", "artillery", 1, 3, 3, 1, 4, ""],
        ["Picardy", "infantry", 1, 2, 3, 1, 3, "contested (4.2)"],
        ["SZ 9", "battleship", 2, 4, 4, 2, 12,
         "1 damaged: one more hit sinks it, repaired free next to a port of yours (6.5, 4.8)"],
        ["SZ 9", "transport", 1, 0, 0, 2, 6, ""],
    ]
    assert buy["columns"] == ["Type", "Cost", "Attack", "Defence", "Move", "At most (20 IPC)", "Special"]
    assert buy["rows"] == [
        ["infantry", 3, 2, 3, 1, 6, "the last to be lost while other units stand (3.3)"],
        ["artillery", 4, 3, 3, 1, 5, "+1 to 1 infantry or tank attacking (2.4); coastal defence: one "
         "shot at its defence at units landing (7.4)"],
        ["fighter", 6, 2, 2, 2, 3, "fights the enemy fighters first, at 2 (2.1); with no enemy fighter "
         "left, all artillery of its side +1 attacking and defending (air supremacy 2.2)"],
        ["submarine", 6, 2, 2, 2, 3, "no first strike; may submerge defending (6.4)"],
        ["cruiser", 9, 3, 3, 3, 2, ""],
        ["battleship", 12, 4, 4, 2, 1, "takes 2 hits: the first damages it (6.5); bombards once at its "
         "attack in an amphibious assault (7.3)"],
        ["transport", 6, 0, 0, 2, 3, "carries 2 land units (7.1); lost last, and all when unescorted (6.6)"],
    ]
    rows = {row[0]: row for row in held["rows"]}
    assert held["columns"] == ["Territory", "IPC", "Notes"]
    assert rows["London"] == ["London", 6, "capital, factory, port"]
    assert rows["India"] == ["India", 4, "factory"]
    assert rows["Wales"] == ["Wales", 3, "port, contested: no income (4.2)"]
    assert "Picardy" not in rows  # contested, still France's
    assert sum(r[1] for r in held["rows"] if "contested" not in r[2]) == 27
    assert [r[0] for r in held["rows"]] == sorted(rows)


def test_the_mobilization_line_is_the_todos() -> None:
    s = britain()
    told = own(s, "britain")
    assert told is not None
    (todo,) = GAME.todo(data(), s, "britain")
    where = headlines.mobilization(data(), s, "britain")
    assert todo == f"mobilize what you buy (20 IPC): {where}"
    assert told["lines"][1].endswith(f"(4.8): {where}.")
    s["control"].update(london="germany", india="germany", wales="germany")  # no factory, no port left
    told = own(s, "britain")
    assert told is not None and headlines.mobilization(data(), s, "britain") is None
    assert told["lines"][1] == ("What you buy is paid as your turn begins and mobilized as it ends (4.8): "
                                "nowhere now, so buy nothing.")
    assert GAME.todo(data(), s, "britain") == ["buy nothing: Britain has no factory or port to mobilize in now"]


def test_from_round_4_tanks_are_for_sale_and_a_power_at_peace_is_told_so() -> None:
    s = position("usa", {"united_states_of_america": {"usa": {"infantry": 1}}}, turn=4, at_war=[])
    told = own(s, "usa")
    assert told is not None
    assert told["lines"][0] == "Treasury 20 IPC; income 20 IPC, collected after mobilizing; not at war yet (8.1)."
    assert not any(line.startswith("Tanks") for line in told["lines"])
    tank = next(row for row in told["tables"][1]["rows"] if row[0] == "tank")
    assert tank == ["tank", 6, 2, 1, 1, 3, "cancels one of the defender's hits when attacking (2.6)"]


def test_only_the_readers_own_units() -> None:
    s = britain()
    told = own(s, "germany")
    assert told is not None
    assert told["tables"][0]["rows"] == [["Picardy", "infantry", 2, 2, 3, 1, 3, "contested (4.2)"],
                                         ["SZ 5", "submarine", 1, 2, 2, 2, 6, ""]]
    france = own(s, "france")
    assert france is not None and france["tables"][0]["rows"] == []  # Picardy's French units are gone


def test_nothing_for_the_public_the_referee_or_a_power_not_in_play() -> None:
    s = britain()
    for who in ("public", "referee", "soviets"):
        assert own(s, who) is None


def civil_war() -> State:
    """Round 5 of the civil war: the Soviets hold Moscow, Karelia and Kazakhstan (their homes,
    step 5); Imperial Russia has lost its capital."""
    s = GAME.setup(data(), {"revolution": "civil_war", "soviets_player": "germany"}, KeyedRng(b"\x02" * 32))
    s.update(turn=5, power="soviets", order=[*s["order"], "soviets"], at_war=[*s["at_war"], "soviets"])
    s["treasury"]["soviets"] = 9
    s["control"].update(moscow="soviets", karelia="soviets", kazakhstan="soviets")
    s["units"]["moscow"] = {"soviets": {"infantry": 3}}
    s["revolution"].update(status="civil_war", power="russia", round=4, soviets="soviets",
                           played_by="germany", homes=["moscow", "karelia", "kazakhstan"])
    return s


def test_in_the_civil_war_the_soviets_mobilize_at_home_and_russia_nowhere() -> None:
    s = civil_war()
    view = GAME.view(data(), s, "soviets")
    rebuilt = order_of_battle.view_position(data(), view)
    for power in ("soviets", "russia"):  # the view's position mobilizes as the state does
        assert headlines.mobilization(data(), rebuilt, power) == headlines.mobilization(data(), s, power)
    soviets, russia = own(s, "soviets"), own(s, "russia")
    assert soviets is not None and russia is not None
    assert soviets["lines"] == [
        "Treasury 9 IPC; income 9 IPC, collected after mobilizing.",
        "What you buy is paid as your turn begins and mobilized as it ends (4.8): land units and "
        "fighters in Moscow; ships in one of SZ 6, SZ 12."]  # Moscow's factory, Karelia's port
    assert soviets["tables"][0]["rows"] == [["Moscow", "infantry", 3, 2, 3, 1, 3, ""]]
    assert russia["lines"][1].endswith("(4.8): nowhere now, so buy nothing.")
