"""Red Russia combat (combat.py: the attacks and sieges declared, refused and resolved in
order; 8.x, 9.x, 10.4, 10.5, 15.2) as rule tables: a position, the orders, the dice, the
expected events or refusal. The later cases assert the exact outcome: every event, every die
asked by its label, the exact path and message of a refusal. Each test's name starts with the
rule it checks (rulebook: ../shared/rules/red-russia-rules.txt).

run, fight_exact, besiege_exact and siege_round are shared with the other Red Russia rule
tables (battle, siege, Trotsky, victory points).
"""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from position import (
    GAME,
    FixedRng,
    OpenSecrets,
    SixSided,
    board_rules,
    data,
    messages,
    orders,
    position,
    problems,
    resolve_phase,
)
from position import standing as standing_

combat = importlib.import_module("pbem_game_red_russia.combat")
forces = importlib.import_module("pbem_game_red_russia.forces")
naval = importlib.import_module("pbem_game_red_russia.naval")

Events = list[dict[str, Any]]
HIDDEN = ("phase", "standing", "segment")


def fight(pieces: dict[str, str], zone: str, spend: int, dice: list[int], *, actor: str = "red",
          control: dict[str, Any] | None = None, standing: dict[str, Any] | None = None,
          moves: list[dict[str, Any]] | None = None, extra: dict[str, Any] | None = None,
          ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """`moves`, then an attack on `zone` with `spend` money, resolved with `dice` (more may
    be given than are rolled): the events and the state after them."""
    state = position(pieces, actor=actor, control=control)
    state["standing"] = standing_(standing)
    body = orders(*(moves or []), {"attack": {"zone": zone, **(extra or {})}})
    body["secret"] = {"spend": {zone: spend}}
    return resolve_phase(state, body, dice)


def kinds(events: Events) -> list[str]:
    return [e["type"] for e in events]


def run(state: dict[str, Any], body: dict[str, Any], dice: list[int]) -> tuple[Events, dict[str, Any], FixedRng]:
    """The actor's orders, checked, resolved with exactly these dice (every one used); every
    die of combat is a six-sided one (8.5, 8.92, 8.93, 9.2, 9.3, 10.4, 10.5, 10.8.1)."""
    actor = state["actor"]
    assert messages(state, actor, body) == []
    rng = SixSided(*dice)
    events = GAME.resolve(data(), state, {actor: body}, rng, OpenSecrets())
    assert rng.values == [], f"dice left over: {rng.values}"
    assert rng.sides == [6] * len(dice)
    after = state
    for e in events:
        after = GAME.apply(data(), after, e)
    return [e for e in events if e["type"] not in HIDDEN], after, rng


def told(e: dict[str, Any]) -> str:
    """An event's line, as the log and the reports give it."""
    return str(importlib.import_module("pbem_game_red_russia.fold").describe_event(data(), e))


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
    b = board_rules.board(data())
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


# ---------------------------------------------------------------------------------------
# 8.4, 8.92 the report lines of the naval events and of a retreat by sea


def test_8_4_a_retreat_by_sea_is_told_with_its_fleet_and_what_it_carries() -> None:
    e = {"type": "retreat", "by": "sea", "units": ["red-inf-01", "trotsky", "red-fleet-01"],
         "fleet": "red-fleet-01", "faction": "red", "zone": "Petrograd", "to": "Baltic Sea",
         "when": "before combat"}
    assert told(e) == ("red red-inf-01, trotsky retreat(s) by sea with red-fleet-01 "
                                  "from Petrograd to the Baltic Sea (before combat, 8.4)")
    # a retreat over land is told as land combat's
    assert told({**e, "by": None}) == ("red red-inf-01, trotsky, red-fleet-01 retreat from Petrograd "
                                       "to Baltic Sea (before combat)")
    assert "retreat" not in naval.DESCRIBE and "moved" not in naval.DESCRIBE


def test_8_92_a_search_is_told_with_its_dice_their_sum_and_the_result() -> None:
    e = {"type": "naval_search", "phasing": True, "faction": "red", "zone": "Baltic Sea",
         "fleets": ["red-fleet-01"], "targets": ["allied-fleet-03"], "dice": [3, 4], "contact": True}
    assert told(e) == ("red searches the Baltic Sea with red-fleet-01 for allied-fleet-03: "
                                  "3+4 = 7, contact: one round of naval combat (8.92)")
    e.update(phasing=False, fleets=["red-fleet-01", "red-fleet-02"],
             targets=["allied-fleet-03", "allied-fleet-04"], dice=[1, 2], contact=False)
    assert told(e) == ("red (not in its phase) searches the Baltic Sea with red-fleet-01, "
                                  "red-fleet-02 for allied-fleet-03, allied-fleet-04: 1+2 = 3, "
                                  "no contact (8.92)")


def test_8_92_a_blockade_run_and_the_end_of_a_naval_battle_are_told() -> None:
    run_ = {"type": "blockade_run", "fleets": ["red-fleet-01", "red-fleet-02"], "way": "leaving",
            "port": "Petrograd", "blockaders": ["allied-fleet-03", "allied-fleet-04"],
            "zone": "Baltic Sea"}
    assert told(run_) == ("red-fleet-01, red-fleet-02 leaving blockaded Petrograd must "
                                     "fight allied-fleet-03, allied-fleet-04 in the Baltic Sea to a "
                                     "decision (8.92)")
    over = {"type": "naval_battle_over", "zone": "Baltic Sea", "attacker": "red",
            "attacker_left": ["red-fleet-01", "red-fleet-02"], "defender_left": []}
    assert told(over) == ("naval combat in the Baltic Sea over: the side of red keeps "
                                     "red-fleet-01, red-fleet-02, the other side none")
    over.update(attacker_left=[], defender_left=["allied-fleet-03", "allied-fleet-04"])
    assert told(over) == ("naval combat in the Baltic Sea over: the side of red keeps "
                                     "none, the other side allied-fleet-03, allied-fleet-04")


def test_8_92_a_blockade_and_its_lifting_are_told() -> None:
    fleets = ["allied-fleet-03", "allied-fleet-04"]
    assert told({"type": "blockade", "faction": "allies", "fleets": fleets,
                            "port": "Petrograd", "sea": "Baltic Sea"}) == (
        "allies allied-fleet-03, allied-fleet-04 blockade Petrograd from the Baltic Sea (8.92)")
    assert told({"type": "blockade_lifted", "port": "Petrograd", "fleets": fleets,
                            "why": "allies lifts it"}) == (
        "blockade of Petrograd by allied-fleet-03, allied-fleet-04 lifted: allies lifts it (8.92)")


# ---------------------------------------------------------------------------------------
# 9.x sieges: every event in full


def besiege_exact(pieces: dict[str, str], zone: str, rounds: int, dice: list[int], *, actor: str,
                  control: dict[str, Any] | None = None, reduced: tuple[str, ...] = (),
                  flags: dict[str, Any] | None = None) -> tuple[Events, dict[str, Any], FixedRng]:
    """`actor` besieges `zone` for `rounds` rounds with exactly these dice (run)."""
    state = position(pieces, actor=actor, control=control, reduced=reduced)
    state["standing"] = standing_()
    if flags:
        state["flags"] = flags
    return run(state, orders({"siege": {"zone": zone, "rounds": rounds}}), dice)


def siege_round(zone: str, attacker: str, r: int, atk: list[int], fort: list[int], *,
                atk_hit: int = 6, need: int = 6, what: str = "units") -> dict[str, Any]:
    hits = {"atk": sum(v >= atk_hit for v in atk), "def": sum(v >= need for v in fort)}
    return {"type": "combat_round", "zone": zone, "round": r, "attacker": attacker,
            "dice": {"atk": [{"what": what, "count": len(atk), "hit": atk_hit, "values": atk,
                              "hits": hits["atk"]}],
                     "def": [{"what": "fortification", "count": len(fort), "hit": need, "values": fort,
                              "hits": hits["def"]}] if fort else []},
            "hits": hits, "siege": True}


def test_9_2_a_siege_that_reaches_the_fortification_takes_the_zone_at_once() -> None:
    # 9.2 "If the total of these hits ... is equal to or exceeds the fortification value, the
    # besieger takes control of the zone": Kazan (Red, fort 2), two sixes in round 1; the
    # second round paid for is not fought (the siege is over)
    events, after, rng = besiege_exact({"siberian-inf-01": "Kazan"}, "Kazan", 2, [6, 6, 5, 5, 5] + [1, 1],
                                       actor="siberian")
    assert events == [
        {"type": "siege", "zone": "Kazan", "faction": "siberian", "rounds": 2, "cost": 2, "fort": 2},
        siege_round("Kazan", "siberian", 1, [6, 6, 5, 5, 5], [1, 1]),
        {"type": "siege_hits", "zone": "Kazan", "faction": "siberian", "hits": 2},
        {"type": "control", "zone": "Kazan", "faction": "siberian", "from": "red", "why": "siege (9.2)"},
    ]
    assert rng.labels == [f"siege:kazan:t3:siberian:r1:d{k}" for k in range(1, 6)] + [
        "siege:kazan:t3:siberian:r1:fort:d1", "siege:kazan:t3:siberian:r1:fort:d2"]
    assert after["control"]["Kazan"] == "siberian" and "Kazan" not in after.get("siege", {})


def test_13_2_reval_taken_by_the_reds_from_the_north_goes_to_the_baltic_states_once() -> None:
    # 13.2 (pbem: Reval taken by the Reds the first time goes to the Baltic States)
    taken = {"type": "control", "zone": "Reval", "faction": "baltic", "from": "north",
             "why": "siege (9.2): Reval taken from North/Asia goes to the Baltic States (13.2)"}
    events, after, _ = besiege_exact({"red-inf-01": "Reval"}, "Reval", 1, [6, 6, 5, 5, 5] + [1, 1],
                                     actor="red", control={"Reval": "north"})
    assert events[-1] == taken and after["control"]["Reval"] == "baltic"
    # the second time (the flag set) the Reds keep it
    events, after, _ = besiege_exact({"red-inf-01": "Reval"}, "Reval", 1, [6, 6, 5, 5, 5] + [1, 1],
                                     actor="red", control={"Reval": "north"}, flags={"reval_baltic": True})
    assert events[-1] == {"type": "control", "zone": "Reval", "faction": "red", "from": "north",
                          "why": "siege (9.2)"}
    assert after["control"]["Reval"] == "red"


def test_9_4_a_pyrrhic_victory_and_10_4_the_leader_loss_test_after_a_siege() -> None:
    # 9.4 "If the besieger inflicts enough hits to control the zone but all the besieging
    # units are eliminated ... the zone does not change hands". A reduced red-inf-01 (3-1)
    # and Stalin (2) besiege Ufa (Siberian, fort 1): one hit each way. 10.4 then Stalin rolls
    # 6+5 and one step lost: 12, hit; his fate die 4: killed.
    events, after, rng = besiege_exact({"red-inf-01": "Ufa", "stalin": "Ufa"}, "Ufa", 2,
                                       [6, 5, 5, 5, 5] + [6] + [6, 5, 4], actor="red", reduced=("red-inf-01",))
    assert events == [
        {"type": "siege", "zone": "Ufa", "faction": "red", "rounds": 2, "cost": 2, "fort": 1},
        siege_round("Ufa", "red", 1, [6, 5, 5, 5, 5], [6]),
        {"type": "siege_hits", "zone": "Ufa", "faction": "red", "hits": 1},
        {"type": "reduced", "unit": "red-inf-01", "by": "combat", "eliminated": True},
        {"type": "siege_lifted", "zone": "Ufa", "why": "Pyrrhic victory: no besieger left (9.4)"},
        {"type": "leader_loss", "leader": "stalin", "zone": "Ufa", "dice": [6, 5], "steps": 1,
         "fate": 4, "result": "killed"},
    ]
    assert rng.labels[-3:] == ["siege:ufa:t3:red:leader:stalin:d1", "siege:ufa:t3:red:leader:stalin:d2",
                               "siege:ufa:t3:red:leader:stalin:fate"]
    assert after["control"]["Ufa"] == "siberian" and after["units"]["stalin"]["status"] == "dead"


# ---------------------------------------------------------------------------------------
# 8.1-8.3, 6.4, 8.93, 18.1, 12.41, 13.61 declared attacks refused: the exact path and message


def attack_problems(state: dict[str, Any], items: list[dict[str, Any]],
                    secret: dict[str, Any] | None = None) -> list[tuple[tuple[Any, ...], str]]:
    body = orders(*items)
    if secret is not None:
        body["secret"] = secret
    return [(p.path, p.message) for p in problems(state, state["actor"], body)]


TVER = {"red-inf-01": "Tver", "south-inf-01": "Tver"}
AT = ("orders", 0, "attack")


def test_8_2_an_attack_order_with_an_unknown_key_or_zone() -> None:
    state = position(TVER)
    assert attack_problems(state, [{"attack": {"zone": "Tver", "unitz": []}}], {"spend": {"Tver": 1}}) == [
        ((*AT, "unitz"), "unknown key 'unitz'; did you mean 'units'? (expected: zone, units, leaders)"),
        (("secret", "spend", "Tver"), "money spent on Tver, which is not attacked")]
    assert attack_problems(state, [{"attack": {"zone": "Nowhere"}}], {"spend": {"Tver": 1}}) == [
        ((*AT, "zone"), "unknown zone 'Nowhere'"),
        (("secret", "spend", "Tver"), "money spent on Tver, which is not attacked")]


def test_8_1_battles_are_fought_in_land_zones_once_each() -> None:
    state = position(TVER)
    assert attack_problems(state, [{"attack": {"zone": "Baltic Sea"}}], {"spend": {"Baltic Sea": 1}}) == [
        ((*AT, "zone"), "Baltic Sea is not a land zone: battles are fought in land zones (8.0, 8.1); "
                        "units at sea land first (move ... from the sea), fleets at sea fight with "
                        "search (8.92)"),
        (("secret", "spend", "Baltic Sea"), "money spent on Baltic Sea, which is not attacked")]
    assert attack_problems(state, [{"attack": {"zone": "Tver"}}, {"attack": {"zone": "Tver"}}],
                           {"spend": {"Tver": 1}}) == [(("orders", 1, "attack", "zone"), "Tver is attacked twice")]


def test_8_1_only_units_in_the_zone_attack_and_only_enemies() -> None:
    state = position(TVER)
    assert attack_problems(state, [{"attack": {"zone": "Moscow"}}], {"spend": {"Moscow": 1}}) == [
        ((*AT, "zone"), "you have no land units in Moscow to attack with (8.1: only units in the zone fight)")]
    alone = position({"red-inf-01": "Tver"})
    assert attack_problems(alone, [{"attack": {"zone": "Tver"}}], {"spend": {"Tver": 1}}) == [
        ((*AT, "zone"), "there are no enemy units in Tver (White factions never attack each other, 18.1)")]


def test_8_1_the_units_and_leaders_named_must_be_the_attackers_own_in_the_zone() -> None:
    state = position({**TVER, "red-inf-02": "Moscow", "trotsky": "Moscow", "denikin": "Tver"})
    units = {"attack": {"zone": "Tver", "units": ["red-inf-02", "south-inf-01", "nobody"]}}
    assert attack_problems(state, [units], {"spend": {"Tver": 1}}) == [
        ((*AT, "units", 0), "red-inf-02 is not one of your land units in Tver"),
        ((*AT, "units", 1), "south-inf-01 is not one of your land units in Tver"),
        ((*AT, "units", 2), "unknown unit or leader 'nobody'")]
    leaders = {"attack": {"zone": "Tver", "leaders": ["trotsky", "denikin"]}}
    assert attack_problems(state, [leaders], {"spend": {"Tver": 1}}) == [
        ((*AT, "leaders"), "trotsky is not your leader in Tver"),
        ((*AT, "leaders"), "denikin is not your leader in Tver")]


def test_8_93_aircraft_named_alone_cannot_attack() -> None:
    state = position({**TVER, "red-air-01": "Tver"})
    assert attack_problems(state, [{"attack": {"zone": "Tver", "units": ["red-air-01"]}}],
                           {"spend": {"Tver": 1}}) == [((*AT, "units"), "aircraft cannot fight alone (8.93)")]


def test_8_3_the_spending_is_one_of_the_three_levels_for_an_attacked_zone_within_the_money() -> None:
    state = position(TVER)
    assert attack_problems(state, [{"attack": {"zone": "Tver"}}], {"spend": {"Tver": 2}}) == [
        (("secret", "spend"), "give the money spent on Tver under secret: spend: (1 probe, 3 assault, "
                              "5 invasion; 8.3)")]
    assert attack_problems(state, [{"attack": {"zone": "Tver"}}], {"spend": {"Tver": 1, "Moscow": 1}}) == [
        (("secret", "spend", "Moscow"), "money spent on Moscow, which is not attacked")]
    # a sealed secret was checked when it was received
    assert attack_problems(state, [{"attack": {"zone": "Tver"}}], {"sealed": "x"}) == []
    poor = position(TVER)
    poor["money"]["red"] = 2
    found = attack_problems(poor, [{"attack": {"zone": "Tver"}}], {"spend": {"Tver": 3}})
    assert found[0] == (("secret", "spend"), "the attacks cost 3 money; red has 2 (6.4)")
    # 6.4 all the attacks together: 1 + 3 of the 4 is allowed, 1 + 5 is not
    two = position({**TVER, "red-inf-02": "Novgorod", "south-inf-02": "Novgorod"})
    two["money"]["red"] = 4
    both = [{"attack": {"zone": "Tver"}}, {"attack": {"zone": "Novgorod"}}]
    assert attack_problems(two, both, {"spend": {"Tver": 1, "Novgorod": 3}}) == []
    assert attack_problems(two, both, {"spend": {"Tver": 1, "Novgorod": 5}})[0] == (
        ("secret", "spend"), "the attacks cost 6 money; red has 4 (6.4)")


def minor_state(pieces: dict[str, str], actor: str, **extra: Any) -> dict[str, Any]:
    state = position(pieces, actor=actor, turn=5)
    state["standing"] = standing_()
    for name, spec in (extra.pop("minor", None) or {}).items():
        state.setdefault("minors", {})[name] = {"controller": None, "until": None, **spec}
    state.update(extra)
    return state


def test_12_41_nothing_is_spent_on_a_force_of_minor_units_alone() -> None:
    state = minor_state({"finland-inf-02": "Petrograd", "red-inf-01": "Petrograd"}, "south",
                        minor={"finland": {"status": "active", "controller": "south"}})
    assert attack_problems(state, [{"attack": {"zone": "Petrograd"}}], {"spend": {"Petrograd": 3}}) == [
        (("secret", "spend", "Petrograd"), "the force attacking Petrograd is made of minor or allied "
                                           "units only: it is presumed to have paid for two rounds "
                                           "(12.41); spend nothing on it")]
    assert attack_problems(state, [{"attack": {"zone": "Petrograd"}}], {"sealed": "x"}) == []
    assert attack_problems(state, [{"attack": {"zone": "Petrograd"}}]) == []


def test_13_61_allied_units_taken_for_attacks_count_across_the_attacks() -> None:
    pieces = {"allied-inf-01": "Vologda", "allied-inf-02": "Kotlas", "red-inf-01": "Vologda",
              "red-inf-02": "Kotlas"}
    state = minor_state(pieces, "north", allied_control={"north": 1})
    one = {"attack": {"zone": "Vologda", "units": ["allied-inf-01"]}}
    assert attack_problems(state, [one]) == []
    two = {"attack": {"zone": "Kotlas", "units": ["allied-inf-02"]}}
    assert attack_problems(state, [one, two]) == [
        (("orders", 1, "attack", "units", 0), "allied-inf-02 is an allied unit: north may use 1 allied "
                                              "unit(s) this turn, from the foreign intervention table, "
                                              "and has no more to take (13.61)"),
        (("secret", "spend"), "give the money spent on Kotlas under secret: spend: (1 probe, 3 assault, "
                              "5 invasion; 8.3)")]


# ---------------------------------------------------------------------------------------
# 8.3-8.7, 10.4, 10.5, 10.8.1 battles: every event in full, every die asked by its label


def fight_exact(pieces: dict[str, str], zone: str, spend: int, dice: list[int], *, actor: str = "red",
                control: dict[str, Any] | None = None, standing: dict[str, Any] | None = None,
                reduced: tuple[str, ...] = ()) -> tuple[Events, dict[str, Any], FixedRng]:
    """An attack on `zone` with `spend` money resolved with exactly these dice (run)."""
    state = position(pieces, actor=actor, control=control, reduced=reduced)
    state["standing"] = standing_(standing)
    body = orders({"attack": {"zone": zone}})
    body["secret"] = {"spend": {zone: spend}}
    return run(state, body, dice)


def land_round(zone: str, attacker: str, r: int, atk: list[int], dfn: list[int]) -> dict[str, Any]:
    hits = {"atk": sum(v >= 6 for v in atk), "def": sum(v >= 6 for v in dfn)}
    return {"type": "combat_round", "zone": zone, "round": r, "attacker": attacker,
            "dice": {"atk": [{"what": "units", "count": len(atk), "hit": 6, "values": atk, "hits": hits["atk"]}],
                     "def": [{"what": "units", "count": len(dfn), "hit": 6, "values": dfn, "hits": hits["def"]}]},
            "hits": hits}


def labels(prefix: str, side: str, r: int, count: int) -> list[str]:
    return [f"{prefix}:{side}:r{r}:d{k}" for k in range(1, count + 1)]


def test_12_41_13_61_allied_units_taken_in_hand_fight_two_free_rounds() -> None:
    # 13.61 North takes allied-inf-01 (3-2) in hand for the attack; 12.41 a force of allied
    # units alone fights two rounds, presumed paid. Red defends Vologda (5 + fort 1).
    state = minor_state({"allied-inf-01": "Vologda", "red-inf-01": "Vologda"}, "north",
                        allied_control={"north": 1})
    events, after, rng = run(state, orders({"attack": {"zone": "Vologda", "units": ["allied-inf-01"]}}),
                             [1] * 18)
    assert events == [
        {"type": "allies_taken", "faction": "north", "units": ["allied-inf-01"]},
        {"type": "attack", "zone": "Vologda", "attacker": "north", "defenders": ["red"], "spend": 0,
         "level": "minors' battle", "rounds": 2},
        land_round("Vologda", "north", 1, [1] * 3, [1] * 6),
        land_round("Vologda", "north", 2, [1] * 3, [1] * 6),
        {"type": "battle_over", "zone": "Vologda", "attacker": "north", "attacker_left": True,
         "defender_left": True},
    ]
    prefix = "combat:vologda:t5:north"
    assert rng.labels == (labels(prefix, "atk", 1, 3) + labels(prefix, "def", 1, 6)
                          + labels(prefix, "atk", 2, 3) + labels(prefix, "def", 2, 6))
    assert after["money"]["north"] == state["money"]["north"]


def test_10_4_a_leader_hit_on_twelve_then_killed_on_five() -> None:
    # 8.6 two hits reduce red-inf-01 (defence 2), 8.7 it retreats to Moscow; 10.4 Budyonny
    # rolls 6+5 and the one step lost: 12, hit; the fate die 5 (4-6): killed
    pieces = {"red-inf-01": "Tver", "red-inf-02": "Tver", "budyonny": "Tver", "south-inf-01": "Tver"}
    events, after, rng = fight_exact(pieces, "Tver", 1, [1] * 11 + [6, 6, 1, 1, 1] + [6, 5, 5],
                                     standing={"red": {"retreat_to": ["Moscow"]}})
    assert events == [
        {"type": "attack", "zone": "Tver", "attacker": "red", "defenders": ["south"], "spend": 1,
         "level": "probe", "rounds": 1},
        land_round("Tver", "red", 1, [1] * 11, [6, 6, 1, 1, 1]),
        {"type": "reduced", "unit": "red-inf-01", "by": "combat"},
        {"type": "retreat", "zone": "Tver", "faction": "red", "units": ["red-inf-01"], "to": "Moscow",
         "when": "after a round"},
        {"type": "leader_loss", "leader": "budyonny", "zone": "Tver", "dice": [6, 5], "steps": 1,
         "fate": 5, "result": "killed"},
        {"type": "battle_over", "zone": "Tver", "attacker": "red", "attacker_left": True,
         "defender_left": True},
    ]
    assert rng.labels[-3:] == ["combat:tver:t3:red:leader:budyonny:d1",
                               "combat:tver:t3:red:leader:budyonny:d2",
                               "combat:tver:t3:red:leader:budyonny:fate"]
    assert after["units"]["budyonny"]["status"] == "dead"
    assert after["units"]["red-inf-01"]["zone"] == "Moscow" and after["units"]["red-inf-01"]["reduced"]


def test_10_4_a_leader_hit_is_wounded_on_three_and_eleven_is_no_hit() -> None:
    pieces = {"red-inf-01": "Tver", "red-inf-02": "Tver", "budyonny": "Tver", "south-inf-01": "Tver"}
    events, after, _ = fight_exact(pieces, "Tver", 1, [1] * 11 + [6, 6, 1, 1, 1] + [6, 5, 3],
                                   standing={"red": {"retreat_to": ["Moscow"]}})
    assert [e for e in events if e["type"] == "leader_loss"] == [
        {"type": "leader_loss", "leader": "budyonny", "zone": "Tver", "dice": [6, 5], "steps": 1,
         "fate": 3, "result": "wounded"}]
    assert after["units"]["budyonny"]["status"] == "unused"
    # 6+4 and one step: 11, no hit and no fate die
    events, after, _ = fight_exact(pieces, "Tver", 1, [1] * 11 + [6, 6, 1, 1, 1] + [6, 4],
                                   standing={"red": {"retreat_to": ["Moscow"]}})
    assert [e for e in events if e["type"] == "leader_loss"] == [
        {"type": "leader_loss", "leader": "budyonny", "zone": "Tver", "dice": [6, 4], "steps": 1,
         "fate": None, "result": "safe"}]
    assert after["units"]["budyonny"]["status"] == "map"


def test_10_5_a_leader_whose_units_are_gone_escapes_on_more_than_ten() -> None:
    # 10.5 "rolls two dice and adds the leader's value ... If the result is greater than 10,
    # the leader manages to escape": Denikin (2) rolls 5+4: 11
    pieces = {"red-inf-01": "Tver", "red-inf-02": "Tver", "south-inf-01": "Tver", "denikin": "Tver"}
    events, after, rng = fight_exact(pieces, "Tver", 1, [6, 6, 6] + [1] * 7 + [1] * 7 + [5, 4])
    assert events == [
        {"type": "attack", "zone": "Tver", "attacker": "red", "defenders": ["south"], "spend": 1,
         "level": "probe", "rounds": 1},
        land_round("Tver", "red", 1, [6, 6, 6] + [1] * 7, [1] * 7),
        {"type": "reduced", "unit": "south-inf-01", "by": "combat"},
        {"type": "reduced", "unit": "south-inf-01", "by": "combat", "eliminated": True},
        {"type": "leader_capture", "leader": "denikin", "zone": "Tver", "dice": [5, 4],
         "result": "escaped", "to": "Novocherkassk"},
        {"type": "battle_over", "zone": "Tver", "attacker": "red", "attacker_left": True,
         "defender_left": False},
    ]
    assert rng.labels[-2:] == ["combat:tver:t3:red:capture:denikin:d1", "combat:tver:t3:red:capture:denikin:d2"]
    assert after["units"]["denikin"]["zone"] == "Novocherkassk"


@pytest.mark.parametrize(("dice", "result", "to"), [([5, 4], "escaped", "Novocherkassk"),
                                                  ([4, 4], "captured", None)])
def test_10_5_a_leader_alone_in_a_zone_enemy_units_enter_rolls_for_his_capture(
        dice: list[int], result: str, to: str | None) -> None:
    # "Leaders who are alone in a zone that one or more enemy units enter may also be
    # captured ... If the result is greater than 10, the leader manages to escape": Denikin
    # (2) alone in Tver; 5+4+2 = 11 escapes, 4+4+2 = 10 is captured and killed
    state = position({"red-inf-01": "Moscow", "denikin": "Tver"})
    state["standing"] = standing_()
    events, after, rng = run(state, orders({"move": {"units": ["red-inf-01"], "to": "Tver"}}), dice)
    assert events == [
        {"type": "moved", "faction": "red", "units": ["red-inf-01"], "path": ["Moscow", "Tver"], "cost": 1,
         "stopped": False},
        {"type": "leader_capture", "leader": "denikin", "zone": "Tver", "dice": dice, "result": result, "to": to},
    ]
    assert rng.labels == ["move:tver:t3:red:o0:capture:denikin:d1", "move:tver:t3:red:o0:capture:denikin:d2"]
    assert after["units"]["denikin"]["status"] == ("dead" if to is None else "map")
    fate = "escaped to Novocherkassk" if to else "captured and killed"
    assert importlib.import_module("pbem_game_red_russia.fold").describe_event(data(), events[1]) == (
        f"leader denikin alone with the enemy in Tver: {dice[0]}+{dice[1]} + level 2 = {sum(dice) + 2}, "
        f"{'over' if to else 'not over'} 10: {fate} (10.5)")


def test_10_5_a_leader_alone_on_the_way_of_enemy_units_rolls_too() -> None:
    # red-inf-01 goes through Moscow, where Denikin is alone, on to Tver
    state = position({"red-inf-01": "Yaroslavl", "denikin": "Moscow"})
    state["standing"] = standing_()
    body = orders({"move": {"units": ["red-inf-01"], "to": "Tver", "via": ["Moscow"]}})
    events, after, rng = run(state, body, [4, 4])
    assert events[1] == {"type": "leader_capture", "leader": "denikin", "zone": "Moscow", "dice": [4, 4],
                         "result": "captured", "to": None}
    assert rng.labels[0] == "move:moscow:t3:red:o0:capture:denikin:d1"


def test_10_5_a_leader_alone_where_a_transport_lands_rolls_too() -> None:
    # Petrograd -> Baltic Sea -> Reval (Red) by the fleet at sea: Denikin alone in Reval
    state = position({"red-inf-01": "Petrograd", "red-fleet-01": "Baltic Sea", "denikin": "Reval"},
                     control={"Reval": "red"})
    state["standing"] = standing_()
    body = orders({"move": {"units": ["red-inf-01"], "to": "Reval", "via": ["Baltic Sea"]}})
    events, after, rng = run(state, body, [4, 4])
    assert events[-1] == {"type": "leader_capture", "leader": "denikin", "zone": "Reval", "dice": [4, 4],
                          "result": "captured", "to": None}
    assert rng.labels == ["move:reval:t3:red:o0:capture:denikin:d1", "move:reval:t3:red:o0:capture:denikin:d2"]


def test_10_5_lenin_alone_captured_by_a_white_move_is_killed() -> None:
    state = position({"south-inf-01": "Tula", "lenin": "Moscow"}, actor="south")
    state["standing"] = standing_()
    events, after, _ = run(state, orders({"move": {"units": ["south-inf-01"], "to": "Moscow"}}), [1, 1, 2, 3])
    assert events[1:] == [
        {"type": "leader_capture", "leader": "lenin", "zone": "Moscow", "dice": [1, 1], "result": "captured",
         "to": None},
        {"type": "lenin_killed", "manpower": 2, "money": 3, "by": ["south"]},
    ]


@pytest.mark.parametrize(("pieces", "mover"), [
    ({"red-inf-01": "Moscow", "denikin": "Tver", "south-inf-01": "Tver"}, ["red-inf-01"]),  # not alone
    ({"red-inf-01": "Moscow", "denikin": "Tver", "south-air-01": "Tver"}, ["red-inf-01"]),  # an aircraft
    ({"budyonny": "Moscow", "denikin": "Tver"}, ["budyonny"]),  # a leader alone is no force
])
def test_10_5_no_capture_roll_without_a_unit_coming_or_with_one_beside_him(pieces: dict[str, str],
                                                                         mover: list[str]) -> None:
    state = position(pieces, control={"Smolensk": "south"})
    state["standing"] = standing_()
    events, after, rng = run(state, orders({"move": {"units": mover, "to": "Tver"}}),
                             [3] if "south-air-01" in pieces else [])
    assert "leader_capture" not in kinds(events)
    assert after["units"]["denikin"]["zone"] == "Tver"


def test_10_5_a_leader_with_a_minors_unit_he_commands_is_not_alone() -> None:
    # Budyonny with the anarchist cavalry the Reds control (12.12: on their side)
    state = position({"south-inf-01": "Ekaterinoslav", "budyonny": "Gulai Polye",
                      "anarchists-cav-01": "Gulai Polye"}, actor="south")
    state["minors"]["anarchists"] = {"status": "active", "controller": "red", "until": None}
    state["standing"] = standing_()
    events, after, rng = run(state, orders({"move": {"units": ["south-inf-01"], "to": "Gulai Polye"}}), [])
    assert "leader_capture" not in kinds(events) and rng.labels == []


def test_10_5_10_8_1_lenin_captured_costs_the_reds_two_dice_of_manpower_and_money() -> None:
    # Lenin (2) with a reduced Red unit in Moscow; the unit is eliminated, Lenin rolls 1+1
    # + 2 = 4 (10 or less): captured and killed; 10.8.1 the Reds lose 1 manpower and 3 money
    pieces = {"south-inf-01": "Moscow", "south-inf-02": "Moscow", "red-inf-01": "Moscow", "lenin": "Moscow"}
    events, after, rng = fight_exact(pieces, "Moscow", 1, [6, 6, 6] + [1] * 7 + [1] * 8 + [1, 1, 1, 3],
                                     actor="south", reduced=("red-inf-01",))
    assert events[-4:] == [
        {"type": "reduced", "unit": "red-inf-01", "by": "combat", "eliminated": True},
        {"type": "leader_capture", "leader": "lenin", "zone": "Moscow", "dice": [1, 1],
         "result": "captured", "to": None},
        {"type": "lenin_killed", "manpower": 1, "money": 3, "by": ["south"]},
        {"type": "battle_over", "zone": "Moscow", "attacker": "south", "attacker_left": True,
         "defender_left": False},
    ]
    assert rng.labels[-2:] == ["combat:moscow:t3:south:lenin:manpower", "combat:moscow:t3:south:lenin:money"]
    before = position(pieces, actor="south")
    assert after["money"]["red"] == before["money"]["red"] - 3
    assert after["manpower"]["red"] == before["manpower"]["red"] - 1
    assert after["units"]["lenin"]["status"] == "dead"


# ---------------------------------------------------------------------------------------
# 9.0, 9.1, 11.0, 12.3, 12.12, 12.41, 6.4 declared sieges refused: the exact path and message

SIEGE = ("orders", 0, "siege")


def siege_problems(state: dict[str, Any], **arg: Any) -> list[tuple[tuple[Any, ...], str]]:
    return attack_problems(state, [{"siege": arg}])


def test_9_1_a_siege_order_with_an_unknown_key_zone_or_round_count() -> None:
    state = position({"red-inf-01": "Ufa"})
    assert siege_problems(state, zone="Ufa", rounds=1, leaderz=[]) == [
        ((*SIEGE, "leaderz"), "unknown key 'leaderz'; did you mean 'leaders'? (expected: zone, rounds, "
                              "leaders, liberate)")]
    assert siege_problems(state, zone="Nowhere", rounds=1) == [((*SIEGE, "zone"), "unknown zone 'Nowhere'")]
    assert siege_problems(state, zone="Baltic Sea", rounds=1) == [
        ((*SIEGE, "zone"), "Baltic Sea is not a land zone (9.1)")]
    for rounds in (0, 21, True, "2"):
        assert siege_problems(state, zone="Ufa", rounds=rounds) == [
            ((*SIEGE, "rounds"), "rounds is a number from 1 to 20")]
    assert siege_problems(state, zone="Ufa", rounds=1) == []


def test_9_0_no_siege_of_ones_own_a_white_factions_or_a_commanded_minors_zone() -> None:
    assert siege_problems(position({"red-inf-01": "Kazan"}), zone="Kazan", rounds=1) == [
        ((*SIEGE, "zone"), "Kazan is yours already (9.0)")]
    assert siege_problems(position({"south-inf-01": "Ufa"}, actor="south"), zone="Ufa", rounds=1) == [
        ((*SIEGE, "zone"), "Ufa belongs to siberian: White factions never besiege each other (9.0, 18.1)")]
    finns = position({"red-inf-01": "Helsinki"}, turn=5)
    finns.setdefault("minors", {})["finland"] = {"controller": "red", "until": None, "status": "active"}
    assert siege_problems(finns, zone="Helsinki", rounds=1) == [
        ((*SIEGE, "zone"), "Helsinki belongs to finland, which you command (12.12)")]


def test_9_1_a_siege_needs_ones_land_units_there_and_no_enemy_ones() -> None:
    assert siege_problems(position({"red-inf-01": "Ufa"}), zone="Samara", rounds=1) == [
        ((*SIEGE, "zone"), "you have no land units in Samara (9.1)")]
    assert siege_problems(position({"red-inf-01": "Ufa", "siberian-inf-01": "Ufa"}), zone="Ufa", rounds=1) == [
        ((*SIEGE, "zone"), "there are enemy or neutral units in Ufa; a siege needs them gone first (9.1)")]


def test_11_0_no_siege_of_an_iron_cross_zone_on_turns_1_and_2() -> None:
    state = position({"red-inf-01": "Riga"}, turn=2, control={"Riga": "north"})
    assert siege_problems(state, zone="Riga", rounds=1) == [
        ((*SIEGE, "zone"), "Riga is out of play on turns 1-2 (11.0)")]
    state["turn"] = 3
    assert siege_problems(state, zone="Riga", rounds=1) == []


def test_12_3_only_a_minors_home_zone_held_by_a_major_is_liberated() -> None:
    state = position({"red-inf-01": "Ufa"})
    assert siege_problems(state, zone="Ufa", rounds=1, liberate="yes") == [
        ((*SIEGE, "liberate"), "liberate is true or false (12.3)")]
    assert siege_problems(state, zone="Ufa", rounds=1, liberate=True) == [
        ((*SIEGE, "liberate"), "only a minor faction's home zone held by a major faction is given back "
                               "(12.3); Ufa is not")]
    kiev = position({"red-inf-01": "Kiev"}, turn=5, control={"Kiev": "north"})
    assert siege_problems(kiev, zone="Kiev", rounds=1, liberate=True) == []


def test_12_41_minor_units_alone_besiege_for_two_free_rounds() -> None:
    state = position({"finland-inf-02": "Petrograd"}, actor="south", turn=5)
    state.setdefault("minors", {})["finland"] = {"controller": "south", "until": None, "status": "active"}
    state["money"]["south"] = 0
    assert siege_problems(state, zone="Petrograd", rounds=3) == [
        ((*SIEGE, "rounds"), "minor or allied units alone besiege for 2 rounds, presumed paid (12.41)")]
    assert siege_problems(state, zone="Petrograd", rounds=2) == []


def test_6_4_the_sieges_cost_one_a_round_within_the_money() -> None:
    state = position({"red-inf-01": "Ufa", "red-inf-02": "Samara"})
    state["money"]["red"] = 3
    assert siege_problems(state, zone="Ufa", rounds=3) == []
    assert siege_problems(state, zone="Ufa", rounds=4) == [
        (("orders",), "the sieges cost 4 money (1 a round); red has 3 left (6.4)")]
    both = [{"siege": {"zone": "Ufa", "rounds": 2}}, {"siege": {"zone": "Samara", "rounds": 2}}]
    assert attack_problems(state, both) == [
        (("orders",), "the sieges cost 4 money (1 a round); red has 3 left (6.4)")]


# ---------------------------------------------------------------------------------------
# 15.2 partisans attacked alone


def hunt(dice: list[int]) -> tuple[Events, dict[str, Any], FixedRng, dict[str, Any]]:
    state = position({"red-inf-01": "Tver"})
    state["standing"] = standing_()
    state["partisans"] = {"Tver": "south"}
    body = orders({"attack": {"zone": "Tver"}})
    body["secret"] = {"spend": {"Tver": 1}}
    events, after, rng = run(state, body, dice)
    return events, after, rng, state


def partisan_round(r: int, atk: list[int], dfn: list[int]) -> dict[str, Any]:
    hits = {"atk": sum(v >= 6 for v in atk), "def": sum(v >= 6 for v in dfn)}
    return {"type": "combat_round", "zone": "Tver", "round": r, "attacker": "red",
            "dice": {"atk": [{"what": "units", "count": len(atk), "hit": 6, "values": atk, "hits": hits["atk"]}],
                     "def": [{"what": "partisans", "count": len(dfn), "hit": 6, "values": dfn,
                              "hits": hits["def"]}]},
            "hits": hits}


HUNT = {"type": "attack", "zone": "Tver", "attacker": "red", "defenders": ["partisans"], "spend": 1,
        "level": "probe", "rounds": 0}


def test_15_2_partisans_are_fought_for_as_many_rounds_as_it_takes_for_one_money() -> None:
    # 15.2 "the attacking player may attack for an unlimited number of rounds by paying only
    # 1 money point"; they attack with 2 dice and one hit on their defence of 1 destroys them
    events, after, rng, before = hunt([5] * 5 + [1, 1] + [6, 5, 5, 5, 5] + [6, 1])
    assert events == [
        HUNT,
        partisan_round(1, [5] * 5, [1, 1]),
        partisan_round(2, [6, 5, 5, 5, 5], [6, 1]),
        {"type": "partisans_gone", "zone": "Tver", "why": "destroyed in battle"},
        {"type": "battle_over", "zone": "Tver", "attacker": "red", "attacker_left": True,
         "defender_left": False},
    ]
    prefix = "combat:tver:t3:red:partisans"
    assert rng.labels == (labels(prefix, "atk", 1, 5) + labels(prefix, "def", 1, 2)
                          + labels(prefix, "atk", 2, 5) + labels(prefix, "def", 2, 2))
    assert after["partisans"] == {} and after["money"]["red"] == before["money"]["red"] - 1


def test_15_2_partisans_defend_normally_their_two_sixes_reduce_the_attacker() -> None:
    # "they defend normally": two hits on red-inf-01 (defence 2) take a step (8.6) and it
    # retreats (8.7); no attacker is left, the partisans stay
    events, after, _, _ = hunt([5] * 5 + [6, 6])
    assert events == [
        HUNT,
        partisan_round(1, [5] * 5, [6, 6]),
        {"type": "reduced", "unit": "red-inf-01", "by": "combat"},
        {"type": "retreat", "zone": "Tver", "faction": "red", "units": ["red-inf-01"], "to": "Moscow",
         "when": "after a round"},
        {"type": "battle_over", "zone": "Tver", "attacker": "red", "attacker_left": False,
         "defender_left": False},
    ]
    assert after["partisans"] == {"Tver": "south"}


# ---------------------------------------------------------------------------------------
# 8.4, 8.7, 8.92, 8.93 retreats: every event in full


def probe(zone: str, attacker: str, defenders: list[str], *, spend: int = 1, level: str = "probe",
          rounds: int = 1) -> dict[str, Any]:
    return {"type": "attack", "zone": zone, "attacker": attacker, "defenders": defenders,
            "spend": spend, "level": level, "rounds": rounds}


def over(zone: str, attacker: str, atk_left: bool, def_left: bool) -> dict[str, Any]:
    return {"type": "battle_over", "zone": zone, "attacker": attacker, "attacker_left": atk_left,
            "defender_left": def_left}


def test_8_7_a_defender_outnumbered_retreats_by_choice_with_its_leader() -> None:
    # 8.7 "the defender ... may retreat with what is left": South's one unit against two,
    # standing voluntary_retreat: when_outnumbered; Denikin goes with it, and having left
    # the battle takes no loss test (10.4: no dice for him)
    pieces = {"red-inf-01": "Tver", "red-inf-02": "Tver", "south-inf-01": "Tver", "denikin": "Tver"}
    events, after, _ = fight_exact(pieces, "Tver", 3, [1] * 17, control={"Moscow": "south"},
                                   standing={"south": {"voluntary_retreat": "when_outnumbered"}})
    assert events == [
        probe("Tver", "red", ["south"], spend=3, level="assault", rounds=2),
        land_round("Tver", "red", 1, [1] * 10, [1] * 7),
        {"type": "retreat", "zone": "Tver", "faction": "south", "units": ["south-inf-01", "denikin"],
         "to": "Moscow", "when": "by choice after a round"},
        over("Tver", "red", True, False),
    ]
    assert after["units"]["denikin"]["zone"] == "Moscow"


def test_8_7_a_reduced_unit_with_no_friendly_zone_to_go_to_is_eliminated() -> None:
    # Murmansk's only route leads to Kem (North): no friendly zone for the Reds
    pieces = {"red-inf-01": "Murmansk", "red-inf-02": "Murmansk", "north-inf-01": "Murmansk"}
    events, after, _ = fight_exact(pieces, "Murmansk", 1, [1] * 10 + [6, 6, 1, 1, 1], control={"Murmansk": "north"})
    assert events == [
        probe("Murmansk", "red", ["north"]),
        land_round("Murmansk", "red", 1, [1] * 10, [6, 6, 1, 1, 1]),
        {"type": "reduced", "unit": "red-inf-01", "by": "combat"},
        {"type": "eliminated", "unit": "red-inf-01", "zone": "Murmansk", "why": "no retreat (8.7)"},
        over("Murmansk", "red", True, True),
    ]
    assert after["units"]["red-inf-01"]["status"] == "eliminated"


def test_8_92_a_damaged_fleet_in_port_puts_to_sea() -> None:
    # Novorossiysk, a Black Sea port: South's fleet (its loss_order first) takes the two hits
    pieces = {"red-inf-01": "Novorossiysk", "red-inf-02": "Novorossiysk",
              "south-inf-01": "Novorossiysk", "south-fleet-01": "Novorossiysk"}
    events, after, _ = fight_exact(pieces, "Novorossiysk", 1, [6, 6] + [1] * 8 + [1] * 10,
                                   standing={"south": {"loss_order": ["south-fleet-01"]}})
    assert events == [
        probe("Novorossiysk", "red", ["south"]),
        land_round("Novorossiysk", "red", 1, [6, 6] + [1] * 8, [1] * 10),
        {"type": "reduced", "unit": "south-fleet-01", "by": "combat"},
        {"type": "retreat", "zone": "Novorossiysk", "faction": "south", "units": ["south-fleet-01"],
         "to": "Black Sea", "when": "after a round (8.92)"},
        over("Novorossiysk", "red", True, True),
    ]
    assert after["units"]["south-fleet-01"]["zone"] == "Black Sea"


def test_8_92_a_damaged_fleet_in_a_blockaded_port_is_eliminated() -> None:
    # 8.92 a fleet may not leave a port blockaded against it: 8.7, it cannot retreat
    pieces = {"north-inf-01": "Petrograd", "north-inf-02": "Petrograd", "red-inf-01": "Petrograd",
              "red-fleet-01": "Petrograd", "allied-fleet-03": "Baltic Sea"}
    state = position(pieces, actor="north")
    state["standing"] = standing_({"red": {"loss_order": ["red-fleet-01"]}})
    state["blockade"] = {"allied-fleet-03": "Petrograd"}
    body = orders({"attack": {"zone": "Petrograd"}})
    body["secret"] = {"spend": {"Petrograd": 1}}
    events, after, _ = run(state, body, [6, 6] + [1] * 6 + [1] * 12)
    assert events == [
        probe("Petrograd", "north", ["red"]),
        land_round("Petrograd", "north", 1, [6, 6] + [1] * 6, [1] * 12),
        {"type": "reduced", "unit": "red-fleet-01", "by": "combat"},
        {"type": "eliminated", "unit": "red-fleet-01", "zone": "Petrograd",
         "why": "a fleet may not retreat from a blockaded port (8.92, 8.7)"},
        over("Petrograd", "north", True, True),
    ]
    assert after["units"]["red-fleet-01"]["status"] == "eliminated"


def test_8_4_a_retreat_before_combat_takes_the_leaders_and_the_money_is_spent() -> None:
    events, after, _ = fight_exact({"red-inf-01": "Tver", "south-inf-01": "Tver", "denikin": "Tver"}, "Tver", 3, [],
                                   control={"Moscow": "south"}, standing={"south": {"retreat_before_combat": "always"}})
    assert events == [
        {"type": "retreat", "zone": "Tver", "faction": "south", "units": ["south-inf-01", "denikin"],
         "to": "Moscow", "when": "before combat"},
        probe("Tver", "red", [], spend=3, level="assault", rounds=0),
    ]
    assert after["money"]["red"] == position({})["money"]["red"] - 3


def test_8_4_more_attacking_cavalry_stops_a_retreat_before_combat() -> None:
    events, _, _ = fight_exact({"red-cav-01": "Tver", "south-inf-01": "Tver"}, "Tver", 1, [1] * 10,
                               control={"Moscow": "south"}, standing={"south": {"retreat_before_combat": "always"}})
    assert events == [
        {"type": "note", "zone": "Tver", "text": "south cannot retreat before combat: the attacker has "
                                                 "more cavalry (8.4)"},
        probe("Tver", "red", ["south"]),
        land_round("Tver", "red", 1, [1] * 5, [1] * 5),
        over("Tver", "red", True, True),
    ]


def test_8_93_aircraft_caught_alone_retreat_after_their_die() -> None:
    # "The enemy player does not have to pay for this combat, insofar as it is not supposed
    # to have taken place": the attack is recorded, at no cost
    events, after, rng = fight_exact({"red-inf-01": "Tver", "south-air-01": "Tver"}, "Tver", 1, [2],
                                     control={"Moscow": "south"})
    assert events == [
        {"type": "attack", "zone": "Tver", "attacker": "red", "defenders": ["south"], "spend": 0,
         "level": "no combat: aircraft alone (8.93)", "rounds": 0},
        {"type": "air_alone", "unit": "south-air-01", "zone": "Tver", "roll": 2},
        {"type": "reduced", "unit": "south-air-01", "by": "combat"},
        {"type": "retreat", "zone": "Tver", "faction": "south", "units": ["south-air-01"], "to": "Moscow",
         "when": "after a round"},
    ]
    assert rng.labels == ["combat:tver:t3:red:air-alone:south-air-01"]
    assert after["money"]["red"] == position({})["money"]["red"]
    assert importlib.import_module("pbem_game_red_russia.fold").describe_event(data(), events[0]) == (
        "red attacks Tver: only aircraft there, no combat and nothing paid (8.93)")
    # a reduced aircraft losing its step is gone: nothing is left to retreat
    events, after, _ = fight_exact({"red-inf-01": "Tver", "south-air-01": "Tver"}, "Tver", 1, [1],
                                   control={"Moscow": "south"}, reduced=("south-air-01",))
    assert kinds(events) == ["attack", "air_alone", "reduced"]
    assert after["units"]["south-air-01"]["status"] == "eliminated"


@pytest.mark.parametrize(("roll", "reduced"), [(2, True), (3, False)])
def test_8_93_aircraft_alone_retreat_when_an_enemy_force_moves_in(roll: int, reduced: bool) -> None:
    # "If an enemy force moves into a zone containing an aircraft without any other type of
    # unit, then the aircraft must retreat immediately and its owner rolls a die. On a result
    # of 1 or 2, the aircraft suffers one step loss." The attack declared on it has nobody
    # left to fight: no battle, nothing paid.
    state = position({"red-inf-01": "Moscow", "south-air-01": "Tver"}, control={"Smolensk": "south"})
    state["standing"] = standing_()
    body = orders({"move": {"units": ["red-inf-01"], "to": "Tver"}}, {"attack": {"zone": "Tver"}})
    body["secret"] = {"spend": {"Tver": 1}}
    events, after, rng = run(state, body, [roll])
    expected = [
        {"type": "moved", "faction": "red", "units": ["red-inf-01"], "path": ["Moscow", "Tver"], "cost": 1,
         "stopped": True},
        {"type": "air_alone", "unit": "south-air-01", "zone": "Tver", "roll": roll},
        *([{"type": "reduced", "unit": "south-air-01", "by": "combat"}] if reduced else []),
        {"type": "retreat", "zone": "Tver", "faction": "south", "units": ["south-air-01"], "to": "Smolensk",
         "when": "after a round"},
    ]
    assert events[: len(expected)] == expected
    assert rng.labels == ["move:tver:t3:red:o0:air-alone:south-air-01"]
    assert "attack" not in kinds(events)
    assert [e["text"] for e in events if e["type"] == "note"] == [
        "no battle: there are no enemy units in Tver (White factions never attack each other, 18.1)"]
    assert after["money"]["red"] == state["money"]["red"]
    assert after["units"]["south-air-01"] == {**state["units"]["south-air-01"], "zone": "Smolensk",
                                              "reduced": reduced}


def test_8_93_aircraft_retreat_where_the_move_ends_not_where_it_passes() -> None:
    # Yaroslavl -> Moscow -> Tver: the aircraft in Tver, at the end of the move, retreat
    state = position({"red-inf-01": "Yaroslavl", "south-air-01": "Tver"}, control={"Smolensk": "south"})
    state["standing"] = standing_()
    body = orders({"move": {"units": ["red-inf-01"], "to": "Tver", "via": ["Moscow"]}})
    events, after, rng = run(state, body, [3])
    assert rng.labels == ["move:tver:t3:red:o0:air-alone:south-air-01"]
    assert after["units"]["south-air-01"]["zone"] == "Smolensk"


def test_8_93_a_leader_alone_is_no_force_that_makes_aircraft_retreat() -> None:
    state = position({"budyonny": "Moscow", "south-air-01": "Tver"}, control={"Smolensk": "south"})
    state["standing"] = standing_()
    events, after, rng = run(state, orders({"move": {"units": ["budyonny"], "to": "Tver"}}), [])
    assert "air_alone" not in kinds(events) and rng.labels == []
    assert after["units"]["south-air-01"]["zone"] == "Tver"


# ---------------------------------------------------------------------------------------
# 8.3 the battles in order, the spending opened



def resolve_attacks(state: dict[str, Any], attacks: list[dict[str, Any]], secret: Any,
                    dice: list[int], secrets: Any = None) -> Events:
    rng = SixSided(*dice)
    events: Events
    events, _ = combat.resolve_attacks(board_rules.board(data()), data(), state, state["actor"],
                                       attacks, secret, rng, secrets or OpenSecrets())
    assert rng.values == []
    return events


def spec(zone: str, units: list[str], **more: Any) -> dict[str, Any]:
    return {"zone": zone, "units": units, "leaders": [], **more}


def test_8_2_a_battle_whose_attackers_are_no_longer_there_is_not_fought() -> None:
    # declared in Tver, but red-inf-01 is in Moscow by the time it comes (and Novgorod has no
    # enemy left): each is noted, nothing is rolled, nothing is spent
    state = position({"red-inf-01": "Moscow", "red-inf-02": "Novgorod", "south-inf-01": "Tver"})
    state["standing"] = standing_()
    events = resolve_attacks(state, [spec("Tver", ["red-inf-01"]), spec("Novgorod", ["red-inf-02"])],
                             {"spend": {"Tver": 1, "Novgorod": 1}}, [])
    assert events == [
        {"type": "note", "zone": "Tver", "text": "no battle: one side is no longer there"},
        {"type": "note", "zone": "Novgorod", "text": "no battle: one side is no longer there"},
    ]
    assert resolve_attacks(state, [], None, [], secrets=None) == []


def test_8_3_battles_need_their_spending_opened_with_a_level_for_each() -> None:
    state = position(TVER)
    state["standing"] = standing_()
    b = board_rules.board(data())
    try:
        combat.resolve_attacks(b, data(), state, "red", [spec("Tver", ["red-inf-01"])], {"spend": {"Tver": 1}},
                               SixSided(), None)
    except ValueError as exc:
        assert str(exc) == "battles need the sealed spending opened"
    else:
        raise AssertionError("no ValueError")
    two = position({**TVER, "red-inf-02": "Novgorod", "south-inf-02": "Novgorod"})
    two["standing"] = standing_()
    try:
        resolve_attacks(two, [spec("Tver", ["red-inf-01"]), spec("Novgorod", ["red-inf-02"]),
                              spec("Kazan", ["red-inf-03"], free=True)],
                        {"spend": {"Tver": 2}}, [])
    except ValueError as exc:
        assert str(exc) == "the sealed spending names no level for Tver, Novgorod"
    else:
        raise AssertionError("no ValueError")


def test_8_3_the_spending_is_read_by_any_name_of_the_zone() -> None:
    # "Tallinn" is another name of Reval (map.yaml aliases)
    state = position({"red-inf-01": "Reval", "north-inf-01": "Reval"})
    state["standing"] = standing_()
    events = resolve_attacks(state, [spec("Reval", ["red-inf-01"])], {"spend": {"Tallinn": 1}}, [1] * 11)
    assert events[0] == probe("Reval", "red", ["north"])


def test_8_3_an_invasion_lasts_the_rounds_of_the_standing_instruction_at_least_one() -> None:
    # 8.3 an invasion goes on until the attacker stops: by standing invasion_rounds (default 4)
    events, _, _ = fight_exact(TVER, "Tver", 5, [1] * 40, control={"Moscow": "south"})
    assert events[0] == probe("Tver", "red", ["south"], spend=5, level="invasion", rounds=4)
    assert [e["round"] for e in events if e["type"] == "combat_round"] == [1, 2, 3, 4]
    events, _, _ = fight_exact(TVER, "Tver", 5, [1] * 10, control={"Moscow": "south"},
                               standing={"red": {"invasion_rounds": 0}})
    assert events[0] == probe("Tver", "red", ["south"], spend=5, level="invasion", rounds=1)
    events, _, _ = fight_exact(TVER, "Tver", 5, [1] * 20, control={"Moscow": "south"},
                               standing={"red": {"invasion_rounds": 2}})
    assert events[0] == probe("Tver", "red", ["south"], spend=5, level="invasion", rounds=2)


# ---------------------------------------------------------------------------------------
# 8.92 naval battles: rounds, voluntary retreats, the end of a blockade run
#
# In the game's counters only red-fleet-01 and allied-fleet-03 are enemies in one sea; a
# side outnumbered at sea (8.7 by choice) needs a second fleet there, so allied-fleet-04 is
# put in the Baltic Sea for these cases.


def naval_round(attacker: str, r: int, atk: list[int], dfn: list[int]) -> dict[str, Any]:
    hits = {"atk": sum(v >= 6 for v in atk), "def": sum(v >= 6 for v in dfn)}
    return {"type": "combat_round", "zone": "Baltic Sea", "round": r, "attacker": attacker,
            "dice": {"atk": [{"what": "fleets", "count": len(atk), "hit": 6, "values": atk, "hits": hits["atk"]}],
                     "def": [{"what": "fleets", "count": len(dfn), "hit": 6, "values": dfn, "hits": hits["def"]}]},
            "hits": hits}


def test_8_92_8_7_a_defending_fleet_outnumbered_withdraws_by_choice_with_its_cargo() -> None:
    state = position({"red-fleet-01": "Baltic Sea", "allied-fleet-03": "Baltic Sea",
                      "allied-fleet-04": "Baltic Sea", "red-inf-01": "Baltic Sea"})
    state["aboard"] = {"red-inf-01": "red-fleet-01"}  # since a retreat by sea (8.4)
    # Reval is North's: not a friendly port; Petrograd is
    state["standing"] = standing_({"red": {"voluntary_retreat": "when_outnumbered",
                                           "retreat_to": ["Reval", "Petrograd"]}})
    rng = SixSided(*[1] * 9)
    battle = naval.NavalBattle(board_rules.board(data()), data(), state, "allies",
                                {"zone": "Baltic Sea", "units": ["allied-fleet-03", "allied-fleet-04"],
                                 "defenders": ["red-fleet-01"]}, rng, "naval:test")
    battle.naval_rounds(None)
    assert battle.events == [
        naval_round("allies", 1, [1] * 6, [1] * 3),
        {"type": "retreat", "zone": "Baltic Sea", "faction": "red", "units": ["red-fleet-01", "red-inf-01"],
         "to": "Petrograd", "when": "by choice after a round at sea (8.92)"},
        {"type": "naval_battle_over", "zone": "Baltic Sea", "attacker": "allies",
         "attacker_left": ["allied-fleet-03", "allied-fleet-04"], "defender_left": []},
    ]
    assert rng.labels == labels("naval:test", "atk", 1, 6) + labels("naval:test", "def", 1, 3)
    assert battle.state["units"]["red-inf-01"]["zone"] == "Petrograd"


def test_8_92_8_7_a_searching_fleet_outnumbered_withdraws_after_its_round() -> None:
    state = position({"red-fleet-01": "Baltic Sea", "allied-fleet-03": "Baltic Sea", "allied-fleet-04": "Baltic Sea"})
    state["standing"] = standing_({"red": {"voluntary_retreat": "when_outnumbered"}})
    rng = SixSided(*[3, 4] + [1] * 9)
    events, after, contact = naval.search(board_rules.board(data()), data(), state, "red", "Baltic Sea",
                                           ["red-fleet-01"], "naval:y", rng, phasing=True)
    assert contact is True
    assert events == [
        {"type": "naval_search", "zone": "Baltic Sea", "faction": "red", "phasing": True, "fleets": ["red-fleet-01"],
         "targets": ["allied-fleet-03", "allied-fleet-04"], "dice": [3, 4], "contact": True},
        naval_round("red", 1, [1] * 3, [1] * 6),
        {"type": "retreat", "zone": "Baltic Sea", "faction": "red", "units": ["red-fleet-01"], "to": "Petrograd",
         "when": "by choice after a round at sea (8.92)"},
        {"type": "naval_battle_over", "zone": "Baltic Sea", "attacker": "red", "attacker_left": [],
         "defender_left": ["allied-fleet-03", "allied-fleet-04"]},
    ]
    assert rng.labels[:2] == ["naval:y:search:d1", "naval:y:search:d2"] and rng.values == []
    # without the standing instruction both stay: the search is one round only
    state["standing"] = standing_()
    events, _, _ = naval.search(board_rules.board(data()), data(), state, "red", "Baltic Sea",
                                 ["red-fleet-01"], "naval:y", SixSided(*[3, 4] + [1] * 9), phasing=True)
    assert events[-1] == {"type": "naval_battle_over", "zone": "Baltic Sea", "attacker": "red",
                          "attacker_left": ["red-fleet-01"],
                          "defender_left": ["allied-fleet-03", "allied-fleet-04"]}


def test_8_92_a_blockade_run_without_a_decision_turns_back_after_a_hundred_rounds() -> None:
    # the runner has left Petrograd for the Baltic Sea, blockaded by the British fleet; 100
    # rounds of ones: the runner goes back where it came from
    state = position({"red-fleet-01": "Baltic Sea", "allied-fleet-03": "Baltic Sea"})
    state["standing"] = standing_()
    state["blockade"] = {"allied-fleet-03": "Petrograd"}
    rng = SixSided(*[1] * 600)
    events, after = naval.blockade_run(board_rules.board(data()), data(), state, "red", ["red-fleet-01"],
                                        "Petrograd", "Baltic Sea", "Petrograd", "naval:x", rng)
    assert events[0] == {"type": "blockade_run", "zone": "Baltic Sea", "port": "Petrograd", "faction": "red",
                         "fleets": ["red-fleet-01"], "blockaders": ["allied-fleet-03"], "way": "leaving"}
    assert events[1:101] == [naval_round("red", r, [1] * 3, [1] * 3) for r in range(1, 101)]
    assert events[101:] == [
        {"type": "retreat", "zone": "Baltic Sea", "faction": "red", "units": ["red-fleet-01"], "to": "Petrograd",
         "when": "no decision after 100 rounds (8.92)"},
        {"type": "naval_battle_over", "zone": "Baltic Sea", "attacker": "red", "attacker_left": [],
         "defender_left": ["allied-fleet-03"], "port": "Petrograd"},
    ]
    assert rng.values == [] and rng.labels[-1] == "naval:x:def:r100:d3"
    assert after["units"]["red-fleet-01"]["zone"] == "Petrograd"


# ---------------------------------------------------------------------------------------
# 8.92 searches, blockades and their lifting refused: the exact path and message


def naval_problems(state: dict[str, Any], *items: dict[str, Any]) -> list[tuple[tuple[Any, ...], str]]:
    return attack_problems(state, list(items))


SEA = {"red-fleet-01": "Baltic Sea", "allied-fleet-03": "Baltic Sea"}


def test_8_92_a_search_is_of_a_sea_once_a_phase_by_ones_own_fleets_there_for_an_enemy_fleet() -> None:
    at = ("orders", 0, "search")
    assert naval_problems(position(SEA), {"search": {"zone": "Baltic Sea", "flets": []}}) == [
        ((*at, "flets"), "unknown key 'flets'; did you mean 'fleets'? (expected: zone, fleets)")]
    assert naval_problems(position(SEA), {"search": {"zone": "Nowhere"}}) == [((*at, "zone"), "unknown zone 'Nowhere'")]
    assert naval_problems(position(SEA), {"search": {"zone": "Tver"}}) == [
        ((*at, "zone"), "Tver is not a sea zone: fleets search at sea (Black Sea, Baltic Sea, White Sea, Sea of "
                        "Japan) (8.92)")]
    assert naval_problems(position(SEA), {"search": {"zone": "Baltic Sea"}}, {"search": {"zone": "Baltic Sea"}}) == [
        (("orders", 1, "search", "zone"), "the Baltic Sea is searched once a phase (8.92)")]
    assert naval_problems(position({"red-fleet-01": "Petrograd", "allied-fleet-03": "Baltic Sea"}),
                          {"search": {"zone": "Baltic Sea"}}) == [
        ((*at, "zone"), "you have no fleet at sea in the Baltic Sea to search with (8.92)")]
    assert naval_problems(position({"red-fleet-01": "Baltic Sea"}), {"search": {"zone": "Baltic Sea"}}) == [
        ((*at, "zone"), "there is no enemy fleet at sea in the Baltic Sea to search for (8.92)")]


def test_8_92_the_fleets_named_are_ones_own_fleets_at_sea_there_each_once() -> None:
    at = ("orders", 0, "search", "fleets")
    state = position({**SEA, "south-fleet-01": "Black Sea", "red-inf-01": "Tver"})
    named = ["red-inf-01", "treasure", "allied-fleet-03", "south-fleet-01", "nobody"]
    assert naval_problems(state, {"search": {"zone": "Baltic Sea", "fleets": named}}) == [
        ((*at, 0), "red-inf-01 is not a fleet (8.92)"), ((*at, 1), "treasure is not a fleet (8.92)"),
        ((*at, 2), "allied-fleet-03 belongs to allies, not red"), ((*at, 3), "south-fleet-01 belongs to south, not red"),
        ((*at, 4), "unknown unit or leader 'nobody'")]
    in_port = position({"red-fleet-01": "Petrograd", "allied-fleet-03": "Baltic Sea"})
    assert naval_problems(in_port, {"search": {"zone": "Baltic Sea", "fleets": ["red-fleet-01"]}}) == [
        ((*at, 0), "red-fleet-01 is not at sea in the Baltic Sea: it is in Petrograd (8.92)")]
    elsewhere = position({"red-fleet-01": "Black Sea", "allied-fleet-03": "Baltic Sea"})
    assert naval_problems(elsewhere, {"search": {"zone": "Baltic Sea", "fleets": ["red-fleet-01"]}}) == [
        ((*at, 0), "red-fleet-01 is not at sea in the Baltic Sea: it is in the Black Sea (8.92)")]
    gone = position(SEA)
    gone["units"]["red-fleet-01"]["status"] = "pool"
    assert naval_problems(gone, {"search": {"zone": "Baltic Sea", "fleets": ["red-fleet-01"]}}) == [
        ((*at, 0), "red-fleet-01 is not at sea in the Baltic Sea: it is off the map (8.92)")]
    assert naval_problems(position(SEA), {"search": {"zone": "Baltic Sea", "fleets": ["red-fleet-01", "red-fleet-01"]}}) == [
        ((*at, 1), "red-fleet-01 is named twice")]
    assert naval_problems(position(SEA), {"search": {"zone": "Baltic Sea", "fleets": ["red-fleet-01"]}}) == []


def test_8_92_a_blockade_closes_an_enemy_port_from_the_sea_next_to_it_once() -> None:
    at = ("orders", 0, "blockade")
    state = position({"red-fleet-01": "Baltic Sea"}, control={"Reval": "north"})
    assert naval_problems(state, {"blockade": {"port": "Reval", "fleetz": []}}) == [
        ((*at, "fleetz"), "unknown key 'fleetz'; did you mean 'fleets'? (expected: port, fleets)")]
    assert naval_problems(state, {"blockade": {"port": "Nowhere"}}) == [((*at, "port"), "unknown zone 'Nowhere'")]
    assert naval_problems(state, {"blockade": {"port": "Tver"}}) == [
        ((*at, "port"), "Tver is not a port: a blockade closes a port (8.92)")]
    assert naval_problems(state, {"blockade": {"port": "Petrograd"}}) == [
        ((*at, "port"), "Petrograd is friendly to red: a blockade closes an enemy or neutral port (8.92)")]
    assert naval_problems(position({"red-fleet-01": "Petrograd"}, control={"Reval": "north"}),
                          {"blockade": {"port": "Reval"}}) == [
        ((*at, "port"), "you have no fleet at sea in the Baltic Sea, adjacent to Reval, to blockade it (8.92)")]
    assert naval_problems(state, {"blockade": {"port": "Reval", "fleets": ["allied-fleet-03"]}}) == [
        ((*at, "fleets", 0), "allied-fleet-03 belongs to allies, not red")]
    state["standing"] = standing_()
    events, after, _ = run(state, orders({"blockade": {"port": "Reval"}}), [])
    assert events == [{"type": "blockade", "faction": "red", "port": "Reval", "sea": "Baltic Sea",
                       "fleets": ["red-fleet-01"]}]
    assert after["blockade"] == {"red-fleet-01": "Reval"}
    state["blockade"] = {"red-fleet-01": "Reval"}
    assert naval_problems(state, {"blockade": {"port": "Reval"}}) == [
        ((*at, "port"), "red-fleet-01 already blockade(s) Reval")]


def test_8_92_the_owner_lifts_his_own_blockade_only() -> None:
    at = ("orders", 0, "lift_blockade")
    state = position({"red-fleet-01": "Baltic Sea", "allied-fleet-03": "Baltic Sea"}, control={"Reval": "north"})
    state["standing"] = standing_()
    state["blockade"] = {"red-fleet-01": "Reval", "allied-fleet-03": "Petrograd"}
    assert naval_problems(state, {"lift_blockade": {"port": "Reval", "fleetz": []}}) == [
        ((*at, "fleetz"), "unknown key 'fleetz'; did you mean 'fleets'? (expected: port, fleets)")]
    assert naval_problems(state, {"lift_blockade": {"port": "Nowhere"}}) == [
        ((*at, "port"), "unknown zone 'Nowhere'")]
    assert naval_problems(state, {"lift_blockade": {"port": "Petrograd"}}) == [
        ((*at, "port"), "you have no blockade of Petrograd to lift")]
    assert naval_problems(state, {"lift_blockade": {"port": "Reval", "fleets": ["allied-fleet-03", "nobody"]}}) == [
        ((*at, "fleets", 1), "unknown unit or leader 'nobody'"),
        ((*at, "fleets", 0), "allied-fleet-03 does not blockade Reval"),
        ((*at, "port"), "you have no blockade of Reval to lift")]
    assert naval_problems(state, {"lift_blockade": {"port": "Reval", "fleets": []}}) == [
        ((*at, "port"), "you have no blockade of Reval to lift")]
    for body in ({"port": "Reval"}, {"port": "Reval", "fleets": ["red-fleet-01"]}):
        events, after, _ = run(state, orders({"lift_blockade": body}), [])
        assert events == [{"type": "blockade_lifted", "port": "Reval", "fleets": ["red-fleet-01"],
                           "why": "red lifts it"}]
        assert after["blockade"] == {"allied-fleet-03": "Petrograd"}


def test_15_2_a_partisan_hunt_stops_after_twenty_rounds_and_retreats_by_preference() -> None:
    # nobody hits for twenty rounds (the bound on "an unlimited number of rounds")
    events, after, rng, _ = hunt([1] * 7 * 20)
    assert [e["round"] for e in events if e["type"] == "combat_round"] == list(range(1, 21))
    assert events[-1] == {"type": "battle_over", "zone": "Tver", "attacker": "red", "attacker_left": True,
                          "defender_left": False}
    assert after["partisans"] == {"Tver": "south"}
    # 8.7 the attacker's reduced unit retreats where its standing prefers (not Moscow, the
    # first by name)
    state = position({"red-inf-01": "Tver"})
    state["standing"] = standing_({"red": {"retreat_to": ["Novgorod"]}})
    state["partisans"] = {"Tver": "south"}
    body = orders({"attack": {"zone": "Tver"}})
    body["secret"] = {"spend": {"Tver": 1}}
    events, after, _ = run(state, body, [5] * 5 + [6, 6])
    assert [e for e in events if e["type"] == "retreat"] == [
        {"type": "retreat", "zone": "Tver", "faction": "red", "units": ["red-inf-01"], "to": "Novgorod",
         "when": "after a round"}]


def test_10_82_stalins_commissars_in_a_siege_cost_their_step_without_retreating() -> None:
    # the commissar unit rolls double (5 dice) in the first round and loses a step for it
    state = position({"red-inf-01": "Ufa", "red-inf-02": "Ufa", "stalin": "Ufa"})
    state["standing"] = standing_({"red": {"stalin_commissars": 1}})
    events, after, _ = run(state, orders({"siege": {"zone": "Ufa", "rounds": 1}}), [1] * 17 + [1] + [1, 1])
    (rnd,) = [e for e in events if e["type"] == "combat_round"]
    assert rnd["dice"]["atk"] == [
        {"what": "Stalin's commissars", "count": 5, "hit": 6, "values": [1] * 5, "hits": 0},
        {"what": "units", "count": 12, "hit": 6, "values": [1] * 12, "hits": 0}]
    assert events[2:] == [
        {"type": "siege_hits", "zone": "Ufa", "faction": "red", "hits": 0},
        {"type": "reduced", "unit": "red-inf-01", "by": "Stalin's commissars (10.82)"},
        {"type": "leader_loss", "leader": "stalin", "zone": "Ufa", "dice": [1, 1], "steps": 1, "fate": None,
         "result": "safe"},
    ]
    assert after["units"]["red-inf-01"]["zone"] == "Ufa" and after["units"]["red-inf-01"]["reduced"]


def test_9_5_a_siege_whose_besiegers_are_all_gone_is_lifted() -> None:
    events, after, _ = besiege_exact({"siberian-inf-01": "Kazan"}, "Kazan", 2, [1, 1, 1] + [6, 1], actor="siberian",
                                     reduced=("siberian-inf-01",))
    assert events == [
        {"type": "siege", "zone": "Kazan", "faction": "siberian", "rounds": 2, "cost": 2, "fort": 2},
        siege_round("Kazan", "siberian", 1, [1, 1, 1], [6, 1]),
        {"type": "siege_hits", "zone": "Kazan", "faction": "siberian", "hits": 0},
        {"type": "reduced", "unit": "siberian-inf-01", "by": "combat", "eliminated": True},
        {"type": "siege_lifted", "zone": "Kazan", "why": "no besieger left (9.5)"},
    ]
    assert "Kazan" not in after.get("siege", {})


def test_12_41_a_siege_by_minor_units_alone_costs_nothing() -> None:
    state = position({"finland-inf-02": "Petrograd"}, actor="south", turn=5)
    state.setdefault("minors", {})["finland"] = {"controller": "south", "until": None, "status": "active"}
    state["standing"] = standing_()
    events, after, _ = run(state, orders({"siege": {"zone": "Petrograd", "rounds": 1}}), [1] * 8)
    assert events[0] == {"type": "siege", "zone": "Petrograd", "faction": "south", "rounds": 1, "cost": 0, "fort": 4}
    assert after["money"]["south"] == state["money"]["south"]


def test_12_3_a_liberating_siege_gives_the_zone_back_to_its_minor() -> None:
    control = {z: "north" for z in ("Kiev", "Zhitomir", "Vinnitsa", "Poltava")}
    state = minor_state({"red-inf-01": "Kiev", "red-inf-02": "Kiev", "red-inf-03": "Kiev"}, "red",
                        minor={"ukraine": {"status": "neutral", "conquered": True}})
    state["control"].update(control)
    state["siege"] = {"Kiev": {"faction": "red", "hits": 1}}
    events, after, _ = run(state, orders({"siege": {"zone": "Kiev", "rounds": 2, "liberate": True}}),
                           [6] * 15 + [1])
    assert [e for e in events if e["type"] == "control"] == [
        {"type": "control", "zone": "Kiev", "faction": "ukraine", "from": "north",
         "why": "siege (9.2): red gives it back to ukraine (12.3)"}]
    assert after["control"]["Kiev"] == "ukraine"


def test_8_92_an_opponent_searches_a_passing_fleet_only_when_his_standing_says_always() -> None:
    b = board_rules.board(data())
    state = position({"red-fleet-01": "Baltic Sea", "allied-fleet-03": "Baltic Sea", "red-inf-01": "Baltic Sea"})
    state["standing"] = standing_()
    rng = SixSided()
    assert naval.opponent_searches(b, data(), state, "red", "Baltic Sea", "o5", rng, {}) == ([], state, False)
    assert rng.labels == []
    state["standing"] = standing_({"allies": {"naval_search": "always"}})
    # contact; two British hits reduce the Red fleet and, 8.92, the unit it carries
    rng = SixSided(*[3, 4] + [6, 6, 1] + [1, 1, 1])
    events, after, contact = naval.opponent_searches(b, data(), state, "red", "Baltic Sea", "o5", rng,
                                                      {"red-fleet-01": ["red-inf-01"]})
    assert contact is True
    assert events[:4] == [
        {"type": "naval_search", "zone": "Baltic Sea", "faction": "allies", "phasing": False,
         "fleets": ["allied-fleet-03"], "targets": ["red-fleet-01"], "dice": [3, 4], "contact": True},
        naval_round("allies", 1, [6, 6, 1], [1, 1, 1]),
        {"type": "reduced", "unit": "red-fleet-01", "by": "combat"},
        {"type": "reduced", "unit": "red-inf-01", "by": "a step lost by its carrier red-fleet-01 (8.92)"},
    ]
    assert rng.labels[:2] == ["naval:baltic-sea:t3:allies:on-red:o5:search:d1",
                              "naval:baltic-sea:t3:allies:on-red:o5:search:d2"]
    assert after["units"]["red-inf-01"]["reduced"]
    # no contact (3+3): nothing else happens
    events, _, contact = naval.opponent_searches(b, data(), state, "red", "Baltic Sea", "o5", SixSided(3, 3), {})
    assert contact is False and [e["type"] for e in events] == ["naval_search"]


# ---------------------------------------------------------------------------------------
# 8.1, 13.61, 15.2, 18.1 declared attacks refused


def test_8_1_allied_units_fight_only_when_named_in_units() -> None:
    # 13.61 North may take allied-inf-01 in hand, but only by naming it: without `units` it
    # has no land units of its own in Vologda
    state = minor_state({"allied-inf-01": "Vologda", "red-inf-01": "Vologda"}, "north", allied_control={"north": 1})
    assert attack_problems(state, [{"attack": {"zone": "Vologda"}}]) == [
        ((*AT, "zone"), "you have no land units in Vologda to attack with (8.1: only units in the zone fight)")]
    assert attack_problems(state, [{"attack": {"zone": "Vologda", "units": ["allied-inf-01"]}}]) == []


def test_13_61_allied_units_taken_count_within_one_attack_and_across_three() -> None:
    no_more = ("is an allied unit: north may use 2 allied unit(s) this turn, from the foreign "
               "intervention table, and has no more to take (13.61)")
    state = minor_state({"allied-inf-01": "Vologda", "allied-inf-02": "Vologda", "allied-inf-03": "Vologda",
                         "red-inf-01": "Vologda"}, "north", allied_control={"north": 2})
    three = ["allied-inf-01", "allied-inf-02", "allied-inf-03"]
    assert attack_problems(state, [{"attack": {"zone": "Vologda", "units": three}}]) == [
        ((*AT, "units", 2), f"allied-inf-03 {no_more}")]
    assert attack_problems(state, [{"attack": {"zone": "Vologda", "units": three[:2]}}]) == []
    pieces = {"allied-inf-01": "Vologda", "allied-inf-02": "Kotlas", "allied-inf-03": "Onega",
              "red-inf-01": "Vologda", "red-inf-02": "Kotlas", "red-inf-03": "Onega"}
    state = minor_state(pieces, "north", allied_control={"north": 2})
    attacks = [{"attack": {"zone": z, "units": [u]}} for z, u in
               (("Vologda", "allied-inf-01"), ("Kotlas", "allied-inf-02"), ("Onega", "allied-inf-03"))]
    assert attack_problems(state, attacks) == [
        (("orders", 2, "attack", "units", 0), f"allied-inf-03 {no_more}"),
        (("secret", "spend"), "give the money spent on Onega under secret: spend: (1 probe, 3 assault, "
                              "5 invasion; 8.3)")]
    # the two taken in one attack are both in its battle (13.61 allies_taken)
    state = minor_state({"allied-inf-01": "Vologda", "allied-inf-02": "Vologda", "red-inf-01": "Vologda"},
                        "north", allied_control={"north": 2})
    events, _, _ = run(state, orders({"attack": {"zone": "Vologda", "units": three[:2]}}), [1] * 24)
    assert events[0] == {"type": "allies_taken", "faction": "north", "units": ["allied-inf-01", "allied-inf-02"]}


def test_15_2_18_1_partisans_of_a_white_faction_are_no_enemy_of_another() -> None:
    # 15.2 "an enemy unit attacks it"; 18.1 White factions never attack each other
    state = position({"south-inf-01": "Tver"}, actor="south")
    state["partisans"] = {"Tver": "siberian"}
    assert attack_problems(state, [{"attack": {"zone": "Tver"}}], {"spend": {"Tver": 1}}) == [
        ((*AT, "zone"), "there are no enemy units in Tver (White factions never attack each other, 18.1)")]
    state["partisans"] = {"Tver": "red"}
    assert attack_problems(state, [{"attack": {"zone": "Tver"}}], {"spend": {"Tver": 1}}) == []


def test_8_1_every_unknown_unit_named_is_refused() -> None:
    # 8.1 only units in the zone fight: each name in `units` is checked, all problems told
    state = position(TVER)
    assert attack_problems(state, [{"attack": {"zone": "Tver", "units": ["nobody", "red-inf-01", "nobodyelse"]}}],
                           {"spend": {"Tver": 1}}) == [
        ((*AT, "units", 0), "unknown unit or leader 'nobody'"),
        ((*AT, "units", 2), "unknown unit or leader 'nobodyelse'")]


# ---------------------------------------------------------------------------------------
# 8.2-8.4, 12.1, 12.41, 15.2 the battles in order


def test_12_1_a_battle_in_a_neutral_minors_zone_does_not_bring_the_owner_in() -> None:
    # unlike a siege (12.1 "besieged"), a battle against the South in Gulai Polye leaves the
    # anarchists, who have no unit there, neutral
    events, after, _ = fight_exact({"red-inf-01": "Gulai Polye", "south-inf-01": "Gulai Polye"}, "Gulai Polye", 1,
                                   [1] * 10)
    assert kinds(events) == ["attack", "combat_round", "battle_over"]
    assert events[0] == probe("Gulai Polye", "red", ["south"])
    assert after["minors"]["anarchists"]["status"] == "neutral"


def test_12_41_a_minors_battle_whose_defender_retreats_before_combat() -> None:
    state = minor_state({"finland-inf-02": "Petrograd", "red-inf-01": "Petrograd"}, "south",
                        minor={"finland": {"status": "active", "controller": "south"}})
    state["standing"] = standing_({"red": {"retreat_before_combat": "always"}})
    events, _, _ = run(state, orders({"attack": {"zone": "Petrograd"}}), [])
    assert events == [
        {"type": "retreat", "zone": "Petrograd", "faction": "red", "units": ["red-inf-01"], "to": "Novgorod",
         "when": "before combat"},
        probe("Petrograd", "south", [], spend=0, level="minors' battle", rounds=0),
    ]


def test_8_4_an_answer_by_mail_keeps_the_rest_of_the_standing_instructions() -> None:
    # the South answers "always" by mail; its standing retreat_to (Petrograd, not Moscow
    # first by name) still says where
    state = position(TVER, control={"Moscow": "south", "Petrograd": "south"})
    state["standing"] = standing_({"south": {"retreat_to": ["Petrograd"]}})
    b = board_rules.board(data())
    events, _ = combat.resolve_attacks(b, data(), state, "red", [spec("Tver", ["red-inf-01"])], {"spend": {"Tver": 1}},
                                       SixSided(), OpenSecrets(), {"Tver": {"south": {"retreat_before_combat": "always"}}})
    assert events == [
        {"type": "retreat", "zone": "Tver", "faction": "south", "units": ["south-inf-01"], "to": "Petrograd",
         "when": "before combat"},
        probe("Tver", "red", [], rounds=0),
    ]


def test_8_3_a_sealed_spending_is_opened_for_the_battles() -> None:
    # 8.3, 8.4 the spending, sealed to the referee, is opened after the retreats before combat
    state = position(TVER)
    state["standing"] = standing_()
    secrets = OpenSecrets()
    sealed_spend = secrets.seal("spend", "o1", "red", 3, {"spend": {"Tver": 3}})
    events = resolve_attacks(state, [spec("Tver", ["red-inf-01"])], sealed_spend, [1] * 20, secrets)
    assert events[0] == probe("Tver", "red", ["south"], spend=3, level="assault", rounds=2)


def test_8_4_a_unit_retreating_from_the_last_battle_may_stop_where_a_battle_was_fought() -> None:
    # Novgorod first, then Tver: south-inf-01, reduced in Tver, retreats to Novgorod (its
    # retreat_to), whose battle is over; no battle is still to come
    state = position({"red-inf-01": "Tver", "south-inf-01": "Tver", "red-inf-02": "Novgorod",
                      "south-inf-02": "Novgorod"}, control={"Novgorod": "south", "Moscow": "south"})
    state["standing"] = standing_({"south": {"retreat_to": ["Novgorod"]}})
    body = orders({"attack": {"zone": "Novgorod"}}, {"attack": {"zone": "Tver"}})
    body["secret"] = {"spend": {"Novgorod": 1, "Tver": 1}}
    events, after, _ = run(state, body, [1] * 11 + [6, 6, 1, 1, 1] + [1] * 5)
    assert [e for e in events if e["type"] == "retreat"] == [
        {"type": "retreat", "zone": "Tver", "faction": "south", "units": ["south-inf-01"], "to": "Novgorod",
         "when": "after a round"}]
    assert after["units"]["south-inf-01"]["zone"] == "Novgorod"


def test_15_2_a_partisan_hunt_between_two_battles_and_partisans_with_a_defender() -> None:
    # the battles before and after a hunt are fought and told
    state = position({"red-inf-01": "Tver", "red-inf-02": "Novgorod", "south-inf-02": "Novgorod",
                      "red-inf-03": "Pskov", "north-inf-01": "Pskov"})
    state["standing"] = standing_()
    state["partisans"] = {"Tver": "south"}
    body = orders({"attack": {"zone": "Novgorod"}}, {"attack": {"zone": "Tver"}}, {"attack": {"zone": "Pskov"}})
    body["secret"] = {"spend": {"Novgorod": 1, "Tver": 1, "Pskov": 1}}
    events, after, _ = run(state, body, [1] * 10 + [6, 1, 1, 1, 1] + [1, 1] + [1] * 9)
    assert [(e["type"], e["zone"]) for e in events if e["type"] in ("attack", "battle_over")] == [
        ("attack", "Novgorod"), ("battle_over", "Novgorod"), ("attack", "Tver"), ("battle_over", "Tver"),
        ("attack", "Pskov"), ("battle_over", "Pskov")]
    assert events[3] == HUNT and after["partisans"] == {}
    # partisans in a zone with an enemy unit: a battle against the unit, not a hunt
    state = position(TVER)
    state["standing"] = standing_()
    state["partisans"] = {"Tver": "south"}
    body = orders({"attack": {"zone": "Tver"}})
    body["secret"] = {"spend": {"Tver": 1}}
    events, after, _ = run(state, body, [1] * 10)
    assert events[0] == probe("Tver", "red", ["south"])
    assert kinds(events) == ["attack", "combat_round", "battle_over"] and after["partisans"] == {"Tver": "south"}


def test_14_2_a_defender_plays_a_battle_card_when_attacked_by_the_faction_its_standing_names() -> None:
    # the South's play_when: Stubborn Defence when defending against the Reds; the Reds hit
    # twice, south-inf-01 is reduced and the card keeps it in Tver
    state = position({"red-inf-01": "Tver", "red-inf-02": "Tver", "south-inf-01": "Tver"},
                     control={"Tver": "south", "Moscow": "south"})
    state["standing"] = standing_({"south": {"play_when": [
        {"card": "stubborn-defence", "when": "defending", "of": "red"}]}})
    state["cards"]["hands"]["south"] = [OpenSecrets().seal("card", "c1", "south", 1, "stubborn-defence")]
    body = orders({"attack": {"zone": "Tver"}})
    body["secret"] = {"spend": {"Tver": 1}}
    events, after, _ = run(state, body, [6, 6] + [1] * 14)
    assert kinds(events) == ["card_played", "battle_card", "attack", "combat_round", "reduced",
                             "battle_card_used", "battle_over"]
    assert events[1] == {"type": "battle_card", "zone": "Tver", "faction": "south", "card": "stubborn-defence",
                         "modifier": {"cancel_retreat": True}}
    assert after["units"]["south-inf-01"]["zone"] == "Tver" and after["units"]["south-inf-01"]["reduced"]
    # against another attacker's battles it is kept: the unit retreats
    state["standing"]["south"]["play_when"][0]["of"] = "siberian"
    events, after, _ = run(state, body, [6, 6] + [1] * 14)
    assert "card_played" not in kinds(events)
    assert after["units"]["south-inf-01"]["zone"] == "Moscow"
