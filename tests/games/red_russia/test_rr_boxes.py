"""Battles as boxes in the report (rules/boxes.py): the forces as the battle begins, each
round's dice with what they hit on and why (8.5, 8.91, 10.83), the events the table tells
and those it leaves to the log's lines."""

from __future__ import annotations

import importlib
from typing import Any

from position import GAME, FixedRng, OpenSecrets, data, orders, position
from position import standing as standing_

boxes = importlib.import_module("pbem_game_red_russia.boxes").boxes


def fought(pieces: dict[str, str], *moves: dict[str, Any], dice: int = 6,
           zone: str = "Tver", control: dict[str, str] | None = None,
           reduced: tuple[str, ...] = ()) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Red moves and attacks `zone` (a probe: one round); the state before and the events."""
    state = position(pieces, control=control or {"Tver": "south", "Moscow": "red"}, reduced=reduced)
    state["standing"] = standing_()
    body = orders(*moves, {"attack": {"zone": zone}})
    body["secret"] = {"spend": {zone: 1}}
    events = GAME.resolve(data(), state, {"red": body}, FixedRng(*[dice] * 80), OpenSecrets())
    return state, events


def test_8_5_a_probe_in_a_box() -> None:
    state, events = fought({"red-inf-01": "Moscow", "trotsky": "Moscow", "south-inf-01": "Tver",
                            "kutepov": "Tver"},
                           {"move": {"units": ["red-inf-01", "trotsky"], "to": "Tver"}})
    (box,) = boxes(data(), state, events)
    kinds = [e["type"] for e in events]
    assert (box["first"], box["last"]) == (kinds.index("attack"), kinds.index("battle_over"))
    b = importlib.import_module("pbem_game_red_russia.board").board(data())
    assert box["rows"][1][2] == f"kutepov (level {b.leaders['kutepov']['level']})"  # the defender's, apart
    assert box["rows"][2][1] == ""
    assert box["title"] == "Battle of Tver: Reds attack Southern Whites (probe, up to 1 round, 1 money)"
    assert box["columns"] == ["", "Reds (attacker)", "Southern Whites"]
    units, leaders, fort, round1 = box["rows"]
    assert units[0] == "Units" and units[1].startswith("red-inf-01 ") and units[2].startswith("south-inf-01 ")
    assert leaders[:2] == ["Leaders", "trotsky (level 3)"]
    assert fort[0] == "Fortification" and fort[2].endswith(" (8.5)")
    assert round1[0] == "Round 1"
    assert "Trotsky 5+ (10.83): 6 6 6 = 3 hits" in round1[1]
    assert round1[2].startswith("units 6+: 6")
    # the table tells the attack and its round; the losses and the end stay as lines
    told = set(box["told"])
    assert {kinds.index("attack"), kinds.index("combat_round")} == told
    assert kinds.index("battle_over") not in told


def test_8_5_the_defenders_plus_one_after_a_difficult_route_is_said() -> None:
    b = importlib.import_module("pbem_game_red_russia.board").board(data())
    hard = next((a, z) for a, routes in b.routes.items() for z, kind in routes.items()
                if kind in ("difficult", "very_difficult") and not b.zones[z].get("iron_cross")
                and not b.zones[a].get("iron_cross"))
    start, zone = hard
    state, events = fought({"red-inf-01": start, "south-inf-01": zone},
                           {"move": {"units": ["red-inf-01"], "to": zone}}, dice=5, zone=zone,
                           control={zone: "south", start: "red"})
    (box,) = boxes(data(), state, events)
    round1 = box["rows"][-1]
    assert round1[2].startswith("units 5+ (+1 after a difficult route 8.5): 5")
    assert "(+1" not in round1[1]  # only the defender's


def test_no_battle_no_box() -> None:
    state = position({"red-inf-01": "Moscow"})
    assert boxes(data(), state, []) == []
    assert boxes(data(), state, [{"type": "moved", "faction": "red", "units": ["red-inf-01"], "cost": 1,
                                  "path": ["Moscow", "Tver"]}]) == []


# ---------------------------------------------------------------------------------------
# 9.2-9.5, 13.3 sieges as boxes


def fort_of(zone: str) -> int:
    return int(importlib.import_module("pbem_game_red_russia.board").board(data()).zones[zone]["fort"])


def besieged(pieces: dict[str, str], *sieges: dict[str, Any], dice: list[int],
             actor: str = "red", control: dict[str, str] | None = None,
             hits_before: dict[str, int] | None = None
             ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """`actor` besieges as `sieges` say, with exactly these dice; the state before and the events."""
    state = position(pieces, actor=actor, control=control)
    state["standing"] = standing_()
    for zone, hits in (hits_before or {}).items():
        state.setdefault("siege", {})[zone] = {"faction": actor, "hits": hits}
    rng = FixedRng(*dice)
    events = GAME.resolve(data(), state, {actor: orders(*({"siege": s} for s in sieges))}, rng,
                          OpenSecrets())
    return state, events


def test_9_2_a_siege_in_a_box_its_rounds_and_the_hits_on_the_fortification() -> None:
    # Kazan (Red, fortification 2): round 1 one six (1 of 2), the fortification's two dice
    # miss; round 2 one six more: 2 hits reach the fortification, Kazan is taken (9.2)
    state, events = besieged({"siberian-inf-01": "Kazan"}, {"zone": "Kazan", "rounds": 2},
                             dice=[6, 5, 5, 5, 5] + [1, 1] + [6, 1, 1, 1, 1] + [5, 5], actor="siberian")
    kinds = [e["type"] for e in events]
    (box,) = boxes(data(), state, events)
    assert box["title"] == ("Siege of Kazan (Reds, fortification 2): Siberian Whites, "
                            "2 rounds paid, 2 money")
    assert box["columns"] == ["", "Siberian Whites (besieger)", "Fortification of Kazan"]
    units, leaders, fort, r1, r2 = box["rows"]
    assert units[0] == "Units" and units[1].startswith("siberian-inf-01 ") and units[2] == ""
    assert leaders == ["Leaders", "none", ""]
    assert fort == ["Fortification", "", "2 (9.2)"]
    assert r1 == ["Round 1", "units 6+: 6 5 5 5 5 = 1 hit; 1 of 2 on the fortification (9.2)",
                  "fortification 6+: 1 1 = 0 hits"]
    assert r2 == ["Round 2", "units 6+: 6 1 1 1 1 = 1 hit; 2 of 2 on the fortification (9.2)",
                  "fortification 6+: 5 = 0 hits"]
    assert (box["first"], box["last"]) == (kinds.index("siege"), kinds.index("control"))
    told = [i for i, k in enumerate(kinds) if k in ("siege", "combat_round", "siege_hits")]
    assert box["told"] == told  # the zone taken stays a line under the table


def test_9_3_13_3_why_the_fortification_hits_on_five_and_the_hits_before() -> None:
    # Helsinki (Finland's, fortification 2) with one hit from an earlier round: Finnish
    # fortifications hit on 5-6 (13.3); the hit before is said
    state, events = besieged({"red-inf-01": "Helsinki"}, {"zone": "Helsinki", "rounds": 1},
                             dice=[1, 1, 1, 1, 1] + [5] + [4] * (fort_of("Helsinki") - 2),
                             control={"Helsinki": "finland"},
                             hits_before={"Helsinki": 1})
    (box,) = boxes(data(), state, events)
    fort = fort_of("Helsinki")
    assert box["title"].startswith(f"Siege of Helsinki (Finland, fortification {fort}): Reds, 1 round paid")
    assert box["rows"][2] == ["Fortification", "", f"{fort} (9.2); 1 hit on it before"]
    assert box["rows"][3] == ["Round 1", f"units 6+: 1 1 1 1 1 = 0 hits; 1 of {fort} on the fortification (9.2)",
                              "fortification 5+ (Finnish 13.3): " + " ".join(["5"] + ["4"] * (fort - 2))
                              + " = 1 hit"]


def test_9_2_two_sieges_two_boxes_each_ending_with_its_own_events() -> None:
    state, events = besieged({"red-inf-01": "Ufa", "red-inf-02": "Samara"},
                             {"zone": "Ufa", "rounds": 2}, {"zone": "Samara", "rounds": 1},
                             dice=[6, 1, 1, 1, 1] + [1] + [6, 1, 1, 1, 1] + [1])
    kinds = [e["type"] for e in events]
    ufa, samara = boxes(data(), state, events)
    first, second = [i for i, k in enumerate(kinds) if k == "siege"]
    assert (ufa["first"], samara["first"]) == (first, second)
    assert ufa["last"] == second - 1 and events[ufa["last"]]["type"] == "control"
    assert events[samara["last"]] == {"type": "control", "zone": "Samara", "faction": "red",
                                      "from": "siberian", "why": "siege (9.2)"}
    assert ufa["title"].startswith("Siege of Ufa (Siberian Whites, fortification 1)")
    assert samara["title"].endswith("1 round paid, 1 money")


def test_9_4_a_pyrrhic_siege_keeps_its_losses_and_the_leaders_fate_in_its_box() -> None:
    # a reduced red-inf-01 and Stalin besiege Ufa: one hit each way; the unit is gone, the
    # siege lifted (9.4), Stalin's leader test (10.4): all of it in the box's run
    state = position({"red-inf-01": "Ufa", "stalin": "Ufa"}, reduced=("red-inf-01",))
    state["standing"] = standing_()
    events = GAME.resolve(data(), state, {"red": orders({"siege": {"zone": "Ufa", "rounds": 2}})},
                          FixedRng(*([6, 5, 5, 5, 5] + [6] + [6, 5, 4])), OpenSecrets())
    kinds = [e["type"] for e in events]
    (box,) = boxes(data(), state, events)
    assert box["rows"][1] == ["Leaders", "stalin (level 2)", ""]
    assert "(reduced)" in box["rows"][0][1]
    assert box["last"] == kinds.index("leader_loss")
    assert kinds.index("siege_lifted") not in box["told"]


def test_9_3_the_fortification_hits_on_five_after_the_besiegers_difficult_route() -> None:
    # 9.3 "Add 1 to the result of the first round only, if the besiegers enter the zone this
    # turn by a difficult or very difficult route"
    b = importlib.import_module("pbem_game_red_russia.board").board(data())
    start, zone = next((a, z) for a, routes in sorted(b.routes.items()) for z, kind in sorted(routes.items())
                       if kind in ("difficult", "very_difficult") and int(b.zones[z].get("fort") or 0) == 1
                       and not b.zones[z].get("iron_cross") and not b.zones[a].get("iron_cross"))
    state2 = position({"red-inf-01": start}, control={zone: "south", start: "red"})
    state2["standing"] = standing_()
    body = orders({"move": {"units": ["red-inf-01"], "to": zone}}, {"siege": {"zone": zone, "rounds": 2}})
    events = GAME.resolve(data(), state2, {"red": body}, FixedRng(*([1] * 5 + [5] + [1] * 5 + [5])),
                          OpenSecrets())
    (box,) = boxes(data(), state2, events)
    rounds = [row for row in box["rows"] if row[0].startswith("Round")]
    assert rounds[0][2] == "fortification 5+ (+1 after a difficult route 9.3): 5 = 1 hit"
    assert rounds[1][2] == "fortification 6+: 5 = 0 hits"


# ---------------------------------------------------------------------------------------
# 4.7-4.9 the winter as one box


def test_4_7_to_4_9_the_winter_a_faction_a_row() -> None:
    events = [
        {"type": "segment", "rule": "4.7", "name": "winter attrition"},
        {"type": "attrition", "faction": "red", "zone": "Kotlas", "unit": "red-inf-08", "count": 2,
         "limit": 0, "zone_of": "own"},
        {"type": "attrition", "faction": "red", "zone": "Kotlas", "unit": "red-inf-19", "count": 2,
         "limit": 0, "zone_of": "own", "eliminated": True},
        {"type": "attrition", "faction": "red", "zone": "Perm", "unit": "red-cav-01", "count": 3,
         "limit": 1, "zone_of": "enemy"},
        {"type": "segment", "rule": "4.8", "name": "maintenance"},
        {"type": "maintenance", "faction": "south", "units": 2, "paid": 2, "money": 2, "manpower": 2},
        {"type": "maintenance", "faction": "red", "units": 3, "paid": 1, "money": 1, "manpower": 1},
        {"type": "unmaintained", "faction": "red", "unit": "red-inf-08", "zone": "Kotlas", "eliminated": True},
        {"type": "unmaintained", "faction": "red", "unit": "allied-inf-01", "zone": "Perm"},
        {"type": "unmaintained", "faction": "red", "unit": "red-inf-03", "zone": "Perm"},
        {"type": "segment", "rule": "4.9", "name": "money and manpower"},
        {"type": "collected", "faction": "south", "money": 16, "manpower": 13, "zones": 7, "outnumbered": []},
        {"type": "collected", "faction": "red", "money": 58, "manpower": 62, "zones": 35,
         "outnumbered": ["Samarkand", "Verny"]},
        {"type": "attrition", "faction": "north", "zone": "Kem", "unit": "north-inf-01", "count": 2,
         "limit": 1, "zone_of": "own"},
        {"type": "segment", "rule": "4.1", "name": "card phase"},
        {"type": "phase", "turn": 4, "phase": "purchase"},
    ]
    (box,) = boxes(data(), position({}), events)
    assert (box["first"], box["last"]) == (0, 13)
    assert box["told"] == list(range(14))  # another segment and the next turn's phase stay lines
    assert box["title"] == "Winter: attrition, maintenance, money and manpower (4.7-4.9)"
    assert box["columns"] == ["", "Attrition (5.5)", "Maintained (5.6)", "Collected (6.3)"]
    assert box["rows"] == [
        ["Reds", "Kotlas (2 units, limit 0): inf-08,", "1 of 3 units (1 money, 1 manpower); a",
         "58 money, 62 manpower from 35 zones;"],
        ["", "inf-19 (eliminated); Perm (3 units,", "step lost: allied-inf-01, inf-03;",
         "nothing from Samarkand, Verny"],
        ["", "limit 1, not its own): cav-01", "eliminated: inf-08", ""],
        ["Southern Whites", "none", "2 of 2 units (2 money, 2 manpower)", "16 money, 13 manpower from 7 zones"],
        ["Northern/Asiatic Whites", "Kem (2 units, limit 1): inf-01", "-", "-"],
    ]


def test_a_step_with_no_battle_siege_or_winter_has_no_box() -> None:
    assert boxes(data(), position({}), [{"type": "segment", "rule": "4.4", "name": "initiative"},
                                        {"type": "phase", "turn": 4, "phase": "action"}]) == []


# ---------------------------------------------------------------------------------------
# why each group of dice hits on its number, word for word (cases from a bounded mutation
# run of rules/boxes.py)

_boxes = importlib.import_module("pbem_game_red_russia.boxes")


def group(what: str, hit: int, *values: int) -> dict[str, Any]:
    return {"what": what, "hit": hit, "values": list(values), "hits": sum(v >= hit for v in values)}


WHY = [
    # (group, side, round, after a difficult route, Finnish fort) -> the cell
    (group("tanks", 5, 5, 4), "atk", 1, False, False, "tanks 5+ (tanks 8.91): 5 4 = 1 hit"),
    (group("tanks", 6, 5, 6), "atk", 2, False, False, "tanks 6+: 5 6 = 1 hit"),
    (group("aircraft", 5, 5, 6), "atk", 1, False, False, "aircraft 5+ (first fire 8.93): 5 6 = 2 hits"),
    (group("Trotsky", 5, 5), "def", 1, True, False, "Trotsky 5+ (10.83): 5 = 1 hit"),
    (group("Stalin's commissars", 6, 6, 6), "atk", 1, False, False,
     "Stalin's commissars 6+ (doubled 10.82): 6 6 = 2 hits"),
    (group("leaders", 6, 3), "atk", 1, False, False, "leaders 6+: 3 = 0 hits"),
    (group("white-terror", 5, 5), "atk", 1, False, False, "white-terror 5+ (battle card 14.6): 5 = 1 hit"),
    (group("units", 5, 5, 1), "def", 1, True, False, "units 5+ (+1 after a difficult route 8.5): 5 1 = 1 hit"),
    (group("units", 6, 5, 1), "def", 2, True, False, "units 6+: 5 1 = 0 hits"),
    (group("units", 6, 5), "atk", 1, True, False, "units 6+: 5 = 0 hits"),
    (group("tanks", 4, 4), "def", 1, True, False,
     "tanks 4+ (tanks 8.91, +1 after a difficult route 8.5): 4 = 1 hit"),
    (group("fortification", 5, 5), "def", 1, False, True, "fortification 5+ (Finnish 13.3): 5 = 1 hit"),
    (group("fortification", 6, 5), "def", 2, False, True, "fortification 6+: 5 = 0 hits"),
    (group("fortification", 4, 4), "def", 1, True, True,
     "fortification 4+ (Finnish 13.3, +1 after a difficult route 9.3): 4 = 1 hit"),
]


def test_8_5_9_3_10_82_10_83_13_3_14_6_why_each_group_hits_on_its_number() -> None:
    for g, side, r, route, finnish, told in WHY:
        assert _boxes._why(g, side, r, route, finnish) == told, told
    # a fortification is Finnish only when the box says so
    assert _boxes._why(group("fortification", 5, 5), "def", 1, False) == "fortification 5+: 5 = 1 hit"


def test_the_units_and_leaders_of_a_box_with_their_values() -> None:
    state = position({"red-inf-01": "Moscow", "red-cav-02": "Moscow", "trotsky": "Moscow", "stalin": "Moscow"},
                     reduced=("red-cav-02",))
    b = importlib.import_module("pbem_game_red_russia.board").board(data())
    inf, cav = b.counters["red-inf-01"]["full"], b.counters["red-cav-02"]["reduced"]
    assert _boxes._units(b, state, ["red-inf-01", "red-cav-02"]) == (
        f"red-inf-01 {inf[0]}-{inf[1]}, red-cav-02 {cav[0]}-{cav[1]} (reduced)")
    assert _boxes._units(b, state, []) == "none"
    assert _boxes._leaders(b, ["trotsky", "stalin"]) == (
        f"trotsky (level {b.leaders['trotsky']['level']}), stalin (level {b.leaders['stalin']['level']})")
    assert _boxes._leaders(b, []) == "none"
    assert _boxes._short("red", ["red-inf-01", "allied-inf-02"]) == "inf-01, allied-inf-02"


def test_9_2_a_siege_of_a_neutral_zone_with_a_leader_and_hits_before() -> None:
    # a neutral zone (no holder): "neutral" in the title; the besieging leader in the box
    # with his level; two hits before, in the plural
    b = importlib.import_module("pbem_game_red_russia.board").board(data())
    zone = next(z for z, spec in sorted(b.zones.items()) if int(spec.get("fort") or 0) == 3
                and spec.get("kind", "land") == "land" and not spec.get("home"))
    state, events = besieged({"red-inf-01": zone, "trotsky": zone}, {"zone": zone, "rounds": 1},
                             dice=[1] * 30, control={zone: None}, hits_before={zone: 2})
    (box,) = boxes(data(), state, events)
    assert box["title"] == f"Siege of {zone} (neutral, fortification 3): Reds, 1 round paid, 1 money"
    assert box["rows"][1] == ["Leaders", f"trotsky (level {b.leaders['trotsky']['level']})", ""]
    assert box["rows"][2] == ["Fortification", "", "3 (9.2); 2 hits on it before"]
    kinds = [e["type"] for e in events]
    assert box["last"] == kinds.index("leader_loss")  # Trotsky's test after the siege (10.4), in the box


def test_8_3_9_2_a_battle_then_a_siege_in_one_step_each_its_box() -> None:
    # Red assaults Tver (2 rounds, 3 money), then besieges Kazan: two boxes, in their order
    state = position({"red-inf-01": "Tver", "south-inf-01": "Tver", "red-inf-02": "Kazan"},
                     control={"Tver": "red", "Kazan": "siberian"})
    state["standing"] = standing_()
    body = orders({"attack": {"zone": "Tver"}}, {"siege": {"zone": "Kazan", "rounds": 1}})
    body["secret"] = {"spend": {"Tver": 3}}
    events = GAME.resolve(data(), state, {"red": body}, FixedRng(*[6] * 80), OpenSecrets())
    battle, siege = boxes(data(), state, events)
    assert battle["title"] == "Battle of Tver: Reds attack Southern Whites (assault, up to 2 rounds, 3 money)"
    assert [row[0] for row in battle["rows"]][:2] == ["Units", "Leaders"]
    assert "Fortification" not in [row[0] for row in battle["rows"]]  # Tver is the attacker's own
    assert siege["title"].startswith("Siege of Kazan (Siberian Whites, fortification ")
    assert battle["last"] < siege["first"]


def test_8_0_a_battle_against_two_white_factions_names_both() -> None:
    # Red attacks Tver where Southern and Siberian units stand together: the box's title and
    # its defenders' column name both, joined by "and"
    state, events = fought({"red-inf-01": "Moscow", "south-inf-01": "Tver", "siberian-inf-01": "Tver"},
                           {"move": {"units": ["red-inf-01"], "to": "Tver"}})
    (box,) = boxes(data(), state, events)
    attack = next(e for e in events if e["type"] == "attack")
    assert sorted(attack["defenders"]) == ["siberian", "south"]
    assert box["title"].startswith("Battle of Tver: Reds attack Siberian Whites and Southern Whites (")
    assert box["columns"][2] == "Siberian Whites and Southern Whites"
