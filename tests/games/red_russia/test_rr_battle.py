"""Red Russia battles (battle.py: a land battle's rounds, losses, retreats, leaders and
battle cards; 8.3-8.93, 10.x, 12.11, 12.12, 13.61, 14.6) as rule tables: a position, the
attack, exactly the dice it asks for, and the exact outcome - every event, every die asked
by its label, the units' state. Each test's name starts with the rule it checks (rulebook:
../shared/rules/red-russia-rules.txt).
"""

from __future__ import annotations

import importlib
from typing import Any

from position import FixedRng, SixSided, data, orders, position
from position import standing as standing_
from test_rr_combat import run

battle_rules = importlib.import_module("pbem_game_red_russia.battle")
board_rules = importlib.import_module("pbem_game_red_russia.board")

Events = list[dict[str, Any]]
Group = tuple[str, int, list[int]]  # what, the number that hits, the values rolled


def board_state(pieces: dict[str, str], *, actor: str = "red", control: dict[str, Any] | None = None,
                reduced: tuple[str, ...] = (), standing: dict[str, Any] | None = None, turn: int = 3,
                minors: dict[str, dict[str, Any]] | None = None) -> dict[str, Any]:
    """`pieces` on the map, every major standing to fight (then `standing`), `minors`
    activated as given."""
    state = position(pieces, actor=actor, control=control, reduced=reduced, turn=turn)
    state["standing"] = standing_(standing)
    for name, spec in (minors or {}).items():
        state["minors"][name] = {"controller": None, "until": None, **spec}
    return state


def attack(state: dict[str, Any], zone: str, spend: int, dice: list[int],
           **arg: Any) -> tuple[Events, dict[str, Any], FixedRng]:
    body = orders({"attack": {"zone": zone, **arg}})
    body["secret"] = {"spend": {zone: spend}}
    return run(state, body, dice)


def opened(zone: str, attacker: str, defenders: list[str], spend: int = 1) -> dict[str, Any]:
    level, rounds = {1: ("probe", 1), 3: ("assault", 2), 5: ("invasion", 4)}[spend]
    return {"type": "attack", "zone": zone, "attacker": attacker, "defenders": defenders,
            "spend": spend, "level": level, "rounds": rounds}


def groups(*found: Group) -> list[dict[str, Any]]:
    return [{"what": what, "count": len(values), "hit": hit, "values": values,
             "hits": sum(v >= hit for v in values)} for what, hit, values in found]


def combat_round(zone: str, attacker: str, r: int, atk: list[Group], dfn: list[Group]) -> dict[str, Any]:
    rolled = {"atk": groups(*atk), "def": groups(*dfn)}
    return {"type": "combat_round", "zone": zone, "round": r, "attacker": attacker, "dice": rolled,
            "hits": {side: sum(g["hits"] for g in rolled[side]) for side in rolled}}


def units(values: list[int]) -> Group:
    return ("units", 6, values)


def loss_test(leader: str, zone: str, dice: list[int], steps: int, fate: int | None = None) -> dict[str, Any]:
    result = "safe" if fate is None else "wounded" if fate <= 3 else "killed"
    return {"type": "leader_loss", "leader": leader, "zone": zone, "dice": dice, "steps": steps,
            "fate": fate, "result": result}


def over(zone: str, attacker: str, atk_left: bool = True, def_left: bool = True) -> dict[str, Any]:
    return {"type": "battle_over", "zone": zone, "attacker": attacker, "attacker_left": atk_left,
            "defender_left": def_left}


def reduced(unit: str, by: str = "combat", *, last: bool = False) -> dict[str, Any]:
    """A step loss; `last`: the unit was reduced already, so the loss eliminates it."""
    return {"type": "reduced", "unit": unit, "by": by, **({"eliminated": True} if last else {})}


def retreat(zone: str, faction: str, pieces: list[str], to: str, when: str = "after a round") -> dict[str, Any]:
    return {"type": "retreat", "zone": zone, "faction": faction, "units": pieces, "to": to, "when": when}


def labels(zone: str, attacker: str, *parts: str) -> list[str]:
    return [f"combat:{zone.lower()}:t3:{attacker}:{p}" for p in parts]


# ---------------------------------------------------------------------------------------
# 10.4, 10.5 the leaders after the battle


def test_10_4_a_defending_leader_tests_the_defenders_steps_only_eleven_is_safe() -> None:
    # 10.4 "roll two dice ... add the number of steps lost": the attacker has no leader, the
    # defender's Denikin rolls 6+5 with no step lost: 11, safe (a 12 would have asked his fate)
    state = board_state({"red-inf-01": "Tver", "south-inf-01": "Tver", "denikin": "Tver"})
    events, _, rng = attack(state, "Tver", 1, [1] * 12 + [6, 5])
    assert events == [
        opened("Tver", "red", ["south"]),
        combat_round("Tver", "red", 1, [units([1] * 5)], [units([1] * 7)]),
        loss_test("denikin", "Tver", [6, 5], 0),
        over("Tver", "red"),
    ]
    assert rng.labels[-2:] == labels("Tver", "red", "leader:denikin:d1", "leader:denikin:d2")


def test_10_4_the_attackers_named_leader_adds_every_step_his_side_lost_while_his_units_stay() -> None:
    # 10.4: Trotsky (named; Frunze stays out of the attack) with three units that lost two
    # steps: 5+5+2 = 12, a hit, wounded on 2. The defenders are gone, but his side's units
    # are still there: no capture (10.5)
    pieces = {"red-inf-01": "Tver", "red-inf-02": "Tver", "red-inf-03": "Tver", "trotsky": "Tver",
              "frunze": "Tver", "south-inf-01": "Tver", "south-inf-02": "Tver"}
    state = board_state(pieces, reduced=("south-inf-01", "south-inf-02"))
    events, after, rng = attack(state, "Tver", 1, [1, 1, 1] + [6, 6] + [1] * 13 + [6, 6, 6, 6, 1, 1] + [5, 5, 2],
                                leaders=["trotsky"])
    assert events == [
        opened("Tver", "red", ["south"]),
        combat_round("Tver", "red", 1, [("Trotsky", 5, [1, 1, 1]), units([6, 6] + [1] * 13)],
                     [units([6, 6, 6, 6, 1, 1])]),
        reduced("red-inf-01"), reduced("red-inf-02"), reduced("south-inf-01", last=True), reduced("south-inf-02", last=True),
        retreat("Tver", "red", ["red-inf-01"], "Moscow"),
        retreat("Tver", "red", ["red-inf-02"], "Moscow"),
        loss_test("trotsky", "Tver", [5, 5], 2, fate=2),
        over("Tver", "red", def_left=False),
    ]
    assert rng.labels[-3:] == labels("Tver", "red", "leader:trotsky:d1", "leader:trotsky:d2",
                                     "leader:trotsky:fate")
    assert after["units"]["south-inf-01"]["status"] == after["units"]["south-inf-02"]["status"] == "eliminated"
    assert after["units"]["frunze"]["zone"] == "Tver"



def test_10_5_8_2_the_attackers_leader_alone_escapes_then_the_defenders_leader_is_tested() -> None:
    # an assault (two rounds paid): the reduced red-inf-01 is eliminated in round 1, so no
    # round 2 is fought; Trotsky, alone, escapes (4+4+3 > 10) to Moscow (10.5); Denikin's
    # loss test follows (10.4: his side lost nothing)
    state = board_state({"red-inf-01": "Tver", "trotsky": "Tver", "south-inf-01": "Tver", "denikin": "Tver"},
                        reduced=("red-inf-01",))
    events, after, rng = attack(state, "Tver", 3, [1] * 6 + [6] + [1] * 6 + [4, 4] + [1, 1])
    assert events == [
        opened("Tver", "red", ["south"], spend=3),
        combat_round("Tver", "red", 1, [("Trotsky", 5, [1, 1, 1]), units([1, 1, 1])], [units([6] + [1] * 6)]),
        reduced("red-inf-01", last=True),
        {"type": "leader_capture", "leader": "trotsky", "zone": "Tver", "dice": [4, 4], "result": "escaped",
         "to": "Moscow"},
        loss_test("denikin", "Tver", [1, 1], 0),
        over("Tver", "red", atk_left=False),
    ]
    assert rng.labels[-4:] == labels("Tver", "red", "capture:trotsky:d1", "capture:trotsky:d2",
                                     "leader:denikin:d1", "leader:denikin:d2")
    assert after["units"]["trotsky"]["zone"] == "Moscow"

# ---------------------------------------------------------------------------------------
# 10.82 Stalin's commissars


def test_10_82_the_two_strongest_red_infantry_roll_double_in_the_first_round_only() -> None:
    # stalin_commissars 2: red-inf-09 (4) then the reduced red-inf-01 (3, before red-inf-17's
    # 3 by name); the cavalry is no commissar. They lose their step before the hits (the
    # reduced one is gone); round 2 has no commissars. Stalin's loss test: 5+5 and the two
    # steps = 12, wounded on 1
    pieces = {"red-inf-01": "Tver", "red-inf-09": "Tver", "red-inf-17": "Tver", "red-cav-01": "Tver",
              "stalin": "Tver", "south-inf-01": "Tver"}
    state = board_state(pieces, reduced=("red-inf-01",), standing={"red": {"stalin_commissars": 2}})
    events, after, _ = attack(state, "Tver", 3, [1] * 46 + [5, 5, 1])
    commissars = "Stalin's commissars (10.82)"
    assert events == [
        opened("Tver", "red", ["south"], spend=3),
        combat_round("Tver", "red", 1, [("Stalin's commissars", 6, [1] * 7), units([1] * 17)], [units([1] * 5)]),
        reduced("red-inf-09", commissars), reduced("red-inf-01", commissars, last=True),
        combat_round("Tver", "red", 2, [units([1] * 12)], [units([1] * 5)]),
        loss_test("stalin", "Tver", [5, 5], 2, fate=1),
        over("Tver", "red"),
    ]
    assert after["units"]["red-inf-01"]["status"] == "eliminated"
    assert after["units"]["red-inf-09"]["reduced"] and not after["units"]["red-inf-17"]["reduced"]


def test_10_82_stalins_commissars_defend_too() -> None:
    # South attacks Tver: Stalin and red-inf-01 defend, stalin_commissars 1
    state = board_state({"red-inf-01": "Tver", "stalin": "Tver", "south-inf-01": "Tver", "south-inf-02": "Tver"},
                        actor="south", standing={"red": {"stalin_commissars": 1}})
    events, _, _ = attack(state, "Tver", 1, [1] * 23 + [1, 1])
    assert events == [
        opened("Tver", "south", ["red"]),
        combat_round("Tver", "south", 1, [units([1] * 10)], [("Stalin's commissars", 6, [1] * 5), units([1] * 8)]),
        reduced("red-inf-01", "Stalin's commissars (10.82)"),
        loss_test("stalin", "Tver", [1, 1], 1),
        over("Tver", "south"),
    ]


def test_8_3_an_invasion_without_standing_instructions_lasts_four_rounds() -> None:
    # 8.3 / combat.py: invasion_rounds defaults to 4; the Reds gave no standing at all (and
    # so no stalin_commissars: none with Stalin there, 10.82)
    state = board_state({"red-inf-01": "Tver", "stalin": "Tver", "south-inf-01": "Tver"})
    del state["standing"]["red"]
    events, _, _ = attack(state, "Tver", 5, [1] * 48 + [1, 1])
    rnd = [combat_round("Tver", "red", r, [units([1] * 7)], [units([1] * 5)]) for r in range(1, 5)]
    assert events == [opened("Tver", "red", ["south"], spend=5), *rnd, loss_test("stalin", "Tver", [1, 1], 0),
                      over("Tver", "red")]


# ---------------------------------------------------------------------------------------
# 10.2, 10.8.1, 10.83 Lenin and Trotsky


def test_10_8_1_lenin_adds_two_dice_only_at_petrograd_or_moscow_and_his_death_costs_the_reds() -> None:
    # Petrograd (held by North): Lenin's 2 dice, Trotsky's 2 (not 3: Lenin is with him,
    # 10.83); Lenin's loss test 6+6, fate 4: killed, then two dice of manpower and money
    state = board_state({"red-inf-01": "Petrograd", "lenin": "Petrograd", "trotsky": "Petrograd",
                         "north-inf-01": "Petrograd"}, control={"Petrograd": "north"})
    events, _, rng = attack(state, "Petrograd", 1, [1] * 17 + [6, 6, 4] + [3, 2])
    assert events == [
        {"type": "trotsky_distracted", "with": "lenin", "zone": "Petrograd"},  # 10.83
        opened("Petrograd", "red", ["north"]),
        combat_round("Petrograd", "red", 1, [("Trotsky", 5, [1, 1]), units([1] * 7)], [units([1] * 8)]),
        loss_test("lenin", "Petrograd", [6, 6], 0, fate=4),
        {"type": "lenin_killed", "manpower": 3, "money": 2, "by": ["north"]},
        over("Petrograd", "red"),
    ]
    assert rng.labels[-2:] == labels("Petrograd", "red", "lenin:manpower", "lenin:money")
    # Tver: Lenin adds nothing, Trotsky still 2; wounded on 3, Lenin lives (no more dice)
    state = board_state({"red-inf-01": "Tver", "lenin": "Tver", "trotsky": "Tver", "south-inf-01": "Tver"})
    events, _, _ = attack(state, "Tver", 1, [1] * 12 + [6, 6, 3])
    assert events == [
        {"type": "trotsky_distracted", "with": "lenin", "zone": "Tver"},
        opened("Tver", "red", ["south"]),
        combat_round("Tver", "red", 1, [("Trotsky", 5, [1, 1]), units([1] * 5)], [units([1] * 5)]),
        loss_test("lenin", "Tver", [6, 6], 0, fate=3),
        over("Tver", "red"),
    ]


# ---------------------------------------------------------------------------------------
# 8.6, 12.11, 12.12 a minor's losses and retreats


def test_8_6_12_11_a_minor_takes_its_controllers_loss_order_and_retreats_to_its_own_zone() -> None:
    # Finland (active, North's) defends Vyborg with Mannerheim. 8.6: the North's loss_order
    # takes finland-inf-03's step, not finland-inf-01's (first by name, without one); the
    # Reds' takes red-inf-17, not red-inf-01. 12.11: finland-inf-03 passes Helsinki and
    # Petrograd (North's, not its own) and retreats to Tampere, its own (where a North unit
    # is: no enemy)
    pieces = {"red-inf-01": "Vyborg", "red-inf-17": "Vyborg", "finland-inf-01": "Vyborg",
              "finland-inf-03": "Vyborg", "mannerheim": "Vyborg", "north-inf-01": "Tampere"}
    state = board_state(pieces, control={"Petrograd": "north", "Helsinki": "north"},
                        minors={"finland": {"status": "active", "controller": "north"}},
                        standing={"north": {"loss_order": ["finland-inf-03"]}, "red": {"loss_order": ["red-inf-17"]}})
    events, after, _ = attack(state, "Vyborg", 1, [6, 6, 1, 1, 1, 1, 1, 1] + [6, 6] + [1] * 9 + [1, 1])
    assert events == [
        opened("Vyborg", "red", ["finland"]),
        combat_round("Vyborg", "red", 1, [units([6, 6, 1, 1, 1, 1, 1, 1])], [units([6, 6] + [1] * 9)]),
        reduced("red-inf-17"), reduced("finland-inf-03"),
        retreat("Vyborg", "red", ["red-inf-17"], "Petrozavodsk"),
        retreat("Vyborg", "finland", ["finland-inf-03"], "Tampere"),
        loss_test("mannerheim", "Vyborg", [1, 1], 1),
        over("Vyborg", "red"),
    ]
    assert after["units"]["finland-inf-03"]["zone"] == "Tampere"
    assert after["units"]["finland-inf-01"]["reduced"] is False


# ---------------------------------------------------------------------------------------
# 8.4 retreat before combat


def before(zone: str, faction: str, pieces: list[str], to: str) -> dict[str, Any]:
    return retreat(zone, faction, pieces, to, when="before combat")


def test_8_4_only_defenders_retreat_before_combat_and_a_defender_with_nowhere_to_go_stays() -> None:
    # the Reds' own `always` is for when they defend; South's `always` finds no friendly
    # zone next to Tver (all Red): it stays and fights, without a note
    state = board_state({"red-inf-01": "Tver", "south-inf-01": "Tver"},
                        standing={"red": {"retreat_before_combat": "always"},
                                  "south": {"retreat_before_combat": "always"}})
    events, _, _ = attack(state, "Tver", 1, [1] * 10)
    assert events == [opened("Tver", "red", ["south"]),
                      combat_round("Tver", "red", 1, [units([1] * 5)], [units([1] * 5)]), over("Tver", "red")]


def test_8_4_more_attacking_cavalry_counts_units_and_stops_only_that_faction() -> None:
    # two Red cavalry against South's two infantry and one cavalry: 2 > 1, no retreat
    pieces = {"red-cav-01": "Tver", "red-cav-02": "Tver", "south-inf-01": "Tver", "south-inf-02": "Tver",
              "south-cav-01": "Tver"}
    state = board_state(pieces, control={"Petrograd": "south"}, standing={"south": {"retreat_before_combat": "always"}})
    events, _, _ = attack(state, "Tver", 1, [1] * 25)
    assert events[0] == {"type": "note", "zone": "Tver", "text": "south cannot retreat before combat: the "
                                                                 "attacker has more cavalry (8.4)"}
    assert [e["type"] for e in events[1:]] == ["attack", "combat_round", "battle_over"]
    # the Siberians are held by the Red cavalry; South's cavalry alone still goes
    pieces = {"red-cav-01": "Tver", "siberian-inf-01": "Tver", "south-cav-01": "Tver"}
    state = board_state(pieces, control={"Petrograd": "south"},
                        standing={"south": {"retreat_before_combat": "always"},
                                  "siberian": {"retreat_before_combat": "always"}})
    events, _, _ = attack(state, "Tver", 1, [1] * 10)
    assert events[:3] == [
        {"type": "note", "zone": "Tver", "text": "siberian cannot retreat before combat: the attacker has "
                                                 "more cavalry (8.4)"},
        before("Tver", "south", ["south-cav-01"], "Petrograd"),
        opened("Tver", "red", ["siberian"]),
    ]


def test_8_4_a_retreat_passes_enemy_held_zones_and_difficult_routes() -> None:
    # from Tver: Moscow (South's) holds two Red units, more than the one retreating;
    # Novgorod is across a difficult route (8.4: easy routes only); Petrograd it is
    pieces = {"red-inf-01": "Tver", "south-inf-01": "Tver", "red-inf-02": "Moscow", "red-inf-03": "Moscow"}
    state = board_state(pieces, control={"Moscow": "south", "Novgorod": "south", "Petrograd": "south"},
                        standing={"south": {"retreat_before_combat": "always"}})
    events, after, _ = attack(state, "Tver", 1, [])
    assert events == [before("Tver", "south", ["south-inf-01"], "Petrograd"),
                      {**opened("Tver", "red", []), "rounds": 0}]
    assert after["units"]["south-inf-01"]["zone"] == "Petrograd"


def test_8_4_a_retreat_by_sea_carries_one_unit_and_the_best_leader_the_rest_stay_and_fight() -> None:
    # South in Novorossiysk, Ekaterinodar Red: retreat_to the Baltic Sea (not its sea: a
    # note) then the Black Sea: the fleet takes south-inf-01 and one leader, Wrangel (3,
    # before Denikin's and Kutepov's 2); the cavalry may not sail and has no land retreat:
    # it stays, and the two other leaders with it
    pieces = {"red-inf-01": "Novorossiysk", "south-inf-01": "Novorossiysk", "south-cav-01": "Novorossiysk",
              "south-cav-02": "Novorossiysk", "south-fleet-01": "Novorossiysk", "denikin": "Novorossiysk",
              "wrangel": "Novorossiysk", "kutepov": "Novorossiysk"}
    state = board_state(pieces, control={"Ekaterinodar": "red"},
                        standing={"south": {"retreat_before_combat": "always",
                                            "retreat_to": ["Baltic Sea", "Black Sea"]}})
    events, after, _ = attack(state, "Novorossiysk", 1, [1] * 21 + [1, 1] + [1, 1])
    zone = "Novorossiysk"
    assert events == [
        {"type": "note", "zone": zone, "text": "south cannot retreat by sea from Novorossiysk to the Baltic Sea: "
                                               "Novorossiysk is not a port of the Baltic Sea (8.4, 7.43)"},
        {**before(zone, "south", ["south-inf-01", "wrangel", "south-fleet-01"], "Black Sea"), "by": "sea",
         "fleet": "south-fleet-01"},
        {"type": "note", "zone": zone, "text": "south-cav-01, south-cav-02 cannot retreat by sea or by land: "
                                               "they stay and fight (8.4)"},
        opened(zone, "red", ["south"]),
        combat_round(zone, "red", 1, [units([1] * 5)], [units([1] * 16)]),
        loss_test("denikin", zone, [1, 1], 0),
        loss_test("kutepov", zone, [1, 1], 0),
        over(zone, "red"),
    ]
    assert after["units"]["wrangel"]["zone"] == "Black Sea"
    assert after["units"]["denikin"]["zone"] == after["units"]["kutepov"]["zone"] == zone


def test_8_4_a_sea_in_retreat_to_is_tried_before_a_land_zone_reached_only_by_a_difficult_route() -> None:
    # the Reds in Vyborg: Tampere (theirs) is across a difficult route, no retreat before
    # combat; the Baltic Sea next: red-fleet-01 carries red-inf-01 (not overland to Petrograd)
    pieces = {"north-inf-01": "Vyborg", "red-inf-01": "Vyborg", "red-fleet-01": "Vyborg"}
    state = board_state(pieces, actor="north", control={"Vyborg": "red", "Tampere": "red"},
                        standing={"red": {"retreat_before_combat": "always", "retreat_to": ["Tampere", "Baltic Sea"]}})
    events, _, _ = attack(state, "Vyborg", 1, [])
    assert events == [
        {**before("Vyborg", "red", ["red-inf-01", "red-fleet-01"], "Baltic Sea"), "by": "sea",
         "fleet": "red-fleet-01"},
        {**opened("Vyborg", "north", []), "rounds": 0},
    ]


def test_8_4_12_11_a_faction_with_nowhere_to_go_does_not_keep_the_next_one_from_retreating() -> None:
    # Kem: Finland's unit (North's standing, 12.12) may only retreat to a Finnish zone
    # (12.11) and has none; the North's goes on to Petrozavodsk
    pieces = {"red-inf-01": "Kem", "finland-inf-01": "Kem", "north-inf-01": "Kem"}
    state = board_state(pieces, control={"Petrozavodsk": "north"},
                        minors={"finland": {"status": "active", "controller": "north"}},
                        standing={"north": {"retreat_before_combat": "always"}})
    events, _, _ = attack(state, "Kem", 1, [1] * 9)
    assert events == [
        before("Kem", "north", ["north-inf-01"], "Petrozavodsk"),
        opened("Kem", "red", ["finland"]),
        combat_round("Kem", "red", 1, [units([1] * 5)], [units([1] * 4)]),
        over("Kem", "red"),
    ]


# ---------------------------------------------------------------------------------------
# 8.7, 8.92 retreats by choice after a round


def by_choice(zone: str, faction: str, pieces: list[str], to: str) -> dict[str, Any]:
    return retreat(zone, faction, pieces, to, when="by choice after a round")


def test_8_7_each_outnumbered_faction_decides_for_itself() -> None:
    # the Siberians stand (never), South retreats by choice
    pieces = {"red-inf-01": "Tver", "red-inf-02": "Tver", "red-inf-03": "Tver", "siberian-inf-01": "Tver",
              "south-inf-01": "Tver"}
    state = board_state(pieces, control={"Petrograd": "south"}, standing={"south": {"voluntary_retreat": "when_outnumbered"}})
    events, _, _ = attack(state, "Tver", 1, [1] * 25)
    assert events[2:] == [by_choice("Tver", "south", ["south-inf-01"], "Petrograd"), over("Tver", "red")]
    # Finland's unit has no zone of its own to go to (12.11): the North's still goes
    pieces = {"red-inf-01": "Kem", "red-inf-02": "Kem", "red-inf-03": "Kem", "finland-inf-01": "Kem",
              "north-inf-01": "Kem"}
    state = board_state(pieces, control={"Petrozavodsk": "north"},
                        minors={"finland": {"status": "active", "controller": "north"}},
                        standing={"north": {"voluntary_retreat": "when_outnumbered"}})
    events, _, _ = attack(state, "Kem", 1, [1] * 23)
    assert events[2:] == [by_choice("Kem", "north", ["north-inf-01"], "Petrozavodsk"), over("Kem", "red")]


def test_8_7_the_outnumbered_attacker_retreats_with_the_leaders_it_attacked_with() -> None:
    state = board_state({"red-inf-01": "Tver", "trotsky": "Tver", "frunze": "Tver", "south-inf-01": "Tver",
                         "south-inf-02": "Tver"}, standing={"red": {"voluntary_retreat": "when_outnumbered"}})
    events, after, _ = attack(state, "Tver", 1, [1] * 18, leaders=["trotsky"])
    assert events == [
        opened("Tver", "red", ["south"]),
        combat_round("Tver", "red", 1, [("Trotsky", 5, [1, 1, 1]), units([1] * 5)], [units([1] * 10)]),
        by_choice("Tver", "red", ["red-inf-01", "trotsky"], "Moscow"),
        over("Tver", "red", atk_left=False),
    ]
    assert after["units"]["frunze"]["zone"] == "Tver"


def test_8_92_fleets_leave_with_a_retreat_by_choice_unless_an_enemy_blockades_the_port() -> None:
    pieces = {"red-inf-01": "Novorossiysk", "red-inf-02": "Novorossiysk", "red-inf-03": "Novorossiysk",
              "south-inf-01": "Novorossiysk", "south-fleet-01": "Novorossiysk"}
    state = board_state(pieces, standing={"south": {"voluntary_retreat": "when_outnumbered"}})
    events, after, _ = attack(state, "Novorossiysk", 1, [1] * 25)
    assert events[2:] == [
        by_choice("Novorossiysk", "south", ["south-inf-01"], "Ekaterinodar"),
        {"type": "retreat", "zone": "Novorossiysk", "faction": "south", "units": ["south-fleet-01"],
         "to": "Black Sea", "when": "by choice after a round (8.92)"},
        over("Novorossiysk", "red", def_left=False),
    ]
    assert after["units"]["south-fleet-01"]["zone"] == "Black Sea"
    # an Allied blockade of Odessa is no blockade against South (13.6, 18.1)
    pieces = {"red-inf-01": "Odessa", "red-inf-02": "Odessa", "red-inf-03": "Odessa", "south-inf-01": "Odessa",
              "south-fleet-01": "Odessa", "allied-fleet-02": "Black Sea"}
    state = board_state(pieces, control={"Odessa": "red", "Kherson": "south"},
                        standing={"south": {"voluntary_retreat": "when_outnumbered"}})
    state["blockade"] = {"allied-fleet-02": "Odessa"}
    events, _, _ = attack(state, "Odessa", 1, [1] * 23)
    assert events[2:] == [
        by_choice("Odessa", "south", ["south-inf-01"], "Kherson"),
        {"type": "retreat", "zone": "Odessa", "faction": "south", "units": ["south-fleet-01"],
         "to": "Black Sea", "when": "by choice after a round (8.92)"},
        over("Odessa", "red", def_left=False),
    ]
    # the Allies blockade Petrograd against the Reds: red-fleet-01 stays
    pieces = {"north-inf-01": "Petrograd", "north-inf-02": "Petrograd", "north-inf-03": "Petrograd",
              "red-inf-01": "Petrograd", "red-fleet-01": "Petrograd", "allied-fleet-03": "Baltic Sea"}
    state = board_state(pieces, actor="north", standing={"red": {"voluntary_retreat": "when_outnumbered"}})
    state["blockade"] = {"allied-fleet-03": "Petrograd"}
    events, after, _ = attack(state, "Petrograd", 1, [1] * 24)
    assert events[2:] == [by_choice("Petrograd", "red", ["red-inf-01"], "Novgorod"), over("Petrograd", "north")]
    assert after["units"]["red-fleet-01"]["zone"] == "Petrograd"


def test_8_92_a_damaged_fleet_puts_to_sea_through_a_friendly_blockade() -> None:
    # the Allies' blockade of (Red) Odessa does not hold South's fleet: it is not eliminated
    pieces = {"red-inf-01": "Odessa", "south-inf-01": "Odessa", "south-fleet-01": "Odessa",
              "allied-fleet-02": "Black Sea"}
    state = board_state(pieces, control={"Odessa": "red"}, standing={"south": {"loss_order": ["south-fleet-01"]}})
    state["blockade"] = {"allied-fleet-02": "Odessa"}
    events, after, _ = attack(state, "Odessa", 1, [6, 6, 1, 1, 1] + [1] * 8)
    assert events[2:] == [
        reduced("south-fleet-01"),
        {"type": "retreat", "zone": "Odessa", "faction": "south", "units": ["south-fleet-01"], "to": "Black Sea",
         "when": "after a round (8.92)"},
        over("Odessa", "red"),
    ]
    assert after["units"]["south-fleet-01"]["status"] == "map"


# ---------------------------------------------------------------------------------------
# 8.93 aircraft, 14.6 battle cards


def test_8_93_aircraft_with_a_fleet_in_port_are_not_alone() -> None:
    # 8.92: a fleet takes part in the land battle of its port zone, so it is "a unit that is
    # not an aircraft" (8.93): South's aircraft fights (its 2 dice first, 6 hits) beside the
    # fleet's 5, and is not caught alone
    state = board_state({"red-inf-01": "Novorossiysk", "south-air-01": "Novorossiysk",
                         "south-fleet-01": "Novorossiysk"})
    events, after, rng = attack(state, "Novorossiysk", 1, [1] * 5 + [6, 1] + [1] * 5)
    assert events == [
        opened("Novorossiysk", "red", ["south"]),
        combat_round("Novorossiysk", "red", 1, [units([1] * 5)],
                     [("aircraft", 6, [6, 1]), units([1] * 5)]),
        over("Novorossiysk", "red"),
    ]
    assert after["units"]["south-air-01"]["zone"] == "Novorossiysk"
    assert rng.labels == labels("Novorossiysk", "red", *(f"atk:r1:d{i}" for i in range(1, 6)),
                                *(f"def:r1:d{i}" for i in range(1, 8)))


STUBBORN = {"card": "stubborn-defence", "modifier": {"cancel_retreat": True}}


def test_14_6_stubborn_defence_cancels_one_retreat_the_next_reduced_unit_retreats() -> None:
    state = board_state({"red-inf-01": "Tver", "red-inf-02": "Tver", "south-inf-01": "Tver", "south-inf-02": "Tver"},
                        control={"Moscow": "south"})
    state["battle_cards"] = {"Tver": [{"faction": "south", **STUBBORN}]}
    events, after, _ = attack(state, "Tver", 1, [6, 6, 6, 6] + [1] * 6 + [1] * 10)
    assert events[2:] == [
        reduced("south-inf-01"), reduced("south-inf-02"),
        {"type": "battle_card_used", "zone": "Tver", "card": "stubborn-defence", "faction": "south",
         "unit": "south-inf-01"},
        retreat("Tver", "south", ["south-inf-02"], "Moscow"),
        over("Tver", "red"),
    ]
    assert after["units"]["south-inf-01"]["zone"] == "Tver"


def test_14_6_the_attackers_own_cards_stubborn_defence_and_armoured_trains() -> None:
    # the Reds attack Moscow (a railway hub) with both cards: two extra dice for them only,
    # and red-inf-01's retreat cancelled
    state = board_state({"red-inf-01": "Moscow", "red-inf-02": "Moscow", "south-inf-01": "Moscow"},
                        control={"Moscow": "south"})
    trains = {"faction": "red", "card": "armoured-trains", "modifier": {"extra_dice": 2, "rounds": 1}}
    state["battle_cards"] = {"Moscow": [{"faction": "red", **STUBBORN}, trains]}
    events, after, _ = attack(state, "Moscow", 1, [1] * 12 + [6, 6] + [1] * 6)
    assert events == [
        opened("Moscow", "red", ["south"]),
        combat_round("Moscow", "red", 1, [units([1] * 10), ("armoured-trains", 6, [1, 1])],
                     [units([6, 6] + [1] * 6)]),
        reduced("red-inf-01"),
        {"type": "battle_card_used", "zone": "Moscow", "card": "stubborn-defence", "faction": "red",
         "unit": "red-inf-01"},
        over("Moscow", "red"),
    ]
    assert after["units"]["red-inf-01"]["zone"] == "Moscow"


# ---------------------------------------------------------------------------------------
# 8.4, 8.7 where a reduced unit retreats to (the battle's own retreat, asked directly)


def battle_at(pieces: dict[str, str], zone: str, attacker: str, *, control: dict[str, Any],
              turn: int = 3, pending: tuple[str, ...] = (),
              minors: dict[str, dict[str, Any]] | None = None) -> Any:
    """A battle in `zone` by `attacker`'s units there, with `pending` battles still to come."""
    state = board_state(pieces, actor=attacker, control=control, turn=turn, minors=minors)
    spec = {"zone": zone, "units": sorted(u for u, z in pieces.items() if z == zone and u.startswith(attacker)),
            "leaders": [], "pending": list(pending)}
    return battle_rules.Battle(board_rules.board(data()), data(), state, attacker, spec, SixSided())


def test_8_7_11_0_no_retreat_into_an_iron_cross_zone_on_turn_2() -> None:
    # from Novgorod: Petrograd is the North's, Pskov (iron cross, Red) is closed on turn 2:
    # Tver, across a difficult route (8.7 after a round)
    battle = battle_at({"north-inf-01": "Novgorod", "red-inf-01": "Novgorod"}, "Novgorod", "north",
                       control={"Petrograd": "north", "Pskov": "red"}, turn=2)
    battle.retreat_or_die("red-inf-01", "red", {})
    assert battle.events == [retreat("Novgorod", "red", ["red-inf-01"], "Tver")]
    assert battle.state["units"]["red-inf-01"]["zone"] == "Tver"


def test_8_4_8_7_a_retreat_through_zones_still_to_be_attacked_goes_on_to_the_next() -> None:
    # Helsinki: both its neighbours, Tampere and Vyborg, are to be attacked later this
    # phase; a North unit retreats through Tampere on to Kem (difficult, allowed after a
    # round), not to Vyborg it asked for (8.4: no place to stop); Vyborg leads nowhere
    # (Petrograd and Petrozavodsk are Red)
    pieces = {"red-inf-01": "Helsinki", "north-inf-01": "Helsinki"}
    control = {z: "north" for z in ("Helsinki", "Tampere", "Vyborg", "Kem")}
    battle = battle_at(pieces, "Helsinki", "red", control=control, pending=("Tampere", "Vyborg"))
    battle.retreat_or_die("north-inf-01", "north", {"retreat_to": ["Vyborg"]})
    assert battle.events == [retreat("Helsinki", "north", ["north-inf-01"], "Kem")]
    assert battle.state["units"]["north-inf-01"]["zone"] == "Kem"


def test_8_7_12_11_poland_under_limited_control_retreats_to_its_own_zone() -> None:
    battle = battle_at({"red-inf-01": "Brest-Litovsk", "poland-inf-01": "Brest-Litovsk"}, "Brest-Litovsk", "red",
                       control={"Brest-Litovsk": "red", "Minsk": "south"},
                       minors={"poland": {"status": "limited", "controller": "south"}})
    battle.retreat_or_die("poland-inf-01", "poland", {})
    assert battle.events == [retreat("Brest-Litovsk", "poland", ["poland-inf-01"], "Lublin")]


# ---------------------------------------------------------------------------------------
# 8.6 losses of a side of several factions, 8.4 a faction gone by sea, 13.61 allied units


def test_8_6_a_side_of_two_white_factions_takes_losses_by_both_loss_orders_in_turn() -> None:
    # the Siberians' loss_order comes first (then South's): siberian-inf-01 takes the step
    # and, reduced, finds no zone to retreat to (8.7)
    state = board_state({"red-inf-01": "Tver", "siberian-inf-01": "Tver", "south-inf-01": "Tver"},
                        standing={"siberian": {"loss_order": ["siberian-inf-01"]},
                                  "south": {"loss_order": ["south-inf-01"]}})
    events, _, _ = attack(state, "Tver", 1, [6, 6, 1, 1, 1] + [1] * 10)
    assert events == [
        opened("Tver", "red", ["siberian", "south"]),
        combat_round("Tver", "red", 1, [units([6, 6, 1, 1, 1])], [units([1] * 10)]),
        reduced("siberian-inf-01"),
        {"type": "eliminated", "unit": "siberian-inf-01", "zone": "Tver", "why": "no retreat (8.7)"},
        over("Tver", "red"),
    ]


def test_8_6_the_attackers_loss_order_is_not_the_defenders() -> None:
    # the Reds' loss_order "tank" is for their own tanks: South's step is lost by name order,
    # south-inf-01 before south-tank-01 (both lose a step on two hits)
    state = board_state({"red-inf-01": "Tver", "south-tank-01": "Tver", "south-inf-01": "Tver"},
                        standing={"red": {"loss_order": ["tank"]}})
    events, after, _ = attack(state, "Tver", 1, [6, 6, 1, 1, 1] + [1] * 8)
    assert events[2:] == [
        reduced("south-inf-01"),
        {"type": "eliminated", "unit": "south-inf-01", "zone": "Tver", "why": "no retreat (8.7)"},
        over("Tver", "red"),
    ]
    assert after["units"]["south-tank-01"]["reduced"] is False


def test_8_4_12_12_a_faction_gone_by_sea_does_not_keep_its_minor_from_retreating_by_land() -> None:
    # Odessa: South sails away with everything it has there; Ukraine (South's, its standing)
    # has no fleet for the Black Sea and retreats overland to Vinnitsa, its own (12.11)
    pieces = {"red-inf-01": "Odessa", "south-inf-01": "Odessa", "south-fleet-01": "Odessa", "ukraine-inf-01": "Odessa"}
    state = board_state(pieces, minors={"ukraine": {"status": "active", "controller": "south"}},
                        standing={"south": {"retreat_before_combat": "always", "retreat_to": ["Black Sea"]}})
    events, after, _ = attack(state, "Odessa", 1, [])
    assert events == [
        {**before("Odessa", "south", ["south-inf-01", "south-fleet-01"], "Black Sea"), "by": "sea",
         "fleet": "south-fleet-01"},
        {"type": "note", "zone": "Odessa", "text": "ukraine cannot retreat by sea from Odessa to the Black Sea: "
                                                   "no ukraine fleet of the Black Sea is in Odessa to carry them (8.4)"},
        before("Odessa", "ukraine", ["ukraine-inf-01"], "Vinnitsa"),
        {**opened("Odessa", "red", []), "rounds": 0},
    ]
    assert after["units"]["ukraine-inf-01"]["zone"] == "Vinnitsa"


def test_10_4_13_61_a_leader_with_allied_units_left_takes_the_loss_test_not_capture() -> None:
    # North attacks Vologda with its reduced north-inf-01, allied-inf-01 taken in hand
    # (13.61) and Yudenich: north-inf-01 is eliminated, the allied unit stays: Yudenich's
    # side is still there, his loss test (10.4), not capture (10.5)
    state = board_state({"north-inf-01": "Vologda", "allied-inf-01": "Vologda", "yudenich": "Vologda",
                         "red-inf-01": "Vologda"}, actor="north", reduced=("north-inf-01",), turn=5)
    state["allied_control"] = {"north": 1}
    events, _, rng = attack(state, "Vologda", 1, [1] * 7 + [6] + [1] * 5 + [1, 1],
                            units=["north-inf-01", "allied-inf-01"])
    assert events == [
        {"type": "allies_taken", "faction": "north", "units": ["allied-inf-01"]},
        opened("Vologda", "north", ["red"]),
        combat_round("Vologda", "north", 1, [units([1] * 7)], [units([6] + [1] * 5)]),
        reduced("north-inf-01", last=True),
        loss_test("yudenich", "Vologda", [1, 1], 1),
        over("Vologda", "north"),
    ]
    assert rng.labels[-2:] == ["combat:vologda:t5:north:leader:yudenich:d1",
                               "combat:vologda:t5:north:leader:yudenich:d2"]
