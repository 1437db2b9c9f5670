"""Battles as boxes in the Chechen War's reports (rules/boxes.py): each combat (10.0) with
its forces, supports, leaders, shifts, the die on the CRT and its meaning, the losses and
the markers' and leaders' dice; each ambush (14.0) with its die, modifiers, table row, the
retreat die and the retreat; the events each box covers; and nothing a sealed value holds.
In-process, without git."""

from __future__ import annotations

import importlib
import json
from typing import Any

from fixed_rng import FixedRng
from test_cw_ambush import ambush, example
from test_cw_ambush import fight as ambush_fight
from test_cw_combat import (
    attack,
    c_attack,
    c_declared,
    declared,
    fight,
    position,
    r_fight,
    r_support,
    raid,
    support,
)

from pbem.game import GameData, boxes, get_game, load_data

GAME = get_game("chechen_war")
boxes_ = importlib.import_module("pbem_game_chechen_war.boxes")


def data() -> GameData:
    return load_data("chechen_war")


def kinds(events: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events]


def test_a_russian_attack_its_supports_shifts_die_losses_and_the_markers_and_leaders_dice() -> None:
    # 3 (the 76th) + 2 (the 81st, reduced) against 1 + 1: 5 to 2 is 2:1; the Russian's
    # artillery one right, the Chechen's marker and Dudayev two left: 1:1; a 6 is Ex; then
    # Dudayev's die 5 (11.4: his hex wiped out) and the Chechen marker's die 6 (lost)
    s = position({"ru_76_airborne": "0726", "ru_81_mech_regt": "0728"},
                 {"0727": ["ch_argun_bn", "ch_militia_01"]})
    s["russians"]["ru_81_mech_regt"]["reduced"] = True
    s = declared(s, attack("0727", "ru_76_airborne", "ru_81_mech_regt", supports=1),
                 secret={"supports": {"0727": ["artillery"]}})
    events, _ = fight(s, [6, 5, 6], support("0727", markers=1, leaders=["ch_dudayev"]))
    assert kinds(events) == ["leader_placed", "revealed", "combat", "steps_lost", "chechens_eliminated",
                             "leader_roll", "russian_markers_used", "chechen_marker_roll",
                             "attacks_over", "phase"]
    (box,) = boxes(GAME, data(), s, events)
    assert (box["first"], box["last"], box["told"]) == (0, 7, list(range(8)))  # not attacks_over
    assert box["title"] == "Combat on 0727: the Russian attacks the Chechen, fought at 1:1, die 6: Ex"
    assert box["columns"] == ["", "Russian (attacker)", "Chechen (defender)"]
    assert box["rows"] == [
        ["Units", "76th Airborne Regt (3-5), 81st Mech Regt (2-6, reduced)",
         "t01 Argun Battalion (1-4), t02 Militia 1 (1-4)"],
        ["Combat factors (10.7)", "5", "2"],
        ["Odds (10.7)", "5 to 2, fractions dropped: 2:1", ""],
        ["Supports (10.9)", "artillery (1 column)", "1 artillery marker"],
        ["Leaders (11.2)", "", "Dzhokhar Dudayev (out of the underground)"],
        ["Column shift (10.8)", "1 right: Russian artillery marker (10.9)", ""],
        ["Column shift (10.8)", "", "1 left: Chechen artillery marker (10.9)"],
        ["Column shift (10.8)", "", "1 left: Dzhokhar Dudayev (10.9, 11.2)"],
        ["CRT (10.11)", "fought at 1:1; die 6: Ex, exchange: the weaker side eliminated, the other "
         "loses as many steps", ""],
        ["Losses (10.11)", "81st Mech Regt eliminated, to the pool; 76th Airborne Regt eliminated, to the "
         "pool (2 casualties, 10.13)",
         "t01 Argun Battalion, t02 Militia 1 eliminated, to the cup (10.11)"],
        ["Leader's die (11.4)", "", "Dzhokhar Dudayev: 5, eliminated"],
        ["Markers used (10.9)", "artillery to the used box", ""],
        ["Artillery marker die (10.9)", "", "6: lost for good"]]


def test_two_combats_two_boxes_each_with_its_own_die_and_result() -> None:
    # 10.7's example (7 to 2, 3:1) and the 98th alone on 1 CF (3 to 1, 3:1) against a town
    # across the Terek: two columns left, 1:1
    s = position({"ru_76_airborne": "0726", "ru_81_mech_regt": "0728", "ru_98_airborne": "0827"},
                 {"0727": ["ch_argun_bn", "ch_militia_01"], "0828": ["ch_militia_02"]})
    s = declared(s, attack("0727", "ru_76_airborne", "ru_81_mech_regt", advance=["ru_81_mech_regt"]),
                 attack("0828", "ru_98_airborne"))
    events, _ = fight(s, [6, 2])
    first, second = boxes(GAME, data(), s, events)
    combats = [i for i, k in enumerate(kinds(events)) if k == "combat"]
    assert (first["first"], second["first"]) == (combats[0] - 1, combats[1] - 1)  # each from its reveal
    assert first["last"] == combats[1] - 2 and second["last"] == kinds(events).index("attacks_over") - 1
    assert first["title"] == "Combat on 0727: the Russian attacks the Chechen, fought at 3:1, die 6: DE"
    assert first["rows"][-3:] == [
        ["CRT (10.11)", "fought at 3:1; die 6: DE, the defender eliminated", ""],
        ["Losses (10.11)", "none", "t01 Argun Battalion, t02 Militia 1 eliminated, to the cup (10.11)"],
        ["Advance (10.12)", "81st Mech Regt into 0727", ""]]
    assert second["rows"] == [
        ["Units", "98th Airborne Regt (3-5)", "t03 Militia 2 (1-4)"],
        ["Combat factors (10.7)", "3", "1"],
        ["Odds (10.7)", "3 to 1, fractions dropped: 3:1", ""],
        ["Column shift (10.8)", "", "1 left: town (TEC)"],
        ["Column shift (10.8)", "", "1 left: more than half the attack across a river (10.10, TEC): 3 of 3"],
        ["CRT (10.11)", "fought at 1:1; die 2: Ax, the attacker loses as many steps as the defender has", ""],
        ["Losses (10.11)", "98th Airborne Regt eliminated, to the pool (1 casualty, 10.13)",
         "none"]]


def test_a_chechen_attack_the_attacker_on_the_left_the_russians_armor_on_the_right() -> None:
    s = c_declared(raid(), c_attack("0727", "t01", "t02", advance=["t01", "t02"]),
                   secret={"supports": {"0727": {"markers": 1, "leaders": ["ch_basayev"]}}})
    events, _ = r_fight(s, [6, 3], r_support("0727", 1), secret={"supports": {"0727": ["armor"]}})
    (box,) = boxes(GAME, data(), s, events)
    assert (box["first"], box["last"]) == (0, kinds(events).index("attacks_over") - 1)
    assert box["title"] == "Combat on 0727: the Chechen attacks the Russian, fought at 3:1, die 6: DE"
    assert box["columns"] == ["", "Chechen (attacker)", "Russian (defender)"]
    assert box["rows"] == [
        ["Units", "t01 Presidential Guard (3-4), t02 Abkhaz Battalion (3-5)",
         "76th Airborne Regt (3-5)"],
        ["Combat factors (10.7)", "6", "3"],
        ["Odds (10.7)", "6 to 3, fractions dropped: 2:1", ""],
        ["Supports (10.9)", "1 artillery marker", "armor (1 column)"],
        ["Leaders (11.2)", "Shamil Basayev (out of the underground)", ""],
        ["Column shift (10.8)", "", "1 left: Russian armor marker (10.9)"],
        ["Column shift (10.8)", "1 right: Chechen artillery marker (10.9)", ""],
        ["Column shift (10.8)", "1 right: Shamil Basayev (10.9, 11.2)", ""],
        ["CRT (10.11)", "fought at 3:1; die 6: DE, the defender eliminated", ""],
        ["Losses (10.11)", "none", "76th Airborne Regt eliminated, to the pool (1 casualty, 10.13)"],
        ["Advance (10.12)", "t01, t02 into 0727", ""],
        ["Markers used (10.9)", "", "armor to the used box"],
        ["Artillery marker die (10.9)", "3: to the used box", ""]]


SEALED_UNITS = {"1426": "ch_borz_regt", "1325": "ch_shali_tank_regt", "1226": "ch_galanchozh_regt",
                "1126": "ch_militia_16"}


def sealed_example() -> dict[str, Any]:
    """14.2's example, each token's identity sealed with its value beside it (as the
    referee's state holds it): a box that read it would show it."""
    s = example()
    for token, spec in s["tokens"].items():
        spec["unit"] = {"kind": "unit", "id": token, "owner": "chechen", "turn": 0, "commitment": "c",
                        "sealed": "x", "value": SEALED_UNITS[spec["hex"]]}
    return s


def test_14_2_two_ambushes_two_boxes_dice_modifiers_table_rows_and_the_retreat() -> None:
    s = sealed_example()
    events, _ = ambush_fight(s, FixedRng(3, 4, 1), ambush("1426", "1525"),
                             ambush("1325", "1326", support="1226", leader="ch_basayev"))
    assert kinds(events) == ["ambush", "leader_placed", "ambush", "retreat_roll", "retreated",
                             "segment_over", "phase"]
    first, second = boxes(GAME, data(), s, events)
    assert (first["first"], first["last"], first["told"]) == (0, 0, [0])
    assert first["title"] == "Ambush on 1525 (Urus-Martan) from 1426: die 3, total 2: none"
    assert first["columns"] == ["", "Chechen (ambusher)", "Russian"]
    assert first["rows"] == [
        ["Units", "1426: 1 unit face down", "503rd Mot. Rifle Regt (4-6)"],
        ["Die (14.3)", "3", ""],
        ["Modifier (14.3)", "-1: the ambushers in clear (14.3)", ""],
        ["Ambush Table", "2, row 3-: none, no effect", ""]]
    assert (second["first"], second["last"], second["told"]) == (1, 4, [1, 2, 3, 4])
    assert second["title"] == "Ambush on 1326 from 1325: die 4, total 5: retreat"
    assert second["rows"] == [
        ["Units", "1325: 1 unit face down",
         "255th Mot. Rifle Regt (4-6), 33rd Mot. Rifle Regt (4-6)"],
        ["Support (14.1)", "1226: 1 unit face down", ""],
        ["Leader (14.3 b)", "Shamil Basayev, out of the underground", ""],
        ["Die (14.3)", "4", ""],
        ["Modifier (14.3)", "-1: the ambushers in clear (14.3)", ""],
        ["Modifier (14.3)", "+1: a leader (14.3 b)", ""],
        ["Modifier (14.3)", "+1: a supporting hex (14.3 c)", ""],
        ["Ambush Table", "5, row 4-5: retreat, half a die, rounded up, of the hex's units retreat", ""],
        ["Retreat die (14.3)", "", "1, halved up: 1 unit retreats"],
        ["Retreat", "", "33rd Mot. Rifle Regt to 1327 (Samashki)"]]
    # 14.3: nothing revealed: no sealed identity, nor a unit's name, in any box
    told = json.dumps([first, second])
    spec = data()["units"]["units"]
    for unit in SEALED_UNITS.values():
        assert unit not in told and spec[unit]["name"] not in told


def test_an_ambush_that_costs_a_step() -> None:
    # 14.2's third ambush: die 6, -1 from a town (1226), +1 a leader: 6, one step; the
    # ruling's choice: the stronger full two-step unit, then the lower id
    s = sealed_example()
    events, _ = ambush_fight(s, FixedRng(6), ambush("1226", "1326", leader="ch_basayev"))
    (box,) = boxes(GAME, data(), s, events)
    assert box["rows"][-4:] == [
        ["Modifier (14.3)", "-1: the ambushers in town (14.3)", ""],
        ["Modifier (14.3)", "+1: a leader (14.3 b)", ""],
        ["Ambush Table", "6, row 6-7: lose 1 step, the hex loses one step", ""],
        ["Losses", "", "255th Mot. Rifle Regt reduced (1 casualty, 10.13)"]]


def test_a_revealed_unit_is_named_in_an_ambush_box_the_face_down_ones_only_counted() -> None:
    s = sealed_example()  # t01 in 1426, sealed; t99 beside it, face up (10.6)
    s["tokens"]["t99"] = {"hex": "1426", "unit": "ch_presidential_guard", "revealed": True}
    events, _ = ambush_fight(s, FixedRng(3), ambush("1426", "1525"))
    (box,) = boxes(GAME, data(), s, events)
    assert box["rows"][0][1] == "1426: 1 unit face down, Presidential Guard"
    assert "Borz" not in json.dumps(box)


def test_a_step_with_no_combat_gives_no_box() -> None:
    s = position({"ru_76_airborne": "0726"}, {"0727": ["ch_argun_bn"]})
    assert boxes(GAME, data(), s, []) == []
    nothing = GAME.resolve(data(), s, {"russian": {"orders": []}}, FixedRng())
    assert kinds(nothing) == ["phase"] and boxes(GAME, data(), s, nothing) == []
    moved = [{"type": "moved", "side": "russian", "units": ["ru_76_airborne"], "path": ["0726", "0626"]}]
    assert boxes_.boxes(data(), s, moved) == []
