"""Red Russia combat (8.x, 10.4, 10.5) as rule tables: a position, the attack, the dice,
the expected events. Each test's name starts with the rule it checks."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from position import GAME, FixedRng, OpenSecrets, data, messages, orders, position, resolve_phase
from position import standing as standing_

combat = importlib.import_module("pbem_game_red_russia.combat")
forces = importlib.import_module("pbem_game_red_russia.forces")


def fight(pieces: dict[str, str], zone: str, spend: int, dice: list[int], *, actor: str = "red",
          control: dict[str, Any] | None = None, standing: dict[str, Any] | None = None,
          moves: list[dict[str, Any]] | None = None, extra: dict[str, Any] | None = None,
          ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    state = position(pieces, actor=actor, control=control)
    state["standing"] = standing_(standing)
    body = orders(*(moves or []), {"attack": {"zone": zone, **(extra or {})}})
    body["secret"] = {"spend": {zone: spend}}
    return resolve_phase(state, body, dice)


def kinds(events: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events]


def test_8_6_the_rulebook_example_three_losses_on_defences_2_2_1() -> None:
    # "2 losses must be assigned to the defence-2 unit and one loss to the defence-1 unit"
    chosen = forces.allocate(3, [("a", 2, False), ("b", 2, False), ("c", 1, False)], [],
                             lambda u: 1)
    assert sorted(chosen) in (["a", "c"], ["b", "c"])


def test_8_6_every_unit_loses_a_step_before_one_loses_two() -> None:
    chosen = forces.allocate(5, [("a", 2, False), ("b", 2, False)], [], lambda u: 1)
    assert sorted(chosen) == ["a", "a", "b"]  # 2+2, then a's reduced defence 1


def test_8_6_the_loss_order_chooses_among_equal_allocations() -> None:
    assert forces.allocate(2, [("a", 2, False), ("b", 2, False)], ["b"], lambda u: 1) == ["b"]


def test_8_6_a_unit_type_in_the_loss_order_chooses_units_of_that_type() -> None:
    # loss_order: [inf] names a type (the middle part of an id): the infantry loses first,
    # though the cavalry sorts first by its id
    units = [("red-cav-01", 2, False), ("red-inf-01", 2, False)]
    assert forces.allocate(2, units, ["inf"], lambda u: 1) == ["red-inf-01"]
    assert forces.allocate(2, units, ["red-inf-01"], lambda u: 1) == ["red-inf-01"]
    assert forces.allocate(2, units, [], lambda u: 1) == ["red-cav-01"]  # no order: by id


def test_8_6_too_few_hits_for_any_step_are_lost() -> None:
    assert forces.allocate(1, [("a", 2, False)], [], lambda u: 1) == []


def test_8_3_a_probe_is_one_round_and_costs_one() -> None:
    # red-inf-01 (5 dice) against south-inf-01 (5 dice, no fortification: Tver is Red)
    events, after = fight({"red-inf-01": "Tver", "south-inf-01": "Tver"}, "Tver", 1, [1] * 10)
    assert kinds(events).count("combat_round") == 1
    assert after["money"]["red"] == 30 - 1


def test_8_3_an_assault_is_two_rounds() -> None:
    events, _ = fight({"red-inf-01": "Tver", "south-inf-01": "Tver"}, "Tver", 3, [1] * 20)
    assert kinds(events).count("combat_round") == 2


def test_8_3_an_invasion_goes_on_for_the_rounds_the_attacker_chose() -> None:
    events, _ = fight({"red-inf-01": "Tver", "south-inf-01": "Tver"}, "Tver", 5, [1] * 40,
                      standing={"red": {"invasion_rounds": 4}})
    assert kinds(events).count("combat_round") == 4


def test_8_5_sixes_hit_and_the_defender_adds_its_fortification() -> None:
    # Rostov is South's (fort 1): 5 + 1 defender dice
    events, _ = fight({"red-inf-01": "Rostov", "south-inf-01": "Rostov"}, "Rostov", 1,
                      [6, 1, 1, 1, 1] + [6, 6, 1, 1, 1, 1])
    rnd = next(e for e in events if e["type"] == "combat_round")
    assert sum(g["count"] for g in rnd["dice"]["def"]) == 6
    assert rnd["hits"] == {"atk": 1, "def": 2}


def test_18_1_no_fortification_for_a_white_in_another_whites_zone() -> None:
    events, _ = fight({"red-inf-01": "Samara", "south-inf-01": "Samara"}, "Samara", 1, [1] * 10)
    rnd = next(e for e in events if e["type"] == "combat_round")
    assert sum(g["count"] for g in rnd["dice"]["def"]) == 5  # Samara is Siberian


def test_8_5_after_a_difficult_route_the_defender_hits_on_five_in_the_first_round() -> None:
    events, _ = fight({"red-inf-01": "Tver", "south-inf-01": "Novgorod"}, "Novgorod", 3,
                      [1] * 20, moves=[{"move": {"units": ["red-inf-01"], "to": "Novgorod"}}])
    rounds = [e for e in events if e["type"] == "combat_round"]
    assert rounds[0]["dice"]["def"][0]["hit"] == 5 and rounds[1]["dice"]["def"][0]["hit"] == 6


def test_8_91_tanks_hit_on_five_in_the_first_round() -> None:
    pieces = {"red-tank-01": "Tver", "red-inf-01": "Tver", "south-inf-01": "Tver"}
    events, _ = fight(pieces, "Tver", 3, [1] * 40)
    rounds = [e for e in events if e["type"] == "combat_round"]
    tanks = [g for g in rounds[0]["dice"]["atk"] if g["what"] == "tanks"]
    assert tanks and tanks[0]["hit"] == 5
    assert all(g["hit"] == 6 for g in rounds[1]["dice"]["atk"] if g["what"] == "tanks")


def test_10_83_trotskys_dice_hit_on_five_in_the_first_round_of_an_attack() -> None:
    events, _ = fight({"red-inf-01": "Tver", "trotsky": "Tver", "south-inf-01": "Tver"}, "Tver", 1,
                      [1] * 20)
    rnd = next(e for e in events if e["type"] == "combat_round")
    assert {"what": "Trotsky", "count": 3, "hit": 5} == {k: rnd["dice"]["atk"][0][k] for k in ("what", "count", "hit")}


def test_8_7_a_reduced_unit_retreats_after_the_round() -> None:
    # the defender's 2 hits reduce red-inf-01 (defence 2); it retreats to a friendly zone
    events, after = fight({"red-inf-01": "Tver", "red-inf-02": "Tver", "south-inf-01": "Tver"},
                          "Tver", 1, [1] * 10 + [6, 6, 1, 1, 1],
                          standing={"red": {"retreat_to": ["Moscow"]}})
    retreat = next(e for e in events if e["type"] == "retreat")
    assert retreat["to"] == "Moscow" and after["units"][retreat["units"][0]]["reduced"]


def test_8_7_a_unit_that_cannot_retreat_is_eliminated() -> None:
    # Murmansk's only route leads to Kem (North): no friendly zone for the Reds
    events, after = fight({"red-inf-01": "Murmansk", "red-inf-02": "Murmansk", "north-inf-01": "Murmansk"},
                          "Murmansk", 1, [1] * 10 + [6, 6, 1, 1, 1, 1],
                          control={"Murmansk": "north"})
    assert any(e["type"] == "eliminated" for e in events)


def test_8_4_the_defender_retreats_before_combat_when_its_standing_orders_say_so() -> None:
    events, after = fight({"red-inf-01": "Tver", "south-inf-01": "Tver"}, "Tver", 3, [],
                          control={"Moscow": "south"},
                          standing={"south": {"retreat_before_combat": "always"}})
    assert events[0]["type"] == "retreat" and events[0]["when"] == "before combat"
    assert after["units"]["south-inf-01"]["zone"] == "Moscow"
    assert after["money"]["red"] == 27  # 8.4 the money is spent all the same
    assert "combat_round" not in kinds(events)


def test_8_4_no_retreat_before_combat_when_the_attacker_has_more_cavalry() -> None:
    events, _ = fight({"red-cav-01": "Tver", "south-inf-01": "Tver"}, "Tver", 1, [1] * 10,
                      control={"Moscow": "south"},
                      standing={"south": {"retreat_before_combat": "always"}})
    assert "more cavalry" in next(e for e in events if e["type"] == "note")["text"]


def test_8_4_no_retreat_before_combat_along_the_attackers_route() -> None:
    events, _ = fight({"red-inf-01": "Moscow", "south-inf-01": "Tver"}, "Tver", 1, [1] * 10,
                      control={"Moscow": "south", "Petrograd": "red"},
                      moves=[{"move": {"units": ["red-inf-01"], "to": "Tver"}}],
                      standing={"south": {"retreat_before_combat": "always"}})
    assert not any(e["type"] == "retreat" for e in events)


def test_8_93_aircraft_caught_alone_retreat_and_roll() -> None:
    events, _ = fight({"red-inf-01": "Tver", "south-air-01": "Tver"}, "Tver", 1, [2],
                      control={"Moscow": "south"})
    assert kinds(events)[:4] == ["attack", "air_alone", "reduced", "retreat"]


def test_8_93_aircraft_cannot_attack_alone() -> None:
    state = position({"red-air-01": "Tver", "south-inf-01": "Tver"})
    body = orders({"attack": {"zone": "Tver"}})
    body["secret"] = {"spend": {"Tver": 1}}
    assert any("cannot fight alone" in m for m in messages(state, "red", body))


def test_6_4_the_spending_cannot_exceed_the_money() -> None:
    state = position({"red-inf-01": "Tver", "south-inf-01": "Tver"})
    state["money"]["red"] = 2
    body = orders({"attack": {"zone": "Tver"}})
    body["secret"] = {"spend": {"Tver": 3}}
    assert any("(6.4)" in m for m in messages(state, "red", body))


def test_8_3_every_attack_needs_its_secret_spending() -> None:
    state = position({"red-inf-01": "Tver", "south-inf-01": "Tver"})
    found = messages(state, "red", orders({"attack": {"zone": "Tver"}}))
    assert any("secret: spend:" in m for m in found)


def test_18_1_white_factions_never_attack_each_other() -> None:
    state = position({"south-inf-01": "Samara", "siberian-inf-01": "Samara"}, actor="south")
    body = orders({"attack": {"zone": "Samara"}})
    body["secret"] = {"spend": {"Samara": 1}}
    assert any("never attack each other" in m for m in messages(state, "south", body))


def test_10_4_a_leader_is_hit_on_twelve_with_the_steps_lost() -> None:
    # one round: the Reds lose a step; Budyonny rolls 6+5 + 1 step = 12, then 5: killed
    events, after = fight({"red-inf-01": "Tver", "red-inf-02": "Tver", "budyonny": "Tver",
                           "south-inf-01": "Tver"}, "Tver", 1,
                          [1] * 11 + [6, 6, 1, 1, 1] + [6, 5, 5],
                          standing={"red": {"retreat_to": ["Moscow"]}})
    loss = next(e for e in events if e["type"] == "leader_loss")
    assert (loss["dice"], loss["steps"], loss["result"]) == ([6, 5], 1, "killed")
    assert after["units"]["budyonny"]["status"] == "dead"


def test_10_5_leaders_left_without_units_may_be_captured() -> None:
    # the Whites' unit is eliminated; Denikin (2) rolls 3+4: 9 <= 10, captured
    events, after = fight({"red-inf-01": "Tver", "red-inf-02": "Tver", "south-inf-01": "Tver",
                           "denikin": "Tver"}, "Tver", 1,
                          [6, 6, 6, 1, 1, 1, 1, 1, 1, 1] + [1] * 7 + [3, 4, 1, 1])
    capture = next(e for e in events if e["type"] == "leader_capture")
    assert capture["result"] == "captured" and after["units"]["denikin"]["status"] == "dead"


def besiege(pieces: dict[str, str], zone: str, rounds: int, dice: list[int], *,
            actor: str = "red", control: dict[str, Any] | None = None,
            siege: dict[str, Any] | None = None) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    state = position(pieces, actor=actor, control=control)
    if siege:
        state["siege"] = siege
    return resolve_phase(state, orders({"siege": {"zone": zone, "rounds": rounds}}), dice)


def test_9_2_hits_equal_to_the_fortification_take_the_zone() -> None:
    # Rostov (South, fort 1): red-inf-01 rolls 5 dice, one 6; the fort rolls 1 die, a 1
    events, after = besiege({"red-inf-01": "Rostov"}, "Rostov", 1, [6, 1, 1, 1, 1, 1])
    assert after["control"]["Rostov"] == "red"
    assert after["money"]["red"] == 29  # game.yaml siege cost: 1 a round (reconstructed)
    assert "siege" not in after or "Rostov" not in after["siege"]  # 9.6 restored


def test_9_2_hits_stay_while_the_besieger_stays() -> None:
    # Tsaritsyn is Red, fort 2; the South besieges with one hit a round for one round
    events, after = besiege({"south-inf-01": "Tsaritsyn"}, "Tsaritsyn", 1, [6, 1, 1, 1, 1, 1, 1],
                            actor="south")
    assert after["control"]["Tsaritsyn"] == "red" and after["siege"]["Tsaritsyn"]["hits"] == 1
    events, after = besiege({"south-inf-01": "Tsaritsyn"}, "Tsaritsyn", 1, [6, 1, 1, 1, 1, 1],
                            actor="south", siege=after["siege"])
    assert after["control"]["Tsaritsyn"] == "south"


def test_9_3_the_fortification_fires_back_and_9_4_a_pyrrhic_victory_changes_nothing() -> None:
    # a reduced besieger (3 dice) scores the hit that would take Rostov (fort 1), but the
    # fort's 6 eliminates it: the zone does not change hands
    state = position({"red-inf-01": "Rostov"})
    state["units"]["red-inf-01"]["reduced"] = True
    body = orders({"siege": {"zone": "Rostov", "rounds": 1}})
    found = GAME.resolve(data(), state, {"red": body}, FixedRng(6, 1, 1, 6), OpenSecrets())
    assert any(e["type"] == "siege_lifted" and "Pyrrhic" in e["why"] for e in found)
    assert not any(e["type"] == "control" for e in found)


def test_9_1_no_siege_with_enemy_units_in_the_zone_or_of_a_friendly_zone() -> None:
    state = position({"red-inf-01": "Rostov", "south-inf-01": "Rostov", "red-inf-02": "Moscow"})
    found = messages(state, "red", orders({"siege": {"zone": "Rostov", "rounds": 1}},
                                          {"siege": {"zone": "Moscow", "rounds": 1}}))
    assert any("enemy or neutral units" in m for m in found)
    assert any("yours already" in m for m in found)


def test_9_0_white_factions_never_besiege_each_others_zones() -> None:
    state = position({"south-inf-01": "Samara"}, actor="south")
    found = messages(state, "south", orders({"siege": {"zone": "Samara", "rounds": 1}}))
    assert any("never besiege each other" in m for m in found)


def test_9_5_a_siege_without_besiegers_is_lifted_at_the_end_of_the_phase() -> None:
    state = position({"red-inf-01": "Moscow"})
    state["siege"] = {"Rostov": {"faction": "red", "hits": 1}}
    events = GAME.resolve(data(), state, {"red": orders()}, FixedRng(), OpenSecrets())
    assert any(e["type"] == "siege_lifted" and e["zone"] == "Rostov" for e in events)


def test_9_2_the_siege_stops_once_the_hits_reach_the_fortification() -> None:
    events, after = besiege({"red-inf-01": "Rostov"}, "Rostov", 3, [6, 6, 1, 1, 1, 1])
    assert [e["type"] for e in events].count("combat_round") == 1
    assert after["control"]["Rostov"] == "red"


def test_10_82_stalins_commissars_double_dice_and_cost_a_step_without_retreat() -> None:
    # red-inf-01 (5 attack) driven by the commissars: 5 more dice in round 1, then a step lost
    events, after = fight({"red-inf-01": "Tver", "stalin": "Tver", "south-inf-01": "Tver"}, "Tver", 1,
                          [1] * 30, standing={"red": {"stalin_commissars": 1}})
    rnd = next(e for e in events if e["type"] == "combat_round")
    commissars = [g for g in rnd["dice"]["atk"] if g["what"] == "Stalin's commissars"]
    assert commissars and commissars[0]["count"] == 5
    assert any(e["type"] == "reduced" and "10.82" in e["by"] for e in events)
    assert after["units"]["red-inf-01"]["reduced"] and after["units"]["red-inf-01"]["zone"] == "Tver"


def test_10_82_no_commissars_unless_asked() -> None:
    events, _ = fight({"red-inf-01": "Tver", "stalin": "Tver", "south-inf-01": "Tver"}, "Tver", 1,
                      [1] * 30)
    rnd = next(e for e in events if e["type"] == "combat_round")
    assert not [g for g in rnd["dice"]["atk"] if g["what"] == "Stalin's commissars"]


def test_8_7_a_side_outnumbered_retreats_by_choice_when_its_standing_orders_say_so() -> None:
    pieces = {"red-inf-01": "Tver", "red-inf-02": "Tver", "south-inf-01": "Tver"}
    events, after = fight(pieces, "Tver", 3, [1] * 40, control={"Moscow": "south"},
                          standing={"south": {"voluntary_retreat": "when_outnumbered"}})
    retreat = next(e for e in events if e["type"] == "retreat")
    assert retreat["when"] == "by choice after a round" and retreat["to"] == "Moscow"
    assert [e["type"] for e in events].count("combat_round") == 1  # nobody left to fight
    events, _ = fight(pieces, "Tver", 3, [1] * 40, control={"Moscow": "south"})
    assert not any(e["type"] == "retreat" for e in events)


def test_8_92_a_fleet_in_port_fights_and_puts_to_sea_when_damaged() -> None:
    # Novorossiysk is a Black Sea port: the South's fleet defends beside its infantry
    pieces = {"red-inf-01": "Novorossiysk", "red-inf-02": "Novorossiysk",
              "south-inf-01": "Novorossiysk", "south-fleet-01": "Novorossiysk"}
    events, after = fight(pieces, "Novorossiysk", 1, [6, 6] + [1] * 30,
                          standing={"south": {"loss_order": ["south-fleet-01"]}})
    rnd = next(e for e in events if e["type"] == "combat_round")
    counters = {c["id"]: c for c in data()["units"]["counters"]["south"]}
    expected = (counters["south-inf-01"]["full"][0] + counters["south-fleet-01"]["full"][0]
                + data()["map"]["zones"]["Novorossiysk"]["fort"])
    assert sum(g["count"] for g in rnd["dice"]["def"]) == expected
    assert after["units"]["south-fleet-01"]["zone"] == "Black Sea"


@pytest.mark.parametrize(("stay_out", "extra_dice"), [([], 2), (["denikin"], 0)])
def test_10_2_a_defender_may_keep_a_leader_out_of_the_battle(stay_out: list[str], extra_dice: int) -> None:
    # Denikin (level 2) adds two dice to the South's defence unless kept out; kept out, he
    # takes no loss test afterwards (10.4)
    pieces = {"red-inf-01": "Tver", "red-inf-02": "Tver", "south-inf-01": "Tver", "denikin": "Tver"}
    events, _after = fight(pieces, "Tver", 1, [1] * 40,
                           standing={"south": {"leaders_stay_out": stay_out}})
    first = next(e for e in events if e["type"] == "combat_round")
    dice = sum(len(g["values"]) for g in first["dice"]["def"])
    base, _ = fight({k: v for k, v in pieces.items() if k != "denikin"}, "Tver", 1, [1] * 40)
    plain = sum(len(g["values"]) for g in next(e for e in base if e["type"] == "combat_round")["dice"]["def"])
    assert dice == plain + extra_dice
    tested = [e["leader"] for e in events if e["type"] == "leader_loss"]
    assert ("denikin" in tested) == (not stay_out)


def test_8_4_a_retreat_goes_on_through_a_zone_where_a_battle_is_still_to_come() -> None:
    # 8.4: South's only way out of A is B, attacked next: it retreats on through B to C
    b = importlib.import_module("pbem_game_red_russia.board").board(data())
    a = "Tver"
    easy = {z: [n for n, k in b.routes[z].items() if k == "easy" and n in b.zones] for z in b.zones}
    bee = next(z for z in sorted(easy[a]) if [c for c in easy[z] if c != a and c not in easy[a]])
    cee = next(c for c in sorted(easy[bee]) if c != a and c not in easy[a])
    control = {z: "red" for z in b.zones} | {bee: "south", cee: "south"}
    pieces = {"red-inf-01": a, "south-inf-01": a, "red-inf-02": bee, "south-inf-02": bee}
    state = position(pieces, control=control)
    state["standing"] = standing_({"south": {"retreat_before_combat": "always"}})
    body = orders({"attack": {"zone": a}}, {"attack": {"zone": bee}})
    body["secret"] = {"spend": {a: 1, bee: 1}}
    events, after = resolve_phase(state, body, [1] * 40)
    first = next(e for e in events if e["type"] == "retreat" and e["zone"] == a)
    assert first["to"] == cee and after["units"]["south-inf-01"]["zone"] == cee
