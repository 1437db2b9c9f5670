"""Red Russia sieges (siege.py: 9.x with the leaders and minors in them, and the partisan
hunts of 15.2) as rule tables: a position, the siege, exactly the dice it asks for, and the
exact outcome - every event, every die asked by its label, the path and message of a
refusal. Each test's name starts with the rule it checks (rulebook:
../shared/rules/red-russia-rules.txt).
"""

from __future__ import annotations

import importlib
from typing import Any

from position import GAME, FixedRng, board_rules, data, orders, position, problems
from position import standing as standing_
from test_rr_combat import besiege_exact, run, siege_round

siege_rules = importlib.import_module("pbem_game_red_russia.siege")

Events = list[dict[str, Any]]
SIEGE = ("orders", 0, "siege")
NEXT = (("orders", 1, "siege", "zone"), "Baltic Sea is not a land zone (9.1)")


def siege_problems(state: dict[str, Any], *args: dict[str, Any]) -> list[tuple[tuple[Any, ...], str]]:
    body = orders(*({"siege": a} for a in args))
    return [(p.path, p.message) for p in problems(state, state["actor"], body)]


def finland(state: dict[str, Any], controller: str) -> dict[str, Any]:
    state.setdefault("minors", {})["finland"] = {"controller": controller, "until": None, "status": "active"}
    return state


def siege_of(pieces: dict[str, str], arg: dict[str, Any], dice: list[int], *, actor: str = "red",
             given: dict[str, dict[str, Any]] | None = None,
             control: dict[str, Any] | None = None) -> tuple[Events, dict[str, Any], FixedRng]:
    state = position(pieces, actor=actor, control=control)
    state["standing"] = standing_(given)
    return run(state, orders({"siege": arg}), dice)


# ---------------------------------------------------------------------------------------
# 9.0, 9.1, 11.0, 12.3, 12.12, 12.41 a refused siege order: the next one is still checked


def test_9_1_every_refused_siege_order_leaves_the_next_one_checked() -> None:
    # each refusal, then a second siege of a sea: its problem is reported too
    red_ufa = position({"red-inf-01": "Ufa"})
    cases: list[tuple[dict[str, Any], dict[str, Any], tuple[tuple[Any, ...], str]]] = [
        (red_ufa, {"zone": "Ufa", "rounds": 1, "leaderz": []},
         ((*SIEGE, "leaderz"), "unknown key 'leaderz'; did you mean 'leaders'? (expected: zone, rounds, "
                               "leaders, liberate)")),
        (red_ufa, {"zone": "Nowhere", "rounds": 1}, ((*SIEGE, "zone"), "unknown zone 'Nowhere'")),
        (red_ufa, {"zone": "Baltic Sea", "rounds": 1}, ((*SIEGE, "zone"), "Baltic Sea is not a land zone (9.1)")),
        (red_ufa, {"zone": "Ufa", "rounds": 0}, ((*SIEGE, "rounds"), "rounds is a number from 1 to 20")),
        (position({"red-inf-01": "Kazan"}), {"zone": "Kazan", "rounds": 1},
         ((*SIEGE, "zone"), "Kazan is yours already (9.0)")),
        (position({"south-inf-01": "Ufa"}, actor="south"), {"zone": "Ufa", "rounds": 1},
         ((*SIEGE, "zone"), "Ufa belongs to siberian: White factions never besiege each other (9.0, 18.1)")),
        # 18.1 a minor commanded by a White faction is a White faction's zone for the others
        (finland(position({"south-inf-01": "Helsinki"}, actor="south", turn=5), "siberian"),
         {"zone": "Helsinki", "rounds": 1},
         ((*SIEGE, "zone"), "Helsinki belongs to finland: White factions never besiege each other (9.0, 18.1)")),
        (finland(position({"red-inf-01": "Helsinki"}, turn=5), "red"), {"zone": "Helsinki", "rounds": 1},
         ((*SIEGE, "zone"), "Helsinki belongs to finland, which you command (12.12)")),
        (red_ufa, {"zone": "Ufa", "rounds": 1, "liberate": "yes"},
         ((*SIEGE, "liberate"), "liberate is true or false (12.3)")),
        (red_ufa, {"zone": "Ufa", "rounds": 1, "liberate": True},
         ((*SIEGE, "liberate"), "only a minor faction's home zone held by a major faction is given back "
                                "(12.3); Ufa is not")),
        (red_ufa, {"zone": "Samara", "rounds": 1}, ((*SIEGE, "zone"), "you have no land units in Samara (9.1)")),
        (position({"red-inf-01": "Ufa", "siberian-inf-01": "Ufa"}), {"zone": "Ufa", "rounds": 1},
         ((*SIEGE, "zone"), "there are enemy or neutral units in Ufa; a siege needs them gone first (9.1)")),
        (position({"red-inf-01": "Riga"}, turn=2, control={"Riga": "north"}), {"zone": "Riga", "rounds": 1},
         ((*SIEGE, "zone"), "Riga is out of play on turns 1-2 (11.0)")),
        (finland(position({"finland-inf-02": "Petrograd"}, actor="south", turn=5), "south"),
         {"zone": "Petrograd", "rounds": 3},
         ((*SIEGE, "rounds"), "minor or allied units alone besiege for 2 rounds, presumed paid (12.41)")),
    ]
    for state, arg, refused in cases:
        assert siege_problems(state, arg, {"zone": "Baltic Sea", "rounds": 1}) == [refused, NEXT], arg


def test_9_1_an_enemy_fleet_in_the_port_does_not_stop_a_siege() -> None:
    # 9.1 "no enemy or neutral land units": a fleet in the port is no land unit
    state = position({"red-inf-01": "Sevastopol", "south-fleet-01": "Sevastopol"},
                     control={"Sevastopol": "south"})
    assert siege_problems(state, {"zone": "Sevastopol", "rounds": 1}) == []
    with_army = position({"red-inf-01": "Sevastopol", "south-fleet-01": "Sevastopol",
                          "south-inf-01": "Sevastopol"}, control={"Sevastopol": "south"})
    assert siege_problems(with_army, {"zone": "Sevastopol", "rounds": 1}) == [
        ((*SIEGE, "zone"), "there are enemy or neutral units in Sevastopol; a siege needs them "
                           "gone first (9.1)")]


def test_9_1_a_siege_lasts_up_to_twenty_rounds() -> None:
    # 9.2 "pays for the number of siege turns desired": 1 to 20 (pbem's bound, battle.MAX_ROUNDS)
    state = position({"red-inf-01": "Ufa"})
    state["money"]["red"] = 20
    assert siege_problems(state, {"zone": "Ufa", "rounds": 20}) == []
    assert siege_problems(state, {"zone": "Ufa", "rounds": 21}) == [
        ((*SIEGE, "rounds"), "rounds is a number from 1 to 20")]


def test_9_1_a_zone_attacked_this_phase_is_besieged_only_if_the_battle_clears_it() -> None:
    # the siege order is checked as if the battle before it cleared the zone; after a
    # battle that left the Siberian unit there, the siege does not happen
    state = position({"red-inf-01": "Ufa", "siberian-inf-01": "Ufa"})
    state["standing"] = standing_()
    body = orders({"attack": {"zone": "Ufa"}}, {"siege": {"zone": "Ufa", "rounds": 1}})
    body["secret"] = {"spend": {"Ufa": 1}}
    assert problems(state, "red", body) == []
    events, after, _ = run(state, body, [1] * 5 + [1] * 6)
    assert [e["type"] for e in events] == ["attack", "combat_round", "battle_over", "note"]
    assert events[-1] == {"type": "note", "zone": "", "text": "sieges not possible after the battles: there "
                          "are enemy or neutral units in Ufa; a siege needs them gone first (9.1)"}
    assert "Ufa" not in after.get("siege", {})
    # with no attack declared the same siege is refused at once
    alone = orders({"siege": {"zone": "Ufa", "rounds": 1}})
    assert [p.message for p in problems(state, "red", alone)] == [
        "there are enemy or neutral units in Ufa; a siege needs them gone first (9.1)"]


# ---------------------------------------------------------------------------------------
# 10.2, 10.4 the leaders named take part in the siege, and only they take the loss test


def test_10_2_the_leaders_named_for_a_siege_are_checked_by_name() -> None:
    # 10.2 "a player may wish for one of his leaders not to take part": `leaders` names those who do
    state = position({"red-inf-01": "Ufa", "stalin": "Ufa", "trotsky": "Ufa", "lenin": "Moscow"})
    # an unknown name is refused by its place in the list; a leader elsewhere (Lenin) is
    # refused as in an attack (it was dropped without a word)
    assert siege_problems(state, {"zone": "Ufa", "rounds": 1, "leaders": ["stalin", "nobody", "lenin"]}) == [
        ((*SIEGE, "leaders", 1), "unknown unit or leader 'nobody'"),
        ((*SIEGE, "leaders"), "lenin is not your leader in Ufa")]
    assert siege_problems(state, {"zone": "Ufa", "rounds": 1, "leaders": ["kolchak"]}) == [
        ((*SIEGE, "leaders"), "kolchak is not your leader in Ufa")]
    assert siege_problems(state, {"zone": "Ufa", "rounds": 1, "leaders": "stalinn"}) == [
        ((*SIEGE, "leaders", 0), "unknown unit or leader 'stalinn'; did you mean 'stalin'?")]
    assert siege_problems(state, {"zone": "Ufa", "rounds": 1, "leaders": ["stalin"]}) == []


def test_10_4_only_the_leaders_named_take_the_loss_test_after_a_siege() -> None:
    # Stalin (2) joins red-inf-01 (5): 7 dice; Trotsky stays out and rolls no loss dice
    pieces = {"red-inf-01": "Ufa", "stalin": "Ufa", "trotsky": "Ufa"}
    events, _, rng = siege_of(pieces, {"zone": "Ufa", "rounds": 1, "leaders": ["stalin"]},
                              [1] * 7 + [1] + [1, 1])
    assert events == [
        {"type": "trotsky_distracted", "with": "stalin", "zone": "Ufa"},  # 10.83
        {"type": "siege", "zone": "Ufa", "faction": "red", "rounds": 1, "cost": 1, "fort": 1},
        siege_round("Ufa", "red", 1, [1] * 7, [1]),
        {"type": "siege_hits", "zone": "Ufa", "faction": "red", "hits": 0},
        {"type": "leader_loss", "leader": "stalin", "zone": "Ufa", "dice": [1, 1], "steps": 0, "fate": None,
         "result": "safe"},
    ]
    assert rng.labels[-2:] == ["siege:ufa:t3:red:leader:stalin:d1", "siege:ufa:t3:red:leader:stalin:d2"]
    # no leaders named: none joins (5 dice) and none is tested
    events, _, _ = siege_of(pieces, {"zone": "Ufa", "rounds": 1, "leaders": []}, [1] * 5 + [1])
    assert [e["type"] for e in events] == ["trotsky_distracted", "siege", "combat_round", "siege_hits"]
    assert events[2] == siege_round("Ufa", "red", 1, [1] * 5, [1])


def test_10_8_1_lenin_killed_in_a_siege_costs_two_dice_wounded_costs_nothing() -> None:
    # 10.4 6+6: hit; the fate die 4 kills him (10.8.1 two dice of manpower and money), 3 wounds him
    pieces = {"red-inf-01": "Ufa", "lenin": "Ufa"}
    events, after, rng = siege_of(pieces, {"zone": "Ufa", "rounds": 1}, [1] * 5 + [1] + [6, 6, 4] + [3, 2])
    assert events[3:] == [
        {"type": "leader_loss", "leader": "lenin", "zone": "Ufa", "dice": [6, 6], "steps": 0, "fate": 4,
         "result": "killed"},
        {"type": "lenin_killed", "manpower": 3, "money": 2, "by": ["siberian"]},
    ]
    assert rng.labels[-2:] == ["siege:ufa:t3:red:lenin:manpower", "siege:ufa:t3:red:lenin:money"]
    assert after["money"]["red"] == 30 - 1 - 2 and after["manpower"]["red"] == position({})["manpower"]["red"] - 3
    events, after, _ = siege_of(pieces, {"zone": "Ufa", "rounds": 1}, [1] * 5 + [1] + [6, 6, 3])
    assert events[3:] == [
        {"type": "leader_loss", "leader": "lenin", "zone": "Ufa", "dice": [6, 6], "steps": 0, "fate": 3,
         "result": "wounded"}]
    assert after["money"]["red"] == 30 - 1


def test_10_4_every_step_lost_in_a_siege_counts_for_the_leader_loss_test() -> None:
    # two reduced Siberian units (3 dice each) and Kolchak (1): the fort's two sixes take both
    # steps; Kolchak's 5+5 and 2 steps make 12 (hit, killed on 4); 5+4 and 2 make 11 (safe)
    pieces = {"siberian-inf-01": "Kazan", "siberian-inf-02": "Kazan", "kolchak": "Kazan"}
    reduced = ("siberian-inf-01", "siberian-inf-02")
    head = [
        {"type": "siege", "zone": "Kazan", "faction": "siberian", "rounds": 1, "cost": 1, "fort": 2},
        siege_round("Kazan", "siberian", 1, [1] * 7, [6, 6]),
        {"type": "siege_hits", "zone": "Kazan", "faction": "siberian", "hits": 0},
        {"type": "reduced", "unit": "siberian-inf-01", "by": "combat", "eliminated": True},
        {"type": "reduced", "unit": "siberian-inf-02", "by": "combat", "eliminated": True},
        {"type": "siege_lifted", "zone": "Kazan", "why": "no besieger left (9.5)"},
    ]
    events, _, _ = besiege_exact(pieces, "Kazan", 1, [1] * 7 + [6, 6] + [5, 5, 4], actor="siberian", reduced=reduced)
    assert events == [*head, {"type": "leader_loss", "leader": "kolchak", "zone": "Kazan", "dice": [5, 5],
                              "steps": 2, "fate": 4, "result": "killed"}]
    events, _, _ = besiege_exact(pieces, "Kazan", 1, [1] * 7 + [6, 6] + [5, 4], actor="siberian", reduced=reduced)
    assert events == [*head, {"type": "leader_loss", "leader": "kolchak", "zone": "Kazan", "dice": [5, 4],
                              "steps": 2, "fate": None, "result": "safe"}]


# ---------------------------------------------------------------------------------------
# 9.3, 8.6, 8.7 defensive fire: losses and retreats as for land combat


def test_8_6_a_reduced_besieger_hit_twice_is_eliminated_once() -> None:
    # 9.3 the fort's two sixes on a reduced unit (defence 1): one step, it is gone; the
    # second hit is lost
    events, after, _ = besiege_exact({"siberian-inf-01": "Kazan"}, "Kazan", 1, [1] * 3 + [6, 6], actor="siberian",
                                     reduced=("siberian-inf-01",))
    assert events == [
        {"type": "siege", "zone": "Kazan", "faction": "siberian", "rounds": 1, "cost": 1, "fort": 2},
        siege_round("Kazan", "siberian", 1, [1] * 3, [6, 6]),
        {"type": "siege_hits", "zone": "Kazan", "faction": "siberian", "hits": 0},
        {"type": "reduced", "unit": "siberian-inf-01", "by": "combat", "eliminated": True},
        {"type": "siege_lifted", "zone": "Kazan", "why": "no besieger left (9.5)"},
    ]
    assert after["units"]["siberian-inf-01"]["status"] == "eliminated"


def test_8_6_three_hits_on_one_full_besieger_take_both_its_steps() -> None:
    # Moscow's fortification 3: three sixes on south-inf-01 (defence 2, reduced 1) take its
    # first step with two hits and its second with the third
    events, after, _ = besiege_exact({"south-inf-01": "Moscow"}, "Moscow", 1, [1] * 5 + [6, 6, 6], actor="south")
    assert events == [
        {"type": "siege", "zone": "Moscow", "faction": "south", "rounds": 1, "cost": 1, "fort": 3},
        siege_round("Moscow", "south", 1, [1] * 5, [6, 6, 6]),
        {"type": "siege_hits", "zone": "Moscow", "faction": "south", "hits": 0},
        {"type": "reduced", "unit": "south-inf-01", "by": "combat"},
        {"type": "reduced", "unit": "south-inf-01", "by": "combat", "eliminated": True},
        {"type": "siege_lifted", "zone": "Moscow", "why": "no besieger left (9.5)"},
    ]
    assert after["units"]["south-inf-01"]["status"] == "eliminated"
    # two sixes: one step, and the reduced unit retreats (8.7) to the first zone by name
    events, _, _ = besiege_exact({"south-inf-01": "Moscow"}, "Moscow", 1, [1] * 5 + [6, 6, 1], actor="south",
                                 control={"Tver": "south", "Tula": "south"})
    assert events[3:5] == [
        {"type": "reduced", "unit": "south-inf-01", "by": "combat"},
        {"type": "retreat", "zone": "Moscow", "faction": "south", "units": ["south-inf-01"], "to": "Tula",
         "when": "after a round"},
    ]


def test_8_6_8_7_the_besiegers_standing_says_who_takes_the_loss_and_where_it_retreats() -> None:
    # two full Siberian units (5 and 4 dice), the fort's two sixes take one step: by the standing loss_order
    # siberian-inf-02 (not the first by name), and it retreats to Ufa, its retreat_to (not
    # Simbirsk, the first by name)
    pieces = {"siberian-inf-01": "Kazan", "siberian-inf-02": "Kazan"}
    dice = [1] * 9 + [6, 6]
    given = {"siberian": {"loss_order": ["siberian-inf-02"], "retreat_to": ["Ufa"]}}
    events, _, _ = siege_of(pieces, {"zone": "Kazan", "rounds": 1}, dice, actor="siberian", given=given,
                            control={"Simbirsk": "siberian"})
    assert events[3:] == [
        {"type": "reduced", "unit": "siberian-inf-02", "by": "combat"},
        {"type": "retreat", "zone": "Kazan", "faction": "siberian", "units": ["siberian-inf-02"], "to": "Ufa",
         "when": "after a round"},
    ]
    events, _, _ = siege_of(pieces, {"zone": "Kazan", "rounds": 1}, dice, actor="siberian",
                            control={"Simbirsk": "siberian"})
    assert events[3:] == [
        {"type": "reduced", "unit": "siberian-inf-01", "by": "combat"},
        {"type": "retreat", "zone": "Kazan", "faction": "siberian", "units": ["siberian-inf-01"],
         "to": "Simbirsk", "when": "after a round"},
    ]


def test_12_12_a_minors_unit_reduced_in_a_siege_retreats_by_its_controllers_standing() -> None:
    # finland-inf-02 (4 dice) under the South besieges Petrograd (fort 4): two sixes take a
    # step, and it retreats to Vyborg, the only Finnish zone next to it (12.11)
    state = finland(position({"finland-inf-02": "Petrograd"}, actor="south", turn=5), "south")
    state["standing"] = standing_({"south": {"retreat_to": ["Novgorod", "Vyborg"]}})
    events, after, _ = run(state, orders({"siege": {"zone": "Petrograd", "rounds": 1}}), [1] * 4 + [6, 6, 1, 1])
    assert events[3:] == [
        {"type": "reduced", "unit": "finland-inf-02", "by": "combat"},
        {"type": "retreat", "zone": "Petrograd", "faction": "finland", "units": ["finland-inf-02"],
         "to": "Vyborg", "when": "after a round"},
        {"type": "siege_lifted", "zone": "Petrograd", "why": "no besieger left (9.5)"},
    ]
    assert after["units"]["finland-inf-02"]["zone"] == "Vyborg"


# ---------------------------------------------------------------------------------------
# 9.2, 6.4 sieges in one phase, each paid and told


def test_9_2_two_sieges_in_one_phase_are_each_fought_and_told() -> None:
    state = position({"red-inf-01": "Ufa", "red-inf-02": "Samara"})
    state["standing"] = standing_()
    body = orders({"siege": {"zone": "Ufa", "rounds": 2}}, {"siege": {"zone": "Samara", "rounds": 1}})
    events, after, rng = run(state, body, [6, 1, 1, 1, 1] + [1] + [6, 1, 1, 1, 1] + [1])
    assert events == [
        {"type": "siege", "zone": "Ufa", "faction": "red", "rounds": 2, "cost": 2, "fort": 1},
        siege_round("Ufa", "red", 1, [6, 1, 1, 1, 1], [1]),
        {"type": "siege_hits", "zone": "Ufa", "faction": "red", "hits": 1},
        {"type": "control", "zone": "Ufa", "faction": "red", "from": "siberian", "why": "siege (9.2)"},
        {"type": "siege", "zone": "Samara", "faction": "red", "rounds": 1, "cost": 1, "fort": 1},
        siege_round("Samara", "red", 1, [6, 1, 1, 1, 1], [1]),
        {"type": "siege_hits", "zone": "Samara", "faction": "red", "hits": 1},
        {"type": "control", "zone": "Samara", "faction": "red", "from": "siberian", "why": "siege (9.2)"},
    ]
    assert rng.labels[0] == "siege:ufa:t3:red:r1:d1" and rng.labels[6] == "siege:samara:t3:red:r1:d1"
    assert after["money"]["red"] == 30 - 3
    # the report tells the cost as a whole number of money
    assert GAME.summary(data(), events[0]) == "red besieges Ufa for 2 round(s), 2 money; fortification 1 (9.2)"


def test_12_1_13_4_besieging_a_neutral_minors_zone_brings_it_in() -> None:
    # Gulai Polye (anarchists, fort 0), no White unit on the map: Makhno joins a White faction
    # by lot (13.4; FixedRng takes the first, Siberia); fort 0 falls without a round (9.2)
    state = position({"red-inf-01": "Gulai Polye"})
    state["standing"] = standing_()
    events, after, rng = run(state, orders({"siege": {"zone": "Gulai Polye", "rounds": 1}}), [])
    assert events == [
        {"type": "minor_status", "minor": "anarchists", "faction": "red", "roll": None, "status": "active",
         "controller": "siberian", "why": "red attacked it: it joins siberian (12.1, 13.4)"},
        {"type": "siege", "zone": "Gulai Polye", "faction": "red", "rounds": 1, "cost": 1, "fort": 0},
        {"type": "control", "zone": "Gulai Polye", "faction": "red", "from": "anarchists", "why": "siege (9.2)"},
    ]
    assert rng.labels == []
    assert after["minors"]["anarchists"]["controller"] == "siberian"
    assert after["control"]["Gulai Polye"] == "red"


# ---------------------------------------------------------------------------------------
# 9.5 at the end of a phase


def test_9_5_a_fleet_alone_is_no_besieger_the_siege_is_lifted() -> None:
    # 9.1 "a fleet may take part in a siege as long as a friendly land unit is engaged"
    b = board_rules.board(data())
    state = position({"red-fleet-01": "Reval"}, control={"Reval": "north"})
    state["siege"] = {"Reval": {"faction": "red", "hits": 1}}
    assert siege_rules.lift_sieges(b, state) == [
        {"type": "siege_lifted", "zone": "Reval", "why": "no besieger left (9.5)"}]
    state["units"]["red-inf-01"].update(status="map", zone="Reval")
    assert siege_rules.lift_sieges(b, state) == []


# ---------------------------------------------------------------------------------------
# 15.2, 10.83 partisans hunted: Trotsky's first round


def test_10_83_trotsky_hits_on_five_in_the_first_round_of_a_partisan_hunt() -> None:
    # a partisan hunt is a land combat: Trotsky's 3 dice hit on 5-6 in round 1; his 5 is the
    # hit on the partisans' defence of 1
    state = position({"red-inf-01": "Tver", "trotsky": "Tver"})
    state["standing"] = standing_()
    state["partisans"] = {"Tver": "south"}
    body = orders({"attack": {"zone": "Tver"}})
    body["secret"] = {"spend": {"Tver": 1}}
    events, after, _ = run(state, body, [5, 1, 1] + [1] * 5 + [1, 1] + [1, 1])
    assert events[1] == {
        "type": "combat_round", "zone": "Tver", "round": 1, "attacker": "red",
        "dice": {"atk": [{"what": "Trotsky", "count": 3, "hit": 5, "values": [5, 1, 1], "hits": 1},
                         {"what": "units", "count": 5, "hit": 6, "values": [1] * 5, "hits": 0}],
                 "def": [{"what": "partisans", "count": 2, "hit": 6, "values": [1, 1], "hits": 0}]},
        "hits": {"atk": 1, "def": 0}}
    assert events[2:] == [
        {"type": "partisans_gone", "zone": "Tver", "why": "destroyed in battle"},
        {"type": "leader_loss", "leader": "trotsky", "zone": "Tver", "dice": [1, 1], "steps": 0, "fate": None,
         "result": "safe"},
        {"type": "battle_over", "zone": "Tver", "attacker": "red", "attacker_left": True, "defender_left": False},
    ]
    assert after["partisans"] == {}


def test_10_82_stalins_commissars_cost_their_unit_a_step_in_a_partisan_hunt() -> None:
    # 10.82 "engaged in a battle or siege ... must automatically suffer one step loss": a
    # partisan hunt is a battle (15.2), so the commissars' unit is reduced after round 1 and
    # the step counts in Stalin's loss test (10.4)
    state = position({"red-inf-01": "Tver", "red-inf-02": "Tver", "stalin": "Tver"})
    state["standing"] = standing_({"red": {"stalin_commissars": 1}})
    state["partisans"] = {"Tver": "south"}
    body = orders({"attack": {"zone": "Tver", "leaders": ["stalin"]}})
    body["secret"] = {"spend": {"Tver": 1}}
    events, after, _ = run(state, body, [6] + [1] * 4 + [1] * 12 + [1, 1] + [1, 1])
    assert events[1]["dice"]["atk"][0] == {"what": "Stalin's commissars", "count": 5, "hit": 6,
                                           "values": [6, 1, 1, 1, 1], "hits": 1}
    assert events[2:] == [
        {"type": "reduced", "unit": "red-inf-01", "by": "Stalin's commissars (10.82)"},
        {"type": "partisans_gone", "zone": "Tver", "why": "destroyed in battle"},
        {"type": "leader_loss", "leader": "stalin", "zone": "Tver", "dice": [1, 1], "steps": 1,
         "fate": None, "result": "safe"},
        {"type": "battle_over", "zone": "Tver", "attacker": "red", "attacker_left": True,
         "defender_left": False},
    ]
    assert after["units"]["red-inf-01"]["reduced"] is True
    assert after["units"]["red-inf-02"]["reduced"] is False


# ---------------------------------------------------------------------------------------
# 9.1 "A fleet may take part in a siege as long as a friendly land unit is engaged."
# Reval (North/Asia, fortification 2) is a port of the Baltic Sea: the Red fleet there
# (attack 3) besieges beside red-inf-01 (5; 3 reduced).


def test_9_1_a_fleet_in_the_port_besieges_beside_the_land_units() -> None:
    events, _, _ = siege_of({"red-inf-01": "Reval", "red-fleet-01": "Reval"}, {"zone": "Reval", "rounds": 1},
                            [1] * 8 + [1, 1])
    assert events == [
        {"type": "siege", "zone": "Reval", "faction": "red", "rounds": 1, "cost": 1, "fort": 2},
        siege_round("Reval", "red", 1, [1] * 8, [1, 1]),
        {"type": "siege_hits", "zone": "Reval", "faction": "red", "hits": 0},
    ]
    # a fleet at sea off the port takes no part: red-inf-01's 5 dice
    events, _, _ = siege_of({"red-inf-01": "Reval", "red-fleet-01": "Baltic Sea"}, {"zone": "Reval", "rounds": 1},
                            [1] * 5 + [1, 1])
    assert events[1] == siege_round("Reval", "red", 1, [1] * 5, [1, 1])


def test_9_1_the_fleet_stops_when_no_land_unit_is_left() -> None:
    # the fortification's 6 eliminates the reduced red-inf-01 in round 1: no second round
    # for the fleet alone, and the siege is lifted (9.5)
    state = position({"red-inf-01": "Reval", "red-fleet-01": "Reval"}, reduced=("red-inf-01",))
    state["standing"] = standing_({"red": {"loss_order": ["red-inf-01"]}})
    events, after, _ = run(state, orders({"siege": {"zone": "Reval", "rounds": 2}}), [1] * 6 + [6, 1])
    assert events == [
        {"type": "siege", "zone": "Reval", "faction": "red", "rounds": 2, "cost": 2, "fort": 2},
        siege_round("Reval", "red", 1, [1] * 6, [6, 1]),
        {"type": "siege_hits", "zone": "Reval", "faction": "red", "hits": 0},
        {"type": "reduced", "unit": "red-inf-01", "by": "combat", "eliminated": True},
        {"type": "siege_lifted", "zone": "Reval", "why": "no besieger left (9.5)"},
    ]
    assert after["units"]["red-fleet-01"]["zone"] == "Reval" and after["control"]["Reval"] == "north"


def test_9_4_a_fleet_alone_takes_no_zone() -> None:
    # round 1: red-inf-01 and the fleet roll 6 6 (2 hits: the fortification of 2 is down)
    # and the fortification's 6 eliminates red-inf-01: a Pyrrhic victory, Reval not taken
    state = position({"red-inf-01": "Reval", "red-fleet-01": "Reval"}, reduced=("red-inf-01",))
    state["standing"] = standing_({"red": {"loss_order": ["red-inf-01"]}})
    events, after, _ = run(state, orders({"siege": {"zone": "Reval", "rounds": 1}}), [6, 6] + [1] * 4 + [6, 1])
    assert events[-1] == {"type": "siege_lifted", "zone": "Reval", "why": "Pyrrhic victory: no besieger left (9.4)"}
    assert after["control"]["Reval"] == "north"
